/* Internal helpers for the dense linear-algebra sources: argument and
 * finiteness, tolerance and symmetry checks with messages, workspace
 * allocation through teal_calloc, transposition between row- and
 * column-major storage, unordered Schur form and the SVD (column-major
 * LAPACK calls with workspace from teal_alloc). */
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense_internal.h"

_Static_assert(sizeof(lapack_int) == sizeof(int), "Teal expects 32-bit LAPACK integers");
_Static_assert(sizeof(lapack_logical) == sizeof(int), "Teal expects 32-bit LAPACK logicals");

int teal_dense_check_dim(const char *fn, const char *name, int value, teal_error *err) {
  if (value < 0) {
    return teal_error_set(err, TEAL_EINVAL, "%s: %s = %d is negative", fn, name, value);
  }
  return TEAL_OK;
}

int teal_dense_check_finite(const char *fn, const char *what, const double *A, int rows, int cols,
                            teal_error *err) {
  size_t count = (size_t)rows * (size_t)cols;
  for (size_t i = 0; i < count; i++) {
    if (!isfinite(A[i])) {
      return teal_error_set(err, TEAL_ENONFINITE, "%s: %s entry (%zu, %zu) is not finite", fn, what,
                            i / (size_t)cols, i % (size_t)cols);
    }
  }
  return TEAL_OK;
}

double *teal_dense_alloc(const char *fn, size_t count, teal_error *err) {
  double *p = teal_calloc(count > 0 ? count : 1, sizeof(double));
  if (!p) {
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory (%zu doubles of workspace)", fn, count);
  }
  return p;
}

int *teal_dense_alloc_int(const char *fn, size_t count, teal_error *err) {
  int *p = teal_calloc(count > 0 ? count : 1, sizeof(int));
  if (!p) {
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory (%zu integers of workspace)", fn, count);
  }
  return p;
}

int teal_dense_alloc_pair(const char *fn, size_t count, size_t icount, double **d, int **i,
                          teal_error *err) {
  *d = teal_dense_alloc(fn, count, err);
  *i = *d ? teal_dense_alloc_int(fn, icount, err) : NULL;
  if (!*i) {
    teal_free(*d);
    *d = NULL;
    return TEAL_ENOMEM;
  }
  return TEAL_OK;
}

int teal_dense_check_tol(const char *fn, double tol, teal_error *err) {
  if (isnan(tol) || isinf(tol)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: tol = %g is not a number", fn, tol);
  }
  return TEAL_OK;
}

int teal_dense_check_symmetric(const char *fn, const char *name, const double *A, int n, int code,
                               teal_error *err) {
  double asym = teal_dense_max_asym(A, n), scale = teal_dense_max_abs(A, (size_t)n * (size_t)n);
  if (asym > TEAL_DENSE_SYM_RTOL * scale) {
    return teal_error_set(err, code, "%s: %s is not symmetric (max |%s - %s'| = %g, max |%s| = %g)",
                          fn, name, name, name, asym, name, scale);
  }
  return TEAL_OK;
}

int teal_dense_lapack_arg(const char *fn, const char *routine, int info, teal_error *err) {
  return teal_error_set(err, TEAL_EINVAL, "%s: LAPACK %s rejected argument %d (info %d)", fn,
                        routine, -info, info);
}

int teal_dense_lwork(double query, int minimum) {
  double q = ceil(query);
  if (!(q >= (double)minimum)) {
    return minimum;
  }
  if (q > (double)(1 << 30)) {
    return 1 << 30;
  }
  return (int)q;
}

void teal_dense_transpose(const double *src, int rows, int cols, double *dst) {
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j < cols; j++) {
      dst[(size_t)j * (size_t)rows + (size_t)i] = src[(size_t)i * (size_t)cols + (size_t)j];
    }
  }
}

void teal_dense_identity(double *A, int n) {
  if (n <= 0) {
    return;
  }
  memset(A, 0, sizeof(double) * (size_t)n * (size_t)n);
  for (int i = 0; i < n; i++) {
    A[(size_t)i * (size_t)n + (size_t)i] = 1.0;
  }
}

double teal_dense_max_abs(const double *A, size_t count) {
  double m = 0.0;
  for (size_t i = 0; i < count; i++) {
    double a = fabs(A[i]);
    if (a > m) {
      m = a;
    }
  }
  return m;
}

double teal_dense_max_asym(const double *A, int n) {
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      double d = fabs(A[(size_t)i * (size_t)n + (size_t)j] - A[(size_t)j * (size_t)n + (size_t)i]);
      if (d > m) {
        m = d;
      }
    }
  }
  return m;
}

