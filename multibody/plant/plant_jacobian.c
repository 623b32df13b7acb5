/* The plant's analytic Jacobian (teal_leaf_set_jacobian), used by
 * teal_linearize and the LQR built from a system: A, B, C, D of the
 * continuous plant's xdot = [N(q) v; vdot(q, v, u)], or of the discrete
 * plant's step, in its state x = [q; v], and of the state output, from the
 * analytic derivatives of the dynamics (aba_derivatives.h).
 *
 * The derivatives of vdot come in the tangent form (one column per v
 * index); the columns for the coordinates q follow by the chain rule with
 * N+(q) (rnea_derivatives.h). The rows of qdot = N(q) v are N(q) in v and
 * d(N(q) v)/dq in q: N is linear in a quaternion, so a quaternion's
 * columns are (N(e_c) - N(0)) v, and every other N is square, so its
 * dN/dq_c is Ndot(q, N+ e_c) (the rate of N along qdot = e_c). Force
 * elements are the one part taken by central differences (of the elements
 * alone, see fe_derivatives).
 *
 * What it does not differentiate it refuses with TEAL_EUNSUPPORTED, and
 * teal_linearize then differentiates the plant by central differences:
 * contact (a connected geometry query), a value on applied_spatial_force, a
 * position limit acting in the discrete step, the per-instance actuation
 * ports and the outputs other than "state". */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/ports.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/aba_derivatives.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/operators.h"
#include "multibody/forces/force_elements.h"
#include "multibody/plant/held_dofs_internal.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/tree/topology.h"

/* Nonzero when a rigid constraint (one with rows) is enabled in ctx, or a
 * compliant one disabled (the elements' differences below count every
 * element). */
static int constraints_enabled(const teal_plant *p, const teal_context *ctx) {
  const double *flags = teal_context_numeric_parameter(ctx, p->sys.param_constraints);
  for (int i = 0; flags && i < p->constraints.n; i++) {
    if ((CONSTRAINT(p)[i].rows > 0) == (flags[i] != 0.0)) {
      return 1;
    }
  }
  return 0;
}

/* TEAL_OK if the analytic form covers (input_port, output_port) in ctx,
 * else TEAL_EUNSUPPORTED reported on ctx with the reason. */
static int check_supported(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                           int input_port, int output_port) {
  const plant_sys *s = &p->sys;
  const char *why = NULL;
  if (teal_input_has_value(sys, ctx, s->in_F) > 0) {
    why = "applied_spatial_force has a value";
  } else if (teal_input_has_value(sys, ctx, s->in_query) > 0) {
    why = "the geometry query is connected (contact)";
  } else if (constraints_enabled(p, ctx)) {
    why = "rigid constraints are enabled or compliant ones disabled";
  } else if (teal_plant_num_held(p, ctx) > 0) { /* their vdot is held, not the free one */
    why = "joints are locked or prescribed";
  } else if (input_port >= 0 && input_port != s->in_u && input_port != s->in_tau) {
    why = "the input is neither 'actuation' nor 'applied_generalized_force'";
  } else if (output_port >= 0 && output_port != s->out_state) {
    why = "the output is not 'state'";
  }
  if (!why) {
    return TEAL_OK;
  }
  return teal_context_report_error(ctx, TEAL_EUNSUPPORTED,
                                   "plant '%s': no analytic Jacobian (%s); linearize by central "
                                   "differences",
                                   teal_system_name(sys), why);
}

/* The force elements' working memory: poses, velocities and two force
 * lists by body, then q and v moved, the two sides' element torques, a
 * product and the results by q (tangent) and by v (nv x nv each). */
typedef struct fe_work {
  teal_transform *X;
  teal_spatial_vector *V, *Fp, *Fm;
  double *q, *v, *tp, *tm, *jt, *Gq, *Gv;
} fe_work;

