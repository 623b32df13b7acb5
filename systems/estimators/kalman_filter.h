/** @file
 * Steady-state Kalman filters (Drake's SteadyStateKalmanFilter and
 * DiscreteTimeSteadyStateKalmanFilter) for the system
 * @code{.unparsed}
 *   continuous:  xdot   = A x + B u + w,   y = C x + D u + v,
 *   discrete:    x[n+1] = A x[n] + B u[n] + w[n],   y[n] = C x[n] + D u[n] + v[n],
 * @endcode
 * with process noise w of covariance W (nx x nx, symmetric positive
 * semidefinite) and measurement noise v of covariance V (ny x ny,
 * symmetric positive definite). The gain is
 * @code{.unparsed}
 *   continuous:  L = P C' V^-1,                P from A P + P A' - P C' V^-1 C P + W = 0;
 *   discrete:    L = A P C' (C P C' + V)^-1,   P = A P A' - A P C' (C P C' + V)^-1 C P A' + W,
 * @endcode
 * P the steady-state covariance of the estimation error (of the prediction
 * of x[n] from y up to n - 1 in the discrete case). These are the duals of
 * the LQR (controllers/lqr.h): L' is the LQR gain of (A', C', W, V). The
 * filter itself is a Luenberger observer (luenberger_observer.h) with this
 * gain, so it has that observer's ports: inputs "observed_system_output" and
 * "observed_system_input", output "estimated_state". An LQR controller fed
 * by "estimated_state" makes the LQG regulator. */
#ifndef TEAL_SYSTEMS_ESTIMATORS_KALMAN_FILTER_H
#define TEAL_SYSTEMS_ESTIMATORS_KALMAN_FILTER_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"
#include "systems/primitives/linear_system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The steady-state gain L (nx x ny, row-major) and, when P is not NULL,
 *  the error covariance P (nx x nx) of (A, C, W, V) above; discrete
 *  selects the discrete form. TEAL_EINVAL for a NULL matrix or W not
 *  symmetric positive semidefinite, TEAL_ESINGULAR for V not positive
 *  definite, TEAL_ENOCONV (asking whether (A, C) is detectable) or
 *  TEAL_ESINGULAR when the Riccati equation has no stabilizing solution
 *  (the LQR's codes, teal_lqr); the message in err (may be NULL) names the
 *  LQR's Q and R as W and V. */
TEAL_API int teal_steady_state_kalman_gain(const double *A, const double *C, const double *W,
                                           const double *V, int nx, int ny, int discrete, double *L,
                                           double *P, teal_error *err);

/** The steady-state Kalman filter of any system with one output port and
 *  at most one input port (Drake's SteadyStateKalmanFilter(system, context,
 *  W, V)): A and C come from the linearization of system about ctx (a root
 *  context of system whose input is fixed to the operating point's u,
 *  systems/analysis/linearize.h), continuous or discrete as the system is,
 *  and the filter runs the system itself as its model. The system must
 *  outlive the filter. NULL with the reason in err on failure. */
TEAL_API teal_system *teal_steady_state_kalman_filter_new(const char *name,
                                                          const teal_system *system,
                                                          const teal_context *ctx, const double *W,
                                                          const double *V, teal_error *err);

/** The steady-state Kalman filter of the linear or affine system m (Drake's
 *  SteadyStateKalmanFilter(A, B, C, W, V) and its discrete-time form when
 *  m->time_period > 0): it makes and owns the model system. */
TEAL_API teal_system *teal_steady_state_kalman_filter_from_matrices(
    const char *name, const teal_linear_system_matrices *m, const double *W, const double *V,
    teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
