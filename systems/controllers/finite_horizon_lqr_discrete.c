/* Finite-horizon LQR of a discrete plant: the Riccati difference equations
 * run from S[N] = Qf, sx[N] = 0, s0[N] = 0 down to k = 0, one linearization
 * per period. */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense_basic.h"
#include "solvers/dense_factor.h"
#include "systems/controllers/finite_horizon_lqr_internal.h"

#define FH "finite_horizon_lqr"

/* One step back from S1 = S[k+1] at t_k: K (m x n) = K[k], S0 = S[k].
 * With P = A'S1B + N and F = R + B'S1B: K = F^-1 P', S0 = Q + A'S1A - P K.
 * Leaves S1 B in p->SB. */
static int quadratic_step(fhlqr_problem *p, const double *S1, double t, double *K, double *S0) {
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

/* The affine terms of the same step (after quadratic_step): with
 * v = S1 c + sx1 and w = B'v, k0 = F^-1 w, sx0 = A'v - K'w and
 * s00 = s01 + c'S1 c + 2 c'sx1 - k0'F k0 = s01 + c'v + c'sx1 - k0'w. */
static void affine_step(fhlqr_problem *p, const double *S1, const double *sx1, double s01,
                        const double *K, double *k0, double *sx0, double *s00) {
  int n = p->n, m = p->m;
  teal_dense_gemm(0, 0, n, 1, n, 1.0, S1, p->c, 0.0, p->v, NULL);
  double cv = 0.0;
  for (int i = 0; i < n; i++) {
    p->v[i] += sx1[i];
    cv += p->c[i] * (p->v[i] + sx1[i]);
  }
  teal_dense_gemm(1, 0, m, 1, n, 1.0, p->B, p->v, 0.0, p->w, NULL); /* B'v */
  memcpy(p->Fm, p->R, (size_t)m * (size_t)m * sizeof(double));
  teal_dense_gemm(1, 0, m, m, n, 1.0, p->B, p->SB, 1.0, p->Fm, NULL); /* F, SPD as before */
  memcpy(k0, p->w, (size_t)m * sizeof(double));
  teal_dense_spd_solve_transposed(p->Fm, m, k0, 1, NULL);
  teal_dense_gemm(1, 0, n, 1, n, 1.0, p->A, p->v, 0.0, sx0, NULL); /* A'v */
  teal_dense_gemm(1, 0, n, 1, m, -1.0, K, p->w, 1.0, sx0, NULL);   /* - K'w */
  double kw = 0.0;
  for (int i = 0; i < m; i++) {
    kw += k0[i] * p->w[i];
  }
  *s00 = s01 + cv - kw;
}

/* Samples at t_0 .. t_N: S, sx, s0 of the cost-to-go, and the gains K, k0
 * (sample N repeats N - 1, marking the end of the hold). */
typedef struct samples {
  double *breaks, *S, *sx, *s0, *K, *k0;
} samples;

static int recursion(fhlqr_problem *p, int steps, samples *z) {
  size_t n = (size_t)p->n, m = (size_t)p->m;
  if (p->Qf) {
    memcpy(z->S + (size_t)steps * n * n, p->Qf, n * n * sizeof(double));
  }
  int rc = TEAL_OK;
  for (int k = steps - 1; k >= 0 && rc == TEAL_OK; k--) {
    size_t j = (size_t)k, j1 = j + 1;
    rc = fhlqr_linearize(p, z->breaks[k]);
    rc =
        rc ? rc
           : quadratic_step(p, z->S + j1 * n * n, z->breaks[k], z->K + j * m * n, z->S + j * n * n);
    if (rc == TEAL_OK) {
      affine_step(p, z->S + j1 * n * n, z->sx + j1 * n, z->s0[j1], z->K + j * m * n, z->k0 + j * m,
                  z->sx + j * n, z->s0 + j);
    }
  }
  memcpy(z->K + (size_t)steps * m * n, z->K + (size_t)(steps - 1) * m * n, m * n * sizeof(double));
  memcpy(z->k0 + (size_t)steps * m, z->k0 + (size_t)(steps - 1) * m, m * sizeof(double));
  return rc;
}

static teal_piecewise_polynomial *hold(const fhlqr_problem *p, const samples *z, int nb,
                                       const double *v, int rows, int linear) {
  return linear ? teal_piecewise_polynomial_first_order_hold(z->breaks, v, nb, rows, p->err)
                : teal_piecewise_polynomial_zero_order_hold(z->breaks, v, nb, rows, p->err);
}

int fhlqr_solve_discrete(fhlqr_problem *p, teal_finite_horizon_lqr_result *r) {
  int steps = (int)round((p->tf - p->t0) / p->period), n = p->n, m = p->m;
  size_t nb = (size_t)steps + 1;
  double *work = teal_calloc(nb * (size_t)(2 + n * n + n + m * n + m), sizeof(double));
  if (!work) {
    return teal_error_set(p->err, TEAL_ENOMEM, FH ": out of memory");
  }
  samples z = {.breaks = work, .s0 = work + nb};
  z.S = z.s0 + nb;
  z.sx = z.S + nb * (size_t)(n * n);
  z.K = z.sx + nb * (size_t)n;
  z.k0 = z.K + nb * (size_t)(m * n);
  for (int k = 0; k < steps; k++) {
    z.breaks[k] = p->t0 + k * p->period;
  }
  z.breaks[steps] = p->tf;
  int rc = recursion(p, steps, &z);
  if (rc == TEAL_OK &&
      (!(r->S = hold(p, &z, (int)nb, z.S, n * n, 1)) ||
       !(r->sx = hold(p, &z, (int)nb, z.sx, n, 1)) || !(r->s0 = hold(p, &z, (int)nb, z.s0, 1, 1)) ||
       !(r->K = hold(p, &z, (int)nb, z.K, m * n, 0)) ||
       !(r->k0 = hold(p, &z, (int)nb, z.k0, m, 0)))) {
    rc = p->err ? p->err->code : TEAL_ENOMEM;
  }
  teal_free(work);
  return rc;
}
