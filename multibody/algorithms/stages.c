/* The position and velocity stages of teal_mb_data (see data.h and the
 * formulation in data_internal.h): per node, poses, reference points,
 * motion subspaces and inertias at q, then spatial velocities and
 * velocity-product terms at (q, v). */
#include "multibody/algorithms/stages.h"

#include <math.h>
#include <string.h>

#include "math/quaternion.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/tree/topology.h"

/* ---- position stage ------------------------------------------------------------ */

/* R A R' for a symmetric A, exactly symmetric. */
static teal_mat3 rotate_symmetric(teal_rotation R, teal_mat3 A) {
  teal_mat3 T = teal_mat3_mul(R, A), r;
  for (int i = 0; i < 3; i++) {
    for (int j = i; j < 3; j++) {
      double s = T.m[3 * i] * R.m[3 * j] + T.m[3 * i + 1] * R.m[3 * j + 1] +
                 T.m[3 * i + 2] * R.m[3 * j + 2];
      r.m[3 * i + j] = r.m[3 * j + i] = s;
    }
  }
  return r;
}

/* Node k's body inertia at pose X_WB about O in W: the central inertia
 * rotated, then the parallel axis theorem at O. */
static teal_mb_inertia inertia_about_O(const teal_mb_data *data, int k, teal_transform X_WB,
                                       teal_vec3 O) {
  double m = data->M_BBo_B[k].mass;
  teal_vec3 c = teal_vec3_add(teal_rotation_apply(X_WB.R, data->M_BBo_B[k].p_PScm_E),
                              teal_vec3_sub(X_WB.p, O));
  teal_mb_inertia r;
  r.m = m;
  r.h = teal_vec3_scale(c, m);
  r.I = rotate_symmetric(X_WB.R, data->I_Bcm[k]);
  teal_mat3 pc = teal_mat3_point_inertia(c);
  for (int i = 0; i < 9; i++) {
    r.I.m[i] += m * pc.m[i];
  }
  return r;
}

/* Node k's columns of S: H (in F, at Mo) re-expressed in W and taken about
 * O, with r = p_OMo_W: s = [R_WF h_w; R_WF h_v + r x R_WF h_w]. */
static void motion_subspace(teal_mb_data *data, const teal_plant_tree *t, int k, const double *qk,
                            teal_rotation R_WF, teal_vec3 r) {
  double *S = data->S + 6 * t->v_start[k];
  int n = t->nv[k];
  if (t->joint_kind[k] == TEAL_JOINT_REVOLUTE) {
    teal_vec3 w = teal_rotation_apply(R_WF, t->params[k].axis), v = teal_vec3_cross(r, w);
    S[0] = w.v[0], S[1] = w.v[1], S[2] = w.v[2], S[3] = v.v[0], S[4] = v.v[1], S[5] = v.v[2];
    return;
  }
  double H[6 * TEAL_JOINT_MAX_NV];
  t->type[k]->H_FM(&t->params[k], qk, H);
  for (int j = 0; j < n; j++) {
    teal_vec3 w = teal_rotation_apply(R_WF, teal_vec3_make(H[j], H[n + j], H[2 * n + j]));
    teal_vec3 v =
        teal_rotation_apply(R_WF, teal_vec3_make(H[3 * n + j], H[4 * n + j], H[5 * n + j]));
    v = teal_vec3_add(v, teal_vec3_cross(r, w));
    for (int i = 0; i < 3; i++) {
      S[6 * j + i] = w.v[i];
      S[6 * j + 3 + i] = v.v[i];
    }
  }
}

/* A quaternion in q (ball, floating) must be normalizable: its squared norm
 * a normal number, neither zero nor so small or large that 2 / |q|^2 (the
 * rotation's scale) overflows or underflows. */
static int quaternion_ok(const teal_plant_tree *t, int k, const double *qk) {
  if (!t->type[k]->normalize) {
    return 1;
  }
  return teal_quaternion_is_normalizable(qk);
}