/* Lays the memory out from base (NULL: only its size); returns the bytes. */
static size_t fe_layout(const teal_plant *p, void *base, fe_work *w) {
  size_t nb = (size_t)p->bodies.n, nv = (size_t)p->nv;
  char *c = base;
  w->X = (teal_transform *)c;
  w->V = (teal_spatial_vector *)(c + nb * sizeof(teal_transform));
  w->Fp = w->V + nb;
  w->Fm = w->Fp + nb;
  w->q = (double *)(w->Fm + nb);
  w->v = w->q + p->nq;
  w->tp = w->v + nv;
  w->tm = w->tp + nv;
  w->jt = w->tm + nv;
  w->Gq = w->jt + nv;
  w->Gv = w->Gq + nv * nv;
  return (size_t)((char *)(w->Gv + nv * nv) - c);
}

/* The scratch's Jacobian memory, made on the first call: dvdot/dq, dvdot/dv,
 * M^-1 and a product (nv x nv each), vdot (nv), then 7 (nq + nv) for the
 * discrete step's rows; and the force elements' when the plant has any. */
static int jacobian_memory(const teal_context *ctx, const teal_plant *p, teal_plant_scratch *s) {
  if (s->jac) {
    return TEAL_OK;
  }
  size_t nv = (size_t)p->nv;
  teal_error err = {0};
  fe_work w;
  s->deriv = teal_mb_derivatives_new(p, &err);
  s->jac = s->deriv ? teal_calloc(4 * nv * nv + nv + 7 * ((size_t)p->nq + nv) + 1, sizeof(double))
                    : NULL;
  s->fe = s->jac && p->forces.n ? teal_calloc(1, fe_layout(p, NULL, &w)) : NULL;
  if (!s->jac || (p->forces.n && !s->fe)) {
    teal_mb_derivatives_free(s->deriv);
    teal_free(s->jac);
    s->deriv = NULL;
    s->jac = NULL;
    return teal_context_report_error(ctx, TEAL_ENOMEM, "plant: out of memory for the Jacobian");
  }
  return TEAL_OK;
}

/* ---- force elements ------------------------------------------------------------------
 * The elements' forces depend on q and v in ways only they know (user
 * elements among them), so their part of the derivatives is the one taken
 * by central differences: G = d(tau_fe + J' F_fe)/dx with J held at q (the
 * analytic part already turns the arms of the fixed forces), a step of
 * FE_STEP along each tangent direction q (+) h e_j and each v_j. */
#define FE_STEP 1e-6

/* tau and F of the elements at (q, v) into (tau, F), both cleared first. */
static int element_forces(const teal_plant *p, const fe_work *w, const double *q, const double *v,
                          double *tau, teal_spatial_vector *F, teal_error *err) {
  memset(tau, 0, sizeof(double) * (size_t)p->nv);
  memset(F, 0, sizeof(teal_spatial_vector) * (size_t)p->bodies.n);
  int rc = teal_mb_body_velocities(p, q, v, w->X, w->V);
  return rc ? rc : teal_plant_calc_force_elements(p, q, v, w->X, w->V, F, tau, err);
}

/* w->q = q (+) h e_j: q + h N(q) e_j, quaternions normalized. */
static int tangent_step(const teal_plant *p, teal_plant_scratch *s, fe_work *w, const double *q,
                        int j, double h) {
  memset(w->jt, 0, sizeof(double) * (size_t)p->nv);
  w->jt[j] = 1.0;
  int rc = teal_mb_multiply_by_n(p, s->data, q, 0, w->jt, w->q);
  for (int i = 0; rc == TEAL_OK && i < p->nq; i++) {
    w->q[i] = q[i] + h * w->q[i];
  }
  return rc ? rc : teal_plant_normalize_q(p, w->q);
}

/* Column j of G: the central difference of the elements' torques plus
 * J(q)' times that of their forces, from the two sides held in w. */
