/** @file
 * Singular value decomposition and what is built on it (dense_svd.c): SVD,
 * numerical rank and pseudo-inverse, over LAPACKE.
 *
 * Matrices are row-major and never aliased unless stated. Every function
 * checks its sizes and the library's return code; non-finite input gives
 * TEAL_ENONFINITE, a singular or rank-deficient matrix where a full one is
 * needed gives TEAL_ESINGULAR, failure of an iterative routine TEAL_ENOCONV,
 * each with a message in err (which may be NULL). Workspace is allocated per
 * call through teal_alloc unless a function says otherwise. */
#ifndef TEAL_SOLVERS_DENSE_SVD_H
#define TEAL_SOLVERS_DENSE_SVD_H

#include "teal_export.h"

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** SVD A = U diag(s) Vt of an m x n matrix: U m x m, s min(m,n)
 *  (descending), Vt n x n. U or Vt may be NULL when not wanted. */
TEAL_API int teal_dense_svd(const double *A, int m, int n, double *U, double *s, double *Vt,
                            teal_error *err);

/** Numerical rank: singular values above tol (tol < 0: max(m,n) eps s_max). */
TEAL_API int teal_dense_rank(const double *A, int m, int n, double tol, int *rank, teal_error *err);

/** Moore-Penrose pseudo-inverse (n x m) dropping singular values <= tol
 *  (tol < 0 as for teal_dense_rank); rank may be NULL. */
TEAL_API int teal_dense_pinv(const double *A, int m, int n, double tol, double *Ainv, int *rank,
                             teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
