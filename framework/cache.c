/* Cached evaluation: a slot is up to date when none of the stamps it
 * depends on moved since it was computed. */
#include "framework/system_internal.h"

/* Runs a declaration's calc into out, recording a message if the callback
 * failed without one. */
static int run_calc(teal_context *ctx, const teal_cache_decl *decl, void *out) {
  teal_context_root *root = ctx->root;
  unsigned long serial = root->error_serial;
  int rc = decl->vector_calc ? decl->vector_calc(ctx->system, ctx, out, decl->user)
                             : decl->abstract_calc(ctx->system, ctx, out, decl->user);
  if (rc == TEAL_OK) {
    return TEAL_OK;
  }
  if (rc > 0) {
    rc = TEAL_ECALLBACK;
  }
  if (root->error_serial == serial) {
    char path[256];
    teal_context_fail(ctx, rc, "computing '%s' of system '%s' failed: %s", decl->name,
                      teal_system_path(ctx->system, path, sizeof path), teal_strerror(rc));
  }
  return rc;
}

int teal_slot_eval(teal_context *ctx, int i, const void **value) {
  teal_cache_slot *s = &ctx->slots[i];
  if (teal_slot_valid(ctx->root, s)) {
    *value = s->value;
    return TEAL_OK;
  }
  return teal_slot_recompute(ctx, i, value);
}

int teal_slot_recompute(teal_context *ctx, int i, const void **value) {
  teal_cache_slot *s = &ctx->slots[i];
  teal_context_root *root = ctx->root;
  if (s->evaluating) {
    char path[256];
    return teal_context_fail(ctx, TEAL_EALGLOOP,
                             "algebraic loop: '%s' of system '%s' was needed while computing "
                             "itself", s->decl->name,
                             teal_system_path(ctx->system, path, sizeof path));
  }
  s->evaluating = 1;
  uint64_t now = root->counter;
  int rc = run_calc(ctx, s->decl, s->value);
  s->evaluating = 0;
  if (rc) {
    s->computed_at = 0;
    return rc;
  }
  s->computed_at = now;
  *value = s->value;
  return TEAL_OK;
}

int teal_slot_calc(teal_context *ctx, int i, void *out) {
  return run_calc(ctx, ctx->slots[i].decl, out);
}
