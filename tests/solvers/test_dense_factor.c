/* Factorizations and solves: Cholesky on SPD and non-SPD matrices,
 * Cholesky and LU solves against known solutions, thin QR reconstruction
 * and orthogonality (including rank-deficient input), zero sizes and bad
 * input. */
#include "support/error_messages.h"
#include "dense_test_util.h"

/* SPD matrix B B' + shift I. */
static void random_spd(unsigned *seed, int n, double shift, double *A) {
  double *B = dt_new((size_t)n * n);
  dt_rand(seed, B, (size_t)n * n, -1, 1);
  dt_mul(0, 1, n, n, n, B, B, A);
  for (int i = 0; i < n; i++) {
    A[i * n + i] += shift;
  }
  free(B);
}

START_TEST(test_cholesky_spd) {
  static const int sizes[] = {1, 2, 3, 7, 20, 64};
  unsigned seed = 8086u;
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int n = sizes[s];
    size_t nn = (size_t)n * n;
    double *A = dt_new(nn), *L = dt_new(nn), *R = dt_new(nn);
    random_spd(&seed, n, 0.1, A);
    memcpy(L, A, sizeof(double) * nn);
    teal_error err;
    teal_error_clear(&err);
    ck_assert_int_eq(teal_dense_cholesky_factor(L, n, &err), TEAL_OK);
    ck_assert_int_eq(err.code, TEAL_OK);
    for (int i = 0; i < n; i++) {
      ck_assert(L[i * n + i] > 0.0);
      for (int j = i + 1; j < n; j++) {
        ck_assert_double_eq(L[i * n + j], 0.0);
      }
    }
    dt_mul(0, 1, n, n, n, L, L, R);
    double rec = dt_reldiff(R, A, nn);
    ck_assert_msg(rec < 1e-14, "n = %d: ||L L' - A|| / ||A|| = %g", n, rec);

    /* solve with several right-hand sides */
    int nrhs = 3;
    double *X = dt_new((size_t)n * nrhs), *Bm = dt_new((size_t)n * nrhs);
    double *Xs = dt_new((size_t)n * nrhs);
    dt_rand(&seed, X, (size_t)n * nrhs, -5, 5);
    dt_mul(0, 0, n, nrhs, n, A, X, Bm);
    memcpy(Xs, Bm, sizeof(double) * (size_t)n * nrhs);
    ck_assert_int_eq(teal_dense_cholesky_solve(L, n, Xs, nrhs, &err), TEAL_OK);
    double e = dt_reldiff(Xs, X, (size_t)n * nrhs);
    ck_assert_msg(e < 1e-10, "n = %d: Cholesky solve error %g", n, e);
    free(A), free(L), free(R), free(X), free(Bm), free(Xs);
  }
}
END_TEST

START_TEST(test_cholesky_known) {
  /* [[4, 2], [2, 3]] = L L' with L = [[2, 0], [1, sqrt(2)]] */
  double A[4] = {4, 2, 2, 3};
  ck_assert_int_eq(teal_dense_cholesky_factor(A, 2, NULL), TEAL_OK);
  ck_assert_double_eq_tol(A[0], 2.0, 1e-15);
  ck_assert_double_eq(A[1], 0.0);
  ck_assert_double_eq_tol(A[2], 1.0, 1e-15);
  ck_assert_double_eq_tol(A[3], sqrt(2.0), 1e-15);
  double b[2] = {6, 5}; /* x = (1, 1) */
  ck_assert_int_eq(teal_dense_cholesky_solve(A, 2, b, 1, NULL), TEAL_OK);
  ck_assert_double_eq_tol(b[0], 1.0, 1e-15);
  ck_assert_double_eq_tol(b[1], 1.0, 1e-15);
}
END_TEST

START_TEST(test_cholesky_not_spd) {
  teal_error err;
  double indef[4] = {1, 0, 0, -1};
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_cholesky_factor(indef, 2, &err), err, TEAL_ESINGULAR,
                "positive definite");
  ck_assert_double_eq(indef[3], -1.0); /* untouched on failure */
  double semi[4] = {1, 1, 1, 1};
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_cholesky_factor(semi, 2, &err), err, TEAL_ESINGULAR, "cholesky_factor");
  double zero[9] = {0};
  ck_assert_int_eq(teal_dense_cholesky_factor(zero, 3, NULL), TEAL_ESINGULAR);
  double nonsym[4] = {2, 1, 0, 2};
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_cholesky_factor(nonsym, 2, &err), err, TEAL_ESINGULAR, "not symmetric");
  ck_assert_double_eq(nonsym[1], 1.0);
  /* a rounding-level asymmetry is accepted and averaged */
  double near[4] = {4, 2 + 1e-15, 2, 3};
  ck_assert_int_eq(teal_dense_cholesky_factor(near, 2, NULL), TEAL_OK);
}
END_TEST

