/* Private to multibody/plant/: the projection of a continuous plant's
 * constraint rows after every step (plant_projection.c), called by the
 * plant's projection hook after prescribeQ/prescribeU and the quaternion
 * normalization. */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_PROJECTION_INTERNAL_H
#define TEAL_MULTIBODY_PLANT_PLANT_PROJECTION_INTERNAL_H

#include "multibody/plant/plant_calc_internal.h"

/* Doubles of the projection's work for p (0 without constraint rows). */
size_t teal_plant_projection_doubles(const teal_plant *p);

/* Makes s's projection work (when p has constraint rows; TEAL_ENOMEM). */
int teal_plant_projection_reserve(teal_plant_scratch *s, const teal_plant *p);

/* projectQ then projectU of the enabled rigid constraints on x, the state
 * of ctx being projected; a no-op without rows or with projection off.
 * Reports on ctx (TEAL_ENOCONV when it does not converge). */
int teal_plant_project_constraints(const teal_plant *p, const teal_context *ctx,
                                   teal_continuous_view *x);

#endif
