/* Algebraic Riccati equations (teal_care, teal_dare and their residuals):
 * closed forms (double integrator, scalar equations, a discrete double
 * integrator), random stabilizable systems checked against Newton-Kleinman
 * (CARE) and Hewer (DARE) iterations, the cross term N against the
 * equivalent problem without it, singular A, m = 0 and n = 0, and every
 * failure: not stabilizable, eigenvalues on the stability boundary, R not
 * positive definite, non-finite entries, non-symmetric Q or R, bad sizes
 * and pointers, allocation failures. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/error.h"
#include "solvers/dense.h"
#include "solvers/riccati.h"
#include "solvers/riccati_internal.h"
#include "support/test_support.h"

/* ---- small matrix helpers ------------------------------------------------- */

static double *mat_new(int r, int c) {
  double *p = calloc((size_t)(r > 0 ? r : 1) * (size_t)(c > 0 ? c : 1), sizeof(double));
  ck_assert_ptr_nonnull(p);
  return p;
}

static void mat_random(unsigned *seed, double *M, int r, int c, double lo, double hi) {
  for (int i = 0; i < r * c; i++) {
    M[i] = ts_rand_uniform(seed, lo, hi);
  }
}

/* C = op(A) op(B) (overwrites C). */
static void mul(int ta, int tb, int m, int n, int k, const double *A, const double *B,
                double *C) {
  ck_assert_int_eq(teal_gemm(ta, tb, m, n, k, 1.0, A, B, 0.0, C, NULL), TEAL_OK);
}

static void transpose(const double *A, int r, int c, double *T) {
  for (int i = 0; i < r; i++) {
    for (int j = 0; j < c; j++) {
      T[(size_t)j * r + i] = A[(size_t)i * c + j];
    }
  }
}

static double rel_diff(const double *X, const double *Y, int n) {
  double d = 0.0, y = 0.0;
  for (int i = 0; i < n * n; i++) {
    d += (X[i] - Y[i]) * (X[i] - Y[i]);
    y += Y[i] * Y[i];
  }
  return sqrt(d) / fmax(1.0, sqrt(y));
}

static double max_real_eig(const double *A, int n) {
  double *wr = mat_new(n, 1), *wi = mat_new(n, 1), mx = -INFINITY;
  ck_assert_int_eq(teal_eigenvalues(A, n, wr, wi, NULL), TEAL_OK);
  for (int i = 0; i < n; i++) {
    mx = fmax(mx, wr[i]);
  }
  free(wr);
  free(wi);
  return mx;
}

static double spectral_radius(const double *A, int n) {
  double *wr = mat_new(n, 1), *wi = mat_new(n, 1), mx = 0.0;
  ck_assert_int_eq(teal_eigenvalues(A, n, wr, wi, NULL), TEAL_OK);
  for (int i = 0; i < n; i++) {
    mx = fmax(mx, hypot(wr[i], wi[i]));
  }
  free(wr);
  free(wi);
  return mx;
}

/* CARE gain K = R^-1 (B'X + N') (m x n). */
static void care_gain(const double *B, const double *R, const double *N, int n, int m,
                      const double *X, double *K) {
  double *L = mat_new(m, m);
  memcpy(L, R, sizeof(double) * (size_t)m * m);
  ck_assert_int_eq(teal_cholesky_factor(L, m, NULL), TEAL_OK);
  mul(1, 0, m, n, n, B, X, K);
  if (N) {
    for (int k = 0; k < m; k++) {
      for (int j = 0; j < n; j++) {
        K[k * n + j] += N[j * m + k];
      }
    }
  }
  ck_assert_int_eq(teal_cholesky_solve(L, m, K, n, NULL), TEAL_OK);
  free(L);
}

/* DARE gain K = (R + B'XB)^-1 (B'XA + N') (m x n). */
static void dare_gain(const double *A, const double *B, const double *R, const double *N, int n,
                      int m, const double *X, double *K) {
  double *XB = mat_new(n, m), *XA = mat_new(n, n), *S = mat_new(m, m);
  mul(0, 0, n, m, n, X, B, XB);
  mul(0, 0, n, n, n, X, A, XA);
  mul(1, 0, m, m, n, B, XB, S);
  for (int i = 0; i < m * m; i++) {
    S[i] += R[i];
  }
  mul(1, 0, m, n, n, B, XA, K);
  if (N) {
    for (int k = 0; k < m; k++) {
      for (int j = 0; j < n; j++) {
        K[k * n + j] += N[j * m + k];
      }
    }
  }
  ck_assert_int_eq(teal_solve(S, m, K, n, NULL), TEAL_OK);
  free(XB);
  free(XA);
  free(S);
}

/* Acl = A - B K */
static void closed_loop(const double *A, const double *B, const double *K, int n, int m,
                        double *Acl) {
  memcpy(Acl, A, sizeof(double) * (size_t)n * n);
  if (m > 0) {
    ck_assert_int_eq(teal_gemm(0, 0, n, n, m, -1.0, B, K, 1.0, Acl, NULL), TEAL_OK);
  }
}

static int exactly_symmetric(const double *X, int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      if (X[i * n + j] != X[j * n + i]) {
        return 0;
      }
    }
  }
  return 1;
}

static double min_eig_sym(const double *X, int n, double *max_abs) {
  double *w = mat_new(n, 1);
  ck_assert_int_eq(teal_sym_eigen(X, n, w, NULL, NULL), TEAL_OK);
  double mn = w[0];
  *max_abs = fmax(fabs(w[0]), fabs(w[n - 1]));
  free(w);
  return mn;
}

/* ---- random stabilizable systems ------------------------------------------ */

/* A random stabilizable problem: B, K0 uniform in [-1, 1), A = Acl + B K0
 * with Acl a random matrix shifted (continuous: max Re = -0.5) or scaled
 * (discrete: spectral radius 0.9) to be stable, so that K0 is a known
 * stabilizing gain while A itself is (typically) unstable; Q = C'C with C
 * random p x n (p = max(1, n/2)); R = D'D + I with D random m x m. */
typedef struct problem {
  int n, m;
  double *A, *B, *Q, *R, *K0;
} problem;

