/* Subtrees (see subtree.h): topology at construction, then outward passes
 * over the subtree's bodies only, with the ancestor A in the world's role. */
#include "multibody/algorithms/subtree.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "math/quaternion.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/tree/topology.h"

struct teal_mb_subtree {
  const teal_plant *plant;
  int n, nq, nv, nterm, ancestor, nb;
  int *node;        /* [n] plant node of subtree body i */
  int *parent;      /* [n] subtree parent (-1 for 0) */
  int *end;         /* [n] one past the last body outboard of i */
  int *q_off;       /* [n] offset of i's joint in sub_q */
  int *v_off;       /* [n] offset of i's joint in sub_u */
  int *q_owner;     /* [nq] subtree body whose joint holds sub_q[j] */
  int *v_owner;     /* [nv] likewise for sub_u[j] */
  int *q_index;     /* [nq] plant q index */
  int *v_index;     /* [nv] plant v index */
  int *children;    /* [n] children lists, child_start[i] .. child_start[i+1]-1 */
  int *child_start; /* [n + 1] */
  int *terminal;    /* [nterm] */
  int *sub_of_node; /* [nb] subtree index by plant node, -1 outside */
};

struct teal_mb_subtree_results {
  const teal_mb_subtree *subtree;
  int stage;
  double *q, *u, *udot;
  teal_transform *X, *Xp;
  teal_spatial_vector *V, *Vp, *A, *Ap;
};

/* ---- construction ------------------------------------------------------- */

void teal_mb_subtree_free(teal_mb_subtree *s) {
  if (s) {
    teal_free(s->node);
    teal_free(s->terminal);
    teal_free(s->sub_of_node);
    teal_free(s);
  }
}

/* The deepest common ancestor of two nodes (parent[k] < k). */
static int common_node(const teal_plant_tree *t, int a, int b) {
  while (a != b) {
    if (a > b) {
      a = t->parent[a];
    } else {
      b = t->parent[b];
    }
  }
  return a;
}

/* Checks the terminal bodies and finds the ancestor node (-1 on error). */
static int find_ancestor(const teal_plant *plant, const teal_plant_tree *t, const int *term,
                         int nterm, int ancestor, teal_error *err) {
  const char *fn = "teal_mb_subtree_new";
  int nb = teal_plant_num_bodies(plant), a = -1;
  for (int i = 0; i < nterm; i++) {
    if (term[i] < 0 || term[i] >= nb) {
      teal_error_set(err, TEAL_EINVAL, "%s: terminal body %d is unknown (%d bodies)", fn, term[i],
                     nb);
      return -1;
    }
    int k = teal_plant_body_node(plant, term[i]);
    a = i == 0 ? k : common_node(t, a, k);
  }
  if (ancestor < 0) {
    if (nterm == 0) {
      teal_error_set(err, TEAL_EINVAL, "%s: no terminal bodies and no ancestor given", fn);
    }
    return a;
  }
  if (ancestor >= nb) {
    teal_error_set(err, TEAL_EINVAL, "%s: ancestor body %d is unknown (%d bodies)", fn, ancestor,
                   nb);
    return -1;
  }
  int ka = teal_plant_body_node(plant, ancestor);
  for (int i = 0; i < nterm; i++) {
    int k = teal_plant_body_node(plant, term[i]);
    if (common_node(t, ka, k) != ka) {
      teal_error_set(err, TEAL_EINVAL,
                     "%s: terminal body \"%s\" is not outboard of the ancestor \"%s\"", fn,
                     teal_plant_body_name(plant, term[i]), teal_plant_body_name(plant, ancestor));
      return -1;
    }
  }
  return ka;
}

