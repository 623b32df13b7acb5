/* Constrained forward dynamics and the operators built on the projected
 * inverse mass W = G M^-1 G' (see constrained_dynamics.h). */
#include "multibody/constraints/constrained_dynamics.h"

#include <string.h>

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/mass_inverse.h"
#include "multibody/constraints/constraint_internal.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/plant/plant_inverse_dynamics.h"

/* y = M^-1 b with data's factorization at q, factoring M first when data
 * holds none for q. */
static int mass_inverse(const teal_plant *p, teal_mb_data *data, const double *q, const double *b,
                        double *y) {
  int rc = teal_mb_mass_inverse(p, data, b, y);
  if (rc == TEAL_ESTATE) {
    rc = teal_mb_articulated_factor(p, data, q);
    rc = rc ? rc : teal_mb_mass_inverse(p, data, b, y);
  }
  return rc;
}

/* G (w->G), Y = rows M^-1 g_i (w->Y) and W = G Y' (w->W) at q. */
static int form_w(const teal_plant *p, teal_constraint_work *w, teal_mb_data *data,
                  const double *q) {
  int rc = teal_constraint_form_g(p, w, data, q);
  size_t nv = (size_t)w->nv;
  for (int i = 0; rc == TEAL_OK && i < w->m; i++) {
    rc = mass_inverse(p, data, q, w->G + i * nv, w->Y + i * nv);
  }
  for (int i = 0; rc == TEAL_OK && i < w->m; i++) {
    for (int k = 0; k < w->m; k++) {
      double s = 0.0;
      for (size_t j = 0; j < nv; j++) {
        s += w->G[i * nv + j] * w->Y[k * nv + j];
      }
      w->W[i * w->m + k] = s;
    }
  }
  return rc;
}

/* The pivoted solve W x = r, a conflict reported on ctx naming the row. */
static int solve(const teal_plant *p, teal_constraint_work *w, const teal_context *ctx,
                 const char *fn, const double *r, double *x) {
  int bad = -1;
  double bad_residual = 0.0;
  int rc = teal_constraint_pivoted_solve(w->m, w->W, r, w->active, w->L, w->perm, w->psd_work, x,
                                         &bad, &bad_residual);
  if (rc == TEAL_OK) {
    return TEAL_OK;
  }
  int c = 0;
  while (c + 1 < w->nc && CONSTRAINT(p)[c + 1].row_start <= bad) {
    c++;
  }
  return teal_context_report_error(
      ctx, TEAL_ESINGULAR,
      "%s: conflicting redundant constraints at t = %g: row %d (constraint %d) depends on "
      "others but asks for another acceleration (residual %g)",
      fn, teal_context_time(ctx), bad, c, bad_residual);
}

/* Reports a failed algorithm call with the data's message. */
static int report(const teal_context *ctx, const teal_plant_scratch *s, const char *fn, int rc) {
  return teal_context_report_error(ctx, rc, "%s: %s", fn, teal_mb_data_error(s->data)->message);
}

static int null_arg(const teal_plant *p, const teal_context *ctx, const char *fn, const void *a,
                    const char *what) {
  if (!ctx || !p) {
    return teal_plant_bad_call(p, ctx, fn);
  }
  return a ? TEAL_OK : teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s is NULL", fn, what);
}

