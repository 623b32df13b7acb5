/* Finalize: floating joints for free bodies, loop rejection, the tree
 * order (parents before children) and the per-node arrays, and the
 * accessors of the finalized model (see topology.h). */
#include "multibody/tree/topology.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/system.h"
#include "math/rotation.h"
#include "multibody/tree/forest.h"
#include "multibody/tree/plant_internal.h"

/* ---- finalize ----------------------------------------------------------- */

/* Parent body of b through its inboard joint (-1 for the world). */
static int parent_body(const teal_plant *p, int b) {
  int j = BODY(p)[b].inboard;
  return j < 0 ? -1 : FRAME(p)[JOINT(p)[j].parent_frame].body;
}

/* The floating joint "$world_<body>" of every body without an inboard joint
 * (the name is as long as the body's: no truncation, so no clashes). */
static int add_floating_joints(teal_plant *p) {
  int nb = p->bodies.n;
  for (int b = 1; b < nb; b++) {
    if (BODY(p)[b].inboard >= 0) {
      continue;
    }
    size_t len = strlen(BODY(p)[b].name) + sizeof("$world_");
    char *name = teal_alloc(len);
    if (!name) {
      return teal_plant_fail(p, TEAL_ENOMEM,
                             "plant: finalize: out of memory naming the floating "
                             "joint of body '%s'%s",
                             BODY(p)[b].name, NULL);
    }
    snprintf(name, len, "$world_%s", BODY(p)[b].name);
    teal_joint_kind kind =
        p->use_euler_angles ? TEAL_JOINT_RPY_FLOATING : TEAL_JOINT_QUATERNION_FLOATING;
    int rc = teal_plant_push_joint(p, name, kind, TEAL_WORLD_FRAME, BODY(p)[b].frame, NULL, 0.0);
    teal_free(name);
    if (rc < 0) {
      return rc;
    }
  }
  return TEAL_OK;
}

/* The error for the loop through body c: lists its joints. */
static int loop_error(teal_plant *p, int c) {
  char names[TEAL_ERROR_MESSAGE_MAX] = "";
  size_t len = 0;
  int start = c;
  do {
    const char *jn = JOINT(p)[BODY(p)[c].inboard].name;
    len += (size_t)snprintf(names + len, len < sizeof(names) ? sizeof(names) - len : 0, "%s'%s'",
                            len ? ", " : "", jn);
    c = parent_body(p, c);
  } while (c != start && len < sizeof(names));
  return teal_plant_fail(p, TEAL_EINVAL, "plant: kinematic loop through joints %s%s", names, NULL);
}

/* A body whose parent chain does not reach the world lies on or hangs from
 * a loop. Each body is walked once (O(nb)): mark[b] is 0 before its walk,
 * the walk's number + 1 while on it, and -1 once it is known to reach the
 * world. A walk that meets its own number has closed a loop. */
static int reject_loops(teal_plant *p) {
  int nb = p->bodies.n;
  int *mark = teal_calloc((size_t)nb, sizeof(int));
  if (!mark) {
    return teal_error_set_sticky(&p->err, TEAL_ENOMEM,
                                 "plant: finalize: out of memory checking %d bodies for loops", nb);
  }
  int loop = 0;
  for (int b = 1; b < nb && !loop; b++) {
    int c = b;
    while (c > 0 && mark[c] == 0) {
      mark[c] = b + 1;
      c = parent_body(p, c);
    }
    if (c > 0 && mark[c] == b + 1) {
      loop = c; /* on this walk's own path: a loop */
    }
    for (int d = b; d > 0 && mark[d] == b + 1; d = parent_body(p, d)) {
      mark[d] = -1; /* reaches the world (or hangs from a loop already reported) */
    }
  }
  teal_free(mark);
  return loop ? loop_error(p, loop) : TEAL_OK;
}

static void *block(teal_plant *p, size_t n, size_t elem) {
  void *m = teal_calloc(n ? n : 1, elem);
  if (m) {
    p->blocks[p->nblocks++] = m;
  }
  return m;
}

/* Breadth-first order from the world, children in body index order, in
 * O(nb): the children of every body are first bucketed by parent (a
 * counting sort, which keeps body index order within a bucket). */
