/* Factorizations and linear solves: Cholesky (LAPACK dpotrf, CBLAS dtrsm),
 * general solve (dgetrf/dgetrs with a dgecon condition check) and thin QR.
 *
 * Row-major storage is handled without LAPACKE's transposition: the
 * memory of a row-major matrix is its transpose in column-major order, so
 * a Cholesky factor of the (symmetric) matrix in 'U' column-major form is
 * the row-major lower factor, the solve uses the transposed LU, and the
 * thin QR of A comes from the LQ factorization of A' (dgelqf/dorglq). */
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense_factor.h"
#include "solvers/dense_internal.h"

/* Cholesky of the symmetric S (n x n, row-major lower = column-major
 * upper) in place by LAPACK: TEAL_OK, or the argument error or
 * TEAL_ESINGULAR "<fn>: <name> is not positive definite (leading minor i
 * of n)". */
static int cholesky_upper(const char *fn, const char *name, double *S, int n, teal_error *err) {
  int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', n, S, n);
  if (info < 0) {
    return teal_dense_lapack_arg(fn, "dpotrf", info, err);
  }
  if (info > 0) {
    return teal_error_set(err, TEAL_ESINGULAR,
                          "%s: %s is not positive definite (leading minor %d of %d)", fn, name,
                          info, n);
  }
  return TEAL_OK;
}

int teal_dense_cholesky_factor(double *A, int n, teal_error *err) {
  static const char fn[] = "cholesky_factor";
  int rc = teal_dense_check_dim(fn, "n", n, err);
  if (rc) {
    return rc;
  }
  if (n > 0 && !A) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL A (n = %d)", fn, n);
  }
  if ((rc = teal_dense_check_finite(fn, "A", A, n, n, err))) {
    return rc;
  }
  if (n == 0) {
    return TEAL_OK;
  }
  if ((rc = teal_dense_check_symmetric(fn, "A", A, n, TEAL_ESINGULAR, err))) {
    return rc;
  }
  size_t nn = (size_t)n * (size_t)n;
  double *W = teal_dense_alloc(fn, nn, err);
  if (!W) {
    return TEAL_ENOMEM;
  }
  teal_dense_symmetrize(A, n, W);
  if ((rc = cholesky_upper(fn, "A", W, n, err)) != TEAL_OK) {
    teal_free(W);
    return rc;
  }
  /* the column-major upper factor U is the row-major lower factor L = U' */
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      size_t at = (size_t)i * (size_t)n + (size_t)j;
      A[at] = j <= i ? W[at] : 0.0;
    }
  }
  teal_free(W);
  return TEAL_OK;
}

/* Sizes and pointers of a solve with the n x n matrix M (named name) and
 * the n x nrhs right-hand sides B. */
static int check_system(const char *fn, const double *M, const char *name, int n, const double *B,
                        int nrhs, teal_error *err) {
  int rc;
  if ((rc = teal_dense_check_dim(fn, "n", n, err)) ||
      (rc = teal_dense_check_dim(fn, "nrhs", nrhs, err))) {
    return rc;
  }
  if ((n > 0 && !M) || ((size_t)n * (size_t)nrhs > 0 && !B)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s (n = %d, nrhs = %d)", fn,
                          (n > 0 && !M) ? name : "B", n, nrhs);
  }
  return TEAL_OK;
}

int teal_dense_cholesky_solve(const double *L, int n, double *B, int nrhs, teal_error *err) {
  static const char fn[] = "cholesky_solve";
  int rc = check_system(fn, L, "L", n, B, nrhs, err);
  if (rc) {
    return rc;
  }
  size_t nb = (size_t)n * (size_t)nrhs;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++) {
      if (!isfinite(L[(size_t)i * (size_t)n + (size_t)j])) {
        return teal_error_set(err, TEAL_ENONFINITE, "%s: L entry (%d, %d) is not finite", fn, i, j);
      }
    }
    if (L[(size_t)i * (size_t)n + (size_t)i] == 0.0) {
      return teal_error_set(err, TEAL_ESINGULAR, "%s: L(%d, %d) = 0, not a Cholesky factor", fn, i,
                            i);
    }
  }
  if ((rc = teal_dense_check_finite(fn, "B", B, n, nrhs, err))) {
    return rc;
  }
  if (nb == 0) {
    return TEAL_OK;
  }
  double *X = teal_dense_alloc(fn, nb, err);
  if (!X) {
    return TEAL_ENOMEM;
  }
  memcpy(X, B, sizeof(double) * nb);
  cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, n, nrhs, 1.0, L, n,
              X, nrhs);
  cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasTrans, CblasNonUnit, n, nrhs, 1.0, L, n, X,
              nrhs);
  rc = teal_dense_check_finite(fn, "solution", X, n, nrhs, err);
  if (!rc) {
    memcpy(B, X, sizeof(double) * nb);
  }
  teal_free(X);
  return rc;
}

