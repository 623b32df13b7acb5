/** @file
 * Ramp source: y = y0 + slope (t - t0) after the start time t0, y0 before. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_RAMP_H
#define TEAL_SYSTEMS_PRIMITIVES_RAMP_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates a ramp source with output "y" (n doubles):
 *  y_i = initial_value_i for t < start_time and
 *  y_i = initial_value_i + slope_i (t - start_time) from then on.
 *  slope and initial_value are arrays of n finite doubles (copied); the
 *  output depends on time only. Declares the (empty) analytic Jacobian.
 *  Returns NULL on bad parameters (n < 1: TEAL_ESIZE; an array NULL:
 *  TEAL_EINVAL; NaN/Inf: TEAL_ENONFINITE) with the reason in err (may be
 *  NULL). */
TEAL_API teal_system *teal_ramp_new(const char *name, const double *slope, double start_time,
                                    const double *initial_value, int n, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
