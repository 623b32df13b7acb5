/* Input and output port evaluation, and fixed input values. */
#include <math.h>
#include <string.h>

#include "framework/ports.h"
#include "framework/system_internal.h"

/* The error for a NULL pointer where a result is to be stored. */
static int null_result(const teal_context *ctx, const char *what) {
  return teal_context_report_error(ctx, TEAL_EINVAL, "%s on '%s': NULL result pointer", what,
                                   ctx->system->name);
}

/* Validates (sys, ctx, port index, kind) for the port functions. */
static int check_port(const teal_system *sys, const teal_context *ctx, int port, int is_input,
                      int want_abstract, const void *out, const char *what) {
  int rc = teal_check_context(sys, ctx);
  if (rc) {
    return rc;
  }
  if (!out) {
    return null_result(ctx, what);
  }
  int n = is_input ? sys->ninputs : sys->noutputs;
  if (port < 0 || port >= n) {
    return teal_context_report_error(ctx, TEAL_ENOTFOUND,
                                     "%s: system '%s' has no %s port %d (it has %d)", what,
                                     sys->name, is_input ? "input" : "output", port, n);
  }
  int is_abstract = is_input ? sys->inputs[port]->is_abstract : sys->outputs[port]->is_abstract;
  if (is_abstract != want_abstract) {
    const char *name = is_input ? sys->inputs[port]->name : sys->outputs[port]->name;
    return teal_context_report_error(ctx, TEAL_ETYPE, "%s: port '%s' of system '%s' is %s", what,
                                     name, sys->name, is_abstract ? "abstract" : "a vector port");
  }
  return TEAL_OK;
}

static int eval_input(const teal_context *ctx, int port, const void **value) {
  const teal_input_slot *in = &ctx->in[port];
  if (in->src) {
    return teal_slot_get(in->src, value);
  }
  if (in->home->is_fixed) {
    *value = in->home->fixed_value;
    return TEAL_OK;
  }
  char path[256];
  return teal_context_report_error(
      ctx, TEAL_ENOTCONNECTED,
      "input port '%s' of system '%s' is not connected and has no fixed "
      "value",
      ctx->system->inputs[port]->name, teal_system_path(ctx->system, path, sizeof path));
}

/* Everything but the hot path of teal_eval_vector_input, kept out of line
 * so the hot path needs no stack frame. */
static int __attribute__((noinline))
eval_vector_input_checked(const teal_system *sys, const teal_context *ctx, int port,
                          const double **value) {
  int rc = check_port(sys, ctx, port, 1, 0, value, "eval_vector_input");
  return rc ? rc : eval_input(ctx, port, (const void **)value);
}

int teal_eval_vector_input(const teal_system *sys, const teal_context *ctx, int port,
                           const double **value) {
  /* hot path: a connected vector port of the right system, up to date */
  if (ctx && ctx->system == sys && (unsigned)port < (unsigned)sys->ninputs && value) {
    teal_cache_slot *src = ctx->in[port].vector_src;
    if (src) {
      return teal_slot_get(src, (const void **)value);
    }
  }
  return eval_vector_input_checked(sys, ctx, port, value);
}

int teal_input_has_value(const teal_system *sys, const teal_context *ctx, int port) {
  int rc = teal_check_context(sys, ctx);
  if (rc) {
    return rc;
  }
  if (port < 0 || port >= sys->ninputs) {
    return teal_context_report_error(ctx, TEAL_ENOTFOUND,
                                     "input_has_value: system '%s' has no input port %d",
                                     sys->name, port);
  }
  const teal_input_slot *in = &ctx->in[port];
  return (in->src || in->home->is_fixed) ? 1 : 0;
}

int teal_eval_abstract_input(const teal_system *sys, const teal_context *ctx, int port,
                             const void **value) {
  int rc = check_port(sys, ctx, port, 1, 1, value, "eval_abstract_input");
  return rc ? rc : eval_input(ctx, port, value);
}

