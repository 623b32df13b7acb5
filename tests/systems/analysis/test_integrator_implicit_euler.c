/* Tests of implicit Euler (systems/analysis/integrator_implicit_euler.c):
 * stability on a stiff problem, Jacobian bookkeeping, a singular iteration
 * matrix and derivative failures. */
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

/* ---- implicit Euler ------------------------------------------------------- */

/* Stiff linear x' = -L (x - cos t), x(0) = 0, with L = 1000. Exact:
 * x = L/(L^2+1) (L cos t + sin t) - L^2/(L^2+1) e^{-L t}. */
typedef struct stiff {
  double L;
  long f_calls, j_calls;
} stiff;

static int stiff_f(double t, const double *x, double *xdot, void *user) {
  stiff *s = user;
  s->f_calls++;
  xdot[0] = -s->L * (x[0] - cos(t));
  return TEAL_OK;
}

static int stiff_jac(double t, const double *x, double *J, void *user) {
  (void)t;
  (void)x;
  stiff *s = user;
  s->j_calls++;
  J[0] = -s->L;
  return TEAL_OK;
}

static double stiff_exact(double t, double L) {
  return L / (L * L + 1) * (L * cos(t) + sin(t)) - L * L / (L * L + 1) * exp(-L * t);
}

static double run_stiff(const teal_integrator_type *type, stiff *s, int analytic, double h,
                        int steps, teal_integrator_counts *counts) {
  teal_ode o = {0, 0, 1, stiff_f, NULL, analytic ? stiff_jac : NULL, s};
  teal_integrator *integ = ts_integ_new_for(type, &o);
  double x = 0.0, x1;
  for (int k = 0; k < steps; k++) {
    int rc = teal_integrator_step(integ, &o, k * h, h, &x, &x1, NULL);
    ck_assert_int_eq(rc, TEAL_OK);
    x = x1;
  }
  if (counts) {
    *counts = teal_integrator_get_counts(integ);
  }
  teal_integrator_free(integ);
  return x;
}

START_TEST(test_implicit_euler_stable_on_stiff_problem) {
  stiff s = {1000.0, 0, 0};
  double x_ie = run_stiff(teal_integrator_implicit_euler, &s, 1, 0.1, 10, NULL);
  double exact = stiff_exact(1.0, 1000.0);
  stiff se = {1000.0, 0, 0};
  double x_ee = run_stiff(teal_integrator_explicit_euler, &se, 0, 0.1, 10, NULL);
  if (ts_verbose()) {
    ts_report("stiff x' = -1000 (x - cos t), h = 0.1, t = 1: implicit Euler %.6f (exact %.6f), "
              "explicit Euler %.3g\n", x_ie, exact, x_ee);
  }
  ck_assert_msg(fabs(x_ie - exact) < 5e-3, "implicit Euler %.6f vs exact %.6f", x_ie, exact);
  ck_assert_msg(!(fabs(x_ee) < 1e10), "explicit Euler stayed bounded: %g", x_ee);
}
END_TEST

/* 2-state stiff linear system x' = A x with A = [[-1000, 1], [0, -2]]. */
typedef struct lin2 {
  long f_calls, j_calls;
} lin2;

static int lin2_f(double t, const double *x, double *xdot, void *user) {
  (void)t;
  lin2 *l = user;
  l->f_calls++;
  xdot[0] = -1000.0 * x[0] + x[1];
  xdot[1] = -2.0 * x[1];
  return TEAL_OK;
}

static int lin2_jac(double t, const double *x, double *J, void *user) {
  (void)t;
  (void)x;
  lin2 *l = user;
  l->j_calls++;
  J[0] = -1000.0;
  J[1] = 1.0;
  J[2] = 0.0;
  J[3] = -2.0;
  return TEAL_OK;
}

