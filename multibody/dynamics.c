/* O(n) dynamics: RNEA, CRBA, ABA and energies (see dynamics.h).
 *
 * All per-node quantities are in W about the body origin Bo. With p_PoBo the
 * offset from the parent origin to Bo (in W), the rigid shifts are
 *   motion  Phi' A_P = [alpha; a_P + alpha x p_PoBo]  (teal_spatial_velocity_shift)
 *   force   Phi F_B  = F_B moved to Po                (teal_spatial_force_shift by -p_PoBo)
 * and Phi = [1 -[p]x; 0 1] with p = p_BoPo as a 6x6 matrix. */
#include "multibody/dynamics.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/kinematics.h"

#define NV_MAX TEAL_JOINT_MAX_NV

struct teal_mb_workspace {
  const teal_plant *plant;
  int nb, nn, nq, nv;
  teal_error err;
  teal_transform *X_WB;       /* [nb] by body */
  teal_spatial_vector *V_WB;  /* [nb] by body */
  int *body;                  /* [nn] node -> body */
  double *S;                  /* [nn][6 * NV_MAX] columns of S (6 x nv, row-major) */
  teal_vec3 *p_PoBo;          /* [nn] */
  teal_spatial_vector *Ab;    /* [nn] velocity-dependent acceleration terms */
  teal_spatial_vector *A;     /* [nn] A_WB */
  teal_spatial_vector *F;     /* [nn] forces / ABA bias forces Z */
  teal_spatial_inertia *Mw;   /* [nn] M_Bo_W */
  teal_spatial_inertia *K;    /* [nn] composite inertias */
  teal_mat6 *P;               /* [nn] articulated inertias */
  double *U;                  /* [nn][6 * NV_MAX] P S */
  double *L;                  /* [nn][NV_MAX * NV_MAX] Cholesky of S' P S */
  double *u;                  /* [nn][NV_MAX] tau - S' Z */
  double *zero;               /* [nv] zeros */
};

/* ---- workspace ------------------------------------------------------------ */

teal_mb_workspace *teal_mb_workspace_new(const teal_plant *plant, teal_error *err) {
  if (!plant) {
    teal_error_set(err, TEAL_EINVAL, "teal_mb_workspace_new: NULL plant");
    return NULL;
  }
  if (!teal_plant_is_finalized(plant)) {
    teal_error_set(err, TEAL_ESTATE, "teal_mb_workspace_new: plant is not finalized");
    return NULL;
  }
  teal_mb_workspace *ws = teal_calloc(1, sizeof(*ws));
  if (!ws) {
    teal_error_set(err, TEAL_ENOMEM, "teal_mb_workspace_new: out of memory");
    return NULL;
  }
  ws->plant = plant;
  ws->nb = teal_plant_num_bodies(plant);
  ws->nn = teal_plant_num_nodes(plant);
  ws->nq = teal_plant_nq(plant);
  ws->nv = teal_plant_nv(plant);
  size_t nn = (size_t)ws->nn, nb = (size_t)ws->nb;
  ws->X_WB = teal_calloc(nb, sizeof(*ws->X_WB));
  ws->V_WB = teal_calloc(nb, sizeof(*ws->V_WB));
  ws->body = teal_calloc(nn, sizeof(*ws->body));
  ws->S = teal_calloc(nn * 6 * NV_MAX, sizeof(double));
  ws->p_PoBo = teal_calloc(nn, sizeof(*ws->p_PoBo));
  ws->Ab = teal_calloc(nn, sizeof(*ws->Ab));
  ws->A = teal_calloc(nn, sizeof(*ws->A));
  ws->F = teal_calloc(nn, sizeof(*ws->F));
  ws->Mw = teal_calloc(nn, sizeof(*ws->Mw));
  ws->K = teal_calloc(nn, sizeof(*ws->K));
  ws->P = teal_calloc(nn, sizeof(*ws->P));
  ws->U = teal_calloc(nn * 6 * NV_MAX, sizeof(double));
  ws->L = teal_calloc(nn * NV_MAX * NV_MAX, sizeof(double));
  ws->u = teal_calloc(nn * NV_MAX, sizeof(double));
  ws->zero = teal_calloc((size_t)ws->nv + 1, sizeof(double));
  if (!ws->X_WB || !ws->V_WB || !ws->body || !ws->S || !ws->p_PoBo || !ws->Ab || !ws->A ||
      !ws->F || !ws->Mw || !ws->K || !ws->P || !ws->U || !ws->L || !ws->u || !ws->zero) {
    teal_mb_workspace_free(ws);
    teal_error_set(err, TEAL_ENOMEM, "teal_mb_workspace_new: out of memory");
    return NULL;
  }
  for (int k = 0; k < ws->nn; k++) {
    ws->body[k] = teal_plant_node_body(plant, k);
  }
  return ws;
}

