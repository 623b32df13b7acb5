/* Tests of the Riccati solvers on random stabilizable systems (n = 4, 20,
 * 100), with a cross term, badly scaled, and with Newton refinement. */
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
  double *w = ts_ric_mat_new(n, 1);
  ck_assert_int_eq(teal_dense_sym_eigen(X, n, w, NULL, NULL), TEAL_OK);
  double mn = w[0];
  *max_abs = fmax(fabs(w[0]), fabs(w[n - 1]));
  free(w);
  return mn;
}

/* Newton-Kleinman: from the stabilizing K, X_k solves
 * (A - BK)'X + X(A - BK) + Q + K'RK = 0 and K = R^-1 B'X_k. */
static void newton_kleinman(const ts_ric_problem *p, double *X) {
  int n = p->n, m = p->m;
  double *K = ts_ric_mat_new(m, n), *Acl = ts_ric_mat_new(n, n), *At = ts_ric_mat_new(n, n),
         *W = ts_ric_mat_new(n, n);
  double *RK = ts_ric_mat_new(m, n), *Xold = ts_ric_mat_new(n, n);
  memcpy(K, p->K0, sizeof(double) * (size_t)m * n);
  int it = 0;
  for (; it < 60; it++) {
    ts_ric_closed_loop(p->A, p->B, K, n, m, Acl);
    ck_assert_msg(ts_ric_max_real_eig(Acl, n) < 0.0, "Newton-Kleinman iterate %d not stabilizing",
                  it);
    ts_ric_transpose(Acl, n, n, At);
    ts_ric_mul(0, 0, m, n, m, p->R, K, RK);
    ts_ric_mul(1, 0, n, n, m, K, RK, W);
    for (int i = 0; i < n * n; i++) {
      W[i] += p->Q[i];
    }
    memcpy(Xold, X, sizeof(double) * (size_t)n * n);
    ck_assert_int_eq(teal_lyapunov_continuous(At, W, n, X, NULL), TEAL_OK);
    ts_ric_care_gain(p->B, p->R, NULL, n, m, X, K);
    if (it > 0 && ts_ric_rel_diff(X, Xold, n) < 1e-14) {
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

/* ---- random systems -------------------------------------------------------- */

static void check_random_care(int n, unsigned seed) {
  int m = n / 2;
  ts_ric_problem p = ts_ric_problem_random(seed, n, m, 0);
  double *X = ts_ric_mat_new(n, n), *Xr = ts_ric_mat_new(n, n), *K = ts_ric_mat_new(m, n),
         *Acl = ts_ric_mat_new(n, n);
  double res = -1.0;
  teal_error err;
  teal_error_clear(&err);
  ck_assert(ts_ric_max_real_eig(p.A, n) > 0.0); /* the open loop is unstable */
  ck_assert_msg(teal_care(p.A, p.B, p.Q, p.R, NULL, n, m, X, &res, &err) == TEAL_OK,
                "n = %d: %s", n, err.message);
  ck_assert_msg(res < 1e-10, "n = %d: residual %g", n, res);
  double res2 = teal_care_residual(p.A, p.B, p.Q, p.R, NULL, n, m, X);
  ck_assert_msg(fabs(res2 - res) <= 1e-3 * res + 1e-300, "n = %d: %g vs %g", n, res, res2);
  ck_assert(exactly_symmetric(X, n));
  double mx, mn = min_eig_sym(X, n, &mx);
  ck_assert_msg(mn >= -1e-10 * mx, "n = %d: X has eigenvalue %g (max %g)", n, mn, mx);
  ts_ric_care_gain(p.B, p.R, NULL, n, m, X, K);
  ts_ric_closed_loop(p.A, p.B, K, n, m, Acl);
  double mr = ts_ric_max_real_eig(Acl, n);
  ck_assert_msg(mr < 0.0, "n = %d: closed loop max Re %g", n, mr);
  newton_kleinman(&p, Xr);
  double d = ts_ric_rel_diff(X, Xr, n);
  ck_assert_msg(d < 1e-8, "n = %d: differs from Newton-Kleinman by %g", n, d);
  free(X);
  free(Xr);
  free(K);
  free(Acl);
  ts_ric_problem_free(&p);
}

static void check_random_dare(int n, unsigned seed) {
  int m = n / 2;
  ts_ric_problem p = ts_ric_problem_random(seed, n, m, 1);
  double *X = ts_ric_mat_new(n, n), *Xr = ts_ric_mat_new(n, n), *K = ts_ric_mat_new(m, n),
         *Acl = ts_ric_mat_new(n, n);
  double res = -1.0;
  teal_error err;
  teal_error_clear(&err);
  ck_assert(ts_ric_spectral_radius(p.A, n) > 1.0); /* the open loop is unstable */
  ck_assert_msg(teal_dare(p.A, p.B, p.Q, p.R, NULL, n, m, X, &res, &err) == TEAL_OK,
                "n = %d: %s", n, err.message);
  ck_assert_msg(res < 1e-10, "n = %d: residual %g", n, res);
  double res2 = teal_dare_residual(p.A, p.B, p.Q, p.R, NULL, n, m, X);
  ck_assert_msg(fabs(res2 - res) <= 1e-3 * res + 1e-300, "n = %d: %g vs %g", n, res, res2);
  ck_assert(exactly_symmetric(X, n));
  double mx, mn = min_eig_sym(X, n, &mx);
  ck_assert_msg(mn >= -1e-10 * mx, "n = %d: X has eigenvalue %g (max %g)", n, mn, mx);
  ts_ric_dare_gain(p.A, p.B, p.R, NULL, n, m, X, K);
  ts_ric_closed_loop(p.A, p.B, K, n, m, Acl);
  double rho = ts_ric_spectral_radius(Acl, n);
  ck_assert_msg(rho < 1.0, "n = %d: closed-loop spectral radius %g", n, rho);
  ts_ric_hewer(&p, Xr);
  double d = ts_ric_rel_diff(X, Xr, n);
  ck_assert_msg(d < 1e-8, "n = %d: differs from Hewer by %g", n, d);
  free(X);
  free(Xr);
  free(K);
  free(Acl);
  ts_ric_problem_free(&p);
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

/* ---- scaling and refinement ------------------------------------------------ */

/* A state scaling x~ = D x by powers of two spread over 2^-13 .. 2^13
 * (D A D^-1, D B, D^-1 Q D^-1, R) must give X~ = D^-1 X D^-1 exactly up to
 * rounding of the well-scaled problem. */
static void check_badly_scaled(int discrete) {
  enum { N = 12, M = 4 };
  ts_ric_problem p = ts_ric_problem_random(discrete ? 91u : 92u, N, M, discrete);
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
  ts_ric_ric_fn f = discrete ? teal_dare : teal_care;
  teal_error err;
  teal_error_clear(&err);
  ck_assert_msg(f(p.A, p.B, p.Q, p.R, NULL, N, M, X, NULL, &err) == TEAL_OK, "%s", err.message);
  ck_assert_msg(f(As, Bs, Qs, p.R, NULL, N, M, Xs, &res, &err) == TEAL_OK, "%s", err.message);
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      Xs[i * N + j] *= d[i] * d[j];
    }
  }
  double dd = ts_ric_rel_diff(Xs, X, N);
  ck_assert_msg(dd < 1e-10, "%s: scaled solution differs by %g", discrete ? "dare" : "care", dd);
  ts_ric_problem_free(&p);
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
  ts_ric_problem p = ts_ric_problem_random(discrete ? 93u : 94u, N, M, discrete);
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
  ts_ric_ric_fn f = discrete ? teal_dare : teal_care;
  ck_assert_msg(f(p.A, p.B, p.Q, p.R, NULL, N, M, X, &res, &err) == TEAL_OK, "%s", err.message);
  ck_assert_msg(res0 > TEAL_RIC_REFINE_ABOVE, "QZ residual %g needs no refinement", res0);
  ck_assert_msg(res < 1e-2 * res0 && res < 1e-8, "%s: residual %g after refinement, %g before",
                discrete ? "dare" : "care", res, res0);
  if (discrete) {
    ts_ric_dare_gain(p.A, p.B, p.R, NULL, N, M, X, K);
    ts_ric_closed_loop(p.A, p.B, K, N, M, Acl);
    ck_assert(ts_ric_spectral_radius(Acl, N) < 1.0);
  } else {
    ts_ric_care_gain(p.B, p.R, NULL, N, M, X, K);
    ts_ric_closed_loop(p.A, p.B, K, N, M, Acl);
    ck_assert(ts_ric_max_real_eig(Acl, N) < 0.0);
  }
  ts_ric_problem_free(&p);
}

START_TEST(test_newton_refinement_helps) {
  check_refinement(0);
  check_refinement(1);
}
END_TEST

static Suite *riccati_random_suite(void) {
  Suite *s = suite_create("riccati_random");
  TCase *tc = tcase_create("random");
  tcase_set_timeout(tc, 240);
  tcase_add_test(tc, test_care_random_4);
  tcase_add_test(tc, test_care_random_20);
  tcase_add_test(tc, test_care_random_100);
  tcase_add_test(tc, test_dare_random_4);
  tcase_add_test(tc, test_dare_random_20);
  tcase_add_test(tc, test_dare_random_100);
  suite_add_tcase(s, tc);

  tc = tcase_create("scaling");
  tcase_add_test(tc, test_badly_scaled);
  tcase_add_test(tc, test_newton_refinement_helps);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(riccati_random_suite());
}
