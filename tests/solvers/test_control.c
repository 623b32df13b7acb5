/* Control structure: controllability / observability matrices against
 * explicit products, Kalman rank tests (double integrator, decoupled
 * uncontrollable mode), PBH stabilizability / detectability both ways in
 * continuous and discrete time (real and complex modes, the margin and
 * the tolerance), zero sizes and bad input. */
#include "dense_test_util.h"

START_TEST(test_matrices_against_products) {
  unsigned seed = 2718u;
  enum { N = 5, M = 2, P = 3 };
  double A[N * N], B[N * M], C[P * N], Cm[N * N * M], Om[N * P * N];
  dt_rand(&seed, A, N * N, -1, 1);
  dt_rand(&seed, B, N * M, -1, 1);
  dt_rand(&seed, C, P * N, -1, 1);
  ck_assert_int_eq(teal_controllability_matrix(A, B, N, M, Cm, NULL), TEAL_OK);
  ck_assert_int_eq(teal_observability_matrix(A, C, N, P, Om, NULL), TEAL_OK);
  double Pk[N * M], Tmp[N * M], Ck[P * N], Tc[P * N];
  memcpy(Pk, B, sizeof B);
  memcpy(Ck, C, sizeof C);
  for (int k = 0; k < N; k++) {
    for (int i = 0; i < N; i++) {
      for (int j = 0; j < M; j++) {
        ck_assert_double_eq_tol(Cm[i * N * M + k * M + j], Pk[i * M + j], 1e-13);
      }
    }
    for (int i = 0; i < P; i++) {
      for (int j = 0; j < N; j++) {
        ck_assert_double_eq_tol(Om[(k * P + i) * N + j], Ck[i * N + j], 1e-13);
      }
    }
    dt_mul(0, 0, N, M, N, A, Pk, Tmp);
    memcpy(Pk, Tmp, sizeof Tmp);
    dt_mul(0, 0, P, N, N, Ck, A, Tc);
    memcpy(Ck, Tc, sizeof Tc);
  }
}
END_TEST

START_TEST(test_double_integrator) {
  double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, C[2] = {1, 0}, Cv[2] = {0, 1};
  double Cm[4], Om[4];
  ck_assert_int_eq(teal_controllability_matrix(A, B, 2, 1, Cm, NULL), TEAL_OK);
  const double cm[4] = {0, 1, 1, 0};
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq(Cm[i], cm[i]);
  }
  ck_assert_int_eq(teal_observability_matrix(A, C, 2, 1, Om, NULL), TEAL_OK);
  const double om[4] = {1, 0, 0, 1};
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq(Om[i], om[i]);
  }
  int yes = -1;
  ck_assert_int_eq(teal_is_controllable(A, B, 2, 1, -1.0, &yes, NULL), TEAL_OK);
  ck_assert_int_eq(yes, 1);
  ck_assert_int_eq(teal_is_observable(A, C, 2, 1, -1.0, &yes, NULL), TEAL_OK);
  ck_assert_int_eq(yes, 1);
  /* velocity measurement: position unobservable */
  ck_assert_int_eq(teal_is_observable(A, Cv, 2, 1, -1.0, &yes, NULL), TEAL_OK);
  ck_assert_int_eq(yes, 0);
  /* force on position only (B = e1): x2 never moves */
  double B1[2] = {1, 0};
  ck_assert_int_eq(teal_is_controllable(A, B1, 2, 1, -1.0, &yes, NULL), TEAL_OK);
  ck_assert_int_eq(yes, 0);
  /* PBH at lambda = 0 (boundary counts as unstable) */
  double margin = -1.0;
  ck_assert_int_eq(teal_is_stabilizable(A, B, 2, 1, 0, -1.0, &yes, &margin, NULL), TEAL_OK);
  ck_assert_int_eq(yes, 1);
  ck_assert(margin > 0.1);
  ck_assert_int_eq(teal_is_stabilizable(A, B1, 2, 1, 0, -1.0, &yes, &margin, NULL), TEAL_OK);
  ck_assert_int_eq(yes, 0);
  ck_assert(margin < 1e-12);
  ck_assert_int_eq(teal_is_detectable(A, C, 2, 1, 0, -1.0, &yes, &margin, NULL), TEAL_OK);
  ck_assert_int_eq(yes, 1);
  ck_assert_int_eq(teal_is_detectable(A, Cv, 2, 1, 0, -1.0, &yes, &margin, NULL), TEAL_OK);
  ck_assert_int_eq(yes, 0);
}
END_TEST

/* A = diag(a1, a2), B = e1 (C = e1'): mode 2 uncontrollable and
 * unobservable; stabilizable / detectable iff mode 2 is stable. */
