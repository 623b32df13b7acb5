/* Whole-system kinematics and mass properties (see system_kinematics.h).
 *
 * Everything is computed in W from the body poses, velocities and
 * accelerations of kinematics.h (in data's by-body arrays). A joint of tree
 * node k moves its outboard subtree rigidly: its hinge columns H (at Mo, in
 * F) re-expressed in W and shifted to a point Q of that subtree are the
 * columns of dV_WQ / dv for that joint. Quantities measured in a frame A
 * follow from those measured in W by subtracting the motion of the point Aq
 * of A that coincides with the point in question:
 *   v_AQ = v_WQ - v_WAq,   a_AQ = a_WQ - a_WAq - 2 w_WA x v_AQ. */
#include "multibody/algorithms/system_kinematics.h"

#include <string.h>

#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/momentum.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/tree/topology.h"

#define NV_MAX TEAL_JOINT_MAX_NV
#define NQ_MAX TEAL_JOINT_MAX_NQ

/* ---- validation ------------------------------------------------------------ */

/* Re-reports the failure of a call this function made, under fn's name. */
static int fail_inner(teal_mb_data *data, const char *fn, int st) {
  char msg[TEAL_ERROR_MESSAGE_MAX];
  memcpy(msg, data->err.message, sizeof msg);
  msg[sizeof msg - 1] = '\0';
  return teal_error_set(&data->err, st, "%s: %s", fn, msg);
}

/* Body poses, velocities (v != NULL) and accelerations (vdot != NULL; v
 * needed) into data's by-body arrays. */
static int kinematics(const teal_plant *plant, teal_mb_data *data, const char *fn, const double *q,
                      const double *v, const double *vdot) {
  int st = vdot ? teal_mb_body_accelerations(plant, q, v, vdot, data->X_WB, data->V_WB, data->A_WB)
           : v  ? teal_mb_body_velocities(plant, q, v, data->X_WB, data->V_WB)
                : teal_mb_body_poses(plant, q, data->X_WB);
  return st ? teal_error_set(&data->err, st, "%s: kinematics failed", fn) : TEAL_OK;
}

/* ---- geometry ---------------------------------------------------------------- */

/* X_WF of frame f from the body poses in data. */
static teal_transform frame_pose(const teal_mb_data *data, int f) {
  int b = teal_plant_frame_body(data->plant, f);
  return teal_transform_compose(data->X_WB[b], *teal_plant_frame_pose_in_body(data->plant, f));
}

/* S (6 x nv_k, row-major): node k's hinge columns in W, shifted from Mo to
 * the point at p_WQ (body poses in data). */
static void hinge_columns(const teal_mb_data *data, const teal_plant_tree *t, int k,
                          const double *q, teal_vec3 p_WQ, double *S) {
  double H[6 * NV_MAX];
  int nv = t->nv[k];
  const teal_transform *X_WP = &data->X_WB[data->body[t->parent[k]]];
  teal_rotation R_WF = teal_rotation_mul(X_WP->R, t->X_PF[k].R);
  teal_vec3 p_WMo = teal_transform_apply(data->X_WB[data->body[k]], t->X_BM[k].p);
  teal_vec3 p_MoQ = teal_vec3_sub(p_WQ, p_WMo);
  t->type[k]->H_FM(&t->params[k], q + t->q_start[k], H);
  for (int j = 0; j < nv; j++) {
    teal_spatial_vector h;
    for (int r = 0; r < 6; r++) {
      h.v[r] = H[r * nv + j];
    }
    h = teal_spatial_velocity_shift(teal_spatial_vector_reexpress(R_WF, h), p_MoQ);
    for (int r = 0; r < 6; r++) {
      S[r * nv + j] = h.v[r];
    }
  }
}

/* p_WBcm, v_WBcm and (with accelerations in data) a_WBcm of node k. */
static void body_com_motion(const teal_mb_data *data, int k, int need_v, int need_a, teal_vec3 *p,
                            teal_vec3 *v, teal_vec3 *a) {
  int b = data->body[k];
  teal_vec3 r = teal_rotation_apply(data->X_WB[b].R, data->M_BBo_B[k].p_PScm_E);
  *p = teal_vec3_add(data->X_WB[b].p, r);
  if (need_v) {
    *v = teal_spatial_vector_linear(teal_spatial_velocity_shift(data->V_WB[b], r));
  }
  if (need_a) {
    teal_vec3 w = teal_spatial_vector_angular(data->V_WB[b]);
    *a = teal_spatial_vector_linear(teal_spatial_acceleration_shift(data->A_WB[b], r, w));
  }
}

