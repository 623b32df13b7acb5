/* The three-stage Radau IIA integrator: observed order 5 (x' = -x, the
 * harmonic oscillator), the stiff x' = -1000 (x - cos t) at h = 0.1,
 * Jacobian bookkeeping, the error estimate's h^(error_order + 1) scaling,
 * collocation dense output, Robertson's problem through the simulator
 * against implicit Euler, no allocation while stepping, and failures and
 * bad arguments.
 *
 * Set TEAL_TEST_VERBOSE=1 to print the measured figures. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"
#include "support/ode_problems.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator.h"

enum { NMAX = 4 };

/* ---- test problems -------------------------------------------------------- */

static int decay_jac(double t, const double *x, double *J, void *user) {
  problem *p = user;
  p->j_calls++;
  p->j_t = t;
  p->j_x0 = x[0];
  J[0] = -p->w;
  return TEAL_OK;
}

static int osc_jac(double t, const double *x, double *J, void *user) {
  problem *p = user;
  p->j_calls++;
  p->j_t = t;
  p->j_x0 = x[0];
  J[0] = 0.0;
  J[1] = 1.0;
  J[2] = -p->w * p->w;
  J[3] = 0.0;
  return TEAL_OK;
}

/* Stiff x' = -L (x - cos t), x(0) = 0 (L = w). Exact:
 * x = L/(L^2+1) (L cos t + sin t) - L^2/(L^2+1) e^{-L t}. */
static int stiff_f(double t, const double *x, double *xdot, void *user) {
  problem *p = user;
  p->f_calls++;
  xdot[0] = -p->w * (x[0] - cos(t));
  return TEAL_OK;
}
static int stiff_jac(double t, const double *x, double *J, void *user) {
  problem *p = user;
  p->j_calls++;
  p->j_t = t;
  p->j_x0 = x[0];
  J[0] = -p->w;
  return TEAL_OK;
}
static double stiff_exact(double t, double L) {
  return L / (L * L + 1) * (L * cos(t) + sin(t)) - L * L / (L * L + 1) * exp(-L * t);
}

/* x' = x^2 (nz = 1): blows up at t = 1/x0. */
static int square_f(double t, const double *x, double *xdot, void *user) {
  (void)t;
  problem *p = user;
  p->f_calls++;
  xdot[0] = x[0] * x[0];
  return TEAL_OK;
}

typedef void (*exact_fn)(double t, const problem *p, double *x);

static int ode_n(const teal_ode *o) { return o->nq + o->nv + o->nz; }

static teal_integrator *new_radau(const teal_ode *o) {
  teal_error err;
  teal_error_clear(&err);
  teal_integrator *integ = teal_integrator_new(teal_integrator_radau3, o->nq, o->nv, o->nz, &err);
  ck_assert_msg(integ != NULL, "integrator_new(radau3): %s", err.message);
  return integ;
}

