/* The plant's stages, in the order of the stage table in plant_system.c:
 * kinematics, mass matrix, actuation, applied forces, accelerations (contact
 * results are in contact/plant_contact.c, the discrete step in
 * plant_discrete.c). */
#include <math.h>
#include <string.h>

#include "math/quaternion.h"
#include "geometry/scene_graph/pose_list.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/stages.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/plant/free_dynamics_internal.h"
#include "multibody/plant/held_dofs_internal.h"
#include "multibody/forces/force_elements.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/plant/plant_values.h"
#include "multibody/tree/topology.h"

/* ---- quaternions ------------------------------------------------------------------ */

int teal_plant_check_quaternions(const teal_plant *p, const teal_context *ctx, const double *x,
                                 int offset, int count, const char *fn) {
  const teal_plant_tree *t = &p->tree;
  for (int k = 1; k < t->num_nodes; k++) {
    int at = t->q_start[k] - offset;
    if (!t->type[k]->normalize || at < 0 || at + 4 > count) {
      continue;
    }
    const double *qk = x + at;
    if (!teal_quaternion_is_normalizable(qk)) {
      double n2 = qk[0] * qk[0] + qk[1] * qk[1] + qk[2] * qk[2] + qk[3] * qk[3];
      int j = teal_plant_body_joint(p, teal_plant_node_body(p, k));
      return teal_context_report_error(
          ctx, TEAL_EINVAL,
          "%s: the quaternion q[%d..%d] of joint \"%s\" is zero or cannot be normalized "
          "(|q|^2 = %g); a rotation needs a nonzero quaternion",
          fn, t->q_start[k], t->q_start[k] + 3, teal_plant_joint_name(p, j), n2);
    }
  }
  return TEAL_OK;
}

/* ---- kinematics ------------------------------------------------------------------ */

int teal_plant_calc_position_stage(const teal_system *sys, const teal_context *ctx, double *out,
                                   void *user) {
  (void)sys;
  const teal_plant *p = user;
  teal_plant_scratch *s = teal_plant_get_scratch(p, ctx);
  if (!s) {
    return teal_plant_no_scratch(ctx);
  }
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  teal_mb_data_drop_position(s->data); /* q changed: the data's stage is stale */
  out[0] = 0.0;
  int rc = teal_plant_check_quaternions(p, ctx, q, 0, p->nq, "plant");
  if (rc) {
    return rc;
  }
  rc = teal_mb_position_stage(p, s->data, q);
  out[0] = rc == TEAL_OK;
  return rc ? teal_context_report_error(ctx, rc, "plant: %s", teal_mb_data_error(s->data)->message)
            : TEAL_OK;
}

/* Sizes a stage's list to one entry per body: it allocates the first time
 * only (the initialization event sizes the kinematics lists). */
static int size_list(const teal_context *ctx, int rc) {
  return rc ? teal_context_report_error(ctx, rc, "plant: out of memory for a body list") : TEAL_OK;
}

int teal_plant_calc_poses(const teal_system *sys, const teal_context *ctx, void *out, void *user) {
  (void)sys;
  const teal_plant *p = user;
  teal_transform_list *X = out;
  int rc = size_list(ctx, teal_transform_list_resize(X, p->bodies.n));
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  if (rc == TEAL_OK) {
    rc = teal_plant_check_quaternions(p, ctx, q, 0, p->nq, "plant body poses");
  }
  return rc ? rc : teal_mb_body_poses(p, q, X->X);
}

int teal_plant_calc_velocities(const teal_system *sys, const teal_context *ctx, void *out,
                               void *user) {
  (void)sys;
  const teal_plant *p = user;
  teal_plant_scratch *s = teal_plant_get_scratch(p, ctx);
  if (!s) {
    return teal_plant_no_scratch(ctx);
  }
  teal_spatial_vector_list *V = out;
  int rc = size_list(ctx, teal_spatial_vector_list_resize(V, p->bodies.n));
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  if (rc == TEAL_OK) {
    rc = teal_plant_check_quaternions(p, ctx, q, 0, p->nq, "plant body velocities");
  }
  return rc ? rc : teal_mb_body_velocities(p, q, v, s->data->X_WB, V->V);
}

int teal_plant_calc_mass_matrix(const teal_system *sys, const teal_context *ctx, double *out,
                                void *user) {
  const teal_plant *p = user;
  int rc;
  const double *q, *v;
  teal_plant_scratch *s = teal_plant_staged_qv(sys, ctx, p, &q, &v, &rc);
  if (!s) {
    return rc;
  }
  rc = teal_mb_mass_matrix(p, s->data, q, out);
  return rc ? teal_context_report_error(ctx, rc, "%s", teal_mb_data_error(s->data)->message)
            : TEAL_OK;
}

