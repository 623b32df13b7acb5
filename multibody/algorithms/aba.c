/* Articulated-body inertias: the factorization of M(q), the O(n) solve
 * x = M^-1 (rhs + J' F) and forward dynamics (ABA) built from the same node
 * kernels (see data.h; the formulation about a tree point O is in
 * data_internal.h).
 *
 * Per node k, inward: P_k (the articulated inertia, starting from I_k),
 * U = P S, D = S' U, Ud = U D^-1 and the inertia passed to the parent
 * Pa = P - Ud U'. With a bias force Z_k (starting from the body's own bias),
 * u = tau_k - S' Z_k and the parent receives Z_k + Pa c_k + Ud u. Outward:
 * vdot_k = D^-1 u - Ud' a_in, a_k = a_in + S vdot_k with a_in = a_parent +
 * c_k. Since all nodes of a tree share the point O, no shifts are needed. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "math/small_dense.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/data_internal.h"

/* ---- small dense kernels ----------------------------------------------------- */

/* The inertia as the 6x6 matrix [I [h]x; -[h]x m 1]. */
static void inertia_to_mat6(const teal_mb_inertia *M, double *P) {
  double x = M->h.v[0], y = M->h.v[1], z = M->h.v[2], m = M->m;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      P[6 * i + j] = M->I.m[3 * i + j];
      P[6 * (3 + i) + 3 + j] = i == j ? m : 0.0;
    }
  }
  /* [h]x in the upper right, -[h]x = [h]x' in the lower left */
  P[3] = 0.0, P[4] = -z, P[5] = y;
  P[9] = z, P[10] = 0.0, P[11] = -x;
  P[15] = -y, P[16] = x, P[17] = 0.0;
  P[18] = 0.0, P[19] = z, P[20] = -y;
  P[24] = -z, P[25] = 0.0, P[26] = x;
  P[30] = y, P[31] = -x, P[32] = 0.0;
}

/* The smallest accepted pivot of D: 1e-13 times scale (the largest
 * diagonal entry, or the sum of |P_ii| s_i^2 for one dof), and at least
 * DBL_MIN: a denormal pivot (a mass or inertia near 1e-310) has an infinite
 * inverse, and the accelerations would be NaN. */
static double min_pivot(double scale) {
  return fmax(1e-13 * scale, DBL_MIN);
}

/* The largest diagonal entry of the n x n D. */
static double diagonal_scale(const double *D, int n) {
  double scale = 0.0;
  for (int i = 0; i < n; i++) {
    scale = fmax(scale, fabs(D[i * n + i]));
  }
  return scale;
}

/* 1 when the n values are finite (a product with zero is NaN only for Inf
 * and NaN, and the sum keeps it). */
static int all_finite(const double *x, int n) {
  double z = 0.0;
  for (int i = 0; i < n; i++) {
    z += x[i] * 0.0;
  }
  return z == 0.0;
}

/* ---- node kernels ----------------------------------------------------------- */

/* One-dof node: U = P s, D = s' U + add (checked against sum P_ii s_i^2 +
 * add), Ud = U / D; returns U. add is data's added diagonal at the dof. */
static int factor_one(const double *P, const double *s, double add, double *Ud, double *Dinv,
                      double *U) {
  double D = add, scale = add;
  for (int i = 0; i < 6; i++) {
    const double *row = P + 6 * i;
    U[i] = row[0] * s[0] + row[1] * s[1] + row[2] * s[2] + row[3] * s[3] + row[4] * s[4] +
           row[5] * s[5];
    D += s[i] * U[i];
    scale += fabs(row[i]) * s[i] * s[i];
  }
  if (!(D > min_pivot(scale)) || !isfinite(D)) {
    return -1;
  }
  double dinv = 1.0 / D;
  *Dinv = dinv;
  for (int i = 0; i < 6; i++) {
    Ud[i] = U[i] * dinv;
  }
  return all_finite(Ud, 6) ? 0 : -1;
}