/* Max-norm error at t_end after fixed steps of h from the exact x(0). */
static double global_error(teal_ode *o, exact_fn exact, double h, double t_end) {
  const problem *p = o->user;
  teal_integrator *integ = new_radau(o);
  int n = ode_n(o);
  double x[NMAX], x1[NMAX], ex[NMAX];
  exact(0.0, p, x);
  long steps = lround(t_end / h);
  for (long k = 0; k < steps; k++) {
    int rc = teal_integrator_step(integ, o, (double)k * h, h, x, x1, NULL);
    ck_assert_msg(rc == TEAL_OK, "step %ld: %s", k, teal_integrator_error(integ)->message);
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

/* ---- type table ----------------------------------------------------------- */

START_TEST(test_type_table) {
  const teal_integrator_type *t = teal_integrator_radau3;
  ck_assert_ptr_nonnull(t);
  ck_assert_str_eq(t->name, "radau3");
  ck_assert_int_eq(t->order, 5);
  ck_assert_int_eq(t->error_order, 3);
  ck_assert_int_ne(t->implicit, 0);
  ck_assert(t->interpolate != NULL);
  problem p = make_problem(1.0);
  teal_ode o = {1, 1, 0, osc_f, NULL, NULL, &p};
  teal_integrator *integ = new_radau(&o);
  ck_assert_ptr_eq(teal_integrator_get_type(integ), t);
  teal_integrator_counts c = teal_integrator_get_counts(integ);
  ck_assert_int_eq(c.steps + c.derivative_evals + c.jacobian_evals + c.newton_iterations +
                       c.factorizations, 0);
  teal_integrator_free(integ);
}
END_TEST

/* ---- convergence order ---------------------------------------------------- */

typedef struct order_case {
  const char *name;
  int nq, nv, nz;
  int (*f)(double, const double *, double *, void *);
  int (*jac)(double, const double *, double *, void *);
  exact_fn exact;
  double w, h, t_end;
} order_case;

/* Coarse steps (then halved) in the asymptotic range: the fine-step errors
 * stay well above roundoff (about 1e-11 and larger). */
static const order_case order_cases[] = {
    {"decay, differenced J", 0, 0, 1, decay_f, NULL, decay_exact, 1.0, 0.25, 2.0},
    {"decay, analytic J", 0, 0, 1, decay_f, decay_jac, decay_exact, 1.0, 0.25, 2.0},
    {"oscillator, differenced J", 1, 1, 0, osc_f, NULL, osc_exact, 1.0, 0.2, 2.0},
    {"oscillator, analytic J", 1, 1, 0, osc_f, osc_jac, osc_exact, 1.0, 0.2, 2.0},
    {"oscillator w = 2pi, analytic J", 1, 1, 0, osc_f, osc_jac, osc_exact, 6.283185307179586,
     0.05, 1.0},
};

START_TEST(test_convergence_order) {
  const order_case *c = &order_cases[_i];
  double e[3];
  for (int k = 0; k < 3; k++) {
    problem p = make_problem(c->w);
    teal_ode o = {c->nq, c->nv, c->nz, c->f, NULL, c->jac, &p};
    e[k] = global_error(&o, c->exact, c->h / (double)(1 << k), c->t_end);
  }
  double p1 = log2(e[0] / e[1]), p2 = log2(e[1] / e[2]);
  if (ts_verbose()) {
    ts_report("order radau3 %-31s h = %g: errors %.3e %.3e %.3e, observed orders %.3f %.3f\n",
              c->name, c->h, e[0], e[1], e[2], p1, p2);
  }
  ck_assert_msg(e[2] > 1e-13, "%s: finest error %.3g is at roundoff", c->name, e[2]);
  ck_assert_msg(fabs(p1 - 5.0) <= 0.4 && fabs(p2 - 5.0) <= 0.4,
                "%s: observed orders %.3f, %.3f (expected 5)", c->name, p1, p2);
}
END_TEST

/* ---- stiff problems ------------------------------------------------------- */

static double run_stiff(const teal_integrator_type *type, problem *p, int analytic, double h,
                        int steps, teal_integrator_counts *counts) {
  teal_ode o = {0, 0, 1, stiff_f, NULL, analytic ? stiff_jac : NULL, p};
  teal_integrator *integ = teal_integrator_new(type, 0, 0, 1, NULL);
  ck_assert_ptr_nonnull(integ);
  double x = 0.0, x1, xerr;
  for (int k = 0; k < steps; k++) {
    int rc = teal_integrator_step(integ, &o, k * h, h, &x, &x1, &xerr);
    ck_assert_msg(rc == TEAL_OK, "%s step %d: %s", type->name, k,
                  teal_integrator_error(integ)->message);
    ck_assert(isfinite(xerr));
    x = x1;
  }
  if (counts) {
    *counts = teal_integrator_get_counts(integ);
  }
  teal_integrator_free(integ);
  return x;
}

START_TEST(test_stiff_linear_problem) {
  const double exact = stiff_exact(1.0, 1000.0);
  double err[2];
  for (int analytic = 0; analytic < 2; analytic++) {
    problem p = make_problem(1000.0);
    teal_integrator_counts c;
    double x = run_stiff(teal_integrator_radau3, &p, analytic, 0.1, 10, &c);
    err[analytic] = fabs(x - exact);
    if (ts_verbose()) {
      ts_report("stiff x' = -1000 (x - cos t), h = 0.1, t = 1, %s J: radau3 %.10f (exact %.10f, "
                "error %.2e), %ld Newton iterations in 10 steps\n",
                analytic ? "analytic" : "differenced", x, exact, err[analytic],
                c.newton_iterations);
    }
    ck_assert_msg(err[analytic] < 1e-6, "radau3 %.10f vs exact %.10f", x, exact);
  }
  problem pe = make_problem(1000.0);
  double x_ie = run_stiff(teal_integrator_implicit_euler, &pe, 1, 0.1, 10, NULL);
  if (ts_verbose()) {
    ts_report("  implicit Euler at the same steps: error %.2e\n", fabs(x_ie - exact));
  }
  /* far more accurate than backward Euler at the same (huge) steps */
  ck_assert(err[1] < 1e-3 * fabs(x_ie - exact));
}
END_TEST

/* The Jacobian is formed once per step at (t, x0), the iteration matrix
 * (and the estimate's n x n matrix) factored once per step, and the
 * derivative calls add up. */
START_TEST(test_jacobian_bookkeeping) {
  const int steps = 6;
  const double h = 0.05;
  double final[2];
  for (int analytic = 0; analytic < 2; analytic++) {
    problem p = make_problem(1.0);
    teal_ode o = {1, 1, 0, osc_f, NULL, analytic ? osc_jac : NULL, &p};
    teal_integrator *integ = new_radau(&o);
    double x[2] = {1.0, 0.0}, x1[2], xerr[2];
    for (int k = 0; k < steps; k++) {
      double *e = k % 2 ? xerr : NULL; /* the estimate costs one more factorization */
      ck_assert_int_eq(teal_integrator_step(integ, &o, h * k, h, x, x1, e), TEAL_OK);
      if (analytic) {
        ck_assert_double_eq(p.j_t, h * k);
        ck_assert_double_eq(p.j_x0, x[0]);
      }
      x[0] = x1[0];
      x[1] = x1[1];
    }
    teal_integrator_counts c = teal_integrator_get_counts(integ);
    ck_assert_int_eq(c.steps, steps);
    ck_assert_int_eq(c.jacobian_evals, steps);
    ck_assert_int_eq(c.factorizations, steps + steps / 2);
    ck_assert_int_ge(c.newton_iterations, steps);
    /* a linear problem: the exact Jacobian solves the stages at once */
    ck_assert_int_le(c.newton_iterations, 2 * steps);
    ck_assert_int_eq(c.derivative_evals, p.f_calls);
    /* f(x0), three stages per iteration, n = 2 quotients when differenced */
    ck_assert_int_eq(c.derivative_evals,
                     (1 + (analytic ? 0 : 2)) * steps + 3 * c.newton_iterations);
    ck_assert_int_eq(p.j_calls, analytic ? steps : 0);
    final[analytic] = x[0];
    teal_integrator_free(integ);
  }
  ck_assert_double_eq_tol(final[0], final[1], 1e-10);
  ck_assert_double_eq_tol(final[1], cos(h * steps), 1e-9);
}
END_TEST

/* ---- error estimate ------------------------------------------------------- */

/* One step from the exact state at t0: |estimate| and the true error. */
static void one_step(teal_ode *o, exact_fn exact, double t0, double h, double *est,
                     double *true_err) {
  const problem *p = o->user;
  teal_integrator *integ = new_radau(o);
  int n = ode_n(o);
  double x0[NMAX], x1[NMAX], xerr[NMAX], ex[NMAX];
  exact(t0, p, x0);
  ck_assert_int_eq(teal_integrator_step(integ, o, t0, h, x0, x1, xerr), TEAL_OK);
  exact(t0 + h, p, ex);
  *est = 0.0;
  *true_err = 0.0;
  for (int i = 0; i < n; i++) {
    *est = fmax(*est, fabs(xerr[i]));
    *true_err = fmax(*true_err, fabs(x1[i] - ex[i]));
  }
  teal_integrator_free(integ);
}

typedef struct estimate_case {
  const char *name;
  int nq, nv, nz;
  int (*f)(double, const double *, double *, void *);
  exact_fn exact;
  double w, t0, h;
} estimate_case;

/* Steps in the asymptotic range (from t0 = 0.3 the h^5 term of the
 * time-dependent problem's estimate still shows at h = 0.05). */
static const estimate_case estimate_cases[] = {
    {"x' = 3 cos(3t) x", 0, 0, 1, tdep_f, tdep_exact, 3.0, 0.3, 0.0125},
    {"x' = 3 cos(3t) x", 0, 0, 1, tdep_f, tdep_exact, 3.0, 1.0, 0.05},
    {"x' = 3 cos(3t) x", 0, 0, 1, tdep_f, tdep_exact, 3.0, 0.0, 0.05},
    {"x' = -x", 0, 0, 1, decay_f, decay_exact, 1.0, 0.0, 0.1},
    {"oscillator", 1, 1, 0, osc_f, osc_exact, 1.0, 0.4, 0.1},
};

START_TEST(test_error_estimate_scaling) {
  const estimate_case *c = &estimate_cases[_i];
  const int expected = teal_integrator_radau3->error_order + 1;
  double est[3], tru[3];
  for (int k = 0; k < 3; k++) {
    problem p = make_problem(c->w);
    teal_ode o = {c->nq, c->nv, c->nz, c->f, NULL, NULL, &p};
    one_step(&o, c->exact, c->t0, c->h / (double)(1 << k), &est[k], &tru[k]);
  }
  double s1 = log2(est[0] / est[1]), s2 = log2(est[1] / est[2]);
  if (ts_verbose()) {
    ts_report("estimate radau3 %-17s h = %g: est %.3e %.3e %.3e (slopes %.3f %.3f, expected %d); "
              "true local errors %.3e %.3e %.3e\n", c->name, c->h, est[0], est[1], est[2], s1, s2,
              expected, tru[0], tru[1], tru[2]);
  }
  ck_assert_msg(fabs(s1 - expected) <= 0.4 && fabs(s2 - expected) <= 0.4,
                "%s: estimate slopes %.3f %.3f, expected %d", c->name, s1, s2, expected);
  /* the estimate bounds the (sixth-order local) error of the solution */
  for (int k = 0; k < 3; k++) {
    ck_assert_msg(est[k] > tru[k], "%s: estimate %.3g below the true error %.3g", c->name,
                  est[k], tru[k]);
  }
}
END_TEST

/* On the stiff problem the filtered estimate stays bounded (it is not
 * h * 1000 times the smooth error) at the huge steps. */
START_TEST(test_error_estimate_stiff_bounded) {
  problem p = make_problem(1000.0);
  teal_ode o = {0, 0, 1, stiff_f, NULL, stiff_jac, &p};
  teal_integrator *integ = new_radau(&o);
  double x0 = stiff_exact(1.0, 1000.0), x1, xerr;
  ck_assert_int_eq(teal_integrator_step(integ, &o, 1.0, 0.1, &x0, &x1, &xerr), TEAL_OK);
  double true_err = fabs(x1 - stiff_exact(1.1, 1000.0));
  if (ts_verbose()) {
    ts_report("stiff estimate at h = 0.1 on the smooth solution: est %.3e, true error %.3e\n",
              fabs(xerr), true_err);
  }
  ck_assert(fabs(xerr) < 1e-5);
  teal_integrator_free(integ);
}
END_TEST

/* ---- dense output --------------------------------------------------------- */

START_TEST(test_dense_output_ends_exact) {
  problem p = make_problem(2.0);
  teal_ode o = {1, 1, 0, osc_f, NULL, NULL, &p};
  teal_integrator *integ = new_radau(&o);
  double x0[2] = {0.3, -1.7}, x1[2], xi[2];
  ck_assert_int_eq(teal_integrator_interpolate(integ, 0.5, xi), TEAL_ESTATE); /* no step yet */
  ck_assert_int_eq(teal_integrator_step(integ, &o, 2.0, 0.3, x0, x1, NULL), TEAL_OK);
  ck_assert_int_eq(teal_integrator_interpolate(integ, 0.0, xi), TEAL_OK);
  ck_assert_double_eq(xi[0], x0[0]);
  ck_assert_double_eq(xi[1], x0[1]);
  ck_assert_int_eq(teal_integrator_interpolate(integ, 1.0, xi), TEAL_OK);
  ck_assert_double_eq(xi[0], x1[0]);
  ck_assert_double_eq(xi[1], x1[1]);
  /* theta outside [0, 1] and a NULL output */
  ck_assert_int_eq(teal_integrator_interpolate(integ, -0.01, xi), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_interpolate(integ, 1.01, xi), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_interpolate(integ, NAN, xi), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_interpolate(integ, 0.5, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_interpolate(NULL, 0.5, xi), TEAL_EINVAL);
  /* reset forgets the step */
  teal_integrator_reset(integ);
  ck_assert_int_eq(teal_integrator_interpolate(integ, 0.5, xi), TEAL_ESTATE);
  teal_integrator_free(integ);
}
END_TEST

/* Mid-step values from the collocation polynomial: accurate to O(h^4)
 * locally (stage order 3), checked at several theta and two steps. */
START_TEST(test_dense_output_accuracy) {
  const double thetas[] = {0.1, 0.25, 0.5, 0.75, 0.9};
  double worst[2] = {0.0, 0.0};
  const double hs[2] = {0.2, 0.1};
  for (int k = 0; k < 2; k++) {
    problem p = make_problem(1.0);
    teal_ode o = {1, 1, 0, osc_f, NULL, osc_jac, &p};
    teal_integrator *integ = new_radau(&o);
    const double t0 = 0.7;
    double x0[2], x1[2], xi[2], ex[2];
    osc_exact(t0, &p, x0);
    ck_assert_int_eq(teal_integrator_step(integ, &o, t0, hs[k], x0, x1, NULL), TEAL_OK);
    for (size_t i = 0; i < sizeof thetas / sizeof *thetas; i++) {
      ck_assert_int_eq(teal_integrator_interpolate(integ, thetas[i], xi), TEAL_OK);
      osc_exact(t0 + thetas[i] * hs[k], &p, ex);
      worst[k] = fmax(worst[k], fmax(fabs(xi[0] - ex[0]), fabs(xi[1] - ex[1])));
    }
    teal_integrator_free(integ);
  }
  double slope = log2(worst[0] / worst[1]);
  if (ts_verbose()) {
    ts_report("dense output (oscillator, t0 = 0.7): worst mid-step error %.3e at h = 0.2, %.3e at "
              "h = 0.1 (slope %.2f)\n", worst[0], worst[1], slope);
  }
  ck_assert_msg(worst[0] < 1e-5 && worst[1] < 1e-6, "dense errors %.3g, %.3g", worst[0],
                worst[1]);
  ck_assert_msg(slope > 3.5, "dense output slope %.2f (expected about 4)", slope);
}
END_TEST

/* A failed step keeps the previous step's dense output. */
START_TEST(test_failed_step_keeps_dense_output) {
  problem p = make_problem(1.0);
  p.fail_after = 0.15;
  teal_ode o = {0, 0, 1, decay_f, NULL, NULL, &p};
  teal_integrator *integ = new_radau(&o);
  double x0 = 1.0, x1, a, b;
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, 0.1, &x0, &x1, NULL), TEAL_OK);
  ck_assert_int_eq(teal_integrator_interpolate(integ, 0.5, &a), TEAL_OK);
  double x2 = -5.0;
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.1, 0.1, &x1, &x2, NULL), TEAL_ECALLBACK);
  ck_assert_double_eq(x2, -5.0); /* nothing written */
  ck_assert_int_eq(teal_integrator_get_counts(integ).steps, 1);
  ck_assert_int_eq(teal_integrator_interpolate(integ, 0.5, &b), TEAL_OK);
  ck_assert_double_eq(a, b);
  ck_assert_double_eq_tol(a, exp(-0.05), 1e-7);
  teal_integrator_free(integ);
}
END_TEST

