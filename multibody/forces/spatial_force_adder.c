/* Spatial force adder: concatenates applied spatial force lists (declared in
 * exponential_spring.h, its first user). */
#include <stdio.h>
#include <string.h>

#include "multibody/forces/exponential_spring.h"
#include "multibody/forces/spatial_force_adder.h"
#include "multibody/plant/plant_values.h"
#include "framework/leaf_util.h"

static const char k_kind[] = "spatial_force_adder";

/* Appends src to dst; resize keeps what dst holds and allocates only when it
 * lacks room. */
static int append(teal_applied_spatial_force_list *dst,
                  const teal_applied_spatial_force_list *src) {
  int n = dst->n;
  if (src->n == 0) {
    return TEAL_OK;
  }
  int rc = teal_applied_spatial_force_list_resize(dst, n + src->n);
  if (rc == TEAL_OK) {
    memcpy(dst->f + n, src->f, (size_t)src->n * sizeof *src->f);
  }
  return rc;
}

static int sfa_output(const teal_system *sys, const teal_context *ctx, void *out, void *user) {
  (void)user;
  teal_applied_spatial_force_list *sum = out;
  int rc = teal_applied_spatial_force_list_resize(sum, 0);
  int k = teal_system_num_input_ports(sys);
  for (int i = 0; rc == TEAL_OK && i < k; i++) {
    int has = teal_input_has_value(sys, ctx, i);
    if (has <= 0) {
      rc = has;
      continue;
    }
    const teal_applied_spatial_force_list *in;
    rc = teal_eval_abstract_input(sys, ctx, i, (const void **)&in);
    if (rc == TEAL_OK) {
      rc = append(sum, in);
    }
  }
  return rc;
}

/* Initialization event: evaluating the output once sizes its list. */
static int sfa_size_output(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)user;
  const void *value;
  return teal_eval_abstract_output(sys, ctx, 0, &value);
}

teal_system *teal_spatial_force_adder_new(const char *name, int num_inputs, teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "num_inputs", num_inputs, 1)) {
    return NULL;
  }
  teal_system *sys = teal_leaf_util_new(name, NULL, NULL, err);
  if (!sys) {
    return NULL;
  }
  for (int i = 0; i < num_inputs; i++) {
    char port[24];
    snprintf(port, sizeof port, "u%d", i);
    teal_leaf_declare_abstract_input(sys, port, &teal_applied_spatial_force_list_type);
  }
  teal_ticket deps[1] = {TEAL_TICKET_ALL_INPUTS};
  teal_leaf_declare_abstract_output(sys, "sum", &teal_applied_spatial_force_list_type, sfa_output,
                                    NULL, deps, 1);
  teal_leaf_declare_initialization_publish(sys, sfa_size_output, NULL);
  return teal_leaf_util_finish(sys, err);
}
