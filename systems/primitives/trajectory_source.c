/* Trajectory source: one time-only output per derivative order. */
#include "systems/primitives/trajectory_source.h"

#include <stdio.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/leaf_util.h"
#include "framework/ticket.h"

static const char k_kind[] = "trajectory_source";

/* Closure of one output port: which derivative it evaluates. */
typedef struct source_port {
  const teal_piecewise_polynomial *traj;
  int order;
} source_port;

/* Model data: the owned copy and one closure per output. */
typedef struct source_data {
  teal_piecewise_polynomial *traj;
  int nports;
  source_port ports[];
} source_data;

static void source_data_free(void *user) {
  source_data *d = user;
  if (d) {
    teal_piecewise_polynomial_free(d->traj);
    teal_free(d);
  }
}

static int source_output(const teal_system *sys, const teal_context *ctx, double *out,
                         void *user) {
  (void)sys;
  const source_port *p = user;
  return teal_piecewise_polynomial_derivative(p->traj, teal_context_time(ctx), p->order, out);
}

/* "y", "ydot", "yddot", then "y_d3", "y_d4", ... */
static void port_name(int order, char *buf, size_t n) {
  static const char *const names[3] = {"y", "ydot", "yddot"};
  if (order < 3) {
    snprintf(buf, n, "%s", names[order]);
  } else {
    snprintf(buf, n, "y_d%d", order);
  }
}

/* Copies the trajectory into new model data; NULL (err set) on failure. */
static source_data *source_data_new(const char *name, const teal_piecewise_polynomial *traj,
                                    int order, teal_error *err) {
  source_data *d = teal_leaf_util_alloc(sizeof *d + (size_t)(order + 1) * sizeof(source_port), err,
                                        k_kind, name);
  teal_piecewise_polynomial *copy = d ? teal_piecewise_polynomial_copy(traj, NULL) : NULL;
  if (d && !copy) {
    teal_free(d);
    teal_error_set(err, TEAL_ENOMEM, "%s '%s': out of memory", k_kind, teal_leaf_util_name(name));
    return NULL;
  }
  if (d) {
    d->traj = copy;
    d->nports = order + 1;
    for (int k = 0; k <= order; k++) {
      d->ports[k].traj = copy;
      d->ports[k].order = k;
    }
  }
  return d;
}

teal_system *teal_trajectory_source_new(const char *name, const teal_piecewise_polynomial *traj,
                                        int output_derivative_order, teal_error *err) {
  if (!traj) {
    teal_error_set(err, TEAL_EINVAL, "%s '%s': trajectory is NULL", k_kind,
                   teal_leaf_util_name(name));
    return NULL;
  }
  if (output_derivative_order < 0 ||
      output_derivative_order > TEAL_TRAJECTORY_SOURCE_MAX_ORDER) {
    teal_error_set(err, TEAL_EINVAL, "%s '%s': output_derivative_order = %d must be in [0, %d]",
                   k_kind, teal_leaf_util_name(name), output_derivative_order,
                   TEAL_TRAJECTORY_SOURCE_MAX_ORDER);
    return NULL;
  }
  source_data *d = source_data_new(name, traj, output_derivative_order, err);
  if (!d) {
    return NULL;
  }
  teal_system *sys = teal_leaf_new(name, d, source_data_free); /* frees d on failure */
  teal_ticket time_only = TEAL_TICKET_TIME;
  int rows = teal_piecewise_polynomial_rows(traj);
  for (int k = 0; sys && k < d->nports; k++) {
    char pname[32];
    port_name(k, pname, sizeof pname);
    teal_leaf_declare_vector_output(sys, pname, rows, source_output, &d->ports[k], &time_only,
                                    1);
  }
  return teal_leaf_util_finish_tagged(sys, k_kind, k_kind, name, err);
}

const teal_piecewise_polynomial *teal_trajectory_source_trajectory(const teal_system *sys) {
  if (!sys || teal_system_type_tag(sys) != k_kind) {
    return NULL;
  }
  const source_data *d = teal_system_user(sys);
  return d->traj;
}
