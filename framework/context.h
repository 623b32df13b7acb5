/* Contexts: everything about a system that changes.
 *
 * A context is laid out once for its system's whole tree in one block:
 * time, accuracy, state, parameters, fixed input values, cached values and
 * their version stamps. Getters return const pointers; the _mut accessors
 * return writable memory and mark everything that depends on it out of date
 * (so write through the pointer before the next evaluation, and call _mut
 * again after any evaluation). Only root contexts may be freed or cloned and
 * only they hold time. A diagram's continuous state is laid out as
 * [q of all leaves; v of all leaves; z of all leaves], depth-first. */
#ifndef TEAL_FRAMEWORK_CONTEXT_H
#define TEAL_FRAMEWORK_CONTEXT_H

#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates sys's default context. On failure returns NULL and fills err
 *  (may be NULL). sys must be finalized (a leaf) or built (a diagram). */
teal_context *teal_context_new(const teal_system *sys, teal_error *err);

/** Deep copy of a root context (state, parameters, time, fixed inputs). */
teal_context *teal_context_clone(const teal_context *ctx, teal_error *err);

/** Copies values (time, accuracy, state, parameters, fixed inputs, scratch
 *  values) from src into dst, two root contexts of the same system. The
 *  caching switch is a property of dst and stays as it is. Allocates nothing
 *  unless an abstract value's copy hook does (e.g. a longer log); if such a
 *  copy fails, dst is left partly copied and the error is returned. */
int teal_context_copy_from(teal_context *dst, const teal_context *src);

/** Frees a root context (NULL is ignored; subcontexts are not freed). Free
 *  contexts before their system: value types and release hooks may belong
 *  to the system (e.g. the plant's and scene graph's cache types). */
void teal_context_free(teal_context *ctx);

/** Restores default state and parameters and, on a root, time 0; accuracy,
 *  fixed inputs and scratch values (e.g. logs) stay. */
int teal_context_set_to_defaults(teal_context *ctx);

/** The system this context belongs to. */
const teal_system *teal_context_system(const teal_context *ctx);

/** The latest evaluation error recorded on this context's tree. */
const teal_error *teal_context_error(const teal_context *ctx);

/** Records an error on the context's tree (for callbacks); returns code. */
int teal_context_report_error(const teal_context *ctx, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/** Nonzero for the root of a context tree. */
int teal_context_is_root(const teal_context *ctx);

/** Turns caching on (default) or off for the whole tree. */
void teal_context_set_caching(teal_context *ctx, int enabled);

/* ---- time and accuracy ------------------------------------------------ */

double teal_context_time(const teal_context *ctx);
/** Sets time (root only; finite values only). */
int teal_context_set_time(teal_context *ctx, double t);
/** Accuracy requested of integrators; 0 until set. */
double teal_context_accuracy(const teal_context *ctx);
/** Sets the accuracy (root only; positive and finite). */
int teal_context_set_accuracy(teal_context *ctx, double accuracy);

/* ---- continuous state ------------------------------------------------- */

/** Whole continuous state [q; v; z] as one array (root contexts only: a
 *  subcontext's q, v and z are not adjacent; use the q/v/z accessors). */
const double *teal_context_continuous_state(const teal_context *ctx);
double *teal_context_continuous_state_mut(teal_context *ctx);
/** Copies x = [q; v; z] (n entries) in; any context. */
int teal_context_set_continuous_state(teal_context *ctx, const double *x, int n);
/** Sets the time and copies x = [q; v; z] (n entries) in, in one call (the
 *  integrators' stage writes; Drake's SetTimeAndContinuousState). Root
 *  context only; t must be finite. */
int teal_context_set_time_and_continuous_state(teal_context *ctx, double t, const double *x,
                                               int n);
/** Copies [q; v; z] out (n entries); any context. */
int teal_context_get_continuous_state(const teal_context *ctx, double *x, int n);

const double *teal_context_q(const teal_context *ctx);
const double *teal_context_v(const teal_context *ctx);
const double *teal_context_z(const teal_context *ctx);
double *teal_context_q_mut(teal_context *ctx);
double *teal_context_v_mut(teal_context *ctx);
double *teal_context_z_mut(teal_context *ctx);

/* ---- discrete and abstract state -------------------------------------- */

/** All discrete state of the subtree, groups back to back. */
const double *teal_context_discrete_state(const teal_context *ctx);
double *teal_context_discrete_state_mut(teal_context *ctx);
/** Discrete group i of a leaf context, or NULL (error recorded). */
const double *teal_context_discrete_group(const teal_context *ctx, int i);
double *teal_context_discrete_group_mut(teal_context *ctx, int i);
/** Copies a value into discrete group i of a leaf (n must equal its size). */
int teal_context_set_discrete_group(teal_context *ctx, int i, const double *x, int n);

/** Abstract state i of a leaf context, or NULL (error recorded). */
const void *teal_context_abstract_state(const teal_context *ctx, int i);
void *teal_context_abstract_state_mut(teal_context *ctx, int i);
/** Copies value into abstract state i of a leaf (type's copy hook). */
int teal_context_set_abstract_state(teal_context *ctx, int i, const void *value);

/** Scratch value i of a leaf context (see teal_leaf_declare_scratch), or
 *  NULL (error recorded). Writable from callbacks: it is not state. */
void *teal_context_scratch_mut(const teal_context *ctx, int i);
const void *teal_context_scratch(const teal_context *ctx, int i);

/* ---- parameters ------------------------------------------------------- */

/** Numeric parameter i of a leaf context, or NULL (error recorded). */
const double *teal_context_numeric_parameter(const teal_context *ctx, int i);
double *teal_context_numeric_parameter_mut(teal_context *ctx, int i);
int teal_context_set_numeric_parameter(teal_context *ctx, int i, const double *p, int n);

/* ---- inputs ----------------------------------------------------------- */

/** Fixes vector input port i to a copy of value (n doubles; NaN is
 *  rejected with TEAL_ENONFINITE, infinities are allowed, e.g. as limits).
 *  The port must not be connected inside its diagram. */
int teal_context_fix_input(teal_context *ctx, int port, const double *value, int n);
/** Fixes abstract input port i to a copy of value (type's copy hook). */
int teal_context_fix_abstract_input(teal_context *ctx, int port, const void *value);
/** Removes a fixed value; evaluating the port then reports it unconnected. */
int teal_context_unfix_input(teal_context *ctx, int port);
/** Nonzero when input port i has a fixed value in this context. */
int teal_context_input_is_fixed(const teal_context *ctx, int port);

/* ---- subsystem contexts ----------------------------------------------- */

/** Context of subsystem sub (any depth below ctx's system), or NULL. */
const teal_context *teal_context_subcontext(const teal_context *ctx, const teal_system *sub);
teal_context *teal_context_subcontext_mut(teal_context *ctx, const teal_system *sub);
/** Context of a subsystem by slash-separated path relative to ctx's system
 *  ("controller" or "plant_group/arm"), or NULL. */
const teal_context *teal_context_subcontext_by_name(const teal_context *ctx, const char *path);
teal_context *teal_context_subcontext_by_name_mut(teal_context *ctx, const char *path);

#ifdef __cplusplus
}
#endif
#endif
