/* Analytic derivatives of inverse dynamics (see rnea_derivatives.h; the
 * formulation about a tree point O is in data_internal.h).
 *
 * One tangent pass per direction. A position direction j of node kj moves
 * every body outboard of kj rigidly by the twist s = S_j (about O, in W),
 * the point O held fixed (tau does not depend on it). For those bodies
 * every quantity attached to them changes by the spatial cross product with
 * s: dS = s x S, d(I) y = s x* (I y) - I (s x y), and the joint bias c of an
 * outboard joint likewise; only the perturbed joint's own columns and bias
 * need its kinematics (joint_own_dS). The outward pass differentiates
 * V = V_p + S v, c = V_p x S v + bias, a = a_p + c + S vdot and
 * f = I a + V x* (I V) - F_app; the inward pass accumulates df and gives
 * dtau_i = dS_i' f_i + S_i' df_i (f_i the accumulated nominal force). A
 * velocity direction changes V, c, a and f of the outboard nodes only. */
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
  int nn = t->num_nodes, nv = teal_plant_nv(plant);
  size_t nsv = (size_t)8 * (size_t)nn, nd = (size_t)7 * (size_t)nv + (size_t)4 * nv * (size_t)nv;
  teal_mb_derivatives *ws = teal_calloc(1, sizeof(*ws));
  void *buf = ws ? teal_calloc(1, nsv * sizeof(teal_spatial_vector) + nd * sizeof(double) +
                                      (size_t)nn * sizeof(int) + 1)
                 : NULL;
  if (!buf) {
    teal_free(ws);
    teal_error_set(err, TEAL_ENOMEM, "teal_mb_derivatives_new: out of memory (nv = %d)", nv);
    return NULL;
  }
  ws->plant = plant;
  ws->nn = nn;
  ws->nv = nv;
  ws->buffer = buf;
  ws->dV = buf;
  ws->da = ws->dV + nn;
  ws->df = ws->da + nn;
  ws->VJ = ws->df + nn;
  ws->Sa = ws->VJ + nn;
  ws->IV = ws->Sa + nn;
  ws->Ia = ws->IV + nn;
  ws->bias = ws->Ia + nn;
  ws->dS = (double *)(ws->bias + nn);
  ws->Minv = ws->dS + 6 * nv;
  ws->work = ws->Minv + (size_t)nv * (size_t)nv;
  ws->tau = ws->work + (size_t)3 * nv * (size_t)nv;
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

/* ---- tangent passes ----------------------------------------------------------------- */

static teal_spatial_vector col_of(const double *S, int i) {
  teal_spatial_vector s;
  memcpy(s.v, S + 6 * i, sizeof s.v);
  return s;
}

/* A tangent direction: position (dS and the inertia move with s) or
 * velocity (dv = e_j); kj the node of the dof, jl its index in the joint. */
typedef struct direction {
  int kj, jl, is_q;
  teal_spatial_vector s; /* the twist S_j of the dof */
} direction;

/* The arguments of a derivative call. */
typedef struct id_args {
  const double *q, *v, *vdot;
  const teal_spatial_vector *F_app;
} id_args;

/* Per-node products of the nominal pass that every direction reuses:
 * VJ = S v, Sa = S vdot, IV = I V, Ia = I a and the joint's own bias
 * c - V_parent x VJ. */
static void nominal_products(const teal_mb_data *data, const teal_plant_tree *t,
                             teal_mb_derivatives *ws, const id_args *x) {
  for (int k = 1; k < t->num_nodes; k++) {
    int n = t->nv[k], v0 = t->v_start[k];
    const double *S = teal_mb_data_S(data, t, k);
    ws->VJ[k] = teal_mb_s_apply(S, n, x->v + v0);
    ws->Sa[k] = teal_mb_s_apply(S, n, x->vdot + v0);
    ws->IV[k] = teal_mb_inertia_apply(&data->I[k], data->V[k]);
    ws->Ia[k] = teal_mb_inertia_apply(&data->I[k], data->a[k]);
    ws->bias[k] =
        teal_spatial_vector_sub(data->c[k], teal_spatial_cross_motion(data->V[t->parent[k]], ws->VJ[k]));
  }
}