START_TEST(test_cholesky_bad_input) {
  teal_error err;
  double A[4] = {4, 2, 2, 3}, b[2] = {1, 1};
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_cholesky_factor(A, -2, &err), err, TEAL_EINVAL, "cholesky_factor");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_cholesky_factor(NULL, 2, &err), err, TEAL_EINVAL, "NULL A");
  A[2] = NAN;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_cholesky_factor(A, 2, &err), err, TEAL_ENONFINITE, "(1, 0)");
  ck_assert_int_eq(teal_dense_cholesky_factor(NULL, 0, NULL), TEAL_OK);

  double L[4] = {2, 0, 1, 1};
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_cholesky_solve(L, 2, b, -1, &err), err, TEAL_EINVAL, "nrhs");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_cholesky_solve(NULL, 2, b, 1, &err), err, TEAL_EINVAL, "NULL L");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_cholesky_solve(L, 2, NULL, 1, &err), err, TEAL_EINVAL, "NULL B");
  double L0[4] = {2, 0, 1, 0};
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_cholesky_solve(L0, 2, b, 1, &err), err, TEAL_ESINGULAR,
                "cholesky_solve");
  b[1] = INFINITY;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_cholesky_solve(L, 2, b, 1, &err), err, TEAL_ENONFINITE,
                "B entry (1, 0)");
  ck_assert_int_eq(teal_dense_cholesky_solve(L, 2, NULL, 0, NULL), TEAL_OK);
  ck_assert_int_eq(teal_dense_cholesky_solve(NULL, 0, NULL, 4, NULL), TEAL_OK);
  /* overflow of the solution is reported and B kept */
  double Ls[4] = {1e-200, 0, 0, 1}, bs[2] = {1e200, 1};
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_cholesky_solve(Ls, 2, bs, 1, &err), err, TEAL_ENONFINITE, "solution");
  ck_assert_double_eq(bs[0], 1e200);
}
END_TEST

START_TEST(test_solve_random) {
  static const int sizes[] = {1, 2, 5, 17, 50};
  unsigned seed = 6502u;
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int n = sizes[s], nrhs = 4;
    size_t nn = (size_t)n * n;
    double *A = dt_new(nn), *A0 = dt_new(nn), *X = dt_new((size_t)n * nrhs);
    double *B = dt_new((size_t)n * nrhs);
    dt_rand(&seed, A, nn, -1, 1);
    memcpy(A0, A, sizeof(double) * nn);
    dt_rand(&seed, X, (size_t)n * nrhs, -1, 1);
    dt_mul(0, 0, n, nrhs, n, A, X, B);
    ck_assert_int_eq(teal_dense_solve(A, n, B, nrhs, NULL), TEAL_OK);
    ck_assert_int_eq(memcmp(A, A0, sizeof(double) * nn), 0); /* A not modified */
    double e = dt_reldiff(B, X, (size_t)n * nrhs);
    ck_assert_msg(e < 1e-10, "n = %d: solve error %g", n, e);
    free(A), free(A0), free(X), free(B);
  }
  /* pivoting needed */
  double P[9] = {0, 2, 1, /**/ 1, 1, 1, /**/ 3, 0, -1}, b[3] = {3, 3, 2};
  ck_assert_int_eq(teal_dense_solve(P, 3, b, 1, NULL), TEAL_OK);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(b[i], 1.0, 1e-14);
  }
}
END_TEST

START_TEST(test_solve_singular_and_bad_input) {
  teal_error err;
  double S[4] = {1, 2, 2, 4}, b[2] = {1, 2};
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_solve(S, 2, b, 1, &err), err, TEAL_ESINGULAR, "singular");
  ck_assert_double_eq(b[0], 1.0);
  /* numerically singular: reciprocal condition below eps */
  double N[4] = {1, 1, 1, 1 + 1e-17 + 1e-16};
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_solve(N, 2, b, 1, &err), err, TEAL_ESINGULAR, "solve");
  double I[4] = {1, 0, 0, 1};
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_solve(I, -1, b, 1, &err), err, TEAL_EINVAL, "solve");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_solve(I, 2, b, -1, &err), err, TEAL_EINVAL, "nrhs");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_solve(NULL, 2, b, 1, &err), err, TEAL_EINVAL, "NULL A");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_solve(I, 2, NULL, 1, &err), err, TEAL_EINVAL, "NULL B");
  b[1] = NAN;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_solve(I, 2, b, 1, &err), err, TEAL_ENONFINITE, "B entry (1, 0)");
  b[1] = 2.0;
  I[1] = INFINITY;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_solve(I, 2, b, 1, &err), err, TEAL_ENONFINITE, "A entry (0, 1)");
  ck_assert_int_eq(teal_dense_solve(NULL, 0, NULL, 3, NULL), TEAL_OK);
  double J[4] = {2, 0, 0, 2};
  ck_assert_int_eq(teal_dense_solve(J, 2, NULL, 0, NULL), TEAL_OK);
  /* overflowing solution */
  double T[4] = {1e-300, 0, 0, 1}, bt[2] = {1e300, 1};
  ck_assert_int_eq(teal_dense_solve(T, 2, bt, 1, NULL), TEAL_ESINGULAR); /* rcond ~ 1e-300 */
}
END_TEST

