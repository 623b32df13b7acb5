/* Point Jacobians, bias accelerations and the J u / J' F operators (see
 * jacobians.h).
 *
 * Everything is computed in W from the body poses. The joint of tree node k
 * moves its whole outboard subtree rigidly; its hinge columns H (at Mo, in F)
 * re-expressed with R_WF and shifted from Mo to a point Q of that subtree
 * are the columns of dV_WQ / dv for that joint. The Jacobian of Q on frame F
 * measured in frame A collects these columns along the path from F's node up
 * to the common ancestor with A's node (sign +), minus those along the path
 * from A's node (sign -): above the common ancestor both points move alike
 * and the columns cancel exactly, so they are left zero. */
#include "multibody/algorithms/jacobians.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/tree/topology.h"

#define NV_MAX TEAL_JOINT_MAX_NV
#define NQ_MAX TEAL_JOINT_MAX_NQ

struct teal_mb_jacobian_workspace {
  const teal_plant *plant;
  int nb, nn, nq, nv, nf;
  teal_error err;
  int *body;                 /* [nn] node -> body */
  teal_transform *X_WB;      /* [nb] by body */
  teal_spatial_vector *V_WB; /* [nb] by body */
  teal_spatial_vector *A_WB; /* [nb] by body */
  teal_spatial_vector *F;    /* [nn] by node: accumulated forces of J' F */
};

/* ---- workspace ------------------------------------------------------------ */

static int alloc_arrays(teal_mb_jacobian_workspace *ws) {
  size_t nb = (size_t)ws->nb, nn = (size_t)ws->nn;
  ws->body = teal_calloc(nn, sizeof(*ws->body));
  ws->X_WB = teal_calloc(nb, sizeof(*ws->X_WB));
  ws->V_WB = teal_calloc(nb, sizeof(*ws->V_WB));
  ws->A_WB = teal_calloc(nb, sizeof(*ws->A_WB));
  ws->F = teal_calloc(nn, sizeof(*ws->F));
  return ws->body && ws->X_WB && ws->V_WB && ws->A_WB && ws->F;
}

teal_mb_jacobian_workspace *teal_mb_jacobian_workspace_new(const teal_plant *plant,
                                                           teal_error *err) {
  static const char fn[] = "teal_mb_jacobian_workspace_new";
  if (!plant) {
    teal_error_set(err, TEAL_EINVAL, "%s: NULL plant", fn);
    return NULL;
  }
  if (!teal_plant_is_finalized(plant)) {
    teal_error_set(err, TEAL_ESTATE, "%s: plant is not finalized", fn);
    return NULL;
  }
  teal_mb_jacobian_workspace *ws = teal_calloc(1, sizeof(*ws));
  if (!ws) {
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", fn);
    return NULL;
  }
  ws->plant = plant;
  ws->nb = teal_plant_num_bodies(plant);
  ws->nn = teal_plant_num_nodes(plant);
  ws->nq = teal_plant_nq(plant);
  ws->nv = teal_plant_nv(plant);
  ws->nf = teal_plant_num_frames(plant);
  if (!alloc_arrays(ws)) {
    teal_mb_jacobian_workspace_free(ws);
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", fn);
    return NULL;
  }
  for (int k = 0; k < ws->nn; k++) {
    ws->body[k] = teal_plant_node_body(plant, k);
  }
  return ws;
}

void teal_mb_jacobian_workspace_free(teal_mb_jacobian_workspace *ws) {
  if (!ws) {
    return;
  }
  teal_free(ws->body);
  teal_free(ws->X_WB);
  teal_free(ws->V_WB);
  teal_free(ws->A_WB);
  teal_free(ws->F);
  teal_free(ws);
}

const teal_error *teal_mb_jacobian_workspace_error(const teal_mb_jacobian_workspace *ws) {
  return ws ? &ws->err : NULL;
}

/* ---- validation ------------------------------------------------------------ */

