/* Per-body results (body_results.h). The data's internal quantities are
 * about the per-tree point O (data_internal.h); these functions convert
 * them to the body origins: a Featherstone acceleration a about O becomes
 * the classical A at Bo = [alpha; a_O + alpha x r + w x v_Bo] with r =
 * p_OBo, and a 6x6 inertia P about O becomes T' P T with T = [1 0; [r]x 1]
 * (V_O = T V_Bo). Inertias of single bodies come from the data's M_BBo_B,
 * re-expressed in W. */
#include <string.h>

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/body_results.h"
#include "multibody/algorithms/data_internal.h"

/* Body k's spatial inertia about Bo, in W. */
static teal_spatial_inertia body_inertia_W(const teal_mb_data *data, int k) {
  return teal_spatial_inertia_reexpress(&data->M_BBo_B[k], data->X[k].R);
}

/* The classical spatial acceleration at Bo of node k from its Featherstone
 * acceleration a about O and its velocity V about O. */
static teal_spatial_vector classical_at_Bo(const teal_mb_data *data, int k, teal_spatial_vector a,
                                           teal_spatial_vector V) {
  teal_vec3 r = teal_vec3_sub(data->X[k].p, data->O[k]);
  teal_vec3 w = teal_spatial_vector_angular(V), alpha = teal_spatial_vector_angular(a);
  teal_vec3 v_Bo = teal_vec3_add(teal_spatial_vector_linear(V), teal_vec3_cross(w, r));
  teal_vec3 lin = teal_vec3_add(teal_spatial_vector_linear(a), teal_vec3_cross(alpha, r));
  return teal_spatial_vector_make(alpha, teal_vec3_add(lin, teal_vec3_cross(w, v_Bo)));
}

/* [w x (I_Bo w); m w x (w x p_BoBcm)] for node k at angular velocity w. */
static teal_spatial_vector gyroscopic(const teal_mb_data *data, int k, teal_vec3 w) {
  teal_spatial_inertia M = body_inertia_W(data, k);
  teal_vec3 ang = teal_vec3_cross(w, teal_mat3_apply(M.I_SP_E, w));
  teal_vec3 lin = teal_vec3_scale(teal_vec3_cross(w, teal_vec3_cross(w, M.p_PScm_E)), M.mass);
  return teal_spatial_vector_make(ang, lin);
}

/* Argument checks, the position stage and (need_v) the velocity stage. */
static const teal_plant_tree *begin(const teal_plant *plant, teal_mb_data *data, const char *fn,
                                    const double *q, const double *v, int need_v, const void *out,
                                    const char *out_name, int *st) {
  const teal_plant_tree *t =
      teal_mb_data_begin_qv(plant, data, fn, q, v, need_v, out, out_name, st);
  if (!t || (*st = teal_mb_data_position(data, t, q))) {
    return NULL;
  }
  if (need_v) {
    teal_mb_data_velocity(data, t, q, v);
  }
  return t;
}

/* Outward pass of Featherstone accelerations a_k = a_parent + S vdot + c_k
 * (vdot NULL: zero) from a_0 = a0, into data->a. */
static void accelerations(teal_mb_data *data, const teal_plant_tree *t, const double *vdot,
                          teal_spatial_vector a0) {
  data->a[0] = a0;
  for (int k = 1; k < t->num_nodes; k++) {
    teal_spatial_vector a = teal_spatial_vector_add(data->a[t->parent[k]], data->c[k]);
    if (vdot) {
      const double *S = teal_mb_data_S(data, t, k);
      a = teal_spatial_vector_add(a, teal_mb_s_apply(S, t->nv[k], vdot + t->v_start[k]));
    }
    data->a[k] = a;
  }
}

