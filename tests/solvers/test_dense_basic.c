/* Basic dense operations: teal_dense_gemm against a reference product for every
 * transpose combination, degenerate sizes and bad input; teal_dense_all_finite,
 * teal_dense_norm_fro (including scaling near overflow/underflow) and
 * teal_dense_is_symmetric. */
#include "dense_test_util.h"

/* Reference C = alpha op(A) op(B) + beta C0. */
static void ref_gemm(int ta, int tb, int m, int n, int k, double alpha, const double *A,
                     const double *B, double beta, const double *C0, double *C) {
  dt_mul(ta, tb, m, n, k, A, B, C);
  for (int i = 0; i < m * n; i++) {
    C[i] = alpha * C[i] + beta * C0[i];
  }
}

START_TEST(test_gemm_all_transposes) {
  static const int dims[][3] = {{1, 1, 1}, {2, 3, 4},   {5, 1, 7},
                                {7, 6, 1}, {16, 9, 11}, {33, 40, 25}};
  unsigned seed = 31337u;
  for (size_t d = 0; d < sizeof dims / sizeof *dims; d++) {
    int m = dims[d][0], n = dims[d][1], k = dims[d][2];
    double *A = dt_new((size_t)m * k), *B = dt_new((size_t)k * n), *C0 = dt_new((size_t)m * n);
    double *C = dt_new((size_t)m * n), *R = dt_new((size_t)m * n);
    dt_rand(&seed, A, (size_t)m * k, -1, 1);
    dt_rand(&seed, B, (size_t)k * n, -1, 1);
    dt_rand(&seed, C0, (size_t)m * n, -1, 1);
    for (int ta = 0; ta < 2; ta++) {
      for (int tb = 0; tb < 2; tb++) {
        const double alphas[] = {1.0, -2.5}, betas[] = {0.0, 1.0, 0.75};
        for (int ia = 0; ia < 2; ia++) {
          for (int ib = 0; ib < 3; ib++) {
            memcpy(C, C0, sizeof(double) * (size_t)m * n);
            teal_error err;
            teal_error_clear(&err);
            ck_assert_int_eq(teal_dense_gemm(ta, tb, m, n, k, alphas[ia], A, B, betas[ib], C, &err),
                             TEAL_OK);
            ck_assert_int_eq(err.code, TEAL_OK);
            ref_gemm(ta, tb, m, n, k, alphas[ia], A, B, betas[ib], C0, R);
            double e = dt_maxdiff(C, R, (size_t)m * n);
            ck_assert_msg(e < 1e-13 * k + 1e-15, "%dx%dx%d ta %d tb %d: error %g", m, n, k, ta, tb,
                          e);
          }
        }
      }
    }
    free(A), free(B), free(C0), free(C), free(R);
  }
}
END_TEST

START_TEST(test_gemm_degenerate_sizes) {
  double C[6] = {1, 2, 3, 4, 5, 6};
  /* k = 0: C = beta C, A and B may be NULL */
  ck_assert_int_eq(teal_dense_gemm(0, 0, 2, 3, 0, 1.0, NULL, NULL, 2.0, C, NULL), TEAL_OK);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq(C[i], 2.0 * (i + 1));
  }
  /* beta = 0 ignores whatever C holds, NaN included */
  C[4] = NAN;
  ck_assert_int_eq(teal_dense_gemm(1, 1, 2, 3, 0, 1.0, NULL, NULL, 0.0, C, NULL), TEAL_OK);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq(C[i], 0.0);
  }
  double A[2] = {1, 2}, B[3] = {3, 4, 5};
  C[0] = NAN;
  ck_assert_int_eq(teal_dense_gemm(0, 0, 2, 3, 1, 1.0, A, B, 0.0, C, NULL), TEAL_OK);
  ck_assert_double_eq(C[0], 3.0);
  ck_assert_double_eq(C[5], 10.0);
  /* empty outputs (the inputs are still checked) */
  double B23[6] = {1, 2, 3, 4, 5, 6}, A22[4] = {1, 2, 3, 4};
  ck_assert_int_eq(teal_dense_gemm(0, 0, 0, 3, 2, 1.0, NULL, B23, 1.0, NULL, NULL), TEAL_OK);
  ck_assert_int_eq(teal_dense_gemm(0, 0, 2, 0, 2, 1.0, A22, NULL, 1.0, NULL, NULL), TEAL_OK);
  B23[5] = NAN;
  ck_assert_int_eq(teal_dense_gemm(0, 0, 0, 3, 2, 1.0, NULL, B23, 1.0, NULL, NULL),
                   TEAL_ENONFINITE);
  ck_assert_int_eq(teal_dense_gemm(0, 0, 0, 0, 0, 1.0, NULL, NULL, 1.0, NULL, NULL), TEAL_OK);
}
END_TEST