/* Checks plant and ws; returns the tree, or NULL with *status set. */
static const teal_plant_tree *check_plant(const teal_plant *plant, teal_mb_jacobian_workspace *ws,
                                          const char *fn, int *status) {
  if (!ws) {
    *status = TEAL_EINVAL;
    return NULL;
  }
  teal_error_clear(&ws->err);
  if (!plant) {
    *status = teal_error_set(&ws->err, TEAL_EINVAL, "%s: NULL plant", fn);
    return NULL;
  }
  const teal_plant_tree *t = teal_plant_get_tree(plant);
  if (!t) {
    *status = teal_error_set(&ws->err, TEAL_ESTATE, "%s: plant is not finalized", fn);
    return NULL;
  }
  if (ws->plant != plant || ws->nn != t->num_nodes || ws->nq != teal_plant_nq(plant) ||
      ws->nv != teal_plant_nv(plant) || ws->nf != teal_plant_num_frames(plant)) {
    *status = teal_error_set(&ws->err, TEAL_EINVAL, "%s: workspace made for another plant", fn);
    return NULL;
  }
  *status = TEAL_OK;
  return t;
}

/* x (n values) must be non-NULL (unless optional) and finite. */
static int check_array(teal_mb_jacobian_workspace *ws, const char *fn, const char *name,
                       const double *x, int n, int optional) {
  if (!x) {
    return optional ? TEAL_OK : teal_error_set(&ws->err, TEAL_EINVAL, "%s: NULL %s", fn, name);
  }
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return teal_error_set(&ws->err, TEAL_ENONFINITE, "%s: %s[%d] is not finite (%g)", fn,
                            name, i, x[i]);
    }
  }
  return TEAL_OK;
}

static int check_out(teal_mb_jacobian_workspace *ws, const char *fn, const char *name,
                     const void *x) {
  return x ? TEAL_OK : teal_error_set(&ws->err, TEAL_EINVAL, "%s: NULL %s", fn, name);
}

static int check_frame(teal_mb_jacobian_workspace *ws, const char *fn, const char *name, int f) {
  if (f < 0 || f >= ws->nf) {
    return teal_error_set(&ws->err, TEAL_EINVAL, "%s: %s = %d is not a frame index (0..%d)", fn,
                          name, f, ws->nf - 1);
  }
  return TEAL_OK;
}

/* The three frames and the point of a point-Jacobian call. */
static int check_point(teal_mb_jacobian_workspace *ws, const char *fn, int frame_F,
                       teal_vec3 p_FQ, int frame_A, int frame_E) {
  int st;
  if ((st = check_frame(ws, fn, "frame_F", frame_F)) ||
      (st = check_frame(ws, fn, "frame_A", frame_A)) ||
      (st = check_frame(ws, fn, "frame_E", frame_E))) {
    return st;
  }
  return check_array(ws, fn, "p_FQ", p_FQ.v, 3, 0);
}

/* ---- geometry ---------------------------------------------------------------- */

/* X_WF of frame f from the body poses in ws. */
static teal_transform frame_pose(const teal_mb_jacobian_workspace *ws, int f) {
  int b = teal_plant_frame_body(ws->plant, f);
  return teal_transform_compose(ws->X_WB[b], *teal_plant_frame_pose_in_body(ws->plant, f));
}

/* R_WF and p_WoMo_W of node k's joint frames F (on the parent) and M. */
static void joint_frames(const teal_mb_jacobian_workspace *ws, const teal_plant_tree *t, int k,
                         teal_rotation *R_WF, teal_vec3 *p_WMo) {
  const teal_transform *X_WP = &ws->X_WB[ws->body[t->parent[k]]];
  *R_WF = teal_rotation_mul(X_WP->R, t->X_PF[k].R);
  *p_WMo = teal_transform_apply(ws->X_WB[ws->body[k]], t->X_BM[k].p);
}

/* S (6 x nv_k, row-major): node k's hinge columns in W shifted from Mo to the
 * point at p_WQ, re-expressed in E (R_EW) and scaled by sign. */
static void node_columns(const teal_mb_jacobian_workspace *ws, const teal_plant_tree *t, int k,
                         const double *q, teal_vec3 p_WQ, teal_rotation R_EW, double sign,
                         double *S) {
  double H[6 * NV_MAX];
  int nv = t->nv[k];
  teal_rotation R_WF;
  teal_vec3 p_WMo;
  joint_frames(ws, t, k, &R_WF, &p_WMo);
  t->type[k]->H_FM(&t->params[k], q + t->q_start[k], H);
  teal_rotation R_EF = teal_rotation_mul(R_EW, R_WF);
  teal_vec3 p_MoQ_E = teal_rotation_apply(R_EW, teal_vec3_sub(p_WQ, p_WMo));
  for (int j = 0; j < nv; j++) {
    teal_spatial_vector h;
    for (int r = 0; r < 6; r++) {
      h.v[r] = H[r * nv + j];
    }
    teal_spatial_vector s =
        teal_spatial_velocity_shift(teal_spatial_vector_reexpress(R_EF, h), p_MoQ_E);
    for (int r = 0; r < 6; r++) {
      S[r * nv + j] = sign * s.v[r];
    }
  }
}

