/* Ordered real Schur (teal_schur_ordered) and generalized Schur / QZ
 * (teal_qz_ordered) forms: reconstruction, orthogonality, quasi-triangular
 * structure and region ordering on random matrices with fixed seeds, known
 * spectra, infinite generalized eigenvalues, zero size and bad input. */
#include "dense_test_util.h"

/* Eigenvalues of the quasi-upper-triangular row-major T, read off its
 * diagonal blocks; asserts the block structure of a real Schur form. */
static void schur_blocks(const double *T, int n, double *wr, double *wi) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j + 1 < i; j++) {
      ck_assert_msg(T[(size_t)i * n + j] == 0.0, "T(%d, %d) = %g below the subdiagonal", i, j,
                    T[(size_t)i * n + j]);
    }
  }
  int i = 0;
  while (i < n) {
    if (i + 1 < n && T[(size_t)(i + 1) * n + i] != 0.0) {
      ck_assert_msg(i + 2 >= n || T[(size_t)(i + 2) * n + i + 1] == 0.0,
                    "two consecutive nonzero subdiagonals at %d", i);
      double a = T[(size_t)i * n + i], b = T[(size_t)i * n + i + 1];
      double c = T[(size_t)(i + 1) * n + i], d = T[(size_t)(i + 1) * n + i + 1];
      double p = 0.5 * (a + d), h = 0.5 * (a - d), disc = h * h + b * c;
      ck_assert_msg(disc < 0.0, "2x2 block at %d has real eigenvalues", i);
      wr[i] = wr[i + 1] = p;
      wi[i] = sqrt(-disc);
      wi[i + 1] = -wi[i];
      i += 2;
    } else {
      wr[i] = T[(size_t)i * n + i];
      wi[i] = 0.0;
      i += 1;
    }
  }
}

static int in_region(teal_eig_region r, double wr, double wi) {
  return r == TEAL_EIG_LEFT_HALF_PLANE ? wr < 0.0 : hypot(wr, wi) < 1.0;
}

/* Runs teal_schur_ordered on a copy of A and checks every invariant;
 * returns nsel. */
static int check_schur(const double *A, int n, teal_eig_region region) {
  size_t nn = (size_t)n * n;
  double *T = dt_new(nn), *Z = dt_new(nn), *ZT = dt_new(nn), *R = dt_new(nn);
  double *wr = dt_new((size_t)n), *wi = dt_new((size_t)n);
  double *br = dt_new((size_t)n), *bi = dt_new((size_t)n);
  memcpy(T, A, sizeof(double) * nn);
  teal_error err;
  teal_error_clear(&err);
  int nsel = -1;
  ck_assert_int_eq(teal_schur_ordered(T, n, Z, region, &nsel, wr, wi, &err), TEAL_OK);
  ck_assert_int_eq(err.code, TEAL_OK);
  ck_assert_int_ge(nsel, 0);
  ck_assert_int_le(nsel, n);
  /* A = Z T Z' */
  dt_mul(0, 0, n, n, n, Z, T, ZT);
  dt_mul(0, 1, n, n, n, ZT, Z, R);
  double rec = dt_reldiff(R, A, nn);
  ck_assert_msg(rec < 1e-12, "n = %d region %d: ||Z T Z' - A|| / ||A|| = %g", n, (int)region, rec);
  double orth = dt_orth_cols(Z, n, n);
  ck_assert_msg(orth < 1e-12, "n = %d: Z not orthogonal (%g)", n, orth);
  schur_blocks(T, n, br, bi);
  for (int i = 0; i < n; i++) {
    ck_assert_msg(in_region(region, br[i], bi[i]) == (i < nsel),
                  "n = %d region %d: eigenvalue %d (%g%+gi) misplaced, nsel = %d", n, (int)region,
                  i, br[i], bi[i], nsel);
    ck_assert_double_eq_tol(wr[i], br[i], 1e-12 * (1.0 + fabs(br[i])));
    ck_assert_double_eq_tol(fabs(wi[i]), fabs(bi[i]), 1e-12 * (1.0 + fabs(bi[i])));
  }
  free(T), free(Z), free(ZT), free(R), free(wr), free(wi), free(br), free(bi);
  return nsel;
}

