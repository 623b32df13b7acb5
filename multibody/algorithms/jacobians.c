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

#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/tree/forest.h"
#include "multibody/tree/topology.h"

#define NV_MAX TEAL_JOINT_MAX_NV
#define NQ_MAX TEAL_JOINT_MAX_NQ

/* ---- validation ------------------------------------------------------------ */

/* The three frames and the point of a point-Jacobian call. */
static int check_point(teal_mb_data *data, const char *fn, int frame_F, teal_vec3 p_FQ, int frame_A,
                       int frame_E) {
  int st;
  if ((st = teal_mb_data_check_frame(data, fn, "frame_F", frame_F)) ||
      (st = teal_mb_data_check_frame(data, fn, "frame_A", frame_A)) ||
      (st = teal_mb_data_check_frame(data, fn, "frame_E", frame_E))) {
    return st;
  }
  return teal_mb_data_check_array(data, fn, "p_FQ", p_FQ.v, 3, 0);
}

/* ---- geometry ---------------------------------------------------------------- */

/* X_WF of frame f from the body poses in data. */
static teal_transform frame_pose(const teal_mb_data *data, int f) {
  int b = teal_plant_frame_body(data->plant, f);
  return teal_transform_compose(data->X_WB[b], *teal_plant_frame_pose_in_body(data->plant, f));
}

/* R_WF and p_WoMo_W of node k's joint frames F (on the parent) and M. */
static void joint_frames(const teal_mb_data *data, const teal_plant_tree *t, int k,
                         teal_rotation *R_WF, teal_vec3 *p_WMo) {
  const teal_transform *X_WP = &data->X_WB[data->body[t->parent[k]]];
  *R_WF = teal_rotation_mul(X_WP->R, t->X_PF[k].R);
  *p_WMo = teal_transform_apply(data->X_WB[data->body[k]], t->X_BM[k].p);
}

/* S (6 x nv_k, row-major): node k's hinge columns in W shifted from Mo to the
 * point at p_WQ, re-expressed in E (R_EW) and scaled by sign. */
static void node_columns(const teal_mb_data *data, const teal_plant_tree *t, int k, const double *q,
                         teal_vec3 p_WQ, teal_rotation R_EW, double sign, double *S) {
  double H[6 * NV_MAX];
  int nv = t->nv[k];
  teal_rotation R_WF;
  teal_vec3 p_WMo;
  joint_frames(data, t, k, &R_WF, &p_WMo);
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
static int fill_jacobian(const teal_plant *plant, teal_mb_data *data, const teal_plant_tree *t,
                         const double *q, teal_jacobian_wrt wrt, int frame_F, teal_vec3 p_FQ,
                         int frame_A, int frame_E, int r0, int nr, double *J) {
  int st = teal_mb_body_poses(plant, q, data->X_WB);
  if (st) {
    return teal_error_set(&data->err, st, "teal_mb_jacobian: kinematics failed");
  }
  teal_vec3 p_WQ = teal_transform_apply(frame_pose(data, frame_F), p_FQ);
  teal_rotation R_EW = teal_rotation_inverse(frame_pose(data, frame_E).R);
  int ncols = wrt == TEAL_JACOBIAN_WRT_V ? data->nv : data->nq;
  memset(J, 0, sizeof(double) * (size_t)nr * (size_t)ncols);
  int kf = teal_plant_body_node(plant, teal_plant_frame_body(plant, frame_F));
  int ka = teal_plant_body_node(plant, teal_plant_frame_body(plant, frame_A));
  while (kf != ka) { /* walk both paths up to the common ancestor */
    double S[6 * NV_MAX];
    int k = kf > ka ? kf : ka;
    node_columns(data, t, k, q, p_WQ, R_EW, kf > ka ? 1.0 : -1.0, S);
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
static int jacobian_rows(const teal_plant *plant, teal_mb_data *data, const char *fn,
                         const double *q, teal_jacobian_wrt wrt, int frame_F, teal_vec3 p_FQ,
                         int frame_A, int frame_E, int r0, int nr, double *J) {
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t) {
    return st;
  }
  if (wrt != TEAL_JACOBIAN_WRT_V && wrt != TEAL_JACOBIAN_WRT_QDOT) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: wrt = %d is neither V nor QDOT", fn,
                          (int)wrt);
  }
  if ((st = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0)) ||
      (st = check_point(data, fn, frame_F, p_FQ, frame_A, frame_E)) ||
      (st = teal_mb_data_check_out(data, fn, "J", J))) {
    return st;
  }
  return fill_jacobian(plant, data, t, q, wrt, frame_F, p_FQ, frame_A, frame_E, r0, nr, J);
}

