/* Coordinate projection onto holonomic constraint rows (see
 * constraint_projection.h). */
#include "multibody/constraints/constraint_projection.h"

#include <math.h>
#include <string.h>

#include "solvers/dense_psd.h"

#define DEFAULT_ITERATIONS 10

/* The work array's parts. */
typedef struct proj_work {
  double *P;  /* m x nv */
  double *S;  /* m x m */
  double *r;  /* m: residual, then the multipliers */
  double *dv; /* nv */
  double *pv; /* m: P v */
  double *f;  /* 2 m: the PSD solve's work */
} proj_work;

static proj_work split_work(double *work, int m, int nv) {
  proj_work w;
  w.P = work;
  w.S = w.P + (size_t)m * (size_t)nv;
  w.r = w.S + (size_t)m * (size_t)m;
  w.pv = w.r + m;
  w.dv = w.pv + m;
  w.f = w.dv + nv;
  return w;
}

size_t teal_projection_work_doubles(int m, int nv) {
  if (m < 0 || nv < 0) {
    return 0;
  }
  return (size_t)m * (size_t)nv + (size_t)m * (size_t)m + 4 * (size_t)m + 2 * (size_t)nv;
}

static double weight(const teal_projection_options *opt, int j) {
  return opt->inv_weight2 ? opt->inv_weight2[j] : 1.0;
}

static int check_args(const teal_projection_rows *rows, const teal_projection_options *opt,
                      const void *x, const double *work, teal_error *err, const char *fn) {
  if (!rows || !opt || !x || !work) {
    return teal_error_set(err, TEAL_EINVAL, "%s: rows, options, state or work is NULL", fn);
  }
  if (rows->m < 0 || rows->nq < 0 || rows->nv < 0 || !rows->errors || !rows->jacobian ||
      !rows->advance) {
    return teal_error_set(err, TEAL_EINVAL,
                          "%s: the rows need m, nq, nv >= 0 and all three "
                          "callbacks",
                          fn);
  }
  if (!(opt->tolerance > 0.0) || !isfinite(opt->tolerance)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: tolerance %g must be positive and finite", fn,
                          opt->tolerance);
  }
  for (int j = 0; opt->inv_weight2 && j < rows->nv; j++) {
    if (!(opt->inv_weight2[j] >= 0.0) || !isfinite(opt->inv_weight2[j])) {
      return teal_error_set(err, TEAL_EINVAL,
                            "%s: weight %d is %g; weights must be finite and "
                            ">= 0",
                            fn, j, opt->inv_weight2[j]);
    }
  }
  return TEAL_OK;
}

/* The largest |x_i|, or INFINITY when some x_i is not finite (fmax would
 * skip a NaN). */
static double max_abs(const double *x, int n) {
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return INFINITY;
    }
    m = fmax(m, fabs(x[i]));
  }
  return m;
}

/* dv = -W P' (P W P')^-1 r: the least W^-1-norm step that cancels the
 * residual r to first order (r is overwritten). */
static int min_norm_step(const teal_projection_rows *rows, const teal_projection_options *opt,
                         proj_work *w) {
  int m = rows->m, nv = rows->nv;
  for (int i = 0; i < m; i++) {
    const double *Pi = w->P + (size_t)i * (size_t)nv;
    for (int k = 0; k <= i; k++) {
      const double *Pk = w->P + (size_t)k * (size_t)nv;
      double acc = 0.0;
      for (int j = 0; j < nv; j++) {
        acc += Pi[j] * weight(opt, j) * Pk[j];
      }
      w->S[(size_t)i * (size_t)m + (size_t)k] = w->S[(size_t)k * (size_t)m + (size_t)i] = acc;
    }
  }
  int rc = teal_dense_psd_factor_solve(w->S, m, w->r, 0.0, w->f, NULL, NULL);
  for (int j = 0; rc == TEAL_OK && j < nv; j++) {
    double acc = 0.0;
    for (int i = 0; i < m; i++) {
      acc += w->P[(size_t)i * (size_t)nv + (size_t)j] * w->r[i];
    }
    w->dv[j] = -weight(opt, j) * acc;
  }
  return rc;
}

/* The errors at q into w->r and their largest magnitude into *e. */
static int eval_errors(const teal_projection_rows *rows, const double *q, proj_work *w, double *e,
                       teal_error *err) {
  int rc = rows->errors(q, w->r, rows->user);
  *e = rc ? INFINITY : max_abs(w->r, rows->m);
  if (rc) {
    return teal_error_set(err, rc, "project positions: a constraint callback failed (%s)",
                          teal_strerror(rc));
  }
  return *e == INFINITY ? teal_error_set(err, TEAL_ENONFINITE,
                                         "project positions: a constraint "
                                         "error is not finite")
                        : TEAL_OK;
}

static int gauss_newton_step(const teal_projection_rows *rows, const teal_projection_options *opt,
                             double *q, proj_work *w, teal_error *err) {
  int rc = rows->jacobian(q, w->P, rows->user);
  if (rc) {
    return teal_error_set(err, rc, "project positions: the constraint Jacobian failed (%s)",
                          teal_strerror(rc));
  }
  if (max_abs(w->P, rows->m * rows->nv) == INFINITY) {
    return teal_error_set(err, TEAL_ENONFINITE,
                          "project positions: the constraint Jacobian "
                          "has a non-finite entry");
  }
  rc = min_norm_step(rows, opt, w);
  if (rc) {
    return teal_error_set(err, rc, "project positions: the projected system failed (%s)",
                          teal_strerror(rc));
  }
  rc = rows->advance(q, w->dv, rows->user);
  return rc ? teal_error_set(err, rc, "project positions: moving q failed (%s)", teal_strerror(rc))
            : TEAL_OK;
}

