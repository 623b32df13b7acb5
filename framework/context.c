/* Context lifecycle (defaults, clone, copy, free) and error reporting. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/system_internal.h"

static int vfail(const teal_context *ctx, int code, const char *fmt, va_list ap) {
  teal_context_root *root = ctx->root;
  root->err.code = code;
  vsnprintf(root->err.message, sizeof root->err.message, fmt, ap);
  root->error_serial++;
  return code;
}

int teal_context_report_error(const teal_context *ctx, int code, const char *fmt, ...) {
  if (!ctx) {
    return code;
  }
  va_list ap;
  va_start(ap, fmt);
  vfail(ctx, code, fmt, ap);
  va_end(ap);
  return code;
}

int teal_callback_failed(const teal_context *ctx, int rc, unsigned long serial, const char *what) {
  if (rc == TEAL_OK) {
    return TEAL_OK;
  }
  if (rc > 0) {
    rc = TEAL_ECALLBACK;
  }
  if (ctx->root->error_serial == serial) {
    char path[256];
    teal_context_report_error(ctx, rc, "%s of system '%s' failed: %s", what,
                              teal_system_path(ctx->system, path, sizeof path), teal_strerror(rc));
  }
  return rc;
}

const teal_error *teal_context_error(const teal_context *ctx) {
  return ctx ? &ctx->root->err : NULL;
}

unsigned long teal_context_error_count(const teal_context *ctx) {
  return ctx ? ctx->root->error_serial : 0;
}

int teal_check_context(const teal_system *sys, const teal_context *ctx) {
  if (!ctx) {
    return TEAL_EINVAL;
  }
  if (!sys) {
    return teal_context_report_error(
        ctx, TEAL_EINVAL, "NULL system passed with the context of system '%s'", ctx->system->name);
  }
  if (ctx->system != sys) {
    return teal_context_report_error(ctx, TEAL_EINVAL,
                                     "context of system '%s' passed with system '%s'",
                                     ctx->system->name, sys->name);
  }
  return TEAL_OK;
}

const teal_system *teal_context_system(const teal_context *ctx) { return ctx ? ctx->system : NULL; }

int teal_context_is_root(const teal_context *ctx) { return ctx && !ctx->parent; }

void teal_context_set_caching(teal_context *ctx, int enabled) {
  if (ctx) {
    ctx->root->caching_disabled = !enabled;
  }
}

/* Marks every source changed, so every cached value is out of date. */
static void invalidate_all(teal_context_root *root) {
  root->counter++;
  for (int s = 0; s < root->nstamps; s++) {
    root->stamps[s] = root->counter;
  }
}

static void write_leaf_defaults(teal_context *leaf) {
  const teal_system *sys = leaf->system;
  teal_copy_doubles(leaf->q, sys->xc0, sys->nq);
  teal_copy_doubles(leaf->v, sys->xc0 + sys->nq, sys->nv);
  teal_copy_doubles(leaf->z, sys->xc0 + sys->nq + sys->nv, sys->nz);
  teal_copy_doubles(leaf->xd, sys->xd0, sys->nxd);
  teal_copy_doubles(leaf->p, sys->p0, sys->np);
}

static int copy_leaf_abstract_defaults(teal_context *leaf) {
  const teal_system *sys = leaf->system;
  for (int i = 0; i < sys->nxa; i++) {
    int rc = teal_value_copy(sys->xa_types[i], leaf->xa[i], sys->xa_models[i]);
    if (rc) {
      return teal_context_report_error(leaf, rc, "copying default abstract state %d of '%s' failed",
                                       i, sys->name);
    }
  }
  return TEAL_OK;
}

int teal_context_set_to_defaults(teal_context *ctx) {
  if (!ctx) {
    return TEAL_EINVAL;
  }
  teal_context_root *root = ctx->root;
  for (int k = ctx->leaf_begin; k < ctx->leaf_end; k++) {
    write_leaf_defaults(root->leaves[k]);
    int rc = copy_leaf_abstract_defaults(root->leaves[k]);
    if (rc) {
      invalidate_all(root);
      return rc;
    }
  }
  if (!ctx->parent) {
    root->time = 0.0;
  }
  invalidate_all(root);
  return TEAL_OK;
}

/* Scratch values start as copies of their models (set_to_defaults keeps
 * them: a log survives a reset). */
static int copy_scratch_models(teal_context_root *root) {
  for (int k = 0; k < root->nleaves; k++) {
    const teal_context *leaf = root->leaves[k];
    const teal_system *sys = leaf->system;
    for (int i = 0; i < sys->nscratch; i++) {
      int rc = teal_value_copy(sys->scratch_types[i], leaf->scratch[i], sys->scratch_models[i]);
      if (rc) {
        return rc;
      }
    }
  }
  return TEAL_OK;
}