int teal_mb_calc_composite_body_inertias(const teal_plant *plant, teal_mb_data *data,
                                         const double *q, teal_spatial_inertia *R_Bo_W) {
  static const char fn[] = "teal_mb_calc_composite_body_inertias";
  int st;
  const teal_plant_tree *t = begin(plant, data, fn, q, NULL, 0, R_Bo_W, "R_Bo_W", &st);
  if (!t) {
    return st;
  }
  memset(&R_Bo_W[data->body[0]], 0, sizeof *R_Bo_W);
  for (int k = 1; k < t->num_nodes; k++) {
    R_Bo_W[data->body[k]] = body_inertia_W(data, k);
  }
  for (int k = t->num_nodes - 1; k >= 1; k--) { /* children follow their parents */
    int p = t->parent[k];
    if (p == 0) {
      continue;
    }
    teal_spatial_inertia *Rp = &R_Bo_W[data->body[p]];
    teal_spatial_inertia s = teal_spatial_inertia_shift(&R_Bo_W[data->body[k]],
                                                        teal_vec3_sub(data->X[p].p, data->X[k].p));
    *Rp = teal_spatial_inertia_add(Rp, &s);
  }
  return TEAL_OK;
}

int teal_mb_calc_articulated_body_inertias(const teal_plant *plant, teal_mb_data *data,
                                           const double *q, teal_mat6 *P_Bo_W) {
  static const char fn[] = "teal_mb_calc_articulated_body_inertias";
  int st;
  const teal_plant_tree *t = begin(plant, data, fn, q, NULL, 0, P_Bo_W, "P_Bo_W", &st);
  if (!t || (st = teal_mb_articulated_factor(plant, data, q))) {
    return st;
  }
  P_Bo_W[data->body[0]] = teal_mat6_zero();
  teal_mat3 one = teal_mat3_identity(), zero = teal_mat3_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    teal_mat3 rx = teal_mat3_skew(teal_vec3_sub(data->X[k].p, data->O[k]));
    teal_mat6 T = teal_mat6_from_blocks(one, zero, rx, one);
    teal_mat6 Tt = teal_mat6_transpose(&T);
    teal_mat6 PT = teal_mat6_mul(&data->P[k], &T);
    P_Bo_W[data->body[k]] = teal_mat6_mul(&Tt, &PT);
  }
  return TEAL_OK;
}

/* The inward pass of the articulated bias forces about O into data->f,
 * with tau = 0 (aba.c's: u = -S' Z_k, the parent receives Z_k + Pa c_k +
 * Ud u with Pa c = P c - Ud (S' P c)), after the factorization. */
static void articulated_bias(teal_mb_data *data, const teal_plant_tree *t) {
  for (int k = 0; k < t->num_nodes; k++) {
    data->f[k] = k ? data->pb[k] : teal_spatial_vector_zero();
  }
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    int n = t->nv[k];
    const double *S = teal_mb_data_S(data, t, k), *Ud = data->Ud + 6 * t->v_start[k];
    teal_spatial_vector Z = data->f[k], Pc = teal_mat6_apply(&data->P[k], data->c[k]);
    teal_spatial_vector up = teal_spatial_vector_add(Z, Pc);
    for (int j = 0; j < n; j++) { /* Ud_j (u_j - s_j' P c) */
      double coef = -teal_mb_s_dot(S + 6 * j, Z) - teal_mb_s_dot(S + 6 * j, Pc);
      for (int i = 0; i < 6; i++) {
        up.v[i] += Ud[6 * j + i] * coef;
      }
    }
    data->f[t->parent[k]] = teal_spatial_vector_add(data->f[t->parent[k]], up);
  }
}

