/** @file
 * Port and cache-entry evaluation, and fixed input values (ports.c).
 *
 * Eval functions return borrowed pointers to cached values, valid until the
 * context next changes. Calc functions write into caller memory and do not
 * touch the cache. On failure the message is in teal_context_error(ctx). */
#ifndef TEAL_FRAMEWORK_PORTS_H
#define TEAL_FRAMEWORK_PORTS_H

#include "teal_export.h"

#include "framework/system_types.h"
#include "framework/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Value of vector input port i (from its connection or fixed value). */
TEAL_API int teal_eval_vector_input(const teal_system *sys, const teal_context *ctx, int port,
                                    const double **value);
/** 1 when input port i has a value (connected, through any exported
 *  diagram inputs, to an output, or fixed), 0 when it has none, or a
 *  negative status for a bad system, context or port (Drake's HasValue). */
TEAL_API int teal_input_has_value(const teal_system *sys, const teal_context *ctx, int port);
/** Value of abstract input port i. */
TEAL_API int teal_eval_abstract_input(const teal_system *sys, const teal_context *ctx, int port,
                                      const void **value);
/** Cached value of vector output port i. */
TEAL_API int teal_eval_vector_output(const teal_system *sys, const teal_context *ctx, int port,
                                     const double **value);
/** Cached value of abstract output port i. */
TEAL_API int teal_eval_abstract_output(const teal_system *sys, const teal_context *ctx, int port,
                                       const void **value);
/** Computes vector output port i into out without caching. */
TEAL_API int teal_calc_vector_output(const teal_system *sys, const teal_context *ctx, int port,
                                     double *out);
/** Computes abstract output port i into out (a valid value) without caching. */
TEAL_API int teal_calc_abstract_output(const teal_system *sys, const teal_context *ctx, int port,
                                       void *out);
/** Cached value of a leaf's declared cache entry i (double array for vector
 *  entries). */
TEAL_API int teal_eval_cache_entry(const teal_system *sys, const teal_context *ctx, int entry,
                                   const void **value);
/** 1 when a leaf's declared cache entry i holds a value computed since the
 *  last change of everything it depends on (evaluating it would not call its
 *  calc), 0 when it is out of date, never computed, or caching is off in
 *  ctx (Drake's CacheEntry::is_out_of_date, negated). A negative code
 *  (TEAL_ENOTFOUND, with a message) for a bad entry or a diagram. */
TEAL_API int teal_cache_entry_is_up_to_date(const teal_system *sys, const teal_context *ctx,
                                            int entry);
/** Marks a leaf's declared cache entry i out of date in ctx, so the next
 *  evaluation recomputes it even though nothing it depends on changed
 *  (Drake's CacheEntryValue::mark_out_of_date; Simbody's invalidate*). The
 *  entries that depend on it are not affected: they track the stamps of
 *  what they read, not this entry's. TEAL_ENOTFOUND for a bad entry. */
TEAL_API int teal_cache_entry_invalidate(const teal_system *sys, teal_context *ctx, int entry);

/** Fixes vector input port i to a copy of value (n doubles; NaN is
 *  rejected with TEAL_ENONFINITE, infinities are allowed, as limits).
 *  The port must not be connected inside its diagram. TEAL_EINVAL for a
 *  NULL value, TEAL_ESIZE when n is not the port's size. */
TEAL_API int teal_context_fix_input(teal_context *ctx, int port, const double *value, int n);
/** Fixes abstract input port i to a copy of value (type's copy hook). */
TEAL_API int teal_context_fix_abstract_input(teal_context *ctx, int port, const void *value);
/** Removes a fixed value; evaluating the port then reports it unconnected. */
TEAL_API int teal_context_unfix_input(teal_context *ctx, int port);
/** Nonzero when input port i has a fixed value in this context. */
TEAL_API int teal_context_input_is_fixed(const teal_context *ctx, int port);

#ifdef __cplusplus
}
#endif
#endif