static void check_qr(const double *A, int m, int n) {
  double *Q = dt_new((size_t)m * n), *R = dt_new((size_t)n * n), *QR = dt_new((size_t)m * n);
  teal_error err;
  teal_error_clear(&err);
  ck_assert_int_eq(teal_dense_qr(A, m, n, Q, R, &err), TEAL_OK);
  ck_assert_int_eq(err.code, TEAL_OK);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      ck_assert_double_eq(R[i * n + j], 0.0);
    }
  }
  double orth = dt_orth_cols(Q, m, n);
  ck_assert_msg(orth < 1e-13, "%d x %d: Q'Q - I = %g", m, n, orth);
  dt_mul(0, 0, m, n, n, Q, R, QR);
  double rec = dt_reldiff(QR, A, (size_t)m * n);
  ck_assert_msg(rec < 1e-12, "%d x %d: ||QR - A|| / ||A|| = %g", m, n, rec);
  free(Q), free(R), free(QR);
}

START_TEST(test_qr_random) {
  static const int dims[][2] = {{1, 1}, {3, 1}, {4, 4}, {10, 3}, {30, 30}, {80, 25}};
  unsigned seed = 68000u;
  for (size_t d = 0; d < sizeof dims / sizeof *dims; d++) {
    int m = dims[d][0], n = dims[d][1];
    double *A = dt_new((size_t)m * n);
    dt_rand(&seed, A, (size_t)m * n, -1, 1);
    check_qr(A, m, n);
    free(A);
  }
  /* rank-deficient: repeated column, zero column */
  double D[12] = {1, 1, 0, /**/ 2, 2, 0, /**/ 3, 3, 0, /**/ 4, 4, 0};
  check_qr(D, 4, 3);
  /* known: [[3], [4]] = [[0.6], [0.8]] [5] up to sign */
  double a[2] = {3, 4}, q[2], r[1];
  ck_assert_int_eq(teal_dense_qr(a, 2, 1, q, r, NULL), TEAL_OK);
  ck_assert_double_eq_tol(fabs(r[0]), 5.0, 1e-15);
  ck_assert_double_eq_tol(q[0] * r[0], 3.0, 1e-15);
}
END_TEST

START_TEST(test_qr_zero_size_and_bad_input) {
  ck_assert_int_eq(teal_dense_qr(NULL, 0, 0, NULL, NULL, NULL), TEAL_OK);
  ck_assert_int_eq(teal_dense_qr(NULL, 5, 0, NULL, NULL, NULL), TEAL_OK);
  teal_error err;
  double A[6] = {1, 2, 3, 4, 5, 6}, Q[6], R[9];
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_qr(A, 2, 3, Q, R, &err), err, TEAL_ESIZE, "m >= n");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_qr(A, -3, 2, Q, R, &err), err, TEAL_EINVAL, "qr");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_qr(A, 3, -2, Q, R, &err), err, TEAL_EINVAL, "qr");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_qr(NULL, 3, 2, Q, R, &err), err, TEAL_EINVAL, "NULL A");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_qr(A, 3, 2, NULL, R, &err), err, TEAL_EINVAL, "NULL Q");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_qr(A, 3, 2, Q, NULL, &err), err, TEAL_EINVAL, "NULL R");
  A[4] = NAN;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_qr(A, 3, 2, Q, R, &err), err, TEAL_ENONFINITE, "(2, 0)");
}
END_TEST

/* Every allocation failure gives TEAL_ENOMEM and leaks nothing. */
static int oom_call(void *ctx, teal_error *err) {
  double A[9] = {4, 1, 0, 1, 3, 1, 0, 1, 2}, B[6] = {1, 2, 3, 4, 5, 6};
  double L[9] = {2, 0, 0, 1, 2, 0, 0, 1, 2}, Q[6], R[4];
  switch (*(int *)ctx) {
    case 0:
      return teal_dense_cholesky_factor(A, 3, err);
    case 1:
      return teal_dense_cholesky_solve(L, 3, B, 2, err);
    case 2:
      return teal_dense_solve(A, 3, B, 2, err);
    default:
      return teal_dense_qr(B, 3, 2, Q, R, err);
  }
}