/* ---- Robertson through the simulator ------------------------------------- */

typedef struct rob_run {
  teal_sim_stats st;
  teal_integrator_counts counts;
  long calls;
  double y[3];
} rob_run;

static rob_run run_robertson(const teal_integrator_type *type) {
  rob_run r;
  memset(&r, 0, sizeof r);
  teal_system *s = ts_robertson_new(&r.calls);
  ck_assert_ptr_nonnull(s);
  teal_error err;
  teal_error_clear(&err);
  teal_simulator *sim = teal_simulator_new(s, NULL, &err);
  ck_assert_msg(sim != NULL, "simulator_new: %s", err.message);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, type), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_accuracy(sim, 1e-6), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_max_step(sim, 400.0), TEAL_OK);
  teal_sim_status status;
  int rc = teal_simulator_advance_to(sim, 400.0, &status);
  ck_assert_msg(rc == TEAL_OK && status.outcome == TEAL_SIM_REACHED_END,
                "%s: rc %d at t = %g: %s", type->name, rc, status.time, status.message);
  ck_assert_double_eq(teal_context_time(teal_simulator_context(sim)), 400.0);
  memcpy(r.y, teal_context_z(teal_simulator_context(sim)), sizeof r.y);
  r.st = teal_simulator_get_stats(sim);
  r.counts = teal_integrator_get_counts(teal_simulator_integrator(sim));
  teal_simulator_free(sim);
  teal_system_free(s);
  return r;
}

