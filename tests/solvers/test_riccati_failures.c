/* Tests of the Riccati solvers' failures: not stabilizable, boundary
 * eigenvalues, R not positive definite, non-finite and non-symmetric data,
 * bad sizes and pointers, allocation failures. */
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

static void expect_failure(ts_ric_ric_fn f, const double *A, const double *B, const double *Q,
                           const double *R, const double *N, int n, int m, int code,
                           const char *what) {
  double X[16], res = 123.0;
  for (int i = 0; i < 16; i++) {
    X[i] = 42.0;
  }
  teal_error err;
  teal_error_clear(&err);
  int rc = f(A, B, Q, R, N, n, m, n > 0 ? X : NULL, &res, &err);
  ck_assert_msg(rc == code, "%s: returned %d (%s), expected %d", what, rc, err.message, code);
  ck_assert_int_eq(err.code, code);
  ck_assert_msg(strlen(err.message) > 0, "%s: no message", what);
  ck_assert_msg(strstr(err.message, f == teal_care ? "care" : "dare") != NULL, "%s: %s", what,
                err.message);
  for (int i = 0; i < 16; i++) {
    ck_assert_msg(X[i] == 42.0, "%s: X written on failure", what);
  }
  ck_assert_double_eq(res, 123.0);
  /* err may be NULL */
  ck_assert_int_eq(f(A, B, Q, R, N, n, m, n > 0 ? X : NULL, NULL, NULL), code);
}

START_TEST(test_not_stabilizable) {
  /* the mode at +1 (resp. 2) is not reachable from u */
  const double A[4] = {1, 0, 0, -1}, Ad[4] = {2, 0, 0, 0.5}, B[2] = {0, 1}, Q[4] = {1, 0, 0, 1};
  const double R[1] = {1};
  expect_failure(teal_care, A, B, Q, R, NULL, 2, 1, TEAL_ENOCONV, "care not stabilizable");
  expect_failure(teal_dare, Ad, B, Q, R, NULL, 2, 1, TEAL_ENOCONV, "dare not stabilizable");
  teal_error err;
  double X[4];
  teal_care(A, B, Q, R, NULL, 2, 1, X, NULL, &err);
  ck_assert_msg(strstr(err.message, "no stabilizing solution") != NULL, "%s", err.message);
  /* random 6-state system with an unreachable unstable block */
  enum { N = 6, M = 2 };
  unsigned seed = 77u;
  double A6[N * N], B6[N * M], Q6[N * N] = {0}, R6[M * M] = {1, 0, 0, 1};
  ts_ric_mat_random(&seed, A6, N, N, -1.0, 1.0);
  ts_ric_mat_random(&seed, B6, N, M, -1.0, 1.0);
  for (int i = 0; i < 2; i++) { /* states 0, 1 evolve on their own: A6(0:1, 2:5) = 0 */
    for (int j = 2; j < N; j++) {
      A6[i * N + j] = 0.0;
    }
    B6[i * M] = B6[i * M + 1] = 0.0;
  }
  A6[0] = 1.5, A6[1] = 0.3, A6[N] = -0.3, A6[N + 1] = 1.5; /* eigenvalues 1.5 +- 0.3i */
  for (int i = 0; i < N; i++) {
    Q6[i * N + i] = 1.0;
  }
  expect_failure(teal_care, A6, B6, Q6, R6, NULL, N, M, TEAL_ENOCONV, "care 6-state");
  expect_failure(teal_dare, A6, B6, Q6, R6, NULL, N, M, TEAL_ENOCONV, "dare 6-state");
}
END_TEST

