/* The pivot-dropping Cholesky solve (multibody/constraints/
 * rank_revealing_solve.c): exact on a positive definite system (checked by
 * its residual), a solution of a consistent singular system of redundant
 * rows with the right rank, and clear codes for bad input. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/error.h"
#include "multibody/constraints/rank_revealing_solve.h"
#include "support/test_support.h"

/* S = A A' for the m x n row-major A. */
static void gram(const double *A, int m, int n, double *S) {
  for (int i = 0; i < m; i++) {
    for (int k = 0; k < m; k++) {
      double acc = 0.0;
      for (int j = 0; j < n; j++) {
        acc += A[i * n + j] * A[k * n + j];
      }
      S[i * m + k] = acc;
    }
  }
}

static double residual(const double *S, int m, const double *x, const double *b) {
  double worst = 0.0;
  for (int i = 0; i < m; i++) {
    double acc = -b[i];
    for (int k = 0; k < m; k++) {
      acc += S[i * m + k] * x[k];
    }
    worst = fmax(worst, fabs(acc));
  }
  return worst;
}

START_TEST(definite_system_is_solved) {
  double A[12] = {1, 2, 0, 1, 0, 1, 3, -1, 2, 0, 1, 1}, S[9], F[9], b[3] = {1, -2, 0.5}, x[3];
  gram(A, 3, 4, S);
  memcpy(F, S, sizeof(S));
  memcpy(x, b, sizeof(b));
  int rank = 0;
  ck_assert_int_eq(teal_rr_cholesky_solve(F, 3, x, 0.0, &rank), TEAL_OK);
  ck_assert_int_eq(rank, 3);
  ck_assert_double_lt(residual(S, 3, x, b), 1e-13);
}
END_TEST

START_TEST(redundant_rows_are_dropped) {
  /* row 2 = row 0 + row 1, row 3 = 2 row 0: rank 2 */
  double A[16] = {1, 2, 0, 1, 0, 1, 3, -1, 1, 3, 3, 0, 2, 4, 0, 2}, S[16], F[16], x[4], b[4];
  double y[4] = {0.3, -1.0, 2.0, 0.5}; /* b = A y is consistent */
  for (int i = 0; i < 4; i++) {
    b[i] = 0.0;
    for (int j = 0; j < 4; j++) {
      b[i] += A[i * 4 + j] * y[j];
    }
  }
  gram(A, 4, 4, S);
  /* S x = A A' x = b has a solution when b is in the range of A A' = range of A */
  memcpy(F, S, sizeof(S));
  memcpy(x, b, sizeof(b));
  int rank = 0;
  ck_assert_int_eq(teal_rr_cholesky_solve(F, 4, x, 1e-10, &rank), TEAL_OK);
  ck_assert_int_eq(rank, 2);
  ck_assert_double_eq(x[2], 0.0);
  ck_assert_double_eq(x[3], 0.0);
  ck_assert_double_lt(residual(S, 4, x, b), 1e-12);
}
END_TEST

START_TEST(bad_input_is_reported) {
  double S[4] = {1, 0, 0, NAN}, b[2] = {1, 1};
  ck_assert_int_eq(teal_rr_cholesky_solve(S, 2, b, 0.0, NULL), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_rr_cholesky_solve(NULL, 2, b, 0.0, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_rr_cholesky_solve(S, -1, b, 0.0, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_rr_cholesky_solve(S, 0, b, 0.0, NULL), TEAL_OK);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("rank_revealing_solve");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, definite_system_is_solved);
  tcase_add_test(tc, redundant_rows_are_dropped);
  tcase_add_test(tc, bad_input_is_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