int teal_dense_solve(const double *A, int n, double *B, int nrhs, teal_error *err) {
  static const char fn[] = "solve";
  int rc = check_system(fn, A, "A", n, B, nrhs, err);
  if (rc) {
    return rc;
  }
  size_t nn = (size_t)n * (size_t)n, nb = (size_t)n * (size_t)nrhs;
  if ((rc = teal_dense_check_finite(fn, "A", A, n, n, err)) ||
      (rc = teal_dense_check_finite(fn, "B", B, n, nrhs, err))) {
    return rc;
  }
  if (n == 0) {
    return TEAL_OK;
  }
  /* LU (col-major) holds A' = P L U; work: 4n for dgecon, Xc the
   * column-major right-hand sides */
  double *LU;
  int *ipiv;
  if ((rc = teal_dense_alloc_pair(fn, nn + 4 * (size_t)n + nb, 2 * (size_t)n, &LU, &ipiv, err))) {
    return rc;
  }
  double *work = LU + nn, *Xc = work + 4 * (size_t)n;
  int *iwork = ipiv + n;
  memcpy(LU, A, sizeof(double) * nn);
  double anorm = 0.0; /* ||A'||_1 = max row sum of A */
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++) {
      s += fabs(A[(size_t)i * (size_t)n + (size_t)j]);
    }
    anorm = s > anorm ? s : anorm;
  }
  int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, LU, n, ipiv);
  if (info < 0) {
    rc = teal_dense_lapack_arg(fn, "dgetrf", info, err);
    goto done;
  }
  if (info > 0) {
    rc =
        teal_error_set(err, TEAL_ESINGULAR, "%s: A is singular (zero pivot %d of %d)", fn, info, n);
    goto done;
  }
  double rcond = 0.0;
  info = LAPACKE_dgecon_work(LAPACK_COL_MAJOR, '1', n, LU, n, anorm, &rcond, work, iwork);
  if (info < 0) {
    rc = teal_dense_lapack_arg(fn, "dgecon", info, err);
    goto done;
  }
  if (!(rcond >= DBL_EPSILON)) {
    rc = teal_error_set(err, TEAL_ESINGULAR,
                        "%s: A is numerically singular (reciprocal condition %g)", fn, rcond);
    goto done;
  }
  if (nb > 0) {
    teal_dense_transpose(B, n, nrhs, Xc);
    info = LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'T', n, nrhs, LU, n, ipiv, Xc, n);
    if (info < 0) {
      rc = teal_dense_lapack_arg(fn, "dgetrs", info, err);
      goto done;
    }
    for (int j = 0; j < nrhs && !rc; j++) {
      for (int i = 0; i < n; i++) {
        if (!isfinite(Xc[(size_t)j * (size_t)n + (size_t)i])) {
          rc = teal_error_set(err, TEAL_ENONFINITE, "%s: solution entry (%d, %d) overflowed", fn, i,
                              j);
          break;
        }
      }
    }
    if (!rc) {
      teal_dense_transpose(Xc, nrhs, n, B);
    }
  }
done:
  teal_free(ipiv);
  teal_free(LU);
  return rc;
}

