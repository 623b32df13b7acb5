/** @file
 * Types shared by the system API: opaque handles, the views that state
 * callbacks write into, the callback signatures a leaf declares and the
 * event enums. Declares no functions (so there is no system_types.c). */
#ifndef TEAL_FRAMEWORK_SYSTEM_TYPES_H
#define TEAL_FRAMEWORK_SYSTEM_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

/** A system (opaque): a leaf (leaf_system.h) or a diagram (diagram.h). */
typedef struct teal_system teal_system;
/** A context (opaque): the time, state, parameters and cache of a system (context.h). */
typedef struct teal_context teal_context;
/** An input port of a system (opaque; owned by the system). */
typedef struct teal_input_port teal_input_port;
/** An output port of a system (opaque; owned by the system). */
typedef struct teal_output_port teal_output_port;

/** Writable view of continuous-state-shaped memory, split as q, v, z. */
typedef struct teal_continuous_view {
  double *q; /**< generalized positions (nq doubles) */
  double *v; /**< generalized velocities (nv doubles) */
  double *z; /**< miscellaneous continuous state (nz doubles) */
} teal_continuous_view;

/** Writable view of a leaf's whole state, used by unrestricted updates.
 *  xd holds all discrete groups back to back; xa[i] is abstract state i. */
typedef struct teal_state_view {
  /** Continuous state: positions, velocities, miscellaneous. @{ */
  double *q, *v, *z;
  /** @} */
  double *xd; /**< all discrete groups, back to back */
  void **xa;  /**< xa[i] is abstract state variable i */
} teal_state_view;

/** Dense linearization blocks, row-major; B/D are NULL when nu == 0, C/D
 *  when ny == 0. x is the continuous state [q; v; z] when the leaf has any,
 *  otherwise all of its discrete state. */
typedef struct teal_jacobian {
  /** Sizes: nx state, nu input and ny output entries. @{ */
  int nx, nu, ny;
  /** @} */
  /** The blocks: A is nx x nx, B nx x nu, C ny x nx, D ny x nu. @{ */
  double *A, *B, *C, *D;
  /** @} */
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
 *  its constraint manifold, for example normalizes quaternions (Simbody's
 *  project step). Called by the simulator after every accepted step. */
typedef int (*teal_projection_fn)(const teal_system *sys, const teal_context *ctx,
                                  teal_continuous_view *x, void *user);

/** Event triggers. */
typedef enum teal_trigger {
  TEAL_TRIGGER_PERIODIC = 0,       /**< at offset + k * period */
  TEAL_TRIGGER_PER_STEP = 1,       /**< at every simulator step */
  TEAL_TRIGGER_INITIALIZATION = 2, /**< once, when a simulation is initialized */
  TEAL_TRIGGER_FORCED = 3,         /**< only when forced (teal_force_publish) */
  TEAL_TRIGGER_WITNESS = 4         /**< at a witness function's zero crossing */
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
  TEAL_EVENT_UNRESTRICTED_UPDATE = 0, /**< writes any state (teal_unrestricted_update_fn) */
  TEAL_EVENT_DISCRETE_UPDATE = 1,     /**< writes discrete state (teal_discrete_update_fn) */
  TEAL_EVENT_PUBLISH = 2              /**< reads only (teal_publish_fn) */
} teal_event_kind;

#ifdef __cplusplus
}
#endif
#endif
