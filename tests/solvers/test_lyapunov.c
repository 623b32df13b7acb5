/* Lyapunov equations: relative residuals on random stable A of sizes 4,
 * 20 and 100 (continuous and discrete), symmetric positive definite
 * solutions, closed forms for diagonal A, unstable but solvable A,
 * eigenvalues near -1 (discrete), the singular cases, zero size and bad
 * input. */
#include "dense_test_util.h"

/* Random A shifted (continuous) or scaled (discrete) to be stable with
 * the given margin; uses teal_dense_eigenvalues. */
static void random_stable(unsigned *seed, int n, int discrete, double *A) {
  size_t nn = (size_t)n * n;
  double *wr = dt_new((size_t)n), *wi = dt_new((size_t)n);
  dt_rand(seed, A, nn, -1, 1);
  ck_assert_int_eq(teal_dense_eigenvalues(A, n, wr, wi, NULL), TEAL_OK);
  double maxre = -INFINITY, rho = 0.0;
  for (int i = 0; i < n; i++) {
    maxre = fmax(maxre, wr[i]);
    rho = fmax(rho, hypot(wr[i], wi[i]));
  }
  if (discrete) {
    for (size_t i = 0; i < nn; i++) {
      A[i] *= 0.95 / rho;
    }
  } else {
    for (int i = 0; i < n; i++) {
      A[i * n + i] -= maxre + 0.1;
    }
  }
  free(wr), free(wi);
}

static void random_spd(unsigned *seed, int n, double *Q) {
  double *B = dt_new((size_t)n * n);
  dt_rand(seed, B, (size_t)n * n, -1, 1);
  dt_mul(0, 1, n, n, n, B, B, Q);
  for (int i = 0; i < n; i++) {
    Q[i * n + i] += 0.01;
  }
  free(B);
}

/* Relative residual of the continuous (discrete) equation. */
static double residual(const double *A, const double *Q, const double *X, int n, int discrete) {
  size_t nn = (size_t)n * n;
  double *AX = dt_new(nn), *R = dt_new(nn);
  dt_mul(0, 0, n, n, n, A, X, AX);
  double na = dt_fro(A, nn), nx = dt_fro(X, nn), nq = dt_fro(Q, nn), denom;
  if (discrete) {
    dt_mul(0, 1, n, n, n, AX, A, R); /* A X A' */
    for (size_t i = 0; i < nn; i++) {
      R[i] += Q[i] - X[i];
    }
    denom = na * na * nx + nx + nq;
  } else {
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        R[i * n + j] = AX[i * n + j] + AX[j * n + i] + Q[i * n + j]; /* X A' = (A X)' */
      }
    }
    denom = 2 * na * nx + nq;
  }
  double r = dt_fro(R, nn) / denom;
  free(AX), free(R);
  return r;
}

static void check_solution(const double *A, const double *Q, const double *X, int n, int discrete,
                           int expect_pd) {
  double r = residual(A, Q, X, n, discrete);
  ck_assert_msg(r < 1e-10, "n = %d %s: relative residual %g", n,
                discrete ? "discrete" : "continuous", r);
  ck_assert(teal_dense_is_symmetric(X, n, 0.0));
  if (expect_pd) {
    size_t nn = (size_t)n * n;
    double *L = dt_new(nn);
    memcpy(L, X, sizeof(double) * nn);
    ck_assert_msg(teal_dense_cholesky_factor(L, n, NULL) == TEAL_OK, "X not positive definite");
    free(L);
  }
}

START_TEST(test_random_stable) {
  static const int sizes[] = {1, 4, 20, 100};
  unsigned seed = 19937u;
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    for (int discrete = 0; discrete < 2; discrete++) {
      int n = sizes[s];
      size_t nn = (size_t)n * n;
      double *A = dt_new(nn), *Q = dt_new(nn), *X = dt_new(nn);
      random_stable(&seed, n, discrete, A);
      random_spd(&seed, n, Q);
      teal_error err;
      teal_error_clear(&err);
      int rc = discrete ? teal_lyapunov_discrete(A, Q, n, X, &err)
                        : teal_lyapunov_continuous(A, Q, n, X, &err);
      ck_assert_msg(rc == TEAL_OK, "n = %d: %s", n, err.message);
      ck_assert_int_eq(err.code, TEAL_OK);
      check_solution(A, Q, X, n, discrete, 1);
      free(A), free(Q), free(X);
    }
  }
}
END_TEST

/* Unstable but nonsingular A and indefinite Q still solve. */
START_TEST(test_random_nonsingular) {
  unsigned seed = 55555u;
  for (int n = 3; n <= 30; n += 9) {
    size_t nn = (size_t)n * n;
    double *A = dt_new(nn), *Q = dt_new(nn), *X = dt_new(nn);
    dt_rand(&seed, A, nn, -1, 1);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        Q[i * n + j] = Q[j * n + i] = ts_rand_uniform(&seed, -1, 1);
      }
    }
    ck_assert_int_eq(teal_lyapunov_continuous(A, Q, n, X, NULL), TEAL_OK);
    check_solution(A, Q, X, n, 0, 0);
    ck_assert_int_eq(teal_lyapunov_discrete(A, Q, n, X, NULL), TEAL_OK);
    check_solution(A, Q, X, n, 1, 0);
    free(A), free(Q), free(X);
  }
}
END_TEST