/* ---- public: Jacobians -------------------------------------------------------- */

int teal_mb_jacobian_spatial_velocity(const teal_plant *plant, teal_mb_data *data, const double *q,
                                      teal_jacobian_wrt wrt, int frame_F, teal_vec3 p_FQ,
                                      int frame_A, int frame_E, double *J) {
  return jacobian_rows(plant, data, "teal_mb_jacobian_spatial_velocity", q, wrt, frame_F, p_FQ,
                       frame_A, frame_E, 0, 6, J);
}

int teal_mb_jacobian_angular_velocity(const teal_plant *plant, teal_mb_data *data, const double *q,
                                      teal_jacobian_wrt wrt, int frame_F, int frame_A, int frame_E,
                                      double *J) {
  return jacobian_rows(plant, data, "teal_mb_jacobian_angular_velocity", q, wrt, frame_F,
                       teal_vec3_zero(), frame_A, frame_E, 0, 3, J);
}

int teal_mb_jacobian_translational_velocity(const teal_plant *plant, teal_mb_data *data,
                                            const double *q, teal_jacobian_wrt wrt, int frame_F,
                                            teal_vec3 p_FQ, int frame_A, int frame_E, double *J) {
  return jacobian_rows(plant, data, "teal_mb_jacobian_translational_velocity", q, wrt, frame_F,
                       p_FQ, frame_A, frame_E, 3, 3, J);
}

/* ---- accelerations ------------------------------------------------------------- */

/* A_WB of node k from its parent's A_WP: the parent's motion shifted to Bo,
 * the joint's relative acceleration (Hdot v + H vdot at Mo, shifted to Bo on
 * M) and the Coriolis terms of the moving parent, w_P x w_r and
 * 2 w_P x v_r. */
static teal_spatial_vector node_acceleration(const teal_mb_data *data, const teal_plant_tree *t,
                                             int k, const double *q, const double *v,
                                             const double *vdot, teal_spatial_vector A_WP) {
  const teal_joint_type *jt = t->type[k];
  const double *qk = q + t->q_start[k], *vk = v + t->v_start[k];
  int b = data->body[k], pb = data->body[t->parent[k]];
  teal_rotation R_WF;
  teal_vec3 p_WMo;
  joint_frames(data, t, k, &R_WF, &p_WMo);
  teal_spatial_vector A_FM = jt->Hdot_v(&t->params[k], qk, vk);
  if (vdot) {
    A_FM = teal_spatial_vector_add(A_FM, teal_joint_velocity(jt, &t->params[k], qk,
                                                             vdot + t->v_start[k]));
  }
  teal_spatial_vector V_r =
      teal_spatial_vector_reexpress(R_WF, teal_joint_velocity(jt, &t->params[k], qk, vk));
  teal_vec3 w_r = teal_spatial_vector_angular(V_r), p_MoBo = teal_vec3_sub(data->X_WB[b].p, p_WMo);
  teal_vec3 v_r = teal_spatial_vector_linear(teal_spatial_velocity_shift(V_r, p_MoBo));
  teal_spatial_vector A_r = teal_spatial_acceleration_shift(
      teal_spatial_vector_reexpress(R_WF, A_FM), p_MoBo, w_r);
  teal_vec3 w_P = teal_spatial_vector_angular(data->V_WB[pb]);
  teal_vec3 p_PoBo = teal_vec3_sub(data->X_WB[b].p, data->X_WB[pb].p);
  teal_spatial_vector A = teal_spatial_acceleration_shift(A_WP, p_PoBo, w_P);
  teal_spatial_vector cor = teal_spatial_vector_make(
      teal_vec3_cross(w_P, w_r), teal_vec3_scale(teal_vec3_cross(w_P, v_r), 2.0));
  return teal_spatial_vector_add(A, teal_spatial_vector_add(A_r, cor));
}

