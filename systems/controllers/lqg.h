/** @file
 * The LQG compensator: an LQR acting on a steady-state Kalman filter's
 * estimate, built from one linear (or linearized, affine) model
 * @code{.unparsed}
 *   continuous:  xdot   = A x + B u + f0 + w,   y = C x + D u + y0 + v,
 *   discrete:    x[n+1] = A x[n] + B u[n] + f0 + w[n],   y[n] = C x[n] + D u[n] + y0 + v[n],
 * @endcode
 * with the LQR's costs Q, R (controllers/lqr.h) and the noise covariances
 * W, V of the Kalman filter (estimators/kalman_filter.h). The compensator
 * is a diagram of the two:
 * @code{.unparsed}
 *   measurement --> kalman --estimated_state--> lqr: u = u0 - K (xhat - x0) --> control
 *                     ^------ observed_system_input ------------------'
 * @endcode
 * with input "measurement" (ny), outputs "control" (nu) and
 * "estimated_state" (nx), ready to wire between a plant's measured output
 * and its input. The filter sees the control the compensator computes, so
 * a saturation after it goes unnoticed by the estimate. By the separation
 * principle the closed loop of the model with the compensator has the
 * eigenvalues of A - B K and of A - L C. The filter's state is the
 * compensator's only state (the estimate, default zeros). */
#ifndef TEAL_SYSTEMS_CONTROLLERS_LQG_H
#define TEAL_SYSTEMS_CONTROLLERS_LQG_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"
#include "systems/primitives/linear_system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Builds the LQG compensator of model m (continuous, or discrete when
 *  m->time_period > 0, which makes both the LQR and the filter discrete)
 *  about the operating point (x0, u0) of the LQR (NULL: zeros): Q (nx x
 *  nx) and R (nu x nu) as teal_lqr, W (nx x nx) and V (ny x ny) as
 *  teal_steady_state_kalman_gain. K (nu x nx) and L (nx x ny) receive the
 *  gains when not NULL. NULL on failure with err (may be NULL) set:
 *  TEAL_EINVAL for a NULL model or matrix, TEAL_ESIZE for a model without
 *  states, inputs or outputs, TEAL_ENONFINITE for NaN/Inf in x0 or u0, and
 *  the codes of teal_lqr and teal_steady_state_kalman_gain (a singular R
 *  or V, an unstabilizable (A, B) or undetectable (A, C) pair). */
TEAL_API teal_system *teal_lqg_controller_new(const char *name,
                                              const teal_linear_system_matrices *m,
                                              const double *x0, const double *u0, const double *Q,
                                              const double *R, const double *W, const double *V,
                                              double *K, double *L, teal_error *err);

/** The LQG compensator of a system about the operating point held in ctx
 *  (Drake's LinearQuadraticRegulator(system, context, ...) with a Kalman
 *  filter): the system is linearized about ctx (systems/analysis/
 *  linearize.h, in absolute coordinates: an affine model) from the vector
 *  input input_port (fixed in ctx to u0) to the measured vector output
 *  output_port, continuous or discrete as the system is, and the LQR acts
 *  about x0 = ctx's state (continuous, else discrete) and u0, which should
 *  be an equilibrium. Then as teal_lqg_controller_new; errors also those of
 *  teal_linearize_matrices (a bad port, an unfixed input). */
TEAL_API teal_system *teal_lqg_controller_from_system(const char *name, const teal_system *sys,
                                                      const teal_context *ctx, int input_port,
                                                      int output_port, const double *Q,
                                                      const double *R, const double *W,
                                                      const double *V, double *K, double *L,
                                                      teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
