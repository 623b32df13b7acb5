/* Control structure: controllability / observability matrices, their rank
 * tests, and PBH stabilizability / detectability tests.
 *
 * PBH: for every eigenvalue lambda of A outside the stable region (one of
 * each conjugate pair) the smallest singular value of [A - lambda I, B]
 * must exceed the rank threshold (tol >= 0: tol itself; tol < 0:
 * max(n, n + m) eps sigma_max, as for teal_dense_rank). A complex lambda is
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
#include "solvers/control.h"
#include "solvers/dense_basic.h"
#include "solvers/dense_svd.h"
#include "solvers/dense_internal.h"

#define BOUNDARY_RTOL 1.4901161193847656e-08 /* sqrt(DBL_EPSILON) */

/* Which side of A a pair (A, B) or (A, C) has: the input matrix B (n x m,
 * columns B, AB, ...) or the output matrix C (p x n, rows C, CA, ...), with
 * the names the messages use. */
typedef struct pair_side {
  const char *mat, *dim, *krylov;
  int rows; /* 1: C (dim x n), Krylov blocks stacked as rows */
} pair_side;

static const pair_side INPUT_SIDE = {"B", "m", "Cm", 0};
static const pair_side OUTPUT_SIDE = {"C", "p", "Om", 1};

static int check_pair(const char *fn, const double *A, const double *B, int n, int m,
                      const pair_side *side, teal_error *err) {
  int rc;
  if ((rc = teal_dense_check_dim(fn, "n", n, err)) ||
      (rc = teal_dense_check_dim(fn, side->dim, m, err))) {
    return rc;
  }
  if ((long long)n * (long long)m > INT_MAX || (long long)n * (long long)(n + m) > INT_MAX / 4) {
    return teal_error_set(err, TEAL_ESIZE, "%s: sizes too large (n = %d, %s = %d)", fn, n,
                          side->dim, m);
  }
  if ((n > 0 && !A) || ((size_t)n * (size_t)m > 0 && !B)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s (n = %d, %s = %d)", fn,
                          (n > 0 && !A) ? "A" : side->mat, n, side->dim, m);
  }
  return TEAL_OK;
}

static int check_pair_finite(const char *fn, const double *A, const double *B, int n, int m,
                             const pair_side *side, teal_error *err) {
  int rc = teal_dense_check_finite(fn, "A", A, n, n, err);
  if (!rc) {
    rc = side->rows ? teal_dense_check_finite(fn, side->mat, B, m, n, err)
                    : teal_dense_check_finite(fn, side->mat, B, n, m, err);
  }
  return rc;
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

/* The controllability (INPUT_SIDE) or observability (OUTPUT_SIDE) matrix of the
 * checked pair into K; TEAL_ENONFINITE when the powers of A overflow. */
static int krylov_matrix(const char *fn, const double *A, const double *B, int n, int m,
                         const pair_side *side, double *K, teal_error *err) {
  int ok;
  if (side->rows) {
    krylov_rows(A, B, n, m, K);
    ok = teal_dense_all_finite(K, n * m, n);
  } else {
    krylov(A, B, n, m, K);
    ok = teal_dense_all_finite(K, n, n * m);
  }
  if (!ok) {
    return teal_error_set(err, TEAL_ENONFINITE, "%s: the powers of A overflow", fn);
  }
  return TEAL_OK;
}

static int krylov_public(const char *fn, const double *A, const double *B, int n, int m,
                         const pair_side *side, double *K, teal_error *err) {
  int rc = check_pair(fn, A, B, n, m, side, err);
  if (rc) {
    return rc;
  }
  if ((size_t)n * (size_t)m > 0 && !K) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s (n = %d, %s = %d)", fn, side->krylov, n,
                          side->dim, m);
  }
  if ((rc = check_pair_finite(fn, A, B, n, m, side, err))) {
    return rc;
  }
  if ((size_t)n * (size_t)m == 0) {
    return TEAL_OK;
  }
  return krylov_matrix(fn, A, B, n, m, side, K, err);
}

