/* LQR: the double integrator's closed form, discrete LQR against the
 * Riccati recursion, the cross term, bad costs, and a closed loop built
 * from system + context that balances an inverted pendulum. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "systems/analysis/simulator.h"
#include "systems/controllers/lqr.h"
#include "support/error_messages.h"

START_TEST(test_double_integrator) {
  double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, Q[4] = {1, 0, 0, 1}, R[1] = {1};
  double K[2], S[4];
  ck_assert_int_eq(teal_lqr(A, B, Q, R, NULL, 2, 1, 0, K, S, NULL), TEAL_OK);
  double r3 = sqrt(3.0);
  ck_assert_double_eq_tol(K[0], 1.0, 1e-12);
  ck_assert_double_eq_tol(K[1], r3, 1e-12);
  ck_assert_double_eq_tol(S[0], r3, 1e-12);
  ck_assert_double_eq_tol(S[1], 1.0, 1e-12);
  ck_assert_double_eq_tol(S[2], 1.0, 1e-12);
  ck_assert_double_eq_tol(S[3], r3, 1e-12);
}
END_TEST

/* S_{k+1} = A'SA - A'SB (R + B'SB)^-1 B'SA + Q iterated to convergence for
 * a scalar system gives the DARE solution in closed form. */
START_TEST(test_discrete_scalar) {
  double a = 1.2, b = 0.5, q = 2.0, r = 0.7, K, S;
  ck_assert_int_eq(teal_lqr(&a, &b, &q, &r, NULL, 1, 1, 1, &K, &S, NULL), TEAL_OK);
  double s = q;
  for (int i = 0; i < 2000; i++) {
    s = a * s * a - (a * s * b) * (a * s * b) / (r + b * s * b) + q;
  }
  ck_assert_double_eq_tol(S, s, 1e-10 * s);
  ck_assert_double_eq_tol(K, b * s * a / (r + b * s * b), 1e-10);
  ck_assert(fabs(a - b * K) < 1.0); /* the closed loop is stable */
}
END_TEST

/* With a cross term, the gain equals that of the transformed problem:
 * K = K_t + R^-1 N', K_t from (A - B R^-1 N', Q - N R^-1 N'). */
START_TEST(test_cross_term) {
  double A[4] = {0, 1, -1, -0.2}, B[2] = {0, 1}, Q[4] = {2, 0, 0, 1}, R[1] = {0.5};
  double N[2] = {0.1, 0.2}, K[2], Kt[2];
  ck_assert_int_eq(teal_lqr(A, B, Q, R, N, 2, 1, 0, K, NULL, NULL), TEAL_OK);
  double At[4], Qt[4];
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 2; j++) {
      At[i * 2 + j] = A[i * 2 + j] - B[i] * N[j] / R[0];
      Qt[i * 2 + j] = Q[i * 2 + j] - N[i] * N[j] / R[0];
    }
  }
  ck_assert_int_eq(teal_lqr(At, B, Qt, R, NULL, 2, 1, 0, Kt, NULL, NULL), TEAL_OK);
  for (int j = 0; j < 2; j++) {
    ck_assert_double_eq_tol(K[j], Kt[j] + N[j] / R[0], 1e-10);
  }
}
END_TEST

START_TEST(test_bad_costs) {
  double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, K[2];
  double Qbad[4] = {1, 0, 0, -1}, Qasym[4] = {1, 0.5, 0, 1}, Q[4] = {1, 0, 0, 1};
  double R[1] = {1}, Rneg[1] = {-1}, Rnan[1] = {NAN};
  teal_error err;
  ck_assert_int_eq(teal_lqr(A, B, Qbad, R, NULL, 2, 1, 0, K, NULL, &err), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "semidefinite"));
  ck_assert_int_eq(teal_lqr(A, B, Qasym, R, NULL, 2, 1, 0, K, NULL, &err), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "symmetric"));
  ck_assert_int_eq(teal_lqr(A, B, Q, Rneg, NULL, 2, 1, 0, K, NULL, &err), TEAL_ESINGULAR);
  ck_assert_int_eq(teal_lqr(A, B, Q, Rnan, NULL, 2, 1, 0, K, NULL, &err), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_lqr(A, B, Q, R, NULL, 0, 1, 0, K, NULL, &err), TEAL_EINVAL);
  /* a singular R, and an unstable mode B cannot reach, in both forms */
  double Au[4] = {1, 0, 0, 2}, Bu[2] = {1, 0}, Rzero[1] = {0};
  for (int discrete = 0; discrete < 2; discrete++) {
    TS_EXPECT_ERROR(teal_lqr(A, B, Q, Rzero, NULL, 2, 1, discrete, K, NULL, &err), TEAL_ESINGULAR,
                    &err, "R (1 x 1) is not positive definite");
    TS_EXPECT_ERROR(teal_lqr(Au, Bu, Q, R, NULL, 2, 1, discrete, K, NULL, &err), TEAL_ENOCONV, &err,
                    "not stabilizable?");
  }
}
END_TEST

