/* Singular value decomposition (LAPACK dgesvd), numerical rank and the
 * Moore-Penrose pseudo-inverse.
 *
 * The memory of a row-major m x n matrix A is A' in column-major order;
 * dgesvd of A' = V S U' hands back V (column-major), which is Vt in
 * row-major order, and U' (column-major), which is U in row-major order. */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense_svd.h"
#include "solvers/dense_internal.h"

static int check_mn(const char *fn, int m, int n, const double *A, teal_error *err) {
  int rc;
  if ((rc = teal_dense_check_dim(fn, "m", m, err)) ||
      (rc = teal_dense_check_dim(fn, "n", n, err))) {
    return rc;
  }
  if ((size_t)m * (size_t)n > 0 && !A) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL A (m = %d, n = %d)", fn, m, n);
  }
  return TEAL_OK;
}

int teal_dense_svd(const double *A, int m, int n, double *U, double *s, double *Vt,
                   teal_error *err) {
  static const char fn[] = "svd";
  int rc = check_mn(fn, m, n, A, err);
  if (rc) {
    return rc;
  }
  int k = m < n ? m : n;
  if (k > 0 && !s) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL s (m = %d, n = %d)", fn, m, n);
  }
  if ((rc = teal_dense_check_finite(fn, "A", A, m, n, err))) {
    return rc;
  }
  if (k == 0) {
    if (U) {
      teal_dense_identity(U, m);
    }
    if (Vt) {
      teal_dense_identity(Vt, n);
    }
    return TEAL_OK;
  }
  double *M = teal_dense_alloc(fn, (size_t)m * (size_t)n, err);
  if (!M) {
    return TEAL_ENOMEM;
  }
  memcpy(M, A, sizeof(double) * (size_t)m * (size_t)n);
  rc = teal_dense_gesvd_cm(fn, Vt ? 'A' : 'N', U ? 'A' : 'N', n, m, M, s, Vt, n, U, m, err);
  teal_free(M);
  return rc;
}

/* How many of the k descending singular values s exceed the rank
 * threshold of an m x n matrix (tol < 0: the default threshold). */
static int count_above(const double *s, int k, double tol, int m, int n) {
  double thr = tol < 0.0 ? teal_dense_default_tol(m, n, s[0]) : tol;
  int r = 0;
  while (r < k && s[r] > thr) {
    r++;
  }
  return r;
}

int teal_dense_rank(const double *A, int m, int n, double tol, int *rank, teal_error *err) {
  static const char fn[] = "rank";
  int rc = check_mn(fn, m, n, A, err);
  if (rc) {
    return rc;
  }
  if (!rank) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL rank", fn);
  }
  if ((rc = teal_dense_check_tol(fn, tol, err)) ||
      (rc = teal_dense_check_finite(fn, "A", A, m, n, err))) {
    return rc;
  }
  int k = m < n ? m : n;
  if (k == 0) {
    *rank = 0;
    return TEAL_OK;
  }
  size_t mn = (size_t)m * (size_t)n;
  double *M = teal_dense_alloc(fn, mn + (size_t)k, err);
  if (!M) {
    return TEAL_ENOMEM;
  }
  double *s = M + mn;
  memcpy(M, A, sizeof(double) * mn);
  rc = teal_dense_singular_values_cm(fn, M, n, m, s, err);
  if (!rc) {
    *rank = count_above(s, k, tol, m, n);
  }
  teal_free(M);
  return rc;
}

int teal_dense_pinv(const double *A, int m, int n, double tol, double *Ainv, int *rank,
                    teal_error *err) {
  static const char fn[] = "pinv";
  int rc = check_mn(fn, m, n, A, err);
  if (rc) {
    return rc;
  }
  size_t mn = (size_t)m * (size_t)n;
  if (mn > 0 && !Ainv) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL Ainv (m = %d, n = %d)", fn, m, n);
  }
  if ((rc = teal_dense_check_tol(fn, tol, err)) ||
      (rc = teal_dense_check_finite(fn, "A", A, m, n, err))) {
    return rc;
  }
  int k = m < n ? m : n;
  if (k == 0) {
    if (rank) {
      *rank = 0;
    }
    return TEAL_OK;
  }
  /* M = A' (n x m column-major) = U2 S VT2 with U2 n x k, VT2 k x m, so
   * A = VT2' S U2' and pinv(A)' = VT2' S^+ U2' (m x n column-major), whose
   * memory is pinv(A) in row-major order. */
  double *M = teal_dense_alloc(fn, mn + (size_t)n * k + (size_t)k * m + (size_t)k, err);
  if (!M) {
    return TEAL_ENOMEM;
  }
  double *U2 = M + mn, *VT2 = U2 + (size_t)n * k, *s = VT2 + (size_t)k * m;
  memcpy(M, A, sizeof(double) * mn);
  rc = teal_dense_gesvd_cm(fn, 'S', 'S', n, m, M, s, U2, n, VT2, k, err);
  if (!rc) {
    int r = count_above(s, k, tol, m, n);
    for (int l = 0; l < r; l++) {
      for (int j = 0; j < m; j++) {
        VT2[(size_t)j * k + l] /= s[l];
      }
    }
    if (r == 0) {
      memset(Ainv, 0, sizeof(double) * mn);
    } else {
      cblas_dgemm(CblasColMajor, CblasTrans, CblasTrans, m, n, r, 1.0, VT2, k, U2, n, 0.0, Ainv, m);
    }
    if (rank) {
      *rank = r;
    }
  }
  teal_free(M);
  return rc;
}
