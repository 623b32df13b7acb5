/* Simulator layout shared by its sources. Not installed. */
#ifndef TEAL_SYSTEMS_ANALYSIS_SIMULATOR_INTERNAL_H
#define TEAL_SYSTEMS_ANALYSIS_SIMULATOR_INTERNAL_H

#include "framework/events.h"
#include "framework/state_jacobian.h"
#include "systems/analysis/simulator.h"

struct teal_simulator {
  const teal_system *sys;
  teal_context *ctx;
  int owns_ctx;
  int nq, nv, nz, n, nw;

  /* settings */
  const teal_integrator_type *type;
  double fixed_step;   /* > 0: fixed steps */
  double accuracy;     /* error control target */
  double max_step, min_step, error_floor, witness_tol, realtime_rate;
  int publish_every_step;
  teal_monitor_fn monitor;
  void *monitor_user;

  /* workspace, allocated by teal_simulator_new / set_integrator */
  teal_integrator *integ;
  teal_ode ode;
  teal_state_jacobian *jac; /* composed analytic df/dx, NULL when not composable */
  teal_error jac_why;       /* why jac is NULL */
  int analytic_jacobian;    /* setting: implicit methods use jac (default 1) */
  double *x0, *x1, *xerr, *xm, *w0, *w1, *wm; /* xm, wm: bisection trials */
  unsigned char *triggered;
  unsigned char *witness_dir; /* each witness's direction, read once */
  int project;                /* some leaf projects its state after each step */
  int project_error;          /* some leaf projects its error estimate */
  int error_projection;       /* setting: error control uses that projection (default 1) */
  teal_event_set *init, *per_step, *timed, *witnessed, *merged;

  /* run state */
  int initialized;
  int time_triggered, witness_triggered;
  int has_periodic; /* some leaf declares a periodic event (found at initialize) */
  double h_next; /* error control's proposal for the next step */
  double wall_start, sim_start;
  long derivative_base; /* integrator evaluations before initialize */
  /* the step being taken and how its ODE callbacks failed */
  double step_t0;            /* its start time (its start state is x0) */
  unsigned long step_serial; /* the context's error count when it began */
  int ode_failed;            /* a callback of the ODE failed in this step */
  int ode_at_start;          /* ... at the step's start point, where no smaller step helps */
  teal_error ode_err;        /* that failure's cause */
  teal_sim_stats stats;
  teal_error err;
};

/* The most integration steps one advance_to may need, at the least, to
 * reach its end time: (t_final - t) / (fixed step, else max step). Even a
 * one-state explicit Euler step costs some 70 ns, so 1e12 steps are a day
 * of computing at the very least; a longer run is split into calls. */
#define TEAL_SIM_MAX_STEPS 1e12

/* Records in sim->err, unless it already holds this run's failure, why
 * `what` failed with rc (< 0) at the context time: the context's message
 * when the failing call recorded one (the context's error count moved past
 * serial, read before the call), else the code. Returns rc. */
int teal_simulator_blame_failure(teal_simulator *sim, int rc, unsigned long serial,
                                 const char *what);

/* rc, with teal_simulator_blame_failure for a failure (rc < 0): inline, so
 * that the calls that succeed pay one comparison. */
static inline int teal_simulator_blame(teal_simulator *sim, int rc, unsigned long serial,
                                       const char *what) {
  return rc < 0 ? teal_simulator_blame_failure(sim, rc, serial, what) : rc;
}

/* Integrates the continuous state from the context time toward t_event
 * (the next timed event) without passing it or t_final; sets the
 * time/witness triggered flags for the new time. */
int teal_simulator_integrate(teal_simulator *sim, double t_event, double t_final);

/* Replaces the integrator instance by one of sim->type (on failure the
 * old one stays and the code is returned). */
int teal_simulator_realloc_integrator(teal_simulator *sim, teal_error *err);

/* Points the ODE's Jacobian at the composed analytic one when it exists
 * and the setting allows it, else leaves it to finite differences. */
void teal_simulator_select_jacobian(teal_simulator *sim);

/* Reads the context's state into x. */
void teal_simulator_read_state(teal_simulator *sim, double *x);

/* Writes (t, x) into the context. */
void teal_simulator_write_state(teal_simulator *sim, double t, const double *x);

#endif