START_TEST(test_robertson_through_simulator) {
  /* reference solution at t = 400 (Hairer & Wanner) */
  const double ref[3] = {0.4505186867, 3.222901890e-6, 0.5494780910};
  rob_run rd = run_robertson(teal_integrator_radau3);
  rob_run ie = run_robertson(teal_integrator_implicit_euler);
  if (ts_verbose()) {
    const rob_run *runs[2] = {&rd, &ie};
    for (int k = 0; k < 2; k++) {
      const rob_run *r = runs[k];
      ts_report("Robertson to t = 400 at accuracy 1e-6, %-14s: %ld steps (%ld rejected), %ld "
                "derivative evals, %ld Newton iterations, %ld factorizations, y = (%.9f, %.6g, "
                "%.9f), errors (%.1e, %.1e, %.1e)\n",
                k ? "implicit_euler" : "radau3", r->st.steps, r->st.failed_steps, r->calls,
                r->counts.newton_iterations, r->counts.factorizations, r->y[0], r->y[1], r->y[2],
                fabs(r->y[0] - ref[0]), fabs(r->y[1] - ref[1]), fabs(r->y[2] - ref[2]));
    }
  }
  ck_assert_double_eq_tol(rd.y[0], ref[0], 2e-5);
  ck_assert_double_eq_tol(rd.y[1], ref[1], 2e-9);
  ck_assert_double_eq_tol(rd.y[2], ref[2], 2e-5);
  ck_assert_double_eq_tol(rd.y[0] + rd.y[1] + rd.y[2], 1.0, 1e-9); /* mass is conserved */
  ck_assert_msg(rd.st.steps * 5 < ie.st.steps, "radau3 %ld steps vs implicit Euler %ld",
                rd.st.steps, ie.st.steps);
  ck_assert_int_lt(rd.calls, ie.calls);
}
END_TEST