/* Multi-dof node (n columns of S, column-major): as factor_one with D^-1
 * from a Cholesky factorization; U is 6 x n column-major, add (NULL: none)
 * the n values of data's added diagonal. */
static int factor_multi(const double *P, const double *S, int n, const double *add, double *Ud,
                        double *Dinv, double *U) {
  double D[TEAL_JOINT_MAX_NV * TEAL_JOINT_MAX_NV];
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < 6; i++) {
      double x = 0.0;
      for (int m = 0; m < 6; m++) {
        x += P[6 * i + m] * S[6 * j + m];
      }
      U[6 * j + i] = x;
    }
  }
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      double d = 0.0;
      for (int r = 0; r < 6; r++) {
        d += S[6 * i + r] * U[6 * j + r];
      }
      D[i * n + j] = d + (add && i == j ? add[i] : 0.0);
    }
  }
  if (teal_small_cholesky(D, n, min_pivot(diagonal_scale(D, n)))) {
    return -1;
  }
  teal_small_cholesky_inverse(D, n, Dinv);
  for (int j = 0; j < n; j++) { /* Ud = U Dinv */
    for (int r = 0; r < 6; r++) {
      double x = 0.0;
      for (int m = 0; m < n; m++) {
        x += U[6 * m + r] * Dinv[m * n + j];
      }
      Ud[6 * j + r] = x;
    }
  }
  return all_finite(Dinv, n * n) && all_finite(Ud, 6 * n) ? 0 : -1;
}

/* The parent's share Pa = P - sum_m Ud_m U_m' (n columns) added to its P. */
static void pass_to_parent(const double *P, const double *Ud, const double *U, int n,
                           double *Pp) {
  double Pa[36];
  memcpy(Pa, P, sizeof Pa);
  for (int m = 0; m < n; m++) {
    for (int i = 0; i < 6; i++) {
      for (int j = 0; j < 6; j++) {
        Pa[6 * i + j] -= Ud[6 * m + i] * U[6 * m + j];
      }
    }
  }
  for (int i = 0; i < 36; i++) {
    Pp[i] += Pa[i];
  }
}

/* Pa c = P c - sum_m Ud_m (U_m . c). */
static teal_spatial_vector articulated_times(const double *P, const double *Ud, const double *U,
                                             int n, teal_spatial_vector c) {
  teal_spatial_vector r;
  for (int i = 0; i < 6; i++) {
    const double *row = P + 6 * i;
    r.v[i] = row[0] * c.v[0] + row[1] * c.v[1] + row[2] * c.v[2] + row[3] * c.v[3] +
             row[4] * c.v[4] + row[5] * c.v[5];
  }
  for (int m = 0; m < n; m++) {
    double uc = teal_mb_s_dot(U + 6 * m, c);
    for (int i = 0; i < 6; i++) {
      r.v[i] -= Ud[6 * m + i] * uc;
    }
  }
  return r;
}

/* Factors node k (its P must hold every child's contribution) and adds its
 * Pa to the parent's P; Pac = Pa c (if c; zero at a root). TEAL_ESINGULAR on
 * failure. */