void teal_mb_workspace_free(teal_mb_workspace *ws) {
  if (!ws) {
    return;
  }
  teal_free(ws->X_WB);
  teal_free(ws->V_WB);
  teal_free(ws->body);
  teal_free(ws->S);
  teal_free(ws->p_PoBo);
  teal_free(ws->Ab);
  teal_free(ws->A);
  teal_free(ws->F);
  teal_free(ws->Mw);
  teal_free(ws->K);
  teal_free(ws->P);
  teal_free(ws->U);
  teal_free(ws->L);
  teal_free(ws->u);
  teal_free(ws->zero);
  teal_free(ws);
}

const teal_error *teal_mb_workspace_error(const teal_mb_workspace *ws) {
  return ws ? &ws->err : NULL;
}

/* ---- validation ------------------------------------------------------------ */

/* Checks plant/ws and returns the tree (NULL with *status set on failure). */
static const teal_plant_tree *check_plant(const teal_plant *plant, teal_mb_workspace *ws,
                                          const char *fn, int *status) {
  if (!ws) {
    *status = TEAL_EINVAL;
    return NULL;
  }
  teal_error_clear(&ws->err);
  if (!plant) {
    *status = teal_error_set(&ws->err, TEAL_EINVAL, "%s: NULL plant", fn);
    return NULL;
  }
  const teal_plant_tree *t = teal_plant_get_tree(plant);
  if (!t) {
    *status = teal_error_set(&ws->err, TEAL_ESTATE, "%s: plant is not finalized", fn);
    return NULL;
  }
  if (ws->plant != plant || ws->nn != t->num_nodes || ws->nv != teal_plant_nv(plant) ||
      ws->nq != teal_plant_nq(plant)) {
    *status = teal_error_set(&ws->err, TEAL_EINVAL, "%s: workspace made for another plant", fn);
    return NULL;
  }
  *status = TEAL_OK;
  return t;
}

/* x (n values) must be non-NULL (unless optional) and finite. */
static int check_array(teal_mb_workspace *ws, const char *fn, const char *name, const double *x,
                       int n, int optional) {
  if (!x) {
    return optional ? TEAL_OK
                    : teal_error_set(&ws->err, TEAL_EINVAL, "%s: NULL %s", fn, name);
  }
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return teal_error_set(&ws->err, TEAL_ENONFINITE, "%s: %s[%d] is not finite (%g)", fn,
                            name, i, x[i]);
    }
  }
  return TEAL_OK;
}

static int check_out(teal_mb_workspace *ws, const char *fn, const char *name, const void *x) {
  return x ? TEAL_OK : teal_error_set(&ws->err, TEAL_EINVAL, "%s: NULL %s", fn, name);
}

/* ---- shared kinematics -------------------------------------------------------- */

static inline teal_spatial_vector s_col(const double *S, int nv, int j) {
  teal_spatial_vector s;
  for (int r = 0; r < 6; r++) {
    s.v[r] = S[r * nv + j];
  }
  return s;
}

/* S x for a 6 x n row-major S. */
static inline teal_spatial_vector s_apply(const double *S, int n, const double *x) {
  teal_spatial_vector r = teal_spatial_vector_zero();
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < n; j++) {
      r.v[i] += S[i * n + j] * x[j];
    }
  }
  return r;
}

