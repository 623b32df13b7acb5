/* Context accessors: time, state, parameters, fixed inputs, subcontexts.
 * Every _mut accessor and setter bumps the matching version stamp. */
#include <math.h>
#include <string.h>

#include "framework/context_access.h"
#include "framework/system_internal.h"

double teal_context_time(const teal_context *ctx) { return ctx ? ctx->root->time : NAN; }

int teal_context_set_time(teal_context *ctx, double t) {
  if (!ctx) {
    return TEAL_EINVAL;
  }
  if (ctx->parent) {
    return teal_context_report_error(ctx, TEAL_EINVAL,
                                     "set_time: time can only be set on the root "
                                     "context (this is '%s')",
                                     ctx->system->name);
  }
  if (!isfinite(t)) {
    return teal_context_report_error(ctx, TEAL_ENONFINITE, "set_time: time %g is not finite", t);
  }
  ctx->root->time = t;
  teal_stamp_bump(ctx->root, TEAL_STAMP_TIME);
  return TEAL_OK;
}

double teal_context_accuracy(const teal_context *ctx) { return ctx ? ctx->root->accuracy : NAN; }

int teal_context_set_accuracy(teal_context *ctx, double accuracy) {
  if (!ctx) {
    return TEAL_EINVAL;
  }
  if (ctx->parent) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "set_accuracy: root context only");
  }
  if (!(isfinite(accuracy) && accuracy > 0)) {
    return teal_context_report_error(ctx, TEAL_EINVAL,
                                     "set_accuracy: %g must be positive and finite", accuracy);
  }
  ctx->root->accuracy = accuracy;
  teal_stamp_bump(ctx->root, TEAL_STAMP_ACCURACY);
  return TEAL_OK;
}

/* ---- continuous state ------------------------------------------------- */

static void bump_xc(teal_context *ctx) {
  teal_stamp_bump(ctx->root, ctx->stamp_q);
  teal_stamp_bump(ctx->root, ctx->stamp_v);
  teal_stamp_bump(ctx->root, ctx->stamp_z);
}

const double *teal_context_continuous_state(const teal_context *ctx) {
  if (!ctx) {
    return NULL;
  }
  if (ctx->parent) {
    teal_context_report_error(ctx, TEAL_EINVAL,
                              "continuous_state: '%s' is a subcontext; its q, v and z "
                              "are not adjacent (use the q/v/z accessors)",
                              ctx->system->name);
    return NULL;
  }
  return ctx->q;
}

double *teal_context_continuous_state_mut(teal_context *ctx) {
  double *x = (double *)teal_context_continuous_state(ctx);
  if (x) {
    bump_xc(ctx);
  }
  return x;
}

int teal_context_set_continuous_state(teal_context *ctx, const double *x, int n) {
  if (!ctx) {
    return TEAL_EINVAL;
  }
  if (!x && n) {
    return teal_context_report_error(
        ctx, TEAL_EINVAL, "set_continuous_state on '%s': x is NULL (n = %d)", ctx->system->name, n);
  }
  const teal_system *s = ctx->system;
  if (n != s->nq + s->nv + s->nz) {
    return teal_context_report_error(ctx, TEAL_ESIZE,
                                     "set_continuous_state on '%s': got %d values, "
                                     "state has %d",
                                     s->name, n, s->nq + s->nv + s->nz);
  }
  teal_copy_doubles(ctx->q, x, s->nq);
  teal_copy_doubles(ctx->v, x + s->nq, s->nv);
  teal_copy_doubles(ctx->z, x + s->nq + s->nv, s->nz);
  bump_xc(ctx);
  return TEAL_OK;
}

int teal_context_set_time_and_continuous_state(teal_context *ctx, double t, const double *x,
                                               int n) {
  if (!ctx || ctx->parent || !isfinite(t)) {
    return ctx ? teal_context_set_time(ctx, t) : TEAL_EINVAL; /* its message */
  }
  const teal_system *s = ctx->system;
  if (n != s->nq + s->nv + s->nz || (!x && n)) {
    return teal_context_set_continuous_state(ctx, x, n); /* its message */
  }
  teal_copy_doubles(ctx->q, x, n); /* a root's q, v and z are adjacent */
  bump_xc(ctx);
  ctx->root->time = t;
  teal_stamp_bump(ctx->root, TEAL_STAMP_TIME);
  return TEAL_OK;
}

int teal_context_get_continuous_state(const teal_context *ctx, double *x, int n) {
  if (!ctx) {
    return TEAL_EINVAL;
  }
  if (!x && n) {
    return teal_context_report_error(
        ctx, TEAL_EINVAL, "get_continuous_state on '%s': x is NULL (n = %d)", ctx->system->name, n);
  }
  const teal_system *s = ctx->system;
  if (n != s->nq + s->nv + s->nz) {
    return teal_context_report_error(ctx, TEAL_ESIZE,
                                     "get_continuous_state on '%s': room for %d values, "
                                     "state has %d",
                                     s->name, n, s->nq + s->nv + s->nz);
  }
  teal_copy_doubles(x, ctx->q, s->nq);
  teal_copy_doubles(x + s->nq, ctx->v, s->nv);
  teal_copy_doubles(x + s->nq + s->nv, ctx->z, s->nz);
  return TEAL_OK;
}

const double *teal_context_q(const teal_context *ctx) { return ctx ? ctx->q : NULL; }
const double *teal_context_v(const teal_context *ctx) { return ctx ? ctx->v : NULL; }
const double *teal_context_z(const teal_context *ctx) { return ctx ? ctx->z : NULL; }

double *teal_context_q_mut(teal_context *ctx) {
  if (!ctx) {
    return NULL;
  }
  teal_stamp_bump(ctx->root, ctx->stamp_q);
  return ctx->q;
}