static problem problem_random(unsigned seed, int n, int m, int discrete) {
  problem p = {n, m, mat_new(n, n), mat_new(n, m), mat_new(n, n), mat_new(m, m), mat_new(m, n)};
  int q = n / 2 > 0 ? n / 2 : 1;
  double *G = mat_new(n, n), *C = mat_new(q, n), *D = mat_new(m, m);
  mat_random(&seed, G, n, n, -1.0, 1.0);
  mat_random(&seed, p.B, n, m, -1.0, 1.0);
  mat_random(&seed, p.K0, m, n, -1.0, 1.0);
  mat_random(&seed, C, q, n, -1.0, 1.0);
  mat_random(&seed, D, m, m, -1.0, 1.0);
  if (discrete) {
    double s = 0.9 / spectral_radius(G, n);
    for (int i = 0; i < n * n; i++) {
      G[i] *= s;
    }
  } else {
    double shift = max_real_eig(G, n) + 0.5;
    for (int i = 0; i < n; i++) {
      G[i * n + i] -= shift;
    }
  }
  mul(0, 0, n, n, m, p.B, p.K0, p.A);
  for (int i = 0; i < n * n; i++) {
    p.A[i] += G[i];
  }
  mul(1, 0, n, n, q, C, C, p.Q);
  mul(1, 0, m, m, m, D, D, p.R);
  for (int i = 0; i < m; i++) {
    p.R[i * m + i] += 1.0;
  }
  /* exact symmetry of the products */
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      p.Q[j * n + i] = p.Q[i * n + j];
    }
  }
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < i; j++) {
      p.R[j * m + i] = p.R[i * m + j];
    }
  }
  free(G);
  free(C);
  free(D);
  return p;
}

static void problem_free(problem *p) {
  free(p->A);
  free(p->B);
  free(p->Q);
  free(p->R);
  free(p->K0);
}

/* Newton-Kleinman: from the stabilizing K, X_k solves
 * (A - BK)'X + X(A - BK) + Q + K'RK = 0 and K = R^-1 B'X_k. */
static void newton_kleinman(const problem *p, double *X) {
  int n = p->n, m = p->m;
  double *K = mat_new(m, n), *Acl = mat_new(n, n), *At = mat_new(n, n), *W = mat_new(n, n);
  double *RK = mat_new(m, n), *Xold = mat_new(n, n);
  memcpy(K, p->K0, sizeof(double) * (size_t)m * n);
  int it = 0;
  for (; it < 60; it++) {
    closed_loop(p->A, p->B, K, n, m, Acl);
    ck_assert_msg(max_real_eig(Acl, n) < 0.0, "Newton-Kleinman iterate %d not stabilizing", it);
    transpose(Acl, n, n, At);
    mul(0, 0, m, n, m, p->R, K, RK);
    mul(1, 0, n, n, m, K, RK, W);
    for (int i = 0; i < n * n; i++) {
      W[i] += p->Q[i];
    }
    memcpy(Xold, X, sizeof(double) * (size_t)n * n);
    ck_assert_int_eq(teal_lyapunov_continuous(At, W, n, X, NULL), TEAL_OK);
    care_gain(p->B, p->R, NULL, n, m, X, K);
    if (it > 0 && rel_diff(X, Xold, n) < 1e-14) {
      break;
    }
  }
  ck_assert_msg(it < 60, "Newton-Kleinman did not converge");
  free(K);
  free(Acl);
  free(At);
  free(W);
  free(RK);
  free(Xold);
}

/* Hewer: X_k solves (A - BK)'X(A - BK) - X + Q + K'RK = 0 and
 * K = (R + B'X_k B)^-1 B'X_k A. */
static void hewer(const problem *p, double *X) {
  int n = p->n, m = p->m;
  double *K = mat_new(m, n), *Acl = mat_new(n, n), *At = mat_new(n, n), *W = mat_new(n, n);
  double *RK = mat_new(m, n), *Xold = mat_new(n, n);
  memcpy(K, p->K0, sizeof(double) * (size_t)m * n);
  int it = 0;
  for (; it < 60; it++) {
    closed_loop(p->A, p->B, K, n, m, Acl);
    ck_assert_msg(spectral_radius(Acl, n) < 1.0, "Hewer iterate %d not stabilizing", it);
    transpose(Acl, n, n, At);
    mul(0, 0, m, n, m, p->R, K, RK);
    mul(1, 0, n, n, m, K, RK, W);
    for (int i = 0; i < n * n; i++) {
      W[i] += p->Q[i];
    }
    memcpy(Xold, X, sizeof(double) * (size_t)n * n);
    ck_assert_int_eq(teal_lyapunov_discrete(At, W, n, X, NULL), TEAL_OK);
    dare_gain(p->A, p->B, p->R, NULL, n, m, X, K);
    if (it > 0 && rel_diff(X, Xold, n) < 1e-14) {
      break;
    }
  }
  ck_assert_msg(it < 60, "Hewer did not converge");
  free(K);
  free(Acl);
  free(At);
  free(W);
  free(RK);
  free(Xold);
}

/* ---- closed forms ---------------------------------------------------------- */

START_TEST(test_care_double_integrator) {
  const double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, Q[4] = {1, 0, 0, 1}, R[1] = {1};
  double X[4], K[2], res = -1.0, s3 = sqrt(3.0);
  teal_error err;
  teal_error_clear(&err);
  ck_assert_int_eq(teal_care(A, B, Q, R, NULL, 2, 1, X, &res, &err), TEAL_OK);
  ck_assert_int_eq(err.code, TEAL_OK);
  const double Xe[4] = {s3, 1, 1, s3};
  for (int i = 0; i < 4; i++) {
    ck_assert_msg(fabs(X[i] - Xe[i]) < 1e-12, "X[%d] = %.17g, expected %.17g", i, X[i], Xe[i]);
  }
  care_gain(B, R, NULL, 2, 1, X, K);
  ck_assert_double_eq_tol(K[0], 1.0, 1e-12);
  ck_assert_double_eq_tol(K[1], s3, 1e-12);
  ck_assert(res >= 0.0 && res < 1e-14);
  ck_assert_double_eq_tol(teal_care_residual(A, B, Q, R, NULL, 2, 1, X), res, 1e-15);
}
END_TEST

/* Scalar CARE 2ax - (b x + nc)^2 / r + q = 0 (nc the cross term):
 * x = (r (a - b nc / r) + sqrt(r^2 (a - b nc / r)^2 + b^2 r (q - nc^2 / r))) / b^2 */
