/** @file
 * Dense eigenvalue problems (dense_eigen.c): symmetric eigen-decomposition
 * and eigenvalues of a general matrix, over LAPACKE.
 *
 * Matrices are row-major and never aliased unless stated. Every function
 * checks its sizes and the library's return code; non-finite input gives
 * TEAL_ENONFINITE, a singular or rank-deficient matrix where a full one is
 * needed gives TEAL_ESINGULAR, failure of an iterative routine TEAL_ENOCONV,
 * each with a message in err (which may be NULL). Workspace is allocated per
 * call through teal_alloc unless a function says otherwise. */
#ifndef TEAL_SOLVERS_DENSE_EIGEN_H
#define TEAL_SOLVERS_DENSE_EIGEN_H

#include "teal_export.h"

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Eigen-decomposition of a symmetric matrix: w ascending, V (may be NULL)
 *  holds the eigenvectors in its columns. A is not modified. */
TEAL_API int teal_dense_sym_eigen(const double *A, int n, double *w, double *V, teal_error *err);

/** Eigenvalues of a general square matrix (wr + i wi), unordered. */
TEAL_API int teal_dense_eigenvalues(const double *A, int n, double *wr, double *wi,
                                    teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
