/** @file
 * Event collection and dispatch.
 *
 * The simulator asks a system (leaf or diagram) which events are due, then
 * dispatches them by kind: unrestricted updates, discrete updates, publishes.
 * Updates are two-phase as in Drake: every handler due at the same time
 * reads the pre-update context and writes into scratch; the results are
 * applied together only when all handlers succeeded. */
#ifndef TEAL_FRAMEWORK_EVENTS_H
#define TEAL_FRAMEWORK_EVENTS_H

#include "teal_export.h"

#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A set of due events of a system's subtree, grouped by kind. */
typedef struct teal_event_set teal_event_set;

/** Allocates a set with room for every event sys (and its subtree) has. */
TEAL_API teal_event_set *teal_event_set_new(const teal_system *sys);
/** Frees a set (NULL is ignored). */
TEAL_API void teal_event_set_free(teal_event_set *set);
/** Empties the set (no allocation). */
TEAL_API void teal_event_set_clear(teal_event_set *set);
/** Number of events of one kind in the set. */
TEAL_API int teal_event_set_count(const teal_event_set *set, teal_event_kind kind);
/** Total number of events in the set. */
TEAL_API int teal_event_set_size(const teal_event_set *set);
/** Appends every event of src to dst (same system). */
TEAL_API int teal_event_set_merge(teal_event_set *dst, const teal_event_set *src);

/** Fills set with the events of one trigger (initialization, per-step or
 *  forced). Periodic events need teal_calc_next_update_time. */
TEAL_API int teal_collect_events(const teal_system *sys, const teal_context *ctx,
                                 teal_trigger trigger, teal_event_set *set);

/** Fills set with the events of the witnesses flagged nonzero in
 *  triggered (one flag per witness of the subtree). */
TEAL_API int teal_collect_witness_events(const teal_system *sys, const teal_context *ctx,
                                         const unsigned char *triggered, teal_event_set *set);

/** Earliest time strictly after the context time at which a periodic event
 *  is due (+inf when none), and the events due then, in set. */
TEAL_API int teal_calc_next_update_time(const teal_system *sys, const teal_context *ctx,
                                        double *t_next, teal_event_set *set);

/** The period and offset shared by every periodic discrete update of the
 *  subtree: TEAL_ENOTFOUND when there is none, TEAL_EINVAL (with a message
 *  in err, may be NULL) when they differ. */
TEAL_API int teal_system_periodic_discrete_update(const teal_system *sys, double *period,
                                                  double *offset, teal_error *err);

/** Runs the set's publish handlers in subsystem order. */
TEAL_API int teal_dispatch_publish(const teal_system *sys, const teal_context *ctx,
                                   const teal_event_set *set);

/** Runs the set's discrete updates two-phase and applies them. On failure
 *  no discrete state changes. */
TEAL_API int teal_dispatch_discrete_updates(const teal_system *sys, teal_context *ctx,
                                            const teal_event_set *set);

/** Runs the set's unrestricted updates two-phase and applies them. When a
 *  handler fails no state changes. (Applying copies abstract values back
 *  through their copy hooks, which must not fail for valid values; if one
 *  does anyway, the leaves before it are already updated.) */
TEAL_API int teal_dispatch_unrestricted_updates(const teal_system *sys, teal_context *ctx,
                                                const teal_event_set *set);

/** Runs every forced publish handler of the subtree. */
TEAL_API int teal_force_publish(const teal_system *sys, const teal_context *ctx);

#ifdef __cplusplus
}
#endif
#endif