START_TEST(test_boundary_eigenvalues) {
  /* CARE: an integrator neither controllable nor observed: eigenvalue 0
   * twice; the oscillator likewise with +-i. DARE: a unit pole likewise. */
  const double zero[1] = {0}, one[1] = {1}, mone[1] = {-1};
  expect_failure(teal_care, zero, zero, zero, one, NULL, 1, 1, TEAL_ENOCONV, "care integrator");
  expect_failure(teal_dare, one, zero, zero, one, NULL, 1, 1, TEAL_ENOCONV, "dare unit pole");
  expect_failure(teal_dare, mone, zero, zero, one, NULL, 1, 1, TEAL_ENOCONV, "dare pole -1");
  const double A[4] = {0, 1, -1, 0}, B[2] = {0, 0}, Q[4] = {0};
  expect_failure(teal_care, A, B, Q, one, NULL, 2, 1, TEAL_ENOCONV, "care oscillator");
  expect_failure(teal_dare, A, B, Q, one, NULL, 2, 1, TEAL_ENOCONV, "dare rotation");
  /* controllable but not detectable (Q = 0) with poles on the boundary */
  expect_failure(teal_care, zero, one, zero, one, NULL, 1, 1, TEAL_ENOCONV, "care Q = 0");
  expect_failure(teal_dare, one, one, zero, one, NULL, 1, 1, TEAL_ENOCONV, "dare Q = 0");
  const double Bc[2] = {0, 1};
  expect_failure(teal_care, A, Bc, Q, one, NULL, 2, 1, TEAL_ENOCONV, "care oscillator Q = 0");
}
END_TEST

START_TEST(test_r_not_positive_definite) {
  const double A[4] = {0, 1, 0, 0}, B[4] = {0, 0, 1, 1}, Q[4] = {1, 0, 0, 1};
  const double Rind[4] = {1, 2, 2, 1}, Rzero[4] = {0}, Rneg[4] = {-1, 0, 0, 1};
  ts_ric_ric_fn fns[2] = {teal_care, teal_dare};
  for (int f = 0; f < 2; f++) {
    expect_failure(fns[f], A, B, Q, Rind, NULL, 2, 2, TEAL_ESINGULAR, "indefinite R");
    expect_failure(fns[f], A, B, Q, Rzero, NULL, 2, 2, TEAL_ESINGULAR, "zero R");
    expect_failure(fns[f], A, B, Q, Rneg, NULL, 2, 2, TEAL_ESINGULAR, "negative R");
  }
}
END_TEST

START_TEST(test_non_finite) {
  const double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, Q[4] = {1, 0, 0, 1}, R[1] = {1};
  const double N[2] = {0, 0};
  const double *base[5] = {A, B, Q, R, N};
  const int count[5] = {4, 2, 4, 1, 2};
  const double bad[2] = {NAN, INFINITY};
  ts_ric_ric_fn fns[2] = {teal_care, teal_dare};
  for (int f = 0; f < 2; f++) {
    for (int which = 0; which < 5; which++) {
      for (int b = 0; b < 2; b++) {
        double M[5][4];
        const double *args[5];
        for (int k = 0; k < 5; k++) {
          memcpy(M[k], base[k], sizeof(double) * (size_t)count[k]);
          args[k] = M[k];
        }
        M[which][count[which] - 1] = bad[b];
        expect_failure(fns[f], args[0], args[1], args[2], args[3], args[4], 2, 1,
                       TEAL_ENONFINITE, "non-finite entry");
      }
    }
  }
}
END_TEST

START_TEST(test_non_symmetric) {
  const double A[4] = {0, 1, 0, 0}, B[4] = {0, 0, 1, 1}, Q[4] = {1, 0, 0, 1};
  const double Qbad[4] = {1, 0.5, 0, 1}, R[4] = {1, 0, 0, 1}, Rbad[4] = {2, 0.1, 0, 2};
  ts_ric_ric_fn fns[2] = {teal_care, teal_dare};
  for (int f = 0; f < 2; f++) {
    expect_failure(fns[f], A, B, Qbad, R, NULL, 2, 2, TEAL_EINVAL, "non-symmetric Q");
    expect_failure(fns[f], A, B, Q, Rbad, NULL, 2, 2, TEAL_EINVAL, "non-symmetric R");
  }
  /* tiny asymmetry (rounding) is accepted */
  double Qt[4] = {1, 1e-15, 0, 1}, X[4];
  ck_assert_int_eq(teal_care(A, B, Qt, R, NULL, 2, 2, X, NULL, NULL), TEAL_OK);
}
END_TEST

