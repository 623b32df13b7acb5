/* Saturation with fixed or input-port limits. */
#include "systems/primitives/saturation.h"

#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/leaf_util.h"

static const char k_kind[] = "saturation";

typedef struct sat_data {
  int n;
  double *min, *max;
  double storage[];
} sat_data;

static double clamp(double u, double lo, double hi) { return u < lo ? lo : (u > hi ? hi : u); }

/* The three input values of a saturation; fixed limits come from data. */
typedef struct sat_inputs {
  const double *u, *min, *max;
} sat_inputs;

static int read_inputs(const teal_system *sys, const teal_context *ctx, const sat_data *d,
                       sat_inputs *in) {
  int rc = teal_eval_vector_input(sys, ctx, TEAL_SATURATION_U, &in->u);
  if (rc) {
    return rc;
  }
  if (d) {
    in->min = d->min;
    in->max = d->max;
    return TEAL_OK;
  }
  if ((rc = teal_eval_vector_input(sys, ctx, TEAL_SATURATION_MIN, &in->min)) ||
      (rc = teal_eval_vector_input(sys, ctx, TEAL_SATURATION_MAX, &in->max))) {
    return rc;
  }
  int n = teal_input_port_size(teal_system_input_port(sys, TEAL_SATURATION_U));
  for (int i = 0; i < n; i++) {
    if (!(in->min[i] <= in->max[i])) {
      return teal_context_report_error(ctx, TEAL_EINVAL,
                                       "saturation '%s': min[%d] = %g is not <= max[%d] = %g",
                                       teal_system_name(sys), i, in->min[i], i, in->max[i]);
    }
  }
  return TEAL_OK;
}

/* user: the fixed limits, or NULL when they come from the ports. */
static int sat_output(const teal_system *sys, const teal_context *ctx, double *y, void *user) {
  sat_inputs in;
  int rc = read_inputs(sys, ctx, user, &in);
  if (rc) {
    return rc;
  }
  int n = teal_output_port_size(teal_system_output_port(sys, 0));
  for (int i = 0; i < n; i++) {
    y[i] = clamp(in.u[i], in.min[i], in.max[i]);
  }
  return TEAL_OK;
}

/* d y_i / d (input port) at the context's inputs. */
static double sat_slope(int port, double u, double lo, double hi) {
  switch (port) {
    case TEAL_SATURATION_MIN: return u < lo ? 1.0 : 0.0;
    case TEAL_SATURATION_MAX: return u > hi ? 1.0 : 0.0;
    default: return lo < u && u < hi ? 1.0 : 0.0;
  }
}

static int sat_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                        int output_port, teal_jacobian *jac, void *user) {
  if (input_port < 0 || output_port < 0) {
    return TEAL_OK; /* no state: only D has entries */
  }
  sat_inputs in;
  int rc = read_inputs(sys, ctx, user, &in);
  if (rc) {
    return rc;
  }
  int n = jac->ny;
  memset(jac->D, 0, (size_t)n * (size_t)n * sizeof *jac->D);
  for (int i = 0; i < n; i++) {
    jac->D[i * n + i] = sat_slope(input_port, in.u[i], in.min[i], in.max[i]);
  }
  return TEAL_OK;
}

static int check_limits(teal_error *err, const char *name, const double *min, const double *max,
                        int n) {
  int rc;
  if ((rc = teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1)) ||
      (rc = teal_leaf_util_check_not_nan(err, k_kind, name, "min", min, n)) ||
      (rc = teal_leaf_util_check_not_nan(err, k_kind, name, "max", max, n))) {
    return rc;
  }
  for (int i = 0; i < n; i++) {
    if (min[i] > max[i]) {
      return teal_error_set(err, TEAL_EINVAL, "%s '%s': min[%d] = %g > max[%d] = %g", k_kind,
                            teal_leaf_util_name(name), i, min[i], i, max[i]);
    }
  }
  return TEAL_OK;
}

static teal_system *sat_declare(teal_system *sys, sat_data *d, int n, teal_error *err) {
  teal_ticket deps[1] = {TEAL_TICKET_ALL_INPUTS};
  teal_leaf_declare_vector_input(sys, "u", n);
  if (!d) {
    teal_leaf_declare_vector_input(sys, "min", n);
    teal_leaf_declare_vector_input(sys, "max", n);
  }
  teal_leaf_declare_vector_output(sys, "y", n, sat_output, d, deps, 1);
  teal_leaf_set_jacobian(sys, sat_jacobian, d);
  return teal_leaf_util_finish(sys, err);
}

teal_system *teal_saturation_new(const char *name, const double *min, const double *max, int n,
                                 teal_error *err) {
  if (check_limits(err, name, min, max, n)) {
    return NULL;
  }
  sat_data *d = teal_leaf_util_alloc(sizeof *d + 2 * (size_t)n * sizeof(double), err, k_kind, name);
  if (!d) {
    return NULL;
  }
  d->n = n;
  d->min = d->storage;
  d->max = d->storage + n;
  teal_leaf_util_copy(d->min, min, n);
  teal_leaf_util_copy(d->max, max, n);
  teal_system *sys = teal_leaf_util_new(name, d, teal_free, err);
  return sys ? sat_declare(sys, d, n, err) : NULL;
}

teal_system *teal_saturation_variable_new(const char *name, int n, teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1)) {
    return NULL;
  }
  teal_system *sys = teal_leaf_util_new(name, NULL, NULL, err);
  return sys ? sat_declare(sys, NULL, n, err) : NULL;
}
