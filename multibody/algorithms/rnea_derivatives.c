/* Analytic derivatives of inverse dynamics (see rnea_derivatives.h; the
 * formulation about a tree point O is in data_internal.h), in the manner of
 * Carpentier and Mansard's derivatives of RNEA (RSS 2018).
 *
 * A position direction j of node kj moves every body outboard of kj
 * rigidly by the twist s = S_j (about O, in W), O held fixed (tau does not
 * depend on it). Were the whole world moved, every force would turn:
 * df = s x* f. The world inboard of kj does not move, so V and a of the
 * parent lambda stay unturned, which the subtree composites of one inward
 * pass account for (composite_terms: the inertia Ic, P = sum I V,
 * Q = sum I [V]x - [V]x* I); the applied forces stay fixed in W while their
 * arms turn (G); and a joint with several dofs moves its own columns
 * otherwise than by s (joint_own_dS). A velocity direction changes the
 * velocity of the subtree by S_j, with the same composites. Each direction
 * then costs O(1) per outboard node (tau_i = S_i' f_i, and s x* f cancels
 * against dS_i' f = -S_i' (s x* f)) and one projection per ancestor: O(n^2)
 * in all, at the price of a few RNEAs per direction's column of nodes. */
#include "multibody/algorithms/rnea_derivatives.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/algorithms/rnea_derivatives_internal.h"
#include "multibody/tree/topology.h"

/* ---- workspace ---------------------------------------------------------------------- */

teal_mb_derivatives *teal_mb_derivatives_new(const teal_plant *plant, teal_error *err) {
  const teal_plant_tree *t = plant ? teal_plant_get_tree(plant) : NULL;
  if (!t || t->num_nodes < 1) {
    teal_error_set(err, TEAL_EINVAL, "teal_mb_derivatives_new: the plant is NULL or not finalized");
    return NULL;
  }
  size_t nn = (size_t)t->num_nodes, nv = (size_t)teal_plant_nv(plant);
  size_t nd = 54 * nn + 22 * nv + 4 * nv * nv;
  teal_mb_derivatives *ws = teal_calloc(1, sizeof(*ws));
  void *buf = ws ? teal_calloc(1, 3 * nn * sizeof(teal_spatial_vector) + nd * sizeof(double) +
                                      nn * sizeof(int) + 1)
                 : NULL;
  if (!buf) {
    teal_free(ws);
    teal_error_set(err, TEAL_ENOMEM, "teal_mb_derivatives_new: out of memory (nv = %zu)", nv);
    return NULL;
  }
  ws->plant = plant;
  ws->nn = (int)nn;
  ws->nv = (int)nv;
  ws->buffer = buf;
  ws->VJ = buf;
  ws->Sa = ws->VJ + nn;
  ws->Pc = ws->Sa + nn;
  ws->Qc = (double *)(ws->Pc + nn);
  ws->Gc = ws->Qc + 36 * nn;
  ws->dS = ws->Gc + 18 * nn;
  ws->rows = ws->dS + 6 * nv;
  ws->Minv = ws->rows + 15 * nv;
  ws->work = ws->Minv + nv * nv;
  ws->tau = ws->work + 3 * nv * nv;
  ws->moving = (int *)(ws->tau + nv);
  return ws;
}

void teal_mb_derivatives_free(teal_mb_derivatives *ws) {
  if (ws) {
    teal_free(ws->buffer);
    teal_free(ws);
  }
}

/* ---- the perturbed joint's own kinematics ------------------------------------------- */

/* R_WF of node k and r = p_OMo (in W), as the stages use them. */
static void joint_frame(const teal_mb_data *data, const teal_plant_tree *t, int k,
                        teal_rotation *R_WF, teal_vec3 *r) {
  *R_WF = teal_rotation_mul(data->X[t->parent[k]].R, t->X_PF[k].R);
  *r = teal_vec3_sub(teal_transform_apply(data->X[k], t->X_BM[k].p), data->O[k]);
}

static teal_vec3 h_col(const double *H, int n, int j, int row0) {
  return teal_vec3_make(H[row0 * n + j], H[(row0 + 1) * n + j], H[(row0 + 2) * n + j]);
}

static void put_col(double *S, int i, teal_vec3 w, teal_vec3 v) {
  for (int c = 0; c < 3; c++) {
    S[6 * i + c] = w.v[c];
    S[6 * i + 3 + c] = v.v[c];
  }
}

