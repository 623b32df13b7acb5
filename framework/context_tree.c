/* Finding subsystem contexts by system handle or by path name. */
#include <string.h>

#include "framework/context_tree.h"
#include "framework/system_internal.h"

/* The ancestor of s that is `up` levels above it. */
static const teal_system *ancestor(const teal_system *s, int up) {
  while (up-- > 0) {
    s = s->parent;
  }
  return s;
}

const teal_context *teal_context_subcontext(const teal_context *ctx, const teal_system *sub) {
  if (!ctx) {
    return NULL;
  }
  if (!sub) {
    teal_context_report_error(ctx, TEAL_EINVAL, "subcontext: NULL system");
    return NULL;
  }
  /* count the levels from sub up to ctx's system, then descend from ctx */
  int depth = 0;
  const teal_system *s = sub;
  while (s && s != ctx->system) {
    depth++;
    s = s->parent;
  }
  if (!s) {
    teal_context_report_error(ctx, TEAL_ENOTFOUND, "subcontext: system '%s' is not inside '%s'",
                              sub->name, ctx->system->name);
    return NULL;
  }
  const teal_context *c = ctx;
  for (int k = depth - 1; k >= 0; k--) {
    c = c->children[ancestor(sub, k)->index_in_parent];
  }
  return c;
}

teal_context *teal_context_subcontext_mut(teal_context *ctx, const teal_system *sub) {
  return (teal_context *)teal_context_subcontext(ctx, sub);
}

/* Child of a diagram context whose system is named name[0..len). */
static const teal_context *child_named(const teal_context *c, const char *name, size_t len) {
  const teal_system *sys = c->system;
  for (int k = 0; sys->is_diagram && k < sys->nchildren; k++) {
    const char *cn = sys->children[k]->name;
    if (strlen(cn) == len && strncmp(cn, name, len) == 0) {
      return c->children[k];
    }
  }
  return NULL;
}

const teal_context *teal_context_subcontext_by_name(const teal_context *ctx, const char *path) {
  if (!ctx) {
    return NULL;
  }
  if (!path) {
    teal_context_report_error(ctx, TEAL_EINVAL, "subcontext_by_name: NULL path");
    return NULL;
  }
  const teal_context *c = ctx;
  const char *p = path;
  while (*p) {
    size_t len = strcspn(p, "/");
    c = len ? child_named(c, p, len) : c;
    if (!c) {
      teal_context_report_error(ctx, TEAL_ENOTFOUND,
                                "subcontext_by_name: no subsystem '%s' in '%s'", path,
                                ctx->system->name);
      return NULL;
    }
    p += len;
    p += *p == '/';
  }
  return c;
}

teal_context *teal_context_subcontext_by_name_mut(teal_context *ctx, const char *path) {
  return (teal_context *)teal_context_subcontext_by_name(ctx, path);
}