/* y = S' f for a 6 x n row-major S. */
static inline void s_apply_transpose(const double *S, int n, teal_spatial_vector f, double *y) {
  for (int j = 0; j < n; j++) {
    double s = 0.0;
    for (int i = 0; i < 6; i++) {
      s += S[i * n + j] * f.v[i];
    }
    y[j] = s;
  }
}

/* Poses (and velocities if v), then per node: p_PoBo, S, M_Bo_W and, if v,
 * the velocity-dependent acceleration Ab. */
static int prepare(const teal_plant *plant, const teal_plant_tree *t, teal_mb_workspace *ws,
                   const double *q, const double *v) {
  int st = v ? teal_plant_calc_body_velocities(plant, q, v, ws->X_WB, ws->V_WB)
             : teal_plant_calc_body_poses(plant, q, ws->X_WB);
  if (st) {
    return teal_error_set(&ws->err, st, "teal_mb: kinematics failed");
  }
  ws->Ab[0] = teal_spatial_vector_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    int b = ws->body[k], pb = ws->body[t->parent[k]], nv = t->nv[k];
    const teal_transform *X_WB = &ws->X_WB[b], *X_WP = &ws->X_WB[pb];
    teal_rotation R_WF = teal_rotation_mul(X_WP->R, t->X_PF[k].R);
    teal_vec3 p_MoBo_W = teal_vec3_neg(teal_rotation_apply(X_WB->R, t->X_BM[k].p));
    ws->p_PoBo[k] = teal_vec3_sub(X_WB->p, X_WP->p);
    ws->Mw[k] = teal_spatial_inertia_reexpress(&t->M_BBo_B[k], X_WB->R);
    double *S = ws->S + (size_t)k * 6 * NV_MAX;
    if (nv > 0) {
      double H[6 * NV_MAX];
      t->type[k]->H_FM(&t->params[k], q + t->q_start[k], H);
      for (int j = 0; j < nv; j++) {
        teal_spatial_vector s = teal_spatial_velocity_shift(
            teal_spatial_vector_reexpress(R_WF, s_col(H, nv, j)), p_MoBo_W);
        for (int r = 0; r < 6; r++) {
          S[r * nv + j] = s.v[r];
        }
      }
    }
    if (!v) {
      ws->Ab[k] = teal_spatial_vector_zero();
      continue;
    }
    const double *vk = v + t->v_start[k];
    teal_spatial_vector V_PB = s_apply(S, nv, vk); /* at Bo, in W */
    teal_vec3 w_PB = teal_spatial_vector_angular(V_PB), v_PB = teal_spatial_vector_linear(V_PB);
    teal_vec3 w_WP = teal_spatial_vector_angular(ws->V_WB[pb]);
    /* relative acceleration bias: Hdot v at Mo in F, re-expressed, shifted to Bo */
    teal_spatial_vector Ab = teal_spatial_vector_zero();
    if (nv > 0) {
      teal_spatial_vector hd = t->type[k]->Hdot_v(&t->params[k], q + t->q_start[k], vk);
      Ab = teal_spatial_acceleration_shift(teal_spatial_vector_reexpress(R_WF, hd), p_MoBo_W,
                                           w_PB);
    }
    /* composition with the moving parent frame */
    teal_vec3 p = ws->p_PoBo[k];
    teal_vec3 ang = teal_vec3_cross(w_WP, w_PB);
    teal_vec3 lin = teal_vec3_add(teal_vec3_cross(w_WP, teal_vec3_cross(w_WP, p)),
                                  teal_vec3_scale(teal_vec3_cross(w_WP, v_PB), 2.0));
    ws->Ab[k] = teal_spatial_vector_add(Ab, teal_spatial_vector_make(ang, lin));
  }
  return TEAL_OK;
}

/* The gyroscopic force [w x I w; m w x (w x p)] of body node k (if with_v)
 * minus its gravity force [p x m g; m g] (if with_g), at Bo in W. */
