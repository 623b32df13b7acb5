/** @file
 * Trajectory source (Drake's TrajectorySource): outputs a piecewise
 * polynomial trajectory and its time derivatives at the context time.
 *
 * Ports: output "y" = p(t); with output_derivative_order >= 1 also "ydot"
 * = p'(t), with >= 2 also "yddot" = p''(t), and for higher orders
 * "y_d3", "y_d4", ... Each has the trajectory's row count and depends on
 * time only. Outside the trajectory's breaks "y" holds the end value and
 * every derivative output is zero (see piecewise_polynomial.h). */
#ifndef TEAL_SYSTEMS_PRIMITIVES_TRAJECTORY_SOURCE_H
#define TEAL_SYSTEMS_PRIMITIVES_TRAJECTORY_SOURCE_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"
#include "systems/primitives/piecewise_polynomial.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Highest output_derivative_order accepted. */
#define TEAL_TRAJECTORY_SOURCE_MAX_ORDER 16

/** Creates a finalized source of traj (copied, so the caller keeps and
 *  frees its own) with outputs for derivative orders 0 to
 *  output_derivative_order (0 <= order <= TEAL_TRAJECTORY_SOURCE_MAX_ORDER).
 *  Returns NULL with err (may be NULL) set: TEAL_EINVAL for a NULL
 *  trajectory or a bad order, TEAL_ENOMEM. */
TEAL_API teal_system *teal_trajectory_source_new(const char *name,
                                                 const teal_piecewise_polynomial *traj,
                                                 int output_derivative_order, teal_error *err);

/** The source's own copy of the trajectory (borrowed, lives as long as
 *  sys), or NULL when sys is not a trajectory source. */
TEAL_API const teal_piecewise_polynomial *teal_trajectory_source_trajectory(const teal_system *sys);

#ifdef __cplusplus
}
#endif
#endif
