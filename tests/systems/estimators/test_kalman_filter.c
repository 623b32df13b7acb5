/* Tests of the steady-state Kalman filters (systems/estimators/kalman_filter.h).
 * References: the scalar closed forms of the continuous and discrete
 * Riccati equations; the Riccati residuals (solvers/riccati_residual.h) and
 * the stability of A - L C for a multivariable system; the error covariance
 * of a filter run on a linear system with seeded Gaussian noise against P,
 * within sampling error; the system form against the matrix form; bad
 * covariances and undetectable pairs; the gains and covariances of four
 * fixed systems against Octave's lqe and dlqe (tests/reference/
 * kalman_octave.m). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/context_access.h"
#include "framework/events.h"
#include "framework/ports.h"
#include "solvers/dense_basic.h"
#include "solvers/riccati_residual.h"
#include "systems/estimators/kalman_filter.h"
#include "systems/estimators/luenberger_observer.h"
#include "systems/primitives/linear_system.h"
#include "support/error_messages.h"
#include "support/test_support.h"

START_TEST(test_scalar_continuous_gain_matches_the_closed_form) {
  const double a = 0.8, c = 2.0, w = 0.5, v = 0.1;
  double L, P;
  ck_assert_int_eq(teal_steady_state_kalman_gain(&a, &c, &w, &v, 1, 1, 0, &L, &P, NULL), TEAL_OK);
  /* 2 a P - c^2 P^2 / v + w = 0, the positive root; L = P c / v */
  double Pw = (a * v + sqrt(a * a * v * v + c * c * w * v)) / (c * c);
  ck_assert_double_eq_tol(P, Pw, 1e-12 * Pw);
  ck_assert_double_eq_tol(L, Pw * c / v, 1e-12 * Pw * c / v);
}
END_TEST

START_TEST(test_scalar_discrete_gain_matches_the_closed_form) {
  const double a = 1.1, c = 0.5, w = 0.3, v = 0.2;
  double L, P;
  ck_assert_int_eq(teal_steady_state_kalman_gain(&a, &c, &w, &v, 1, 1, 1, &L, &P, NULL), TEAL_OK);
  /* c^2 P^2 + (v - a^2 v - w c^2) P - w v = 0; L = a P c / (c^2 P + v) */
  double b = v - a * a * v - w * c * c;
  double Pw = (-b + sqrt(b * b + 4 * c * c * w * v)) / (2 * c * c);
  ck_assert_double_eq_tol(P, Pw, 1e-12 * Pw);
  ck_assert_double_eq_tol(L, a * Pw * c / (c * c * Pw + v), 1e-12);
}
END_TEST

/* A 3-state system seen through 2 outputs. */
static const double kA[9] = {0.9, 0.2, 0.0, -0.1, 0.95, 0.3, 0.0, 0.0, 1.02};
static const double kC[6] = {1.0, 0.0, 0.0, 0.0, 0.0, 1.0};
static const double kW[9] = {0.04, 0.01, 0.0, 0.01, 0.09, 0.0, 0.0, 0.0, 0.01};
static const double kV[4] = {0.25, 0.05, 0.05, 0.16};

START_TEST(test_multivariable_gain_solves_riccati_and_stabilizes) {
  for (int discrete = 0; discrete < 2; discrete++) {
    double L[6], P[9], At[9], Ct[6];
    ck_assert_int_eq(teal_steady_state_kalman_gain(kA, kC, kW, kV, 3, 2, discrete, L, P, NULL),
                     TEAL_OK);
    teal_dense_transpose(kA, 3, 3, At);
    teal_dense_transpose(kC, 2, 3, Ct);
    double r = discrete ? teal_dare_residual(At, Ct, kW, kV, NULL, 3, 2, P)
                        : teal_care_residual(At, Ct, kW, kV, NULL, 3, 2, P);
    ck_assert_double_lt(r, 1e-10);
    /* A - L C (discrete), or I + h (A - L C) with a small h (continuous), contracts */
    double M[9], x[3] = {1, -1, 0.5}, y[3];
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        double lc = L[i * 2] * kC[j] + L[i * 2 + 1] * kC[3 + j];
        M[i * 3 + j] = discrete ? kA[i * 3 + j] - lc : (i == j) + 0.01 * (kA[i * 3 + j] - lc);
      }
    }
    for (int n = 0; n < 4000; n++) {
      for (int i = 0; i < 3; i++) {
        y[i] = M[i * 3] * x[0] + M[i * 3 + 1] * x[1] + M[i * 3 + 2] * x[2];
      }
      memcpy(x, y, sizeof x);
    }
    ck_assert_double_lt(fabs(x[0]) + fabs(x[1]) + fabs(x[2]), 1e-6);
  }
}
END_TEST

/* A seeded standard normal (xorshift64 and Box-Muller). */
static double gauss(unsigned long long *s) {
  double u[2];
  for (int k = 0; k < 2; k++) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    u[k] = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
  }
  return sqrt(-2 * log(u[0])) * cos(6.283185307179586 * u[1]);
}

