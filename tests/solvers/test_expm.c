/* Matrix exponential: diagonal, nilpotent and rotation generators against
 * closed forms, exp(A) exp(-A) = I, symmetric matrices of larger norm
 * against their eigen-decomposition, overflow, zero size and bad input. */
#include "dense_test_util.h"

START_TEST(test_expm_diagonal) {
  const double d[4] = {-3.0, 0.0, 0.5, 4.0};
  double A[16] = {0}, E[16];
  for (int i = 0; i < 4; i++) {
    A[i * 4 + i] = d[i];
  }
  teal_error err;
  teal_error_clear(&err);
  ck_assert_int_eq(teal_expm(A, 4, E, &err), TEAL_OK);
  ck_assert_int_eq(err.code, TEAL_OK);
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 4; j++) {
      double expect = i == j ? exp(d[i]) : 0.0;
      ck_assert_msg(fabs(E[i * 4 + j] - expect) <= 1e-14 * fmax(1.0, expect),
                    "E(%d, %d) = %.17g, expected %.17g", i, j, E[i * 4 + j], expect);
    }
  }
  double Z[9] = {0}, EZ[9];
  ck_assert_int_eq(teal_expm(Z, 3, EZ, NULL), TEAL_OK);
  for (int i = 0; i < 9; i++) {
    ck_assert_double_eq(EZ[i], (i % 4 == 0) ? 1.0 : 0.0);
  }
  double s[1] = {-20.0}, es[1];
  ck_assert_int_eq(teal_expm(s, 1, es, NULL), TEAL_OK);
  ck_assert_double_eq_tol(es[0] / exp(-20.0), 1.0, 1e-13);
}
END_TEST

/* Strictly upper triangular N (N^4 = 0): exp(N) = I + N + N^2/2 + N^3/6. */
START_TEST(test_expm_nilpotent) {
  const double scales[] = {1.0, 10.0, 300.0};
  for (int sc = 0; sc < 3; sc++) {
    double N[16] = {0, 1, 2, 3, /**/ 0, 0, 4, 5, /**/ 0, 0, 0, 6, /**/ 0, 0, 0, 0};
    for (int i = 0; i < 16; i++) {
      N[i] *= scales[sc];
    }
    double N2[16], N3[16], R[16], E[16];
    dt_mul(0, 0, 4, 4, 4, N, N, N2);
    dt_mul(0, 0, 4, 4, 4, N2, N, N3);
    for (int i = 0; i < 16; i++) {
      R[i] = (i % 5 == 0 ? 1.0 : 0.0) + N[i] + N2[i] / 2.0 + N3[i] / 6.0;
    }
    ck_assert_int_eq(teal_expm(N, 4, E, NULL), TEAL_OK);
    double e = dt_reldiff(E, R, 16);
    ck_assert_msg(e < 1e-13, "scale %g: nilpotent exp error %g", scales[sc], e);
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < i; j++) {
        ck_assert_double_eq(E[i * 4 + j], 0.0);
      }
    }
  }
}
END_TEST

/* exp(theta [[0, -1], [1, 0]]) = [[cos, -sin], [sin, cos]]. */
START_TEST(test_expm_rotation) {
  const double thetas[] = {1e-8, 0.5, 3.0, -7.25, 20.0, 100.0};
  for (int t = 0; t < 6; t++) {
    double th = thetas[t];
    double A[4] = {0, -th, th, 0}, E[4];
    ck_assert_int_eq(teal_expm(A, 2, E, NULL), TEAL_OK);
    double R[4] = {cos(th), -sin(th), sin(th), cos(th)};
    double e = dt_maxdiff(E, R, 4);
    ck_assert_msg(e < 1e-14 * fmax(1.0, fabs(th)), "theta %g: rotation error %g", th, e);
    /* orthogonal with determinant 1 (the squarings cost ~|theta| eps) */
    double tol = 2e-14 * fmax(1.0, fabs(th));
    ck_assert(dt_orth_cols(E, 2, 2) < tol);
    ck_assert_double_eq_tol(E[0] * E[3] - E[1] * E[2], 1.0, tol);
  }
  /* a 3-D rotation about z embedded with a growth mode */
  double th = 1.3, A3[9] = {0, -th, 0, /**/ th, 0, 0, /**/ 0, 0, 0.7}, E3[9];
  ck_assert_int_eq(teal_expm(A3, 3, E3, NULL), TEAL_OK);
  double R3[9] = {cos(th), -sin(th), 0, sin(th), cos(th), 0, 0, 0, exp(0.7)};
  ck_assert(dt_reldiff(E3, R3, 9) < 5e-14);
}
END_TEST