/* The tangent of node k's own columns along its own dof jl. The stages form
 * S_i = [R h_w,i; R h_v,i + r x R h_w,i] with R = R_WF fixed by this dof, r
 * moving by R h_v,jl (the velocity of Mo), and H constant in F for every
 * type but universal, whose second column (0, cos qx, sin qx) turns with qx
 * (its N is the identity). */
static void joint_own_dS(const teal_mb_data *data, const teal_plant_tree *t, int k,
                         const double *qk, int jl, double *dS) {
  int n = t->nv[k];
  double H[6 * TEAL_JOINT_MAX_NV];
  teal_rotation R;
  teal_vec3 r;
  joint_frame(data, t, k, &R, &r);
  t->type[k]->H_FM(&t->params[k], qk, H);
  teal_vec3 dr = teal_rotation_apply(R, h_col(H, n, jl, 3));
  for (int i = 0; i < n; i++) {
    teal_vec3 w = teal_rotation_apply(R, h_col(H, n, i, 0));
    put_col(dS, i, teal_vec3_zero(), teal_vec3_cross(dr, w));
  }
  if (t->joint_kind[k] == TEAL_JOINT_UNIVERSAL && jl == 0) {
    teal_vec3 dw = teal_rotation_apply(R, teal_vec3_make(0.0, -sin(qk[0]), cos(qk[0])));
    put_col(dS, 1, dw, teal_vec3_cross(r, dw));
  }
}

/* The tangent of a universal joint's bias along qx: the bias is
 * [R hd; r x R hd] with hd = vx vy (0, -sin qx, cos qx) (Mo fixed in F). */
static teal_spatial_vector universal_dbias(const teal_mb_data *data, const teal_plant_tree *t,
                                           int k, const double *qk, const double *vk) {
  teal_rotation R;
  teal_vec3 r;
  joint_frame(data, t, k, &R, &r);
  double s = vk[0] * vk[1];
  teal_vec3 d = teal_rotation_apply(R, teal_vec3_make(0.0, -cos(qk[0]) * s, -sin(qk[0]) * s));
  return teal_spatial_vector_make(d, teal_vec3_cross(r, d));
}

/* The joint bias of node k at velocities vk (nv > 1), as in the stages:
 * [R hd_w; R hd_v + r x R hd_w + v_Mo x w]. */
static teal_spatial_vector joint_bias(const teal_mb_data *data, const teal_plant_tree *t, int k,
                                      const double *qk, const double *vk) {
  teal_rotation R;
  teal_vec3 r;
  joint_frame(data, t, k, &R, &r);
  teal_spatial_vector VJ = teal_mb_s_apply(teal_mb_data_S(data, t, k), t->nv[k], vk);
  teal_vec3 w = teal_spatial_vector_angular(VJ);
  teal_vec3 v_Mo = teal_vec3_sub(teal_spatial_vector_linear(VJ), teal_vec3_cross(r, w));
  teal_spatial_vector hd =
      teal_spatial_vector_reexpress(R, t->type[k]->Hdot_v(&t->params[k], qk, vk));
  teal_vec3 hw = teal_spatial_vector_angular(hd);
  teal_vec3 lin = teal_vec3_add(teal_spatial_vector_linear(hd), teal_vec3_cross(r, hw));
  return teal_spatial_vector_make(hw, teal_vec3_add(lin, teal_vec3_cross(v_Mo, w)));
}

/* d bias / d v_jl of node k: the bias is a quadratic form b(v) = B(v, v),
 * so b(v + e) - b(v) - b(e) = B(v, e) + B(e, v) is its derivative along e,
 * exactly (an identity, not a difference quotient). */
static teal_spatial_vector joint_dbias_dv(const teal_mb_data *data, const teal_plant_tree *t, int k,
                                          const double *qk, const double *vk, int jl) {
  double e[TEAL_JOINT_MAX_NV] = {0}, ve[TEAL_JOINT_MAX_NV];
  int n = t->nv[k];
  for (int i = 0; i < n; i++) {
    ve[i] = vk[i];
  }
  e[jl] = 1.0;
  ve[jl] += 1.0;
  teal_spatial_vector b = joint_bias(data, t, k, qk, ve);
  b = teal_spatial_vector_sub(b, joint_bias(data, t, k, qk, vk));
  return teal_spatial_vector_sub(b, joint_bias(data, t, k, qk, e));
}

