/* The dynamics workspace, argument checks, the position and velocity stages
 * shared by every algorithm, and the energies (see dynamics.h and the
 * formulation in dynamics_internal.h). */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/dynamics_internal.h"
#include "multibody/tree/topology.h"

/* ---- workspace ------------------------------------------------------------ */

/* A two-pass layout: with base NULL it only sums sizes. */
typedef struct layout {
  char *base;
  size_t off;
} layout;

static void *take(layout *L, size_t n, size_t size) {
  size_t start = (L->off + 15) & ~(size_t)15;
  L->off = start + n * size;
  return L->base ? L->base + start : NULL;
}

/* Assigns (or sizes) every array of ws. */
static void ws_layout(teal_mb_workspace *ws, size_t nd, layout *L) {
  size_t nn = (size_t)ws->nn, nv = (size_t)ws->nv;
  ws->body = take(L, nn, sizeof(int));
  ws->joint = take(L, nn, sizeof(int));
  ws->d_start = take(L, nn, sizeof(int));
  ws->flags = take(L, nn, sizeof(int));
  ws->X_MB = take(L, nn, sizeof(teal_transform));
  ws->p_BBcm = take(L, nn, sizeof(teal_vec3));
  ws->I_Bcm = take(L, nn, sizeof(teal_mat3));
  ws->q_pos = take(L, (size_t)ws->nq + 1, sizeof(double));
  ws->X = take(L, nn, sizeof(teal_transform));
  ws->O = take(L, nn, sizeof(teal_vec3));
  ws->S = take(L, 6 * nv + 1, sizeof(double));
  ws->I = take(L, nn, sizeof(teal_mb_inertia));
  ws->V = take(L, nn, sizeof(teal_spatial_vector));
  ws->c = take(L, nn, sizeof(teal_spatial_vector));
  ws->pb = take(L, nn, sizeof(teal_spatial_vector));
  ws->a = take(L, nn, sizeof(teal_spatial_vector));
  ws->f = take(L, nn, sizeof(teal_spatial_vector));
  ws->Ic = take(L, nn, sizeof(teal_mb_inertia));
  ws->P = take(L, nn, sizeof(teal_mat6));
  ws->Ud = take(L, 6 * nv + 1, sizeof(double));
  ws->Dinv = take(L, nd + 1, sizeof(double));
  ws->u = take(L, nv + 1, sizeof(double));
}

static int is_identity(teal_rotation R) {
  teal_rotation I = teal_rotation_identity();
  return memcmp(R.m, I.m, sizeof R.m) == 0;
}

/* The constant per-node data and the world node's stage values. */
static void ws_fill_constants(teal_mb_workspace *ws, const teal_plant_tree *t) {
  int d = 0;
  for (int k = 0; k < ws->nn; k++) {
    const teal_spatial_inertia *M = &t->M_BBo_B[k];
    ws->body[k] = teal_plant_node_body(ws->plant, k);
    ws->joint[k] = k == 0 ? -1 : teal_plant_body_joint(ws->plant, ws->body[k]);
    ws->d_start[k] = d;
    d += t->nv[k] * t->nv[k];
    ws->X_MB[k] = teal_transform_inverse(t->X_BM[k]);
    ws->flags[k] = (is_identity(t->X_PF[k].R) ? TEAL_MB_F_UNROTATED : 0) |
                   (is_identity(ws->X_MB[k].R) ? TEAL_MB_M_UNROTATED : 0) |
                   (teal_vec3_norm(ws->X_MB[k].p) == 0.0 ? TEAL_MB_M_AT_BO : 0);
    ws->p_BBcm[k] = M->p_PScm_E;
    ws->I_Bcm[k] = teal_spatial_inertia_central(M);
  }
  ws->X[0] = teal_transform_identity();
  ws->O[0] = teal_vec3_zero();
  ws->V[0] = ws->c[0] = ws->pb[0] = teal_spatial_vector_zero();
}

