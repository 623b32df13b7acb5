/* Integrator: zdot = u, y = z. */
#include "systems/primitives/integrator_system.h"

#include <string.h>

#include "framework/context.h"
#include "framework/leaf_util.h"

static const char k_kind[] = "integrator";

static int state_size(const teal_system *sys) {
  int nz = 0;
  teal_system_num_continuous_states(sys, NULL, NULL, &nz);
  return nz;
}

static int integrator_output(const teal_system *sys, const teal_context *ctx, double *y,
                             void *user) {
  (void)user;
  memcpy(y, teal_context_z(ctx), (size_t)state_size(sys) * sizeof *y);
  return TEAL_OK;
}

static int integrator_derivatives(const teal_system *sys, const teal_context *ctx,
                                  teal_continuous_view *xdot, void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  memcpy(xdot->z, u, (size_t)state_size(sys) * sizeof *u);
  return TEAL_OK;
}

static int integrator_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                               int output_port, teal_jacobian *jac, void *user) {
  (void)user;
  int n = state_size(sys);
  if (jac->nx != n) {
    return teal_context_report_error(ctx, TEAL_ESIZE,
                                     "Jacobian of '%s': nx %d given, the system has %d",
                                     teal_system_name(sys), jac->nx, n);
  }
  memset(jac->A, 0, (size_t)n * (size_t)n * sizeof *jac->A);
  if (input_port >= 0) {
    teal_leaf_util_identity_block(jac->B, n, n, 0, 0);
  }
  if (output_port >= 0) {
    teal_leaf_util_identity_block(jac->C, n, n, 0, 0);
  }
  if (input_port >= 0 && output_port >= 0) {
    memset(jac->D, 0, (size_t)n * (size_t)n * sizeof *jac->D);
  }
  return TEAL_OK;
}

teal_system *teal_integrator_system_new_with_initial(const char *name, const double *z0, int n,
                                                     teal_error *err) {
  if (teal_leaf_util_check_count(err, k_kind, name, "size n", n, 1) ||
      (z0 && teal_leaf_util_check_finite(err, k_kind, name, "z0", z0, n))) {
    return NULL;
  }
  teal_system *sys = teal_leaf_util_new(name, NULL, NULL, err);
  if (!sys) {
    return NULL;
  }
  teal_ticket deps[1] = {TEAL_TICKET_Z};
  teal_leaf_declare_vector_input(sys, "u", n);
  teal_leaf_declare_continuous_state(sys, 0, 0, n, z0);
  teal_leaf_declare_vector_output(sys, "y", n, integrator_output, NULL, deps, 1);
  teal_leaf_set_time_derivatives(sys, integrator_derivatives, NULL);
  teal_leaf_set_jacobian(sys, integrator_jacobian, NULL);
  return teal_leaf_util_finish(sys, err);
}

teal_system *teal_integrator_system_new(const char *name, int n, teal_error *err) {
  return teal_integrator_system_new_with_initial(name, NULL, n, err);
}