START_TEST(test_care_scalar_closed_form) {
  static const double cases[][5] = {
      /* a, b, q, r, nc */
      {1, 1, 0, 1, 0},  {-2, 1, 1, 1, 0}, {3, 0.5, 2, 0.1, 0}, {0, 2, 5, 3, 0},
      {1, 1, 1, 1, 0.5}, {-1, 3, 4, 2, -1}, {1e3, 1, 1, 1, 0},  {1e-3, 1e-2, 1e-4, 1, 0}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    double a = cases[c][0], b = cases[c][1], q = cases[c][2], r = cases[c][3], nc = cases[c][4];
    double abar = a - b * nc / r, qbar = q - nc * nc / r;
    double xe = (r * abar + sqrt(r * r * abar * abar + b * b * r * qbar)) / (b * b);
    double x = 0.0, res = -1.0;
    teal_error err;
    teal_error_clear(&err);
    ck_assert_msg(teal_care(&a, &b, &q, &r, nc != 0.0 ? &nc : NULL, 1, 1, &x, &res, &err) ==
                      TEAL_OK,
                  "case %zu: %s", c, err.message);
    ck_assert_msg(fabs(x - xe) <= 1e-12 * fmax(1.0, fabs(xe)),
                  "case %zu: x = %.17g, expected %.17g", c, x, xe);
    /* the lhs has terms of size x^2 while the residual is scaled by |x| */
    ck_assert_msg(res < 1e-13 * fmax(1.0, fabs(xe)), "case %zu: residual %g", c, res);
    ck_assert_msg(a - b * (b * x + nc) / r < 0.0, "case %zu: closed loop not stable", c);
  }
}
END_TEST

/* Scalar DARE: b^2 x^2 - ((a^2 - 1) r + q b^2) x - q r = 0, positive root
 * (no cross term). */
START_TEST(test_dare_scalar_closed_form) {
  static const double cases[][4] = {
      /* a, b, q, r */
      {2, 1, 1, 1}, {0.5, 1, 1, 1}, {0, 1, 1, 1}, {-3, 0.5, 2, 0.1},
      {1, 1, 1, 1}, {1.5, 2, 0, 1}, {0.9, 1e-2, 1, 1e-4}, {10, 1, 1e-2, 1e2}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    double a = cases[c][0], b = cases[c][1], q = cases[c][2], r = cases[c][3];
    double p = (a * a - 1.0) * r + q * b * b;
    double xe = (p + sqrt(p * p + 4.0 * b * b * q * r)) / (2.0 * b * b);
    double x = 0.0, res = -1.0;
    teal_error err;
    teal_error_clear(&err);
    ck_assert_msg(teal_dare(&a, &b, &q, &r, NULL, 1, 1, &x, &res, &err) == TEAL_OK,
                  "case %zu: %s", c, err.message);
    ck_assert_msg(fabs(x - xe) <= 1e-12 * fmax(1.0, fabs(xe)),
                  "case %zu: x = %.17g, expected %.17g", c, x, xe);
    /* the lhs has terms of size a^2 x while the residual is scaled by x */
    ck_assert_msg(res < 1e-13 * fmax(1.0, a * a), "case %zu: residual %g", c, res);
    double k = b * x * a / (r + b * x * b);
    ck_assert_msg(fabs(a - b * k) < 1.0, "case %zu: closed loop not stable", c);
  }
  /* a = 1, b = q = r = 1: the golden ratio */
  double one = 1.0, x = 0.0;
  ck_assert_int_eq(teal_dare(&one, &one, &one, &one, NULL, 1, 1, &x, NULL, NULL), TEAL_OK);
  ck_assert_double_eq_tol(x, 0.5 * (1.0 + sqrt(5.0)), 1e-14);
}
END_TEST

/* x+ = [[1, 1], [0, 1]] x + [0; 1] u with Q = I, R = 1. Writing
 * X = [[x1, x2], [x2, x3]], the DARE reduces to x2^2 = 1 + x3,
 * x1 = 1 + x3 / x2 and the palindromic quartic x2^4 - x2^3 - 3 x2^2 - x2 + 1
 * = 0, i.e. t^2 - t - 5 = 0 in t = x2 + 1/x2: t = (1 + sqrt 21) / 2 and
 * x2 = (t + sqrt(t^2 - 4)) / 2 (the root giving X > 0). */
START_TEST(test_dare_discrete_double_integrator) {
  const double A[4] = {1, 1, 0, 1}, B[2] = {0, 1}, Q[4] = {1, 0, 0, 1}, R[1] = {1};
  double t = 0.5 * (1.0 + sqrt(21.0)), x2 = 0.5 * (t + sqrt(t * t - 4.0));
  double x3 = x2 * x2 - 1.0, x1 = 1.0 + x3 / x2;
  const double Xe[4] = {x1, x2, x2, x3};
  double X[4], K[2], Acl[4], res = -1.0;
  teal_error err;
  teal_error_clear(&err);
  ck_assert_int_eq(teal_dare(A, B, Q, R, NULL, 2, 1, X, &res, &err), TEAL_OK);
  for (int i = 0; i < 4; i++) {
    ck_assert_msg(fabs(X[i] - Xe[i]) < 1e-12 * fabs(Xe[i]), "X[%d] = %.17g, expected %.17g", i,
                  X[i], Xe[i]);
  }
  ck_assert(res < 1e-14);
  dare_gain(A, B, R, NULL, 2, 1, X, K);
  ck_assert_double_eq_tol(K[0], x2 / (1.0 + x3), 1e-13);
  ck_assert_double_eq_tol(K[1], (x2 + x3) / (1.0 + x3), 1e-13);
  closed_loop(A, B, K, 2, 1, Acl);
  ck_assert(spectral_radius(Acl, 2) < 1.0);
}
END_TEST

/* Zero-order hold of the double integrator with step h (B = [h^2/2; h]):
 * residual, agreement with Hewer (A - B K0 stable for K0 = [1, 1.5] / h^2 ...)
 * and a stable closed loop. */
START_TEST(test_dare_sampled_double_integrator) {
  const double h = 0.1;
  problem p = {2, 1, mat_new(2, 2), mat_new(2, 1), mat_new(2, 2), mat_new(1, 1), mat_new(1, 2)};
  p.A[0] = 1.0, p.A[1] = h, p.A[3] = 1.0;
  p.B[0] = 0.5 * h * h, p.B[1] = h;
  p.Q[0] = 1.0, p.Q[3] = 1.0;
  p.R[0] = 1.0;
  /* deadbeat gain: (A - B K0)^2 = 0 */
  p.K0[0] = 1.0 / (h * h), p.K0[1] = 1.5 / h;
  double X[4], Xh[4] = {0}, K[2], Acl[4], res = -1.0;
  ck_assert_int_eq(teal_dare(p.A, p.B, p.Q, p.R, NULL, 2, 1, X, &res, NULL), TEAL_OK);
  ck_assert(res < 1e-13);
  hewer(&p, Xh);
  ck_assert_msg(rel_diff(X, Xh, 2) < 1e-10, "differs from Hewer by %g", rel_diff(X, Xh, 2));
  dare_gain(p.A, p.B, p.R, NULL, 2, 1, X, K);
  closed_loop(p.A, p.B, K, 2, 1, Acl);
  ck_assert(spectral_radius(Acl, 2) < 1.0);
  problem_free(&p);
}
END_TEST

/* ---- random systems -------------------------------------------------------- */