/* Writes rows r0 .. r0 + nr - 1 of node k's block S into J (ncols columns):
 * S itself for v, S N+(q_k) for qdot. */
static void put_block(const teal_plant_tree *t, int k, const double *q, teal_jacobian_wrt wrt,
                      const double *S, int r0, int nr, int ncols, double *J) {
  int nv = t->nv[k], nq = t->nq[k];
  if (wrt == TEAL_JACOBIAN_WRT_V) {
    for (int r = 0; r < nr; r++) {
      memcpy(J + r * ncols + t->v_start[k], S + (r0 + r) * nv, sizeof(double) * (size_t)nv);
    }
    return;
  }
  double Np[NV_MAX * NQ_MAX];
  t->type[k]->Nplus(&t->params[k], q + t->q_start[k], Np);
  for (int r = 0; r < nr; r++) {
    for (int c = 0; c < nq; c++) {
      double s = 0.0;
      for (int j = 0; j < nv; j++) {
        s += S[(r0 + r) * nv + j] * Np[j * nq + c];
      }
      J[r * ncols + t->q_start[k] + c] = s;
    }
  }
}

/* Rows r0 .. r0 + nr - 1 of Js_V_AFq_E (arguments already checked). */
static int fill_jacobian(const teal_plant *plant, teal_mb_jacobian_workspace *ws,
                         const teal_plant_tree *t, const double *q, teal_jacobian_wrt wrt,
                         int frame_F, teal_vec3 p_FQ, int frame_A, int frame_E, int r0, int nr,
                         double *J) {
  int st = teal_plant_calc_body_poses(plant, q, ws->X_WB);
  if (st) {
    return teal_error_set(&ws->err, st, "teal_mb_jacobian: kinematics failed");
  }
  teal_vec3 p_WQ = teal_transform_apply(frame_pose(ws, frame_F), p_FQ);
  teal_rotation R_EW = teal_rotation_inverse(frame_pose(ws, frame_E).R);
  int ncols = wrt == TEAL_JACOBIAN_WRT_V ? ws->nv : ws->nq;
  memset(J, 0, sizeof(double) * (size_t)nr * (size_t)ncols);
  int kf = teal_plant_body_node(plant, teal_plant_frame_body(plant, frame_F));
  int ka = teal_plant_body_node(plant, teal_plant_frame_body(plant, frame_A));
  while (kf != ka) { /* walk both paths up to the common ancestor */
    double S[6 * NV_MAX];
    int k = kf > ka ? kf : ka;
    node_columns(ws, t, k, q, p_WQ, R_EW, kf > ka ? 1.0 : -1.0, S);
    put_block(t, k, q, wrt, S, r0, nr, ncols, J);
    if (kf > ka) {
      kf = t->parent[kf];
    } else {
      ka = t->parent[ka];
    }
  }
  return TEAL_OK;
}

