/** @file
 * Inverse dynamics of a plant model as a leaf system (Drake's
 * InverseDynamics).
 *
 * With the model plant's mass matrix M(q), bias term C(q, v) v, gravity
 * forces tau_g(q) and applied forces tau_app(q, v) = -b v + (force elements)
 * (joint damping b and the generalized and spatial forces of the plant's
 * force elements, Drake's CalcForceElementsContribution), the output is
 * @code{.unparsed}
 *   INVERSE_DYNAMICS:     tau = M(q) vd + C(q, v) v - tau_g(q) - tau_app
 *                             = M vd + C v - tau_g + b v - tau_elements,
 *   GRAVITY_COMPENSATION: tau = -tau_g(q).
 * @endcode
 * so that a plant given tau (through applied_generalized_force, or through
 * actuation when every velocity is actuated, as u = B^-1 tau when an
 * actuator's input gain is not 1) with nothing else applied
 * accelerates at vd. Actuation, applied_generalized_force and
 * applied_spatial_force inputs of the plant are not seen, nor are joint
 * limits and effort limits (Drake's InverseDynamics ignores them too).
 *
 * Ports (Drake's names):
 * @code{.unparsed}
 *   input  0 "estimated_state"      x = [q; v] (nq + nv), the plant's layout;
 *   input  1 "desired_acceleration" vd (nv), INVERSE_DYNAMICS mode only;
 *   output 0 "generalized_force"    tau (nv); depends on every input.
 * @endcode
 * q is used as given (normalize quaternions first; the plant's state output
 * is normalized). NaN/Inf inputs make the evaluation fail with
 * TEAL_ENONFINITE.
 *
 * The model. The plant is borrowed: it must be finalized, and it must
 * outlive the system (and every context of it). It may be the simulated
 * plant itself or a separate copy of the model. Gravity, like the plant's,
 * is a value of the context: the system's numeric parameter "gravity",
 * teal_plant_gravity(plant) when the system is made, changed in a context
 * with teal_mb_controller_set_gravity_in_context (controller_gravity.h).
 * Setting gravity in the PLANT's context (teal_plant_set_gravity_in_context)
 * does not reach the controller's context: set both. Each context of the
 * system holds its own multibody data (made with the context), so
 * evaluation allocates nothing. */
#ifndef TEAL_MULTIBODY_CONTROLLERS_INVERSE_DYNAMICS_H
#define TEAL_MULTIBODY_CONTROLLERS_INVERSE_DYNAMICS_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What an inverse-dynamics system computes (Drake's InverseDynamicsMode). */
typedef enum teal_inverse_dynamics_mode {
  TEAL_INVERSE_DYNAMICS = 0,     /**< tau = M vd + C v - tau_g - tau_app */
  TEAL_GRAVITY_COMPENSATION = 1  /**< tau = -tau_g; no desired_acceleration port */
} teal_inverse_dynamics_mode;

/** Port indices of an inverse-dynamics system. */
enum {
  TEAL_INVERSE_DYNAMICS_ESTIMATED_STATE = 0,      /**< input "estimated_state" */
  TEAL_INVERSE_DYNAMICS_DESIRED_ACCELERATION = 1, /**< input "desired_acceleration" */
  TEAL_INVERSE_DYNAMICS_GENERALIZED_FORCE = 0     /**< output "generalized_force" */
};

/** Creates a finalized inverse-dynamics leaf for the finalized plant (see
 *  the file comment; the plant must outlive the system). Returns NULL with
 *  err (may be NULL) set: TEAL_EINVAL (NULL plant, unknown mode),
 *  TEAL_ESTATE (plant not finalized), TEAL_ESIZE (a plant with nv = 0),
 *  TEAL_ENOMEM. */
TEAL_API teal_system *teal_inverse_dynamics_new(const char *name, const teal_plant *plant,
                                                teal_inverse_dynamics_mode mode, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
