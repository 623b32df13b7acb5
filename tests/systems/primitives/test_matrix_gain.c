/* Tests of the matrix gain: y = D u (row-major), feedthrough from D, the
 * Jacobian hook, reading it back as a linear system, and validation. */
#include "systems/primitives/matrix_gain.h"

#include "support/primitives_test_util.h"
#include "systems/primitives/linear_system.h"

START_TEST(test_output) {
  /* 2 x 3 */
  const double D[6] = {1.0, 2.0, 3.0, -1.0, 0.0, 0.5};
  teal_error err;
  teal_system *s = teal_matrix_gain_new("mg", D, 2, 3, &err);
  ck_assert_msg(s != NULL, "%s", err.message);
  ck_assert_int_eq(teal_input_port_size(teal_system_input_port(s, 0)), 3);
  ck_assert_int_eq(teal_output_port_size(teal_system_output_port(s, 0)), 2);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(s, 0)), "u");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(s, 0)), "y");
  ck_assert_int_eq(teal_system_num_continuous_states(s, NULL, NULL, NULL), 0);
  ck_assert_int_eq(teal_system_num_discrete_states(s), 0);
  ck_assert(teal_system_has_direct_feedthrough(s, 0, 0));
  teal_context *ctx = pt_context(s);
  const double u[3] = {1.0, -1.0, 2.0}, want[2] = {5.0, 0.0};
  pt_fix(ctx, 0, u, 3);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want, 2, PT_TOL);
  const double u2[3] = {0.0, 1.0, 0.0}, want2[2] = {2.0, 0.0};
  pt_fix(ctx, 0, u2, 3);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want2, 2, PT_TOL);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_zero_matrix_has_no_feedthrough) {
  const double D[2] = {0.0, 0.0};
  teal_system *s = teal_matrix_gain_new("mg", D, 1, 2, NULL);
  ck_assert(!teal_system_has_direct_feedthrough(s, 0, 0));
  teal_context *ctx = pt_context(s);
  ck_assert_double_eq(pt_eval(s, ctx, 0)[0], 0.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_jacobian_and_model) {
  const double D[6] = {1.0, 2.0, 3.0, -1.0, 0.0, 0.5};
  teal_system *s = teal_matrix_gain_new("mg", D, 2, 3, NULL);
  ck_assert(teal_system_has_jacobian(s));
  teal_context *ctx = pt_context(s);
  double J[6] = {0};
  teal_jacobian jac = {0, 3, 2, NULL, NULL, NULL, J};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &jac), TEAL_OK);
  ASSERT_VEC_NEAR(J, D, 6, 0.0);
  teal_linear_system_matrices m;
  ck_assert_int_eq(teal_linear_system_get(s, &m), TEAL_OK);
  ck_assert_int_eq(m.nx, 0);
  ck_assert_int_eq(m.nu, 3);
  ck_assert_int_eq(m.ny, 2);
  ck_assert_double_eq(m.time_period, 0.0);
  ASSERT_VEC_NEAR(m.D, D, 6, 0.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_bad_parameters) {
  const double D[2] = {1.0, NAN};
  teal_error err;
  teal_system *s = teal_matrix_gain_new("K", D, 0, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "matrix_gain 'K'");
  ASSERT_HAS(err.message, "ny");
  s = teal_matrix_gain_new("K", D, 1, 0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "nu");
  s = teal_matrix_gain_new("K", NULL, 1, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "'K'");
  s = teal_matrix_gain_new("K", D, 1, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "matrix_gain 'K'");
  ASSERT_HAS(err.message, "D[1]");
}
END_TEST

int main(void) {
  Suite *s = suite_create("matrix_gain");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_output);
  tcase_add_test(tc, test_zero_matrix_has_no_feedthrough);
  tcase_add_test(tc, test_jacobian_and_model);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return pt_run(s);
}
