/* O(n) task-space and kinematic operators that never form J, N or M (see
 * operators.h). The task operators reuse the body kinematics (kinematics.h)
 * and teal_mb_jacobian_apply_transpose (jacobians.h); the kinematic maps
 * apply the joint tables' N and N+ block by block. */
#include "multibody/algorithms/operators.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "math/quaternion.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/tree/joints.h"

/* ---- argument checks ---------------------------------------------------------------- */

/* Every quaternion in q must be normalizable (as the position stage
 * requires). */
static int check_quaternions(teal_mb_data *data, const char *fn, const teal_plant_tree *t,
                             const double *q) {
  for (int k = 1; k < t->num_nodes; k++) {
    if (!t->type[k]->normalize) {
      continue;
    }
    const double *e = q + t->q_start[k];
    if (!teal_quaternion_is_normalizable(e)) {
      return teal_error_set(
          &data->err, TEAL_EINVAL,
          "%s: the quaternion q[%d..%d] of joint \"%s\" is zero or cannot be normalized", fn,
          t->q_start[k], t->q_start[k] + 3, teal_plant_joint_name(data->plant, data->joint[k]));
    }
  }
  return TEAL_OK;
}

/* nt 3-vectors x (named name) must be finite. */
static int check_vec3s(teal_mb_data *data, const char *fn, const char *name, const teal_vec3 *x,
                       int nt) {
  for (int i = 0; i < nt; i++) {
    for (int c = 0; c < 3; c++) {
      if (!isfinite(x[i].v[c])) {
        return teal_error_set(&data->err, TEAL_ENONFINITE,
                              "%s: %s[%d] component %d is not finite (%g)", fn, name, i, c,
                              x[i].v[c]);
      }
    }
  }
  return TEAL_OK;
}

/* nt spatial vectors F (named name) must be finite. */
static int check_spatials(teal_mb_data *data, const char *fn, const char *name,
                          const teal_spatial_vector *F, int nt) {
  for (int i = 0; i < nt; i++) {
    for (int c = 0; c < 6; c++) {
      if (!isfinite(F[i].v[c])) {
        return teal_error_set(&data->err, TEAL_ENONFINITE,
                              "%s: %s[%d] component %d is not finite (%g)", fn, name, i, c,
                              F[i].v[c]);
      }
    }
  }
  return TEAL_OK;
}

/* The task list: nt >= 0, bodies in range, finite points p_B (named pname). */
static int check_tasks(teal_mb_data *data, const char *fn, int nt, const int *bodies,
                       const teal_vec3 *p_B, const char *pname) {
  if (nt < 0) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: nt is negative (%d)", fn, nt);
  }
  if (nt > 0 && (!bodies || !p_B)) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: NULL %s", fn, bodies ? pname : "bodies");
  }
  for (int i = 0; i < nt; i++) {
    if (bodies[i] < 0 || bodies[i] >= data->nb) {
      return teal_error_set(&data->err, TEAL_EINVAL,
                            "%s: bodies[%d] = %d is not a body index (the plant has %d bodies)", fn,
                            i, bodies[i], data->nb);
    }
  }
  return check_vec3s(data, fn, pname, p_B, nt);
}

/* The front of every task operator: plant, data, q and the task list. */
static const teal_plant_tree *begin_tasks(const teal_plant *plant, teal_mb_data *data,
                                          const char *fn, const double *q, int nt,
                                          const int *bodies, const teal_vec3 *p_B,
                                          const char *pname, int *st) {
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, st);
  if (!t || (*st = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0)) ||
      (*st = check_quaternions(data, fn, t, q)) ||
      (*st = check_tasks(data, fn, nt, bodies, p_B, pname))) {
    return NULL;
  }
  return t;
}

/* Replaces the error of a call made on data's behalf by one that names fn. */
static int blame(teal_mb_data *data, const char *fn, int st) {
  char inner[TEAL_ERROR_MESSAGE_MAX];
  snprintf(inner, sizeof inner, "%s", data->err.message);
  return teal_error_set(&data->err, st, "%s: %s", fn, inner[0] ? inner : teal_strerror(st));
}

/* ---- J u and J' F for station and frame tasks --------------------------------------- */

/* Checks u and out, then V_WB (in data) for u: the common part of J u. */
static int task_velocities(const teal_plant *plant, teal_mb_data *data, const char *fn,
                           const double *q, int nt, const int *bodies, const teal_vec3 *p_B,
                           const char *pname, const double *u, const void *out,
                           const char *out_name) {
  int st;
  if (!begin_tasks(plant, data, fn, q, nt, bodies, p_B, pname, &st)) {
    return st;
  }
  if ((st = teal_mb_data_check_array(data, fn, "u", u, data->nv, 0)) ||
      (nt > 0 && (st = teal_mb_data_check_out(data, fn, out_name, out)))) {
    return st;
  }
  if ((st = teal_mb_body_velocities(plant, q, u, data->X_WB, data->V_WB))) {
    return teal_error_set(&data->err, st, "%s: kinematics failed (%s)", fn, teal_strerror(st));
  }
  return TEAL_OK;
}