START_TEST(test_schur_random_ordered) {
  static const int sizes[] = {1, 2, 3, 4, 5, 8, 13, 30, 60};
  unsigned seed = 424242u;
  int sel_lhp = 0, sel_disk = 0, total = 0;
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    for (int rep = 0; rep < 3; rep++) {
      int n = sizes[s];
      double *A = dt_new((size_t)n * n);
      dt_rand(&seed, A, (size_t)n * n, -1.0, 1.0);
      sel_lhp += check_schur(A, n, TEAL_EIG_LEFT_HALF_PLANE);
      /* scale so the spectrum straddles the unit circle */
      for (int i = 0; i < n * n; i++) {
        A[i] *= 1.6 / sqrt((double)n);
      }
      sel_disk += check_schur(A, n, TEAL_EIG_UNIT_DISK);
      total += n;
      free(A);
    }
  }
  /* both regions were really exercised */
  ck_assert_int_gt(sel_lhp, total / 4);
  ck_assert_int_lt(sel_lhp, 3 * total / 4);
  ck_assert_int_gt(sel_disk, total / 10);
  ck_assert_int_lt(sel_disk, total);
}
END_TEST

START_TEST(test_schur_known_spectra) {
  double A[16] = {3, 0, 0, 0, /**/ 0, -1, 0, 0, /**/ 0, 0, 2, 0, /**/ 0, 0, 0, -5};
  double Z[16], wr[4], wi[4];
  int nsel = -1;
  ck_assert_int_eq(teal_schur_ordered(A, 4, Z, TEAL_EIG_LEFT_HALF_PLANE, &nsel, wr, wi, NULL),
                   TEAL_OK);
  ck_assert_int_eq(nsel, 2);
  ck_assert(wr[0] < 0 && wr[1] < 0 && wr[2] > 0 && wr[3] > 0);
  ck_assert_double_eq_tol(wr[0] + wr[1], -6.0, 1e-14);
  ck_assert_double_eq_tol(wr[2] + wr[3], 5.0, 1e-14);

  /* rotation generator: +-i on the boundary of both regions */
  double J[4] = {0, 1, -1, 0};
  double Zj[4];
  ck_assert_int_eq(teal_schur_ordered(J, 2, Zj, TEAL_EIG_LEFT_HALF_PLANE, &nsel, wr, wi, NULL),
                   TEAL_OK);
  ck_assert_int_eq(nsel, 0);
  ck_assert_double_eq_tol(fabs(wi[0]), 1.0, 1e-15);
  double J2[4] = {0, 1, -1, 0};
  ck_assert_int_eq(teal_schur_ordered(J2, 2, Zj, TEAL_EIG_UNIT_DISK, &nsel, NULL, NULL, NULL),
                   TEAL_OK);
  ck_assert_int_eq(nsel, 0);

  /* a stable complex pair ahead of an unstable real eigenvalue */
  double B[9] = {2, 0, 0, /**/ 1, -1, 2, /**/ 0, -2, -1};
  double Zb[9];
  ck_assert_int_eq(teal_schur_ordered(B, 3, Zb, TEAL_EIG_LEFT_HALF_PLANE, &nsel, wr, wi, NULL),
                   TEAL_OK);
  ck_assert_int_eq(nsel, 2);
  ck_assert_double_eq_tol(wr[0], -1.0, 1e-14);
  ck_assert_double_eq_tol(fabs(wi[0]), 2.0, 1e-14);
  ck_assert_double_eq_tol(wr[2], 2.0, 1e-14);
  ck_assert(B[1 * 3 + 0] != 0.0); /* 2x2 block leads */
  ck_assert_double_eq(B[2 * 3 + 1], 0.0);

  /* discrete: 0.5 and 0.9 inside, 1 (boundary) and -3 outside */
  double D[16] = {1, 1, 0, 0, /**/ 0, 0.5, 0, 0, /**/ 0, 0, -3, 1, /**/ 0, 0, 0, 0.9};
  double Zd[16];
  ck_assert_int_eq(teal_schur_ordered(D, 4, Zd, TEAL_EIG_UNIT_DISK, &nsel, wr, NULL, NULL),
                   TEAL_OK);
  ck_assert_int_eq(nsel, 2);
  ck_assert_double_eq_tol(wr[0] + wr[1], 1.4, 1e-14);
}
END_TEST

