/** @file
 * Step source: y jumps from an initial to a final value at the step time. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_STEP_H
#define TEAL_SYSTEMS_PRIMITIVES_STEP_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates a step source with output "y" (n doubles): y = initial_value
 *  for t < step_time and y = final_value for t >= step_time (arrays of n
 *  finite doubles, copied). The output depends on time only. Declares the
 *  (empty) analytic Jacobian. Returns NULL on bad parameters (n < 1:
 *  TEAL_ESIZE; an array NULL: TEAL_EINVAL; NaN/Inf: TEAL_ENONFINITE) with
 *  the reason in err (may be NULL). */
TEAL_API teal_system *teal_step_new(const char *name, double step_time, const double *initial_value,
                                    const double *final_value, int n, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
