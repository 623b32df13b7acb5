/* Eigenvalues: symmetric eigen-decompositions (A V = V diag(w), V
 * orthogonal, w ascending) and eigenvalues of general matrices against
 * known spectra and trace/determinant invariants; zero size and bad
 * input. */
#include "dense_test_util.h"

START_TEST(test_sym_eigen_random) {
  static const int sizes[] = {1, 2, 3, 6, 20, 70};
  unsigned seed = 1618u;
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int n = sizes[s];
    size_t nn = (size_t)n * n;
    double *A = dt_new(nn), *A0 = dt_new(nn), *V = dt_new(nn), *w = dt_new((size_t)n);
    double *AV = dt_new(nn), *VD = dt_new(nn), *w2 = dt_new((size_t)n);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        A[i * n + j] = A[j * n + i] = ts_rand_uniform(&seed, -1, 1);
      }
    }
    memcpy(A0, A, sizeof(double) * nn);
    teal_error err;
    teal_error_clear(&err);
    ck_assert_int_eq(teal_dense_sym_eigen(A, n, w, V, &err), TEAL_OK);
    ck_assert_int_eq(memcmp(A, A0, sizeof(double) * nn), 0);
    for (int i = 1; i < n; i++) {
      ck_assert(w[i] >= w[i - 1]);
    }
    ck_assert_msg(dt_orth_cols(V, n, n) < 1e-13, "n = %d: V not orthogonal", n);
    dt_mul(0, 0, n, n, n, A, V, AV);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        VD[i * n + j] = V[i * n + j] * w[j];
      }
    }
    double e = dt_maxdiff(AV, VD, nn) / (1.0 + fabs(w[0]) + fabs(w[n - 1]));
    ck_assert_msg(e < 1e-13, "n = %d: A V - V diag(w) = %g", n, e);
    /* trace = sum of eigenvalues; eigenvalues only agree */
    double tr = 0.0, sw = 0.0;
    for (int i = 0; i < n; i++) {
      tr += A[i * n + i];
      sw += w[i];
    }
    ck_assert_double_eq_tol(tr, sw, 1e-12 * n);
    ck_assert_int_eq(teal_dense_sym_eigen(A, n, w2, NULL, NULL), TEAL_OK);
    ck_assert(dt_maxdiff(w, w2, (size_t)n) < 1e-13 * n);
    free(A), free(A0), free(V), free(w), free(AV), free(VD), free(w2);
  }
}
END_TEST

START_TEST(test_sym_eigen_known) {
  double A[4] = {2, 1, 1, 2}, w[2], V[4];
  ck_assert_int_eq(teal_dense_sym_eigen(A, 2, w, V, NULL), TEAL_OK);
  ck_assert_double_eq_tol(w[0], 1.0, 1e-15);
  ck_assert_double_eq_tol(w[1], 3.0, 1e-15);
  /* eigenvector of 3 is (1, 1)/sqrt 2 up to sign: column 1 of V */
  ck_assert_double_eq_tol(fabs(V[1]), sqrt(0.5), 1e-15);
  ck_assert_double_eq_tol(V[1], V[3], 1e-15);
  ck_assert_double_eq_tol(V[0], -V[2], 1e-15);
  /* diagonal, already sorted descending -> ascending output */
  double D[9] = {5, 0, 0, 0, -1, 0, 0, 0, 2}, wd[3];
  ck_assert_int_eq(teal_dense_sym_eigen(D, 3, wd, NULL, NULL), TEAL_OK);
  ck_assert_double_eq(wd[0], -1.0);
  ck_assert_double_eq(wd[1], 2.0);
  ck_assert_double_eq(wd[2], 5.0);
}
END_TEST

START_TEST(test_sym_eigen_bad_input) {
  ck_assert_int_eq(teal_dense_sym_eigen(NULL, 0, NULL, NULL, NULL), TEAL_OK);
  teal_error err;
  double A[4] = {2, 1, 0, 2}, w[2], V[4];
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_sym_eigen(A, 2, w, V, &err), err, TEAL_EINVAL, "not symmetric");
  A[2] = 1.0;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_sym_eigen(A, -2, w, V, &err), err, TEAL_EINVAL, "sym_eigen");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_sym_eigen(NULL, 2, w, V, &err), err, TEAL_EINVAL, "NULL A");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_sym_eigen(A, 2, NULL, V, &err), err, TEAL_EINVAL, "NULL w");
  A[1] = A[2] = NAN;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_sym_eigen(A, 2, w, V, &err), err, TEAL_ENONFINITE, "(0, 1)");
}
END_TEST

/* Sorts (wr, wi) pairs by real then imaginary part (insertion sort). */
static void sort_pairs(double *wr, double *wi, int n) {
  for (int i = 1; i < n; i++) {
    for (int j = i; j > 0 && (wr[j] < wr[j - 1] || (wr[j] == wr[j - 1] && wi[j] < wi[j - 1]));
         j--) {
      double t = wr[j];
      wr[j] = wr[j - 1], wr[j - 1] = t;
      t = wi[j];
      wi[j] = wi[j - 1], wi[j - 1] = t;
    }
  }
}

