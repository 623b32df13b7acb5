/* Systems: the leaf-system declaration API and the queries and evaluations
 * common to leaves and diagrams.
 *
 * A leaf is made by a constructor function: teal_leaf_new, then Declare-style
 * calls for ports, state, parameters, cache entries, events and callbacks,
 * then teal_leaf_finalize. Declarations are sticky: after the first error the
 * rest are no-ops and finalize returns that error (see teal_system_error).
 * A system holds nothing that changes during simulation; everything that
 * does lives in a teal_context. */
#ifndef TEAL_FRAMEWORK_SYSTEM_H
#define TEAL_FRAMEWORK_SYSTEM_H

#include <stddef.h>

#include "framework/error.h"
#include "framework/ticket.h"
#include "framework/value.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct teal_system teal_system;
typedef struct teal_context teal_context;
typedef struct teal_input_port teal_input_port;
typedef struct teal_output_port teal_output_port;

/** Writable view of continuous-state-shaped memory, split as q, v, z. */
typedef struct teal_continuous_view {
  double *q;
  double *v;
  double *z;
} teal_continuous_view;

/** Writable view of a leaf's whole state, used by unrestricted updates.
 *  xd holds all discrete groups back to back; xa[i] is abstract state i. */
typedef struct teal_state_view {
  double *q, *v, *z;
  double *xd;
  void **xa;
} teal_state_view;

/** Dense linearization blocks, row-major; B/D are NULL when nu == 0, C/D
 *  when ny == 0. x is the continuous state [q; v; z] when the leaf has any,
 *  otherwise all of its discrete state. */
typedef struct teal_jacobian {
  int nx, nu, ny;
  double *A, *B, *C, *D;
} teal_jacobian;

/** Computes a vector output or cache entry into out (size doubles). */
typedef int (*teal_vector_calc_fn)(const teal_system *sys, const teal_context *ctx,
                                   double *out, void *user);
/** Computes an abstract output or cache entry into out (a valid value). */
typedef int (*teal_abstract_calc_fn)(const teal_system *sys, const teal_context *ctx,
                                     void *out, void *user);
/** Writes the time derivatives of the leaf's continuous state. */
typedef int (*teal_derivatives_fn)(const teal_system *sys, const teal_context *ctx,
                                   teal_continuous_view *xcdot, void *user);
/** A publish handler: reads the context, changes nothing in it. */
typedef int (*teal_publish_fn)(const teal_system *sys, const teal_context *ctx, void *user);
/** A discrete update: writes the next value of all of the leaf's discrete
 *  groups into xd_next, which holds the current values on entry. */
typedef int (*teal_discrete_update_fn)(const teal_system *sys, const teal_context *ctx,
                                       double *xd_next, void *user);
/** An unrestricted update: writes the next state, which holds the current
 *  state on entry. */
typedef int (*teal_unrestricted_update_fn)(const teal_system *sys, const teal_context *ctx,
                                           teal_state_view *next, void *user);
/** Potential or kinetic energy of the leaf. */
typedef int (*teal_energy_fn)(const teal_system *sys, const teal_context *ctx, double *energy,
                              void *user);
/** Maps between generalized velocities and position derivatives:
 *  qdot = N(q) v (in has nv entries, out nq) or v = N+(q) qdot. */
typedef int (*teal_velocity_map_fn)(const teal_system *sys, const teal_context *ctx,
                                    const double *in, double *out, void *user);
/** Analytic linearization of a leaf about ctx for one input port (-1: none)
 *  and one output port (-1: none), into blocks already sized by the caller. */
typedef int (*teal_jacobian_fn)(const teal_system *sys, const teal_context *ctx, int input_port,
                                int output_port, teal_jacobian *jac, void *user);

/** Projects the leaf's continuous state x (writable, in place) back onto
 *  its constraint manifold, e.g. normalizes quaternions (Simbody's
 *  project step). Called by the simulator after every accepted step. */
typedef int (*teal_projection_fn)(const teal_system *sys, const teal_context *ctx,
                                  teal_continuous_view *x, void *user);

/* ---- leaf declaration ------------------------------------------------- */

/** Creates an empty leaf named name. user is model data handed to nobody
 *  but teal_system_user; user_free (may be NULL) releases it with the
 *  system. Returns NULL only when out of memory (user_free is then called). */
teal_system *teal_leaf_new(const char *name, void *user, void (*user_free)(void *));

/** Declares a vector input port of size doubles; returns its index. */
int teal_leaf_declare_vector_input(teal_system *sys, const char *name, int size);

/** Declares an abstract input port of the given type; returns its index. */
int teal_leaf_declare_abstract_input(teal_system *sys, const char *name,
                                     const teal_value_type *type);

/** Declares a vector output computed by calc with closure data user.
 *  prereqs lists what the value depends on; NULL (or n == 0) means all
 *  sources (direct feedthrough from every input). Returns the port index. */
