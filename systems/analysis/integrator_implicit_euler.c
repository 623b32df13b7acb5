/* Implicit (backward) Euler: x1 = x0 + h f(t + h, x1), solved by Newton
 * iterations on (I - h J) dx = -(x1 - x0 - h f(x1)) with J = df/dx formed
 * once per step at the explicit predictor (analytic or forward
 * differences). Local error estimate: h/2 (f(x1) - f(x0)). */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense_lu.h"
#include "systems/analysis/integrator_implicit_euler.h"
#include "systems/analysis/integrator_internal.h"

enum { NEWTON_MAX_ITERATIONS = 10 };
static const double newton_tolerance = 1e-10;

typedef struct ie_work {
  int n;
  double *J, *f0, *f1, *r, *xp, *fp, *x0, *x1;
  int *piv;
  double h;
} ie_work;

static void *ie_alloc(int nq, int nv, int nz) {
  int n = nq + nv + nz;
  ie_work *w = teal_calloc(1, sizeof *w);
  double *mem = teal_calloc((size_t)n * (size_t)n + 7 * (size_t)n + 1, sizeof(double));
  int *piv = teal_calloc((size_t)n + 1, sizeof(int));
  if (!w || !mem || !piv) {
    teal_free(w);
    teal_free(mem);
    teal_free(piv);
    return NULL;
  }
  w->n = n;
  w->J = mem;
  w->f0 = w->J + (size_t)n * (size_t)n;
  w->f1 = w->f0 + n;
  w->r = w->f1 + n;
  w->xp = w->r + n;
  w->fp = w->xp + n;
  w->x0 = w->fp + n;
  w->x1 = w->x0 + n;
  w->piv = piv;
  return w;
}

static void ie_free(void *work) {
  ie_work *w = work;
  if (w) {
    teal_free(w->J);
    teal_free(w->piv);
    teal_free(w);
  }
}

/* J = df/dx at (t, x) with f(t, x) = fx given: analytic, or forward
 * differences column by column. */
static int form_jacobian(teal_integrator *integ, ie_work *w, const teal_ode *ode, double t,
                         const double *x, const double *fx) {
  return teal_integrator_jacobian(integ, ode, t, x, fx, w->xp, w->fp, w->J);
}

/* Replaces J by I - h J and factors it. */
static int factor_iteration_matrix(teal_integrator *integ, ie_work *w, double h) {
  int n = w->n;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      double *m = &w->J[(size_t)i * n + j];
      *m = (i == j ? 1.0 : 0.0) - h * *m;
    }
  }
  integ->counts.factorizations++;
  return teal_dense_lu_factor(w->J, n, w->piv, &integ->err);
}

/* Newton iterations from the predictor in x1; on success x1 solves the
 * implicit equation and f1 = f(t + h, x1). */
static int newton(teal_integrator *integ, ie_work *w, const teal_ode *ode, double t1, double h,
                  const double *x0, double *x1) {
  int n = w->n;
  for (int it = 0; it < NEWTON_MAX_ITERATIONS; it++) {
    integ->counts.newton_iterations++;
    for (int i = 0; i < n; i++) {
      w->r[i] = -(x1[i] - x0[i] - h * w->f1[i]);
    }
    int rc = teal_dense_lu_solve(w->J, n, w->piv, w->r, &integ->err);
    double step = 0.0, size = 0.0;
    for (int i = 0; rc == TEAL_OK && i < n; i++) {
      x1[i] += w->r[i];
      step = fmax(step, fabs(w->r[i]));
      size = fmax(size, fabs(x1[i]));
    }
    if (rc == TEAL_OK) {
      rc = teal_integrator_eval(integ, ode, t1, x1, w->f1);
    }
    if (rc) {
      return rc;
    }
    if (step <= newton_tolerance * (1.0 + size)) {
      return TEAL_OK;
    }
  }
  return teal_error_set(&integ->err, TEAL_ENOCONV, "implicit_euler: Newton iterations did not "
                        "converge in %d iterations at t = %g, h = %g", NEWTON_MAX_ITERATIONS,
                        t1 - h, h);
}

static int ie_step(teal_integrator *integ, const teal_ode *ode, double t, double h,
                   const double *x0, double *x1, double *xerr) {
  ie_work *w = integ->work;
  int n = w->n;
  int rc = teal_integrator_eval(integ, ode, t, x0, w->f0);
  for (int i = 0; rc == TEAL_OK && i < n; i++) {
    x1[i] = x0[i] + h * w->f0[i]; /* explicit predictor */
  }
  if (rc == TEAL_OK) {
    rc = teal_integrator_eval(integ, ode, t + h, x1, w->f1);
  }
  if (rc == TEAL_OK) {
    rc = form_jacobian(integ, w, ode, t + h, x1, w->f1);
  }
  if (rc == TEAL_OK) {
    rc = factor_iteration_matrix(integ, w, h);
  }
  if (rc == TEAL_OK) {
    rc = newton(integ, w, ode, t + h, h, x0, x1);
  }
  if (rc) {
    return rc;
  }
  for (int i = 0; xerr && i < n; i++) {
    xerr[i] = 0.5 * h * (w->f1[i] - w->f0[i]);
  }
  memcpy(w->x0, x0, (size_t)n * sizeof(double));
  memcpy(w->x1, x1, (size_t)n * sizeof(double));
  w->h = h;
  return TEAL_OK;
}

static int ie_interpolate(const teal_integrator *integ, double theta, double *x) {
  const ie_work *w = integ->work;
  teal_integrator_lerp(w->n, w->x0, w->x1, theta, x);
  return TEAL_OK;
}

static const teal_integrator_type ie_type = {
    "implicit_euler", 1, 1, 1, ie_alloc, ie_step, ie_interpolate, ie_free};

const teal_integrator_type *const teal_integrator_implicit_euler = &ie_type;
