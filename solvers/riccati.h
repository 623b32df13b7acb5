/** @file
 * Algebraic Riccati equations by ordered Schur/QZ methods (riccati.c);
 * their residuals are in riccati_residual.h, included here.
 *
 * CARE: A'X + XA - (XB + N) R^-1 (B'X + N') + Q = 0
 * DARE: A'XA - X - (A'XB + N)(R + B'XB)^-1 (B'XA + N') + Q = 0
 * with Q (n x n) symmetric, R (m x m) symmetric positive definite, N
 * (n x m, may be NULL for zero). Both return the stabilizing solution X
 * (symmetric n x n) and, in residual (may be NULL), the relative residual
 * ||lhs||_F / max(1, ||X||_F). The generalized (QZ) formulation on the
 * extended pencil handles singular A and moderately ill-conditioned R.
 * Errors: TEAL_ESIZE/TEAL_EINVAL for bad sizes or a non-symmetric Q/R,
 * TEAL_ENONFINITE for NaN/Inf, TEAL_ESINGULAR when R is not positive
 * definite or is ill-conditioned relative to B, and TEAL_ENOCONV when no
 * stabilizing solution exists (not stabilizable / not detectable:
 * eigenvalues on the boundary or a singular X11 block).
 *
 * R's conditioning: rcond = sigma_min(R) / ||[B; N; R]||_F, measured on
 * the balanced extended pencil before the QZ stage. Below the unit roundoff
 * (DBL_EPSILON, about 2.2e-16) the pencil cannot resolve R (for example
 * R = 1e-300 with B and Q of order 1), and the message says so with the
 * rcond, instead of blaming stabilizability. The CARE then returns
 * TEAL_ESINGULAR at once; the DARE, which inverts R + B'XB rather than R,
 * usually still finds X and returns TEAL_ESINGULAR only when it finds no
 * stabilizing solution. */
#ifndef TEAL_SOLVERS_RICCATI_H
#define TEAL_SOLVERS_RICCATI_H

#include "teal_export.h"

#include "framework/error.h"
#include "solvers/riccati_residual.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Continuous-time algebraic Riccati equation. */
TEAL_API int teal_care(const double *A, const double *B, const double *Q, const double *R,
                       const double *N, int n, int m, double *X, double *residual, teal_error *err);

/** Discrete-time algebraic Riccati equation. */
TEAL_API int teal_dare(const double *A, const double *B, const double *Q, const double *R,
                       const double *N, int n, int m, double *X, double *residual, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
