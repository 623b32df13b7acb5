/* The discrete (time-step) plant update: semi-implicit Euler with joint
 * position limits as hard unilateral constraints (see plant_system.h).
 *
 * Joint damping D is implicit, as in Drake's discrete solvers (TAMSI, SAP):
 * the step's linear operator is M + h D in place of M. The free motion
 * solves (M + h D)(v* - v) = h (tau - D v - C v + tau_g) (the applied
 * forces hold -D v), and the contact Newton step and the limit impulses
 * below use M + h D (the data's added diagonal, data_internal.h), so a
 * stiff damper (h D >> M) decays instead of overshooting.
 *
 * With v* = v + h vdot_free, a limit on dof i is violated when
 * q_i + h v*_i leaves [lo, hi]. Each violated limit j gets an impulse
 * s_j mu_j (s = +1 at a lower limit, -1 at an upper one, mu >= 0) along its
 * dof, and v+ = v* + (M + h D)^-1 sum_j e_j s_j mu_j. The impulses solve the
 * complementarity problem 0 <= mu  _|_  s (v+ - target) >= 0 with
 * target_i = (limit - q_i) / h, by projected Gauss-Seidel on the Delassus
 * matrix W = (M + h D)^-1 restricted to the violated dofs. Limits that a
 * solution newly violates are added and the problem re-solved.
 *
 * Unilateral contacts and state-limited friction (Simbody's; see
 * constraints/unilateral_internal.h) act on v* after the contact and
 * constraint forces and before the limits.
 *
 * A locked joint's dofs get v+ = 0 by an impulse through W on those dofs
 * (held_dofs.c), applied to v* before contact and again at the end, so q
 * stays exactly where it was locked and the rest feels the lock. */
#include <math.h>
#include <string.h>

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/mass_inverse.h"
#include "multibody/constraints/unilateral_internal.h"
#include "multibody/contact/contact_internal.h"
#include "multibody/plant/discrete_constraints_internal.h"
#include "multibody/plant/free_dynamics_internal.h"
#include "multibody/plant/held_dofs_internal.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/tree/topology.h"

#define PGS_ITERATIONS 200
#define PGS_TOLERANCE 1e-13

/* Adds limits that v violates to the active set; returns how many. */
static int activate_violated(const teal_plant *p, teal_plant_scratch *s, const double *q,
                             const double *v, int *m) {
  const teal_plant_tree *t = &p->tree;
  double h = p->time_step;
  int added = 0;
  for (int l = 0; l < p->sys.nlimits; l++) {
    int k = p->sys.limit_dofs[l], qi = t->q_start[k], vi = t->v_start[k], is_active = 0;
    for (int j = 0; j < *m; j++) {
      is_active |= s->step.active[j] == l;
    }
    double lo = (t->q_lower[qi] - q[qi]) / h, hi = (t->q_upper[qi] - q[qi]) / h;
    if (is_active || (v[vi] >= lo && v[vi] <= hi)) {
      continue;
    }
    s->step.active[*m] = l;
    s->step.target[*m] = v[vi] < lo ? lo : hi;
    s->step.sign[*m] = v[vi] < lo ? 1.0 : -1.0;
    s->step.lambda[*m] = 0.0;
    (*m)++;
    added++;
  }
  return added;
}

/* Column j of (M + h D)^-1 for active limit j, by the factorization the
 * free motion left in data (per-tree blocks or articulated bodies). */
static int delassus_column(const teal_plant *p, teal_plant_scratch *s, int j) {
  int vi = p->tree.v_start[p->sys.limit_dofs[s->step.active[j]]];
  memset(s->step.dv, 0, (size_t)p->nv * sizeof(double));
  s->step.dv[vi] = 1.0;
  return teal_mb_mass_inverse(p, s->data, s->step.dv, s->step.Wcols + (size_t)j * p->nv);
}

/* Projected Gauss-Seidel on the m active limits; impulses in lambda. */
static void solve_impulses(const teal_plant *p, teal_plant_scratch *s, const double *vstar, int m) {
  int nv = p->nv;
  for (int it = 0; it < PGS_ITERATIONS; it++) {
    double change = 0.0;
    for (int j = 0; j < m; j++) {
      int vj = p->tree.v_start[p->sys.limit_dofs[s->step.active[j]]];
      double sj = s->step.sign[j], vel = vstar[vj];
      for (int k = 0; k < m; k++) {
        vel += s->step.Wcols[(size_t)k * nv + vj] * s->step.sign[k] * s->step.lambda[k];
      }
      double wjj = s->step.Wcols[(size_t)j * nv + vj];
      double next = fmax(0.0, s->step.lambda[j] - sj * (vel - s->step.target[j]) / wjj);
      change = fmax(change, fabs(next - s->step.lambda[j]) * wjj);
      s->step.lambda[j] = next;
    }
    if (change < PGS_TOLERANCE) {
      return;
    }
  }
}

