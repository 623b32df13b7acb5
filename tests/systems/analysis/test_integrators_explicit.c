/* Tests of the explicit integrators (systems/analysis/integrators_explicit.c):
 * convergence orders, the type tables, embedded error estimates, RK45 dense
 * output and semi-explicit Euler.
 * 
 * Set TEAL_TEST_VERBOSE=1 to print the measured figures. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/error.h"
#include "support/integrator_fixtures.h"
#include "support/ode_problems.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"

enum { NMAX = 4 };

/* ---- test problems -------------------------------------------------------- */

typedef void (*exact_fn)(double t, const problem *p, double *x);
static teal_ode tdep_ode(problem *p) {
  teal_ode o = {0, 0, 1, tdep_f, NULL, NULL, p};
  return o;
}

static int ode_n(const teal_ode *o) { return o->nq + o->nv + o->nz; }

/* Max-norm error at t_end after fixed steps of h from the exact x(0). */
static double global_error(const teal_integrator_type *type, teal_ode *o, exact_fn exact,
                           double h, double t_end) {
  const problem *p = o->user;
  teal_integrator *integ = ts_integ_new_for(type, o);
  int n = ode_n(o);
  double x[NMAX], x1[NMAX], ex[NMAX];
  exact(0.0, p, x);
  long steps = lround(t_end / h);
  for (long k = 0; k < steps; k++) {
    ck_assert_int_eq(teal_integrator_step(integ, o, (double)k * h, h, x, x1, NULL), TEAL_OK);
    memcpy(x, x1, sizeof(double) * (size_t)n);
  }
  ck_assert_int_eq(teal_integrator_get_counts(integ).steps, steps);
  teal_integrator_free(integ);
  exact(t_end, p, ex);
  double e = 0.0;
  for (int i = 0; i < n; i++) {
    e = fmax(e, fabs(x[i] - ex[i]));
  }
  return e;
}

/* ---- convergence orders --------------------------------------------------- */

typedef struct order_case {
  const teal_integrator_type *const *type;
  double h_osc, h_tdep; /* coarse steps (then halved) for the two problems */
} order_case;

/* Step sizes in each method's asymptotic range, where roundoff does not
 * dominate (the fine-step errors range from about 1e-2 to 1e-10). */
static const order_case order_cases[] = {
    {&teal_integrator_explicit_euler, 0.01, 0.01},
    {&teal_integrator_semi_explicit_euler, 0.01, 0.01},
    {&teal_integrator_rk2, 0.05, 0.025},
    {&teal_integrator_rk3, 0.05, 0.025},
    {&teal_integrator_rk4, 0.05, 0.025},
    {&teal_integrator_rk45, 0.025, 0.05},
    {&teal_integrator_implicit_euler, 0.01, 0.01},
};

START_TEST(test_convergence_order) {
  const order_case *c = &order_cases[_i];
  const teal_integrator_type *type = *c->type;
  problem po = make_problem(3.0), pt = make_problem(3.0);
  teal_ode oo = ts_integ_osc_ode(&po), ot = tdep_ode(&pt);
  double e1 = global_error(type, &oo, osc_exact, c->h_osc, 1.0);
  double e2 = global_error(type, &oo, osc_exact, c->h_osc / 2, 1.0);
  double p_osc = log2(e1 / e2);
  double e3 = global_error(type, &ot, tdep_exact, c->h_tdep, 1.0);
  double e4 = global_error(type, &ot, tdep_exact, c->h_tdep / 2, 1.0);
  double p_tdep = log2(e3 / e4);
  if (ts_verbose()) {
    ts_report("order %-20s oscillator %.3f (errors %.3g, %.3g)  x'=3cos(3t)x %.3f (errors %.3g, "
              "%.3g)\n", type->name, p_osc, e1, e2, p_tdep, e3, e4);
  }
  ck_assert_msg(fabs(p_osc - type->order) <= 0.3, "%s: oscillator order %.3f, expected %d",
                type->name, p_osc, type->order);
  ck_assert_msg(fabs(p_tdep - type->order) <= 0.3, "%s: time-dependent order %.3f, expected %d",
                type->name, p_tdep, type->order);
}
END_TEST

