/** @file
 * First-order low-pass filter (Drake's FirstOrderLowPassFilter), one
 * independent filter per component:
 * @code{.unparsed}
 *     z_i' = (u_i - z_i) / tau_i,    y_i = z_i,
 * @endcode
 * that is, the transfer function 1 / (tau_i s + 1) from u_i to y_i.
 *
 * Ports: input "u" (n), output "y" (n). State: continuous z (nz = n,
 * default zeros). "y" depends on z only (no direct feedthrough). The
 * analytic Jacobian hook gives A = -diag(1/tau), B = diag(1/tau), C = I,
 * D = 0. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_FIRST_ORDER_LOW_PASS_FILTER_H
#define TEAL_SYSTEMS_PRIMITIVES_FIRST_ORDER_LOW_PASS_FILTER_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates a finalized filter of n >= 1 components with the given time
 *  constants (n finite values > 0, copied). Returns NULL with err (may be
 *  NULL) set: TEAL_ESIZE (n), TEAL_EINVAL (NULL array, tau <= 0),
 *  TEAL_ENONFINITE (NaN/Inf tau), TEAL_ENOMEM. */
TEAL_API teal_system *teal_first_order_low_pass_filter_new(const char *name,
                                                           const double *time_constants, int n,
                                                           teal_error *err);

/** Sets the state (and so the output) of filter sys, made by
 *  teal_first_order_low_pass_filter_new, to z0 (n values) in ctx: the
 *  filter's own context or a context of a diagram containing it.
 *  TEAL_EINVAL for NULL arguments or when sys is not such a filter,
 *  TEAL_ENOTFOUND when sys is not in ctx. */
TEAL_API int
teal_first_order_low_pass_filter_set_initial_output(const teal_system *sys, teal_context *ctx,
                                                    const double *z0);

#ifdef __cplusplus
}
#endif
#endif
