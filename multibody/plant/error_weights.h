/** @file
 * The projection's error weights of a context (Simbody's getUWeights,
 * getQErrWeights and getUErrWeights, Theory Manual section 10.1).
 *
 * The constraint projection after every step (constraint_projection.h)
 * measures its change of state and the constraint errors in weighted norms:
 * @code{.unparsed}
 *   minimize |W_u dv|  subject to  W_p perr(q + N dv) = 0, ...
 *   accept when |W_p perr|_inf <= tol  (positions)
 *   and when    |W_v pverr|_inf <= tol (velocities)
 * @endcode
 * W_u = diag(u weights), nv values: the size of a unit change of each
 * generalized speed, so a dof with a large weight moves less (1: Simbody's
 * unit weights). W_p and W_v = diag(qerr weights), diag(uerr weights), m
 * values each (one per constraint row): the inverse of each row's unit
 * error tolerance, so a row with weight 100 is held 100 times tighter than
 * the accuracy. All default to 1 and must be finite and > 0. The weights
 * are context parameters: contexts of one plant weight independently, and
 * resetting the context's parameters restores the unit weights. Only a
 * continuous plant projects; a discrete plant keeps but does not use them. Errors are
 * reported on ctx: TEAL_EINVAL (NULL arguments, a context without the
 * plant, a weight <= 0), TEAL_ESIZE (n not nv or m), TEAL_ENONFINITE. */
#ifndef TEAL_MULTIBODY_PLANT_ERROR_WEIGHTS_H
#define TEAL_MULTIBODY_PLANT_ERROR_WEIGHTS_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Sets the u weights W_u of ctx (n = nv values, each finite and > 0). */
TEAL_API int teal_plant_set_u_weights(const teal_plant *plant, teal_context *ctx,
                                      const double *weights, int n);

/** The u weights of ctx into weights (n = nv values). */
TEAL_API int teal_plant_get_u_weights(const teal_plant *plant, const teal_context *ctx,
                                      double *weights, int n);

/** Sets the position-error weights W_p of ctx, one per constraint row
 *  (n = m values, each finite and > 0). */
TEAL_API int teal_plant_set_constraint_qerr_weights(const teal_plant *plant, teal_context *ctx,
                                                    const double *weights, int n);

/** The position-error weights of ctx into weights (n = m values). */
TEAL_API int teal_plant_get_constraint_qerr_weights(const teal_plant *plant,
                                                    const teal_context *ctx, double *weights,
                                                    int n);

/** Sets the velocity-error weights W_v of ctx, one per constraint row
 *  (n = m values, each finite and > 0). */
TEAL_API int teal_plant_set_constraint_uerr_weights(const teal_plant *plant, teal_context *ctx,
                                                    const double *weights, int n);

/** The velocity-error weights of ctx into weights (n = m values). */
TEAL_API int teal_plant_get_constraint_uerr_weights(const teal_plant *plant,
                                                    const teal_context *ctx, double *weights,
                                                    int n);

#ifdef __cplusplus
}
#endif
#endif
