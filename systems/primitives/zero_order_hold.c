/* Zero-order hold: a periodic update latches the input into state; the
 * output reads the state. */
#include "systems/primitives/zero_order_hold.h"

#include <string.h>

#include "framework/context.h"
#include "framework/leaf_util.h"
#include "framework/ticket.h"

static const char k_kind[] = "zero_order_hold";

/* Checks the sampling schedule; returns a status with err set. */
static int check_timing(const char *name, double period, double offset, teal_error *err) {
  int rc = teal_leaf_util_check_scalar(err, k_kind, name, "period", period);
  if (rc == TEAL_OK) {
    rc = teal_leaf_util_check_scalar(err, k_kind, name, "offset", offset);
  }
  if (rc == TEAL_OK) {
    rc = teal_leaf_util_check_period(err, k_kind, name, period);
  }
  if (rc == TEAL_OK && offset < 0) {
    rc = teal_error_set(err, TEAL_EINVAL, "%s '%s': offset = %g must be >= 0", k_kind,
                        teal_leaf_util_name(name), offset);
  }
  return rc;
}

/* ---- vector hold ------------------------------------------------------- */

static int vector_output(const teal_system *sys, const teal_context *ctx, double *out,
                         void *user) {
  (void)user;
  int n = teal_output_port_size(teal_system_output_port(sys, 0));
  const double *held = teal_context_discrete_group(ctx, 0);
  if (!held) {
    return TEAL_EINVAL;
  }
  memcpy(out, held, (size_t)n * sizeof *out);
  return TEAL_OK;
}

teal_system *teal_zero_order_hold_new(const char *name, double period, double offset, int n,
                                      teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1) ||
      check_timing(name, period, offset, err)) {
    return NULL;
  }
  teal_system *sys = teal_leaf_new(name, NULL, NULL);
  if (sys) {
    teal_ticket held = teal_ticket_discrete(0);
    teal_leaf_declare_vector_input(sys, "u", n);
    teal_leaf_declare_discrete_state(sys, n, NULL);
    teal_leaf_declare_vector_output(sys, "y", n, vector_output, NULL, &held, 1);
    teal_leaf_declare_periodic_discrete_update(sys, period, offset, teal_leaf_util_copy_input,
                                               NULL);
  }
  return teal_leaf_util_finish_tagged(sys, k_kind, k_kind, name, err);
}

/* ---- abstract hold ----------------------------------------------------- */

static int abstract_output(const teal_system *sys, const teal_context *ctx, void *out,
                           void *user) {
  (void)user;
  const teal_value_type *type = teal_output_port_type(teal_system_output_port(sys, 0));
  const void *held = teal_context_abstract_state(ctx, 0);
  if (!held) {
    return TEAL_EINVAL;
  }
  return teal_value_copy(type, out, held);
}

static int abstract_sample(const teal_system *sys, const teal_context *ctx,
                           teal_state_view *next, void *user) {
  (void)user;
  const void *u;
  int rc = teal_eval_abstract_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  const teal_value_type *type = teal_input_port_type(teal_system_input_port(sys, 0));
  return teal_value_copy(type, next->xa[0], u);
}

teal_system *teal_zero_order_hold_abstract_new(const char *name, double period, double offset,
                                               const teal_value_type *type, teal_error *err) {
  if (!type || !type->name || type->size == 0) {
    teal_error_set(err, TEAL_EINVAL,
                   "%s '%s': the abstract type must be non-NULL with a name and a nonzero size",
                   k_kind, teal_leaf_util_name(name));
    return NULL;
  }
  if (check_timing(name, period, offset, err)) {
    return NULL;
  }
  teal_system *sys = teal_leaf_new(name, NULL, NULL);
  if (sys) {
    teal_ticket held = teal_ticket_abstract(0);
    teal_leaf_declare_abstract_input(sys, "u", type);
    teal_leaf_declare_abstract_state(sys, type, NULL);
    teal_leaf_declare_abstract_output(sys, "y", type, abstract_output, NULL, &held, 1);
    teal_leaf_declare_periodic_unrestricted_update(sys, period, offset, abstract_sample, NULL);
  }
  return teal_leaf_util_finish_tagged(sys, k_kind, k_kind, name, err);
}