START_TEST(test_decoupled_mode_both_ways) {
  struct {
    double a1, a2;
    int discrete, stable2;
  } cases[] = {
      {-1.0, 2.0, 0, 0}, {2.0, -1.0, 0, 1}, {1.0, 0.0, 0, 0},  /* continuous */
      {0.5, 1.5, 1, 0},  {1.5, 0.5, 1, 1},  {3.0, -1.0, 1, 0}, /* discrete */
      {1.5, -0.9, 1, 1},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    double A[4] = {cases[c].a1, 0, 0, cases[c].a2}, B[2] = {1, 0}, C[2] = {1, 0};
    int res = -1;
    double margin = -1.0;
    ck_assert_int_eq(teal_is_controllable(A, B, 2, 1, -1.0, &res, NULL), TEAL_OK);
    ck_assert_int_eq(res, 0);
    ck_assert_int_eq(teal_is_observable(A, C, 2, 1, -1.0, &res, NULL), TEAL_OK);
    ck_assert_int_eq(res, 0);
    ck_assert_int_eq(teal_is_stabilizable(A, B, 2, 1, cases[c].discrete, -1.0, &res, &margin, NULL),
                     TEAL_OK);
    ck_assert_msg(res == cases[c].stable2, "case %zu: stabilizable = %d", c, res);
    if (!cases[c].stable2) {
      ck_assert(margin < 1e-14);
    }
    ck_assert_int_eq(teal_is_detectable(A, C, 2, 1, cases[c].discrete, -1.0, &res, &margin, NULL),
                     TEAL_OK);
    ck_assert_msg(res == cases[c].stable2, "case %zu: detectable = %d", c, res);
    /* a full input makes every case stabilizable */
    double Bf[4] = {1, 0, 0, 1};
    ck_assert_int_eq(teal_is_stabilizable(A, Bf, 2, 2, cases[c].discrete, -1.0, &res, NULL, NULL),
                     TEAL_OK);
    ck_assert_int_eq(res, 1);
    ck_assert_int_eq(teal_is_controllable(A, Bf, 2, 2, -1.0, &res, NULL), TEAL_OK);
    ck_assert_int_eq(res, 1);
  }
}
END_TEST

/* Complex modes: two oscillators (frequencies 1 and 2), input on the
 * first only. The second is uncontrollable: not stabilizable while
 * undamped or growing, stabilizable once damped. */
START_TEST(test_complex_modes) {
  for (int discrete = 0; discrete < 2; discrete++) {
    for (int damped = 0; damped < 2; damped++) {
      double s = discrete ? (damped ? 0.9 : 1.0) : (damped ? -0.3 : 0.0);
      double A[16] = {0};
      if (discrete) {
        /* rotations by 0.4 and 0.9, the second scaled by s */
        A[0] = cos(0.4), A[1] = -sin(0.4), A[4] = sin(0.4), A[5] = cos(0.4);
        A[10] = s * cos(0.9), A[11] = -s * sin(0.9), A[14] = s * sin(0.9), A[15] = s * cos(0.9);
      } else {
        A[1] = 1, A[4] = -1;
        A[10] = s, A[11] = 2, A[14] = -2, A[15] = s;
      }
      double B[4] = {0, 1, 0, 0}, C[4] = {1, 0, 0, 0}, margin = -1.0;
      int res = -1;
      ck_assert_int_eq(teal_is_stabilizable(A, B, 4, 1, discrete, -1.0, &res, &margin, NULL),
                       TEAL_OK);
      ck_assert_msg(res == damped, "discrete %d damped %d: stabilizable %d", discrete, damped, res);
      if (damped) {
        ck_assert(margin > 1e-3 && isfinite(margin)); /* the first oscillator is tested */
      } else {
        ck_assert(margin < 1e-14);
      }
      ck_assert_int_eq(teal_is_detectable(A, C, 4, 1, discrete, -1.0, &res, &margin, NULL),
                       TEAL_OK);
      ck_assert_int_eq(res, damped);
      ck_assert_int_eq(teal_is_controllable(A, B, 4, 1, -1.0, &res, NULL), TEAL_OK);
      ck_assert_int_eq(res, 0);
      /* both oscillators driven: controllable and stabilizable */
      double B2[4] = {0, 1, 0, 1};
      ck_assert_int_eq(teal_is_controllable(A, B2, 4, 1, -1.0, &res, NULL), TEAL_OK);
      ck_assert_int_eq(res, 1);
      ck_assert_int_eq(teal_is_stabilizable(A, B2, 4, 1, discrete, -1.0, &res, NULL, NULL),
                       TEAL_OK);
      ck_assert_int_eq(res, 1);
    }
  }
}
END_TEST