/* ---- applied forces ----------------------------------------------------------------- */

/* The joint effort gain * u of actuator a, u clamped to its effort limits in
 * both modes: Drake's seed calls effort_limit "the maximum effort" of the
 * actuator, so no mode may exceed it. The limit is on u, the actuator's own
 * effort (as Drake's GetEffortUpperLimits and MuJoCo's ctrlrange), so a
 * saturation built from the limits bounds the input port. */
static double clamp_effort(const teal_plant *p, int a, double u) {
  double lim = teal_plant_actuator_effort_limit(p, a);
  return ACT(p)[a].input_gain * fmax(-lim, fmin(lim, u));
}

/* Adds actuator a's column of B times its clamped input u into tau. */
static void add_actuator(const teal_plant *p, int a, double u, double *tau) {
  double f = clamp_effort(p, a, u);
  for (int k = 0; k < teal_plant_actuator_num_dofs(p, a); k++) {
    double w;
    int v = teal_plant_actuator_dof(p, a, k, &w);
    tau[v] += w * f;
  }
}

/* Adds B u into tau from the whole-plant or the per-instance actuation
 * ports (unconnected: zero), each gain * u with u clamped to its effort limit
 * (a tendon actuator's force J_L^T gain u spread over its tendon's joints). */
static int add_actuation(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                         double *tau) {
  const plant_sys *s = &p->sys;
  int whole = teal_input_has_value(sys, ctx, s->in_u);
  if (whole < 0) {
    return whole;
  }
  for (int i = 0; i < p->instances.n; i++) {
    int has = teal_input_has_value(sys, ctx, s->in_u_inst[i]);
    if (has < 0 || (has == 0 || s->inst_act_count[i] == 0)) {
      if (has < 0) {
        return has;
      }
      continue;
    }
    if (whole) {
      return teal_context_report_error(ctx, TEAL_EINVAL,
                                       "plant: both 'actuation' and '%s_actuation' have values; "
                                       "use one or the other",
                                       INST(p)[i].name);
    }
    const double *u;
    int rc = teal_eval_vector_input(sys, ctx, s->in_u_inst[i], &u);
    if (rc) {
      return rc;
    }
    for (int r = 0; r < s->inst_act_count[i]; r++) {
      int a = s->act_list[s->inst_act_start[i] + r];
      add_actuator(p, a, u[r], tau);
    }
  }
  if (!whole || p->nu == 0) {
    return TEAL_OK;
  }
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, s->in_u, &u);
  for (int a = 0; rc == TEAL_OK && a < p->nu; a++) {
    add_actuator(p, a, u[a], tau);
  }
  return rc;
}

/* Adds the applied_spatial_force list, each force moved to its body origin. */
static int add_spatial_forces(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                              const teal_transform *X_WB, teal_spatial_vector *F) {
  int has = teal_input_has_value(sys, ctx, p->sys.in_F);
  if (has <= 0) {
    return has;
  }
  const teal_applied_spatial_force_list *list;
  int rc = teal_eval_abstract_input(sys, ctx, p->sys.in_F, (const void **)&list);
  for (int i = 0; rc == TEAL_OK && i < list->n; i++) {
    const teal_applied_spatial_force *f = &list->f[i];
    if (f->body <= 0 || f->body >= p->bodies.n) {
      return teal_context_report_error(ctx, TEAL_EINVAL,
                                       "plant: applied_spatial_force[%d] names body %d (valid: 1 "
                                       "to %d)",
                                       i, f->body, p->bodies.n - 1);
    }
    teal_vec3 p_BoBq_W = teal_rotation_apply(X_WB[f->body].R, f->p_BoBq_B);
    F[f->body] = teal_spatial_vector_add(
        F[f->body], teal_spatial_force_shift(f->F_Bq_W, teal_vec3_neg(p_BoBq_W)));
  }
  return rc;
}

/* Adds applied_generalized_force (if it has a value) and joint damping. */
static int add_generalized(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                           const double *v, double *tau) {
  int has = teal_input_has_value(sys, ctx, p->sys.in_tau);
  if (has < 0) {
    return has;
  }
  if (has) {
    const double *t;
    int rc = teal_eval_vector_input(sys, ctx, p->sys.in_tau, &t);
    if (rc) {
      return rc;
    }
    for (int i = 0; i < p->nv; i++) {
      tau[i] += t[i];
    }
  }
  const double *damping = teal_plant_damping(p, ctx);
  for (int i = 0; i < p->nv; i++) {
    tau[i] -= damping[i] * v[i];
  }
  return TEAL_OK;
}

