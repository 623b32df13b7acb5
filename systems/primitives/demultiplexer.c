/* Demultiplexer: slices its input. */
#include "systems/primitives/demultiplexer.h"

#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/leaf_util.h"

static const char k_kind[] = "demultiplexer";

typedef struct demux_data {
  int k;
  int offsets[]; /* k + 1 running sums of the output sizes */
} demux_data;

/* user points at offsets[j] of output j: the slice is [off[0], off[1]). */
static int demux_output(const teal_system *sys, const teal_context *ctx, double *y,
                        void *user) {
  const int *off = user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  memcpy(y, u + off[0], (size_t)(off[1] - off[0]) * sizeof *u);
  return TEAL_OK;
}

static int demux_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                          int output_port, teal_jacobian *jac, void *user) {
  (void)sys;
  (void)ctx;
  const demux_data *m = user;
  if (input_port >= 0 && output_port >= 0) {
    teal_leaf_util_identity_block(jac->D, jac->ny, jac->nu, 0, m->offsets[output_port]);
  }
  return TEAL_OK;
}

teal_system *teal_demultiplexer_new(const char *name, const int *output_sizes, int num_outputs,
                                    teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "num_outputs", num_outputs, 1) ||
      teal_leaf_util_check_sizes(err, k_kind, name, "output_sizes", output_sizes, num_outputs,
                                 NULL)) {
    return NULL;
  }
  size_t bytes = sizeof(demux_data) + ((size_t)num_outputs + 1) * sizeof(int);
  demux_data *m = teal_leaf_util_alloc(bytes, err, k_kind, name);
  if (!m) {
    return NULL;
  }
  m->k = num_outputs;
  teal_leaf_util_check_sizes(NULL, k_kind, name, "output_sizes", output_sizes, num_outputs,
                             m->offsets);
  teal_system *sys = teal_leaf_util_new(name, m, teal_free, err);
  if (!sys) {
    return NULL;
  }
  teal_leaf_declare_vector_input(sys, "u", m->offsets[num_outputs]);
  teal_ticket deps[1] = {teal_ticket_input(0)};
  for (int j = 0; j < num_outputs; j++) {
    char port[24];
    snprintf(port, sizeof port, "y%d", j);
    teal_leaf_declare_vector_output(sys, port, output_sizes[j], demux_output, &m->offsets[j],
                                    deps, 1);
  }
  teal_leaf_set_jacobian(sys, demux_jacobian, m);
  return teal_leaf_util_finish(sys, err);
}
