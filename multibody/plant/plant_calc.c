/* The plant system's cache entries, outputs and hooks (see plant_system.h). */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/energy.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/forces/force_elements.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/plant/plant_system.h"
#include "multibody/plant/plant_values.h"
#include "multibody/tree/topology.h"

/* ---- scratch ------------------------------------------------------------------ */

static void scratch_free(void *value) {
  teal_plant_scratch *s = value;
  teal_mb_data_free(s->data);
  teal_free(s->X);
  teal_free(s->vstar);
  teal_free(s->active);
  teal_plant_contact_scratch_free(s);
  memset(s, 0, sizeof(*s));
}

/* Buffers of the discrete contact solve: only for discrete plants with
 * collision geometry, sized by the kinematic trees (not by nv^2). */
static int scratch_alloc_contact(teal_plant_scratch *s, const teal_plant *p) {
  int proximity = 0;
  for (int g = 0; g < p->geometries.n; g++) {
    proximity += GEOM(p)[g].g.role == TEAL_ROLE_PROXIMITY;
  }
  if (!p->sys.discrete || proximity == 0) {
    return TEAL_OK;
  }
  return teal_plant_contact_scratch_alloc(s, p, 4 * proximity + 8);
}

/* Allocates the multibody data and buffers of a scratch for plant p. */
static int scratch_alloc(teal_plant_scratch *s, const teal_plant *p) {
  size_t nb = (size_t)p->bodies.n, nv = (size_t)p->nv, nl = (size_t)p->sys.nlimits;
  s->plant = p;
  s->data = teal_mb_data_new(p, NULL);
  s->X = teal_calloc(nb, sizeof(teal_transform) + 2 * sizeof(teal_spatial_vector));
  s->vstar = teal_calloc(2 * nv + nl * nv + 3 * nl + 1, sizeof(double));
  s->active = teal_calloc(nl + 1, sizeof(int));
  if (!s->data || !s->X || !s->vstar || !s->active || scratch_alloc_contact(s, p) != TEAL_OK) {
    scratch_free(s);
    return TEAL_ENOMEM;
  }
  s->V = (teal_spatial_vector *)(s->X + nb);
  s->A = s->V + nb;
  s->dv = s->vstar + nv;
  s->Wcols = s->dv + nv;
  s->lambda = s->Wcols + nl * nv;
  s->target = s->lambda + nl;
  s->sign = s->target + nl;
  return TEAL_OK;
}

/* A context's scratch is made from the model {plant, NULL}; copies between
 * existing contexts keep the destination's data (nothing to copy). */
static int scratch_copy(void *dst, const void *src) {
  teal_plant_scratch *d = dst;
  const teal_plant_scratch *s = src;
  if (d->data || !s->plant) {
    return TEAL_OK;
  }
  return scratch_alloc(d, s->plant);
}

const teal_value_type teal_plant_scratch_type = {"teal_plant_scratch", sizeof(teal_plant_scratch),
                                                 NULL, scratch_copy, scratch_free};

const teal_context *teal_plant_own_context(const teal_plant *p, const teal_context *ctx) {
  if (!p || !p->system || !ctx) {
    return NULL;
  }
  return teal_context_system(ctx) == p->system ? ctx : teal_context_subcontext(ctx, p->system);
}

teal_plant_scratch *teal_plant_get_scratch(const teal_plant *p, const teal_context *ctx) {
  teal_plant_scratch *s = teal_context_scratch_mut(ctx, p->sys.scratch);
  if (!s || !s->data) {
    return NULL;
  }
  const double *g = teal_context_numeric_parameter(ctx, p->sys.param_gravity);
  teal_mb_data_use_gravity(s->data, g);
  return s;
}

size_t teal_plant_forces_bytes(const teal_plant *p) {
  return (size_t)p->nv * sizeof(double) + (size_t)p->bodies.n * sizeof(teal_spatial_vector);
}

