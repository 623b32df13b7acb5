/* Adder: sum of k input vectors. */
#include "systems/primitives/adder.h"

#include <stdio.h>
#include <string.h>

#include "framework/leaf_util.h"

static const char k_kind[] = "adder";

static int adder_output(const teal_system *sys, const teal_context *ctx, double *sum,
                        void *user) {
  (void)user;
  int k = teal_system_num_input_ports(sys);
  int n = teal_output_port_size(teal_system_output_port(sys, 0));
  memset(sum, 0, (size_t)n * sizeof *sum);
  for (int p = 0; p < k; p++) {
    const double *u;
    int rc = teal_eval_vector_input(sys, ctx, p, &u);
    if (rc) {
      return rc;
    }
    for (int i = 0; i < n; i++) {
      sum[i] += u[i];
    }
  }
  return TEAL_OK;
}

teal_system *teal_adder_new(const char *name, int num_inputs, int n, teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "num_inputs", num_inputs, 1) ||
      teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1)) {
    return NULL;
  }
  teal_system *sys = teal_leaf_util_new(name, NULL, NULL, err);
  if (!sys) {
    return NULL;
  }
  for (int p = 0; p < num_inputs; p++) {
    char port[24];
    snprintf(port, sizeof port, "u%d", p);
    teal_leaf_declare_vector_input(sys, port, n);
  }
  teal_ticket deps[1] = {TEAL_TICKET_ALL_INPUTS};
  teal_leaf_declare_vector_output(sys, "sum", n, adder_output, NULL, deps, 1);
  teal_leaf_set_jacobian(sys, teal_leaf_util_jacobian_identity, NULL);
  return teal_leaf_util_finish(sys, err);
}
