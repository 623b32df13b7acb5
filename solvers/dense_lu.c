/* Dense LU through LAPACKE's dgetrf/dgetrs, with size, finiteness and
 * singularity checks. The row-major A is handed to LAPACK as the
 * column-major A' (same memory), factored there and solved with the
 * transpose flag: LAPACKE's row-major path would malloc a transposed copy
 * on every call, and these run inside implicit integration steps. */
#include "solvers/dense_lu.h"

#include <lapacke.h>
#include <math.h>

_Static_assert(sizeof(lapack_int) == sizeof(int), "Teal expects 32-bit LAPACK integers");

int teal_dense_lu_factor(double *A, int n, int *pivots, teal_error *err) {
  if (n < 0 || (n > 0 && (!A || !pivots))) {
    return teal_error_set(err, TEAL_EINVAL, "lu_factor: bad arguments (n = %d)", n);
  }
  for (long i = 0; i < (long)n * n; i++) {
    if (!isfinite(A[i])) {
      return teal_error_set(err, TEAL_ENONFINITE, "lu_factor: entry (%ld, %ld) is not finite",
                            i / n, i % n);
    }
  }
  if (n == 0) {
    return TEAL_OK;
  }
  lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, A, n, pivots);
  if (info > 0) {
    return teal_error_set(err, TEAL_ESINGULAR, "lu_factor: matrix is singular (zero pivot %d "
                          "of %d)", (int)info, n);
  }
  if (info < 0) {
    return teal_error_set(err, TEAL_EINVAL, "lu_factor: LAPACK rejected argument %d",
                          (int)-info);
  }
  return TEAL_OK;
}

int teal_dense_lu_solve(const double *LU, int n, const int *pivots, double *b, teal_error *err) {
  if (n < 0 || (n > 0 && (!LU || !pivots || !b))) {
    return teal_error_set(err, TEAL_EINVAL, "lu_solve: bad arguments (n = %d)", n);
  }
  if (n == 0) {
    return TEAL_OK;
  }
  lapack_int info = LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'T', n, 1, LU, n, pivots, b, n);
  if (info != 0) {
    return teal_error_set(err, TEAL_EINVAL, "lu_solve: LAPACK rejected argument %d",
                          (int)-info);
  }
  for (int i = 0; i < n; i++) {
    if (!isfinite(b[i])) {
      return teal_error_set(err, TEAL_ENONFINITE, "lu_solve: solution entry %d is not finite",
                            i);
    }
  }
  return TEAL_OK;
}
