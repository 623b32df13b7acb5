/* The plant's free forward dynamics by the cheaper factorization of M (see
 * free_dynamics_internal.h). */
#include "multibody/plant/free_dynamics_internal.h"

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/mass_inverse.h"
#include "multibody/tree/forest.h"

/* Trees up to this many dofs factor faster as dense blocks (CRBA and
 * Cholesky, O(n^3) but few flops for small n; a free body is 6) than by
 * the articulated-body recursion, and mass_inverse.c keeps their blocks
 * inverted, so that each later M^-1 b (one per constraint row) is a small
 * matrix-vector product: bench_constraints' gear + weld (trees of 1, 1
 * and 6 dofs) and four-bar (2 and 1). */
#define SMALL_TREE_NV 8

int teal_plant_free_dynamics(const teal_plant *p, teal_mb_data *data, const double *q,
                             const double *v, const double *tau, const teal_spatial_vector *F,
                             double *vdot) {
  const teal_mb_trees *trees = teal_plant_forest(p);
  if (data->blocks_kept && trees && trees->max_nv <= SMALL_TREE_NV) {
    int rc = teal_mb_forward_dynamics_blocks(p, data, q, v, tau, F, vdot);
    if (rc != TEAL_ESINGULAR) {
      return rc;
    }
    /* a singular block: the articulated-body recursion names the joint */
  }
  return teal_mb_forward_dynamics_ex(p, data, q, v, tau, F, vdot);
}
