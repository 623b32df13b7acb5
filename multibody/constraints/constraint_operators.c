/* The constraint operators (see constraint_operators.h): each stages the
 * context's constraint work, then runs the kernels of the enabled
 * constraints over their rows. */
#include "multibody/constraints/constraint_operators.h"

#include <math.h>
#include <string.h>

#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/operators.h"
#include "multibody/algorithms/stages.h"
#include "multibody/constraints/constraint_internal.h"
#include "multibody/plant/plant_calc_internal.h"

static int null_arg(const teal_context *ctx, const char *fn, const char *what) {
  return teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s is NULL", fn, what);
}

/* TEAL_OK, or the error of a NULL ctx / plant / array (reported). */
static int check_args(const teal_plant *p, const teal_context *ctx, const char *fn, const void *a,
                      const char *a_name, const void *b, const char *b_name) {
  if (!ctx || !p) {
    return teal_plant_bad_call(p, ctx, fn);
  }
  if (!a) {
    return null_arg(ctx, fn, a_name);
  }
  return b ? TEAL_OK : null_arg(ctx, fn, b_name);
}

/* Zeroes the rows of the constraints that are disabled. */
static void zero_inactive(const teal_constraint_work *w, double *x) {
  for (int i = 0; i < w->m; i++) {
    if (w->active[i] == 0.0) {
      x[i] = 0.0;
    }
  }
}

static int enabled(const teal_constraint_work *w, int c) {
  return w->enabled[c] != 0.0;
}

int teal_constraint_multiply(const teal_plant *p, teal_constraint_work *w, teal_mb_data *data,
                             const double *q, const double *u, double *Gu) {
  int rc = teal_mb_jacobian_apply(p, data, q, u, w->Vu);
  if (rc) {
    return rc;
  }
  for (int i = 0; i < w->nc; i++) {
    const constraint_rec *c = &CONSTRAINT(p)[i];
    if (c->rows > 0 && enabled(w, i)) {
      teal_constraint_kernel_rates(p, c, w->X, w->Vu, u, Gu + c->row_start);
    }
  }
  zero_inactive(w, Gu);
  return TEAL_OK;
}

int teal_constraint_multiply_transpose(const teal_plant *p, teal_constraint_work *w,
                                       teal_mb_data *data, const double *q, const double *lambda,
                                       double *f) {
  memset(w->F, 0, (size_t)w->nb * sizeof(teal_spatial_vector));
  memset(w->tmp_nv, 0, (size_t)w->nv * sizeof(double));
  for (int i = 0; i < w->nc; i++) {
    const constraint_rec *c = &CONSTRAINT(p)[i];
    if (c->rows > 0 && enabled(w, i)) {
      teal_constraint_kernel_forces(p, c, w->X, lambda + c->row_start, w->F, w->tmp_nv);
    }
  }
  int rc = teal_mb_jacobian_apply_transpose(p, data, q, w->F, f);
  for (int i = 0; rc == TEAL_OK && i < w->nv; i++) {
    f[i] += w->tmp_nv[i];
  }
  return rc;
}

void teal_constraint_bias(const teal_plant *p, const teal_constraint_work *w, double *b) {
  for (int i = 0; i < w->nc; i++) {
    const constraint_rec *c = &CONSTRAINT(p)[i];
    if (c->rows > 0 && enabled(w, i)) {
      teal_constraint_kernel_bias(p, c, w->X, w->V, w->A, b + c->row_start);
    }
  }
  zero_inactive(w, b);
}

int teal_constraint_form_g(const teal_plant *p, teal_constraint_work *w, teal_mb_data *data,
                           const double *q) {
  /* one position stage for all rows (kept when data already holds this q) */
  int rc = teal_mb_position_stage(p, data, q);
  if (rc) {
    return rc;
  }
  memset(w->G, 0, (size_t)w->m * (size_t)w->nv * sizeof(double));
  for (int i = 0; i < w->nc; i++) {
    const constraint_rec *c = &CONSTRAINT(p)[i];
    if (c->rows > 0 && enabled(w, i)) {
      teal_constraint_kernel_g_rows(p, c, w->X, data, w->F, w->G + (size_t)c->row_start * w->nv);
    }
  }
  return TEAL_OK;
}

