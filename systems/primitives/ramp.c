/* Ramp source. */
#include "systems/primitives/ramp.h"

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/leaf_util.h"

static const char k_kind[] = "ramp";

typedef struct ramp_data {
  int n;
  double start_time;
  double *slope, *initial;
  double storage[];
} ramp_data;

static int ramp_output(const teal_system *sys, const teal_context *ctx, double *y, void *user) {
  (void)sys;
  const ramp_data *d = user;
  double dt = teal_context_time(ctx) - d->start_time;
  dt = dt > 0.0 ? dt : 0.0;
  for (int i = 0; i < d->n; i++) {
    y[i] = d->initial[i] + d->slope[i] * dt;
  }
  return TEAL_OK;
}

teal_system *teal_ramp_new(const char *name, const double *slope, double start_time,
                           const double *initial_value, int n, teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1) ||
      teal_leaf_util_check_finite(err, k_kind, name, "slope", slope, n) ||
      teal_leaf_util_check_scalar(err, k_kind, name, "start_time", start_time) ||
      teal_leaf_util_check_finite(err, k_kind, name, "initial_value", initial_value, n)) {
    return NULL;
  }
  ramp_data *d =
      teal_leaf_util_alloc(sizeof *d + 2 * (size_t)n * sizeof(double), err, k_kind, name);
  if (!d) {
    return NULL;
  }
  d->n = n;
  d->start_time = start_time;
  d->slope = d->storage;
  d->initial = d->storage + n;
  teal_leaf_util_copy(d->slope, slope, n);
  teal_leaf_util_copy(d->initial, initial_value, n);
  teal_system *sys = teal_leaf_util_new(name, d, teal_free, err);
  if (!sys) {
    return NULL;
  }
  teal_ticket deps[1] = {TEAL_TICKET_TIME};
  teal_leaf_declare_vector_output(sys, "y", n, ramp_output, d, deps, 1);
  teal_leaf_set_jacobian(sys, teal_leaf_util_jacobian_empty, NULL);
  return teal_leaf_util_finish(sys, err);
}
