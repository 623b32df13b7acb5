/** @file
 * The stages of teal_mb_data as explicit calls (see data.h): a caller that
 * drives the stages itself, as the plant system does from its cache
 * entries, computes each once and the algorithms reuse it. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_STAGES_H
#define TEAL_MULTIBODY_ALGORITHMS_STAGES_H

#include "teal_export.h"

#include "multibody/algorithms/data.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The position stage at q (nq values): body poses, reference points,
 *  motion subspaces and inertias, unless data already holds them for this
 *  very q. Invalidates the articulated factorization when q changes. */
TEAL_API int teal_mb_position_stage(const teal_plant *plant, teal_mb_data *data, const double *q);

/** The position stage at q, then the velocity stage at (q, v): spatial
 *  velocities, velocity-product accelerations and gyroscopic forces. */
TEAL_API int teal_mb_velocity_stage(const teal_plant *plant, teal_mb_data *data, const double *q,
                                    const double *v);

#ifdef __cplusplus
}
#endif
#endif