static int fe_column(const teal_plant *p, teal_plant_scratch *s, fe_work *w, const double *q, int j,
                     double *G) {
  int nv = p->nv;
  for (int b = 0; b < p->bodies.n; b++) {
    w->Fp[b] =
        teal_spatial_vector_scale(teal_spatial_vector_sub(w->Fp[b], w->Fm[b]), 0.5 / FE_STEP);
  }
  int rc = teal_mb_jacobian_apply_transpose(p, s->data, q, w->Fp, w->jt);
  for (int i = 0; rc == TEAL_OK && i < nv; i++) {
    G[(size_t)i * nv + j] = (w->tp[i] - w->tm[i]) * (0.5 / FE_STEP) + w->jt[i];
  }
  return rc;
}

/* G by q (tangent) and by v into w->Gq and w->Gv. */
static int fe_derivatives(const teal_context *ctx, const teal_plant *p, teal_plant_scratch *s,
                          const double *q, const double *v, fe_work *w) {
  int nv = p->nv, rc = TEAL_OK;
  teal_error err = {0};
  for (int by_v = 0; by_v < 2 && rc == TEAL_OK; by_v++) {
    for (int j = 0; j < nv && rc == TEAL_OK; j++) {
      for (int side = 0; side < 2 && rc == TEAL_OK; side++) {
        double h = side ? -FE_STEP : FE_STEP;
        memcpy(w->v, v, sizeof(double) * (size_t)nv);
        if (by_v) {
          w->v[j] += h;
          memcpy(w->q, q, sizeof(double) * (size_t)p->nq);
        } else {
          rc = tangent_step(p, s, w, q, j, h);
        }
        if (rc == TEAL_OK) {
          rc = element_forces(p, w, w->q, w->v, side ? w->tm : w->tp, side ? w->Fm : w->Fp, &err);
        }
      }
      if (rc == TEAL_OK) {
        rc = fe_column(p, s, w, q, j, by_v ? w->Gv : w->Gq);
      }
    }
  }
  if (rc) {
    return teal_context_report_error(ctx, rc, "plant Jacobian: force elements: %s",
                                     err.code ? err.message : teal_mb_data_error(s->data)->message);
  }
  return TEAL_OK;
}

/* N(q) of node k into A(qs + a, nq + vs + b) (A has nx columns). */
static void n_block(const teal_plant *p, int k, const double *q, double *A) {
  const teal_plant_tree *t = &p->tree;
  int nqk = t->nq[k], nvk = t->nv[k], qs = t->q_start[k], vs = t->v_start[k], nx = p->nq + p->nv;
  double N[TEAL_JOINT_MAX_NQ * TEAL_JOINT_MAX_NV];
  t->type[k]->N(&t->params[k], q + qs, N);
  for (int a = 0; a < nqk; a++) {
    memcpy(A + (size_t)(qs + a) * nx + p->nq + vs, N + a * nvk, sizeof(double) * (size_t)nvk);
  }
}

/* dN/dq_c of node k into N: N(e_c) - N(0) for a quaternion (N is linear in
 * it), Ndot(q, N+ e_c) for a square N (the rate of N along qdot = e_c). */
static void n_derivative(const teal_plant_tree *t, int k, const double *qk, const double *Np, int c,
                         double *N) {
  const teal_joint_type *ty = t->type[k];
  int nqk = t->nq[k], nvk = t->nv[k];
  double e[TEAL_JOINT_MAX_NQ] = {0}, N0[TEAL_JOINT_MAX_NQ * TEAL_JOINT_MAX_NV],
         u[TEAL_JOINT_MAX_NV];
  if (ty->normalize) {
    ty->N(&t->params[k], e, N0);
    e[c] = 1.0;
    ty->N(&t->params[k], e, N);
    for (int i = 0; i < nqk * nvk; i++) {
      N[i] -= N0[i];
    }
    return;
  }
  for (int b = 0; b < nvk; b++) {
    u[b] = Np[b * nqk + c];
  }
  ty->Ndot(&t->params[k], qk, u, N);
}