/* Allocates the int arrays of s in one block (node owns it). */
static int alloc_arrays(teal_mb_subtree *s) {
  size_t total = (size_t)(7 * s->n + 1) + (size_t)(2 * s->nq) + (size_t)(2 * s->nv);
  int *p = teal_calloc(total, sizeof(int));
  if (!p) {
    return TEAL_ENOMEM;
  }
  s->node = p;
  s->parent = p + s->n;
  s->end = p + 2 * s->n;
  s->q_off = p + 3 * s->n;
  s->v_off = p + 4 * s->n;
  s->children = p + 5 * s->n;
  s->child_start = p + 6 * s->n;
  s->q_owner = s->child_start + s->n + 1;
  s->q_index = s->q_owner + s->nq;
  s->v_owner = s->q_index + s->nq;
  s->v_index = s->v_owner + s->nv;
  return TEAL_OK;
}

/* Depth-first numbering from the ancestor node ka over the marked nodes
 * (sub_of_node[k] == 0 marks membership on entry); fills node, parent, end
 * and the q, v maps. Recursion-free: a node's subtree ends where the next
 * node not outboard of it begins. */
static void number_bodies(teal_mb_subtree *s, const teal_plant_tree *t, int ka) {
  int *mark = s->sub_of_node, n = 0, top = 0;
  int *stack = s->end; /* scratch until end is filled */
  stack[top++] = ka;
  while (top > 0) {
    int k = stack[--top];
    s->node[n] = k;
    mark[k] = n++;
    for (int c = t->num_nodes - 1; c > k; c--) { /* push children, largest first */
      if (t->parent[c] == k && mark[c] == -2) {
        stack[top++] = c;
      }
    }
  }
  for (int i = 0; i < s->n; i++) {
    s->parent[i] = i == 0 ? -1 : mark[t->parent[s->node[i]]];
  }
  for (int i = s->n - 1; i >= 0; i--) {
    int e = i + 1;
    while (e < s->n && s->parent[e] >= i) {
      e = s->end[e];
    }
    s->end[i] = e;
  }
}

/* Children lists and the q, v maps, from the numbering. */
static void fill_maps(teal_mb_subtree *s, const teal_plant_tree *t) {
  int iq = 0, iv = 0, ic = 0;
  for (int i = 0; i < s->n; i++) {
    s->child_start[i] = ic;
    for (int c = i + 1; c < s->n; c++) {
      if (s->parent[c] == i) {
        s->children[ic++] = c;
      }
    }
    int k = s->node[i];
    s->q_off[i] = iq;
    s->v_off[i] = iv;
    for (int j = 0; i > 0 && j < t->nq[k]; j++, iq++) {
      s->q_owner[iq] = i;
      s->q_index[iq] = t->q_start[k] + j;
    }
    for (int j = 0; i > 0 && j < t->nv[k]; j++, iv++) {
      s->v_owner[iv] = i;
      s->v_index[iv] = t->v_start[k] + j;
    }
  }
  s->child_start[s->n] = ic;
}

/* Marks (-2) the nodes on the paths from the terminal bodies to node ka and
 * counts the subtree's bodies, positions and velocities. */
static void mark_paths(teal_mb_subtree *s, const teal_plant_tree *t, const int *term, int ka) {
  for (int k = 0; k < s->nb; k++) {
    s->sub_of_node[k] = -1;
  }
  s->sub_of_node[ka] = -2;
  s->n = 1;
  for (int i = 0; i < s->nterm; i++) {
    for (int k = teal_plant_body_node(s->plant, term[i]); k != ka; k = t->parent[k]) {
      if (s->sub_of_node[k] == -2) {
        break;
      }
      s->sub_of_node[k] = -2;
      s->n++;
      s->nq += t->nq[k];
      s->nv += t->nv[k];
    }
  }
}