/* p_WScm, v_WScm and a_WScm of the selection of mass m (as needed). */
static void system_com_motion(const teal_mb_data *data, const teal_plant_tree *t, double m,
                              int need_v, int need_a, teal_vec3 *p, teal_vec3 *v, teal_vec3 *a) {
  teal_vec3 mp = teal_vec3_zero(), mv = teal_vec3_zero(), ma = teal_vec3_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    if (!data->selected[k]) {
      continue;
    }
    teal_vec3 pk, vk = teal_vec3_zero(), ak = teal_vec3_zero();
    double mk = data->M_BBo_B[k].mass;
    body_com_motion(data, k, need_v, need_a, &pk, &vk, &ak);
    mp = teal_vec3_add(mp, teal_vec3_scale(pk, mk));
    mv = teal_vec3_add(mv, teal_vec3_scale(vk, mk));
    ma = teal_vec3_add(ma, teal_vec3_scale(ak, mk));
  }
  *p = teal_vec3_scale(mp, 1.0 / m);
  *v = teal_vec3_scale(mv, 1.0 / m);
  *a = teal_vec3_scale(ma, 1.0 / m);
}

/* ---- public: points ------------------------------------------------------------ */

int teal_mb_calc_points_positions(const teal_plant *plant, teal_mb_data *data, const double *q,
                                  int frame_B, const teal_vec3 *p_BQi, int num_points, int frame_A,
                                  teal_vec3 *p_AQi) {
  static const char fn[] = "teal_mb_calc_points_positions";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t || (st = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0)) ||
      (st = teal_mb_data_check_frame(data, fn, "frame_B", frame_B)) ||
      (st = teal_mb_data_check_frame(data, fn, "frame_A", frame_A))) {
    return st;
  }
  if (num_points < 0) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: num_points = %d is negative", fn,
                          num_points);
  }
  if (num_points > 0 && (!p_BQi || !p_AQi)) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: NULL %s", fn, p_BQi ? "p_AQi" : "p_BQi");
  }
  for (int i = 0; i < num_points; i++) {
    if (!teal_vec3_is_finite(p_BQi[i])) {
      return teal_error_set(&data->err, TEAL_ENONFINITE, "%s: p_BQi[%d] is not finite", fn, i);
    }
  }
  if ((st = kinematics(plant, data, fn, q, NULL, NULL))) {
    return st;
  }
  teal_transform X_AB = teal_transform_compose(teal_transform_inverse(frame_pose(data, frame_A)),
                                               frame_pose(data, frame_B));
  for (int i = 0; i < num_points; i++) {
    p_AQi[i] = teal_transform_apply(X_AB, p_BQi[i]);
  }
  return TEAL_OK;
}

/* ---- public: mass matrix by inverse dynamics ------------------------------------- */

int teal_mb_calc_mass_matrix_via_inverse_dynamics(const teal_plant *plant, teal_mb_data *data,
                                                  const double *q, double *M) {
  static const char fn[] = "teal_mb_calc_mass_matrix_via_inverse_dynamics";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin_qv(plant, data, fn, q, NULL, 0, M, "M", &st);
  if (!t) {
    return st;
  }
  int nv = data->nv;
  double *e = data->bias; /* nv scratch: the unit acceleration */
  memset(e, 0, sizeof(double) * (size_t)nv);
  for (int i = 0; i < nv; i++) {
    /* RNEA with vdot = e_i, v = 0, no gravity: M e_i, written to row i */
    e[i] = 1.0;
    st = teal_mb_mass_matrix_times(plant, data, q, e, M + (size_t)i * (size_t)nv);
    e[i] = 0.0;
    if (st) {
      return fail_inner(data, fn, st);
    }
  }
  for (int i = 0; i < nv; i++) { /* rows of M e_i -> columns */
    for (int j = i + 1; j < nv; j++) {
      double x = M[i * nv + j];
      M[i * nv + j] = M[j * nv + i];
      M[j * nv + i] = x;
    }
  }
  return TEAL_OK;
}

