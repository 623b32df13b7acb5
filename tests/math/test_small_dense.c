/* Tests of math/small_dense: Cholesky and LU against hand-computed factors
 * and solutions, failing pivots reported by index, and the inverse against
 * the identity. */
#include <check.h>
#include <math.h>

#include "math/small_dense.h"

/* A = L0 L0' with L0 = [2 0 0; 1 3 0; -1 2 4]. */
static const double k_L0[9] = {2, 0, 0, 1, 3, 0, -1, 2, 4};

static void spd_from_l0(double *A) {
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      double s = 0.0;
      for (int k = 0; k < 3; k++) {
        s += k_L0[i * 3 + k] * k_L0[j * 3 + k];
      }
      A[i * 3 + j] = s;
    }
  }
}

START_TEST(cholesky_recovers_the_factor) {
  double A[9];
  spd_from_l0(A);
  ck_assert_int_eq(teal_small_cholesky(A, 3, 0.0), 0);
  for (int i = 0; i < 9; i++) {
    ck_assert_double_eq_tol(A[i], k_L0[i], 1e-14);
  }
}
END_TEST

START_TEST(cholesky_solve_and_inverse) {
  double A[9], L[9], b[3] = {1.0, -2.0, 0.5}, x[3];
  spd_from_l0(A);
  for (int i = 0; i < 9; i++) {
    L[i] = A[i];
  }
  ck_assert_int_eq(teal_small_cholesky(L, 3, 0.0), 0);
  for (int i = 0; i < 3; i++) {
    x[i] = b[i];
  }
  teal_small_cholesky_solve(L, 3, x);
  for (int i = 0; i < 3; i++) { /* A x = b */
    double r = -b[i];
    for (int j = 0; j < 3; j++) {
      r += A[i * 3 + j] * x[j];
    }
    ck_assert_double_eq_tol(r, 0.0, 1e-13);
  }
  double inv[9];
  teal_small_cholesky_inverse(L, 3, inv);
  for (int i = 0; i < 3; i++) { /* A inv = 1 */
    for (int j = 0; j < 3; j++) {
      double s = 0.0;
      for (int k = 0; k < 3; k++) {
        s += A[i * 3 + k] * inv[k * 3 + j];
      }
      ck_assert_double_eq_tol(s, i == j ? 1.0 : 0.0, 1e-13);
    }
  }
}
END_TEST

START_TEST(cholesky_names_the_failing_pivot) {
  double indefinite[4] = {1.0, 2.0, 2.0, 1.0}; /* second pivot 1 - 4 < 0 */
  ck_assert_int_eq(teal_small_cholesky(indefinite, 2, 0.0), 2);
  double nan_first[4] = {NAN, 0.0, 0.0, 1.0};
  ck_assert_int_eq(teal_small_cholesky(nan_first, 2, 0.0), 1);
  double inf_first[4] = {INFINITY, 0.0, 0.0, 1.0};
  ck_assert_int_eq(teal_small_cholesky(inf_first, 2, 0.0), 1);
  double tiny[4] = {1.0, 0.0, 0.0, 1e-15}; /* below a relative floor of 1e-13 */
  ck_assert_int_eq(teal_small_cholesky(tiny, 2, 1e-13), 2);
}
END_TEST

START_TEST(lu_pivots_and_solves) {
  /* the zero leading entry forces a row swap */
  double A[9] = {0, 2, 1, 1, 1, 1, 2, 1, 3};
  double b[3] = {3.0, 3.0, 6.0}; /* x = (1, 1, 1) */
  int piv[3];
  ck_assert_int_eq(teal_small_lu_factor(A, 3, piv), 0);
  ck_assert_int_eq(piv[0], 2);
  teal_small_lu_solve(A, 3, piv, b);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(b[i], 1.0, 1e-14);
  }
}
END_TEST

START_TEST(lu_names_the_singular_pivot) {
  double rank_one[4] = {1.0, 2.0, 2.0, 4.0};
  int piv[2];
  ck_assert_int_eq(teal_small_lu_factor(rank_one, 2, piv), 2);
  double with_nan[4] = {NAN, 1.0, 1.0, 1.0};
  ck_assert_int_eq(teal_small_lu_factor(with_nan, 2, piv), 1);
}
END_TEST

int main(void) {
  Suite *s = suite_create("small_dense");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, cholesky_recovers_the_factor);
  tcase_add_test(tc, cholesky_solve_and_inverse);
  tcase_add_test(tc, cholesky_names_the_failing_pivot);
  tcase_add_test(tc, lu_pivots_and_solves);
  tcase_add_test(tc, lu_names_the_singular_pivot);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