/* One periodic update of the filter's context with y fixed. */
static void filter_step(const teal_system *f, teal_context *ctx, teal_event_set *set,
                        const double *y) {
  double t_next;
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, y, 1), TEAL_OK);
  ck_assert_int_eq(teal_calc_next_update_time(f, ctx, &t_next, set), TEAL_OK);
  ck_assert_int_eq(teal_context_set_time(ctx, t_next), TEAL_OK);
  ck_assert_int_eq(teal_dispatch_discrete_updates(f, ctx, set), TEAL_OK);
}

START_TEST(test_error_covariance_matches_P_on_a_noisy_run) {
  /* x[n+1] = a x + w, y = c x + v; the filter predicts x[n] from y up to n-1 */
  const double a = 0.95, c = 1.0, w = 0.2, v = 0.5;
  teal_linear_system_matrices m = {1, 0, 1, 0.1, &a, NULL, NULL, &c, NULL, NULL};
  teal_error err;
  teal_system *f = teal_steady_state_kalman_filter_from_matrices("kf", &m, &w, &v, &err);
  ck_assert_msg(f != NULL, "%s", err.message);
  double L, P;
  ck_assert_int_eq(teal_steady_state_kalman_gain(&a, &c, &w, &v, 1, 1, 1, &L, &P, NULL), TEAL_OK);
  teal_context *ctx = teal_context_new(f, NULL);
  teal_event_set *set = teal_event_set_new(f);
  unsigned long long seed = 0x9e3779b97f4a7c15ull;
  double x = 0.0, sum2 = 0.0;
  const int burn = 200, N = 40000;
  for (int n = 0; n < burn + N; n++) {
    double xhat = teal_context_discrete_group(ctx, 0)[0];
    if (n >= burn) {
      sum2 += (x - xhat) * (x - xhat);
    }
    double y = c * x + sqrt(v) * gauss(&seed);
    filter_step(f, ctx, set, &y);
    x = a * x + sqrt(w) * gauss(&seed);
  }
  double var = sum2 / N;
  /* the sample variance of N correlated errors: a few percent */
  ck_assert_msg(fabs(var / P - 1) < 0.06, "error variance %g against P = %g", var, P);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(f);
}
END_TEST

START_TEST(test_system_form_equals_matrix_form) {
  const double B[3] = {0.0, 0.1, 1.0};
  teal_error err;
  teal_system *plant = teal_linear_system_new("plant", kA, B, kC, NULL, 3, 1, 2, 0.05, &err);
  ck_assert_ptr_nonnull(plant);
  teal_context *ctx = teal_context_new(plant, NULL);
  double u0 = 0.0;
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, &u0, 1), TEAL_OK);
  teal_system *f1 = teal_steady_state_kalman_filter_new("kf1", plant, ctx, kW, kV, &err);
  ck_assert_msg(f1 != NULL, "%s", err.message);
  teal_linear_system_matrices m = {3, 1, 2, 0.05, kA, B, NULL, kC, NULL, NULL};
  teal_system *f2 = teal_steady_state_kalman_filter_from_matrices("kf2", &m, kW, kV, &err);
  ck_assert_msg(f2 != NULL, "%s", err.message);
  double L1[6], L2[6];
  ck_assert_int_eq(teal_luenberger_observer_gain(f1, L1, 6), TEAL_OK);
  ck_assert_int_eq(teal_luenberger_observer_gain(f2, L2, 6), TEAL_OK);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq_tol(L1[i], L2[i], 1e-9);
  }
  ck_assert_int_eq(teal_system_num_input_ports(f1), 2); /* y and u */
  teal_system_free(f1);
  teal_system_free(f2);
  teal_context_free(ctx);
  teal_system_free(plant);
}
END_TEST

START_TEST(test_bad_covariances_and_undetectable_pairs) {
  teal_error err;
  double L[6], P[9];
  const double Vbad[4] = {0.25, 0.0, 0.0, -1.0};
  TS_EXPECT_ERROR(teal_steady_state_kalman_gain(kA, kC, kW, Vbad, 3, 2, 0, L, P, &err),
                  TEAL_ESINGULAR, &err, "R is V");
  const double Wbad[9] = {0.04, 0.5, 0.0, 0.0, 0.09, 0.0, 0.0, 0.0, 0.01}; /* not symmetric */
  TS_EXPECT_ERROR(teal_steady_state_kalman_gain(kA, kC, Wbad, kV, 3, 2, 0, L, P, &err), TEAL_EINVAL,
                  &err, "Q is W");
  TS_EXPECT_ERROR(teal_steady_state_kalman_gain(kA, kC, kW, NULL, 3, 2, 0, L, P, &err), TEAL_EINVAL,
                  &err, "NULL matrix");
  TS_EXPECT_ERROR(teal_steady_state_kalman_gain(kA, kC, kW, kV, 0, 2, 0, L, P, &err), TEAL_ESIZE,
                  &err, "nx = 0");
  /* an unstable mode the outputs never see */
  const double A[4] = {2.0, 0.0, 0.0, -1.0}, C[2] = {0.0, 1.0}, W[4] = {1, 0, 0, 1}, V = 1.0;
  TS_EXPECT_ERROR(teal_steady_state_kalman_gain(A, C, W, &V, 2, 1, 0, L, P, &err), TEAL_ENOCONV,
                  &err, "Kalman filter gain: no stabilizing solution; is (A, C) detectable?");
  teal_linear_system_matrices m = {2, 0, 1, 0.0, A, NULL, NULL, C, NULL, NULL};
  ck_assert_ptr_null(teal_steady_state_kalman_filter_from_matrices("kf", &m, W, &V, &err));
  ck_assert_ptr_null(teal_steady_state_kalman_filter_from_matrices("kf", &m, NULL, &V, &err));
  ck_assert_ptr_nonnull(strstr(err.message, "NULL W"));
}
END_TEST