/* ---- public: center-of-mass Jacobian and bias ------------------------------------ */

/* J (3 x nv in W) -= the translational Jacobian of the point of frame A's
 * body at p_WQ, measured in W: columns of the joints from A's node to the
 * root. */
static void subtract_frame_point(const teal_mb_data *data, const teal_plant_tree *t,
                                 const double *q, int frame_A, teal_vec3 p_WQ, double *J) {
  int nvt = data->nv;
  for (int k = teal_plant_body_node(data->plant, teal_plant_frame_body(data->plant, frame_A));
       k > 0; k = t->parent[k]) {
    double S[6 * NV_MAX];
    int nv = t->nv[k];
    hinge_columns(data, t, k, q, p_WQ, S);
    for (int r = 0; r < 3; r++) {
      for (int j = 0; j < nv; j++) {
        J[r * nvt + t->v_start[k] + j] -= S[(3 + r) * nv + j];
      }
    }
  }
}

/* Converts J (3 x nv, row-major) in place to J N+ (3 x nq): rows last to
 * first, each copied to data->bias first, so no input is overwritten before
 * it is read. */
static void to_qdot(const teal_mb_data *data, const teal_plant_tree *t, const double *q,
                    double *J) {
  int nvt = data->nv, nqt = data->nq;
  for (int r = 2; r >= 0; r--) {
    double *row = data->bias;
    memcpy(row, J + r * nvt, sizeof(double) * (size_t)nvt);
    memset(J + r * nqt, 0, sizeof(double) * (size_t)nqt);
    for (int k = 1; k < t->num_nodes; k++) {
      double Np[NV_MAX * NQ_MAX];
      int nv = t->nv[k], nq = t->nq[k];
      t->type[k]->Nplus(&t->params[k], q + t->q_start[k], Np);
      for (int c = 0; c < nq; c++) {
        double s = 0.0;
        for (int j = 0; j < nv; j++) {
          s += row[t->v_start[k] + j] * Np[j * nq + c];
        }
        J[r * nqt + t->q_start[k] + c] = s;
      }
    }
  }
}

/* The checks shared by the two center-of-mass functions. */
static int check_com_args(teal_mb_data *data, const char *fn, teal_jacobian_wrt wrt, int frame_A,
                          int frame_E) {
  if (wrt != TEAL_JACOBIAN_WRT_V && wrt != TEAL_JACOBIAN_WRT_QDOT) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: wrt = %d is neither V nor QDOT", fn,
                          (int)wrt);
  }
  int st = teal_mb_data_check_frame(data, fn, "frame_A", frame_A);
  return st ? st : teal_mb_data_check_frame(data, fn, "frame_E", frame_E);
}

int teal_mb_calc_jacobian_center_of_mass_translational_velocity(
    const teal_plant *plant, teal_mb_data *data, const double *q, const int *instances,
    int num_instances, teal_jacobian_wrt wrt, int frame_A, int frame_E, double *Js_v_ACcm_E) {
  static const char fn[] = "teal_mb_calc_jacobian_center_of_mass_translational_velocity";
  int st;
  double m;
  const teal_plant_tree *t =
      teal_mb_data_begin_qv(plant, data, fn, q, NULL, 0, Js_v_ACcm_E, "Js_v_ACcm_E", &st);
  if (!t || (st = check_com_args(data, fn, wrt, frame_A, frame_E)) ||
      (st = teal_mb_data_select_bodies(data, t, fn, instances, num_instances, &m))) {
    return st;
  }
  double *J = Js_v_ACcm_E;
  if ((st = teal_mb_center_of_mass_jacobian(plant, data, q, instances, num_instances, J))) {
    return fail_inner(data, fn, st);
  }
  if ((st = teal_mb_data_select_bodies(data, t, fn, instances, num_instances, &m)) ||
      (st = kinematics(plant, data, fn, q, NULL, NULL))) {
    return st;
  }
  teal_vec3 p_WC, unused_v, unused_a;
  system_com_motion(data, t, m, 0, 0, &p_WC, &unused_v, &unused_a);
  subtract_frame_point(data, t, q, frame_A, p_WC, J);
  teal_rotation R_WE = frame_pose(data, frame_E).R;
  for (int j = 0; j < data->nv; j++) {
    teal_vec3 c = teal_vec3_make(J[j], J[data->nv + j], J[2 * data->nv + j]);
    c = teal_rotation_apply_inverse(R_WE, c);
    for (int r = 0; r < 3; r++) {
      J[r * data->nv + j] = c.v[r];
    }
  }
  if (wrt == TEAL_JACOBIAN_WRT_QDOT) {
    to_qdot(data, t, q, J);
  }
  return TEAL_OK;
}

