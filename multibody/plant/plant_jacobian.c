/* The plant's analytic Jacobian (teal_leaf_set_jacobian), used by
 * teal_linearize and the LQR built from a system: A, B, C, D of the
 * continuous plant's xdot = [N(q) v; vdot(q, v, u)] in its state x = [q; v]
 * and of the state output, from the analytic derivatives of forward
 * dynamics (aba_derivatives.h).
 *
 * The derivatives of vdot come in the tangent form (one column per v
 * index); the columns for the coordinates q follow by the chain rule with
 * N+(q) (rnea_derivatives.h). The rows of qdot = N(q) v are N(q) in v and
 * d(N(q) v)/dq in q: N is linear in a quaternion, so a quaternion's
 * columns are (N(e_c) - N(0)) v, and every other N is square, so its
 * dN/dq_c is Ndot(q, N+ e_c) (the rate of N along qdot = e_c).
 *
 * What it does not differentiate it refuses with TEAL_EUNSUPPORTED, and
 * teal_linearize then differentiates the plant by central differences: a
 * discrete plant, force elements, contact (a connected geometry query), a
 * value on applied_spatial_force, the per-instance actuation ports and the
 * outputs other than "state". */
#include <string.h>

#include "framework/alloc.h"
#include "framework/ports.h"
#include "multibody/algorithms/aba_derivatives.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/tree/topology.h"

/* TEAL_OK if the analytic form covers (input_port, output_port) in ctx,
 * else TEAL_EUNSUPPORTED reported on ctx with the reason. */
static int check_supported(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                           int input_port, int output_port) {
  const plant_sys *s = &p->sys;
  const char *why = NULL;
  if (s->discrete) {
    why = "the plant is discrete";
  } else if (p->forces.n) {
    why = "the plant has force elements";
  } else if (teal_input_has_value(sys, ctx, s->in_F) > 0) {
    why = "applied_spatial_force has a value";
  } else if (teal_input_has_value(sys, ctx, s->in_query) > 0) {
    why = "the geometry query is connected (contact)";
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

/* The scratch's Jacobian memory, made on the first call. */
static int jacobian_memory(const teal_context *ctx, const teal_plant *p, teal_plant_scratch *s) {
  if (s->jac) {
    return TEAL_OK;
  }
  size_t nv = (size_t)p->nv;
  teal_error err = {0};
  s->deriv = teal_mb_derivatives_new(p, &err);
  s->jac = s->deriv ? teal_calloc(3 * nv * nv + nv + 1, sizeof(double)) : NULL;
  if (!s->jac) {
    teal_mb_derivatives_free(s->deriv);
    s->deriv = NULL;
    return teal_context_report_error(ctx, TEAL_ENOMEM, "plant: out of memory for the Jacobian");
  }
  return TEAL_OK;
}

/* The rows of qdot = N(q) v: A(qs + a, qs + c) = d(N v)_a / dq_c and
 * A(qs + a, nq + vs + b) = N(a, b), for node k. */
static void qdot_rows(const teal_plant *p, int k, const double *q, const double *v, double *A) {
  const teal_plant_tree *t = &p->tree;
  const teal_joint_type *ty = t->type[k];
  int nqk = t->nq[k], nvk = t->nv[k], qs = t->q_start[k], vs = t->v_start[k], nx = p->nq + p->nv;
  double N[TEAL_JOINT_MAX_NQ * TEAL_JOINT_MAX_NV], N0[TEAL_JOINT_MAX_NQ * TEAL_JOINT_MAX_NV];
  double Np[TEAL_JOINT_MAX_NQ * TEAL_JOINT_MAX_NV], e[TEAL_JOINT_MAX_NQ], u[TEAL_JOINT_MAX_NV];
  const double *qk = q + qs, *vk = v + vs;
  ty->N(&t->params[k], qk, N);
  for (int a = 0; a < nqk; a++) {
    memcpy(A + (size_t)(qs + a) * nx + p->nq + vs, N + a * nvk, sizeof(double) * (size_t)nvk);
  }
  if (ty->normalize) {
    memset(e, 0, sizeof e);
    ty->N(&t->params[k], e, N0);
  } else if (ty->Ndot) {
    ty->Nplus(&t->params[k], qk, Np);
  }
  for (int c = 0; c < nqk && (ty->normalize || ty->Ndot); c++) {
    if (ty->normalize) { /* N linear in the quaternion: N(e_c) - N(0) */
      memset(e, 0, sizeof e);
      e[c] = 1.0;
      ty->N(&t->params[k], e, N);
      for (int i = 0; i < nqk * nvk; i++) {
        N[i] -= N0[i];
      }
    } else { /* square N: dN/dq_c = Ndot(q, N+ e_c) */
      for (int b = 0; b < nvk; b++) {
        u[b] = Np[b * nqk + c];
      }
      ty->Ndot(&t->params[k], qk, u, N);
    }
    for (int a = 0; a < nqk; a++) {
      double s = 0.0;
      for (int b = 0; b < nvk; b++) {
        s += N[a * nvk + b] * vk[b];
      }
      A[(size_t)(qs + a) * nx + qs + c] = s;
    }
  }
}

/* The rows of vdot: A(nq + i, q cols of node k) = dvdot/d(tangent) N+(q)
 * block by block, A(nq + i, nq + j) = dvdot/dv minus the damping's
 * M^-1 D. dq, dv and Minv are nv x nv. */
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
      A[(size_t)(nq + i) * nx + nq + j] = dv[ij] - Minv[ij] * damping[j];
    }
  }
}