/* The cache slot that computes output port of ctx. */
static teal_cache_slot *output_source(const teal_context *ctx, int port) {
  if (ctx->system->is_diagram) {
    return ctx->out_src[port];
  }
  return &ctx->slots[ctx->system->outputs[port]->cache_index];
}

int teal_eval_vector_output(const teal_system *sys, const teal_context *ctx, int port,
                            const double **value) {
  int rc = check_port(sys, ctx, port, 0, 0, value, "eval_vector_output");
  if (rc) {
    return rc;
  }
  return teal_slot_get(output_source(ctx, port), (const void **)value);
}

int teal_eval_abstract_output(const teal_system *sys, const teal_context *ctx, int port,
                              const void **value) {
  int rc = check_port(sys, ctx, port, 0, 1, value, "eval_abstract_output");
  if (rc) {
    return rc;
  }
  return teal_slot_get(output_source(ctx, port), value);
}

int teal_calc_vector_output(const teal_system *sys, const teal_context *ctx, int port,
                            double *out) {
  int rc = check_port(sys, ctx, port, 0, 0, out, "calc_vector_output");
  if (rc) {
    return rc;
  }
  return teal_slot_calc(output_source(ctx, port), out);
}

int teal_calc_abstract_output(const teal_system *sys, const teal_context *ctx, int port,
                              void *out) {
  int rc = check_port(sys, ctx, port, 0, 1, out, "calc_abstract_output");
  if (rc) {
    return rc;
  }
  return teal_slot_calc(output_source(ctx, port), out);
}

int teal_eval_cache_entry(const teal_system *sys, const teal_context *ctx, int entry,
                          const void **value) {
  int rc = teal_check_context(sys, ctx);
  if (rc) {
    return rc;
  }
  if (sys->is_diagram || entry < 0 || entry >= sys->nentries) {
    return teal_context_report_error(ctx, TEAL_ENOTFOUND,
                                     "eval_cache_entry: system '%s' has no cache "
                                     "entry %d",
                                     sys->name, entry);
  }
  if (!value) {
    return null_result(ctx, "eval_cache_entry");
  }
  return teal_slot_get(&ctx->slots[sys->entry_cache[entry]], value);
}

/* The slot of a leaf's declared cache entry, or NULL after reporting on ctx. */
static teal_cache_slot *entry_slot(const teal_system *sys, const teal_context *ctx, int entry,
                                   const char *what, int *rc) {
  *rc = teal_check_context(sys, ctx);
  if (*rc) {
    return NULL;
  }
  if (sys->is_diagram || entry < 0 || entry >= sys->nentries) {
    *rc = teal_context_report_error(ctx, TEAL_ENOTFOUND, "%s: system '%s' has no cache entry %d",
                                    what, sys->name, entry);
    return NULL;
  }
  return &ctx->slots[sys->entry_cache[entry]];
}

int teal_cache_entry_is_up_to_date(const teal_system *sys, const teal_context *ctx, int entry) {
  int rc;
  teal_cache_slot *s = entry_slot(sys, ctx, entry, "cache_entry_is_up_to_date", &rc);
  return s ? teal_slot_valid(s->root, s) : rc;
}

int teal_cache_entry_invalidate(const teal_system *sys, teal_context *ctx, int entry) {
  int rc;
  teal_cache_slot *s = entry_slot(sys, ctx, entry, "cache_entry_invalidate", &rc);
  if (s) {
    s->computed_at = 0; /* "never computed": the next evaluation recomputes */
    s->verified_at = 0;
  }
  return s ? TEAL_OK : rc;
}

/* ---- fixed inputs ----------------------------------------------------- */