START_TEST(test_margin_and_tolerance) {
  /* stable A: nothing to test, margin +Inf, even with no input */
  double As[4] = {-1, 3, 0, -2};
  int res = -1;
  double margin = 0.0;
  ck_assert_int_eq(teal_is_stabilizable(As, NULL, 2, 0, 0, -1.0, &res, &margin, NULL), TEAL_OK);
  ck_assert_int_eq(res, 1);
  ck_assert(isinf(margin) && margin > 0);
  ck_assert_int_eq(teal_is_stabilizable(As, NULL, 2, 0, 1, -1.0, &res, &margin, NULL), TEAL_OK);
  ck_assert_int_eq(res, 0); /* |-2| >= 1 in discrete time */
  /* weakly controllable unstable mode: B = (1, 1e-9)' on diag(1, 2) */
  double A[4] = {1, 0, 0, 2}, B[2] = {1, 1e-9};
  ck_assert_int_eq(teal_is_stabilizable(A, B, 2, 1, 0, -1.0, &res, &margin, NULL), TEAL_OK);
  ck_assert_int_eq(res, 1);
  /* smallest sigma of [A - 2I, B] ~ 1e-9 / sqrt 2 normalized by |[A B]| = sqrt 6 */
  ck_assert_double_eq_tol(margin, 1e-9 / sqrt(2.0) / sqrt(6.0), 1e-11);
  ck_assert_int_eq(teal_is_stabilizable(A, B, 2, 1, 0, 1e-6, &res, &margin, NULL), TEAL_OK);
  ck_assert_int_eq(res, 0);
  ck_assert_int_eq(teal_is_controllable(A, B, 2, 1, -1.0, &res, NULL), TEAL_OK);
  ck_assert_int_eq(res, 1);
  ck_assert_int_eq(teal_is_controllable(A, B, 2, 1, 1e-6, &res, NULL), TEAL_OK);
  ck_assert_int_eq(res, 0);
}
END_TEST

START_TEST(test_zero_sizes) {
  int res = -1;
  double margin = 0.0;
  ck_assert_int_eq(teal_controllability_matrix(NULL, NULL, 0, 3, NULL, NULL), TEAL_OK);
  ck_assert_int_eq(teal_observability_matrix(NULL, NULL, 0, 2, NULL, NULL), TEAL_OK);
  ck_assert_int_eq(teal_is_controllable(NULL, NULL, 0, 0, -1.0, &res, NULL), TEAL_OK);
  ck_assert_int_eq(res, 1);
  ck_assert_int_eq(teal_is_observable(NULL, NULL, 0, 4, -1.0, &res, NULL), TEAL_OK);
  ck_assert_int_eq(res, 1);
  ck_assert_int_eq(teal_is_stabilizable(NULL, NULL, 0, 0, 0, -1.0, &res, &margin, NULL), TEAL_OK);
  ck_assert_int_eq(res, 1);
  ck_assert_int_eq(teal_is_detectable(NULL, NULL, 0, 0, 1, -1.0, &res, NULL, NULL), TEAL_OK);
  ck_assert_int_eq(res, 1);
  /* no inputs: a state is never controllable */
  double A[1] = {-1};
  ck_assert_int_eq(teal_is_controllable(A, NULL, 1, 0, -1.0, &res, NULL), TEAL_OK);
  ck_assert_int_eq(res, 0);
  ck_assert_int_eq(teal_is_observable(A, NULL, 1, 0, -1.0, &res, NULL), TEAL_OK);
  ck_assert_int_eq(res, 0);
  ck_assert_int_eq(teal_controllability_matrix(A, NULL, 1, 0, NULL, NULL), TEAL_OK);
  ck_assert_int_eq(teal_is_detectable(A, NULL, 1, 0, 0, -1.0, &res, NULL, NULL), TEAL_OK);
  ck_assert_int_eq(res, 1); /* stable */
}
END_TEST