teal_mb_workspace *teal_mb_workspace_new(const teal_plant *plant, teal_error *err) {
  if (!plant) {
    teal_error_set(err, TEAL_EINVAL, "teal_mb_workspace_new: NULL plant");
    return NULL;
  }
  const teal_plant_tree *t = teal_plant_get_tree(plant);
  if (!t) {
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
  ws->nn = t->num_nodes;
  ws->nq = teal_plant_nq(plant);
  ws->nv = teal_plant_nv(plant);
  size_t nd = 0;
  for (int k = 0; k < ws->nn; k++) {
    nd += (size_t)(t->nv[k] * t->nv[k]);
  }
  layout L = {NULL, 0};
  ws_layout(ws, nd, &L);
  ws->buffer = teal_calloc(1, L.off);
  if (!ws->buffer) {
    teal_free(ws);
    teal_error_set(err, TEAL_ENOMEM, "teal_mb_workspace_new: out of memory");
    return NULL;
  }
  L.base = ws->buffer;
  L.off = 0;
  ws_layout(ws, nd, &L);
  ws_fill_constants(ws, t);
  return ws;
}

void teal_mb_workspace_free(teal_mb_workspace *ws) {
  if (ws) {
    teal_free(ws->buffer);
    teal_free(ws);
  }
}

const teal_error *teal_mb_workspace_error(const teal_mb_workspace *ws) {
  return ws ? &ws->err : NULL;
}

int teal_mb_workspace_set_gravity(teal_mb_workspace *ws, teal_vec3 g_W) {
  if (!ws) {
    return TEAL_EINVAL;
  }
  if (!teal_vec3_is_finite(g_W)) {
    return teal_error_set(&ws->err, TEAL_ENONFINITE,
                          "teal_mb_workspace_set_gravity: g_W is not finite");
  }
  ws->g = g_W;
  ws->gravity_set = 1;
  return TEAL_OK;
}

/* ---- validation ------------------------------------------------------------ */

const teal_plant_tree *teal_mb_ws_begin(const teal_plant *plant, teal_mb_workspace *ws,
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
  if (ws->plant != plant || ws->nn != t->num_nodes) {
    *status = teal_error_set(&ws->err, TEAL_EINVAL, "%s: workspace made for another plant", fn);
    return NULL;
  }
  *status = TEAL_OK;
  return t;
}

int teal_mb_ws_check_array(teal_mb_workspace *ws, const char *fn, const char *name,
                           const double *x, int n, int optional) {
  if (!x) {
    return optional ? TEAL_OK : teal_error_set(&ws->err, TEAL_EINVAL, "%s: NULL %s", fn, name);
  }
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return teal_error_set(&ws->err, TEAL_ENONFINITE, "%s: %s[%d] is not finite (%g)", fn,
                            name, i, x[i]);
    }
  }
  return TEAL_OK;
}

int teal_mb_ws_check_forces(teal_mb_workspace *ws, const char *fn, const char *name,
                            const teal_spatial_vector *F) {
  for (int b = 0; F && b < ws->nb; b++) {
    for (int i = 0; i < 6; i++) {
      if (!isfinite(F[b].v[i])) {
        return teal_error_set(&ws->err, TEAL_ENONFINITE,
                              "%s: %s[%d] (body \"%s\") component %d is not finite (%g)", fn,
                              name, b, teal_plant_body_name(ws->plant, b), i, F[b].v[i]);
      }
    }
  }
  return TEAL_OK;
}

int teal_mb_ws_check_out(teal_mb_workspace *ws, const char *fn, const char *name,
                         const void *x) {
  return x ? TEAL_OK : teal_error_set(&ws->err, TEAL_EINVAL, "%s: NULL %s", fn, name);
}

/* ---- position stage ------------------------------------------------------------ */

