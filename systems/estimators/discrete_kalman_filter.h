/** @file
 * The time-varying discrete Kalman filter of a discrete linear or affine
 * system
 * @code{.unparsed}
 *   x[n+1] = A x[n] + B u[n] + f0 + w[n],   y[n] = C x[n] + D u[n] + y0 + v[n],
 * @endcode
 * (process noise w of covariance W, measurement noise v of covariance V),
 * carrying the error covariance P[n] as state, so the gain follows P from
 * its initial value rather than being the steady-state one. At each update
 * (the system's period, offset 0), in one-step predictor form:
 * @code{.unparsed}
 *   S = C P C' + V,   K = A P C' S^-1,
 *   xhat[n+1] = A xhat + B u + f0 + K (y - C xhat - D u - y0),
 *   P[n+1]    = A P A' + W - K S K',
 * @endcode
 * xhat[n] being the estimate of x[n] from y up to n - 1 and P[n] its error
 * covariance. P converges to the steady-state filter's P
 * (kalman_filter.h) when (A, C) is detectable. Ports: input 0
 * "observed_system_output" (y), input 1 "observed_system_input" (u, only
 * when nu > 0); output 0 "estimated_state" (xhat), output 1
 * "error_covariance" (P, nx x nx row-major). State: discrete group 0 is
 * xhat, group 1 is P. An update allocates nothing. */
#ifndef TEAL_SYSTEMS_ESTIMATORS_DISCRETE_KALMAN_FILTER_H
#define TEAL_SYSTEMS_ESTIMATORS_DISCRETE_KALMAN_FILTER_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"
#include "systems/primitives/linear_system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The filter of the discrete system m (m->time_period > 0; f0, D and y0
 *  may be NULL), with noise covariances W (nx x nx, symmetric) and V
 *  (ny x ny, symmetric positive definite), initial estimate xhat0 (NULL:
 *  zeros) and covariance P0 (symmetric; NULL: W). NULL with the reason in
 *  err (may be NULL) on failure: TEAL_EINVAL for a continuous system, a
 *  missing matrix, a system without state or output, or asymmetric W, V or
 *  P0; TEAL_ESIZE for nx, nu or ny above 4096; TEAL_ESINGULAR for V not positive definite;
 * TEAL_ENONFINITE for a NaN/Inf entry; TEAL_ENOMEM. */
TEAL_API teal_system *teal_discrete_kalman_filter_new(const char *name,
                                                      const teal_linear_system_matrices *m,
                                                      const double *W, const double *V,
                                                      const double *xhat0, const double *P0,
                                                      teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
