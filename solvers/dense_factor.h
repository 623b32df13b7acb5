/** @file
 * Dense factorizations and solves (dense_factor.c): Cholesky, general
 * square solve (LU with pivoting) and thin QR, over LAPACKE.
 *
 * Matrices are row-major and never aliased unless stated. Every function
 * checks its sizes and the library's return code; non-finite input gives
 * TEAL_ENONFINITE, a singular or rank-deficient matrix where a full one is
 * needed gives TEAL_ESINGULAR, failure of an iterative routine TEAL_ENOCONV,
 * each with a message in err (which may be NULL). Workspace is allocated per
 * call through teal_alloc unless a function says otherwise. */
#ifndef TEAL_SOLVERS_DENSE_FACTOR_H
#define TEAL_SOLVERS_DENSE_FACTOR_H

#include "teal_export.h"

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Cholesky A = L L' in place (lower triangle becomes L, upper zeroed);
 *  TEAL_ESINGULAR when A is not symmetric positive definite. */
TEAL_API int teal_dense_cholesky_factor(double *A, int n, teal_error *err);

/** Solves A X = B with the factor from teal_dense_cholesky_factor; B is n x nrhs
 *  and becomes X. */
TEAL_API int teal_dense_cholesky_solve(const double *L, int n, double *B, int nrhs,
                                       teal_error *err);

/** Solves S X = B for a symmetric positive definite S (n x n, its lower
 *  triangle read; overwritten by its Cholesky factor) with the right-hand
 *  sides given transposed: Bt is nrhs x n row-major, one right-hand side per
 *  row, and becomes X' (so Bt S^-1 in one call). Unlike the functions
 *  above it allocates nothing, for use inside simulation steps; it checks
 *  neither finiteness nor symmetry. TEAL_ESINGULAR when S is not positive
 *  definite, TEAL_EINVAL for a NULL pointer or a negative size. */
TEAL_API int teal_dense_spd_solve_transposed(double *S, int n, double *Bt, int nrhs,
                                             teal_error *err);

/** Replaces a symmetric positive definite S (n x n, its lower triangle
 *  read) by S^-1, both triangles written (Cholesky, then LAPACK's dpotri).
 *  Allocates nothing and checks neither finiteness nor symmetry.
 *  TEAL_ESINGULAR when S is not positive definite, TEAL_EINVAL for a NULL
 *  pointer or a negative size. */
TEAL_API int teal_dense_spd_inverse(double *S, int n, teal_error *err);

/** Solves A X = B for a general square A (n x n, LU with pivoting); B is
 *  n x nrhs and becomes X; A is not modified. TEAL_ESINGULAR when singular. */
TEAL_API int teal_dense_solve(const double *A, int n, double *B, int nrhs, teal_error *err);

/** Thin QR of an m x n matrix (m >= n): Q is m x n with orthonormal
 *  columns, R is n x n upper triangular. */
TEAL_API int teal_dense_qr(const double *A, int m, int n, double *Q, double *R, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