/* The shared front of the three Jacobian functions. */
static int jacobian_rows(const teal_plant *plant, teal_mb_jacobian_workspace *ws, const char *fn,
                         const double *q, teal_jacobian_wrt wrt, int frame_F, teal_vec3 p_FQ,
                         int frame_A, int frame_E, int r0, int nr, double *J) {
  int st;
  const teal_plant_tree *t = check_plant(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if (wrt != TEAL_JACOBIAN_WRT_V && wrt != TEAL_JACOBIAN_WRT_QDOT) {
    return teal_error_set(&ws->err, TEAL_EINVAL, "%s: wrt = %d is neither V nor QDOT", fn,
                          (int)wrt);
  }
  if ((st = check_array(ws, fn, "q", q, ws->nq, 0)) ||
      (st = check_point(ws, fn, frame_F, p_FQ, frame_A, frame_E)) ||
      (st = check_out(ws, fn, "J", J))) {
    return st;
  }
  return fill_jacobian(plant, ws, t, q, wrt, frame_F, p_FQ, frame_A, frame_E, r0, nr, J);
}

/* ---- public: Jacobians -------------------------------------------------------- */

int teal_mb_jacobian_spatial_velocity(const teal_plant *plant, teal_mb_jacobian_workspace *ws,
                                      const double *q, teal_jacobian_wrt wrt, int frame_F,
                                      teal_vec3 p_FQ, int frame_A, int frame_E, double *J) {
  return jacobian_rows(plant, ws, "teal_mb_jacobian_spatial_velocity", q, wrt, frame_F, p_FQ,
                       frame_A, frame_E, 0, 6, J);
}

int teal_mb_jacobian_angular_velocity(const teal_plant *plant, teal_mb_jacobian_workspace *ws,
                                      const double *q, teal_jacobian_wrt wrt, int frame_F,
                                      int frame_A, int frame_E, double *J) {
  return jacobian_rows(plant, ws, "teal_mb_jacobian_angular_velocity", q, wrt, frame_F,
                       teal_vec3_zero(), frame_A, frame_E, 0, 3, J);
}

int teal_mb_jacobian_translational_velocity(const teal_plant *plant,
                                            teal_mb_jacobian_workspace *ws, const double *q,
                                            teal_jacobian_wrt wrt, int frame_F, teal_vec3 p_FQ,
                                            int frame_A, int frame_E, double *J) {
  return jacobian_rows(plant, ws, "teal_mb_jacobian_translational_velocity", q, wrt, frame_F,
                       p_FQ, frame_A, frame_E, 3, 3, J);
}

/* ---- accelerations ------------------------------------------------------------- */

/* A_WB of node k from its parent's A_WP: the parent's motion shifted to Bo,
 * the joint's relative acceleration (Hdot v + H vdot at Mo, shifted to Bo on
 * M) and the Coriolis terms of the moving parent, w_P x w_r and
 * 2 w_P x v_r. */
static teal_spatial_vector node_acceleration(const teal_mb_jacobian_workspace *ws,
                                             const teal_plant_tree *t, int k, const double *q,
                                             const double *v, const double *vdot,
                                             teal_spatial_vector A_WP) {
  const teal_joint_type *jt = t->type[k];
  const double *qk = q + t->q_start[k], *vk = v + t->v_start[k];
  int b = ws->body[k], pb = ws->body[t->parent[k]];
  teal_rotation R_WF;
  teal_vec3 p_WMo;
  joint_frames(ws, t, k, &R_WF, &p_WMo);
  teal_spatial_vector A_FM = jt->Hdot_v(&t->params[k], qk, vk);
  if (vdot) {
    A_FM = teal_spatial_vector_add(A_FM, teal_joint_velocity(jt, &t->params[k], qk,
                                                             vdot + t->v_start[k]));
  }
  teal_spatial_vector V_r =
      teal_spatial_vector_reexpress(R_WF, teal_joint_velocity(jt, &t->params[k], qk, vk));
  teal_vec3 w_r = teal_spatial_vector_angular(V_r), p_MoBo = teal_vec3_sub(ws->X_WB[b].p, p_WMo);
  teal_vec3 v_r = teal_spatial_vector_linear(teal_spatial_velocity_shift(V_r, p_MoBo));
  teal_spatial_vector A_r = teal_spatial_acceleration_shift(
      teal_spatial_vector_reexpress(R_WF, A_FM), p_MoBo, w_r);
  teal_vec3 w_P = teal_spatial_vector_angular(ws->V_WB[pb]);
  teal_vec3 p_PoBo = teal_vec3_sub(ws->X_WB[b].p, ws->X_WB[pb].p);
  teal_spatial_vector A = teal_spatial_acceleration_shift(A_WP, p_PoBo, w_P);
  teal_spatial_vector cor = teal_spatial_vector_make(
      teal_vec3_cross(w_P, w_r), teal_vec3_scale(teal_vec3_cross(w_P, v_r), 2.0));
  return teal_spatial_vector_add(A, teal_spatial_vector_add(A_r, cor));
}

/* Poses, velocities and accelerations of every body into ws (by body). */
static int acceleration_pass(const teal_plant *plant, teal_mb_jacobian_workspace *ws,
                             const teal_plant_tree *t, const double *q, const double *v,
                             const double *vdot) {
  int st = teal_plant_calc_body_velocities(plant, q, v, ws->X_WB, ws->V_WB);
  if (st) {
    return teal_error_set(&ws->err, st, "teal_mb_jacobian: kinematics failed");
  }
  ws->A_WB[ws->body[0]] = teal_spatial_vector_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    teal_spatial_vector A_WP = ws->A_WB[ws->body[t->parent[k]]];
    ws->A_WB[ws->body[k]] = node_acceleration(ws, t, k, q, v, vdot, A_WP);
  }
  return TEAL_OK;
}