START_TEST(test_gemm_bad_input) {
  double A[4] = {1, 2, 3, 4}, B[4] = {1, 0, 0, 1}, C[4] = {0, 0, 0, 0};
  teal_error err;
  const int dims[][3] = {{-1, 2, 2}, {2, -1, 2}, {2, 2, -5}};
  for (int d = 0; d < 3; d++) {
    teal_error_clear(&err);
    DT_ASSERT_ERR(
        teal_dense_gemm(0, 0, dims[d][0], dims[d][1], dims[d][2], 1.0, A, B, 0.0, C, &err), err,
        TEAL_EINVAL, "gemm");
  }
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_gemm(0, 0, 2, 2, 2, 1.0, NULL, B, 0.0, C, &err), err, TEAL_EINVAL,
                "NULL A");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_gemm(0, 0, 2, 2, 2, 1.0, A, NULL, 0.0, C, &err), err, TEAL_EINVAL,
                "NULL B");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_gemm(0, 0, 2, 2, 2, 1.0, A, B, 0.0, NULL, &err), err, TEAL_EINVAL,
                "NULL C");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_gemm(0, 0, 2, 2, 2, 1.0, A, B, 0.0, A, &err), err, TEAL_EINVAL,
                "overlaps");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_gemm(0, 0, 2, 2, 2, NAN, A, B, 0.0, C, &err), err, TEAL_ENONFINITE,
                "alpha");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_gemm(0, 0, 2, 2, 2, 1.0, A, B, INFINITY, C, &err), err, TEAL_ENONFINITE,
                "beta");
  A[1] = NAN;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_gemm(0, 0, 2, 2, 2, 1.0, A, B, 0.0, C, &err), err, TEAL_ENONFINITE,
                "A (m x k) entry (0, 1)");
  A[1] = 2.0;
  B[2] = -INFINITY;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_gemm(0, 1, 2, 2, 2, 1.0, A, B, 0.0, C, &err), err, TEAL_ENONFINITE,
                "B (n x k) entry (1, 0)");
  B[2] = 0.0;
  C[3] = NAN;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_gemm(0, 0, 2, 2, 2, 1.0, A, B, 1.0, C, &err), err, TEAL_ENONFINITE,
                "C entry (1, 1)");
  /* overflow of the product is reported */
  double H[1] = {1e200}, Hc[1] = {0};
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_gemm(0, 0, 1, 1, 1, 1.0, H, H, 0.0, Hc, &err), err, TEAL_ENONFINITE,
                "overflow");
}
END_TEST

START_TEST(test_all_finite) {
  double A[6] = {1, 2, 3, 4, 5, 6};
  ck_assert(teal_dense_all_finite(A, 2, 3));
  ck_assert(teal_dense_all_finite(NULL, 0, 3));
  ck_assert(teal_dense_all_finite(NULL, 4, 0));
  ck_assert(!teal_dense_all_finite(NULL, 1, 1));
  ck_assert(!teal_dense_all_finite(A, -1, 3));
  A[5] = NAN;
  ck_assert(!teal_dense_all_finite(A, 2, 3));
  ck_assert(teal_dense_all_finite(A, 1, 5)); /* only the first 5 entries */
  A[5] = -INFINITY;
  ck_assert(!teal_dense_all_finite(A, 3, 2));
}
END_TEST