/* R A R' for a symmetric A, exactly symmetric. */
static teal_mat3 rotate_symmetric(teal_rotation R, teal_mat3 A) {
  teal_mat3 T = teal_mat3_mul(R, A), r;
  for (int i = 0; i < 3; i++) {
    for (int j = i; j < 3; j++) {
      double s = T.m[3 * i] * R.m[3 * j] + T.m[3 * i + 1] * R.m[3 * j + 1] +
                 T.m[3 * i + 2] * R.m[3 * j + 2];
      r.m[3 * i + j] = r.m[3 * j + i] = s;
    }
  }
  return r;
}

/* Node k's body inertia at pose X_WB about O in W: the central inertia
 * rotated, then the parallel axis theorem at O. */
static teal_mb_inertia inertia_about_O(const teal_mb_workspace *ws, const teal_plant_tree *t,
                                       int k, teal_transform X_WB, teal_vec3 O) {
  double m = t->M_BBo_B[k].mass;
  teal_vec3 c = teal_vec3_add(teal_rotation_apply(X_WB.R, ws->p_BBcm[k]), teal_vec3_sub(X_WB.p, O));
  teal_mb_inertia r;
  r.m = m;
  r.h = teal_vec3_scale(c, m);
  r.I = rotate_symmetric(X_WB.R, ws->I_Bcm[k]);
  teal_mat3 pc = teal_mat3_point_inertia(c);
  for (int i = 0; i < 9; i++) {
    r.I.m[i] += m * pc.m[i];
  }
  return r;
}

/* Node k's columns of S: H (in F, at Mo) re-expressed in W and taken about
 * O, with r = p_OMo_W: s = [R_WF h_w; R_WF h_v + r x R_WF h_w]. */
static void motion_subspace(teal_mb_workspace *ws, const teal_plant_tree *t, int k,
                            const double *qk, teal_rotation R_WF, teal_vec3 r) {
  double *S = ws->S + 6 * t->v_start[k];
  int n = t->nv[k];
  if (t->joint_kind[k] == TEAL_JOINT_REVOLUTE) {
    teal_vec3 w = teal_rotation_apply(R_WF, t->params[k].axis), v = teal_vec3_cross(r, w);
    S[0] = w.v[0], S[1] = w.v[1], S[2] = w.v[2], S[3] = v.v[0], S[4] = v.v[1], S[5] = v.v[2];
    return;
  }
  double H[6 * TEAL_JOINT_MAX_NV];
  t->type[k]->H_FM(&t->params[k], qk, H);
  for (int j = 0; j < n; j++) {
    teal_vec3 w = teal_rotation_apply(R_WF, teal_vec3_make(H[j], H[n + j], H[2 * n + j]));
    teal_vec3 v =
        teal_rotation_apply(R_WF, teal_vec3_make(H[3 * n + j], H[4 * n + j], H[5 * n + j]));
    v = teal_vec3_add(v, teal_vec3_cross(r, w));
    for (int i = 0; i < 3; i++) {
      S[6 * j + i] = w.v[i];
      S[6 * j + 3 + i] = v.v[i];
    }
  }
}

/* A quaternion in q (ball, floating) must be nonzero. */
static int quaternion_ok(const teal_plant_tree *t, int k, const double *qk) {
  if (!t->type[k]->normalize) {
    return 1;
  }
  return qk[0] * qk[0] + qk[1] * qk[1] + qk[2] * qk[2] + qk[3] * qk[3] > 0.0;
}

/* R_FM of a revolute joint about the unit axis a (Rodrigues):
 * cos(q) 1 + sin(q) [a]x + (1 - cos(q)) a a'. */
static teal_rotation revolute_rotation(teal_vec3 a, double q) {
  double c = cos(q), s = sin(q), t = 1.0 - c;
  double x = a.v[0], y = a.v[1], z = a.v[2];
  teal_rotation R = {{c + t * x * x, t * x * y - s * z, t * x * z + s * y,
                      t * x * y + s * z, c + t * y * y, t * y * z - s * x,
                      t * x * z - s * y, t * y * z + s * x, c + t * z * z}};
  return R;
}