/* V_WQ and A_WQ (in W) of the point of body b at p_WQ. */
static void point_motion(const teal_mb_jacobian_workspace *ws, int b, teal_vec3 p_WQ,
                         teal_spatial_vector *V, teal_spatial_vector *A) {
  teal_vec3 p_BoQ = teal_vec3_sub(p_WQ, ws->X_WB[b].p);
  *V = teal_spatial_velocity_shift(ws->V_WB[b], p_BoQ);
  *A = teal_spatial_acceleration_shift(ws->A_WB[b], p_BoQ,
                                       teal_spatial_vector_angular(ws->V_WB[b]));
}

/* A_AFq_W from the motions in W of Q (on F) and of Aq (the point of A at Q):
 * alpha_AF = alpha_WF - alpha_WA - w_WA x w_AF and
 * a_AFq = a_WFq - a_WAq - 2 w_WA x v_AFq. */
static teal_spatial_vector relative_acceleration(teal_spatial_vector V_WQ, teal_spatial_vector A_WQ,
                                                 teal_spatial_vector V_WAq,
                                                 teal_spatial_vector A_WAq) {
  teal_vec3 w_WA = teal_spatial_vector_angular(V_WAq);
  teal_spatial_vector V_rel = teal_spatial_vector_sub(V_WQ, V_WAq);
  teal_spatial_vector A_rel = teal_spatial_vector_sub(A_WQ, A_WAq);
  teal_vec3 alpha = teal_vec3_sub(teal_spatial_vector_angular(A_rel),
                                  teal_vec3_cross(w_WA, teal_spatial_vector_angular(V_rel)));
  teal_vec3 cor = teal_vec3_scale(teal_vec3_cross(w_WA, teal_spatial_vector_linear(V_rel)), 2.0);
  teal_vec3 a = teal_vec3_sub(teal_spatial_vector_linear(A_rel), cor);
  return teal_spatial_vector_make(alpha, a);
}

int teal_mb_bias_spatial_acceleration(const teal_plant *plant, teal_mb_jacobian_workspace *ws,
                                      const double *q, const double *v, int frame_F,
                                      teal_vec3 p_FQ, int frame_A, int frame_E,
                                      teal_spatial_vector *AsBias_AFq_E) {
  static const char fn[] = "teal_mb_bias_spatial_acceleration";
  int st;
  const teal_plant_tree *t = check_plant(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = check_array(ws, fn, "q", q, ws->nq, 0)) ||
      (st = check_array(ws, fn, "v", v, ws->nv, 0)) ||
      (st = check_point(ws, fn, frame_F, p_FQ, frame_A, frame_E)) ||
      (st = check_out(ws, fn, "AsBias_AFq_E", AsBias_AFq_E))) {
    return st;
  }
  if ((st = acceleration_pass(plant, ws, t, q, v, NULL))) {
    return st;
  }
  teal_vec3 p_WQ = teal_transform_apply(frame_pose(ws, frame_F), p_FQ);
  teal_spatial_vector V_WQ, A_WQ, V_WAq, A_WAq;
  point_motion(ws, teal_plant_frame_body(plant, frame_F), p_WQ, &V_WQ, &A_WQ);
  point_motion(ws, teal_plant_frame_body(plant, frame_A), p_WQ, &V_WAq, &A_WAq);
  teal_rotation R_EW = teal_rotation_inverse(frame_pose(ws, frame_E).R);
  *AsBias_AFq_E = teal_spatial_vector_reexpress(
      R_EW, relative_acceleration(V_WQ, A_WQ, V_WAq, A_WAq));
  return TEAL_OK;
}

