/* ConstantVectorSource: y = numeric parameter 0. */
#include "systems/primitives/constant_vector_source.h"

#include <string.h>

#include "framework/context.h"
#include "framework/leaf_util.h"

static const char k_kind[] = "constant_vector_source";

static int constant_output(const teal_system *sys, const teal_context *ctx, double *y,
                           void *user) {
  (void)user;
  const double *p = teal_context_numeric_parameter(ctx, TEAL_CONSTANT_VECTOR_SOURCE_VALUE);
  if (!p) {
    return TEAL_EINVAL;
  }
  int n = teal_system_numeric_parameter_size(sys, TEAL_CONSTANT_VECTOR_SOURCE_VALUE);
  memcpy(y, p, (size_t)n * sizeof *y);
  return TEAL_OK;
}

teal_system *teal_constant_vector_source_new(const char *name, const double *value, int n,
                                             teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1) ||
      teal_leaf_util_check_finite(err, k_kind, name, "value", value, n)) {
    return NULL;
  }
  teal_system *sys = teal_leaf_util_new(name, NULL, NULL, err);
  if (!sys) {
    return NULL;
  }
  teal_ticket deps[1] = {teal_ticket_parameter(TEAL_CONSTANT_VECTOR_SOURCE_VALUE)};
  teal_leaf_declare_numeric_parameter(sys, n, value);
  teal_leaf_declare_vector_output(sys, "y", n, constant_output, NULL, deps, 1);
  teal_leaf_set_jacobian(sys, teal_leaf_util_jacobian_empty, NULL);
  return teal_leaf_util_finish(sys, err);
}
