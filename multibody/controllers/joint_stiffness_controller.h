/** @file
 * Joint stiffness controller (Drake's JointStiffnessController).
 *
 * With e = q_d - q and edot = v_d - v, the output is
 * @code{.unparsed}
 *   tau = -tau_g(q) - tau_app(q, v) + kp .* e + kd .* edot,
 * @endcode
 * where tau_g are the model's generalized gravity forces and tau_app the
 * generalized forces of its joint damping (-b v) and force elements (the
 * spatial ones mapped through J'), Drake's CalcForceElementsContribution.
 * Fed to the plant (applied_generalized_force, or actuation when every
 * velocity is actuated, through u = B^-1 tau when an actuator's input gain
 * is not 1: multibody/tree/actuator_gain.h) with nothing else applied, the
 * closed loop is the
 * joint-space spring-damper M vdot + C v + kp .* (q - q_d) + kd .* (v - v_d)
 * = tau_ext: at rest (v = v_d = 0) the controller exactly cancels gravity,
 * damping and force elements and adds the stiffness response kp .* e.
 *
 * Ports (Drake's names):
 * @code{.unparsed}
 *   input  0 "estimated_state" x = [q; v] (2 n), the plant's layout;
 *   input  1 "desired_state"   x_d = [q_d; v_d] (2 n);
 *   output 0 "generalized_force" (n); depends on both inputs.
 * @endcode
 * NaN/Inf inputs make the evaluation fail with TEAL_ENONFINITE.
 *
 * Requirements: as in Drake, nq == nv == n (no quaternion joints; for
 * Teal's joints with nq == nv, qdot = v). Unlike Drake, full actuation is
 * not required, since the output is a generalized force that may go to the
 * plant's applied_generalized_force input.
 *
 * The model. As for teal_inverse_dynamics_new: the finalized plant is
 * borrowed and must outlive the system, gravity is a value of the
 * controller's context, starting as teal_plant_gravity(plant) when the
 * system is made (teal_mb_controller_set_gravity_in_context in
 * controller_gravity.h changes it), and each context holds its own
 * multibody data, so evaluation allocates nothing. */
#ifndef TEAL_MULTIBODY_CONTROLLERS_JOINT_STIFFNESS_CONTROLLER_H
#define TEAL_MULTIBODY_CONTROLLERS_JOINT_STIFFNESS_CONTROLLER_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Port indices of a joint stiffness controller. */
enum {
  TEAL_JOINT_STIFFNESS_ESTIMATED_STATE = 0, /**< input "estimated_state" */
  TEAL_JOINT_STIFFNESS_DESIRED_STATE = 1,   /**< input "desired_state" */
  TEAL_JOINT_STIFFNESS_GENERALIZED_FORCE = 0 /**< output "generalized_force" */
};

/** Creates a finalized joint stiffness controller for the finalized plant
 *  (borrowed; it must outlive the system) with stiffness kp and damping kd,
 *  n values each (copied; n must equal nv). Returns NULL with err (may be
 *  NULL) set: TEAL_EINVAL (NULL plant or gains, a negative gain),
 *  TEAL_ESTATE (plant not finalized), TEAL_ESIZE (nq != nv, nv = 0, or
 *  n != nv), TEAL_ENONFINITE (NaN/Inf gains), TEAL_ENOMEM. */
TEAL_API teal_system *teal_joint_stiffness_controller_new(const char *name, const teal_plant *plant,
                                                          const double *kp, const double *kd, int n,
                                                          teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