START_TEST(test_eigenvalues_known) {
  /* rotation generator: +-2i */
  double J[4] = {0, -2, 2, 0}, wr[4], wi[4];
  ck_assert_int_eq(teal_dense_eigenvalues(J, 2, wr, wi, NULL), TEAL_OK);
  sort_pairs(wr, wi, 2);
  ck_assert_double_eq_tol(wr[0], 0.0, 1e-15);
  ck_assert_double_eq_tol(wi[0], -2.0, 1e-15);
  ck_assert_double_eq_tol(wi[1], 2.0, 1e-15);
  /* companion matrix of (x - 1)(x - 2)(x - 3) = x^3 - 6x^2 + 11x - 6 */
  double C[9] = {6, -11, 6, /**/ 1, 0, 0, /**/ 0, 1, 0};
  ck_assert_int_eq(teal_dense_eigenvalues(C, 3, wr, wi, NULL), TEAL_OK);
  sort_pairs(wr, wi, 3);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(wr[i], i + 1.0, 1e-12);
    ck_assert_double_eq(wi[i], 0.0);
  }
  /* upper triangular: the diagonal, exactly */
  double T[16] = {4, 1, 2, 3, /**/ 0, -1, 5, 6, /**/ 0, 0, 2.5, 7, /**/ 0, 0, 0, 0};
  ck_assert_int_eq(teal_dense_eigenvalues(T, 4, wr, wi, NULL), TEAL_OK);
  sort_pairs(wr, wi, 4);
  const double expect[4] = {-1, 0, 2.5, 4};
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq_tol(wr[i], expect[i], 1e-14);
    ck_assert_double_eq(wi[i], 0.0);
  }
}
END_TEST

START_TEST(test_eigenvalues_random_invariants) {
  unsigned seed = 7777u;
  for (int n = 1; n <= 40; n += 13) {
    size_t nn = (size_t)n * n;
    double *A = dt_new(nn), *LU = dt_new(nn), *wr = dt_new((size_t)n), *wi = dt_new((size_t)n);
    dt_rand(&seed, A, nn, -1, 1);
    ck_assert_int_eq(teal_dense_eigenvalues(A, n, wr, wi, NULL), TEAL_OK);
    /* trace = sum of eigenvalues; imaginary parts come in conjugate pairs */
    double tr = 0.0, sr = 0.0, si = 0.0;
    for (int i = 0; i < n; i++) {
      tr += A[i * n + i];
      sr += wr[i];
      si += wi[i];
    }
    ck_assert_double_eq_tol(tr, sr, 1e-12 * n);
    ck_assert_double_eq_tol(si, 0.0, 1e-12 * n);
    /* the same spectrum as the (ordered) Schur form */
    double *Z = dt_new(nn), *sr2 = dt_new((size_t)n), *si2 = dt_new((size_t)n);
    int nsel;
    memcpy(LU, A, sizeof(double) * nn);
    ck_assert_int_eq(teal_schur_ordered(LU, n, Z, TEAL_EIG_LEFT_HALF_PLANE, &nsel, sr2, si2, NULL),
                     TEAL_OK);
    sort_pairs(wr, wi, n);
    sort_pairs(sr2, si2, n);
    ck_assert(dt_maxdiff(wr, sr2, (size_t)n) < 1e-10);
    ck_assert(dt_maxdiff(wi, si2, (size_t)n) < 1e-10);
    free(A), free(LU), free(wr), free(wi), free(Z), free(sr2), free(si2);
  }
}
END_TEST

START_TEST(test_eigenvalues_bad_input) {
  ck_assert_int_eq(teal_dense_eigenvalues(NULL, 0, NULL, NULL, NULL), TEAL_OK);
  teal_error err;
  double A[4] = {1, 2, 3, 4}, wr[2], wi[2];
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_eigenvalues(A, -1, wr, wi, &err), err, TEAL_EINVAL, "eigenvalues");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_eigenvalues(NULL, 2, wr, wi, &err), err, TEAL_EINVAL, "NULL A");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_eigenvalues(A, 2, NULL, wi, &err), err, TEAL_EINVAL, "NULL wr");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_eigenvalues(A, 2, wr, NULL, &err), err, TEAL_EINVAL, "NULL wi");
  A[3] = NAN;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_dense_eigenvalues(A, 2, wr, wi, &err), err, TEAL_ENONFINITE, "(1, 1)");
}
END_TEST

/* Every allocation failure gives TEAL_ENOMEM and leaks nothing. */
static int oom_call(void *ctx, teal_error *err) {
  double A[9] = {2, 1, 0, 1, 2, 1, 0, 1, 2}, w[3], wi[3], V[9];
  if (*(int *)ctx == 0) {
    return teal_dense_sym_eigen(A, 3, w, V, err);
  }
  return teal_dense_eigenvalues(A, 3, w, wi, err);
}

START_TEST(test_out_of_memory) {
  int which = 0;
  ck_assert_uint_gt(dt_check_oom(oom_call, &which, "sym_eigen"), 0);
  which = 1;
  ck_assert_uint_gt(dt_check_oom(oom_call, &which, "eigenvalues"), 0);
}
END_TEST

static Suite *dense_eigen_suite(void) {
  Suite *s = suite_create("dense_eigen");
  TCase *tc = tcase_create("symmetric");
  tcase_add_test(tc, test_sym_eigen_random);
  tcase_add_test(tc, test_sym_eigen_known);
  tcase_add_test(tc, test_sym_eigen_bad_input);
  suite_add_tcase(s, tc);
  tc = tcase_create("general");
  tcase_add_test(tc, test_eigenvalues_known);
  tcase_add_test(tc, test_eigenvalues_random_invariants);
  tcase_add_test(tc, test_eigenvalues_bad_input);
  tcase_add_test(tc, test_out_of_memory);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return dt_run(dense_eigen_suite()); }