/* Continuous contact forces from the contact results (none when the
 * geometry query is unconnected). */
static int add_contact_forces(const teal_system *sys, const teal_context *ctx,
                              const teal_plant *p, teal_spatial_vector *F) {
  int has = teal_input_has_value(sys, ctx, p->sys.in_query);
  if (has <= 0) {
    return has;
  }
  const teal_contact_results *r;
  const teal_transform *X;
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_contacts, (const void **)&r);
  if (rc == TEAL_OK && (r->n || r->num_hydroelastic)) {
    rc = teal_plant_eval_poses(sys, ctx, p, &X);
    if (rc == TEAL_OK) {
      teal_contact_add_forces(r, X, F);
    }
  }
  return rc;
}

/* Poses and velocities are needed only by spatial forces and force
 * elements; a plain chain skips both cache entries. */
static int eval_kinematics(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                           const teal_transform **X, const teal_spatial_vector **V) {
  int has_F = teal_input_has_value(sys, ctx, p->sys.in_F);
  if (has_F < 0) {
    return has_F;
  }
  int rc = TEAL_OK;
  if (has_F || p->forces.n) {
    rc = teal_plant_eval_poses(sys, ctx, p, X);
  }
  if (rc == TEAL_OK && p->forces.n) {
    rc = teal_plant_eval_velocities(sys, ctx, p, V);
  }
  return rc;
}

int teal_plant_calc_actuation(const teal_system *sys, const teal_context *ctx, double *out,
                              void *user) {
  const teal_plant *p = user;
  memset(out, 0, (size_t)p->nv * sizeof(double));
  return add_actuation(sys, ctx, p, out);
}

/* A discrete plant's filter: every compliant distance's spring-damper is
 * left out, since the step applies it implicitly as a row
 * (discrete_constraints.c). */
static int skip_any_compliance(const teal_plant *p, int i, const void *flags) {
  (void)flags;
  for (int c = 0; c < p->constraints.n; c++) {
    if (CONSTRAINT(p)[c].force_element == i) {
      return 1;
    }
  }
  return 0;
}

int teal_plant_calc_applied_forces(const teal_system *sys, const teal_context *ctx, void *out,
                                   void *user) {
  const teal_plant *p = user;
  double *tau = out;
  teal_spatial_vector *F = (teal_spatial_vector *)(tau + p->nv);
  memset(out, 0, teal_plant_forces_bytes(p));
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  const teal_transform *X = NULL;
  const teal_spatial_vector *V = NULL;
  int rc = eval_kinematics(sys, ctx, p, &X, &V);
  const double *tau_u;
  if (rc == TEAL_OK && (rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_u, (const void **)&tau_u)) ==
                           TEAL_OK) {
    memcpy(tau, tau_u, (size_t)p->nv * sizeof(double));
  }
  if (rc == TEAL_OK) {
    rc = add_generalized(sys, ctx, p, v, tau);
  }
  if (rc == TEAL_OK && X) {
    rc = add_spatial_forces(sys, ctx, p, X, F);
  }
  if (rc == TEAL_OK && p->forces.n) {
    teal_error err = {0};
    rc = teal_plant_calc_force_elements_filtered(
        p, q, v, X, V, F, tau,
        p->sys.discrete ? skip_any_compliance : teal_plant_skip_disabled_compliance,
        teal_context_numeric_parameter(ctx, p->sys.param_constraints), &err);
    if (rc) {
      return teal_context_report_error(ctx, rc, "plant: %s", err.message);
    }
  }
  if (rc == TEAL_OK && !p->sys.discrete) {
    rc = add_contact_forces(sys, ctx, p, F);
  }
  return rc;
}

/* ---- accelerations ------------------------------------------------------------------- */

int teal_plant_calc_free_vdot(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                              double *vdot) {
  int rc;
  teal_plant_scratch *s = teal_plant_staged_scratch(sys, ctx, p, &rc);
  if (!s) {
    return rc;
  }
  const double *tau;
  rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_forces, (const void **)&tau);
  if (rc) {
    return rc;
  }
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  const teal_spatial_vector *F = (const teal_spatial_vector *)(tau + p->nv);
  rc = teal_plant_free_dynamics(p, s->data, q, v, tau, F, vdot);
  if (rc) {
    return teal_context_report_error(ctx, rc, "plant: %s", teal_mb_data_error(s->data)->message);
  }
  return teal_plant_check_finite(ctx, vdot, p->nv, "generalized acceleration");
}

