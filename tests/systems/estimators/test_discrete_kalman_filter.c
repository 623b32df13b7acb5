/* Tests of the time-varying discrete Kalman filter
 * (systems/estimators/discrete_kalman_filter.h). References: the scalar
 * recursion by hand; convergence of P to the DARE solution of
 * teal_steady_state_kalman_gain; a Monte Carlo of independent seeded runs,
 * whose error variance at each step must match P[n] within sampling error;
 * the allocator hook; bad models and covariances with their messages. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/context_access.h"
#include "framework/events.h"
#include "framework/ports.h"
#include "systems/estimators/discrete_kalman_filter.h"
#include "systems/estimators/kalman_filter.h"
#include "support/error_messages.h"
#include "support/test_support.h"

typedef struct runner {
  teal_system *f;
  teal_context *ctx;
  teal_event_set *set;
} runner;

static runner make_runner(const teal_linear_system_matrices *m, const double *W, const double *V,
                          const double *x0, const double *P0) {
  runner r;
  teal_error err;
  r.f = teal_discrete_kalman_filter_new("kf", m, W, V, x0, P0, &err);
  ck_assert_msg(r.f != NULL, "%s", err.message);
  r.ctx = teal_context_new(r.f, NULL);
  r.set = teal_event_set_new(r.f);
  ck_assert(r.ctx && r.set);
  return r;
}

static void free_runner(runner *r) {
  teal_event_set_free(r->set);
  teal_context_free(r->ctx);
  teal_system_free(r->f);
}

/* One update with measurement y (ny values) and input u (or NULL). */
static void step(runner *r, const double *y, int ny, const double *u, int nu) {
  double t_next;
  ck_assert_int_eq(teal_context_fix_input(r->ctx, 0, y, ny), TEAL_OK);
  if (u) {
    ck_assert_int_eq(teal_context_fix_input(r->ctx, 1, u, nu), TEAL_OK);
  }
  ck_assert_int_eq(teal_calc_next_update_time(r->f, r->ctx, &t_next, r->set), TEAL_OK);
  ck_assert_int_eq(teal_context_set_time(r->ctx, t_next), TEAL_OK);
  ck_assert_int_eq(teal_dispatch_discrete_updates(r->f, r->ctx, r->set), TEAL_OK);
}

START_TEST(test_scalar_step_by_hand) {
  const double a = 0.9, b = 0.5, c = 2.0, w = 0.1, v = 0.4, f0 = 0.05, P0 = 1.5, x0 = 0.3;
  teal_linear_system_matrices m = {1, 1, 1, 0.1, &a, &b, &f0, &c, NULL, NULL};
  runner r = make_runner(&m, &w, &v, &x0, &P0);
  const double y = 1.1, u = -0.4;
  step(&r, &y, 1, &u, 1);
  double S = c * c * P0 + v, K = a * P0 * c / S;
  double x1 = a * x0 + b * u + f0 + K * (y - c * x0), P1 = a * a * P0 + w - K * K * S;
  ck_assert_double_eq_tol(teal_context_discrete_group(r.ctx, 0)[0], x1, 1e-15);
  ck_assert_double_eq_tol(teal_context_discrete_group(r.ctx, 1)[0], P1, 1e-15);
  const double *out;
  ck_assert_int_eq(teal_eval_vector_output(r.f, r.ctx, 1, &out), TEAL_OK);
  ck_assert(out[0] == teal_context_discrete_group(r.ctx, 1)[0]);
  free_runner(&r);
}
END_TEST

static const double kA[9] = {0.9, 0.2, 0.0, -0.1, 0.95, 0.3, 0.0, 0.0, 1.02};
static const double kC[6] = {1.0, 0.0, 0.0, 0.0, 0.0, 1.0};
static const double kW[9] = {0.04, 0.01, 0.0, 0.01, 0.09, 0.0, 0.0, 0.0, 0.01};
static const double kV[4] = {0.25, 0.05, 0.05, 0.16};