START_TEST(test_out_of_memory) {
  const char *names[] = {"cholesky_factor", "cholesky_solve", "solve", "qr"};
  for (int which = 0; which < 4; which++) {
    ck_assert_uint_gt(dt_check_oom(oom_call, &which, names[which]), 0);
  }
}
END_TEST

/* S X = B through the transposed, allocation-free solve: Bt S^-1 against the
 * known X, and the failures. */
START_TEST(test_spd_solve_transposed) {
  unsigned seed = 4242u;
  static const int sizes[] = {1, 3, 9};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    int n = sizes[k], nrhs = 4;
    size_t nn = (size_t)n * n, nb = (size_t)n * nrhs;
    double *S = dt_new(nn), *F = dt_new(nn), *X = dt_new(nb), *B = dt_new(nb);
    double *Bt = dt_new(nb), *Xt = dt_new(nb);
    random_spd(&seed, n, 0.2, S);
    dt_rand(&seed, X, nb, -3, 3);
    dt_mul(0, 0, n, nrhs, n, S, X, B); /* B = S X, n x nrhs */
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < nrhs; j++) {
        Bt[j * n + i] = B[i * nrhs + j];
        Xt[j * n + i] = X[i * nrhs + j];
      }
    }
    memcpy(F, S, sizeof(double) * nn);
    ck_assert_int_eq(teal_dense_spd_solve_transposed(F, n, Bt, nrhs, NULL), TEAL_OK);
    double e = dt_reldiff(Bt, Xt, nb);
    ck_assert_msg(e < 1e-12, "n = %d: error %g", n, e);
    free(S), free(F), free(X), free(B), free(Bt), free(Xt);
  }
  double indefinite[4] = {1, 2, 2, 1}, b[2] = {1, 1};
  teal_error err;
  ck_assert_int_eq(teal_dense_spd_solve_transposed(indefinite, 2, b, 1, &err), TEAL_ESINGULAR);
  ck_assert_ptr_nonnull(strstr(err.message, "not positive definite"));
  ck_assert_int_eq(teal_dense_spd_solve_transposed(NULL, 2, b, 1, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_dense_spd_solve_transposed(indefinite, -1, b, 1, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_dense_spd_solve_transposed(NULL, 0, NULL, 3, &err), TEAL_OK);
}
END_TEST

/* S^-1 in place: S S^-1 = I, both triangles written (symmetric), and the
 * failures with their messages. */
START_TEST(test_spd_inverse) {
  unsigned seed = 977u;
  static const int sizes[] = {1, 4, 11};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    int n = sizes[k];
    size_t nn = (size_t)n * n;
    double *S = dt_new(nn), *Si = dt_new(nn), *P = dt_new(nn);
    random_spd(&seed, n, 0.2, S);
    memcpy(Si, S, sizeof(double) * nn);
    ck_assert_int_eq(teal_dense_spd_inverse(Si, n, NULL), TEAL_OK);
    dt_mul(0, 0, n, n, n, S, Si, P);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        ck_assert_double_eq_tol(P[i * n + j], i == j ? 1.0 : 0.0, 1e-12);
        ck_assert_double_eq(Si[i * n + j], Si[j * n + i]);
      }
    }
    free(S), free(Si), free(P);
  }
  double indefinite[4] = {1, 2, 2, 1};
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_dense_spd_inverse(indefinite, 2, &err), TEAL_ESINGULAR, &err,
                  "teal_dense_spd_inverse: S is not positive definite (leading minor 2 of 2)");
  TS_EXPECT_ERROR(teal_dense_spd_inverse(NULL, 2, &err), TEAL_EINVAL, &err, "NULL matrix");
  TS_EXPECT_ERROR(teal_dense_spd_inverse(indefinite, -1, &err), TEAL_EINVAL, &err, "n = -1");
  ck_assert_int_eq(teal_dense_spd_inverse(NULL, 0, &err), TEAL_OK);
}
END_TEST

static Suite *dense_factor_suite(void) {
  Suite *s = suite_create("dense_factor");
  TCase *tc = tcase_create("cholesky");
  tcase_add_test(tc, test_cholesky_spd);
  tcase_add_test(tc, test_cholesky_known);
  tcase_add_test(tc, test_cholesky_not_spd);
  tcase_add_test(tc, test_cholesky_bad_input);
  tcase_add_test(tc, test_spd_solve_transposed);
  tcase_add_test(tc, test_spd_inverse);
  suite_add_tcase(s, tc);
  tc = tcase_create("solve");
  tcase_add_test(tc, test_solve_random);
  tcase_add_test(tc, test_solve_singular_and_bad_input);
  suite_add_tcase(s, tc);
  tc = tcase_create("qr");
  tcase_add_test(tc, test_qr_random);
  tcase_add_test(tc, test_qr_zero_size_and_bad_input);
  tcase_add_test(tc, test_out_of_memory);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return dt_run(dense_factor_suite()); }