int teal_project_positions(const teal_projection_rows *rows, const teal_projection_options *opt,
                           double *q, double *work, int *iterations, teal_error *err) {
  int rc = check_args(rows, opt, q, work, err, "project positions");
  if (rc) {
    return rc;
  }
  proj_work w = split_work(work, rows->m, rows->nv);
  int max_it = opt->max_iterations > 0 ? opt->max_iterations : DEFAULT_ITERATIONS, it = 0;
  double e;
  rc = eval_errors(rows, q, &w, &e, err);
  while (rc == TEAL_OK && e > opt->tolerance && it < max_it) {
    rc = gauss_newton_step(rows, opt, q, &w, err);
    it++;
    if (rc == TEAL_OK) {
      rc = eval_errors(rows, q, &w, &e, err);
    }
  }
  if (iterations) {
    *iterations = it;
  }
  if (rc) {
    return rc;
  }
  if (e > opt->tolerance) {
    return teal_error_set(err, TEAL_ENOCONV,
                          "project positions: the constraint error is still "
                          "%g after %d iterations (tolerance %g)",
                          e, it, opt->tolerance);
  }
  return TEAL_OK;
}

/* r = P v - c and its largest magnitude. */
static double velocity_residual(const teal_projection_rows *rows, const double *c, const double *v,
                                proj_work *w) {
  for (int i = 0; i < rows->m; i++) {
    const double *Pi = w->P + (size_t)i * (size_t)rows->nv;
    double acc = c ? -c[i] : 0.0;
    for (int j = 0; j < rows->nv; j++) {
      acc += Pi[j] * v[j];
    }
    w->r[i] = acc;
  }
  return max_abs(w->r, rows->m);
}

int teal_project_velocities(const teal_projection_rows *rows, const teal_projection_options *opt,
                            const double *q, const double *c, double *v, double *work,
                            teal_error *err) {
  int rc = check_args(rows, opt, v, work, err, "project velocities");
  if (rc || (rc = q ? TEAL_OK
                    : teal_error_set(err, TEAL_EINVAL,
                                     "project velocities: q is "
                                     "NULL"))) {
    return rc;
  }
  proj_work w = split_work(work, rows->m, rows->nv);
  if ((rc = rows->jacobian(q, w.P, rows->user)) != TEAL_OK) {
    return teal_error_set(err, rc, "project velocities: the constraint Jacobian failed (%s)",
                          teal_strerror(rc));
  }
  /* linear rows: one step is exact up to round-off; a second cleans that */
  for (int pass = 0; pass < 2; pass++) {
    double e = velocity_residual(rows, c, v, &w);
    if (e == INFINITY) {
      return teal_error_set(err, TEAL_ENONFINITE,
                            "project velocities: a velocity error is "
                            "not finite");
    }
    if (e <= opt->tolerance && pass > 0) {
      return TEAL_OK;
    }
    if ((rc = min_norm_step(rows, opt, &w)) != TEAL_OK) {
      return teal_error_set(err, rc, "project velocities: the projected system failed (%s)",
                            teal_strerror(rc));
    }
    for (int j = 0; j < rows->nv; j++) {
      v[j] += w.dv[j];
    }
  }
  double e = velocity_residual(rows, c, v, &w);
  return e <= opt->tolerance
             ? TEAL_OK
             : teal_error_set(err, TEAL_ENOCONV,
                              "project velocities: the velocity constraint "
                              "error is still %g (tolerance %g): the rows are inconsistent",
                              e, opt->tolerance);
}

int teal_project_error_tangent(const teal_projection_rows *rows, const teal_projection_options *opt,
                               const double *q, double *e, double *work, teal_error *err) {
  static const char fn[] = "project error estimate";
  int rc = check_args(rows, opt, e, work, err, fn);
  if (rc || (rc = q ? TEAL_OK : teal_error_set(err, TEAL_EINVAL, "%s: q is NULL", fn))) {
    return rc;
  }
  proj_work w = split_work(work, rows->m, rows->nv);
  if ((rc = rows->jacobian(q, w.P, rows->user)) != TEAL_OK) {
    return teal_error_set(err, rc, "%s: the constraint Jacobian failed (%s)", fn,
                          teal_strerror(rc));
  }
  if (max_abs(w.P, rows->m * rows->nv) == INFINITY ||
      velocity_residual(rows, NULL, e, &w) == INFINITY) {
    return teal_error_set(err, TEAL_ENONFINITE, "%s: the Jacobian or the estimate is not finite",
                          fn);
  }
  /* r = P e; the least-norm dv with P dv = -r is minus e's normal part */
  if ((rc = min_norm_step(rows, opt, &w)) != TEAL_OK) {
    return teal_error_set(err, rc, "%s: the projected system failed (%s)", fn, teal_strerror(rc));
  }
  for (int j = 0; j < rows->nv; j++) {
    e[j] += w.dv[j];
  }
  return TEAL_OK;
}