int teal_dense_qr(const double *A, int m, int n, double *Q, double *R, teal_error *err) {
  static const char fn[] = "qr";
  int rc;
  if ((rc = teal_dense_check_dim(fn, "m", m, err)) ||
      (rc = teal_dense_check_dim(fn, "n", n, err))) {
    return rc;
  }
  if (m < n) {
    return teal_error_set(err, TEAL_ESIZE, "%s: needs m >= n (m = %d, n = %d)", fn, m, n);
  }
  size_t mn = (size_t)m * (size_t)n;
  if (mn > 0 && (!A || !Q || !R)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s (m = %d, n = %d)", fn,
                          !A ? "A" : (!Q ? "Q" : "R"), m, n);
  }
  if ((rc = teal_dense_check_finite(fn, "A", A, m, n, err))) {
    return rc;
  }
  if (n == 0) {
    return TEAL_OK;
  }
  /* Q's memory holds A' (n x m column-major); A' = L Q2 gives A = Q2' L' */
  memcpy(Q, A, sizeof(double) * mn);
  double *tau = teal_dense_alloc(fn, (size_t)n, err);
  if (!tau) {
    return TEAL_ENOMEM;
  }
  double q1 = 0.0, q2 = 0.0;
  int info = LAPACKE_dgelqf_work(LAPACK_COL_MAJOR, n, m, Q, n, tau, &q1, -1);
  if (info == 0) {
    info = LAPACKE_dorglq_work(LAPACK_COL_MAJOR, n, m, n, Q, n, tau, &q2, -1);
  }
  if (info != 0) {
    teal_free(tau);
    return teal_dense_lapack_arg(fn, "dgelqf/dorglq", info, err);
  }
  int lwork = teal_dense_lwork(q1 > q2 ? q1 : q2, n);
  double *work = teal_dense_alloc(fn, (size_t)lwork, err);
  if (!work) {
    teal_free(tau);
    return TEAL_ENOMEM;
  }
  info = LAPACKE_dgelqf_work(LAPACK_COL_MAJOR, n, m, Q, n, tau, work, lwork);
  if (info == 0) {
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        size_t at = (size_t)i * (size_t)n + (size_t)j;
        R[at] = j >= i ? Q[at] : 0.0;
      }
    }
    info = LAPACKE_dorglq_work(LAPACK_COL_MAJOR, n, m, n, Q, n, tau, work, lwork);
  }
  teal_free(work);
  teal_free(tau);
  if (info != 0) {
    return teal_dense_lapack_arg(fn, "dgelqf/dorglq", info, err);
  }
  return TEAL_OK;
}

int teal_dense_spd_solve_transposed(double *S, int n, double *Bt, int nrhs, teal_error *err) {
  static const char fn[] = "teal_dense_spd_solve_transposed";
  if (n < 0 || nrhs < 0 || (n > 0 && (!S || (nrhs > 0 && !Bt)))) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL matrix or negative size (n = %d, nrhs = %d)",
                          fn, n, nrhs);
  }
  if (n == 0) {
    return TEAL_OK;
  }
  /* row-major lower = column-major upper; Bt row-major is B column-major */
  int info = cholesky_upper(fn, "S", S, n, err);
  if (info != TEAL_OK) {
    return info;
  }
  info = nrhs > 0 ? LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'U', n, nrhs, S, n, Bt, n) : 0;
  return info < 0 ? teal_dense_lapack_arg(fn, "dpotrs", info, err) : TEAL_OK;
}

int teal_dense_spd_inverse(double *S, int n, teal_error *err) {
  static const char fn[] = "teal_dense_spd_inverse";
  if (n < 0 || (n > 0 && !S)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL matrix or negative size (n = %d)", fn, n);
  }
  if (n == 0) {
    return TEAL_OK;
  }
  /* row-major lower = column-major upper */
  int info = cholesky_upper(fn, "S", S, n, err);
  if (info != TEAL_OK) {
    return info;
  }
  info = LAPACKE_dpotri_work(LAPACK_COL_MAJOR, 'U', n, S, n);
  if (info != 0) {
    return info < 0 ? teal_dense_lapack_arg(fn, "dpotri", info, err)
                    : teal_error_set(err, TEAL_ESINGULAR, "%s: S is singular (pivot %d)", fn, info);
  }
  for (int i = 0; i < n; i++) { /* the lower triangle (row-major) to the upper */
    for (int j = i + 1; j < n; j++) {
      S[(size_t)i * n + j] = S[(size_t)j * n + i];
    }
  }
  return TEAL_OK;
}