/* The tables' metadata and each method's derivative evaluations per step. */
START_TEST(test_type_tables) {
  static const struct {
    const teal_integrator_type *const *type;
    const char *name;
    int order, error_order, implicit;
    long evals_per_step;
  } expect[] = {
      {&teal_integrator_explicit_euler, "explicit_euler", 1, 0, 0, 1},
      {&teal_integrator_semi_explicit_euler, "semi_explicit_euler", 1, 0, 0, 1},
      {&teal_integrator_rk2, "rk2", 2, 1, 0, 2},
      {&teal_integrator_rk3, "rk3", 3, 2, 0, 4},
      {&teal_integrator_rk4, "rk4", 4, 0, 0, 4},
      {&teal_integrator_rk45, "rk45", 5, 4, 0, 7},
  };
  for (size_t i = 0; i < sizeof expect / sizeof *expect; i++) {
    const teal_integrator_type *t = *expect[i].type;
    ck_assert_str_eq(t->name, expect[i].name);
    ck_assert_int_eq(t->order, expect[i].order);
    ck_assert_int_eq(t->error_order, expect[i].error_order);
    ck_assert_int_eq(t->implicit, expect[i].implicit);
    problem p = make_problem(1.0);
    teal_ode o = ts_integ_decay_ode(&p);
    teal_integrator *integ = ts_integ_new_for(t, &o);
    ck_assert_ptr_eq(teal_integrator_get_type(integ), t);
    double x0 = 1.0, x1 = 0.0, ex;
    for (int k = 0; k < 3; k++) {
      ck_assert_int_eq(teal_integrator_step(integ, &o, 0.1 * k, 0.1, &x0, &x1, NULL), TEAL_OK);
      x0 = x1;
    }
    decay_exact(0.3, &p, &ex);
    ck_assert_double_eq_tol(x1, ex, 0.02);
    teal_integrator_counts c = teal_integrator_get_counts(integ);
    ck_assert_int_eq(c.steps, 3);
    ck_assert_int_eq(c.derivative_evals, 3 * expect[i].evals_per_step);
    ck_assert_int_eq(p.f_calls, c.derivative_evals);
    ck_assert_int_eq(c.jacobian_evals, 0);
    ck_assert_int_eq(c.factorizations, 0);
    teal_integrator_free(integ);
  }
  const teal_integrator_type *ie = teal_integrator_implicit_euler;
  ck_assert_str_eq(ie->name, "implicit_euler");
  ck_assert_int_eq(ie->order, 1);
  ck_assert_int_eq(ie->error_order, 1);
  ck_assert_int_ne(ie->implicit, 0);
}
END_TEST

/* ---- embedded error estimates --------------------------------------------- */

/* One step of h from the exact state at t0: the estimate and the true local
 * error of the embedded lower-order solution x1 - xerr. */
static void one_step_errors(const teal_integrator_type *type, teal_ode *o, exact_fn exact,
                            double t0, double h, double *est, double *true_low,
                            double *mismatch) {
  const problem *p = o->user;
  int n = ode_n(o);
  teal_integrator *integ = ts_integ_new_for(type, o);
  double x0[NMAX], x1[NMAX], xerr[NMAX], ex[NMAX];
  exact(t0, p, x0);
  for (int i = 0; i < n; i++) {
    xerr[i] = NAN;
  }
  ck_assert_int_eq(teal_integrator_step(integ, o, t0, h, x0, x1, xerr), TEAL_OK);
  exact(t0 + h, p, ex);
  *est = *true_low = *mismatch = 0.0;
  for (int i = 0; i < n; i++) {
    ck_assert(isfinite(xerr[i]));
    double low = x1[i] - xerr[i]; /* the embedded solution */
    *est = fmax(*est, fabs(xerr[i]));
    *true_low = fmax(*true_low, fabs(ex[i] - low));
    /* xerr = x1 - low approximates exact - low up to x1's smaller error */
    *mismatch = fmax(*mismatch, fabs(xerr[i] - (ex[i] - low)));
  }
  teal_integrator_free(integ);
}

typedef struct estimate_case {
  const teal_integrator_type *const *type;
  double h;
} estimate_case;