/* ---- closed loop: an inverted pendulum balanced by LQR ------------------ */

static const double g = 9.81, len = 1.0, mass = 1.0;

static int pend_derivs(const teal_system *s, const teal_context *c, teal_continuous_view *xd,
                       void *u) {
  (void)u;
  const double *tau;
  int rc = teal_eval_vector_input(s, c, 0, &tau);
  if (rc) {
    return rc;
  }
  double th = teal_context_q(c)[0];
  xd->q[0] = teal_context_v(c)[0];
  xd->v[0] = (tau[0] + mass * g * len * sin(th)) / (mass * len * len);
  return TEAL_OK;
}

static int pend_state(const teal_system *s, const teal_context *c, double *y, void *u) {
  (void)s;
  (void)u;
  y[0] = teal_context_q(c)[0];
  y[1] = teal_context_v(c)[0];
  return TEAL_OK;
}

static teal_system *pendulum(void) {
  teal_system *s = teal_leaf_new("pendulum", NULL, NULL);
  teal_ticket xc = TEAL_TICKET_XC;
  teal_leaf_declare_vector_input(s, "tau", 1);
  teal_leaf_declare_vector_output(s, "state", 2, pend_state, NULL, &xc, 1);
  teal_leaf_declare_continuous_state(s, 1, 1, 0, NULL);
  teal_leaf_set_time_derivatives(s, pend_derivs, NULL);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

START_TEST(test_closed_loop_balances) {
  /* the controller designed on a standalone plant at the upright */
  teal_system *model = pendulum();
  teal_context *op = teal_context_new(model, NULL);
  double zero = 0.0;
  teal_context_fix_input(op, 0, &zero, 1);
  double Q[4] = {10, 0, 0, 1}, R[1] = {1}, K[2];
  teal_error err;
  teal_system *lqr = teal_lqr_controller_new("lqr", model, op, 0, Q, R, NULL, K, NULL, &err);
  ck_assert_msg(lqr != NULL, "%s", err.message);
  /* K from the analytic linearization A = [0 1; g/l 0], B = [0; 1/(m l^2)] */
  double A[4] = {0, 1, g / len, 0}, B[2] = {0, 1 / (mass * len * len)}, Kref[2];
  ck_assert_int_eq(teal_lqr(A, B, Q, R, NULL, 2, 1, 0, Kref, NULL, NULL), TEAL_OK);
  ck_assert_double_eq_tol(K[0], Kref[0], 1e-5);
  ck_assert_double_eq_tol(K[1], Kref[1], 1e-5);
  teal_context_free(op);
  teal_system_free(model);

  teal_builder *b = teal_builder_new("balance");
  teal_builder_add(b, pendulum());
  teal_builder_add(b, lqr);
  teal_builder_connect_by_name(b, "pendulum", "state", "lqr", "u");
  teal_builder_connect_by_name(b, "lqr", "y", "pendulum", "tau");
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_simulator *sim = teal_simulator_new(d, NULL, &err);
  double x0[2] = {0.3, -0.2};
  teal_context_set_continuous_state(teal_simulator_context(sim), x0, 2);
  teal_simulator_set_integrator(sim, teal_integrator_rk45);
  teal_simulator_set_accuracy(sim, 1e-8);
  ck_assert_int_eq(teal_simulator_advance_to(sim, 10.0, NULL), TEAL_OK);
  const double *q = teal_context_q(teal_simulator_context(sim));
  const double *v = teal_context_v(teal_simulator_context(sim));
  ck_assert_double_lt(fabs(q[0]), 1e-5);
  ck_assert_double_lt(fabs(v[0]), 1e-5);
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

START_TEST(test_controller_needs_equilibrium) {
  teal_system *model = pendulum();
  teal_context *op = teal_context_new(model, NULL);
  double zero = 0.0, x[2] = {0.5, 0.0};
  teal_context_fix_input(op, 0, &zero, 1);
  teal_context_set_continuous_state(op, x, 2);
  double Q[4] = {1, 0, 0, 1}, R[1] = {1};
  teal_error err;
  ck_assert_ptr_null(teal_lqr_controller_new("lqr", model, op, 0, Q, R, NULL, NULL, NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "equilibrium"));
  teal_context_free(op);
  teal_system_free(model);
}
END_TEST

int main(void) {
  Suite *s = suite_create("lqr");
  TCase *tc = tcase_create("lqr");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_double_integrator);
  tcase_add_test(tc, test_discrete_scalar);
  tcase_add_test(tc, test_cross_term);
  tcase_add_test(tc, test_bad_costs);
  tcase_add_test(tc, test_closed_loop_balances);
  tcase_add_test(tc, test_controller_needs_equilibrium);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
