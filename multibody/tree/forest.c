/* Kinematic trees and the Cholesky factors of the blocks of M (see
 * forest.h). The block CRBA is in algorithms/crba.c beside the dense one,
 * the per-tree point Jacobians in algorithms/jacobians.c. */
#include "multibody/tree/forest.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "math/small_dense.h"
#include "multibody/tree/plant_internal.h"
#include "multibody/tree/topology.h"

/* ---- the partition ------------------------------------------------------------- */

/* The arrays of a partition, carved from the one allocation that follows
 * the struct: size_t block offsets, then ints (node_tree is scratch). */
typedef struct trees_arrays {
  size_t *block_start;
  int *body_tree, *node_tree, *dof_start, *dof_tree, *dof_local, *dofs;
} trees_arrays;

static teal_mb_trees *trees_alloc(trees_arrays *a, int nb, int nv) {
  size_t sizes = (size_t)nb + 1, ints = 3 * (size_t)nb + 1 + 3 * (size_t)nv;
  char *mem = teal_calloc(1, sizeof(teal_mb_trees) + sizes * sizeof(size_t) + ints * sizeof(int));
  if (!mem) {
    return NULL;
  }
  a->block_start = (size_t *)(mem + sizeof(teal_mb_trees));
  a->body_tree = (int *)(a->block_start + sizes);
  a->node_tree = a->body_tree + nb;
  a->dof_start = a->node_tree + nb; /* at most nb - 1 trees */
  a->dof_tree = a->dof_start + nb + 1;
  a->dof_local = a->dof_tree + nv;
  a->dofs = a->dof_local + nv;
  return (teal_mb_trees *)mem;
}

/* The tree of every node: a node with dofs under anchored ancestors starts
 * a tree, other nodes take their parent's (the world and its welded
 * descendants: -1). Nodes are in topological order. Returns the count. */
static int label_nodes(const teal_plant_tree *t, int *node_tree) {
  int ntrees = 0;
  node_tree[0] = -1;
  for (int k = 1; k < t->num_nodes; k++) {
    int pt = node_tree[t->parent[k]];
    node_tree[k] = pt >= 0 ? pt : t->nv[k] > 0 ? ntrees++ : -1;
  }
  return ntrees;
}

/* Groups the dofs by tree (a counting sort, so ascending v within each
 * tree) and sets the local indices and the block offsets. */
static void group_dofs(teal_mb_trees *tr, const trees_arrays *a) {
  int *cursor = a->node_tree; /* free again: body_tree is set */
  for (int i = 0; i < tr->nv; i++) {
    a->dof_start[a->dof_tree[i] + 1]++;
  }
  for (int t = 0; t < tr->ntrees; t++) {
    size_t m = (size_t)a->dof_start[t + 1];
    tr->max_nv = (int)m > tr->max_nv ? (int)m : tr->max_nv;
    a->dof_start[t + 1] += a->dof_start[t];
    a->block_start[t + 1] = a->block_start[t] + m * m;
    cursor[t] = 0;
  }
  for (int i = 0; i < tr->nv; i++) {
    int t = a->dof_tree[i], local = cursor[t]++;
    a->dof_local[i] = local;
    a->dofs[a->dof_start[t] + local] = i;
  }
}

teal_mb_trees *teal_mb_trees_new(const teal_plant *plant, teal_error *err) {
  static const char fn[] = "teal_mb_trees_new";
  if (!plant) {
    teal_error_set(err, TEAL_EINVAL, "%s: NULL plant", fn);
    return NULL;
  }
  const teal_plant_tree *t = teal_plant_get_tree(plant);
  if (!t) {
    teal_error_set(err, TEAL_ESTATE, "%s: plant is not finalized", fn);
    return NULL;
  }
  int nb = teal_plant_num_bodies(plant), nv = teal_plant_nv(plant);
  trees_arrays a;
  teal_mb_trees *tr = trees_alloc(&a, nb, nv);
  if (!tr) {
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory for %d bodies", fn, nb);
    return NULL;
  }
  *tr = (teal_mb_trees){label_nodes(t, a.node_tree), nb, nv, 0, a.body_tree, a.dof_tree,
                        a.dof_local, a.dof_start, a.dofs, a.block_start};
  for (int k = 1; k < t->num_nodes; k++) {
    for (int i = 0; i < t->nv[k]; i++) {
      a.dof_tree[t->v_start[k] + i] = a.node_tree[k];
    }
  }
  for (int b = 0; b < nb; b++) {
    a.body_tree[b] = a.node_tree[teal_plant_body_node(plant, b)];
  }
  group_dofs(tr, &a);
  return tr;
}

void teal_mb_trees_free(teal_mb_trees *trees) {
  teal_free(trees);
}

size_t teal_mb_trees_block_size(const teal_mb_trees *trees) {
  return trees ? trees->block_start[trees->ntrees] : 0;
}

int teal_mb_trees_tree_nv(const teal_mb_trees *trees, int t) {
  if (!trees || t < 0 || t >= trees->ntrees) {
    return 0;
  }
  return trees->dof_start[t + 1] - trees->dof_start[t];
}

/* ---- Cholesky of the blocks ---------------------------------------------------- */

/* The blocks are small (6 for a free body): math/small_dense.h's loops beat
 * a LAPACK call and its argument checks. */

int teal_mb_mass_blocks_factor(const teal_mb_trees *trees, double *blocks, teal_error *err) {
  if (!trees || (!blocks && trees->ntrees > 0)) {
    return teal_error_set(err, TEAL_EINVAL, "teal_mb_mass_blocks_factor: NULL argument");
  }
  for (int t = 0; t < trees->ntrees; t++) {
    int m = teal_mb_trees_tree_nv(trees, t);
    /* a denormal pivot is as singular as a zero one (its inverse overflows) */
    int bad = teal_small_cholesky(blocks + trees->block_start[t], m, DBL_MIN);
    if (bad) {
      return teal_error_set(err, TEAL_ESINGULAR, "teal_mb_mass_blocks_factor: the block of tree "
                            "%d is not positive definite (pivot %d of %d)", t, bad, m);
    }
  }
  return TEAL_OK;
}

int teal_mb_mass_block_solve(const teal_mb_trees *trees, const double *factors, int t,
                             double *x, teal_error *err) {
  if (!trees || !factors || !x || t < 0 || t >= trees->ntrees) {
    return teal_error_set(err, TEAL_EINVAL, "teal_mb_mass_block_solve: bad arguments (tree %d)",
                          t);
  }
  int m = teal_mb_trees_tree_nv(trees, t);
  teal_small_cholesky_solve(factors + trees->block_start[t], m, x);
  return TEAL_OK;
}

const teal_mb_trees *teal_plant_forest(const teal_plant *plant) {
  return plant ? plant->forest : NULL;
}