static int order_tree(teal_plant *p) {
  int nb = p->bodies.n, tail = 1;
  int *first = teal_calloc(2 * (size_t)nb + 1, sizeof(int)); /* [nb + 1] starts, [nb] kids */
  if (!first) {
    return teal_error_set_sticky(&p->err, TEAL_ENOMEM,
                                 "plant: finalize: out of memory ordering %d bodies", nb);
  }
  int *kids = first + nb + 1;
  for (int b = 1; b < nb; b++) {
    first[parent_body(p, b) + 1]++;
  }
  for (int b = 0; b < nb; b++) {
    first[b + 1] += first[b];
  }
  for (int b = 1; b < nb; b++) { /* first[pb] moves to the end of pb's bucket */
    kids[first[parent_body(p, b)]++] = b;
  }
  p->node_body[0] = 0;
  p->body_node[0] = 0;
  for (int head = 0; head < tail; head++) {
    int pb = p->node_body[head];
    for (int i = pb ? first[pb - 1] : 0; i < first[pb]; i++) {
      p->body_node[kids[i]] = tail;
      p->node_body[tail++] = kids[i];
    }
  }
  teal_free(first);
  return TEAL_OK;
}

static int alloc_tree(teal_plant *p, int nbodies, int nq_, int nv_) {
  teal_plant_tree *t = &p->tree;
  size_t nb = (size_t)nbodies, nq = (size_t)nq_, nv = (size_t)nv_;
  int *parent = block(p, nb, sizeof(int)), *kind = block(p, nb, sizeof(int));
  int *ints = block(p, 4 * nb, sizeof(int));
  teal_transform *X = block(p, 2 * nb, sizeof(teal_transform));
  teal_joint_params *params = block(p, nb, sizeof(teal_joint_params));
  const teal_joint_type **type = block(p, nb, sizeof(*type));
  teal_spatial_inertia *M = block(p, nb, sizeof(teal_spatial_inertia));
  double *d = block(p, 5 * nv + 2 * nq, sizeof(double));
  p->body_node = block(p, nb, sizeof(int));
  p->node_body = block(p, nb, sizeof(int));
  if (p->nblocks != 10 || !p->blocks[9]) {
    return teal_error_set_sticky(&p->err, TEAL_ENOMEM,
                                 "plant: finalize: out of memory for the tree arrays of %d bodies "
                                 "(nq = %d, nv = %d)",
                                 nbodies, nq_, nv_);
  }
  *t = (teal_plant_tree){nbodies,
                         parent,
                         kind,
                         type,
                         params,
                         X,
                         X + nb,
                         ints,
                         ints + nb,
                         ints + 2 * nb,
                         ints + 3 * nb,
                         M,
                         d,
                         d + nv,
                         d + nv + nq,
                         d + nv + 2 * nq,
                         d + 2 * nv + 2 * nq,
                         d + 3 * nv + 2 * nq,
                         d + 4 * nv + 2 * nq};
  return TEAL_OK;
}

/* Fills node k's entries from its body and inboard joint; returns q and v
 * offsets advanced. */
static void fill_node(teal_plant *p, int k, int *qs, int *vs) {
  teal_plant_tree *t = &p->tree;
  int b = p->node_body[k], jid = BODY(p)[b].inboard;
  int *parent = (int *)t->parent, *kind = (int *)t->joint_kind, *ints = (int *)t->q_start;
  teal_transform *X = (teal_transform *)t->X_PF;
  ((teal_spatial_inertia *)t->M_BBo_B)[k] = BODY(p)[b].M_BBo_B;
  ((const teal_joint_type **)t->type)[k] = teal_joint_type_get(TEAL_JOINT_WELD);
  parent[k] = k ? p->body_node[parent_body(p, b)] : -1;
  kind[k] = TEAL_JOINT_WELD;
  X[k] = X[t->num_nodes + k] = teal_transform_identity();
  ints[k] = *qs;
  ints[t->num_nodes + k] = *vs;
  if (jid < 0) {
    return;
  }
  joint_rec *j = &JOINT(p)[jid];
  const teal_joint_type *ty = teal_joint_type_get(j->kind);
  ((const teal_joint_type **)t->type)[k] = ty;
  ((teal_joint_params *)t->params)[k] = j->params;
  kind[k] = j->kind;
  X[k] = FRAME(p)[j->parent_frame].X_BF;
  X[t->num_nodes + k] = FRAME(p)[j->child_frame].X_BF;
  ints[2 * t->num_nodes + k] = ty->nq;
  ints[3 * t->num_nodes + k] = ty->nv;
  j->q_start = *qs;
  j->v_start = *vs;
  double *v_lo = (double *)t->v_lower, *v_hi = (double *)t->v_upper;
  double *eff = (double *)t->effort_limit;
  double *q_lo = (double *)t->q_lower, *q_hi = (double *)t->q_upper;
  for (int i = 0; i < ty->nv; i++) {
    ((double *)t->damping)[*vs + i] = j->damping[i];
    v_lo[*vs + i] = j->v_lo[i];
    v_hi[*vs + i] = j->v_hi[i];
    eff[*vs + i] = j->effort[i];
  }
  for (int i = 0; i < ty->nq; i++) {
    q_lo[*qs + i] = j->q_lo[i];
    q_hi[*qs + i] = j->q_hi[i];
  }
  *qs += ty->nq;
  *vs += ty->nv;
}