/* ---- composite terms of the nominal pass ------------------------------------------ */

static teal_spatial_vector col_of(const double *S, int i) {
  teal_spatial_vector s;
  memcpy(s.v, S + 6 * i, sizeof s.v);
  return s;
}

/* The arguments of a derivative call. */
typedef struct id_args {
  const double *q, *v, *vdot;
  const teal_spatial_vector *F_app;
} id_args;

/* A x for a 6 x 6 (rows 6, cols 6) or 6 x 3 (cols 3) row-major A. */
static teal_spatial_vector mat_apply(const double *A, int cols, const double *x) {
  teal_spatial_vector y;
  for (int r = 0; r < 6; r++) {
    double acc = 0.0;
    for (int c = 0; c < cols; c++) {
      acc += A[r * cols + c] * x[c];
    }
    y.v[r] = acc;
  }
  return y;
}

/* Q = I [V]x - [V]x* I (6 x 6, row-major) for one body, column by column. */
static void coriolis_operator(const teal_mb_inertia *I, teal_spatial_vector V, double *Q) {
  for (int c = 0; c < 6; c++) {
    teal_spatial_vector e = teal_spatial_vector_zero();
    e.v[c] = 1.0;
    teal_spatial_vector col = teal_mb_inertia_apply(I, teal_spatial_cross_motion(V, e));
    col = teal_spatial_vector_sub(col, teal_spatial_cross_force(V, teal_mb_inertia_apply(I, e)));
    for (int r = 0; r < 6; r++) {
      Q[r * 6 + c] = col.v[r];
    }
  }
}

/* G (6 x 3, row-major) with G w = [w x n + r x (w x f); w x f] for the
 * applied force [n; f] at Bo, r = p_OBo: how s x* F_O exceeds the true
 * change of F_O about O (F fixed in W, its arm turning) under a rigid
 * motion s = [w; .] of the body. */
static void arm_operator(teal_spatial_vector F, teal_vec3 r, double *G) {
  teal_vec3 n = teal_spatial_vector_angular(F), f = teal_spatial_vector_linear(F);
  for (int c = 0; c < 3; c++) {
    teal_vec3 w = teal_vec3_zero();
    w.v[c] = 1.0;
    teal_vec3 wf = teal_vec3_cross(w, f);
    teal_vec3 top = teal_vec3_add(teal_vec3_cross(w, n), teal_vec3_cross(r, wf));
    for (int i = 0; i < 3; i++) {
      G[i * 3 + c] = top.v[i];
      G[(3 + i) * 3 + c] = wf.v[i];
    }
  }
}

/* Per node: VJ = S v, Sa = S vdot, and over its subtree the composite
 * inertia Ic (data->Ic), P = sum I V, Q = sum I [V]x - [V]x* I and G. */
static void composite_terms(teal_mb_data *data, const teal_plant_tree *t, teal_mb_derivatives *ws,
                            const id_args *x) {
  for (int k = 1; k < t->num_nodes; k++) {
    int n = t->nv[k], v0 = t->v_start[k];
    const double *S = teal_mb_data_S(data, t, k);
    ws->VJ[k] = teal_mb_s_apply(S, n, x->v + v0);
    ws->Sa[k] = teal_mb_s_apply(S, n, x->vdot + v0);
    ws->Pc[k] = teal_mb_inertia_apply(&data->I[k], data->V[k]);
    coriolis_operator(&data->I[k], data->V[k], ws->Qc + 36 * k);
    data->Ic[k] = data->I[k];
    if (x->F_app) {
      arm_operator(x->F_app[data->body[k]], teal_vec3_sub(data->X[k].p, data->O[k]),
                   ws->Gc + 18 * k);
    }
  }
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    int p = t->parent[k];
    if (p <= 0) {
      continue;
    }
    teal_mb_inertia_add_to(&data->Ic[p], &data->Ic[k]);
    ws->Pc[p] = teal_spatial_vector_add(ws->Pc[p], ws->Pc[k]);
    for (int i = 0; i < 36; i++) {
      ws->Qc[36 * p + i] += ws->Qc[36 * k + i];
    }
    for (int i = 0; x->F_app && i < 18; i++) {
      ws->Gc[18 * p + i] += ws->Gc[18 * k + i];
    }
  }
}

