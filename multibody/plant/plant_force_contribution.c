/* The combined contribution of gravity, joint damping and the force
 * elements at a context (see plant_force_contribution.h). */
#include "multibody/plant/plant_force_contribution.h"

#include <string.h>

#include "multibody/forces/force_elements.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/tree/plant_internal.h"
#include "multibody/tree/topology.h"

static const char fn[] = "plant calc_force_elements_contribution";

/* The plant's own context after the argument checks, or NULL (*rc set). */
static const teal_context *checked_context(const teal_plant *p, const teal_context *ctx,
                                           const double *tau, int n_tau,
                                           const teal_spatial_vector *F, int n_F, int *rc) {
  const teal_context *own = ctx ? teal_plant_own_context(p, ctx) : NULL;
  if (!own) {
    *rc = teal_plant_bad_call(p, ctx, fn);
  } else if (!tau || !F) {
    *rc = teal_context_report_error(ctx, TEAL_EINVAL, "%s: NULL %s", fn, tau ? "F_Bo_W" : "tau");
  } else if (n_tau != p->nv || n_F != p->bodies.n) {
    *rc = teal_context_report_error(ctx, TEAL_ESIZE,
                                    "%s: got %d generalized forces and %d spatial forces, the "
                                    "plant has %d velocities and %d bodies",
                                    fn, n_tau, n_F, p->nv, p->bodies.n);
  } else {
    *rc = TEAL_OK;
  }
  return *rc ? NULL : own;
}

/* Drake's UniformGravityFieldElement: m g at each body's center of mass. */
static void add_gravity(const teal_plant *p, const teal_context *own, const teal_transform *X_WB,
                        teal_spatial_vector *F) {
  const double *g = teal_context_numeric_parameter(own, p->sys.param_gravity);
  teal_vec3 g_W = teal_vec3_make(g[0], g[1], g[2]);
  const teal_spatial_inertia *by_node = teal_plant_inertias(p, own); /* the context's */
  for (int b = 1; b < p->bodies.n; b++) {
    const teal_spatial_inertia *M = &by_node[teal_plant_body_node(p, b)]; /* every body has one */
    teal_vec3 f = teal_vec3_scale(g_W, M->mass);
    teal_vec3 p_BoBcm_W = teal_rotation_apply(X_WB[b].R, M->p_PScm_E);
    F[b] =
        teal_spatial_vector_add(F[b], teal_spatial_vector_make(teal_vec3_cross(p_BoBcm_W, f), f));
  }
}

/* Joint damping, the context's, as the plant's dynamics read it. */
static void add_damping(const teal_plant *p, const teal_context *own, const double *v,
                        double *tau) {
  const double *d = teal_plant_damping(p, own);
  for (int i = 0; i < p->nv; i++) {
    tau[i] -= d[i] * v[i];
  }
}

int teal_plant_calc_force_elements_contribution(const teal_plant *p, const teal_context *ctx,
                                                double *tau, int n_tau, teal_spatial_vector *F_Bo_W,
                                                int n_F) {
  int rc;
  const teal_context *own = checked_context(p, ctx, tau, n_tau, F_Bo_W, n_F, &rc);
  if (!own) {
    return rc;
  }
  memset(tau, 0, (size_t)p->nv * sizeof(double));
  memset(F_Bo_W, 0, (size_t)p->bodies.n * sizeof(teal_spatial_vector));
  const teal_transform *X;
  const teal_spatial_vector *V;
  if ((rc = teal_plant_eval_poses(p->system, own, p, &X)) ||
      (rc = teal_plant_eval_velocities(p->system, own, p, &V))) {
    return rc;
  }
  const double *q, *v;
  teal_plant_qv(p, own, &q, &v);
  add_gravity(p, own, X, F_Bo_W);
  add_damping(p, own, v, tau);
  teal_error err = {0, ""};
  rc = teal_plant_calc_force_elements_filtered(
      p, q, v, X, V, F_Bo_W, tau, teal_plant_skip_disabled_compliance,
      teal_context_numeric_parameter(own, p->sys.param_constraints), &err);
  return rc ? teal_context_report_error(ctx, rc, "%s: %s", fn, err.message) : TEAL_OK;
}