/* ---- against Octave ------------------------------------------------------------- */

/* Printed by tests/reference/kalman_octave.m (Octave 7.3.0, control 3.4.0:
 * lqe for the continuous systems, dlqe for the discrete ones, whose update
 * gain M gives Teal's predictor gain L = A M); the systems are the
 * script's. */
static const double kL1[2] = {4.6855344411691195, 5.9771164996906698};
static const double kP1[4] = {0.046855344411691195, 0.059771164996906698, 0.059771164996906698,
                              0.40365612350363789};
static const double kL2[6] = {4.9692727693348431, -0.095865850856533444, 1.0519082436740146,
                              1.1170822206315207, -0.66247867770247204,  0.46705495599760838};
static const double kP2[9] = {0.49500995991635377,  0.12753246878003188,  -0.05690676865029505,
                              0.12753246878003188,  0.31543928379595659,  0.040723547266979992,
                              -0.05690676865029505, 0.040723547266979992, 0.086143365978253089};
static const double kL3[2] = {0.31701186917942947, 0.42590450252161277};
static const double kP3[4] = {0.015128418952034102, 0.023479441848569135, 0.023479441848569135,
                              0.074432617477046187};
static const double kL4[6] = {0.6270243810331757,  -0.066136731180833255, 0.20751363529813671,
                              0.29327818553767349, 0.053782264775641693,  0.29388157412804783};
static const double kP4[9] = {0.64370642302360515, 0.30306183617001331, 0.06532241604685593,
                              0.30306183617001331, 0.78578811354079403, 0.1188933640664272,
                              0.06532241604685593, 0.1188933640664272,  0.15053610789228408};

typedef struct octave_case {
  int nx, ny, discrete;
  double A[9], C[6], W[9], V[4];
  const double *L, *P;
} octave_case;

static const octave_case octave_cases[] = {
    {2, 1, 0, {0, 1, -2, -0.5}, {1, 0}, {0.1, 0, 0, 1}, {0.01}, kL1, kP1},
    {3,
     2,
     0,
     {0.2, 1, 0, 0, -1, 2, -1, 0, -3},
     {1, 0, 0, 0, 1, 1},
     {2, 0.5, 0, 0.5, 1, 0.2, 0, 0.2, 0.5},
     {0.1, 0.02, 0.02, 0.3},
     kL2,
     kP2},
    {2, 1, 1, {1, 0.1, 0, 1}, {1, 0}, {1e-4, 0, 0, 1e-2}, {0.04}, kL3, kP3},
    {3,
     2,
     1,
     {1.05, 0.1, 0, 0, 0.9, 0.2, 0.1, 0, 0.7},
     {1, 0, 0, 0, 0, 1},
     {0.3, 0.1, 0, 0.1, 0.2, 0.05, 0, 0.05, 0.1},
     {0.5, 0.1, 0.1, 0.2},
     kL4,
     kP4},
};

/* The gain and covariance match Octave's lqe / dlqe to 1e-10. */
START_TEST(test_gains_match_octave) {
  const octave_case *k = &octave_cases[_i];
  double L[6], P[9];
  teal_error err = {0};
  ck_assert_int_eq(
      teal_steady_state_kalman_gain(k->A, k->C, k->W, k->V, k->nx, k->ny, k->discrete, L, P, &err),
      TEAL_OK);
  for (int i = 0; i < k->nx * k->ny; i++) {
    ck_assert_double_eq_tol(L[i], k->L[i], 1e-10);
  }
  for (int i = 0; i < k->nx * k->nx; i++) {
    ck_assert_double_eq_tol(P[i], k->P[i], 1e-10);
  }
}
END_TEST

static Suite *kalman_suite(void) {
  Suite *s = suite_create("kalman_filter");
  TCase *tc = tcase_create("kalman");
  tcase_add_test(tc, test_scalar_continuous_gain_matches_the_closed_form);
  tcase_add_test(tc, test_scalar_discrete_gain_matches_the_closed_form);
  tcase_add_test(tc, test_multivariable_gain_solves_riccati_and_stabilizes);
  tcase_add_test(tc, test_error_covariance_matches_P_on_a_noisy_run);
  tcase_add_test(tc, test_system_form_equals_matrix_form);
  tcase_add_test(tc, test_bad_covariances_and_undetectable_pairs);
  tcase_add_loop_test(tc, test_gains_match_octave, 0,
                      (int)(sizeof octave_cases / sizeof *octave_cases));
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(kalman_suite());
}