START_TEST(test_schur_zero_size_and_bad_input) {
  teal_error err;
  teal_error_clear(&err);
  int nsel = -1;
  ck_assert_int_eq(teal_schur_ordered(NULL, 0, NULL, TEAL_EIG_UNIT_DISK, &nsel, NULL, NULL, &err),
                   TEAL_OK);
  ck_assert_int_eq(nsel, 0);
  ck_assert_int_eq(err.code, TEAL_OK);

  double A[4] = {1, 2, 3, 4}, Z[4];
  DT_ASSERT_ERR(teal_schur_ordered(A, -1, Z, TEAL_EIG_UNIT_DISK, &nsel, NULL, NULL, &err), err,
                TEAL_EINVAL, "schur_ordered");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_schur_ordered(NULL, 2, Z, TEAL_EIG_UNIT_DISK, &nsel, NULL, NULL, &err), err,
                TEAL_EINVAL, "schur_ordered");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_schur_ordered(A, 2, NULL, TEAL_EIG_UNIT_DISK, &nsel, NULL, NULL, &err), err,
                TEAL_EINVAL, "schur_ordered");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_schur_ordered(A, 2, Z, TEAL_EIG_UNIT_DISK, NULL, NULL, NULL, &err), err,
                TEAL_EINVAL, "schur_ordered");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_schur_ordered(A, 2, Z, (teal_eig_region)7, &nsel, NULL, NULL, &err), err,
                TEAL_EINVAL, "region");
  A[3] = NAN;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_schur_ordered(A, 2, Z, TEAL_EIG_UNIT_DISK, &nsel, NULL, NULL, &err), err,
                TEAL_ENONFINITE, "(1, 1)");
  A[3] = INFINITY;
  ck_assert_int_eq(teal_schur_ordered(A, 2, Z, TEAL_EIG_UNIT_DISK, &nsel, NULL, NULL, NULL),
                   TEAL_ENONFINITE);
  /* rejected calls leave A alone */
  ck_assert_double_eq(A[0], 1.0);
  ck_assert_double_eq(A[1], 2.0);
  ck_assert_double_eq(A[2], 3.0);
}
END_TEST

/* Generalized eigenvalues of the pencil (S, T) in generalized Schur form
 * (S quasi-upper-triangular, T upper triangular); infinite ones (T(i,i) =
 * 0 in a 1x1 block) get inf[i] = 1. */