/* Per dof of every node, the rows that turn S' B_i (see direction) into
 * three short dot products: B_i is linear in the direction's ea - base,
 * w = eV - u and s, so S' B_i = (Ic S) . (ea - base) + (gamma - Q' S) . w
 * + (G' S) . s_angular, where S' (w x* P) = gamma . w with
 * gamma = [Pa x Sa + Pl x Sl; Pl x Sa] (a: angular, l: linear parts). This
 * makes each (direction, outboard dof) pair cost 15 multiplications. */
static void projected_rows(const teal_mb_data *data, const teal_plant_tree *t,
                           teal_mb_derivatives *ws, int with_arm) {
  for (int k = 1; k < t->num_nodes; k++) {
    const double *S = teal_mb_data_S(data, t, k), *Q = ws->Qc + 36 * k, *G = ws->Gc + 18 * k;
    teal_vec3 Pa = teal_spatial_vector_angular(ws->Pc[k]);
    teal_vec3 Pl = teal_spatial_vector_linear(ws->Pc[k]);
    for (int r = 0; r < t->nv[k]; r++) {
      const double *s = S + 6 * r;
      double *row = ws->rows + 15 * (t->v_start[k] + r);
      teal_vec3 sa = teal_vec3_make(s[0], s[1], s[2]), sl = teal_vec3_make(s[3], s[4], s[5]);
      teal_spatial_vector alpha =
          teal_mb_inertia_apply(&data->Ic[k], teal_spatial_vector_make(sa, sl));
      teal_spatial_vector gamma = teal_spatial_vector_make(
          teal_vec3_add(teal_vec3_cross(Pa, sa), teal_vec3_cross(Pl, sl)), teal_vec3_cross(Pl, sa));
      for (int c = 0; c < 6; c++) {
        double qs = 0.0;
        for (int i = 0; i < 6; i++) {
          qs += Q[6 * i + c] * s[i];
        }
        row[c] = alpha.v[c];
        row[6 + c] = gamma.v[c] - qs;
      }
      for (int c = 0; c < 3; c++) {
        double gs = 0.0;
        for (int i = 0; with_arm && i < 6; i++) {
          gs += G[3 * i + c] * s[i];
        }
        row[12 + c] = gs;
      }
    }
  }
}

/* ---- one direction ------------------------------------------------------------------- */

/* A direction: the dof jl of node kj, in q (its subtree moves rigidly by
 * the twist s = S_j, O held fixed) or in v. With lambda = parent(kj), the
 * change of the subtree force of any node i outboard of kj (kj included)
 * is s x* f_i (for q; it cancels in tau_i but for i = kj) plus
 *   B_i = Ic_i (ea - base) + (eV - u) x* P_i + Q_i (u - eV) + G_i w:
 * the rigid motion leaves V_lambda and a_lambda unturned (u = s x V_lambda,
 * base = s x a_lambda + V_lambda x u), and eV, ea are changes of the
 * velocity and acceleration of kj's body beyond the rigid motion (ea
 * already less eV x V_kj): a v direction's S_j, and a multi-dof joint's own
 * columns, which do not turn with s (joint_own_dS). */
typedef struct direction {
  int kj, jl, is_q, lambda;
  teal_spatial_vector s, u, base, eV, ea;
} direction;

/* eV and ea of a q direction on a joint with nv > 1 (its own dS in ws->dS). */
static void own_joint_excess(const teal_mb_data *data, const teal_plant_tree *t,
                             teal_mb_derivatives *ws, const id_args *x, direction *d) {
  int k = d->kj, n = t->nv[k], v0 = t->v_start[k];
  const double *qk = x->q + t->q_start[k], *vk = x->v + v0;
  teal_spatial_vector dVJ = teal_mb_s_apply(ws->dS + 6 * v0, n, vk);
  teal_spatial_vector dSa = teal_mb_s_apply(ws->dS + 6 * v0, n, x->vdot + v0);
  d->eV = teal_spatial_vector_sub(dVJ, teal_spatial_cross_motion(d->s, ws->VJ[k]));
  teal_spatial_vector ea = teal_spatial_vector_sub(dSa, teal_spatial_cross_motion(d->s, ws->Sa[k]));
  ea = teal_spatial_vector_add(ea, teal_spatial_cross_motion(data->V[d->lambda], dVJ));
  ea = teal_spatial_vector_sub(ea, teal_spatial_cross_motion(d->s, data->c[k]));
  ea = teal_spatial_vector_add(ea, teal_spatial_cross_motion(d->u, ws->VJ[k]));
  if (t->joint_kind[k] == TEAL_JOINT_UNIVERSAL && d->jl == 0) {
    ea = teal_spatial_vector_add(ea, universal_dbias(data, t, k, qk, vk));
  }
  d->ea = teal_spatial_vector_sub(ea, teal_spatial_cross_motion(d->eV, data->V[k]));
}

