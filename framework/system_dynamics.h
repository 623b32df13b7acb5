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

/** Read-only view of continuous-state-shaped memory, split as q, v, z. */
typedef struct teal_const_continuous_view {
  const double *q; /**< generalized positions (nq doubles) */
  const double *v; /**< generalized velocities (nv doubles) */
  const double *z; /**< miscellaneous continuous state (nz doubles) */
} teal_const_continuous_view;

/** A leaf's own implicit residual (Drake's DoCalcImplicitTimeDerivativesResidual):
 *  given proposed time derivatives of its continuous state (read only), writes
 *  one residual per continuous state into residual, zero exactly when the
 *  proposal equals the leaf's time derivatives. */
typedef int (*teal_implicit_residual_fn)(const teal_system *sys, const teal_context *ctx,
                                         const teal_const_continuous_view *proposed,
                                         teal_continuous_view *residual, void *user);

/** Gives a leaf (before finalize) its own implicit residual; leaves without
 *  one use the default, proposed minus the explicit time derivatives. Errors:
 *  TEAL_EINVAL for a NULL sys or fn, TEAL_ESTATE for a diagram or a finalized
 *  leaf (sticky on the system, like every declaration). */
TEAL_API int teal_leaf_set_implicit_time_derivatives_residual(teal_system *sys,
                                                              teal_implicit_residual_fn fn,
                                                              void *user);

/** Number of implicit residual equations of the subtree (Drake's
 *  implicit_time_derivatives_residual_size): one per continuous state,
 *  nq + nv + nz; -1 for a NULL or unfinalized system. */
TEAL_API int teal_implicit_time_derivatives_residual_size(const teal_system *sys);

/** Drake's CalcImplicitTimeDerivativesResidual: for proposed time derivatives
 *  xcdot_p of the whole continuous state (nproposed = nq + nv + nz values,
 *  laid out [q; v; z] like teal_calc_time_derivatives), writes residual
 *  (nresidual = teal_implicit_time_derivatives_residual_size values), zero
 *  when xcdot_p equals the explicit derivatives f(x, u, t). Each leaf's slice
 *  comes from its own hook (teal_leaf_set_implicit_time_derivatives_residual)
 *  or, by default, is xcdot_p - f(x, u, t). A continuous multibody plant uses
 *  Drake's form: qdot_p - N(q) v, then M(q) (vdot_p - vdot), the inverse
 *  dynamics of vdot_p with all applied forces. Allocates nothing.
 *  Errors: TEAL_EINVAL for NULL arrays (with entries); TEAL_ESIZE when a size
 *  differs from the continuous-state size; TEAL_ENONFINITE for a NaN or
 *  infinite proposed value; TEAL_EUNSUPPORTED for a system with discrete but
 *  no continuous state (for example a discrete plant); a leaf's failure. */
TEAL_API int teal_calc_implicit_time_derivatives_residual(const teal_system *sys,
                                                          const teal_context *ctx,
                                                          const double *proposed, int nproposed,
                                                          double *residual, int nresidual);

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

/** Removes from a step's local error estimate err (writable, in place,
 *  the leaf's slices of it) what the leaf's projection hook would remove
 *  from the state anyway: its components normal to the constraint manifold
 *  at the state in ctx (the step's end, before projection), in the weights
 *  the state projection uses (Simbody's error estimate projection, Theory
 *  Manual eqs. 10.12-10.14). An error-controlled simulator then judges the
 *  step by the error that stays after projection. */
typedef int (*teal_error_projection_fn)(const teal_system *sys, const teal_context *ctx,
                                        teal_continuous_view *err, void *user);

/** Gives a leaf (before finalize) its error estimate projection (see
 *  teal_error_projection_fn); a leaf that projects its state (teal_leaf_set_projection)
 *  should project the error estimate the same way. Errors: TEAL_EINVAL for a
 *  NULL sys or fn, TEAL_ESTATE for a diagram or a finalized leaf (sticky on
 *  the system, like every declaration). */
TEAL_API int teal_leaf_set_error_projection(teal_system *sys, teal_error_projection_fn fn,
                                            void *user);

/** Nonzero when some leaf of the subtree has an error projection hook. */
TEAL_API int teal_system_has_error_projection(const teal_system *sys);

/** Runs every leaf's error projection hook (teal_leaf_set_error_projection)
 *  on its slices of xerr, a local error estimate of the whole continuous
 *  state laid out [q; v; z] like teal_calc_time_derivatives' xcdot, at the
 *  state in ctx (a root or any subcontext); leaves without a hook keep
 *  theirs. Errors: TEAL_EINVAL for a NULL xerr (with states), a leaf's
 *  failure (reported on ctx). */
TEAL_API int teal_project_error_estimate(const teal_system *sys, const teal_context *ctx,
                                         double *xerr);

/** Runs a leaf's analytic Jacobian hook; TEAL_EUNSUPPORTED when absent. */
TEAL_API int teal_calc_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                                int output_port, teal_jacobian *jac);

#ifdef __cplusplus
}
#endif
#endif
