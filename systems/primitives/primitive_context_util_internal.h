/* Helpers shared by the stateful primitives (holds, filters, sources,
 * sinks, controllers): finalizing with messages that name the system, and
 * finding a tagged leaf's own context from a root or diagram context. Not
 * installed; complements primitive_util_internal.h. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_PRIMITIVE_CONTEXT_UTIL_INTERNAL_H
#define TEAL_SYSTEMS_PRIMITIVES_PRIMITIVE_CONTEXT_UTIL_INTERNAL_H

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"

/** Tags sys with tag and finalizes it. On success clears err and returns
 *  sys; otherwise sets err to "<kind> '<name>': <the system's error>"
 *  (framework declaration messages do not always name the system), frees
 *  sys and returns NULL. sys NULL (teal_leaf_new out of memory) gives
 *  TEAL_ENOMEM. */
teal_system *teal_prim_finish_tagged(teal_system *sys, const void *tag, const char *kind,
                                     const char *name, teal_error *err);

/** The context of leaf sys inside ctx (ctx itself when it is sys's), when
 *  sys carries tag. NULL otherwise, with *status (may be NULL) set to
 *  TEAL_EINVAL (NULL argument or another kind of system) or TEAL_ENOTFOUND
 *  (sys is not in ctx). */
const teal_context *teal_prim_own_context(const teal_system *sys, const void *tag,
                                          const teal_context *ctx, int *status);

/** teal_prim_own_context for a writable ctx. */
teal_context *teal_prim_own_context_mut(const teal_system *sys, const void *tag,
                                        teal_context *ctx, int *status);

#endif