teal_mb_subtree *teal_mb_subtree_new(const teal_plant *plant, const int *terminal_bodies,
                                     int num_terminal, int ancestor, teal_error *err) {
  const char *fn = "teal_mb_subtree_new";
  teal_error_clear(err);
  if (!plant || num_terminal < 0 || (num_terminal > 0 && !terminal_bodies)) {
    teal_error_set(err, TEAL_EINVAL, "%s: %s", fn,
                   !plant ? "NULL plant"
                          : (num_terminal < 0 ? "negative num_terminal" : "NULL terminal_bodies"));
    return NULL;
  }
  const teal_plant_tree *t = teal_plant_get_tree(plant);
  if (!t) {
    teal_error_set(err, TEAL_ESTATE, "%s: plant is not finalized", fn);
    return NULL;
  }
  int ka = find_ancestor(plant, t, terminal_bodies, num_terminal, ancestor, err);
  if (ka < 0) {
    return NULL;
  }
  teal_mb_subtree *s = teal_calloc(1, sizeof *s);
  if (!s) {
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", fn);
    return NULL;
  }
  s->plant = plant;
  s->nb = t->num_nodes;
  s->nterm = num_terminal;
  s->ancestor = teal_plant_node_body(plant, ka);
  s->sub_of_node = teal_alloc((size_t)s->nb * sizeof(int));
  s->terminal = teal_alloc((size_t)(num_terminal + 1) * sizeof(int));
  if (!s->sub_of_node || !s->terminal) {
    teal_mb_subtree_free(s);
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", fn);
    return NULL;
  }
  if (num_terminal > 0) {
    memcpy(s->terminal, terminal_bodies, (size_t)num_terminal * sizeof(int));
  }
  mark_paths(s, t, terminal_bodies, ka);
  if (alloc_arrays(s) != TEAL_OK) {
    teal_mb_subtree_free(s);
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", fn);
    return NULL;
  }
  number_bodies(s, t, ka);
  fill_maps(s, t);
  return s;
}

/* ---- topology queries ----------------------------------------------------- */

const teal_plant *teal_mb_subtree_plant(const teal_mb_subtree *s) {
  return s ? s->plant : NULL;
}

int teal_mb_subtree_num_bodies(const teal_mb_subtree *s) {
  return s ? s->n : 0;
}

int teal_mb_subtree_ancestor(const teal_mb_subtree *s) {
  return s ? s->ancestor : -1;
}

int teal_mb_subtree_num_terminal_bodies(const teal_mb_subtree *s) {
  return s ? s->nterm : 0;
}

int teal_mb_subtree_terminal_body(const teal_mb_subtree *s, int i) {
  return s && i >= 0 && i < s->nterm ? s->terminal[i] : -1;
}

int teal_mb_subtree_body(const teal_mb_subtree *s, int i) {
  return s && i >= 0 && i < s->n ? teal_plant_node_body(s->plant, s->node[i]) : -1;
}

int teal_mb_subtree_index_of_body(const teal_mb_subtree *s, int body) {
  int k = s ? teal_plant_body_node(s->plant, body) : -1;
  return k >= 0 && k < s->nb ? s->sub_of_node[k] : -1;
}

int teal_mb_subtree_parent(const teal_mb_subtree *s, int i) {
  return s && i >= 0 && i < s->n ? s->parent[i] : -1;
}

int teal_mb_subtree_num_children(const teal_mb_subtree *s, int i) {
  return s && i >= 0 && i < s->n ? s->child_start[i + 1] - s->child_start[i] : 0;
}

int teal_mb_subtree_child(const teal_mb_subtree *s, int i, int j) {
  int nc = teal_mb_subtree_num_children(s, i);
  return j >= 0 && j < nc ? s->children[s->child_start[i] + j] : -1;
}

int teal_mb_subtree_nq(const teal_mb_subtree *s) {
  return s ? s->nq : 0;
}

int teal_mb_subtree_nv(const teal_mb_subtree *s) {
  return s ? s->nv : 0;
}

int teal_mb_subtree_q_index(const teal_mb_subtree *s, int i) {
  return s && i >= 0 && i < s->nq ? s->q_index[i] : -1;
}

int teal_mb_subtree_v_index(const teal_mb_subtree *s, int i) {
  return s && i >= 0 && i < s->nv ? s->v_index[i] : -1;
}

/* ---- results ---------------------------------------------------------------- */