/* The model's nq and nv, summed without overflow: nq + nv may not pass
 * TEAL_PLANT_MAX_COORDINATES, so that every int product of them the library
 * forms (6 nv, 4 nv + 2 nq, ...) fits an int. */
static int count_coordinates(teal_plant *p) {
  long long nq = 0, nv = 0;
  for (int j = 0; j < p->joints.n; j++) {
    nq += teal_joint_type_get(JOINT(p)[j].kind)->nq;
    nv += teal_joint_type_get(JOINT(p)[j].kind)->nv;
  }
  if (nq + nv > TEAL_PLANT_MAX_COORDINATES) {
    return teal_error_set_sticky(&p->err, TEAL_ESIZE,
                                 "plant: finalize: %d bodies and %d joints have nq + nv = %lld + "
                                 "%lld coordinates, more than the %d a plant holds",
                                 p->bodies.n, p->joints.n, nq, nv, TEAL_PLANT_MAX_COORDINATES);
  }
  p->nq = (int)nq;
  p->nv = (int)nv;
  return TEAL_OK;
}

/* A continuous plant ignores position limits (only the discrete step
 * enforces them); Drake warns once when they are given, and so does the
 * plant, through its warning counter and message (plant_contact.h). */
static void warn_ignored_limits(teal_plant *p) {
  int count = 0, first = -1;
  for (int j = 0; p->time_step == 0.0 && j < p->joints.n; j++) {
    const joint_rec *r = &JOINT(p)[j];
    for (int i = 0; i < teal_joint_type_get(r->kind)->nq; i++) {
      if (isfinite(r->q_lo[i]) || isfinite(r->q_hi[i])) {
        first = first < 0 ? j : first;
        count++;
        break;
      }
    }
  }
  if (count == 0) {
    return;
  }
  p->num_model_warnings++;
  snprintf(p->model_warning, sizeof(p->model_warning),
           "plant: continuous (time_step = 0): the position limits of %d joint%s (the first "
           "'%.60s') are ignored; a discrete plant (time_step > 0) enforces them",
           count, count == 1 ? "" : "s", JOINT(p)[first].name);
}

