/** @file
 * The rotor inertia and gear ratio of joint actuators (Drake's
 * JointActuator::default_rotor_inertia, default_gear_ratio and
 * default_reflected_inertia): a motor whose rotor has inertia I_r about its
 * axis and drives its joint through a gear of ratio rho (motor speed / joint
 * speed) adds the reflected inertia rho^2 I_r to the diagonal entry of the
 * mass matrix M at the joint's velocity. The actuation input u stays the
 * joint torque (or force): the gear ratio changes only the reflected
 * inertia, as in Drake.
 *
 * These are the model's defaults, set before finalize; a context holds its
 * own values (multibody/plant/actuator_parameters.h). The plant adds the
 * reflected inertia wherever its dynamics use M: the mass matrix (CRBA),
 * forward dynamics (the articulated-body recursion adds it to the joint's
 * D = S' P S), the discrete step, inverse dynamics, the analytic derivatives
 * and the kinetic energy (1/2 rho^2 I_r v^2). The teal_mb_* algorithms
 * called with a teal_mb_data of the caller's use these defaults. */
#ifndef TEAL_MULTIBODY_TREE_ACTUATOR_ROTOR_H
#define TEAL_MULTIBODY_TREE_ACTUATOR_ROTOR_H

#include "teal_export.h"

#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Sets the default rotor inertia I_r (kg m^2, about the rotor's axis) of
 *  actuator (Drake's set_default_rotor_inertia); the default is 0. Before
 *  finalize only (TEAL_ESTATE after); TEAL_ENOTFOUND for an unknown
 *  actuator, TEAL_ENONFINITE for NaN or inf, TEAL_EINVAL for a negative
 *  value, TEAL_EUNSUPPORTED for a nonzero value on a tendon actuator
 *  (multibody/forces/tendon_actuator.h: its reflected inertia rho^2 I_r
 *  J_L^T J_L is not diagonal, so it has none). Errors are sticky, as for
 *  every model call. */
TEAL_API int teal_plant_set_actuator_default_rotor_inertia(teal_plant *plant, int actuator,
                                                           double rotor_inertia);

/** Sets the default gear ratio rho of actuator (Drake's
 *  set_default_gear_ratio); the default is 1. It must be finite
 *  (TEAL_ENONFINITE) and nonzero (TEAL_EINVAL); its sign does not matter
 *  (only rho^2 enters). Errors as for the rotor inertia. */
TEAL_API int teal_plant_set_actuator_default_gear_ratio(teal_plant *plant, int actuator,
                                                        double gear_ratio);

/** The default rotor inertia of actuator, or NAN on a bad plant or index. */
TEAL_API double teal_plant_actuator_default_rotor_inertia(const teal_plant *plant, int actuator);

/** The default gear ratio of actuator, or NAN on a bad plant or index. */
TEAL_API double teal_plant_actuator_default_gear_ratio(const teal_plant *plant, int actuator);

/** The default reflected inertia rho^2 I_r of actuator (Drake's
 *  default_reflected_inertia), or NAN on a bad plant or index. */
TEAL_API double teal_plant_actuator_default_reflected_inertia(const teal_plant *plant,
                                                              int actuator);

#ifdef __cplusplus
}
#endif
#endif
