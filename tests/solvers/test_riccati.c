/* Tests of the Riccati solvers against closed forms (CARE and DARE), on
 * structural corner cases (singular A, no inputs, empty), and of the residual
 * functions. */
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
  ts_ric_care_gain(B, R, NULL, 2, 1, X, K);
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
  ts_ric_dare_gain(A, B, R, NULL, 2, 1, X, K);
  ck_assert_double_eq_tol(K[0], x2 / (1.0 + x3), 1e-13);
  ck_assert_double_eq_tol(K[1], (x2 + x3) / (1.0 + x3), 1e-13);
  ts_ric_closed_loop(A, B, K, 2, 1, Acl);
  ck_assert(ts_ric_spectral_radius(Acl, 2) < 1.0);
}
END_TEST

/* Zero-order hold of the double integrator with step h (B = [h^2/2; h]):
 * residual, agreement with Hewer (A - B K0 stable for K0 = [1, 1.5] / h^2 ...)
 * and a stable closed loop. */
START_TEST(test_dare_sampled_double_integrator) {
  const double h = 0.1;
  ts_ric_problem p = {2,
                      1,
                      ts_ric_mat_new(2, 2),
                      ts_ric_mat_new(2, 1),
                      ts_ric_mat_new(2, 2),
                      ts_ric_mat_new(1, 1),
                      ts_ric_mat_new(1, 2)};
  p.A[0] = 1.0, p.A[1] = h, p.A[3] = 1.0;
  p.B[0] = 0.5 * h * h, p.B[1] = h;
  p.Q[0] = 1.0, p.Q[3] = 1.0;
  p.R[0] = 1.0;
  /* deadbeat gain: (A - B K0)^2 = 0 */
  p.K0[0] = 1.0 / (h * h), p.K0[1] = 1.5 / h;
  double X[4], Xh[4] = {0}, K[2], Acl[4], res = -1.0;
  ck_assert_int_eq(teal_dare(p.A, p.B, p.Q, p.R, NULL, 2, 1, X, &res, NULL), TEAL_OK);
  ck_assert(res < 1e-13);
  ts_ric_hewer(&p, Xh);
  ck_assert_msg(ts_ric_rel_diff(X, Xh, 2) < 1e-10, "differs from Hewer by %g",
                ts_ric_rel_diff(X, Xh, 2));
  ts_ric_dare_gain(p.A, p.B, p.R, NULL, 2, 1, X, K);
  ts_ric_closed_loop(p.A, p.B, K, 2, 1, Acl);
  ck_assert(ts_ric_spectral_radius(Acl, 2) < 1.0);
  ts_ric_problem_free(&p);
}
END_TEST

/* ---- cross term ------------------------------------------------------------ */

/* With N, the solution equals that of the problem without N for
 * A - B R^-1 N' and Q - N R^-1 N'. Q is built as C'C + N R^-1 N' so that
 * the transformed weight is C'C >= 0. */
