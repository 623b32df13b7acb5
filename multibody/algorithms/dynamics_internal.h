/* Private to multibody/: the dynamics workspace shared by dynamics.c
 * (workspace, argument checks, position and velocity stages, energies),
 * inverse_dynamics.c (RNEA family, M v, reaction forces), inertia.c (CRBA)
 * and articulated.c (articulated-body factorization, M^-1, ABA).
 *
 * Formulation. Per tree node k (k = 0 the world, parent[k] < k), everything
 * is expressed in W and taken about the fixed point O[k]: the world position
 * of the origin of the root body of k's tree at the current q. Spatial
 * velocities V are Plucker vectors [w; v_O] with v_O the velocity of the body
 * point at O; accelerations a are their time derivatives (Featherstone's
 * spatial accelerations, not Drake's classical ones); forces are [moment
 * about O; force]. Since a parent and a child share O, nothing is shifted
 * between them: a_k = a_parent + S_k vdot_k + c_k and f_parent += f_k. The
 * world's quantities are zero about any point (with gravity as a uniform
 * acceleration [0; -g] of the world, the same about any point), so a root
 * may use its own O. */
#ifndef TEAL_MULTIBODY_DYNAMICS_INTERNAL_H
#define TEAL_MULTIBODY_DYNAMICS_INTERNAL_H

#include "multibody/algorithms/dynamics.h"

/** A rigid-body spatial inertia about O in W: mass, first moment h = m p_OBcm
 *  and rotational inertia I about O (symmetric). As a 6x6 matrix it is
 *  [I [h]x; -[h]x m 1]. */
typedef struct teal_mb_inertia {
  double m;
  teal_vec3 h;
  teal_mat3 I;
} teal_mb_inertia;

/** Per-node shortcuts: R_PF is the identity, R_MB is the identity, p_MB is
 *  zero. */
enum { TEAL_MB_F_UNROTATED = 1, TEAL_MB_M_UNROTATED = 2, TEAL_MB_M_AT_BO = 4 };

struct teal_mb_workspace {
  const teal_plant *plant;
  int nb, nn, nq, nv;
  teal_error err;
  int gravity_set; /* use g below instead of the plant's gravity */
  teal_vec3 g;
  void *buffer; /* every array below, in one allocation */
  /* constant per node, filled at creation (the model is immutable once
   * finalized) */
  int *body;            /* [nn] node -> body */
  int *joint;           /* [nn] node -> inboard joint (-1 for the world) */
  int *d_start;         /* [nn] offset of the node's nv x nv block in Dinv */
  int *flags;           /* [nn] TEAL_MB_* shortcuts */
  teal_transform *X_MB; /* [nn] X_BM^-1 */
  teal_vec3 *p_BBcm;    /* [nn] center of mass in B */
  teal_mat3 *I_Bcm;     /* [nn] central rotational inertia in B */
  /* position stage: valid for q_pos while pos_valid */
  double *q_pos;           /* [nq] */
  int pos_valid;
  unsigned long pos_stamp; /* bumped by every recomputation */
  teal_transform *X;       /* [nn] X_WB by node */
  teal_vec3 *O;            /* [nn] the reference point of the node's tree, in W */
  double *S;               /* [6 nv] motion subspace columns about O, by v index */
  teal_mb_inertia *I;      /* [nn] body inertias about O */
  /* velocity stage of the latest v */
  teal_spatial_vector *V;  /* [nn] spatial velocities */
  teal_spatial_vector *c;  /* [nn] velocity-product accelerations */
  teal_spatial_vector *pb; /* [nn] gyroscopic forces V x* (I V) */
  /* recursion scratch */
  teal_spatial_vector *a;  /* [nn] spatial accelerations */
  teal_spatial_vector *f;  /* [nn] forces, articulated bias forces */
  teal_mb_inertia *Ic;     /* [nn] composite inertias */
  /* articulated-body factorization, valid while factor_stamp == pos_stamp */
  teal_mat6 *P;               /* [nn] articulated inertias */
  double *Ud;                 /* [6 nv] P S D^-1, by v index */
  double *Dinv;               /* [sum nv_k^2] D^-1 = (S' P S)^-1 per node */
  double *u;                  /* [nv] joint-space bias of the inward pass */
  unsigned long factor_stamp; /* pos_stamp of the factorization, 0 if none */
};

/* ---- argument checks (dynamics.c); each returns TEAL_OK or the code set in ws->err */

/** Clears ws->err and checks plant and ws; the tree, or NULL with *status set. */
const teal_plant_tree *teal_mb_ws_begin(const teal_plant *plant, teal_mb_workspace *ws,
                                        const char *fn, int *status);