/* lambda and vdot from vdot_free at the staged state. */
static int constrained(const teal_plant *p, teal_constraint_work *w, teal_plant_scratch *s,
                       const double *q, const teal_context *ctx, const char *fn,
                       const double *vdot_free, double *vdot, double *lambda) {
  int active = 0;
  for (int i = 0; i < w->m; i++) {
    active |= w->active[i] != 0.0;
  }
  if (!active) { /* every constraint disabled: the free motion */
    memmove(vdot, vdot_free, (size_t)w->nv * sizeof(double));
    if (lambda) {
      memset(lambda, 0, (size_t)w->m * sizeof(double));
    }
    return TEAL_OK;
  }
  int rc = form_w(p, w, s->data, q);
  if (rc) {
    return report(ctx, s, fn, rc);
  }
  size_t nv = (size_t)w->nv;
  teal_constraint_bias(p, w, w->r1);
  for (int i = 0; i < w->m; i++) { /* r = G vdot_free - b */
    double g = 0.0;
    for (size_t j = 0; j < nv; j++) {
      g += w->G[i * nv + j] * vdot_free[j];
    }
    w->r1[i] = w->active[i] != 0.0 ? g - w->r1[i] : 0.0;
  }
  rc = solve(p, w, ctx, fn, w->r1, w->r2);
  if (rc) {
    return rc;
  }
  memmove(vdot, vdot_free, nv * sizeof(double));
  for (int i = 0; i < w->m; i++) {
    for (size_t j = 0; w->r2[i] != 0.0 && j < nv; j++) {
      vdot[j] -= w->r2[i] * w->Y[i * nv + j];
    }
  }
  if (lambda) {
    memcpy(lambda, w->r2, (size_t)w->m * sizeof(double));
  }
  return TEAL_OK;
}

int teal_plant_calc_constrained_accelerations(const teal_plant *p, const teal_context *ctx,
                                              const double *vdot_free, double *vdot,
                                              double *lambda) {
  static const char fn[] = "plant calc_constrained_accelerations";
  int rc = null_arg(p, ctx, fn, vdot_free, "vdot_free");
  rc = rc ? rc : null_arg(p, ctx, fn, vdot, "vdot");
  rc = rc ? rc : teal_plant_check_finite(ctx, vdot_free, p->nv, "vdot_free");
  teal_plant_scratch *s = NULL;
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage(p, ctx, fn, &rc, &s, &q, NULL);
  if (!w) {
    if (rc == TEAL_OK) {
      memmove(vdot, vdot_free, (size_t)p->nv * sizeof(double));
    }
    return rc;
  }
  return constrained(p, w, s, q, ctx, fn, vdot_free, vdot, lambda);
}

int teal_plant_calc_constrained_accelerations_stage(const teal_system *sys, const teal_context *ctx,
                                                    double *out, void *user) {
  static const char fn[] = "plant constrained accelerations";
  const teal_plant *p = user;
  int m = p->nc_rows;
  memset(out, 0, (size_t)(m + p->nv) * sizeof(double));
  if (p->sys.discrete || m == 0) {
    return TEAL_OK; /* the discrete step solves its own constraints */
  }
  if (teal_plant_uses_held_solve(p, ctx)) { /* the multipliers of the solve the plant runs */
    return teal_plant_calc_held_vdot(sys, ctx, p, out + m, out);
  }
  int rc = teal_plant_calc_free_vdot(sys, ctx, p, out + m);
  teal_plant_scratch *s = NULL;
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage(p, ctx, fn, &rc, &s, &q, NULL);
  if (!w) {
    return rc;
  }
  rc = constrained(p, w, s, q, ctx, fn, out + m, out + m, out);
  return rc ? rc : teal_plant_check_finite(ctx, out + m, p->nv, "constrained acceleration");
}

/* The work staged at ctx's state with W = G M^-1 G' formed, or NULL with
 * *rc (TEAL_OK when there is nothing to stage; failures reported on ctx). */
static teal_constraint_work *stage_with_w(const teal_plant *p, const teal_context *ctx,
                                          const char *fn, int *rc) {
  teal_plant_scratch *s = NULL;
  const double *q = NULL;
  teal_constraint_work *w = teal_constraint_stage(p, ctx, fn, rc, &s, &q, NULL);
  if (w && (*rc = form_w(p, w, s->data, q)) != TEAL_OK) {
    *rc = report(ctx, s, fn, *rc);
    return NULL;
  }
  return w;
}

