/* Center of mass, its Jacobian, spatial momentum and power (see momentum.h).
 *
 * Per body, with M_BBo_B = {m, p_BoBcm_B, I} from the data and X_WB, V_WB
 * from the kinematics: p_WBcm = X_WB p_BoBcm_B, v_WBcm = v_WBo + w_WB x
 * p_BoBcm_W, and the spatial momentum about Bo is M_Bo_W V_WB, shifted to P
 * like a force. */
#include "multibody/algorithms/momentum.h"

#include <math.h>
#include <string.h>

#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/tree/topology.h"

#define NV_MAX TEAL_JOINT_MAX_NV

/* ---- validation ------------------------------------------------------------ */

/* Poses (and, if need_v, velocities) of every body into data. */
static int kinematics(const teal_plant *plant, teal_mb_data *data, const char *fn, const double *q,
                      const double *v, int need_v) {
  int st = need_v ? teal_mb_body_velocities(plant, q, v, data->X_WB, data->V_WB)
                  : teal_mb_body_poses(plant, q, data->X_WB);
  return st ? teal_error_set(&data->err, st, "%s: kinematics failed", fn) : TEAL_OK;
}

/* The front of the functions that take a selection: checks, selection
 * (total mass in *mass) and kinematics. */
static const teal_plant_tree *begin_selection(const teal_plant *plant, teal_mb_data *data,
                                              const char *fn, const double *q, const double *v,
                                              int need_v, const int *instances, int n,
                                              const void *out, const char *out_name, double *mass,
                                              int *status) {
  const teal_plant_tree *t =
      teal_mb_data_begin_qv(plant, data, fn, q, v, need_v, out, out_name, status);
  if (!t || (*status = teal_mb_data_select_bodies(data, t, fn, instances, n, mass)) ||
      (*status = kinematics(plant, data, fn, q, v, need_v))) {
    return NULL;
  }
  return t;
}

/* ---- per-body pieces -------------------------------------------------------- */

/* p_BoBcm_W of node k. */
static teal_vec3 com_offset(const teal_mb_data *data, int k) {
  return teal_rotation_apply(data->X_WB[data->body[k]].R, data->M_BBo_B[k].p_PScm_E);
}

/* v_WBcm of node k (velocities in data). */
static teal_vec3 com_velocity(const teal_mb_data *data, int k) {
  teal_spatial_vector V = data->V_WB[data->body[k]];
  return teal_vec3_add(teal_spatial_vector_linear(V),
                       teal_vec3_cross(teal_spatial_vector_angular(V), com_offset(data, k)));
}

/* ---- public: mass and center of mass --------------------------------------- */

int teal_mb_total_mass(const teal_plant *plant, teal_mb_data *data, const int *instances,
                       int num_instances, double *mass) {
  static const char fn[] = "teal_mb_total_mass";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t || (st = teal_mb_data_check_out(data, fn, "mass", mass))) {
    return st;
  }
  return teal_mb_data_select_bodies(data, t, fn, instances, num_instances, mass);
}

int teal_mb_center_of_mass_position(const teal_plant *plant, teal_mb_data *data, const double *q,
                                    const int *instances, int num_instances, teal_vec3 *p_WScm) {
  static const char fn[] = "teal_mb_center_of_mass_position";
  int st;
  double m;
  const teal_plant_tree *t = begin_selection(plant, data, fn, q, NULL, 0, instances, num_instances,
                                             p_WScm, "p_WScm", &m, &st);
  if (!t) {
    return st;
  }
  teal_vec3 mp = teal_vec3_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    if (data->selected[k]) {
      teal_vec3 p = teal_vec3_add(data->X_WB[data->body[k]].p, com_offset(data, k));
      mp = teal_vec3_add(mp, teal_vec3_scale(p, data->M_BBo_B[k].mass));
    }
  }
  *p_WScm = teal_vec3_scale(mp, 1.0 / m);
  return TEAL_OK;
}

