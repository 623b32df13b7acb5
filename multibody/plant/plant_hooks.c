/* The plant's system hooks: time derivatives, quaternion projection, the
 * v <-> qdot maps and the energies (see plant_system.h). */
#include <math.h>
#include <string.h>

#include "multibody/algorithms/energy.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/plant/held_dofs_internal.h"
#include "multibody/plant/plant_projection_internal.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/tree/topology.h"

/* ---- hooks ------------------------------------------------------------------------- */

int teal_plant_map_v_to_qdot(const teal_plant *p, const teal_context *ctx, const double *q,
                             const double *v, double *qdot, const char *fn) {
  const teal_plant_tree *t = &p->tree;
  for (int k = 1; k < t->num_nodes; k++) {
    if (!t->nq[k]) {
      continue;
    }
    int qs = t->q_start[k];
    if (teal_joint_qdot(t->type[k], &t->params[k], q + qs, v + t->v_start[k], qdot + qs)) {
      int j = teal_plant_body_joint(p, teal_plant_node_body(p, k));
      return teal_context_report_error(
          ctx, TEAL_ESINGULAR,
          "%s: joint \"%s\" (%s) is at its gimbal lock (pitch q[%d] = %g, |cos| < %g): its "
          "N(q) from velocities to rpy rates does not exist there",
          fn, teal_plant_joint_name(p, j), t->type[k]->name, qs + 1, q[qs + 1],
          TEAL_JOINT_RPY_MIN_COS_PITCH);
    }
  }
  return TEAL_OK;
}

int teal_plant_derivatives(const teal_system *sys, const teal_context *ctx,
                           teal_continuous_view *xdot, void *user) {
  const teal_plant *p = user;
  const double *vdot, *q, *v;
  int rc = teal_plant_sync_contact_settings(p, ctx);
  if (rc || (rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_vdot, (const void **)&vdot))) {
    return rc;
  }
  teal_plant_qv(p, ctx, &q, &v);
  rc = teal_plant_map_v_to_qdot(p, ctx, q, v, xdot->q, "plant derivatives");
  if (rc == TEAL_OK) {
    memcpy(xdot->v, vdot, (size_t)p->nv * sizeof(double));
  }
  return rc;
}

/* Drake's residual for a continuous plant: qdot_p - N(q) v for the positions,
 * then the inverse dynamics of vdot_p with every applied force, which is
 * M(q) (vdot_p - vdot) since M vdot + C v = tau_app; M and vdot are cached. */
int teal_plant_implicit_residual(const teal_system *sys, const teal_context *ctx,
                                 const teal_const_continuous_view *proposed,
                                 teal_continuous_view *residual, void *user) {
  const teal_plant *p = user;
  const double *vdot, *M, *q, *v;
  int rc = teal_plant_sync_contact_settings(p, ctx);
  if (rc == TEAL_OK) {
    rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_vdot, (const void **)&vdot);
  }
  if (rc == TEAL_OK) {
    rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_M, (const void **)&M);
  }
  if (rc) {
    return rc;
  }
  teal_plant_qv(p, ctx, &q, &v);
  rc = teal_plant_map_v_to_qdot(p, ctx, q, v, residual->q, "plant implicit residual");
  if (rc) {
    return rc;
  }
  for (int i = 0; i < p->nq; i++) {
    residual->q[i] = proposed->q[i] - residual->q[i];
  }
  for (int i = 0; i < p->nv; i++) {
    const double *Mi = M + (size_t)i * (size_t)p->nv; /* M is symmetric */
    double acc = 0.0;
    for (int j = 0; j < p->nv; j++) {
      acc += Mi[j] * (proposed->v[j] - vdot[j]);
    }
    residual->v[i] = acc;
  }
  return TEAL_OK;
}

int teal_plant_project(const teal_system *sys, const teal_context *ctx, teal_continuous_view *x,
                       void *user) {
  (void)sys;
  const teal_plant *p = user;
  int rc = p->projection_off ? TEAL_OK : teal_plant_prescribe_held(p, ctx, x->q, x->v);
  if (rc) {
    return rc;
  }
  rc = teal_plant_normalize_q(user, x->q);
  return rc ? teal_context_report_error(ctx, rc,
                                        "plant: a quaternion in q is zero or not "
                                        "finite and cannot be normalized")
            : teal_plant_project_constraints(p, ctx, x);
}

int teal_plant_v_to_qdot(const teal_system *sys, const teal_context *ctx, const double *v,
                         double *qdot, void *user) {
  (void)sys;
  const teal_plant *p = user;
  const double *q, *vv;
  teal_plant_qv(p, ctx, &q, &vv);
  int rc = teal_plant_check_quaternions(p, ctx, q, 0, p->nq, "plant v_to_qdot");
  return rc ? rc : teal_plant_map_v_to_qdot(p, ctx, q, v, qdot, "plant v_to_qdot");
}

int teal_plant_qdot_to_v(const teal_system *sys, const teal_context *ctx, const double *qdot,
                         double *v, void *user) {
  (void)sys;
  const teal_plant *p = user;
  const teal_plant_tree *t = &p->tree;
  const double *q, *vv;
  teal_plant_qv(p, ctx, &q, &vv);
  /* N+ divides by |q|^2 */
  int rc = teal_plant_check_quaternions(p, ctx, q, 0, p->nq, "plant qdot_to_v");
  if (rc) {
    return rc;
  }
  for (int k = 1; k < t->num_nodes; k++) {
    int nq = t->nq[k], nv = t->nv[k];
    double Np[TEAL_JOINT_MAX_NV * TEAL_JOINT_MAX_NQ];
    if (!nv) {
      continue;
    }
    t->type[k]->Nplus(&t->params[k], q + t->q_start[k], Np);
    for (int r = 0; r < nv; r++) {
      double acc = 0.0;
      for (int c = 0; c < nq; c++) {
        acc += Np[r * nq + c] * qdot[t->q_start[k] + c];
      }
      v[t->v_start[k] + r] = acc;
    }
  }
  return TEAL_OK;
}

int teal_plant_potential_energy_cb(const teal_system *sys, const teal_context *ctx, double *pe,
                                   void *user) {
  const teal_plant *p = user;
  int rc;
  teal_plant_scratch *s = teal_plant_staged_scratch(sys, ctx, p, &rc);
  if (!s) {
    return rc;
  }
  const double *q, *v;
  const teal_transform *X;
  teal_plant_qv(p, ctx, &q, &v);
  double e_gravity = 0.0, e_springs = 0.0;
  rc = teal_mb_potential_energy(p, s->data, q, &e_gravity);
  if (rc == TEAL_OK) {
    rc = teal_plant_eval_poses(sys, ctx, p, &X);
  }
  teal_error err = {0, ""};
  if (rc == TEAL_OK && teal_plant_force_elements_potential_energy_filtered(
                           p, q, X, &e_springs, teal_plant_skip_disabled_compliance,
                           teal_context_numeric_parameter(ctx, p->sys.param_constraints), &err)) {
    return teal_context_report_error(ctx, err.code, "plant: %s", err.message);
  }
  *pe = e_gravity + e_springs;
  return rc;
}

int teal_plant_kinetic_energy_cb(const teal_system *sys, const teal_context *ctx, double *ke,
                                 void *user) {
  const teal_plant *p = user;
  int rc;
  const double *q, *v;
  teal_plant_scratch *s = teal_plant_staged_qv(sys, ctx, p, &q, &v, &rc);
  if (!s) {
    return rc;
  }
  return teal_mb_kinetic_energy(p, s->data, q, v, ke);
}