int teal_context_init_values(teal_context *ctx) {
  teal_context_root *root = ctx->root;
  for (; root->ninitialized < root->nabstracts; root->ninitialized++) {
    teal_abstract_value *a = &root->abstracts[root->ninitialized];
    int rc = teal_value_init(a->type, a->ptr);
    if (rc) {
      return rc;
    }
  }
  int rc = copy_scratch_models(root);
  if (rc) {
    return rc;
  }
  root->counter = 1;
  root->accuracy = 0.0; /* unset until teal_context_set_accuracy */
  return teal_context_set_to_defaults(ctx);
}

void teal_context_free(teal_context *ctx) {
  if (!ctx || ctx->parent) {
    return;
  }
  teal_context_root *root = ctx->root;
  for (int i = 0; i < root->ninitialized; i++) {
    teal_value_release(root->abstracts[i].type, root->abstracts[i].ptr);
  }
  teal_free(root->deps_block);
  teal_free(root->block);
}

/* Copies fixed input values of every node (same layout in both trees). */
static int copy_fixed_inputs(teal_context_root *dst, const teal_context_root *src) {
  for (int n = 0; n < src->nnodes; n++) {
    const teal_context *s = src->nodes[n];
    teal_context *d = dst->nodes[n];
    for (int i = 0; i < s->system->ninputs; i++) {
      const teal_input_port *port = s->system->inputs[i];
      d->in[i].is_fixed = s->in[i].is_fixed;
      if (!s->in[i].is_fixed) {
        continue;
      }
      if (port->is_abstract) {
        int rc = teal_value_copy(port->type, d->in[i].fixed_value, s->in[i].fixed_value);
        if (rc) {
          return rc;
        }
      } else {
        teal_copy_doubles(d->in[i].fixed_value, s->in[i].fixed_value, port->size);
      }
    }
  }
  return TEAL_OK;
}

/* Copies abstract state and scratch values, leaf by leaf. */
static int copy_abstract_values(teal_context_root *dst, const teal_context_root *src) {
  for (int k = 0; k < src->nleaves; k++) {
    const teal_context *s = src->leaves[k];
    const teal_system *sys = s->system;
    for (int i = 0; i < sys->nxa; i++) {
      int rc = teal_value_copy(sys->xa_types[i], dst->leaves[k]->xa[i], s->xa[i]);
      if (rc) {
        return rc;
      }
    }
    for (int i = 0; i < sys->nscratch; i++) {
      int rc = teal_value_copy(sys->scratch_types[i], dst->leaves[k]->scratch[i], s->scratch[i]);
      if (rc) {
        return rc;
      }
    }
  }
  return TEAL_OK;
}

int teal_context_copy_from(teal_context *dst, const teal_context *src) {
  if (!dst) {
    return TEAL_EINVAL;
  }
  if (!src) {
    return teal_context_report_error(dst, TEAL_EINVAL, "copy_from: NULL source context");
  }
  if (dst->system != src->system || dst->parent || src->parent) {
    return teal_context_report_error(dst, TEAL_EINVAL,
                                     "copy_from: contexts must be roots of the same system");
  }
  const teal_system *sys = src->system;
  teal_context_root *root = dst->root;
  root->time = src->root->time;
  root->accuracy = src->root->accuracy;
  teal_copy_doubles(dst->q, src->q, sys->nq + sys->nv + sys->nz);
  teal_copy_doubles(dst->xd, src->xd, sys->nxd);
  for (int k = 0; k < src->root->nleaves; k++) {
    const teal_context *s = src->root->leaves[k];
    teal_copy_doubles(root->leaves[k]->p, s->p, s->system->np);
  }
  int rc = copy_abstract_values(root, src->root);
  if (rc == TEAL_OK) {
    rc = copy_fixed_inputs(root, src->root);
  }
  invalidate_all(root);
  if (rc) {
    return teal_context_report_error(dst, rc, "copy_from: copying an abstract value failed");
  }
  return TEAL_OK;
}

teal_context *teal_context_new(const teal_system *sys, teal_error *err) {
  if (!sys) {
    teal_error_set(err, TEAL_EINVAL, "context_new: NULL system");
    return NULL;
  }
  if (sys->parent) {
    teal_error_set(err, TEAL_EINVAL,
                   "context_new: system '%s' belongs to a diagram; create the root's context "
                   "and use teal_context_subcontext",
                   sys->name);
    return NULL;
  }
  if (!sys->finalized) {
    teal_error_set(err, TEAL_ESTATE, "context_new: system '%s' is not %s", sys->name,
                   sys->is_diagram ? "built" : "finalized");
    return NULL;
  }
  return teal_context_layout(sys, err);
}

teal_context *teal_context_clone(const teal_context *ctx, teal_error *err) {
  if (!ctx || ctx->parent) {
    teal_error_set(err, TEAL_EINVAL, "context_clone: %s", ctx ? "not a root context" : "NULL");
    return NULL;
  }
  /* Not teal_context_new: a root context stays cloneable after its system
   * joins a diagram (an observer's private model may be a diagram's plant). */
  teal_context *copy = teal_context_layout(ctx->system, err);
  if (copy && teal_context_copy_from(copy, ctx) != TEAL_OK) {
    teal_error_copy(err, &copy->root->err);
    teal_context_free(copy);
    return NULL;
  }
  return copy;
}