/* Reports a failed algorithm call with the data's message. */
static int report(const teal_context *ctx, const teal_plant_scratch *s, const char *fn, int rc) {
  return teal_context_report_error(ctx, rc, "%s: %s", fn, teal_mb_data_error(s->data)->message);
}

/* ---- public operators -------------------------------------------------------------- */

int teal_plant_calc_constraint_position_errors(const teal_plant *p, const teal_context *ctx,
                                               double *perr) {
  static const char fn[] = "plant calc_constraint_position_errors";
  int rc = check_args(p, ctx, fn, perr, "perr", perr, "");
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage_positions(p, ctx, fn, &rc, &q);
  if (!w) {
    return rc;
  }
  for (int i = 0; i < w->nc; i++) {
    const constraint_rec *c = &CONSTRAINT(p)[i];
    if (c->rows > 0 && enabled(w, i)) {
      teal_constraint_kernel_errors(p, c, w->X, q, perr + c->row_start);
    }
  }
  zero_inactive(w, perr);
  return TEAL_OK;
}

int teal_plant_calc_constraint_velocity_errors(const teal_plant *p, const teal_context *ctx,
                                               double *pverr) {
  static const char fn[] = "plant calc_constraint_velocity_errors";
  int rc = check_args(p, ctx, fn, pverr, "pverr", pverr, "");
  const double *v = NULL;
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage(p, ctx, fn, &rc, NULL, NULL, &v);
  if (!w) {
    return rc;
  }
  for (int i = 0; i < w->nc; i++) {
    const constraint_rec *c = &CONSTRAINT(p)[i];
    if (c->rows > 0 && enabled(w, i)) {
      teal_constraint_kernel_rates(p, c, w->X, w->V, v, pverr + c->row_start);
    }
  }
  zero_inactive(w, pverr);
  return TEAL_OK;
}

int teal_plant_calc_constraint_bias(const teal_plant *p, const teal_context *ctx, double *b) {
  static const char fn[] = "plant calc_constraint_bias";
  int rc = check_args(p, ctx, fn, b, "b", b, "");
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage(p, ctx, fn, &rc, NULL, NULL, NULL);
  if (w) {
    teal_constraint_bias(p, w, b);
  }
  return rc;
}

int teal_plant_multiply_by_constraint_jacobian(const teal_plant *p, const teal_context *ctx,
                                               const double *u, double *Gu) {
  static const char fn[] = "plant multiply_by_constraint_jacobian";
  int rc = check_args(p, ctx, fn, u, "u", Gu, "Gu");
  rc = rc ? rc : teal_plant_check_finite(ctx, u, p->nv, "u");
  teal_plant_scratch *s = NULL;
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage(p, ctx, fn, &rc, &s, &q, NULL);
  rc = w ? teal_constraint_multiply(p, w, s->data, q, u, Gu) : rc;
  return rc && w ? report(ctx, s, fn, rc) : rc;
}

int teal_plant_multiply_by_constraint_jacobian_transpose(const teal_plant *p,
                                                         const teal_context *ctx,
                                                         const double *lambda, double *f) {
  static const char fn[] = "plant multiply_by_constraint_jacobian_transpose";
  int rc = check_args(p, ctx, fn, lambda, "lambda", f, "f");
  rc = rc ? rc : teal_plant_check_finite(ctx, lambda, p->nc_rows, "lambda");
  teal_plant_scratch *s = NULL;
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage(p, ctx, fn, &rc, &s, &q, NULL);
  if (!w && !rc) {
    memset(f, 0, (size_t)p->nv * sizeof(double)); /* no constraints */
  }
  rc = w ? teal_constraint_multiply_transpose(p, w, s->data, q, lambda, f) : rc;
  return rc && w ? report(ctx, s, fn, rc) : rc;
}

