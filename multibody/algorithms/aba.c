/* Articulated-body inertias: the factorization of M(q), the O(n) solve
 * x = M^-1 (rhs + J' F) and forward dynamics (ABA) built from the same node
 * kernels (see dynamics.h; the formulation about a tree point O is in
 * dynamics_internal.h).
 *
 * Per node k, inward: P_k (the articulated inertia, starting from I_k),
 * U = P S, D = S' U, Ud = U D^-1 and the inertia passed to the parent
 * Pa = P - Ud U'. With a bias force Z_k (starting from the body's own bias),
 * u = tau_k - S' Z_k and the parent receives Z_k + Pa c_k + Ud u. Outward:
 * vdot_k = D^-1 u - Ud' a_in, a_k = a_in + S vdot_k with a_in = a_parent +
 * c_k. Since all nodes of a tree share the point O, no shifts are needed. */
#include <math.h>
#include <string.h>

#include "math/small_dense.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/dynamics_internal.h"

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

/* The largest diagonal entry of the n x n D: Cholesky pivots must stay
 * above 1e-13 times it. */
static double diagonal_scale(const double *D, int n) {
  double scale = 0.0;
  for (int i = 0; i < n; i++) {
    scale = fmax(scale, fabs(D[i * n + i]));
  }
  return scale;
}

/* ---- node kernels ----------------------------------------------------------- */

/* One-dof node: U = P s, D = s' U (checked against sum P_ii s_i^2),
 * Ud = U / D; returns U. */
static int factor_one(const double *P, const double *s, double *Ud, double *Dinv, double *U) {
  double D = 0.0, scale = 0.0;
  for (int i = 0; i < 6; i++) {
    const double *row = P + 6 * i;
    U[i] = row[0] * s[0] + row[1] * s[1] + row[2] * s[2] + row[3] * s[3] + row[4] * s[4] +
           row[5] * s[5];
    D += s[i] * U[i];
    scale += fabs(row[i]) * s[i] * s[i];
  }
  if (!(D > 1e-13 * scale) || !isfinite(D)) {
    return -1;
  }
  double dinv = 1.0 / D;
  *Dinv = dinv;
  for (int i = 0; i < 6; i++) {
    Ud[i] = U[i] * dinv;
  }
  return 0;
}

/* Multi-dof node (n columns of S, column-major): as factor_one with D^-1
 * from a Cholesky factorization; U is 6 x n column-major. */
static int factor_multi(const double *P, const double *S, int n, double *Ud, double *Dinv,
                        double *U) {
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
      D[i * n + j] = d;
    }
  }
  if (teal_small_cholesky(D, n, 1e-13 * diagonal_scale(D, n))) {
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
  return 0;
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
static int factor_node(teal_mb_workspace *ws, const teal_plant_tree *t, int k, const char *fn,
                       const teal_spatial_vector *c, teal_spatial_vector *Pac) {
  int n = t->nv[k], pk = t->parent[k];
  double *Ud = ws->Ud + 6 * t->v_start[k], *Dinv = ws->Dinv + ws->d_start[k];
  const double *P = ws->P[k].m, *S = teal_mb_ws_S(ws, t, k);
  double U[6 * TEAL_JOINT_MAX_NV];
  int bad = n == 1 ? factor_one(P, S, Ud, Dinv, U)
                   : n > 1 ? factor_multi(P, S, n, Ud, Dinv, U) : 0;
  if (bad) {
    return teal_error_set(&ws->err, TEAL_ESINGULAR,
                          "%s: articulated inertia of joint \"%s\" is not positive definite", fn,
                          teal_plant_joint_name(ws->plant, ws->joint[k]));
  }
  *Pac = teal_spatial_vector_zero();
  if (pk > 0) {
    pass_to_parent(P, Ud, U, n, ws->P[pk].m);
    if (c) {
      *Pac = articulated_times(P, Ud, U, n, *c);
    }
  }
  return TEAL_OK;
}

/* u_k = rhs_k - S' Z_k (rhs NULL: zero), and the parent's Z gets
 * Z_k + extra + Ud u. */
static void bias_node(teal_mb_workspace *ws, const teal_plant_tree *t, int k, const double *rhs,
                      teal_spatial_vector extra) {
  int n = t->nv[k], v0 = t->v_start[k], pk = t->parent[k];
  const double *S = teal_mb_ws_S(ws, t, k), *Ud = ws->Ud + 6 * v0;
  teal_spatial_vector Z = ws->f[k];
  double *u = ws->u + v0;
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
  ws->f[pk] = teal_spatial_vector_add(ws->f[pk], Z);
}

/* The outward pass: x_k = D^-1 u - Ud' a_in, a_k = a_in + S x_k with a_in =
 * a_parent (+ c_k if with_c); a0 the world's acceleration. */
static void accel_pass(teal_mb_workspace *ws, const teal_plant_tree *t, teal_spatial_vector a0,
                       int with_c, double *x) {
  ws->a[0] = a0;
  for (int k = 1; k < t->num_nodes; k++) {
    int n = t->nv[k], v0 = t->v_start[k];
    teal_spatial_vector a = ws->a[t->parent[k]];
    if (with_c) {
      a = teal_spatial_vector_add(a, ws->c[k]);
    }
    const double *S = teal_mb_ws_S(ws, t, k), *Ud = ws->Ud + 6 * v0;
    const double *Dinv = ws->Dinv + ws->d_start[k], *u = ws->u + v0;
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
    ws->a[k] = a;
  }
}

/* P_k = I_k for every node, and Z_k = bias_k - F_k about O (each part
 * optional). */
static void init_nodes(teal_mb_workspace *ws, const teal_plant_tree *t, int with_P,
                       const teal_spatial_vector *bias, const teal_spatial_vector *F_Bo_W) {
  for (int k = 1; k < t->num_nodes; k++) {
    if (with_P) {
      inertia_to_mat6(&ws->I[k], ws->P[k].m);
    }
    teal_spatial_vector Z = bias ? bias[k] : teal_spatial_vector_zero();
    if (F_Bo_W) {
      Z = teal_spatial_vector_sub(Z, teal_mb_force_about_O(ws, k, F_Bo_W[ws->body[k]]));
    }
    ws->f[k] = Z;
  }
}

/* ---- public ------------------------------------------------------------------------ */

int teal_mb_articulated_factor(const teal_plant *plant, teal_mb_workspace *ws, const double *q) {
  static const char fn[] = "teal_mb_articulated_factor";
  int st;
  const teal_plant_tree *t = teal_mb_ws_begin(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_ws_check_array(ws, fn, "q", q, ws->nq, 0)) ||
      (st = teal_mb_ws_position(ws, t, q))) {
    return st;
  }
  ws->factor_stamp = 0;
  for (int k = 1; k < t->num_nodes; k++) {
    inertia_to_mat6(&ws->I[k], ws->P[k].m);
  }
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    teal_spatial_vector Pac;
    if ((st = factor_node(ws, t, k, fn, NULL, &Pac))) {
      return st;
    }
  }
  ws->factor_stamp = ws->pos_stamp;
  return TEAL_OK;
}

