/** @file
 * Constraints in a discrete plant's time step. The step (plant_system.h)
 * solves the enabled constraints' rows together with the contact forces:
 * each row is a near-rigid compliant force, implicit in the next velocity,
 * as in Drake's SAP solver (see docs/discrete_constraints.md). Its
 * multipliers are the constraint forces of the step (impulses over the
 * time step), with the sign of the continuous ones: M (v+ - v*) + h G'
 * lambda = 0 at the step's start q, with v* the free motion. */
#ifndef TEAL_MULTIBODY_PLANT_DISCRETE_CONSTRAINTS_H
#define TEAL_MULTIBODY_PLANT_DISCRETE_CONSTRAINTS_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The multipliers lambda (teal_plant_num_constraint_rows values) of the
 *  discrete step from ctx's state: the constraint forces that step applies
 *  (its impulses divided by the time step), evaluated through the step's
 *  cache entry like the discrete contact results; disabled rows read 0.
 *  After the simulator takes a step, ctx holds the next state, so this
 *  gives the multipliers of the step to come. Errors, reported on ctx:
 *  TEAL_EINVAL for a NULL argument, a context that holds no context of the
 *  plant or a continuous plant (its multipliers are
 *  teal_plant_get_constraint_multipliers'), and the step's own errors. */
TEAL_API int teal_plant_get_discrete_constraint_multipliers(const teal_plant *plant,
                                                            const teal_context *ctx,
                                                            double *lambda);

/** The tension of compliant distance constraint c (one added by
 *  teal_plant_add_distance_constraint with a finite stiffness k and
 *  damping d) in the discrete step from ctx's state: its row's impulse
 *  divided by h, k (l - l0) + d ldot at the step's implicit end (l the
 *  step's start length plus h ldot, ldot at the next velocity), positive
 *  when the spring pulls its points together; 0 when the constraint is
 *  disabled in ctx. A continuous plant applies the same spring as a force
 *  element (its tension is that element's). Errors, reported on ctx:
 *  TEAL_EINVAL for a NULL argument, a context that holds no context of the
 *  plant, a continuous plant, an unknown constraint or one that is not a
 *  compliant distance, and the step's own errors. */
TEAL_API int teal_plant_get_discrete_constraint_tension(const teal_plant *plant,
                                                        const teal_context *ctx, int c,
                                                        double *tension);

#ifdef __cplusplus
}
#endif

#endif
