/* Private to multibody/: the layout of teal_mb_data (data.h), shared by
 * the algorithms: data.c (allocation, gravity, argument checks), stages.c
 * (position and velocity stages), rnea.c, crba.c, aba.c, energy.c,
 * jacobians.c and momentum.c.
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
#ifndef TEAL_MULTIBODY_ALGORITHMS_DATA_INTERNAL_H
#define TEAL_MULTIBODY_ALGORITHMS_DATA_INTERNAL_H

#include "multibody/algorithms/data.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/forest.h"

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

struct teal_mb_data {
  const teal_plant *plant;
  int nb, nn, nq, nv;
  teal_error err;
  void *buffer; /* every array below, in one allocation */
  /* constant per node, filled at creation (the model is immutable once
   * finalized) */
  int *body;            /* [nn] node -> body */
  int *joint;           /* [nn] node -> inboard joint (-1 for the world) */
  int *d_start;         /* [nn] offset of the node's nv x nv block in Dinv */
  int *flags;           /* [nn] TEAL_MB_* shortcuts */
  teal_transform *X_MB; /* [nn] X_BM^-1 */
  /* body inertias by node: the model's (the tree's M_BBo_B and own_I_Bcm)
   * unless an owner lends its own (the plant system: its context's
   * parameters, teal_mb_data_use_inertias) */
  const teal_spatial_inertia *M_BBo_B; /* [nn] about Bo, in B */
  const teal_mat3 *I_Bcm;              /* [nn] about the center of mass, in B */
  teal_mat3 *own_I_Bcm;                /* [nn] the model's central inertias */
  /* position stage: valid for q_pos while pos_valid */
  double *q_pos; /* [nq] */
  int pos_valid;
  int staged;              /* the owner drops the stage when q changes (no q compare) */
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
  teal_spatial_vector *a; /* [nn] spatial accelerations */
  teal_spatial_vector *f; /* [nn] forces, articulated bias forces */
  teal_mb_inertia *Ic;    /* [nn] composite inertias */
  /* articulated-body factorization, valid while factor_stamp == pos_stamp */
  teal_mat6 *P;               /* [nn] articulated inertias */
  double *Ud;                 /* [6 nv] P S D^-1, by v index */
  double *Dinv;               /* [sum nv_k^2] D^-1 = (S' P S)^-1 per node */
  double *u;                  /* [nv] joint-space bias of the inward pass */
  unsigned long factor_stamp; /* pos_stamp of the factorization, 0 if none */
  /* per-tree blocks of M and their Cholesky factors, valid while
   * blocks_stamp == pos_stamp (mass_inverse.c) */
  const teal_mb_trees *trees; /* the plant's forest */
  double *Mb, *Lb;            /* [sum m_t^2] each, or [1] when !blocks_kept; Lb: the
                               * factors, or the inverses of blocks up to 8 dofs */
  int blocks_kept;            /* sum m_t^2 doubles fit TEAL_PLANT_DENSE_MAX_BYTES */
  double *minv_x;             /* [max m_t] one tree's right-hand side */
  double *zero_nv, *bias;     /* [nv] zeros, and -(the bias forces) of the block dynamics */
  unsigned long blocks_stamp; /* pos_stamp of the blocks, 0 if none */
  int minv_blocks;            /* the latest factorization was the blocks' */
  /* [nv] or NULL: a diagonal added to M by both factorizations and held in
   * Mb (the discrete plant's implicit joint damping h D; see
   * teal_mb_data_set_added_diagonal) */
  const double *added_diagonal;
  /* [nv] the joints' armatures plus the actuators' reflected inertias
   * rho^2 I_r, part of M's diagonal everywhere (the model's unless the owner lends its context's)
   */
  const double *reflected;
  /* by body, in W at body origins: Jacobians and momentum */
  teal_transform *X_WB;      /* [nb] */
  teal_spatial_vector *V_WB; /* [nb] */
  teal_spatial_vector *A_WB; /* [nb] */
  /* [nb] room for callers to gather applied spatial forces by body (at Bo,
   * in W) before handing them to an algorithm, as MuJoCo's xfrc_applied */
  teal_spatial_vector *F_Bo_W;
  teal_spatial_vector *F;    /* [nn] by node: accumulated forces of J' F */
  /* gravity and the sizes only the Jacobian and momentum functions use */
  const double *gravity; /* 3 values: the model's, own_gravity, or a context's parameter */
  teal_vec3 own_gravity; /* set by teal_mb_data_set_gravity */
  int nf, ni;
  /* momentum selections */
  unsigned char *instance; /* [ni] instance selected */
  unsigned char *selected; /* [nn] node's body selected */
  double *m_sub;           /* [nn] selected mass of each subtree */
  teal_vec3 *mp_sub;       /* [nn] its first moment, sum m p_WBcm */
};

/* ---- argument checks (data.c); each returns TEAL_OK or the code set in data->err */

/** Clears data->err and checks plant and data; the tree, or NULL with *status set. */
const teal_plant_tree *teal_mb_data_begin(const teal_plant *plant, teal_mb_data *data,
                                          const char *fn, int *status);

/** teal_mb_data_begin, then q (nq values), v (nv values, when need_v) and
 *  the output out (named out_name): the front of most algorithms. */
