/* Tests of the integrator primitive: zdot = u, y = z without feedthrough,
 * default initial values, the Jacobian hook, validation, and a
 * sine -> gain -> integrator diagram. */
#include "systems/primitives/integrator_system.h"

#include "support/primitives_test_util.h"
#include "systems/primitives/gain.h"
#include "systems/primitives/sine.h"

START_TEST(test_state_output_and_derivatives) {
  teal_error err;
  teal_system *s = teal_integrator_system_new("int", 2, &err);
  ck_assert_ptr_nonnull(s);
  int nq = -1, nv = -1, nz = -1;
  ck_assert_int_eq(teal_system_num_continuous_states(s, &nq, &nv, &nz), 2);
  ck_assert_int_eq(nq, 0);
  ck_assert_int_eq(nv, 0);
  ck_assert_int_eq(nz, 2);
  ck_assert(!teal_system_has_direct_feedthrough(s, 0, 0));
  teal_context *ctx = pt_context(s);
  const double zero[2] = {0.0, 0.0};
  /* the output needs no input */
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), zero, 2, 0.0);
  const double z[2] = {1.5, -0.5};
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, z, 2), TEAL_OK);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), z, 2, 0.0);
  const double u[2] = {3.0, -7.0};
  pt_fix(ctx, 0, u, 2);
  double xdot[2];
  pt_derivs(s, ctx, xdot);
  ASSERT_VEC_NEAR(xdot, u, 2, 0.0);
  /* z changed through the _mut accessor is seen by the cached output */
  teal_context_z_mut(ctx)[1] = 4.0;
  ck_assert_double_eq(pt_eval(s, ctx, 0)[1], 4.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_derivatives_need_input) {
  teal_system *s = teal_integrator_system_new("int", 1, NULL);
  teal_context *ctx = pt_context(s);
  double xdot[1];
  ck_assert_int_eq(teal_calc_time_derivatives(s, ctx, xdot), TEAL_ENOTCONNECTED);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_initial_value) {
  const double z0[3] = {1.0, 2.0, 3.0};
  teal_system *s = teal_integrator_system_new_with_initial("int", z0, 3, NULL);
  ck_assert_ptr_nonnull(s);
  teal_context *ctx = pt_context(s);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), z0, 3, 0.0);
  teal_context_z_mut(ctx)[0] = -1.0;
  ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_OK);
  ASSERT_VEC_NEAR(teal_context_z(ctx), z0, 3, 0.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_jacobian) {
  teal_system *s = teal_integrator_system_new("int", 2, NULL);
  teal_context *ctx = pt_context(s);
  double A[4], B[4], C[4], D[4];
  for (int i = 0; i < 4; i++) {
    A[i] = B[i] = C[i] = D[i] = 9.0;
  }
  teal_jacobian jac = {2, 2, 2, A, B, C, D};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &jac), TEAL_OK);
  const double zero[4] = {0, 0, 0, 0}, eye[4] = {1, 0, 0, 1};
  ASSERT_VEC_NEAR(A, zero, 4, 0.0);
  ASSERT_VEC_NEAR(B, eye, 4, 0.0);
  ASSERT_VEC_NEAR(C, eye, 4, 0.0);
  ASSERT_VEC_NEAR(D, zero, 4, 0.0);
  /* nx = 0 matches the (empty) discrete state in the framework's check;
   * the hook refuses it */
  teal_jacobian bad = {0, 2, 2, NULL, B, C, D};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &bad), TEAL_ESIZE);
  ASSERT_HAS(teal_context_error(ctx)->message, "'int'");
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_bad_parameters) {
  teal_error err;
  const double z0[2] = {0.0, NAN};
  teal_system *s = teal_integrator_system_new("acc", 0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "integrator 'acc'");
  s = teal_integrator_system_new_with_initial("acc", z0, 2, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "'acc'");
  ASSERT_HAS(err.message, "z0[1]");
}
END_TEST

/* sine (a, w) -> gain k -> integrator: zdot = k a sin(w t), y = z. */
START_TEST(test_sine_gain_integrator_diagram) {
  const double a = 2.0, w = 3.0, phi = 0.5, k = -4.0;
  teal_builder *b = teal_builder_new("loop");
  pt_add(b, teal_sine_new("sine", &a, &w, &phi, 1, NULL));
  pt_add(b, teal_gain_new("gain", k, 1, NULL));
  teal_system *in = pt_add(b, teal_integrator_system_new("int", 1, NULL));
  pt_connect(b, "sine", "y", "gain", "u");
  pt_connect(b, "gain", "y", "int", "u");
  ck_assert_int_eq(teal_builder_export_output(b, teal_system_output_port(in, 0), "y"), 0);
  teal_system *d = pt_build(b);
  ck_assert_int_eq(teal_system_num_input_ports(d), 0);
  teal_context *ctx = pt_context(d);
  const double t = 0.7, z = 1.25;
  ck_assert_int_eq(teal_context_set_time(ctx, t), TEAL_OK);
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, &z, 1), TEAL_OK);
  double xdot[1];
  pt_derivs(d, ctx, xdot);
  ck_assert_double_eq_tol(xdot[0], k * a * sin(w * t + phi), PT_TOL);
  ck_assert_double_eq(pt_eval(d, ctx, 0)[0], z);
  /* a later time changes the derivative */
  ck_assert_int_eq(teal_context_set_time(ctx, 2.0), TEAL_OK);
  pt_derivs(d, ctx, xdot);
  ck_assert_double_eq_tol(xdot[0], k * a * sin(w * 2.0 + phi), PT_TOL);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* An integrator in a feedback loop with a gain is not an algebraic loop. */
START_TEST(test_feedback_loop_builds) {
  const double z0 = 2.0;
  teal_builder *b = teal_builder_new("decay");
  pt_add(b, teal_integrator_system_new_with_initial("int", &z0, 1, NULL));
  pt_add(b, teal_gain_new("gain", -0.5, 1, NULL));
  pt_connect(b, "int", "y", "gain", "u");
  pt_connect(b, "gain", "y", "int", "u");
  teal_system *d = pt_build(b);
  teal_context *ctx = pt_context(d);
  double xdot[1];
  pt_derivs(d, ctx, xdot);
  ck_assert_double_eq_tol(xdot[0], -1.0, PT_TOL);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

int main(void) {
  Suite *s = suite_create("integrator_system");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_state_output_and_derivatives);
  tcase_add_test(tc, test_derivatives_need_input);
  tcase_add_test(tc, test_initial_value);
  tcase_add_test(tc, test_jacobian);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  tc = tcase_create("diagram");
  tcase_add_test(tc, test_sine_gain_integrator_diagram);
  tcase_add_test(tc, test_feedback_loop_builds);
  suite_add_tcase(s, tc);
  return pt_run(s);
}