/** x (n values) must be finite, and non-NULL unless optional. */
int teal_mb_ws_check_array(teal_mb_workspace *ws, const char *fn, const char *name,
                           const double *x, int n, int optional);

/** F (num_bodies spatial vectors) must be finite; NULL is allowed. */
int teal_mb_ws_check_forces(teal_mb_workspace *ws, const char *fn, const char *name,
                            const teal_spatial_vector *F);

/** An output pointer must be non-NULL. */
int teal_mb_ws_check_out(teal_mb_workspace *ws, const char *fn, const char *name,
                         const void *x);

/* ---- stages (dynamics.c) ---------------------------------------------------- */

/** The position stage (X, O, S, I) for q, unless ws already holds it. */
int teal_mb_ws_position(teal_mb_workspace *ws, const teal_plant_tree *t, const double *q);

/** The velocity stage (V, c, pb) for v at the position stage's q (q is that
 *  same array, used by joints whose H depends on q). */
void teal_mb_ws_velocity(teal_mb_workspace *ws, const teal_plant_tree *t, const double *q,
                         const double *v);

/* ---- small inline kernels --------------------------------------------------- */

/** The node's motion subspace columns (6 x nv column-major). */
static inline const double *teal_mb_ws_S(const teal_mb_workspace *ws, const teal_plant_tree *t,
                                         int k) {
  return ws->S + 6 * t->v_start[k];
}

/** sum_j x_j s_j over the n columns of S. */
static inline teal_spatial_vector teal_mb_s_apply(const double *S, int n, const double *x) {
  teal_spatial_vector r = teal_spatial_vector_zero();
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < 6; i++) {
      r.v[i] += S[6 * j + i] * x[j];
    }
  }
  return r;
}

/** s . f for one column s. */
static inline double teal_mb_s_dot(const double *s, teal_spatial_vector f) {
  return s[0] * f.v[0] + s[1] * f.v[1] + s[2] * f.v[2] + s[3] * f.v[3] + s[4] * f.v[4] +
         s[5] * f.v[5];
}

/** y = S' f over the n columns of S. */
static inline void teal_mb_s_apply_transpose(const double *S, int n, teal_spatial_vector f,
                                             double *y) {
  for (int j = 0; j < n; j++) {
    y[j] = teal_mb_s_dot(S + 6 * j, f);
  }
}

/** The momentum-like product M V = [I w + h x v; m v - h x w]. */
static inline teal_spatial_vector teal_mb_inertia_apply(const teal_mb_inertia *M,
                                                        teal_spatial_vector V) {
  teal_vec3 w = teal_spatial_vector_angular(V), v = teal_spatial_vector_linear(V);
  teal_vec3 ang = teal_vec3_add(teal_mat3_apply(M->I, w), teal_vec3_cross(M->h, v));
  teal_vec3 lin = teal_vec3_sub(teal_vec3_scale(v, M->m), teal_vec3_cross(M->h, w));
  return teal_spatial_vector_make(ang, lin);
}

/** a + b, inertias about the same point in the same frame. */
static inline void teal_mb_inertia_add_to(teal_mb_inertia *acc, const teal_mb_inertia *b) {
  acc->m += b->m;
  acc->h = teal_vec3_add(acc->h, b->h);
  acc->I = teal_mat3_add(acc->I, b->I);
}

/** A force F_Bo_W on node k's body (about Bo, in W) taken about O. */
static inline teal_spatial_vector teal_mb_force_about_O(const teal_mb_workspace *ws, int k,
                                                        teal_spatial_vector F_Bo_W) {
  teal_vec3 r = teal_vec3_sub(ws->X[k].p, ws->O[k]);
  teal_vec3 f = teal_spatial_vector_linear(F_Bo_W);
  teal_vec3 n = teal_vec3_add(teal_spatial_vector_angular(F_Bo_W), teal_vec3_cross(r, f));
  return teal_spatial_vector_make(n, f);
}

/** The gravity used by ws: its own if set, else the plant's. */
static inline teal_vec3 teal_mb_ws_gravity(const teal_mb_workspace *ws) {
  return ws->gravity_set ? ws->g : teal_plant_gravity(ws->plant);
}

/** The world's spatial acceleration: [0; -g] with gravity, else zero. */
static inline teal_spatial_vector teal_mb_world_acceleration(const teal_mb_workspace *ws,
                                                             int with_gravity) {
  if (!with_gravity) {
    return teal_spatial_vector_zero();
  }
  return teal_spatial_vector_make(teal_vec3_zero(), teal_vec3_neg(teal_mb_ws_gravity(ws)));
}

#endif
