/* Dense LU (teal_dense_lu_factor / teal_dense_lu_solve): accurate solves of random
 * well-conditioned systems, pivoting, singular and non-finite matrices,
 * the empty system and argument checks. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/error.h"
#include "solvers/dense_lu.h"
#include "support/test_support.h"

enum { NMAX = 64 };

/* ||A x - b||_inf / (||A||_inf ||x||_inf + ||b||_inf) */
static double relative_residual(const double *A, int n, const double *x, const double *b) {
  double rmax = 0.0, amax = 0.0, xmax = 0.0, bmax = 0.0;
  for (int i = 0; i < n; i++) {
    double r = -b[i], arow = 0.0;
    for (int j = 0; j < n; j++) {
      r += A[i * n + j] * x[j];
      arow += fabs(A[i * n + j]);
    }
    rmax = fmax(rmax, fabs(r));
    amax = fmax(amax, arow);
    xmax = fmax(xmax, fabs(x[i]));
    bmax = fmax(bmax, fabs(b[i]));
  }
  return rmax / (amax * xmax + bmax);
}

/* Random matrix with entries in [-1, 1) plus a diagonal shift of n: well
 * conditioned (diagonally dominant) but with every entry nonzero. */
static void random_matrix(unsigned *seed, int n, double *A, double shift) {
  for (int i = 0; i < n * n; i++) {
    A[i] = ts_rand_uniform(seed, -1.0, 1.0);
  }
  for (int i = 0; i < n; i++) {
    A[i * n + i] += shift;
  }
}

START_TEST(test_random_systems_solved_accurately) {
  static const int sizes[] = {1, 2, 3, 5, 8, 17, 40, NMAX};
  unsigned seed = 20240611u;
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int n = sizes[s];
    double A[NMAX * NMAX], LU[NMAX * NMAX], x_true[NMAX], b[NMAX], x[NMAX];
    int piv[NMAX];
    random_matrix(&seed, n, A, (double)n);
    for (int i = 0; i < n; i++) {
      x_true[i] = ts_rand_uniform(&seed, -10.0, 10.0);
    }
    for (int i = 0; i < n; i++) {
      b[i] = 0.0;
      for (int j = 0; j < n; j++) {
        b[i] += A[i * n + j] * x_true[j];
      }
    }
    memcpy(LU, A, sizeof(double) * (size_t)(n * n));
    memcpy(x, b, sizeof(double) * (size_t)n);
    teal_error err;
    teal_error_clear(&err);
    ck_assert_int_eq(teal_dense_lu_factor(LU, n, piv, &err), TEAL_OK);
    ck_assert_int_eq(err.code, TEAL_OK);
    ck_assert_int_eq(teal_dense_lu_solve(LU, n, piv, x, &err), TEAL_OK);
    double res = relative_residual(A, n, x, b);
    ck_assert_msg(res < 1e-12, "n = %d: relative residual %g", n, res);
    for (int i = 0; i < n; i++) {
      ck_assert_msg(fabs(x[i] - x_true[i]) <= 1e-10 * (1.0 + fabs(x_true[i])),
                    "n = %d: x[%d] = %.17g, expected %.17g", n, i, x[i], x_true[i]);
    }
  }
}
END_TEST

/* A general (not diagonally dominant) random matrix still solves to a small
 * backward error, and one factorization serves several right-hand sides. */
START_TEST(test_factor_reused_for_several_right_hand_sides) {
  enum { N = 12, NRHS = 5 };
  unsigned seed = 777u;
  double A[N * N], LU[N * N];
  int piv[N];
  random_matrix(&seed, N, A, 0.0);
  memcpy(LU, A, sizeof A);
  ck_assert_int_eq(teal_dense_lu_factor(LU, N, piv, NULL), TEAL_OK);
  for (int r = 0; r < NRHS; r++) {
    double b[N], x[N];
    for (int i = 0; i < N; i++) {
      b[i] = ts_rand_uniform(&seed, -1.0, 1.0);
    }
    memcpy(x, b, sizeof b);
    ck_assert_int_eq(teal_dense_lu_solve(LU, N, piv, x, NULL), TEAL_OK);
    double res = relative_residual(A, N, x, b);
    ck_assert_msg(res < 1e-12, "rhs %d: relative residual %g", r, res);
  }
}
END_TEST

/* A zero leading entry needs a row exchange; without pivoting this fails. */
START_TEST(test_pivoting_needed) {
  double A[9] = {0.0, 2.0, 1.0,  /**/
                 1.0, 1.0, 1.0,  /**/
                 3.0, 0.0, -1.0};
  double LU[9];
  memcpy(LU, A, sizeof A);
  int piv[3];
  ck_assert_int_eq(teal_dense_lu_factor(LU, 3, piv, NULL), TEAL_OK);
  double b[3] = {3.0, 3.0, 2.0}; /* x = (1, 1, 1) */
  ck_assert_int_eq(teal_dense_lu_solve(LU, 3, piv, b, NULL), TEAL_OK);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(b[i], 1.0, 1e-14);
  }
}
END_TEST

