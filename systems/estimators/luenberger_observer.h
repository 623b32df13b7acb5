/** @file
 * The Luenberger observer (Drake's LuenbergerObserver): a state estimator
 * that runs a model of the observed system and corrects it by the output
 * error through a constant gain L,
 * @code{.unparsed}
 *   continuous:  d/dt xhat  = f(xhat, u) + L (y - g(xhat, u)),
 *   discrete:    xhat[n+1]  = f(xhat, u) + L (y - g(xhat, u)),
 * @endcode
 * with f and g the observed system's dynamics and output
 * (systems/analysis/state_space_evaluator.h). The observed system must have
 * exactly one output port and at most one input port, both vector ports,
 * and continuous or discrete state (a discrete one updated at one period,
 * which the observer takes). The observer's ports: input 0
 * "observed_system_output" (y, ny values), input 1 "observed_system_input"
 * (u, nu values; only when the observed system has an input), and output 0
 * "estimated_state" (xhat, nx values: the continuous state [q; v; z] or all
 * discrete groups of the observed system). xhat's default is the state the
 * observed context held when the observer was made; the estimate does not
 * feed through from the inputs. A steady-state Kalman filter is this
 * observer with L from the Riccati equation (kalman_filter.h).
 *
 * The observer evaluates the observed system on a private context of its
 * own per observer context, made from a clone of the context given, so the
 * observed system must outlive the observer (the observer does not own it,
 * and the observed system need not be in the same diagram). A simulation
 * step allocates nothing.
 *
 * When the observed system declares an analytic Jacobian, so does the
 * observer: A = A_m - L C_m, B = L for y and B_m - L D_m for u, C = I and
 * D = 0, from the model's blocks (A_m, B_m, C_m, D_m) at (xhat, u). It
 * declines with TEAL_EUNSUPPORTED when the model's hook does. */
#ifndef TEAL_SYSTEMS_ESTIMATORS_LUENBERGER_OBSERVER_H
#define TEAL_SYSTEMS_ESTIMATORS_LUENBERGER_OBSERVER_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The observer of observed (observed_context, a root context of it such
 *  as teal_context_new gives, supplies the time, parameters, default state
 *  and the values of any other inputs) with gain L (nx x ny, row-major, finite).
 *  NULL with the reason in err (may be NULL) on failure: TEAL_EINVAL for a
 *  NULL argument, a context of another system, a system with no output
 *  port, several input or output ports, an abstract port, no state or both
 *  kinds; TEAL_ENONFINITE for a NaN/Inf gain; TEAL_ENOMEM. */
TEAL_API teal_system *teal_luenberger_observer_new(const char *name, const teal_system *observed,
                                                   const teal_context *observed_context,
                                                   const double *L, teal_error *err);

/** The same observer, and it owns observed: observed is freed with the
 *  observer, or at once when making the observer fails. */
TEAL_API teal_system *teal_luenberger_observer_new_owning(const char *name, teal_system *observed,
                                                          const teal_context *observed_context,
                                                          const double *L, teal_error *err);

/** Nonzero when sys is a Luenberger observer (a Kalman filter included). */
TEAL_API int teal_is_luenberger_observer(const teal_system *sys);

/** Copies the gain L (nx x ny, row-major; n must be nx * ny) of the
 *  observer sys into L. TEAL_EINVAL for another kind of system or a NULL
 *  L, TEAL_ESIZE for a wrong n. */
TEAL_API int teal_luenberger_observer_gain(const teal_system *sys, double *L, int n);

#ifdef __cplusplus
}
#endif
#endif