int teal_controllability_matrix(const double *A, const double *B, int n, int m, double *Cm,
                                teal_error *err) {
  return krylov_public("controllability_matrix", A, B, n, m, &INPUT_SIDE, Cm, err);
}

int teal_observability_matrix(const double *A, const double *C, int n, int p, double *Om,
                              teal_error *err) {
  return krylov_public("observability_matrix", A, C, n, p, &OUTPUT_SIDE, Om, err);
}

/* *result = 1 when the column-major rows x cols matrix M (destroyed, n =
 * min(rows, cols) > 0) has rank n. */
static int full_rank(const char *fn, double *M, int rows, int cols, double tol, int *result,
                     teal_error *err) {
  int n = rows < cols ? rows : cols, other = rows < cols ? cols : rows;
  double *s = teal_dense_alloc(fn, (size_t)n, err);
  if (!s) {
    return TEAL_ENOMEM;
  }
  int rc = teal_dense_singular_values_cm(fn, M, rows, cols, s, err);
  if (!rc) {
    double thr = tol < 0.0 ? teal_dense_default_tol(n, other, s[0]) : tol;
    *result = s[n - 1] > thr;
  }
  teal_free(s);
  return rc;
}

/* Checks shared by the rank and PBH tests. */
static int check_test_args(const char *fn, const double *A, const double *B, int n, int m,
                           const pair_side *side, double tol, const int *result,
                           teal_error *err) {
  int rc = check_pair(fn, A, B, n, m, side, err);
  if (rc) {
    return rc;
  }
  if (!result) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL result", fn);
  }
  if ((rc = teal_dense_check_tol(fn, tol, err))) {
    return rc;
  }
  return check_pair_finite(fn, A, B, n, m, side, err);
}

/* Rank test of the controllability or observability matrix. */
static int krylov_full_rank(const char *fn, const double *A, const double *B, int n, int m,
                            const pair_side *side, double tol, int *result, teal_error *err) {
  int rc = check_test_args(fn, A, B, n, m, side, tol, result, err);
  if (rc) {
    return rc;
  }
  if (n == 0 || m == 0) {
    *result = n == 0;
    return TEAL_OK;
  }
  double *K = teal_dense_alloc(fn, (size_t)n * (size_t)n * (size_t)m, err);
  if (!K) {
    return TEAL_ENOMEM;
  }
  rc = krylov_matrix(fn, A, B, n, m, side, K, err);
  if (!rc) {
    /* the memory of a row-major matrix is its transpose column-major, with
     * the same singular values: n x nm row-major Cm is nm x n, np x n Om
     * is n x np */
    rc = side->rows ? full_rank(fn, K, n, n * m, tol, result, err)
                    : full_rank(fn, K, n * m, n, tol, result, err);
  }
  teal_free(K);
  return rc;
}

int teal_is_controllable(const double *A, const double *B, int n, int m, double tol, int *result,
                         teal_error *err) {
  return krylov_full_rank("is_controllable", A, B, n, m, &INPUT_SIDE, tol, result, err);
}

int teal_is_observable(const double *A, const double *C, int n, int p, double tol, int *result,
                       teal_error *err) {
  return krylov_full_rank("is_observable", A, C, n, p, &OUTPUT_SIDE, tol, result, err);
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
  double na = teal_dense_norm_fro(A, n, n), nb = teal_dense_norm_fro(B, n, m);
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
  int rc = check_test_args(fn, A, B, n, m, &INPUT_SIDE, tol, result, err);
  if (rc) {
    return rc;
  }
  return pbh(fn, A, B, n, m, discrete, tol, result, margin, err);
}

int teal_is_detectable(const double *A, const double *C, int n, int p, int discrete, double tol,
                       int *result, double *margin, teal_error *err) {
  static const char fn[] = "is_detectable";
  int rc = check_test_args(fn, A, C, n, p, &OUTPUT_SIDE, tol, result, err);
  if (rc) {
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