static teal_spatial_vector bias_force(const teal_mb_workspace *ws, int k, int with_v,
                                      int with_g, teal_vec3 g) {
  const teal_spatial_inertia *M = &ws->Mw[k];
  teal_spatial_vector Fb = teal_spatial_vector_zero();
  if (with_v) {
    teal_vec3 w = teal_spatial_vector_angular(ws->V_WB[ws->body[k]]);
    Fb = teal_spatial_vector_make(
        teal_vec3_cross(w, teal_mat3_apply(M->I_SP_E, w)),
        teal_vec3_scale(teal_vec3_cross(w, teal_vec3_cross(w, M->p_PScm_E)), M->mass));
  }
  if (with_g) {
    teal_vec3 mg = teal_vec3_scale(g, M->mass);
    Fb = teal_spatial_vector_sub(Fb,
                                 teal_spatial_vector_make(teal_vec3_cross(M->p_PScm_E, mg), mg));
  }
  return Fb;
}

/* RNEA: tau = S' F with F = M A + bias forces, over the subtree. */
static int rnea(const teal_plant *plant, const teal_plant_tree *t, teal_mb_workspace *ws,
                const double *q, const double *v, const double *vdot, int with_g,
                const double *tau_applied, double *tau) {
  int st = prepare(plant, t, ws, q, v);
  if (st) {
    return st;
  }
  teal_vec3 g = teal_plant_gravity(plant);
  ws->A[0] = teal_spatial_vector_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    const double *S = ws->S + (size_t)k * 6 * NV_MAX;
    teal_spatial_vector A = teal_spatial_velocity_shift(ws->A[t->parent[k]], ws->p_PoBo[k]);
    A = teal_spatial_vector_add(A, ws->Ab[k]);
    if (vdot) {
      A = teal_spatial_vector_add(A, s_apply(S, t->nv[k], vdot + t->v_start[k]));
    }
    ws->A[k] = A;
    ws->F[k] = teal_spatial_vector_add(teal_spatial_inertia_apply(&ws->Mw[k], A),
                                       bias_force(ws, k, v != NULL, with_g, g));
  }
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    const double *S = ws->S + (size_t)k * 6 * NV_MAX;
    int n = t->nv[k], v0 = t->v_start[k];
    s_apply_transpose(S, n, ws->F[k], tau + v0);
    if (tau_applied) {
      for (int i = 0; i < n; i++) {
        tau[v0 + i] -= tau_applied[v0 + i];
      }
    }
    int pk = t->parent[k];
    if (pk > 0) {
      ws->F[pk] = teal_spatial_vector_add(
          ws->F[pk], teal_spatial_force_shift(ws->F[k], teal_vec3_neg(ws->p_PoBo[k])));
    }
  }
  return TEAL_OK;
}

/* ---- public: RNEA family ------------------------------------------------------ */

int teal_mb_inverse_dynamics(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                             const double *v, const double *vdot, const double *tau_applied,
                             double *tau) {
  static const char fn[] = "teal_mb_inverse_dynamics";
  int st;
  const teal_plant_tree *t = check_plant(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = check_array(ws, fn, "q", q, ws->nq, 0)) || (st = check_array(ws, fn, "v", v, ws->nv, 0)) ||
      (st = check_array(ws, fn, "vdot", vdot, ws->nv, 0)) ||
      (st = check_array(ws, fn, "tau_applied", tau_applied, ws->nv, 1)) ||
      (st = check_out(ws, fn, "tau", tau))) {
    return st;
  }
  return rnea(plant, t, ws, q, v, vdot, 1, tau_applied, tau);
}

int teal_mb_bias_term(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                      const double *v, double *Cv) {
  static const char fn[] = "teal_mb_bias_term";
  int st;
  const teal_plant_tree *t = check_plant(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = check_array(ws, fn, "q", q, ws->nq, 0)) || (st = check_array(ws, fn, "v", v, ws->nv, 0)) ||
      (st = check_out(ws, fn, "Cv", Cv))) {
    return st;
  }
  return rnea(plant, t, ws, q, v, NULL, 0, NULL, Cv);
}

