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
 *  monitor. Returns and reports as teal_simulator_advance_to does. */
TEAL_API int teal_simulator_initialize(teal_simulator *sim, teal_sim_status *status);

/** Advances to t_final (initializing first if needed). Returns TEAL_OK
 *  when the end was reached or a handler/monitor stopped the run, else the
 *  error; status (may be NULL) says which. On failure the context holds the
 *  last accepted state and time.
 *
 *  Status: filled by every call, a NULL sim included (outcome
 *  TEAL_SIM_FAILED, code TEAL_EINVAL, time NaN). On failure its message,
 *  also left in teal_simulator_error, is this call's own cause: the failing
 *  callback, handler or monitor is named and its message quoted (one that
 *  recorded none is named with its code), never an earlier record of the
 *  context. A monitor's positive code other than TEAL_STOP counts as
 *  TEAL_ECALLBACK.
 *
 *  End time: t_final must be finite and not before the context time
 *  (TEAL_EINVAL). For a system that integrates (continuous state or
 *  witness functions), with h the fixed step if set, else the max step,
 *  t_final is also refused with TEAL_EINVAL, before anything runs, when
 *  - a step of h rounds to zero there (t_final + h == t_final): time could
 *    not advance to it;
 *  - reaching it takes more than 1e12 steps of h ((t_final - t) / h >
 *    1e12). Even the cheapest step (one derivative, some 70 ns) makes that
 *    a day of computing; split such a run into shorter calls or raise h.
 *  A system without continuous state and witnesses jumps from event to
 *  event and has neither limit. During the run, a step that rounds to zero
 *  at the current time fails with TEAL_ESTEPSIZE.
 *
 *  Failed steps: error control shrinks a step whose error is too large;
 *  implicit methods also retry a step whose Newton iteration failed
 *  (TEAL_ENOCONV, TEAL_ESINGULAR), from the method or from a callback
 *  evaluated at an iterate, since shorter steps keep the iterates closer
 *  to the start. Either fails with TEAL_ESTEPSIZE below the min step, its
 *  message quoting the last failure's cause. Any other failure of a
 *  callback ends the run with that callback's code and message: under
 *  explicit methods, or at the step's start point, a shorter step would
 *  fail the same way. */
TEAL_API int teal_simulator_advance_to(teal_simulator *sim, double t_final,
                                       teal_sim_status *status);

#ifdef __cplusplus
}
#endif
#endif
