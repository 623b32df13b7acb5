/* The inertial-parameter regressor and the parameter derivatives of the
 * dynamics (see regressor.h). A body's spatial force f = I a + V x* (I V)
 * is linear in its parameters, so its ten columns are the forces of the ten
 * unit inertias; taken about the tree's point O (data_internal.h), each
 * projects on the motion subspaces of the body's ancestors without shifts. */
#include "multibody/algorithms/regressor.h"

#include <math.h>
#include <string.h>

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/tree/topology.h"

#define NP TEAL_MB_NUM_INERTIAL_PARAMETERS

/* ---- parameters ---------------------------------------------------------------- */

/* The (row, column) of the products of inertia Ixy, Ixz, Iyz in I. */
static const int k_products[3][2] = {{0, 1}, {0, 2}, {1, 2}};

int teal_mb_inertial_parameters(const teal_spatial_inertia *M_BBo_B, double *pi) {
  if (!M_BBo_B || !pi) {
    return TEAL_EINVAL;
  }
  const double m = M_BBo_B->mass, *I = M_BBo_B->I_SP_E.m;
  pi[0] = m;
  for (int i = 0; i < 3; i++) {
    pi[1 + i] = m * M_BBo_B->p_PScm_E.v[i];
    pi[4 + i] = I[4 * i];
    pi[7 + i] = I[3 * k_products[i][0] + k_products[i][1]];
  }
  return TEAL_OK;
}

int teal_mb_spatial_inertia_from_parameters(const double *pi, teal_spatial_inertia *M_BBo_B,
                                            teal_error *err) {
  static const char fn[] = "teal_mb_spatial_inertia_from_parameters";
  if (!pi || !M_BBo_B) {
    return teal_error_set(err, TEAL_EINVAL, "%s: %s is NULL", fn, !pi ? "pi" : "M_BBo_B");
  }
  for (int i = 0; i < NP; i++) {
    if (!isfinite(pi[i])) {
      return teal_error_set(err, TEAL_ENONFINITE, "%s: pi[%d] is not finite", fn, i);
    }
  }
  if (!(pi[0] >= TEAL_SPATIAL_INERTIA_MIN_MASS)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: the mass pi[0] = %g is not positive", fn, pi[0]);
  }
  teal_spatial_inertia M;
  M.mass = pi[0];
  memset(&M.I_SP_E, 0, sizeof M.I_SP_E);
  for (int i = 0; i < 3; i++) {
    int r = k_products[i][0], c = k_products[i][1];
    M.p_PScm_E.v[i] = pi[1 + i] / pi[0];
    M.I_SP_E.m[4 * i] = pi[4 + i];
    M.I_SP_E.m[3 * r + c] = M.I_SP_E.m[3 * c + r] = pi[7 + i];
  }
  int st = teal_spatial_inertia_check(&M, err);
  if (st == TEAL_OK) {
    *M_BBo_B = M;
  }
  return st;
}

/* TEAL_OK when body is a body of data's plant other than the world. */
static int check_body(teal_mb_data *data, const char *fn, int body) {
  if (body == 0) {
    return teal_error_set(&data->err, TEAL_EINVAL,
                          "%s: body 0 is the world, which has no inertial parameters", fn);
  }
  if (body < 0 || body >= data->nb) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: body = %d is not a body index (1..%d)", fn,
                          body, data->nb - 1);
  }
  return TEAL_OK;
}

int teal_mb_body_inertial_parameters(const teal_plant *plant, teal_mb_data *data, int body,
                                     double *pi) {
  static const char fn[] = "teal_mb_body_inertial_parameters";
  int st;
  if (!teal_mb_data_begin(plant, data, fn, &st) || (st = check_body(data, fn, body)) ||
      (st = teal_mb_data_check_out(data, fn, "pi", pi))) {
    return st;
  }
  return teal_mb_inertial_parameters(&data->M_BBo_B[teal_plant_body_node(plant, body)], pi);
}

