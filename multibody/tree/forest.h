/** @file
 * Kinematic trees of a finalized plant and the per-tree blocks of its mass
 * matrix: the structure the discrete contact step works on (Drake's SAP and
 * TAMSI solvers do the same with their per-tree blocks of M).
 *
 * A tree is the subtree of a node that has dofs while no joint between it
 * and the world has any: a free body, a floating robot, or an arm under a
 * base welded to the world. Bodies with no dof on their path to the world
 * (the world, bodies welded to it) are anchored and belong to no tree
 * (-1). M(q)_ij is nonzero only when dof i's node is an ancestor of dof
 * j's node or the other way round, so M is block diagonal over trees:
 * a forest of K free bodies has K blocks of 6 x 6 and O(K) storage, a
 * single arm one block equal to M.
 *
 * The dofs of tree t, in ascending v order, are
 * dofs[dof_start[t] .. dof_start[t + 1]); dof_local[i] is dof i's position
 * in that list. Tree t's block of M is the m_t x m_t row-major matrix at
 * blocks + block_start[t], m_t = dof_start[t + 1] - dof_start[t], in that
 * local order. */
#ifndef TEAL_MULTIBODY_TREE_FOREST_H
#define TEAL_MULTIBODY_TREE_FOREST_H

#include "teal_export.h"
#include <stddef.h>

#include "framework/error.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The tree partition of a plant (immutable once made). */
typedef struct teal_mb_trees {
  int ntrees;              /**< trees (each has at least one dof) */
  /** Bodies and dofs of the plant. @{ */
  int nb, nv;
  /** @} */
  int max_nv;              /**< dofs of the largest tree (0 without trees) */
  const int *body_tree;    /**< [nb] tree of each body, -1 when anchored */
  const int *dof_tree;     /**< [nv] tree of each dof */
  const int *dof_local;    /**< [nv] index of each dof within its tree */
  const int *dof_start;    /**< [ntrees + 1] offsets into dofs */
  const int *dofs;         /**< [nv] plant v indices grouped by tree */
  const size_t *block_start; /**< [ntrees + 1] offsets of the blocks of M */
} teal_mb_trees;

/** The trees of a finalized plant; NULL on failure (TEAL_EINVAL for a NULL
 *  plant, TEAL_ESTATE before finalize, TEAL_ENOMEM) with the reason in err
 *  (may be NULL). */
TEAL_API teal_mb_trees *teal_mb_trees_new(const teal_plant *plant, teal_error *err);

/** Frees the partition (NULL is allowed). */
TEAL_API void teal_mb_trees_free(teal_mb_trees *trees);

/** Doubles of all blocks of M together: sum over trees of m_t^2. */
TEAL_API size_t teal_mb_trees_block_size(const teal_mb_trees *trees);

/** Dofs of tree t (0 for a bad t). */
TEAL_API int teal_mb_trees_tree_nv(const teal_mb_trees *trees, int t);

/** Factors every block in place by Cholesky, M_t = L_t L_t' (lower
 *  triangle L_t, upper zeroed). TEAL_ESINGULAR (with the tree in err, may
 *  be NULL) when a block is not positive definite, TEAL_EINVAL for NULL
 *  arguments. */
TEAL_API int teal_mb_mass_blocks_factor(const teal_mb_trees *trees, double *blocks,
                                        teal_error *err);

/** x = M_t^-1 x for tree t (x holds m_t values in local order) with the
 *  factors of teal_mb_mass_blocks_factor. TEAL_EINVAL for a bad t or a NULL
 *  pointer. */
TEAL_API int teal_mb_mass_block_solve(const teal_mb_trees *trees, const double *factors, int t,
                                      double *x, teal_error *err);

/** The trees of a finalized plant, made by teal_plant_finalize (NULL for a
 *  NULL or unfinalized plant). */
TEAL_API const teal_mb_trees *teal_plant_forest(const teal_plant *plant);

#ifdef __cplusplus
}
#endif
#endif
