/* Forward kinematics: poses, spatial velocities and spatial accelerations,
 * each in one outward pass. */
#include "multibody/algorithms/kinematics.h"
#include "multibody/tree/topology.h"

/* X_PB of node k: X_PF X_FM(q) X_MB, also returning X_FM and X_MB. */
static teal_transform node_pose(const teal_plant_tree *t, int k, const double *q,
                                teal_transform *X_FM, teal_transform *X_MB) {
  *X_FM = t->type[k]->X_FM(&t->params[k], q + t->q_start[k]);
  *X_MB = teal_transform_inverse(t->X_BM[k]);
  return teal_transform_compose(teal_transform_compose(t->X_PF[k], *X_FM), *X_MB);
}

int teal_mb_body_poses(const teal_plant *plant, const double *q, teal_transform *X_WB) {
  const teal_plant_tree *t = plant ? teal_plant_get_tree(plant) : NULL;
  if (!t) {
    return plant ? TEAL_ESTATE : TEAL_EINVAL;
  }
  X_WB[0] = teal_transform_identity();
  for (int k = 1; k < t->num_nodes; k++) {
    teal_transform X_FM, X_MB;
    teal_transform X_PB = node_pose(t, k, q, &X_FM, &X_MB);
    X_WB[teal_plant_node_body(plant, k)] =
        teal_transform_compose(X_WB[teal_plant_node_body(plant, t->parent[k])], X_PB);
  }
  return TEAL_OK;
}

/* The velocity of B in P at Bo, expressed in W: V_FM (at Mo, in F) shifted to
 * Bo and re-expressed with R_WF. */
static teal_spatial_vector relative_velocity(const teal_plant_tree *t, int k, const double *q,
                                             const double *v, teal_transform X_FM,
                                             teal_transform X_MB, teal_rotation R_WF) {
  teal_spatial_vector V_FM = teal_joint_velocity(t->type[k], &t->params[k], q + t->q_start[k],
                                                 v + t->v_start[k]);
  teal_vec3 p_MoBo_F = teal_rotation_apply(X_FM.R, X_MB.p);
  return teal_spatial_vector_reexpress(R_WF, teal_spatial_velocity_shift(V_FM, p_MoBo_F));
}

int teal_mb_body_velocities(const teal_plant *plant, const double *q, const double *v,
                                    teal_transform *X_WB, teal_spatial_vector *V_WB) {
  const teal_plant_tree *t = plant ? teal_plant_get_tree(plant) : NULL;
  if (!t) {
    return plant ? TEAL_ESTATE : TEAL_EINVAL;
  }
  X_WB[0] = teal_transform_identity();
  V_WB[0] = teal_spatial_vector_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    int b = teal_plant_node_body(plant, k), pb = teal_plant_node_body(plant, t->parent[k]);
    teal_transform X_FM, X_MB;
    teal_transform X_PB = node_pose(t, k, q, &X_FM, &X_MB);
    X_WB[b] = teal_transform_compose(X_WB[pb], X_PB);
    /* parent velocity shifted from Po to Bo, plus the joint's contribution */
    teal_vec3 p_PoBo_W = teal_vec3_sub(X_WB[b].p, X_WB[pb].p);
    teal_rotation R_WF = teal_rotation_mul(X_WB[pb].R, t->X_PF[k].R);
    V_WB[b] = teal_spatial_vector_add(teal_spatial_velocity_shift(V_WB[pb], p_PoBo_W),
                                      relative_velocity(t, k, q, v, X_FM, X_MB, R_WF));
  }
  return TEAL_OK;
}

/* The acceleration of B in P at Bo, in W: A_FM = H vdot + Hdot v (at Mo,
 * in F) shifted to Bo within B (whose angular velocity in F is w_FM) and
 * re-expressed with R_WF. */
static teal_spatial_vector relative_acceleration(const teal_plant_tree *t, int k,
                                                 const double *q, const double *v,
                                                 const double *vdot, teal_transform X_FM,
                                                 teal_transform X_MB, teal_rotation R_WF) {
  const double *qk = q + t->q_start[k], *vk = v + t->v_start[k];
  teal_spatial_vector V_FM = teal_joint_velocity(t->type[k], &t->params[k], qk, vk);
  teal_spatial_vector A_FM = teal_spatial_vector_add(
      teal_joint_velocity(t->type[k], &t->params[k], qk, vdot + t->v_start[k]),
      t->type[k]->Hdot_v(&t->params[k], qk, vk));
  teal_vec3 p_MoBo_F = teal_rotation_apply(X_FM.R, X_MB.p);
  teal_spatial_vector A = teal_spatial_acceleration_shift(A_FM, p_MoBo_F,
                                                          teal_spatial_vector_angular(V_FM));
  return teal_spatial_vector_reexpress(R_WF, A);
}

