/* Eigenvalues: symmetric eigen-decomposition (LAPACK dsyev on the
 * symmetric part) and eigenvalues of a general matrix (dgeev on A', which
 * has the same spectrum, so no transposition is needed). */
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense_eigen.h"
#include "solvers/dense_internal.h"

int teal_dense_sym_eigen(const double *A, int n, double *w, double *V, teal_error *err) {
  static const char fn[] = "sym_eigen";
  int rc = teal_dense_check_dim(fn, "n", n, err);
  if (rc) {
    return rc;
  }
  if (n > 0 && (!A || !w)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s (n = %d)", fn, !A ? "A" : "w", n);
  }
  if ((rc = teal_dense_check_finite(fn, "A", A, n, n, err))) {
    return rc;
  }
  if (n == 0) {
    return TEAL_OK;
  }
  if ((rc = teal_dense_check_symmetric(fn, "A", A, n, TEAL_EINVAL, err))) {
    return rc;
  }
  size_t nn = (size_t)n * (size_t)n;
  double *S = teal_dense_alloc(fn, nn, err);
  if (!S) {
    return TEAL_ENOMEM;
  }
  teal_dense_symmetrize(A, n, S);
  char jobz = V ? 'V' : 'N';
  double query = 0.0;
  int info = LAPACKE_dsyev_work(LAPACK_COL_MAJOR, jobz, 'L', n, S, n, w, &query, -1);
  if (info != 0) {
    teal_free(S);
    return teal_dense_lapack_arg(fn, "dsyev", info, err);
  }
  int lwork = teal_dense_lwork(query, 3 * n);
  double *work = teal_dense_alloc(fn, (size_t)lwork, err);
  if (!work) {
    teal_free(S);
    return TEAL_ENOMEM;
  }
  info = LAPACKE_dsyev_work(LAPACK_COL_MAJOR, jobz, 'L', n, S, n, w, work, lwork);
  teal_free(work);
  if (info < 0) {
    rc = teal_dense_lapack_arg(fn, "dsyev", info, err);
  } else if (info > 0) {
    rc = teal_error_set(err, TEAL_ENOCONV,
                        "%s: the symmetric QR algorithm (LAPACK dsyev) did not converge (%d "
                        "off-diagonals)",
                        fn, info);
  } else if (V) {
    teal_dense_transpose(S, n, n, V); /* column j of V = eigenvector j */
  }
  teal_free(S);
  return rc;
}

int teal_dense_eigenvalues_rm(const char *fn, const double *A, int n, double *wr, double *wi,
                              teal_error *err) {
  if (n == 0) {
    return TEAL_OK;
  }
  size_t nn = (size_t)n * (size_t)n;
  double *M = teal_dense_alloc(fn, nn, err);
  if (!M) {
    return TEAL_ENOMEM;
  }
  memcpy(M, A, sizeof(double) * nn); /* A' column-major: the same spectrum */
  double query = 0.0, dummy = 0.0;
  int info = LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'N', 'N', n, M, n, wr, wi, &dummy, 1, &dummy, 1,
                                &query, -1);
  if (info != 0) {
    teal_free(M);
    return teal_dense_lapack_arg(fn, "dgeev", info, err);
  }
  int lwork = teal_dense_lwork(query, 3 * n);
  double *work = teal_dense_alloc(fn, (size_t)lwork, err);
  if (!work) {
    teal_free(M);
    return TEAL_ENOMEM;
  }
  info = LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'N', 'N', n, M, n, wr, wi, &dummy, 1, &dummy, 1, work,
                            lwork);
  teal_free(work);
  teal_free(M);
  if (info < 0) {
    return teal_dense_lapack_arg(fn, "dgeev", info, err);
  }
  if (info > 0) {
    return teal_error_set(err, TEAL_ENOCONV,
                          "%s: the QR algorithm (LAPACK dgeev) failed to converge (info %d)", fn,
                          info);
  }
  return TEAL_OK;
}

int teal_dense_eigenvalues(const double *A, int n, double *wr, double *wi, teal_error *err) {
  static const char fn[] = "eigenvalues";
  int rc = teal_dense_check_dim(fn, "n", n, err);
  if (rc) {
    return rc;
  }
  if (n > 0 && (!A || !wr || !wi)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s (n = %d)", fn,
                          !A ? "A" : (!wr ? "wr" : "wi"), n);
  }
  if ((rc = teal_dense_check_finite(fn, "A", A, n, n, err))) {
    return rc;
  }
  return teal_dense_eigenvalues_rm(fn, A, n, wr, wi, err);
}