const teal_plant_tree *teal_mb_data_begin_qv(const teal_plant *plant, teal_mb_data *data,
                                             const char *fn, const double *q, const double *v,
                                             int need_v, const void *out, const char *out_name,
                                             int *status);

/** x (n values) must be finite, and non-NULL unless optional. */
int teal_mb_data_check_array(teal_mb_data *data, const char *fn, const char *name, const double *x,
                             int n, int optional);

/** F (num_bodies spatial vectors) must be finite; NULL is allowed. */
int teal_mb_data_check_forces(teal_mb_data *data, const char *fn, const char *name,
                              const teal_spatial_vector *F);

/** An output pointer must be non-NULL. */
int teal_mb_data_check_out(teal_mb_data *data, const char *fn, const char *name, const void *x);

/** TEAL_EINVAL (named name) unless f is a frame index of data's plant. */
int teal_mb_data_check_frame(teal_mb_data *data, const char *fn, const char *name, int f);

/** Marks in data->selected the nodes whose bodies belong to the n model
 *  instances listed (every instance when instances is NULL) and puts their
 *  total mass in *mass; TEAL_EINVAL for a negative n, an unknown instance or
 *  a selection without mass. */
int teal_mb_data_select_bodies(teal_mb_data *data, const teal_plant_tree *t, const char *fn,
                               const int *instances, int n, double *mass);

/* ---- stages (stages.c) ------------------------------------------------------ */

/** The position stage (X, O, S, I) for q, unless data already holds it. */
int teal_mb_data_position(teal_mb_data *data, const teal_plant_tree *t, const double *q);

/** The velocity stage (V, c, pb) for v at the position stage's q (q is that
 *  same array, used by joints whose H depends on q). */
void teal_mb_data_velocity(teal_mb_data *data, const teal_plant_tree *t, const double *q,
                           const double *v);

/* ---- small inline kernels --------------------------------------------------- */

/** The node's motion subspace columns (6 x nv column-major). */
static inline const double *teal_mb_data_S(const teal_mb_data *data, const teal_plant_tree *t,
                                           int k) {
  return data->S + 6 * t->v_start[k];
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
static inline teal_spatial_vector teal_mb_force_about_O(const teal_mb_data *data, int k,
                                                        teal_spatial_vector F_Bo_W) {
  teal_vec3 r = teal_vec3_sub(data->X[k].p, data->O[k]);
  teal_vec3 f = teal_spatial_vector_linear(F_Bo_W);
  teal_vec3 n = teal_vec3_add(teal_spatial_vector_angular(F_Bo_W), teal_vec3_cross(r, f));
  return teal_spatial_vector_make(n, f);
}

/** The gravity data uses: wherever data->gravity points. */
static inline teal_vec3 teal_mb_data_g(const teal_mb_data *data) {
  return teal_vec3_make(data->gravity[0], data->gravity[1], data->gravity[2]);
}

/** Makes data staged by its owner: the owner (the plant system, from a
 *  cache entry that depends on q) calls teal_mb_data_drop_position whenever
 *  q changes, so the algorithms reuse the position stage without comparing q
 *  (data.c). */
void teal_mb_data_stage_by_owner(teal_mb_data *data);

/** Forgets the position stage (and with it the factorizations). */
void teal_mb_data_drop_position(teal_mb_data *data);

/** Makes the factorizations (articulated and by blocks) and the blocks Mb
 *  that later calls make on data be of M + diag(d) (nv values >= 0 that
 *  outlive their use; NULL: M itself), and drops those data holds. The
 *  discrete plant adds its joint damping h D this way for one time step:
 *  forward dynamics then gives (M + h D)^-1 (tau - C v + tau_g) and
 *  teal_mb_mass_inverse (M + h D)^-1, as Drake's discrete solvers use
 *  (data.c). */
void teal_mb_data_set_added_diagonal(teal_mb_data *data, const double *d);

/** Points data's gravity at g_W (3 values that outlive their use): the plant
 *  system lends its context's gravity parameter this way (data.c). */
void teal_mb_data_use_gravity(teal_mb_data *data, const double *g_W);

/** Points data's body inertias at M_BBo_B and their central rotational
 *  inertias I_Bcm (nn each, by node, consistent with each other, outliving
 *  their use): the plant system lends its context's parameters this way.
 *  The owner drops the position stage when they change (data.c). */
void teal_mb_data_use_inertias(teal_mb_data *data, const teal_spatial_inertia *M_BBo_B,
                               const teal_mat3 *I_Bcm);

/** Points data's reflected inertias at r (nv values >= 0, outliving their
 *  use): the plant system lends its context's parameter this way. The owner
 *  drops the position stage when they change (data.c). */
void teal_mb_data_use_reflected_inertia(teal_mb_data *data, const double *r);

/** The world's spatial acceleration: [0; -g] with gravity, else zero. */
static inline teal_spatial_vector teal_mb_world_acceleration(const teal_mb_data *data,
                                                             int with_gravity) {
  if (!with_gravity) {
    return teal_spatial_vector_zero();
  }
  return teal_spatial_vector_make(teal_vec3_zero(), teal_vec3_neg(teal_mb_data_g(data)));
}

#endif