teal_mb_subtree_results *teal_mb_subtree_results_new(const teal_mb_subtree *s, teal_error *err) {
  teal_error_clear(err);
  if (!s) {
    teal_error_set(err, TEAL_EINVAL, "teal_mb_subtree_results_new: NULL subtree");
    return NULL;
  }
  teal_mb_subtree_results *r = teal_calloc(1, sizeof *r);
  size_t nd = (size_t)(s->nq + 2 * s->nv + 1), n = (size_t)s->n;
  if (r) {
    r->q = teal_calloc(nd, sizeof(double));
    r->X = teal_calloc(2 * n, sizeof(teal_transform));
    r->V = teal_calloc(4 * n, sizeof(teal_spatial_vector));
  }
  if (!r || !r->q || !r->X || !r->V) {
    teal_mb_subtree_results_free(r);
    teal_error_set(err, TEAL_ENOMEM, "teal_mb_subtree_results_new: out of memory");
    return NULL;
  }
  r->subtree = s;
  r->u = r->q + s->nq;
  r->udot = r->u + s->nv;
  r->Xp = r->X + n;
  r->Vp = r->V + n;
  r->A = r->V + 2 * n;
  r->Ap = r->V + 3 * n;
  return r;
}

void teal_mb_subtree_results_free(teal_mb_subtree_results *r) {
  if (r) {
    teal_free(r->q);
    teal_free(r->X);
    teal_free(r->V);
    teal_free(r);
  }
}

int teal_mb_subtree_results_compatible(const teal_mb_subtree *s, const teal_mb_subtree_results *r) {
  return s && r && r->subtree == s;
}

int teal_mb_subtree_results_stage(const teal_mb_subtree_results *r) {
  return r ? r->stage : 0;
}

const teal_transform *teal_mb_subtree_results_poses(const teal_mb_subtree_results *r) {
  return r ? r->X : NULL;
}

const teal_spatial_vector *teal_mb_subtree_results_velocities(const teal_mb_subtree_results *r) {
  return r ? r->V : NULL;
}

const teal_spatial_vector *teal_mb_subtree_results_accelerations(const teal_mb_subtree_results *r) {
  return r ? r->A : NULL;
}

const teal_transform *teal_mb_subtree_results_perturbed_poses(const teal_mb_subtree_results *r) {
  return r ? r->Xp : NULL;
}

const teal_spatial_vector *teal_mb_subtree_results_perturbed_velocities(
    const teal_mb_subtree_results *r) {
  return r ? r->Vp : NULL;
}

const teal_spatial_vector *teal_mb_subtree_results_perturbed_accelerations(
    const teal_mb_subtree_results *r) {
  return r ? r->Ap : NULL;
}

/* ---- argument checks ---------------------------------------------------------- */

/* The front of every calc: plant, data, subtree and results agree, and
 * results hold at least stage min_stage. */
static int begin(const teal_plant *plant, teal_mb_data *data, const teal_mb_subtree *s,
                 const teal_mb_subtree_results *r, const char *fn, int min_stage) {
  int st;
  if (!teal_mb_data_begin(plant, data, fn, &st)) {
    return st;
  }
  if (!s || !r) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: NULL %s", fn, s ? "results" : "subtree");
  }
  if (s->plant != plant) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: subtree made for another plant", fn);
  }
  if (r->subtree != s) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: results made for another subtree", fn);
  }
  if (r->stage < min_stage) {
    static const char *const names[] = {"", "positions", "velocities", "accelerations"};
    return teal_error_set(&data->err, TEAL_ESTATE, "%s: results hold no %s yet", fn,
                          names[min_stage]);
  }
  return TEAL_OK;
}

/* A subtree vector x of n values (expected) must be finite. */
static int check_sub(teal_mb_data *data, const char *fn, const char *name, const double *x, int n,
                     int expected) {
  if (x && n != expected) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: %s has %d values, the subtree has %d", fn,
                          name, n, expected);
  }
  return teal_mb_data_check_array(data, fn, name, x, expected, 0);
}

/* A perturbation index below n and a finite delta. */
static int check_perturbation(teal_mb_data *data, const char *fn, int index, int n, double delta) {
  if (index < 0 || index >= n) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: index %d out of range [0, %d)", fn, index,
                          n);
  }
  if (!isfinite(delta)) {
    return teal_error_set(&data->err, TEAL_ENONFINITE, "%s: delta is not finite (%g)", fn, delta);
  }
  return TEAL_OK;
}

