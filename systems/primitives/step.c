/* Step source. */
#include "systems/primitives/step.h"

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/leaf_util.h"

static const char k_kind[] = "step";

typedef struct step_data {
  int n;
  double step_time;
  double *initial, *final;
  double storage[];
} step_data;

static int step_output(const teal_system *sys, const teal_context *ctx, double *y, void *user) {
  (void)sys;
  const step_data *d = user;
  const double *v = teal_context_time(ctx) >= d->step_time ? d->final : d->initial;
  teal_leaf_util_copy(y, v, d->n);
  return TEAL_OK;
}

teal_system *teal_step_new(const char *name, double step_time, const double *initial_value,
                           const double *final_value, int n, teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1) ||
      teal_leaf_util_check_scalar(err, k_kind, name, "step_time", step_time) ||
      teal_leaf_util_check_finite(err, k_kind, name, "initial_value", initial_value, n) ||
      teal_leaf_util_check_finite(err, k_kind, name, "final_value", final_value, n)) {
    return NULL;
  }
  step_data *d =
      teal_leaf_util_alloc(sizeof *d + 2 * (size_t)n * sizeof(double), err, k_kind, name);
  if (!d) {
    return NULL;
  }
  d->n = n;
  d->step_time = step_time;
  d->initial = d->storage;
  d->final = d->storage + n;
  teal_leaf_util_copy(d->initial, initial_value, n);
  teal_leaf_util_copy(d->final, final_value, n);
  teal_system *sys = teal_leaf_util_new(name, d, teal_free, err);
  if (!sys) {
    return NULL;
  }
  teal_ticket deps[1] = {TEAL_TICKET_TIME};
  teal_leaf_declare_vector_output(sys, "y", n, step_output, d, deps, 1);
  teal_leaf_set_jacobian(sys, teal_leaf_util_jacobian_empty, NULL);
  return teal_leaf_util_finish(sys, err);
}