START_TEST(test_covariance_converges_to_the_steady_state) {
  teal_linear_system_matrices m = {3, 0, 2, 0.01, kA, NULL, NULL, kC, NULL, NULL};
  const double P0[9] = {5, 0, 0, 0, 5, 0, 0, 0, 5};
  runner r = make_runner(&m, kW, kV, NULL, P0);
  double L[6], Pss[9], y[2] = {0.3, -0.2};
  ck_assert_int_eq(teal_steady_state_kalman_gain(kA, kC, kW, kV, 3, 2, 1, L, Pss, NULL), TEAL_OK);
  for (int n = 0; n < 600; n++) {
    step(&r, y, 2, NULL, 0);
  }
  const double *P = teal_context_discrete_group(r.ctx, 1);
  for (int i = 0; i < 9; i++) {
    ck_assert_double_eq_tol(P[i], Pss[i], 1e-9);
  }
  free_runner(&r);
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

/* Many independent runs from x0 ~ N(0, P0): at each step the variance of
 * x[n] - xhat[n] over the runs is P[n] (the same in every run). */
START_TEST(test_error_variance_follows_P_step_by_step) {
  const double a = 1.05, c = 1.0, w = 0.05, v = 0.3, P0 = 2.0;
  teal_linear_system_matrices m = {1, 0, 1, 0.1, &a, NULL, NULL, &c, NULL, NULL};
  enum { RUNS = 6000, STEPS = 6 };
  double sum2[STEPS] = {0}, Pn[STEPS] = {0};
  unsigned long long seed = 0x2545F4914F6CDD1Dull;
  runner r = make_runner(&m, &w, &v, NULL, &P0);
  for (int k = 0; k < RUNS; k++) {
    ck_assert_int_eq(teal_context_set_to_defaults(r.ctx), TEAL_OK);
    ck_assert_int_eq(teal_context_set_time(r.ctx, 0.0), TEAL_OK);
    double x = sqrt(P0) * gauss(&seed);
    for (int n = 0; n < STEPS; n++) {
      double xhat = teal_context_discrete_group(r.ctx, 0)[0];
      sum2[n] += (x - xhat) * (x - xhat);
      Pn[n] = teal_context_discrete_group(r.ctx, 1)[0];
      double y = c * x + sqrt(v) * gauss(&seed);
      step(&r, &y, 1, NULL, 0);
      x = a * x + sqrt(w) * gauss(&seed);
    }
  }
  for (int n = 0; n < STEPS; n++) {
    double var = sum2[n] / RUNS; /* relative standard error sqrt(2 / RUNS), about 2% */
    ck_assert_msg(fabs(var / Pn[n] - 1) < 0.07, "step %d: variance %g against P %g", n, var, Pn[n]);
  }
  ck_assert_double_lt(Pn[STEPS - 1], 0.5 * P0); /* P moved: the gain did vary */
  free_runner(&r);
}
END_TEST

START_TEST(test_updates_allocate_nothing) {
  teal_linear_system_matrices m = {3, 0, 2, 0.01, kA, NULL, NULL, kC, NULL, NULL};
  runner r = make_runner(&m, kW, kV, NULL, NULL);
  double y[2] = {1, 2};
  step(&r, y, 2, NULL, 0);
  ts_alloc_install();
  ts_alloc_reset();
  for (int n = 0; n < 50; n++) {
    step(&r, y, 2, NULL, 0);
  }
  unsigned long allocs = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_uint_eq(allocs, 0);
  free_runner(&r);
}
END_TEST

START_TEST(test_bad_models_and_covariances) {
  teal_error err;
  teal_linear_system_matrices m = {3, 0, 2, 0.01, kA, NULL, NULL, kC, NULL, NULL};
#define KF_FAILS(mm, W, V, P0) \
  (teal_discrete_kalman_filter_new("kf", mm, W, V, NULL, P0, &err) ? 0 : err.code)
  teal_linear_system_matrices cont = m;
  cont.time_period = 0.0;
  TS_EXPECT_ERROR(KF_FAILS(&cont, kW, kV, NULL), TEAL_EINVAL, &err, "is not discrete");
  const double Vbad[4] = {0.25, 0.0, 0.0, -0.1};
  TS_EXPECT_ERROR(KF_FAILS(&m, kW, Vbad, NULL), TEAL_ESINGULAR, &err, "V is not positive definite");
  const double Wasym[9] = {0.04, 0.3, 0, 0.01, 0.09, 0, 0, 0, 0.01};
  TS_EXPECT_ERROR(KF_FAILS(&m, Wasym, kV, NULL), TEAL_EINVAL, &err, "W is not symmetric");
  const double Pnan[9] = {1, 0, 0, 0, NAN, 0, 0, 0, 1};
  TS_EXPECT_ERROR(KF_FAILS(&m, kW, kV, Pnan), TEAL_ENONFINITE, &err, "P0");
  TS_EXPECT_ERROR(KF_FAILS(&m, kW, NULL, NULL), TEAL_EINVAL, &err, "NULL V");
  teal_linear_system_matrices noC = m;
  noC.C = NULL;
  TS_EXPECT_ERROR(KF_FAILS(&noC, kW, kV, NULL), TEAL_EINVAL, &err, "NULL C");
  teal_linear_system_matrices huge = m;
  huge.nx = 1 << 20; /* nx^2 would overflow an int */
  TS_EXPECT_ERROR(KF_FAILS(&huge, kW, kV, NULL), TEAL_ESIZE, &err, "at most 4096");
#undef KF_FAILS
}
END_TEST

static Suite *dkf_suite(void) {
  Suite *s = suite_create("discrete_kalman_filter");
  TCase *tc = tcase_create("filter");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_scalar_step_by_hand);
  tcase_add_test(tc, test_covariance_converges_to_the_steady_state);
  tcase_add_test(tc, test_error_variance_follows_P_step_by_step);
  tcase_add_test(tc, test_updates_allocate_nothing);
  tcase_add_test(tc, test_bad_models_and_covariances);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(dkf_suite());
}
