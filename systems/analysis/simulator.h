/** @file
 * The simulator: advances a system's context through time with Drake's step
 * semantics. Creation, queries and freeing are in simulator.c; this header
 * also includes the settings (simulator_settings.h) and the run functions
 * (simulator_run.h).
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
 * Implicit integrators use the analytic Jacobian composed from the leaves'
 * hooks when the system allows it (framework/state_jacobian.h,
 * teal_simulator_set_analytic_jacobian), else finite differences. Nothing
 * is allocated after initialization. */
#ifndef TEAL_SYSTEMS_ANALYSIS_SIMULATOR_H
#define TEAL_SYSTEMS_ANALYSIS_SIMULATOR_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/system.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator_types.h"
#include "systems/analysis/simulator_settings.h"
#include "systems/analysis/simulator_run.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates a simulator for a finalized or built system. With ctx NULL the
 *  simulator owns a default context; otherwise it borrows ctx (which must
 *  be a root context of sys). NULL on failure with err filled. The default
 *  integrator is RK3 with error control at accuracy 1e-4. */
TEAL_API teal_simulator *teal_simulator_new(const teal_system *sys, teal_context *ctx,
                                            teal_error *err);
/** Frees a simulator and the context it owns, not a borrowed one (NULL is
 *  ignored). */
TEAL_API void teal_simulator_free(teal_simulator *sim);

/** The context being advanced (owned or borrowed). */
TEAL_API teal_context *teal_simulator_context(teal_simulator *sim);
/** The system being simulated. */
TEAL_API const teal_system *teal_simulator_system(const teal_simulator *sim);

/** The message of the last failed setting, initialize or advance_to.
 *  initialize and advance_to clear it first, so after a run it is empty or
 *  that run's cause (the message of its status). */
TEAL_API const teal_error *teal_simulator_error(const teal_simulator *sim);

/** Statistics since initialize (step sizes are 0 when no integration step
 *  was taken, as for purely discrete systems). */
TEAL_API teal_sim_stats teal_simulator_get_stats(const teal_simulator *sim);

/** The integrator instance (for its counters); never NULL for a valid sim. */
TEAL_API const teal_integrator *teal_simulator_integrator(const teal_simulator *sim);

#ifdef __cplusplus
}
#endif
#endif