/* The spatial velocity of the frame fixed on body b with origin p_BAo. */
static teal_spatial_vector task_velocity(const teal_mb_data *data, int b, teal_vec3 p_BAo) {
  teal_vec3 r = teal_rotation_apply(data->X_WB[b].R, p_BAo);
  teal_spatial_vector V = data->V_WB[b];
  teal_vec3 w = teal_spatial_vector_angular(V);
  teal_vec3 v = teal_vec3_add(teal_spatial_vector_linear(V), teal_vec3_cross(w, r));
  return teal_spatial_vector_make(w, v);
}

int teal_mb_multiply_by_station_jacobian(const teal_plant *plant, teal_mb_data *data,
                                         const double *q, int nt, const int *bodies,
                                         const teal_vec3 *p_BP, const double *u, teal_vec3 *v_WP) {
  int st = task_velocities(plant, data, "teal_mb_multiply_by_station_jacobian", q, nt, bodies, p_BP,
                           "p_BP", u, v_WP, "v_WP");
  for (int i = 0; st == TEAL_OK && i < nt; i++) {
    v_WP[i] = teal_spatial_vector_linear(task_velocity(data, bodies[i], p_BP[i]));
  }
  return st;
}

int teal_mb_multiply_by_frame_jacobian(const teal_plant *plant, teal_mb_data *data, const double *q,
                                       int nt, const int *bodies, const teal_vec3 *p_BAo,
                                       const double *u, teal_spatial_vector *V_WA) {
  int st = task_velocities(plant, data, "teal_mb_multiply_by_frame_jacobian", q, nt, bodies, p_BAo,
                           "p_BAo", u, V_WA, "V_WA");
  for (int i = 0; st == TEAL_OK && i < nt; i++) {
    V_WA[i] = task_velocity(data, bodies[i], p_BAo[i]);
  }
  return st;
}

/* J' F for nt tasks: the forces f (station tasks) or the spatial forces F
 * (frame tasks) at the points p_B are moved to the body origins in
 * data->F_Bo_W, then one inward pass. */
static int tasks_transpose(const teal_plant *plant, teal_mb_data *data, const char *fn,
                           const double *q, int nt, const int *bodies, const teal_vec3 *p_B,
                           const char *pname, int station, const teal_vec3 *f,
                           const teal_spatial_vector *F, const char *fname, double *tau) {
  int st;
  if (!begin_tasks(plant, data, fn, q, nt, bodies, p_B, pname, &st)) {
    return st;
  }
  const void *forces = station ? (const void *)f : (const void *)F;
  if ((st = teal_mb_data_check_out(data, fn, "tau", tau)) ||
      (nt > 0 && (st = teal_mb_data_check_out(data, fn, fname, forces)))) {
    return st;
  }
  st = station ? check_vec3s(data, fn, fname, f, nt) : check_spatials(data, fn, fname, F, nt);
  if (st) {
    return st;
  }
  if ((st = teal_mb_body_poses(plant, q, data->X_WB))) {
    return teal_error_set(&data->err, st, "%s: kinematics failed (%s)", fn, teal_strerror(st));
  }
  for (int b = 0; b < data->nb; b++) {
    data->F_Bo_W[b] = teal_spatial_vector_zero();
  }
  for (int i = 0; i < nt; i++) {
    int b = bodies[i];
    teal_vec3 r = teal_rotation_apply(data->X_WB[b].R, p_B[i]);
    teal_vec3 force = station ? f[i] : teal_spatial_vector_linear(F[i]);
    teal_vec3 moment = station ? teal_vec3_zero() : teal_spatial_vector_angular(F[i]);
    moment = teal_vec3_add(moment, teal_vec3_cross(r, force));
    data->F_Bo_W[b] =
        teal_spatial_vector_add(data->F_Bo_W[b], teal_spatial_vector_make(moment, force));
  }
  if ((st = teal_mb_jacobian_apply_transpose(plant, data, q, data->F_Bo_W, tau))) {
    return blame(data, fn, st);
  }
  return TEAL_OK;
}

int teal_mb_multiply_by_station_jacobian_transpose(const teal_plant *plant, teal_mb_data *data,
                                                   const double *q, int nt, const int *bodies,
                                                   const teal_vec3 *p_BP, const teal_vec3 *f_WP,
                                                   double *tau) {
  return tasks_transpose(plant, data, "teal_mb_multiply_by_station_jacobian_transpose", q, nt,
                         bodies, p_BP, "p_BP", 1, f_WP, NULL, "f_WP", tau);
}

