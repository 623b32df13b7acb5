/* Multiplexer: concatenates its inputs. */
#include "systems/primitives/multiplexer.h"

#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/leaf_util.h"

static const char k_kind[] = "multiplexer";

typedef struct mux_data {
  int k;
  int offsets[]; /* k + 1 running sums of the input sizes */
} mux_data;

static int mux_output(const teal_system *sys, const teal_context *ctx, double *y, void *user) {
  const mux_data *m = user;
  for (int p = 0; p < m->k; p++) {
    const double *u;
    int rc = teal_eval_vector_input(sys, ctx, p, &u);
    if (rc) {
      return rc;
    }
    int n = m->offsets[p + 1] - m->offsets[p];
    memcpy(y + m->offsets[p], u, (size_t)n * sizeof *u);
  }
  return TEAL_OK;
}

static int mux_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                        int output_port, teal_jacobian *jac, void *user) {
  (void)sys;
  (void)ctx;
  const mux_data *m = user;
  if (input_port >= 0 && output_port >= 0) {
    teal_leaf_util_identity_block(jac->D, jac->ny, jac->nu, m->offsets[input_port], 0);
  }
  return TEAL_OK;
}

teal_system *teal_multiplexer_new(const char *name, const int *input_sizes, int num_inputs,
                                  teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "num_inputs", num_inputs, 1) ||
      teal_leaf_util_check_sizes(err, k_kind, name, "input_sizes", input_sizes, num_inputs, NULL)) {
    return NULL;
  }
  size_t bytes = sizeof(mux_data) + ((size_t)num_inputs + 1) * sizeof(int);
  mux_data *m = teal_leaf_util_alloc(bytes, err, k_kind, name);
  if (!m) {
    return NULL;
  }
  m->k = num_inputs;
  teal_leaf_util_check_sizes(NULL, k_kind, name, "input_sizes", input_sizes, num_inputs,
                             m->offsets);
  teal_system *sys = teal_leaf_util_new(name, m, teal_free, err);
  if (!sys) {
    return NULL;
  }
  for (int p = 0; p < num_inputs; p++) {
    char port[24];
    snprintf(port, sizeof port, "u%d", p);
    teal_leaf_declare_vector_input(sys, port, input_sizes[p]);
  }
  teal_ticket deps[1] = {TEAL_TICKET_ALL_INPUTS};
  teal_leaf_declare_vector_output(sys, "y", m->offsets[num_inputs], mux_output, m, deps, 1);
  teal_leaf_set_jacobian(sys, mux_jacobian, m);
  return teal_leaf_util_finish(sys, err);
}
