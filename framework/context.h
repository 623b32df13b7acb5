/** @file
 * Contexts: everything about a system that changes. Creating, copying and
 * freeing contexts and their error record and caching switch (context.c);
 * also the umbrella of the context API: accessors (context_access.h),
 * subcontexts (context_tree.h) and fixed inputs (ports.h).
 *
 * A context is laid out once for its system's whole tree in one block:
 * time, accuracy, state, parameters, fixed input values, cached values and
 * their version stamps. Only root contexts may be freed or cloned and only
 * they hold time. */
#ifndef TEAL_FRAMEWORK_CONTEXT_H
#define TEAL_FRAMEWORK_CONTEXT_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"
#include "framework/context_access.h"
#include "framework/context_tree.h"
#include "framework/ports.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates sys's default context. On failure returns NULL and fills err
 *  (may be NULL). sys must be finalized (a leaf) or built (a diagram). */
TEAL_API teal_context *teal_context_new(const teal_system *sys, teal_error *err);

/** Deep copy of a root context (state, parameters, time, fixed inputs). */
TEAL_API teal_context *teal_context_clone(const teal_context *ctx, teal_error *err);

/** Copies values (time, accuracy, state, parameters, fixed inputs, scratch
 *  values) from src into dst, two root contexts of the same system. The
 *  caching switch is a property of dst and stays as it is. Allocates nothing
 *  unless an abstract value's copy hook does (e.g. a longer log); if such a
 *  copy fails, dst is left partly copied and the error is returned. */
TEAL_API int teal_context_copy_from(teal_context *dst, const teal_context *src);

/** Frees a root context (NULL is ignored; subcontexts are not freed). Free
 *  contexts before their system: value types and release hooks may belong
 *  to the system (e.g. the plant's and scene graph's cache types). */
TEAL_API void teal_context_free(teal_context *ctx);

/** Restores default state and parameters and, on a root, time 0; accuracy,
 *  fixed inputs and scratch values (such as logs) stay. */
TEAL_API int teal_context_set_to_defaults(teal_context *ctx);

/** The system this context belongs to. */
TEAL_API const teal_system *teal_context_system(const teal_context *ctx);

/** The latest evaluation error recorded on this context's tree. */
TEAL_API const teal_error *teal_context_error(const teal_context *ctx);

/** How many errors have been recorded on this context's tree so far (0 for
 *  NULL). The record keeps only the latest one: compare two readings to
 *  tell whether the calls between them recorded a new one. */
TEAL_API unsigned long teal_context_error_count(const teal_context *ctx);

/** Records an error on the context's tree (for callbacks); returns code. */
TEAL_API int teal_context_report_error(const teal_context *ctx, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/** Nonzero for the root of a context tree. */
TEAL_API int teal_context_is_root(const teal_context *ctx);

/** Turns caching on (default) or off for the whole tree. */
TEAL_API void teal_context_set_caching(teal_context *ctx, int enabled);

#ifdef __cplusplus
}
#endif
#endif
