/* SVD, numerical rank and pseudo-inverse: reconstruction A = U S Vt and
 * orthogonality for every shape, descending singular values, ranks of
 * constructed rank-deficient matrices, the four Moore-Penrose identities,
 * tolerances, zero sizes and bad input. */
#include "dense_test_util.h"

static void check_svd(const double *A, int m, int n) {
  int k = m < n ? m : n;
  double *U = dt_new((size_t)m * m), *s = dt_new((size_t)k), *Vt = dt_new((size_t)n * n);
  double *US = dt_new((size_t)m * n), *R = dt_new((size_t)m * n), *s2 = dt_new((size_t)k);
  teal_error err;
  teal_error_clear(&err);
  ck_assert_int_eq(teal_dense_svd(A, m, n, U, s, Vt, &err), TEAL_OK);
  ck_assert_int_eq(err.code, TEAL_OK);
  for (int i = 0; i < k; i++) {
    ck_assert(s[i] >= 0.0);
    if (i > 0) {
      ck_assert(s[i] <= s[i - 1]);
    }
  }
  ck_assert_msg(dt_orth_cols(U, m, m) < 1e-13, "U not orthogonal");
  ck_assert_msg(dt_orth_cols(Vt, n, n) < 1e-13, "Vt not orthogonal");
  /* U(:, 1:k) diag(s) Vt(1:k, :) */
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < n; j++) {
      US[(size_t)i * n + j] = j < k ? U[(size_t)i * m + j] * s[j] : 0.0;
    }
  }
  dt_mul(0, 0, m, n, n, US, Vt, R);
  double rec = dt_reldiff(R, A, (size_t)m * n);
  ck_assert_msg(rec < 1e-12, "%d x %d: ||U S Vt - A|| / ||A|| = %g", m, n, rec);
  /* singular values alone agree */
  ck_assert_int_eq(teal_dense_svd(A, m, n, NULL, s2, NULL, NULL), TEAL_OK);
  ck_assert(dt_maxdiff(s, s2, (size_t)k) <= 1e-13 * (1.0 + s[0]));
  ck_assert_int_eq(teal_dense_svd(A, m, n, U, s2, NULL, NULL), TEAL_OK);
  ck_assert(dt_maxdiff(s, s2, (size_t)k) <= 1e-13 * (1.0 + s[0]));
  free(U), free(s), free(Vt), free(US), free(R), free(s2);
}

START_TEST(test_svd_shapes) {
  static const int dims[][2] = {{1, 1}, {1, 5},   {5, 1},   {3, 3},  {7, 4},
                                {4, 7}, {30, 30}, {50, 20}, {20, 50}};
  unsigned seed = 1234567u;
  for (size_t d = 0; d < sizeof dims / sizeof *dims; d++) {
    int m = dims[d][0], n = dims[d][1];
    double *A = dt_new((size_t)m * n);
    dt_rand(&seed, A, (size_t)m * n, -1, 1);
    check_svd(A, m, n);
    free(A);
  }
  /* rank one with exact zeros */
  double E[6] = {0, 0, 0, 0, 0, 1};
  check_svd(E, 2, 3);
}
END_TEST

START_TEST(test_svd_known) {
  double A[4] = {3, 0, 0, -2}, s[2], U[4], Vt[4];
  ck_assert_int_eq(teal_dense_svd(A, 2, 2, U, s, Vt, NULL), TEAL_OK);
  ck_assert_double_eq_tol(s[0], 3.0, 1e-15);
  ck_assert_double_eq_tol(s[1], 2.0, 1e-15);
  /* rank one: u v' with |u| = 3, |v| = 2 */
  double B[6] = {2, 4, 4, /**/ 1, 2, 2}; /* (2, 1)' (1, 2, 2) */
  double sb[2];
  ck_assert_int_eq(teal_dense_svd(B, 2, 3, NULL, sb, NULL, NULL), TEAL_OK);
  ck_assert_double_eq_tol(sb[0], sqrt(5.0) * 3.0, 1e-14);
  ck_assert_double_eq_tol(sb[1], 0.0, 1e-14);
}
END_TEST