/* ---- the regressor ------------------------------------------------------------- */

/* The inertia of the unit parameter vector e_c, about Bo in B. */
static teal_mb_inertia unit_inertia(int c) {
  teal_mb_inertia u;
  memset(&u, 0, sizeof u);
  if (c == 0) {
    u.m = 1.0;
  } else if (c < 4) {
    u.h.v[c - 1] = 1.0;
  } else if (c < 7) {
    u.I.m[4 * (c - 4)] = 1.0;
  } else {
    int r = k_products[c - 7][0], s = k_products[c - 7][1];
    u.I.m[3 * r + s] = u.I.m[3 * s + r] = 1.0;
  }
  return u;
}

/* A motion vector m (in W, about O) at the point Bo = O + r, in B. */
static teal_spatial_vector motion_in_body(teal_rotation R_WB, teal_vec3 r, teal_spatial_vector m) {
  teal_vec3 w = teal_spatial_vector_angular(m);
  teal_vec3 v = teal_vec3_add(teal_spatial_vector_linear(m), teal_vec3_cross(w, r));
  return teal_spatial_vector_make(teal_rotation_apply_inverse(R_WB, w),
                                  teal_rotation_apply_inverse(R_WB, v));
}

/* A force F (in B, about Bo = O + r) in W, about O. */
static teal_spatial_vector force_about_O(teal_rotation R_WB, teal_vec3 r, teal_spatial_vector F) {
  teal_vec3 f = teal_rotation_apply(R_WB, teal_spatial_vector_linear(F));
  teal_vec3 n = teal_rotation_apply(R_WB, teal_spatial_vector_angular(F));
  return teal_spatial_vector_make(teal_vec3_add(n, teal_vec3_cross(r, f)), f);
}

/* Node k's ten columns: the spatial forces of the unit inertias at the
 * node's a and V (in B, where the unit inertias are constant), about O,
 * projected on the motion subspace of every ancestor joint; written to the
 * rows of Y (leading dimension ld) from column col0 on. */
static void node_columns(const teal_mb_data *data, const teal_plant_tree *t, int k, double *Y,
                         int ld, int col0) {
  teal_rotation R = data->X[k].R;
  teal_vec3 r = teal_vec3_sub(data->X[k].p, data->O[k]);
  teal_spatial_vector a = motion_in_body(R, r, data->a[k]), V = motion_in_body(R, r, data->V[k]);
  for (int c = 0; c < NP; c++) {
    teal_mb_inertia u = unit_inertia(c);
    teal_spatial_vector f = teal_spatial_vector_add(
        teal_mb_inertia_apply(&u, a), teal_spatial_cross_force(V, teal_mb_inertia_apply(&u, V)));
    f = force_about_O(R, r, f);
    for (int j = k; j > 0; j = t->parent[j]) {
      const double *S = teal_mb_data_S(data, t, j);
      for (int d = 0; d < t->nv[j]; d++) {
        Y[(size_t)(t->v_start[j] + d) * (size_t)ld + (size_t)(col0 + c)] =
            teal_mb_s_dot(S + 6 * d, f);
      }
    }
  }
}

/* Spatial accelerations a_k (with gravity) at the stages' (q, v) and vdot. */
static void accelerations(teal_mb_data *data, const teal_plant_tree *t, const double *vdot) {
  data->a[0] = teal_mb_world_acceleration(data, 1);
  for (int k = 1; k < t->num_nodes; k++) {
    const double *S = teal_mb_data_S(data, t, k);
    teal_spatial_vector a = teal_spatial_vector_add(data->a[t->parent[k]], data->c[k]);
    data->a[k] = teal_spatial_vector_add(a, teal_mb_s_apply(S, t->nv[k], vdot + t->v_start[k]));
  }
}

