/* Continuous and discrete Lyapunov equations by Schur methods.
 *
 * Both reduce A = U T U' to real Schur form (column-major LAPACK dgees),
 * transform C = U' Q U, solve the quasi-triangular equation for
 * Y = U' X U and return X = U Y U', symmetrized. Continuous: the
 * quasi-triangular Sylvester equation T Y + Y T' = -C is LAPACK dtrsyl
 * (Bartels-Stewart). Discrete: T Y T' - Y = -C by the column-block
 * recursion of Barraud (1977) / Kitagawa (1977): with block columns of Y
 * solved from the last one back, each block Y_pq of size 1 or 2 solves
 * the small Stein equation T_pp Y_pq T_qq' - Y_pq = R_pq whose right-hand
 * side uses only blocks already known, a Kronecker system of order at most
 * four solved with complete pivoting; accumulating W = Y T' column block by
 * column block keeps the cost O(n^3). No bilinear transform is used, so A
 * with eigenvalues near -1 costs no accuracy.
 *
 * Each solution is checked by its relative residual
 *   continuous: ||A X + X A' + Q|| / (2 ||A|| ||X|| + ||Q||)
 *   discrete:   ||A X A' - X + Q|| / (||A||^2 ||X|| + ||X|| + ||Q||)
 * (Frobenius norms); a residual above sqrt(eps) means the equation was
 * (numerically) singular and gives TEAL_ESINGULAR. */
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense_basic.h"
#include "solvers/lyapunov.h"
#include "solvers/dense_internal.h"

#define RESIDUAL_TOL 1.4901161193847656e-08

/* Shared checks; on success S holds the symmetric part of Q. */
static int check_args(const char *fn, const double *A, const double *Q, int n, double *X,
                      teal_error *err) {
  int rc = teal_dense_check_dim(fn, "n", n, err);
  if (rc) {
    return rc;
  }
  if (n > 0 && (!A || !Q || !X)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s (n = %d)", fn, !A ? "A" : (!Q ? "Q" : "X"),
                          n);
  }
  if ((rc = teal_dense_check_finite(fn, "A", A, n, n, err)) ||
      (rc = teal_dense_check_finite(fn, "Q", Q, n, n, err))) {
    return rc;
  }
  return teal_dense_check_symmetric(fn, "Q", Q, n, TEAL_EINVAL, err);
}

/* Schur form of A (row-major) into column-major T, U; C = -U' Qs U with Qs
 * the symmetric part of Q. W is n x n scratch. */
static int reduce(const char *fn, const double *A, const double *Q, int n, double *T, double *U,
                  double *C, double *W, teal_error *err) {
  teal_dense_transpose(A, n, n, T);
  int rc = teal_dense_schur_cm(fn, T, n, U, NULL, NULL, err);
  if (rc) {
    return rc;
  }
  teal_dense_symmetrize(Q, n, C); /* symmetric: same in either order */
  cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, n, n, n, 1.0, U, n, C, n, 0.0, W, n);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, -1.0, W, n, U, n, 0.0, C, n);
  return TEAL_OK;
}

/* X = U Y U' symmetrized (Y column-major in C, W scratch), then checked to
 * be finite. */
static int back_transform(const char *fn, const double *U, const double *C, int n, double *W,
                          double *Xc, teal_error *err) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, U, n, C, n, 0.0, W, n);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, W, n, U, n, 0.0, Xc, n);
  teal_dense_symmetrize(Xc, n, Xc);
  if (!teal_dense_all_finite(Xc, n, n)) {
    return teal_error_set(err, TEAL_ESINGULAR,
                          "%s: the solution overflows (the equation is nearly singular)", fn);
  }
  return TEAL_OK;
}

/* Copies Xc into X when the residual R (n x n) relative to scale, the size
 * of the equation's terms, is at most RESIDUAL_TOL; TEAL_ESINGULAR naming
 * the likely cause otherwise. */
static int accept_solution(const char *fn, const double *R, double scale, const char *cause,
                           const double *Xc, int n, double *X, teal_error *err) {
  double res = teal_dense_norm_fro(R, n, n) / fmax(scale, DBL_MIN);
  if (!(res <= RESIDUAL_TOL)) {
    return teal_error_set(err, TEAL_ESINGULAR, "%s: relative residual %g too large; %s", fn, res,
                          cause);
  }
  memcpy(X, Xc, sizeof(double) * (size_t)n * (size_t)n);
  return TEAL_OK;
}