/* R_FM of a revolute joint about the unit axis a (Rodrigues):
 * cos(q) 1 + sin(q) [a]x + (1 - cos(q)) a a'. */
static teal_rotation revolute_rotation(teal_vec3 a, double q) {
  double c = cos(q), s = sin(q), t = 1.0 - c;
  double x = a.v[0], y = a.v[1], z = a.v[2];
  teal_rotation R = {{c + t * x * x, t * x * y - s * z, t * x * z + s * y, t * x * y + s * z,
                      c + t * y * y, t * y * z - s * x, t * x * z - s * y, t * y * z + s * x,
                      c + t * z * z}};
  return R;
}

/* X_WF and X_WM of node k, skipping products with identities. */
static void node_poses(const teal_mb_data *data, const teal_plant_tree *t, int k, const double *qk,
                       teal_transform *X_WF, teal_transform *X_WM) {
  const teal_transform *X_WP = &data->X[t->parent[k]];
  int fl = data->flags[k];
  X_WF->R = fl & TEAL_MB_F_UNROTATED ? X_WP->R : teal_rotation_mul(X_WP->R, t->X_PF[k].R);
  X_WF->p = teal_vec3_add(X_WP->p, teal_rotation_apply(X_WP->R, t->X_PF[k].p));
  if (t->joint_kind[k] == TEAL_JOINT_REVOLUTE) {
    X_WM->R = teal_rotation_mul(X_WF->R, revolute_rotation(t->params[k].axis, qk[0]));
    X_WM->p = X_WF->p;
  } else {
    teal_transform X_FM = t->type[k]->X_FM(&t->params[k], qk);
    X_WM->R = teal_rotation_mul(X_WF->R, X_FM.R);
    X_WM->p = teal_vec3_add(X_WF->p, teal_rotation_apply(X_WF->R, X_FM.p));
  }
}

/* Pose, reference point, motion subspace and inertia of node k. */
static void position_node(teal_mb_data *data, const teal_plant_tree *t, int k, const double *q) {
  int pk = t->parent[k], fl = data->flags[k];
  const double *qk = q + t->q_start[k];
  teal_transform X_WF, X_WM, X_WB;
  node_poses(data, t, k, qk, &X_WF, &X_WM);
  X_WB.R = fl & TEAL_MB_M_UNROTATED ? X_WM.R : teal_rotation_mul(X_WM.R, data->X_MB[k].R);
  X_WB.p = fl & TEAL_MB_M_AT_BO
               ? X_WM.p
               : teal_vec3_add(X_WM.p, teal_rotation_apply(X_WM.R, data->X_MB[k].p));
  data->X[k] = X_WB;
  data->O[k] = pk == 0 ? X_WB.p : data->O[pk];
  motion_subspace(data, t, k, qk, X_WF.R, teal_vec3_sub(X_WM.p, data->O[k]));
  data->I[k] = inertia_about_O(data, k, X_WB, data->O[k]);
}

/* 1 when data already holds the position stage of q. Stand-alone data
 * compares q bit for bit; data staged by its owner (the plant, whose cache
 * entry drops the stage whenever q changes) trusts it, and a debug build
 * still checks that the owner kept its word. */
static int position_current(const teal_mb_data *data, const double *q, size_t bytes) {
  if (!data->pos_valid) {
    return 0;
  }
#ifdef NDEBUG
  if (data->staged) {
    return 1;
  }
#endif
  return memcmp(data->q_pos, q, bytes) == 0;
}

int teal_mb_data_position(teal_mb_data *data, const teal_plant_tree *t, const double *q) {
  size_t bytes = sizeof(double) * (size_t)data->nq;
  if (position_current(data, q, bytes)) {
    return TEAL_OK;
  }
  if (data->staged && data->pos_valid) {
    return teal_error_set(&data->err, TEAL_ESTATE,
                          "teal_mb: the owner's position stage is stale (q changed, the stage "
                          "was not dropped)");
  }
  data->pos_valid = 0;
  data->factor_stamp = 0;
  for (int k = 1; k < t->num_nodes; k++) {
    if (!quaternion_ok(t, k, q + t->q_start[k])) {
      return teal_error_set(&data->err, TEAL_EINVAL,
                            "teal_mb: the quaternion q[%d..%d] of joint \"%s\" is zero or "
                            "cannot be normalized",
                            t->q_start[k], t->q_start[k] + 3,
                            teal_plant_joint_name(data->plant, data->joint[k]));
    }
    position_node(data, t, k, q);
  }
  memcpy(data->q_pos, q, bytes);
  data->pos_valid = 1;
  data->pos_stamp++;
  return TEAL_OK;
}

