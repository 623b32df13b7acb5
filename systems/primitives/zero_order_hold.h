/** @file
 * Zero-order hold (Drake's ZeroOrderHold): samples its input every `period`
 * seconds, starting at `offset`, and holds the sample on its output until
 * the next sample time.
 *
 * Ports: input "u", output "y" (same size, or the same abstract type).
 * The held sample is state (a discrete group for vectors, an abstract state
 * for abstract values), so "y" depends on that state only: there is no
 * direct feedthrough from "u" to "y" and a hold may close a loop.
 *
 * Timing: the sample times are offset + k * period, k = 0, 1, ... The
 * update at a sample time latches the input as it is at that instant; the
 * output shows the new sample from that instant on. Before the first sample
 * the output is the default held value (zeros for vectors, the type's
 * default for abstract values); change it in a context with
 * teal_context_set_discrete_group(ctx, 0, ...) or
 * teal_context_set_abstract_state(ctx, 0, ...). The simulator handles
 * events due at its start time, so a hold with offset 0 samples at t = 0. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_ZERO_ORDER_HOLD_H
#define TEAL_SYSTEMS_PRIMITIVES_ZERO_ORDER_HOLD_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"
#include "framework/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates a finalized vector zero-order hold of size n (n >= 1) sampling
 *  at offset + k * period (period finite and > 0, offset finite and >= 0).
 *  State: discrete group 0 (n doubles, default zeros) holds the sample; a
 *  periodic discrete update copies "u" into it. On bad parameters returns
 *  NULL with err (may be NULL) set to TEAL_ESIZE (n), TEAL_ENONFINITE
 *  (NaN/Inf period or offset) or TEAL_EINVAL (period <= 0, offset < 0). */
TEAL_API teal_system *teal_zero_order_hold_new(const char *name, double period, double offset,
                                               int n, teal_error *err);

/** Creates a finalized abstract zero-order hold for values of `type`, which
 *  must outlive the system (it is referenced, not copied) and needs a name
 *  and a nonzero size. State: abstract state 0 holds the sample (default:
 *  the type's default value); a periodic unrestricted update copies "u"
 *  into it through the type's copy hook. Errors as for the vector hold,
 *  plus TEAL_EINVAL for a NULL or unnamed type. */
TEAL_API teal_system *teal_zero_order_hold_abstract_new(const char *name, double period,
                                                        double offset, const teal_value_type *type,
                                                        teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