int teal_plant_finalize(teal_plant *p) {
  int rc = p && p->finalized && p->err.code == TEAL_OK
               ? teal_plant_fail(p, TEAL_ESTATE,
                                 "plant: finalize: the plant is already "
                                 "finalized%s%s",
                                 "", NULL)
               : teal_plant_check_open(p, "model", "");
  if (rc == TEAL_OK) {
    rc = teal_plant_apply_euler_angles_setting(p);
  }
  if (rc == TEAL_OK) {
    rc = add_floating_joints(p);
  }
  if (rc == TEAL_OK) {
    rc = reject_loops(p);
  }
  if (rc != TEAL_OK) {
    return rc;
  }
  int nb = p->bodies.n;
  rc = count_coordinates(p);
  rc = rc ? rc : alloc_tree(p, nb, p->nq, p->nv);
  rc = rc ? rc : order_tree(p);
  if (rc != TEAL_OK) {
    return rc;
  }
  int qs = 0, vs = 0;
  for (int k = 0; k < nb; k++) {
    fill_node(p, k, &qs, &vs);
  }
  p->nu = p->actuators.n;
  teal_plant_reflected_inertia(p, NULL, NULL, (double *)p->tree.reflected_inertia);
  warn_ignored_limits(p);
  p->finalized = 1;
  teal_error ferr = {0, ""};
  p->forest = teal_mb_trees_new(p, &ferr);
  if (!p->forest) {
    p->finalized = 0; /* a plant without its trees or system is not finalized */
    return teal_plant_fail(p, ferr.code ? ferr.code : TEAL_ENOMEM,
                           "plant: finalize: building its trees failed: %s%s", ferr.message, NULL);
  }
  rc = teal_plant_system_create(p);
  if (rc != TEAL_OK) {
    p->finalized = 0;
    return rc;
  }
  /* a plant given to a builder before finalize joins it now */
  return p->sg_pending ? teal_plant_wire_scene_graph(p) : TEAL_OK;
}

/* ---- the finalized model ------------------------------------------------ */

int teal_plant_is_finalized(const teal_plant *p) {
  return p->finalized;
}
int teal_plant_nq(const teal_plant *p) {
  return p->finalized ? p->nq : 0;
}
int teal_plant_nv(const teal_plant *p) {
  return p->finalized ? p->nv : 0;
}
int teal_plant_nu(const teal_plant *p) {
  return p->finalized ? p->nu : 0;
}
int teal_plant_num_nodes(const teal_plant *p) {
  return p->finalized ? p->bodies.n : 0;
}
int teal_plant_node_body(const teal_plant *p, int k) {
  return p->finalized && k >= 0 && k < p->bodies.n ? p->node_body[k] : -1;
}
int teal_plant_body_node(const teal_plant *p, int b) {
  return p->finalized && b >= 0 && b < p->bodies.n ? p->body_node[b] : -1;
}
int teal_plant_body_joint(const teal_plant *p, int b) {
  return b >= 0 && b < p->bodies.n ? BODY(p)[b].inboard : -1;
}
int teal_plant_joint_q_start(const teal_plant *p, int j) {
  return p->finalized && j >= 0 && j < p->joints.n ? JOINT(p)[j].q_start : -1;
}
int teal_plant_joint_v_start(const teal_plant *p, int j) {
  return p->finalized && j >= 0 && j < p->joints.n ? JOINT(p)[j].v_start : -1;
}
double teal_plant_actuator_effort_limit(const teal_plant *p, int a) {
  if (!p || a < 0 || a >= p->actuators.n) {
    return NAN;
  }
  /* a joint's own effort limit (a joint force) applies through its
   * actuator (nv = 1), in u's units: joint force = gain * u */
  const actuator_rec *r = &ACT(p)[a];
  if (r->joint < 0) {
    return r->effort_limit; /* a tendon actuator: no joint of its own */
  }
  return fmin(r->effort_limit, JOINT(p)[r->joint].effort[0] / fabs(r->input_gain));
}
int teal_plant_actuator_v_index(const teal_plant *p, int a) {
  if (!p->finalized || a < 0 || a >= p->actuators.n || ACT(p)[a].joint < 0) {
    return -1; /* a tendon actuator drives several dofs */
  }
  return JOINT(p)[ACT(p)[a].joint].v_start;
}
const teal_plant_tree *teal_plant_get_tree(const teal_plant *p) {
  return p->finalized ? &p->tree : NULL;
}

int teal_plant_make_actuation_matrix(const teal_plant *p, double *B) {
  if (!p || !B) {
    return TEAL_EINVAL;
  }
  if (!p->finalized) {
    return TEAL_ESTATE;
  }
  memset(B, 0, (size_t)p->nv * (size_t)p->nu * sizeof(double));
  for (int a = 0; a < p->nu; a++) {
    for (int k = 0; k < teal_plant_actuator_num_dofs(p, a); k++) {
      double w;
      int v = teal_plant_actuator_dof(p, a, k, &w);
      B[(size_t)v * (size_t)p->nu + (size_t)a] += ACT(p)[a].input_gain * w;
    }
  }
  return TEAL_OK;
}