static int factor_node(teal_mb_data *data, const teal_plant_tree *t, int k, const char *fn,
                       const teal_spatial_vector *c, teal_spatial_vector *Pac) {
  int n = t->nv[k], pk = t->parent[k];
  double *Ud = data->Ud + 6 * t->v_start[k], *Dinv = data->Dinv + data->d_start[k];
  const double *P = data->P[k].m, *S = teal_mb_data_S(data, t, k);
  double add[TEAL_JOINT_MAX_NV]; /* reflected inertia and any added diagonal */
  for (int i = 0; i < n; i++) {
    int v = t->v_start[k] + i;
    add[i] = data->reflected[v] + (data->added_diagonal ? data->added_diagonal[v] : 0.0);
  }
  double U[6 * TEAL_JOINT_MAX_NV];
  int bad = n == 1  ? factor_one(P, S, add[0], Ud, Dinv, U)
            : n > 1 ? factor_multi(P, S, n, add, Ud, Dinv, U)
                    : 0;
  if (bad) {
    return teal_error_set(&data->err, TEAL_ESINGULAR,
                          "%s: articulated inertia of joint \"%s\" is not positive definite "
                          "(numerically singular: a pivot is below 1e-13 of its scale or "
                          "DBL_MIN, or its inverse is not finite)",
                          fn, teal_plant_joint_name(data->plant, data->joint[k]));
  }
  *Pac = teal_spatial_vector_zero();
  if (pk > 0) {
    pass_to_parent(P, Ud, U, n, data->P[pk].m);
    if (c) {
      *Pac = articulated_times(P, Ud, U, n, *c);
    }
  }
  return TEAL_OK;
}

/* u_k = rhs_k - S' Z_k (rhs NULL: zero), and the parent's Z gets
 * Z_k + extra + Ud u. */
static void bias_node(teal_mb_data *data, const teal_plant_tree *t, int k, const double *rhs,
                      teal_spatial_vector extra) {
  int n = t->nv[k], v0 = t->v_start[k], pk = t->parent[k];
  const double *S = teal_mb_data_S(data, t, k), *Ud = data->Ud + 6 * v0;
  teal_spatial_vector Z = data->f[k];
  double *u = data->u + v0;
  for (int j = 0; j < n; j++) {
    u[j] = (rhs ? rhs[v0 + j] : 0.0) - teal_mb_s_dot(S + 6 * j, Z);
  }
  if (pk == 0) {
    return;
  }
  Z = teal_spatial_vector_add(Z, extra);
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < 6; i++) {
      Z.v[i] += Ud[6 * j + i] * u[j];
    }
  }
  data->f[pk] = teal_spatial_vector_add(data->f[pk], Z);
}

/* The outward pass: x_k = D^-1 u - Ud' a_in, a_k = a_in + S x_k with a_in =
 * a_parent (+ c_k if with_c); a0 the world's acceleration. */
static void accel_pass(teal_mb_data *data, const teal_plant_tree *t, teal_spatial_vector a0,
                       int with_c, double *x) {
  data->a[0] = a0;
  for (int k = 1; k < t->num_nodes; k++) {
    int n = t->nv[k], v0 = t->v_start[k];
    teal_spatial_vector a = data->a[t->parent[k]];
    if (with_c) {
      a = teal_spatial_vector_add(a, data->c[k]);
    }
    const double *S = teal_mb_data_S(data, t, k), *Ud = data->Ud + 6 * v0;
    const double *Dinv = data->Dinv + data->d_start[k], *u = data->u + v0;
    for (int j = 0; j < n; j++) {
      double xj = -teal_mb_s_dot(Ud + 6 * j, a);
      for (int m = 0; m < n; m++) {
        xj += Dinv[j * n + m] * u[m];
      }
      x[v0 + j] = xj;
    }
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < 6; i++) {
        a.v[i] += S[6 * j + i] * x[v0 + j];
      }
    }
    data->a[k] = a;
  }
}

/* P_k = I_k for every node, and Z_k = bias_k - F_k about O (each part
 * optional). */
static void init_nodes(teal_mb_data *data, const teal_plant_tree *t, int with_P,
                       const teal_spatial_vector *bias, const teal_spatial_vector *F_Bo_W) {
  for (int k = 1; k < t->num_nodes; k++) {
    if (with_P) {
      inertia_to_mat6(&data->I[k], data->P[k].m);
    }
    teal_spatial_vector Z = bias ? bias[k] : teal_spatial_vector_zero();
    if (F_Bo_W) {
      Z = teal_spatial_vector_sub(Z, teal_mb_force_about_O(data, k, F_Bo_W[data->body[k]]));
    }
    data->f[k] = Z;
  }
}