/* d(N(q) w)/dq of node k into A(qs + a, qs + c) (A has nx columns); zero
 * (left untouched) where N is constant. */
static void n_dq_block(const teal_plant *p, int k, const double *q, const double *w, double *A) {
  const teal_plant_tree *t = &p->tree;
  const teal_joint_type *ty = t->type[k];
  int nqk = t->nq[k], nvk = t->nv[k], qs = t->q_start[k], nx = p->nq + p->nv;
  if (!ty->normalize && !ty->Ndot) {
    return;
  }
  double Np[TEAL_JOINT_MAX_NQ * TEAL_JOINT_MAX_NV], dN[TEAL_JOINT_MAX_NQ * TEAL_JOINT_MAX_NV];
  const double *wk = w + t->v_start[k];
  ty->Nplus(&t->params[k], q + qs, Np);
  for (int c = 0; c < nqk; c++) {
    n_derivative(t, k, q + qs, Np, c, dN);
    for (int a = 0; a < nqk; a++) {
      double s = 0.0;
      for (int b = 0; b < nvk; b++) {
        s += dN[a * nvk + b] * wk[b];
      }
      A[(size_t)(qs + a) * nx + qs + c] = s;
    }
  }
}

/* The rows of vdot: A(nq + i, q cols of node k) = dvdot/d(tangent) N+(q)
 * block by block, A(nq + i, nq + j) = dvdot/dv minus the damping's
 * M^-1 D (none when damping is NULL). dq, dv and Minv are nv x nv. */
static void vdot_rows(const teal_plant *p, const double *q, const double *damping, const double *dq,
                      const double *dv, const double *Minv, double *A) {
  const teal_plant_tree *t = &p->tree;
  int nq = p->nq, nv = p->nv, nx = nq + nv;
  double Np[TEAL_JOINT_MAX_NQ * TEAL_JOINT_MAX_NV];
  for (int k = 1; k < t->num_nodes; k++) {
    int nqk = t->nq[k], nvk = t->nv[k], qs = t->q_start[k], vs = t->v_start[k];
    if (!nvk) {
      continue;
    }
    t->type[k]->Nplus(&t->params[k], q + qs, Np);
    for (int i = 0; i < nv; i++) {
      double *row = A + (size_t)(nq + i) * nx;
      for (int c = 0; c < nqk; c++) {
        double s = 0.0;
        for (int b = 0; b < nvk; b++) {
          s += dq[(size_t)i * nv + vs + b] * Np[b * nqk + c];
        }
        row[qs + c] = s;
      }
    }
  }
  for (int i = 0; i < nv; i++) {
    for (int j = 0; j < nv; j++) {
      size_t ij = (size_t)i * nv + j;
      A[(size_t)(nq + i) * nx + nq + j] = damping ? dv[ij] - Minv[ij] * damping[j] : dv[ij];
    }
  }
}

/* Adds weight times column dof of M^-1 into column c of B's velocity rows. */
static void add_input_column(const double *Minv, int nq, int nv, int nu, int c, int dof,
                             double weight, double *B) {
  for (int i = 0; i < nv; i++) {
    B[(size_t)(nq + i) * nu + c] += weight * Minv[(size_t)i * nv + dof];
  }
}

/* B = [0; scale M^-1 dtau/du] (M^-1 may be (M + h D)^-1): dtau/du is the identity for
 * applied_generalized_force, and for actuation each actuator's column of B (its dof, or its
 * tendon's coefficients) times its input gain while u is inside the effort limits (0 where the
 * clamp holds it). */
