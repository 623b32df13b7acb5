/** @file
 * Basic dense operations (dense_basic.c): checked CBLAS dgemm, finiteness,
 * Frobenius norm and symmetry tests.
 *
 * Matrices are row-major and never aliased unless stated. Every function
 * checks its sizes and the library's return code; non-finite input gives
 * TEAL_ENONFINITE, a singular or rank-deficient matrix where a full one is
 * needed gives TEAL_ESINGULAR, failure of an iterative routine TEAL_ENOCONV,
 * each with a message in err (which may be NULL). Workspace is allocated per
 * call through teal_alloc unless a function says otherwise. */
#ifndef TEAL_SOLVERS_DENSE_BASIC_H
#define TEAL_SOLVERS_DENSE_BASIC_H

#include "teal_export.h"

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** C = alpha op(A) op(B) + beta C with op = transpose when the flag is set;
 *  op(A) is m x k, op(B) is k x n (CBLAS dgemm). */
TEAL_API int teal_dense_gemm(int trans_a, int trans_b, int m, int n, int k, double alpha,
                             const double *A, const double *B, double beta, double *C,
                             teal_error *err);

/** Nonzero when every entry of the m x n matrix is finite. */
TEAL_API int teal_dense_all_finite(const double *A, int m, int n);

/** Frobenius norm of an m x n matrix. */
TEAL_API double teal_dense_norm_fro(const double *A, int m, int n);

/** dst (cols x rows) = src' for a rows x cols matrix; both stored densely
 *  in the same order, so this also converts row-major <-> column-major.
 *  src and dst must not overlap. */
TEAL_API void teal_dense_transpose(const double *src, int rows, int cols, double *dst);

/** Nonzero when A (n x n) is symmetric to |A - A'| <= tol max(1, |A|) entrywise. */
TEAL_API int teal_dense_is_symmetric(const double *A, int n, double tol);

#ifdef __cplusplus
}
#endif
#endif