/* dst[j] = src[index[j]] for the n subtree entries of a plant vector; only
 * those entries are read and must be finite, so this is O(subtree). */
static int gather(teal_mb_data *data, const char *fn, const char *name, const double *src,
                  const int *index, int n, double *dst) {
  if (!src) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: NULL %s", fn, name);
  }
  for (int j = 0; j < n; j++) {
    if (!isfinite(src[index[j]])) {
      return teal_error_set(&data->err, TEAL_ENONFINITE, "%s: %s[%d] is not finite (%g)", fn, name,
                            index[j], src[index[j]]);
    }
    dst[j] = src[index[j]];
  }
  return TEAL_OK;
}

/* ---- outward passes ------------------------------------------------------------- */

/* X_PB of node k: X_PF X_FM(q) X_MB, also returning X_FM and X_MB. */
static teal_transform node_pose(const teal_plant_tree *t, int k, const double *qk,
                                teal_transform *X_FM, teal_transform *X_MB) {
  *X_FM = t->type[k]->X_FM(&t->params[k], qk);
  *X_MB = teal_transform_inverse(t->X_BM[k]);
  return teal_transform_compose(teal_transform_compose(t->X_PF[k], *X_FM), *X_MB);
}

/* The joint motion H x (at Mo, in F) shifted to Bo and expressed in A, for
 * the subtree body i whose parent has pose X_AP: the relative velocity of B
 * in P for x = u, the H udot part of the relative acceleration for x = udot. */
static teal_spatial_vector joint_motion(const teal_plant_tree *t, int k, const double *qk,
                                        const double *xk, teal_transform X_AP) {
  teal_transform X_FM, X_MB;
  node_pose(t, k, qk, &X_FM, &X_MB);
  teal_spatial_vector H_x = teal_joint_velocity(t->type[k], &t->params[k], qk, xk);
  teal_vec3 p_MoBo_F = teal_rotation_apply(X_FM.R, X_MB.p);
  teal_rotation R_AF = teal_rotation_mul(X_AP.R, t->X_PF[k].R);
  return teal_spatial_vector_reexpress(R_AF, teal_spatial_velocity_shift(H_x, p_MoBo_F));
}

/* Every body's quaternion (if any) must be normalizable. */
static int check_quaternions(teal_mb_data *data, const teal_mb_subtree *s, const teal_plant_tree *t,
                             const double *sub_q, const char *fn) {
  for (int i = 1; i < s->n; i++) {
    int k = s->node[i];
    const double *qk = sub_q + s->q_off[i];
    if (t->type[k]->normalize && !teal_quaternion_is_normalizable(qk)) {
      return teal_error_set(&data->err, TEAL_EINVAL,
                            "%s: the quaternion sub_q[%d..%d] of body \"%s\" is zero or "
                            "not normalizable",
                            fn, s->q_off[i], s->q_off[i] + 3,
                            teal_plant_body_name(s->plant, teal_plant_node_body(s->plant, k)));
    }
  }
  return TEAL_OK;
}

/* X_AB of bodies first .. last-1 from their parents' poses, with the joint of
 * body `first` at q_first (the others read r->q). */
static void pose_pass(const teal_mb_subtree *s, const teal_plant_tree *t, const double *q,
                      const double *q_first, int first, int last, teal_transform *X) {
  for (int i = first; i < last; i++) {
    int k = s->node[i];
    teal_transform X_FM, X_MB;
    const double *qk = i == first ? q_first : q + s->q_off[i];
    X[i] = teal_transform_compose(X[s->parent[i]], node_pose(t, k, qk, &X_FM, &X_MB));
  }
}

