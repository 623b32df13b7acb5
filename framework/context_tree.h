/** @file
 * Navigating a context tree (context_tree.c): the context of a subsystem,
 * by system handle or by slash-separated path. */
#ifndef TEAL_FRAMEWORK_CONTEXT_TREE_H
#define TEAL_FRAMEWORK_CONTEXT_TREE_H

#include "teal_export.h"

#include "framework/system_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Context of subsystem sub (any depth below ctx's system), or NULL (error
 *  recorded). When sub is ctx's own system the result is ctx itself, so a
 *  leaf's callbacks can look up their own context in a context of the leaf
 *  or of any diagram containing it. */
TEAL_API const teal_context *teal_context_subcontext(const teal_context *ctx,
                                                     const teal_system *sub);
/** Writable teal_context_subcontext. */
TEAL_API teal_context *teal_context_subcontext_mut(teal_context *ctx, const teal_system *sub);
/** Context of a subsystem by slash-separated path relative to ctx's system
 *  ("controller" or "plant_group/arm"), or NULL. */
TEAL_API const teal_context *
teal_context_subcontext_by_name(const teal_context *ctx, const char *path);
/** Writable teal_context_subcontext_by_name. */
TEAL_API teal_context *teal_context_subcontext_by_name_mut(teal_context *ctx, const char *path);

#ifdef __cplusplus
}
#endif
#endif
