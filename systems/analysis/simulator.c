/* The simulator: lifecycle, settings, initialization and the step loop of
 * Drake's AdvanceTo. Integration with error control and witness isolation
 * is in simulator_integrate.c. */
#define _POSIX_C_SOURCE 199309L
#include <limits.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "framework/alloc.h"
#include "systems/analysis/simulator.h"
#include "systems/analysis/simulator_internal.h"

/* ---- the ODE the integrator sees: the context's continuous state -------- */

void teal_simulator_write_state(teal_simulator *sim, double t, const double *x) {
  teal_context_set_time_and_continuous_state(sim->ctx, t, x, sim->n);
}

void teal_simulator_read_state(teal_simulator *sim, double *x) {
  if (sim->n) {
    memcpy(x, teal_context_continuous_state(sim->ctx), (size_t)sim->n * sizeof(double));
  }
}

/* Names the part of the state an index belongs to ("q", "v" or "z"). */
static const char *state_part(const teal_simulator *sim, int i) {
  return i < sim->nq ? "q" : i < sim->nq + sim->nv ? "v" : "z";
}

/* A code's description, or a note that it is none of Teal's. */
static const char *code_name(int rc) {
  const char *name = teal_strerror(rc);
  return strcmp(name, teal_strerror(INT_MIN)) == 0 ? "not a Teal status code" : name;
}

int teal_simulator_blame_failure(teal_simulator *sim, int rc, unsigned long serial,
                                 const char *what) {
  if (rc >= 0 || sim->err.code != TEAL_OK) {
    return rc;
  }
  const teal_error *e = teal_context_error(sim->ctx);
  double t = teal_context_time(sim->ctx);
  if (teal_context_error_count(sim->ctx) != serial && e->code != TEAL_OK && e->message[0]) {
    return teal_error_set(&sim->err, rc, "simulator: %s failed at t = %.17g: %s", what, t,
                          e->message);
  }
  return teal_error_set(&sim->err, rc,
                        "simulator: %s failed at t = %.17g with code %d (%s) "
                        "and left no message",
                        what, t, rc, code_name(rc));
}

/* Notes a failure of one of the ODE's callbacks (`what`, called at (t, x)):
 * its cause, and whether it failed at the step's start point. A step ends at
 * its first failure, so a record written since the step began
 * (sim->step_serial) is this failure's. */
static int ode_failure(teal_simulator *sim, int rc, double t, const double *x, const char *what) {
  sim->ode_failed = 1;
  sim->ode_at_start = t == sim->step_t0 &&
                      (sim->n == 0 || memcmp(x, sim->x0, (size_t)sim->n * sizeof(double)) == 0);
  const teal_error *e = teal_context_error(sim->ctx);
  if (teal_context_error_count(sim->ctx) != sim->step_serial && e->code != TEAL_OK &&
      e->message[0]) {
    teal_error_copy(&sim->ode_err, e);
  } else {
    teal_error_set(&sim->ode_err, rc,
                   "%s failed at t = %.17g with code %d (%s) and left no "
                   "message",
                   what, t, rc, code_name(rc));
  }
  return rc;
}

/* rc, noting a failure (ode_failure) out of the path every call takes. */
static inline int ode_status(teal_simulator *sim, int rc, double t, const double *x,
                             const char *what) {
  return rc == TEAL_OK ? rc : ode_failure(sim, rc, t, x, what);
}

static int ode_derivatives(double t, const double *x, double *xdot, void *user) {
  teal_simulator *sim = user;
  teal_simulator_write_state(sim, t, x);
  int rc = teal_calc_time_derivatives(sim->sys, sim->ctx, xdot);
  for (int i = 0; rc == TEAL_OK && i < sim->n; i++) {
    if (!isfinite(xdot[i])) {
      rc = teal_context_report_error(sim->ctx, TEAL_ENONFINITE,
                                     "time derivative %d (a %s entry) is %g at t = %.17g", i,
                                     state_part(sim, i), xdot[i], t);
    }
  }
  return ode_status(sim, rc, t, x, "time derivatives");
}