static void check_random_care(int n, unsigned seed) {
  int m = n / 2;
  problem p = problem_random(seed, n, m, 0);
  double *X = mat_new(n, n), *Xr = mat_new(n, n), *K = mat_new(m, n), *Acl = mat_new(n, n);
  double res = -1.0;
  teal_error err;
  teal_error_clear(&err);
  ck_assert(max_real_eig(p.A, n) > 0.0); /* the open loop is unstable */
  ck_assert_msg(teal_care(p.A, p.B, p.Q, p.R, NULL, n, m, X, &res, &err) == TEAL_OK,
                "n = %d: %s", n, err.message);
  ck_assert_msg(res < 1e-10, "n = %d: residual %g", n, res);
  double res2 = teal_care_residual(p.A, p.B, p.Q, p.R, NULL, n, m, X);
  ck_assert_msg(fabs(res2 - res) <= 1e-3 * res + 1e-300, "n = %d: %g vs %g", n, res, res2);
  ck_assert(exactly_symmetric(X, n));
  double mx, mn = min_eig_sym(X, n, &mx);
  ck_assert_msg(mn >= -1e-10 * mx, "n = %d: X has eigenvalue %g (max %g)", n, mn, mx);
  care_gain(p.B, p.R, NULL, n, m, X, K);
  closed_loop(p.A, p.B, K, n, m, Acl);
  double mr = max_real_eig(Acl, n);
  ck_assert_msg(mr < 0.0, "n = %d: closed loop max Re %g", n, mr);
  newton_kleinman(&p, Xr);
  double d = rel_diff(X, Xr, n);
  ck_assert_msg(d < 1e-8, "n = %d: differs from Newton-Kleinman by %g", n, d);
  free(X);
  free(Xr);
  free(K);
  free(Acl);
  problem_free(&p);
}

static void check_random_dare(int n, unsigned seed) {
  int m = n / 2;
  problem p = problem_random(seed, n, m, 1);
  double *X = mat_new(n, n), *Xr = mat_new(n, n), *K = mat_new(m, n), *Acl = mat_new(n, n);
  double res = -1.0;
  teal_error err;
  teal_error_clear(&err);
  ck_assert(spectral_radius(p.A, n) > 1.0); /* the open loop is unstable */
  ck_assert_msg(teal_dare(p.A, p.B, p.Q, p.R, NULL, n, m, X, &res, &err) == TEAL_OK,
                "n = %d: %s", n, err.message);
  ck_assert_msg(res < 1e-10, "n = %d: residual %g", n, res);
  double res2 = teal_dare_residual(p.A, p.B, p.Q, p.R, NULL, n, m, X);
  ck_assert_msg(fabs(res2 - res) <= 1e-3 * res + 1e-300, "n = %d: %g vs %g", n, res, res2);
  ck_assert(exactly_symmetric(X, n));
  double mx, mn = min_eig_sym(X, n, &mx);
  ck_assert_msg(mn >= -1e-10 * mx, "n = %d: X has eigenvalue %g (max %g)", n, mn, mx);
  dare_gain(p.A, p.B, p.R, NULL, n, m, X, K);
  closed_loop(p.A, p.B, K, n, m, Acl);
  double rho = spectral_radius(Acl, n);
  ck_assert_msg(rho < 1.0, "n = %d: closed-loop spectral radius %g", n, rho);
  hewer(&p, Xr);
  double d = rel_diff(X, Xr, n);
  ck_assert_msg(d < 1e-8, "n = %d: differs from Hewer by %g", n, d);
  free(X);
  free(Xr);
  free(K);
  free(Acl);
  problem_free(&p);
}

START_TEST(test_care_random_4) { check_random_care(4, 11u); }
END_TEST
START_TEST(test_care_random_20) { check_random_care(20, 12u); }
END_TEST
START_TEST(test_care_random_100) { check_random_care(100, 13u); }
END_TEST
START_TEST(test_dare_random_4) { check_random_dare(4, 21u); }
END_TEST
START_TEST(test_dare_random_20) { check_random_dare(20, 22u); }
END_TEST
START_TEST(test_dare_random_100) { check_random_dare(100, 23u); }
END_TEST

/* ---- cross term ------------------------------------------------------------ */

/* With N, the solution equals that of the problem without N for
 * A - B R^-1 N' and Q - N R^-1 N'. Q is built as C'C + N R^-1 N' so that
 * the transformed weight is C'C >= 0. */
static void check_cross_term(int discrete, int n, unsigned seed) {
  int m = n / 2 > 0 ? n / 2 : 1;
  problem p = problem_random(seed, n, m, discrete);
  double *N = mat_new(n, m), *RiNt = mat_new(m, n), *Ab = mat_new(n, n), *Qb = mat_new(n, n);
  double *Qn = mat_new(n, n), *L = mat_new(m, m), *X = mat_new(n, n), *Xb = mat_new(n, n);
  double *K = mat_new(m, n), *Kb = mat_new(m, n), *Acl = mat_new(n, n);
  unsigned s = seed * 7u + 1u;
  mat_random(&s, N, n, m, -0.5, 0.5);
  memcpy(L, p.R, sizeof(double) * (size_t)m * m);
  ck_assert_int_eq(teal_cholesky_factor(L, m, NULL), TEAL_OK);
  transpose(N, n, m, RiNt);
  ck_assert_int_eq(teal_cholesky_solve(L, m, RiNt, n, NULL), TEAL_OK);
  mul(0, 0, n, n, m, N, RiNt, Qn); /* N R^-1 N' */
  memcpy(Qb, p.Q, sizeof(double) * (size_t)n * n);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++) {
      double v = p.Q[i * n + j] + 0.5 * (Qn[i * n + j] + Qn[j * n + i]);
      p.Q[i * n + j] = p.Q[j * n + i] = v; /* Q = C'C + N R^-1 N' */
    }
  }
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++) {
      double v = p.Q[i * n + j] - 0.5 * (Qn[i * n + j] + Qn[j * n + i]);
      Qb[i * n + j] = Qb[j * n + i] = v;
    }
  }
  memcpy(Ab, p.A, sizeof(double) * (size_t)n * n);
  ck_assert_int_eq(teal_gemm(0, 0, n, n, m, -1.0, p.B, RiNt, 1.0, Ab, NULL), TEAL_OK);
  double res = -1.0, resb = -1.0;
  teal_error err;
  teal_error_clear(&err);
  int (*solve)(const double *, const double *, const double *, const double *, const double *,
               int, int, double *, double *, teal_error *) = discrete ? teal_dare : teal_care;
  ck_assert_msg(solve(p.A, p.B, p.Q, p.R, N, n, m, X, &res, &err) == TEAL_OK, "%s", err.message);
  ck_assert_msg(solve(Ab, p.B, Qb, p.R, NULL, n, m, Xb, &resb, &err) == TEAL_OK, "%s",
                err.message);
  ck_assert_msg(res < 1e-10 && resb < 1e-10, "residuals %g, %g", res, resb);
  double d = rel_diff(X, Xb, n);
  ck_assert_msg(d < 1e-9, "%s n = %d: with N vs transformed: %g", discrete ? "dare" : "care", n,
                d);
  /* Same closed loop: A - B K(N) = Abar - B Kbar. */
  if (discrete) {
    dare_gain(p.A, p.B, p.R, N, n, m, X, K);
    dare_gain(Ab, p.B, p.R, NULL, n, m, Xb, Kb);
  } else {
    care_gain(p.B, p.R, N, n, m, X, K);
    care_gain(p.B, p.R, NULL, n, m, Xb, Kb);
  }
  closed_loop(p.A, p.B, K, n, m, Acl);
  if (discrete) {
    ck_assert(spectral_radius(Acl, n) < 1.0);
  } else {
    ck_assert(max_real_eig(Acl, n) < 0.0);
  }
  for (int i = 0; i < m * n; i++) {
    ck_assert_msg(fabs(K[i] - (Kb[i] + RiNt[i])) < 1e-8 * (1.0 + fabs(K[i])), "K[%d]", i);
  }
  double r2 = discrete ? teal_dare_residual(p.A, p.B, p.Q, p.R, N, n, m, X)
                      : teal_care_residual(p.A, p.B, p.Q, p.R, N, n, m, X);
  ck_assert_msg(fabs(r2 - res) <= 1e-3 * res + 1e-300, "residual %g vs %g", r2, res);
  free(N);
  free(RiNt);
  free(Ab);
  free(Qb);
  free(Qn);
  free(L);
  free(X);
  free(Xb);
  free(K);
  free(Kb);
  free(Acl);
  problem_free(&p);
}

