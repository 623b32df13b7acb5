/* Tests of the sine source: y, ydot and yddot against closed forms, time as
 * the only prerequisite, the (empty) Jacobian, and validation. */
#include "systems/primitives/sine.h"

#include "support/primitives_test_util.h"

static const double kA[2] = {2.0, -0.5};
static const double kW[2] = {3.0, 0.25};
static const double kPhi[2] = {0.5, -1.0};

START_TEST(test_outputs) {
  teal_error err;
  teal_system *s = teal_sine_new("sine", kA, kW, kPhi, 2, &err);
  ck_assert_msg(s != NULL, "%s", err.message);
  ck_assert_int_eq(teal_system_num_input_ports(s), 0);
  ck_assert_int_eq(teal_system_num_output_ports(s), 3);
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(s, TEAL_SINE_Y)), "y");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(s, TEAL_SINE_YDOT)), "ydot");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(s, TEAL_SINE_YDDOT)), "yddot");
  teal_context *ctx = pt_context(s);
  const double times[3] = {0.0, 0.3, 12.5};
  for (int k = 0; k < 3; k++) {
    double t = times[k];
    ck_assert_int_eq(teal_context_set_time(ctx, t), TEAL_OK);
    double y[2], yd[2], ydd[2];
    for (int i = 0; i < 2; i++) {
      double arg = kW[i] * t + kPhi[i];
      y[i] = kA[i] * sin(arg);
      yd[i] = kA[i] * kW[i] * cos(arg);
      ydd[i] = -kA[i] * kW[i] * kW[i] * sin(arg);
    }
    ASSERT_VEC_NEAR(pt_eval(s, ctx, TEAL_SINE_Y), y, 2, PT_TOL);
    ASSERT_VEC_NEAR(pt_eval(s, ctx, TEAL_SINE_YDOT), yd, 2, PT_TOL);
    ASSERT_VEC_NEAR(pt_eval(s, ctx, TEAL_SINE_YDDOT), ydd, 2, PT_TOL);
  }
  /* a hand-computed value: 2 sin(pi/2) at t = (pi/2 - 0.5) / 3 (acos(0) = pi/2) */
  ck_assert_int_eq(teal_context_set_time(ctx, (acos(0.0) - 0.5) / 3.0), TEAL_OK);
  ck_assert_double_eq_tol(pt_eval(s, ctx, TEAL_SINE_Y)[0], 2.0, PT_TOL);
  ck_assert_double_eq_tol(pt_eval(s, ctx, TEAL_SINE_YDOT)[0], 0.0, PT_TOL);
  ck_assert_double_eq_tol(pt_eval(s, ctx, TEAL_SINE_YDDOT)[0], -18.0, PT_TOL);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_depends_on_time_only) {
  teal_system *s = teal_sine_new("sine", kA, kW, kPhi, 1, NULL);
  teal_context *ctx = pt_context(s);
  const double *y0 = pt_eval(s, ctx, TEAL_SINE_Y);
  double first = y0[0];
  ck_assert_double_eq_tol(first, 2.0 * sin(0.5), PT_TOL);
  /* accuracy is not a prerequisite; time is */
  ck_assert_int_eq(teal_context_set_accuracy(ctx, 1e-3), TEAL_OK);
  ck_assert_double_eq(pt_eval(s, ctx, TEAL_SINE_Y)[0], first);
  ck_assert_int_eq(teal_context_set_time(ctx, 1.0), TEAL_OK);
  ck_assert_double_eq_tol(pt_eval(s, ctx, TEAL_SINE_Y)[0], 2.0 * sin(3.5), PT_TOL);
  ck_assert(teal_system_has_jacobian(s));
  teal_jacobian jac = {0, 0, 1, NULL, NULL, NULL, NULL};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, -1, TEAL_SINE_YDOT, &jac), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_bad_parameters) {
  const double bad[2] = {1.0, INFINITY};
  teal_error err;
  teal_system *s = teal_sine_new("osc", kA, kW, kPhi, 0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "sine 'osc'");
  s = teal_sine_new("osc", NULL, kW, kPhi, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "amplitude");
  s = teal_sine_new("osc", kA, NULL, kPhi, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "frequency");
  s = teal_sine_new("osc", kA, kW, NULL, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "phase");
  s = teal_sine_new("osc", kA, bad, kPhi, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "frequency[1]");
  ASSERT_HAS(err.message, "'osc'");
}
END_TEST

int main(void) {
  Suite *s = suite_create("sine");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_outputs);
  tcase_add_test(tc, test_depends_on_time_only);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return pt_run(s);
}
