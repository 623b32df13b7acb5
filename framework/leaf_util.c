/* Helpers for writing leaf systems (see leaf_util.h). */
#include "framework/leaf_util.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"

const char *teal_leaf_util_name(const char *name) {
  return name && *name ? name : "leaf";
}

int teal_leaf_util_check_count(teal_error *err, const char *kind, const char *name,
                               const char *what, int count, int min) {
  if (count >= min) {
    return TEAL_OK;
  }
  return teal_error_set(err, TEAL_ESIZE, "%s '%s': %s = %d must be >= %d", kind,
                        teal_leaf_util_name(name), what, count, min);
}

static int check_array(teal_error *err, const char *kind, const char *name, const char *what,
                       const double *v, int n, int allow_inf) {
  if (n > 0 && !v) {
    return teal_error_set(err, TEAL_EINVAL, "%s '%s': %s is NULL", kind, teal_leaf_util_name(name),
                          what);
  }
  for (int i = 0; i < n; i++) {
    if (isnan(v[i]) || (!allow_inf && isinf(v[i]))) {
      return teal_error_set(err, TEAL_ENONFINITE, "%s '%s': %s[%d] = %g is not %s", kind,
                            teal_leaf_util_name(name), what, i, v[i],
                            allow_inf ? "a number" : "finite");
    }
  }
  return TEAL_OK;
}

int teal_leaf_util_check_finite(teal_error *err, const char *kind, const char *name,
                                const char *what, const double *v, int n) {
  return check_array(err, kind, name, what, v, n, 0);
}

int teal_leaf_util_check_not_nan(teal_error *err, const char *kind, const char *name,
                                 const char *what, const double *v, int n) {
  return check_array(err, kind, name, what, v, n, 1);
}

int teal_leaf_util_check_scalar(teal_error *err, const char *kind, const char *name,
                                const char *what, double x) {
  if (isfinite(x)) {
    return TEAL_OK;
  }
  return teal_error_set(err, TEAL_ENONFINITE, "%s '%s': %s = %g is not finite", kind,
                        teal_leaf_util_name(name), what, x);
}

int teal_leaf_util_check_sizes(teal_error *err, const char *kind, const char *name,
                               const char *what, const int *sizes, int count, int *offsets) {
  if (!sizes) {
    return teal_error_set(err, TEAL_EINVAL, "%s '%s': %s is NULL", kind, teal_leaf_util_name(name),
                          what);
  }
  long long sum = 0;
  for (int i = 0; i < count; i++) {
    if (sizes[i] < 1) {
      return teal_error_set(err, TEAL_ESIZE, "%s '%s': %s[%d] = %d must be >= 1", kind,
                            teal_leaf_util_name(name), what, i, sizes[i]);
    }
    if (offsets) {
      offsets[i] = (int)sum;
    }
    sum += sizes[i];
    if (sum > INT_MAX) {
      return teal_error_set(err, TEAL_ESIZE, "%s '%s': %s add up to more than %d", kind,
                            teal_leaf_util_name(name), what, INT_MAX);
    }
  }
  if (offsets) {
    offsets[count] = (int)sum;
  }
  return TEAL_OK;
}

void *teal_leaf_util_alloc(size_t size, teal_error *err, const char *kind, const char *name) {
  void *p = teal_alloc(size);
  if (!p) {
    teal_error_set(err, TEAL_ENOMEM, "%s '%s': out of memory", kind, teal_leaf_util_name(name));
  }
  return p;
}

void teal_leaf_util_copy(double *dst, const double *src, int n) {
  if (n <= 0) {
    return;
  }
  if (src) {
    memcpy(dst, src, (size_t)n * sizeof *dst);
  } else {
    memset(dst, 0, (size_t)n * sizeof *dst);
  }
}

teal_system *teal_leaf_util_new(const char *name, void *data, void (*data_free)(void *),
                                teal_error *err) {
  teal_system *sys = teal_leaf_new(name, data, data_free);
  if (!sys) {
    teal_error_set(err, TEAL_ENOMEM, "system '%s': out of memory", teal_leaf_util_name(name));
  }
  return sys;
}

