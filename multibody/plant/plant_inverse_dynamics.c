/* The plant's inverse dynamics and gravity forces in a context (see
 * plant_inverse_dynamics.h). Both run the RNEA on the context's multibody
 * data; inverse dynamics runs it with the data's gravity set to zero, since
 * Drake's CalcInverseDynamics sees gravity only among the applied forces. */
#include "multibody/plant/plant_inverse_dynamics.h"

#include "multibody/algorithms/rnea.h"
#include "multibody/plant/plant_calc_internal.h"

/* The plant's context in ctx, or NULL with the reason reported on ctx. */
static const teal_context *own_context(const teal_plant *p, const teal_context *ctx,
                                       const char *fn) {
  if (!ctx) {
    return NULL;
  }
  const teal_context *own = p ? teal_plant_own_context(p, ctx) : NULL;
  if (own) {
    return own;
  }
  if (!p) {
    teal_context_report_error(ctx, TEAL_EINVAL, "%s: NULL plant", fn);
  } else if (!p->system) {
    teal_context_report_error(
        ctx, TEAL_ESTATE, "%s: the plant is not finalized (call teal_plant_finalize first)", fn);
  } else {
    teal_context_report_error(ctx, TEAL_EINVAL,
                              "%s: the context holds no context of the plant's system", fn);
  }
  return NULL;
}

/* The error of a failed call before any computation: own context missing
 * (already reported) or a NULL array named what. */
static int bad_args(const teal_plant *p, const teal_context *ctx, const teal_context *own,
                    const char *fn, const char *what) {
  if (!own) {
    return !ctx || !p ? TEAL_EINVAL : p->system ? TEAL_EINVAL : TEAL_ESTATE;
  }
  return teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s is NULL", fn, what);
}

/* The context's multibody data staged at its q, or NULL (*rc reported). */
static teal_plant_scratch *staged(const teal_plant *p, const teal_context *own, int *rc) {
  return teal_plant_staged_scratch(p->system, own, p, rc);
}

/* Reports a failed algorithm call with the data's message. */
static int report(const teal_context *ctx, const teal_plant_scratch *s, const char *fn, int rc) {
  return teal_context_report_error(ctx, rc, "%s: %s", fn, teal_mb_data_error(s->data)->message);
}

int teal_plant_calc_inverse_dynamics(const teal_plant *p, const teal_context *ctx,
                                     const double *vdot, const double *tau_applied,
                                     const teal_spatial_vector *F_applied_Bo_W, double *tau_out) {
  static const char fn[] = "plant calc_inverse_dynamics";
  const teal_context *own = own_context(p, ctx, fn);
  if (!own || !vdot || !tau_out) {
    return bad_args(p, ctx, own, fn, !vdot ? "vdot" : "tau_out");
  }
  int rc;
  teal_plant_scratch *s = staged(p, own, &rc);
  if (!s) {
    return rc;
  }
  const double *q, *v;
  teal_plant_qv(p, own, &q, &v);
  teal_mb_data_set_gravity(s->data, teal_vec3_make(0.0, 0.0, 0.0));
  rc = teal_mb_inverse_dynamics_ex(p, s->data, q, v, vdot, tau_applied, F_applied_Bo_W, tau_out);
  teal_plant_get_scratch(p, own); /* points the data at the context's gravity again */
  return rc ? report(ctx, s, fn, rc) : TEAL_OK;
}

int teal_plant_calc_gravity_generalized_forces(const teal_plant *p, const teal_context *ctx,
                                               double *tau_g) {
  static const char fn[] = "plant calc_gravity_generalized_forces";
  const teal_context *own = own_context(p, ctx, fn);
  if (!own || !tau_g) {
    return bad_args(p, ctx, own, fn, "tau_g");
  }
  int rc;
  teal_plant_scratch *s = staged(p, own, &rc);
  if (!s) {
    return rc;
  }
  const double *q, *v;
  teal_plant_qv(p, own, &q, &v);
  rc = teal_mb_gravity_forces(p, s->data, q, tau_g);
  return rc ? report(ctx, s, fn, rc) : TEAL_OK;
}