/* A_WB from A_WP, w_WP, the offset p = p_PoBo_W and the motion of B in P at
 * Bo (V_PB, A_PB, in W): alpha_B = alpha_P + alpha_PB + w_P x w_PB and
 * a_Bo = a_Po + alpha_P x p + w_P x (w_P x p) + a_PB + 2 w_P x v_PB. */
static teal_spatial_vector compose_acceleration(teal_spatial_vector A_WP, teal_vec3 w_WP,
                                                teal_vec3 p, teal_spatial_vector V_PB,
                                                teal_spatial_vector A_PB) {
  teal_spatial_vector A = teal_spatial_vector_add(teal_spatial_acceleration_shift(A_WP, p, w_WP),
                                                  A_PB);
  teal_vec3 ang = teal_vec3_cross(w_WP, teal_spatial_vector_angular(V_PB));
  teal_vec3 lin = teal_vec3_scale(teal_vec3_cross(w_WP, teal_spatial_vector_linear(V_PB)), 2.0);
  return teal_spatial_vector_add(A, teal_spatial_vector_make(ang, lin));
}

int teal_mb_body_accelerations(const teal_plant *plant, const double *q, const double *v,
                                       const double *vdot, teal_transform *X_WB,
                                       teal_spatial_vector *V_WB, teal_spatial_vector *A_WB) {
  const teal_plant_tree *t = plant ? teal_plant_get_tree(plant) : NULL;
  if (!t) {
    return plant ? TEAL_ESTATE : TEAL_EINVAL;
  }
  if (!q || !v || !vdot || !X_WB || !V_WB || !A_WB) {
    return TEAL_EINVAL;
  }
  X_WB[0] = teal_transform_identity();
  V_WB[0] = A_WB[0] = teal_spatial_vector_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    int b = teal_plant_node_body(plant, k), pb = teal_plant_node_body(plant, t->parent[k]);
    teal_transform X_FM, X_MB;
    X_WB[b] = teal_transform_compose(X_WB[pb], node_pose(t, k, q, &X_FM, &X_MB));
    teal_vec3 p = teal_vec3_sub(X_WB[b].p, X_WB[pb].p);
    teal_rotation R_WF = teal_rotation_mul(X_WB[pb].R, t->X_PF[k].R);
    teal_spatial_vector V_PB = relative_velocity(t, k, q, v, X_FM, X_MB, R_WF);
    teal_spatial_vector A_PB = relative_acceleration(t, k, q, v, vdot, X_FM, X_MB, R_WF);
    teal_vec3 w_WP = teal_spatial_vector_angular(V_WB[pb]);
    V_WB[b] = teal_spatial_vector_add(teal_spatial_velocity_shift(V_WB[pb], p), V_PB);
    A_WB[b] = compose_acceleration(A_WB[pb], w_WP, p, V_PB, A_PB);
  }
  return TEAL_OK;
}

/* X_WF of a frame from its body's pose. */
static int frame_pose(const teal_plant *plant, const teal_transform *X_WB, int f,
                      teal_transform *X_WF) {
  const teal_transform *X_BF = teal_plant_frame_pose_in_body(plant, f);
  if (!X_BF) {
    return TEAL_EINVAL;
  }
  *X_WF = teal_transform_compose(X_WB[teal_plant_frame_body(plant, f)], *X_BF);
  return TEAL_OK;
}

int teal_plant_calc_relative_transform(const teal_plant *plant, const teal_transform *X_WB,
                                       int frame_A, int frame_B, teal_transform *X_AB) {
  teal_transform X_WA, X_WBf;
  if (!plant || !teal_plant_is_finalized(plant)) {
    return plant ? TEAL_ESTATE : TEAL_EINVAL;
  }
  if (frame_pose(plant, X_WB, frame_A, &X_WA) || frame_pose(plant, X_WB, frame_B, &X_WBf)) {
    return TEAL_EINVAL;
  }
  *X_AB = teal_transform_compose(teal_transform_inverse(X_WA), X_WBf);
  return TEAL_OK;
}

int teal_plant_calc_point_in_world(const teal_plant *plant, const teal_transform *X_WB,
                                   int frame_F, teal_vec3 p_FQ, teal_vec3 *p_WQ) {
  teal_transform X_WF;
  if (!plant || !teal_plant_is_finalized(plant)) {
    return plant ? TEAL_ESTATE : TEAL_EINVAL;
  }
  if (frame_pose(plant, X_WB, frame_F, &X_WF)) {
    return TEAL_EINVAL;
  }
  *p_WQ = teal_transform_apply(X_WF, p_FQ);
  return TEAL_OK;
}