int teal_leaf_declare_vector_output(teal_system *sys, const char *name, int size,
                                    teal_vector_calc_fn calc, void *user,
                                    const teal_ticket *prereqs, int nprereqs);

/** Declares an abstract output of the given type; see the vector version. */
int teal_leaf_declare_abstract_output(teal_system *sys, const char *name,
                                      const teal_value_type *type, teal_abstract_calc_fn calc,
                                      void *user, const teal_ticket *prereqs, int nprereqs);

/** Declares the continuous state sizes and default value x0 = [q; v; z]
 *  (NULL: zeros). Once per leaf. */
int teal_leaf_declare_continuous_state(teal_system *sys, int nq, int nv, int nz,
                                       const double *x0);

/** Declares a discrete state group of size doubles (default x0, NULL:
 *  zeros); returns the group index. */
int teal_leaf_declare_discrete_state(teal_system *sys, int size, const double *x0);

/** Declares an abstract state variable whose default is a copy of model
 *  (NULL: the type's default); returns its index. model is copied now. */
int teal_leaf_declare_abstract_state(teal_system *sys, const teal_value_type *type,
                                     const void *model);

/** Declares a numeric parameter vector (default p0, NULL: zeros); returns
 *  its index. */
int teal_leaf_declare_numeric_parameter(teal_system *sys, int size, const double *p0);

/** Declares a vector cache entry; returns its index for teal_ticket_cache
 *  and teal_eval_cache_entry. prereqs as for outputs. */
int teal_leaf_declare_cache_entry(teal_system *sys, const char *name, int size,
                                  teal_vector_calc_fn calc, void *user,
                                  const teal_ticket *prereqs, int nprereqs);

/** Declares an abstract cache entry; returns its index. */
int teal_leaf_declare_abstract_cache_entry(teal_system *sys, const char *name,
                                           const teal_value_type *type,
                                           teal_abstract_calc_fn calc, void *user,
                                           const teal_ticket *prereqs, int nprereqs);

/** Sets the time-derivative callback (required when continuous state exists). */
int teal_leaf_set_time_derivatives(teal_system *sys, teal_derivatives_fn fn, void *user);

/** Event triggers. */
typedef enum teal_trigger {
  TEAL_TRIGGER_PERIODIC = 0,
  TEAL_TRIGGER_PER_STEP = 1,
  TEAL_TRIGGER_INITIALIZATION = 2,
  TEAL_TRIGGER_FORCED = 3,
  TEAL_TRIGGER_WITNESS = 4
} teal_trigger;

/** Which sign changes of a witness function trigger its event. */
typedef enum teal_witness_direction {
  TEAL_WITNESS_POSITIVE_TO_NEGATIVE = 0, /**< w goes from > 0 to <= 0 */
  TEAL_WITNESS_NEGATIVE_TO_POSITIVE = 1, /**< w goes from < 0 to >= 0 */
  TEAL_WITNESS_CROSSES_ZERO = 2          /**< either */
} teal_witness_direction;

/** A witness function: a scalar of the context whose zero crossing the
 *  simulator isolates in time before running the attached event. */
typedef int (*teal_witness_fn)(const teal_system *sys, const teal_context *ctx, double *value,
                               void *user);

/** Event kinds, in the order the simulator handles them within a step. */
typedef enum teal_event_kind {
  TEAL_EVENT_UNRESTRICTED_UPDATE = 0,
  TEAL_EVENT_DISCRETE_UPDATE = 1,
  TEAL_EVENT_PUBLISH = 2
} teal_event_kind;

/** Periodic events at offset + k * period (period > 0, offset >= 0). */
int teal_leaf_declare_periodic_publish(teal_system *sys, double period, double offset,
                                       teal_publish_fn fn, void *user);
int teal_leaf_declare_periodic_discrete_update(teal_system *sys, double period, double offset,
                                               teal_discrete_update_fn fn, void *user);
int teal_leaf_declare_periodic_unrestricted_update(teal_system *sys, double period,
                                                   double offset,
                                                   teal_unrestricted_update_fn fn, void *user);
/** Events handled at every simulator step. */
int teal_leaf_declare_per_step_publish(teal_system *sys, teal_publish_fn fn, void *user);
int teal_leaf_declare_per_step_discrete_update(teal_system *sys, teal_discrete_update_fn fn,
                                               void *user);
int teal_leaf_declare_per_step_unrestricted_update(teal_system *sys,
                                                   teal_unrestricted_update_fn fn, void *user);
/** Events handled once when a simulation is initialized. */
int teal_leaf_declare_initialization_publish(teal_system *sys, teal_publish_fn fn, void *user);
int teal_leaf_declare_initialization_discrete_update(teal_system *sys,
                                                     teal_discrete_update_fn fn, void *user);
