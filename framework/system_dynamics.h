/** @file
 * Dynamics of a system's subtree (system_dynamics.c): time derivatives,
 * velocity maps, witness values, energies, state projection and analytic
 * Jacobians. On failure the message is in teal_context_error(ctx). */
#ifndef TEAL_FRAMEWORK_SYSTEM_DYNAMICS_H
#define TEAL_FRAMEWORK_SYSTEM_DYNAMICS_H

#include "teal_export.h"

#include "framework/system_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Time derivatives of the whole continuous state, written as one array
 *  [q; v; z] laid out as teal_context_get_continuous_state gives it. */
TEAL_API int teal_calc_time_derivatives(const teal_system *sys, const teal_context *ctx,
                                        double *xcdot);

/** qdot = N(q) v for the whole subtree (v has nv entries, qdot nq). */
TEAL_API int teal_map_velocity_to_qdot(const teal_system *sys, const teal_context *ctx,
                                       const double *v, double *qdot);
/** v = N+(q) qdot for the whole subtree. */
TEAL_API int teal_map_qdot_to_velocity(const teal_system *sys, const teal_context *ctx,
                                       const double *qdot, double *v);

/** Values of every witness function of the subtree, in order, into w. */
TEAL_API int teal_calc_witness_values(const teal_system *sys, const teal_context *ctx, double *w);

/** Sum of the leaves' potential energies (0 for leaves without the hook). */
TEAL_API int teal_calc_potential_energy(const teal_system *sys, const teal_context *ctx,
                                        double *pe);
/** Sum of the leaves' kinetic energies. */
TEAL_API int teal_calc_kinetic_energy(const teal_system *sys, const teal_context *ctx, double *ke);

/** Nonzero when some leaf of the subtree has a projection hook. */
TEAL_API int teal_system_has_projection(const teal_system *sys);

/** Runs every leaf's projection hook on its continuous state in ctx (a
 *  root or any subcontext); the state's stamps change only for the leaves
 *  that have a hook. */
TEAL_API int teal_project_continuous_state(const teal_system *sys, teal_context *ctx);

/** Runs a leaf's analytic Jacobian hook; TEAL_EUNSUPPORTED when absent. */
TEAL_API int teal_calc_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                                int output_port, teal_jacobian *jac);

#ifdef __cplusplus
}
#endif
#endif
