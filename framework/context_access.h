/** @file
 * Reading and writing a context's time, accuracy, state, scratch values
 * and parameters (context_access.c).
 *
 * Getters return const pointers; the _mut accessors return writable memory
 * and mark everything that depends on it out of date (so write through the
 * pointer before the next evaluation, and call _mut again after any
 * evaluation). Only root contexts hold time. A diagram's continuous state is
 * laid out as [q of all leaves; v of all leaves; z of all leaves],
 * depth-first. */
#ifndef TEAL_FRAMEWORK_CONTEXT_ACCESS_H
#define TEAL_FRAMEWORK_CONTEXT_ACCESS_H

#include "teal_export.h"

#include "framework/system_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- time and accuracy ------------------------------------------------ */

/** The time of ctx's tree (held by its root; any context). NaN for NULL. */
TEAL_API double teal_context_time(const teal_context *ctx);
/** Sets time (root only; finite values only). */
TEAL_API int teal_context_set_time(teal_context *ctx, double t);
/** Accuracy requested of integrators; 0 until set. */
TEAL_API double teal_context_accuracy(const teal_context *ctx);
/** Sets the accuracy (root only; positive and finite). */
TEAL_API int teal_context_set_accuracy(teal_context *ctx, double accuracy);

/* ---- continuous state ------------------------------------------------- */

/** Whole continuous state [q; v; z] as one array (root contexts only: a
 *  subcontext's q, v and z are not adjacent; use the q/v/z accessors). */
TEAL_API const double *teal_context_continuous_state(const teal_context *ctx);
/** Writable teal_context_continuous_state (root only); marks the continuous state changed. */
TEAL_API double *teal_context_continuous_state_mut(teal_context *ctx);
/** Copies x = [q; v; z] (n entries) in; any context. */
TEAL_API int teal_context_set_continuous_state(teal_context *ctx, const double *x, int n);
/** Sets the time and copies x = [q; v; z] (n entries) in, in one call (the
 *  integrators' stage writes; Drake's SetTimeAndContinuousState). Root
 *  context only; t must be finite. */
TEAL_API int teal_context_set_time_and_continuous_state(teal_context *ctx, double t,
                                                        const double *x, int n);
/** Copies [q; v; z] out (n entries); any context. */
TEAL_API int teal_context_get_continuous_state(const teal_context *ctx, double *x, int n);

/** The generalized positions q of ctx's subtree (any context). */
TEAL_API const double *teal_context_q(const teal_context *ctx);
/** The generalized velocities v of ctx's subtree (any context). */
TEAL_API const double *teal_context_v(const teal_context *ctx);
/** The miscellaneous continuous state z of ctx's subtree (any context). */
TEAL_API const double *teal_context_z(const teal_context *ctx);
/** Writable q; marks q changed. */
TEAL_API double *teal_context_q_mut(teal_context *ctx);
/** Writable v; marks v changed. */
TEAL_API double *teal_context_v_mut(teal_context *ctx);
/** Writable z; marks z changed. */
TEAL_API double *teal_context_z_mut(teal_context *ctx);

/* ---- discrete and abstract state -------------------------------------- */

/** All discrete state of the subtree, groups back to back. */
TEAL_API const double *teal_context_discrete_state(const teal_context *ctx);
/** Writable teal_context_discrete_state; marks all of it changed. */
TEAL_API double *teal_context_discrete_state_mut(teal_context *ctx);
/** Discrete group i of a leaf context, or NULL (error recorded). */
TEAL_API const double *teal_context_discrete_group(const teal_context *ctx, int i);
/** Writable discrete group i of a leaf context (marks it changed), or NULL. */
TEAL_API double *teal_context_discrete_group_mut(teal_context *ctx, int i);
/** Copies a value into discrete group i of a leaf (n must equal its size). */
TEAL_API int teal_context_set_discrete_group(teal_context *ctx, int i, const double *x, int n);

/** Abstract state i of a leaf context, or NULL (error recorded). */
TEAL_API const void *teal_context_abstract_state(const teal_context *ctx, int i);
/** Writable abstract state i of a leaf context (marks it changed), or NULL. */
TEAL_API void *teal_context_abstract_state_mut(teal_context *ctx, int i);
/** Copies value into abstract state i of a leaf (type's copy hook). */
TEAL_API int teal_context_set_abstract_state(teal_context *ctx, int i, const void *value);

/** Scratch value i of a leaf context (see teal_leaf_declare_scratch), or
 *  NULL (error recorded). Writable from callbacks: it is not state. */
TEAL_API void *teal_context_scratch_mut(const teal_context *ctx, int i);
/** Read-only teal_context_scratch_mut. */
TEAL_API const void *teal_context_scratch(const teal_context *ctx, int i);

/* ---- parameters ------------------------------------------------------- */

/** Numeric parameter i of a leaf context, or NULL (error recorded). */
TEAL_API const double *teal_context_numeric_parameter(const teal_context *ctx, int i);
/** Writable numeric parameter i of a leaf context (marks it changed), or NULL. */
TEAL_API double *teal_context_numeric_parameter_mut(teal_context *ctx, int i);
/** Copies p into numeric parameter i of a leaf (n must equal its size). */
TEAL_API int teal_context_set_numeric_parameter(teal_context *ctx, int i, const double *p, int n);

#ifdef __cplusplus
}
#endif
#endif