static const estimate_case estimate_cases[] = {
    {&teal_integrator_rk2, 0.02},
    {&teal_integrator_rk3, 0.05},
    {&teal_integrator_rk45, 0.1},
    {&teal_integrator_implicit_euler, 0.02},
};

START_TEST(test_error_estimate_scaling) {
  const estimate_case *c = &estimate_cases[_i];
  const teal_integrator_type *type = *c->type;
  problem p = make_problem(3.0);
  teal_ode o = tdep_ode(&p);
  double est1, low1, mis1, est2, low2, mis2;
  one_step_errors(type, &o, tdep_exact, 0.3, c->h, &est1, &low1, &mis1);
  one_step_errors(type, &o, tdep_exact, 0.3, c->h / 2, &est2, &low2, &mis2);
  double p_est = log2(est1 / est2);
  int expected = type->error_order + 1;
  if (ts_verbose() && !type->implicit) {
    ts_report("estimate %-15s h=%g: est %.3g, embedded solution's true error %.3g (ratio %.3f); "
              "h/2: est %.3g true %.3g; slope %.3f (expected %d)\n", type->name, c->h, est1, low1,
              est1 / low1, est2, low2, p_est, expected);
  } else if (ts_verbose()) {
    ts_report("estimate %-15s h=%g: est %.3g, h/2: est %.3g; slope %.3f (expected %d)\n",
              type->name, c->h, est1, est2, p_est, expected);
  }
  ck_assert_msg(fabs(p_est - expected) <= 0.3, "%s: estimate slope %.3f, expected %d",
                type->name, p_est, expected);
  if (!type->implicit) {
    /* an explicit pair's estimate is the lower solution's local error to
     * within the higher solution's (much smaller) error */
    ck_assert_msg(mis1 <= 0.1 * low1 && mis2 <= 0.1 * low2,
                  "%s: estimate %.3g vs true lower-order error %.3g", type->name, est1, low1);
  } else {
    /* implicit Euler's h/2 (f1 - f0) is its own local error to leading
     * order: within 15 % at these steps */
    double ex0[1], ex1[1];
    tdep_exact(0.3, &p, ex0);
    tdep_exact(0.3 + c->h / 2, &p, ex1);
    teal_integrator *integ = ts_integ_new_for(type, &o);
    double x1[1], xerr[1];
    ck_assert_int_eq(teal_integrator_step(integ, &o, 0.3, c->h / 2, ex0, x1, xerr), TEAL_OK);
    double true_err = ex1[0] - x1[0];
    teal_integrator_free(integ);
    ck_assert_msg(fabs(fabs(xerr[0]) - fabs(true_err)) <= 0.15 * fabs(true_err),
                  "implicit Euler estimate %.3g vs its true local error %.3g", xerr[0],
                  true_err);
  }
}
END_TEST

/* Reference explicit Runge-Kutta step for a scalar ODE from published
 * tableaux: the propagated solution x1 and the embedded one. */
typedef struct ref_tableau {
  int stages;
  const double *c, *a, *b, *bhat; /* a: stages x stages, row-major */
} ref_tableau;

static void ref_step(const ref_tableau *tab, teal_ode *o, double t, double h, double x0,
                     double *x1, double *low) {
  double k[7], y1 = x0, y2 = x0;
  for (int s = 0; s < tab->stages; s++) {
    double xs = x0;
    for (int j = 0; j < s; j++) {
      xs += h * tab->a[s * tab->stages + j] * k[j];
    }
    ck_assert_int_eq(o->derivatives(t + tab->c[s] * h, &xs, &k[s], o->user), TEAL_OK);
    y1 += h * tab->b[s] * k[s];
    y2 += h * tab->bhat[s] * k[s];
  }
  *x1 = y1;
  *low = y2;
}

/* Heun with Euler embedded */
static const double ref_heun_c[] = {0.0, 1.0};
static const double ref_heun_a[] = {0.0, 0.0, 1.0, 0.0};
static const double ref_heun_b[] = {0.5, 0.5};
static const double ref_heun_bhat[] = {1.0, 0.0};
/* Bogacki-Shampine 3(2) (1989) */
static const double ref_bs_c[] = {0.0, 0.5, 0.75, 1.0};
static const double ref_bs_a[] = {0, 0, 0, 0, 1.0 / 2, 0, 0, 0, 0, 3.0 / 4, 0, 0,
                                  2.0 / 9, 1.0 / 3, 4.0 / 9, 0};