int teal_mb_center_of_mass_velocity(const teal_plant *plant, teal_mb_data *data, const double *q,
                                    const double *v, const int *instances, int num_instances,
                                    teal_vec3 *v_WScm) {
  static const char fn[] = "teal_mb_center_of_mass_velocity";
  int st;
  double m;
  const teal_plant_tree *t = begin_selection(plant, data, fn, q, v, 1, instances, num_instances,
                                             v_WScm, "v_WScm", &m, &st);
  if (!t) {
    return st;
  }
  teal_vec3 mv = teal_vec3_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    if (data->selected[k]) {
      mv = teal_vec3_add(mv, teal_vec3_scale(com_velocity(data, k), data->M_BBo_B[k].mass));
    }
  }
  *v_WScm = teal_vec3_scale(mv, 1.0 / m);
  return TEAL_OK;
}

/* ---- center-of-mass Jacobian ------------------------------------------------ */

/* m_sub and mp_sub of every node: the selected mass and first moment of its
 * subtree, accumulated inward. */
static void subtree_moments(teal_mb_data *data, const teal_plant_tree *t) {
  for (int k = 0; k < t->num_nodes; k++) {
    double m = data->selected[k] ? data->M_BBo_B[k].mass : 0.0;
    teal_vec3 p =
        k ? teal_vec3_add(data->X_WB[data->body[k]].p, com_offset(data, k)) : teal_vec3_zero();
    data->m_sub[k] = m;
    data->mp_sub[k] = teal_vec3_scale(p, m);
  }
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    int pk = t->parent[k];
    data->m_sub[pk] += data->m_sub[k];
    data->mp_sub[pk] = teal_vec3_add(data->mp_sub[pk], data->mp_sub[k]);
  }
}

/* Node k's columns: a hinge column [w; v_Mo] (in W, at Mo) moves the subtree
 * rigidly, so the selected first moment changes at m_sub v_Mo + w x (mp_sub -
 * m_sub p_WMo); divided by the total mass m. */
static void com_columns(const teal_mb_data *data, const teal_plant_tree *t, int k, const double *q,
                        double m, double *J) {
  int nv = t->nv[k], nvt = data->nv;
  const teal_transform *X_WP = &data->X_WB[data->body[t->parent[k]]];
  teal_rotation R_WF = teal_rotation_mul(X_WP->R, t->X_PF[k].R);
  teal_vec3 p_WMo = teal_transform_apply(data->X_WB[data->body[k]], t->X_BM[k].p);
  teal_vec3 moment = teal_vec3_sub(data->mp_sub[k], teal_vec3_scale(p_WMo, data->m_sub[k]));
  double H[6 * NV_MAX];
  t->type[k]->H_FM(&t->params[k], q + t->q_start[k], H);
  for (int j = 0; j < nv; j++) {
    teal_vec3 w = teal_rotation_apply(R_WF, teal_vec3_make(H[j], H[nv + j], H[2 * nv + j]));
    teal_vec3 v =
        teal_rotation_apply(R_WF, teal_vec3_make(H[3 * nv + j], H[4 * nv + j], H[5 * nv + j]));
    teal_vec3 c = teal_vec3_add(teal_vec3_scale(v, data->m_sub[k]), teal_vec3_cross(w, moment));
    for (int r = 0; r < 3; r++) {
      J[r * nvt + t->v_start[k] + j] = c.v[r] / m;
    }
  }
}

int teal_mb_center_of_mass_jacobian(const teal_plant *plant, teal_mb_data *data, const double *q,
                                    const int *instances, int num_instances, double *Jv_v_WScm) {
  static const char fn[] = "teal_mb_center_of_mass_jacobian";
  int st;
  double m;
  const teal_plant_tree *t = begin_selection(plant, data, fn, q, NULL, 0, instances, num_instances,
                                             Jv_v_WScm, "Jv_v_WScm", &m, &st);
  if (!t) {
    return st;
  }
  subtree_moments(data, t);
  memset(Jv_v_WScm, 0, sizeof(double) * 3 * (size_t)data->nv);
  for (int k = 1; k < t->num_nodes; k++) {
    com_columns(data, t, k, q, m, Jv_v_WScm);
  }
  return TEAL_OK;
}

