/* One integration step of the simulator: fixed or error-controlled, never
 * past the next timed event, shortened by bisection to isolate the first
 * witness zero crossing. */
#include <math.h>
#include <string.h>

#include "systems/analysis/simulator_internal.h"

static const double safety = 0.9, max_growth = 5.0, min_shrink = 0.2;
static const double stretch = 1.01; /* reach the target rather than leave a sliver */

/* Weighted infinity norm: q absolute, v and z relative to
 * max(|x0|, |x1|, floor). */
static double error_norm(const teal_simulator *sim) {
  double norm = 0.0;
  for (int i = 0; i < sim->n; i++) {
    double scale = 1.0;
    if (i >= sim->nq) {
      scale = fmax(sim->error_floor, fmax(fabs(sim->x0[i]), fabs(sim->x1[i])));
    }
    norm = fmax(norm, fabs(sim->xerr[i]) / scale);
  }
  return norm;
}

/* Step-size factor from the error norm (the usual exponent 1/(q+1)). */
static double step_factor(const teal_simulator *sim, double norm) {
  if (norm == 0.0) {
    return max_growth;
  }
  double f = safety * pow(sim->accuracy / norm, 1.0 / (sim->type->error_order + 1));
  return fmin(max_growth, fmax(min_shrink, f));
}

/* The step from t0 whose end t0 + h is exact in floating point: the state
 * integrated over it then carries exactly the time it is written with,
 * instead of drifting from it by the rounding of a million t += h. */
static double representable_step(double t0, double h) { return (t0 + h) - t0; }

static int error_controlled(const teal_simulator *sim) {
  return sim->fixed_step == 0.0 && sim->type->error_order > 0;
}

static double first_step(const teal_simulator *sim) {
  if (!error_controlled(sim)) {
    return sim->fixed_step > 0 ? sim->fixed_step : sim->max_step;
  }
  return sim->h_next > 0 ? sim->h_next : fmin(sim->max_step, 1e-3);
}

static int all_finite(const double *x, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return 0;
    }
  }
  return 1;
}

/* Whether a failed step may succeed when shorter. Only an implicit
 * method's Newton iterates come closer to the start as the step shrinks:
 * its Newton failure (ENOCONV), a singular iteration matrix (ESINGULAR) or
 * a callback failing with those at an iterate may go away. A callback that
 * fails at the start point fails the same at any step, and one that fails
 * under an explicit method reports the system's own trouble (retrying would
 * only walk the run up to it and then blame the step size). */
static int retryable(const teal_simulator *sim, int rc) {
  return sim->type->implicit && (rc == TEAL_ENOCONV || rc == TEAL_ESINGULAR) &&
         !(sim->ode_failed && sim->ode_at_start);
}

/* The cause of a failed integrator step: the failing callback's, else the
 * method's own message. */
static const char *step_cause(const teal_simulator *sim, int rc) {
  const char *m =
      sim->ode_failed ? sim->ode_err.message : teal_integrator_error(sim->integ)->message;
  return m[0] ? m : teal_strerror(rc);
}

/* Runs the integrator over [t0, t0 + h] from x0 into x. */
static int integrator_step(teal_simulator *sim, double t0, double h, double *x, double *xerr) {
  sim->step_t0 = t0;
  sim->step_serial = teal_context_error_count(sim->ctx);
  sim->ode_failed = sim->ode_at_start = 0;
  return teal_integrator_step(sim->integ, &sim->ode, t0, h, sim->x0, x, xerr);
}

static int step_failed(teal_simulator *sim, int rc, double t0, double h) {
  return teal_error_set(&sim->err, rc, "simulator: the step of %g from t = %.17g failed: %s", h, t0,
                        step_cause(sim, rc));
}

static int shrink(teal_simulator *sim, double *h, double factor, double t0, const char *why) {
  sim->stats.failed_steps++;
  *h *= factor;
  if (*h < sim->min_step) {
    return teal_error_set(&sim->err, TEAL_ESTEPSIZE,
                          "simulator: step size %g at t = %.17g "
                          "fell below the minimum %g (%s)",
                          *h, t0, sim->min_step, why);
  }
  return TEAL_OK;
}

/* The step toward target from t0 for a trial size; fails when the time
 * cannot resolve it. */