static void check_cross_term(int discrete, int n, unsigned seed) {
  int m = n / 2 > 0 ? n / 2 : 1;
  ts_ric_problem p = ts_ric_problem_random(seed, n, m, discrete);
  double *N = ts_ric_mat_new(n, m), *RiNt = ts_ric_mat_new(m, n), *Ab = ts_ric_mat_new(n, n),
         *Qb = ts_ric_mat_new(n, n);
  double *Qn = ts_ric_mat_new(n, n), *L = ts_ric_mat_new(m, m), *X = ts_ric_mat_new(n, n),
         *Xb = ts_ric_mat_new(n, n);
  double *K = ts_ric_mat_new(m, n), *Kb = ts_ric_mat_new(m, n), *Acl = ts_ric_mat_new(n, n);
  unsigned s = seed * 7u + 1u;
  ts_ric_mat_random(&s, N, n, m, -0.5, 0.5);
  memcpy(L, p.R, sizeof(double) * (size_t)m * m);
  ck_assert_int_eq(teal_dense_cholesky_factor(L, m, NULL), TEAL_OK);
  ts_ric_transpose(N, n, m, RiNt);
  ck_assert_int_eq(teal_dense_cholesky_solve(L, m, RiNt, n, NULL), TEAL_OK);
  ts_ric_mul(0, 0, n, n, m, N, RiNt, Qn); /* N R^-1 N' */
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
  ck_assert_int_eq(teal_dense_gemm(0, 0, n, n, m, -1.0, p.B, RiNt, 1.0, Ab, NULL), TEAL_OK);
  double res = -1.0, resb = -1.0;
  teal_error err;
  teal_error_clear(&err);
  int (*solve)(const double *, const double *, const double *, const double *, const double *,
               int, int, double *, double *, teal_error *) = discrete ? teal_dare : teal_care;
  ck_assert_msg(solve(p.A, p.B, p.Q, p.R, N, n, m, X, &res, &err) == TEAL_OK, "%s", err.message);
  ck_assert_msg(solve(Ab, p.B, Qb, p.R, NULL, n, m, Xb, &resb, &err) == TEAL_OK, "%s",
                err.message);
  ck_assert_msg(res < 1e-10 && resb < 1e-10, "residuals %g, %g", res, resb);
  double d = ts_ric_rel_diff(X, Xb, n);
  ck_assert_msg(d < 1e-9, "%s n = %d: with N vs transformed: %g", discrete ? "dare" : "care", n,
                d);
  /* Same closed loop: A - B K(N) = Abar - B Kbar. */
  if (discrete) {
    ts_ric_dare_gain(p.A, p.B, p.R, N, n, m, X, K);
    ts_ric_dare_gain(Ab, p.B, p.R, NULL, n, m, Xb, Kb);
  } else {
    ts_ric_care_gain(p.B, p.R, N, n, m, X, K);
    ts_ric_care_gain(p.B, p.R, NULL, n, m, Xb, Kb);
  }
  ts_ric_closed_loop(p.A, p.B, K, n, m, Acl);
  if (discrete) {
    ck_assert(ts_ric_spectral_radius(Acl, n) < 1.0);
  } else {
    ck_assert(ts_ric_max_real_eig(Acl, n) < 0.0);
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
  ts_ric_problem_free(&p);
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
  ts_ric_problem p = {3,
                      1,
                      ts_ric_mat_new(3, 3),
                      ts_ric_mat_new(3, 1),
                      ts_ric_mat_new(3, 3),
                      ts_ric_mat_new(1, 1),
                      ts_ric_mat_new(1, 3)};
  p.A[1] = p.A[5] = 1.0; /* shift matrix */
  p.B[2] = 1.0;
  p.Q[0] = p.Q[4] = p.Q[8] = 1.0;
  p.R[0] = 2.0;
  double X[9], Xh[9] = {0}, res = -1.0;
  ck_assert_int_eq(teal_dare(p.A, p.B, p.Q, p.R, NULL, 3, 1, X, &res, NULL), TEAL_OK);
  ck_assert(res < 1e-13);
  ts_ric_hewer(&p, Xh);
  ck_assert_msg(ts_ric_rel_diff(X, Xh, 3) < 1e-10, "%g", ts_ric_rel_diff(X, Xh, 3));
  ck_assert_int_eq(teal_care(p.A, p.B, p.Q, p.R, NULL, 3, 1, X, &res, NULL), TEAL_OK);
  ck_assert(res < 1e-13);
  ts_ric_problem_free(&p);
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

  tc = tcase_create("structure");
  tcase_add_test(tc, test_care_cross_term);
  tcase_add_test(tc, test_dare_cross_term);
  tcase_add_test(tc, test_singular_a);
  tcase_add_test(tc, test_singular_nilpotent_a);
  tcase_add_test(tc, test_no_inputs_and_empty);
  suite_add_tcase(s, tc);

  tc = tcase_create("residual");
  tcase_add_test(tc, test_residual_functions);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(riccati_suite());
}
