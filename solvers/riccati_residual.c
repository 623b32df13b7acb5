/* Riccati residuals: the left-hand sides of the CARE and the DARE at a
 * candidate X with the corresponding gains (used by the Newton refinement)
 * and the public relative residuals ||lhs||_F / max(1, ||X||_F). */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense_basic.h"
#include "solvers/dense_factor.h"
#include "solvers/riccati_residual.h"
#include "solvers/riccati_internal.h"

double teal_ric_relative(const double *F, const double *X, int n) {
  return teal_dense_norm_fro(F, n, n) / fmax(1.0, teal_dense_norm_fro(X, n, n));
}

/* P = N (n x m) or zero; G = N' (m x n) or zero. */
static void cross_terms(const double *N, int n, int m, double *P, double *G) {
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < m; k++) {
      double v = N ? N[(size_t)i * m + k] : 0.0;
      P[(size_t)i * m + k] = v;
      G[(size_t)k * n + i] = v;
    }
  }
}

int teal_ric_care_lhs(const double *A, const double *B, const double *Q, const double *Rchol,
                      const double *N, int n, int m, const double *X, double *F, double *K,
                      teal_error *err) {
  size_t nm = (size_t)n * m;
  double *work = teal_alloc(sizeof(double) * (K ? nm : 2 * nm));
  if (!work) {
    return teal_error_set(err, TEAL_ENOMEM, "care residual: out of memory");
  }
  double *P = work, *G = K ? K : work + nm;
  int rc;
  memcpy(F, Q, sizeof(double) * (size_t)n * n);
  /* F = Q + A'X + XA */
  if ((rc = teal_dense_gemm(1, 0, n, n, n, 1.0, A, X, 1.0, F, err)) ||
      (rc = teal_dense_gemm(0, 0, n, n, n, 1.0, X, A, 1.0, F, err))) {
    goto done;
  }
  if (m > 0) {
    /* P = XB + N, G = R^-1 (B'X + N'), F -= P G */
    cross_terms(N, n, m, P, G);
    if ((rc = teal_dense_gemm(0, 0, n, m, n, 1.0, X, B, 1.0, P, err)) ||
        (rc = teal_dense_gemm(1, 0, m, n, n, 1.0, B, X, 1.0, G, err)) ||
        (rc = teal_dense_cholesky_solve(Rchol, m, G, n, err)) ||
        (rc = teal_dense_gemm(0, 0, n, n, m, -1.0, P, G, 1.0, F, err))) {
      goto done;
    }
  }
done:
  teal_free(work);
  return rc;
}

int teal_ric_dare_lhs(const double *A, const double *B, const double *Q, const double *R,
                      const double *N, int n, int m, const double *X, double *F, double *K,
                      teal_error *err) {
  size_t nn = (size_t)n * n, nm = (size_t)n * m, mm = (size_t)m * m;
  double *work = teal_alloc(sizeof(double) * (nn + 2 * nm + mm + (K ? 0 : nm)));
  if (!work) {
    return teal_error_set(err, TEAL_ENOMEM, "dare residual: out of memory");
  }
  double *XA = work, *XB = XA + nn, *P = XB + nm, *S = P + nm, *G = K ? K : S + mm;
  int rc;
  /* F = Q - X + A'(XA) */
  for (size_t i = 0; i < nn; i++) {
    F[i] = Q[i] - X[i];
  }
  if ((rc = teal_dense_gemm(0, 0, n, n, n, 1.0, X, A, 0.0, XA, err)) ||
      (rc = teal_dense_gemm(1, 0, n, n, n, 1.0, A, XA, 1.0, F, err))) {
    goto done;
  }
  if (m > 0) {
    /* P = A'XB + N, G = (R + B'XB)^-1 (B'XA + N'), F -= P G */
    cross_terms(N, n, m, P, G);
    memcpy(S, R, sizeof(double) * mm);
    if ((rc = teal_dense_gemm(0, 0, n, m, n, 1.0, X, B, 0.0, XB, err)) ||
        (rc = teal_dense_gemm(1, 0, n, m, n, 1.0, A, XB, 1.0, P, err)) ||
        (rc = teal_dense_gemm(1, 0, m, n, n, 1.0, B, XA, 1.0, G, err)) ||
        (rc = teal_dense_gemm(1, 0, m, m, n, 1.0, B, XB, 1.0, S, err)) ||
        (rc = teal_dense_solve(S, m, G, n, err)) ||
        (rc = teal_dense_gemm(0, 0, n, n, m, -1.0, P, G, 1.0, F, err))) {
      goto done;
    }
  }
done:
  teal_free(work);
  return rc;
}

/* Shared checks of the public residual functions: nonzero when usable. */
static int residual_args_ok(const double *A, const double *B, const double *Q, const double *R,
                            int n, int m, const double *X) {
  if (n < 0 || m < 0) {
    return 0;
  }
  if (n > 0 && (!A || !Q || !X)) {
    return 0;
  }
  return !(m > 0 && (!R || (n > 0 && !B)));
}

double teal_care_residual(const double *A, const double *B, const double *Q, const double *R,
                          const double *N, int n, int m, const double *X) {
  if (!residual_args_ok(A, B, Q, R, n, m, X)) {
    return NAN;
  }
  if (n == 0) {
    return 0.0;
  }
  size_t nn = (size_t)n * n, mm = (size_t)m * m;
  double *work = teal_alloc(sizeof(double) * (nn + mm));
  if (!work) {
    return NAN;
  }
  double *F = work, *Rc = F + nn, res = NAN;
  if (m > 0) {
    memcpy(Rc, R, sizeof(double) * mm);
  }
  if ((m == 0 || teal_dense_cholesky_factor(Rc, m, NULL) == TEAL_OK) &&
      teal_ric_care_lhs(A, B, Q, Rc, N, n, m, X, F, NULL, NULL) == TEAL_OK) {
    res = teal_ric_relative(F, X, n);
  }
  teal_free(work);
  return res;
}

double teal_dare_residual(const double *A, const double *B, const double *Q, const double *R,
                          const double *N, int n, int m, const double *X) {
  if (!residual_args_ok(A, B, Q, R, n, m, X)) {
    return NAN;
  }
  if (n == 0) {
    return 0.0;
  }
  double *F = teal_alloc(sizeof(double) * (size_t)n * n), res = NAN;
  if (!F) {
    return NAN;
  }
  if (teal_ric_dare_lhs(A, B, Q, R, N, n, m, X, F, NULL, NULL) == TEAL_OK) {
    res = teal_ric_relative(F, X, n);
  }
  teal_free(F);
  return res;
}
