/** @file
 * Leaf-system declaration (leaf_system.c).
 *
 * A leaf is made by a constructor function: teal_leaf_new, then Declare-style
 * calls for ports, state, parameters, cache entries, events (leaf_events.h)
 * and callbacks, then teal_leaf_finalize. Declarations are sticky: after the
 * first error the rest are no-ops and finalize returns that error (see
 * teal_system_error). A system holds nothing that changes during simulation;
 * everything that does lives in a teal_context. */
#ifndef TEAL_FRAMEWORK_LEAF_SYSTEM_H
#define TEAL_FRAMEWORK_LEAF_SYSTEM_H

#include "teal_export.h"

#include "framework/system_types.h"
#include "framework/ticket.h"
#include "framework/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates an empty leaf named name. user is model data handed to nobody
 *  but teal_system_user; user_free (may be NULL) releases it with the
 *  system. Returns NULL only when out of memory (user_free is then called). */
TEAL_API teal_system *teal_leaf_new(const char *name, void *user, void (*user_free)(void *));

/** Declares a vector input port of size doubles; returns its index. */
TEAL_API int teal_leaf_declare_vector_input(teal_system *sys, const char *name, int size);

/** Declares an abstract input port of the given type; returns its index. */
TEAL_API int teal_leaf_declare_abstract_input(teal_system *sys, const char *name,
                                              const teal_value_type *type);

/** Declares a vector output computed by calc with closure data user.
 *  prereqs lists what the value depends on; NULL (or n == 0) means all
 *  sources (direct feedthrough from every input). Returns the port index. */
TEAL_API int teal_leaf_declare_vector_output(teal_system *sys, const char *name, int size,
                                             teal_vector_calc_fn calc, void *user,
                                             const teal_ticket *prereqs, int nprereqs);

/** Declares an abstract output of the given type; see the vector version. */
TEAL_API int teal_leaf_declare_abstract_output(teal_system *sys, const char *name,
                                               const teal_value_type *type,
                                               teal_abstract_calc_fn calc, void *user,
                                               const teal_ticket *prereqs, int nprereqs);

/** Declares the continuous state sizes and default value x0 = [q; v; z]
 *  (NULL: zeros). Once per leaf. */
TEAL_API int teal_leaf_declare_continuous_state(teal_system *sys, int nq, int nv, int nz,
                                                const double *x0);

/** Declares a discrete state group of size doubles (default x0, NULL:
 *  zeros); returns the group index. */
TEAL_API int teal_leaf_declare_discrete_state(teal_system *sys, int size, const double *x0);

/** Declares an abstract state variable whose default is a copy of model
 *  (NULL: the type's default); returns its index. model is copied now. */
TEAL_API int teal_leaf_declare_abstract_state(teal_system *sys, const teal_value_type *type,
                                              const void *model);

/** Declares a numeric parameter vector (default p0, NULL: zeros); returns
 *  its index. */
TEAL_API int teal_leaf_declare_numeric_parameter(teal_system *sys, int size, const double *p0);

/** Declares an output port whose value IS cache entry entry (an index from
 *  teal_leaf_declare_cache_entry or its abstract version): same size or
 *  type, same prerequisites, one slot, so evaluating the port evaluates the
 *  entry and nothing is copied. Returns the port index; TEAL_EINVAL for an
 *  entry not declared yet, and the usual name errors. */
TEAL_API int teal_leaf_declare_output_from_cache_entry(teal_system *sys, const char *name,
                                                       int entry);

/** Declares a vector cache entry; returns its index for teal_ticket_cache
 *  and teal_eval_cache_entry. prereqs as for outputs. */
TEAL_API int teal_leaf_declare_cache_entry(teal_system *sys, const char *name, int size,
                                           teal_vector_calc_fn calc, void *user,
                                           const teal_ticket *prereqs, int nprereqs);

/** Declares an abstract cache entry; returns its index. */
TEAL_API int teal_leaf_declare_abstract_cache_entry(teal_system *sys, const char *name,
                                                    const teal_value_type *type,
                                                    teal_abstract_calc_fn calc, void *user,
                                                    const teal_ticket *prereqs, int nprereqs);

/** Sets the time-derivative callback (required when continuous state exists). */
TEAL_API int teal_leaf_set_time_derivatives(teal_system *sys, teal_derivatives_fn fn, void *user);

/** Declares a per-context scratch value of the given type: neither state
 *  nor a source of change, a copy of model (NULL: the type's default) in
 *  every new context, copied by clone and copy_from, kept by
 *  set_to_defaults, writable from any callback with teal_context_scratch_mut
 *  (Drake's pattern for logs kept in the context). model is copied now.
 *  Returns its index. */
TEAL_API int teal_leaf_declare_scratch(teal_system *sys, const char *name,
                                       const teal_value_type *type, const void *model);

/** Optional energy hooks (either may be NULL). */
TEAL_API int teal_leaf_set_energy(teal_system *sys, teal_energy_fn potential,
                                  teal_energy_fn kinetic, void *user);

/** Optional qdot = N(q) v maps; required when nq != nv. Default: identity. */
TEAL_API int teal_leaf_set_velocity_map(teal_system *sys, teal_velocity_map_fn v_to_qdot,
                                        teal_velocity_map_fn qdot_to_v, void *user);

/** Optional projection of the continuous state (see teal_projection_fn). */
TEAL_API int teal_leaf_set_projection(teal_system *sys, teal_projection_fn fn, void *user);

/** Optional analytic linearization hook (used by teal_linearize). */
TEAL_API int teal_leaf_set_jacobian(teal_system *sys, teal_jacobian_fn fn, void *user);

/** Tags the leaf with an identity of its constructor (any address the
 *  constructor owns, such as a static const object), so that library code can
 *  recognize its own leaves with teal_system_type_tag. */
TEAL_API int teal_leaf_set_type_tag(teal_system *sys, const void *tag);

/** Ends declaration: checks consistency and computes feedthrough. Returns
 *  the sticky error if any declaration failed. */
TEAL_API int teal_leaf_finalize(teal_system *sys);

#ifdef __cplusplus
}
#endif
#endif
