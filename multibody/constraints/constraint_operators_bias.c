/* The bias-reuse products and the explicit transposes (see
 * constraint_operators_bias.h): the with-bias forms stage the body poses
 * only and evaluate the constraints' velocity errors at the given input. */
#include "multibody/constraints/constraint_operators_bias.h"

#include <string.h>

#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/operators.h"
#include "multibody/constraints/constraint_internal.h"
#include "multibody/plant/plant_calc_internal.h"

/* TEAL_OK, or the error of a NULL plant / ctx / array (reported). */
static int check_args(const teal_plant *p, const teal_context *ctx, const char *fn, const void *a,
                      const char *a_name, const void *b, const char *b_name) {
  if (!ctx || !p) {
    return teal_plant_bad_call(p, ctx, fn);
  }
  if (!a || !b) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s is NULL", fn, a ? b_name : a_name);
  }
  return TEAL_OK;
}

/* The work staged at ctx's poses with the scratch's data and q; NULL with
 * *rc (TEAL_OK for a plant without constraints). */
static teal_constraint_work *stage_poses(const teal_plant *p, const teal_context *ctx,
                                         const char *fn, int *rc, teal_mb_data **data,
                                         const double **q) {
  teal_constraint_work *w = teal_constraint_stage_positions(p, ctx, fn, rc, q);
  if (w) {
    *data = teal_plant_get_scratch(p, teal_plant_own_context(p, ctx))->data;
  }
  return w;
}

/* Reports a failed algorithm call with the data's message. */
static int report(const teal_context *ctx, teal_mb_data *data, const char *fn, int rc) {
  return teal_context_report_error(ctx, rc, "%s: %s", fn, teal_mb_data_error(data)->message);
}

/* pverr(q; u) over the enabled constraints, given the body velocities Vu of
 * u (0 on the rows of disabled constraints). */
static void velocity_errors(const teal_plant *p, const teal_constraint_work *w, const double *u,
                            double *out) {
  memset(out, 0, (size_t)w->m * sizeof(double));
  for (int i = 0; i < w->nc; i++) {
    const constraint_rec *c = &CONSTRAINT(p)[i];
    if (c->rows > 0 && w->enabled[i] != 0.0) {
      teal_constraint_kernel_rates(p, c, w->X, w->Vu, u, out + c->row_start);
    }
  }
}

/* pverr(q; 0): the velocity errors with no motion. */
static int zero_input_bias(const teal_plant *p, const teal_context *ctx, const char *fn,
                           double *bias) {
  int rc = check_args(p, ctx, fn, bias, "bias", bias, "");
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage_positions(p, ctx, fn, &rc, &q);
  if (w) {
    memset(w->Vu, 0, (size_t)w->nb * sizeof(teal_spatial_vector));
    velocity_errors(p, w, w->zero_nv, bias);
  }
  return rc;
}

int teal_plant_calc_bias_for_multiply_by_constraint_jacobian(const teal_plant *p,
                                                             const teal_context *ctx,
                                                             double *bias) {
  return zero_input_bias(p, ctx, "plant calc_bias_for_multiply_by_constraint_jacobian", bias);
}

int teal_plant_calc_bias_for_multiply_by_constraint_jacobian_q(const teal_plant *p,
                                                               const teal_context *ctx,
                                                               double *biasp) {
  return zero_input_bias(p, ctx, "plant calc_bias_for_multiply_by_constraint_jacobian_q", biasp);
}

/* out = pverr(q; u) - bias, u a velocity-like vector (nv). */
static int product_with_bias(const teal_plant *p, teal_constraint_work *w, teal_mb_data *data,
                             const double *q, const double *u, const double *bias, double *out) {
  int rc = teal_mb_jacobian_apply(p, data, q, u, w->Vu);
  if (rc) {
    return rc;
  }
  velocity_errors(p, w, u, out);
  for (int i = 0; i < w->m; i++) {
    out[i] -= bias[i];
  }
  return TEAL_OK;
}

/* Checks the input x (n values) and the bias, then stages the poses. */
static teal_constraint_work *stage_product(const teal_plant *p, const teal_context *ctx,
                                           const char *fn, const double *x, int n,
                                           const double *bias, double *out, int *rc,
                                           teal_mb_data **data, const double **q) {
  *rc = check_args(p, ctx, fn, x, "the input vector", out, "the output");
  *rc = *rc ? *rc : check_args(p, ctx, fn, bias, "bias", bias, "");
  *rc = *rc ? *rc : teal_plant_check_finite(ctx, x, n, "the input vector");
  *rc = *rc ? *rc : teal_plant_check_finite(ctx, bias, p->nc_rows, "bias");
  return *rc ? NULL : stage_poses(p, ctx, fn, rc, data, q);
}

