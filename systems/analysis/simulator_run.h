/** @file
 * Running a simulation (simulator_run.c): initialization and AdvanceTo with
 * the step semantics described in simulator.h. */
#ifndef TEAL_SYSTEMS_ANALYSIS_SIMULATOR_RUN_H
#define TEAL_SYSTEMS_ANALYSIS_SIMULATOR_RUN_H

#include "teal_export.h"

#include "systems/analysis/simulator_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Runs initialization events and the start-time publishes, then the
 *  monitor. */
TEAL_API int teal_simulator_initialize(teal_simulator *sim, teal_sim_status *status);

/** Advances to t_final (initializing first if needed). Returns TEAL_OK
 *  when the end was reached or a handler/monitor stopped the run, else the
 *  error; status (may be NULL) says which. On failure the context holds the
 *  last accepted state and time. */
TEAL_API int teal_simulator_advance_to(teal_simulator *sim, double t_final,
                                       teal_sim_status *status);

#ifdef __cplusplus
}
#endif
#endif
