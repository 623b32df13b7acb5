/* Initialize and AdvanceTo: the event handling around each integration
 * step, in Drake's order. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "systems/analysis/simulator_internal.h"
#include "systems/analysis/simulator_run.h"

static double wall_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Fills status; returns the code a public call returns for it. */
static int finish(teal_simulator *sim, teal_sim_status *status, int rc) {
  teal_sim_status s;
  memset(&s, 0, sizeof s);
  s.time = teal_context_time(sim->ctx);
  s.outcome = rc == TEAL_OK ? TEAL_SIM_REACHED_END
              : rc == TEAL_STOP ? TEAL_SIM_TERMINATED : TEAL_SIM_FAILED;
  s.code = rc == TEAL_STOP ? TEAL_OK : rc;
  if (s.outcome == TEAL_SIM_FAILED) {
    const teal_error *e = sim->err.code ? &sim->err : teal_context_error(sim->ctx);
    snprintf(s.message, sizeof s.message, "%s", e->code ? e->message : teal_strerror(rc));
    if (sim->err.code == TEAL_OK) {
      /* the failure was recorded elsewhere (the context): teal_simulator_error
       * reports the last failed call too */
      teal_error_set(&sim->err, rc, "%s", s.message);
    }
  } else if (s.outcome == TEAL_SIM_TERMINATED) {
    snprintf(s.message, sizeof s.message, "stopped by a handler or the monitor at t = %.17g",
             s.time);
  }
  if (status) {
    *status = s;
  }
  return s.code;
}

/* Records a dispatch's outcome: TEAL_STOP is remembered, errors returned. */
static int note(int rc, int *stop) {
  if (rc == TEAL_STOP) {
    *stop = 1;
    return TEAL_OK;
  }
  return rc;
}

/* Applies the unrestricted, then the discrete updates in sim->merged. */
static int apply_updates(teal_simulator *sim, int *stop) {
  const teal_event_set *m = sim->merged;
  int nu = teal_event_set_count(m, TEAL_EVENT_UNRESTRICTED_UPDATE);
  int nd = teal_event_set_count(m, TEAL_EVENT_DISCRETE_UPDATE);
  int rc = TEAL_OK;
  if (nu) {
    rc = note(teal_dispatch_unrestricted_updates(sim->sys, sim->ctx, m), stop);
    sim->stats.unrestricted_updates += nu;
  }
  if (rc == TEAL_OK && nd) {
    rc = note(teal_dispatch_discrete_updates(sim->sys, sim->ctx, m), stop);
    sim->stats.discrete_updates += nd;
  }
  if (nu || nd) {
    teal_integrator_reset(sim->integ); /* derivatives may have changed */
  }
  return rc;
}

static int publish(teal_simulator *sim, const teal_event_set *set, int *stop) {
  int n = teal_event_set_count(set, TEAL_EVENT_PUBLISH);
  sim->stats.publishes += n;
  return n ? note(teal_dispatch_publish(sim->sys, sim->ctx, set), stop) : TEAL_OK;
}

/* Publishes at the current time: per-step, timed and witness ones as
 * triggered, then forced ones if publishing every step. */
static int publish_now(teal_simulator *sim, int *stop) {
  int rc = publish(sim, sim->per_step, stop);
  if (rc == TEAL_OK && sim->time_triggered) {
    rc = publish(sim, sim->timed, stop);
  }
  if (rc == TEAL_OK && sim->witness_triggered) {
    rc = publish(sim, sim->witnessed, stop);
  }
  if (rc == TEAL_OK && sim->publish_every_step) {
    sim->stats.publishes++;
    rc = note(teal_force_publish(sim->sys, sim->ctx), stop);
  }
  return rc;
}

/* Timed events due exactly now: look from just before the current time. */
static int find_events_at_start(teal_simulator *sim) {
  double t = teal_context_time(sim->ctx), t_next;
  teal_context_set_time(sim->ctx, nextafter(t, -INFINITY));
  int rc = teal_calc_next_update_time(sim->sys, sim->ctx, &t_next, sim->timed);
  teal_context_set_time(sim->ctx, t);
  sim->time_triggered = rc == TEAL_OK && t_next == t;
  /* a periodic event always has a finite next time, so none exist when
   * there is none: the step loop can then skip the search */
  sim->has_periodic = rc != TEAL_OK || isfinite(t_next);
  return rc;
}

static void reset_stats(teal_simulator *sim) {
  memset(&sim->stats, 0, sizeof sim->stats);
  sim->stats.smallest_step = INFINITY;
  sim->derivative_base = teal_integrator_get_counts(sim->integ).derivative_evals;
  sim->h_next = 0.0;
  sim->witness_triggered = 0;
  teal_integrator_reset(sim->integ);
}