/* plant_internal.h */
void teal_plant_free_pose_q(const teal_plant *p, int j, teal_transform X_WB, double *q) {
  const joint_rec *jr = &JOINT(p)[j];
  teal_transform X_WF = FRAME(p)[jr->parent_frame].X_BF;
  teal_transform X_BM = FRAME(p)[jr->child_frame].X_BF;
  teal_transform X_FM =
      teal_transform_compose(teal_transform_inverse(X_WF), teal_transform_compose(X_WB, X_BM));
  if (jr->kind == TEAL_JOINT_RPY_FLOATING) {
    teal_vec3 rpy = teal_rotation_to_rpy(X_FM.R);
    double x[6] = {rpy.v[0], rpy.v[1], rpy.v[2], X_FM.p.v[0], X_FM.p.v[1], X_FM.p.v[2]};
    memcpy(q, x, sizeof(x));
    return;
  }
  teal_quaternion qr = teal_rotation_to_quaternion(X_FM.R);
  double x[7] = {qr.w, qr.x, qr.y, qr.z, X_FM.p.v[0], X_FM.p.v[1], X_FM.p.v[2]};
  memcpy(q, x, sizeof(x));
}

int teal_plant_default_q(const teal_plant *p, double *q) {
  if (!p->finalized) {
    return TEAL_ESTATE;
  }
  for (int k = 1; k < p->tree.num_nodes; k++) {
    p->tree.type[k]->default_q(q + p->tree.q_start[k]);
  }
  /* the defaults of plant_defaults.c: joints' own, then free bodies' poses */
  for (int j = 0; j < p->joints.n; j++) {
    const joint_rec *jr = &JOINT(p)[j];
    if (jr->has_default_q) {
      size_t nq = (size_t)teal_joint_type_get(jr->kind)->nq;
      memcpy(q + jr->q_start, jr->q_default, nq * sizeof(double));
    }
  }
  for (int b = 1; b < p->bodies.n; b++) {
    const body_rec *br = &BODY(p)[b];
    int j = br->inboard;
    if (br->has_default_pose && j >= 0 &&
        teal_joint_quaternion_kind(JOINT(p)[j].kind) == TEAL_JOINT_QUATERNION_FLOATING &&
        FRAME(p)[JOINT(p)[j].parent_frame].body == TEAL_WORLD_BODY) {
      teal_plant_free_pose_q(p, j, br->X_WB_default, q + JOINT(p)[j].q_start);
    }
  }
  return TEAL_OK;
}

int teal_plant_normalize_q(const teal_plant *p, double *q) {
  if (!p->finalized) {
    return TEAL_ESTATE;
  }
  for (int k = 1; k < p->tree.num_nodes; k++) {
    if (p->tree.type[k]->normalize) {
      int rc = p->tree.type[k]->normalize(q + p->tree.q_start[k]);
      if (rc) {
        return rc;
      }
    }
  }
  return TEAL_OK;
}

/* ---- effort limits ------------------------------------------------------- */

/* Writes sign * the effort limit of every actuator into out (n = nu). */
static int effort_limits(const teal_plant *p, double sign, double *out, int n, teal_error *err,
                         const char *fn) {
  if (!p || !out) {
    return teal_error_set(err, TEAL_EINVAL, "plant %s: %s is NULL", fn,
                          p ? "the output array" : "the plant");
  }
  if (!p->finalized) {
    return teal_error_set(err, TEAL_ESTATE,
                          "plant %s: the plant is not finalized (call teal_plant_finalize first)",
                          fn);
  }
  if (n != p->nu) {
    return teal_error_set(err, TEAL_ESIZE,
                          "plant %s: got room for %d values, the plant has %d "
                          "actuators",
                          fn, n, p->nu);
  }
  for (int a = 0; a < n; a++) {
    out[a] = sign * teal_plant_actuator_effort_limit(p, a);
  }
  return TEAL_OK;
}

int teal_plant_get_effort_lower_limits(const teal_plant *p, double *lower, int n, teal_error *err) {
  return effort_limits(p, -1.0, lower, n, err, "get_effort_lower_limits");
}

int teal_plant_get_effort_upper_limits(const teal_plant *p, double *upper, int n, teal_error *err) {
  return effort_limits(p, 1.0, upper, n, err, "get_effort_upper_limits");
}
