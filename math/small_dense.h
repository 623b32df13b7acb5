/* Dense kernels for the small matrices of multibody algorithms: a joint's
 * n x n articulated block (n <= 6), a tree's block of the mass matrix, a
 * contact island's Newton matrix. At these sizes plain loops beat a LAPACK
 * call and its argument checks. Matrices are row-major, m[i * n + j].
 *
 * Each factorization returns 0 on success, or k + 1 when pivot k fails, so
 * callers can name the pivot in their own error message. */
#ifndef TEAL_MATH_SMALL_DENSE_H
#define TEAL_MATH_SMALL_DENSE_H

#include "teal_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** In-place Cholesky A = L L' of the n x n symmetric A: L is written to the
 *  lower triangle and the strict upper triangle is zeroed. Pivot k fails
 *  when it is not finite or not above min_pivot. */
TEAL_API int teal_small_cholesky(double *A, int n, double min_pivot);

/** Solves L L' x = b in place (b becomes x) with the factor of
 *  teal_small_cholesky. */
TEAL_API void teal_small_cholesky_solve(const double *L, int n, double *b);

/** inv = (L L')^-1 (n x n), column by column, from the factor of
 *  teal_small_cholesky; n <= 64. */
TEAL_API void teal_small_cholesky_inverse(const double *L, int n, double *inv);

/** In-place LU with partial pivoting, P A = L U (unit lower L): piv[k] is
 *  the row swapped with row k at step k. Pivot k fails when it is zero or
 *  not finite. */
TEAL_API int teal_small_lu_factor(double *A, int n, int *piv);

/** Solves A x = b in place (b becomes x) with the factor of
 *  teal_small_lu_factor. */
TEAL_API void teal_small_lu_solve(const double *LU, int n, const int *piv, double *b);

#ifdef __cplusplus
}
#endif
#endif
