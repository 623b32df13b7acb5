/* Tests of the LQG compensator (systems/controllers/lqg.h). References: the
 * separation principle (the closed loop of the model with the compensator,
 * its exact Jacobian composed by framework/state_jacobian.h, has the
 * eigenvalues of A - B K and A - L C), and of its discrete form (the map of
 * one period from each unit state); the gains of teal_lqr and
 * teal_steady_state_kalman_gain; the operating point an equilibrium of the
 * closed loop; bad input. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/error_messages.h"
#include "support/test_support.h"
#include "teal.h"

/* An unstable plant of 3 states, 2 inputs, 2 outputs. */
static const double kA[9] = {0.5, 1.0, 0.0, 0.0, -0.2, 1.0, 0.3, 0.0, -1.0};
static const double kB[6] = {0.0, 0.0, 1.0, 0.0, 0.0, 1.0};
static const double kC[6] = {1.0, 0.0, 0.0, 0.0, 0.0, 1.0};
static const double kQ[9] = {4, 0, 0, 0, 1, 0, 0, 0, 2};
static const double kR[4] = {0.5, 0.1, 0.1, 1.0};
static const double kW[9] = {0.2, 0.05, 0, 0.05, 0.3, 0, 0, 0, 0.1};
static const double kV[4] = {0.01, 0, 0, 0.02};

static teal_linear_system_matrices model(double period) {
  teal_linear_system_matrices m = {3, 2, 2, period, kA, kB, NULL, kC, NULL, NULL};
  return m;
}

static int by_real_then_imag(const void *a, const void *b) {
  const double *x = a, *y = b;
  if (fabs(x[0] - y[0]) > 1e-7) {
    return x[0] < y[0] ? -1 : 1;
  }
  return (x[1] > y[1]) - (x[1] < y[1]);
}

/* The eigenvalues of the n x n matrix M as sorted (re, im) pairs. */
static void sorted_eigenvalues(const double *M, int n, double *pairs) {
  double wr[16], wi[16];
  ck_assert_int_eq(teal_dense_eigenvalues(M, n, wr, wi, NULL), TEAL_OK);
  for (int i = 0; i < n; i++) {
    pairs[2 * i] = wr[i];
    pairs[2 * i + 1] = wi[i];
  }
  qsort(pairs, (size_t)n, 2 * sizeof(double), by_real_then_imag);
}

/* out = A - X Y (3 x 3) with X 3 x 2 and Y 2 x 3. */
static void a_minus(const double *X, const double *Y, double *out) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      out[i * 3 + j] = kA[i * 3 + j] - X[i * 2] * Y[j] - X[i * 2 + 1] * Y[3 + j];
    }
  }
}

/* The model in closed loop with its compensator; plant states first. */
static teal_system *closed_loop(teal_system *lqg) {
  teal_builder *b = teal_builder_new("loop");
  teal_builder_add(b, teal_linear_system_new("plant", kA, kB, kC, NULL, 3, 2, 2, 0.0, NULL));
  teal_builder_add(b, lqg);
  teal_builder_connect_by_name(b, "plant", "y", "lqg", "measurement");
  teal_builder_connect_by_name(b, "lqg", "control", "plant", "u");
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  return d;
}

START_TEST(test_closed_loop_has_the_separation_eigenvalues) {
  teal_linear_system_matrices m = model(0.0);
  double K[6], L[6];
  teal_error err = {0};
  teal_system *lqg = teal_lqg_controller_new("lqg", &m, NULL, NULL, kQ, kR, kW, kV, K, L, &err);
  ck_assert_msg(lqg != NULL, "%s", err.message);
  teal_system *loop = closed_loop(lqg);
  teal_context *ctx = teal_context_new(loop, NULL);
  teal_state_jacobian *sj = teal_state_jacobian_new(ctx, &err);
  ck_assert_msg(sj != NULL, "%s", err.message);
  double J[36], got[12], want[12], AK[9], AL[9];
  ck_assert_int_eq(teal_state_jacobian_calc(sj, ctx, J), TEAL_OK);
  sorted_eigenvalues(J, 6, got);
  a_minus(kB, K, AK);
  a_minus(L, kC, AL);
  sorted_eigenvalues(AK, 3, want);
  sorted_eigenvalues(AL, 3, want + 6);
  qsort(want, 6, 2 * sizeof(double), by_real_then_imag);
  for (int i = 0; i < 12; i++) {
    ck_assert_double_eq_tol(got[i], want[i], 1e-9);
  }
  for (int i = 0; i < 6; i++) {
    ck_assert_double_lt(got[2 * i], 0.0); /* and the loop is stable */
  }
  teal_state_jacobian_free(sj);
  teal_context_free(ctx);
  teal_system_free(loop);
}
END_TEST