static void qz_blocks(const double *S, const double *T, int n, double *wr, double *wi, int *inf) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      ck_assert_msg(T[(size_t)i * n + j] == 0.0, "T(%d, %d) = %g below the diagonal", i, j,
                    T[(size_t)i * n + j]);
      if (j + 1 < i) {
        ck_assert_msg(S[(size_t)i * n + j] == 0.0, "S(%d, %d) below the subdiagonal", i, j);
      }
    }
  }
  int i = 0;
  while (i < n) {
    inf[i] = 0;
    if (i + 1 < n && S[(size_t)(i + 1) * n + i] != 0.0) {
      double s11 = S[(size_t)i * n + i], s12 = S[(size_t)i * n + i + 1];
      double s21 = S[(size_t)(i + 1) * n + i], s22 = S[(size_t)(i + 1) * n + i + 1];
      double t11 = T[(size_t)i * n + i], t12 = T[(size_t)i * n + i + 1];
      double t22 = T[(size_t)(i + 1) * n + i + 1];
      /* det(S - l T) = a l^2 - b l + c */
      double a = t11 * t22, b = s11 * t22 + s22 * t11 - s21 * t12, c = s11 * s22 - s12 * s21;
      ck_assert(a != 0.0);
      double disc = b * b - 4 * a * c;
      ck_assert_msg(disc < 0.0, "2x2 block at %d has real eigenvalues", i);
      wr[i] = wr[i + 1] = b / (2 * a);
      wi[i] = sqrt(-disc) / fabs(2 * a);
      wi[i + 1] = -wi[i];
      inf[i + 1] = 0;
      i += 2;
    } else {
      double t = T[(size_t)i * n + i];
      inf[i] = t == 0.0;
      wr[i] = t == 0.0 ? 0.0 : S[(size_t)i * n + i] / t;
      wi[i] = 0.0;
      i += 1;
    }
  }
}

static int check_qz(const double *A, const double *B, int n, teal_eig_region region, int *ninf) {
  size_t nn = (size_t)n * n;
  double *S = dt_new(nn), *T = dt_new(nn), *Q = dt_new(nn), *Z = dt_new(nn);
  double *W = dt_new(nn), *R = dt_new(nn), *wr = dt_new((size_t)n), *wi = dt_new((size_t)n);
  int *inf = calloc((size_t)n + 1, sizeof(int));
  memcpy(S, A, sizeof(double) * nn);
  memcpy(T, B, sizeof(double) * nn);
  teal_error err;
  teal_error_clear(&err);
  int nsel = -1;
  ck_assert_int_eq(teal_qz_ordered(S, T, n, Q, Z, region, &nsel, &err), TEAL_OK);
  ck_assert_int_eq(err.code, TEAL_OK);
  dt_mul(0, 0, n, n, n, Q, S, W);
  dt_mul(0, 1, n, n, n, W, Z, R);
  double ra = dt_reldiff(R, A, nn);
  dt_mul(0, 0, n, n, n, Q, T, W);
  dt_mul(0, 1, n, n, n, W, Z, R);
  double rb = dt_reldiff(R, B, nn);
  ck_assert_msg(ra < 1e-12 && rb < 1e-12, "n = %d: QZ reconstruction %g %g", n, ra, rb);
  ck_assert_msg(dt_orth_cols(Q, n, n) < 1e-12, "Q not orthogonal");
  ck_assert_msg(dt_orth_cols(Z, n, n) < 1e-12, "Z not orthogonal");
  qz_blocks(S, T, n, wr, wi, inf);
  *ninf = 0;
  for (int i = 0; i < n; i++) {
    int sel = !inf[i] && in_region(region, wr[i], wi[i]);
    *ninf += inf[i];
    ck_assert_msg(sel == (i < nsel),
                  "n = %d region %d: eigenvalue %d (%g%+gi, inf %d) "
                  "misplaced, nsel = %d",
                  n, (int)region, i, wr[i], wi[i], inf[i], nsel);
  }
  free(S), free(T), free(Q), free(Z), free(W), free(R), free(wr), free(wi), free(inf);
  return nsel;
}

START_TEST(test_qz_random_ordered) {
  static const int sizes[] = {1, 2, 3, 5, 9, 20, 40};
  unsigned seed = 99173u;
  int sel[2] = {0, 0}, total = 0, ninf;
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    for (int rep = 0; rep < 3; rep++) {
      int n = sizes[s];
      double *A = dt_new((size_t)n * n), *B = dt_new((size_t)n * n);
      dt_rand(&seed, A, (size_t)n * n, -1.0, 1.0);
      dt_rand(&seed, B, (size_t)n * n, -1.0, 1.0);
      sel[0] += check_qz(A, B, n, TEAL_EIG_LEFT_HALF_PLANE, &ninf);
      ck_assert_int_eq(ninf, 0);
      sel[1] += check_qz(A, B, n, TEAL_EIG_UNIT_DISK, &ninf);
      total += n;
      free(A), free(B);
    }
  }
  ck_assert_int_gt(sel[0], total / 4);
  ck_assert_int_lt(sel[0], 3 * total / 4);
  ck_assert_int_gt(sel[1], total / 4);
  ck_assert_int_lt(sel[1], 3 * total / 4);
}
END_TEST