/* ---- allocation ----------------------------------------------------------- */

static unsigned long g_allocs;

static void *counting_alloc(size_t size, void *user) {
  (void)user;
  g_allocs++;
  return malloc(size ? size : 1);
}
static void counting_free(void *ptr, void *user) {
  (void)user;
  free(ptr);
}

START_TEST(test_no_allocation_in_step) {
  const teal_allocator counting = {counting_alloc, counting_free, NULL};
  ck_assert_int_eq(teal_set_allocator(&counting), TEAL_OK);
  g_allocs = 0;
  problem p = make_problem(1.0);
  teal_ode o = {1, 1, 0, osc_f, NULL, NULL, &p};
  problem ps = make_problem(1000.0);
  teal_ode os = {0, 0, 1, stiff_f, NULL, stiff_jac, &ps};
  teal_integrator *integ = new_radau(&o);
  teal_integrator *stiff = new_radau(&os);
  ck_assert_uint_gt(g_allocs, 0); /* the workspace came from the hook */
  g_allocs = 0;
  double x[2] = {1.0, 0.0}, x1[2], xerr[2], xi[2], s = 0.0, s1, serr;
  for (int k = 0; k < 20; k++) {
    ck_assert_int_eq(teal_integrator_step(integ, &o, 0.1 * k, 0.1, x, x1, k % 2 ? xerr : NULL),
                     TEAL_OK);
    ck_assert_int_eq(teal_integrator_interpolate(integ, 0.5, xi), TEAL_OK);
    memcpy(x, x1, sizeof x);
    ck_assert_int_eq(teal_integrator_step(stiff, &os, 0.1 * k, 0.1, &s, &s1, &serr), TEAL_OK);
    s = s1;
  }
  /* failures allocate nothing either */
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, NAN, x, x1, NULL), TEAL_EINVAL);
  unsigned long during = g_allocs;
  teal_integrator_free(integ);
  teal_integrator_free(stiff);
  ck_assert_int_eq(teal_set_allocator(NULL), TEAL_OK);
  ck_assert_msg(during == 0, "%lu allocations while stepping", during);
}
END_TEST

