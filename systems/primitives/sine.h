/** @file
 * Sine source: y = a sin(w t + phi) entrywise, with its first and second
 * time derivatives. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_SINE_H
#define TEAL_SYSTEMS_PRIMITIVES_SINE_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Output port indices of a sine source. */
enum {
  TEAL_SINE_Y = 0,    /**< "y"     = a sin(w t + phi) */
  TEAL_SINE_YDOT = 1, /**< "ydot"  = a w cos(w t + phi) */
  TEAL_SINE_YDDOT = 2 /**< "yddot" = -a w^2 sin(w t + phi) */
};

/** Creates a sine source of n entries with amplitude a, angular frequency
 *  w (rad/s) and phase phi (rad) per entry (arrays of n finite doubles,
 *  copied). Outputs "y", "ydot", "yddot" (n doubles each) depend on time
 *  only. Declares the (empty) analytic Jacobian. Returns NULL on bad
 *  parameters (n < 1: TEAL_ESIZE; an array NULL: TEAL_EINVAL; NaN/Inf:
 *  TEAL_ENONFINITE) with the reason in err (may be NULL). */
TEAL_API teal_system *teal_sine_new(const char *name, const double *amplitude,
                                    const double *frequency, const double *phase, int n,
                                    teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
