/* Private to multibody/plant/: the plant's free forward dynamics by the
 * cheaper factorization of M for its forest (free_dynamics.c). */
#ifndef TEAL_MULTIBODY_PLANT_FREE_DYNAMICS_INTERNAL_H
#define TEAL_MULTIBODY_PLANT_FREE_DYNAMICS_INTERNAL_H

#include "multibody/algorithms/data.h"
#include "multibody/math/spatial_vector.h"
#include "multibody/tree/plant_model.h"

/* vdot = M^-1 (tau + J' F - C v + tau_g) as teal_mb_forward_dynamics_ex,
 * with M factored by the per-tree blocks (teal_mb_forward_dynamics_blocks)
 * when every tree is small, where the dense blocks beat the
 * articulated-body recursion's 6 x 6 operations per body, and by
 * articulated bodies otherwise; the factorization stays in data for
 * teal_mb_mass_inverse. A singular block falls back to the articulated
 * bodies, whose error names the joint. tau and F may be NULL. */
int teal_plant_free_dynamics(const teal_plant *p, teal_mb_data *data, const double *q,
                             const double *v, const double *tau, const teal_spatial_vector *F,
                             double *vdot);

#endif