/* ---- public ------------------------------------------------------------------------ */

int teal_mb_articulated_factor(const teal_plant *plant, teal_mb_data *data, const double *q) {
  static const char fn[] = "teal_mb_articulated_factor";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0)) ||
      (st = teal_mb_data_position(data, t, q))) {
    return st;
  }
  data->factor_stamp = 0;
  for (int k = 1; k < t->num_nodes; k++) {
    inertia_to_mat6(&data->I[k], data->P[k].m);
  }
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    teal_spatial_vector Pac;
    if ((st = factor_node(data, t, k, fn, NULL, &Pac))) {
      return st;
    }
  }
  data->factor_stamp = data->pos_stamp;
  data->minv_blocks = 0;
  return TEAL_OK;
}

int teal_mb_articulated_solve(const teal_plant *plant, teal_mb_data *data, const double *rhs,
                              const teal_spatial_vector *F_Bo_W, double *x) {
  static const char fn[] = "teal_mb_articulated_solve";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_data_check_array(data, fn, "rhs", rhs, data->nv, 0)) ||
      (st = teal_mb_data_check_forces(data, fn, "F_Bo_W", F_Bo_W)) ||
      (st = teal_mb_data_check_out(data, fn, "x", x))) {
    return st;
  }
  if (!data->pos_valid || data->factor_stamp == 0 || data->factor_stamp != data->pos_stamp) {
    return teal_error_set(&data->err, TEAL_ESTATE,
                          "%s: no valid factorization (call teal_mb_articulated_factor at this q)",
                          fn);
  }
  init_nodes(data, t, 0, NULL, F_Bo_W);
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    bias_node(data, t, k, rhs, teal_spatial_vector_zero());
  }
  accel_pass(data, t, teal_spatial_vector_zero(), 0, x);
  return TEAL_OK;
}

/* Forward dynamics under the name fn. */
static int forward_dynamics(const char *fn, const teal_plant *plant, teal_mb_data *data,
                            const double *q, const double *v, const double *tau,
                            const teal_spatial_vector *F_app, double *vdot) {
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_data_check_array(data, fn, "q", q, data->nq, 0)) ||
      (st = teal_mb_data_check_array(data, fn, "v", v, data->nv, 0)) ||
      (st = teal_mb_data_check_array(data, fn, "tau", tau, data->nv, 1)) ||
      (st = teal_mb_data_check_forces(data, fn, "F_app_Bo_W", F_app)) ||
      (st = teal_mb_data_check_out(data, fn, "vdot", vdot)) ||
      (st = teal_mb_data_position(data, t, q))) {
    return st;
  }
  teal_mb_data_velocity(data, t, q, v);
  data->factor_stamp = 0;
  init_nodes(data, t, 1, data->pb, F_app);
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    teal_spatial_vector Pac;
    if ((st = factor_node(data, t, k, fn, &data->c[k], &Pac))) {
      return st;
    }
    bias_node(data, t, k, tau, Pac);
  }
  accel_pass(data, t, teal_mb_world_acceleration(data, 1), 1, vdot);
  data->factor_stamp = data->pos_stamp;
  data->minv_blocks = 0;
  return TEAL_OK;
}

int teal_mb_forward_dynamics_ex(const teal_plant *plant, teal_mb_data *data, const double *q,
                                const double *v, const double *tau,
                                const teal_spatial_vector *F_app_Bo_W, double *vdot) {
  return forward_dynamics("teal_mb_forward_dynamics_ex", plant, data, q, v, tau, F_app_Bo_W, vdot);
}

int teal_mb_forward_dynamics(const teal_plant *plant, teal_mb_data *data, const double *q,
                             const double *v, const double *tau, double *vdot) {
  return forward_dynamics("teal_mb_forward_dynamics", plant, data, q, v, tau, NULL, vdot);
}