int teal_mb_calc_bias_center_of_mass_translational_acceleration(
    const teal_plant *plant, teal_mb_data *data, const double *q, const double *v,
    const int *instances, int num_instances, teal_jacobian_wrt wrt, int frame_A, int frame_E,
    teal_vec3 *abias_ACcm_E) {
  static const char fn[] = "teal_mb_calc_bias_center_of_mass_translational_acceleration";
  int st;
  double m;
  const teal_plant_tree *t =
      teal_mb_data_begin_qv(plant, data, fn, q, v, 1, abias_ACcm_E, "abias_ACcm_E", &st);
  if (!t || (st = check_com_args(data, fn, wrt, frame_A, frame_E)) ||
      (st = teal_mb_data_select_bodies(data, t, fn, instances, num_instances, &m))) {
    return st;
  }
  if (wrt != TEAL_JACOBIAN_WRT_V) {
    return teal_error_set(&data->err, TEAL_EINVAL,
                          "%s: wrt must be TEAL_JACOBIAN_WRT_V (the bias with respect to qdot is "
                          "not offered, as in Drake)",
                          fn);
  }
  memset(data->bias, 0, sizeof(double) * (size_t)data->nv); /* vdot = 0 */
  if ((st = kinematics(plant, data, fn, q, v, data->bias))) {
    return st;
  }
  teal_vec3 p_WC, v_WC, a_WC;
  system_com_motion(data, t, m, 1, 1, &p_WC, &v_WC, &a_WC);
  int bA = teal_plant_frame_body(plant, frame_A);
  teal_vec3 r = teal_vec3_sub(p_WC, data->X_WB[bA].p);
  teal_vec3 w_WA = teal_spatial_vector_angular(data->V_WB[bA]);
  teal_vec3 v_WAq = teal_spatial_vector_linear(teal_spatial_velocity_shift(data->V_WB[bA], r));
  teal_vec3 a_WAq =
      teal_spatial_vector_linear(teal_spatial_acceleration_shift(data->A_WB[bA], r, w_WA));
  teal_vec3 v_AC = teal_vec3_sub(v_WC, v_WAq);
  teal_vec3 a_AC =
      teal_vec3_sub(teal_vec3_sub(a_WC, a_WAq), teal_vec3_scale(teal_vec3_cross(w_WA, v_AC), 2.0));
  *abias_ACcm_E = teal_rotation_apply_inverse(frame_pose(data, frame_E).R, a_AC);
  return TEAL_OK;
}

/* ---- public: system mass properties ------------------------------------------------ */

/* M_SWo_W of the selection (checked, poses in data). */
static teal_spatial_inertia system_inertia(const teal_mb_data *data, const teal_plant_tree *t) {
  teal_spatial_inertia sum = teal_spatial_inertia_make(0.0, teal_vec3_zero(), teal_mat3_zero());
  for (int k = 1; k < t->num_nodes; k++) {
    if (!data->selected[k]) {
      continue;
    }
    const teal_transform *X_WB = &data->X_WB[data->body[k]];
    teal_spatial_inertia M_Bo_W = teal_spatial_inertia_reexpress(&data->M_BBo_B[k], X_WB->R);
    teal_spatial_inertia M_Wo_W = teal_spatial_inertia_shift(&M_Bo_W, teal_vec3_neg(X_WB->p));
    sum = teal_spatial_inertia_add(&sum, &M_Wo_W);
  }
  return sum;
}

/* The front of the two inertia functions: M_SWo_W into *M. */
static int inertia_front(const teal_plant *plant, teal_mb_data *data, const char *fn,
                         const double *q, const int *instances, int n, const void *out,
                         const char *out_name, teal_spatial_inertia *M) {
  int st;
  double m;
  const teal_plant_tree *t = teal_mb_data_begin_qv(plant, data, fn, q, NULL, 0, out, out_name, &st);
  if (!t || (st = teal_mb_data_select_bodies(data, t, fn, instances, n, &m)) ||
      (st = kinematics(plant, data, fn, q, NULL, NULL))) {
    return st;
  }
  *M = system_inertia(data, t);
  return TEAL_OK;
}

