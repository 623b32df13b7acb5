/* Integrators as interchangeable type tables (GSL's odeiv idiom).
 *
 * An integrator advances an ODE x' = f(t, x) with x = [q; v; z] by one step
 * of a given size, optionally returning an estimate of the local error.
 * Error control (step-size selection) lives in the simulator; an integrator
 * only steps. Each type is a const table; an instance holds the workspace,
 * allocated once by teal_integrator_new. */
#ifndef TEAL_SYSTEMS_ANALYSIS_INTEGRATOR_H
#define TEAL_SYSTEMS_ANALYSIS_INTEGRATOR_H

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The ODE an integrator advances. x = [q; v; z], n = nq + nv + nz. */
typedef struct teal_ode {
  int nq, nv, nz;
  /** xdot = f(t, x). Returns a status (a non-finite xdot is the caller's
   *  to detect and report). */
  int (*derivatives)(double t, const double *x, double *xdot, void *user);
  /** qdot = N(q) v for the q in x; NULL means qdot = v (nq == nv). */
  int (*v_to_qdot)(double t, const double *x, const double *v, double *qdot, void *user);
  /** Optional analytic Jacobian df/dx, n x n row-major (implicit methods). */
  int (*jacobian)(double t, const double *x, double *J, void *user);
  void *user;
} teal_ode;

typedef struct teal_integrator teal_integrator;

/** An integrator type: a const table of functions. */
typedef struct teal_integrator_type {
  const char *name;
  int order;       /**< order of the propagated solution */
  int error_order; /**< order of the embedded lower solution; 0: no estimate */
  int implicit;    /**< nonzero for methods that solve a nonlinear system */
  /** Allocates the method's workspace for the sizes of the ODE. */
  void *(*alloc)(int nq, int nv, int nz);
  /** One step from (t, x0) of size h into x1; xerr (may be NULL) receives
   *  the local error estimate when error_order > 0. */
  int (*step)(teal_integrator *integ, const teal_ode *ode, double t, double h, const double *x0,
              double *x1, double *xerr);
  /** Dense output: x at t + theta h of the last step (0 <= theta <= 1);
   *  NULL when the method has none. */
  int (*interpolate)(const teal_integrator *integ, double theta, double *x);
  void (*free)(void *work);
} teal_integrator_type;

/** Explicit Euler (order 1, no error estimate). */
extern const teal_integrator_type *const teal_integrator_explicit_euler;
/** Semi-explicit (symplectic) Euler: v and z by explicit Euler, then q
 *  from the new v (order 1, no error estimate). */
extern const teal_integrator_type *const teal_integrator_semi_explicit_euler;
/** Explicit trapezoid / Heun (order 2, Euler embedded: error order 1). */
extern const teal_integrator_type *const teal_integrator_rk2;
/** Bogacki-Shampine 3(2) (order 3, error order 2). */
extern const teal_integrator_type *const teal_integrator_rk3;
/** Classic fourth-order Runge-Kutta (no error estimate). */
extern const teal_integrator_type *const teal_integrator_rk4;
/** Dormand-Prince 5(4) with 4th-order dense output (order 5, error order 4). */
extern const teal_integrator_type *const teal_integrator_rk45;
/** Implicit (backward) Euler with Newton iterations, for stiff systems;
 *  the Jacobian is the ODE's or forward differences; error estimate
 *  h/2 (f(x1) - f(x0)) (error order 1). */
extern const teal_integrator_type *const teal_integrator_implicit_euler;
/** Three-stage Radau IIA (order 5, stiffly accurate, L-stable) for stiff
 *  systems: simplified Newton on the 3n stage equations with the Jacobian
 *  (the ODE's or forward differences) formed and the 3n x 3n iteration
 *  matrix factored once per step; Hairer & Wanner's embedded third-order
 *  estimate filtered by (I - h gamma0 J)^-1 (error order 3); dense output
 *  from the collocation polynomial. */
extern const teal_integrator_type *const teal_integrator_radau3;

/** Work counters of an instance. */
typedef struct teal_integrator_counts {
  long steps;            /**< step calls that succeeded */
  long derivative_evals; /**< calls of the ODE's derivatives */
  long jacobian_evals;   /**< Jacobians formed (analytic or differenced) */
  long newton_iterations;
  long factorizations;
} teal_integrator_counts;

/** Creates an instance of type for an ODE of the given sizes; NULL on
 *  failure with err filled (may be NULL). */
teal_integrator *teal_integrator_new(const teal_integrator_type *type, int nq, int nv, int nz,
                                     teal_error *err);
void teal_integrator_free(teal_integrator *integ);

const teal_integrator_type *teal_integrator_get_type(const teal_integrator *integ);

/** One step; see teal_integrator_type.step. Sizes must match the instance. */
int teal_integrator_step(teal_integrator *integ, const teal_ode *ode, double t, double h,
                         const double *x0, double *x1, double *xerr);

/** Dense output of the last successful step (TEAL_EUNSUPPORTED when the
 *  method has none, TEAL_ESTATE before any step). */
int teal_integrator_interpolate(const teal_integrator *integ, double theta, double *x);

/** Forgets derivatives carried between steps (call when the state or the
 *  inputs changed outside the integrator, e.g. after events). */
void teal_integrator_reset(teal_integrator *integ);

/** The instance's counters. */
teal_integrator_counts teal_integrator_get_counts(const teal_integrator *integ);

/** The message of the last failed step. */
const teal_error *teal_integrator_error(const teal_integrator *integ);

#ifdef __cplusplus
}
#endif
#endif