START_TEST(test_implicit_euler_jacobian_bookkeeping) {
  const int steps = 5;
  teal_integrator_counts ca, cd;
  double xa[2], xd[2];
  for (int analytic = 0; analytic < 2; analytic++) {
    lin2 l = {0, 0};
    teal_ode o = {0, 0, 2, lin2_f, NULL, analytic ? lin2_jac : NULL, &l};
    teal_integrator *integ = ts_integ_new_for(teal_integrator_implicit_euler, &o);
    double x[2] = {1.0, 1.0}, x1[2], xerr[2];
    for (int k = 0; k < steps; k++) {
      ck_assert_int_eq(teal_integrator_step(integ, &o, 0.1 * k, 0.1, x, x1, xerr), TEAL_OK);
      x[0] = x1[0];
      x[1] = x1[1];
    }
    teal_integrator_counts c = teal_integrator_get_counts(integ);
    ck_assert_int_eq(c.derivative_evals, l.f_calls);
    ck_assert_int_eq(c.steps, steps);
    ck_assert_int_eq(c.jacobian_evals, steps);
    ck_assert_int_eq(c.factorizations, steps);
    ck_assert_int_ge(c.newton_iterations, steps);
    if (analytic) {
      /* a linear problem with the exact Jacobian converges at once (one
       * correction plus one confirming iteration per step) */
      ck_assert_int_le(c.newton_iterations, 2 * steps);
      ck_assert_int_eq(l.j_calls, steps);
      /* f(x0), f(predictor), one per Newton iteration: no differencing */
      ck_assert_int_eq(c.derivative_evals, 2 * steps + c.newton_iterations);
      ca = c;
      xa[0] = x[0];
      xa[1] = x[1];
    } else {
      /* plus n = 2 difference quotients per Jacobian */
      ck_assert_int_eq(c.derivative_evals, (2 + 2) * steps + c.newton_iterations);
      cd = c;
      xd[0] = x[0];
      xd[1] = x[1];
    }
    teal_integrator_free(integ);
  }
  ck_assert_int_lt(ca.derivative_evals, cd.derivative_evals);
  /* both solve the same implicit equations */
  ck_assert_double_eq_tol(xa[0], xd[0], 1e-9);
  ck_assert_double_eq_tol(xa[1], xd[1], 1e-9);
  /* the backward Euler recurrence by hand: x1 = (I - hA)^-1 x0 */
  double y[2] = {1.0, 1.0};
  for (int k = 0; k < steps; k++) {
    double y1 = y[1] / 1.2;
    double y0 = (y[0] + 0.1 * y1) / 101.0;
    y[0] = y0;
    y[1] = y1;
  }
  ck_assert_double_eq_tol(xa[0], y[0], 1e-12);
  ck_assert_double_eq_tol(xa[1], y[1], 1e-12);
}
END_TEST

/* x' = 2 x with h = 0.5: I - h J = 0. */
static int grow_f(double t, const double *x, double *xdot, void *user) {
  (void)t;
  (void)user;
  xdot[0] = 2.0 * x[0];
  return TEAL_OK;
}

static int grow_jac(double t, const double *x, double *J, void *user) {
  (void)t;
  (void)x;
  (void)user;
  J[0] = 2.0;
  return TEAL_OK;
}

START_TEST(test_implicit_euler_singular_iteration_matrix) {
  teal_ode o = {0, 0, 1, grow_f, NULL, grow_jac, NULL};
  teal_integrator *integ = ts_integ_new_for(teal_integrator_implicit_euler, &o);
  double x0 = 1.0, x1 = -99.0;
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, 0.5, &x0, &x1, NULL), TEAL_ESINGULAR);
  const teal_error *e = teal_integrator_error(integ);
  ck_assert_int_eq(e->code, TEAL_ESINGULAR);
  ck_assert_str_ne(e->message, "");
  ck_assert_int_eq(teal_integrator_get_counts(integ).steps, 0);
  double x;
  ck_assert_int_eq(teal_integrator_interpolate(integ, 0.5, &x), TEAL_ESTATE);
  /* any other step size works */
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, 0.25, &x0, &x1, NULL), TEAL_OK);
  ck_assert_double_eq_tol(x1, 2.0, 1e-12); /* x1 = x0 / (1 - 2h) */
  teal_integrator_free(integ);
}
END_TEST

/* A derivative failure inside the Newton loop or the differenced Jacobian
 * is passed through. */
START_TEST(test_implicit_euler_derivative_failure) {
  problem p = make_problem(1.0);
  p.fail_after = 0.05; /* the predictor's f(t + h) fails */
  teal_ode o = ts_integ_decay_ode(&p);
  teal_integrator *integ = ts_integ_new_for(teal_integrator_implicit_euler, &o);
  double x0 = 1.0, x1;
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, 0.1, &x0, &x1, NULL), TEAL_ECALLBACK);
  ck_assert_int_eq(teal_integrator_get_counts(integ).steps, 0);
  teal_integrator_free(integ);
}
END_TEST

static Suite *integrator_implicit_euler_suite(void) {
  Suite *s = suite_create("integrator_implicit_euler");
  TCase *tc = tcase_create("implicit_euler");
  tcase_add_test(tc, test_implicit_euler_stable_on_stiff_problem);
  tcase_add_test(tc, test_implicit_euler_jacobian_bookkeeping);
  tcase_add_test(tc, test_implicit_euler_singular_iteration_matrix);
  tcase_add_test(tc, test_implicit_euler_derivative_failure);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(integrator_implicit_euler_suite());
}