START_TEST(test_singular_matrices) {
  /* rank 1 */
  double A[4] = {1.0, 2.0, 2.0, 4.0};
  int piv[3];
  teal_error err;
  teal_error_clear(&err);
  ck_assert_int_eq(teal_dense_lu_factor(A, 2, piv, &err), TEAL_ESINGULAR);
  ck_assert_int_eq(err.code, TEAL_ESINGULAR);
  ck_assert_ptr_nonnull(strstr(err.message, "singular"));

  /* zero column in a 3 x 3 */
  double B[9] = {1.0, 0.0, 2.0, 4.0, 0.0, 5.0, 7.0, 0.0, 9.0};
  teal_error_clear(&err);
  ck_assert_int_eq(teal_dense_lu_factor(B, 3, piv, &err), TEAL_ESINGULAR);
  ck_assert_int_eq(err.code, TEAL_ESINGULAR);

  /* all zeros; NULL err is allowed */
  double Z[4] = {0.0, 0.0, 0.0, 0.0};
  ck_assert_int_eq(teal_dense_lu_factor(Z, 2, piv, NULL), TEAL_ESINGULAR);

  /* nearly (not exactly) singular factors fine */
  double C[4] = {1.0, 1.0, 1.0, 1.0 + 1e-10};
  ck_assert_int_eq(teal_dense_lu_factor(C, 2, piv, NULL), TEAL_OK);
}
END_TEST

START_TEST(test_non_finite_entries) {
  int piv[3];
  teal_error err;
  double A[9] = {1.0, 0.0, 0.0, 0.0, 1.0, NAN, 0.0, 0.0, 1.0};
  teal_error_clear(&err);
  ck_assert_int_eq(teal_dense_lu_factor(A, 3, piv, &err), TEAL_ENONFINITE);
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(err.message, "(1, 2)")); /* names the entry */

  double B[4] = {INFINITY, 0.0, 0.0, 1.0};
  teal_error_clear(&err);
  ck_assert_int_eq(teal_dense_lu_factor(B, 2, piv, &err), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(err.message, "(0, 0)"));

  double C[4] = {1.0, 0.0, 0.0, -INFINITY};
  ck_assert_int_eq(teal_dense_lu_factor(C, 2, piv, NULL), TEAL_ENONFINITE);
}
END_TEST

/* A solution that overflows is reported rather than returned as Inf. */
START_TEST(test_solution_overflow_reported) {
  double A[4] = {1e-300, 0.0, 0.0, 1.0};
  int piv[2];
  ck_assert_int_eq(teal_dense_lu_factor(A, 2, piv, NULL), TEAL_OK);
  double b[2] = {1e300, 1.0};
  teal_error err;
  teal_error_clear(&err);
  ck_assert_int_eq(teal_dense_lu_solve(A, 2, piv, b, &err), TEAL_ENONFINITE);
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ck_assert_str_ne(err.message, "");
}
END_TEST

START_TEST(test_empty_system) {
  teal_error err;
  teal_error_clear(&err);
  ck_assert_int_eq(teal_dense_lu_factor(NULL, 0, NULL, &err), TEAL_OK);
  ck_assert_int_eq(teal_dense_lu_solve(NULL, 0, NULL, NULL, &err), TEAL_OK);
  ck_assert_int_eq(err.code, TEAL_OK);
}
END_TEST

START_TEST(test_bad_arguments) {
  double A[4] = {1.0, 0.0, 0.0, 1.0}, b[2] = {1.0, 2.0};
  int piv[2];
  teal_error err;
  teal_error_clear(&err);
  ck_assert_int_eq(teal_dense_lu_factor(A, -1, piv, &err), TEAL_EINVAL);
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_str_ne(err.message, "");
  ck_assert_int_eq(teal_dense_lu_factor(NULL, 2, piv, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_dense_lu_factor(A, 2, NULL, NULL), TEAL_EINVAL);

  ck_assert_int_eq(teal_dense_lu_factor(A, 2, piv, NULL), TEAL_OK);
  teal_error_clear(&err);
  ck_assert_int_eq(teal_dense_lu_solve(A, -2, piv, b, &err), TEAL_EINVAL);
  ck_assert_str_ne(err.message, "");
  ck_assert_int_eq(teal_dense_lu_solve(NULL, 2, piv, b, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_dense_lu_solve(A, 2, NULL, b, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_dense_lu_solve(A, 2, piv, NULL, NULL), TEAL_EINVAL);
  /* b untouched by the rejected calls */
  ck_assert_double_eq(b[0], 1.0);
  ck_assert_double_eq(b[1], 2.0);
}
END_TEST

static Suite *dense_lu_suite(void) {
  Suite *s = suite_create("dense_lu");
  TCase *tc = tcase_create("solve");
  tcase_add_test(tc, test_random_systems_solved_accurately);
  tcase_add_test(tc, test_factor_reused_for_several_right_hand_sides);
  tcase_add_test(tc, test_pivoting_needed);
  tcase_add_test(tc, test_empty_system);
  suite_add_tcase(s, tc);

  tc = tcase_create("failures");
  tcase_add_test(tc, test_singular_matrices);
  tcase_add_test(tc, test_non_finite_entries);
  tcase_add_test(tc, test_solution_overflow_reported);
  tcase_add_test(tc, test_bad_arguments);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(dense_lu_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