/* X_WF and X_WM of node k, skipping products with identities. */
static void node_poses(const teal_mb_workspace *ws, const teal_plant_tree *t, int k,
                       const double *qk, teal_transform *X_WF, teal_transform *X_WM) {
  const teal_transform *X_WP = &ws->X[t->parent[k]];
  int fl = ws->flags[k];
  X_WF->R = fl & TEAL_MB_F_UNROTATED ? X_WP->R : teal_rotation_mul(X_WP->R, t->X_PF[k].R);
  X_WF->p = teal_vec3_add(X_WP->p, teal_rotation_apply(X_WP->R, t->X_PF[k].p));
  if (t->joint_kind[k] == TEAL_JOINT_REVOLUTE) {
    X_WM->R = teal_rotation_mul(X_WF->R, revolute_rotation(t->params[k].axis, qk[0]));
    X_WM->p = X_WF->p;
  } else {
    teal_transform X_FM = t->type[k]->X_FM(&t->params[k], qk);
    X_WM->R = teal_rotation_mul(X_WF->R, X_FM.R);
    X_WM->p = teal_vec3_add(X_WF->p, teal_rotation_apply(X_WF->R, X_FM.p));
  }
}

/* Pose, reference point, motion subspace and inertia of node k. */
static void position_node(teal_mb_workspace *ws, const teal_plant_tree *t, int k,
                          const double *q) {
  int pk = t->parent[k], fl = ws->flags[k];
  const double *qk = q + t->q_start[k];
  teal_transform X_WF, X_WM, X_WB;
  node_poses(ws, t, k, qk, &X_WF, &X_WM);
  X_WB.R = fl & TEAL_MB_M_UNROTATED ? X_WM.R : teal_rotation_mul(X_WM.R, ws->X_MB[k].R);
  X_WB.p = fl & TEAL_MB_M_AT_BO ? X_WM.p
                                : teal_vec3_add(X_WM.p, teal_rotation_apply(X_WM.R, ws->X_MB[k].p));
  ws->X[k] = X_WB;
  ws->O[k] = pk == 0 ? X_WB.p : ws->O[pk];
  motion_subspace(ws, t, k, qk, X_WF.R, teal_vec3_sub(X_WM.p, ws->O[k]));
  ws->I[k] = inertia_about_O(ws, t, k, X_WB, ws->O[k]);
}

int teal_mb_ws_position(teal_mb_workspace *ws, const teal_plant_tree *t, const double *q) {
  size_t bytes = sizeof(double) * (size_t)ws->nq;
  if (ws->pos_valid && memcmp(ws->q_pos, q, bytes) == 0) {
    return TEAL_OK;
  }
  ws->pos_valid = 0;
  ws->factor_stamp = 0;
  for (int k = 1; k < t->num_nodes; k++) {
    if (!quaternion_ok(t, k, q + t->q_start[k])) {
      return teal_error_set(&ws->err, TEAL_EINVAL,
                            "teal_mb: zero quaternion in q[%d..%d] (joint \"%s\")",
                            t->q_start[k], t->q_start[k] + 3,
                            teal_plant_joint_name(ws->plant, ws->joint[k]));
    }
    position_node(ws, t, k, q);
  }
  memcpy(ws->q_pos, q, bytes);
  ws->pos_valid = 1;
  ws->pos_stamp++;
  return TEAL_OK;
}

/* ---- velocity stage ------------------------------------------------------------ */

/* The in-F rate of node k's columns of S times v (joints with nv > 1), about
 * O in W: [hd_w; hd_v + r x hd_w + v_Mo x w] with hd = Hdot v re-expressed,
 * r = p_OMo, w and v_Mo the joint's angular velocity and the velocity of Mo
 * in F. Zero for revolute, prismatic and screw joints. */