int teal_lyapunov_continuous(const double *A, const double *Q, int n, double *X, teal_error *err) {
  static const char fn[] = "lyapunov_continuous";
  int rc = check_args(fn, A, Q, n, X, err);
  if (rc || n == 0) {
    return rc;
  }
  size_t nn = (size_t)n * (size_t)n;
  double *buf = teal_dense_alloc(fn, 5 * nn, err);
  if (!buf) {
    return TEAL_ENOMEM;
  }
  double *T = buf, *U = T + nn, *C = U + nn, *W = C + nn, *Xc = W + nn;
  if ((rc = reduce(fn, A, Q, n, T, U, C, W, err))) {
    goto done;
  }
  double scale = 1.0;
  int info = LAPACKE_dtrsyl_work(LAPACK_COL_MAJOR, 'N', 'T', 1, n, n, T, n, T, n, C, n, &scale);
  if (info < 0) {
    rc = teal_dense_lapack_arg(fn, "dtrsyl", info, err);
    goto done;
  }
  if (info > 0) {
    rc = teal_error_set(err, TEAL_ESINGULAR,
                        "%s: A and -A' have a common (or very close) eigenvalue; the equation "
                        "is singular",
                        fn);
    goto done;
  }
  if (scale != 1.0) {
    for (size_t i = 0; i < nn; i++) {
      C[i] /= scale;
    }
  }
  if ((rc = back_transform(fn, U, C, n, W, Xc, err))) {
    goto done;
  }
  /* residual R = A X + X A' + Q (row-major; X symmetric) */
  memcpy(W, Q, sizeof(double) * nn);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A, n, Xc, n, 1.0, W, n);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, Xc, n, A, n, 1.0, W, n);
  double na = teal_dense_norm_fro(A, n, n), nx = teal_dense_norm_fro(Xc, n, n),
         nq = teal_dense_norm_fro(Q, n, n);
  rc = accept_solution(fn, W, 2.0 * na * nx + nq, "A and -A' have (nearly) common eigenvalues",
                       Xc, n, X, err);
done:
  teal_free(buf);
  return rc;
}

/* Solves the Kronecker system K y = r (order k <= 4, K row-major k x k)
 * by Gaussian elimination with complete pivoting; 0 when a pivot is below
 * smin (singular). */
static int small_solve(double *K, double *r, int k, double smin, double *y) {
  int colp[4] = {0, 1, 2, 3};
  for (int c = 0; c < k; c++) {
    int pi = c, pj = c;
    double best = -1.0;
    for (int i = c; i < k; i++) {
      for (int j = c; j < k; j++) {
        if (fabs(K[i * k + j]) > best) {
          best = fabs(K[i * k + j]);
          pi = i;
          pj = j;
        }
      }
    }
    if (!(best >= smin) || best == 0.0) {
      return 0;
    }
    if (pi != c) {
      for (int j = 0; j < k; j++) {
        double t = K[c * k + j];
        K[c * k + j] = K[pi * k + j];
        K[pi * k + j] = t;
      }
      double t = r[c];
      r[c] = r[pi];
      r[pi] = t;
    }
    if (pj != c) {
      for (int i = 0; i < k; i++) {
        double t = K[i * k + c];
        K[i * k + c] = K[i * k + pj];
        K[i * k + pj] = t;
      }
      int t = colp[c];
      colp[c] = colp[pj];
      colp[pj] = t;
    }
    for (int i = c + 1; i < k; i++) {
      double f = K[i * k + c] / K[c * k + c];
      for (int j = c; j < k; j++) {
        K[i * k + j] -= f * K[c * k + j];
      }
      r[i] -= f * r[c];
    }
  }
  double z[4];
  for (int i = k - 1; i >= 0; i--) {
    double s = r[i];
    for (int j = i + 1; j < k; j++) {
      s -= K[i * k + j] * z[j];
    }
    z[i] = s / K[i * k + i];
  }
  for (int i = 0; i < k; i++) {
    y[colp[i]] = z[i];
  }
  return 1;
}

/* T Y T' - Y = C for quasi-upper-triangular column-major T (standard real
 * Schur form); C (column-major) is overwritten by Y. V and W are n x 2
 * scratch; start marks the first row of every diagonal block. */
