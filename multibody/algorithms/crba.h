/** @file
 * The composite-rigid-body algorithm (CRBA): the mass matrix M(q), dense or in
 * per-tree blocks (see data.h for the conventions). */
#ifndef TEAL_MULTIBODY_ALGORITHMS_CRBA_H
#define TEAL_MULTIBODY_ALGORITHMS_CRBA_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/tree/plant_model.h"
#include "multibody/algorithms/data.h"
#include "multibody/tree/forest.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The mass matrix M(q) (nv x nv, row-major, symmetric) by the
 *  composite-rigid-body algorithm. */
TEAL_API int teal_mb_mass_matrix(const teal_plant *plant, teal_mb_data *data, const double *q,
                                 double *M);

/** The diagonal blocks of M(q) by the composite-rigid-body algorithm
 *  (teal_mb_trees_block_size doubles into blocks): the same numbers as the
 *  matching entries of teal_mb_mass_matrix, in O(sum m_t^2) memory and
 *  work. Argument errors as for teal_mb_mass_matrix, plus TEAL_EINVAL for
 *  trees made for another plant. */
TEAL_API int teal_mb_mass_matrix_blocks(const teal_plant *plant, teal_mb_data *data,
                                        const teal_mb_trees *trees, const double *q,
                                        double *blocks);

#ifdef __cplusplus
}
#endif
#endif