/* Poses, velocities and accelerations of every body into data (by body). */
static int acceleration_pass(const teal_plant *plant, teal_mb_data *data, const teal_plant_tree *t,
                             const double *q, const double *v, const double *vdot) {
  int st = teal_mb_body_velocities(plant, q, v, data->X_WB, data->V_WB);
  if (st) {
    return teal_error_set(&data->err, st, "teal_mb_jacobian: kinematics failed");
  }
  data->A_WB[data->body[0]] = teal_spatial_vector_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    teal_spatial_vector A_WP = data->A_WB[data->body[t->parent[k]]];
    data->A_WB[data->body[k]] = node_acceleration(data, t, k, q, v, vdot, A_WP);
  }
  return TEAL_OK;
}

/* V_WQ and A_WQ (in W) of the point of body b at p_WQ. */
static void point_motion(const teal_mb_data *data, int b, teal_vec3 p_WQ, teal_spatial_vector *V,
                         teal_spatial_vector *A) {
  teal_vec3 p_BoQ = teal_vec3_sub(p_WQ, data->X_WB[b].p);
  *V = teal_spatial_velocity_shift(data->V_WB[b], p_BoQ);
  *A = teal_spatial_acceleration_shift(data->A_WB[b], p_BoQ,
                                       teal_spatial_vector_angular(data->V_WB[b]));
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

int teal_mb_bias_spatial_acceleration(const teal_plant *plant, teal_mb_data *data, const double *q,
                                      const double *v, int frame_F, teal_vec3 p_FQ, int frame_A,
                                      int frame_E, teal_spatial_vector *AsBias_AFq_E) {
  static const char fn[] = "teal_mb_bias_spatial_acceleration";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0)) ||
      (st = teal_mb_data_check_array(data, fn, "v", v, data->nv, 0)) ||
      (st = check_point(data, fn, frame_F, p_FQ, frame_A, frame_E)) ||
      (st = teal_mb_data_check_out(data, fn, "AsBias_AFq_E", AsBias_AFq_E))) {
    return st;
  }
  if ((st = acceleration_pass(plant, data, t, q, v, NULL))) {
    return st;
  }
  teal_vec3 p_WQ = teal_transform_apply(frame_pose(data, frame_F), p_FQ);
  teal_spatial_vector V_WQ, A_WQ, V_WAq, A_WAq;
  point_motion(data, teal_plant_frame_body(plant, frame_F), p_WQ, &V_WQ, &A_WQ);
  point_motion(data, teal_plant_frame_body(plant, frame_A), p_WQ, &V_WAq, &A_WAq);
  teal_rotation R_EW = teal_rotation_inverse(frame_pose(data, frame_E).R);
  *AsBias_AFq_E = teal_spatial_vector_reexpress(
      R_EW, relative_acceleration(V_WQ, A_WQ, V_WAq, A_WAq));
  return TEAL_OK;
}

int teal_mb_bias_translational_acceleration(const teal_plant *plant, teal_mb_data *data,
                                            const double *q, const double *v, int frame_F,
                                            teal_vec3 p_FQ, int frame_A, int frame_E,
                                            teal_vec3 *aBias_AFq_E) {
  teal_spatial_vector A;
  if (!aBias_AFq_E) {
    return data ? teal_error_set(&data->err, TEAL_EINVAL,
                                 "teal_mb_bias_translational_acceleration: NULL aBias_AFq_E")
                : TEAL_EINVAL;
  }
  int st =
      teal_mb_bias_spatial_acceleration(plant, data, q, v, frame_F, p_FQ, frame_A, frame_E, &A);
  if (st == TEAL_OK) {
    *aBias_AFq_E = teal_spatial_vector_linear(A);
  }
  return st;
}

/* ---- operators ------------------------------------------------------------------ */

int teal_mb_jacobian_apply(const teal_plant *plant, teal_mb_data *data, const double *q,
                           const double *u, teal_spatial_vector *V_WB) {
  static const char fn[] = "teal_mb_jacobian_apply";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0)) ||
      (st = teal_mb_data_check_array(data, fn, "u", u, data->nv, 0)) ||
      (st = teal_mb_data_check_out(data, fn, "V_WB", V_WB))) {
    return st;
  }
  if ((st = teal_mb_body_velocities(plant, q, u, data->X_WB, V_WB))) {
    return teal_error_set(&data->err, st, "%s: kinematics failed", fn);
  }
  return TEAL_OK;
}