static int positions(const teal_plant *plant, teal_mb_data *data, const teal_mb_subtree *s,
                     teal_mb_subtree_results *r, const char *fn) {
  const teal_plant_tree *t = teal_plant_get_tree(plant);
  r->stage = 0;
  int st = check_quaternions(data, s, t, r->q, fn);
  if (st) {
    return st;
  }
  r->X[0] = teal_transform_identity();
  pose_pass(s, t, r->q, r->q + s->q_off[s->n > 1 ? 1 : 0], 1, s->n, r->X);
  r->stage = 1;
  return TEAL_OK;
}

int teal_mb_subtree_copy_positions_from_state(const teal_plant *plant, teal_mb_data *data,
                                              const teal_mb_subtree *s, const double *q,
                                              teal_mb_subtree_results *r) {
  const char *fn = "teal_mb_subtree_copy_positions_from_state";
  int st = begin(plant, data, s, r, fn, 0);
  if (st) {
    return st;
  }
  if ((st = gather(data, fn, "q", q, s->q_index, s->nq, r->q))) {
    r->stage = r->stage > 0 ? 0 : r->stage; /* the gather may be partial */
    return st;
  }
  return positions(plant, data, s, r, fn);
}

int teal_mb_subtree_calc_positions_from_subtree_q(const teal_plant *plant, teal_mb_data *data,
                                                  const teal_mb_subtree *s, const double *sub_q,
                                                  int n, teal_mb_subtree_results *r) {
  const char *fn = "teal_mb_subtree_calc_positions_from_subtree_q";
  int st = begin(plant, data, s, r, fn, 0);
  if (st || (st = check_sub(data, fn, "sub_q", sub_q, n, s->nq))) {
    return st;
  }
  memcpy(r->q, sub_q, (size_t)s->nq * sizeof(double));
  return positions(plant, data, s, r, fn);
}

int teal_mb_subtree_perturb_positions(const teal_plant *plant, teal_mb_data *data,
                                      const teal_mb_subtree *s, int index, double delta,
                                      teal_mb_subtree_results *r) {
  const char *fn = "teal_mb_subtree_perturb_positions";
  int st = begin(plant, data, s, r, fn, 1);
  if (st || (st = check_perturbation(data, fn, index, s->nq, delta))) {
    return st;
  }
  const teal_plant_tree *t = teal_plant_get_tree(plant);
  int i = s->q_owner[index], k = s->node[i];
  double qk[TEAL_JOINT_MAX_NQ];
  memcpy(qk, r->q + s->q_off[i], (size_t)t->nq[k] * sizeof(double));
  qk[index - s->q_off[i]] += delta;
  if (t->type[k]->normalize && !teal_quaternion_is_normalizable(qk)) {
    return teal_error_set(&data->err, TEAL_EINVAL, "%s: the perturbed quaternion is zero", fn);
  }
  memcpy(r->Xp, r->X, (size_t)s->n * sizeof(teal_transform));
  pose_pass(s, t, r->q, qk, i, s->end[i], r->Xp);
  return TEAL_OK;
}

/* V_AB of every body from r->X and u (NULL: zero). */
static void velocities(const teal_mb_subtree *s, const teal_plant_tree *t,
                       teal_mb_subtree_results *r, const double *u) {
  static const double zero[TEAL_JOINT_MAX_NV] = {0};
  r->V[0] = teal_spatial_vector_zero();
  for (int i = 1; i < s->n; i++) {
    int p = s->parent[i];
    const double *uk = u ? u + s->v_off[i] : zero;
    teal_vec3 p_PoBo_A = teal_vec3_sub(r->X[i].p, r->X[p].p);
    r->V[i] = teal_spatial_vector_add(teal_spatial_velocity_shift(r->V[p], p_PoBo_A),
                                      joint_motion(t, s->node[i], r->q + s->q_off[i], uk, r->X[p]));
  }
  r->stage = 2;
}

int teal_mb_subtree_copy_velocities_from_state(const teal_plant *plant, teal_mb_data *data,
                                               const teal_mb_subtree *s, const double *v,
                                               teal_mb_subtree_results *r) {
  const char *fn = "teal_mb_subtree_copy_velocities_from_state";
  int st = begin(plant, data, s, r, fn, 1);
  if (st) {
    return st;
  }
  if ((st = gather(data, fn, "v", v, s->v_index, s->nv, r->u))) {
    r->stage = r->stage > 1 ? 1 : r->stage; /* the gather may be partial */
    return st;
  }
  velocities(s, teal_plant_get_tree(plant), r, r->u);
  return TEAL_OK;
}

