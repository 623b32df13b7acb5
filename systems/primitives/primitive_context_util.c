/* Helpers shared by the stateful primitives (see
 * primitive_context_util_internal.h). */
#include "systems/primitives/primitive_context_util_internal.h"

#include "systems/primitives/primitive_util_internal.h"

teal_system *teal_prim_finish_tagged(teal_system *sys, const void *tag, const char *kind,
                                     const char *name, teal_error *err) {
  if (!sys) {
    teal_error_set(err, TEAL_ENOMEM, "%s '%s': out of memory", kind, teal_prim_name(name));
    return NULL;
  }
  teal_leaf_set_type_tag(sys, tag);
  if (teal_leaf_finalize(sys) != TEAL_OK) {
    const teal_error *e = teal_system_error(sys);
    teal_error_set(err, e->code, "%s '%s': %s", kind, teal_prim_name(name), e->message);
    teal_system_free(sys);
    return NULL;
  }
  teal_error_clear(err);
  return sys;
}

const teal_context *teal_prim_own_context(const teal_system *sys, const void *tag,
                                          const teal_context *ctx, int *status) {
  int rc = TEAL_OK;
  const teal_context *own = NULL;
  if (!sys || !ctx || teal_system_type_tag(sys) != tag) {
    rc = TEAL_EINVAL;
  } else if (!(own = teal_context_subcontext(ctx, sys))) {
    rc = TEAL_ENOTFOUND;
  }
  if (status) {
    *status = rc;
  }
  return own;
}

teal_context *teal_prim_own_context_mut(const teal_system *sys, const void *tag,
                                        teal_context *ctx, int *status) {
  return (teal_context *)teal_prim_own_context(sys, tag, ctx, status);
}
