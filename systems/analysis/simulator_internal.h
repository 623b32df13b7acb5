/* Simulator layout shared by its sources. Not installed. */
#ifndef TEAL_SYSTEMS_ANALYSIS_SIMULATOR_INTERNAL_H
#define TEAL_SYSTEMS_ANALYSIS_SIMULATOR_INTERNAL_H

#include "framework/events.h"
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
  double *x0, *x1, *xerr, *xm, *w0, *w1, *wm; /* xm, wm: bisection trials */
  unsigned char *triggered;
  unsigned char *witness_dir; /* each witness's direction, read once */
  int project;                /* some leaf projects its state after each step */
  teal_event_set *init, *per_step, *timed, *witnessed, *merged;

  /* run state */
  int initialized;
  int time_triggered, witness_triggered;
  int has_periodic; /* some leaf declares a periodic event (found at initialize) */
  double h_next; /* error control's proposal for the next step */
  double wall_start, sim_start;
  long derivative_base; /* integrator evaluations before initialize */
  int ode_failed;       /* the ODE's callbacks failed (the context holds the message) */
  teal_sim_stats stats;
  teal_error err;
};

/* Integrates the continuous state from the context time toward t_event
 * (the next timed event) without passing it or t_final; sets the
 * time/witness triggered flags for the new time. */
int teal_simulator_integrate(teal_simulator *sim, double t_event, double t_final);

/* Replaces the integrator instance by one of sim->type (on failure the
 * old one stays and the code is returned). */
int teal_simulator_realloc_integrator(teal_simulator *sim, teal_error *err);

/* Reads the context's state into x. */
void teal_simulator_read_state(teal_simulator *sim, double *x);

/* Writes (t, x) into the context. */
void teal_simulator_write_state(teal_simulator *sim, double t, const double *x);

#endif