/* The port may hold a fixed value only where it is the unconnected end. */
static int check_fixable(teal_context *ctx, int port, const char *what) {
  if (!ctx) {
    return TEAL_EINVAL;
  }
  const teal_system *sys = ctx->system;
  if (port < 0 || port >= sys->ninputs) {
    return teal_context_report_error(ctx, TEAL_ENOTFOUND, "%s: system '%s' has no input port %d",
                                     what, sys->name, port);
  }
  teal_input_slot *in = &ctx->in[port];
  if (in->home != in) {
    char path[256];
    return teal_context_report_error(
        ctx, TEAL_EINVAL,
        "%s: input '%s' of system '%s' is connected inside its diagram; "
        "fix the diagram's exported input instead",
        what, sys->inputs[port]->name, teal_system_path(sys, path, sizeof path));
  }
  return TEAL_OK;
}

int teal_context_fix_input(teal_context *ctx, int port, const double *value, int n) {
  int rc = check_fixable(ctx, port, "fix_input");
  if (rc) {
    return rc;
  }
  const teal_input_port *p = ctx->system->inputs[port];
  if (p->is_abstract) {
    return teal_context_report_error(ctx, TEAL_ETYPE, "fix_input: port '%s' of '%s' is abstract",
                                     p->name, ctx->system->name);
  }
  if (!value && n) {
    return teal_context_report_error(ctx, TEAL_EINVAL,
                                     "fix_input: port '%s' of '%s': value is NULL (the port "
                                     "takes %d values)",
                                     p->name, ctx->system->name, p->size);
  }
  if (n != p->size) {
    return teal_context_report_error(ctx, TEAL_ESIZE,
                                     "fix_input: port '%s' of '%s' has size %d, got %d", p->name,
                                     ctx->system->name, p->size, n);
  }
  for (int i = 0; i < n; i++) {
    if (isnan(value[i])) {
      return teal_context_report_error(ctx, TEAL_ENONFINITE,
                                       "fix_input: port '%s' of '%s': value %d "
                                       "is NaN",
                                       p->name, ctx->system->name, i);
    }
  }
  teal_input_slot *in = &ctx->in[port];
  if (n) {
    teal_copy_doubles(in->fixed_value, value, n);
  }
  in->is_fixed = 1;
  teal_stamp_bump(ctx->root, in->stamp);
  return TEAL_OK;
}

int teal_context_fix_abstract_input(teal_context *ctx, int port, const void *value) {
  int rc = check_fixable(ctx, port, "fix_abstract_input");
  if (rc) {
    return rc;
  }
  const teal_input_port *p = ctx->system->inputs[port];
  if (!p->is_abstract) {
    return teal_context_report_error(ctx, TEAL_ETYPE,
                                     "fix_abstract_input: port '%s' of '%s' is a "
                                     "vector port",
                                     p->name, ctx->system->name);
  }
  if (!value) {
    return teal_context_report_error(ctx, TEAL_EINVAL,
                                     "fix_abstract_input: NULL value for port '%s' "
                                     "of '%s'",
                                     p->name, ctx->system->name);
  }
  teal_input_slot *in = &ctx->in[port];
  rc = teal_value_copy(p->type, in->fixed_value, value);
  if (rc) {
    return teal_context_report_error(ctx, rc, "fix_abstract_input: copying a '%s' failed",
                                     p->type->name);
  }
  in->is_fixed = 1;
  teal_stamp_bump(ctx->root, in->stamp);
  return TEAL_OK;
}

int teal_context_unfix_input(teal_context *ctx, int port) {
  int rc = check_fixable(ctx, port, "unfix_input");
  if (rc) {
    return rc;
  }
  ctx->in[port].is_fixed = 0;
  teal_stamp_bump(ctx->root, ctx->in[port].stamp);
  return TEAL_OK;
}

int teal_context_input_is_fixed(const teal_context *ctx, int port) {
  if (!ctx || port < 0 || port >= ctx->system->ninputs) {
    return 0;
  }
  return ctx->in[port].home == &ctx->in[port] && ctx->in[port].is_fixed;
}