START_TEST(test_norm_fro) {
  double A[4] = {3, 4, 0, 0};
  ck_assert_double_eq_tol(teal_dense_norm_fro(A, 2, 2), 5.0, 1e-15);
  ck_assert_double_eq_tol(teal_dense_norm_fro(A, 1, 2), 5.0, 1e-15);
  double big[2] = {3e300, -4e300}, tiny[2] = {3e-300, 4e-300};
  ck_assert_double_eq_tol(teal_dense_norm_fro(big, 2, 1) / 5e300, 1.0, 1e-15);
  ck_assert_double_eq_tol(teal_dense_norm_fro(tiny, 1, 2) / 5e-300, 1.0, 1e-15);
  double ones[100];
  for (int i = 0; i < 100; i++) {
    ones[i] = 1.0;
  }
  ck_assert_double_eq_tol(teal_dense_norm_fro(ones, 10, 10), 10.0, 1e-14);
  ck_assert_double_eq(teal_dense_norm_fro(NULL, 0, 5), 0.0);
  ck_assert_double_eq(teal_dense_norm_fro(A, 0, 0), 0.0);
  ck_assert(isnan(teal_dense_norm_fro(NULL, 2, 2)));
  ck_assert(isnan(teal_dense_norm_fro(A, -1, 2)));
  A[2] = NAN;
  ck_assert(isnan(teal_dense_norm_fro(A, 2, 2)));
  A[2] = INFINITY;
  ck_assert(isinf(teal_dense_norm_fro(A, 2, 2)));
}
END_TEST

START_TEST(test_transpose) {
  /* [[1, 2, 3], [4, 5, 6]]' = [[1, 4], [2, 5], [3, 6]] */
  const double A[6] = {1, 2, 3, 4, 5, 6}, want[6] = {1, 4, 2, 5, 3, 6};
  double At[6] = {0}, back[6] = {0};
  teal_dense_transpose(A, 2, 3, At);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq(At[i], want[i]);
  }
  teal_dense_transpose(At, 3, 2, back);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq(back[i], A[i]);
  }
}
END_TEST

START_TEST(test_is_symmetric) {
  double S[9] = {1, 2, 3, /**/ 2, 5, 6, /**/ 3, 6, 9};
  ck_assert(teal_dense_is_symmetric(S, 3, 0.0));
  S[5] = 6.0 + 1e-10;
  ck_assert(!teal_dense_is_symmetric(S, 3, 0.0));
  ck_assert(!teal_dense_is_symmetric(S, 3, 1e-12)); /* 1e-10 > 1e-12 * max(1, 9) */
  ck_assert(teal_dense_is_symmetric(S, 3, 2e-11));  /* 1e-10 <= 2e-11 * 9 */
  /* the scale is max(1, |A|): small matrices are compared absolutely */
  double s[4] = {1e-6, 2e-6, 2.5e-6, 1e-6};
  ck_assert(teal_dense_is_symmetric(s, 2, 1e-6));
  ck_assert(!teal_dense_is_symmetric(s, 2, 1e-7));
  /* large matrices relatively */
  double L[4] = {1e6, 1.0, 1.0 + 1e-4, 1e6};
  ck_assert(teal_dense_is_symmetric(L, 2, 1e-9));
  ck_assert(!teal_dense_is_symmetric(L, 2, 1e-11));
  ck_assert(teal_dense_is_symmetric(NULL, 0, 0.0));
  ck_assert(!teal_dense_is_symmetric(NULL, 2, 1.0));
  ck_assert(!teal_dense_is_symmetric(S, -1, 1.0));
  ck_assert(!teal_dense_is_symmetric(S, 3, -1.0));
  ck_assert(!teal_dense_is_symmetric(S, 3, NAN));
  double N[4] = {1, NAN, NAN, 1};
  ck_assert(!teal_dense_is_symmetric(N, 2, 1.0));
}
END_TEST

static Suite *dense_basic_suite(void) {
  Suite *s = suite_create("dense_basic");
  TCase *tc = tcase_create("gemm");
  tcase_add_test(tc, test_gemm_all_transposes);
  tcase_add_test(tc, test_transpose);
  tcase_add_test(tc, test_gemm_degenerate_sizes);
  tcase_add_test(tc, test_gemm_bad_input);
  suite_add_tcase(s, tc);
  tc = tcase_create("measures");
  tcase_add_test(tc, test_all_finite);
  tcase_add_test(tc, test_norm_fro);
  tcase_add_test(tc, test_is_symmetric);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return dt_run(dense_basic_suite()); }