int teal_mb_bias_translational_acceleration(const teal_plant *plant,
                                            teal_mb_jacobian_workspace *ws, const double *q,
                                            const double *v, int frame_F, teal_vec3 p_FQ,
                                            int frame_A, int frame_E, teal_vec3 *aBias_AFq_E) {
  teal_spatial_vector A;
  if (!aBias_AFq_E) {
    return ws ? teal_error_set(&ws->err, TEAL_EINVAL,
                               "teal_mb_bias_translational_acceleration: NULL aBias_AFq_E")
              : TEAL_EINVAL;
  }
  int st = teal_mb_bias_spatial_acceleration(plant, ws, q, v, frame_F, p_FQ, frame_A, frame_E, &A);
  if (st == TEAL_OK) {
    *aBias_AFq_E = teal_spatial_vector_linear(A);
  }
  return st;
}

/* ---- operators ------------------------------------------------------------------ */

int teal_mb_jacobian_apply(const teal_plant *plant, teal_mb_jacobian_workspace *ws,
                           const double *q, const double *u, teal_spatial_vector *V_WB) {
  static const char fn[] = "teal_mb_jacobian_apply";
  int st;
  const teal_plant_tree *t = check_plant(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = check_array(ws, fn, "q", q, ws->nq, 0)) ||
      (st = check_array(ws, fn, "u", u, ws->nv, 0)) || (st = check_out(ws, fn, "V_WB", V_WB))) {
    return st;
  }
  if ((st = teal_plant_calc_body_velocities(plant, q, u, ws->X_WB, V_WB))) {
    return teal_error_set(&ws->err, st, "%s: kinematics failed", fn);
  }
  return TEAL_OK;
}

/* Every F_Bo_W entry but the world's must be finite. */
static int check_forces(teal_mb_jacobian_workspace *ws, const char *fn,
                        const teal_spatial_vector *F) {
  if (!F) {
    return teal_error_set(&ws->err, TEAL_EINVAL, "%s: NULL F_Bo_W", fn);
  }
  for (int b = 1; b < ws->nb; b++) {
    for (int i = 0; i < 6; i++) {
      if (!isfinite(F[b].v[i])) {
        return teal_error_set(&ws->err, TEAL_ENONFINITE,
                              "%s: F_Bo_W[%d].v[%d] is not finite (%g)", fn, b, i, F[b].v[i]);
      }
    }
  }
  return TEAL_OK;
}

/* tau_k = S_k' F_k for node k (S at Bo in W, F_k the force of its whole
 * subtree about Bo), then F_k moved to the parent's origin and added there. */
static void node_generalized_force(teal_mb_jacobian_workspace *ws, const teal_plant_tree *t,
                                   int k, const double *q, double *tau) {
  double S[6 * NV_MAX];
  int b = ws->body[k], nv = t->nv[k], pk = t->parent[k];
  node_columns(ws, t, k, q, ws->X_WB[b].p, teal_rotation_identity(), 1.0, S);
  for (int j = 0; j < nv; j++) {
    double s = 0.0;
    for (int r = 0; r < 6; r++) {
      s += S[r * nv + j] * ws->F[k].v[r];
    }
    tau[t->v_start[k] + j] = s;
  }
  if (pk > 0) {
    teal_vec3 p_BoPo = teal_vec3_sub(ws->X_WB[ws->body[pk]].p, ws->X_WB[b].p);
    ws->F[pk] = teal_spatial_vector_add(ws->F[pk], teal_spatial_force_shift(ws->F[k], p_BoPo));
  }
}

int teal_mb_jacobian_apply_transpose(const teal_plant *plant, teal_mb_jacobian_workspace *ws,
                                     const double *q, const teal_spatial_vector *F_Bo_W,
                                     double *tau) {
  static const char fn[] = "teal_mb_jacobian_apply_transpose";
  int st;
  const teal_plant_tree *t = check_plant(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = check_array(ws, fn, "q", q, ws->nq, 0)) || (st = check_forces(ws, fn, F_Bo_W)) ||
      (st = check_out(ws, fn, "tau", tau))) {
    return st;
  }
  if ((st = teal_plant_calc_body_poses(plant, q, ws->X_WB))) {
    return teal_error_set(&ws->err, st, "%s: kinematics failed", fn);
  }
  for (int k = 1; k < t->num_nodes; k++) {
    ws->F[k] = F_Bo_W[ws->body[k]];
  }
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    node_generalized_force(ws, t, k, q, tau);
  }
  return TEAL_OK;
}
