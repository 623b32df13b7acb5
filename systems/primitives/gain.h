/** @file
 * Gain: y = k u for a scalar k and vectors u, y of size n. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_GAIN_H
#define TEAL_SYSTEMS_PRIMITIVES_GAIN_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates a gain with input "u" and output "y" (n doubles each), y = k u
 *  (direct feedthrough). Declares the analytic Jacobian (D = k I). Returns
 *  NULL on bad parameters (n < 1: TEAL_ESIZE; k not finite:
 *  TEAL_ENONFINITE) with the reason in err (may be NULL). */
TEAL_API teal_system *teal_gain_new(const char *name, double k, int n, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