START_TEST(test_bad_input) {
  teal_error err;
  double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, M[4];
  int res;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_controllability_matrix(A, B, -2, 1, M, &err), err, TEAL_EINVAL,
                "controllability_matrix");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_controllability_matrix(A, B, 2, -1, M, &err), err, TEAL_EINVAL, "m = -1");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_controllability_matrix(NULL, B, 2, 1, M, &err), err, TEAL_EINVAL, "NULL A");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_controllability_matrix(A, NULL, 2, 1, M, &err), err, TEAL_EINVAL, "NULL B");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_controllability_matrix(A, B, 2, 1, NULL, &err), err, TEAL_EINVAL, "NULL Cm");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_observability_matrix(A, B, 2, 1, NULL, &err), err, TEAL_EINVAL, "NULL Om");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_observability_matrix(A, NULL, 2, 1, M, &err), err, TEAL_EINVAL, "NULL C");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_is_controllable(A, B, 2, 1, -1.0, NULL, &err), err, TEAL_EINVAL,
                "NULL result");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_is_observable(A, B, 2, 1, NAN, &res, &err), err, TEAL_EINVAL, "tol");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_is_stabilizable(A, B, 2, 1, 0, -1.0, NULL, NULL, &err), err, TEAL_EINVAL,
                "is_stabilizable");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_is_detectable(A, B, -1, 1, 0, -1.0, &res, NULL, &err), err, TEAL_EINVAL,
                "is_detectable");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_is_detectable(A, B, 2, 1, 0, INFINITY, &res, NULL, &err), err, TEAL_EINVAL,
                "tol");
  B[1] = NAN;
  const char *names[] = {"controllability_matrix", "observability_matrix", "is_controllable",
                         "is_observable",          "is_stabilizable",      "is_detectable"};
  for (int f = 0; f < 6; f++) {
    teal_error_clear(&err);
    int rc;
    switch (f) {
      case 0:
        rc = teal_controllability_matrix(A, B, 2, 1, M, &err);
        break;
      case 1:
        rc = teal_observability_matrix(A, B, 2, 1, M, &err);
        break;
      case 2:
        rc = teal_is_controllable(A, B, 2, 1, -1.0, &res, &err);
        break;
      case 3:
        rc = teal_is_observable(A, B, 2, 1, -1.0, &res, &err);
        break;
      case 4:
        rc = teal_is_stabilizable(A, B, 2, 1, 0, -1.0, &res, NULL, &err);
        break;
      default:
        rc = teal_is_detectable(A, B, 2, 1, 1, -1.0, &res, NULL, &err);
        break;
    }
    DT_ASSERT_ERR(rc, err, TEAL_ENONFINITE, names[f]);
  }
  B[1] = 1.0;
  A[0] = INFINITY;
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_is_stabilizable(A, B, 2, 1, 1, -1.0, &res, NULL, &err), err, TEAL_ENONFINITE,
                "A entry (0, 0)");
  /* powers of A that overflow */
  double H[9] = {1e200, 0, 0, 0, 1e200, 0, 0, 0, 1}, Bh[3] = {1, 1, 1}, Cm[9];
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_controllability_matrix(H, Bh, 3, 1, Cm, &err), err, TEAL_ENONFINITE,
                "overflow");
  teal_error_clear(&err);
  DT_ASSERT_ERR(teal_is_observable(H, Bh, 3, 1, -1.0, &res, &err), err, TEAL_ENONFINITE,
                "overflow");
}
END_TEST

/* Every allocation failure gives TEAL_ENOMEM and leaks nothing (A has an
 * unstable complex pair and an unstable real mode, so PBH runs both ways). */
static int oom_call(void *ctx, teal_error *err) {
  double A[9] = {0.1, 2, 0, -2, 0.1, 0, 0, 0, 1.5}, B[3] = {0, 1, 1}, C[3] = {1, 0, 1};
  int res;
  double margin;
  switch (*(int *)ctx) {
    case 0:
      return teal_is_controllable(A, B, 3, 1, -1.0, &res, err);
    case 1:
      return teal_is_observable(A, C, 3, 1, -1.0, &res, err);
    case 2:
      return teal_is_stabilizable(A, B, 3, 1, 0, -1.0, &res, &margin, err);
    default:
      return teal_is_detectable(A, C, 3, 1, 1, -1.0, &res, &margin, err);
  }
}

START_TEST(test_out_of_memory) {
  const char *names[] = {"is_controllable", "is_observable", "is_stabilizable", "is_detectable"};
  for (int which = 0; which < 4; which++) {
    ck_assert_uint_gt(dt_check_oom(oom_call, &which, names[which]), 0);
  }
}
END_TEST

static Suite *control_suite(void) {
  Suite *s = suite_create("control");
  TCase *tc = tcase_create("kalman");
  tcase_add_test(tc, test_matrices_against_products);
  tcase_add_test(tc, test_double_integrator);
  suite_add_tcase(s, tc);
  tc = tcase_create("pbh");
  tcase_add_test(tc, test_decoupled_mode_both_ways);
  tcase_add_test(tc, test_complex_modes);
  tcase_add_test(tc, test_margin_and_tolerance);
  suite_add_tcase(s, tc);
  tc = tcase_create("edges");
  tcase_add_test(tc, test_zero_sizes);
  tcase_add_test(tc, test_bad_input);
  tcase_add_test(tc, test_out_of_memory);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return dt_run(control_suite()); }
