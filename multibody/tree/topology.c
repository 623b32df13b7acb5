/* Finalize: floating joints for free bodies, loop rejection, the tree
 * order (parents before children) and the per-node arrays, and the
 * accessors of the finalized model (see topology.h). */
#include "multibody/tree/topology.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/system.h"
#include "multibody/tree/forest.h"
#include "multibody/tree/plant_internal.h"

/* ---- finalize ----------------------------------------------------------- */

/* Parent body of b through its inboard joint (-1 for the world). */
static int parent_body(const teal_plant *p, int b) {
  int j = BODY(p)[b].inboard;
  return j < 0 ? -1 : FRAME(p)[JOINT(p)[j].parent_frame].body;
}

static int add_floating_joints(teal_plant *p) {
  int nb = p->bodies.n;
  for (int b = 1; b < nb; b++) {
    if (BODY(p)[b].inboard >= 0) {
      continue;
    }
    char name[256];
    snprintf(name, sizeof(name), "$world_%s", BODY(p)[b].name);
    int rc = teal_plant_push_joint(p, name, TEAL_JOINT_QUATERNION_FLOATING, TEAL_WORLD_FRAME,
                                   BODY(p)[b].frame, NULL, 0.0);
    if (rc < 0) {
      return rc;
    }
  }
  return TEAL_OK;
}

/* A body whose parent chain does not reach the world lies on or hangs from
 * a loop: walk nb steps to land on the loop, then list its joints. */
static int reject_loops(teal_plant *p) {
  int nb = p->bodies.n;
  for (int b = 1; b < nb; b++) {
    int c = b, steps = 0;
    while (c > 0 && steps <= nb) {
      c = parent_body(p, c);
      steps++;
    }
    if (c == 0) {
      continue;
    }
    char names[TEAL_ERROR_MESSAGE_MAX] = "";
    size_t len = 0;
    int start = c;
    do {
      const char *jn = JOINT(p)[BODY(p)[c].inboard].name;
      len += (size_t)snprintf(names + len, len < sizeof(names) ? sizeof(names) - len : 0, "%s'%s'",
                              len ? ", " : "", jn);
      c = parent_body(p, c);
    } while (c != start && len < sizeof(names));
    return teal_plant_fail(p, TEAL_EINVAL, "plant: kinematic loop through joints %s%s", names,
                           NULL);
  }
  return TEAL_OK;
}

static void *block(teal_plant *p, size_t n, size_t elem) {
  void *m = teal_calloc(n ? n : 1, elem);
  if (m) {
    p->blocks[p->nblocks++] = m;
  }
  return m;
}

/* Breadth-first order from the world, children in body index order. */
static void order_tree(teal_plant *p) {
  int nb = p->bodies.n, tail = 1;
  p->node_body[0] = 0;
  p->body_node[0] = 0;
  for (int head = 0; head < tail; head++) {
    int pb = p->node_body[head];
    for (int b = 1; b < nb; b++) {
      if (parent_body(p, b) == pb) {
        p->body_node[b] = tail;
        p->node_body[tail++] = b;
      }
    }
  }
}

static int alloc_tree(teal_plant *p, int nb, int nq, int nv) {
  teal_plant_tree *t = &p->tree;
  int *parent = block(p, (size_t)nb, sizeof(int)), *kind = block(p, (size_t)nb, sizeof(int));
  int *ints = block(p, 4 * (size_t)nb, sizeof(int));
  teal_transform *X = block(p, 2 * (size_t)nb, sizeof(teal_transform));
  teal_joint_params *params = block(p, (size_t)nb, sizeof(teal_joint_params));
  const teal_joint_type **type = block(p, (size_t)nb, sizeof(*type));
  teal_spatial_inertia *M = block(p, (size_t)nb, sizeof(teal_spatial_inertia));
  double *d = block(p, 6 * (size_t)nv + 2 * (size_t)nq, sizeof(double));
  p->body_node = block(p, (size_t)nb, sizeof(int));
  p->node_body = block(p, (size_t)nb, sizeof(int));
  if (p->nblocks != 10 || !p->blocks[9]) {
    return teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory in finalize%s%s", "", NULL);
  }
  *t = (teal_plant_tree){nb,
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
                         d + 3 * nv + 2 * nq};
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
  double *d = (double *)t->damping;
  int nv = p->nv, nq = p->nq;
  for (int i = 0; i < ty->nv; i++) {
    d[*vs + i] = j->damping[i];
    d[nv + 2 * nq + *vs + i] = j->v_lo[i];
    d[2 * nv + 2 * nq + *vs + i] = j->v_hi[i];
    d[3 * nv + 2 * nq + *vs + i] = j->effort[i];
  }
  for (int i = 0; i < ty->nq; i++) {
    d[nv + *qs + i] = j->q_lo[i];
    d[nv + nq + *qs + i] = j->q_hi[i];
  }
  *qs += ty->nq;
  *vs += ty->nv;
}

int teal_plant_finalize(teal_plant *p) {
  int rc = p && p->finalized && p->err.code == TEAL_OK
               ? teal_plant_fail(p, TEAL_ESTATE,
                                 "plant: finalize: the plant is already "
                                 "finalized%s%s",
                                 "", NULL)
               : teal_plant_check_open(p, "model", "");
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
  p->nq = p->nv = 0;
  for (int j = 0; j < p->joints.n; j++) {
    p->nq += teal_joint_type_get(JOINT(p)[j].kind)->nq;
    p->nv += teal_joint_type_get(JOINT(p)[j].kind)->nv;
  }
  rc = alloc_tree(p, nb, p->nq, p->nv);
  if (rc != TEAL_OK) {
    return rc;
  }
  order_tree(p);
  int qs = 0, vs = 0;
  for (int k = 0; k < nb; k++) {
    fill_node(p, k, &qs, &vs);
  }
  p->nu = p->actuators.n;
  p->finalized = 1;
  p->forest = teal_mb_trees_new(p, NULL);
  if (!p->forest) {
    p->finalized = 0; /* a plant without its trees or system is not finalized */
    return teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory building its trees%s%s", "", NULL);
  }
  rc = teal_plant_system_create(p);
  if (rc != TEAL_OK) {
    p->finalized = 0;
  }
  return rc;
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
  return p && a >= 0 && a < p->actuators.n ? ACT(p)[a].effort_limit : NAN;
}
int teal_plant_actuator_v_index(const teal_plant *p, int a) {
  return p->finalized && a >= 0 && a < p->actuators.n ? JOINT(p)[ACT(p)[a].joint].v_start : -1;
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
    B[(size_t)teal_plant_actuator_v_index(p, a) * (size_t)p->nu + (size_t)a] = 1.0;
  }
  return TEAL_OK;
}

int teal_plant_default_q(const teal_plant *p, double *q) {
  if (!p->finalized) {
    return TEAL_ESTATE;
  }
  for (int k = 1; k < p->tree.num_nodes; k++) {
    p->tree.type[k]->default_q(q + p->tree.q_start[k]);
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
