/* Control structure: controllability / observability matrices, their rank
 * tests, and PBH stabilizability / detectability tests.
 *
 * PBH: for every eigenvalue lambda of A outside the stable region (one of
 * each conjugate pair) the smallest singular value of [A - lambda I, B]
 * must exceed the rank threshold (tol >= 0: tol itself; tol < 0:
 * max(n, n + m) eps sigma_max, as for teal_rank). A complex lambda is
 * tested on the real 2n x 2(n + m) matrix [[Mr, -Mi], [Mi, Mr]] of
 * M = Mr + i Mi, which has each singular value of M twice. Eigenvalues
 * within sqrt(eps) max(1, ||A||_F) of the region boundary are tested too
 * (computed eigenvalues of defective matrices move by about that much),
 * so the test errs on the safe side. The margin is the smallest of those
 * singular values divided by max(1, ||[A B]||_F) (+Inf when no eigenvalue
 * needed testing). Detectability is stabilizability of (A', C'). */
#include <cblas.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense.h"
#include "solvers/dense_internal.h"

#define BOUNDARY_RTOL 1.4901161193847656e-08 /* sqrt(DBL_EPSILON) */

static int check_pair(const char *fn, const double *A, const double *B, const char *bname, int n,
                      int m, const char *mname, teal_error *err) {
  int rc;
  if ((rc = teal_dense_check_dim(fn, "n", n, err)) ||
      (rc = teal_dense_check_dim(fn, mname, m, err))) {
    return rc;
  }
  if ((long long)n * (long long)m > INT_MAX || (long long)n * (long long)(n + m) > INT_MAX / 4) {
    return teal_error_set(err, TEAL_ESIZE, "%s: sizes too large (n = %d, %s = %d)", fn, n, mname,
                          m);
  }
  if ((n > 0 && !A) || ((size_t)n * (size_t)m > 0 && !B)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s (n = %d, %s = %d)", fn,
                          (n > 0 && !A) ? "A" : bname, n, mname, m);
  }
  return TEAL_OK;
}

/* [B, AB, ..., A^(n-1) B] into Cm (n x nm row-major); inputs checked. */
static void krylov(const double *A, const double *B, int n, int m, double *Cm) {
  int ld = n * m;
  for (int i = 0; i < n; i++) {
    memcpy(Cm + (size_t)i * ld, B + (size_t)i * m, sizeof(double) * (size_t)m);
  }
  for (int k = 1; k < n; k++) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, m, n, 1.0, A, n,
                Cm + (size_t)(k - 1) * m, ld, 0.0, Cm + (size_t)k * m, ld);
  }
}

/* [C; CA; ...; C A^(n-1)] into Om (np x n row-major); inputs checked. */
static void krylov_rows(const double *A, const double *C, int n, int p, double *Om) {
  memcpy(Om, C, sizeof(double) * (size_t)p * (size_t)n);
  for (int k = 1; k < n; k++) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, p, n, n, 1.0,
                Om + (size_t)(k - 1) * p * n, n, A, n, 0.0, Om + (size_t)k * p * n, n);
  }
}

static int overflow_check(const char *fn, const double *M, int rows, int cols, teal_error *err) {
  if (!teal_all_finite(M, rows, cols)) {
    return teal_error_set(err, TEAL_ENONFINITE, "%s: the powers of A overflow", fn);
  }
  return TEAL_OK;
}

int teal_controllability_matrix(const double *A, const double *B, int n, int m, double *Cm,
                                teal_error *err) {
  static const char fn[] = "controllability_matrix";
  int rc = check_pair(fn, A, B, "B", n, m, "m", err);
  if (rc) {
    return rc;
  }
  if ((size_t)n * (size_t)m > 0 && !Cm) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL Cm (n = %d, m = %d)", fn, n, m);
  }
  if ((rc = teal_dense_check_finite(fn, "A", A, n, n, err)) ||
      (rc = teal_dense_check_finite(fn, "B", B, n, m, err))) {
    return rc;
  }
  if ((size_t)n * (size_t)m == 0) {
    return TEAL_OK;
  }
  krylov(A, B, n, m, Cm);
  return overflow_check(fn, Cm, n, n * m, err);
}