int teal_mb_multiply_by_frame_jacobian_transpose(const teal_plant *plant, teal_mb_data *data,
                                                 const double *q, int nt, const int *bodies,
                                                 const teal_vec3 *p_BAo,
                                                 const teal_spatial_vector *F_WAo, double *tau) {
  return tasks_transpose(plant, data, "teal_mb_multiply_by_frame_jacobian_transpose", q, nt, bodies,
                         p_BAo, "p_BAo", 0, NULL, F_WAo, "F_WAo", tau);
}

/* ---- M^-1 ---------------------------------------------------------------------------- */

int teal_mb_mass_matrix_inverse(const teal_plant *plant, teal_mb_data *data, const double *q,
                                double *Minv) {
  static const char fn[] = "teal_mb_mass_matrix_inverse";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin_qv(plant, data, fn, q, NULL, 0, Minv, "Minv", &st);
  if (!t || (st = check_quaternions(data, fn, t, q))) {
    return st;
  }
  if ((st = teal_mb_articulated_factor(plant, data, q))) {
    return blame(data, fn, st);
  }
  const int n = data->nv;
  for (int j = 0; j < n; j++) {
    double *row = Minv + (size_t)j * (size_t)n;
    memset(row, 0, (size_t)n * sizeof(double));
    row[j] = 1.0;
    /* row j of M^-1 is column j, M^-1 being symmetric */
    if ((st = teal_mb_articulated_solve(plant, data, row, NULL, row))) {
      return blame(data, fn, st);
    }
  }
  for (int i = 0; i < n; i++) {
    for (int j = i + 1; j < n; j++) {
      double s = 0.5 * (Minv[i * n + j] + Minv[j * n + i]);
      Minv[i * n + j] = s;
      Minv[j * n + i] = s;
    }
  }
  return TEAL_OK;
}

/* ---- N, N+, Ndot and qddot ------------------------------------------------------------ */

/* The front of the kinematic maps: q (and v when need_v), in (n_in values)
 * and out. */
static const teal_plant_tree *begin_map(const teal_plant *plant, teal_mb_data *data, const char *fn,
                                        const double *q, const double *v, int need_v,
                                        const double *in, const char *in_name, int n_in,
                                        const void *out, const char *out_name, int *st) {
  const teal_plant_tree *t =
      teal_mb_data_begin_qv(plant, data, fn, q, v, need_v, out, out_name, st);
  if (!t || (*st = check_quaternions(data, fn, t, q)) ||
      (*st = teal_mb_data_check_array(data, fn, in_name, in, n_in, 0))) {
    return NULL;
  }
  return t;
}

/* N(q) must exist for every joint (a roll-pitch-yaw joint at its gimbal
 * lock has none): the maps through N refuse such a q instead of returning
 * Inf. */
static int check_n_exists(teal_mb_data *data, const char *fn, const teal_plant_tree *t,
                          const double *q) {
  for (int k = 1; k < t->num_nodes; k++) {
    const teal_joint_type *type = t->type[k];
    if (type->check_N && type->check_N(q + t->q_start[k]) != TEAL_OK) {
      return teal_error_set(&data->err, TEAL_ESINGULAR,
                            "%s: joint \"%s\" (%s) is at its coordinate singularity (pitch "
                            "q[%d] = %g, |cos| < %g): N(q) does not exist there",
                            fn, teal_plant_joint_name(data->plant, data->joint[k]), type->name,
                            t->q_start[k] + 1, q[t->q_start[k] + 1], TEAL_JOINT_RPY_MIN_COS_PITCH);
    }
  }
  return TEAL_OK;
}

/* begin_map for the maps through N (N, Ndot, qddot). */
static const teal_plant_tree *begin_n_map(const teal_plant *plant, teal_mb_data *data,
                                          const char *fn, const double *q, const double *v,
                                          int need_v, const double *in, const char *in_name,
                                          int n_in, const void *out, const char *out_name,
                                          int *st) {
  const teal_plant_tree *t =
      begin_map(plant, data, fn, q, v, need_v, in, in_name, n_in, out, out_name, st);
  if (t && (*st = check_n_exists(data, fn, t, q))) {
    return NULL;
  }
  return t;
}

/* y = A x (A rows x cols, row-major), or y = A' x with transpose. */
static void block_apply(const double *A, int rows, int cols, int transpose, const double *x,
                        double *y) {
  for (int i = 0; i < (transpose ? cols : rows); i++) {
    double acc = 0.0;
    for (int j = 0; j < (transpose ? rows : cols); j++) {
      acc += (transpose ? A[j * cols + i] : A[i * cols + j]) * x[j];
    }
    y[i] = acc;
  }
}

/* Node k's Ndot block (nq x nv, row-major) at (q, v): the table's, zero for
 * types whose N is constant. */
