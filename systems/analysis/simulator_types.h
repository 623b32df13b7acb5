/** @file
 * Types of the simulator API: the opaque simulator, run outcome, status,
 * statistics and the monitor callback. Declares no functions (so there is
 * no simulator_types.c). */
#ifndef TEAL_SYSTEMS_ANALYSIS_SIMULATOR_TYPES_H
#define TEAL_SYSTEMS_ANALYSIS_SIMULATOR_TYPES_H

#include "framework/error.h"
#include "framework/system_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A simulator (opaque): advances a system's context in time (simulator.h). */
typedef struct teal_simulator teal_simulator;

/** How a run ended. */
typedef enum teal_sim_outcome {
  TEAL_SIM_REACHED_END = 0, /**< reached the requested time */
  TEAL_SIM_TERMINATED = 1,  /**< a handler or the monitor returned TEAL_STOP */
  TEAL_SIM_FAILED = 2       /**< an error stopped it; see code and message */
} teal_sim_outcome;

/** The status of the last initialize or advance_to. */
typedef struct teal_sim_status {
  teal_sim_outcome outcome;             /**< how it ended */
  int code;                             /**< TEAL_OK unless failed */
  double time;                          /**< the context time when it returned */
  char message[TEAL_ERROR_MESSAGE_MAX]; /**< why this call failed or stopped; else empty */
} teal_sim_status;

/** Work statistics since initialize. */
typedef struct teal_sim_stats {
  long steps;            /**< accepted steps (AdvanceTo loop iterations) */
  long failed_steps;     /**< steps rejected by error control or Newton */
  long witness_trials;   /**< extra steps taken to isolate witness crossings */
  long derivative_evals; /**< evaluations of the ODE's derivatives */
  /** Events handled, by kind. @{ */
  long publishes, discrete_updates, unrestricted_updates;
  /** @} */
  /** Smallest and largest accepted integration step. @{ */
  double smallest_step, largest_step;
  /** @} */
} teal_sim_stats;

/** A monitor runs after every step: TEAL_OK continues, TEAL_STOP ends the
 *  run as terminated, an error code ends it as failed. */
typedef int (*teal_monitor_fn)(const teal_system *sys, const teal_context *ctx, void *user);

#ifdef __cplusplus
}
#endif
#endif