void teal_plant_qv(const teal_plant *p, const teal_context *ctx, const double **q,
                   const double **v) {
  if (p->sys.discrete) {
    const double *x = teal_context_discrete_group(ctx, 0);
    *q = x;
    *v = x + p->nq;
  } else {
    *q = teal_context_q(ctx);
    *v = teal_context_v(ctx);
  }
}

static int no_scratch(const teal_context *ctx) {
  return teal_context_report_error(ctx, TEAL_ENOMEM, "plant: no multibody data in context");
}

/* ---- kinematics ------------------------------------------------------------------ */

int teal_plant_calc_poses(const teal_system *sys, const teal_context *ctx, void *out, void *user) {
  (void)sys;
  const teal_plant *p = user;
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  return teal_plant_calc_body_poses(p, q, out);
}

int teal_plant_calc_velocities(const teal_system *sys, const teal_context *ctx, void *out,
                               void *user) {
  (void)sys;
  const teal_plant *p = user;
  teal_plant_scratch *s = teal_plant_get_scratch(p, ctx);
  if (!s) {
    return no_scratch(ctx);
  }
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  return teal_plant_calc_body_velocities(p, q, v, s->X, out);
}

int teal_plant_calc_mass_matrix(const teal_system *sys, const teal_context *ctx, double *out,
                                void *user) {
  (void)sys;
  const teal_plant *p = user;
  teal_plant_scratch *s = teal_plant_get_scratch(p, ctx);
  if (!s) {
    return no_scratch(ctx);
  }
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  int rc = teal_mb_mass_matrix(p, s->data, q, out);
  return rc ? teal_context_report_error(ctx, rc, "%s", teal_mb_data_error(s->data)->message)
            : TEAL_OK;
}

/* ---- applied forces ----------------------------------------------------------------- */

/* Adds B u into tau from the whole-plant or the per-instance actuation
 * ports (unconnected: zero); discrete plants clamp u to effort limits. */
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
      double lim = ACT(p)[a].effort_limit, ua = u[r];
      tau[JOINT(p)[ACT(p)[a].joint].v_start] += s->discrete ? fmax(-lim, fmin(lim, ua)) : ua;
    }
  }
  if (!whole || p->nu == 0) {
    return TEAL_OK;
  }
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, s->in_u, &u);
  for (int a = 0; rc == TEAL_OK && a < p->nu; a++) {
    double lim = ACT(p)[a].effort_limit;
    tau[JOINT(p)[ACT(p)[a].joint].v_start] += s->discrete ? fmax(-lim, fmin(lim, u[a])) : u[a];
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
  for (int i = 0; i < p->nv; i++) {
    tau[i] -= p->tree.damping[i] * v[i];
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
  if (rc == TEAL_OK && r->n) {
    rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_poses, (const void **)&X);
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
    rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_poses, (const void **)X);
  }
  if (rc == TEAL_OK && p->forces.n) {
    rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_vels, (const void **)V);
  }
  return rc;
}

int teal_plant_calc_actuation(const teal_system *sys, const teal_context *ctx, double *out,
                              void *user) {
  const teal_plant *p = user;
  memset(out, 0, (size_t)p->nv * sizeof(double));
  return add_actuation(sys, ctx, p, out);
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
    rc = teal_plant_calc_force_elements(p, q, v, X, V, F, tau, &err);
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

static int continuous_vdot(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                           double *vdot) {
  teal_plant_scratch *s = teal_plant_get_scratch(p, ctx);
  if (!s) {
    return no_scratch(ctx);
  }
  const double *tau;
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_forces, (const void **)&tau);
  if (rc) {
    return rc;
  }
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  const teal_spatial_vector *F = (const teal_spatial_vector *)(tau + p->nv);
  rc = teal_mb_forward_dynamics_ex(p, s->data, q, v, tau, F, vdot);
  return rc ? teal_context_report_error(ctx, rc, "plant: %s", teal_mb_data_error(s->data)->message)
            : TEAL_OK;
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
    return no_scratch(ctx);
  }
  const double *vdot, *q, *v;
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_vdot, (const void **)&vdot);
  if (rc) {
    return rc;
  }
  teal_plant_qv(p, ctx, &q, &v);
  return teal_plant_calc_body_accelerations(p, q, v, vdot, s->X, s->V, out);
}