int teal_mb_calc_system_mass_properties_in_ground(const teal_plant *plant, teal_mb_data *data,
                                                  const double *q, const int *instances,
                                                  int num_instances,
                                                  teal_spatial_inertia *M_SWo_W) {
  teal_spatial_inertia M;
  int st = inertia_front(plant, data, "teal_mb_calc_system_mass_properties_in_ground", q, instances,
                         num_instances, M_SWo_W, "M_SWo_W", &M);
  if (st == TEAL_OK) {
    *M_SWo_W = M;
  }
  return st;
}

int teal_mb_calc_system_central_inertia_in_ground(const teal_plant *plant, teal_mb_data *data,
                                                  const double *q, const int *instances,
                                                  int num_instances, teal_mat3 *I_SScm_W) {
  teal_spatial_inertia M;
  int st = inertia_front(plant, data, "teal_mb_calc_system_central_inertia_in_ground", q, instances,
                         num_instances, I_SScm_W, "I_SScm_W", &M);
  if (st == TEAL_OK) {
    *I_SScm_W = teal_spatial_inertia_central(&M);
  }
  return st;
}

int teal_mb_calc_system_mass_center_acceleration_in_ground(const teal_plant *plant,
                                                           teal_mb_data *data, const double *q,
                                                           const double *v, const double *vdot,
                                                           const int *instances, int num_instances,
                                                           teal_vec3 *a_WScm) {
  static const char fn[] = "teal_mb_calc_system_mass_center_acceleration_in_ground";
  int st;
  double m;
  const teal_plant_tree *t = teal_mb_data_begin_qv(plant, data, fn, q, v, 1, a_WScm, "a_WScm", &st);
  if (!t || (st = teal_mb_data_check_array(data, fn, "vdot", vdot, data->nv, 0)) ||
      (st = teal_mb_data_select_bodies(data, t, fn, instances, num_instances, &m)) ||
      (st = kinematics(plant, data, fn, q, v, vdot))) {
    return st;
  }
  teal_vec3 p, vc;
  system_com_motion(data, t, m, 1, 1, &p, &vc, a_WScm);
  return TEAL_OK;
}

/* ---- public: system Jacobian and its bias ----------------------------------------- */

int teal_mb_calc_system_jacobian(const teal_plant *plant, teal_mb_data *data, const double *q,
                                 double *J_G) {
  static const char fn[] = "teal_mb_calc_system_jacobian";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin_qv(plant, data, fn, q, NULL, 0, J_G, "J_G", &st);
  if (!t || (st = kinematics(plant, data, fn, q, NULL, NULL))) {
    return st;
  }
  int nvt = data->nv;
  memset(J_G, 0, sizeof(double) * 6 * (size_t)data->nb * (size_t)nvt);
  for (int kb = 1; kb < t->num_nodes; kb++) {
    int b = data->body[kb];
    double *rows = J_G + (size_t)6 * (size_t)b * (size_t)nvt;
    for (int k = kb; k > 0; k = t->parent[k]) {
      double S[6 * NV_MAX];
      int nv = t->nv[k];
      hinge_columns(data, t, k, q, data->X_WB[b].p, S);
      for (int r = 0; r < 6; r++) {
        memcpy(rows + r * nvt + t->v_start[k], S + r * nv, sizeof(double) * (size_t)nv);
      }
    }
  }
  return TEAL_OK;
}

int teal_mb_calc_bias_for_system_jacobian(const teal_plant *plant, teal_mb_data *data,
                                          const double *q, const double *v,
                                          teal_spatial_vector *JDotu) {
  static const char fn[] = "teal_mb_calc_bias_for_system_jacobian";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin_qv(plant, data, fn, q, v, 1, JDotu, "JDotu", &st);
  if (!t) {
    return st;
  }
  memset(data->bias, 0, sizeof(double) * (size_t)data->nv); /* vdot = 0 */
  if ((st = kinematics(plant, data, fn, q, v, data->bias))) {
    return st;
  }
  memcpy(JDotu, data->A_WB, sizeof(teal_spatial_vector) * (size_t)data->nb);
  return TEAL_OK;
}