/* The discrete plant I + h A (h = 0.05) with its discrete compensator: the
 * closed-loop map, column by column from one period of the simulator from
 * each unit state, has the eigenvalues of Ad - B K and Ad - L C. */
START_TEST(test_discrete_closed_loop_has_the_separation_eigenvalues) {
  double Ad[9], K[6], L[6];
  for (int i = 0; i < 9; i++) {
    Ad[i] = (i % 4 == 0 ? 1.0 : 0.0) + 0.05 * kA[i];
  }
  teal_linear_system_matrices m = {3, 2, 2, 0.05, Ad, kB, NULL, kC, NULL, NULL};
  double M[36], got[12], want[12], AK[9], AL[9];
  for (int j = 0; j < 6; j++) {
    teal_builder *b = teal_builder_new("loop");
    teal_builder_add(b, teal_linear_system_new("plant", Ad, kB, kC, NULL, 3, 2, 2, 0.05, NULL));
    teal_builder_add(b, teal_lqg_controller_new("lqg", &m, NULL, NULL, kQ, kR, kW, kV, K, L, NULL));
    teal_builder_connect_by_name(b, "plant", "y", "lqg", "measurement");
    teal_builder_connect_by_name(b, "lqg", "control", "plant", "u");
    teal_system *loop = teal_builder_build(b, NULL);
    ck_assert_ptr_nonnull(loop);
    teal_simulator *sim = teal_simulator_new(loop, NULL, NULL);
    double *xd = teal_context_discrete_state_mut(teal_simulator_context(sim));
    memset(xd, 0, 6 * sizeof(double));
    xd[j] = 1.0;
    ck_assert_int_eq(teal_simulator_advance_to(sim, 0.05, NULL), TEAL_OK);
    xd = teal_context_discrete_state_mut(teal_simulator_context(sim));
    for (int i = 0; i < 6; i++) {
      M[i * 6 + j] = xd[i];
    }
    teal_simulator_free(sim);
    teal_system_free(loop);
  }
  sorted_eigenvalues(M, 6, got);
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < 3; k++) {
      AK[i * 3 + k] = Ad[i * 3 + k] - kB[i * 2] * K[k] - kB[i * 2 + 1] * K[3 + k];
      AL[i * 3 + k] = Ad[i * 3 + k] - L[i * 2] * kC[k] - L[i * 2 + 1] * kC[3 + k];
    }
  }
  sorted_eigenvalues(AK, 3, want);
  sorted_eigenvalues(AL, 3, want + 6);
  qsort(want, 6, 2 * sizeof(double), by_real_then_imag);
  for (int i = 0; i < 12; i++) {
    ck_assert_double_eq_tol(got[i], want[i], 1e-9);
  }
  for (int i = 0; i < 6; i++) {
    ck_assert_double_lt(hypot(got[2 * i], got[2 * i + 1]), 1.0); /* stable */
  }
}
END_TEST

/* The gains are the LQR's and the Kalman filter's, continuous and discrete. */
START_TEST(test_gains_are_lqr_and_kalman) {
  int discrete = _i;
  teal_linear_system_matrices m = model(discrete ? 0.05 : 0.0);
  const double *A = kA;
  double Ad[9];
  if (discrete) { /* a stable-enough discrete matrix: I + h A */
    for (int i = 0; i < 9; i++) {
      Ad[i] = (i % 4 == 0 ? 1.0 : 0.0) + 0.05 * kA[i];
    }
    A = Ad;
    m.A = Ad;
  }
  double K[6], L[6], Kr[6], Lr[6];
  teal_system *lqg = teal_lqg_controller_new("lqg", &m, NULL, NULL, kQ, kR, kW, kV, K, L, NULL);
  ck_assert_ptr_nonnull(lqg);
  ck_assert_int_eq(teal_lqr(A, kB, kQ, kR, NULL, 3, 2, discrete, Kr, NULL, NULL), TEAL_OK);
  ck_assert_int_eq(teal_steady_state_kalman_gain(A, kC, kW, kV, 3, 2, discrete, Lr, NULL, NULL),
                   TEAL_OK);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq(K[i], Kr[i]);
    ck_assert_double_eq(L[i], Lr[i]);
  }
  /* the ports, and the estimate as the only state */
  ck_assert_int_eq(teal_system_num_input_ports(lqg), 1);
  ck_assert_int_eq(teal_system_num_output_ports(lqg), 2);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(lqg, 0)), "measurement");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(lqg, 0)), "control");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(lqg, 1)), "estimated_state");
  int nq, nv, nz;
  ck_assert_int_eq(teal_system_num_continuous_states(lqg, &nq, &nv, &nz), discrete ? 0 : 3);
  teal_system_free(lqg);
}
END_TEST

