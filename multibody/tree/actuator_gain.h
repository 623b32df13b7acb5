/** @file
 * The input gain of joint actuators: the factor from an actuator's input u
 * to the generalized force on its joint's dof,
 * @code{.unparsed}
 *   tau_dof = clamp(gain * u, -limit, limit),
 * @endcode
 * limit being teal_plant_actuator_effort_limit, a limit on the joint effort
 * (Drake's "maximum effort"), not on u: u saturates at limit / |gain|. The
 * gain is 1 by default, as in Drake, where u is the joint effort itself.
 * It is MuJoCo's transmission gear of a joint motor (joint force = gear *
 * ctrl): the MJCF loader sets it from `<motor gear>`. It is not Drake's
 * gear ratio (actuator_rotor.h), which only scales the reflected inertia.
 *
 * The plant applies the gain wherever u becomes a generalized force: the
 * actuation of both continuous and discrete plants, the actuation matrix B
 * (teal_plant_make_actuation_matrix, B[dof][a] = gain) and the analytic
 * linearization w.r.t. the actuation input. Controllers that output
 * generalized forces (inverse dynamics, joint stiffness) feed actuation
 * through B^-1 when a gain is not 1. The gain is a model constant, set
 * before finalize; a context has no parameter for it. */
#ifndef TEAL_MULTIBODY_TREE_ACTUATOR_GAIN_H
#define TEAL_MULTIBODY_TREE_ACTUATOR_GAIN_H

#include "teal_export.h"

#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Sets the input gain of actuator (default 1). Before finalize only
 *  (TEAL_ESTATE after); TEAL_ENOTFOUND for an unknown actuator,
 *  TEAL_ENONFINITE for NaN or inf, TEAL_EINVAL for 0 (a negative gain is
 *  allowed: it reverses the actuator, as a negative MuJoCo gear does).
 *  Errors are sticky, as for every model call. */
TEAL_API int teal_plant_set_actuator_input_gain(teal_plant *plant, int actuator, double gain);

/** The input gain of actuator, or NAN on a bad plant or index. */
TEAL_API double teal_plant_actuator_input_gain(const teal_plant *plant, int actuator);

#ifdef __cplusplus
}
#endif
#endif