/* Every F_Bo_W entry but the world's must be finite. */
static int check_forces(teal_mb_data *data, const char *fn, const teal_spatial_vector *F) {
  if (!F) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: NULL F_Bo_W", fn);
  }
  for (int b = 1; b < data->nb; b++) {
    for (int i = 0; i < 6; i++) {
      if (!isfinite(F[b].v[i])) {
        return teal_error_set(&data->err, TEAL_ENONFINITE,
                              "%s: F_Bo_W[%d].v[%d] is not finite (%g)", fn, b, i, F[b].v[i]);
      }
    }
  }
  return TEAL_OK;
}

/* tau_k = S_k' F_k for node k (S at Bo in W, F_k the force of its whole
 * subtree about Bo), then F_k moved to the parent's origin and added there. */
static void node_generalized_force(teal_mb_data *data, const teal_plant_tree *t, int k,
                                   const double *q, double *tau) {
  double S[6 * NV_MAX];
  int b = data->body[k], nv = t->nv[k], pk = t->parent[k];
  node_columns(data, t, k, q, data->X_WB[b].p, teal_rotation_identity(), 1.0, S);
  for (int j = 0; j < nv; j++) {
    double s = 0.0;
    for (int r = 0; r < 6; r++) {
      s += S[r * nv + j] * data->F[k].v[r];
    }
    tau[t->v_start[k] + j] = s;
  }
  if (pk > 0) {
    teal_vec3 p_BoPo = teal_vec3_sub(data->X_WB[data->body[pk]].p, data->X_WB[b].p);
    data->F[pk] =
        teal_spatial_vector_add(data->F[pk], teal_spatial_force_shift(data->F[k], p_BoPo));
  }
}

int teal_mb_jacobian_apply_transpose(const teal_plant *plant, teal_mb_data *data, const double *q,
                                     const teal_spatial_vector *F_Bo_W, double *tau) {
  static const char fn[] = "teal_mb_jacobian_apply_transpose";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0)) ||
      (st = check_forces(data, fn, F_Bo_W)) ||
      (st = teal_mb_data_check_out(data, fn, "tau", tau))) {
    return st;
  }
  if ((st = teal_mb_body_poses(plant, q, data->X_WB))) {
    return teal_error_set(&data->err, st, "%s: kinematics failed", fn);
  }
  for (int k = 1; k < t->num_nodes; k++) {
    data->F[k] = F_Bo_W[data->body[k]];
  }
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    node_generalized_force(data, t, k, q, tau);
  }
  return TEAL_OK;
}

/* ---- per-tree point Jacobians (the discrete contact step's) ------------------------- */

int teal_mb_tree_point_jacobian(const teal_plant *plant, teal_mb_data *data,
                                const teal_mb_trees *trees, int body, teal_vec3 p_WQ, double sign,
                                double *J) {
  static const char fn[] = "teal_mb_tree_point_jacobian";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t) {
    return st;
  }
  if (!trees || !J || trees->nb != data->nb || trees->nv != data->nv || body < 0 ||
      body >= trees->nb) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: bad trees, body %d or NULL J", fn, body);
  }
  if ((st = teal_mb_data_check_array(data, fn, "p_WQ", p_WQ.v, 3, 0)) ||
      (st = teal_mb_data_check_array(data, fn, "sign", &sign, 1, 0))) {
    return st;
  }
  if (!data->pos_valid) {
    return teal_error_set(&data->err, TEAL_ESTATE, "%s: data holds no kinematics", fn);
  }
  int tree = trees->body_tree[body];
  if (tree < 0) {
    return TEAL_OK;
  }
  int m = teal_mb_trees_tree_nv(trees, tree);
  /* column of dof i: the velocity of the body point at Q, v_O + w x (Q - O) */
  for (int k = teal_plant_body_node(plant, body); k > 0; k = t->parent[k]) {
    teal_vec3 r = teal_vec3_sub(p_WQ, data->O[k]);
    for (int j = 0; j < t->nv[k]; j++) {
      int v = t->v_start[k] + j, c = trees->dof_local[v];
      const double *s = data->S + 6 * v;
      teal_vec3 w = teal_vec3_make(s[0], s[1], s[2]);
      teal_vec3 col = teal_vec3_add(teal_vec3_make(s[3], s[4], s[5]), teal_vec3_cross(w, r));
      for (int i = 0; i < 3; i++) {
        J[i * m + c] += sign * col.v[i];
      }
    }
  }
  return TEAL_OK;
}