static int stein_triangular(const char *fn, const double *T, int n, double *C, double *V, double *W,
                            int *start, teal_error *err) {
#define AT(M, i, j) (M)[(size_t)(j) * (size_t)n + (size_t)(i)]
  int nb = 0;
  for (int i = 0; i < n;) {
    start[nb++] = i;
    i += (i + 1 < n && AT(T, i + 1, i) != 0.0) ? 2 : 1;
  }
  start[nb] = n;
  double tmax = teal_dense_max_abs(T, (size_t)n * (size_t)n);
  double smin = fmax(4.0 * DBL_EPSILON * fmax(1.0, tmax * tmax), DBL_MIN);
  for (int qb = nb - 1; qb >= 0; qb--) {
    int jq = start[qb], bq = start[qb + 1] - jq, c0 = jq + bq;
    /* V = Y(:, c0:) T(jq:jq+bq, c0:)', the known part of (Y T')(:, q) */
    if (c0 < n) {
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, bq, n - c0, 1.0, &AT(C, 0, c0), n,
                  &AT(T, jq, c0), n, 0.0, V, n);
    } else {
      memset(V, 0, sizeof(double) * (size_t)n * (size_t)bq);
    }
    for (int pb = nb - 1; pb >= 0; pb--) {
      int ip = start[pb], bp = start[pb + 1] - ip, r0 = ip + bp;
      /* R = C_pq - T_pp V_pq - sum_{k > p} T_pk W_kq,  W = Y_:q T_qq' + V */
      double R[4], K[16], y[4];
      for (int b = 0; b < bq; b++) {
        for (int a = 0; a < bp; a++) {
          double s = AT(C, ip + a, jq + b);
          for (int l = 0; l < bp; l++) {
            s -= AT(T, ip + a, ip + l) * V[(size_t)b * n + (size_t)(ip + l)];
          }
          for (int l = r0; l < n; l++) {
            s -= AT(T, ip + a, l) * W[(size_t)b * n + (size_t)l];
          }
          R[a + b * bp] = s;
        }
      }
      /* (T_qq (x) T_pp - I) vec(Y_pq) = vec(R) */
      int k = bp * bq;
      for (int b = 0; b < bq; b++) {
        for (int a = 0; a < bp; a++) {
          for (int d = 0; d < bq; d++) {
            for (int c = 0; c < bp; c++) {
              K[(a + b * bp) * k + (c + d * bp)] =
                  AT(T, jq + b, jq + d) * AT(T, ip + a, ip + c) - ((a == c && b == d) ? 1.0 : 0.0);
            }
          }
        }
      }
      for (int i = 0; i < k * k; i++) {
        if (!isfinite(K[i]) || (i < k && !isfinite(R[i]))) {
          return teal_error_set(err, TEAL_ENONFINITE,
                                "%s: overflow in the Schur recursion (|A| or |Q| too large)", fn);
        }
      }
      if (!small_solve(K, R, k, smin, y)) {
        return teal_error_set(err, TEAL_ESINGULAR,
                              "%s: A has eigenvalues with lambda_i lambda_j = 1 (near block "
                              "(%d, %d)); the equation is singular",
                              fn, ip, jq);
      }
      for (int b = 0; b < bq; b++) {
        for (int a = 0; a < bp; a++) {
          AT(C, ip + a, jq + b) = y[a + b * bp];
        }
      }
      for (int b = 0; b < bq; b++) {
        for (int a = 0; a < bp; a++) {
          double s = V[(size_t)b * n + (size_t)(ip + a)];
          for (int d = 0; d < bq; d++) {
            s += AT(C, ip + a, jq + d) * AT(T, jq + b, jq + d);
          }
          W[(size_t)b * n + (size_t)(ip + a)] = s;
        }
      }
    }
  }
  return TEAL_OK;
#undef AT
}

int teal_lyapunov_discrete(const double *A, const double *Q, int n, double *X, teal_error *err) {
  static const char fn[] = "lyapunov_discrete";
  int rc = check_args(fn, A, Q, n, X, err);
  if (rc || n == 0) {
    return rc;
  }
  size_t nn = (size_t)n * (size_t)n;
  double *buf;
  int *start;
  if ((rc = teal_dense_alloc_pair(fn, 5 * nn + 4 * (size_t)n, (size_t)n + 1, &buf, &start, err))) {
    return rc;
  }
  double *T = buf, *U = T + nn, *C = U + nn, *W = C + nn, *Xc = W + nn;
  double *V = Xc + nn, *Wq = V + 2 * (size_t)n;
  if ((rc = reduce(fn, A, Q, n, T, U, C, W, err)) ||
      (rc = stein_triangular(fn, T, n, C, V, Wq, start, err)) ||
      (rc = back_transform(fn, U, C, n, W, Xc, err))) {
    goto done;
  }
  /* residual R = A X A' - X + Q (row-major; X symmetric), T as scratch */
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A, n, Xc, n, 0.0, T, n);
  for (size_t i = 0; i < nn; i++) {
    W[i] = Q[i] - Xc[i];
  }
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, T, n, A, n, 1.0, W, n);
  double na = teal_dense_norm_fro(A, n, n), nx = teal_dense_norm_fro(Xc, n, n),
         nq = teal_dense_norm_fro(Q, n, n);
  rc = accept_solution(fn, W, na * na * nx + nx + nq,
                       "A has eigenvalues with lambda_i lambda_j (nearly) 1", Xc, n, X, err);
done:
  teal_free(start);
  teal_free(buf);
  return rc;
}
