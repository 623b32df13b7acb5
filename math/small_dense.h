/** @file
 * Dense kernels for the small matrices of multibody algorithms: a joint's
 * n x n articulated block (n <= 6), a tree's block of the mass matrix, a
 * contact island's Newton matrix. At these sizes plain loops beat a LAPACK
 * call and its argument checks. Matrices are row-major, m[i * n + j].
 *
 * Each factorization returns 0 on success, or k + 1 when pivot k fails, so
 * callers can name the pivot in their own error message. Every function is
 * static inline: the matrices are small and the calls sit in O(n) loops. */
#ifndef TEAL_MATH_SMALL_DENSE_H
#define TEAL_MATH_SMALL_DENSE_H

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

/** 1 when d may be a Cholesky pivot: finite and above min_pivot. */
static inline int teal_small_cholesky_pivot_ok(double d, double min_pivot) {
  return d > min_pivot && isfinite(d);
}

/** In-place Cholesky A = L L' of the n x n symmetric A: L is written to the
 *  lower triangle and the strict upper triangle is zeroed. Pivot k fails
 *  when it is not finite or not above min_pivot. */
static inline int teal_small_cholesky(double *A, int n, double min_pivot) {
  for (int j = 0; j < n; j++) {
    double d = A[j * n + j];
    for (int k = 0; k < j; k++) {
      d -= A[j * n + k] * A[j * n + k];
    }
    if (!teal_small_cholesky_pivot_ok(d, min_pivot)) {
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

/** Solves L L' x = b in place (b becomes x) with the factor of
 *  teal_small_cholesky. */
static inline void teal_small_cholesky_solve(const double *L, int n, double *b) {
  /* accumulate in a local: b may alias nothing, but the compiler cannot know */
  for (int i = 0; i < n; i++) { /* L y = b */
    double s = b[i];
    for (int k = 0; k < i; k++) {
      s -= L[i * n + k] * b[k];
    }
    b[i] = s / L[i * n + i];
  }
  for (int i = n - 1; i >= 0; i--) { /* L' x = y */
    double s = b[i];
    for (int k = i + 1; k < n; k++) {
      s -= L[k * n + i] * b[k];
    }
    b[i] = s / L[i * n + i];
  }
}

/** inv = (L L')^-1 (n x n), column by column, from the factor of
 *  teal_small_cholesky; n <= 64. */
static inline void teal_small_cholesky_inverse(const double *L, int n, double *inv) {
  for (int c = 0; c < n; c++) {
    double x[64];
    for (int i = 0; i < n; i++) { /* L y = e_c, the unit column built in place */
      double s = i == c ? 1.0 : 0.0;
      for (int k = 0; k < i; k++) {
        s -= L[i * n + k] * x[k];
      }
      x[i] = s / L[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) { /* L' x = y */
      double s = x[i];
      for (int k = i + 1; k < n; k++) {
        s -= L[k * n + i] * x[k];
      }
      x[i] = s / L[i * n + i];
    }
    for (int i = 0; i < n; i++) {
      inv[i * n + c] = x[i];
    }
  }
}

/** Swaps rows k and p of the n-column A. */
static inline void teal_small_swap_rows(double *A, int n, int k, int p) {
  for (int j = 0; p != k && j < n; j++) {
    double tmp = A[k * n + j];
    A[k * n + j] = A[p * n + j];
    A[p * n + j] = tmp;
  }
}

/** In-place LU with partial pivoting, P A = L U (unit lower L): piv[k] is
 *  the row swapped with row k at step k. Pivot k fails when it is zero or
 *  not finite. */
static inline int teal_small_lu_factor(double *A, int n, int *piv) {
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++) {
      p = fabs(A[i * n + k]) > fabs(A[p * n + k]) ? i : p;
    }
    piv[k] = p;
    if (!(A[p * n + k] != 0.0) || !isfinite(A[p * n + k])) {
      return k + 1;
    }
    teal_small_swap_rows(A, n, k, p);
    for (int i = k + 1; i < n; i++) {
      double l = A[i * n + k] /= A[k * n + k];
      for (int j = k + 1; j < n; j++) {
        A[i * n + j] -= l * A[k * n + j];
      }
    }
  }
  return 0;
}

/** Solves A x = b in place (b becomes x) with the factor of
 *  teal_small_lu_factor. */
static inline void teal_small_lu_solve(const double *LU, int n, const int *piv, double *b) {
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

#ifdef __cplusplus
}
#endif
#endif