int teal_observability_matrix(const double *A, const double *C, int n, int p, double *Om,
                              teal_error *err) {
  static const char fn[] = "observability_matrix";
  int rc = check_pair(fn, A, C, "C", n, p, "p", err);
  if (rc) {
    return rc;
  }
  if ((size_t)n * (size_t)p > 0 && !Om) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL Om (n = %d, p = %d)", fn, n, p);
  }
  if ((rc = teal_dense_check_finite(fn, "A", A, n, n, err)) ||
      (rc = teal_dense_check_finite(fn, "C", C, p, n, err))) {
    return rc;
  }
  if ((size_t)n * (size_t)p == 0) {
    return TEAL_OK;
  }
  krylov_rows(A, C, n, p, Om);
  return overflow_check(fn, Om, n * p, n, err);
}

/* Rank of the n x (n m) matrix whose memory is M (destroyed) compared
 * with n. */
static int full_rank(const char *fn, double *M, int n, int nm, double tol, int *result,
                     teal_error *err) {
  double *s = teal_dense_alloc(fn, (size_t)n, err);
  if (!s) {
    return TEAL_ENOMEM;
  }
  /* memory of the row-major n x nm matrix = its transpose, column-major */
  int rc = teal_dense_singular_values_cm(fn, M, nm, n, s, err);
  if (!rc) {
    double thr = tol < 0.0 ? teal_dense_default_tol(n, nm, s[0]) : tol;
    *result = s[n - 1] > thr;
  }
  teal_free(s);
  return rc;
}

static int check_tol(const char *fn, double tol, const int *result, teal_error *err) {
  if (!result) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL result", fn);
  }
  if (isnan(tol) || isinf(tol)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: tol = %g is not a number", fn, tol);
  }
  return TEAL_OK;
}

int teal_is_controllable(const double *A, const double *B, int n, int m, double tol, int *result,
                         teal_error *err) {
  static const char fn[] = "is_controllable";
  int rc = check_pair(fn, A, B, "B", n, m, "m", err);
  if (rc || (rc = check_tol(fn, tol, result, err))) {
    return rc;
  }
  if ((rc = teal_dense_check_finite(fn, "A", A, n, n, err)) ||
      (rc = teal_dense_check_finite(fn, "B", B, n, m, err))) {
    return rc;
  }
  if (n == 0 || m == 0) {
    *result = n == 0;
    return TEAL_OK;
  }
  double *Cm = teal_dense_alloc(fn, (size_t)n * (size_t)n * (size_t)m, err);
  if (!Cm) {
    return TEAL_ENOMEM;
  }
  krylov(A, B, n, m, Cm);
  rc = overflow_check(fn, Cm, n, n * m, err);
  if (!rc) {
    rc = full_rank(fn, Cm, n, n * m, tol, result, err);
  }
  teal_free(Cm);
  return rc;
}

int teal_is_observable(const double *A, const double *C, int n, int p, double tol, int *result,
                       teal_error *err) {
  static const char fn[] = "is_observable";
  int rc = check_pair(fn, A, C, "C", n, p, "p", err);
  if (rc || (rc = check_tol(fn, tol, result, err))) {
    return rc;
  }
  if ((rc = teal_dense_check_finite(fn, "A", A, n, n, err)) ||
      (rc = teal_dense_check_finite(fn, "C", C, p, n, err))) {
    return rc;
  }
  if (n == 0 || p == 0) {
    *result = n == 0;
    return TEAL_OK;
  }
  double *Om = teal_dense_alloc(fn, (size_t)n * (size_t)n * (size_t)p, err);
  if (!Om) {
    return TEAL_ENOMEM;
  }
  krylov_rows(A, C, n, p, Om);
  rc = overflow_check(fn, Om, n * p, n, err);
  if (!rc) {
    /* the memory of Om' (n x np row-major) is Om column-major: same ranks */
    double *s = teal_dense_alloc(fn, (size_t)n, err);
    if (!s) {
      rc = TEAL_ENOMEM;
    } else {
      rc = teal_dense_singular_values_cm(fn, Om, n, n * p, s, err);
      if (!rc) {
        double thr = tol < 0.0 ? teal_dense_default_tol(n, n * p, s[0]) : tol;
        *result = s[n - 1] > thr;
      }
      teal_free(s);
    }
  }
  teal_free(Om);
  return rc;
}