static const double ref_bs_b[] = {2.0 / 9, 1.0 / 3, 4.0 / 9, 0.0};
static const double ref_bs_bhat[] = {7.0 / 24, 1.0 / 4, 1.0 / 3, 1.0 / 8};
/* Dormand-Prince 5(4) (1980) */
static const double ref_dp_c[] = {0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0};
static const double ref_dp_a[] = {
    0, 0, 0, 0, 0, 0, 0,
    1.0 / 5, 0, 0, 0, 0, 0, 0,
    3.0 / 40, 9.0 / 40, 0, 0, 0, 0, 0,
    44.0 / 45, -56.0 / 15, 32.0 / 9, 0, 0, 0, 0,
    19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729, 0, 0, 0,
    9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656, 0, 0,
    35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0};
static const double ref_dp_b[] = {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192,
                                  -2187.0 / 6784, 11.0 / 84, 0};
static const double ref_dp_bhat[] = {5179.0 / 57600, 0, 7571.0 / 16695, 393.0 / 640,
                                     -92097.0 / 339200, 187.0 / 2100, 1.0 / 40};

static const struct {
  const teal_integrator_type *const *type;
  ref_tableau tab;
} ref_cases[] = {
    {&teal_integrator_rk2, {2, ref_heun_c, ref_heun_a, ref_heun_b, ref_heun_bhat}},
    {&teal_integrator_rk3, {4, ref_bs_c, ref_bs_a, ref_bs_b, ref_bs_bhat}},
    {&teal_integrator_rk45, {7, ref_dp_c, ref_dp_a, ref_dp_b, ref_dp_bhat}},
};

/* The step and its estimate x1 - (embedded solution) agree with the
 * published pairs evaluated independently. */
START_TEST(test_embedded_pairs_match_published_tableaux) {
  const teal_integrator_type *type = *ref_cases[_i].type;
  problem p = make_problem(3.0);
  teal_ode o = tdep_ode(&p);
  teal_integrator *integ = ts_integ_new_for(type, &o);
  const double hs[] = {0.2, 0.05};
  for (int k = 0; k < 2; k++) {
    double x0 = 1.3, x1, xerr, ref_x1, ref_low;
    ck_assert_int_eq(teal_integrator_step(integ, &o, 0.4, hs[k], &x0, &x1, &xerr), TEAL_OK);
    ref_step(&ref_cases[_i].tab, &o, 0.4, hs[k], x0, &ref_x1, &ref_low);
    double ref_err = ref_x1 - ref_low;
    ck_assert_msg(fabs(x1 - ref_x1) <= 1e-14, "%s: x1 %.17g vs reference %.17g", type->name, x1,
                  ref_x1);
    ck_assert_msg(fabs(xerr - ref_err) <= 1e-14 + 1e-9 * fabs(ref_err),
                  "%s: estimate %.17g vs reference %.17g", type->name, xerr, ref_err);
    ck_assert(fabs(ref_err) > 1e-9); /* a real difference was compared */
  }
  teal_integrator_free(integ);
}
END_TEST

/* Methods without an estimate leave xerr alone. */
START_TEST(test_no_estimate_methods_leave_xerr) {
  const teal_integrator_type *types[] = {teal_integrator_explicit_euler,
                                         teal_integrator_semi_explicit_euler,
                                         teal_integrator_rk4};
  for (size_t i = 0; i < 3; i++) {
    problem p = make_problem(1.0);
    teal_ode o = ts_integ_osc_ode(&p);
    teal_integrator *integ = ts_integ_new_for(types[i], &o);
    double x0[2] = {1.0, 0.0}, x1[2], xerr[2] = {123.0, 456.0};
    ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, 0.1, x0, x1, xerr), TEAL_OK);
    ck_assert(xerr[0] == 123.0 || xerr[0] == 0.0);
    ck_assert(xerr[1] == 456.0 || xerr[1] == 0.0);
    teal_integrator_free(integ);
  }
}
END_TEST

/* ---- RK45 dense output ---------------------------------------------------- */