static int run_initialization(teal_simulator *sim, int *stop) {
  int rc = teal_collect_events(sim->sys, sim->ctx, TEAL_TRIGGER_INITIALIZATION, sim->init);
  if (rc == TEAL_OK) {
    teal_event_set_clear(sim->merged);
    rc = teal_event_set_merge(sim->merged, sim->init);
  }
  if (rc == TEAL_OK) {
    rc = apply_updates(sim, stop);
  }
  if (rc == TEAL_OK) {
    rc = teal_collect_events(sim->sys, sim->ctx, TEAL_TRIGGER_PER_STEP, sim->per_step);
  }
  if (rc == TEAL_OK) {
    rc = find_events_at_start(sim);
  }
  if (rc == TEAL_OK) {
    rc = publish(sim, sim->init, stop);
  }
  if (rc == TEAL_OK) {
    rc = publish_now(sim, stop);
  }
  if (rc == TEAL_OK && sim->monitor) {
    rc = note(sim->monitor(sim->sys, sim->ctx, sim->monitor_user), stop);
  }
  return rc;
}

/* Initialization proper; *stop is set when a handler asked to stop. */
static int initialize(teal_simulator *sim, int *stop) {
  teal_error_clear(&sim->err);
  reset_stats(sim);
  sim->wall_start = wall_seconds();
  sim->sim_start = teal_context_time(sim->ctx);
  int rc = run_initialization(sim, stop);
  sim->initialized = rc == TEAL_OK;
  return rc;
}

int teal_simulator_initialize(teal_simulator *sim, teal_sim_status *status) {
  if (!sim) {
    return TEAL_EINVAL;
  }
  int stop = 0;
  int rc = initialize(sim, &stop);
  return finish(sim, status, rc == TEAL_OK && stop ? TEAL_STOP : rc);
}

/* Sleeps until the wall clock catches up with the target rate. */
static void pace(teal_simulator *sim) {
  if (sim->realtime_rate <= 0) {
    return;
  }
  double due = sim->wall_start + (teal_context_time(sim->ctx) - sim->sim_start) /
                                     sim->realtime_rate;
  double wait = due - wall_seconds();
  if (wait > 0) {
    struct timespec ts;
    ts.tv_sec = (time_t)wait;
    ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
    nanosleep(&ts, NULL);
  }
}

/* Gathers the updates due now into sim->merged. */
static int gather_updates(teal_simulator *sim) {
  teal_event_set_clear(sim->merged);
  int rc = teal_event_set_merge(sim->merged, sim->per_step);
  if (rc == TEAL_OK && sim->time_triggered) {
    rc = teal_event_set_merge(sim->merged, sim->timed);
  }
  if (rc == TEAL_OK && sim->witness_triggered) {
    rc = teal_event_set_merge(sim->merged, sim->witnessed);
  }
  return rc;
}

/* One pass of the AdvanceTo loop. */
static int one_step(teal_simulator *sim, double t_final, int *stop) {
  int rc = gather_updates(sim);
  if (rc == TEAL_OK) {
    rc = apply_updates(sim, stop);
  }
  sim->time_triggered = sim->witness_triggered = 0; /* handled: never again */
  if (rc != TEAL_OK || *stop) {
    return rc; /* an update asked to stop: stop at its time, like Drake */
  }
  double t_event = INFINITY;
  if (sim->has_periodic) {
    rc = teal_calc_next_update_time(sim->sys, sim->ctx, &t_event, sim->timed);
  }
  if (rc == TEAL_OK) {
    rc = teal_simulator_integrate(sim, t_event, t_final);
  }
  if (rc != TEAL_OK) {
    return rc;
  }
  sim->stats.steps++;
  rc = publish_now(sim, stop);
  if (rc == TEAL_OK && sim->monitor) {
    rc = note(sim->monitor(sim->sys, sim->ctx, sim->monitor_user), stop);
  }
  pace(sim);
  return rc;
}

int teal_simulator_advance_to(teal_simulator *sim, double t_final, teal_sim_status *status) {
  if (!sim) {
    return TEAL_EINVAL;
  }
  teal_error_clear(&sim->err);
  double t = teal_context_time(sim->ctx);
  if (!isfinite(t_final) || t_final < t) {
    teal_error_set(&sim->err, TEAL_EINVAL, "advance_to: end time %g is before the current time "
                   "%g or not finite", t_final, t);
    return finish(sim, status, TEAL_EINVAL);
  }
  int stop = 0, rc = TEAL_OK;
  if (!sim->initialized) {
    rc = initialize(sim, &stop);
  }
  /* as Drake's loop: at least one pass, so updates due now are applied */
  while (rc == TEAL_OK && !stop) {
    rc = one_step(sim, t_final, &stop);
    if (teal_context_time(sim->ctx) >= t_final) {
      break;
    }
  }
  return finish(sim, status, rc == TEAL_OK && stop ? TEAL_STOP : rc);
}
