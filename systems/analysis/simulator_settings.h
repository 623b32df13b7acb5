/** @file
 * Simulator settings (simulator_settings.c): the integrator, step control,
 * witness tolerance, publishing, pacing and the monitor. Each returns
 * TEAL_OK or an error with its message in teal_simulator_error. */
#ifndef TEAL_SYSTEMS_ANALYSIS_SIMULATOR_SETTINGS_H
#define TEAL_SYSTEMS_ANALYSIS_SIMULATOR_SETTINGS_H

#include "teal_export.h"

#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Chooses the integrator (before initialize, or it re-initializes the
 *  workspace). Methods without an error estimate run at fixed steps. */
TEAL_API int teal_simulator_set_integrator(teal_simulator *sim, const teal_integrator_type *type);
/** Fixed steps of size h (> 0) even for error-estimating methods. */
TEAL_API int teal_simulator_set_fixed_step(teal_simulator *sim, double h);
/** Error-controlled steps meeting this accuracy (weighted infinity norm of
 *  the local error estimate); also the context's accuracy. */
TEAL_API int teal_simulator_set_accuracy(teal_simulator *sim, double accuracy);
/** Largest step (default 0.1 s; also the first step of error control).
 *  It bounds the end times advance_to accepts (simulator_run.h). */
TEAL_API int teal_simulator_set_max_step(teal_simulator *sim, double h);
/** Smallest step error control, or an implicit method's retries after a
 *  failed Newton iteration, may take before failing with TEAL_ESTEPSIZE
 *  (default 1e-14 s); the message then quotes the last failure's cause. */
TEAL_API int teal_simulator_set_min_step(teal_simulator *sim, double h);
/** Floor of the relative error weights of v and z (default 1): an entry
 *  counts its error relative to max(|x_i|, floor); q counts absolutely. */
TEAL_API int teal_simulator_set_error_floor(teal_simulator *sim, double floor);
/** Time tolerance of witness zero-crossing isolation (default 1e-8 s). */
TEAL_API int teal_simulator_set_witness_tolerance(teal_simulator *sim, double dt);
/** Run forced publishes after every step (Drake's publish_every_time_step). */
TEAL_API int teal_simulator_set_publish_every_step(teal_simulator *sim, int on);
/** Pace the run to this multiple of real time (0: as fast as possible). */
TEAL_API int teal_simulator_set_target_realtime_rate(teal_simulator *sim, double rate);
/** Whether implicit integrators build their Newton matrix from the
 *  analytic Jacobian composed from the leaves' hooks (framework/
 *  state_jacobian.h; the default when it composes) or by forward
 *  differences of the derivatives (on = 0). Turning it on for a system
 *  whose Jacobian does not compose returns TEAL_EUNSUPPORTED with the
 *  reason. When a hook declines during a run (the plant with contact),
 *  that Newton matrix and all later ones are differenced; turning the
 *  setting on again retries the analytic path. */
TEAL_API int teal_simulator_set_analytic_jacobian(teal_simulator *sim, int on);
/** Nonzero when implicit integrators will use the analytic Jacobian (0
 *  after a hook declined, see teal_simulator_set_analytic_jacobian). */
TEAL_API int teal_simulator_uses_analytic_jacobian(const teal_simulator *sim);
/** Whether error control judges a step by its local error estimate after
 *  the leaves' error projection hooks (teal_leaf_set_error_projection: a
 *  constrained plant removes the error components its state projection
 *  removes anyway, Simbody's error estimate projection) (on != 0, the
 *  default) or by the raw estimate (on = 0). No effect on a system without
 *  such hooks or on fixed steps. TEAL_EINVAL for a NULL simulator. */
TEAL_API int teal_simulator_set_error_projection(teal_simulator *sim, int on);
/** Nonzero when error control projects the error estimate: the setting is
 *  on and some leaf has the hook (0 for NULL). */
TEAL_API int teal_simulator_uses_error_projection(const teal_simulator *sim);
/** Sets (or clears, with NULL) the monitor. */
TEAL_API int teal_simulator_set_monitor(teal_simulator *sim, teal_monitor_fn fn, void *user);

#ifdef __cplusplus
}
#endif
#endif
