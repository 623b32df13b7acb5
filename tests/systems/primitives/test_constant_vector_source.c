/* Tests of the constant vector source: output value, the value held as a
 * per-context parameter (and the cache following it), prerequisites,
 * Jacobian hook and parameter validation. */
#include "systems/primitives/constant_vector_source.h"

#include "support/primitives_test_util.h"

START_TEST(test_output_is_value) {
  const double v[3] = {1.5, -2.0, 0.25};
  teal_error err;
  teal_system *s = teal_constant_vector_source_new("c", v, 3, &err);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(err.code, TEAL_OK);
  ck_assert_int_eq(teal_system_num_input_ports(s), 0);
  ck_assert_int_eq(teal_system_num_output_ports(s), 1);
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(s, 0)), "y");
  ck_assert_int_eq(teal_output_port_size(teal_system_output_port(s, 0)), 3);
  ck_assert_int_eq(teal_system_num_numeric_parameters(s), 1);
  ck_assert_int_eq(teal_system_numeric_parameter_size(s, TEAL_CONSTANT_VECTOR_SOURCE_VALUE), 3);
  ck_assert_int_eq(teal_system_num_continuous_states(s, NULL, NULL, NULL), 0);
  teal_context *ctx = pt_context(s);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), v, 3, 0.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_value_is_a_parameter_per_context) {
  const double v[2] = {1.0, 2.0}, w[2] = {-3.0, 4.5};
  teal_system *s = teal_constant_vector_source_new("c", v, 2, NULL);
  teal_context *a = pt_context(s), *b = pt_context(s);
  const double *y = pt_eval(s, a, 0);
  ASSERT_VEC_NEAR(y, v, 2, 0.0);
  /* the cached output follows a parameter change in one context only */
  ck_assert_int_eq(teal_context_set_numeric_parameter(a, TEAL_CONSTANT_VECTOR_SOURCE_VALUE, w, 2),
                   TEAL_OK);
  ASSERT_VEC_NEAR(pt_eval(s, a, 0), w, 2, 0.0);
  ASSERT_VEC_NEAR(pt_eval(s, b, 0), v, 2, 0.0);
  /* writing through the _mut accessor invalidates too */
  teal_context_numeric_parameter_mut(b, 0)[1] = 7.0;
  ck_assert_double_eq(pt_eval(s, b, 0)[1], 7.0);
  /* time and defaults */
  ck_assert_int_eq(teal_context_set_time(a, 10.0), TEAL_OK);
  ASSERT_VEC_NEAR(pt_eval(s, a, 0), w, 2, 0.0);
  ck_assert_int_eq(teal_context_set_to_defaults(a), TEAL_OK);
  ASSERT_VEC_NEAR(pt_eval(s, a, 0), v, 2, 0.0);
  teal_context_free(a);
  teal_context_free(b);
  teal_system_free(s);
}
END_TEST

START_TEST(test_value_is_copied) {
  double v[1] = {3.0};
  teal_system *s = teal_constant_vector_source_new("c", v, 1, NULL);
  v[0] = 99.0;
  teal_context *ctx = pt_context(s);
  ck_assert_double_eq(pt_eval(s, ctx, 0)[0], 3.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_jacobian_is_empty) {
  const double v[2] = {1.0, 2.0};
  teal_system *s = teal_constant_vector_source_new("c", v, 2, NULL);
  ck_assert(teal_system_has_jacobian(s));
  teal_context *ctx = pt_context(s);
  teal_jacobian jac = {0, 0, 2, NULL, NULL, NULL, NULL};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, -1, 0, &jac), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_bad_parameters) {
  const double v[2] = {1.0, NAN}, inf[1] = {INFINITY};
  teal_error err;
  teal_system *s = teal_constant_vector_source_new("src", v, 0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "'src'");
  ASSERT_HAS(err.message, "n");
  s = teal_constant_vector_source_new("src", NULL, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "'src'");
  ASSERT_HAS(err.message, "value");
  s = teal_constant_vector_source_new("src", v, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "'src'");
  ASSERT_HAS(err.message, "value[1]");
  s = teal_constant_vector_source_new("src", inf, 1, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "'src'");
  /* a name the framework refuses */
  s = teal_constant_vector_source_new("a/b", v, 1, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "'a/b'");
  /* NULL err is allowed */
  ck_assert_ptr_null(teal_constant_vector_source_new("src", NULL, 1, NULL));
}
END_TEST

int main(void) {
  Suite *s = suite_create("constant_vector_source");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_output_is_value);
  tcase_add_test(tc, test_value_is_a_parameter_per_context);
  tcase_add_test(tc, test_value_is_copied);
  tcase_add_test(tc, test_jacobian_is_empty);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return pt_run(s);
}