static int ode_v_to_qdot(double t, const double *x, const double *v, double *qdot, void *user) {
  teal_simulator *sim = user;
  teal_simulator_write_state(sim, t, x);
  return ode_status(sim, teal_map_velocity_to_qdot(sim->sys, sim->ctx, v, qdot), t, x,
                    "velocity map");
}

/* df/dx composed from the leaves' analytic Jacobian hooks (implicit
 * integrators). A hook declining (the plant with contact) is no failure:
 * the integrator differences the derivatives instead, and so does every
 * later step, the reason being structural as a rule. */
static int ode_jacobian(double t, const double *x, double *J, void *user) {
  teal_simulator *sim = user;
  teal_simulator_write_state(sim, t, x);
  int rc = teal_state_jacobian_calc(sim->jac, sim->ctx, J);
  if (rc == TEAL_EUNSUPPORTED) {
    sim->ode.jacobian = NULL;
    return rc;
  }
  return ode_status(sim, rc, t, x, "analytic Jacobian");
}

/* ---- lifecycle ------------------------------------------------------------ */

static void free_workspace(teal_simulator *sim) {
  teal_integrator_free(sim->integ);
  sim->integ = NULL;
  teal_free(sim->x0);
  sim->x0 = NULL;
  teal_free(sim->triggered);
  sim->triggered = NULL;
}

int teal_simulator_realloc_integrator(teal_simulator *sim, teal_error *err) {
  teal_integrator *integ = teal_integrator_new(sim->type, sim->nq, sim->nv, sim->nz, err);
  if (!integ) {
    return err ? err->code : TEAL_ENOMEM;
  }
  teal_integrator_free(sim->integ);
  sim->integ = integ;
  return TEAL_OK;
}

/* Allocates the integrator and the arrays (x0, x1, xerr, xm, w0, w1, wm). */
static int alloc_workspace(teal_simulator *sim, teal_error *err) {
  free_workspace(sim);
  sim->integ = teal_integrator_new(sim->type, sim->nq, sim->nv, sim->nz, err);
  size_t n = (size_t)sim->n + 1, nw = (size_t)sim->nw + 1;
  sim->x0 = teal_calloc(4 * n + 3 * nw, sizeof(double));
  sim->triggered = teal_calloc(2 * nw, 1);
  if (!sim->integ || !sim->x0 || !sim->triggered) {
    free_workspace(sim);
    return teal_error_set(err, TEAL_ENOMEM, "simulator: out of memory");
  }
  sim->x1 = sim->x0 + n;
  sim->xerr = sim->x1 + n;
  sim->xm = sim->xerr + n;
  sim->w0 = sim->xm + n;
  sim->w1 = sim->w0 + nw;
  sim->wm = sim->w1 + nw;
  sim->witness_dir = sim->triggered + nw;
  for (int i = 0; i < sim->nw; i++) {
    sim->witness_dir[i] = (unsigned char)teal_system_witness_direction(sim->sys, i);
  }
  return TEAL_OK;
}

static int alloc_event_sets(teal_simulator *sim) {
  teal_event_set **sets[] = {&sim->init, &sim->per_step, &sim->timed, &sim->witnessed,
                             &sim->merged};
  for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
    *sets[i] = teal_event_set_new(sim->sys);
    if (!*sets[i]) {
      return TEAL_ENOMEM;
    }
  }
  return TEAL_OK;
}

static void set_defaults(teal_simulator *sim) {
  sim->type = teal_integrator_rk3;
  sim->accuracy = 1e-4;
  sim->max_step = 0.1;
  sim->min_step = 1e-14;
  sim->error_floor = 1.0;
  sim->witness_tol = 1e-8;
}

static void init_ode(teal_simulator *sim) {
  sim->ode.nq = sim->nq;
  sim->ode.nv = sim->nv;
  sim->ode.nz = sim->nz;
  sim->ode.derivatives = ode_derivatives;
  sim->ode.v_to_qdot = sim->nq != sim->nv ? ode_v_to_qdot : NULL;
  sim->ode.user = sim;
}

/* As Drake: a context that names an accuracy sets the simulator's; else
 * the simulator's default is written to the context, so that leaves that
 * read it (a plant's constraint projection) see the accuracy in use. */
