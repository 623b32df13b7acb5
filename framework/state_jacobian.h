/** @file
 * The Jacobian of a whole system's continuous dynamics, df/dx of
 * xdot = f(t, x) with x = [q; v; z] laid out as teal_calc_time_derivatives
 * writes it, composed from the leaves' analytic Jacobian hooks through the
 * diagram's connections (the implicit integrators' Newton matrix).
 *
 * Each leaf with continuous state contributes its A block, plus B times the
 * derivative of every connected vector input, and a vector input's
 * derivative is the derivative of the output feeding it: C of that leaf's
 * own continuous state plus D times its inputs' derivatives, for the inputs
 * the output feeds through from. Inputs that are fixed, unconnected or fed
 * from outside ctx's subtree are constants. Abstract inputs are never
 * differentiated: a hook whose results depend on a connected abstract input
 * must decline with TEAL_EUNSUPPORTED (the plant does with contact).
 *
 * The composition is possible when every leaf with continuous state has a
 * hook, and every leaf without one that is reached through a connection
 * has no continuous state and no direct feedthrough from a connected input
 * to the output used (so that output is constant in x: sources, discrete
 * controllers, zero-order holds). teal_state_jacobian_new checks that once;
 * calc allocates nothing. */
#ifndef TEAL_FRAMEWORK_STATE_JACOBIAN_H
#define TEAL_FRAMEWORK_STATE_JACOBIAN_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Workspace of the composed Jacobian of one system (opaque). */
typedef struct teal_state_jacobian teal_state_jacobian;

/** Checks that the Jacobian of ctx's system (leaf or diagram) composes from
 *  analytic hooks and sizes the workspace. NULL with err filled on failure:
 *  TEAL_EUNSUPPORTED naming the leaf that prevents it, TEAL_EINVAL for a
 *  NULL context. Any context of the same system can be used with it. */
TEAL_API teal_state_jacobian *teal_state_jacobian_new(const teal_context *ctx, teal_error *err);

/** Frees a workspace (NULL is ignored). */
TEAL_API void teal_state_jacobian_free(teal_state_jacobian *sj);

/** Writes J = df/dx (n x n row-major, n the continuous state size of the
 *  system) at the time, state and inputs of ctx. A hook that declines
 *  returns TEAL_EUNSUPPORTED with its reason on ctx, so callers can fall
 *  back to finite differences; other failures return their code. */
TEAL_API int teal_state_jacobian_calc(teal_state_jacobian *sj, const teal_context *ctx, double *J);

/** The number of leaf Jacobian hook calls made by calc so far (a cost and
 *  test counter). */
TEAL_API long teal_state_jacobian_hook_calls(const teal_state_jacobian *sj);

#ifdef __cplusplus
}
#endif
#endif
