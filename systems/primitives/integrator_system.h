/** @file
 * Integrator (Drake's primitive): continuous state z of size n with
 * zdot = u and output y = z. Named integrator_system because
 * teal_integrator_new already names the numerical integrators of
 * systems/analysis/integrator.h. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_INTEGRATOR_SYSTEM_H
#define TEAL_SYSTEMS_PRIMITIVES_INTEGRATOR_SYSTEM_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates an integrator with input "u" and output "y" (n doubles each),
 *  continuous state z (nq = nv = 0, nz = n, default zero), zdot = u and
 *  y = z. The output depends on the state only (no direct feedthrough).
 *  Declares the analytic Jacobian (A = 0, B = I, C = I, D = 0). Returns
 *  NULL on bad parameters (n < 1: TEAL_ESIZE) with the reason in err (may
 *  be NULL). Set another state in the context, or use the variant below. */
TEAL_API teal_system *teal_integrator_system_new(const char *name, int n, teal_error *err);

/** As teal_integrator_system_new with default state z0 (n finite doubles,
 *  copied; NULL means zeros; NaN/Inf: TEAL_ENONFINITE). */
TEAL_API teal_system *
teal_integrator_system_new_with_initial(const char *name, const double *z0, int n, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