static int input_columns(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                         int input_port, const double *Minv, double scale, double *B) {
  int nq = p->nq, nv = p->nv, nu = input_port == p->sys.in_u ? p->nu : nv;
  memset(B, 0, sizeof(double) * (size_t)(nq + nv) * (size_t)nu);
  const double *u = NULL;
  if (input_port == p->sys.in_u && p->nu) {
    int rc = teal_eval_vector_input(sys, ctx, input_port, &u);
    if (rc) {
      return rc;
    }
  }
  for (int c = 0; c < nu; c++) {
    if (!u) {
      add_input_column(Minv, nq, nv, nu, c, c, scale, B);
      continue;
    }
    double lim = teal_plant_actuator_effort_limit(p, c);
    if (!(u[c] > -lim && u[c] < lim)) {
      continue;
    }
    for (int k = 0; k < teal_plant_actuator_num_dofs(p, c); k++) {
      double w;
      int dof = teal_plant_actuator_dof(p, c, k, &w);
      add_input_column(Minv, nq, nv, nu, c, dof, scale * ACT(p)[c].input_gain * w, B);
    }
  }
  return TEAL_OK;
}

/* C = I and D = 0 for the state output. */
static void state_output(const teal_plant *p, int nu, double *C, double *D) {
  int nx = p->nq + p->nv;
  memset(C, 0, sizeof(double) * (size_t)nx * (size_t)nx);
  for (int i = 0; i < nx; i++) {
    C[(size_t)i * nx + i] = 1.0;
  }
  if (D) {
    memset(D, 0, sizeof(double) * (size_t)nx * (size_t)nu);
  }
}

/* TEAL_ESINGULAR, reported, where a roll-pitch-yaw joint's N does not exist. */
static int check_rates(const teal_context *ctx, const teal_plant *p, const double *q) {
  const teal_plant_tree *t = &p->tree;
  for (int k = 1; k < t->num_nodes; k++) {
    if (t->type[k]->check_N && t->type[k]->check_N(q + t->q_start[k]) != TEAL_OK) {
      return teal_context_report_error(
          ctx, TEAL_ESINGULAR,
          "plant Jacobian: joint \"%s\" is at its gimbal lock, where "
          "qdot = N(q) v has no derivative",
          teal_plant_joint_name(p, teal_plant_body_joint(p, teal_plant_node_body(p, k))));
    }
  }
  return TEAL_OK;
}

/* The applied-forces cache value (tau [nv] then F_Bo_W [nb]) and ctx's q
 * and v. */
static int applied_forces(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                          const double **tau, const teal_spatial_vector **F, const double **q,
                          const double **v) {
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_forces, (const void **)tau);
  if (rc == TEAL_OK) {
    *F = (const teal_spatial_vector *)(*tau + p->nv);
    teal_plant_qv(p, ctx, q, v);
  }
  return rc;
}

/* The derivatives of vdot at ctx's state into s->jac: dvdot/dq (tangent
 * form), dvdot/dv, M^-1 (nv x nv each), then vdot. */
static int vdot_derivatives(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                            teal_plant_scratch *s) {
  const double *forces, *q, *v;
  const teal_spatial_vector *F;
  int rc = applied_forces(sys, ctx, p, &forces, &F, &q, &v);
  if (rc) {
    return rc;
  }
  size_t nv = (size_t)p->nv;
  rc = teal_mb_forward_dynamics_derivatives(p, s->data, s->deriv, q, v, forces, F,
                                            s->jac + 3 * nv * nv, s->jac, s->jac + nv * nv,
                                            s->jac + 2 * nv * nv);
  if (rc) {
    return teal_context_report_error(ctx, rc, "plant Jacobian: %s",
                                     teal_mb_data_error(s->data)->message);
  }
  return TEAL_OK;
}

/* The force elements' G (see fe_derivatives) at ctx's (q, v), combined
 * into the derivatives by q (tangent) and v: X += sign W G, with W NULL
 * meaning the identity. */