/* The tangents of node k's VJ, S vdot and bias along d. Outboard of the
 * perturbed joint they move rigidly with s; the joint's own come from its
 * kinematics (its dS kept in ws->dS for the inward pass). */
static void joint_tangents(const teal_mb_data *data, const teal_plant_tree *t,
                           teal_mb_derivatives *ws, const direction *d, const id_args *x, int k,
                           teal_spatial_vector *out) {
  static const teal_spatial_vector zero = {{0, 0, 0, 0, 0, 0}};
  int n = t->nv[k], v0 = t->v_start[k];
  const double *qk = x->q + t->q_start[k], *vk = x->v + v0;
  out[0] = out[1] = out[2] = zero;
  if (!d->is_q) {
    if (k == d->kj) {
      out[0] = col_of(teal_mb_data_S(data, t, k), d->jl);
      out[2] = n > 1 ? joint_dbias_dv(data, t, k, qk, vk, d->jl) : zero;
    }
    return;
  }
  if (k != d->kj) {
    out[0] = teal_spatial_cross_motion(d->s, ws->VJ[k]);
    out[1] = teal_spatial_cross_motion(d->s, ws->Sa[k]);
    out[2] = n > 1 ? teal_spatial_cross_motion(d->s, ws->bias[k]) : zero;
    return;
  }
  double *dS = ws->dS + 6 * v0;
  joint_own_dS(data, t, k, qk, d->jl, dS);
  out[0] = teal_mb_s_apply(dS, n, vk);
  out[1] = teal_mb_s_apply(dS, n, x->vdot + v0);
  if (t->joint_kind[k] == TEAL_JOINT_UNIVERSAL && d->jl == 0) {
    out[2] = universal_dbias(data, t, k, qk, vk);
  }
}

/* The tangent of node k's body force f = I a + V x* (I V) - F_app (about O),
 * with d(I) y = s x* (I y) - I (s x y) for a moving body: two inertia
 * products, I (da - s x a) and I (dV - s x V). */
static teal_spatial_vector node_df(const teal_mb_data *data, const teal_mb_derivatives *ws,
                                   const direction *d, const id_args *x, int k) {
  const teal_mb_inertia *I = &data->I[k];
  teal_spatial_vector V = data->V[k], dV = ws->dV[k], y1 = ws->da[k], y2 = dV;
  teal_spatial_vector df = teal_spatial_cross_force(dV, ws->IV[k]), w = teal_spatial_vector_zero();
  if (d->is_q) {
    y1 = teal_spatial_vector_sub(y1, teal_spatial_cross_motion(d->s, data->a[k]));
    y2 = teal_spatial_vector_sub(y2, teal_spatial_cross_motion(d->s, V));
    df = teal_spatial_vector_add(df, teal_spatial_cross_force(d->s, ws->Ia[k]));
    w = teal_spatial_cross_force(d->s, ws->IV[k]);
  }
  df = teal_spatial_vector_add(df, teal_mb_inertia_apply(I, y1));
  w = teal_spatial_vector_add(w, teal_mb_inertia_apply(I, y2));
  df = teal_spatial_vector_add(df, teal_spatial_cross_force(V, w));
  if (d->is_q && x->F_app) {
    /* the moment arm p_OBo of the applied force moves with the body */
    teal_vec3 r = teal_vec3_sub(data->X[k].p, data->O[k]);
    teal_vec3 sw = teal_spatial_vector_angular(d->s), sv = teal_spatial_vector_linear(d->s);
    teal_vec3 dr = teal_vec3_add(sv, teal_vec3_cross(sw, r));
    teal_vec3 m = teal_vec3_cross(dr, teal_spatial_vector_linear(x->F_app[data->body[k]]));
    for (int i = 0; i < 3; i++) {
      df.v[i] -= m.v[i];
    }
  }
  return df;
}