/* Largest interpolation error over theta in (0, 1) for one step of h. */
static double dense_error(double h, double *at_half) {
  problem p = make_problem(3.0);
  teal_ode o = tdep_ode(&p);
  teal_integrator *integ = ts_integ_new_for(teal_integrator_rk45, &o);
  double t0 = 0.3, x0[1], x1[1], x[1], ex[1];
  tdep_exact(t0, &p, x0);
  ck_assert_int_eq(teal_integrator_step(integ, &o, t0, h, x0, x1, NULL), TEAL_OK);
  double worst = 0.0;
  for (int k = 1; k < 10; k++) {
    double theta = k / 10.0;
    ck_assert_int_eq(teal_integrator_interpolate(integ, theta, x), TEAL_OK);
    tdep_exact(t0 + theta * h, &p, ex);
    worst = fmax(worst, fabs(x[0] - ex[0]));
    if (k == 5) {
      *at_half = fabs(x[0] - ex[0]);
    }
  }
  teal_integrator_free(integ);
  return worst;
}

START_TEST(test_rk45_dense_output_accuracy) {
  double half1, half2;
  double e1 = dense_error(0.1, &half1);
  double e2 = dense_error(0.05, &half2);
  if (ts_verbose()) {
    ts_report("rk45 dense output: max error %.3g (h = 0.1), %.3g (h = 0.05), slope %.3f; "
              "mid-step %.3g, %.3g\n", e1, e2, log2(e1 / e2), half1, half2);
  }
  /* 4th-order interpolant: local error O(h^5) (measured 5.2e-6 and 1.5e-7
   * on x' = 3 cos(3t) x from t = 0.3) */
  ck_assert_msg(e1 < 1e-5, "dense output error %.3g at h = 0.1", e1);
  ck_assert_msg(e2 < 3e-7, "dense output error %.3g at h = 0.05", e2);
  ck_assert_msg(fabs(log2(e1 / e2) - 5.0) < 0.4, "dense output error slope %.3f",
                log2(e1 / e2));
  /* far better than linear interpolation between the ends */
  problem p = make_problem(3.0);
  double a[1], b[1], mid[1];
  tdep_exact(0.3, &p, a);
  tdep_exact(0.4, &p, b);
  tdep_exact(0.35, &p, mid);
  ck_assert(half1 < 1e-3 * fabs(0.5 * (a[0] + b[0]) - mid[0]));
}
END_TEST

START_TEST(test_rk45_dense_output_ends_and_errors) {
  problem p = make_problem(2.0);
  teal_ode o = ts_integ_osc_ode(&p);
  teal_integrator *integ = ts_integ_new_for(teal_integrator_rk45, &o);
  double x[2] = {-7.0, -7.0};
  /* before any step */
  ck_assert_int_eq(teal_integrator_interpolate(integ, 0.5, x), TEAL_ESTATE);
  ck_assert_double_eq(x[0], -7.0);
  double x0[2] = {0.3, -1.2}, x1[2];
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.5, 0.2, x0, x1, NULL), TEAL_OK);
  ck_assert_int_eq(teal_integrator_interpolate(integ, 0.0, x), TEAL_OK);
  ck_assert_double_eq(x[0], x0[0]);
  ck_assert_double_eq(x[1], x0[1]);
  ck_assert_int_eq(teal_integrator_interpolate(integ, 1.0, x), TEAL_OK);
  for (int i = 0; i < 2; i++) {
    ck_assert_msg(fabs(x[i] - x1[i]) <= 4 * 2.2e-16 * fabs(x1[i]), "theta = 1: %.17g vs %.17g",
                  x[i], x1[i]);
  }
  /* out of range */
  ck_assert_int_eq(teal_integrator_interpolate(integ, -0.01, x), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_interpolate(integ, 1.01, x), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_interpolate(integ, NAN, x), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_interpolate(integ, 0.5, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_interpolate(NULL, 0.5, x), TEAL_EINVAL);
  /* reset forgets the step */
  teal_integrator_reset(integ);
  ck_assert_int_eq(teal_integrator_interpolate(integ, 0.5, x), TEAL_ESTATE);
  teal_integrator_free(integ);
}
END_TEST

