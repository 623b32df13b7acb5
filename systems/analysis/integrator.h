/** @file
 * Integrators as interchangeable type tables (GSL's odeiv idiom).
 *
 * An integrator advances an ODE x' = f(t, x) with x = [q; v; z] by one step
 * of a given size, optionally returning an estimate of the local error.
 * Error control (step-size selection) lives in the simulator; an integrator
 * only steps. Each type is a const table; an instance holds the workspace,
 * allocated once by teal_integrator_new. The methods are declared one
 * header per source file (integrators_explicit.h, integrator_implicit_euler.h,
 * integrator_radau.h), all included here. */
#ifndef TEAL_SYSTEMS_ANALYSIS_INTEGRATOR_H
#define TEAL_SYSTEMS_ANALYSIS_INTEGRATOR_H

#include "teal_export.h"

#include "framework/error.h"
#include "systems/analysis/integrator_implicit_euler.h"
#include "systems/analysis/integrator_radau.h"
#include "systems/analysis/integrators_explicit.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The ODE an integrator advances. x = [q; v; z], n = nq + nv + nz. */
typedef struct teal_ode {
  /** Sizes of the q, v and z parts of x. @{ */
  int nq, nv, nz;
  /** @} */
  /** xdot = f(t, x). Returns a status (a non-finite xdot is the caller's
   *  to detect and report). */
  int (*derivatives)(double t, const double *x, double *xdot, void *user);
  /** qdot = N(q) v for the q in x; NULL means qdot = v (nq == nv). */
  int (*v_to_qdot)(double t, const double *x, const double *v, double *qdot, void *user);
  /** Optional analytic Jacobian df/dx, n x n row-major (implicit methods);
   *  returning TEAL_EUNSUPPORTED has forward differences used instead. */
  int (*jacobian)(double t, const double *x, double *J, void *user);
  void *user; /**< passed to every callback */
} teal_ode;

/** An integrator instance (opaque): a type, its workspace and counters. */
typedef struct teal_integrator teal_integrator;

/** An integrator type: a const table of functions. */
typedef struct teal_integrator_type {
  const char *name; /**< the method's name */
  int order;        /**< order of the propagated solution */
  int error_order;  /**< order of the embedded lower solution; 0: no estimate */
  int implicit;     /**< nonzero for methods that solve a nonlinear system */
  /** Allocates the method's workspace for the sizes of the ODE. */
  void *(*alloc)(int nq, int nv, int nz);
  /** One step from (t, x0) of size h into x1; xerr (may be NULL) receives
   *  the local error estimate when error_order > 0. */
  int (*step)(teal_integrator *integ, const teal_ode *ode, double t, double h, const double *x0,
              double *x1, double *xerr);
  /** Dense output: x at t + theta h of the last step (0 <= theta <= 1);
   *  NULL when the method has none. */
  int (*interpolate)(const teal_integrator *integ, double theta, double *x);
  /** Frees a workspace made by alloc. */
  void (*free)(void *work);
} teal_integrator_type;

/** Work counters of an instance. */
typedef struct teal_integrator_counts {
  long steps;             /**< step calls that succeeded */
  long derivative_evals;  /**< calls of the ODE's derivatives */
  long jacobian_evals;    /**< Jacobians formed (analytic or differenced) */
  long newton_iterations; /**< Newton iterations (implicit methods) */
  long factorizations;    /**< iteration matrices factored (implicit methods) */
} teal_integrator_counts;

/** Creates an instance of type for an ODE of the given sizes; NULL on
 *  failure with err filled (may be NULL). */
TEAL_API teal_integrator *teal_integrator_new(const teal_integrator_type *type, int nq, int nv,
                                              int nz, teal_error *err);
/** Frees an instance and its workspace (NULL is ignored). */
TEAL_API void teal_integrator_free(teal_integrator *integ);

/** The instance's type (NULL for NULL). */
TEAL_API const teal_integrator_type *teal_integrator_get_type(const teal_integrator *integ);

/** One step; see teal_integrator_type.step. Sizes must match the instance. */
TEAL_API int teal_integrator_step(teal_integrator *integ, const teal_ode *ode, double t, double h,
                                  const double *x0, double *x1, double *xerr);

/** Dense output of the last successful step (TEAL_EUNSUPPORTED when the
 *  method has none, TEAL_ESTATE before any step). */
TEAL_API int teal_integrator_interpolate(const teal_integrator *integ, double theta, double *x);

/** Forgets derivatives carried between steps (call when the state or the
 *  inputs changed outside the integrator, as after events). */
TEAL_API void teal_integrator_reset(teal_integrator *integ);

/** The instance's counters. */
TEAL_API teal_integrator_counts teal_integrator_get_counts(const teal_integrator *integ);

/** The message of the last failed step. */
TEAL_API const teal_error *teal_integrator_error(const teal_integrator *integ);

#ifdef __cplusplus
}
#endif
#endif
