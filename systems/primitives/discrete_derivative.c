/* Discrete derivative: two sample groups (and a sample counter) updated
 * periodically; the output is their difference over the period. */
#include "systems/primitives/discrete_derivative.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/leaf_util.h"
#include "framework/ticket.h"

static const char k_kind[] = "discrete_derivative";

typedef struct derivative_data {
  int n;
  double period;
  int suppress; /* nonzero: group 2 counts samples, output 0 until 2 */
} derivative_data;

enum { GROUP_LATEST = 0, GROUP_PREVIOUS = 1, GROUP_COUNT = 2 };

static int check_params(const char *name, int n, double period, teal_error *err) {
  int rc = teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1);
  if (rc == TEAL_OK) {
    rc = teal_leaf_util_check_period(err, k_kind, name, period);
  }
  return rc;
}

/* Number of samples taken (2 when not counting). */
static double samples_taken(const derivative_data *d, const teal_context *ctx) {
  return d->suppress ? teal_context_discrete_group(ctx, GROUP_COUNT)[0] : 2.0;
}

static int derivative_output(const teal_system *sys, const teal_context *ctx, double *out,
                             void *user) {
  (void)sys;
  const derivative_data *d = user;
  const double *latest = teal_context_discrete_group(ctx, GROUP_LATEST);
  const double *previous = teal_context_discrete_group(ctx, GROUP_PREVIOUS);
  int live = samples_taken(d, ctx) >= 2.0;
  for (int i = 0; i < d->n; i++) {
    out[i] = live ? (latest[i] - previous[i]) / d->period : 0.0;
  }
  return TEAL_OK;
}

/* xd_next holds all groups back to back: [latest; previous; count]. */
static int derivative_update(const teal_system *sys, const teal_context *ctx, double *xd_next,
                             void *user) {
  const derivative_data *d = user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  size_t bytes = (size_t)d->n * sizeof *xd_next;
  memcpy(xd_next + d->n, teal_context_discrete_group(ctx, GROUP_LATEST), bytes);
  memcpy(xd_next, u, bytes);
  if (d->suppress) {
    xd_next[2 * d->n] = fmin(samples_taken(d, ctx) + 1.0, 2.0);
  }
  return TEAL_OK;
}

static void declare(teal_system *sys, derivative_data *d) {
  teal_ticket deps[3] = {teal_ticket_discrete(GROUP_LATEST),
                         teal_ticket_discrete(GROUP_PREVIOUS),
                         teal_ticket_discrete(GROUP_COUNT)};
  teal_leaf_declare_vector_input(sys, "u", d->n);
  teal_leaf_declare_discrete_state(sys, d->n, NULL);
  teal_leaf_declare_discrete_state(sys, d->n, NULL);
  if (d->suppress) {
    teal_leaf_declare_discrete_state(sys, 1, NULL);
  }
  teal_leaf_declare_vector_output(sys, "dudt", d->n, derivative_output, d, deps,
                                  d->suppress ? 3 : 2);
  teal_leaf_declare_periodic_discrete_update(sys, d->period, 0.0, derivative_update, d);
}

teal_system *teal_discrete_derivative_new_ex(const char *name, int n, double period,
                                             int suppress_initial_transient, teal_error *err) {
  if (check_params(name, n, period, err)) {
    return NULL;
  }
  derivative_data *d = teal_leaf_util_alloc(sizeof *d, err, k_kind, name);
  if (!d) {
    return NULL;
  }
  d->n = n;
  d->period = period;
  d->suppress = suppress_initial_transient != 0;
  teal_system *sys = teal_leaf_new(name, d, teal_free); /* frees d on failure */
  if (sys) {
    declare(sys, d);
  }
  return teal_leaf_util_finish_tagged(sys, k_kind, k_kind, name, err);
}

teal_system *teal_discrete_derivative_new(const char *name, int n, double period,
                                          teal_error *err) {
  return teal_discrete_derivative_new_ex(name, n, period, 1, err);
}

int teal_discrete_derivative_set_input_history(const teal_system *sys, teal_context *ctx,
                                               const double *u_n, const double *u_n_minus_1) {
  int rc;
  teal_context *own = teal_leaf_util_own_context_mut(sys, k_kind, ctx, &rc);
  if (!own || !u_n || !u_n_minus_1) {
    return teal_leaf_util_bad_call(sys, ctx, rc, k_kind, "a discrete derivative",
                                   "set_input_history", !u_n ? "u_n" : "u_n_minus_1");
  }
  const derivative_data *d = teal_system_user(sys);
  rc = teal_context_set_discrete_group(own, GROUP_LATEST, u_n, d->n);
  if (rc == TEAL_OK) {
    rc = teal_context_set_discrete_group(own, GROUP_PREVIOUS, u_n_minus_1, d->n);
  }
  if (rc == TEAL_OK && d->suppress) {
    const double two = 2.0;
    rc = teal_context_set_discrete_group(own, GROUP_COUNT, &two, 1);
  }
  return rc;
}