/* Writes the columns of body (or of every body for TEAL_MB_ALL_BODIES) at
 * the stages and vdot into Y (nv rows of 10 or 10 nb columns), zeroed
 * first: the rows of dofs not inboard of a body stay zero. */
static void regressor_columns(teal_mb_data *data, const teal_plant_tree *t, const double *vdot,
                              int body, double *Y) {
  int all = body == TEAL_MB_ALL_BODIES, ld = all ? NP * data->nb : NP;
  memset(Y, 0, sizeof(double) * (size_t)data->nv * (size_t)ld);
  accelerations(data, t, vdot);
  for (int k = 1; k < t->num_nodes; k++) {
    if (all || data->body[k] == body) {
      node_columns(data, t, k, Y, ld, all ? NP * data->body[k] : 0);
    }
  }
}

/* The front of both entries: plant, data, q, v and the position and
 * velocity stages. */
static const teal_plant_tree *begin(const teal_plant *plant, teal_mb_data *data, const char *fn,
                                    const double *q, const double *v, int *st) {
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, st);
  if (!t || (*st = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0)) ||
      (*st = teal_mb_data_check_array(data, fn, "v", v, data->nv, 0)) ||
      (*st = teal_mb_data_position(data, t, q))) {
    return NULL;
  }
  teal_mb_data_velocity(data, t, q, v);
  return t;
}

int teal_mb_inverse_dynamics_regressor(const teal_plant *plant, teal_mb_data *data, const double *q,
                                       const double *v, const double *vdot, double *Y) {
  static const char fn[] = "teal_mb_inverse_dynamics_regressor";
  int st;
  const teal_plant_tree *t = begin(plant, data, fn, q, v, &st);
  if (!t || (st = teal_mb_data_check_array(data, fn, "vdot", vdot, data->nv, 0)) ||
      (st = teal_mb_data_check_out(data, fn, "Y", Y))) {
    return st;
  }
  regressor_columns(data, t, vdot, TEAL_MB_ALL_BODIES, Y);
  return TEAL_OK;
}

/* ---- parameter derivatives of forward dynamics ----------------------------------- */

/* X = -M^-1 X column by column (n columns, row-major) with the articulated
 * factorization in data; data->bias holds one column at a time. */
static int solve_columns(const teal_plant *plant, teal_mb_data *data, double *X, int n) {
  double *x = data->bias;
  for (int c = 0; c < n; c++) {
    for (int i = 0; i < data->nv; i++) {
      x[i] = X[(size_t)i * (size_t)n + (size_t)c];
    }
    int st = teal_mb_articulated_solve(plant, data, x, NULL, x);
    if (st) {
      return st;
    }
    for (int i = 0; i < data->nv; i++) {
      X[(size_t)i * (size_t)n + (size_t)c] = -x[i];
    }
  }
  return TEAL_OK;
}

int teal_mb_forward_dynamics_parameter_derivatives(const teal_plant *plant, teal_mb_data *data,
                                                   const double *q, const double *v,
                                                   const double *tau,
                                                   const teal_spatial_vector *F_app_Bo_W, int body,
                                                   double *vdot, double *dvdot_dpi) {
  static const char fn[] = "teal_mb_forward_dynamics_parameter_derivatives";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t || (body != TEAL_MB_ALL_BODIES && (st = check_body(data, fn, body))) ||
      (st = teal_mb_data_check_out(data, fn, "vdot", vdot)) ||
      (st = teal_mb_data_check_out(data, fn, "dvdot_dpi", dvdot_dpi))) {
    return st;
  }
  /* vdot by the ABA, which leaves the factorization of M(q) in data */
  if ((st = teal_mb_forward_dynamics_ex(plant, data, q, v, tau, F_app_Bo_W, vdot))) {
    return st;
  }
  regressor_columns(data, t, vdot, body, dvdot_dpi);
  int n = body == TEAL_MB_ALL_BODIES ? NP * data->nb : NP;
  return solve_columns(plant, data, dvdot_dpi, n);
}
