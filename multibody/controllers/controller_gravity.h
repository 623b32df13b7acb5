/** @file
 * The gravity of the model-based controllers in a context.
 *
 * The inverse-dynamics leaf (teal_inverse_dynamics_new), the joint
 * stiffness controller and the inverse dynamics controller (through its
 * "inverse_dynamics" subsystem) keep gravity as a context value, like the
 * plant (its "gravity" parameter, teal_plant_set_gravity_in_context): a
 * numeric parameter of 3 values, initialized from teal_plant_gravity(plant)
 * when the controller is made. Setting it in a context changes the gravity
 * compensation that context computes, and invalidates its cached output;
 * other contexts and the model plant are not touched. To keep a
 * controller's model in step with a simulated plant, set the same gravity
 * in both contexts. */
#ifndef TEAL_MULTIBODY_CONTROLLERS_CONTROLLER_GRAVITY_H
#define TEAL_MULTIBODY_CONTROLLERS_CONTROLLER_GRAVITY_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/system.h"
#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Sets the gravity g_W (finite) that controller uses in ctx: the
 *  controller's own context or one above it. controller is a system made
 *  by teal_inverse_dynamics_new, teal_joint_stiffness_controller_new or
 *  teal_inverse_dynamics_controller_new. Errors, reported on ctx:
 *  TEAL_EINVAL (NULL argument, another kind of system, a context without
 *  the controller), TEAL_ENONFINITE (g_W not finite). */
TEAL_API int teal_mb_controller_set_gravity_in_context(const teal_system *controller,
                                                       teal_context *ctx, teal_vec3 g_W);

/** The gravity controller uses in ctx into *g_W; errors as for
 *  teal_mb_controller_set_gravity_in_context. */
TEAL_API int teal_mb_controller_get_gravity_in_context(const teal_system *controller,
                                                       const teal_context *ctx, teal_vec3 *g_W);

#ifdef __cplusplus
}
#endif
#endif
