/* LQR gains from the Riccati solvers, and LQR controllers about an
 * operating point. */
#include "systems/controllers/lqr.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense_basic.h"
#include "solvers/dense_eigen.h"
#include "solvers/dense_factor.h"
#include "solvers/riccati.h"
#include "systems/controllers/operating_point_internal.h"
#include "systems/analysis/linearize.h"
#include "systems/primitives/linear_system.h"

/* Q symmetric positive semidefinite (eigenvalues >= -tol max(1, |Q|)). */
static int check_cost_q(const double *Q, int n, teal_error *err) {
  if (!teal_dense_is_symmetric(Q, n, 1e-10)) {
    return teal_error_set(err, TEAL_EINVAL, "lqr: Q is not symmetric");
  }
  double *w = teal_calloc((size_t)n + 1, sizeof(double));
  if (!w) {
    return teal_error_set(err, TEAL_ENOMEM, "lqr: out of memory");
  }
  int rc = teal_dense_sym_eigen(Q, n, w, NULL, err);
  double tol = 1e-10 * fmax(1.0, teal_dense_norm_fro(Q, n, n));
  if (rc == TEAL_OK && n > 0 && w[0] < -tol) {
    rc = teal_error_set(err, TEAL_EINVAL, "lqr: Q is not positive semidefinite (eigenvalue %g)",
                        w[0]);
  }
  teal_free(w);
  return rc;
}

static int check_inputs(const double *A, const double *B, const double *Q, const double *R,
                        const double *N, int n, int m, teal_error *err) {
  if (n < 1 || m < 1 || !A || !B || !Q || !R) {
    return teal_error_set(err, TEAL_EINVAL, "lqr: needs n >= 1 states, m >= 1 inputs and "
                          "A, B, Q, R (n %d, m %d)", n, m);
  }
  if (!teal_dense_all_finite(A, n, n) || !teal_dense_all_finite(B, n, m) ||
      !teal_dense_all_finite(Q, n, n) || !teal_dense_all_finite(R, m, m) ||
      (N && !teal_dense_all_finite(N, n, m))) {
    return teal_error_set(err, TEAL_ENONFINITE, "lqr: A, B, Q, R and N must be finite");
  }
  if (!teal_dense_is_symmetric(R, m, 1e-10)) {
    return teal_error_set(err, TEAL_EINVAL, "lqr: R is not symmetric");
  }
  return check_cost_q(Q, n, err);
}

/* G (m x n) += N' when there is a cross term. */
static void add_cross_term(double *G, const double *N, int n, int m) {
  for (int i = 0; N && i < m; i++) {
    for (int j = 0; j < n; j++) {
      G[(size_t)i * n + j] += N[(size_t)j * m + i];
    }
  }
}

/* K = F^-1 G with continuous F = R, G = B'S + N', or discrete
 * F = R + B'SB, G = B'SA + N'; work holds n m + m m doubles. */
static int gain_from_s(const double *A, const double *B, const double *R, const double *N,
                       const double *S, int n, int m, int discrete, double *K, double *work,
                       teal_error *err) {
  double *SB = work, *F = work + (size_t)n * m;
  memcpy(F, R, (size_t)m * (size_t)m * sizeof(double));
  int rc = teal_dense_gemm(0, 0, n, m, n, 1.0, S, B, 0.0, SB, err); /* S B */
  if (rc == TEAL_OK && discrete) {
    rc = teal_dense_gemm(1, 0, m, m, n, 1.0, B, SB, 1.0, F, err);   /* R + B'SB */
  }
  if (rc == TEAL_OK && discrete) {
    rc = teal_dense_gemm(1, 0, m, n, n, 1.0, SB, A, 0.0, K, err); /* (SB)' A = B'SA */
  } else if (rc == TEAL_OK) {
    for (int i = 0; i < m; i++) { /* B'S = (SB)' since S is symmetric */
      for (int j = 0; j < n; j++) {
        K[(size_t)i * n + j] = SB[(size_t)j * m + i];
      }
    }
  }
  if (rc == TEAL_OK) {
    add_cross_term(K, N, n, m);
    rc = teal_dense_cholesky_factor(F, m, err);
    if (rc == TEAL_ESINGULAR) {
      rc = teal_error_set(err, rc, "lqr: %s is not positive definite",
                          discrete ? "R + B'SB" : "R");
    }
  }
  return rc ? rc : teal_dense_cholesky_solve(F, m, K, n, err);
}

