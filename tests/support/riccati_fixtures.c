/* The fixtures declared in support/riccati_fixtures.h. */
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
#include "support/riccati_fixtures.h"
#include "support/test_support.h"

/* ---- small matrix helpers ------------------------------------------------- */

double *ts_ric_mat_new(int r, int c) {
  double *p = calloc((size_t)(r > 0 ? r : 1) * (size_t)(c > 0 ? c : 1), sizeof(double));
  ck_assert_ptr_nonnull(p);
  return p;
}

void ts_ric_mat_random(unsigned *seed, double *M, int r, int c, double lo, double hi) {
  for (int i = 0; i < r * c; i++) {
    M[i] = ts_rand_uniform(seed, lo, hi);
  }
}

/* C = op(A) op(B) (overwrites C). */
void ts_ric_mul(int ta, int tb, int m, int n, int k, const double *A, const double *B, double *C) {
  ck_assert_int_eq(teal_dense_gemm(ta, tb, m, n, k, 1.0, A, B, 0.0, C, NULL), TEAL_OK);
}

void ts_ric_transpose(const double *A, int r, int c, double *T) {
  for (int i = 0; i < r; i++) {
    for (int j = 0; j < c; j++) {
      T[(size_t)j * r + i] = A[(size_t)i * c + j];
    }
  }
}

double ts_ric_rel_diff(const double *X, const double *Y, int n) {
  double d = 0.0, y = 0.0;
  for (int i = 0; i < n * n; i++) {
    d += (X[i] - Y[i]) * (X[i] - Y[i]);
    y += Y[i] * Y[i];
  }
  return sqrt(d) / fmax(1.0, sqrt(y));
}

double ts_ric_max_real_eig(const double *A, int n) {
  double *wr = ts_ric_mat_new(n, 1), *wi = ts_ric_mat_new(n, 1), mx = -INFINITY;
  ck_assert_int_eq(teal_dense_eigenvalues(A, n, wr, wi, NULL), TEAL_OK);
  for (int i = 0; i < n; i++) {
    mx = fmax(mx, wr[i]);
  }
  free(wr);
  free(wi);
  return mx;
}

double ts_ric_spectral_radius(const double *A, int n) {
  double *wr = ts_ric_mat_new(n, 1), *wi = ts_ric_mat_new(n, 1), mx = 0.0;
  ck_assert_int_eq(teal_dense_eigenvalues(A, n, wr, wi, NULL), TEAL_OK);
  for (int i = 0; i < n; i++) {
    mx = fmax(mx, hypot(wr[i], wi[i]));
  }
  free(wr);
  free(wi);
  return mx;
}

/* CARE gain K = R^-1 (B'X + N') (m x n). */
void ts_ric_care_gain(const double *B, const double *R, const double *N, int n, int m,
                      const double *X, double *K) {
  double *L = ts_ric_mat_new(m, m);
  memcpy(L, R, sizeof(double) * (size_t)m * m);
  ck_assert_int_eq(teal_dense_cholesky_factor(L, m, NULL), TEAL_OK);
  ts_ric_mul(1, 0, m, n, n, B, X, K);
  if (N) {
    for (int k = 0; k < m; k++) {
      for (int j = 0; j < n; j++) {
        K[k * n + j] += N[j * m + k];
      }
    }
  }
  ck_assert_int_eq(teal_dense_cholesky_solve(L, m, K, n, NULL), TEAL_OK);
  free(L);
}

/* DARE gain K = (R + B'XB)^-1 (B'XA + N') (m x n). */
void ts_ric_dare_gain(const double *A, const double *B, const double *R, const double *N, int n,
                      int m, const double *X, double *K) {
  double *XB = ts_ric_mat_new(n, m), *XA = ts_ric_mat_new(n, n), *S = ts_ric_mat_new(m, m);
  ts_ric_mul(0, 0, n, m, n, X, B, XB);
  ts_ric_mul(0, 0, n, n, n, X, A, XA);
  ts_ric_mul(1, 0, m, m, n, B, XB, S);
  for (int i = 0; i < m * m; i++) {
    S[i] += R[i];
  }
  ts_ric_mul(1, 0, m, n, n, B, XA, K);
  if (N) {
    for (int k = 0; k < m; k++) {
      for (int j = 0; j < n; j++) {
        K[k * n + j] += N[j * m + k];
      }
    }
  }
  ck_assert_int_eq(teal_dense_solve(S, m, K, n, NULL), TEAL_OK);
  free(XB);
  free(XA);
  free(S);
}

