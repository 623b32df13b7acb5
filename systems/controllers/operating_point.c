/* The operating point of a controller designed about a linearization (see
 * operating_point_internal.h). */
#include "systems/controllers/operating_point_internal.h"

#include <string.h>

#include "framework/context_access.h"
#include "framework/ports.h"

int teal_controller_operating_point(const teal_system *sys, const teal_context *ctx,
                                    int input_port, const teal_linear_system_matrices *m,
                                    double *point, const char *who, teal_error *err) {
  if (m->time_period > 0) {
    memcpy(point, teal_context_discrete_state(ctx), (size_t)m->nx * sizeof(double));
  } else {
    teal_context_get_continuous_state(ctx, point, m->nx);
  }
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, input_port, &u);
  if (rc != TEAL_OK) {
    return teal_error_set(err, rc, "%s: %s", who, teal_context_error(ctx)->message);
  }
  memcpy(point + m->nx, u, (size_t)m->nu * sizeof(double));
  return TEAL_OK;
}