/* The direction of dof jl of node kj. */
static direction make_direction(const teal_mb_data *data, const teal_plant_tree *t,
                                teal_mb_derivatives *ws, const id_args *x, int kj, int jl,
                                int is_q) {
  direction d;
  memset(&d, 0, sizeof d);
  d.kj = kj, d.jl = jl, d.is_q = is_q, d.lambda = t->parent[kj];
  d.s = col_of(teal_mb_data_S(data, t, kj), jl);
  teal_spatial_vector Vl = data->V[d.lambda];
  int n = t->nv[kj];
  if (is_q) {
    d.u = teal_spatial_cross_motion(d.s, Vl);
    d.base = teal_spatial_cross_motion(d.s, data->a[d.lambda]);
    d.base = teal_spatial_vector_add(d.base, teal_spatial_cross_motion(Vl, d.u));
    joint_own_dS(data, t, kj, x->q + t->q_start[kj], jl, ws->dS + 6 * t->v_start[kj]);
    if (n > 1) {
      own_joint_excess(data, t, ws, x, &d);
    }
    return d;
  }
  d.eV = d.s;
  d.ea = teal_spatial_cross_motion(Vl, d.s);
  if (n > 1) {
    const double *vk = x->v + t->v_start[kj];
    d.ea =
        teal_spatial_vector_add(d.ea, joint_dbias_dv(data, t, kj, x->q + t->q_start[kj], vk, jl));
  }
  d.ea = teal_spatial_vector_sub(d.ea, teal_spatial_cross_motion(d.s, data->V[kj]));
  return d;
}

/* B_i of the direction (see direction). */
static teal_spatial_vector subtree_change(const teal_mb_data *data, const teal_mb_derivatives *ws,
                                          const direction *d, const id_args *x, int i) {
  teal_spatial_vector y =
      teal_mb_inertia_apply(&data->Ic[i], teal_spatial_vector_sub(d->ea, d->base));
  teal_spatial_vector w = teal_spatial_vector_sub(d->eV, d->u);
  y = teal_spatial_vector_add(y, teal_spatial_cross_force(w, ws->Pc[i]));
  y = teal_spatial_vector_sub(y, mat_apply(ws->Qc + 36 * i, 6, w.v));
  if (d->is_q && x->F_app) {
    y = teal_spatial_vector_add(y, mat_apply(ws->Gc + 18 * i, 3, d->s.v));
  }
  return y;
}

/* Writes dtau_row / d(direction col) into out (row-major, or transposed). */
static void put(const teal_mb_derivatives *ws, double *out, int row, int col, double x) {
  size_t nv = (size_t)ws->nv, r = (size_t)row, c = (size_t)col;
  out[ws->transposed ? c * nv + r : r * nv + c] = x;
}

/* The column col of the derivatives for direction d: tau_i = S_i' f_i
 * changes by S_i' B_i outboard of kj, by S' (s x* f + B) + dS' f at kj and
 * by S_a' (the change at kj) at its ancestors a; elsewhere not at all. */
