/* Tests of saturation with fixed and with input-port limits: clamping,
 * infinite limits, feedthrough, the Jacobian hook, evaluation errors for
 * crossed limits, and constructor validation. */
#include "systems/primitives/saturation.h"

#include "support/primitives_test_util.h"

START_TEST(test_fixed_limits) {
  const double lo[4] = {-1.0, 0.0, -INFINITY, 2.0}, hi[4] = {1.0, INFINITY, 0.0, 2.0};
  teal_error err;
  teal_system *s = teal_saturation_new("sat", lo, hi, 4, &err);
  ck_assert_msg(s != NULL, "%s", err.message);
  ck_assert_int_eq(teal_system_num_input_ports(s), 1);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(s, 0)), "u");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(s, 0)), "y");
  ck_assert(teal_system_has_direct_feedthrough(s, 0, 0));
  teal_context *ctx = pt_context(s);
  const double u[4] = {5.0, -3.0, -1e300, 7.0}, want[4] = {1.0, 0.0, -1e300, 2.0};
  pt_fix(ctx, 0, u, 4);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want, 4, 0.0);
  const double u2[4] = {0.5, 1e300, 3.0, -7.0}, want2[4] = {0.5, 1e300, 0.0, 2.0};
  pt_fix(ctx, 0, u2, 4);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want2, 4, 0.0);
  /* Jacobian about u2: only entry 0 is strictly inside its limits */
  double D[16];
  teal_jacobian jac = {0, 4, 4, NULL, NULL, NULL, D};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &jac), TEAL_OK);
  for (int r = 0; r < 4; r++) {
    for (int c = 0; c < 4; c++) {
      double want_rc = (r == c && (r == 0 || r == 1)) ? 1.0 : 0.0;
      ck_assert_double_eq(D[r * 4 + c], want_rc);
    }
  }
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_variable_limits) {
  teal_error err;
  teal_system *s = teal_saturation_variable_new("vsat", 2, &err);
  ck_assert_msg(s != NULL, "%s", err.message);
  ck_assert_int_eq(teal_system_num_input_ports(s), 3);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(s, TEAL_SATURATION_U)), "u");
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(s, TEAL_SATURATION_MIN)), "min");
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(s, TEAL_SATURATION_MAX)), "max");
  for (int i = 0; i < 3; i++) {
    ck_assert(teal_system_has_direct_feedthrough(s, i, 0));
  }
  teal_context *ctx = pt_context(s);
  const double u[2] = {3.0, -3.0}, lo[2] = {-1.0, -2.0}, hi[2] = {2.0, 2.0};
  pt_fix(ctx, TEAL_SATURATION_U, u, 2);
  pt_fix(ctx, TEAL_SATURATION_MIN, lo, 2);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(s, ctx, 0, &y), TEAL_ENOTCONNECTED);
  pt_fix(ctx, TEAL_SATURATION_MAX, hi, 2);
  const double want[2] = {2.0, -2.0};
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want, 2, 0.0);
  /* a limit change is seen through the cache */
  const double hi2[2] = {10.0, 10.0}, want2[2] = {3.0, -2.0};
  pt_fix(ctx, TEAL_SATURATION_MAX, hi2, 2);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want2, 2, 0.0);
  /* Jacobians about u = (3, -3), min = (-1, -2), max = (10, 10) */
  double D[4];
  teal_jacobian jac = {0, 2, 2, NULL, NULL, NULL, D};
  const double du[4] = {1, 0, 0, 0}, dmin[4] = {0, 0, 0, 1}, dmax[4] = {0, 0, 0, 0};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, TEAL_SATURATION_U, 0, &jac), TEAL_OK);
  ASSERT_VEC_NEAR(D, du, 4, 0.0);
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, TEAL_SATURATION_MIN, 0, &jac), TEAL_OK);
  ASSERT_VEC_NEAR(D, dmin, 4, 0.0);
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, TEAL_SATURATION_MAX, 0, &jac), TEAL_OK);
  ASSERT_VEC_NEAR(D, dmax, 4, 0.0);
  pt_fix(ctx, TEAL_SATURATION_MAX, hi, 2); /* u0 = 3 > max0 = 2 now */
  const double dmax2[4] = {1, 0, 0, 0};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, TEAL_SATURATION_MAX, 0, &jac), TEAL_OK);
  ASSERT_VEC_NEAR(D, dmax2, 4, 0.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_variable_limits_crossed) {
  teal_system *s = teal_saturation_variable_new("vsat", 2, NULL);
  teal_context *ctx = pt_context(s);
  const double u[2] = {0.0, 0.0}, lo[2] = {-1.0, 3.0}, hi[2] = {1.0, 2.0};
  pt_fix(ctx, TEAL_SATURATION_U, u, 2);
  pt_fix(ctx, TEAL_SATURATION_MIN, lo, 2);
  pt_fix(ctx, TEAL_SATURATION_MAX, hi, 2);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(s, ctx, 0, &y), TEAL_EINVAL);
  ASSERT_HAS(teal_context_error(ctx)->message, "'vsat'");
  ASSERT_HAS(teal_context_error(ctx)->message, "min[1]");
  double D[4];
  teal_jacobian jac = {0, 2, 2, NULL, NULL, NULL, D};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &jac), TEAL_EINVAL);
  /* equal limits are fine */
  pt_fix(ctx, TEAL_SATURATION_MIN, u, 2);
  pt_fix(ctx, TEAL_SATURATION_MAX, u, 2);
  const double zero[2] = {0.0, 0.0};
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), zero, 2, 0.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_bad_parameters) {
  const double lo[2] = {0.0, 1.0}, hi[2] = {1.0, 0.5}, nan2[2] = {NAN, 0.0};
  teal_error err;
  teal_system *s = teal_saturation_new("lim", lo, hi, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "saturation 'lim'");
  ASSERT_HAS(err.message, "min[1]");
  s = teal_saturation_new("lim", lo, hi, 0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "'lim'");
  s = teal_saturation_new("lim", NULL, hi, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "'lim'");
  s = teal_saturation_new("lim", lo, NULL, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "max");
  s = teal_saturation_new("lim", nan2, hi, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "'lim'");
  s = teal_saturation_variable_new("vlim", 0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "saturation 'vlim'");
}
END_TEST

int main(void) {
  Suite *s = suite_create("saturation");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_fixed_limits);
  tcase_add_test(tc, test_variable_limits);
  tcase_add_test(tc, test_variable_limits_crossed);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return pt_run(s);
}