int teal_mb_gravity_forces(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                           double *tau_g) {
  static const char fn[] = "teal_mb_gravity_forces";
  int st;
  const teal_plant_tree *t = check_plant(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = check_array(ws, fn, "q", q, ws->nq, 0)) || (st = check_out(ws, fn, "tau_g", tau_g))) {
    return st;
  }
  if ((st = rnea(plant, t, ws, q, NULL, NULL, 1, NULL, tau_g))) {
    return st;
  }
  for (int i = 0; i < ws->nv; i++) {
    tau_g[i] = -tau_g[i];
  }
  return TEAL_OK;
}

/* ---- CRBA ---------------------------------------------------------------------- */

int teal_mb_mass_matrix(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                        double *M) {
  static const char fn[] = "teal_mb_mass_matrix";
  int st;
  const teal_plant_tree *t = check_plant(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = check_array(ws, fn, "q", q, ws->nq, 0)) || (st = check_out(ws, fn, "M", M))) {
    return st;
  }
  if ((st = prepare(plant, t, ws, q, NULL))) {
    return st;
  }
  int nv = ws->nv;
  memset(M, 0, sizeof(double) * (size_t)nv * (size_t)nv);
  for (int k = 1; k < t->num_nodes; k++) {
    ws->K[k] = ws->Mw[k];
  }
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    int pk = t->parent[k];
    if (pk > 0) {
      teal_spatial_inertia Ks = teal_spatial_inertia_shift(&ws->K[k], teal_vec3_neg(ws->p_PoBo[k]));
      ws->K[pk] = teal_spatial_inertia_add(&ws->K[pk], &Ks);
    }
  }
  for (int k = 1; k < t->num_nodes; k++) {
    int n = t->nv[k], v0 = t->v_start[k];
    const double *S = ws->S + (size_t)k * 6 * NV_MAX;
    for (int j = 0; j < n; j++) {
      teal_spatial_vector F = teal_spatial_inertia_apply(&ws->K[k], s_col(S, n, j));
      double col[NV_MAX];
      s_apply_transpose(S, n, F, col);
      for (int i = 0; i < n; i++) {
        M[(v0 + i) * nv + v0 + j] = col[i];
      }
      for (int a = k; t->parent[a] > 0;) {
        F = teal_spatial_force_shift(F, teal_vec3_neg(ws->p_PoBo[a]));
        a = t->parent[a];
        int na = t->nv[a], va = t->v_start[a];
        s_apply_transpose(ws->S + (size_t)a * 6 * NV_MAX, na, F, col);
        for (int i = 0; i < na; i++) {
          M[(va + i) * nv + v0 + j] = col[i];
          M[(v0 + j) * nv + va + i] = col[i];
        }
      }
    }
  }
  return TEAL_OK;
}

/* ---- ABA ----------------------------------------------------------------------- */

/* Cholesky of the n x n SPD D (row-major, n <= NV_MAX) into lower L; 0 or -1. */
static int small_cholesky(const double *D, int n, double *L) {
  double scale = 0.0;
  for (int i = 0; i < n; i++) {
    scale = fmax(scale, fabs(D[i * n + i]));
  }
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++) {
      double s = D[i * n + j];
      for (int m = 0; m < j; m++) {
        s -= L[i * n + m] * L[j * n + m];
      }
      if (i == j) {
        if (!(s > 1e-13 * scale) || !isfinite(s)) {
          return -1;
        }
        L[i * n + i] = sqrt(s);
      } else {
        L[i * n + j] = s / L[j * n + j];
      }
    }
    for (int j = i + 1; j < n; j++) {
      L[i * n + j] = 0.0;
    }
  }
  return 0;
}

/* x <- D^-1 x with D = L L'. */
static void small_solve(const double *L, int n, double *x) {
  for (int i = 0; i < n; i++) {
    double s = x[i];
    for (int m = 0; m < i; m++) {
      s -= L[i * n + m] * x[m];
    }
    x[i] = s / L[i * n + i];
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = x[i];
    for (int m = i + 1; m < n; m++) {
      s -= L[m * n + i] * x[m];
    }
    x[i] = s / L[i * n + i];
  }
}

