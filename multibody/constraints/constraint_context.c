/* A context's constraint state: the enabled flags, the multipliers of the
 * constrained accelerations and the reaction forces (see
 * constraint_context.h). */
#include "multibody/constraints/constraint_context.h"

#include <string.h>

#include "framework/context_access.h"
#include "multibody/constraints/constrained_dynamics.h"
#include "multibody/constraints/constraint_internal.h"
#include "multibody/constraints/constraint_operators.h"
#include "multibody/plant/plant_calc_internal.h"

/* The plant's own context in ctx with constraint c known, or NULL with
 * *rc the reason (reported). */
static const teal_context *own_with(const teal_plant *p, const teal_context *ctx, int c,
                                    const char *fn, int *rc) {
  const teal_context *own = ctx ? teal_plant_own_context(p, ctx) : NULL;
  if (!own) {
    *rc = teal_plant_bad_call(p, ctx, fn);
    return NULL;
  }
  if (c < 0 || c >= p->constraints.n) {
    *rc = teal_context_report_error(ctx, TEAL_ENOTFOUND,
                                    "%s: unknown constraint %d (the plant has %d)", fn, c,
                                    p->constraints.n);
    return NULL;
  }
  *rc = TEAL_OK;
  return own;
}

int teal_plant_set_constraint_enabled(const teal_plant *p, teal_context *ctx, int c, int enabled) {
  static const char fn[] = "plant set_constraint_enabled";
  int rc;
  teal_context *own = (teal_context *)own_with(p, ctx, c, fn, &rc);
  if (!own) {
    return rc;
  }
  double *flags = teal_context_numeric_parameter_mut(own, p->sys.param_constraints);
  flags[c] = enabled ? 1.0 : 0.0;
  return TEAL_OK;
}

int teal_plant_constraint_enabled(const teal_plant *p, const teal_context *ctx, int c) {
  int rc;
  const teal_context *own = own_with(p, ctx, c, "plant constraint_enabled", &rc);
  if (!own) {
    return rc;
  }
  return teal_context_numeric_parameter(own, p->sys.param_constraints)[c] != 0.0;
}

/* The constrained-accelerations entry of the plant's own context. */
static int eval_stage(const teal_plant *p, const teal_context *ctx, const char *fn,
                      const double **stage) {
  const teal_context *own = ctx ? teal_plant_own_context(p, ctx) : NULL;
  if (!own) {
    return teal_plant_bad_call(p, ctx, fn);
  }
  return teal_eval_cache_entry(p->system, own, p->sys.ce_lambda, (const void **)stage);
}

int teal_plant_get_constraint_multipliers(const teal_plant *p, const teal_context *ctx,
                                          double *lambda) {
  static const char fn[] = "plant get_constraint_multipliers";
  const double *stage;
  int rc = eval_stage(p, ctx, fn, &stage);
  if (rc == TEAL_OK && !lambda) {
    rc = teal_context_report_error(ctx, TEAL_EINVAL, "%s: lambda is NULL", fn);
  }
  if (rc == TEAL_OK) {
    memcpy(lambda, stage, (size_t)p->nc_rows * sizeof(double));
  }
  return rc;
}

int teal_plant_calc_constraint_reaction_forces(const teal_plant *p, const teal_context *ctx,
                                               teal_spatial_vector *F_Bo_W, double *tau) {
  static const char fn[] = "plant calc_constraint_reaction_forces";
  const double *stage;
  int rc = eval_stage(p, ctx, fn, &stage);
  teal_plant_scratch *s = rc ? NULL : teal_plant_get_scratch(p, teal_plant_own_context(p, ctx));
  teal_constraint_work *w = s ? s->cwork : NULL;
  if (!w) {
    if (rc == TEAL_OK && F_Bo_W) {
      memset(F_Bo_W, 0, (size_t)p->bodies.n * sizeof(teal_spatial_vector));
    }
    if (rc == TEAL_OK && tau) {
      memset(tau, 0, (size_t)p->nv * sizeof(double));
    }
    return rc;
  }
  /* the work's F and tmp_nv hold the forces of -lambda unless outputs are given */
  for (int i = 0; i < w->m; i++) {
    w->r2[i] = -stage[i];
  }
  return teal_plant_calc_constraint_forces_from_multipliers(p, ctx, w->r2, F_Bo_W ? F_Bo_W : w->Vu,
                                                            tau ? tau : w->tmp_nv2);
}

int teal_plant_calc_constraint_power(const teal_plant *p, const teal_context *ctx, double *power) {
  static const char fn[] = "plant calc_constraint_power";
  const double *stage;
  int rc = eval_stage(p, ctx, fn, &stage);
  if (rc == TEAL_OK && !power) {
    rc = teal_context_report_error(ctx, TEAL_EINVAL, "%s: power is NULL", fn);
  }
  teal_plant_scratch *s = rc ? NULL : teal_plant_get_scratch(p, teal_plant_own_context(p, ctx));
  teal_constraint_work *w = s ? s->cwork : NULL;
  if (rc == TEAL_OK) {
    *power = 0.0;
  }
  if (!w) {
    return rc;
  }
  rc = teal_plant_calc_constraint_velocity_errors(p, ctx, w->r2);
  for (int i = 0; rc == TEAL_OK && i < w->m; i++) {
    *power -= stage[i] * w->r2[i];
  }
  return rc;
}

int teal_plant_constraint_multipliers_output_port(const teal_plant *p) {
  return !p ? TEAL_EINVAL : !p->system ? TEAL_ESTATE : p->sys.out_multipliers;
}

int teal_plant_output_constraint_multipliers(const teal_system *sys, const teal_context *ctx,
                                             double *out, void *user) {
  const teal_plant *p = user;
  const double *stage;
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_lambda, (const void **)&stage);
  if (rc == TEAL_OK) {
    memcpy(out, stage, (size_t)p->nc_rows * sizeof(double));
  }
  return rc;
}