/* B = [0; M^-1 dtau/du]: dtau/du is the identity for applied_generalized_force,
 * and for actuation the unit column of each actuator's dof while its u is
 * inside the effort limits (0 where the clamp holds it). */
static int input_columns(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                         int input_port, const double *Minv, double *B) {
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
    int dof = c;
    if (u) {
      double lim = teal_plant_actuator_effort_limit(p, c);
      if (!(u[c] > -lim && u[c] < lim)) {
        continue;
      }
      dof = JOINT(p)[ACT(p)[c].joint].v_start;
    }
    for (int i = 0; i < nv; i++) {
      B[(size_t)(nq + i) * nu + c] = Minv[(size_t)i * nv + dof];
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

/* The derivatives of vdot at ctx's state into s->jac: dvdot/dq (tangent
 * form), dvdot/dv, M^-1 (nv x nv each), then vdot. */
static int vdot_derivatives(const teal_system *sys, const teal_context *ctx, const teal_plant *p,
                            teal_plant_scratch *s) {
  const double *forces, *q, *v;
  int rc = teal_eval_cache_entry(sys, ctx, p->sys.ce_forces, (const void **)&forces);
  if (rc) {
    return rc;
  }
  teal_plant_qv(p, ctx, &q, &v);
  size_t nv = (size_t)p->nv;
  const teal_spatial_vector *F = (const teal_spatial_vector *)(forces + nv);
  rc = teal_mb_forward_dynamics_derivatives(p, s->data, s->deriv, q, v, forces, F,
                                            s->jac + 3 * nv * nv, s->jac, s->jac + nv * nv,
                                            s->jac + 2 * nv * nv);
  if (rc) {
    return teal_context_report_error(ctx, rc, "plant Jacobian: %s",
                                     teal_mb_data_error(s->data)->message);
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
  if ((rc = vdot_derivatives(sys, ctx, p, s))) {
    return rc;
  }
  size_t nv = (size_t)p->nv, nx = (size_t)(p->nq + p->nv);
  const double *Minv = s->jac + 2 * nv * nv;
  memset(jac->A, 0, sizeof(double) * nx * nx);
  vdot_rows(p, q, teal_plant_damping(p, ctx), s->jac, s->jac + nv * nv, Minv, jac->A);
  for (int k = 1; k < p->tree.num_nodes; k++) {
    qdot_rows(p, k, q, v, jac->A);
  }
  if (input_port >= 0 && (rc = input_columns(sys, ctx, p, input_port, Minv, jac->B))) {
    return rc;
  }
  if (output_port >= 0) {
    state_output(p, jac->nu, jac->C, input_port >= 0 ? jac->D : NULL);
  }
  return TEAL_OK;
}