/* ---- failures and arguments ---------------------------------------------- */

/* x' = x^2 from 1 over h = 2 crosses the blow-up at t = 1: the stage
 * equations have no nearby solution and the iterations fail with
 * TEAL_ENOCONV (a smaller step succeeds). */
START_TEST(test_newton_failure) {
  problem p = make_problem(1.0);
  teal_ode o = {0, 0, 1, square_f, NULL, NULL, &p};
  teal_integrator *integ = new_radau(&o);
  double x0 = 1.0, x1 = -7.0, xerr;
  int rc = teal_integrator_step(integ, &o, 0.0, 2.0, &x0, &x1, &xerr);
  if (ts_verbose()) {
    ts_report("x' = x^2, h = 2: rc %d (%s), %ld Newton iterations\n", rc,
              teal_integrator_error(integ)->message,
              teal_integrator_get_counts(integ).newton_iterations);
  }
  ck_assert_int_eq(rc, TEAL_ENOCONV);
  ck_assert_int_eq(teal_integrator_error(integ)->code, TEAL_ENOCONV);
  ck_assert_ptr_nonnull(strstr(teal_integrator_error(integ)->message, "radau3"));
  ck_assert_int_le(teal_integrator_get_counts(integ).newton_iterations, 10);
  ck_assert_double_eq(x1, -7.0);
  ck_assert_int_eq(teal_integrator_get_counts(integ).steps, 0);
  double xi;
  ck_assert_int_eq(teal_integrator_interpolate(integ, 0.5, &xi), TEAL_ESTATE);
  /* a small step is fine: x = 1 / (1 - t) */
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, 0.05, &x0, &x1, &xerr), TEAL_OK);
  ck_assert_double_eq_tol(x1, 1.0 / 0.95, 1e-9);
  teal_integrator_free(integ);
}
END_TEST

