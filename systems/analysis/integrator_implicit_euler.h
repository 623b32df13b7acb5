/** @file
 * Implicit (backward) Euler (integrator_implicit_euler.c). Use it with
 * teal_integrator_new or teal_simulator_set_integrator (integrator.h). */
#ifndef TEAL_SYSTEMS_ANALYSIS_INTEGRATOR_IMPLICIT_EULER_H
#define TEAL_SYSTEMS_ANALYSIS_INTEGRATOR_IMPLICIT_EULER_H

#include "teal_export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct teal_integrator_type teal_integrator_type;

/** Implicit (backward) Euler with Newton iterations, for stiff systems;
 *  the Jacobian is the ODE's or forward differences; error estimate
 *  h/2 (f(x1) - f(x0)) (error order 1). */
TEAL_API extern const teal_integrator_type *const teal_integrator_implicit_euler;

#ifdef __cplusplus
}
#endif
#endif
