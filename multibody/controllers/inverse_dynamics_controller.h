/** @file
 * Inverse dynamics controller (Drake's InverseDynamicsController): a
 * diagram of a PID on the joint errors and an inverse-dynamics leaf.
 *
 * With e = q_d - q, edot = v_d - v and z the integral of e (continuous
 * state of the inner PID, z(0) = 0), the commanded acceleration is
 * @code{.unparsed}
 *   vd* = vd_d + kp .* e + kd .* edot + ki .* z
 * @endcode
 * (vd_d = 0 without the reference acceleration input) and the output is the
 * inverse dynamics of the plant model at it:
 * @code{.unparsed}
 *   tau = M(q) vd* + C(q, v) v - tau_g(q) - tau_app(q, v),
 * @endcode
 * tau_app being joint damping and force elements, see inverse_dynamics.h.
 * Fed to the plant (applied_generalized_force, or actuation when every
 * velocity is actuated, through u = B^-1 tau, e.g. a matrix gain, when an
 * actuator's input gain is not 1: multibody/tree/actuator_gain.h) with a
 * perfect model, the error obeys
 * @code{.unparsed}
 *   edd + kd .* ed + kp .* e + ki .* z = 0,
 * @endcode
 * decoupled per joint (stable for kp, kd > 0 and 0 <= ki < kp kd).
 *
 * Ports (Drake's names):
 * @code{.unparsed}
 *   input  0 "estimated_state"      x = [q; v] (2 n);
 *   input  1 "desired_state"        x_d = [q_d; v_d] (2 n);
 *   input  2 "desired_acceleration" vd_d (n), only with
 *            has_reference_acceleration;
 *   output 0 "generalized_force"    (n); depends on every input.
 * @endcode
 * Subsystems: "pid" (teal_pid_new, its continuous state is z: reset or set
 * the integral through teal_context_subcontext_by_name_mut(ctx, "pid")),
 * "inverse_dynamics" and, with the reference acceleration, "adder".
 *
 * Requirements: as in Drake, nq == nv == n (no quaternion joints). The
 * plant is borrowed (finalized, it must outlive the diagram). Gravity is a
 * value of the "inverse_dynamics" subsystem's context, as for
 * teal_inverse_dynamics_new; teal_mb_controller_set_gravity_in_context
 * (controller_gravity.h) takes this diagram and its context. */
#ifndef TEAL_MULTIBODY_CONTROLLERS_INVERSE_DYNAMICS_CONTROLLER_H
#define TEAL_MULTIBODY_CONTROLLERS_INVERSE_DYNAMICS_CONTROLLER_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Port indices of an inverse dynamics controller diagram. */
enum {
  TEAL_IDC_ESTIMATED_STATE = 0,      /**< input "estimated_state" */
  TEAL_IDC_DESIRED_STATE = 1,        /**< input "desired_state" */
  TEAL_IDC_DESIRED_ACCELERATION = 2, /**< input "desired_acceleration" (optional) */
  TEAL_IDC_GENERALIZED_FORCE = 0     /**< output "generalized_force" */
};

/** Builds the controller diagram for the finalized plant (borrowed; it must
 *  outlive the diagram) with gains kp, ki, kd (n values each, copied; n
 *  must equal nv; all finite and >= 0) and, when has_reference_acceleration
 *  is nonzero, the "desired_acceleration" input. Returns NULL with err (may
 *  be NULL) set: TEAL_EINVAL (NULL plant or gains, a negative gain),
 *  TEAL_ESTATE (plant not finalized), TEAL_ESIZE (nq != nv, nv = 0 or
 *  n != nv), TEAL_ENONFINITE (NaN/Inf gains), TEAL_ENOMEM. */
TEAL_API teal_system *teal_inverse_dynamics_controller_new(const char *name,
                                                           const teal_plant *plant,
                                                           const double *kp, const double *ki,
                                                           const double *kd, int n,
                                                           int has_reference_acceleration,
                                                           teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
