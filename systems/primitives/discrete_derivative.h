/** @file
 * Discrete derivative (Drake's DiscreteDerivative): a backward difference
 * of the input sampled every `period` seconds (h) from t = 0,
 * @code{.unparsed}
 *     dudt = (u[k] - u[k-1]) / h,    u[k] = u(k h).
 * @endcode
 *
 * Ports: input "u" (n), output "dudt" (n). The output reads state only (no
 * direct feedthrough). State, as discrete groups:
 * @code{.unparsed}
 *   0: u[k]   (n), the latest sample,
 *   1: u[k-1] (n), the sample before it,
 *   2: the number of samples taken so far, capped at 2 (1 double; present
 *      only when the initial transient is suppressed, the default).
 * @endcode
 * The periodic discrete update at t = k h (k = 0, 1, ...) shifts group 0
 * into group 1 and latches u(k h) into group 0, so on [k h, (k+1) h) the
 * output is (u(k h) - u((k-1) h)) / h.
 *
 * First steps. Suppressing the initial transient (Drake's default), the
 * output is zero until two samples exist: before the first update and on
 * [0, h) after the sample at t = 0; from t = h on it is the difference
 * quotient. Without suppression the default state is zero, so the output
 * is 0 before the first update and u(0) / h on [0, h) (the transient).
 * teal_discrete_derivative_set_input_history seeds both samples (and
 * marks the history complete) to start without a transient. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_DISCRETE_DERIVATIVE_H
#define TEAL_SYSTEMS_PRIMITIVES_DISCRETE_DERIVATIVE_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates a finalized discrete derivative of n >= 1 inputs with sampling
 *  period h (finite, > 0), suppressing the initial transient. Returns NULL
 *  with err (may be NULL) set: TEAL_ESIZE (n), TEAL_EINVAL (period <= 0),
 *  TEAL_ENONFINITE (NaN/Inf period), TEAL_ENOMEM. */
TEAL_API teal_system *teal_discrete_derivative_new(const char *name, int n, double period,
                                                   teal_error *err);

/** As teal_discrete_derivative_new, choosing whether the initial transient
 *  is suppressed (nonzero: as the default constructor; 0: no counter
 *  state, output u[0] / h on the first period). */
TEAL_API teal_system *teal_discrete_derivative_new_ex(const char *name, int n, double period,
                                                      int suppress_initial_transient,
                                                      teal_error *err);

/** Sets the sample history in ctx (the system's own context or one of a
 *  diagram containing it): u[k] = u_n and u[k-1] = u_n_minus_1 (n values
 *  each), and marks two samples as taken, so the output is live at once.
 *  TEAL_EINVAL for NULL arguments or when sys is not a discrete derivative,
 *  TEAL_ENOTFOUND when sys is not in ctx. */
TEAL_API int teal_discrete_derivative_set_input_history(const teal_system *sys, teal_context *ctx,
                                                        const double *u_n,
                                                        const double *u_n_minus_1);

#ifdef __cplusplus
}
#endif
#endif