START_TEST(test_care_cross_term) {
  check_cross_term(0, 2, 31u);
  check_cross_term(0, 6, 32u);
  check_cross_term(0, 30, 33u);
}
END_TEST

START_TEST(test_dare_cross_term) {
  check_cross_term(1, 2, 41u);
  check_cross_term(1, 6, 42u);
  check_cross_term(1, 30, 43u);
}
END_TEST

/* ---- structure: singular A, m = 0, n = 0 ----------------------------------- */

START_TEST(test_singular_a) {
  enum { N = 3 };
  double A[N * N] = {0}, B[N * N] = {0}, Q[N * N] = {0}, R[N * N] = {0}, X[N * N], res = -1.0;
  for (int i = 0; i < N; i++) {
    B[i * N + i] = Q[i * N + i] = R[i * N + i] = 1.0;
  }
  teal_error err;
  teal_error_clear(&err);
  /* CARE: -X^2 + I = 0 -> X = I; DARE: X = Q = I. */
  ck_assert_msg(teal_care(A, B, Q, R, NULL, N, N, X, &res, &err) == TEAL_OK, "%s", err.message);
  for (int i = 0; i < N * N; i++) {
    ck_assert_double_eq_tol(X[i], i % (N + 1) == 0 ? 1.0 : 0.0, 1e-13);
  }
  ck_assert(res < 1e-13);
  ck_assert_msg(teal_dare(A, B, Q, R, NULL, N, N, X, &res, &err) == TEAL_OK, "%s", err.message);
  for (int i = 0; i < N * N; i++) {
    ck_assert_double_eq_tol(X[i], i % (N + 1) == 0 ? 1.0 : 0.0, 1e-13);
  }
  ck_assert(res < 1e-13);
  /* DARE with B = 0 and A = 0 (stable; infinite eigenvalues only). */
  double Z[N * N] = {0};
  ck_assert_msg(teal_dare(A, Z, Q, R, NULL, N, N, X, &res, &err) == TEAL_OK, "%s", err.message);
  ck_assert_double_eq_tol(X[0], 1.0, 1e-14);
}
END_TEST

/* Nilpotent (singular) A with one input: DARE against Hewer from K0 = 0,
 * CARE against the double integrator's closed form. */
START_TEST(test_singular_nilpotent_a) {
  problem p = {3, 1, mat_new(3, 3), mat_new(3, 1), mat_new(3, 3), mat_new(1, 1), mat_new(1, 3)};
  p.A[1] = p.A[5] = 1.0; /* shift matrix */
  p.B[2] = 1.0;
  p.Q[0] = p.Q[4] = p.Q[8] = 1.0;
  p.R[0] = 2.0;
  double X[9], Xh[9] = {0}, res = -1.0;
  ck_assert_int_eq(teal_dare(p.A, p.B, p.Q, p.R, NULL, 3, 1, X, &res, NULL), TEAL_OK);
  ck_assert(res < 1e-13);
  hewer(&p, Xh);
  ck_assert_msg(rel_diff(X, Xh, 3) < 1e-10, "%g", rel_diff(X, Xh, 3));
  ck_assert_int_eq(teal_care(p.A, p.B, p.Q, p.R, NULL, 3, 1, X, &res, NULL), TEAL_OK);
  ck_assert(res < 1e-13);
  problem_free(&p);
}
END_TEST

START_TEST(test_no_inputs_and_empty) {
  const double A[4] = {-1, 0, 0, -1}, Q[4] = {2, 0, 0, 2};
  const double Ad[4] = {0.5, 0, 0, 0.5}, Qd[4] = {0.75, 0, 0, 0.75};
  double X[4], res = -1.0;
  teal_error err;
  teal_error_clear(&err);
  /* m = 0: Lyapunov equations A'X + XA + Q = 0 and A'XA - X + Q = 0. */
  ck_assert_msg(teal_care(A, NULL, Q, NULL, NULL, 2, 0, X, &res, &err) == TEAL_OK, "%s",
                err.message);
  ck_assert_double_eq_tol(X[0], 1.0, 1e-14);
  ck_assert_double_eq_tol(X[1], 0.0, 1e-14);
  ck_assert_double_eq_tol(X[3], 1.0, 1e-14);
  ck_assert_msg(teal_dare(Ad, NULL, Qd, NULL, NULL, 2, 0, X, &res, &err) == TEAL_OK, "%s",
                err.message);
  ck_assert_double_eq_tol(X[0], 1.0, 1e-14);
  ck_assert_double_eq_tol(X[3], 1.0, 1e-14);
  /* n = 0 */
  res = -1.0;
  const double R[1] = {1};
  ck_assert_int_eq(teal_care(NULL, NULL, NULL, R, NULL, 0, 1, NULL, &res, &err), TEAL_OK);
  ck_assert_double_eq(res, 0.0);
  res = -1.0;
  ck_assert_int_eq(teal_dare(NULL, NULL, NULL, NULL, NULL, 0, 0, NULL, &res, &err), TEAL_OK);
  ck_assert_double_eq(res, 0.0);
  ck_assert_double_eq(teal_care_residual(NULL, NULL, NULL, NULL, NULL, 0, 0, NULL), 0.0);
}
END_TEST

