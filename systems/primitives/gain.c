/* Gain: y = k u. */
#include "systems/primitives/gain.h"

#include "framework/alloc.h"
#include "framework/leaf_util.h"

static const char k_kind[] = "gain";

typedef struct gain_data {
  double k;
  int n;
} gain_data;

static int gain_output(const teal_system *sys, const teal_context *ctx, double *y, void *user) {
  const gain_data *g = user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  for (int i = 0; i < g->n; i++) {
    y[i] = g->k * u[i];
  }
  return TEAL_OK;
}

static int gain_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                         int output_port, teal_jacobian *jac, void *user) {
  (void)sys;
  (void)ctx;
  const gain_data *g = user;
  if (input_port < 0 || output_port < 0) {
    return TEAL_OK; /* no state: A, B and C are empty */
  }
  teal_leaf_util_identity_block(jac->D, g->n, g->n, 0, 0);
  for (int i = 0; i < g->n; i++) {
    jac->D[i * g->n + i] = g->k;
  }
  return TEAL_OK;
}

teal_system *teal_gain_new(const char *name, double k, int n, teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1) ||
      teal_leaf_util_check_scalar(err, k_kind, name, "k", k)) {
    return NULL;
  }
  gain_data *g = teal_leaf_util_alloc(sizeof *g, err, k_kind, name);
  if (!g) {
    return NULL;
  }
  g->k = k;
  g->n = n;
  teal_system *sys = teal_leaf_util_new(name, g, teal_free, err);
  if (!sys) {
    return NULL;
  }
  teal_ticket deps[1] = {teal_ticket_input(0)};
  teal_leaf_declare_vector_input(sys, "u", n);
  teal_leaf_declare_vector_output(sys, "y", n, gain_output, g, deps, 1);
  teal_leaf_set_jacobian(sys, gain_jacobian, g);
  return teal_leaf_util_finish(sys, err);
}