int teal_mb_articulated_solve(const teal_plant *plant, teal_mb_workspace *ws, const double *rhs,
                              const teal_spatial_vector *F_Bo_W, double *x) {
  static const char fn[] = "teal_mb_articulated_solve";
  int st;
  const teal_plant_tree *t = teal_mb_ws_begin(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_ws_check_array(ws, fn, "rhs", rhs, ws->nv, 0)) ||
      (st = teal_mb_ws_check_forces(ws, fn, "F_Bo_W", F_Bo_W)) ||
      (st = teal_mb_ws_check_out(ws, fn, "x", x))) {
    return st;
  }
  if (!ws->pos_valid || ws->factor_stamp == 0 || ws->factor_stamp != ws->pos_stamp) {
    return teal_error_set(&ws->err, TEAL_ESTATE,
                          "%s: no valid factorization (call teal_mb_articulated_factor at this q)",
                          fn);
  }
  init_nodes(ws, t, 0, NULL, F_Bo_W);
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    bias_node(ws, t, k, rhs, teal_spatial_vector_zero());
  }
  accel_pass(ws, t, teal_spatial_vector_zero(), 0, x);
  return TEAL_OK;
}

/* Forward dynamics under the name fn. */
static int forward_dynamics(const char *fn, const teal_plant *plant, teal_mb_workspace *ws,
                            const double *q, const double *v, const double *tau,
                            const teal_spatial_vector *F_app, double *vdot) {
  int st;
  const teal_plant_tree *t = teal_mb_ws_begin(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_ws_check_array(ws, fn, "q", q, ws->nq, 0)) ||
      (st = teal_mb_ws_check_array(ws, fn, "v", v, ws->nv, 0)) ||
      (st = teal_mb_ws_check_array(ws, fn, "tau", tau, ws->nv, 1)) ||
      (st = teal_mb_ws_check_forces(ws, fn, "F_app_Bo_W", F_app)) ||
      (st = teal_mb_ws_check_out(ws, fn, "vdot", vdot)) || (st = teal_mb_ws_position(ws, t, q))) {
    return st;
  }
  teal_mb_ws_velocity(ws, t, q, v);
  ws->factor_stamp = 0;
  init_nodes(ws, t, 1, ws->pb, F_app);
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    teal_spatial_vector Pac;
    if ((st = factor_node(ws, t, k, fn, &ws->c[k], &Pac))) {
      return st;
    }
    bias_node(ws, t, k, tau, Pac);
  }
  accel_pass(ws, t, teal_mb_world_acceleration(ws, 1), 1, vdot);
  ws->factor_stamp = ws->pos_stamp;
  return TEAL_OK;
}

int teal_mb_forward_dynamics_ex(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                                const double *v, const double *tau,
                                const teal_spatial_vector *F_app_Bo_W, double *vdot) {
  return forward_dynamics("teal_mb_forward_dynamics_ex", plant, ws, q, v, tau, F_app_Bo_W, vdot);
}

int teal_mb_forward_dynamics(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                             const double *v, const double *tau, double *vdot) {
  return forward_dynamics("teal_mb_forward_dynamics", plant, ws, q, v, tau, NULL, vdot);
}
