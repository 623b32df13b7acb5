/* The projection's error weights as a context parameter (see
 * error_weights.h; plant_projection.c applies them). */
#include "multibody/plant/error_weights.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/leaf_system.h"
#include "multibody/plant/error_weights_internal.h"

/* Where each set of weights lives in the parameter. */
enum { WEIGHTS_U, WEIGHTS_QERR, WEIGHTS_UERR };

static int weights_offset(const teal_plant *p, int set) {
  return set == WEIGHTS_U ? 0 : p->nv + (set == WEIGHTS_UERR ? p->nc_rows : 0);
}

static int weights_size(const teal_plant *p, int set) {
  return set == WEIGHTS_U ? p->nv : p->nc_rows;
}

int teal_plant_declare_error_weight_parameter(teal_system *sys, const teal_plant *p) {
  int n = p->nv + 2 * p->nc_rows;
  n = n > 0 ? n : 1;
  double *ones = teal_alloc((size_t)n * sizeof(double));
  if (!ones) {
    return TEAL_ENOMEM; /* the leaf's finalize then fails on the bad index */
  }
  for (int i = 0; i < n; i++) {
    ones[i] = 1.0;
  }
  int index = teal_leaf_declare_numeric_parameter(sys, n, ones);
  teal_free(ones);
  return index;
}

const double *teal_plant_error_weights(const teal_plant *p, const teal_context *own) {
  return teal_context_numeric_parameter(own, p->sys.param_weights);
}

/* The plant's own context after checking the arguments, or NULL with *rc
 * reported. */
static const teal_context *checked(const teal_plant *p, const teal_context *ctx, const char *fn,
                                   const double *w, int set, int n, int *rc) {
  const teal_context *own = p && ctx ? teal_plant_own_context(p, ctx) : NULL;
  int want = own ? weights_size(p, set) : 0;
  *rc = TEAL_OK;
  if (!own) {
    *rc = teal_plant_bad_call(p, ctx, fn);
  } else if (!w) {
    *rc = teal_context_report_error(ctx, TEAL_EINVAL, "%s: weights is NULL", fn);
  } else if (n != want) {
    *rc = teal_context_report_error(ctx, TEAL_ESIZE, "%s: n = %d, expected %d", fn, n, want);
  }
  return *rc ? NULL : own;
}

/* TEAL_OK when every weight is finite and > 0, else the first bad one
 * reported. */
static int check_weights(const teal_context *ctx, const char *fn, const double *w, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(w[i])) {
      return teal_context_report_error(ctx, TEAL_ENONFINITE, "%s: weight %d is not finite", fn, i);
    }
    if (w[i] <= 0.0) {
      return teal_context_report_error(ctx, TEAL_EINVAL, "%s: weight %d is %g, must be > 0", fn, i,
                                       w[i]);
    }
  }
  return TEAL_OK;
}

static int set_weights(const teal_plant *p, teal_context *ctx, const char *fn, int set,
                       const double *w, int n) {
  int rc;
  const teal_context *own = checked(p, ctx, fn, w, set, n, &rc);
  rc = own ? check_weights(ctx, fn, w, n) : rc;
  if (rc == TEAL_OK && n > 0) {
    double *all = teal_context_numeric_parameter_mut((teal_context *)own, p->sys.param_weights);
    memcpy(all + weights_offset(p, set), w, (size_t)n * sizeof(double));
  }
  return rc;
}

static int get_weights(const teal_plant *p, const teal_context *ctx, const char *fn, int set,
                       double *w, int n) {
  int rc;
  const teal_context *own = checked(p, ctx, fn, w, set, n, &rc);
  if (own && n > 0) {
    memcpy(w, teal_plant_error_weights(p, own) + weights_offset(p, set),
           (size_t)n * sizeof(double));
  }
  return rc;
}

int teal_plant_set_u_weights(const teal_plant *p, teal_context *ctx, const double *w, int n) {
  return set_weights(p, ctx, "plant set_u_weights", WEIGHTS_U, w, n);
}

int teal_plant_get_u_weights(const teal_plant *p, const teal_context *ctx, double *w, int n) {
  return get_weights(p, ctx, "plant get_u_weights", WEIGHTS_U, w, n);
}

int teal_plant_set_constraint_qerr_weights(const teal_plant *p, teal_context *ctx, const double *w,
                                           int n) {
  return set_weights(p, ctx, "plant set_constraint_qerr_weights", WEIGHTS_QERR, w, n);
}

int teal_plant_get_constraint_qerr_weights(const teal_plant *p, const teal_context *ctx, double *w,
                                           int n) {
  return get_weights(p, ctx, "plant get_constraint_qerr_weights", WEIGHTS_QERR, w, n);
}

int teal_plant_set_constraint_uerr_weights(const teal_plant *p, teal_context *ctx, const double *w,
                                           int n) {
  return set_weights(p, ctx, "plant set_constraint_uerr_weights", WEIGHTS_UERR, w, n);
}

int teal_plant_get_constraint_uerr_weights(const teal_plant *p, const teal_context *ctx, double *w,
                                           int n) {
  return get_weights(p, ctx, "plant get_constraint_uerr_weights", WEIGHTS_UERR, w, n);
}
