/* Finite-horizon LQR of a discrete plant: the Riccati difference equation
 * run from S[N] = Qf down to S[0], one linearization per period. */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense_basic.h"
#include "solvers/dense_factor.h"
#include "systems/controllers/finite_horizon_lqr_internal.h"

#define FH "finite_horizon_lqr"

/* One step back from S1 = S[k+1] at t_k: K (m x n) = K[k], S0 = S[k].
 * With P = A'S1B + N and F = R + B'S1B: K = F^-1 P', S0 = Q + A'S1A - P K. */
static int riccati_step(fhlqr_problem *p, const double *S1, double t, double *K, double *S0) {
  int n = p->n, m = p->m;
  const double *A = p->A, *B = p->B;
  teal_dense_gemm(0, 0, n, n, n, 1.0, S1, A, 0.0, p->SA, NULL); /* S1 A */
  teal_dense_gemm(0, 0, n, m, n, 1.0, S1, B, 0.0, p->SB, NULL); /* S1 B */
  memcpy(p->Fm, p->R, (size_t)m * (size_t)m * sizeof(double));
  teal_dense_gemm(1, 0, m, m, n, 1.0, B, p->SB, 1.0, p->Fm, NULL); /* R + B'S1B */
  teal_dense_gemm(1, 0, n, m, n, 1.0, A, p->SB, 0.0, p->P, NULL);  /* A'S1B */
  for (size_t i = 0; p->N && i < (size_t)n * m; i++) {
    p->P[i] += p->N[i];
  }
  memcpy(p->Kt, p->P, (size_t)n * (size_t)m * sizeof(double));
  if (teal_dense_spd_solve_transposed(p->Fm, m, p->Kt, n, NULL) != TEAL_OK) { /* Kt = P F^-1 */
    return teal_error_set(p->err, TEAL_ESINGULAR,
                          FH ": R + B'SB is not positive definite at t = %g", t);
  }
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < n; j++) {
      K[i * n + j] = p->Kt[j * m + i];
    }
  }
  memcpy(S0, p->Q, (size_t)n * (size_t)n * sizeof(double));
  teal_dense_gemm(1, 0, n, n, n, 1.0, A, p->SA, 1.0, S0, NULL); /* + A'S1A */
  teal_dense_gemm(0, 0, n, n, m, -1.0, p->P, K, 1.0, S0, NULL); /* - P K */
  for (int i = 0; i < n; i++) {                                 /* keep S exactly symmetric */
    for (int j = 0; j < i; j++) {
      double s = 0.5 * (S0[i * n + j] + S0[j * n + i]);
      S0[i * n + j] = S0[j * n + i] = s;
    }
  }
  if (!teal_dense_all_finite(S0, n, n)) {
    return teal_error_set(p->err, TEAL_ENONFINITE, FH ": S diverged at t = %g", t);
  }
  return TEAL_OK;
}

/* The recursion into S (N+1 samples) and K (N+1 samples, the last a copy
 * of K[N-1] marking the end of the hold). */
static int recursion(fhlqr_problem *p, int steps, const double *breaks, double *S, double *K) {
  size_t nn = (size_t)p->n * (size_t)p->n, mn = (size_t)p->m * (size_t)p->n;
  if (p->Qf) {
    memcpy(S + (size_t)steps * nn, p->Qf, nn * sizeof(double));
  }
  int rc = TEAL_OK;
  for (int k = steps - 1; k >= 0 && rc == TEAL_OK; k--) {
    rc = fhlqr_linearize(p, breaks[k]);
    rc = rc ? rc : riccati_step(p, S + (size_t)(k + 1) * nn, breaks[k], K + k * mn, S + k * nn);
  }
  memcpy(K + (size_t)steps * mn, K + (size_t)(steps - 1) * mn, mn * sizeof(double));
  return rc;
}

int fhlqr_solve_discrete(fhlqr_problem *p, teal_finite_horizon_lqr_result *r) {
  int steps = (int)round((p->tf - p->t0) / p->period);
  size_t nn = (size_t)p->n * (size_t)p->n, mn = (size_t)p->m * (size_t)p->n;
  size_t nb = (size_t)steps + 1;
  double *work = teal_calloc(nb * (1 + nn + mn), sizeof(double));
  if (!work) {
    return teal_error_set(p->err, TEAL_ENOMEM, FH ": out of memory");
  }
  double *breaks = work, *S = work + nb, *K = S + nb * nn;
  for (int k = 0; k < steps; k++) {
    breaks[k] = p->t0 + k * p->period;
  }
  breaks[steps] = p->tf;
  int rc = recursion(p, steps, breaks, S, K);
  if (rc == TEAL_OK) {
    r->S = teal_piecewise_polynomial_first_order_hold(breaks, S, (int)nb, (int)nn, p->err);
    r->K = teal_piecewise_polynomial_zero_order_hold(breaks, K, (int)nb, (int)mn, p->err);
    rc = r->S && r->K ? TEAL_OK : (p->err ? p->err->code : TEAL_ENOMEM);
  }
  teal_free(work);
  return rc;
}
