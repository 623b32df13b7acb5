/** @file
 * Constrained forward dynamics of a plant at a context's state, after
 * Simbody's SimbodyMatterSubsystem (calcProjectedMInv,
 * solveForConstraintImpulses, calcConstraintForcesFromMultipliers,
 * calcResidualForce):
 * @code{.unparsed}
 *   M vdot + G' lambda = f,    G vdot = b,
 *   W lambda = G M^-1 f - b,   W = G M^-1 G'   (the projected inverse mass)
 *   vdot = M^-1 (f - G' lambda)
 * @endcode
 * M^-1 is applied by the articulated-body algorithm (one O(n) solve per
 * row for W), never forming M.
 *
 * Redundant constraints. W is symmetric positive semidefinite; dependent
 * rows of G (a planar four-bar closed by a 3-D ball) make it singular. It
 * is factored by a Cholesky factorization with diagonal pivoting that stops
 * when the largest remaining pivot falls to 1e-10 of the largest diagonal
 * of W: the rows kept form an independent set, the multipliers of the
 * others are 0 (a basic solution; the accelerations are unique whichever
 * set is kept). The dropped rows are then checked: if W lambda differs
 * from the right-hand side on a dropped row by more than 1e-8 of the
 * right-hand side's scale, the constraint set asks for incompatible
 * accelerations (a conflicting redundant set), and the call fails with
 * TEAL_ESINGULAR naming the row. Disabled rows are left out of W.
 *
 * Errors are reported on the context as in constraint_operators.h; no
 * function allocates. */
#ifndef TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINED_DYNAMICS_H
#define TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINED_DYNAMICS_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** W = G M^-1 G' (m x m, row-major, symmetric) at ctx's q (Simbody's
 *  calcProjectedMInv): m articulated-body solves. Rows and columns of
 *  disabled constraints are zero. */
TEAL_API int teal_plant_calc_projected_mass_inverse(const teal_plant *plant,
                                                    const teal_context *ctx, double *W);

/** The impulses (m values) that change the constraint-space velocities G v
 *  by delta_v (m values) (Simbody's solveForConstraintImpulses): W impulse
 *  = delta_v, by the pivoted solve of the file comment (TEAL_ESINGULAR for
 *  a conflicting redundant set). Applying v += M^-1 G' impulse then changes
 *  G v by delta_v. Disabled rows read 0. */
TEAL_API int teal_plant_solve_for_constraint_impulses(const teal_plant *plant,
                                                      const teal_context *ctx,
                                                      const double *delta_v, double *impulse);

/** The constrained accelerations vdot (nv) and multipliers lambda (m; may
 *  be NULL) from the unconstrained accelerations vdot_free = M^-1 f (nv) at
 *  ctx's state: lambda from W lambda = G vdot_free - b, vdot = vdot_free -
 *  M^-1 G' lambda (Simbody's calcAcceleration given calcAccelerationIgnoring
 *  Constraints). vdot may alias vdot_free. TEAL_ESINGULAR for a conflicting
 *  redundant set. The plant's own time derivatives use this. */
TEAL_API int teal_plant_calc_constrained_accelerations(const teal_plant *plant,
                                                       const teal_context *ctx,
                                                       const double *vdot_free, double *vdot,
                                                       double *lambda);

/** The body spatial forces F_Bo_W (num_bodies, at body origins, in W) and
 *  mobility forces tau (nv) of the multipliers lambda (m) (Simbody's
 *  calcConstraintForcesFromMultipliers), with J' F_Bo_W + tau = G' lambda.
 *  Watch the sign, as in Simbody: these stand on the left of M vdot + G'
 *  lambda = f, so the forces the constraints apply are their negatives. */
TEAL_API int teal_plant_calc_constraint_forces_from_multipliers(const teal_plant *plant,
                                                                const teal_context *ctx,
                                                                const double *lambda,
                                                                teal_spatial_vector *F_Bo_W,
                                                                double *tau);

/** residual (nv) = M vdot + C v - tau_applied - J' F_applied_Bo_W +
 *  G' lambda at ctx's state (Simbody's calcResidualForce): zero when vdot
 *  and lambda solve the constrained equations for those applied forces. As
 *  teal_plant_calc_inverse_dynamics, gravity is not included (add
 *  teal_plant_calc_gravity_generalized_forces to tau_applied). tau_applied
 *  and F_applied_Bo_W may be NULL (zero). */
TEAL_API int teal_plant_calc_constraint_residual_force(const teal_plant *plant,
                                                       const teal_context *ctx, const double *vdot,
                                                       const double *tau_applied,
                                                       const teal_spatial_vector *F_applied_Bo_W,
                                                       const double *lambda, double *residual);

#ifdef __cplusplus
}
#endif
#endif
