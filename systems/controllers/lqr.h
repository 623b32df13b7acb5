/** @file
 * Linear quadratic regulators (Drake's LinearQuadraticRegulator).
 *
 * Continuous: minimize integral x'Qx + u'Ru + 2x'Nu subject to
 * x' = Ax + Bu; K = R^-1 (B'S + N'), S from the CARE.
 * Discrete: minimize sum x'Qx + u'Ru + 2x'Nu subject to x[k+1] = Ax + Bu;
 * K = (R + B'SB)^-1 (B'SA + N'), S from the DARE. u = -K x. */
#ifndef TEAL_SYSTEMS_CONTROLLERS_LQR_H
#define TEAL_SYSTEMS_CONTROLLERS_LQR_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** K (m x n) and S (n x n, may be NULL) from (A, B, Q, R[, N]); discrete
 *  selects the DARE. Q must be symmetric positive semidefinite, R symmetric
 *  positive definite (TEAL_EINVAL / TEAL_ESINGULAR otherwise, with messages
 *  in err, which may be NULL). */
TEAL_API int teal_lqr(const double *A, const double *B, const double *Q, const double *R,
                      const double *N, int n, int m, int discrete, double *K, double *S,
                      teal_error *err);

/** Linearizes sys about ctx (its input port input_port is u, fixed in ctx
 *  to u0; x0 is the context's state, an equilibrium) and returns the
 *  controller u = u0 - K (x - x0) as an affine system named name whose
 *  input "u" takes the plant's full state x (continuous [q; v; z], or all
 *  discrete state for a discrete plant) and whose output "y" is u. The
 *  controller is continuous (no state) in both cases. K and S (may be NULL)
 *  receive the gain and the Riccati solution when non-NULL. */
TEAL_API teal_system *teal_lqr_controller_new(const char *name, const teal_system *sys,
                                              const teal_context *ctx, int input_port,
                                              const double *Q, const double *R, const double *N,
                                              double *K, double *S, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