teal_system *teal_leaf_util_finish(teal_system *sys, teal_error *err) {
  if (!sys) {
    /* teal_leaf_util_new already reported its failure in err: keep that */
    teal_error_set_sticky(err, TEAL_EINVAL, "leaf_util_finish: NULL system");
    return NULL;
  }
  if (teal_leaf_finalize(sys) != TEAL_OK) {
    teal_error_copy(err, teal_system_error(sys));
    teal_system_free(sys);
    return NULL;
  }
  teal_error_clear(err);
  return sys;
}

void teal_leaf_util_identity_block(double *M, int rows, int cols, int row0, int col0) {
  if (rows <= 0 || cols <= 0) {
    return;
  }
  memset(M, 0, (size_t)rows * (size_t)cols * sizeof *M);
  for (int r = row0, c = col0; r < rows && c < cols; r++, c++) {
    M[(size_t)r * (size_t)cols + (size_t)c] = 1.0;
  }
}

int teal_leaf_util_jacobian_empty(const teal_system *sys, const teal_context *ctx, int input_port,
                                  int output_port, teal_jacobian *jac, void *user) {
  (void)sys;
  (void)ctx;
  (void)input_port;
  (void)output_port;
  (void)jac;
  (void)user;
  return TEAL_OK;
}

int teal_leaf_util_check_period(teal_error *err, const char *kind, const char *name,
                                double period) {
  int rc = teal_leaf_util_check_scalar(err, kind, name, "period", period);
  if (rc == TEAL_OK && period <= 0) {
    rc = teal_error_set(err, TEAL_EINVAL, "%s '%s': period = %g must be > 0", kind,
                        teal_leaf_util_name(name), period);
  }
  return rc;
}

int teal_leaf_util_copy_input(const teal_system *sys, const teal_context *ctx, double *out,
                              void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  int n = teal_input_port_size(teal_system_input_port(sys, 0));
  memcpy(out, u, (size_t)n * sizeof *out);
  return TEAL_OK;
}

int teal_leaf_util_jacobian_identity(const teal_system *sys, const teal_context *ctx,
                                     int input_port, int output_port, teal_jacobian *jac,
                                     void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  if (input_port >= 0 && output_port >= 0) {
    teal_leaf_util_identity_block(jac->D, jac->ny, jac->nu, 0, 0);
  }
  return TEAL_OK;
}

teal_system *teal_leaf_util_finish_tagged(teal_system *sys, const void *tag, const char *kind,
                                          const char *name, teal_error *err) {
  if (!sys) {
    teal_error_set(err, TEAL_ENOMEM, "%s '%s': out of memory", kind, teal_leaf_util_name(name));
    return NULL;
  }
  teal_leaf_set_type_tag(sys, tag);
  if (teal_leaf_finalize(sys) != TEAL_OK) {
    const teal_error *e = teal_system_error(sys);
    teal_error_set(err, e->code, "%s '%s': %s", kind, teal_leaf_util_name(name), e->message);
    teal_system_free(sys);
    return NULL;
  }
  teal_error_clear(err);
  return sys;
}

const teal_context *teal_leaf_util_own_context(const teal_system *sys, const void *tag,
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

teal_context *teal_leaf_util_own_context_mut(const teal_system *sys, const void *tag,
                                             teal_context *ctx, int *status) {
  return (teal_context *)teal_leaf_util_own_context(sys, tag, ctx, status);
}

int teal_leaf_util_bad_call(const teal_system *sys, const teal_context *ctx, int status,
                            const char *kind, const char *what, const char *fn, const char *array) {
  if (!ctx || status == TEAL_ENOTFOUND) {
    return status ? status : TEAL_EINVAL;
  }
  if (status == TEAL_OK) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s '%s': %s: %s is NULL", kind,
                                     teal_system_name(sys), fn, array);
  }
  if (!sys) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s: NULL system", kind, fn);
  }
  return teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s: the system is not %s", kind, fn,
                                   what);
}