double *teal_context_v_mut(teal_context *ctx) {
  if (!ctx) {
    return NULL;
  }
  teal_stamp_bump(ctx->root, ctx->stamp_v);
  return ctx->v;
}

double *teal_context_z_mut(teal_context *ctx) {
  if (!ctx) {
    return NULL;
  }
  teal_stamp_bump(ctx->root, ctx->stamp_z);
  return ctx->z;
}

/* ---- discrete and abstract state -------------------------------------- */

const double *teal_context_discrete_state(const teal_context *ctx) { return ctx ? ctx->xd : NULL; }

double *teal_context_discrete_state_mut(teal_context *ctx) {
  if (!ctx) {
    return NULL;
  }
  teal_stamp_bump(ctx->root, ctx->stamp_xd);
  return ctx->xd;
}

/* Checks a leaf-only index; records an error and returns 0 when invalid. */
static int leaf_index_ok(const teal_context *ctx, int i, int n, const char *what) {
  if (!ctx) {
    return 0;
  }
  if (ctx->system->is_diagram) {
    teal_context_report_error(ctx, TEAL_EINVAL, "%s: '%s' is a diagram; use a leaf's subcontext",
                              what, ctx->system->name);
    return 0;
  }
  if (i < 0 || i >= n) {
    teal_context_report_error(ctx, TEAL_ENOTFOUND, "%s: system '%s' has no index %d (it has %d)",
                              what, ctx->system->name, i, n);
    return 0;
  }
  return 1;
}

const double *teal_context_discrete_group(const teal_context *ctx, int i) {
  if (!leaf_index_ok(ctx, i, ctx ? ctx->system->nxd_groups : 0, "discrete_group")) {
    return NULL;
  }
  return ctx->xd + ctx->system->xd_offsets[i];
}

double *teal_context_discrete_group_mut(teal_context *ctx, int i) {
  double *x = (double *)teal_context_discrete_group(ctx, i);
  if (x) {
    teal_stamp_bump(ctx->root, ctx->stamp_xd_group + i);
  }
  return x;
}

int teal_context_set_discrete_group(teal_context *ctx, int i, const double *x, int n) {
  double *dst = teal_context_discrete_group_mut(ctx, i);
  if (!dst) {
    return ctx ? ctx->root->err.code : TEAL_EINVAL;
  }
  if (n != ctx->system->xd_sizes[i] || (!x && n)) {
    return teal_context_report_error(ctx, TEAL_ESIZE,
                                     "set_discrete_group %d on '%s': got %d values%s, "
                                     "group has %d",
                                     i, ctx->system->name, n, x ? "" : " (x is NULL)",
                                     ctx->system->xd_sizes[i]);
  }
  teal_copy_doubles(dst, x, n);
  return TEAL_OK;
}

const void *teal_context_abstract_state(const teal_context *ctx, int i) {
  if (!leaf_index_ok(ctx, i, ctx ? ctx->system->nxa : 0, "abstract_state")) {
    return NULL;
  }
  return ctx->xa[i];
}

void *teal_context_abstract_state_mut(teal_context *ctx, int i) {
  void *x = (void *)teal_context_abstract_state(ctx, i);
  if (x) {
    teal_stamp_bump(ctx->root, ctx->stamp_xa + i);
  }
  return x;
}

int teal_context_set_abstract_state(teal_context *ctx, int i, const void *value) {
  void *dst = teal_context_abstract_state_mut(ctx, i);
  if (!dst) {
    return ctx ? ctx->root->err.code : TEAL_EINVAL;
  }
  if (!value) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "set_abstract_state: NULL value");
  }
  int rc = teal_value_copy(ctx->system->xa_types[i], dst, value);
  if (rc) {
    return teal_context_report_error(ctx, rc, "set_abstract_state %d on '%s': copy failed", i,
                                     ctx->system->name);
  }
  return TEAL_OK;
}

const void *teal_context_scratch(const teal_context *ctx, int i) {
  if (!leaf_index_ok(ctx, i, ctx ? ctx->system->nscratch : 0, "scratch")) {
    return NULL;
  }
  return ctx->scratch[i];
}

void *teal_context_scratch_mut(const teal_context *ctx, int i) {
  return (void *)teal_context_scratch(ctx, i);
}

/* ---- parameters ------------------------------------------------------- */

const double *teal_context_numeric_parameter(const teal_context *ctx, int i) {
  if (!leaf_index_ok(ctx, i, ctx ? ctx->system->nparams : 0, "numeric_parameter")) {
    return NULL;
  }
  return ctx->p + ctx->system->p_offsets[i];
}

double *teal_context_numeric_parameter_mut(teal_context *ctx, int i) {
  double *p = (double *)teal_context_numeric_parameter(ctx, i);
  if (p) {
    teal_stamp_bump(ctx->root, ctx->stamp_p + i);
  }
  return p;
}

int teal_context_set_numeric_parameter(teal_context *ctx, int i, const double *p, int n) {
  double *dst = teal_context_numeric_parameter_mut(ctx, i);
  if (!dst) {
    return ctx ? ctx->root->err.code : TEAL_EINVAL;
  }
  if (n != ctx->system->p_sizes[i] || (!p && n)) {
    return teal_context_report_error(ctx, TEAL_ESIZE,
                                     "set_numeric_parameter %d on '%s': got %d values%s, "
                                     "parameter has %d",
                                     i, ctx->system->name, n, p ? "" : " (p is NULL)",
                                     ctx->system->p_sizes[i]);
  }
  teal_copy_doubles(dst, p, n);
  return TEAL_OK;
}