static int next_step(teal_simulator *sim, double t0, double target, double trial, double *h,
                     int *reached) {
  *reached = t0 + trial * stretch >= target;
  *h = *reached ? target - t0 : representable_step(t0, trial);
  if (!(*h > 0)) {
    return teal_error_set(&sim->err, TEAL_ESTEPSIZE,
                          "simulator: at t = %.17g a step of %g "
                          "rounds to zero: time cannot advance (its resolution there is %g)",
                          t0, trial, nextafter(t0, INFINITY) - t0);
  }
  return TEAL_OK;
}

/* Removes from xerr, when the leaves project their error estimates, what
 * their state projection will remove from x1 anyway (Simbody's error
 * estimate projection), at x1 written into the context at time t. */
static int project_error(teal_simulator *sim, double t) {
  if (!teal_simulator_uses_error_projection(sim)) {
    return TEAL_OK;
  }
  teal_simulator_write_state(sim, t, sim->x1);
  unsigned long serial = teal_context_error_count(sim->ctx);
  int rc = teal_project_error_estimate(sim->sys, sim->ctx, sim->xerr);
  return teal_simulator_blame(sim, rc, serial, "the error estimate projection");
}

/* Takes one accepted step from (t0, x0) toward target into x1; *h is the
 * step taken and *reached tells whether it lands on target. */
static int take_step(teal_simulator *sim, double t0, double target, double *h, int *reached) {
  double trial = first_step(sim);
  for (;;) {
    if (sim->fixed_step == 0.0) {
      trial = fmin(trial, sim->max_step); /* a fixed step is taken as given */
    }
    int rc = next_step(sim, t0, target, trial, h, reached);
    if (rc == TEAL_OK) {
      rc = integrator_step(sim, t0, *h, sim->x1, error_controlled(sim) ? sim->xerr : NULL);
    }
    if (rc < 0 && sim->err.code == TEAL_OK && retryable(sim, rc)) {
      rc = shrink(sim, &trial, 0.25, t0, step_cause(sim, rc));
      trial = fmin(trial, *h * 0.25);
      if (rc == TEAL_OK) {
        continue;
      }
    } else if (rc < 0 && sim->err.code == TEAL_OK) {
      rc = step_failed(sim, rc, t0, *h);
    }
    if (rc == TEAL_OK && !all_finite(sim->x1, sim->n)) {
      rc = teal_error_set(&sim->err, TEAL_ENONFINITE, "simulator: the state became non-finite "
                          "in a step of %g from t = %.17g", *h, t0);
    }
    if (rc || !error_controlled(sim) ||
        (rc = project_error(sim, *reached ? target : t0 + *h)) != TEAL_OK) {
      return rc;
    }
    double norm = error_norm(sim);
    if (norm <= sim->accuracy) {
      sim->h_next = trial * step_factor(sim, norm);
      return TEAL_OK;
    }
    trial = *h;
    if ((rc = shrink(sim, &trial, step_factor(sim, norm), t0, "error control")) != TEAL_OK) {
      return rc;
    }
  }
}

/* Flags the witnesses whose sign change from a to b triggers them; returns
 * how many did. */
static int mark_triggered(teal_simulator *sim, const double *a, const double *b) {
  int count = 0;
  for (int i = 0; i < sim->nw; i++) {
    int dir = sim->witness_dir[i];
    int down = a[i] > 0 && b[i] <= 0, up = a[i] < 0 && b[i] >= 0;
    int hit = dir == TEAL_WITNESS_POSITIVE_TO_NEGATIVE ? down
              : dir == TEAL_WITNESS_NEGATIVE_TO_POSITIVE ? up : (down || up);
    sim->triggered[i] = (unsigned char)hit;
    count += hit;
  }
  return count;
}

/* The witness values in the context's state. */
static int witness_values(teal_simulator *sim, double *w) {
  unsigned long serial = teal_context_error_count(sim->ctx);
  return teal_simulator_blame(sim, teal_calc_witness_values(sim->sys, sim->ctx, w), serial,
                              "the witness functions");
}

static int witness_at(teal_simulator *sim, double t, const double *x, double *w) {
  teal_simulator_write_state(sim, t, x);
  return witness_values(sim, w);
}