/* Invariants on random matrices: exp(A) exp(-A) = I; symmetric A agrees
 * with V diag(exp(w)) V' including norms far above max |a_ij|. */
START_TEST(test_expm_random) {
  unsigned seed = 4096u;
  const int sizes[] = {3, 10, 40, 100};
  const double scales[] = {0.1, 1.0, 10.0};
  for (int s = 0; s < 4; s++) {
    for (int c = 0; c < 3; c++) {
      int n = sizes[s];
      size_t nn = (size_t)n * n;
      double *A = dt_new(nn), *M = dt_new(nn), *E = dt_new(nn), *F = dt_new(nn);
      double *P = dt_new(nn), *I = dt_new(nn), *V = dt_new(nn), *w = dt_new((size_t)n);
      for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++) {
          A[i * n + j] = A[j * n + i] = scales[c] * ts_rand_uniform(&seed, -1, 1);
        }
      }
      for (size_t i = 0; i < nn; i++) {
        M[i] = -A[i];
      }
      ck_assert_int_eq(teal_expm(A, n, E, NULL), TEAL_OK);
      ck_assert_int_eq(teal_dense_sym_eigen(A, n, w, V, NULL), TEAL_OK);
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          long double acc = 0.0L;
          for (int k = 0; k < n; k++) {
            acc += (long double)V[i * n + k] * expl(w[k]) * V[j * n + k];
          }
          P[i * n + j] = (double)acc;
        }
      }
      double e = dt_reldiff(E, P, nn);
      ck_assert_msg(e < 1e-11, "n = %d scale %g: symmetric exp error %g", n, scales[c], e);
      if (scales[c] <= 1.0) {
        /* exp(A) exp(-A) = I, to rounding relative to |exp(A)| |exp(-A)| */
        ck_assert_int_eq(teal_expm(M, n, F, NULL), TEAL_OK);
        dt_mul(0, 0, n, n, n, E, F, P);
        for (size_t i = 0; i < nn; i++) {
          I[i] = (i % (size_t)(n + 1) == 0) ? 1.0 : 0.0;
        }
        double ei = dt_maxdiff(P, I, nn) / (dt_fro(E, nn) * dt_fro(F, nn));
        ck_assert_msg(ei < 1e-14, "n = %d: exp(A) exp(-A) - I = %g", n, ei);
      }
      free(A), free(M), free(E), free(F), free(P), free(I), free(V), free(w);
    }
  }
}
END_TEST

START_TEST(test_expm_overflow_zero_size_bad_input) {
  teal_error err;
  double A[4] = {800, 0, 0, 1}, E[4];
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_expm(A, 2, E, &err), err, TEAL_ENONFINITE, "expm");
  ck_assert_int_eq(teal_expm(NULL, 0, NULL, NULL), TEAL_OK);
  A[0] = 1.0;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_expm(A, -1, E, &err), err, TEAL_EINVAL, "expm");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_expm(NULL, 2, E, &err), err, TEAL_EINVAL, "NULL A");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_expm(A, 2, NULL, &err), err, TEAL_EINVAL, "NULL E");
  A[2] = NAN;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_expm(A, 2, E, &err), err, TEAL_ENONFINITE, "A entry (1, 0)");
}
END_TEST

/* Every allocation failure gives TEAL_ENOMEM and leaks nothing (a matrix
 * whose 1-norm far exceeds its largest entry takes the squaring path). */
static int oom_call(void *ctx, teal_error *err) {
  (void)ctx;
  enum { N = 12 };
  double A[N * N], E[N * N];
  for (int i = 0; i < N * N; i++) {
    A[i] = 0.9 * ((i % 3) - 1.0);
  }
  return teal_expm(A, N, E, err);
}

START_TEST(test_out_of_memory) { ck_assert_uint_gt(dt_check_oom(oom_call, NULL, "expm"), 0); }
END_TEST

static Suite *expm_suite(void) {
  Suite *s = suite_create("expm");
  TCase *tc = tcase_create("closed_forms");
  tcase_add_test(tc, test_expm_diagonal);
  tcase_add_test(tc, test_expm_nilpotent);
  tcase_add_test(tc, test_expm_rotation);
  suite_add_tcase(s, tc);
  tc = tcase_create("invariants");
  tcase_add_test(tc, test_expm_random);
  tcase_add_test(tc, test_expm_overflow_zero_size_bad_input);
  tcase_add_test(tc, test_out_of_memory);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return dt_run(expm_suite()); }
