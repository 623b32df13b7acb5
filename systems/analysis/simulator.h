/* The simulator: advances a system's context through time with Drake's step
 * semantics.
 *
 * Initialize runs the initialization events (unrestricted, discrete, then
 * publish), then the per-step publishes and the timed publishes due at the
 * start time. Each step of AdvanceTo then:
 *   1. applies the unrestricted and then the discrete updates due now
 *      (per-step ones, timed ones reached by the previous step, witness
 *      ones), each kind two-phase;
 *   2. integrates the continuous state toward the next timed event (never
 *      past it, nor past the end time), shortening the step to isolate a
 *      witness function's zero crossing to the witness time tolerance;
 *   3. runs the publishes due at the new time (per-step, timed, witness),
 *      then the forced publishes when publish-every-step is on, then the
 *      monitor.
 * An update returning TEAL_STOP ends the run at its time, before step 2.
 * Updates due exactly at the end time are applied by the next AdvanceTo,
 * which always makes at least one pass (even to the current time).
 * Implicit integrators use the system's analytic Jacobian when it is a leaf
 * that declares one, else finite differences. Nothing is allocated after
 * initialization. */
#ifndef TEAL_SYSTEMS_ANALYSIS_SIMULATOR_H
#define TEAL_SYSTEMS_ANALYSIS_SIMULATOR_H

#include "framework/context.h"
#include "framework/system.h"
#include "systems/analysis/integrator.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct teal_simulator teal_simulator;

/** How a run ended. */
typedef enum teal_sim_outcome {
  TEAL_SIM_REACHED_END = 0,  /**< reached the requested time */
  TEAL_SIM_TERMINATED = 1,   /**< a handler or the monitor returned TEAL_STOP */
  TEAL_SIM_FAILED = 2        /**< an error stopped it; see code and message */
} teal_sim_outcome;

/** The status of the last initialize or advance_to. */
typedef struct teal_sim_status {
  teal_sim_outcome outcome;
  int code;        /**< TEAL_OK unless failed */
  double time;     /**< the context time when it returned */
  char message[TEAL_ERROR_MESSAGE_MAX];
} teal_sim_status;

/** Work statistics since initialize. */
typedef struct teal_sim_stats {
  long steps;                 /**< accepted steps (AdvanceTo loop iterations) */
  long failed_steps;          /**< steps rejected by error control or Newton */
  long witness_trials;        /**< extra steps taken to isolate witness crossings */
  long derivative_evals;
  long publishes, discrete_updates, unrestricted_updates;
  double smallest_step, largest_step; /**< over accepted integration steps */
} teal_sim_stats;

/** A monitor runs after every step: TEAL_OK continues, TEAL_STOP ends the
 *  run as terminated, an error code ends it as failed. */
typedef int (*teal_monitor_fn)(const teal_system *sys, const teal_context *ctx, void *user);

/** Creates a simulator for a finalized or built system. With ctx NULL the
 *  simulator owns a default context; otherwise it borrows ctx (which must
 *  be a root context of sys). NULL on failure with err filled. The default
 *  integrator is RK3 with error control at accuracy 1e-4. */
teal_simulator *teal_simulator_new(const teal_system *sys, teal_context *ctx, teal_error *err);
void teal_simulator_free(teal_simulator *sim);

/** The context being advanced (owned or borrowed). */
teal_context *teal_simulator_context(teal_simulator *sim);
const teal_system *teal_simulator_system(const teal_simulator *sim);

/** Chooses the integrator (before initialize, or it re-initializes the
 *  workspace). Methods without an error estimate run at fixed steps. */
int teal_simulator_set_integrator(teal_simulator *sim, const teal_integrator_type *type);
/** Fixed steps of size h (> 0) even for error-estimating methods. */
int teal_simulator_set_fixed_step(teal_simulator *sim, double h);
/** Error-controlled steps meeting this accuracy (weighted infinity norm of
 *  the local error estimate); also the context's accuracy. */
int teal_simulator_set_accuracy(teal_simulator *sim, double accuracy);
/** Largest step (default 0.1 s; also the first step of error control). */
int teal_simulator_set_max_step(teal_simulator *sim, double h);
/** Smallest step error control may take before failing with
 *  TEAL_ESTEPSIZE (default 1e-14 s). */
int teal_simulator_set_min_step(teal_simulator *sim, double h);
/** Floor of the relative error weights of v and z (default 1): an entry
 *  counts its error relative to max(|x_i|, floor); q counts absolutely. */
int teal_simulator_set_error_floor(teal_simulator *sim, double floor);
/** Time tolerance of witness zero-crossing isolation (default 1e-8 s). */
int teal_simulator_set_witness_tolerance(teal_simulator *sim, double dt);
/** Run forced publishes after every step (Drake's publish_every_time_step). */
int teal_simulator_set_publish_every_step(teal_simulator *sim, int on);
/** Pace the run to this multiple of real time (0: as fast as possible). */
int teal_simulator_set_target_realtime_rate(teal_simulator *sim, double rate);
/** Sets (or clears, with NULL) the monitor. */
int teal_simulator_set_monitor(teal_simulator *sim, teal_monitor_fn fn, void *user);

/** Runs initialization events and the start-time publishes, then the
 *  monitor. */
int teal_simulator_initialize(teal_simulator *sim, teal_sim_status *status);

/** Advances to t_final (initializing first if needed). Returns TEAL_OK
 *  when the end was reached or a handler/monitor stopped the run, else the
 *  error; status (may be NULL) says which. On failure the context holds the
 *  last accepted state and time. */
int teal_simulator_advance_to(teal_simulator *sim, double t_final, teal_sim_status *status);

/** The message of the last failed setting, initialize or advance_to. */
const teal_error *teal_simulator_error(const teal_simulator *sim);

/** Statistics since initialize (step sizes are 0 when no integration step
 *  was taken, e.g. for purely discrete systems). */
teal_sim_stats teal_simulator_get_stats(const teal_simulator *sim);

/** The integrator instance (for its counters); never NULL for a valid sim. */
const teal_integrator *teal_simulator_integrator(const teal_simulator *sim);

#ifdef __cplusplus
}
#endif
#endif