/* About an operating point of an affine model: with the estimate at x0
 * and the measurement of x0, the control is u0 and nothing moves. */
START_TEST(test_operating_point_is_an_equilibrium) {
  const double x0[3] = {0.4, -0.3, 1.2}, u0[2] = {0.7, -0.5};
  double f0[3], y0[2] = {0.1, -0.2};
  for (int i = 0; i < 3; i++) { /* f0 = -(A x0 + B u0) */
    f0[i] = -(kB[i * 2] * u0[0] + kB[i * 2 + 1] * u0[1]);
    for (int j = 0; j < 3; j++) {
      f0[i] -= kA[i * 3 + j] * x0[j];
    }
  }
  teal_linear_system_matrices m = {3, 2, 2, 0.0, kA, kB, f0, kC, NULL, y0};
  teal_system *lqg = teal_lqg_controller_new("lqg", &m, x0, u0, kQ, kR, kW, kV, NULL, NULL, NULL);
  ck_assert_ptr_nonnull(lqg);
  teal_context *ctx = teal_context_new(lqg, NULL);
  const double y[2] = {x0[0] + y0[0], x0[2] + y0[1]};
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, x0, 3), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, y, 2), TEAL_OK);
  const double *u = NULL;
  double xdot[3];
  ck_assert_int_eq(teal_eval_vector_output(lqg, ctx, 0, &u), TEAL_OK);
  ck_assert_int_eq(teal_calc_time_derivatives(lqg, ctx, xdot), TEAL_OK);
  for (int i = 0; i < 2; i++) {
    ck_assert_double_eq_tol(u[i], u0[i], 1e-12);
  }
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(xdot[i], 0.0, 1e-12);
  }
  teal_context_free(ctx);
  teal_system_free(lqg);
}
END_TEST

START_TEST(test_bad_input) {
  teal_linear_system_matrices m = model(0.0);
  teal_error err;
  TS_EXPECT_NULL_ERROR(
      teal_lqg_controller_new("c", NULL, NULL, NULL, kQ, kR, kW, kV, NULL, NULL, &err), TEAL_EINVAL,
      &err, "lqg_controller 'c': the model is NULL");
  const double *mats[4] = {kQ, kR, kW, kV};
  static const char *const needles[4] = {"Q is NULL", "R is NULL", "W is NULL", "V is NULL"};
  for (int k = 0; k < 4; k++) {
    const double *q[4] = {mats[0], mats[1], mats[2], mats[3]};
    q[k] = NULL;
    TS_EXPECT_NULL_ERROR(
        teal_lqg_controller_new("c", &m, NULL, NULL, q[0], q[1], q[2], q[3], NULL, NULL, &err),
        TEAL_EINVAL, &err, needles[k]);
  }
  teal_linear_system_matrices no_outputs = m;
  no_outputs.ny = 0;
  TS_EXPECT_NULL_ERROR(
      teal_lqg_controller_new("c", &no_outputs, NULL, NULL, kQ, kR, kW, kV, NULL, NULL, &err),
      TEAL_ESIZE, &err, "ny 0");
  const double bad_x0[3] = {0.0, NAN, 0.0};
  TS_EXPECT_NULL_ERROR(
      teal_lqg_controller_new("c", &m, bad_x0, NULL, kQ, kR, kW, kV, NULL, NULL, &err),
      TEAL_ENONFINITE, &err, "operating point");
}
END_TEST

/* A singular R, a singular V and an undetectable pair are refused with the
 * LQR's and the filter's messages. */
