/* Pivoted Cholesky solve of a symmetric positive semidefinite system (see
 * dense_psd.h). */
#include "solvers/dense_psd.h"

#include <math.h>

static int all_finite(const double *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return 0;
    }
  }
  return 1;
}

/* Swaps row and column i and j of the symmetric n x n A and of perm. */
static void symmetric_swap(double *A, int n, double *perm, int i, int j) {
  if (i == j) {
    return;
  }
  for (int k = 0; k < n; k++) {
    double t = A[i * n + k];
    A[i * n + k] = A[j * n + k];
    A[j * n + k] = t;
  }
  for (int k = 0; k < n; k++) {
    double t = A[k * n + i];
    A[k * n + i] = A[k * n + j];
    A[k * n + j] = t;
  }
  double t = perm[i];
  perm[i] = perm[j];
  perm[j] = t;
}

/* The factorization proper; returns the rank. */
static int pivoted_cholesky(double *A, int n, double tol, double *perm) {
  double dmax = 0.0;
  for (int i = 0; i < n; i++) {
    dmax = fmax(dmax, A[i * n + i]);
  }
  double floor = tol * dmax;
  for (int k = 0; k < n; k++) {
    int j = k;
    for (int i = k + 1; i < n; i++) {
      j = A[i * n + i] > A[j * n + j] ? i : j;
    }
    if (!(A[j * n + j] > floor)) {
      return k;
    }
    symmetric_swap(A, n, perm, k, j);
    double d = sqrt(A[k * n + k]);
    A[k * n + k] = d;
    for (int i = k + 1; i < n; i++) {
      A[i * n + k] /= d;
    }
    /* the whole trailing block, both triangles: later swaps move entries
     * across the diagonal */
    for (int c = k + 1; c < n; c++) {
      for (int i = k + 1; i < n; i++) {
        A[i * n + c] -= A[i * n + k] * A[c * n + k];
      }
    }
  }
  return n;
}

int teal_dense_psd_factor(double *S, int n, double tol, double *work, int *rank, teal_error *err) {
  if (!S || !work || !rank || n < 0) {
    return teal_error_set(err, TEAL_EINVAL, "dense psd factor: NULL S, work or rank, or n = %d < 0",
                          n);
  }
  if (!all_finite(S, (size_t)n * (size_t)n)) {
    return teal_error_set(err, TEAL_ENONFINITE, "dense psd factor: S (%d x %d) is not finite", n,
                          n);
  }
  for (int i = 0; i < n; i++) {
    work[i] = i;
  }
  *rank = pivoted_cholesky(S, n, tol > 0.0 ? tol : TEAL_DENSE_PSD_DEFAULT_TOL, work);
  return TEAL_OK;
}

int teal_dense_psd_solve(const double *L, int n, int rank, double *work, double *b,
                         teal_error *err) {
  if (!L || !b || !work || n < 0 || rank < 0 || rank > n) {
    return teal_error_set(err, TEAL_EINVAL,
                          "dense psd solve: NULL L, work or b, or rank %d outside [0, n = %d]",
                          rank, n);
  }
  if (!all_finite(b, (size_t)n)) {
    return teal_error_set(err, TEAL_ENONFINITE, "dense psd solve: b (%d values) is not finite", n);
  }
  const double *perm = work;
  double *y = work + n;
  for (int i = 0; i < rank; i++) {
    double s = b[(int)perm[i]];
    for (int k = 0; k < i; k++) {
      s -= L[i * n + k] * y[k];
    }
    y[i] = s / L[i * n + i];
  }
  for (int i = rank - 1; i >= 0; i--) {
    double s = y[i];
    for (int k = i + 1; k < rank; k++) {
      s -= L[k * n + i] * y[k];
    }
    y[i] = s / L[i * n + i];
  }
  for (int i = 0; i < n; i++) {
    b[i] = 0.0;
  }
  for (int i = 0; i < rank; i++) {
    b[(int)perm[i]] = y[i];
  }
  return TEAL_OK;
}

int teal_dense_psd_factor_solve(double *S, int n, double *b, double tol, double *work, int *rank,
                                teal_error *err) {
  int r = 0;
  int rc = teal_dense_psd_factor(S, n, tol, work, &r, err);
  rc = rc ? rc : teal_dense_psd_solve(S, n, r, work, b, err);
  if (rank) {
    *rank = r;
  }
  return rc;
}

static int counted(const double *mask, int i) {
  return !mask || mask[i] != 0.0;
}

double teal_dense_psd_residual(const double *S, int n, const double *b, const double *x,
                               const double *mask, int *worst_row) {
  if (worst_row) {
    *worst_row = -1;
  }
  if (!S || !b || !x || n < 0) {
    return NAN;
  }
  double bmax = 0.0, xmax = 0.0, smax = 0.0, worst = 0.0;
  for (int i = 0; i < n; i++) {
    bmax = fmax(bmax, fabs(b[i]));
    xmax = fmax(xmax, fabs(x[i]));
    smax = fmax(smax, fabs(S[i * n + i]));
  }
  for (int i = 0; i < n; i++) {
    double s = -b[i];
    for (int k = 0; k < n; k++) {
      s += S[i * n + k] * x[k];
    }
    if (!isfinite(s)) {
      return NAN;
    }
    if (counted(mask, i) && fabs(s) > worst) {
      worst = fabs(s);
      if (worst_row) {
        *worst_row = i;
      }
    }
  }
  double scale = bmax + smax * xmax;
  return scale > 0.0 ? worst / scale : worst;
}
