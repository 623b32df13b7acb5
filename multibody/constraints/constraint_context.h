/** @file
 * A plant context's constraint state: which constraints are enabled
 * (Simbody's setConstraintIsDisabled; a numeric parameter of the context,
 * one flag per constraint, starting from the model's default), and the
 * multipliers lambda and constraint forces of its latest constrained
 * accelerations.
 *
 * Sizes. Every constraint-space vector has the fixed size m =
 * teal_plant_num_constraint_rows, whatever is enabled: the rows of a
 * disabled constraint read 0 (errors, G rows, bias, multipliers). In a
 * continuous plant, the time derivatives (and the generalized acceleration
 * output) obey the enabled rigid constraints: M vdot + G' lambda = f,
 * G vdot = b (constrained_dynamics.h). The multipliers are those of that
 * solve, also on the output port teal_plant_constraint_multipliers_output_port.
 *
 * Every function taking a context reports errors on it: TEAL_EINVAL for a
 * NULL argument or a context that holds no context of the plant,
 * TEAL_ENOTFOUND for an unknown constraint. */
#ifndef TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINT_CONTEXT_H
#define TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINT_CONTEXT_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Enables (enabled nonzero) or disables constraint c in ctx (Simbody's
 *  setConstraintIsDisabled, with the opposite flag). Disabling a compliant
 *  distance constraint removes its spring-damper's force (and energy) from
 *  that context. */
TEAL_API int teal_plant_set_constraint_enabled(const teal_plant *plant, teal_context *ctx, int c,
                                               int enabled);

/** 1 if constraint c is enabled in ctx, 0 if not (Simbody's
 *  isConstraintDisabled, negated), or a negative status. */
TEAL_API int teal_plant_constraint_enabled(const teal_plant *plant, const teal_context *ctx, int c);

/** The multipliers lambda (m values) of the constrained accelerations at
 *  ctx's state (Simbody's getConstraintMultipliers), evaluated through the
 *  plant's acceleration cache entry: M vdot + G' lambda = f. Disabled rows
 *  read 0; so does every row of a discrete plant (its step solves its
 *  constraints itself). TEAL_ESINGULAR for a conflicting redundant set. */
TEAL_API int teal_plant_get_constraint_multipliers(const teal_plant *plant, const teal_context *ctx,
                                                   double *lambda);

/** The forces the constraints apply at ctx's state (Simbody's
 *  findConstraintForces): body spatial forces F_Bo_W (num_bodies, at each
 *  body origin, expressed in W; entry 0, the world, included) and
 *  mobility forces tau (nv), such that J' F_Bo_W + tau = -G' lambda: the
 *  forces that, applied to the unconstrained system, produce the
 *  constrained accelerations. Either output may be NULL. */
TEAL_API int teal_plant_calc_constraint_reaction_forces(const teal_plant *plant,
                                                        const teal_context *ctx,
                                                        teal_spatial_vector *F_Bo_W, double *tau);

/** The power of the constraint forces at ctx's state (Simbody's
 *  calcConstraintPower): -lambda . (G v). Zero for ideal (workless)
 *  constraints on the manifold (G v = 0); nonzero where the velocities
 *  violate the constraints. */
TEAL_API int teal_plant_calc_constraint_power(const teal_plant *plant, const teal_context *ctx,
                                              double *power);

/** The output port of the multipliers (m values, fixed size; disabled rows
 *  read 0), or a negative status before finalize. */
TEAL_API int teal_plant_constraint_multipliers_output_port(const teal_plant *plant);

#ifdef __cplusplus
}
#endif
#endif