void teal_dense_symmetrize(const double *A, int n, double *S) {
  for (int i = 0; i < n; i++) {
    S[(size_t)i * (size_t)n + (size_t)i] = A[(size_t)i * (size_t)n + (size_t)i];
    for (int j = 0; j < i; j++) {
      double v =
          0.5 * (A[(size_t)i * (size_t)n + (size_t)j] + A[(size_t)j * (size_t)n + (size_t)i]);
      S[(size_t)i * (size_t)n + (size_t)j] = v;
      S[(size_t)j * (size_t)n + (size_t)i] = v;
    }
  }
}

int teal_dense_schur_cm(const char *fn, double *T, int n, double *Z, double *wr, double *wi,
                        teal_error *err) {
  if (n == 0) {
    return TEAL_OK;
  }
  double *wrb = teal_dense_alloc(fn, 2 * (size_t)n, err);
  if (!wrb) {
    return TEAL_ENOMEM;
  }
  double *wib = wrb + n;
  int sdim = 0;
  double query = 0.0;
  int info = LAPACKE_dgees_work(LAPACK_COL_MAJOR, 'V', 'N', NULL, n, T, n, &sdim, wrb, wib, Z, n,
                                &query, -1, NULL);
  if (info != 0) {
    teal_free(wrb);
    return teal_dense_lapack_arg(fn, "dgees", info, err);
  }
  int lwork = teal_dense_lwork(query, 3 * n);
  double *work = teal_dense_alloc(fn, (size_t)lwork, err);
  if (!work) {
    teal_free(wrb);
    return TEAL_ENOMEM;
  }
  info = LAPACKE_dgees_work(LAPACK_COL_MAJOR, 'V', 'N', NULL, n, T, n, &sdim, wrb, wib, Z, n, work,
                            lwork, NULL);
  teal_free(work);
  int rc = TEAL_OK;
  if (info < 0) {
    rc = teal_dense_lapack_arg(fn, "dgees", info, err);
  } else if (info > 0) {
    rc = teal_error_set(err, TEAL_ENOCONV,
                        "%s: the QR algorithm (LAPACK dgees) failed to converge (info %d)", fn,
                        info);
  } else {
    if (wr) {
      memcpy(wr, wrb, sizeof(double) * (size_t)n);
    }
    if (wi) {
      memcpy(wi, wib, sizeof(double) * (size_t)n);
    }
  }
  teal_free(wrb);
  return rc;
}

int teal_dense_gesvd_cm(const char *fn, char jobu, char jobvt, int rows, int cols, double *M,
                        double *s, double *U, int ldu, double *VT, int ldvt, teal_error *err) {
  double query = 0.0, dummy = 0.0;
  if (!U) {
    U = &dummy;
  }
  if (!VT) {
    VT = &dummy;
  }
  int info = LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, jobu, jobvt, rows, cols, M, rows, s, U, ldu, VT,
                                 ldvt, &query, -1);
  if (info != 0) {
    return teal_dense_lapack_arg(fn, "dgesvd", info, err);
  }
  int k = rows < cols ? rows : cols, mx = rows > cols ? rows : cols;
  int lwork = teal_dense_lwork(query, 3 * k + mx > 5 * k ? 3 * k + mx : 5 * k);
  double *work = teal_dense_alloc(fn, (size_t)lwork, err);
  if (!work) {
    return TEAL_ENOMEM;
  }
  info = LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, jobu, jobvt, rows, cols, M, rows, s, U, ldu, VT,
                             ldvt, work, lwork);
  teal_free(work);
  if (info < 0) {
    return teal_dense_lapack_arg(fn, "dgesvd", info, err);
  }
  if (info > 0) {
    return teal_error_set(err, TEAL_ENOCONV,
                          "%s: the SVD (LAPACK dgesvd) did not converge (%d superdiagonals)", fn,
                          info);
  }
  return TEAL_OK;
}

int teal_dense_singular_values_cm(const char *fn, double *A, int m, int n, double *s,
                                  teal_error *err) {
  if ((m < n ? m : n) == 0) {
    return TEAL_OK;
  }
  return teal_dense_gesvd_cm(fn, 'N', 'N', m, n, A, s, NULL, 1, NULL, 1, err);
}

double teal_dense_default_tol(int m, int n, double smax) {
  return (double)(m > n ? m : n) * DBL_EPSILON * smax;
}
