/* The recursive Newton-Euler family: inverse dynamics with applied forces,
 * the bias term, gravity forces, the operator M v and joint reaction forces
 * (see dynamics.h; the formulation about a tree point O is in
 * dynamics_internal.h). */
#include "multibody/algorithms/dynamics_internal.h"
#include "multibody/algorithms/rnea.h"

/* The outward pass over the stages in ws: a_k = a_parent + c_k (if with_v) +
 * S vdot_k (if vdot), f_k = I a_k + pb_k (if with_v) - F_app_k; a0 is the
 * world's acceleration. */
static void rnea_outward(teal_mb_workspace *ws, const teal_plant_tree *t, teal_spatial_vector a0,
                         const double *vdot, int with_v, const teal_spatial_vector *F_app) {
  ws->a[0] = a0;
  for (int k = 1; k < t->num_nodes; k++) {
    int n = t->nv[k];
    teal_spatial_vector a = ws->a[t->parent[k]];
    if (with_v) {
      a = teal_spatial_vector_add(a, ws->c[k]);
    }
    if (vdot && n > 0) {
      const double *S = teal_mb_ws_S(ws, t, k), *vd = vdot + t->v_start[k];
      for (int j = 0; j < n; j++) {
        for (int i = 0; i < 6; i++) {
          a.v[i] += S[6 * j + i] * vd[j];
        }
      }
    }
    ws->a[k] = a;
    teal_spatial_vector f = teal_mb_inertia_apply(&ws->I[k], a);
    if (with_v) {
      f = teal_spatial_vector_add(f, ws->pb[k]);
    }
    if (F_app) {
      f = teal_spatial_vector_sub(f, teal_mb_force_about_O(ws, k, F_app[ws->body[k]]));
    }
    ws->f[k] = f;
  }
}

/* The inward pass: f_parent += f_k, and tau_k = S' f_k - tau_applied_k if tau. */
static void rnea_inward(teal_mb_workspace *ws, const teal_plant_tree *t,
                        const double *tau_applied, double *tau) {
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    int n = t->nv[k], v0 = t->v_start[k], pk = t->parent[k];
    if (tau) {
      teal_mb_s_apply_transpose(teal_mb_ws_S(ws, t, k), n, ws->f[k], tau + v0);
      for (int i = 0; tau_applied && i < n; i++) {
        tau[v0 + i] -= tau_applied[v0 + i];
      }
    }
    if (pk > 0) {
      ws->f[pk] = teal_spatial_vector_add(ws->f[pk], ws->f[k]);
    }
  }
}

/* The stages for q (and v if not NULL). */
static int stages(teal_mb_workspace *ws, const teal_plant_tree *t, const double *q,
                  const double *v) {
  int st = teal_mb_ws_position(ws, t, q);
  if (st == TEAL_OK && v) {
    teal_mb_ws_velocity(ws, t, q, v);
  }
  return st;
}

/* ---- public ------------------------------------------------------------------------ */

/* Inverse dynamics under the name fn. */
static int inverse_dynamics(const char *fn, const teal_plant *plant, teal_mb_workspace *ws,
                            const double *q, const double *v, const double *vdot,
                            const double *tau_applied, const teal_spatial_vector *F_app,
                            double *tau) {
  int st;
  const teal_plant_tree *t = teal_mb_ws_begin(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_ws_check_array(ws, fn, "q", q, ws->nq, 0)) ||
      (st = teal_mb_ws_check_array(ws, fn, "v", v, ws->nv, 0)) ||
      (st = teal_mb_ws_check_array(ws, fn, "vdot", vdot, ws->nv, 0)) ||
      (st = teal_mb_ws_check_array(ws, fn, "tau_applied", tau_applied, ws->nv, 1)) ||
      (st = teal_mb_ws_check_forces(ws, fn, "F_app_Bo_W", F_app)) ||
      (st = teal_mb_ws_check_out(ws, fn, "tau", tau)) || (st = stages(ws, t, q, v))) {
    return st;
  }
  rnea_outward(ws, t, teal_mb_world_acceleration(ws, 1), vdot, 1, F_app);
  rnea_inward(ws, t, tau_applied, tau);
  return TEAL_OK;
}

int teal_mb_inverse_dynamics_ex(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                                const double *v, const double *vdot, const double *tau_applied,
                                const teal_spatial_vector *F_app_Bo_W, double *tau) {
  return inverse_dynamics("teal_mb_inverse_dynamics_ex", plant, ws, q, v, vdot, tau_applied,
                          F_app_Bo_W, tau);
}

