/* The plant's sensitivities to its inertial parameters in a context (see
 * plant_parameter_derivatives.h): the regressor algorithms run on the
 * context's multibody data, which holds the context's body inertias, with
 * the plant's generalized forces from its forces stage. */
#include "multibody/plant/plant_parameter_derivatives.h"

#include "framework/ports.h"
#include "multibody/algorithms/regressor.h"
#include "multibody/plant/held_dofs_internal.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/plant/plant_parameters.h"

/* The plant's context in ctx, or NULL with the reason reported on ctx and
 * its code in *rc. */
static const teal_context *own_context(const teal_plant *p, const teal_context *ctx, const char *fn,
                                       int *rc) {
  const teal_context *own = ctx ? teal_plant_own_context(p, ctx) : NULL;
  *rc = own ? TEAL_OK : teal_plant_bad_call(p, ctx, fn);
  return own;
}

int teal_plant_get_body_inertial_parameters_in_context(const teal_plant *p, const teal_context *ctx,
                                                       int body, double *pi) {
  static const char fn[] = "plant get_body_inertial_parameters_in_context";
  int rc;
  teal_spatial_inertia M;
  const teal_context *own = own_context(p, ctx, fn, &rc);
  if (own && !pi) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s: pi is NULL", fn);
  }
  if (own && body == 0) {
    return teal_context_report_error(
        ctx, TEAL_EINVAL, "%s: body 0 is the world, which has no inertial parameters", fn);
  }
  if (rc || (rc = teal_plant_get_body_spatial_inertia_in_context(p, ctx, body, &M))) {
    return rc;
  }
  return teal_mb_inertial_parameters(&M, pi);
}

/* Why the derivative does not apply in own (NULL when it does). */
static const char *unsupported(const teal_plant *p, const teal_context *own) {
  if (p->sys.discrete) {
    return "the plant is discrete";
  }
  if (teal_plant_num_held(p, own) > 0) {
    return "joints are locked or prescribed";
  }
  const double *flags = teal_context_numeric_parameter(own, p->sys.param_constraints);
  for (int i = 0; flags && i < p->constraints.n; i++) {
    if (CONSTRAINT(p)[i].rows > 0 && flags[i] != 0.0) {
      return "rigid constraints are enabled";
    }
  }
  return NULL;
}

int teal_plant_calc_forward_dynamics_parameter_derivatives(const teal_plant *p,
                                                           const teal_context *ctx, int body,
                                                           double *vdot, double *dvdot_dpi) {
  static const char fn[] = "plant calc_forward_dynamics_parameter_derivatives";
  int rc;
  const teal_context *own = own_context(p, ctx, fn, &rc);
  /* a negative body would be the algorithm's TEAL_MB_ALL_BODIES, whose 10 nb
   * columns overrun the nv x 10 this call writes */
  if (own && body < 0) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s: body = %d is not a body index (1..%d)",
                                     fn, body, p->bodies.n - 1);
  }
  const char *why = own ? unsupported(p, own) : NULL;
  if (why) {
    return teal_context_report_error(ctx, TEAL_EUNSUPPORTED,
                                     "%s: %s, so vdot is not M^-1 times forces independent of "
                                     "the inertial parameters",
                                     fn, why);
  }
  const double *q, *v, *tau;
  teal_plant_scratch *s = rc ? NULL : teal_plant_staged_qv(p->system, own, p, &q, &v, &rc);
  if (!s || (rc = teal_eval_cache_entry(p->system, own, p->sys.ce_forces, (const void **)&tau))) {
    return rc;
  }
  const teal_spatial_vector *F = (const teal_spatial_vector *)(tau + p->nv);
  rc = teal_mb_forward_dynamics_parameter_derivatives(p, s->data, q, v, tau, F, body, vdot,
                                                      dvdot_dpi);
  if (rc) {
    return teal_context_report_error(ctx, rc, "%s: %s", fn, teal_mb_data_error(s->data)->message);
  }
  return TEAL_OK;
}