/* v+ = v* + sum_j Wcols_j s_j mu_j into v. */
static void apply_impulses(const teal_plant *p, teal_plant_scratch *s, const double *vstar,
                           double *v, int m) {
  int nv = p->nv;
  memcpy(v, vstar, (size_t)nv * sizeof(double));
  for (int k = 0; k < m; k++) {
    double a = s->step.sign[k] * s->step.lambda[k];
    for (int i = 0; i < nv; i++) {
      v[i] += s->step.Wcols[(size_t)k * nv + i] * a;
    }
  }
}

/* Enforces the position limits on vstar, writing v+ into v. */
static int enforce_limits(const teal_plant *p, teal_plant_scratch *s, const double *q,
                          const double *vstar, double *v) {
  int m = 0;
  memcpy(v, vstar, (size_t)p->nv * sizeof(double));
  while (activate_violated(p, s, q, v, &m) > 0) {
    for (int j = 0; j < m; j++) {
      int rc = delassus_column(p, s, j);
      if (rc) {
        return rc;
      }
    }
    solve_impulses(p, s, vstar, m);
    apply_impulses(p, s, vstar, v, m);
  }
  return TEAL_OK;
}

/* Makes s->data factor M + h D for this step (nothing added without
 * damping, so an undamped plant factors M as before). */
static void add_implicit_damping(const teal_plant *p, teal_plant_scratch *s,
                                 const teal_context *ctx) {
  const double *D = teal_plant_damping(p, ctx); /* the context's */
  int damped = 0;
  for (int i = 0; i < p->nv; i++) {
    s->step.hdamp[i] = p->time_step * D[i];
    damped |= D[i] > 0.0;
  }
  teal_mb_data_set_added_diagonal(s->data, damped ? s->step.hdamp : NULL);
}

/* v* = v + h (M + h D)^-1 (tau - D v - C v + tau_g): the forces hold -D v */
static int free_motion(const teal_plant *p, teal_plant_scratch *s, const double *q, const double *v,
                       const double *forces) {
  const teal_spatial_vector *F = (const teal_spatial_vector *)(forces + p->nv);
  /* with contact scratch M is factored by trees; otherwise by the cheaper way for the forest */
  int rc = s->step.trees
               ? teal_mb_forward_dynamics_blocks(p, s->data, q, v, forces, F, s->step.vstar)
               : teal_plant_free_dynamics(p, s->data, q, v, forces, F, s->step.vstar);
  for (int i = 0; rc == TEAL_OK && i < p->nv; i++) {
    s->step.vstar[i] = v[i] + p->time_step * s->step.vstar[i];
  }
  return rc;
}

/* The contact and constraint forces of the step, on s->step.vstar (in
 * place; vnext is working memory): the constraint rows alone by the
 * Woodbury identity when there is no contact, otherwise contacts and rows
 * together, island by island. Reports its errors. */
static int contact_and_constraints(const teal_plant *p, teal_plant_scratch *s,
                                   const teal_context *ctx, const teal_point_pair_list *pairs,
                                   const double *v, double *vnext) {
  int contacts = pairs && pairs->n > 0, rc = TEAL_OK;
  if (!contacts && s->step.nrows == 0) {
    return TEAL_OK;
  }
  if (contacts) {
    rc = teal_plant_contact_step(p, s, ctx, pairs, v, s->step.vstar, vnext);
  } else if ((rc = teal_discrete_rows_solve(p, s, s->step.vstar, vnext)) != TEAL_OK) {
    rc = teal_context_report_error(ctx, rc,
                                   "plant: discrete step at t = %g: the constraint "
                                   "rows' solve failed (%s)",
                                   teal_context_time(ctx), teal_strerror(rc));
  }
  if (rc == TEAL_OK) {
    memcpy(s->step.vstar, vnext, (size_t)p->nv * sizeof(double));
  }
  return rc;
}

/* The held dofs' velocities set to their targets in x (v* or v+), their
 * impulses added to held (nv). */
static int hold(const teal_plant *p, const teal_context *ctx, teal_plant_scratch *s, double *x,
                double *held) {
  int k = teal_plant_num_held(p, ctx);
  if (k == 0) {
    return teal_plant_hold_dofs(p, ctx, s, x, NULL);
  }
  double *impulse = teal_plant_held_vdot_scratch(p, ctx, s, k);
  if (!impulse) {
    return TEAL_ENOMEM;
  }
  int rc = teal_plant_hold_dofs(p, ctx, s, x, impulse);
  for (int i = 0; rc == TEAL_OK && i < p->nv; i++) {
    held[i] += impulse[i];
  }
  return rc;
}