int teal_plant_calc_projected_mass_inverse(const teal_plant *p, const teal_context *ctx,
                                           double *W) {
  static const char fn[] = "plant calc_projected_mass_inverse";
  int rc = null_arg(p, ctx, fn, W, "W");
  teal_constraint_work *w = rc ? NULL : stage_with_w(p, ctx, fn, &rc);
  if (!w) {
    return rc;
  }
  memcpy(W, w->W, (size_t)w->m * (size_t)w->m * sizeof(double));
  return TEAL_OK;
}

int teal_plant_solve_for_constraint_impulses(const teal_plant *p, const teal_context *ctx,
                                             const double *delta_v, double *impulse) {
  static const char fn[] = "plant solve_for_constraint_impulses";
  int rc = null_arg(p, ctx, fn, delta_v, "delta_v");
  rc = rc ? rc : null_arg(p, ctx, fn, impulse, "impulse");
  rc = rc ? rc : teal_plant_check_finite(ctx, delta_v, p->nc_rows, "delta_v");
  teal_constraint_work *w = rc ? NULL : stage_with_w(p, ctx, fn, &rc);
  if (!w) {
    return rc;
  }
  for (int i = 0; i < w->m; i++) {
    w->r1[i] = w->active[i] != 0.0 ? delta_v[i] : 0.0;
  }
  return solve(p, w, ctx, fn, w->r1, impulse);
}

int teal_plant_calc_constraint_forces_from_multipliers(const teal_plant *p, const teal_context *ctx,
                                                       const double *lambda,
                                                       teal_spatial_vector *F_Bo_W, double *tau) {
  static const char fn[] = "plant calc_constraint_forces_from_multipliers";
  int rc = null_arg(p, ctx, fn, lambda, "lambda");
  rc = rc ? rc : null_arg(p, ctx, fn, F_Bo_W, "F_Bo_W");
  rc = rc ? rc : null_arg(p, ctx, fn, tau, "tau");
  rc = rc ? rc : teal_plant_check_finite(ctx, lambda, p->nc_rows, "lambda");
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage_positions(p, ctx, fn, &rc, &q);
  if (rc) {
    return rc;
  }
  memset(F_Bo_W, 0, (size_t)p->bodies.n * sizeof(teal_spatial_vector));
  memset(tau, 0, (size_t)p->nv * sizeof(double));
  for (int i = 0; w && i < w->nc; i++) {
    const constraint_rec *c = &CONSTRAINT(p)[i];
    if (c->rows > 0 && w->enabled[i] != 0.0) {
      teal_constraint_kernel_forces(p, c, w->X, lambda + c->row_start, F_Bo_W, tau);
    }
  }
  return TEAL_OK;
}

int teal_plant_calc_constraint_residual_force(const teal_plant *p, const teal_context *ctx,
                                              const double *vdot, const double *tau_applied,
                                              const teal_spatial_vector *F_applied_Bo_W,
                                              const double *lambda, double *residual) {
  static const char fn[] = "plant calc_constraint_residual_force";
  int rc = null_arg(p, ctx, fn, lambda, "lambda");
  rc = rc ? rc : null_arg(p, ctx, fn, residual, "residual");
  rc = rc ? rc : teal_plant_check_finite(ctx, lambda, p->nc_rows, "lambda");
  rc = rc ? rc
          : teal_plant_calc_inverse_dynamics(p, ctx, vdot, tau_applied, F_applied_Bo_W, residual);
  teal_plant_scratch *s = NULL;
  const double *q = NULL;
  teal_constraint_work *w = rc ? NULL : teal_constraint_stage(p, ctx, fn, &rc, &s, &q, NULL);
  if (!w) {
    return rc;
  }
  rc = teal_constraint_multiply_transpose(p, w, s->data, q, lambda, w->tmp_nv2);
  for (int i = 0; rc == TEAL_OK && i < w->nv; i++) {
    residual[i] += w->tmp_nv2[i];
  }
  return rc ? report(ctx, s, fn, rc) : TEAL_OK;
}
