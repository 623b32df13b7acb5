/** @file
 * Any system as a state-space map: its time derivatives, or its next
 * discrete state, and one output, at a chosen state and input,
 * @code{.unparsed}
 *   continuous:  xdot  = f(x, u),  y = g(x, u),  x the continuous state [q; v; z];
 *   discrete:    x[n+1] = f(x, u), y = g(x, u),  x every discrete group,
 * @endcode
 * evaluated on a private clone of a context, so the caller's context never
 * changes. Linearization differentiates this map, and the Luenberger
 * observer and Kalman filters run a model of the observed system through
 * it. The system must have continuous or discrete state, not both; a
 * discrete one must update at one shared period (the next discrete state
 * is one run of its periodic updates). Everything the map does not take
 * (time, parameters, other inputs) is read from the clone, as the context
 * given held it. After creation, an evaluation allocates nothing. */
#ifndef TEAL_SYSTEMS_ANALYSIS_STATE_SPACE_EVALUATOR_H
#define TEAL_SYSTEMS_ANALYSIS_STATE_SPACE_EVALUATOR_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The map of one system, with its private context. */
typedef struct teal_state_space_evaluator teal_state_space_evaluator;

/** Sizes and kind of an evaluator's map. */
typedef struct teal_state_space_shape {
  /** State, input and output sizes (nu = 0 without an input port, ny = 0
   *  without an output port). @{ */
  int nx, nu, ny;
  /** @} */
  int discrete;  /**< 1 for a discrete map, 0 for a continuous one */
  double period; /**< the discrete update period (0 when continuous) */
} teal_state_space_shape;

/** The map of sys with u on vector input port input_port and y on vector
 *  output port output_port (-1: none), evaluated on a clone of ctx (a root
 *  context of sys, whose other inputs must have values). NULL on failure
 *  with the reason in err (may be NULL): TEAL_EINVAL for a NULL or foreign
 *  context, an abstract or missing port, both kinds of state, or discrete
 *  updates at several periods; TEAL_ENOTFOUND for discrete state without a
 *  periodic update; TEAL_ENOMEM. */
TEAL_API teal_state_space_evaluator *teal_state_space_evaluator_new(const teal_system *sys,
                                                                    const teal_context *ctx,
                                                                    int input_port, int output_port,
                                                                    teal_error *err);

/** Frees ev (NULL is allowed). */
TEAL_API void teal_state_space_evaluator_free(teal_state_space_evaluator *ev);

/** The sizes and kind of ev's map. */
TEAL_API teal_state_space_shape
teal_state_space_evaluator_shape(const teal_state_space_evaluator *ev);

/** f(x, u) into f (nx values) and g(x, u) into y (ny values); either output
 *  may be NULL when not wanted, u may be NULL when nu = 0. Failures of the
 *  system's callbacks return their code with the message on the private
 *  context (teal_state_space_evaluator_context). */
TEAL_API int teal_state_space_evaluator_eval(teal_state_space_evaluator *ev, const double *x,
                                             const double *u, double *f, double *y);

/** The private context (its state and input are the last point evaluated).
 *  Setting its time or parameters changes the map; it stays ev's. */
TEAL_API teal_context *teal_state_space_evaluator_context(const teal_state_space_evaluator *ev);

/** A new evaluator of the same map on a clone of ev's private context
 *  (NULL with the reason in err on failure). */
TEAL_API teal_state_space_evaluator *teal_state_space_evaluator_clone(
    const teal_state_space_evaluator *ev, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
