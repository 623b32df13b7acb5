/* A system as the state-space map f(x, u), g(x, u) on a private clone of a
 * context (see state_space_evaluator.h). */
#include "systems/analysis/state_space_evaluator.h"

#include <string.h>

#include "framework/alloc.h"
#include "framework/context_access.h"
#include "framework/events.h"
#include "framework/ports.h"
#include "framework/system_dynamics.h"

struct teal_state_space_evaluator {
  const teal_system *sys;
  teal_context *ctx;       /* the private clone */
  teal_event_set *updates; /* discrete maps: the periodic updates */
  int in, out;             /* ports, -1 for none */
  teal_state_space_shape shape;
};

/* A vector port's size, or -1 when port is not a vector port (port -1: 0). */
static int port_size(const teal_system *s, int port, int is_input) {
  if (port == -1) {
    return 0;
  }
  if (is_input) {
    const teal_input_port *ip = teal_system_input_port(s, port);
    return ip && !teal_input_port_type(ip) ? teal_input_port_size(ip) : -1;
  }
  const teal_output_port *op = teal_system_output_port(s, port);
  return op && !teal_output_port_type(op) ? teal_output_port_size(op) : -1;
}

/* Sizes, ports and the kind of state of ev's system. */
static int classify(teal_state_space_evaluator *ev, teal_error *err) {
  const teal_system *s = ev->sys;
  const char *name = teal_system_name(s);
  ev->shape.nu = port_size(s, ev->in, 1);
  ev->shape.ny = port_size(s, ev->out, 0);
  if (ev->shape.nu < 0 || ev->shape.ny < 0) {
    return teal_error_set(err, TEAL_EINVAL,
                          "state-space map of '%s': input %d / output %d must be vector ports of "
                          "the system (or -1)",
                          name, ev->in, ev->out);
  }
  int nxc = teal_system_num_continuous_states(s, NULL, NULL, NULL);
  int nxd = teal_system_num_discrete_states(s);
  if (nxc > 0 && nxd > 0) {
    return teal_error_set(err, TEAL_EINVAL,
                          "state-space map of '%s': it has both continuous (%d) and discrete (%d) "
                          "state; a map needs a purely continuous or purely discrete system",
                          name, nxc, nxd);
  }
  ev->shape.discrete = nxd > 0;
  ev->shape.nx = ev->shape.discrete ? nxd : nxc;
  if (!ev->shape.discrete) {
    return TEAL_OK;
  }
  double offset;
  return teal_system_periodic_discrete_update(s, &ev->shape.period, &offset, err);
}

/* The clone of ctx and, for a discrete map, its update set. */
static int prepare(teal_state_space_evaluator *ev, const teal_context *ctx, teal_error *err) {
  ev->ctx = teal_context_clone(ctx, err);
  if (!ev->ctx) {
    return err && err->code ? err->code : TEAL_ENOMEM;
  }
  if (!ev->shape.discrete) {
    return TEAL_OK;
  }
  ev->updates = teal_event_set_new(ev->sys);
  if (!ev->updates) {
    return teal_error_set(err, TEAL_ENOMEM, "state-space map: out of memory");
  }
  double t_next;
  return teal_calc_next_update_time(ev->sys, ev->ctx, &t_next, ev->updates);
}

teal_state_space_evaluator *teal_state_space_evaluator_new(const teal_system *sys,
                                                           const teal_context *ctx, int input_port,
                                                           int output_port, teal_error *err) {
  if (!sys || !ctx || teal_context_system(ctx) != sys || !teal_context_is_root(ctx)) {
    teal_error_set(err, TEAL_EINVAL, "state-space map: needs a system and a root context of it");
    return NULL;
  }
  teal_state_space_evaluator *ev = teal_calloc(1, sizeof *ev);
  if (!ev) {
    teal_error_set(err, TEAL_ENOMEM, "state-space map: out of memory");
    return NULL;
  }
  ev->sys = sys;
  ev->in = input_port;
  ev->out = output_port;
  if (classify(ev, err) != TEAL_OK || prepare(ev, ctx, err) != TEAL_OK) {
    teal_state_space_evaluator_free(ev);
    return NULL;
  }
  return ev;
}

void teal_state_space_evaluator_free(teal_state_space_evaluator *ev) {
  if (ev) {
    teal_event_set_free(ev->updates);
    teal_context_free(ev->ctx);
    teal_free(ev);
  }
}

teal_state_space_shape teal_state_space_evaluator_shape(const teal_state_space_evaluator *ev) {
  return ev->shape;
}

teal_context *teal_state_space_evaluator_context(const teal_state_space_evaluator *ev) {
  return ev->ctx;
}

/* Writes (x, u) into the clone. */
static int set_point(teal_state_space_evaluator *ev, const double *x, const double *u) {
  int nx = ev->shape.nx;
  if (ev->shape.discrete) {
    memcpy(teal_context_discrete_state_mut(ev->ctx), x, (size_t)nx * sizeof(double));
  } else if (nx) {
    teal_context_set_continuous_state(ev->ctx, x, nx);
  }
  return ev->in >= 0 ? teal_context_fix_input(ev->ctx, ev->in, u, ev->shape.nu) : TEAL_OK;
}

int teal_state_space_evaluator_eval(teal_state_space_evaluator *ev, const double *x,
                                    const double *u, double *f, double *y) {
  int rc = set_point(ev, x, u);
  if (rc == TEAL_OK && y && ev->out >= 0) {
    rc = teal_calc_vector_output(ev->sys, ev->ctx, ev->out, y);
  }
  if (rc != TEAL_OK || !f) {
    return rc;
  }
  if (!ev->shape.discrete) {
    return teal_calc_time_derivatives(ev->sys, ev->ctx, f);
  }
  rc = teal_dispatch_discrete_updates(ev->sys, ev->ctx, ev->updates);
  if (rc == TEAL_OK) {
    memcpy(f, teal_context_discrete_state(ev->ctx), (size_t)ev->shape.nx * sizeof(double));
  }
  return rc;
}

teal_state_space_evaluator *teal_state_space_evaluator_clone(const teal_state_space_evaluator *ev,
                                                             teal_error *err) {
  if (!ev) {
    teal_error_set(err, TEAL_EINVAL, "state-space map: NULL evaluator to clone");
    return NULL;
  }
  return teal_state_space_evaluator_new(ev->sys, ev->ctx, ev->in, ev->out, err);
}