/* A failed step does not make dense output available. */
START_TEST(test_failed_step_gives_no_dense_output) {
  problem p = make_problem(1.0);
  p.fail_after = -1.0; /* every call fails */
  teal_ode o = ts_integ_decay_ode(&p);
  teal_integrator *integ = ts_integ_new_for(teal_integrator_rk45, &o);
  double x0 = 1.0, x1 = 0.0, x;
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, 0.1, &x0, &x1, NULL), TEAL_ECALLBACK);
  ck_assert_int_eq(teal_integrator_get_counts(integ).steps, 0);
  ck_assert_int_eq(teal_integrator_interpolate(integ, 0.5, &x), TEAL_ESTATE);
  teal_integrator_free(integ);
}
END_TEST

/* ---- semi-explicit Euler -------------------------------------------------- */

static double osc_energy(const double *x, double w) {
  return 0.5 * (x[1] * x[1] + w * w * x[0] * x[0]);
}

/* Max relative energy drift over 1e5 steps of h = 0.01 (t = 1000). */
static double energy_drift(const teal_integrator_type *type, double *final_ratio) {
  problem p = make_problem(1.0);
  teal_ode o = ts_integ_osc_ode(&p);
  teal_integrator *integ = ts_integ_new_for(type, &o);
  double x[2] = {1.0, 0.0}, x1[2], h = 0.01;
  double e0 = osc_energy(x, 1.0), worst = 0.0;
  for (long k = 0; k < 100000; k++) {
    ck_assert_int_eq(teal_integrator_step(integ, &o, (double)k * h, h, x, x1, NULL), TEAL_OK);
    x[0] = x1[0];
    x[1] = x1[1];
    worst = fmax(worst, fabs(osc_energy(x, 1.0) / e0 - 1.0));
  }
  *final_ratio = osc_energy(x, 1.0) / e0;
  teal_integrator_free(integ);
  return worst;
}

START_TEST(test_semi_explicit_euler_energy_bounded) {
  double ratio_semi, ratio_euler;
  double drift_semi = energy_drift(teal_integrator_semi_explicit_euler, &ratio_semi);
  double drift_euler = energy_drift(teal_integrator_explicit_euler, &ratio_euler);
  if (ts_verbose()) {
    ts_report("energy over 1e5 steps: semi-explicit max drift %.3g (final ratio %.6f), explicit "
              "Euler final ratio %.4g\n", drift_semi, ratio_semi, ratio_euler);
  }
  ck_assert_msg(drift_semi < 0.02, "semi-explicit Euler energy drift %.3g", drift_semi);
  /* explicit Euler multiplies the energy by (1 + h^2) per step: e^10 */
  ck_assert_msg(ratio_euler > 1000.0 && drift_euler > 1000.0,
                "explicit Euler energy ratio %.3g", ratio_euler);
  ck_assert_double_eq_tol(log(ratio_euler), 100000 * log1p(1e-4), 1e-6);
}
END_TEST

/* One step by hand: v1 = v0 + h vdot(x0), q1 = q0 + h v1. */
START_TEST(test_semi_explicit_euler_step_formula) {
  problem p = make_problem(2.0);
  teal_ode o = ts_integ_osc_ode(&p);
  teal_integrator *integ = ts_integ_new_for(teal_integrator_semi_explicit_euler, &o);
  double x0[2] = {0.7, -0.4}, x1[2], h = 0.05;
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, h, x0, x1, NULL), TEAL_OK);
  double v1 = x0[1] + h * (-4.0 * x0[0]);
  ck_assert_double_eq_tol(x1[1], v1, 1e-15);
  ck_assert_double_eq_tol(x1[0], x0[0] + h * v1, 1e-15);
  ck_assert_int_eq(teal_integrator_get_counts(integ).derivative_evals, 1);
  teal_integrator_free(integ);
}
END_TEST

static int mapped_v_to_qdot(double t, const double *x, const double *v, double *qdot,
                            void *user) {
  ts_integ_mapped *m = user;
  m->map_calls++;
  m->last_map_t = t;
  qdot[0] = v[0];
  qdot[1] = x[0] * v[0];
  return TEAL_OK;
}

