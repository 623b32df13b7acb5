/* The pivoted PSD solve (solvers/dense_psd.c): exact on a positive definite
 * system (checked by its residual), a solution of a consistent singular
 * system of redundant rows with the right rank whatever the rows' order,
 * a residual that tells a conflicting system from a consistent one, and
 * clear codes and messages for bad input. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/error.h"
#include "solvers/dense_psd.h"
#include "support/error_messages.h"
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

/* b = A y for the 4 x 4 A: in the range of A A', so S x = b is consistent. */
static void consistent_rhs(const double *A, double *b) {
  const double y[4] = {0.3, -1.0, 2.0, 0.5};
  for (int i = 0; i < 4; i++) {
    b[i] = 0.0;
    for (int j = 0; j < 4; j++) {
      b[i] += A[i * 4 + j] * y[j];
    }
  }
}

START_TEST(definite_system_is_solved) {
  double A[12] = {1, 2, 0, 1, 0, 1, 3, -1, 2, 0, 1, 1}, S[9], F[9], b[3] = {1, -2, 0.5}, x[3];
  double work[6];
  gram(A, 3, 4, S);
  memcpy(F, S, sizeof(S));
  memcpy(x, b, sizeof(b));
  int rank = 0;
  ck_assert_int_eq(teal_dense_psd_factor_solve(F, 3, x, 0.0, work, &rank, NULL), TEAL_OK);
  ck_assert_int_eq(rank, 3);
  ck_assert_double_lt(teal_dense_psd_residual(S, 3, b, x, NULL, NULL), 1e-15);
}
END_TEST

/* Rank 2 with the dependent rows placed first or last: pivoting keeps two
 * independent rows either way and the solution satisfies all four. */
static void check_redundant(const double *A) {
  double S[16], F[16], x[4], b[4], work[8];
  consistent_rhs(A, b);
  gram(A, 4, 4, S);
  memcpy(F, S, sizeof(S));
  memcpy(x, b, sizeof(b));
  int rank = 0, zeros = 0;
  ck_assert_int_eq(teal_dense_psd_factor_solve(F, 4, x, 1e-10, work, &rank, NULL), TEAL_OK);
  ck_assert_int_eq(rank, 2);
  for (int i = 0; i < 4; i++) {
    zeros += x[i] == 0.0;
  }
  ck_assert_int_eq(zeros, 2); /* a basic solution: the dropped rows' unknowns are 0 */
  ck_assert_double_lt(teal_dense_psd_residual(S, 4, b, x, NULL, NULL), 1e-14);
}

START_TEST(redundant_rows_are_dropped_in_any_order) {
  /* rows 2 = row 0 + row 1, row 3 = 2 row 0 */
  double last[16] = {1, 2, 0, 1, 0, 1, 3, -1, 1, 3, 3, 0, 2, 4, 0, 2};
  double first[16] = {1, 3, 3, 0, 2, 4, 0, 2, 1, 2, 0, 1, 0, 1, 3, -1};
  check_redundant(last);
  check_redundant(first);
}
END_TEST

START_TEST(residual_flags_a_conflict) {
  /* two copies of one row asking for different values: no solution */
  double S[4] = {2, 2, 2, 2}, F[4], b[2] = {1.0, 3.0}, x[2], work[4];
  double mask[2] = {1.0, 0.0};
  memcpy(F, S, sizeof(S));
  memcpy(x, b, sizeof(b));
  int rank = 0, row = 0;
  ck_assert_int_eq(teal_dense_psd_factor_solve(F, 2, x, 0.0, work, &rank, NULL), TEAL_OK);
  ck_assert_int_eq(rank, 1);
  /* x keeps one row exactly; the other is off by |3 - 1| = 2 */
  double rel = teal_dense_psd_residual(S, 2, b, x, NULL, &row);
  double expect = 2.0 / (3.0 + 2.0 * fmax(fabs(x[0]), fabs(x[1])));
  ck_assert_double_eq_tol(rel, expect, 1e-15);
  ck_assert_int_eq(row, x[0] != 0.0 ? 1 : 0);
  /* masking the offending row out leaves the kept one, solved exactly */
  mask[0] = x[0] != 0.0 ? 1.0 : 0.0;
  mask[1] = 1.0 - mask[0];
  ck_assert_double_lt(teal_dense_psd_residual(S, 2, b, x, mask, &row), 1e-15);
}
END_TEST

START_TEST(bad_input_is_reported) {
  double S[4] = {1, 0, 0, NAN}, b[2] = {1, 1}, work[4];
  int rank = 0;
  teal_error err = {0};
  TS_EXPECT_ERROR(teal_dense_psd_factor(S, 2, 0.0, work, &rank, &err), TEAL_ENONFINITE, &err,
                  "not finite");
  TS_EXPECT_ERROR(teal_dense_psd_factor(NULL, 2, 0.0, work, &rank, &err), TEAL_EINVAL, &err,
                  "NULL S");
  TS_EXPECT_ERROR(teal_dense_psd_factor(S, -1, 0.0, work, &rank, &err), TEAL_EINVAL, &err,
                  "n = -1");
  double L[4] = {1, 0, 0, 1}, nan_b[2] = {NAN, 0.0};
  TS_EXPECT_ERROR(teal_dense_psd_solve(L, 2, 3, work, b, &err), TEAL_EINVAL, &err, "rank 3");
  TS_EXPECT_ERROR(teal_dense_psd_solve(L, 2, 2, work, nan_b, &err), TEAL_ENONFINITE, &err,
                  "b (2 values)");
  ck_assert_int_eq(teal_dense_psd_factor_solve(S, 0, b, 0.0, work, NULL, NULL), TEAL_OK);
  ck_assert(isnan(teal_dense_psd_residual(NULL, 2, b, b, NULL, NULL)));
  ck_assert(isnan(teal_dense_psd_residual(S, 2, b, b, NULL, NULL)));
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("dense_psd");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, definite_system_is_solved);
  tcase_add_test(tc, redundant_rows_are_dropped_in_any_order);
  tcase_add_test(tc, residual_flags_a_conflict);
  tcase_add_test(tc, bad_input_is_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
