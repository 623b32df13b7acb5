/** @file
 * Three-stage Radau IIA (integrator_radau.c). Use it with
 * teal_integrator_new or teal_simulator_set_integrator (integrator.h). */
#ifndef TEAL_SYSTEMS_ANALYSIS_INTEGRATOR_RADAU_H
#define TEAL_SYSTEMS_ANALYSIS_INTEGRATOR_RADAU_H

#include "teal_export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct teal_integrator_type teal_integrator_type;

/** Three-stage Radau IIA (order 5, stiffly accurate, L-stable) for stiff
 *  systems: simplified Newton on the 3n stage equations with the Jacobian
 *  (the ODE's or forward differences) formed and the 3n x 3n iteration
 *  matrix factored once per step; Hairer & Wanner's embedded third-order
 *  estimate filtered by (I - h gamma0 J)^-1 (error order 3); dense output
 *  from the collocation polynomial. */
TEAL_API extern const teal_integrator_type *const teal_integrator_radau3;

#ifdef __cplusplus
}
#endif
#endif
