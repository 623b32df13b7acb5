/** @file
 * Joint armature (MuJoCo's `<joint armature>`): an inertia added to the
 * diagonal entry of the mass matrix M at every velocity of a joint, whether
 * or not an actuator drives it. It models the reflected inertia of a rotor
 * or gearbox folded into the joint. M's diagonal at dof v carries the
 * joint's armature plus the reflected inertias rho^2 I_r of the actuators on
 * that dof (actuator_rotor.h), and everything built on M follows: the mass
 * matrix, forward dynamics, the discrete step, inverse dynamics, the
 * analytic derivatives and the kinetic energy (1/2 armature v^2 per dof).
 *
 * The armature is a model default, set before finalize; a context keeps it
 * in the added diagonal it recomputes when an actuator's rotor inertia or
 * gear ratio changes in that context (multibody/plant/actuator_parameters.h). */
#ifndef TEAL_MULTIBODY_TREE_JOINT_ARMATURE_H
#define TEAL_MULTIBODY_TREE_JOINT_ARMATURE_H

#include "teal_export.h"

#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Sets the armature of joint (kg m^2 for a rotation, kg for a
 *  translation), added to M's diagonal at each of the joint's velocities
 *  (all three of a ball joint, all six of a floating joint); the default is
 *  0. Before finalize only (TEAL_ESTATE after); TEAL_ENOTFOUND for an
 *  unknown joint, TEAL_ENONFINITE for NaN or inf, TEAL_EINVAL for a
 *  negative value. Errors are sticky, as for every model call. */
TEAL_API int teal_plant_set_joint_default_armature(teal_plant *plant, int joint, double armature);

/** The default armature of joint, or NAN on a NULL plant or an unknown
 *  joint. */
TEAL_API double teal_plant_joint_default_armature(const teal_plant *plant, int joint);

#ifdef __cplusplus
}
#endif
#endif