static void ndot_block(const teal_plant_tree *t, int k, const double *q, const double *v,
                       double *A) {
  int nq = t->nq[k], nv = t->nv[k];
  memset(A, 0, (size_t)(nq * nv) * sizeof(double));
  if (t->type[k]->Ndot) {
    t->type[k]->Ndot(&t->params[k], q + t->q_start[k], v + t->v_start[k], A);
  }
}

/* Which block a map applies: N (nq x nv), N+ (nv x nq) or Ndot (nq x nv). */
enum { MAP_N, MAP_NPLUS, MAP_NDOT };

/* out = B in or B' in for the block-diagonal map B of kind which. */
static void apply_map(const teal_plant_tree *t, int which, const double *q, const double *v,
                      int transpose, const double *in, double *out) {
  double A[TEAL_JOINT_MAX_NQ * TEAL_JOINT_MAX_NV];
  for (int k = 1; k < t->num_nodes; k++) {
    int nq = t->nq[k], nv = t->nv[k], qs = t->q_start[k], vs = t->v_start[k];
    if (!nv) {
      continue;
    }
    /* rows of the block are q-like unless it is N+ */
    int q_rows = which != MAP_NPLUS;
    if (which == MAP_N) {
      t->type[k]->N(&t->params[k], q + qs, A);
    } else if (which == MAP_NPLUS) {
      t->type[k]->Nplus(&t->params[k], q + qs, A);
    } else {
      ndot_block(t, k, q, v, A);
    }
    int rows = q_rows ? nq : nv, cols = q_rows ? nv : nq;
    int in_q = q_rows == (transpose != 0); /* in is q-like */
    block_apply(A, rows, cols, transpose, in + (in_q ? qs : vs), out + (in_q ? vs : qs));
  }
}

/* The length of in: nv for a map whose columns are v-like (N, Ndot;
 * v_cols), nq for N+, swapped by transpose (0 for a NULL data, which
 * begin_map rejects). */
static int n_in(const teal_mb_data *data, int transpose, int v_cols) {
  return !data ? 0 : (v_cols != (transpose != 0)) ? data->nv : data->nq;
}

int teal_mb_multiply_by_n(const teal_plant *plant, teal_mb_data *data, const double *q,
                          int transpose, const double *in, double *out) {
  int st;
  const teal_plant_tree *t = begin_n_map(plant, data, "teal_mb_multiply_by_n", q, NULL, 0, in, "in",
                                         n_in(data, transpose, 1), out, "out", &st);
  if (t) {
    apply_map(t, MAP_N, q, NULL, transpose, in, out);
  }
  return t ? TEAL_OK : st;
}

int teal_mb_multiply_by_n_inv(const teal_plant *plant, teal_mb_data *data, const double *q,
                              int transpose, const double *in, double *out) {
  int st;
  const teal_plant_tree *t = begin_map(plant, data, "teal_mb_multiply_by_n_inv", q, NULL, 0, in,
                                       "in", n_in(data, transpose, 0), out, "out", &st);
  if (t) {
    apply_map(t, MAP_NPLUS, q, NULL, transpose, in, out);
  }
  return t ? TEAL_OK : st;
}

int teal_mb_multiply_by_n_dot(const teal_plant *plant, teal_mb_data *data, const double *q,
                              const double *v, int transpose, const double *in, double *out) {
  int st;
  const teal_plant_tree *t = begin_n_map(plant, data, "teal_mb_multiply_by_n_dot", q, v, 1, in,
                                         "in", n_in(data, transpose, 1), out, "out", &st);
  if (t) {
    apply_map(t, MAP_NDOT, q, v, transpose, in, out);
  }
  return t ? TEAL_OK : st;
}

int teal_mb_calc_qddot(const teal_plant *plant, teal_mb_data *data, const double *q,
                       const double *v, const double *vdot, double *qddot) {
  int st;
  const teal_plant_tree *t = begin_n_map(plant, data, "teal_mb_calc_qddot", q, v, 1, vdot, "vdot",
                                         n_in(data, 0, 1), qddot, "qddot", &st);
  if (!t) {
    return st;
  }
  double A[TEAL_JOINT_MAX_NQ * TEAL_JOINT_MAX_NV], y[TEAL_JOINT_MAX_NQ];
  for (int k = 1; k < t->num_nodes; k++) {
    int nq = t->nq[k], nv = t->nv[k], qs = t->q_start[k], vs = t->v_start[k];
    if (!nv) {
      continue;
    }
    teal_joint_qdot(t->type[k], &t->params[k], q + qs, vdot + vs, qddot + qs);
    ndot_block(t, k, q, v, A);
    block_apply(A, nq, nv, 0, v + vs, y);
    for (int i = 0; i < nq; i++) {
      qddot[qs + i] += y[i];
    }
  }
  return TEAL_OK;
}