static void one_direction(const teal_mb_data *data, const teal_plant_tree *t,
                          teal_mb_derivatives *ws, const direction *d, const id_args *x, int col,
                          double *out) {
  for (int r = 0; r < ws->nv; r++) {
    put(ws, out, r, col, 0.0);
  }
  int kj = d->kj, v0 = t->v_start[kj];
  teal_spatial_vector dfc = subtree_change(data, ws, d, x, kj);
  if (d->is_q) {
    dfc = teal_spatial_vector_add(dfc, teal_spatial_cross_force(d->s, data->f[kj]));
  }
  for (int i = 0; i < t->nv[kj]; i++) {
    double y = teal_mb_s_dot(teal_mb_data_S(data, t, kj) + 6 * i, dfc);
    y += d->is_q ? teal_mb_s_dot(ws->dS + 6 * (v0 + i), data->f[kj]) : 0.0;
    put(ws, out, v0 + i, col, y);
  }
  /* outboard: S' B_i by the projected rows (projected_rows) */
  teal_spatial_vector ea = teal_spatial_vector_sub(d->ea, d->base);
  teal_spatial_vector w = teal_spatial_vector_sub(d->eV, d->u);
  int arm = d->is_q && x->F_app;
  ws->moving[kj] = 1;
  for (int k = kj + 1; k < t->num_nodes; k++) {
    ws->moving[k] = ws->moving[t->parent[k]] && t->parent[k] >= kj;
    for (int i = 0; ws->moving[k] && i < t->nv[k]; i++) {
      const double *row = ws->rows + 15 * (t->v_start[k] + i);
      double y = teal_mb_s_dot(row, ea) + teal_mb_s_dot(row + 6, w);
      y += arm ? row[12] * d->s.v[0] + row[13] * d->s.v[1] + row[14] * d->s.v[2] : 0.0;
      put(ws, out, t->v_start[k] + i, col, y);
    }
  }
  for (int a = d->lambda; a > 0; a = t->parent[a]) {
    const double *S = teal_mb_data_S(data, t, a);
    for (int i = 0; i < t->nv[a]; i++) {
      put(ws, out, t->v_start[a] + i, col, teal_mb_s_dot(S + 6 * i, dfc));
    }
  }
}

/* ---- public ------------------------------------------------------------------------- */

/* One tangent pass per velocity index, position directions (is_q) or
 * velocity ones, into the columns of out. */
static void all_directions(const teal_mb_data *data, const teal_plant_tree *t,
                           teal_mb_derivatives *ws, const id_args *x, int is_q, double *out) {
  for (int k = 1; k < t->num_nodes; k++) {
    for (int jl = 0; jl < t->nv[k]; jl++) {
      direction d = make_direction(data, t, ws, x, k, jl, is_q);
      one_direction(data, t, ws, &d, x, t->v_start[k] + jl, out);
    }
  }
}

/* The workspace and output checks of the derivative calls. */
static int check_ws(teal_mb_data *data, const char *fn, const teal_plant *plant,
                    const teal_mb_derivatives *ws, const double *out1, const double *out2,
                    const char *name1, const char *name2) {
  if (!ws || ws->plant != plant) {
    return teal_error_set(&data->err, TEAL_EINVAL,
                          "%s: the workspace ws is %s (make it with teal_mb_derivatives_new for "
                          "this plant)",
                          fn, ws ? "another plant's" : "NULL");
  }
  int st = teal_mb_data_check_out(data, fn, name1, out1);
  return st ? st : teal_mb_data_check_out(data, fn, name2, out2);
}

int teal_mb_inverse_dynamics_derivatives(const teal_plant *plant, teal_mb_data *data,
                                         teal_mb_derivatives *ws, const double *q, const double *v,
                                         const double *vdot, const double *tau_applied,
                                         const teal_spatial_vector *F_app_Bo_W, double *tau,
                                         double *dtau_dq, double *dtau_dv, double *dtau_dvdot) {
  static const char fn[] = "teal_mb_inverse_dynamics_derivatives";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t || (st = check_ws(data, fn, plant, ws, dtau_dq, dtau_dv, "dtau_dq", "dtau_dv"))) {
    return st;
  }
  /* the nominal pass leaves V, c, a and the accumulated f in data */
  st = teal_mb_inverse_dynamics_ex(plant, data, q, v, vdot, tau_applied, F_app_Bo_W,
                                   tau ? tau : ws->tau);
  if (st) {
    return st;
  }
  id_args x = {q, v, vdot, F_app_Bo_W};
  composite_terms(data, t, ws, &x);
  projected_rows(data, t, ws, x.F_app != NULL);
  all_directions(data, t, ws, &x, 1, dtau_dq);
  all_directions(data, t, ws, &x, 0, dtau_dv);
  return dtau_dvdot ? teal_mb_mass_matrix(plant, data, q, dtau_dvdot) : TEAL_OK;
}