/* PBH test on row-major A (n x n) and B (n x m), both finite. */
static int pbh(const char *fn, const double *A, const double *B, int n, int m, int discrete,
               double tol, int *result, double *margin, teal_error *err) {
  if (n == 0) {
    *result = 1;
    if (margin) {
      *margin = INFINITY;
    }
    return TEAL_OK;
  }
  int cols = n + m;
  size_t big = (size_t)(2 * n) * (size_t)(2 * cols);
  double *buf = teal_dense_alloc(fn, 2 * (size_t)n + big + 2 * (size_t)n, err);
  if (!buf) {
    return TEAL_ENOMEM;
  }
  double *wr = buf, *wi = wr + n, *M = wi + n, *s = M + big;
  int rc = teal_dense_eigenvalues_rm(fn, A, n, wr, wi, err);
  if (rc) {
    teal_free(buf);
    return rc;
  }
  double na = teal_norm_fro(A, n, n), nb = teal_norm_fro(B, n, m);
  double scale = fmax(1.0, hypot(na, nb));
  double delta = BOUNDARY_RTOL * fmax(1.0, na);
  int ok = 1;
  double smallest = INFINITY;
  for (int e = 0; e < n && !rc; e++) {
    if (wi[e] < 0.0) {
      continue; /* the conjugate (wi > 0) gives the same singular values */
    }
    int unstable = discrete ? hypot(wr[e], wi[e]) >= 1.0 - delta : wr[e] >= -delta;
    if (!unstable) {
      continue;
    }
    int cplx = wi[e] != 0.0;
    int rows = cplx ? 2 * n : n, mc = cplx ? 2 * cols : cols;
    /* column-major rows x mc: M(i, j) = M[j * rows + i] */
    memset(M, 0, sizeof(double) * (size_t)rows * (size_t)mc);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < cols; j++) {
        double v =
            j < n ? A[(size_t)i * n + j] - (i == j ? wr[e] : 0.0) : B[(size_t)i * m + (j - n)];
        M[(size_t)j * rows + i] = v;
        if (cplx) {
          M[(size_t)(j + cols) * rows + (i + n)] = v;
        }
      }
      if (cplx) {
        /* Mi = -wi I in the first n columns: [[Mr, -Mi], [Mi, Mr]] */
        M[(size_t)i * rows + (i + n)] = -wi[e];
        M[(size_t)(i + cols) * rows + i] = wi[e];
      }
    }
    rc = teal_dense_singular_values_cm(fn, M, rows, mc, s, err);
    if (rc) {
      break;
    }
    double smin = s[rows - 1];
    double thr = tol < 0.0 ? teal_dense_default_tol(n, cols, s[0]) : tol;
    if (!(smin > thr)) {
      ok = 0;
    }
    smallest = fmin(smallest, smin / scale);
  }
  teal_free(buf);
  if (!rc) {
    *result = ok;
    if (margin) {
      *margin = smallest;
    }
  }
  return rc;
}

int teal_is_stabilizable(const double *A, const double *B, int n, int m, int discrete, double tol,
                         int *result, double *margin, teal_error *err) {
  static const char fn[] = "is_stabilizable";
  int rc = check_pair(fn, A, B, "B", n, m, "m", err);
  if (rc || (rc = check_tol(fn, tol, result, err))) {
    return rc;
  }
  if ((rc = teal_dense_check_finite(fn, "A", A, n, n, err)) ||
      (rc = teal_dense_check_finite(fn, "B", B, n, m, err))) {
    return rc;
  }
  return pbh(fn, A, B, n, m, discrete, tol, result, margin, err);
}

int teal_is_detectable(const double *A, const double *C, int n, int p, int discrete, double tol,
                       int *result, double *margin, teal_error *err) {
  static const char fn[] = "is_detectable";
  int rc = check_pair(fn, A, C, "C", n, p, "p", err);
  if (rc || (rc = check_tol(fn, tol, result, err))) {
    return rc;
  }
  if ((rc = teal_dense_check_finite(fn, "A", A, n, n, err)) ||
      (rc = teal_dense_check_finite(fn, "C", C, p, n, err))) {
    return rc;
  }
  double *buf = teal_dense_alloc(fn, (size_t)n * (size_t)(n + p), err);
  if (!buf) {
    return TEAL_ENOMEM;
  }
  double *At = buf, *Ct = buf + (size_t)n * n;
  teal_dense_transpose(A, n, n, At);
  teal_dense_transpose(C, p, n, Ct);
  rc = pbh(fn, At, Ct, n, p, discrete, tol, result, margin, err);
  teal_free(buf);
  return rc;
}