static teal_spatial_vector joint_bias(const teal_mb_workspace *ws, const teal_plant_tree *t,
                                      int k, const double *q, const double *vk,
                                      teal_spatial_vector VJ) {
  teal_rotation R_WF = teal_rotation_mul(ws->X[t->parent[k]].R, t->X_PF[k].R);
  teal_vec3 r = teal_vec3_sub(teal_transform_apply(ws->X[k], t->X_BM[k].p), ws->O[k]);
  teal_vec3 w = teal_spatial_vector_angular(VJ);
  teal_vec3 v_Mo = teal_vec3_sub(teal_spatial_vector_linear(VJ), teal_vec3_cross(r, w));
  teal_spatial_vector hd = teal_spatial_vector_reexpress(
      R_WF, t->type[k]->Hdot_v(&t->params[k], q + t->q_start[k], vk));
  teal_vec3 hw = teal_spatial_vector_angular(hd);
  teal_vec3 lin = teal_vec3_add(teal_spatial_vector_linear(hd), teal_vec3_cross(r, hw));
  return teal_spatial_vector_make(hw, teal_vec3_add(lin, teal_vec3_cross(v_Mo, w)));
}

void teal_mb_ws_velocity(teal_mb_workspace *ws, const teal_plant_tree *t, const double *q,
                         const double *v) {
  for (int k = 1; k < t->num_nodes; k++) {
    int n = t->nv[k];
    const double *S = teal_mb_ws_S(ws, t, k), *vk = v + t->v_start[k];
    teal_spatial_vector Vp = ws->V[t->parent[k]], VJ;
    if (n == 1) {
      for (int i = 0; i < 6; i++) {
        VJ.v[i] = S[i] * vk[0];
      }
    } else {
      VJ = teal_mb_s_apply(S, n, vk);
    }
    teal_spatial_vector V = teal_spatial_vector_add(Vp, VJ);
    teal_spatial_vector c = teal_spatial_cross_motion(Vp, VJ);
    if (n > 1) {
      c = teal_spatial_vector_add(c, joint_bias(ws, t, k, q, vk, VJ));
    }
    ws->V[k] = V;
    ws->c[k] = c;
    ws->pb[k] = teal_spatial_cross_force(V, teal_mb_inertia_apply(&ws->I[k], V));
  }
}

/* ---- energies ---------------------------------------------------------------------- */

int teal_mb_kinetic_energy(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                           const double *v, double *ke) {
  static const char fn[] = "teal_mb_kinetic_energy";
  int st;
  const teal_plant_tree *t = teal_mb_ws_begin(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_ws_check_array(ws, fn, "q", q, ws->nq, 0)) ||
      (st = teal_mb_ws_check_array(ws, fn, "v", v, ws->nv, 0)) ||
      (st = teal_mb_ws_check_out(ws, fn, "ke", ke)) || (st = teal_mb_ws_position(ws, t, q))) {
    return st;
  }
  teal_mb_ws_velocity(ws, t, q, v);
  double e = 0.0;
  for (int k = 1; k < t->num_nodes; k++) {
    e += teal_spatial_vector_dot(ws->V[k], teal_mb_inertia_apply(&ws->I[k], ws->V[k]));
  }
  *ke = 0.5 * e;
  return TEAL_OK;
}

int teal_mb_potential_energy(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                             double *pe) {
  static const char fn[] = "teal_mb_potential_energy";
  int st;
  const teal_plant_tree *t = teal_mb_ws_begin(plant, ws, fn, &st);
  if (!t) {
    return st;
  }
  if ((st = teal_mb_ws_check_array(ws, fn, "q", q, ws->nq, 0)) ||
      (st = teal_mb_ws_check_out(ws, fn, "pe", pe)) || (st = teal_mb_ws_position(ws, t, q))) {
    return st;
  }
  /* sum m p_WBcm = sum (m O + h) */
  teal_vec3 mp = teal_vec3_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    mp = teal_vec3_add(mp, teal_vec3_add(teal_vec3_scale(ws->O[k], ws->I[k].m), ws->I[k].h));
  }
  *pe = -teal_vec3_dot(teal_mb_ws_gravity(ws), mp);
  return TEAL_OK;
}
