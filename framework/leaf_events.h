/** @file
 * Event declaration on leaves (leaf_events.c): periodic, per-step,
 * initialization, witness-triggered and forced publishes and updates. The
 * trigger, direction and kind enums are in system_types.h; collecting and
 * dispatching events is in events.h. */
#ifndef TEAL_FRAMEWORK_LEAF_EVENTS_H
#define TEAL_FRAMEWORK_LEAF_EVENTS_H

#include "teal_export.h"

#include "framework/system_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Declares a periodic publish, handled at offset + k * period (period > 0,
 *  offset >= 0). */
TEAL_API int teal_leaf_declare_periodic_publish(teal_system *sys, double period, double offset,
                                                teal_publish_fn fn, void *user);
/** Declares a periodic discrete update (timing as for the periodic publish). */
TEAL_API int teal_leaf_declare_periodic_discrete_update(teal_system *sys, double period,
                                                        double offset, teal_discrete_update_fn fn,
                                                        void *user);
/** Declares a periodic unrestricted update (timing as for the periodic publish). */
TEAL_API int teal_leaf_declare_periodic_unrestricted_update(teal_system *sys, double period,
                                                            double offset,
                                                            teal_unrestricted_update_fn fn,
                                                            void *user);
/** Declares a publish handled at every simulator step. */
TEAL_API int teal_leaf_declare_per_step_publish(teal_system *sys, teal_publish_fn fn, void *user);
/** Declares a discrete update handled at every simulator step. */
TEAL_API int teal_leaf_declare_per_step_discrete_update(teal_system *sys,
                                                        teal_discrete_update_fn fn, void *user);
/** Declares an unrestricted update handled at every simulator step. */
TEAL_API int teal_leaf_declare_per_step_unrestricted_update(teal_system *sys,
                                                            teal_unrestricted_update_fn fn,
                                                            void *user);
/** Declares a publish handled once when a simulation is initialized. */
TEAL_API int teal_leaf_declare_initialization_publish(teal_system *sys, teal_publish_fn fn,
                                                      void *user);
/** Declares a discrete update handled once when a simulation is initialized. */
TEAL_API int
teal_leaf_declare_initialization_discrete_update(teal_system *sys, teal_discrete_update_fn fn,
                                                 void *user);
/** Declares an unrestricted update handled once when a simulation is initialized. */
TEAL_API int
teal_leaf_declare_initialization_unrestricted_update(teal_system *sys,
                                                     teal_unrestricted_update_fn fn, void *user);
/** Declares a witness-triggered publish: when witness crosses zero in the
 *  given direction during a step, the simulator shortens the step to the
 *  crossing (to its time tolerance) and runs the handler. user goes to both. */
TEAL_API int teal_leaf_declare_witness_publish(teal_system *sys, teal_witness_direction direction,
                                               teal_witness_fn witness, teal_publish_fn fn,
                                               void *user);
/** Declares a witness-triggered discrete update (as for the witness publish). */
TEAL_API int teal_leaf_declare_witness_discrete_update(teal_system *sys,
                                                       teal_witness_direction direction,
                                                       teal_witness_fn witness,
                                                       teal_discrete_update_fn fn, void *user);
/** Declares a witness-triggered unrestricted update (as for the witness publish). */
TEAL_API int teal_leaf_declare_witness_unrestricted_update(teal_system *sys,
                                                           teal_witness_direction direction,
                                                           teal_witness_fn witness,
                                                           teal_unrestricted_update_fn fn,
                                                           void *user);

/** A publish run only when forced: by teal_force_publish, or by a simulator
 *  with publish-every-step on. */
TEAL_API int teal_leaf_declare_forced_publish(teal_system *sys, teal_publish_fn fn, void *user);

#ifdef __cplusplus
}
#endif
#endif