/* ---- failures -------------------------------------------------------------- */

typedef int (*ric_fn)(const double *, const double *, const double *, const double *,
                      const double *, int, int, double *, double *, teal_error *);

static void expect_failure(ric_fn f, const double *A, const double *B, const double *Q,
                           const double *R, const double *N, int n, int m, int code,
                           const char *what) {
  double X[16], res = 123.0;
  for (int i = 0; i < 16; i++) {
    X[i] = 42.0;
  }
  teal_error err;
  teal_error_clear(&err);
  int rc = f(A, B, Q, R, N, n, m, n > 0 ? X : NULL, &res, &err);
  ck_assert_msg(rc == code, "%s: returned %d (%s), expected %d", what, rc, err.message, code);
  ck_assert_int_eq(err.code, code);
  ck_assert_msg(strlen(err.message) > 0, "%s: no message", what);
  ck_assert_msg(strstr(err.message, f == teal_care ? "care" : "dare") != NULL, "%s: %s", what,
                err.message);
  for (int i = 0; i < 16; i++) {
    ck_assert_msg(X[i] == 42.0, "%s: X written on failure", what);
  }
  ck_assert_double_eq(res, 123.0);
  /* err may be NULL */
  ck_assert_int_eq(f(A, B, Q, R, N, n, m, n > 0 ? X : NULL, NULL, NULL), code);
}

START_TEST(test_not_stabilizable) {
  /* the mode at +1 (resp. 2) is not reachable from u */
  const double A[4] = {1, 0, 0, -1}, Ad[4] = {2, 0, 0, 0.5}, B[2] = {0, 1}, Q[4] = {1, 0, 0, 1};
  const double R[1] = {1};
  expect_failure(teal_care, A, B, Q, R, NULL, 2, 1, TEAL_ENOCONV, "care not stabilizable");
  expect_failure(teal_dare, Ad, B, Q, R, NULL, 2, 1, TEAL_ENOCONV, "dare not stabilizable");
  teal_error err;
  double X[4];
  teal_care(A, B, Q, R, NULL, 2, 1, X, NULL, &err);
  ck_assert_msg(strstr(err.message, "no stabilizing solution") != NULL, "%s", err.message);
  /* random 6-state system with an unreachable unstable block */
  enum { N = 6, M = 2 };
  unsigned seed = 77u;
  double A6[N * N], B6[N * M], Q6[N * N] = {0}, R6[M * M] = {1, 0, 0, 1};
  mat_random(&seed, A6, N, N, -1.0, 1.0);
  mat_random(&seed, B6, N, M, -1.0, 1.0);
  for (int i = 0; i < 2; i++) { /* states 0, 1 evolve on their own: A6(0:1, 2:5) = 0 */
    for (int j = 2; j < N; j++) {
      A6[i * N + j] = 0.0;
    }
    B6[i * M] = B6[i * M + 1] = 0.0;
  }
  A6[0] = 1.5, A6[1] = 0.3, A6[N] = -0.3, A6[N + 1] = 1.5; /* eigenvalues 1.5 +- 0.3i */
  for (int i = 0; i < N; i++) {
    Q6[i * N + i] = 1.0;
  }
  expect_failure(teal_care, A6, B6, Q6, R6, NULL, N, M, TEAL_ENOCONV, "care 6-state");
  expect_failure(teal_dare, A6, B6, Q6, R6, NULL, N, M, TEAL_ENOCONV, "dare 6-state");
}
END_TEST

START_TEST(test_boundary_eigenvalues) {
  /* CARE: an integrator neither controllable nor observed: eigenvalue 0
   * twice; the oscillator likewise with +-i. DARE: a unit pole likewise. */
  const double zero[1] = {0}, one[1] = {1}, mone[1] = {-1};
  expect_failure(teal_care, zero, zero, zero, one, NULL, 1, 1, TEAL_ENOCONV, "care integrator");
  expect_failure(teal_dare, one, zero, zero, one, NULL, 1, 1, TEAL_ENOCONV, "dare unit pole");
  expect_failure(teal_dare, mone, zero, zero, one, NULL, 1, 1, TEAL_ENOCONV, "dare pole -1");
  const double A[4] = {0, 1, -1, 0}, B[2] = {0, 0}, Q[4] = {0};
  expect_failure(teal_care, A, B, Q, one, NULL, 2, 1, TEAL_ENOCONV, "care oscillator");
  expect_failure(teal_dare, A, B, Q, one, NULL, 2, 1, TEAL_ENOCONV, "dare rotation");
  /* controllable but not detectable (Q = 0) with poles on the boundary */
  expect_failure(teal_care, zero, one, zero, one, NULL, 1, 1, TEAL_ENOCONV, "care Q = 0");
  expect_failure(teal_dare, one, one, zero, one, NULL, 1, 1, TEAL_ENOCONV, "dare Q = 0");
  const double Bc[2] = {0, 1};
  expect_failure(teal_care, A, Bc, Q, one, NULL, 2, 1, TEAL_ENOCONV, "care oscillator Q = 0");
}
END_TEST

START_TEST(test_r_not_positive_definite) {
  const double A[4] = {0, 1, 0, 0}, B[4] = {0, 0, 1, 1}, Q[4] = {1, 0, 0, 1};
  const double Rind[4] = {1, 2, 2, 1}, Rzero[4] = {0}, Rneg[4] = {-1, 0, 0, 1};
  ric_fn fns[2] = {teal_care, teal_dare};
  for (int f = 0; f < 2; f++) {
    expect_failure(fns[f], A, B, Q, Rind, NULL, 2, 2, TEAL_ESINGULAR, "indefinite R");
    expect_failure(fns[f], A, B, Q, Rzero, NULL, 2, 2, TEAL_ESINGULAR, "zero R");
    expect_failure(fns[f], A, B, Q, Rneg, NULL, 2, 2, TEAL_ESINGULAR, "negative R");
  }
}
END_TEST