/* B singular: infinite eigenvalues are never selected, whatever the region. */
START_TEST(test_qz_infinite_eigenvalues) {
  unsigned seed = 5150u;
  enum { N = 6 };
  double A[N * N], B[N * N];
  dt_rand(&seed, A, N * N, -1.0, 1.0);
  memset(B, 0, sizeof B);
  for (int i = 0; i < N - 2; i++) {
    B[i * N + i] = 1.0; /* rank N - 2: two infinite eigenvalues */
  }
  int ninf;
  int nsel = check_qz(A, B, N, TEAL_EIG_LEFT_HALF_PLANE, &ninf);
  ck_assert_int_eq(ninf, 2);
  ck_assert_int_le(nsel, N - 2);
  nsel = check_qz(A, B, N, TEAL_EIG_UNIT_DISK, &ninf);
  ck_assert_int_eq(ninf, 2);
  ck_assert_int_le(nsel, N - 2);

  /* B = 0 entirely: nothing is selected */
  memset(B, 0, sizeof B);
  nsel = check_qz(A, B, N, TEAL_EIG_UNIT_DISK, &ninf);
  ck_assert_int_eq(nsel, 0);
  ck_assert_int_eq(ninf, N);
}
END_TEST

START_TEST(test_qz_known_spectrum) {
  /* eigenvalues -1/2, 2, 1/2 */
  double A[9] = {-1, 0, 0, /**/ 0, 2, 0, /**/ 0, 0, 0.5};
  double B[9] = {2, 0, 0, /**/ 0, 1, 0, /**/ 0, 0, 1};
  double A0[9], B0[9], Q[9], Z[9];
  memcpy(A0, A, sizeof A), memcpy(B0, B, sizeof B);
  int nsel = -1;
  ck_assert_int_eq(teal_qz_ordered(A, B, 3, Q, Z, TEAL_EIG_LEFT_HALF_PLANE, &nsel, NULL), 0);
  ck_assert_int_eq(nsel, 1);
  ck_assert_double_eq_tol(A[0] / B[0], -0.5, 1e-15);
  memcpy(A, A0, sizeof A), memcpy(B, B0, sizeof B);
  ck_assert_int_eq(teal_qz_ordered(A, B, 3, Q, Z, TEAL_EIG_UNIT_DISK, &nsel, NULL), 0);
  ck_assert_int_eq(nsel, 2);
  ck_assert_double_eq_tol(A[0] / B[0] + A[4] / B[4], 0.0, 1e-15);
  ck_assert_double_eq_tol(A[8] / B[8], 2.0, 1e-15);
}
END_TEST