/* v+ into vnext: free motion, contact and constraints, limits; the held
 * dofs' forces (their impulses over h) into held (nv). */
static int next_velocity(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                         teal_plant_scratch *s, const double *q, const double *v, double *vnext,
                         double *held) {
  const double *forces;
  const teal_point_pair_list *pairs = NULL;
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_forces, (const void **)&forces);
  if (rc || (rc = teal_plant_eval_query(sys, ctx, p, &pairs))) {
    return rc;
  }
  add_implicit_damping(p, s, ctx);
  rc = free_motion(p, s, q, v, forces);
  if (rc == TEAL_OK) { /* locked joints: v* = 0 on their dofs before contact sees it */
    memset(held, 0, (size_t)p->nv * sizeof(double));
    rc = hold(p, ctx, s, s->step.vstar, held);
  }
  if (rc == TEAL_OK && s->step.nrows_cap > 0) {
    rc = teal_discrete_rows_fill(p, s, ctx, q);
    rc = rc ? rc : teal_discrete_rows_regularize(p, s);
  }
  if (rc == TEAL_OK && (rc = contact_and_constraints(p, s, ctx, pairs, v, vnext)) != TEAL_OK) {
    return rc; /* reported */
  }
  if (rc == TEAL_OK) { /* unilateral contacts and friction on v* (in place) */
    rc = teal_unilateral_step(p, s->data, s->uwork, q, s->step.vstar);
  }
  if (rc == TEAL_OK) {
    rc = enforce_limits(p, s, q, s->step.vstar, vnext);
  }
  if (rc == TEAL_OK) { /* and exactly 0 after the contact and limit impulses */
    rc = hold(p, ctx, s, vnext, held);
  }
  if (rc) {
    return teal_context_report_error(ctx, rc, "plant: discrete step at t = %g: %s",
                                     teal_context_time(ctx),
                                     teal_mb_data_error(s->data)->message);
  }
  /* a numerically singular M (blocks factored by trees) or an overflow */
  return teal_plant_check_finite(ctx, vnext, p->nv, "velocity after the discrete step");
}

int teal_plant_calc_discrete_step(const teal_system *sys, const teal_context *ctx, double *out,
                                  void *user) {
  const teal_plant *p = user;
  int rc;
  const double *q, *v;
  teal_plant_scratch *s = teal_plant_staged_qv(sys, ctx, p, &q, &v, &rc);
  if (!s) {
    return rc;
  }
  int nq = p->nq;
  double h = p->time_step;
  double *held = out + nq + p->nv + p->nc_rows;
  rc = next_velocity(sys, ctx, p, s, q, v, out + nq, held);
  /* the data's other users (the continuous stages) factor M itself */
  teal_mb_data_set_added_diagonal(s->data, NULL);
  if (rc) {
    return rc;
  }
  if ((rc = teal_plant_map_v_to_qdot(p, ctx, q, out + nq, out, "plant discrete step"))) {
    return rc;
  }
  for (int i = 0; i < nq; i++) {
    out[i] = q[i] + h * out[i];
  }
  /* the constraints' multipliers and the held dofs' forces follow the next
   * state (the step's values) */
  memcpy(out + nq + p->nv, s->step.lambda_r, (size_t)p->nc_rows * sizeof(double));
  for (int i = 0; i < p->nv; i++) {
    held[i] /= h;
  }
  /* the compliant rows' multipliers, their springs' tensions */
  int ncompliant = teal_discrete_compliant_rows(p);
  if (ncompliant > 0) {
    memcpy(held + p->nv, s->step.lambda_r + p->nc_rows, (size_t)ncompliant * sizeof(double));
  }
  rc = teal_plant_normalize_q(p, out);
  return rc ? teal_context_report_error(ctx, rc, "plant: a quaternion became degenerate in the "
                                        "discrete step at t = %g", teal_context_time(ctx))
            : TEAL_OK;
}

int teal_plant_eval_discrete_step(const teal_plant *p, const teal_context *own,
                                  const double **next) {
  int rc = teal_plant_sync_contact_settings(p, own);
  return rc ? rc : teal_eval_cache_entry(p->system, own, p->sys.ce_step, (const void **)next);
}

int teal_plant_discrete_update(const teal_system *sys, const teal_context *ctx, double *xd_next,
                               void *user) {
  const teal_plant *p = user;
  const double *next;
  int rc = teal_plant_sync_contact_settings(p, ctx);
  if (rc == TEAL_OK) {
    rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_step, (const void **)&next);
  }
  if (rc == TEAL_OK) {
    memcpy(xd_next, next, (size_t)(p->nq + p->nv) * sizeof(double));
  }
  return rc;
}
