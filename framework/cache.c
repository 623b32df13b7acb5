/* Cached evaluation: a slot is up to date when none of the stamps it
 * depends on moved since it was computed. The message formatting lives in
 * cold out-of-line functions so the hot path needs no large stack frame. */
#include <stdio.h>

#include "framework/system_internal.h"

static int __attribute__((noinline, cold))
calc_failed(teal_context *ctx, const teal_cache_decl *decl, int rc, unsigned long serial) {
  char what[160];
  snprintf(what, sizeof what, "computing '%s'", decl->name);
  return teal_callback_failed(ctx, rc, serial, what);
}

static int __attribute__((noinline, cold))
reentered(teal_context *ctx, const teal_cache_decl *decl) {
  char path[256];
  return teal_context_report_error(ctx, TEAL_EALGLOOP,
                                   "algebraic loop: '%s' of system '%s' was needed while computing "
                                   "itself",
                                   decl->name, teal_system_path(ctx->system, path, sizeof path));
}

/* Runs a declaration's calc into out, recording a message if the callback
 * failed without one. */
static inline int run_calc(teal_context *ctx, const teal_cache_decl *decl, void *out) {
  unsigned long serial = ctx->root->error_serial;
  int rc = decl->vector_calc ? decl->vector_calc(ctx->system, ctx, out, decl->user)
                             : decl->abstract_calc(ctx->system, ctx, out, decl->user);
  return rc == TEAL_OK ? TEAL_OK : calc_failed(ctx, decl, rc, serial);
}

int teal_slot_eval(teal_cache_slot *s, const void **value) { return teal_slot_get(s, value); }

int teal_slot_recompute(teal_cache_slot *s, const void **value) {
  if (s->evaluating) {
    return reentered(s->owner, s->decl);
  }
  s->evaluating = 1;
  uint64_t now = s->root->counter;
  int rc = run_calc(s->owner, s->decl, s->value);
  s->evaluating = 0;
  s->computed_at = rc ? 0 : now;
  s->verified_at = s->computed_at;
  *value = s->value;
  return rc;
}

int teal_slot_calc(const teal_cache_slot *s, void *out) { return run_calc(s->owner, s->decl, out); }