/* Phi P Phi' with Phi = [1 -[p]x; 0 1], p = p_BoPo. */
static teal_mat6 shift_articulated(const teal_mat6 *P, teal_vec3 p_BoPo) {
  teal_mat6 Phi = teal_mat6_from_blocks(teal_mat3_identity(), teal_mat3_scale(teal_mat3_skew(p_BoPo), -1.0),
                                        teal_mat3_zero(), teal_mat3_identity());
  teal_mat6 PhiT = teal_mat6_transpose(&Phi);
  teal_mat6 T = teal_mat6_mul(&Phi, P);
  return teal_mat6_mul(&T, &PhiT);
}

int teal_mb_forward_dynamics(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                             const double *v, const double *tau, double *vdot) {
  static const char fn[] = "teal_mb_forward_dynamics";
  int st;
  const teal_plant_tree *t = check_plant(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = check_array(ws, fn, "q", q, ws->nq, 0)) || (st = check_array(ws, fn, "v", v, ws->nv, 0)) ||
      (st = check_array(ws, fn, "tau", tau, ws->nv, 1)) || (st = check_out(ws, fn, "vdot", vdot))) {
    return st;
  }
  /* pass 1: kinematics and velocity-dependent terms */
  if ((st = prepare(plant, t, ws, q, v))) {
    return st;
  }
  teal_vec3 g = teal_plant_gravity(plant);
  for (int k = 1; k < t->num_nodes; k++) {
    ws->P[k] = teal_spatial_inertia_to_mat6(&ws->Mw[k]);
    ws->F[k] = bias_force(ws, k, 1, 1, g);
  }
  /* pass 2: articulated inertias P and bias forces Z (in F), inward */
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    int n = t->nv[k], v0 = t->v_start[k];
    const double *S = ws->S + (size_t)k * 6 * NV_MAX;
    double *U = ws->U + (size_t)k * 6 * NV_MAX, *L = ws->L + (size_t)k * NV_MAX * NV_MAX;
    double *u = ws->u + (size_t)k * NV_MAX;
    teal_mat6 Pp = ws->P[k];
    teal_spatial_vector Zp = ws->F[k];
    if (n > 0) {
      double D[NV_MAX * NV_MAX], W[NV_MAX * 6];
      for (int i = 0; i < 6; i++) { /* U = P S */
        for (int j = 0; j < n; j++) {
          double s = 0.0;
          for (int m = 0; m < 6; m++) {
            s += ws->P[k].m[i * 6 + m] * S[m * n + j];
          }
          U[i * n + j] = s;
        }
      }
      for (int i = 0; i < n; i++) { /* D = S' U */
        for (int j = 0; j < n; j++) {
          double s = 0.0;
          for (int m = 0; m < 6; m++) {
            s += S[m * n + i] * U[m * n + j];
          }
          D[i * n + j] = s;
        }
      }
      if (small_cholesky(D, n, L)) {
        return teal_error_set(&ws->err, TEAL_ESINGULAR,
                              "%s: articulated inertia of joint \"%s\" is not positive definite",
                              fn, teal_plant_joint_name(plant, teal_plant_body_joint(plant, ws->body[k])));
      }
      s_apply_transpose(S, n, ws->F[k], u); /* u = tau - S' Z */
      for (int i = 0; i < n; i++) {
        u[i] = (tau ? tau[v0 + i] : 0.0) - u[i];
      }
      for (int c = 0; c < 6; c++) { /* W = D^-1 U' (n x 6, column c) */
        double x[NV_MAX];
        for (int i = 0; i < n; i++) {
          x[i] = U[c * n + i];
        }
        small_solve(L, n, x);
        for (int i = 0; i < n; i++) {
          W[i * 6 + c] = x[i];
        }
      }
      for (int i = 0; i < 6; i++) { /* P+ = P - U W */
        for (int j = 0; j < 6; j++) {
          double s = 0.0;
          for (int m = 0; m < n; m++) {
            s += U[i * n + m] * W[m * 6 + j];
          }
          Pp.m[i * 6 + j] -= s;
        }
      }
      double x[NV_MAX]; /* Z+ = Z + P+ Ab + U D^-1 u */
      memcpy(x, u, sizeof(double) * (size_t)n);
      small_solve(L, n, x);
      Zp = teal_spatial_vector_add(Zp, s_apply(U, n, x));
    }
    Zp = teal_spatial_vector_add(Zp, teal_mat6_apply(&Pp, ws->Ab[k]));
    int pk = t->parent[k];
    if (pk > 0) {
      teal_vec3 p_BoPo = teal_vec3_neg(ws->p_PoBo[k]);
      teal_mat6 Ps = shift_articulated(&Pp, p_BoPo);
      ws->P[pk] = teal_mat6_add(&ws->P[pk], &Ps);
      ws->F[pk] = teal_spatial_vector_add(ws->F[pk], teal_spatial_force_shift(Zp, p_BoPo));
    }
  }
  /* pass 3: accelerations, outward */
  ws->A[0] = teal_spatial_vector_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    int n = t->nv[k], v0 = t->v_start[k];
    teal_spatial_vector a = teal_spatial_vector_add(
        teal_spatial_velocity_shift(ws->A[t->parent[k]], ws->p_PoBo[k]), ws->Ab[k]);
    if (n > 0) {
      const double *S = ws->S + (size_t)k * 6 * NV_MAX;
      const double *U = ws->U + (size_t)k * 6 * NV_MAX, *L = ws->L + (size_t)k * NV_MAX * NV_MAX;
      const double *u = ws->u + (size_t)k * NV_MAX;
      double x[NV_MAX];
      s_apply_transpose(U, n, a, x);
      for (int i = 0; i < n; i++) {
        x[i] = u[i] - x[i];
      }
      small_solve(L, n, x);
      memcpy(vdot + v0, x, sizeof(double) * (size_t)n);
      a = teal_spatial_vector_add(a, s_apply(S, n, x));
    }
    ws->A[k] = a;
  }
  return TEAL_OK;
}