int teal_mb_inverse_dynamics(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                             const double *v, const double *vdot, const double *tau_applied,
                             double *tau) {
  return inverse_dynamics("teal_mb_inverse_dynamics", plant, ws, q, v, vdot, tau_applied, NULL,
                          tau);
}

int teal_mb_bias_term(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                      const double *v, double *Cv) {
  static const char fn[] = "teal_mb_bias_term";
  int st;
  const teal_plant_tree *t = teal_mb_ws_begin(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_ws_check_array(ws, fn, "q", q, ws->nq, 0)) ||
      (st = teal_mb_ws_check_array(ws, fn, "v", v, ws->nv, 0)) ||
      (st = teal_mb_ws_check_out(ws, fn, "Cv", Cv)) || (st = stages(ws, t, q, v))) {
    return st;
  }
  rnea_outward(ws, t, teal_spatial_vector_zero(), NULL, 1, NULL);
  rnea_inward(ws, t, NULL, Cv);
  return TEAL_OK;
}

int teal_mb_gravity_forces(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                           double *tau_g) {
  static const char fn[] = "teal_mb_gravity_forces";
  int st;
  const teal_plant_tree *t = teal_mb_ws_begin(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_ws_check_array(ws, fn, "q", q, ws->nq, 0)) ||
      (st = teal_mb_ws_check_out(ws, fn, "tau_g", tau_g)) || (st = stages(ws, t, q, NULL))) {
    return st;
  }
  rnea_outward(ws, t, teal_mb_world_acceleration(ws, 1), NULL, 0, NULL);
  rnea_inward(ws, t, NULL, tau_g);
  for (int i = 0; i < ws->nv; i++) {
    tau_g[i] = -tau_g[i];
  }
  return TEAL_OK;
}

int teal_mb_mass_matrix_times(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                              const double *v, double *Mv) {
  static const char fn[] = "teal_mb_mass_matrix_times";
  int st;
  const teal_plant_tree *t = teal_mb_ws_begin(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_ws_check_array(ws, fn, "q", q, ws->nq, 0)) ||
      (st = teal_mb_ws_check_array(ws, fn, "v", v, ws->nv, 0)) ||
      (st = teal_mb_ws_check_out(ws, fn, "Mv", Mv)) || (st = stages(ws, t, q, NULL))) {
    return st;
  }
  rnea_outward(ws, t, teal_spatial_vector_zero(), v, 0, NULL);
  rnea_inward(ws, t, NULL, Mv);
  return TEAL_OK;
}

/* The joint force f_k (on node k's subtree, about O, in W) at Mo, in M. */
static teal_spatial_vector joint_force_in_M(const teal_mb_workspace *ws,
                                            const teal_plant_tree *t, int k) {
  const teal_transform *X_WB = &ws->X[k];
  teal_rotation R_WM = teal_rotation_mul(X_WB->R, t->X_BM[k].R);
  teal_vec3 r = teal_vec3_sub(teal_transform_apply(*X_WB, t->X_BM[k].p), ws->O[k]);
  teal_vec3 f = teal_spatial_vector_linear(ws->f[k]);
  teal_vec3 n = teal_vec3_sub(teal_spatial_vector_angular(ws->f[k]), teal_vec3_cross(r, f));
  return teal_spatial_vector_make(teal_rotation_apply_inverse(R_WM, n),
                                  teal_rotation_apply_inverse(R_WM, f));
}

int teal_mb_reaction_forces(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                            const double *v, const double *vdot,
                            const teal_spatial_vector *F_app_Bo_W, teal_spatial_vector *F_CJc_Jc) {
  static const char fn[] = "teal_mb_reaction_forces";
  int st;
  const teal_plant_tree *t = teal_mb_ws_begin(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_ws_check_array(ws, fn, "q", q, ws->nq, 0)) ||
      (st = teal_mb_ws_check_array(ws, fn, "v", v, ws->nv, 0)) ||
      (st = teal_mb_ws_check_array(ws, fn, "vdot", vdot, ws->nv, 0)) ||
      (st = teal_mb_ws_check_forces(ws, fn, "F_app_Bo_W", F_app_Bo_W)) ||
      (st = teal_mb_ws_check_out(ws, fn, "F_CJc_Jc", F_CJc_Jc)) || (st = stages(ws, t, q, v))) {
    return st;
  }
  rnea_outward(ws, t, teal_mb_world_acceleration(ws, 1), vdot, 1, F_app_Bo_W);
  rnea_inward(ws, t, NULL, NULL);
  for (int k = 1; k < t->num_nodes; k++) {
    F_CJc_Jc[ws->joint[k]] = joint_force_in_M(ws, t, k);
  }
  return TEAL_OK;
}
