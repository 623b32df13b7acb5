/* The plant's inverse dynamics and gravity forces in a context (see
 * plant_inverse_dynamics.h). Both run the RNEA on the context's multibody
 * data; inverse dynamics runs it with the data's gravity set to zero, since
 * Drake's CalcInverseDynamics sees gravity only among the applied forces. */
#include "multibody/plant/plant_inverse_dynamics.h"

#include "multibody/algorithms/rnea.h"
#include "multibody/plant/plant_calc_internal.h"

/* The plant's context in ctx, or NULL with the reason reported on ctx
 * and its code in *rc (teal_plant_bad_call). */
static const teal_context *own_context(const teal_plant *p, const teal_context *ctx, const char *fn,
                                       int *rc) {
  const teal_context *own = ctx ? teal_plant_own_context(p, ctx) : NULL;
  *rc = own ? TEAL_OK : teal_plant_bad_call(p, ctx, fn);
  return own;
}

/* TEAL_EINVAL, reported, for the NULL array named what. */
static int null_array(const teal_context *ctx, const char *fn, const char *what) {
  return teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s is NULL", fn, what);
}

/* Reports a failed algorithm call with the data's message. */
static int report(const teal_context *ctx, const teal_plant_scratch *s, const char *fn, int rc) {
  return teal_context_report_error(ctx, rc, "%s: %s", fn, teal_mb_data_error(s->data)->message);
}

int teal_plant_calc_inverse_dynamics(const teal_plant *p, const teal_context *ctx,
                                     const double *vdot, const double *tau_applied,
                                     const teal_spatial_vector *F_applied_Bo_W, double *tau_out) {
  static const char fn[] = "plant calc_inverse_dynamics";
  int rc;
  const double *q, *v;
  const teal_context *own = own_context(p, ctx, fn, &rc);
  if (own && (!vdot || !tau_out)) {
    rc = null_array(ctx, fn, !vdot ? "vdot" : "tau_out");
  }
  teal_plant_scratch *s = rc ? NULL : teal_plant_staged_qv(p->system, own, p, &q, &v, &rc);
  if (!s) {
    return rc;
  }
  teal_mb_data_set_gravity(s->data, teal_vec3_make(0.0, 0.0, 0.0));
  rc = teal_mb_inverse_dynamics_ex(p, s->data, q, v, vdot, tau_applied, F_applied_Bo_W, tau_out);
  teal_plant_get_scratch(p, own); /* points the data at the context's gravity again */
  return rc ? report(ctx, s, fn, rc) : TEAL_OK;
}

int teal_plant_calc_gravity_generalized_forces(const teal_plant *p, const teal_context *ctx,
                                               double *tau_g) {
  static const char fn[] = "plant calc_gravity_generalized_forces";
  int rc;
  const double *q, *v;
  const teal_context *own = own_context(p, ctx, fn, &rc);
  if (own && !tau_g) {
    rc = null_array(ctx, fn, "tau_g");
  }
  teal_plant_scratch *s = rc ? NULL : teal_plant_staged_qv(p->system, own, p, &q, &v, &rc);
  if (!s) {
    return rc;
  }
  rc = teal_mb_gravity_forces(p, s->data, q, tau_g);
  return rc ? report(ctx, s, fn, rc) : TEAL_OK;
}