/* ---- energies ---------------------------------------------------------------------- */

int teal_mb_kinetic_energy(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                           const double *v, double *ke) {
  static const char fn[] = "teal_mb_kinetic_energy";
  int st;
  const teal_plant_tree *t = check_plant(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = check_array(ws, fn, "q", q, ws->nq, 0)) || (st = check_array(ws, fn, "v", v, ws->nv, 0)) ||
      (st = check_out(ws, fn, "ke", ke))) {
    return st;
  }
  if ((st = teal_plant_calc_body_velocities(plant, q, v, ws->X_WB, ws->V_WB))) {
    return teal_error_set(&ws->err, st, "%s: kinematics failed", fn);
  }
  double e = 0.0;
  for (int k = 1; k < t->num_nodes; k++) {
    int b = ws->body[k];
    teal_spatial_inertia Mw = teal_spatial_inertia_reexpress(&t->M_BBo_B[k], ws->X_WB[b].R);
    e += teal_spatial_inertia_kinetic_energy(&Mw, ws->V_WB[b]);
  }
  *ke = e;
  return TEAL_OK;
}

int teal_mb_potential_energy(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                             double *pe) {
  static const char fn[] = "teal_mb_potential_energy";
  int st;
  const teal_plant_tree *t = check_plant(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = check_array(ws, fn, "q", q, ws->nq, 0)) || (st = check_out(ws, fn, "pe", pe))) {
    return st;
  }
  if ((st = teal_plant_calc_body_poses(plant, q, ws->X_WB))) {
    return teal_error_set(&ws->err, st, "%s: kinematics failed", fn);
  }
  teal_vec3 g = teal_plant_gravity(plant);
  double e = 0.0;
  for (int k = 1; k < t->num_nodes; k++) {
    const teal_transform *X = &ws->X_WB[ws->body[k]];
    const teal_spatial_inertia *M = &t->M_BBo_B[k];
    teal_vec3 p_WBcm = teal_vec3_add(X->p, teal_rotation_apply(X->R, M->p_PScm_E));
    e -= M->mass * teal_vec3_dot(g, p_WBcm);
  }
  *pe = e;
  return TEAL_OK;
}
