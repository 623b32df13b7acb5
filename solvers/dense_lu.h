/** @file
 * Dense LU factorization with partial pivoting (checked LAPACKE wrapper).
 * Matrices are row-major n x n. */
#ifndef TEAL_SOLVERS_DENSE_LU_H
#define TEAL_SOLVERS_DENSE_LU_H

#include "teal_export.h"

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Factors A in place into P A = L U; pivots holds n entries. Returns
 *  TEAL_ENONFINITE for NaN/Inf entries and TEAL_ESINGULAR for an exactly
 *  singular matrix, with a message in err (may be NULL). */
TEAL_API int teal_dense_lu_factor(double *A, int n, int *pivots, teal_error *err);

/** Solves A x = b in place (b becomes x) with a factorization from
 *  teal_dense_lu_factor. */
TEAL_API int teal_dense_lu_solve(const double *LU, int n, const int *pivots, double *b,
                                 teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
