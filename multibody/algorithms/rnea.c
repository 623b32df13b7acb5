/* The recursive Newton-Euler family: inverse dynamics with applied forces,
 * the bias term, gravity forces, the operator M v and joint reaction forces
 * (see data.h; the formulation about a tree point O is in
 * data_internal.h). */
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/rnea.h"

/* The outward pass over the stages in data: a_k = a_parent + c_k (if with_v) +
 * S vdot_k (if vdot), f_k = I a_k + pb_k (if with_v) - F_app_k; a0 is the
 * world's acceleration. */
static void rnea_outward(teal_mb_data *data, const teal_plant_tree *t, teal_spatial_vector a0,
                         const double *vdot, int with_v, const teal_spatial_vector *F_app) {
  data->a[0] = a0;
  for (int k = 1; k < t->num_nodes; k++) {
    int n = t->nv[k];
    teal_spatial_vector a = data->a[t->parent[k]];
    if (with_v) {
      a = teal_spatial_vector_add(a, data->c[k]);
    }
    if (vdot && n > 0) {
      const double *S = teal_mb_data_S(data, t, k), *vd = vdot + t->v_start[k];
      for (int j = 0; j < n; j++) {
        for (int i = 0; i < 6; i++) {
          a.v[i] += S[6 * j + i] * vd[j];
        }
      }
    }
    data->a[k] = a;
    teal_spatial_vector f = teal_mb_inertia_apply(&data->I[k], a);
    if (with_v) {
      f = teal_spatial_vector_add(f, data->pb[k]);
    }
    if (F_app) {
      f = teal_spatial_vector_sub(f, teal_mb_force_about_O(data, k, F_app[data->body[k]]));
    }
    data->f[k] = f;
  }
}

/* The inward pass: f_parent += f_k, and tau_k = S' f_k - tau_applied_k if tau. */
static void rnea_inward(teal_mb_data *data, const teal_plant_tree *t, const double *tau_applied,
                        double *tau) {
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    int n = t->nv[k], v0 = t->v_start[k], pk = t->parent[k];
    if (tau) {
      teal_mb_s_apply_transpose(teal_mb_data_S(data, t, k), n, data->f[k], tau + v0);
      for (int i = 0; tau_applied && i < n; i++) {
        tau[v0 + i] -= tau_applied[v0 + i];
      }
    }
    if (pk > 0) {
      data->f[pk] = teal_spatial_vector_add(data->f[pk], data->f[k]);
    }
  }
}

/* The stages for q (and v if not NULL). */
static int stages(teal_mb_data *data, const teal_plant_tree *t, const double *q, const double *v) {
  int st = teal_mb_data_position(data, t, q);
  if (st == TEAL_OK && v) {
    teal_mb_data_velocity(data, t, q, v);
  }
  return st;
}

/* ---- public ------------------------------------------------------------------------ */

/* tau += diag(reflected) x: the rotors' part of M x. */
static void add_reflected(const teal_mb_data *data, const double *x, double *tau) {
  for (int i = 0; i < data->nv; i++) {
    tau[i] += data->reflected[i] * x[i];
  }
}

/* Inverse dynamics under the name fn. */
static int inverse_dynamics(const char *fn, const teal_plant *plant, teal_mb_data *data,
                            const double *q, const double *v, const double *vdot,
                            const double *tau_applied, const teal_spatial_vector *F_app,
                            double *tau) {
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0)) ||
      (st = teal_mb_data_check_array(data, fn, "v", v, data->nv, 0)) ||
      (st = teal_mb_data_check_array(data, fn, "vdot", vdot, data->nv, 0)) ||
      (st = teal_mb_data_check_array(data, fn, "tau_applied", tau_applied, data->nv, 1)) ||
      (st = teal_mb_data_check_forces(data, fn, "F_app_Bo_W", F_app)) ||
      (st = teal_mb_data_check_out(data, fn, "tau", tau)) || (st = stages(data, t, q, v))) {
    return st;
  }
  rnea_outward(data, t, teal_mb_world_acceleration(data, 1), vdot, 1, F_app);
  rnea_inward(data, t, tau_applied, tau);
  add_reflected(data, vdot, tau);
  return TEAL_OK;
}

int teal_mb_inverse_dynamics_ex(const teal_plant *plant, teal_mb_data *data, const double *q,
                                const double *v, const double *vdot, const double *tau_applied,
                                const teal_spatial_vector *F_app_Bo_W, double *tau) {
  return inverse_dynamics("teal_mb_inverse_dynamics_ex", plant, data, q, v, vdot, tau_applied,
                          F_app_Bo_W, tau);
}