static void sync_accuracy(teal_simulator *sim) {
  double accuracy = teal_context_accuracy(sim->ctx);
  if (accuracy > 0) {
    sim->accuracy = accuracy;
  } else {
    teal_context_set_accuracy(sim->ctx, sim->accuracy);
  }
}

void teal_simulator_select_jacobian(teal_simulator *sim) {
  /* analytic Jacobians save implicit methods n derivative calls each */
  sim->ode.jacobian = sim->jac && sim->analytic_jacobian ? ode_jacobian : NULL;
}

/* The composed analytic Jacobian when the hooks allow it (else the reason
 * is kept for teal_simulator_set_analytic_jacobian). */
static int init_jacobian(teal_simulator *sim) {
  sim->analytic_jacobian = 1;
  if (sim->n > 0) {
    sim->jac = teal_state_jacobian_new(sim->ctx, &sim->jac_why);
  } else {
    teal_error_set(&sim->jac_why, TEAL_EUNSUPPORTED, "the system has no continuous state");
  }
  teal_simulator_select_jacobian(sim);
  return sim->jac || sim->jac_why.code != TEAL_ENOMEM ? TEAL_OK : TEAL_ENOMEM;
}

teal_simulator *teal_simulator_new(const teal_system *sys, teal_context *ctx, teal_error *err) {
  if (!sys || (ctx && (teal_context_system(ctx) != sys || !teal_context_is_root(ctx)))) {
    teal_error_set(err, TEAL_EINVAL, "simulator_new: %s", !sys ? "NULL system"
                   : "the context is not a root context of this system");
    return NULL;
  }
  teal_simulator *sim = teal_calloc(1, sizeof *sim);
  if (!sim) {
    teal_error_set(err, TEAL_ENOMEM, "simulator_new: out of memory");
    return NULL;
  }
  sim->sys = sys;
  sim->ctx = ctx ? ctx : teal_context_new(sys, err);
  sim->owns_ctx = ctx == NULL;
  set_defaults(sim);
  sim->n = teal_system_num_continuous_states(sys, &sim->nq, &sim->nv, &sim->nz);
  sim->nw = teal_system_num_witnesses(sys);
  sim->project = teal_system_has_projection(sys);
  sim->project_error = teal_system_has_error_projection(sys);
  sim->error_projection = 1;
  init_ode(sim);
  if (!sim->ctx || alloc_workspace(sim, err) != TEAL_OK || alloc_event_sets(sim) != TEAL_OK ||
      init_jacobian(sim) != TEAL_OK) {
    if (sim->ctx) {
      /* the workspace or the event sets: both fail only for lack of memory */
      teal_error_set(err, TEAL_ENOMEM, "simulator_new: out of memory");
    }
    teal_simulator_free(sim);
    return NULL;
  }
  sync_accuracy(sim);
  return sim;
}

void teal_simulator_free(teal_simulator *sim) {
  if (!sim) {
    return;
  }
  free_workspace(sim);
  teal_state_jacobian_free(sim->jac);
  teal_event_set_free(sim->init);
  teal_event_set_free(sim->per_step);
  teal_event_set_free(sim->timed);
  teal_event_set_free(sim->witnessed);
  teal_event_set_free(sim->merged);
  if (sim->owns_ctx) {
    teal_context_free(sim->ctx);
  }
  teal_free(sim);
}

teal_context *teal_simulator_context(teal_simulator *sim) { return sim ? sim->ctx : NULL; }
const teal_system *teal_simulator_system(const teal_simulator *sim) {
  return sim ? sim->sys : NULL;
}
const teal_integrator *teal_simulator_integrator(const teal_simulator *sim) {
  return sim ? sim->integ : NULL;
}

const teal_error *teal_simulator_error(const teal_simulator *sim) {
  return sim ? &sim->err : NULL;
}

teal_sim_stats teal_simulator_get_stats(const teal_simulator *sim) {
  teal_sim_stats s;
  memset(&s, 0, sizeof s);
  if (sim) {
    s = sim->stats;
    if (s.smallest_step > s.largest_step) {
      s.smallest_step = 0.0; /* no integration step was taken */
    }
    s.derivative_evals = teal_integrator_get_counts(sim->integ).derivative_evals -
                         sim->derivative_base;
  }
  return s;
}