START_TEST(test_svd_zero_size_and_bad_input) {
  double U[9], Vt[9];
  ck_assert_int_eq(teal_dense_svd(NULL, 0, 3, U, NULL, Vt, NULL), TEAL_OK);
  ck_assert_double_eq(Vt[0], 1.0);
  ck_assert_double_eq(Vt[4], 1.0);
  ck_assert_double_eq(Vt[1], 0.0);
  ck_assert_int_eq(teal_dense_svd(NULL, 2, 0, U, NULL, NULL, NULL), TEAL_OK);
  ck_assert_double_eq(U[0], 1.0);
  ck_assert_double_eq(U[1], 0.0);
  ck_assert_double_eq(U[3], 1.0);
  teal_error err;
  double A[4] = {1, 2, 3, 4}, s[2];
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_svd(A, -1, 2, U, s, Vt, &err), err, TEAL_EINVAL, "svd");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_svd(NULL, 2, 2, U, s, Vt, &err), err, TEAL_EINVAL, "NULL A");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_svd(A, 2, 2, U, NULL, Vt, &err), err, TEAL_EINVAL, "NULL s");
  A[0] = NAN;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_svd(A, 2, 2, U, s, Vt, &err), err, TEAL_ENONFINITE, "(0, 0)");
}
END_TEST

/* m x n matrix of rank r: (m x r) (r x n) random factors. */
static double *rank_deficient(unsigned *seed, int m, int n, int r) {
  double *L = dt_new((size_t)m * r), *Rf = dt_new((size_t)r * n), *A = dt_new((size_t)m * n);
  dt_rand(seed, L, (size_t)m * r, -1, 1);
  dt_rand(seed, Rf, (size_t)r * n, -1, 1);
  dt_mul(0, 0, m, n, r, L, Rf, A);
  free(L), free(Rf);
  return A;
}

START_TEST(test_rank) {
  static const int cases[][3] = {{5, 5, 3}, {8, 4, 2}, {4, 9, 1}, {20, 20, 19}, {12, 30, 12}};
  unsigned seed = 271828u;
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int m = cases[c][0], n = cases[c][1], r = cases[c][2], rank = -1;
    double *A = rank_deficient(&seed, m, n, r);
    ck_assert_int_eq(teal_dense_rank(A, m, n, -1.0, &rank, NULL), TEAL_OK);
    ck_assert_int_eq(rank, r);
    ck_assert_int_eq(teal_dense_rank(A, m, n, 1e-8, &rank, NULL), TEAL_OK);
    ck_assert_int_eq(rank, r);
    free(A);
  }
  /* tolerance in action: diag(1, 1e-3, 1e-9) */
  double D[9] = {1, 0, 0, 0, 1e-3, 0, 0, 0, 1e-9};
  int rank = -1;
  ck_assert_int_eq(teal_dense_rank(D, 3, 3, -1.0, &rank, NULL), TEAL_OK);
  ck_assert_int_eq(rank, 3);
  ck_assert_int_eq(teal_dense_rank(D, 3, 3, 1e-6, &rank, NULL), TEAL_OK);
  ck_assert_int_eq(rank, 2);
  ck_assert_int_eq(teal_dense_rank(D, 3, 3, 10.0, &rank, NULL), TEAL_OK);
  ck_assert_int_eq(rank, 0);
  double Z[6] = {0};
  ck_assert_int_eq(teal_dense_rank(Z, 2, 3, -1.0, &rank, NULL), TEAL_OK);
  ck_assert_int_eq(rank, 0);
  ck_assert_int_eq(teal_dense_rank(NULL, 0, 3, -1.0, &rank, NULL), TEAL_OK);
  ck_assert_int_eq(rank, 0);
  teal_error err;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_rank(D, 3, 3, NAN, &rank, &err), err, TEAL_EINVAL, "tol");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_rank(D, 3, 3, -1.0, NULL, &err), err, TEAL_EINVAL, "NULL rank");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_rank(D, 3, -3, -1.0, &rank, &err), err, TEAL_EINVAL, "rank");
  D[4] = INFINITY;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_rank(D, 3, 3, -1.0, &rank, &err), err, TEAL_ENONFINITE, "(1, 1)");
}
END_TEST