START_TEST(test_bad_sizes_and_pointers) {
  const double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, Q[4] = {1, 0, 0, 1}, R[1] = {1};
  ts_ric_ric_fn fns[2] = {teal_care, teal_dare};
  for (int f = 0; f < 2; f++) {
    expect_failure(fns[f], A, B, Q, R, NULL, -1, 1, TEAL_ESIZE, "n < 0");
    expect_failure(fns[f], A, B, Q, R, NULL, 2, -1, TEAL_ESIZE, "m < 0");
    expect_failure(fns[f], A, B, Q, R, NULL, 1 << 20, 1, TEAL_ESIZE, "huge n");
    expect_failure(fns[f], NULL, B, Q, R, NULL, 2, 1, TEAL_EINVAL, "A NULL");
    expect_failure(fns[f], A, NULL, Q, R, NULL, 2, 1, TEAL_EINVAL, "B NULL");
    expect_failure(fns[f], A, B, NULL, R, NULL, 2, 1, TEAL_EINVAL, "Q NULL");
    expect_failure(fns[f], A, B, Q, NULL, NULL, 2, 1, TEAL_EINVAL, "R NULL");
    teal_error err;
    teal_error_clear(&err);
    ck_assert_int_eq(fns[f](A, B, Q, R, NULL, 2, 1, NULL, NULL, &err), TEAL_EINVAL);
    ck_assert_str_ne(err.message, "");
  }
}
END_TEST

/* Every allocation failure (one at a time) gives TEAL_ENOMEM or, when it
 * only hits the optional refinement's scratch, success; nothing leaks. */
START_TEST(test_allocation_failures) {
  ts_ric_problem p = ts_ric_problem_random(5u, 6, 3, 0);
  ts_ric_problem pd = ts_ric_problem_random(6u, 6, 3, 1);
  double X[36], Xref[36];
  ts_ric_ric_fn fns[2] = {teal_care, teal_dare};
  const ts_ric_problem *ps[2] = {&p, &pd};
  for (int f = 0; f < 2; f++) {
    const ts_ric_problem *q = ps[f];
    ck_assert_int_eq(fns[f](q->A, q->B, q->Q, q->R, NULL, 6, 3, Xref, NULL, NULL), TEAL_OK);
    ts_alloc_install();
    int succeeded = 0;
    for (long k = 0; k < 200 && !succeeded; k++) {
      ts_alloc_reset();
      ts_alloc_fail_after(k, 0);
      teal_error err;
      teal_error_clear(&err);
      int rc = fns[f](q->A, q->B, q->Q, q->R, NULL, 6, 3, X, NULL, &err);
      ck_assert_msg(rc == TEAL_OK || rc == TEAL_ENOMEM, "k = %ld: %d (%s)", k, rc, err.message);
      ck_assert_msg(ts_alloc_allocs() == ts_alloc_frees(), "k = %ld: %lu allocs, %lu frees", k,
                    ts_alloc_allocs(), ts_alloc_frees());
      if (rc == TEAL_ENOMEM) {
        ck_assert_str_ne(err.message, "");
      }
      succeeded = rc == TEAL_OK && ts_alloc_stats_get()->failures == 0;
      if (rc == TEAL_OK) {
        ck_assert(ts_ric_rel_diff(X, Xref, 6) < 1e-10);
      }
    }
    ts_alloc_uninstall();
    ck_assert(succeeded);
  }
  ts_ric_problem_free(&p);
  ts_ric_problem_free(&pd);
}
END_TEST

static Suite *riccati_failures_suite(void) {
  Suite *s = suite_create("riccati_failures");
  TCase *tc = tcase_create("failures");
  tcase_add_test(tc, test_not_stabilizable);
  tcase_add_test(tc, test_boundary_eigenvalues);
  tcase_add_test(tc, test_r_not_positive_definite);
  tcase_add_test(tc, test_non_finite);
  tcase_add_test(tc, test_non_symmetric);
  tcase_add_test(tc, test_bad_sizes_and_pointers);
  tcase_add_test(tc, test_allocation_failures);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(riccati_failures_suite());
}
