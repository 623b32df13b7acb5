/* First-order low-pass filter: z' = (u - z) / tau, y = z. */
#include "systems/primitives/first_order_low_pass_filter.h"

#include <string.h>

#include "framework/alloc.h"
#include "framework/leaf_util.h"
#include "framework/ticket.h"

static const char k_kind[] = "first_order_low_pass_filter";

typedef struct filter_data {
  int n;
  double inv_tau[]; /* 1 / tau_i */
} filter_data;

static int check_params(const char *name, const double *tau, int n, teal_error *err) {
  int rc = teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1);
  if (rc == TEAL_OK) {
    rc = teal_leaf_util_check_finite(err, k_kind, name, "time_constants", tau, n);
  }
  for (int i = 0; rc == TEAL_OK && i < n; i++) {
    if (tau[i] <= 0) {
      rc = teal_error_set(err, TEAL_EINVAL, "%s '%s': time_constants[%d] = %g must be > 0", k_kind,
                          teal_leaf_util_name(name), i, tau[i]);
    }
  }
  return rc;
}

static int filter_output(const teal_system *sys, const teal_context *ctx, double *out,
                         void *user) {
  (void)sys;
  const filter_data *d = user;
  memcpy(out, teal_context_z(ctx), (size_t)d->n * sizeof *out);
  return TEAL_OK;
}

static int filter_derivatives(const teal_system *sys, const teal_context *ctx,
                              teal_continuous_view *xdot, void *user) {
  const filter_data *d = user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  const double *z = teal_context_z(ctx);
  for (int i = 0; i < d->n; i++) {
    xdot->z[i] = (u[i] - z[i]) * d->inv_tau[i];
  }
  return TEAL_OK;
}

/* Fills a row-major n x n block with diag(v) (v NULL: identity). */
static void fill_diagonal(double *m, int n, const double *v, double sign) {
  memset(m, 0, (size_t)n * (size_t)n * sizeof *m);
  for (int i = 0; i < n; i++) {
    m[(size_t)i * (size_t)n + (size_t)i] = sign * (v ? v[i] : 1.0);
  }
}

static int filter_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                           int output_port, teal_jacobian *jac, void *user) {
  (void)sys;
  (void)ctx;
  (void)input_port;
  (void)output_port;
  const filter_data *d = user;
  int n = d->n;
  if (jac->A) {
    fill_diagonal(jac->A, n, d->inv_tau, -1.0);
  }
  if (jac->B) {
    fill_diagonal(jac->B, n, d->inv_tau, 1.0);
  }
  if (jac->C) {
    fill_diagonal(jac->C, n, NULL, 1.0);
  }
  if (jac->D) {
    memset(jac->D, 0, (size_t)n * (size_t)n * sizeof *jac->D);
  }
  return TEAL_OK;
}

teal_system *teal_first_order_low_pass_filter_new(const char *name,
                                                  const double *time_constants, int n,
                                                  teal_error *err) {
  if (check_params(name, time_constants, n, err)) {
    return NULL;
  }
  filter_data *d = teal_leaf_util_alloc(sizeof *d + (size_t)n * sizeof(double), err, k_kind, name);
  if (!d) {
    return NULL;
  }
  d->n = n;
  for (int i = 0; i < n; i++) {
    d->inv_tau[i] = 1.0 / time_constants[i];
  }
  teal_system *sys = teal_leaf_new(name, d, teal_free); /* frees d on failure */
  if (sys) {
    teal_ticket state_only = TEAL_TICKET_Z;
    teal_leaf_declare_vector_input(sys, "u", n);
    teal_leaf_declare_continuous_state(sys, 0, 0, n, NULL);
    teal_leaf_declare_vector_output(sys, "y", n, filter_output, d, &state_only, 1);
    teal_leaf_set_time_derivatives(sys, filter_derivatives, d);
    teal_leaf_set_jacobian(sys, filter_jacobian, d);
  }
  return teal_leaf_util_finish_tagged(sys, k_kind, k_kind, name, err);
}

int teal_first_order_low_pass_filter_set_initial_output(const teal_system *sys,
                                                        teal_context *ctx, const double *z0) {
  int rc;
  teal_context *own = teal_leaf_util_own_context_mut(sys, k_kind, ctx, &rc);
  if (!own || !z0) {
    return teal_leaf_util_bad_call(sys, ctx, rc, k_kind, "a first-order low-pass filter",
                                   "set_initial_output", "z0");
  }
  const filter_data *d = teal_system_user(sys);
  memcpy(teal_context_z_mut(own), z0, (size_t)d->n * sizeof *z0);
  return TEAL_OK;
}