int teal_plant_calc_constraint_acceleration_errors(const teal_plant *p, const teal_context *ctx,
                                                   const double *vdot, double *paerr) {
  static const char fn[] = "plant calc_constraint_acceleration_errors";
  int rc = check_args(p, ctx, fn, vdot, "vdot", paerr, "paerr");
  rc = rc ? rc : teal_plant_check_finite(ctx, vdot, p->nv, "vdot");
  teal_plant_scratch *s = NULL;
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage(p, ctx, fn, &rc, &s, &q, NULL);
  if (!w) {
    return rc;
  }
  teal_constraint_bias(p, w, w->r1);
  rc = teal_constraint_multiply(p, w, s->data, q, vdot, paerr);
  for (int i = 0; rc == TEAL_OK && i < w->m; i++) {
    paerr[i] -= w->r1[i];
  }
  return rc ? report(ctx, s, fn, rc) : TEAL_OK;
}

int teal_plant_calc_constraint_jacobian(const teal_plant *p, const teal_context *ctx, double *G) {
  static const char fn[] = "plant calc_constraint_jacobian";
  int rc = check_args(p, ctx, fn, G, "G", G, "");
  teal_plant_scratch *s = NULL;
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage(p, ctx, fn, &rc, &s, &q, NULL);
  rc = w ? teal_constraint_form_g(p, w, s->data, q) : rc;
  if (rc) {
    return w ? report(ctx, s, fn, rc) : rc;
  }
  if (w) {
    memcpy(G, w->G, (size_t)w->m * (size_t)w->nv * sizeof(double));
  }
  return TEAL_OK;
}

int teal_plant_calc_constraint_jacobian_q(const teal_plant *p, const teal_context *ctx,
                                          double *Pq) {
  static const char fn[] = "plant calc_constraint_jacobian_q";
  int rc = check_args(p, ctx, fn, Pq, "Pq", Pq, "");
  teal_plant_scratch *s = NULL;
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage(p, ctx, fn, &rc, &s, &q, NULL);
  rc = w ? teal_constraint_form_g(p, w, s->data, q) : rc;
  for (int i = 0; w && rc == TEAL_OK && i < w->m; i++) {
    rc = teal_mb_multiply_by_n_inv(p, s->data, q, 1, w->G + (size_t)i * w->nv,
                                   Pq + (size_t)i * w->nq);
  }
  return rc && w ? report(ctx, s, fn, rc) : rc;
}

int teal_plant_multiply_by_constraint_jacobian_q(const teal_plant *p, const teal_context *ctx,
                                                 const double *qlike, double *Pq_qlike) {
  static const char fn[] = "plant multiply_by_constraint_jacobian_q";
  int rc = check_args(p, ctx, fn, qlike, "qlike", Pq_qlike, "Pq_qlike");
  rc = rc ? rc : teal_plant_check_finite(ctx, qlike, p->nq, "qlike");
  teal_plant_scratch *s = NULL;
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage(p, ctx, fn, &rc, &s, &q, NULL);
  rc = w ? teal_mb_multiply_by_n_inv(p, s->data, q, 0, qlike, w->tmp_nv2) : rc;
  rc = w && !rc ? teal_constraint_multiply(p, w, s->data, q, w->tmp_nv2, Pq_qlike) : rc;
  return rc && w ? report(ctx, s, fn, rc) : rc;
}

int teal_plant_multiply_by_constraint_jacobian_q_transpose(const teal_plant *p,
                                                           const teal_context *ctx,
                                                           const double *lambda, double *f_q) {
  static const char fn[] = "plant multiply_by_constraint_jacobian_q_transpose";
  int rc = check_args(p, ctx, fn, lambda, "lambda", f_q, "f_q");
  rc = rc ? rc : teal_plant_check_finite(ctx, lambda, p->nc_rows, "lambda");
  teal_plant_scratch *s = NULL;
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage(p, ctx, fn, &rc, &s, &q, NULL);
  if (!w && !rc) {
    memset(f_q, 0, (size_t)p->nq * sizeof(double)); /* no constraints */
  }
  rc = w ? teal_constraint_multiply_transpose(p, w, s->data, q, lambda, w->tmp_nv2) : rc;
  rc = w && !rc ? teal_mb_multiply_by_n_inv(p, s->data, q, 1, w->tmp_nv2, f_q) : rc;
  return rc && w ? report(ctx, s, fn, rc) : rc;
}