/* ---- outputs ------------------------------------------------------------------------- */

int teal_plant_output_state(const teal_system *sys, const teal_context *ctx, double *out,
                            void *user) {
  (void)sys;
  const teal_plant *p = user;
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  memcpy(out, q, (size_t)p->nq * sizeof(double));
  memcpy(out + p->nq, v, (size_t)p->nv * sizeof(double));
  return TEAL_OK;
}

int teal_plant_output_instance_state(const teal_system *sys, const teal_context *ctx, double *out,
                                     void *user) {
  const teal_plant *p = teal_plant_from_system(sys);
  const int *port = user;
  int i = (int)(port - p->sys.out_state_inst);
  const plant_sys *s = &p->sys;
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  int nq = s->inst_q_count[i];
  for (int r = 0; r < nq; r++) {
    out[r] = q[s->q_list[s->inst_q_start[i] + r]];
  }
  for (int r = 0; r < s->inst_v_count[i]; r++) {
    out[nq + r] = v[s->v_list[s->inst_v_start[i] + r]];
  }
  return TEAL_OK;
}

/* Copies n entries of elem bytes from a cache entry into a list value. */
static int entry_to_list(const teal_system *sys, const teal_context *ctx, int entry, int n,
                         size_t elem, void *list, int (*resize)(void *, int)) {
  const void *src;
  int rc = teal_eval_cache_entry(sys, ctx, entry, &src);
  if (rc == TEAL_OK && (rc = resize(list, n)) != TEAL_OK) {
    rc = teal_context_report_error(ctx, rc, "plant: out of memory for an output list");
  }
  if (rc == TEAL_OK) {
    /* every list value starts with {int n, cap; T *data} */
    void *data = *(void **)((char *)list + 2 * sizeof(int));
    memcpy(data, src, (size_t)n * elem);
  }
  return rc;
}

static int resize_transforms(void *l, int n) {
  return teal_transform_list_resize(l, n);
}
static int resize_vectors(void *l, int n) {
  return teal_spatial_vector_list_resize(l, n);
}

int teal_plant_output_poses(const teal_system *sys, const teal_context *ctx, void *out,
                            void *user) {
  const teal_plant *p = user;
  return entry_to_list(sys, ctx, p->sys.ce_poses, p->bodies.n, sizeof(teal_transform), out,
                       resize_transforms);
}

int teal_plant_output_velocities(const teal_system *sys, const teal_context *ctx, void *out,
                                 void *user) {
  const teal_plant *p = user;
  return entry_to_list(sys, ctx, p->sys.ce_vels, p->bodies.n, sizeof(teal_spatial_vector), out,
                       resize_vectors);
}

int teal_plant_output_accelerations(const teal_system *sys, const teal_context *ctx, void *out,
                                    void *user) {
  const teal_plant *p = user;
  return entry_to_list(sys, ctx, p->sys.ce_accs, p->bodies.n, sizeof(teal_spatial_vector), out,
                       resize_vectors);
}

