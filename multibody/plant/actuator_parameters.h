/** @file
 * The rotor inertia and gear ratio of actuators in a context (Drake's
 * JointActuator::rotor_inertia(context), SetRotorInertia, gear_ratio(context),
 * SetGearRatio and calc_reflected_inertia). A context starts with the
 * model's defaults (multibody/tree/actuator_rotor.h) and
 * teal_context_set_to_defaults restores them; every computation of the plant
 * on the context uses its values, whose reflected inertia rho^2 I_r joins
 * M's diagonal beside the joints' armatures (multibody/tree/joint_armature.h). Setting a value is
 * an O(1) write that invalidates the cache entries depending on it; it allocates nothing. */
#ifndef TEAL_MULTIBODY_PLANT_ACTUATOR_PARAMETERS_H
#define TEAL_MULTIBODY_PLANT_ACTUATOR_PARAMETERS_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Copies actuator's rotor inertia held in the context into *rotor_inertia.
 *  TEAL_EINVAL for an unknown actuator, a NULL result or a context that
 *  holds no context of the plant. */
TEAL_API int teal_plant_get_actuator_rotor_inertia_in_context(const teal_plant *plant,
                                                              const teal_context *ctx, int actuator,
                                                              double *rotor_inertia);

/** Sets actuator's rotor inertia in the context (Drake's SetRotorInertia):
 *  finite (TEAL_ENONFINITE) and >= 0 (TEAL_EINVAL), and 0 on a tendon
 *  actuator (TEAL_EUNSUPPORTED, see actuator_rotor.h). On failure the
 *  context is unchanged. */
TEAL_API int teal_plant_set_actuator_rotor_inertia_in_context(const teal_plant *plant,
                                                              teal_context *ctx, int actuator,
                                                              double rotor_inertia);

/** Copies actuator's gear ratio held in the context into *gear_ratio. */
TEAL_API int teal_plant_get_actuator_gear_ratio_in_context(const teal_plant *plant,
                                                           const teal_context *ctx, int actuator,
                                                           double *gear_ratio);

/** Sets actuator's gear ratio in the context (Drake's SetGearRatio): finite
 *  (TEAL_ENONFINITE) and nonzero (TEAL_EINVAL). */
TEAL_API int teal_plant_set_actuator_gear_ratio_in_context(const teal_plant *plant,
                                                           teal_context *ctx, int actuator,
                                                           double gear_ratio);

/** The reflected inertia rho^2 I_r of actuator with the context's values
 *  (Drake's calc_reflected_inertia), into *reflected_inertia. */
TEAL_API int teal_plant_calc_actuator_reflected_inertia(const teal_plant *plant,
                                                        const teal_context *ctx, int actuator,
                                                        double *reflected_inertia);

#ifdef __cplusplus
}
#endif
#endif