int teal_plant_multiply_by_constraint_jacobian_with_bias(const teal_plant *p,
                                                         const teal_context *ctx, const double *u,
                                                         const double *bias, double *Gu) {
  static const char fn[] = "plant multiply_by_constraint_jacobian_with_bias";
  int rc;
  teal_mb_data *data = NULL;
  const double *q = NULL;
  teal_constraint_work *w = stage_product(p, ctx, fn, u, p ? p->nv : 0, bias, Gu, &rc, &data, &q);
  rc = w ? product_with_bias(p, w, data, q, u, bias, Gu) : rc;
  return rc && w ? report(ctx, data, fn, rc) : rc;
}

int teal_plant_multiply_by_constraint_jacobian_q_with_bias(const teal_plant *p,
                                                           const teal_context *ctx,
                                                           const double *qlike, const double *biasp,
                                                           double *Pq_qlike) {
  static const char fn[] = "plant multiply_by_constraint_jacobian_q_with_bias";
  int rc;
  teal_mb_data *data = NULL;
  const double *q = NULL;
  teal_constraint_work *w =
      stage_product(p, ctx, fn, qlike, p ? p->nq : 0, biasp, Pq_qlike, &rc, &data, &q);
  rc = w ? teal_mb_multiply_by_n_inv(p, data, q, 0, qlike, w->tmp_nv2) : rc;
  rc = w && !rc ? product_with_bias(p, w, data, q, w->tmp_nv2, biasp, Pq_qlike) : rc;
  return rc && w ? report(ctx, data, fn, rc) : rc;
}

int teal_plant_calc_constraint_jacobian_transpose(const teal_plant *p, const teal_context *ctx,
                                                  double *Gt) {
  static const char fn[] = "plant calc_constraint_jacobian_transpose";
  int rc = check_args(p, ctx, fn, Gt, "Gt", Gt, "");
  teal_mb_data *data = NULL;
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : stage_poses(p, ctx, fn, &rc, &data, &q);
  rc = w ? teal_constraint_form_g(p, w, data, q) : rc;
  if (rc || !w) {
    return rc && w ? report(ctx, data, fn, rc) : rc;
  }
  for (int i = 0; i < w->m; i++) { /* row i of G = G' e_i is column i of G' */
    for (int k = 0; k < w->nv; k++) {
      Gt[(size_t)k * w->m + i] = w->G[(size_t)i * w->nv + k];
    }
  }
  return TEAL_OK;
}

/* Transposes the rows x cols row-major a in place by following each
 * permutation cycle from its smallest index (no extra memory). */
static void transpose_in_place(double *a, int rows, int cols) {
  long n = (long)rows * cols;
  for (long start = 1; start < n - 1; start++) {
    long k = (start * rows) % (n - 1);
    while (k > start) {
      k = (k * rows) % (n - 1);
    }
    if (k < start) {
      continue; /* this cycle was moved from its smaller leader */
    }
    double carried = a[start];
    long from = start;
    do { /* the value at `from` belongs at (from * rows) mod (n - 1) */
      long to = (from * rows) % (n - 1);
      double next = a[to];
      a[to] = carried;
      carried = next;
      from = to;
    } while (from != start);
  }
}

int teal_plant_calc_constraint_jacobian_q_transpose(const teal_plant *p, const teal_context *ctx,
                                                    double *Pqt) {
  static const char fn[] = "plant calc_constraint_jacobian_q_transpose";
  int rc = check_args(p, ctx, fn, Pqt, "Pqt", Pqt, "");
  teal_mb_data *data = NULL;
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : stage_poses(p, ctx, fn, &rc, &data, &q);
  rc = w ? teal_constraint_form_g(p, w, data, q) : rc;
  for (int i = 0; w && rc == TEAL_OK && i < w->m; i++) { /* Pq row i = N+' G' e_i */
    rc =
        teal_mb_multiply_by_n_inv(p, data, q, 1, w->G + (size_t)i * w->nv, Pqt + (size_t)i * w->nq);
  }
  if (rc || !w) {
    return rc && w ? report(ctx, data, fn, rc) : rc;
  }
  transpose_in_place(Pqt, w->m, w->nq);
  return TEAL_OK;
}