int teal_mb_subtree_calc_velocities_from_subtree_u(const teal_plant *plant, teal_mb_data *data,
                                                   const teal_mb_subtree *s, const double *sub_u,
                                                   int n, teal_mb_subtree_results *r) {
  const char *fn = "teal_mb_subtree_calc_velocities_from_subtree_u";
  int st = begin(plant, data, s, r, fn, 1);
  if (st || (sub_u && (st = check_sub(data, fn, "sub_u", sub_u, n, s->nv)))) {
    return st;
  }
  if (sub_u) {
    memcpy(r->u, sub_u, (size_t)s->nv * sizeof(double));
  } else {
    memset(r->u, 0, (size_t)s->nv * sizeof(double));
  }
  velocities(s, teal_plant_get_tree(plant), r, r->u);
  return TEAL_OK;
}

/* out = nominal for every body, plus the rigid shift of the change dV of
 * body i's motion to every body outboard of i (velocity and acceleration
 * changes linear in one u or udot move the outboard bodies rigidly). */
static void add_outboard(const teal_mb_subtree *s, const teal_transform *X, int i,
                         teal_spatial_vector dV, const teal_spatial_vector *nominal,
                         teal_spatial_vector *out) {
  memcpy(out, nominal, (size_t)s->n * sizeof(teal_spatial_vector));
  for (int j = i; j < s->end[i]; j++) {
    teal_vec3 p_BiBj_A = teal_vec3_sub(X[j].p, X[i].p);
    out[j] = teal_spatial_vector_add(out[j], teal_spatial_velocity_shift(dV, p_BiBj_A));
  }
}

/* The change of body i's motion from adding delta to sub-vector entry
 * index (the joint's H e delta at Bo, in A). */
static teal_spatial_vector unit_motion(const teal_mb_subtree *s, const teal_plant_tree *t,
                                       const teal_mb_subtree_results *r, int index, double delta) {
  int i = s->v_owner[index];
  double e[TEAL_JOINT_MAX_NV] = {0};
  e[index - s->v_off[i]] = delta;
  return joint_motion(t, s->node[i], r->q + s->q_off[i], e, r->X[s->parent[i]]);
}

int teal_mb_subtree_perturb_velocities(const teal_plant *plant, teal_mb_data *data,
                                       const teal_mb_subtree *s, int index, double delta,
                                       teal_mb_subtree_results *r) {
  const char *fn = "teal_mb_subtree_perturb_velocities";
  int st = begin(plant, data, s, r, fn, 2);
  if (st || (st = check_perturbation(data, fn, index, s->nv, delta))) {
    return st;
  }
  teal_spatial_vector dV = unit_motion(s, teal_plant_get_tree(plant), r, index, delta);
  add_outboard(s, r->X, s->v_owner[index], dV, r->V, r->Vp);
  return TEAL_OK;
}

/* A_AB of every body from r->X, r->V, r->u and r->udot. Per body: the
 * parent's acceleration shifted rigidly, the joint's H udot + Hdot u (the
 * latter with its w_PB x (w_PB x p_MoBo) term), and the Coriolis terms
 * w_AP x w_PB and 2 w_AP x v_PB. */