/* The four Penrose conditions for X = pinv(A) (A m x n, X n x m). */
static void check_penrose(const double *A, int m, int n, const double *X) {
  double *AX = dt_new((size_t)m * m), *XA = dt_new((size_t)n * n);
  double *AXA = dt_new((size_t)m * n), *XAX = dt_new((size_t)n * m),
         *T = dt_new((size_t)m * m + (size_t)n * n);
  dt_mul(0, 0, m, m, n, A, X, AX);
  dt_mul(0, 0, n, n, m, X, A, XA);
  dt_mul(0, 0, m, n, m, AX, A, AXA);
  dt_mul(0, 0, n, m, n, XA, X, XAX);
  ck_assert_msg(dt_reldiff(AXA, A, (size_t)m * n) < 1e-12, "A X A != A (%g)",
                dt_reldiff(AXA, A, (size_t)m * n));
  ck_assert_msg(dt_reldiff(XAX, X, (size_t)n * m) < 1e-12, "X A X != X (%g)",
                dt_reldiff(XAX, X, (size_t)n * m));
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < m; j++) {
      T[i * m + j] = AX[j * m + i];
    }
  }
  ck_assert_msg(dt_maxdiff(T, AX, (size_t)m * m) < 1e-12, "A X not symmetric");
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      T[i * n + j] = XA[j * n + i];
    }
  }
  ck_assert_msg(dt_maxdiff(T, XA, (size_t)n * n) < 1e-12, "X A not symmetric");
  free(AX), free(XA), free(AXA), free(XAX), free(T);
}

START_TEST(test_pinv_penrose) {
  static const int cases[][3] = {{5, 5, 3},  {8, 4, 2},  {4, 9, 1},   {6, 6, 6},
                                 {10, 3, 3}, {3, 10, 3}, {25, 18, 11}};
  unsigned seed = 314159u;
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    int m = cases[c][0], n = cases[c][1], r = cases[c][2], rank = -1;
    double *A = rank_deficient(&seed, m, n, r), *X = dt_new((size_t)n * m);
    teal_error err;
    teal_error_clear(&err);
    ck_assert_int_eq(teal_dense_pinv(A, m, n, -1.0, X, &rank, &err), TEAL_OK);
    ck_assert_int_eq(rank, r);
    check_penrose(A, m, n, X);
    ck_assert_int_eq(teal_dense_pinv(A, m, n, -1.0, X, NULL, NULL), TEAL_OK); /* rank optional */
    free(A), free(X);
  }
}
END_TEST