static int add_force_elements(const teal_context *ctx, const teal_plant *p, teal_plant_scratch *s,
                              const double *W, double sign, double *dq, double *dv) {
  if (!p->forces.n) {
    return TEAL_OK;
  }
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  fe_work w;
  fe_layout(p, s->fe, &w);
  int rc = fe_derivatives(ctx, p, s, q, v, &w), n = p->nv;
  for (int m = 0; rc == TEAL_OK && m < 2; m++) {
    const double *G = m ? w.Gv : w.Gq;
    double *X = m ? dv : dq;
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < n; k++) {
        double a = sign * (W ? W[(size_t)i * n + k] : (i == k ? 1.0 : 0.0));
        for (int j = 0; a != 0.0 && j < n; j++) {
          X[(size_t)i * n + j] += a * G[(size_t)k * n + j];
        }
      }
    }
  }
  return rc;
}

/* A, B, C, D of the continuous plant at ctx. */
static int continuous_jacobian(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                               teal_plant_scratch *s, int input_port, int output_port,
                               teal_jacobian *jac) {
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  size_t nv = (size_t)p->nv, nx = (size_t)(p->nq + p->nv);
  const double *Minv = s->jac + 2 * nv * nv;
  int rc = vdot_derivatives(sys, ctx, p, s);
  if (rc || (rc = add_force_elements(ctx, p, s, Minv, 1.0, s->jac, s->jac + nv * nv))) {
    return rc;
  }
  memset(jac->A, 0, sizeof(double) * nx * nx);
  vdot_rows(p, q, teal_plant_damping(p, ctx), s->jac, s->jac + nv * nv, Minv, jac->A);
  for (int k = 1; k < p->tree.num_nodes; k++) {
    n_block(p, k, q, jac->A);
    n_dq_block(p, k, q, v, jac->A);
  }
  if (input_port >= 0 && jac->B &&
      (rc = input_columns(sys, ctx, p, input_port, Minv, 1.0, jac->B))) {
    return rc;
  }
  if (output_port >= 0) {
    state_output(p, jac->nu, jac->C, input_port >= 0 && jac->nu ? jac->D : NULL);
  }
  return TEAL_OK;
}

/* ---- the discrete step ------------------------------------------------------------------
 * Without contact and active limits the step is v+ = v + h y, where
 * (M + h D) y = r(q, v) holds the applied, bias and gravity forces (the
 * damping's -D v among them), and q+ = normalize(q + h N(q) v+). With ID
 * the inverse dynamics at vdot = y, forces held fixed, (M + h D) y - r =
 * ID + h D y = 0 for every (q, v), so with W = (M + h D)^-1:
 *   dv+/dq = -h W dID/dq (tangent),  dv+/dv = I - h W (dID/dv + D),
 *   dv+/du = h W dtau/du,
 * and dq+/dx = J (dx/dx [x = q] + h d(N(q) w)/dq [w = v+] + h N dv+/dx),
 * J = (1 - n n') / |z| on a quaternion z (n = z / |z|), 1 elsewhere. */

/* h D onto the factorizations of s->data (none when undamped). */
static void add_step_damping(const teal_plant *p, teal_plant_scratch *s, const double *D) {
  int damped = 0;
  for (int i = 0; i < p->nv; i++) {
    s->step.hdamp[i] = p->time_step * D[i];
    damped |= D[i] > 0.0;
  }
  teal_mb_data_set_added_diagonal(s->data, damped ? s->step.hdamp : NULL);
}