int teal_mb_calc_articulated_body_bias_forces(const teal_plant *plant, teal_mb_data *data,
                                              const double *q, const double *v,
                                              teal_spatial_vector *Z_Bo_W) {
  static const char fn[] = "teal_mb_calc_articulated_body_bias_forces";
  int st;
  const teal_plant_tree *t = begin(plant, data, fn, q, v, 1, Z_Bo_W, "Z_Bo_W", &st);
  if (!t || (st = teal_mb_articulated_factor(plant, data, q))) {
    return st;
  }
  articulated_bias(data, t);
  Z_Bo_W[data->body[0]] = teal_spatial_vector_zero();
  for (int k = 1; k < t->num_nodes; k++) { /* Z_Bo = T' (Z_O - P_O [0; w x v_Bo]) */
    teal_vec3 r = teal_vec3_sub(data->X[k].p, data->O[k]);
    teal_vec3 w = teal_spatial_vector_angular(data->V[k]);
    teal_vec3 v_Bo = teal_vec3_add(teal_spatial_vector_linear(data->V[k]), teal_vec3_cross(w, r));
    teal_spatial_vector e = teal_spatial_vector_make(teal_vec3_zero(), teal_vec3_cross(w, v_Bo));
    teal_spatial_vector Z = teal_spatial_vector_sub(data->f[k], teal_mat6_apply(&data->P[k], e));
    Z_Bo_W[data->body[k]] = teal_spatial_force_shift(Z, r);
  }
  return TEAL_OK;
}

int teal_mb_calc_gyroscopic_forces(const teal_plant *plant, teal_mb_data *data, const double *q,
                                   const double *v, teal_spatial_vector *F_Bo_W) {
  static const char fn[] = "teal_mb_calc_gyroscopic_forces";
  int st;
  const teal_plant_tree *t = begin(plant, data, fn, q, v, 1, F_Bo_W, "F_Bo_W", &st);
  if (!t) {
    return st;
  }
  F_Bo_W[data->body[0]] = teal_spatial_vector_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    F_Bo_W[data->body[k]] = gyroscopic(data, k, teal_spatial_vector_angular(data->V[k]));
  }
  return TEAL_OK;
}

/* The total Coriolis accelerations into A_WB (by body), after begin(). */
static void total_coriolis(teal_mb_data *data, const teal_plant_tree *t,
                           teal_spatial_vector *A_WB) {
  accelerations(data, t, NULL, teal_spatial_vector_zero());
  A_WB[data->body[0]] = teal_spatial_vector_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    A_WB[data->body[k]] = classical_at_Bo(data, k, data->a[k], data->V[k]);
  }
}

int teal_mb_calc_total_coriolis_accelerations(const teal_plant *plant, teal_mb_data *data,
                                              const double *q, const double *v,
                                              teal_spatial_vector *A_WB) {
  static const char fn[] = "teal_mb_calc_total_coriolis_accelerations";
  int st;
  const teal_plant_tree *t = begin(plant, data, fn, q, v, 1, A_WB, "A_WB", &st);
  if (!t) {
    return st;
  }
  total_coriolis(data, t, A_WB);
  return TEAL_OK;
}

int teal_mb_calc_mobilizer_coriolis_accelerations(const teal_plant *plant, teal_mb_data *data,
                                                  const double *q, const double *v,
                                                  teal_spatial_vector *A_WB) {
  static const char fn[] = "teal_mb_calc_mobilizer_coriolis_accelerations";
  int st;
  const teal_plant_tree *t = begin(plant, data, fn, q, v, 1, A_WB, "A_WB", &st);
  if (!t) {
    return st;
  }
  total_coriolis(data, t, A_WB);
  for (int k = t->num_nodes - 1; k >= 1; k--) { /* parents still hold their totals */
    int p = t->parent[k];
    if (p == 0) {
      continue;
    }
    teal_spatial_vector Ap = A_WB[data->body[p]];
    teal_vec3 alpha = teal_spatial_vector_angular(Ap);
    teal_vec3 r = teal_vec3_sub(data->X[k].p, data->X[p].p);
    teal_vec3 a = teal_vec3_add(teal_spatial_vector_linear(Ap), teal_vec3_cross(alpha, r));
    teal_spatial_vector *A = &A_WB[data->body[k]];
    *A = teal_spatial_vector_sub(*A, teal_spatial_vector_make(alpha, a));
  }
  return TEAL_OK;
}

