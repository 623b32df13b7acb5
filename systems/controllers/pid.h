/** @file
 * PID controller (Drake's PidController) for n degrees of freedom.
 *
 * Ports (Drake's names): input "estimated_state" x = [q; v] (2n), input
 * "desired_state" x_d = [q_d; v_d] (2n), output "control" (n). With the
 * position error e = q_d - q, the control is
 * @code{.unparsed}
 *     u_raw = kp .* e + ki .* z + kd .* e_dot,
 * @endcode
 * where z (continuous state, nz = n, default zeros) is the integral of the
 * position error, z' = e, and e_dot is the derivative term:
 *   - plain (default): e_dot = v_d - v, as in Drake;
 *   - filtered (config.derivative_time_constant = tau > 0): e_dot is the
 *     position error passed through s / (tau s + 1). It uses n more
 *     continuous states w (the state is z = [integral (n); w (n)]) with
 *         w' = (e - w) / tau,    e_dot = (e - w) / tau,
 *     and ignores the velocity halves of the inputs. w starts at its
 *     default 0, so a nonzero initial error gives a derivative kick of
 *     kd e / tau that decays with tau; set w = e(0) in the context
 *     (teal_context_z_mut(ctx)[n + i]) for a bumpless start.
 *
 * Without limits, control = u_raw. With output limits (anti-windup),
 * @code{.unparsed}
 *     control_i = min(max(u_raw_i, lo_i), hi_i),
 * @endcode
 * and integration of error i stops while it would deepen the saturation:
 * @code{.unparsed}
 *     z_i' = 0  when (u_raw_i > hi_i and ki_i e_i > 0)
 *                or  (u_raw_i < lo_i and ki_i e_i < 0),
 *     z_i' = e_i otherwise (so the integral can always unwind).
 * @endcode
 *
 * "control" depends on both inputs and the state (direct feedthrough from
 * both inputs). The analytic Jacobian hook (x = the continuous state)
 * gives the exact local linearization: in the plain case A = 0,
 * B_est = [-I 0], B_des = [I 0], C = diag(ki), D_est = [-diag(kp) -diag(kd)],
 * D_des = -D_est; rows of a saturated output are zero in C and D, and rows
 * of a stopped integral are zero in B. */
#ifndef TEAL_SYSTEMS_CONTROLLERS_PID_H
#define TEAL_SYSTEMS_CONTROLLERS_PID_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Options of teal_pid_new_ex; a zero-initialized struct is the plain
 *  controller. */
typedef struct teal_pid_config {
  /** tau > 0: filter the derivative of the position error with time
   *  constant tau; 0: use v_d - v. Must be finite and >= 0. */
  double derivative_time_constant;
  /** n lower output limits, or NULL for none (-inf). Entries may be -inf;
   *  NaN is rejected. Limits on either side enable anti-windup. */
  const double *output_min;
  /** n upper output limits, or NULL for none (+inf); lo_i <= hi_i. */
  const double *output_max;
} teal_pid_config;

/** Creates a finalized plain PID controller of n >= 1 degrees of freedom
 *  with gains kp, ki, kd (n finite values each, copied). Returns NULL with
 *  err (may be NULL) set: TEAL_ESIZE (n), TEAL_EINVAL (NULL gains),
 *  TEAL_ENONFINITE (NaN/Inf gains), TEAL_ENOMEM. */
TEAL_API teal_system *teal_pid_new(const char *name, const double *kp, const double *ki,
                                   const double *kd, int n, teal_error *err);

/** As teal_pid_new with options (config may be NULL: plain). Further
 *  errors: TEAL_EINVAL (negative tau, a lower limit above its upper
 *  limit), TEAL_ENONFINITE (NaN/Inf tau, NaN limits). */
TEAL_API teal_system *teal_pid_new_ex(const char *name, const double *kp, const double *ki,
                                      const double *kd, int n, const teal_pid_config *config,
                                      teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
