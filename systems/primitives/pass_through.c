/* PassThrough: y = u (vector or abstract). */
#include "systems/primitives/pass_through.h"

#include "framework/leaf_util.h"

static const char k_kind[] = "pass_through";

static int abstract_output(const teal_system *sys, const teal_context *ctx, void *y,
                           void *user) {
  (void)user;
  const void *u;
  int rc = teal_eval_abstract_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  return teal_value_copy(teal_input_port_type(teal_system_input_port(sys, 0)), y, u);
}

teal_system *teal_pass_through_new(const char *name, int n, teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1)) {
    return NULL;
  }
  teal_system *sys = teal_leaf_util_new(name, NULL, NULL, err);
  if (!sys) {
    return NULL;
  }
  teal_ticket deps[1] = {teal_ticket_input(0)};
  teal_leaf_declare_vector_input(sys, "u", n);
  teal_leaf_declare_vector_output(sys, "y", n, teal_leaf_util_copy_input, NULL, deps, 1);
  teal_leaf_set_jacobian(sys, teal_leaf_util_jacobian_identity, NULL);
  return teal_leaf_util_finish(sys, err);
}

teal_system *teal_pass_through_abstract_new(const char *name, const teal_value_type *type,
                                            teal_error *err) {
  if (!type || !type->name || type->size == 0) {
    teal_error_set(err, TEAL_EINVAL, "%s '%s': the value type is %s", k_kind,
                   teal_leaf_util_name(name), type ? "missing its name or size" : "NULL");
    return NULL;
  }
  teal_system *sys = teal_leaf_util_new(name, NULL, NULL, err);
  if (!sys) {
    return NULL;
  }
  teal_ticket deps[1] = {teal_ticket_input(0)};
  teal_leaf_declare_abstract_input(sys, "u", type);
  teal_leaf_declare_abstract_output(sys, "y", type, abstract_output, NULL, deps, 1);
  return teal_leaf_util_finish(sys, err);
}
