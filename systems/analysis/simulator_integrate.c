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

/* Failures a smaller step may cure (implicit methods' Newton solves). */
static int retryable(int rc) { return rc == TEAL_ENOCONV || rc == TEAL_ESINGULAR; }

static int shrink(teal_simulator *sim, double *h, double factor, double t0, const char *why) {
  sim->stats.failed_steps++;
  *h *= factor;
  if (*h < sim->min_step) {
    return teal_error_set(&sim->err, TEAL_ESTEPSIZE, "simulator: step size %g at t = %.17g "
                          "fell below the minimum %g (%s)", *h, t0, sim->min_step, why);
  }
  return TEAL_OK;
}

/* Takes one accepted step from (t0, x0) toward target into x1; *h is the
 * step taken and *reached tells whether it lands on target. */
static int take_step(teal_simulator *sim, double t0, double target, double *h, int *reached) {
  double trial = first_step(sim);
  for (;;) {
    if (sim->fixed_step == 0.0) {
      trial = fmin(trial, sim->max_step); /* a fixed step is taken as given */
    }
    *reached = t0 + trial * stretch >= target;
    *h = *reached ? target - t0 : representable_step(t0, trial);
    sim->ode_failed = 0;
    int rc = teal_integrator_step(sim->integ, &sim->ode, t0, *h, sim->x0, sim->x1,
                                  error_controlled(sim) ? sim->xerr : NULL);
    if (retryable(rc) && (error_controlled(sim) || sim->type->implicit)) {
      rc = shrink(sim, &trial, 0.25, t0, teal_integrator_error(sim->integ)->message);
      trial = fmin(trial, *h * 0.25);
      if (rc == TEAL_OK) {
        continue;
      }
    } else if (rc < 0 && !sim->ode_failed) {
      /* the method failed by itself: its message, not the context's */
      rc = teal_error_set(&sim->err, rc, "simulator: %s",
                          teal_integrator_error(sim->integ)->message);
    }
    if (rc == TEAL_OK && !all_finite(sim->x1, sim->n)) {
      rc = teal_error_set(&sim->err, TEAL_ENONFINITE, "simulator: the state became non-finite "
                          "in a step of %g from t = %.17g", *h, t0);
    }
    if (rc || !error_controlled(sim)) {
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

static int witness_at(teal_simulator *sim, double t, const double *x, double *w) {
  teal_simulator_write_state(sim, t, x);
  return teal_calc_witness_values(sim->sys, sim->ctx, w);
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
    int rc = teal_integrator_step(sim->integ, &sim->ode, t0, mid, sim->x0, sim->xm, NULL);
    if (rc == TEAL_OK) {
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
  return teal_collect_witness_events(sim->sys, sim->ctx, sim->triggered, sim->witnessed);
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
    return teal_context_set_time(sim->ctx, target);
  }
  teal_simulator_read_state(sim, sim->x0);
  int rc = sim->nw ? teal_calc_witness_values(sim->sys, sim->ctx, sim->w0) : TEAL_OK;
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
  if (sim->project && (rc = teal_project_continuous_state(sim->sys, sim->ctx)) != TEAL_OK) {
    teal_simulator_write_state(sim, t0, sim->x0);
    return teal_error_set(&sim->err, rc, "simulator: state projection failed after the step "
                          "from t = %.17g: %s", t0, teal_context_error(sim->ctx)->message);
  }
  sim->time_triggered = reached && target == t_event;
  record_step(sim, h);
  return TEAL_OK;
}