int teal_mb_calc_total_centrifugal_forces(const teal_plant *plant, teal_mb_data *data,
                                          const double *q, const double *v,
                                          teal_spatial_vector *F_Bo_W) {
  static const char fn[] = "teal_mb_calc_total_centrifugal_forces";
  int st;
  const teal_plant_tree *t = begin(plant, data, fn, q, v, 1, F_Bo_W, "F_Bo_W", &st);
  if (!t) {
    return st;
  }
  total_coriolis(data, t, F_Bo_W);
  for (int k = 1; k < t->num_nodes; k++) {
    teal_spatial_vector *F = &F_Bo_W[data->body[k]];
    teal_spatial_inertia M = body_inertia_W(data, k);
    *F = teal_spatial_vector_add(teal_spatial_inertia_apply(&M, *F),
                                 gyroscopic(data, k, teal_spatial_vector_angular(data->V[k])));
  }
  return TEAL_OK;
}

/* Node k's own free-body force M A + F_gyro - F_app - gravity at Bcm, about
 * Bo in W, with A classical at Bo. */
static teal_spatial_vector freebody_force(const teal_mb_data *data, int k, teal_spatial_vector A,
                                          const teal_spatial_vector *F_app_Bo_W) {
  teal_spatial_inertia M = body_inertia_W(data, k);
  teal_vec3 w = teal_spatial_vector_angular(data->V[k]);
  teal_spatial_vector F =
      teal_spatial_vector_add(teal_spatial_inertia_apply(&M, A), gyroscopic(data, k, w));
  if (F_app_Bo_W) {
    F = teal_spatial_vector_sub(F, F_app_Bo_W[data->body[k]]);
  }
  teal_vec3 mg = teal_vec3_scale(teal_mb_data_g(data), M.mass);
  teal_spatial_vector G = teal_spatial_vector_make(teal_vec3_cross(M.p_PScm_E, mg), mg);
  return teal_spatial_vector_sub(F, G);
}

int teal_mb_calc_mobilizer_reaction_forces_using_freebody_method(
    const teal_plant *plant, teal_mb_data *data, const double *q, const double *v,
    const double *vdot, const teal_spatial_vector *F_app_Bo_W, teal_spatial_vector *F_Mo_W) {
  static const char fn[] = "teal_mb_calc_mobilizer_reaction_forces_using_freebody_method";
  int st;
  const teal_plant_tree *t = begin(plant, data, fn, q, v, 1, F_Mo_W, "F_Mo_W", &st);
  if (!t || (st = teal_mb_data_check_array(data, fn, "vdot", vdot, data->nv, 0)) ||
      (st = teal_mb_data_check_forces(data, fn, "F_app_Bo_W", F_app_Bo_W))) {
    return st;
  }
  accelerations(data, t, vdot, teal_spatial_vector_zero());
  F_Mo_W[data->body[0]] = teal_spatial_vector_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    teal_spatial_vector A = classical_at_Bo(data, k, data->a[k], data->V[k]);
    F_Mo_W[data->body[k]] = freebody_force(data, k, A, F_app_Bo_W);
  }
  for (int k = t->num_nodes - 1; k >= 1; k--) { /* about Bo: add to the parent's */
    int p = t->parent[k];
    if (p != 0) {
      teal_spatial_vector *Fp = &F_Mo_W[data->body[p]];
      teal_vec3 r = teal_vec3_sub(data->X[p].p, data->X[k].p);
      *Fp = teal_spatial_vector_add(*Fp, teal_spatial_force_shift(F_Mo_W[data->body[k]], r));
    }
  }
  for (int k = 1; k < t->num_nodes; k++) { /* from Bo to Mo */
    teal_vec3 p_BoMo = teal_rotation_apply(data->X[k].R, t->X_BM[k].p);
    F_Mo_W[data->body[k]] = teal_spatial_force_shift(F_Mo_W[data->body[k]], p_BoMo);
  }
  return TEAL_OK;
}