START_TEST(test_singular_costs_and_undetectable_pair) {
  teal_linear_system_matrices m = model(0.0);
  const double R0[4] = {1.0, 1.0, 1.0, 1.0}, V0[4] = {0.0, 0.0, 0.0, 0.0};
  teal_error err;
  TS_EXPECT_NULL_ERROR(
      teal_lqg_controller_new("c", &m, NULL, NULL, kQ, R0, kW, kV, NULL, NULL, &err),
      TEAL_ESINGULAR, &err, "R");
  double L[6];
  TS_EXPECT_NULL_ERROR(teal_lqg_controller_new("c", &m, NULL, NULL, kQ, kR, kW, V0, NULL, L, &err),
                       TEAL_ESINGULAR, &err, "V");
  /* only the third state is measured, and the unstable first one never
   * reaches it: (A, C) is not detectable */
  const double A[9] = {0.5, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -2.0};
  const double C[6] = {0.0, 1.0, 0.0, 0.0, 0.0, 1.0};
  teal_linear_system_matrices u = {3, 2, 2, 0.0, A, kB, NULL, C, NULL, NULL};
  const double B[6] = {1.0, 0.0, 0.0, 1.0, 0.0, 0.0};
  u.B = B;
  TS_EXPECT_NULL_ERROR(
      teal_lqg_controller_new("c", &u, NULL, NULL, kQ, kR, kW, kV, NULL, NULL, &err), TEAL_ENOCONV,
      &err, "is (A, C) detectable?");
}
END_TEST

/* From a system and an operating point: the same gains as the matrices
 * form of its model, the control u0 at the operating point, and the
 * linearization's errors. */
START_TEST(test_from_system) {
  teal_system *plant = teal_linear_system_new("plant", kA, kB, kC, NULL, 3, 2, 2, 0.0, NULL);
  teal_context *pctx = teal_context_new(plant, NULL);
  const double x0[3] = {0.4, -0.3, 1.2}, u0[2] = {0.7, -0.5};
  teal_context_set_continuous_state(pctx, x0, 3);
  teal_context_fix_input(pctx, 0, u0, 2);
  double K[6], L[6], Km[6], Lm[6];
  teal_error err = {0};
  teal_system *lqg =
      teal_lqg_controller_from_system("lqg", plant, pctx, 0, 0, kQ, kR, kW, kV, K, L, &err);
  ck_assert_msg(lqg != NULL, "%s", err.message);
  teal_linear_system_matrices m = model(0.0);
  teal_system *ref = teal_lqg_controller_new("ref", &m, NULL, NULL, kQ, kR, kW, kV, Km, Lm, NULL);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq_tol(K[i], Km[i], 1e-12);
    ck_assert_double_eq_tol(L[i], Lm[i], 1e-12);
  }
  teal_context *ctx = teal_context_new(lqg, NULL);
  const double y[2] = {x0[0], x0[2]};
  teal_context_set_continuous_state(ctx, x0, 3);
  teal_context_fix_input(ctx, 0, y, 2);
  const double *u = NULL;
  ck_assert_int_eq(teal_eval_vector_output(lqg, ctx, 0, &u), TEAL_OK);
  ck_assert_double_eq_tol(u[0], u0[0], 1e-12);
  ck_assert_double_eq_tol(u[1], u0[1], 1e-12);
  TS_EXPECT_NULL_ERROR(
      teal_lqg_controller_from_system("c", plant, pctx, 0, -1, kQ, kR, kW, kV, NULL, NULL, &err),
      TEAL_ESIZE, &err, "ny 0");
  TS_EXPECT_NULL_ERROR(
      teal_lqg_controller_from_system("c", plant, pctx, 3, 0, kQ, kR, kW, kV, NULL, NULL, &err),
      TEAL_EINVAL, &err, "input 3 / output 0 must be vector ports");
  teal_context_free(ctx);
  teal_system_free(lqg);
  teal_system_free(ref);
  teal_context_free(pctx);
  teal_system_free(plant);
}
END_TEST

static Suite *lqg_suite(void) {
  Suite *s = suite_create("lqg");
  TCase *tc = tcase_create("lqg");
  tcase_add_test(tc, test_closed_loop_has_the_separation_eigenvalues);
  tcase_add_test(tc, test_discrete_closed_loop_has_the_separation_eigenvalues);
  tcase_add_loop_test(tc, test_gains_are_lqr_and_kalman, 0, 2);
  tcase_add_test(tc, test_operating_point_is_an_equilibrium);
  tcase_add_test(tc, test_bad_input);
  tcase_add_test(tc, test_from_system);
  tcase_add_test(tc, test_singular_costs_and_undetectable_pair);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(lqg_suite());
}