START_TEST(test_pinv_known) {
  /* pinv([[1, 2], [2, 4]]) = A / 25 */
  double A[4] = {1, 2, 2, 4}, X[4];
  int rank = -1;
  ck_assert_int_eq(teal_dense_pinv(A, 2, 2, -1.0, X, &rank, NULL), TEAL_OK);
  ck_assert_int_eq(rank, 1);
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq_tol(X[i], A[i] / 25.0, 1e-15);
  }
  /* full column rank: pinv = (A'A)^-1 A'; here A = [1; 2] -> [1 2] / 5 */
  double c[2] = {1, 2}, ci[2];
  ck_assert_int_eq(teal_dense_pinv(c, 2, 1, -1.0, ci, &rank, NULL), TEAL_OK);
  ck_assert_double_eq_tol(ci[0], 0.2, 1e-15);
  ck_assert_double_eq_tol(ci[1], 0.4, 1e-15);
  /* the tolerance drops small singular values */
  double D[4] = {2, 0, 0, 1e-3}, Di[4];
  ck_assert_int_eq(teal_dense_pinv(D, 2, 2, 1e-2, Di, &rank, NULL), TEAL_OK);
  ck_assert_int_eq(rank, 1);
  ck_assert_double_eq_tol(Di[0], 0.5, 1e-15);
  ck_assert_double_eq(Di[3], 0.0);
  ck_assert_int_eq(teal_dense_pinv(D, 2, 2, -1.0, Di, &rank, NULL), TEAL_OK);
  ck_assert_int_eq(rank, 2);
  ck_assert_double_eq_tol(Di[3], 1e3, 1e-10);
  /* zero matrix -> zero pseudo-inverse */
  double Z[6] = {0}, Zi[6] = {1, 1, 1, 1, 1, 1};
  ck_assert_int_eq(teal_dense_pinv(Z, 2, 3, -1.0, Zi, &rank, NULL), TEAL_OK);
  ck_assert_int_eq(rank, 0);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq(Zi[i], 0.0);
  }
}
END_TEST

START_TEST(test_pinv_zero_size_and_bad_input) {
  int rank = -1;
  ck_assert_int_eq(teal_dense_pinv(NULL, 0, 4, -1.0, NULL, &rank, NULL), TEAL_OK);
  ck_assert_int_eq(rank, 0);
  teal_error err;
  double A[4] = {1, 2, 3, 4}, X[4];
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_pinv(A, 2, -2, -1.0, X, &rank, &err), err, TEAL_EINVAL, "pinv");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_pinv(NULL, 2, 2, -1.0, X, &rank, &err), err, TEAL_EINVAL, "NULL A");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_pinv(A, 2, 2, -1.0, NULL, &rank, &err), err, TEAL_EINVAL, "NULL Ainv");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_pinv(A, 2, 2, NAN, X, &rank, &err), err, TEAL_EINVAL, "tol");
  A[1] = -INFINITY;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_pinv(A, 2, 2, -1.0, X, &rank, &err), err, TEAL_ENONFINITE, "(0, 1)");
}
END_TEST

/* Every allocation failure gives TEAL_ENOMEM and leaks nothing. */
static int oom_call(void *ctx, teal_error *err) {
  double A[12] = {1, 2, 3, 4, 2, 4, 6, 8, 0, 1, 0, 1}, U[9], s[3], Vt[16], X[12];
  int rank;
  switch (*(int *)ctx) {
    case 0:
      return teal_dense_svd(A, 3, 4, U, s, Vt, err);
    case 1:
      return teal_dense_rank(A, 3, 4, -1.0, &rank, err);
    default:
      return teal_dense_pinv(A, 3, 4, -1.0, X, &rank, err);
  }
}

START_TEST(test_out_of_memory) {
  const char *names[] = {"svd", "rank", "pinv"};
  for (int which = 0; which < 3; which++) {
    ck_assert_uint_gt(dt_check_oom(oom_call, &which, names[which]), 0);
  }
}
END_TEST

static Suite *dense_svd_suite(void) {
  Suite *s = suite_create("dense_svd");
  TCase *tc = tcase_create("svd");
  tcase_add_test(tc, test_svd_shapes);
  tcase_add_test(tc, test_svd_known);
  tcase_add_test(tc, test_svd_zero_size_and_bad_input);
  suite_add_tcase(s, tc);
  tc = tcase_create("rank_pinv");
  tcase_add_test(tc, test_rank);
  tcase_add_test(tc, test_pinv_penrose);
  tcase_add_test(tc, test_pinv_known);
  tcase_add_test(tc, test_pinv_zero_size_and_bad_input);
  tcase_add_test(tc, test_out_of_memory);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return dt_run(dense_svd_suite()); }
