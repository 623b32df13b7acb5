/* Small dense factorizations: Cholesky and LU with partial pivoting (see
 * small_dense.h). */
#include "math/small_dense.h"

#include <math.h>

/* L[j][j] from the pivot d, or 0 when d fails the test. */
static int cholesky_pivot_ok(double d, double min_pivot) {
  return d > min_pivot && isfinite(d);
}

int teal_small_cholesky(double *A, int n, double min_pivot) {
  for (int j = 0; j < n; j++) {
    double d = A[j * n + j];
    for (int k = 0; k < j; k++) {
      d -= A[j * n + k] * A[j * n + k];
    }
    if (!cholesky_pivot_ok(d, min_pivot)) {
      return j + 1;
    }
    double ljj = sqrt(d);
    A[j * n + j] = ljj;
    for (int i = j + 1; i < n; i++) {
      double s = A[i * n + j];
      for (int k = 0; k < j; k++) {
        s -= A[i * n + k] * A[j * n + k];
      }
      A[i * n + j] = s / ljj;
      A[j * n + i] = 0.0;
    }
  }
  return 0;
}

void teal_small_cholesky_solve(const double *L, int n, double *b) {
  for (int i = 0; i < n; i++) { /* L y = b */
    for (int k = 0; k < i; k++) {
      b[i] -= L[i * n + k] * b[k];
    }
    b[i] /= L[i * n + i];
  }
  for (int i = n - 1; i >= 0; i--) { /* L' x = y */
    for (int k = i + 1; k < n; k++) {
      b[i] -= L[k * n + i] * b[k];
    }
    b[i] /= L[i * n + i];
  }
}

void teal_small_cholesky_inverse(const double *L, int n, double *inv) {
  for (int c = 0; c < n; c++) {
    double x[64];
    for (int i = 0; i < n; i++) {
      x[i] = i == c ? 1.0 : 0.0;
    }
    teal_small_cholesky_solve(L, n, x);
    for (int i = 0; i < n; i++) {
      inv[i * n + c] = x[i];
    }
  }
}

/* Swaps rows k and p of the n-column A. */
static void swap_rows(double *A, int n, int k, int p) {
  for (int j = 0; p != k && j < n; j++) {
    double tmp = A[k * n + j];
    A[k * n + j] = A[p * n + j];
    A[p * n + j] = tmp;
  }
}

int teal_small_lu_factor(double *A, int n, int *piv) {
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++) {
      p = fabs(A[i * n + k]) > fabs(A[p * n + k]) ? i : p;
    }
    piv[k] = p;
    if (!(A[p * n + k] != 0.0) || !isfinite(A[p * n + k])) {
      return k + 1;
    }
    swap_rows(A, n, k, p);
    for (int i = k + 1; i < n; i++) {
      double l = A[i * n + k] /= A[k * n + k];
      for (int j = k + 1; j < n; j++) {
        A[i * n + j] -= l * A[k * n + j];
      }
    }
  }
  return 0;
}

void teal_small_lu_solve(const double *LU, int n, const int *piv, double *b) {
  for (int k = 0; k < n; k++) {
    double tmp = b[k];
    b[k] = b[piv[k]];
    b[piv[k]] = tmp;
  }
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      b[i] -= LU[i * n + j] * b[j];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j < n; j++) {
      b[i] -= LU[i * n + j] * b[j];
    }
    b[i] /= LU[i * n + i];
  }
}
