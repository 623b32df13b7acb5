/* Sine source with its derivatives. */
#include "systems/primitives/sine.h"

#include <math.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/leaf_util.h"

static const char k_kind[] = "sine";

typedef struct sine_data {
  int n;
  double *a, *w, *phi;
  double storage[];
} sine_data;

/* The order-th time derivative of a sin(w t + phi), order 0..2. */
static void sine_eval(const teal_context *ctx, const sine_data *d, int order, double *out) {
  double t = teal_context_time(ctx);
  for (int i = 0; i < d->n; i++) {
    double arg = d->w[i] * t + d->phi[i];
    switch (order) {
      case 0: out[i] = d->a[i] * sin(arg); break;
      case 1: out[i] = d->a[i] * d->w[i] * cos(arg); break;
      default: out[i] = -d->a[i] * d->w[i] * d->w[i] * sin(arg); break;
    }
  }
}

static int sine_y(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  sine_eval(ctx, user, 0, out);
  return TEAL_OK;
}

static int sine_ydot(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  sine_eval(ctx, user, 1, out);
  return TEAL_OK;
}

static int sine_yddot(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  sine_eval(ctx, user, 2, out);
  return TEAL_OK;
}

static sine_data *sine_data_new(const char *name, const double *a, const double *w,
                                const double *phi, int n, teal_error *err) {
  sine_data *d =
      teal_leaf_util_alloc(sizeof *d + 3 * (size_t)n * sizeof(double), err, k_kind, name);
  if (!d) {
    return NULL;
  }
  d->n = n;
  d->a = d->storage;
  d->w = d->a + n;
  d->phi = d->w + n;
  teal_leaf_util_copy(d->a, a, n);
  teal_leaf_util_copy(d->w, w, n);
  teal_leaf_util_copy(d->phi, phi, n);
  return d;
}

teal_system *teal_sine_new(const char *name, const double *amplitude, const double *frequency,
                           const double *phase, int n, teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1) ||
      teal_leaf_util_check_finite(err, k_kind, name, "amplitude", amplitude, n) ||
      teal_leaf_util_check_finite(err, k_kind, name, "frequency", frequency, n) ||
      teal_leaf_util_check_finite(err, k_kind, name, "phase", phase, n)) {
    return NULL;
  }
  sine_data *d = sine_data_new(name, amplitude, frequency, phase, n, err);
  teal_system *sys = d ? teal_leaf_util_new(name, d, teal_free, err) : NULL;
  if (!sys) {
    return NULL;
  }
  teal_ticket deps[1] = {TEAL_TICKET_TIME};
  teal_leaf_declare_vector_output(sys, "y", n, sine_y, d, deps, 1);
  teal_leaf_declare_vector_output(sys, "ydot", n, sine_ydot, d, deps, 1);
  teal_leaf_declare_vector_output(sys, "yddot", n, sine_yddot, d, deps, 1);
  teal_leaf_set_jacobian(sys, teal_leaf_util_jacobian_empty, NULL);
  return teal_leaf_util_finish(sys, err);
}