START_TEST(test_qz_zero_size_and_bad_input) {
  teal_error err;
  teal_error_clear(&err);
  int nsel = -1;
  ck_assert_int_eq(teal_qz_ordered(NULL, NULL, 0, NULL, NULL, TEAL_EIG_UNIT_DISK, &nsel, &err),
                   TEAL_OK);
  ck_assert_int_eq(nsel, 0);
  double A[4] = {1, 2, 3, 4}, B[4] = {1, 0, 0, 1}, Q[4], Z[4];
  DT_ASSERT_ERR(teal_qz_ordered(A, B, -3, Q, Z, TEAL_EIG_UNIT_DISK, &nsel, &err), err, TEAL_EINVAL,
                "qz_ordered");
  const char *which[] = {"A", "B", "Z"};
  for (int k = 0; k < 3; k++) {
    teal_error_clear(&err);
    int rc = teal_qz_ordered(k == 0 ? NULL : A, k == 1 ? NULL : B, 2, Q, k == 2 ? NULL : Z,
                             TEAL_EIG_UNIT_DISK, &nsel, &err);
    DT_ASSERT_ERR(rc, err, TEAL_EINVAL, which[k]);
  }
  /* Q is optional: without it S, T, Z and the ordering are the same */
  double A1[4] = {1, 2, 3, 4}, B1[4] = {1, 0, 0, 1}, A2[4], B2[4], Z2[4];
  memcpy(A2, A1, sizeof A1);
  memcpy(B2, B1, sizeof B1);
  int nsel2 = -1;
  ck_assert_int_eq(teal_qz_ordered(A1, B1, 2, Q, Z, TEAL_EIG_UNIT_DISK, &nsel, &err), TEAL_OK);
  ck_assert_int_eq(teal_qz_ordered(A2, B2, 2, NULL, Z2, TEAL_EIG_UNIT_DISK, &nsel2, &err),
                   TEAL_OK);
  ck_assert_int_eq(nsel, nsel2);
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq_tol(A1[i], A2[i], 1e-14);
    ck_assert_double_eq_tol(B1[i], B2[i], 1e-14);
    ck_assert_double_eq_tol(Z[i], Z2[i], 1e-14);
  }
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_qz_ordered(A, B, 2, Q, Z, TEAL_EIG_UNIT_DISK, NULL, &err), err, TEAL_EINVAL,
                "nsel");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_qz_ordered(A, B, 2, Q, Z, (teal_eig_region)-1, &nsel, &err), err, TEAL_EINVAL,
                "region");
  B[2] = NAN;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_qz_ordered(A, B, 2, Q, Z, TEAL_EIG_UNIT_DISK, &nsel, &err), err,
                TEAL_ENONFINITE, "B entry (1, 0)");
  ck_assert_double_eq(A[0], 1.0);
  ck_assert_double_eq(B[0], 1.0);
}
END_TEST

/* Every allocation failure gives TEAL_ENOMEM and leaks nothing. */
static int oom_call(void *ctx, teal_error *err) {
  enum { N = 7 };
  unsigned seed = 3u;
  double A[N * N], B[N * N], Q[N * N], Z[N * N], wr[N], wi[N];
  dt_rand(&seed, A, N * N, -1, 1);
  dt_rand(&seed, B, N * N, -1, 1);
  int nsel;
  if (*(int *)ctx == 0) {
    return teal_schur_ordered(A, N, Z, TEAL_EIG_LEFT_HALF_PLANE, &nsel, wr, wi, err);
  }
  return teal_qz_ordered(A, B, N, Q, Z, TEAL_EIG_UNIT_DISK, &nsel, err);
}

START_TEST(test_out_of_memory) {
  int which = 0;
  ck_assert_uint_gt(dt_check_oom(oom_call, &which, "schur_ordered"), 0);
  which = 1;
  ck_assert_uint_gt(dt_check_oom(oom_call, &which, "qz_ordered"), 0);
}
END_TEST

static Suite *schur_suite(void) {
  Suite *s = suite_create("schur");
  TCase *tc = tcase_create("schur");
  tcase_add_test(tc, test_schur_random_ordered);
  tcase_add_test(tc, test_schur_known_spectra);
  tcase_add_test(tc, test_schur_zero_size_and_bad_input);
  suite_add_tcase(s, tc);
  tc = tcase_create("qz");
  tcase_add_test(tc, test_qz_random_ordered);
  tcase_add_test(tc, test_qz_infinite_eigenvalues);
  tcase_add_test(tc, test_qz_known_spectrum);
  tcase_add_test(tc, test_qz_zero_size_and_bad_input);
  tcase_add_test(tc, test_out_of_memory);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return dt_run(schur_suite()); }