/* y, dID/dq at y, dID/dv and W = (M + h D)^-1 into s->jac (vdot, dq, dv, W). */
static int step_parts(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                      teal_plant_scratch *s) {
  const double *forces, *q, *v;
  const teal_spatial_vector *F;
  int rc = applied_forces(sys, ctx, p, &forces, &F, &q, &v);
  if (rc) {
    return rc;
  }
  size_t nv = (size_t)p->nv;
  double *dq = s->jac, *dv = dq + nv * nv, *W = dv + nv * nv, *y = W + 2 * nv * nv;
  add_step_damping(p, s, teal_plant_damping(p, ctx));
  rc = teal_mb_forward_dynamics_ex(p, s->data, q, v, forces, F, y);
  if (rc == TEAL_OK) {
    rc = teal_mb_inverse_dynamics_derivatives(p, s->data, s->deriv, q, v, y, forces, F, NULL, dq,
                                              dv, NULL);
  }
  if (rc == TEAL_OK) {
    rc = teal_mb_mass_matrix_inverse(p, s->data, q, W);
  }
  teal_mb_data_set_added_diagonal(s->data, NULL); /* as the step leaves it */
  if (rc) {
    return teal_context_report_error(ctx, rc, "plant Jacobian: %s",
                                     teal_mb_data_error(s->data)->message);
  }
  return TEAL_OK;
}

/* TEAL_EUNSUPPORTED, reported, when a position limit acts on v+. */
static int limits_inactive(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                           const double *q, const double *vplus) {
  const teal_plant_tree *t = &p->tree;
  double h = p->time_step;
  for (int l = 0; l < p->sys.nlimits; l++) {
    int k = p->sys.limit_dofs[l], qi = t->q_start[k];
    double vi = vplus[t->v_start[k]];
    if (vi < (t->q_lower[qi] - q[qi]) / h || vi > (t->q_upper[qi] - q[qi]) / h) {
      return teal_context_report_error(ctx, TEAL_EUNSUPPORTED,
                                       "plant '%s': no analytic Jacobian (a position limit acts "
                                       "in the step); linearize by central differences",
                                       teal_system_name(sys));
    }
  }
  return TEAL_OK;
}

/* X = W X (n x n) through T. */
static void w_times(const double *W, double *X, double *T, int n) {
  size_t nn = (size_t)n * (size_t)n;
  memset(T, 0, sizeof(double) * nn);
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < n; k++) {
      double w = W[(size_t)i * n + k];
      for (int j = 0; w != 0.0 && j < n; j++) {
        T[(size_t)i * n + j] += w * X[(size_t)k * n + j];
      }
    }
  }
  memcpy(X, T, sizeof(double) * nn);
}

/* dq := -h W dq and dv := I - h W (dv + D): dv+ by q (tangent) and by v. */
static void step_velocity_derivatives(const teal_plant *p, const double *D, double *dq, double *dv,
                                      const double *W, double *T) {
  int nv = p->nv;
  double h = p->time_step;
  for (int i = 0; i < nv; i++) {
    dv[(size_t)i * nv + i] += D[i];
  }
  w_times(W, dq, T, nv);
  w_times(W, dv, T, nv);
  for (size_t i = 0; i < (size_t)nv * nv; i++) {
    dq[i] *= -h;
    dv[i] *= -h;
  }
  for (int i = 0; i < nv; i++) {
    dv[(size_t)i * nv + i] += 1.0;
  }
}

/* The rows of q+ of node k in X (ncols columns) from its rows of v+:
 * J (h N X_v + [is_A] (1 + h X_q)), X_q holding d(N v+)/dq already. tmp
 * holds nq_k ncols. */