START_TEST(test_semi_explicit_euler_uses_velocity_map) {
  ts_integ_mapped m = {0, 0, NAN};
  teal_ode o = {2, 1, 0, ts_integ_mapped_f, mapped_v_to_qdot, NULL, &m};
  teal_error err;
  teal_integrator *integ = teal_integrator_new(teal_integrator_semi_explicit_euler, 2, 1, 0, &err);
  ck_assert_ptr_nonnull(integ);
  double x0[3] = {0.5, 2.0, 1.5}, x1[3], h = 0.1;
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.25, h, x0, x1, NULL), TEAL_OK);
  ck_assert_int_eq(m.map_calls, 1);
  ck_assert_double_eq(m.last_map_t, 0.25);
  double v1 = x0[2] + h * (-x0[0]);
  ck_assert_double_eq_tol(x1[2], v1, 1e-15);
  ck_assert_double_eq_tol(x1[0], x0[0] + h * v1, 1e-15);
  ck_assert_double_eq_tol(x1[1], x0[1] + h * x0[0] * v1, 1e-15);
  /* differs from the explicit-Euler q (built from the old v) */
  ck_assert(fabs(x1[1] - (x0[1] + h * x0[0] * x0[2])) > 1e-3);

  /* without the map an nq != nv ODE is refused */
  teal_ode bad = o;
  bad.v_to_qdot = NULL;
  ck_assert_int_eq(teal_integrator_step(integ, &bad, 0.0, h, x0, x1, NULL), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_integrator_error(integ)->message, "v_to_qdot"));
  teal_integrator_free(integ);

  /* the other methods step the nq != nv ODE through its derivatives */
  m.map_calls = 0;
  integ = teal_integrator_new(teal_integrator_rk4, 2, 1, 0, NULL);
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, h, x0, x1, NULL), TEAL_OK);
  ck_assert(isfinite(x1[0]) && isfinite(x1[1]) && isfinite(x1[2]));
  teal_integrator_free(integ);
}
END_TEST

/* A failing map fails the step. */
static int failing_map(double t, const double *x, const double *v, double *qdot, void *user) {
  (void)t;
  (void)x;
  (void)v;
  (void)qdot;
  (void)user;
  return TEAL_EUNSUPPORTED;
}

START_TEST(test_semi_explicit_euler_map_failure) {
  ts_integ_mapped m = {0, 0, NAN};
  teal_ode o = {2, 1, 0, ts_integ_mapped_f, failing_map, NULL, &m};
  teal_integrator *integ = teal_integrator_new(teal_integrator_semi_explicit_euler, 2, 1, 0, NULL);
  double x0[3] = {0.5, 2.0, 1.5}, x1[3];
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, 0.1, x0, x1, NULL), TEAL_EUNSUPPORTED);
  ck_assert_int_eq(teal_integrator_get_counts(integ).steps, 0);
  teal_integrator_free(integ);
}
END_TEST

static Suite *integrators_explicit_suite(void) {
  Suite *s = suite_create("integrators_explicit");
  TCase *tc = tcase_create("accuracy");
  tcase_add_loop_test(tc, test_convergence_order, 0,
                      (int)(sizeof order_cases / sizeof *order_cases));
  tcase_add_test(tc, test_type_tables);
  tcase_add_loop_test(tc, test_error_estimate_scaling, 0,
                      (int)(sizeof estimate_cases / sizeof *estimate_cases));
  tcase_add_loop_test(tc, test_embedded_pairs_match_published_tableaux, 0,
                      (int)(sizeof ref_cases / sizeof *ref_cases));
  tcase_add_test(tc, test_no_estimate_methods_leave_xerr);
  suite_add_tcase(s, tc);

  tc = tcase_create("dense_output");
  tcase_add_test(tc, test_rk45_dense_output_accuracy);
  tcase_add_test(tc, test_rk45_dense_output_ends_and_errors);
  tcase_add_test(tc, test_failed_step_gives_no_dense_output);
  suite_add_tcase(s, tc);

  tc = tcase_create("semi_explicit_euler");
  tcase_add_test(tc, test_semi_explicit_euler_energy_bounded);
  tcase_add_test(tc, test_semi_explicit_euler_step_formula);
  tcase_add_test(tc, test_semi_explicit_euler_uses_velocity_map);
  tcase_add_test(tc, test_semi_explicit_euler_map_failure);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(integrators_explicit_suite());
}
