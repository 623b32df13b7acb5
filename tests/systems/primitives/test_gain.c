/* Tests of the gain: y = k u, feedthrough, caching on the input, the
 * Jacobian hook and parameter validation. */
#include "systems/primitives/gain.h"

#include "support/primitives_test_util.h"

START_TEST(test_output) {
  teal_error err;
  teal_system *s = teal_gain_new("g", -2.5, 3, &err);
  ck_assert_ptr_nonnull(s);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(s, 0)), "u");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(s, 0)), "y");
  ck_assert_int_eq(teal_input_port_size(teal_system_input_port(s, 0)), 3);
  ck_assert_int_eq(teal_output_port_size(teal_system_output_port(s, 0)), 3);
  teal_context *ctx = pt_context(s);
  const double u[3] = {1.0, -2.0, 0.5}, want[3] = {-2.5, 5.0, -1.25};
  pt_fix(ctx, 0, u, 3);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want, 3, PT_TOL);
  /* the cached value follows a new input */
  const double u2[3] = {4.0, 0.0, -4.0}, want2[3] = {-10.0, 0.0, 10.0};
  pt_fix(ctx, 0, u2, 3);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want2, 3, PT_TOL);
  /* calc agrees with eval */
  double y[3];
  ck_assert_int_eq(teal_calc_vector_output(s, ctx, 0, y), TEAL_OK);
  ASSERT_VEC_NEAR(y, want2, 3, PT_TOL);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_feedthrough_and_unconnected) {
  teal_system *s = teal_gain_new("g", 2.0, 1, NULL);
  ck_assert(teal_system_has_direct_feedthrough(s, 0, 0));
  teal_context *ctx = pt_context(s);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(s, ctx, 0, &y), TEAL_ENOTCONNECTED);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_output_ignores_time) {
  teal_system *s = teal_gain_new("g", 3.0, 1, NULL);
  teal_context *ctx = pt_context(s);
  const double u = 2.0;
  pt_fix(ctx, 0, &u, 1);
  const double *y1 = pt_eval(s, ctx, 0);
  ck_assert_double_eq(y1[0], 6.0);
  ck_assert_int_eq(teal_context_set_time(ctx, 5.0), TEAL_OK);
  ck_assert_double_eq(pt_eval(s, ctx, 0)[0], 6.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_jacobian) {
  teal_system *s = teal_gain_new("g", 1.5, 2, NULL);
  ck_assert(teal_system_has_jacobian(s));
  teal_context *ctx = pt_context(s);
  double D[4] = {9, 9, 9, 9};
  const double want[4] = {1.5, 0.0, 0.0, 1.5};
  teal_jacobian jac = {0, 2, 2, NULL, NULL, NULL, D};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &jac), TEAL_OK);
  ASSERT_VEC_NEAR(D, want, 4, 0.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_bad_parameters) {
  teal_error err;
  teal_system *s = teal_gain_new("amp", 1.0, 0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "gain 'amp'");
  s = teal_gain_new("amp", 1.0, -3, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "'amp'");
  s = teal_gain_new("amp", NAN, 1, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "'amp'");
  ASSERT_HAS(err.message, "k");
  s = teal_gain_new("amp", -INFINITY, 1, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "'amp'");
  s = teal_gain_new("x/y", 1.0, 1, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "'x/y'");
}
END_TEST

int main(void) {
  Suite *s = suite_create("gain");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_output);
  tcase_add_test(tc, test_feedthrough_and_unconnected);
  tcase_add_test(tc, test_output_ignores_time);
  tcase_add_test(tc, test_jacobian);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return pt_run(s);
}