/* ---- velocity stage ------------------------------------------------------------ */

/* The in-F rate of node k's columns of S times v (joints with nv > 1), about
 * O in W: [hd_w; hd_v + r x hd_w + v_Mo x w] with hd = Hdot v re-expressed,
 * r = p_OMo, w and v_Mo the joint's angular velocity and the velocity of Mo
 * in F. Zero for revolute, prismatic and screw joints. */
static teal_spatial_vector joint_bias(const teal_mb_data *data, const teal_plant_tree *t, int k,
                                      const double *q, const double *vk, teal_spatial_vector VJ) {
  teal_rotation R_WF = teal_rotation_mul(data->X[t->parent[k]].R, t->X_PF[k].R);
  teal_vec3 r = teal_vec3_sub(teal_transform_apply(data->X[k], t->X_BM[k].p), data->O[k]);
  teal_vec3 w = teal_spatial_vector_angular(VJ);
  teal_vec3 v_Mo = teal_vec3_sub(teal_spatial_vector_linear(VJ), teal_vec3_cross(r, w));
  teal_spatial_vector hd =
      teal_spatial_vector_reexpress(R_WF, t->type[k]->Hdot_v(&t->params[k], q + t->q_start[k], vk));
  teal_vec3 hw = teal_spatial_vector_angular(hd);
  teal_vec3 lin = teal_vec3_add(teal_spatial_vector_linear(hd), teal_vec3_cross(r, hw));
  return teal_spatial_vector_make(hw, teal_vec3_add(lin, teal_vec3_cross(v_Mo, w)));
}

void teal_mb_data_velocity(teal_mb_data *data, const teal_plant_tree *t, const double *q,
                           const double *v) {
  for (int k = 1; k < t->num_nodes; k++) {
    int n = t->nv[k];
    const double *S = teal_mb_data_S(data, t, k), *vk = v + t->v_start[k];
    teal_spatial_vector Vp = data->V[t->parent[k]], VJ;
    if (n == 1) {
      for (int i = 0; i < 6; i++) {
        VJ.v[i] = S[i] * vk[0];
      }
    } else {
      VJ = teal_mb_s_apply(S, n, vk);
    }
    teal_spatial_vector V = teal_spatial_vector_add(Vp, VJ);
    teal_spatial_vector c = teal_spatial_cross_motion(Vp, VJ);
    if (n > 1) {
      c = teal_spatial_vector_add(c, joint_bias(data, t, k, q, vk, VJ));
    }
    data->V[k] = V;
    data->c[k] = c;
    data->pb[k] = teal_spatial_cross_force(V, teal_mb_inertia_apply(&data->I[k], V));
  }
}

/* ---- the stages as public calls --------------------------------------------------- */

int teal_mb_position_stage(const teal_plant *plant, teal_mb_data *data, const double *q) {
  static const char fn[] = "teal_mb_position_stage";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t || (st = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0))) {
    return st;
  }
  return teal_mb_data_position(data, t, q);
}

int teal_mb_velocity_stage(const teal_plant *plant, teal_mb_data *data, const double *q,
                           const double *v) {
  static const char fn[] = "teal_mb_velocity_stage";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t || (st = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0)) ||
      (st = teal_mb_data_check_array(data, fn, "v", v, data->nv, 0)) ||
      (st = teal_mb_data_position(data, t, q))) {
    return st;
  }
  teal_mb_data_velocity(data, t, q, v);
  return TEAL_OK;
}