int teal_mb_inverse_dynamics(const teal_plant *plant, teal_mb_data *data, const double *q,
                             const double *v, const double *vdot, const double *tau_applied,
                             double *tau) {
  return inverse_dynamics("teal_mb_inverse_dynamics", plant, data, q, v, vdot, tau_applied, NULL,
                          tau);
}

int teal_mb_bias_term(const teal_plant *plant, teal_mb_data *data, const double *q, const double *v,
                      double *Cv) {
  static const char fn[] = "teal_mb_bias_term";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin_qv(plant, data, fn, q, v, 1, Cv, "Cv", &st);
  if (!t || (st = stages(data, t, q, v))) {
    return st;
  }
  rnea_outward(data, t, teal_spatial_vector_zero(), NULL, 1, NULL);
  rnea_inward(data, t, NULL, Cv);
  return TEAL_OK;
}

int teal_mb_gravity_forces(const teal_plant *plant, teal_mb_data *data, const double *q,
                           double *tau_g) {
  static const char fn[] = "teal_mb_gravity_forces";
  int st;
  const teal_plant_tree *t =
      teal_mb_data_begin_qv(plant, data, fn, q, NULL, 0, tau_g, "tau_g", &st);
  if (!t || (st = stages(data, t, q, NULL))) {
    return st;
  }
  rnea_outward(data, t, teal_mb_world_acceleration(data, 1), NULL, 0, NULL);
  rnea_inward(data, t, NULL, tau_g);
  for (int i = 0; i < data->nv; i++) {
    tau_g[i] = -tau_g[i];
  }
  return TEAL_OK;
}

int teal_mb_mass_matrix_times(const teal_plant *plant, teal_mb_data *data, const double *q,
                              const double *v, double *Mv) {
  static const char fn[] = "teal_mb_mass_matrix_times";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin_qv(plant, data, fn, q, v, 1, Mv, "Mv", &st);
  if (!t || (st = stages(data, t, q, NULL))) {
    return st;
  }
  rnea_outward(data, t, teal_spatial_vector_zero(), v, 0, NULL);
  rnea_inward(data, t, NULL, Mv);
  add_reflected(data, v, Mv);
  return TEAL_OK;
}

/* The joint force f_k (on node k's subtree, about O, in W) at Mo, in M. */
static teal_spatial_vector joint_force_in_M(const teal_mb_data *data, const teal_plant_tree *t,
                                            int k) {
  const teal_transform *X_WB = &data->X[k];
  teal_rotation R_WM = teal_rotation_mul(X_WB->R, t->X_BM[k].R);
  teal_vec3 r = teal_vec3_sub(teal_transform_apply(*X_WB, t->X_BM[k].p), data->O[k]);
  teal_vec3 f = teal_spatial_vector_linear(data->f[k]);
  teal_vec3 n = teal_vec3_sub(teal_spatial_vector_angular(data->f[k]), teal_vec3_cross(r, f));
  return teal_spatial_vector_make(teal_rotation_apply_inverse(R_WM, n),
                                  teal_rotation_apply_inverse(R_WM, f));
}

int teal_mb_reaction_forces(const teal_plant *plant, teal_mb_data *data, const double *q,
                            const double *v, const double *vdot,
                            const teal_spatial_vector *F_app_Bo_W, teal_spatial_vector *F_CJc_Jc) {
  static const char fn[] = "teal_mb_reaction_forces";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0)) ||
      (st = teal_mb_data_check_array(data, fn, "v", v, data->nv, 0)) ||
      (st = teal_mb_data_check_array(data, fn, "vdot", vdot, data->nv, 0)) ||
      (st = teal_mb_data_check_forces(data, fn, "F_app_Bo_W", F_app_Bo_W)) ||
      (st = teal_mb_data_check_out(data, fn, "F_CJc_Jc", F_CJc_Jc)) ||
      (st = stages(data, t, q, v))) {
    return st;
  }
  rnea_outward(data, t, teal_mb_world_acceleration(data, 1), vdot, 1, F_app_Bo_W);
  rnea_inward(data, t, NULL, NULL);
  for (int k = 1; k < t->num_nodes; k++) {
    F_CJc_Jc[data->joint[k]] = joint_force_in_M(data, t, k);
  }
  return TEAL_OK;
}