int teal_leaf_declare_initialization_unrestricted_update(teal_system *sys,
                                                         teal_unrestricted_update_fn fn,
                                                         void *user);
/** Witness-triggered events: when witness crosses zero in the given
 *  direction during a step, the simulator shortens the step to the crossing
 *  (to its time tolerance) and runs the handler. user goes to both. */
int teal_leaf_declare_witness_publish(teal_system *sys, teal_witness_direction direction,
                                      teal_witness_fn witness, teal_publish_fn fn, void *user);
int teal_leaf_declare_witness_discrete_update(teal_system *sys,
                                              teal_witness_direction direction,
                                              teal_witness_fn witness,
                                              teal_discrete_update_fn fn, void *user);
int teal_leaf_declare_witness_unrestricted_update(teal_system *sys,
                                                  teal_witness_direction direction,
                                                  teal_witness_fn witness,
                                                  teal_unrestricted_update_fn fn, void *user);

/** Declares a per-context scratch value of the given type: neither state
 *  nor a source of change, a copy of model (NULL: the type's default) in
 *  every new context, copied by clone and copy_from, kept by
 *  set_to_defaults, writable from any callback with teal_context_scratch_mut
 *  (Drake's pattern for logs kept in the context). model is copied now.
 *  Returns its index. */
int teal_leaf_declare_scratch(teal_system *sys, const char *name, const teal_value_type *type,
                              const void *model);

/** A publish run only by teal_system_force_publish. */
int teal_leaf_declare_forced_publish(teal_system *sys, teal_publish_fn fn, void *user);

/** Optional energy hooks (either may be NULL). */
int teal_leaf_set_energy(teal_system *sys, teal_energy_fn potential, teal_energy_fn kinetic,
                         void *user);

/** Optional qdot = N(q) v maps; required when nq != nv. Default: identity. */
int teal_leaf_set_velocity_map(teal_system *sys, teal_velocity_map_fn v_to_qdot,
                               teal_velocity_map_fn qdot_to_v, void *user);

/** Optional projection of the continuous state (see teal_projection_fn). */
int teal_leaf_set_projection(teal_system *sys, teal_projection_fn fn, void *user);

/** Optional analytic linearization hook (used by teal_linearize). */
int teal_leaf_set_jacobian(teal_system *sys, teal_jacobian_fn fn, void *user);

/** Tags the leaf with an identity of its constructor (any address the
 *  constructor owns, e.g. a static const object), so that library code can
 *  recognize its own leaves with teal_system_type_tag. */
int teal_leaf_set_type_tag(teal_system *sys, const void *tag);

/** Ends declaration: checks consistency and computes feedthrough. Returns
 *  the sticky error if any declaration failed. */
int teal_leaf_finalize(teal_system *sys);

/* ---- queries ---------------------------------------------------------- */

/** Frees a system that no builder or diagram owns (NULL is ignored). */
void teal_system_free(teal_system *sys);

/** The system's name. */
const char *teal_system_name(const teal_system *sys);

/** Nonzero for diagrams. */
int teal_system_is_diagram(const teal_system *sys);

/** The sticky declaration error (code TEAL_OK when none). */
const teal_error *teal_system_error(const teal_system *sys);

/** The diagram that owns sys, or NULL. */
const teal_system *teal_system_parent(const teal_system *sys);

/** Model data given to teal_leaf_new. */
void *teal_system_user(const teal_system *sys);

int teal_system_num_input_ports(const teal_system *sys);
int teal_system_num_output_ports(const teal_system *sys);

/** Port i, or NULL when out of range. */
const teal_input_port *teal_system_input_port(const teal_system *sys, int i);
const teal_output_port *teal_system_output_port(const teal_system *sys, int i);

/** Port by name, or NULL. */
const teal_input_port *teal_system_input_port_by_name(const teal_system *sys, const char *name);
const teal_output_port *teal_system_output_port_by_name(const teal_system *sys,
                                                        const char *name);

const char *teal_input_port_name(const teal_input_port *port);
int teal_input_port_index(const teal_input_port *port);
/** Size in doubles (0 for abstract ports). */
int teal_input_port_size(const teal_input_port *port);
/** Type of an abstract port, NULL for vector ports. */
const teal_value_type *teal_input_port_type(const teal_input_port *port);
const teal_system *teal_input_port_system(const teal_input_port *port);

const char *teal_output_port_name(const teal_output_port *port);
int teal_output_port_index(const teal_output_port *port);
int teal_output_port_size(const teal_output_port *port);
const teal_value_type *teal_output_port_type(const teal_output_port *port);
const teal_system *teal_output_port_system(const teal_output_port *port);