/* Acl = A - B K */
void ts_ric_closed_loop(const double *A, const double *B, const double *K, int n, int m,
                        double *Acl) {
  memcpy(Acl, A, sizeof(double) * (size_t)n * n);
  if (m > 0) {
    ck_assert_int_eq(teal_dense_gemm(0, 0, n, n, m, -1.0, B, K, 1.0, Acl, NULL), TEAL_OK);
  }
}

ts_ric_problem ts_ric_problem_random(unsigned seed, int n, int m, int discrete) {
  ts_ric_problem p = {n,
                      m,
                      ts_ric_mat_new(n, n),
                      ts_ric_mat_new(n, m),
                      ts_ric_mat_new(n, n),
                      ts_ric_mat_new(m, m),
                      ts_ric_mat_new(m, n)};
  int q = n / 2 > 0 ? n / 2 : 1;
  double *G = ts_ric_mat_new(n, n), *C = ts_ric_mat_new(q, n), *D = ts_ric_mat_new(m, m);
  ts_ric_mat_random(&seed, G, n, n, -1.0, 1.0);
  ts_ric_mat_random(&seed, p.B, n, m, -1.0, 1.0);
  ts_ric_mat_random(&seed, p.K0, m, n, -1.0, 1.0);
  ts_ric_mat_random(&seed, C, q, n, -1.0, 1.0);
  ts_ric_mat_random(&seed, D, m, m, -1.0, 1.0);
  if (discrete) {
    double s = 0.9 / ts_ric_spectral_radius(G, n);
    for (int i = 0; i < n * n; i++) {
      G[i] *= s;
    }
  } else {
    double shift = ts_ric_max_real_eig(G, n) + 0.5;
    for (int i = 0; i < n; i++) {
      G[i * n + i] -= shift;
    }
  }
  ts_ric_mul(0, 0, n, n, m, p.B, p.K0, p.A);
  for (int i = 0; i < n * n; i++) {
    p.A[i] += G[i];
  }
  ts_ric_mul(1, 0, n, n, q, C, C, p.Q);
  ts_ric_mul(1, 0, m, m, m, D, D, p.R);
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

void ts_ric_problem_free(ts_ric_problem *p) {
  free(p->A);
  free(p->B);
  free(p->Q);
  free(p->R);
  free(p->K0);
}

/* Hewer: X_k solves (A - BK)'X(A - BK) - X + Q + K'RK = 0 and
 * K = (R + B'X_k B)^-1 B'X_k A. */
void ts_ric_hewer(const ts_ric_problem *p, double *X) {
  int n = p->n, m = p->m;
  double *K = ts_ric_mat_new(m, n), *Acl = ts_ric_mat_new(n, n), *At = ts_ric_mat_new(n, n),
         *W = ts_ric_mat_new(n, n);
  double *RK = ts_ric_mat_new(m, n), *Xold = ts_ric_mat_new(n, n);
  memcpy(K, p->K0, sizeof(double) * (size_t)m * n);
  int it = 0;
  for (; it < 60; it++) {
    ts_ric_closed_loop(p->A, p->B, K, n, m, Acl);
    ck_assert_msg(ts_ric_spectral_radius(Acl, n) < 1.0, "Hewer iterate %d not stabilizing", it);
    ts_ric_transpose(Acl, n, n, At);
    ts_ric_mul(0, 0, m, n, m, p->R, K, RK);
    ts_ric_mul(1, 0, n, n, m, K, RK, W);
    for (int i = 0; i < n * n; i++) {
      W[i] += p->Q[i];
    }
    memcpy(Xold, X, sizeof(double) * (size_t)n * n);
    ck_assert_int_eq(teal_lyapunov_discrete(At, W, n, X, NULL), TEAL_OK);
    ts_ric_dare_gain(p->A, p->B, p->R, NULL, n, m, X, K);
    if (it > 0 && ts_ric_rel_diff(X, Xold, n) < 1e-14) {
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
