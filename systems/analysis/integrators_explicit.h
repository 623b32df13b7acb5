/** @file
 * The explicit integration methods (integrators_explicit.c): Euler,
 * semi-explicit Euler and the Runge-Kutta family. Use them with
 * teal_integrator_new or teal_simulator_set_integrator (integrator.h). */
#ifndef TEAL_SYSTEMS_ANALYSIS_INTEGRATORS_EXPLICIT_H
#define TEAL_SYSTEMS_ANALYSIS_INTEGRATORS_EXPLICIT_H

#include "teal_export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct teal_integrator_type teal_integrator_type;

/** Explicit Euler (order 1, no error estimate). */
TEAL_API extern const teal_integrator_type *const teal_integrator_explicit_euler;
/** Semi-explicit (symplectic) Euler: v and z by explicit Euler, then q
 *  from the new v (order 1, no error estimate). */
TEAL_API extern const teal_integrator_type *const teal_integrator_semi_explicit_euler;
/** Explicit trapezoid / Heun (order 2, Euler embedded: error order 1). */
TEAL_API extern const teal_integrator_type *const teal_integrator_rk2;
/** Bogacki-Shampine 3(2) (order 3, error order 2). */
TEAL_API extern const teal_integrator_type *const teal_integrator_rk3;
/** Classic fourth-order Runge-Kutta (no error estimate). */
TEAL_API extern const teal_integrator_type *const teal_integrator_rk4;
/** Dormand-Prince 5(4) with 4th-order dense output (order 5, error order 4). */
TEAL_API extern const teal_integrator_type *const teal_integrator_rk45;

#ifdef __cplusplus
}
#endif
#endif