static void step_q_rows(const teal_plant *p, int k, const double *q, const double *vplus, double *X,
                        int ncols, int is_A, double *tmp) {
  const teal_plant_tree *t = &p->tree;
  int nqk = t->nq[k], nvk = t->nv[k], qs = t->q_start[k], vs = t->v_start[k];
  double h = p->time_step, N[TEAL_JOINT_MAX_NQ * TEAL_JOINT_MAX_NV], z[4], nz = 0.0;
  t->type[k]->N(&t->params[k], q + qs, N);
  for (int a = 0; a < nqk; a++) {
    for (int x = 0; x < ncols; x++) {
      double acc = 0.0, *r = tmp + (size_t)a * ncols + x;
      for (int b = 0; b < nvk; b++) {
        acc += N[a * nvk + b] * X[(size_t)(p->nq + vs + b) * ncols + x];
      }
      *r = h * acc;
      if (is_A) {
        *r += h * X[(size_t)(qs + a) * ncols + x] + (x == qs + a ? 1.0 : 0.0);
      }
    }
  }
  for (int a = 0; t->type[k]->normalize && a < 4; a++) {
    z[a] = q[qs + a];
    for (int b = 0; b < nvk; b++) {
      z[a] += h * N[a * nvk + b] * vplus[vs + b];
    }
    nz += z[a] * z[a];
  }
  for (int x = 0; t->type[k]->normalize && x < ncols; x++) {
    double s = sqrt(nz), d = 0.0;
    for (int a = 0; a < 4; a++) {
      d += z[a] / s * tmp[(size_t)a * ncols + x];
    }
    for (int a = 0; a < 4; a++) {
      tmp[(size_t)a * ncols + x] = (tmp[(size_t)a * ncols + x] - z[a] / s * d) / s;
    }
  }
  memcpy(X + (size_t)qs * ncols, tmp, sizeof(double) * (size_t)nqk * ncols);
}

/* A, B, C, D of the discrete plant's step at ctx. */
static int discrete_jacobian(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                             teal_plant_scratch *s, int input_port, int output_port,
                             teal_jacobian *jac) {
  int rc = step_parts(sys, ctx, p, s);
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  size_t nv = (size_t)p->nv, nx = (size_t)(p->nq + p->nv);
  double *dq = s->jac, *dv = dq + nv * nv, *W = dv + nv * nv, *T = W + nv * nv, *y = T + nv * nv;
  for (size_t i = 0; rc == TEAL_OK && i < nv; i++) {
    y[i] = v[i] + p->time_step * y[i]; /* v+ */
  }
  if (rc || (rc = limits_inactive(sys, ctx, p, q, y)) ||
      (rc = add_force_elements(ctx, p, s, NULL, -1.0, dq, dv))) {
    return rc;
  }
  step_velocity_derivatives(p, teal_plant_damping(p, ctx), dq, dv, W, T);
  memset(jac->A, 0, sizeof(double) * nx * nx);
  vdot_rows(p, q, NULL, dq, dv, NULL, jac->A);
  for (int k = 1; k < p->tree.num_nodes; k++) {
    if (p->tree.nq[k]) {
      n_dq_block(p, k, q, y, jac->A);
      step_q_rows(p, k, q, y, jac->A, (int)nx, 1, y + nv);
    }
  }
  if (input_port >= 0 && jac->B) {
    if ((rc = input_columns(sys, ctx, p, input_port, W, p->time_step, jac->B))) {
      return rc;
    }
    for (int k = 1; k < p->tree.num_nodes; k++) {
      if (p->tree.nq[k]) {
        step_q_rows(p, k, q, y, jac->B, jac->nu, 0, y + nv);
      }
    }
  }
  if (output_port >= 0) {
    state_output(p, jac->nu, jac->C, input_port >= 0 && jac->nu ? jac->D : NULL);
  }
  return TEAL_OK;
}

int teal_plant_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                        int output_port, teal_jacobian *jac, void *user) {
  const teal_plant *p = user;
  int rc = check_supported(sys, ctx, p, input_port, output_port);
  teal_plant_scratch *s = rc ? NULL : teal_plant_staged_scratch(sys, ctx, p, &rc);
  if (!s || (rc = jacobian_memory(ctx, p, s))) {
    return rc;
  }
  const double *q, *v;
  teal_plant_qv(p, ctx, &q, &v);
  if ((rc = check_rates(ctx, p, q))) {
    return rc;
  }
  return p->sys.discrete ? discrete_jacobian(sys, ctx, p, s, input_port, output_port, jac)
                         : continuous_jacobian(sys, ctx, p, s, input_port, output_port, jac);
}