START_TEST(test_non_finite) {
  const double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, Q[4] = {1, 0, 0, 1}, R[1] = {1};
  const double N[2] = {0, 0};
  const double *base[5] = {A, B, Q, R, N};
  const int count[5] = {4, 2, 4, 1, 2};
  const double bad[2] = {NAN, INFINITY};
  ric_fn fns[2] = {teal_care, teal_dare};
  for (int f = 0; f < 2; f++) {
    for (int which = 0; which < 5; which++) {
      for (int b = 0; b < 2; b++) {
        double M[5][4];
        const double *args[5];
        for (int k = 0; k < 5; k++) {
          memcpy(M[k], base[k], sizeof(double) * (size_t)count[k]);
          args[k] = M[k];
        }
        M[which][count[which] - 1] = bad[b];
        expect_failure(fns[f], args[0], args[1], args[2], args[3], args[4], 2, 1,
                       TEAL_ENONFINITE, "non-finite entry");
      }
    }
  }
}
END_TEST

START_TEST(test_non_symmetric) {
  const double A[4] = {0, 1, 0, 0}, B[4] = {0, 0, 1, 1}, Q[4] = {1, 0, 0, 1};
  const double Qbad[4] = {1, 0.5, 0, 1}, R[4] = {1, 0, 0, 1}, Rbad[4] = {2, 0.1, 0, 2};
  ric_fn fns[2] = {teal_care, teal_dare};
  for (int f = 0; f < 2; f++) {
    expect_failure(fns[f], A, B, Qbad, R, NULL, 2, 2, TEAL_EINVAL, "non-symmetric Q");
    expect_failure(fns[f], A, B, Q, Rbad, NULL, 2, 2, TEAL_EINVAL, "non-symmetric R");
  }
  /* tiny asymmetry (rounding) is accepted */
  double Qt[4] = {1, 1e-15, 0, 1}, X[4];
  ck_assert_int_eq(teal_care(A, B, Qt, R, NULL, 2, 2, X, NULL, NULL), TEAL_OK);
}
END_TEST

START_TEST(test_bad_sizes_and_pointers) {
  const double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, Q[4] = {1, 0, 0, 1}, R[1] = {1};
  ric_fn fns[2] = {teal_care, teal_dare};
  for (int f = 0; f < 2; f++) {
    expect_failure(fns[f], A, B, Q, R, NULL, -1, 1, TEAL_ESIZE, "n < 0");
    expect_failure(fns[f], A, B, Q, R, NULL, 2, -1, TEAL_ESIZE, "m < 0");
    expect_failure(fns[f], A, B, Q, R, NULL, 1 << 20, 1, TEAL_ESIZE, "huge n");
    expect_failure(fns[f], NULL, B, Q, R, NULL, 2, 1, TEAL_EINVAL, "A NULL");
    expect_failure(fns[f], A, NULL, Q, R, NULL, 2, 1, TEAL_EINVAL, "B NULL");
    expect_failure(fns[f], A, B, NULL, R, NULL, 2, 1, TEAL_EINVAL, "Q NULL");
    expect_failure(fns[f], A, B, Q, NULL, NULL, 2, 1, TEAL_EINVAL, "R NULL");
    teal_error err;
    teal_error_clear(&err);
    ck_assert_int_eq(fns[f](A, B, Q, R, NULL, 2, 1, NULL, NULL, &err), TEAL_EINVAL);
    ck_assert_str_ne(err.message, "");
  }
}
END_TEST

/* Every allocation failure (one at a time) gives TEAL_ENOMEM or, when it
 * only hits the optional refinement's scratch, success; nothing leaks. */
START_TEST(test_allocation_failures) {
  problem p = problem_random(5u, 6, 3, 0);
  problem pd = problem_random(6u, 6, 3, 1);
  double X[36], Xref[36];
  ric_fn fns[2] = {teal_care, teal_dare};
  const problem *ps[2] = {&p, &pd};
  for (int f = 0; f < 2; f++) {
    const problem *q = ps[f];
    ck_assert_int_eq(fns[f](q->A, q->B, q->Q, q->R, NULL, 6, 3, Xref, NULL, NULL), TEAL_OK);
    ts_alloc_install();
    int succeeded = 0;
    for (long k = 0; k < 200 && !succeeded; k++) {
      ts_alloc_reset();
      ts_alloc_fail_after(k, 0);
      teal_error err;
      teal_error_clear(&err);
      int rc = fns[f](q->A, q->B, q->Q, q->R, NULL, 6, 3, X, NULL, &err);
      ck_assert_msg(rc == TEAL_OK || rc == TEAL_ENOMEM, "k = %ld: %d (%s)", k, rc, err.message);
      ck_assert_msg(ts_alloc_allocs() == ts_alloc_frees(), "k = %ld: %lu allocs, %lu frees", k,
                    ts_alloc_allocs(), ts_alloc_frees());
      if (rc == TEAL_ENOMEM) {
        ck_assert_str_ne(err.message, "");
      }
      succeeded = rc == TEAL_OK && ts_alloc_stats_get()->failures == 0;
      if (rc == TEAL_OK) {
        ck_assert(rel_diff(X, Xref, 6) < 1e-10);
      }
    }
    ts_alloc_uninstall();
    ck_assert(succeeded);
  }
  problem_free(&p);
  problem_free(&pd);
}
END_TEST

/* ---- scaling and refinement ------------------------------------------------ */

/* A state scaling x~ = D x by powers of two spread over 2^-13 .. 2^13
 * (D A D^-1, D B, D^-1 Q D^-1, R) must give X~ = D^-1 X D^-1 exactly up to
 * rounding of the well-scaled problem. */
static void check_badly_scaled(int discrete) {
  enum { N = 12, M = 4 };
  problem p = problem_random(discrete ? 91u : 92u, N, M, discrete);
  double As[N * N], Bs[N * M], Qs[N * N], X[N * N], Xs[N * N], d[N], res = -1.0;
  for (int i = 0; i < N; i++) {
    d[i] = ldexp(1.0, -13 + (26 * i) / (N - 1));
  }
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      As[i * N + j] = d[i] * p.A[i * N + j] / d[j];
      Qs[i * N + j] = p.Q[i * N + j] / (d[i] * d[j]);
    }
    for (int k = 0; k < M; k++) {
      Bs[i * M + k] = d[i] * p.B[i * M + k];
    }
  }
  ric_fn f = discrete ? teal_dare : teal_care;
  teal_error err;
  teal_error_clear(&err);
  ck_assert_msg(f(p.A, p.B, p.Q, p.R, NULL, N, M, X, NULL, &err) == TEAL_OK, "%s", err.message);
  ck_assert_msg(f(As, Bs, Qs, p.R, NULL, N, M, Xs, &res, &err) == TEAL_OK, "%s", err.message);
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      Xs[i * N + j] *= d[i] * d[j];
    }
  }
  double dd = rel_diff(Xs, X, N);
  ck_assert_msg(dd < 1e-10, "%s: scaled solution differs by %g", discrete ? "dare" : "care", dd);
  problem_free(&p);
}