static void accelerations(const teal_mb_subtree *s, const teal_plant_tree *t,
                          teal_mb_subtree_results *r) {
  r->A[0] = teal_spatial_vector_zero();
  for (int i = 1; i < s->n; i++) {
    int k = s->node[i], p = s->parent[i];
    const double *qk = r->q + s->q_off[i], *uk = r->u + s->v_off[i];
    teal_transform X_FM, X_MB;
    node_pose(t, k, qk, &X_FM, &X_MB);
    teal_spatial_vector V_FM = teal_joint_velocity(t->type[k], &t->params[k], qk, uk);
    teal_spatial_vector A_FM = teal_spatial_vector_add(
        teal_joint_velocity(t->type[k], &t->params[k], qk, r->udot + s->v_off[i]),
        t->type[k]->Hdot_v(&t->params[k], qk, uk));
    teal_vec3 p_MoBo_F = teal_rotation_apply(X_FM.R, X_MB.p);
    teal_rotation R_AF = teal_rotation_mul(r->X[p].R, t->X_PF[k].R);
    teal_spatial_vector A_PB = teal_spatial_vector_reexpress(
        R_AF, teal_spatial_acceleration_shift(A_FM, p_MoBo_F, teal_spatial_vector_angular(V_FM)));
    teal_spatial_vector V_PB =
        teal_spatial_vector_reexpress(R_AF, teal_spatial_velocity_shift(V_FM, p_MoBo_F));
    teal_vec3 w_AP = teal_spatial_vector_angular(r->V[p]);
    teal_vec3 pp = teal_vec3_sub(r->X[i].p, r->X[p].p);
    teal_spatial_vector A =
        teal_spatial_vector_add(teal_spatial_acceleration_shift(r->A[p], pp, w_AP), A_PB);
    teal_vec3 ang = teal_vec3_cross(w_AP, teal_spatial_vector_angular(V_PB));
    teal_vec3 lin = teal_vec3_scale(teal_vec3_cross(w_AP, teal_spatial_vector_linear(V_PB)), 2.0);
    r->A[i] = teal_spatial_vector_add(A, teal_spatial_vector_make(ang, lin));
  }
  r->stage = 3;
}

int teal_mb_subtree_copy_accelerations_from_state(const teal_plant *plant, teal_mb_data *data,
                                                  const teal_mb_subtree *s, const double *vdot,
                                                  teal_mb_subtree_results *r) {
  const char *fn = "teal_mb_subtree_copy_accelerations_from_state";
  int st = begin(plant, data, s, r, fn, 2);
  if (st) {
    return st;
  }
  if ((st = gather(data, fn, "vdot", vdot, s->v_index, s->nv, r->udot))) {
    r->stage = r->stage > 2 ? 2 : r->stage; /* the gather may be partial */
    return st;
  }
  accelerations(s, teal_plant_get_tree(plant), r);
  return TEAL_OK;
}

int teal_mb_subtree_calc_accelerations_from_subtree_udot(const teal_plant *plant,
                                                         teal_mb_data *data,
                                                         const teal_mb_subtree *s,
                                                         const double *sub_udot, int n,
                                                         teal_mb_subtree_results *r) {
  const char *fn = "teal_mb_subtree_calc_accelerations_from_subtree_udot";
  int st = begin(plant, data, s, r, fn, 2);
  if (st || (sub_udot && (st = check_sub(data, fn, "sub_udot", sub_udot, n, s->nv)))) {
    return st;
  }
  if (sub_udot) {
    memcpy(r->udot, sub_udot, (size_t)s->nv * sizeof(double));
  } else {
    memset(r->udot, 0, (size_t)s->nv * sizeof(double));
  }
  accelerations(s, teal_plant_get_tree(plant), r);
  return TEAL_OK;
}

int teal_mb_subtree_perturb_accelerations(const teal_plant *plant, teal_mb_data *data,
                                          const teal_mb_subtree *s, int index, double delta,
                                          teal_mb_subtree_results *r) {
  const char *fn = "teal_mb_subtree_perturb_accelerations";
  int st = begin(plant, data, s, r, fn, 3);
  if (st || (st = check_perturbation(data, fn, index, s->nv, delta))) {
    return st;
  }
  /* the udot part of the joint's acceleration is H udot shifted like a
   * velocity, and the outboard bodies take it rigidly (A is affine in
   * the parent's acceleration with the rigid shift as its linear part) */
  teal_spatial_vector dA = unit_motion(s, teal_plant_get_tree(plant), r, index, delta);
  add_outboard(s, r->X, s->v_owner[index], dA, r->A, r->Ap);
  return TEAL_OK;
}