/* A non-finite derivative at the step's start is reported as such (the
 * state is bad; a smaller step would not help), not iterated on. */
static int nan_f(double t, const double *x, double *xdot, void *user) {
  (void)t;
  (void)x;
  (void)user;
  xdot[0] = NAN;
  return TEAL_OK;
}

START_TEST(test_nonfinite_derivative) {
  teal_ode o = {0, 0, 1, nan_f, NULL, NULL, NULL};
  teal_integrator *integ = new_radau(&o);
  double x0 = 1.0, x1 = 3.0;
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, 0.1, &x0, &x1, NULL), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(teal_integrator_error(integ)->message, "derivative"));
  ck_assert_double_eq(x1, 3.0);
  teal_integrator_free(integ);
}
END_TEST

START_TEST(test_bad_arguments) {
  problem p = make_problem(1.0);
  teal_ode o = {1, 1, 0, osc_f, NULL, NULL, &p};
  teal_integrator *integ = new_radau(&o);
  double x0[2] = {1.0, 0.0}, x1[2] = {5.0, 5.0};
  static const double bad_h[] = {0.0, -0.1, NAN, INFINITY, -INFINITY};
  for (size_t i = 0; i < sizeof bad_h / sizeof *bad_h; i++) {
    ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, bad_h[i], x0, x1, NULL), TEAL_EINVAL);
    ck_assert_ptr_nonnull(strstr(teal_integrator_error(integ)->message, "radau3"));
  }
  ck_assert_int_eq(teal_integrator_step(integ, &o, INFINITY, 0.1, x0, x1, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_step(NULL, &o, 0.0, 0.1, x0, x1, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_step(integ, NULL, 0.0, 0.1, x0, x1, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, 0.1, NULL, x1, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, 0.1, x0, NULL, NULL), TEAL_EINVAL);
  teal_ode nof = o;
  nof.derivatives = NULL;
  ck_assert_int_eq(teal_integrator_step(integ, &nof, 0.0, 0.1, x0, x1, NULL), TEAL_EINVAL);
  teal_ode wrong = {0, 0, 2, osc_f, NULL, NULL, &p}; /* same total, other split */
  ck_assert_int_eq(teal_integrator_step(integ, &wrong, 0.0, 0.1, x0, x1, NULL), TEAL_ESIZE);
  ck_assert_ptr_nonnull(strstr(teal_integrator_error(integ)->message, "radau3"));
  ck_assert_double_eq(x1[0], 5.0); /* nothing written */
  ck_assert_int_eq(p.f_calls, 0);
  ck_assert_int_eq(teal_integrator_get_counts(integ).steps, 0);
  teal_integrator_free(integ);

  /* nq != nv needs a map (even though this method only calls f) */
  teal_ode mapped = {2, 1, 0, osc_f, NULL, NULL, &p};
  teal_integrator *m = teal_integrator_new(teal_integrator_radau3, 2, 1, 0, NULL);
  ck_assert_ptr_nonnull(m);
  double y0[3] = {0}, y1[3];
  ck_assert_int_eq(teal_integrator_step(m, &mapped, 0.0, 0.1, y0, y1, NULL), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_integrator_error(m)->message, "nq != nv"));
  teal_integrator_free(m);

  teal_error err;
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_integrator_new(teal_integrator_radau3, 0, -1, 0, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ck_assert_ptr_nonnull(strstr(err.message, "radau3"));
}
END_TEST

/* An ODE with no state steps (time-only systems). */
START_TEST(test_empty_ode) {
  problem p = make_problem(1.0);
  teal_ode o = {0, 0, 0, decay_f, NULL, NULL, &p};
  teal_integrator *integ = new_radau(&o);
  double dummy[1] = {0.0}, out[1] = {0.0}, err[1] = {0.0};
  ck_assert_msg(teal_integrator_step(integ, &o, 0.0, 0.1, dummy, out, err) == TEAL_OK, "%s",
                teal_integrator_error(integ)->message);
  ck_assert_int_eq(teal_integrator_interpolate(integ, 0.5, out), TEAL_OK);
  teal_integrator_free(integ);
}
END_TEST

static Suite *radau_suite(void) {
  Suite *s = suite_create("integrator_radau");
  TCase *tc = tcase_create("accuracy");
  tcase_add_test(tc, test_type_table);
  tcase_add_loop_test(tc, test_convergence_order, 0,
                      (int)(sizeof order_cases / sizeof *order_cases));
  tcase_add_test(tc, test_stiff_linear_problem);
  tcase_add_test(tc, test_jacobian_bookkeeping);
  tcase_add_loop_test(tc, test_error_estimate_scaling, 0,
                      (int)(sizeof estimate_cases / sizeof *estimate_cases));
  tcase_add_test(tc, test_error_estimate_stiff_bounded);
  suite_add_tcase(s, tc);

  tc = tcase_create("dense_output");
  tcase_add_test(tc, test_dense_output_ends_exact);
  tcase_add_test(tc, test_dense_output_accuracy);
  tcase_add_test(tc, test_failed_step_keeps_dense_output);
  suite_add_tcase(s, tc);

  tc = tcase_create("simulator");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_robertson_through_simulator);
  suite_add_tcase(s, tc);

  tc = tcase_create("resources_and_failures");
  tcase_add_test(tc, test_no_allocation_in_step);
  tcase_add_test(tc, test_newton_failure);
  tcase_add_test(tc, test_nonfinite_derivative);
  tcase_add_test(tc, test_bad_arguments);
  tcase_add_test(tc, test_empty_ode);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(radau_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
