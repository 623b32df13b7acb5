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

/* Fills status (when not NULL) with a failure before any run: no
 * simulator, so no time. */
static int no_simulator(teal_sim_status *status, const char *fn) {
  if (status) {
    memset(status, 0, sizeof *status);
    status->outcome = TEAL_SIM_FAILED;
    status->code = TEAL_EINVAL;
    status->time = NAN;
    snprintf(status->message, sizeof status->message, "%s: NULL simulator", fn);
  }
  return TEAL_EINVAL;
}

/* Fills status; returns the code a public call returns for it. */
static int finish(teal_simulator *sim, teal_sim_status *status, int rc) {
  teal_sim_status s;
  memset(&s, 0, sizeof s);
  s.time = teal_context_time(sim->ctx);
  s.outcome = rc == TEAL_OK     ? TEAL_SIM_REACHED_END
              : rc == TEAL_STOP ? TEAL_SIM_TERMINATED
                                : TEAL_SIM_FAILED;
  s.code = rc == TEAL_STOP ? TEAL_OK : rc;
  if (s.outcome == TEAL_SIM_FAILED) {
    /* every failure path records its cause in sim->err; this run's, since
     * the run cleared it first */
    if (sim->err.code == TEAL_OK) {
      teal_error_set(&sim->err, rc, "simulator: failed at t = %.17g with code %d (%s)", s.time, rc,
                     teal_strerror(rc));
    }
    snprintf(s.message, sizeof s.message, "%s", sim->err.message);
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

/* Dispatches the updates of one kind in sim->merged, blaming a failure. */
static int dispatch_updates(teal_simulator *sim, teal_event_kind kind, int *stop) {
  unsigned long serial = teal_context_error_count(sim->ctx);
  int rc = kind == TEAL_EVENT_UNRESTRICTED_UPDATE
               ? teal_dispatch_unrestricted_updates(sim->sys, sim->ctx, sim->merged)
               : teal_dispatch_discrete_updates(sim->sys, sim->ctx, sim->merged);
  return note(teal_simulator_blame(sim, rc, serial,
                                   kind == TEAL_EVENT_UNRESTRICTED_UPDATE ? "an unrestricted update"
                                                                          : "a discrete update"),
              stop);
}

/* Applies the unrestricted, then the discrete updates in sim->merged. */
static int apply_updates(teal_simulator *sim, int *stop) {
  const teal_event_set *m = sim->merged;
  int nu = teal_event_set_count(m, TEAL_EVENT_UNRESTRICTED_UPDATE);
  int nd = teal_event_set_count(m, TEAL_EVENT_DISCRETE_UPDATE);
  int rc = TEAL_OK;
  if (nu) {
    rc = dispatch_updates(sim, TEAL_EVENT_UNRESTRICTED_UPDATE, stop);
    sim->stats.unrestricted_updates += nu;
  }
  if (rc == TEAL_OK && nd) {
    rc = dispatch_updates(sim, TEAL_EVENT_DISCRETE_UPDATE, stop);
    sim->stats.discrete_updates += nd;
  }
  if (nu || nd) {
    teal_integrator_reset(sim->integ); /* derivatives may have changed */
  }
  return rc;
}

static int dispatch_publish(teal_simulator *sim, const teal_event_set *set, int *stop) {
  unsigned long serial = teal_context_error_count(sim->ctx);
  int rc = teal_dispatch_publish(sim->sys, sim->ctx, set);
  return note(teal_simulator_blame(sim, rc, serial, "a publish event"), stop);
}

/* The publish events of set, if it has any (most steps have none). */
static inline int publish(teal_simulator *sim, const teal_event_set *set, int *stop) {
  int n = teal_event_set_count(set, TEAL_EVENT_PUBLISH);
  sim->stats.publishes += n;
  return n ? dispatch_publish(sim, set, stop) : TEAL_OK;
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
    unsigned long serial = teal_context_error_count(sim->ctx);
    rc = teal_force_publish(sim->sys, sim->ctx);
    rc = note(teal_simulator_blame(sim, rc, serial, "a forced publish"), stop);
  }
  return rc;
}

/* Runs the monitor. A positive code other than TEAL_STOP counts as a
 * callback failure, as for handlers. */
static int call_monitor(teal_simulator *sim, int *stop) {
  unsigned long serial = teal_context_error_count(sim->ctx);
  int rc = sim->monitor(sim->sys, sim->ctx, sim->monitor_user);
  if (rc > 0 && rc != TEAL_STOP) {
    rc = TEAL_ECALLBACK;
  }
  return note(teal_simulator_blame(sim, rc, serial, "the monitor"), stop);
}

/* Runs the monitor, if there is one. */
static inline int run_monitor(teal_simulator *sim, int *stop) {
  return sim->monitor ? call_monitor(sim, stop) : TEAL_OK;
}

/* Collects the events of one trigger into set, blaming a failure. */
static int collect(teal_simulator *sim, teal_trigger trigger, teal_event_set *set) {
  unsigned long serial = teal_context_error_count(sim->ctx);
  int rc = teal_collect_events(sim->sys, sim->ctx, trigger, set);
  return teal_simulator_blame(sim, rc, serial, "collecting events");
}

/* The next timed event after the context time into *t_next (its events in
 * sim->timed), blaming a failure. */
static int next_update_time(teal_simulator *sim, double *t_next) {
  unsigned long serial = teal_context_error_count(sim->ctx);
  int rc = teal_calc_next_update_time(sim->sys, sim->ctx, t_next, sim->timed);
  return teal_simulator_blame(sim, rc, serial, "finding the next timed event");
}

/* Records a failed merge of the events due now. */
static int merge_failed(teal_simulator *sim, int rc) {
  if (sim->err.code == TEAL_OK) {
    teal_error_set(&sim->err, rc, "simulator: merging the events due at t = %.17g failed: %s",
                   teal_context_time(sim->ctx), teal_strerror(rc));
  }
  return rc;
}

/* Merges src into sim->merged, naming a failure. */
static inline int merge(teal_simulator *sim, const teal_event_set *src) {
  int rc = teal_event_set_merge(sim->merged, src);
  return rc < 0 ? merge_failed(sim, rc) : rc;
}

/* Timed events due exactly now: look from just before the current time. */
static int find_events_at_start(teal_simulator *sim) {
  double t = teal_context_time(sim->ctx), t_next;
  unsigned long serial = teal_context_error_count(sim->ctx);
  teal_context_set_time(sim->ctx, nextafter(t, -INFINITY));
  int rc = teal_calc_next_update_time(sim->sys, sim->ctx, &t_next, sim->timed);
  teal_context_set_time(sim->ctx, t);
  rc = teal_simulator_blame(sim, rc, serial, "finding the timed events due at the start");
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
  int rc = collect(sim, TEAL_TRIGGER_INITIALIZATION, sim->init);
  if (rc == TEAL_OK) {
    teal_event_set_clear(sim->merged);
    rc = merge(sim, sim->init);
  }
  if (rc == TEAL_OK) {
    rc = apply_updates(sim, stop);
  }
  if (rc == TEAL_OK) {
    rc = collect(sim, TEAL_TRIGGER_PER_STEP, sim->per_step);
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
  if (rc == TEAL_OK) {
    rc = run_monitor(sim, stop);
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
    return no_simulator(status, "simulator_initialize");
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
  int rc = merge(sim, sim->per_step);
  if (rc == TEAL_OK && sim->time_triggered) {
    rc = merge(sim, sim->timed);
  }
  if (rc == TEAL_OK && sim->witness_triggered) {
    rc = merge(sim, sim->witnessed);
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
    rc = next_update_time(sim, &t_event);
  }
  if (rc == TEAL_OK) {
    rc = teal_simulator_integrate(sim, t_event, t_final);
  }
  if (rc != TEAL_OK) {
    return rc;
  }
  sim->stats.steps++;
  rc = publish_now(sim, stop);
  if (rc == TEAL_OK) {
    rc = run_monitor(sim, stop);
  }
  pace(sim);
  return rc;
}

/* Checks that t_final can be reached from t: a finite time not before t
 * that integration steps (of the fixed step, else at most the max step)
 * can reach in time and in at most TEAL_SIM_MAX_STEPS of them. */
static int check_end_time(teal_simulator *sim, double t, double t_final) {
  if (!isfinite(t_final) || t_final < t) {
    return teal_error_set(&sim->err, TEAL_EINVAL, "simulator_advance_to: end time %.17g is %s",
                          t_final, isfinite(t_final) ? "before the current time" : "not finite");
  }
  if (t_final == t || (sim->n == 0 && sim->nw == 0)) {
    return TEAL_OK; /* no integration steps: the run jumps from event to event */
  }
  const char *which = sim->fixed_step > 0 ? "fixed" : "max";
  double h = sim->fixed_step > 0 ? sim->fixed_step : sim->max_step;
  if (!(t_final + h > t_final)) {
    return teal_error_set(&sim->err, TEAL_EINVAL,
                          "simulator_advance_to: end time %.17g cannot "
                          "be reached: a step of %g (the %s step) rounds to zero there, where "
                          "time resolves only %g",
                          t_final, h, which, nextafter(t_final, INFINITY) - t_final);
  }
  double steps = (t_final - t) / h;
  if (steps > TEAL_SIM_MAX_STEPS) {
    return teal_error_set(&sim->err, TEAL_EINVAL,
                          "simulator_advance_to: reaching t = %.17g "
                          "from %.17g takes at least %.3g steps of %g (the %s step), more than "
                          "the %g one call may take; raise the %s step or advance in shorter "
                          "calls",
                          t_final, t, steps, h, which, TEAL_SIM_MAX_STEPS, which);
  }
  return TEAL_OK;
}

int teal_simulator_advance_to(teal_simulator *sim, double t_final, teal_sim_status *status) {
  if (!sim) {
    return no_simulator(status, "simulator_advance_to");
  }
  teal_error_clear(&sim->err);
  int rc = check_end_time(sim, teal_context_time(sim->ctx), t_final);
  if (rc != TEAL_OK) {
    return finish(sim, status, rc);
  }
  int stop = 0;
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
