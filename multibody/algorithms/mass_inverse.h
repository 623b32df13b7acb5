/** @file
 * M(q)^-1 through one interface, whatever factorization of M(q) data holds:
 * the articulated-body one (teal_mb_articulated_factor and forward dynamics,
 * aba.h: O(n) per solve) or the Cholesky factors of M's per-tree blocks
 * (teal_mb_mass_blocks_factorize: for forests of small trees, such as the
 * free bodies of a contact scene). The latest successful factorization made
 * for data's position stage is the one used. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_MASS_INVERSE_H
#define TEAL_MULTIBODY_ALGORITHMS_MASS_INVERSE_H

#include "teal_export.h"

#include "multibody/algorithms/data.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Factors M(q) by the trees of the plant (teal_plant_forest): the blocks
 *  by the composite-rigid-body algorithm, each by Cholesky, kept in data.
 *  TEAL_ESINGULAR, naming the tree and pivot, when a block is not positive
 *  definite; TEAL_ESIZE when the blocks (the sum of m^2 over the trees'
 *  dof counts m) would pass 256 MiB, which data then does not keep (a
 *  single tree of more than 5792 dofs: use teal_mb_articulated_factor);
 *  argument errors as teal_mb_mass_matrix. */
TEAL_API int teal_mb_mass_blocks_factorize(const teal_plant *plant, teal_mb_data *data,
                                           const double *q);

/** The blocks of M(q) (teal_mb_trees_block_size doubles, by tree) of the
 *  latest teal_mb_mass_blocks_factorize, or NULL if data holds none for its
 *  position stage. */
TEAL_API const double *teal_mb_data_mass_blocks(const teal_mb_data *data);

/** Forward dynamics by the per-tree blocks of M: the same equations as
 *  teal_mb_forward_dynamics_ex (aba.h), vdot = M^-1 (tau + J' F_app + tau_g -
 *  C v), with M factored by teal_mb_mass_blocks_factorize (the factors stay
 *  in data for teal_mb_mass_inverse) and the bias from one inverse-dynamics
 *  pass at vdot = 0. For forests of small trees, such as the free bodies of
 *  a contact scene, this beats the articulated-body recursion's 6 x 6
 *  operations per body. tau and F_app_Bo_W may be NULL (zero). */
TEAL_API int teal_mb_forward_dynamics_blocks(const teal_plant *plant, teal_mb_data *data,
                                             const double *q, const double *v,
                                             const double *tau,
                                             const teal_spatial_vector *F_app_Bo_W, double *vdot);

/** x = M(q)^-1 b (nv values; x may alias b) with the latest successful
 *  factorization data holds for its position stage. TEAL_ESTATE when there
 *  is none (no factorization yet, none succeeded at this q, or data has
 *  since seen another q), TEAL_EINVAL for NULL pointers, TEAL_ENONFINITE for a NaN/Inf b. */
TEAL_API int teal_mb_mass_inverse(const teal_plant *plant, teal_mb_data *data, const double *b,
                                  double *x);

#ifdef __cplusplus
}
#endif
#endif