/** Continuous state sizes; returns nq + nv + nz. Pointers may be NULL. */
int teal_system_num_continuous_states(const teal_system *sys, int *nq, int *nv, int *nz);
/** Total discrete state doubles (all groups, whole subtree). */
int teal_system_num_discrete_states(const teal_system *sys);
/** Discrete groups of a leaf (0 for diagrams). */
int teal_system_num_discrete_groups(const teal_system *sys);
/** Size of discrete group i of a leaf, or a negative status. */
int teal_system_discrete_group_size(const teal_system *sys, int i);
/** Abstract state variables in the subtree. */
int teal_system_num_abstract_states(const teal_system *sys);
/** Numeric parameter vectors of a leaf. */
int teal_system_num_numeric_parameters(const teal_system *sys);
/** Size of numeric parameter i of a leaf, or a negative status. */
int teal_system_numeric_parameter_size(const teal_system *sys, int i);
/** Nonzero when output port out depends directly on input port in. */
int teal_system_has_direct_feedthrough(const teal_system *sys, int in, int out);
/** Witness functions in the subtree (their order is the leaves' order). */
int teal_system_num_witnesses(const teal_system *sys);
/** Direction of witness i of the subtree, or a negative status. */
int teal_system_witness_direction(const teal_system *sys, int i);
/** The tag given by teal_leaf_set_type_tag, or NULL. */
const void *teal_system_type_tag(const teal_system *sys);
/** Nonzero when the leaf declared an analytic Jacobian hook. */
int teal_system_has_jacobian(const teal_system *sys);

/* ---- evaluation --------------------------------------------------------
 * Eval functions return borrowed pointers to cached values, valid until the
 * context next changes. Calc functions write into caller memory and do not
 * touch the cache. On failure the message is in teal_context_error(ctx). */

/** Value of vector input port i (from its connection or fixed value). */
int teal_eval_vector_input(const teal_system *sys, const teal_context *ctx, int port,
                           const double **value);
/** 1 when input port i has a value (connected, through any exported
 *  diagram inputs, to an output, or fixed), 0 when it has none, or a
 *  negative status for a bad system, context or port (Drake's HasValue). */
int teal_input_has_value(const teal_system *sys, const teal_context *ctx, int port);
/** Value of abstract input port i. */
int teal_eval_abstract_input(const teal_system *sys, const teal_context *ctx, int port,
                             const void **value);
/** Cached value of vector output port i. */
int teal_eval_vector_output(const teal_system *sys, const teal_context *ctx, int port,
                            const double **value);
/** Cached value of abstract output port i. */
int teal_eval_abstract_output(const teal_system *sys, const teal_context *ctx, int port,
                              const void **value);
/** Computes vector output port i into out without caching. */
int teal_calc_vector_output(const teal_system *sys, const teal_context *ctx, int port,
                            double *out);
/** Computes abstract output port i into out (a valid value) without caching. */
int teal_calc_abstract_output(const teal_system *sys, const teal_context *ctx, int port,
                              void *out);
/** Cached value of a leaf's declared cache entry i (double array for vector
 *  entries). */
int teal_eval_cache_entry(const teal_system *sys, const teal_context *ctx, int entry,
                          const void **value);

/** Time derivatives of the whole continuous state, written as one array
 *  [q; v; z] laid out as teal_context_get_continuous_state gives it. */
int teal_calc_time_derivatives(const teal_system *sys, const teal_context *ctx, double *xcdot);

/** qdot = N(q) v for the whole subtree (v has nv entries, qdot nq). */
int teal_map_velocity_to_qdot(const teal_system *sys, const teal_context *ctx, const double *v,
                              double *qdot);
/** v = N+(q) qdot for the whole subtree. */
int teal_map_qdot_to_velocity(const teal_system *sys, const teal_context *ctx,
                              const double *qdot, double *v);

/** Values of every witness function of the subtree, in order, into w. */
int teal_calc_witness_values(const teal_system *sys, const teal_context *ctx, double *w);

/** Sum of the leaves' potential energies (0 for leaves without the hook). */
int teal_calc_potential_energy(const teal_system *sys, const teal_context *ctx, double *pe);
/** Sum of the leaves' kinetic energies. */
int teal_calc_kinetic_energy(const teal_system *sys, const teal_context *ctx, double *ke);

/** Nonzero when some leaf of the subtree has a projection hook. */
int teal_system_has_projection(const teal_system *sys);

/** Runs every leaf's projection hook on its continuous state in ctx (a
 *  root or any subcontext); the state's stamps change only for the leaves
 *  that have a hook. */
int teal_project_continuous_state(const teal_system *sys, teal_context *ctx);

/** Runs a leaf's analytic Jacobian hook; TEAL_EUNSUPPORTED when absent. */
int teal_calc_jacobian(const teal_system *sys, const teal_context *ctx, int input_port,
                       int output_port, teal_jacobian *jac);

#ifdef __cplusplus
}
#endif
#endif
