/* Tests of the adder: sums of fixed inputs, feedthrough from every input,
 * the Jacobian hook, validation, and an adder fed by two sources in a
 * diagram. */
#include "systems/primitives/adder.h"

#include "support/primitives_test_util.h"
#include "systems/primitives/constant_vector_source.h"
#include "systems/primitives/sine.h"

START_TEST(test_sum_of_inputs) {
  teal_error err;
  teal_system *s = teal_adder_new("add", 3, 2, &err);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(teal_system_num_input_ports(s), 3);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(s, 0)), "u0");
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(s, 2)), "u2");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(s, 0)), "sum");
  teal_context *ctx = pt_context(s);
  const double a[2] = {1.0, 2.0}, b[2] = {10.0, -20.0}, c[2] = {0.5, 0.25};
  pt_fix(ctx, 0, a, 2);
  pt_fix(ctx, 1, b, 2);
  const double *y;
  /* one input missing */
  ck_assert_int_eq(teal_eval_vector_output(s, ctx, 0, &y), TEAL_ENOTCONNECTED);
  pt_fix(ctx, 2, c, 2);
  const double want[2] = {11.5, -17.75};
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want, 2, PT_TOL);
  /* changing any one input is seen */
  const double c2[2] = {-1.0, -1.0}, want2[2] = {10.0, -19.0};
  pt_fix(ctx, 2, c2, 2);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want2, 2, PT_TOL);
  for (int i = 0; i < 3; i++) {
    ck_assert(teal_system_has_direct_feedthrough(s, i, 0));
  }
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_single_input) {
  teal_system *s = teal_adder_new("add", 1, 1, NULL);
  teal_context *ctx = pt_context(s);
  const double u = -4.0;
  pt_fix(ctx, 0, &u, 1);
  ck_assert_double_eq(pt_eval(s, ctx, 0)[0], -4.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_jacobian) {
  teal_system *s = teal_adder_new("add", 2, 2, NULL);
  teal_context *ctx = pt_context(s);
  const double eye[4] = {1, 0, 0, 1};
  for (int p = 0; p < 2; p++) {
    double D[4] = {7, 7, 7, 7};
    teal_jacobian jac = {0, 2, 2, NULL, NULL, NULL, D};
    ck_assert_int_eq(teal_calc_jacobian(s, ctx, p, 0, &jac), TEAL_OK);
    ASSERT_VEC_NEAR(D, eye, 4, 0.0);
  }
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_bad_parameters) {
  teal_error err;
  teal_system *s = teal_adder_new("sum1", 0, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "adder 'sum1'");
  ASSERT_HAS(err.message, "num_inputs");
  s = teal_adder_new("sum1", 2, 0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "'sum1'");
  ASSERT_HAS(err.message, "size n");
}
END_TEST

/* constant + sine -> adder, the sum exported. */
START_TEST(test_in_diagram) {
  const double c = 2.0, a = 3.0, w = 0.5, phi = 0.0;
  teal_builder *b = teal_builder_new("d");
  pt_add(b, teal_constant_vector_source_new("c", &c, 1, NULL));
  pt_add(b, teal_sine_new("s", &a, &w, &phi, 1, NULL));
  teal_system *add = pt_add(b, teal_adder_new("add", 2, 1, NULL));
  pt_connect(b, "c", "y", "add", "u0");
  pt_connect(b, "s", "y", "add", "u1");
  ck_assert_int_eq(teal_builder_export_output(b, teal_system_output_port(add, 0), "sum"), 0);
  teal_system *d = pt_build(b);
  teal_context *ctx = pt_context(d);
  ck_assert_double_eq_tol(pt_eval(d, ctx, 0)[0], 2.0, PT_TOL);
  ck_assert_int_eq(teal_context_set_time(ctx, 1.0), TEAL_OK);
  ck_assert_double_eq_tol(pt_eval(d, ctx, 0)[0], 2.0 + 3.0 * sin(0.5), PT_TOL);
  /* the constant's parameter, changed in its subcontext, reaches the sum */
  teal_context *cc = teal_context_subcontext_by_name_mut(ctx, "c");
  const double c2 = -1.0;
  ck_assert_int_eq(teal_context_set_numeric_parameter(cc, 0, &c2, 1), TEAL_OK);
  ck_assert_double_eq_tol(pt_eval(d, ctx, 0)[0], -1.0 + 3.0 * sin(0.5), PT_TOL);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

int main(void) {
  Suite *s = suite_create("adder");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_sum_of_inputs);
  tcase_add_test(tc, test_single_input);
  tcase_add_test(tc, test_jacobian);
  tcase_add_test(tc, test_bad_parameters);
  tcase_add_test(tc, test_in_diagram);
  suite_add_tcase(s, tc);
  return pt_run(s);
}