START_TEST(test_badly_scaled) {
  check_badly_scaled(0);
  check_badly_scaled(1);
}
END_TEST

/* Ill-conditioned problems where the QZ solution alone has a residual well
 * above 1e-12 and the Newton step lowers it by orders of magnitude: the
 * CARE with R of condition number 1e12, the DARE with Q scaled by 1e8. */
static void check_refinement(int discrete) {
  enum { N = 10, M = 5 };
  problem p = problem_random(discrete ? 93u : 94u, N, M, discrete);
  if (discrete) {
    for (int i = 0; i < N * N; i++) {
      p.Q[i] *= 1e8;
    }
  } else {
    memset(p.R, 0, sizeof(double) * M * M);
    for (int k = 0; k < M; k++) {
      p.R[k * M + k] = pow(10.0, -12.0 * k / (M - 1));
    }
  }
  double X0[N * N], X[N * N], K[M * N], Acl[N * N], res = -1.0;
  teal_error err;
  teal_error_clear(&err);
  ck_assert_int_eq(teal_ric_schur_solution(discrete ? TEAL_RIC_DARE : TEAL_RIC_CARE, "test",
                                           p.A, p.B, p.Q, p.R, NULL, N, M, X0, &err),
                   TEAL_OK);
  double res0 = discrete ? teal_dare_residual(p.A, p.B, p.Q, p.R, NULL, N, M, X0)
                         : teal_care_residual(p.A, p.B, p.Q, p.R, NULL, N, M, X0);
  ric_fn f = discrete ? teal_dare : teal_care;
  ck_assert_msg(f(p.A, p.B, p.Q, p.R, NULL, N, M, X, &res, &err) == TEAL_OK, "%s", err.message);
  ck_assert_msg(res0 > TEAL_RIC_REFINE_ABOVE, "QZ residual %g needs no refinement", res0);
  ck_assert_msg(res < 1e-2 * res0 && res < 1e-8, "%s: residual %g after refinement, %g before",
                discrete ? "dare" : "care", res, res0);
  if (discrete) {
    dare_gain(p.A, p.B, p.R, NULL, N, M, X, K);
    closed_loop(p.A, p.B, K, N, M, Acl);
    ck_assert(spectral_radius(Acl, N) < 1.0);
  } else {
    care_gain(p.B, p.R, NULL, N, M, X, K);
    closed_loop(p.A, p.B, K, N, M, Acl);
    ck_assert(max_real_eig(Acl, N) < 0.0);
  }
  problem_free(&p);
}

START_TEST(test_newton_refinement_helps) {
  check_refinement(0);
  check_refinement(1);
}
END_TEST

/* ---- residual functions ---------------------------------------------------- */

START_TEST(test_residual_functions) {
  const double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, Q[4] = {1, 0, 0, 1}, R[1] = {1};
  const double Rbad[1] = {-1}, s3 = sqrt(3.0);
  const double X[4] = {s3, 1, 1, s3}, Z[4] = {0};
  ck_assert(teal_care_residual(A, B, Q, R, NULL, 2, 1, X) < 1e-15);
  /* at X = 0 both left-hand sides are Q: ||Q||_F / max(1, 0) */
  ck_assert_double_eq_tol(teal_care_residual(A, B, Q, R, NULL, 2, 1, Z), sqrt(2.0), 1e-15);
  ck_assert_double_eq_tol(teal_dare_residual(A, B, Q, R, NULL, 2, 1, Z), sqrt(2.0), 1e-15);
  /* scaled by ||X||_F when larger than 1: at X = 10 I the CARE lhs is
   * [[1 - 0, 10], [10, 1 + 20 - 100]] ... computed directly */
  const double X10[4] = {10, 0, 0, 10};
  double F[4] = {1.0, 10.0, 10.0, 1.0 - 100.0};
  double nf = sqrt(F[0] * F[0] + F[1] * F[1] + F[2] * F[2] + F[3] * F[3]);
  ck_assert_double_eq_tol(teal_care_residual(A, B, Q, R, NULL, 2, 1, X10), nf / sqrt(200.0),
                          1e-14);
  /* invalid arguments: NaN */
  ck_assert(isnan(teal_care_residual(NULL, B, Q, R, NULL, 2, 1, X)));
  ck_assert(isnan(teal_dare_residual(A, B, Q, R, NULL, -1, 1, X)));
  ck_assert(isnan(teal_care_residual(A, B, Q, Rbad, NULL, 2, 1, X)));
  ck_assert(isnan(teal_dare_residual(A, NULL, Q, R, NULL, 2, 1, X)));
}
END_TEST

static Suite *riccati_suite(void) {
  Suite *s = suite_create("riccati");
  TCase *tc = tcase_create("closed_forms");
  tcase_add_test(tc, test_care_double_integrator);
  tcase_add_test(tc, test_care_scalar_closed_form);
  tcase_add_test(tc, test_dare_scalar_closed_form);
  tcase_add_test(tc, test_dare_discrete_double_integrator);
  tcase_add_test(tc, test_dare_sampled_double_integrator);
  suite_add_tcase(s, tc);

  tc = tcase_create("random");
  tcase_set_timeout(tc, 240);
  tcase_add_test(tc, test_care_random_4);
  tcase_add_test(tc, test_care_random_20);
  tcase_add_test(tc, test_care_random_100);
  tcase_add_test(tc, test_dare_random_4);
  tcase_add_test(tc, test_dare_random_20);
  tcase_add_test(tc, test_dare_random_100);
  suite_add_tcase(s, tc);

  tc = tcase_create("structure");
  tcase_add_test(tc, test_care_cross_term);
  tcase_add_test(tc, test_dare_cross_term);
  tcase_add_test(tc, test_singular_a);
  tcase_add_test(tc, test_singular_nilpotent_a);
  tcase_add_test(tc, test_no_inputs_and_empty);
  suite_add_tcase(s, tc);

  tc = tcase_create("scaling");
  tcase_add_test(tc, test_badly_scaled);
  tcase_add_test(tc, test_newton_refinement_helps);
  suite_add_tcase(s, tc);

  tc = tcase_create("failures");
  tcase_add_test(tc, test_not_stabilizable);
  tcase_add_test(tc, test_boundary_eigenvalues);
  tcase_add_test(tc, test_r_not_positive_definite);
  tcase_add_test(tc, test_non_finite);
  tcase_add_test(tc, test_non_symmetric);
  tcase_add_test(tc, test_bad_sizes_and_pointers);
  tcase_add_test(tc, test_allocation_failures);
  suite_add_tcase(s, tc);

  tc = tcase_create("residual");
  tcase_add_test(tc, test_residual_functions);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(riccati_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
