/** @file
 * Kinetic and gravitational potential energy of a finalized plant, O(n)
 * (see data.h for the conventions and errors). */
#ifndef TEAL_MULTIBODY_ALGORITHMS_ENERGY_H
#define TEAL_MULTIBODY_ALGORITHMS_ENERGY_H

#include "teal_export.h"

#include "multibody/algorithms/data.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Kinetic energy 0.5 v' M(q) v (computed body by body, O(n)). */
TEAL_API int teal_mb_kinetic_energy(const teal_plant *plant, teal_mb_data *data, const double *q,
                                    const double *v, double *ke);

/** Gravitational potential energy at q. It is -sum_B m_B g . p_WBcm with
 *  data's gravity (zero with every center of mass at the world origin). */
TEAL_API int teal_mb_potential_energy(const teal_plant *plant, teal_mb_data *data, const double *q,
                                      double *pe);

#ifdef __cplusplus
}
#endif
#endif