START_TEST(test_closed_forms) {
  /* scalar: 2 a x + q = 0 and a^2 x - x + q = 0 */
  double a = -2.0, q = 4.0, x = 0.0;
  ck_assert_int_eq(teal_lyapunov_continuous(&a, &q, 1, &x, NULL), TEAL_OK);
  ck_assert_double_eq_tol(x, 1.0, 1e-15);
  a = 0.5, q = 3.0;
  ck_assert_int_eq(teal_lyapunov_discrete(&a, &q, 1, &x, NULL), TEAL_OK);
  ck_assert_double_eq_tol(x, 4.0, 1e-15);
  /* diagonal A: X_ij = -Q_ij / (a_i + a_j), Q_ij / (1 - a_i a_j) */
  const double d[4] = {-1.0, -0.5, 2.0, -3.0}, dd[4] = {0.5, -0.999, 0.9, -0.2};
  double A[16] = {0}, Ad[16] = {0}, Q[16], X[16];
  for (int i = 0; i < 4; i++) {
    A[i * 4 + i] = d[i];
    Ad[i * 4 + i] = dd[i];
    for (int j = 0; j < 4; j++) {
      Q[i * 4 + j] = 1.0 + i + j + (i == j ? 4.0 : 0.0);
    }
  }
  ck_assert_int_eq(teal_lyapunov_continuous(A, Q, 4, X, NULL), TEAL_OK);
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 4; j++) {
      double expect = -Q[i * 4 + j] / (d[i] + d[j]);
      ck_assert_double_eq_tol(X[i * 4 + j], expect, 1e-14 * (1 + fabs(expect)));
    }
  }
  ck_assert_int_eq(teal_lyapunov_discrete(Ad, Q, 4, X, NULL), TEAL_OK);
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 4; j++) {
      double expect = Q[i * 4 + j] / (1.0 - dd[i] * dd[j]);
      ck_assert_double_eq_tol(X[i * 4 + j], expect, 1e-12 * (1 + fabs(expect)));
    }
  }
  /* damped oscillator: A = [[0, 1], [-k, -c]], Q = diag(0, 1)
   * X = [[1 / (2 c k), 0], [0, 1 / (2 c)]] */
  double k = 3.0, c = 0.4;
  double Ao[4] = {0, 1, -k, -c}, Qo[4] = {0, 0, 0, 1}, Xo[4];
  ck_assert_int_eq(teal_lyapunov_continuous(Ao, Qo, 2, Xo, NULL), TEAL_OK);
  ck_assert_double_eq_tol(Xo[0], 1.0 / (2 * c * k), 1e-14);
  ck_assert_double_eq_tol(Xo[1], 0.0, 1e-14);
  ck_assert_double_eq_tol(Xo[3], 1.0 / (2 * c), 1e-14);
  /* discrete rotation scaled by r: X = q / (1 - r^2) I for Q = q I */
  double r = 0.8, th = 0.9;
  double Ar[4] = {r * cos(th), -r * sin(th), r * sin(th), r * cos(th)}, Qr[4] = {2, 0, 0, 2};
  ck_assert_int_eq(teal_lyapunov_discrete(Ar, Qr, 2, Xo, NULL), TEAL_OK);
  ck_assert_double_eq_tol(Xo[0], 2.0 / (1 - r * r), 1e-13);
  ck_assert_double_eq_tol(Xo[1], 0.0, 1e-13);
  ck_assert_double_eq_tol(Xo[3], 2.0 / (1 - r * r), 1e-13);
}
END_TEST