/* Bisects the step [0, *h] down to the witness tolerance so that it ends
 * just after the first crossing; x1/w1 hold the state at the new end. */
static int bisect_crossing(teal_simulator *sim, double t0, double *h) {
  double lo = 0.0, hi = *h;
  while (hi - lo > sim->witness_tol) {
    double mid = representable_step(t0, 0.5 * (lo + hi));
    if (!(mid > lo && mid < hi)) {
      break; /* no time between lo and hi at t0's precision */
    }
    sim->stats.witness_trials++;
    int rc = integrator_step(sim, t0, mid, sim->xm, NULL);
    if (rc < 0) {
      rc = step_failed(sim, rc, t0, mid);
    } else {
      rc = witness_at(sim, t0 + mid, sim->xm, sim->wm);
    }
    if (rc) {
      return rc;
    }
    if (mark_triggered(sim, sim->w0, sim->wm)) {
      hi = mid;
      memcpy(sim->x1, sim->xm, (size_t)sim->n * sizeof(double));
      memcpy(sim->w1, sim->wm, (size_t)sim->nw * sizeof(double));
    } else {
      lo = mid;
    }
  }
  *h = hi;
  return TEAL_OK;
}

/* Checks the step for witness crossings and isolates the first one. */
static int handle_witnesses(teal_simulator *sim, double t0, double *h, int *reached) {
  double h_full = *h;
  int rc = witness_at(sim, t0 + *h, sim->x1, sim->w1);
  if (rc || !mark_triggered(sim, sim->w0, sim->w1)) {
    return rc;
  }
  if ((rc = bisect_crossing(sim, t0, h)) != TEAL_OK) {
    return rc;
  }
  *reached = *reached && *h == h_full;
  mark_triggered(sim, sim->w0, sim->w1);
  sim->witness_triggered = 1;
  unsigned long serial = teal_context_error_count(sim->ctx);
  rc = teal_collect_witness_events(sim->sys, sim->ctx, sim->triggered, sim->witnessed);
  return teal_simulator_blame(sim, rc, serial, "collecting the witness events");
}

static void record_step(teal_simulator *sim, double h) {
  sim->stats.smallest_step = fmin(sim->stats.smallest_step, h);
  sim->stats.largest_step = fmax(sim->stats.largest_step, h);
}

int teal_simulator_integrate(teal_simulator *sim, double t_event, double t_final) {
  double t0 = teal_context_time(sim->ctx), target = fmin(t_event, t_final);
  sim->time_triggered = 0;
  sim->witness_triggered = 0;
  if (target <= t0 || (sim->n == 0 && sim->nw == 0)) {
    /* nothing to integrate: jump (or stay) to the target */
    sim->time_triggered = target == t_event;
    unsigned long serial = teal_context_error_count(sim->ctx);
    return teal_simulator_blame(sim, teal_context_set_time(sim->ctx, target), serial,
                                "setting the time");
  }
  teal_simulator_read_state(sim, sim->x0);
  int rc = sim->nw ? witness_values(sim, sim->w0) : TEAL_OK;
  double h = 0.0;
  int reached = 0;
  if (rc == TEAL_OK) {
    rc = take_step(sim, t0, target, &h, &reached);
  }
  if (rc == TEAL_OK && sim->nw) {
    rc = handle_witnesses(sim, t0, &h, &reached);
  }
  if (rc == TEAL_OK && !reached && !(t0 + h > t0)) {
    rc = teal_error_set(&sim->err, TEAL_ESTEPSIZE, "simulator: a step of %g cannot advance "
                        "time past %.17g", h, t0);
  }
  if (rc != TEAL_OK) {
    teal_simulator_write_state(sim, t0, sim->x0); /* keep the last accepted state */
    return rc;
  }
  teal_simulator_write_state(sim, reached ? target : t0 + h, sim->x1);
  unsigned long serial = teal_context_error_count(sim->ctx);
  if (sim->project && (rc = teal_project_continuous_state(sim->sys, sim->ctx)) != TEAL_OK) {
    rc = teal_simulator_blame(sim, rc, serial, "the state projection after a step");
    teal_simulator_write_state(sim, t0, sim->x0);
    return rc;
  }
  sim->time_triggered = reached && target == t_event;
  record_step(sim, h);
  return TEAL_OK;
}
