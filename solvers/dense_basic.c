/* Basic dense operations: checked CBLAS dgemm, finiteness, Frobenius norm
 * and symmetry tests. */
#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "solvers/dense_basic.h"
#include "solvers/dense_internal.h"

/* 1 when the byte ranges [p, p + a) and [q, q + b) overlap. */
static int overlaps(const void *p, size_t a, const void *q, size_t b) {
  uintptr_t x = (uintptr_t)p, y = (uintptr_t)q;
  return a > 0 && b > 0 && x < y + b && y < x + a;
}

int teal_dense_gemm(int trans_a, int trans_b, int m, int n, int k, double alpha, const double *A,
                    const double *B, double beta, double *C, teal_error *err) {
  static const char fn[] = "gemm";
  int rc;
  if ((rc = teal_dense_check_dim(fn, "m", m, err)) ||
      (rc = teal_dense_check_dim(fn, "n", n, err)) ||
      (rc = teal_dense_check_dim(fn, "k", k, err))) {
    return rc;
  }
  size_t mk = (size_t)m * (size_t)k, kn = (size_t)k * (size_t)n, mn = (size_t)m * (size_t)n;
  if ((mk > 0 && !A) || (kn > 0 && !B) || (mn > 0 && !C)) {
    return teal_error_set(err, TEAL_EINVAL, "gemm: NULL %s (m = %d, n = %d, k = %d)",
                          (mk > 0 && !A) ? "A" : ((kn > 0 && !B) ? "B" : "C"), m, n, k);
  }
  if (mn > 0 && (overlaps(C, mn * sizeof(double), A, mk * sizeof(double)) ||
                 overlaps(C, mn * sizeof(double), B, kn * sizeof(double)))) {
    return teal_error_set(err, TEAL_EINVAL, "gemm: C overlaps %s",
                          overlaps(C, mn * sizeof(double), A, mk * sizeof(double)) ? "A" : "B");
  }
  if (!isfinite(alpha) || !isfinite(beta)) {
    return teal_error_set(err, TEAL_ENONFINITE, "gemm: %s = %g is not finite",
                          isfinite(alpha) ? "beta" : "alpha", isfinite(alpha) ? beta : alpha);
  }
  if ((rc = teal_dense_check_finite(fn, trans_a ? "A (k x m)" : "A (m x k)", A, trans_a ? k : m,
                                    trans_a ? m : k, err)) ||
      (rc = teal_dense_check_finite(fn, trans_b ? "B (n x k)" : "B (k x n)", B, trans_b ? n : k,
                                    trans_b ? k : n, err))) {
    return rc;
  }
  if (beta != 0.0 && (rc = teal_dense_check_finite(fn, "C", C, m, n, err))) {
    return rc;
  }
  if (mn == 0) {
    return TEAL_OK;
  }
  if (k == 0 || alpha == 0.0) {
    for (size_t i = 0; i < mn; i++) {
      C[i] = beta == 0.0 ? 0.0 : beta * C[i];
    }
  } else {
    int lda = trans_a ? m : k, ldb = trans_b ? k : n;
    cblas_dgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans,
                trans_b ? CblasTrans : CblasNoTrans, m, n, k, alpha, A, lda, B, ldb, beta, C, n);
  }
  for (size_t i = 0; i < mn; i++) {
    if (!isfinite(C[i])) {
      return teal_error_set(err, TEAL_ENONFINITE, "gemm: result entry (%zu, %zu) overflowed",
                            i / (size_t)n, i % (size_t)n);
    }
  }
  return TEAL_OK;
}

int teal_dense_all_finite(const double *A, int m, int n) {
  if (m < 0 || n < 0) {
    return 0;
  }
  size_t count = (size_t)m * (size_t)n;
  if (count > 0 && !A) {
    return 0;
  }
  for (size_t i = 0; i < count; i++) {
    if (!isfinite(A[i])) {
      return 0;
    }
  }
  return 1;
}

double teal_dense_norm_fro(const double *A, int m, int n) {
  if (m < 0 || n < 0) {
    return NAN;
  }
  size_t count = (size_t)m * (size_t)n;
  if (count > 0 && !A) {
    return NAN;
  }
  double amax = 0.0;
  for (size_t i = 0; i < count; i++) {
    if (isnan(A[i])) {
      return NAN;
    }
    double a = fabs(A[i]);
    if (a > amax) {
      amax = a;
    }
  }
  if (amax == 0.0 || isinf(amax)) {
    return amax;
  }
  /* scaled by the largest entry: no overflow or harmful underflow */
  double s = 0.0;
  for (size_t i = 0; i < count; i++) {
    double r = A[i] / amax;
    s += r * r;
  }
  return amax * sqrt(s);
}

int teal_dense_is_symmetric(const double *A, int n, double tol) {
  if (n < 0 || (n > 0 && !A) || !(tol >= 0.0)) {
    return 0;
  }
  if (!teal_dense_all_finite(A, n, n)) {
    return 0;
  }
  double scale = teal_dense_max_abs(A, (size_t)n * (size_t)n);
  if (scale < 1.0) {
    scale = 1.0;
  }
  return teal_dense_max_asym(A, n) <= tol * scale;
}