int teal_plant_calc_held_vdot(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                              double *vdot, double *lambda) {
  int rc = teal_plant_calc_free_vdot(sys, ctx, p, vdot);
  teal_plant_scratch *s = rc ? NULL : teal_plant_get_scratch(p, ctx);
  rc = rc ? rc : teal_plant_hold_dofs(p, ctx, s, vdot, NULL);
  if (rc == TEAL_OK && lambda) {
    teal_plant_held_constraint_multipliers(p, ctx, s, lambda);
  }
  return rc ? rc : teal_plant_check_finite(ctx, vdot, p->nv, "generalized acceleration");
}

int teal_plant_skip_disabled_compliance(const teal_plant *p, int i, const void *flags) {
  const double *enabled = flags;
  for (int c = 0; enabled && c < p->constraints.n; c++) {
    if (CONSTRAINT(p)[c].force_element == i) {
      return enabled[c] == 0.0;
    }
  }
  return 0;
}

int teal_plant_uses_held_solve(const teal_plant *p, const teal_context *ctx) {
  return !p->sys.discrete &&
         (teal_plant_num_held(p, ctx) > 0 ||
          (p->nc_rows > 0 && (p->baumgarte_alpha > 0.0 || p->baumgarte_beta > 0.0)));
}

/* The accelerations of a continuous plant: a plant with constraint rows
 * takes them from its constrained-accelerations stage (which runs the held
 * dofs' solve when that applies, so its multipliers match), one without
 * from the held dofs' solve or the free dynamics. */
static int continuous_vdot(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                           double *vdot) {
  if (p->nc_rows == 0) {
    return teal_plant_num_held(p, ctx) > 0 ? teal_plant_calc_held_vdot(sys, ctx, p, vdot, NULL)
                                           : teal_plant_calc_free_vdot(sys, ctx, p, vdot);
  }
  const double *stage;
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_lambda, (const void **)&stage);
  if (rc == TEAL_OK) {
    memcpy(vdot, stage + p->nc_rows, (size_t)p->nv * sizeof(double));
  }
  return rc;
}

int teal_plant_check_finite(const teal_context *ctx, const double *x, int n, const char *what) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return teal_context_report_error(
          ctx, TEAL_ENONFINITE,
          "plant: %s %d is not finite (%g) at t = %g: the mass matrix is numerically singular "
          "or a force overflows",
          what, i, x[i], teal_context_time(ctx));
    }
  }
  return TEAL_OK;
}

int teal_plant_calc_vdot(const teal_system *sys, const teal_context *ctx, double *out,
                         void *user) {
  const teal_plant *p = user;
  if (!p->sys.discrete) {
    return continuous_vdot(sys, ctx, p, out);
  }
  const double *next, *q, *v;
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_step, (const void **)&next);
  if (rc) {
    return rc;
  }
  teal_plant_qv(p, ctx, &q, &v);
  for (int i = 0; i < p->nv; i++) {
    out[i] = (next[p->nq + i] - v[i]) / p->time_step;
  }
  return TEAL_OK;
}

int teal_plant_calc_accelerations(const teal_system *sys, const teal_context *ctx, void *out,
                                  void *user) {
  const teal_plant *p = user;
  teal_plant_scratch *s = teal_plant_get_scratch(p, ctx);
  if (!s) {
    return teal_plant_no_scratch(ctx);
  }
  teal_spatial_vector_list *A = out;
  const double *vdot, *q, *v;
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_vdot, (const void **)&vdot);
  if (rc || (rc = size_list(ctx, teal_spatial_vector_list_resize(A, p->bodies.n)))) {
    return rc;
  }
  teal_plant_qv(p, ctx, &q, &v);
  return teal_mb_body_accelerations(p, q, v, vdot, s->data->X_WB, s->data->V_WB, A->V);
}

int teal_plant_eval_poses(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                          const teal_transform **X_WB) {
  const teal_transform_list *l;
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_poses, (const void **)&l);
  if (rc == TEAL_OK) {
    *X_WB = l->X;
  }
  return rc;
}

int teal_plant_eval_velocities(const teal_system *sys, const teal_context *ctx,
                               const teal_plant *p, const teal_spatial_vector **V_WB) {
  const teal_spatial_vector_list *l;
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_vels, (const void **)&l);
  if (rc == TEAL_OK) {
    *V_WB = l->V;
  }
  return rc;
}