/* The outward tangent pass over the nodes outboard of d->kj:
 * dV = dV_p + dVJ, dc = dV_p x VJ + V_p x dVJ + dbias,
 * da = da_p + dc + d(S vdot), and df. */
static void tangent_outward(const teal_mb_data *data, const teal_plant_tree *t,
                            teal_mb_derivatives *ws, const direction *d, const id_args *x) {
  static const teal_spatial_vector zero = {{0, 0, 0, 0, 0, 0}};
  ws->moving[0] = 0;
  for (int k = 1; k < t->num_nodes; k++) {
    int pk = t->parent[k];
    ws->moving[k] = k == d->kj || (k > d->kj && ws->moving[pk]);
    if (!ws->moving[k]) {
      ws->dV[k] = ws->da[k] = ws->df[k] = zero;
      continue;
    }
    teal_spatial_vector jt[3]; /* dVJ, d(S vdot), dbias */
    joint_tangents(data, t, ws, d, x, k, jt);
    ws->dV[k] = teal_spatial_vector_add(ws->dV[pk], jt[0]);
    teal_spatial_vector dc = teal_spatial_cross_motion(ws->dV[pk], ws->VJ[k]);
    dc = teal_spatial_vector_add(dc, teal_spatial_cross_motion(data->V[pk], jt[0]));
    dc = teal_spatial_vector_add(dc, jt[2]);
    ws->da[k] = teal_spatial_vector_add(ws->da[pk], teal_spatial_vector_add(dc, jt[1]));
    ws->df[k] = node_df(data, ws, d, x, k);
  }
}

/* The inward tangent pass: accumulates df and writes column col of the
 * nv x nv row-major out: dtau_i = S_i' df + dS_i' f, where outboard of the
 * joint dS_i' f = (s x S_i)' f = -S_i' (s x* f). */
static void tangent_inward(const teal_mb_data *data, const teal_plant_tree *t,
                           teal_mb_derivatives *ws, const direction *d, int col, double *out) {
  int nv = ws->nv;
  for (int k = t->num_nodes - 1; k >= 1; k--) {
    int n = t->nv[k], v0 = t->v_start[k], pk = t->parent[k];
    const double *S = teal_mb_data_S(data, t, k);
    teal_spatial_vector f = ws->df[k];
    int own = d->is_q && k == d->kj;
    if (d->is_q && ws->moving[k] && !own) {
      f = teal_spatial_vector_sub(f, teal_spatial_cross_force(d->s, data->f[k]));
    }
    for (int i = 0; i < n; i++) {
      double x = teal_mb_s_dot(S + 6 * i, f);
      if (own) {
        x += teal_mb_s_dot(ws->dS + 6 * (v0 + i), data->f[k]);
      }
      size_t row = (size_t)(v0 + i);
      out[ws->transposed ? (size_t)col * nv + row : row * nv + (size_t)col] = x;
    }
    if (pk > 0) {
      ws->df[pk] = teal_spatial_vector_add(ws->df[pk], ws->df[k]);
    }
  }
}

/* ---- public ------------------------------------------------------------------------- */

/* One tangent pass per velocity index, position directions (is_q) or
 * velocity ones, into the columns of out. */
static void all_directions(const teal_mb_data *data, const teal_plant_tree *t,
                           teal_mb_derivatives *ws, const id_args *x, int is_q, double *out) {
  for (int k = 1; k < t->num_nodes; k++) {
    const double *S = teal_mb_data_S(data, t, k);
    for (int jl = 0; jl < t->nv[k]; jl++) {
      direction d = {k, jl, is_q, col_of(S, jl)};
      tangent_outward(data, t, ws, &d, x);
      tangent_inward(data, t, ws, &d, t->v_start[k] + jl, out);
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
  nominal_products(data, t, ws, &x);
  all_directions(data, t, ws, &x, 1, dtau_dq);
  all_directions(data, t, ws, &x, 0, dtau_dv);
  return dtau_dvdot ? teal_mb_mass_matrix(plant, data, q, dtau_dvdot) : TEAL_OK;
}