int teal_lqr(const double *A, const double *B, const double *Q, const double *R,
             const double *N, int n, int m, int discrete, double *K, double *S,
             teal_error *err) {
  int rc = check_inputs(A, B, Q, R, N, n, m, err);
  if (rc != TEAL_OK) {
    return rc;
  }
  if (!K) {
    return teal_error_set(err, TEAL_EINVAL, "lqr: NULL K");
  }
  double *work = teal_calloc((size_t)n * n + (size_t)n * m + (size_t)m * m + 1, sizeof(double));
  if (!work) {
    return teal_error_set(err, TEAL_ENOMEM, "lqr: out of memory");
  }
  double *X = work + (size_t)n * m + (size_t)m * m;
  rc = discrete ? teal_dare(A, B, Q, R, N, n, m, X, NULL, err)
                : teal_care(A, B, Q, R, N, n, m, X, NULL, err);
  if (rc == TEAL_OK) {
    rc = gain_from_s(A, B, R, N, X, n, m, discrete, K, work, err);
  }
  if (rc == TEAL_OK && S) {
    memcpy(S, X, (size_t)n * n * sizeof(double));
  }
  teal_free(work);
  return rc;
}

static teal_system *controller(const char *name, const teal_linear_system_matrices *m,
                               const double *K, const double *point, double *work,
                               teal_error *err) {
  int n = m->nx, nu = m->nu;
  double *D = work, *y0 = work + (size_t)n * nu;
  for (int i = 0; i < nu; i++) {
    y0[i] = point[n + i];
    for (int j = 0; j < n; j++) {
      D[(size_t)i * n + j] = -K[(size_t)i * n + j];
      y0[i] += K[(size_t)i * n + j] * point[j];
    }
  }
  return teal_affine_system_new(name && *name ? name : "lqr", NULL, NULL, NULL, NULL, D, y0, 0,
                                n, nu, 0.0, err);
}

teal_system *teal_lqr_controller_new(const char *name, const teal_system *sys,
                                     const teal_context *ctx, int input_port, const double *Q,
                                     const double *R, const double *N, double *K, double *S,
                                     teal_error *err) {
  teal_linearize_options o;
  teal_linearize_options_init(&o);
  o.input_port = input_port;
  o.output_port = -1;
  teal_system *lin = teal_linearize(sys, ctx, &o, err);
  teal_linear_system_matrices m;
  if (!lin || teal_linear_system_get(lin, &m) != TEAL_OK) {
    teal_system_free(lin);
    return NULL;
  }
  size_t n = (size_t)m.nx, nu = (size_t)m.nu;
  double *work = teal_calloc(2 * n * nu + n * n + n + 2 * nu + 1, sizeof(double));
  double *gain = work, *point = work + n * nu, *riccati = point + n + nu;
  double *rest = riccati + n * n;
  teal_system *result = NULL;
  if (!work) {
    teal_error_set(err, TEAL_ENOMEM, "lqr_controller: out of memory");
  } else if (teal_lqr(m.A, m.B, Q, R, N, m.nx, m.nu, m.time_period > 0, gain, riccati, err) ==
                 TEAL_OK &&
             teal_controller_operating_point(sys, ctx, o.input_port, &m, point, "lqr_controller",
                                             err) == TEAL_OK) {
    result = controller(name, &m, gain, point, rest, err);
    if (result && K) {
      memcpy(K, gain, n * nu * sizeof(double));
    }
    if (result && S) {
      memcpy(S, riccati, n * n * sizeof(double));
    }
  }
  teal_free(work);
  teal_system_free(lin);
  return result;
}
