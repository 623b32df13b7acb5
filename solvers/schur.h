/** @file
 * Ordered real Schur and generalized Schur (QZ) forms (schur.c), the
 * building block of the Riccati and Lyapunov solvers.
 *
 * Matrices are row-major and never aliased unless stated. Every function
 * checks its sizes and the library's return code; non-finite input gives
 * TEAL_ENONFINITE, a singular or rank-deficient matrix where a full one is
 * needed gives TEAL_ESINGULAR, failure of an iterative routine TEAL_ENOCONV,
 * each with a message in err (which may be NULL). Workspace is allocated per
 * call through teal_alloc unless a function says otherwise. */
#ifndef TEAL_SOLVERS_SCHUR_H
#define TEAL_SOLVERS_SCHUR_H

#include "teal_export.h"

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Eigenvalue regions used to order Schur forms. */
typedef enum teal_eig_region {
  TEAL_EIG_LEFT_HALF_PLANE = 0, /**< Re(lambda) < 0 (continuous-time stable) */
  TEAL_EIG_UNIT_DISK = 1        /**< |lambda| < 1 (discrete-time stable) */
} teal_eig_region;

/** Real Schur form A = Z T Z' with the eigenvalues in region first: T (in
 *  place of A) is quasi-upper-triangular, Z orthogonal (n x n), *nsel the
 *  number of eigenvalues in region (wr/wi may be NULL). */
TEAL_API int teal_schur_ordered(double *A, int n, double *Z, teal_eig_region region, int *nsel,
                                double *wr, double *wi, teal_error *err);

/** Generalized real Schur form (QZ) of the pencil (A, B): A = Q S Z',
 *  B = Q T Z' with the generalized eigenvalues alpha/beta in region first
 *  (an infinite eigenvalue, beta = 0, is never selected); S and T replace A
 *  and B; Q, Z orthogonal n x n; *nsel as above. Q may be NULL when only the
 *  right deflating vectors Z are wanted (it is then not computed). */
TEAL_API int teal_qz_ordered(double *A, double *B, int n, double *Q, double *Z,
                             teal_eig_region region, int *nsel, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