int teal_plant_output_reactions(const teal_system *sys, const teal_context *ctx, void *out,
                                void *user) {
  const teal_plant *p = user;
  teal_plant_scratch *s = teal_plant_get_scratch(p, ctx);
  if (!s) {
    return no_scratch(ctx);
  }
  const double *vdot, *tau, *q, *v;
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_vdot, (const void **)&vdot);
  if (rc == TEAL_OK) {
    rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_forces, (const void **)&tau);
  }
  teal_spatial_vector_list *list = out;
  if (rc == TEAL_OK && teal_spatial_vector_list_resize(list, p->joints.n) != TEAL_OK) {
    rc = teal_context_report_error(ctx, TEAL_ENOMEM, "plant: out of memory for reaction forces");
  }
  if (rc) {
    return rc;
  }
  teal_plant_qv(p, ctx, &q, &v);
  const teal_spatial_vector *F = (const teal_spatial_vector *)(tau + p->nv);
  rc = teal_mb_reaction_forces(p, s->data, q, v, vdot, F, list->V);
  return rc ? teal_context_report_error(ctx, rc, "plant: %s", teal_mb_data_error(s->data)->message)
            : TEAL_OK;
}

/* ---- hooks ------------------------------------------------------------------------- */

void teal_plant_map_v_to_qdot(const teal_plant *p, const double *q, const double *v,
                              double *qdot) {
  const teal_plant_tree *t = &p->tree;
  for (int k = 1; k < t->num_nodes; k++) {
    if (t->nq[k]) {
      teal_joint_qdot(t->type[k], &t->params[k], q + t->q_start[k], v + t->v_start[k],
                      qdot + t->q_start[k]);
    }
  }
}

int teal_plant_derivatives(const teal_system *sys, const teal_context *ctx,
                           teal_continuous_view *xdot, void *user) {
  const teal_plant *p = user;
  const double *vdot, *q, *v;
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_vdot, (const void **)&vdot);
  if (rc) {
    return rc;
  }
  teal_plant_qv(p, ctx, &q, &v);
  teal_plant_map_v_to_qdot(p, q, v, xdot->q);
  memcpy(xdot->v, vdot, (size_t)p->nv * sizeof(double));
  return TEAL_OK;
}

int teal_plant_project(const teal_system *sys, const teal_context *ctx, teal_continuous_view *x,
                       void *user) {
  (void)sys;
  int rc = teal_plant_normalize_q(user, x->q);
  return rc ? teal_context_report_error(ctx, rc, "plant: a quaternion in q is zero or not "
                                        "finite and cannot be normalized")
            : TEAL_OK;
}

int teal_plant_v_to_qdot(const teal_system *sys, const teal_context *ctx, const double *v,
                         double *qdot, void *user) {
  (void)sys;
  const double *q, *vv;
  teal_plant_qv(user, ctx, &q, &vv);
  teal_plant_map_v_to_qdot(user, q, v, qdot);
  return TEAL_OK;
}

int teal_plant_qdot_to_v(const teal_system *sys, const teal_context *ctx, const double *qdot,
                         double *v, void *user) {
  (void)sys;
  const teal_plant *p = user;
  const teal_plant_tree *t = &p->tree;
  const double *q, *vv;
  teal_plant_qv(p, ctx, &q, &vv);
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
  teal_plant_scratch *s = teal_plant_get_scratch(p, ctx);
  if (!s) {
    return no_scratch(ctx);
  }
  const double *q, *v;
  const teal_transform *X;
  teal_plant_qv(p, ctx, &q, &v);
  double e_gravity = 0.0, e_springs = 0.0;
  int rc = teal_mb_potential_energy(p, s->data, q, &e_gravity);
  if (rc == TEAL_OK) {
    rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_poses, (const void **)&X);
  }
  if (rc == TEAL_OK) {
    rc = teal_plant_force_elements_potential_energy(p, q, X, &e_springs);
  }
  *pe = e_gravity + e_springs;
  return rc;
}

int teal_plant_kinetic_energy_cb(const teal_system *sys, const teal_context *ctx, double *ke,
                                 void *user) {
  (void)sys;
  const teal_plant *p = user;
  teal_plant_scratch *s = teal_plant_get_scratch(p, ctx);
  if (!s) {
    return no_scratch(ctx);
  }
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  return teal_mb_kinetic_energy(p, s->data, q, v, ke);
}