/* ---- momentum and power ------------------------------------------------------- */

int teal_mb_spatial_momentum(const teal_plant *plant, teal_mb_data *data, const double *q,
                             const double *v, const int *instances, int num_instances,
                             teal_vec3 p_WoP_W, teal_spatial_vector *L_WSP_W) {
  static const char fn[] = "teal_mb_spatial_momentum";
  int st;
  double m;
  const teal_plant_tree *t = begin_selection(plant, data, fn, q, v, 1, instances, num_instances,
                                             L_WSP_W, "L_WSP_W", &m, &st);
  if (!t) {
    return st;
  }
  if (!teal_vec3_is_finite(p_WoP_W)) {
    return teal_error_set(&data->err, TEAL_ENONFINITE, "%s: p_WoP_W is not finite", fn);
  }
  teal_spatial_vector L = teal_spatial_vector_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    if (!data->selected[k]) {
      continue;
    }
    const teal_transform *X_WB = &data->X_WB[data->body[k]];
    teal_spatial_inertia M_Bo_W = teal_spatial_inertia_reexpress(&data->M_BBo_B[k], X_WB->R);
    teal_spatial_vector L_Bo = teal_spatial_inertia_apply(&M_Bo_W, data->V_WB[data->body[k]]);
    L = teal_spatial_vector_add(L, teal_spatial_force_shift(L_Bo, teal_vec3_sub(p_WoP_W, X_WB->p)));
  }
  *L_WSP_W = L;
  return TEAL_OK;
}

int teal_mb_conservative_power(const teal_plant *plant, teal_mb_data *data, const double *q,
                               const double *v, double *power) {
  static const char fn[] = "teal_mb_conservative_power";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin_qv(plant, data, fn, q, v, 1, power, "power", &st);
  if (!t || (st = kinematics(plant, data, fn, q, v, 1))) {
    return st;
  }
  teal_vec3 g = teal_mb_data_g(data); /* the data's (a context's) gravity, as the energy's */
  double p = 0.0;
  for (int k = 1; k < t->num_nodes; k++) {
    p += data->M_BBo_B[k].mass * teal_vec3_dot(g, com_velocity(data, k));
  }
  *power = p;
  return TEAL_OK;
}

/* Every F_Bo_W entry but the world's must be finite (NULL allowed). */
static int check_forces(teal_mb_data *data, const char *fn, const teal_spatial_vector *F) {
  for (int b = 1; F && b < data->nb; b++) {
    for (int i = 0; i < 6; i++) {
      if (!isfinite(F[b].v[i])) {
        return teal_error_set(&data->err, TEAL_ENONFINITE,
                              "%s: F_Bo_W[%d].v[%d] is not finite (%g)", fn, b, i, F[b].v[i]);
      }
    }
  }
  return TEAL_OK;
}

int teal_mb_nonconservative_power(const teal_plant *plant, teal_mb_data *data, const double *q,
                                  const double *v, const double *tau,
                                  const teal_spatial_vector *F_Bo_W, double *power) {
  static const char fn[] = "teal_mb_nonconservative_power";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin_qv(plant, data, fn, q, v, 1, power, "power", &st);
  if (!t || (st = teal_mb_data_check_array(data, fn, "tau", tau, data->nv, 1)) ||
      (st = check_forces(data, fn, F_Bo_W))) {
    return st;
  }
  double p = 0.0;
  for (int i = 0; tau && i < data->nv; i++) {
    p += tau[i] * v[i];
  }
  if (F_Bo_W) {
    if ((st = kinematics(plant, data, fn, q, v, 1))) {
      return st;
    }
    for (int b = 1; b < data->nb; b++) {
      p += teal_spatial_vector_dot(F_Bo_W[b], data->V_WB[b]);
    }
  }
  *power = p;
  return TEAL_OK;
}