START_TEST(test_singular) {
  teal_error err;
  double Q[4] = {1, 0, 0, 1}, X[4] = {7, 7, 7, 7};
  /* continuous: lambda_i + lambda_j = 0 */
  double A1[4] = {1, 0, 0, -1}, A2[4] = {0, 0, 0, 0}, A3[4] = {0, 1, -1, 0};
  double A4[4] = {1, 5, 0, -1}; /* non-normal, eigenvalues +-1 */
  const double *cont[] = {A1, A2, A3, A4};
  for (int i = 0; i < 4; i++) {
    teal_error_clear(&err);
    DT_ASSERT_ERR(teal_lyapunov_continuous(cont[i], Q, 2, X, &err), err, TEAL_ESINGULAR,
                  "lyapunov_continuous");
  }
  /* discrete: lambda_i lambda_j = 1 */
  double B1[4] = {2, 0, 0, 0.5}, B2[4] = {1, 0, 0, 1}, B3[4] = {-1, 0, 0, 0.3};
  double B4[4] = {cos(0.3), -sin(0.3), sin(0.3), cos(0.3)}, B5[4] = {4, 1, 0, 0.25};
  const double *disc[] = {B1, B2, B3, B4, B5};
  for (int i = 0; i < 5; i++) {
    teal_error_clear(&err);
    DT_ASSERT_ERR(teal_lyapunov_discrete(disc[i], Q, 2, X, &err), err, TEAL_ESINGULAR,
                  "lyapunov_discrete");
  }
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq(X[i], 7.0); /* X untouched on failure */
  }
  /* larger: a random stable block plus a +-1 pair */
  unsigned seed = 1001u;
  enum { N = 12 };
  double A[N * N], QQ[N * N], XX[N * N];
  random_stable(&seed, N, 0, A);
  for (int i = 0; i < N; i++) {
    A[i * N + N - 2] = A[(N - 2) * N + i] = 0.0;
    A[i * N + N - 1] = A[(N - 1) * N + i] = 0.0;
  }
  A[(N - 2) * N + N - 2] = 2.0;
  A[(N - 1) * N + N - 1] = -2.0;
  random_spd(&seed, N, QQ);
  ck_assert_int_eq(teal_lyapunov_continuous(A, QQ, N, XX, NULL), TEAL_ESINGULAR);
}
END_TEST

START_TEST(test_zero_size_and_bad_input) {
  ck_assert_int_eq(teal_lyapunov_continuous(NULL, NULL, 0, NULL, NULL), TEAL_OK);
  ck_assert_int_eq(teal_lyapunov_discrete(NULL, NULL, 0, NULL, NULL), TEAL_OK);
  typedef int (*solver)(const double *, const double *, int, double *, teal_error *);
  const solver solvers[2] = {teal_lyapunov_continuous, teal_lyapunov_discrete};
  const char *names[2] = {"lyapunov_continuous", "lyapunov_discrete"};
  for (int s = 0; s < 2; s++) {
    teal_error err;
    double A[4] = {-1, 0, 0, -2}, Q[4] = {1, 0, 0, 1}, X[4];
    if (s == 1) {
      A[0] = 0.5, A[3] = 0.25;
    }
    teal_error_clear(&err);
    DT_ASSERT_ERR(solvers[s](A, Q, -1, X, &err), err, TEAL_EINVAL, names[s]);
    teal_error_clear(&err);
    DT_ASSERT_ERR(solvers[s](NULL, Q, 2, X, &err), err, TEAL_EINVAL, "NULL A");
    teal_error_clear(&err);
    DT_ASSERT_ERR(solvers[s](A, NULL, 2, X, &err), err, TEAL_EINVAL, "NULL Q");
    teal_error_clear(&err);
    DT_ASSERT_ERR(solvers[s](A, Q, 2, NULL, &err), err, TEAL_EINVAL, "NULL X");
    double Qn[4] = {1, 0.5, 0, 1};
    teal_error_clear(&err);
    DT_ASSERT_ERR(solvers[s](A, Qn, 2, X, &err), err, TEAL_EINVAL, "not symmetric");
    A[1] = NAN;
    teal_error_clear(&err);
    DT_ASSERT_ERR(solvers[s](A, Q, 2, X, &err), err, TEAL_ENONFINITE, "A entry (0, 1)");
    A[1] = 0.0;
    Q[3] = INFINITY;
    teal_error_clear(&err);
    DT_ASSERT_ERR(solvers[s](A, Q, 2, X, &err), err, TEAL_ENONFINITE, "Q entry (1, 1)");
  }
}
END_TEST

/* Every allocation failure gives TEAL_ENOMEM and leaks nothing. */
static int oom_call(void *ctx, teal_error *err) {
  double A[9] = {-1, 2, 0, -2, -1, 1, 0, 0, -3}, Q[9] = {2, 1, 0, 1, 2, 0, 0, 0, 1}, X[9];
  if (*(int *)ctx == 0) {
    return teal_lyapunov_continuous(A, Q, 3, X, err);
  }
  for (int i = 0; i < 9; i++) {
    A[i] *= 0.25;
  }
  return teal_lyapunov_discrete(A, Q, 3, X, err);
}

START_TEST(test_out_of_memory) {
  int which = 0;
  ck_assert_uint_gt(dt_check_oom(oom_call, &which, "lyapunov_continuous"), 0);
  which = 1;
  ck_assert_uint_gt(dt_check_oom(oom_call, &which, "lyapunov_discrete"), 0);
}
END_TEST

static Suite *lyapunov_suite(void) {
  Suite *s = suite_create("lyapunov");
  TCase *tc = tcase_create("solve");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_random_stable);
  tcase_add_test(tc, test_random_nonsingular);
  tcase_add_test(tc, test_closed_forms);
  suite_add_tcase(s, tc);
  tc = tcase_create("failures");
  tcase_add_test(tc, test_singular);
  tcase_add_test(tc, test_zero_size_and_bad_input);
  tcase_add_test(tc, test_out_of_memory);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return dt_run(lyapunov_suite()); }
