/* Tests of piecewise polynomials: zero- and first-order holds, cubic
 * splines (exact reproduction of cubics, C1/C2 continuity at interior
 * breaks, not-a-knot and natural end conditions, hand-computed values),
 * explicit coefficients, holding outside the breaks, copies, and the
 * rejection of bad data. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/test_support.h"
#include "systems/primitives/piecewise_polynomial.h"

const char *__ubsan_default_options(void);
#if defined(__GNUC__)
__attribute__((weak))
#endif
const char *__ubsan_default_options(void) {
  return "halt_on_error=1:print_stacktrace=1";
}

#define ASSERT_HAS(msg, sub)                                                            \
  ck_assert_msg(strstr((msg), (sub)) != NULL, "message \"%s\" does not contain \"%s\"", \
                (msg), (sub))

typedef teal_piecewise_polynomial pp_t;

/* Derivative `order` of row `row` at t (asserting success). */
static double eval_at(const pp_t *pp, double t, int order, int row) {
  double out[8];
  ck_assert_int_le(teal_piecewise_polynomial_rows(pp), 8);
  ck_assert_int_eq(teal_piecewise_polynomial_derivative(pp, t, order, out), TEAL_OK);
  return out[row];
}

/* Value just left of t (the previous segment's limit, to rounding). */
static double eval_left(const pp_t *pp, double t, int order, int row) {
  return eval_at(pp, nextafter(t, -INFINITY), order, row);
}

/* ---- zero- and first-order holds ------------------------------------- */

static const double k_breaks[4] = {0.0, 1.0, 2.5, 4.0};
/* four samples of two rows, sample k = {k_samples[2k], k_samples[2k+1]} */
static const double k_samples[8] = {1.0, -1.0, 3.0, 0.0, 2.0, 4.0, 5.0, 1.0};

START_TEST(test_zero_order_hold_values) {
  teal_error err;
  pp_t *pp = teal_piecewise_polynomial_zero_order_hold(k_breaks, k_samples, 4, 2, &err);
  ck_assert_msg(pp != NULL, "%s", err.message);
  ck_assert_int_eq(teal_piecewise_polynomial_rows(pp), 2);
  ck_assert_int_eq(teal_piecewise_polynomial_num_segments(pp), 3);
  ck_assert_int_eq(teal_piecewise_polynomial_degree(pp), 0);
  ck_assert_double_eq(teal_piecewise_polynomial_start_time(pp), 0.0);
  ck_assert_double_eq(teal_piecewise_polynomial_end_time(pp), 4.0);
  ck_assert_double_eq(teal_piecewise_polynomial_breaks(pp)[2], 2.5);
  /* at each break the new sample starts (right-continuous) */
  for (int k = 0; k < 3; k++) {
    ck_assert_double_eq(eval_at(pp, k_breaks[k], 0, 0), k_samples[2 * k]);
    ck_assert_double_eq(eval_at(pp, k_breaks[k], 0, 1), k_samples[2 * k + 1]);
    double mid = 0.5 * (k_breaks[k] + k_breaks[k + 1]);
    ck_assert_double_eq(eval_at(pp, mid, 0, 1), k_samples[2 * k + 1]);
    ck_assert_double_eq(eval_at(pp, mid, 1, 0), 0.0);
  }
  /* just before a break the previous sample still holds */
  ck_assert_double_eq(eval_left(pp, 2.5, 0, 0), 3.0);
  /* outside: the end polynomials' values; the last sample only ends time */
  ck_assert_double_eq(eval_at(pp, -3.0, 0, 0), 1.0);
  ck_assert_double_eq(eval_at(pp, 4.0, 0, 0), 2.0);
  ck_assert_double_eq(eval_at(pp, 100.0, 0, 1), 4.0);
  ck_assert_double_eq(eval_at(pp, INFINITY, 0, 1), 4.0);
  teal_piecewise_polynomial_free(pp);
}
END_TEST

START_TEST(test_first_order_hold_values_and_slopes) {
  teal_error err;
  pp_t *pp = teal_piecewise_polynomial_first_order_hold(k_breaks, k_samples, 4, 2, &err);
  ck_assert_msg(pp != NULL, "%s", err.message);
  ck_assert_int_eq(teal_piecewise_polynomial_degree(pp), 1);
  for (int k = 0; k < 4; k++) {
    ck_assert_double_eq_tol(eval_at(pp, k_breaks[k], 0, 0), k_samples[2 * k], 1e-14);
    ck_assert_double_eq_tol(eval_at(pp, k_breaks[k], 0, 1), k_samples[2 * k + 1], 1e-14);
  }
  /* midpoints are averages; slopes are divided differences */
  ck_assert_double_eq_tol(eval_at(pp, 1.75, 0, 0), 2.5, 1e-14);
  ck_assert_double_eq_tol(eval_at(pp, 1.75, 0, 1), 2.0, 1e-14);
  ck_assert_double_eq_tol(eval_at(pp, 0.5, 1, 0), 2.0, 1e-14);
  ck_assert_double_eq_tol(eval_at(pp, 3.0, 1, 1), -2.0, 1e-14);
  ck_assert_double_eq(eval_at(pp, 3.0, 2, 1), 0.0);
  /* continuous at the interior breaks */
  ck_assert_double_eq_tol(eval_left(pp, 2.5, 0, 1), 4.0, 1e-12);
  /* held outside, derivatives zero there */
  ck_assert_double_eq(eval_at(pp, -1.0, 0, 0), 1.0);
  ck_assert_double_eq_tol(eval_at(pp, 5.0, 0, 0), 5.0, 1e-14);
  ck_assert_double_eq(eval_at(pp, 5.0, 1, 0), 0.0);
  ck_assert_double_eq(eval_at(pp, -1.0, 1, 1), 0.0);
  /* at the end itself the last segment's slope */
  ck_assert_double_eq_tol(eval_at(pp, 4.0, 1, 0), 2.0, 1e-14);
  teal_piecewise_polynomial_free(pp);
}
END_TEST

/* ---- cubic splines ----------------------------------------------------- */

static double cubic_a(double t, int order) {
  switch (order) {
    case 0: return 2.0 - t + 0.5 * t * t + 0.25 * t * t * t;
    case 1: return -1.0 + t + 0.75 * t * t;
    case 2: return 1.0 + 1.5 * t;
    case 3: return 1.5;
    default: return 0.0;
  }
}

static double cubic_b(double t, int order) {
  switch (order) {
    case 0: return -3.0 * t * t * t + 4.0 * t;
    case 1: return -9.0 * t * t + 4.0;
    case 2: return -18.0 * t;
    case 3: return -18.0;
    default: return 0.0;
  }
}

START_TEST(test_not_a_knot_reproduces_cubics) {
  static const double breaks[7] = {-0.5, 0.3, 1.1, 1.5, 2.6, 3.0, 4.25};
  double samples[14];
  for (int k = 0; k < 7; k++) {
    samples[2 * k] = cubic_a(breaks[k], 0);
    samples[2 * k + 1] = cubic_b(breaks[k], 0);
  }
  teal_error err;
  pp_t *pp = teal_piecewise_polynomial_cubic_spline(breaks, samples, 7, 2,
                                                    TEAL_SPLINE_NOT_A_KNOT, &err);
  ck_assert_msg(pp != NULL, "%s", err.message);
  ck_assert_int_eq(teal_piecewise_polynomial_degree(pp), 3);
  for (int i = 0; i <= 95; i++) {
    double t = -0.5 + 4.75 * i / 95.0;
    for (int order = 0; order <= 4; order++) {
      ck_assert_double_eq_tol(eval_at(pp, t, order, 0), cubic_a(t, order), 1e-10);
      ck_assert_double_eq_tol(eval_at(pp, t, order, 1), cubic_b(t, order), 1e-9);
    }
  }
  teal_piecewise_polynomial_free(pp);
}
END_TEST

START_TEST(test_small_not_a_knot_cases) {
  teal_error err;
  /* two breaks: the straight line */
  static const double b2[2] = {1.0, 3.0}, y2[2] = {5.0, 1.0};
  pp_t *line = teal_piecewise_polynomial_cubic_spline(b2, y2, 2, 1, TEAL_SPLINE_NOT_A_KNOT, &err);
  ck_assert_ptr_nonnull(line);
  ck_assert_double_eq_tol(eval_at(line, 2.0, 0, 0), 3.0, 1e-14);
  ck_assert_double_eq_tol(eval_at(line, 2.7, 1, 0), -2.0, 1e-14);
  ck_assert_double_eq_tol(eval_at(line, 2.7, 2, 0), 0.0, 1e-14);
  teal_piecewise_polynomial_free(line);
  /* three breaks: the parabola through them, so quadratics are exact */
  static const double b3[3] = {0.0, 0.4, 2.0};
  double y3[3];
  for (int k = 0; k < 3; k++) {
    y3[k] = 1.0 - 2.0 * b3[k] + 3.0 * b3[k] * b3[k];
  }
  pp_t *par = teal_piecewise_polynomial_cubic_spline(b3, y3, 3, 1, TEAL_SPLINE_NOT_A_KNOT, &err);
  ck_assert_ptr_nonnull(par);
  for (double t = 0.0; t <= 2.0; t += 0.125) {
    ck_assert_double_eq_tol(eval_at(par, t, 0, 0), 1.0 - 2.0 * t + 3.0 * t * t, 1e-12);
    ck_assert_double_eq_tol(eval_at(par, t, 1, 0), -2.0 + 6.0 * t, 1e-12);
    ck_assert_double_eq_tol(eval_at(par, t, 2, 0), 6.0, 1e-11);
    ck_assert_double_eq_tol(eval_at(par, t, 3, 0), 0.0, 1e-10);
  }
  teal_piecewise_polynomial_free(par);
}
END_TEST

/* Random data of n breaks (uneven spacing) and two rows. */
static void random_data(unsigned seed, int n, double *breaks, double *samples) {
  unsigned state = seed;
  double t = ts_rand_uniform(&state, -1.0, 1.0);
  for (int k = 0; k < n; k++) {
    breaks[k] = t;
    t += ts_rand_uniform(&state, 0.05, 1.5);
    samples[2 * k] = ts_rand_uniform(&state, -5.0, 5.0);
    samples[2 * k + 1] = ts_rand_uniform(&state, -1.0, 1.0);
  }
}

/* Checks interpolation and C2 continuity at every interior break. */
static void check_c2_interpolant(const pp_t *pp, const double *breaks, const double *samples,
                                 int n) {
  for (int k = 0; k < n; k++) {
    for (int r = 0; r < 2; r++) {
      ck_assert_double_eq_tol(eval_at(pp, breaks[k], 0, r), samples[2 * k + r], 1e-11);
    }
  }
  for (int k = 1; k < n - 1; k++) {
    for (int r = 0; r < 2; r++) {
      for (int order = 0; order <= 2; order++) {
        double right = eval_at(pp, breaks[k], order, r);
        double left = eval_left(pp, breaks[k], order, r);
        ck_assert_msg(fabs(right - left) <= 1e-8 * (1.0 + fabs(right)),
                      "derivative %d of row %d jumps at break %d: %.17g vs %.17g", order, r, k,
                      left, right);
      }
    }
  }
}

/* Size of the third-derivative jump of row r at break k. */
static double third_jump(const pp_t *pp, const double *breaks, int k, int r) {
  return fabs(eval_at(pp, breaks[k], 3, r) - eval_left(pp, breaks[k], 3, r));
}

START_TEST(test_not_a_knot_continuity_and_end_conditions) {
  enum { N = 9 };
  double breaks[N], samples[2 * N];
  for (unsigned seed = 1; seed <= 20; seed++) {
    random_data(seed * 7919u, N, breaks, samples);
    teal_error err;
    pp_t *pp = teal_piecewise_polynomial_cubic_spline(breaks, samples, N, 2,
                                                      TEAL_SPLINE_NOT_A_KNOT, &err);
    ck_assert_msg(pp != NULL, "%s", err.message);
    check_c2_interpolant(pp, breaks, samples, N);
    for (int r = 0; r < 2; r++) {
      double scale = 1.0 + fabs(eval_at(pp, breaks[1], 3, r));
      /* not-a-knot: no third-derivative jump at the 2nd and 2nd-to-last breaks */
      ck_assert_double_le(third_jump(pp, breaks, 1, r), 1e-7 * scale);
      ck_assert_double_le(third_jump(pp, breaks, N - 2, r), 1e-7 * scale);
      /* ...while random data does jump at an inner break */
      ck_assert_double_gt(third_jump(pp, breaks, 4, r), 1e-6);
    }
    teal_piecewise_polynomial_free(pp);
  }
}
END_TEST

START_TEST(test_natural_continuity_and_end_conditions) {
  enum { N = 8 };
  double breaks[N], samples[2 * N];
  for (unsigned seed = 1; seed <= 20; seed++) {
    random_data(seed * 104729u, N, breaks, samples);
    teal_error err;
    pp_t *pp = teal_piecewise_polynomial_cubic_spline(breaks, samples, N, 2,
                                                      TEAL_SPLINE_NATURAL, &err);
    ck_assert_msg(pp != NULL, "%s", err.message);
    check_c2_interpolant(pp, breaks, samples, N);
    for (int r = 0; r < 2; r++) {
      ck_assert_double_eq_tol(eval_at(pp, breaks[0], 2, r), 0.0, 1e-9);
      ck_assert_double_eq_tol(eval_at(pp, breaks[N - 1], 2, r), 0.0, 1e-9);
      ck_assert_double_gt(third_jump(pp, breaks, 1, r), 1e-6); /* not a not-a-knot */
    }
    teal_piecewise_polynomial_free(pp);
  }
}
END_TEST

/* (0,0), (1,1), (2,0): M1 = -3, S(t) = 1.5 t - 0.5 t^3 on [0, 1]. */
START_TEST(test_natural_hand_computed) {
  static const double b[3] = {0.0, 1.0, 2.0}, y[3] = {0.0, 1.0, 0.0};
  teal_error err;
  pp_t *pp = teal_piecewise_polynomial_cubic_spline(b, y, 3, 1, TEAL_SPLINE_NATURAL, &err);
  ck_assert_ptr_nonnull(pp);
  ck_assert_double_eq_tol(eval_at(pp, 0.5, 0, 0), 0.6875, 1e-14);
  ck_assert_double_eq_tol(eval_at(pp, 1.5, 0, 0), 0.6875, 1e-14);
  ck_assert_double_eq_tol(eval_at(pp, 0.0, 1, 0), 1.5, 1e-14);
  ck_assert_double_eq_tol(eval_at(pp, 1.0, 2, 0), -3.0, 1e-13);
  ck_assert_double_eq_tol(eval_at(pp, 0.25, 3, 0), -3.0, 1e-13);
  /* natural and not-a-knot differ on the same data (the latter: parabola) */
  pp_t *nak = teal_piecewise_polynomial_cubic_spline(b, y, 3, 1, TEAL_SPLINE_NOT_A_KNOT, &err);
  ck_assert_double_eq_tol(eval_at(nak, 0.5, 0, 0), 0.75, 1e-14);
  teal_piecewise_polynomial_free(nak);
  teal_piecewise_polynomial_free(pp);
}
END_TEST

START_TEST(test_natural_reproduces_lines) {
  static const double b[5] = {0.0, 0.1, 0.7, 2.0, 2.2};
  double y[5];
  for (int k = 0; k < 5; k++) {
    y[k] = 3.0 - 2.0 * b[k];
  }
  pp_t *pp = teal_piecewise_polynomial_cubic_spline(b, y, 5, 1, TEAL_SPLINE_NATURAL, NULL);
  ck_assert_ptr_nonnull(pp);
  for (double t = 0.0; t <= 2.2; t += 0.05) {
    ck_assert_double_eq_tol(eval_at(pp, t, 0, 0), 3.0 - 2.0 * t, 1e-13);
    ck_assert_double_eq_tol(eval_at(pp, t, 1, 0), -2.0, 1e-12);
  }
  teal_piecewise_polynomial_free(pp);
}
END_TEST

/* Many samples of sin: the spline converges like h^4 and stays stable. */
START_TEST(test_long_spline_accuracy) {
  enum { N = 2001 };
  double *b = malloc(N * sizeof *b), *y = malloc(N * sizeof *y);
  for (int k = 0; k < N; k++) {
    b[k] = 10.0 * k / (N - 1);
    y[k] = sin(b[k]);
  }
  for (int end = 0; end <= 1; end++) {
    pp_t *pp = teal_piecewise_polynomial_cubic_spline(b, y, N, 1, (teal_spline_end)end, NULL);
    ck_assert_ptr_nonnull(pp);
    double worst = 0.0;
    for (int i = 0; i < 997; i++) {
      double t = 0.5 + 9.0 * i / 996.0; /* away from the natural spline's ends */
      worst = fmax(worst, fabs(eval_at(pp, t, 0, 0) - sin(t)));
    }
    ck_assert_double_le(worst, 1e-10);
    ck_assert_double_eq_tol(eval_at(pp, 3.3, 1, 0), cos(3.3), 1e-7);
    teal_piecewise_polynomial_free(pp);
  }
  free(b);
  free(y);
}
END_TEST

START_TEST(test_held_outside_the_breaks) {
  static const double b[4] = {0.0, 1.0, 2.0, 3.0}, y[4] = {0.0, 1.0, 0.0, 2.0};
  pp_t *pp = teal_piecewise_polynomial_cubic_spline(b, y, 4, 1, TEAL_SPLINE_NOT_A_KNOT, NULL);
  ck_assert_ptr_nonnull(pp);
  ck_assert_double_eq_tol(eval_at(pp, -10.0, 0, 0), 0.0, 1e-14);
  ck_assert_double_eq_tol(eval_at(pp, 7.0, 0, 0), 2.0, 1e-13);
  for (int order = 1; order <= 4; order++) {
    ck_assert_double_eq(eval_at(pp, -0.001, order, 0), 0.0);
    ck_assert_double_eq(eval_at(pp, 3.001, order, 0), 0.0);
  }
  /* at the ends themselves the end segments' derivatives */
  ck_assert_double_ne(eval_at(pp, 3.0, 1, 0), 0.0);
  ck_assert_double_ne(eval_at(pp, 0.0, 1, 0), 0.0);
  teal_piecewise_polynomial_free(pp);
}
END_TEST

/* ---- explicit coefficients and copies ---------------------------------- */

START_TEST(test_explicit_coefficients) {
  static const double b[3] = {1.0, 2.0, 4.0};
  /* segment 0: 1 + 2 tau^4; segment 1: -tau + tau^2 (row 0 only) */
  static const double c[10] = {1, 0, 0, 0, 2, 0, -1, 1, 0, 0};
  teal_error err;
  pp_t *pp = teal_piecewise_polynomial_new(b, 3, 1, 4, c, &err);
  ck_assert_msg(pp != NULL, "%s", err.message);
  ck_assert_double_eq_tol(eval_at(pp, 1.5, 0, 0), 1.0 + 2.0 * 0.0625, 1e-15);
  ck_assert_double_eq_tol(eval_at(pp, 1.5, 1, 0), 8.0 * 0.125, 1e-15);
  ck_assert_double_eq_tol(eval_at(pp, 1.5, 2, 0), 24.0 * 0.25, 1e-14);
  ck_assert_double_eq_tol(eval_at(pp, 1.5, 3, 0), 48.0 * 0.5, 1e-13);
  ck_assert_double_eq_tol(eval_at(pp, 1.5, 4, 0), 48.0, 1e-13);
  ck_assert_double_eq(eval_at(pp, 1.5, 5, 0), 0.0);
  ck_assert_double_eq_tol(eval_at(pp, 3.0, 0, 0), 0.0, 1e-15);
  ck_assert_double_eq_tol(eval_at(pp, 3.0, 1, 0), 1.0, 1e-15);
  ck_assert_double_eq_tol(eval_at(pp, 2.0, 0, 0), 0.0, 1e-15); /* right-continuous */
  ck_assert_double_eq_tol(eval_left(pp, 2.0, 0, 0), 3.0, 1e-12);

  pp_t *copy = teal_piecewise_polynomial_copy(pp, &err);
  ck_assert_ptr_nonnull(copy);
  teal_piecewise_polynomial_free(pp);
  ck_assert_int_eq(teal_piecewise_polynomial_num_segments(copy), 2);
  ck_assert_double_eq_tol(eval_at(copy, 1.5, 4, 0), 48.0, 1e-13);
  ck_assert_double_eq_tol(eval_at(copy, 3.0, 1, 0), 1.0, 1e-15);
  teal_piecewise_polynomial_free(copy);
}
END_TEST

START_TEST(test_evaluation_allocates_nothing) {
  static const double b[4] = {0.0, 1.0, 2.0, 3.0}, y[4] = {0.0, 1.0, 0.0, 2.0};
  pp_t *pp = teal_piecewise_polynomial_cubic_spline(b, y, 4, 1, TEAL_SPLINE_NATURAL, NULL);
  ts_alloc_install();
  double out, sum = 0.0;
  for (int i = 0; i < 100; i++) {
    teal_piecewise_polynomial_derivative(pp, 0.03 * i, i % 4, &out);
    sum += out;
  }
  ck_assert_int_eq(ts_alloc_allocs(), 0);
  ts_alloc_uninstall();
  ck_assert(isfinite(sum));
  teal_piecewise_polynomial_free(pp);
}
END_TEST

/* ---- errors ------------------------------------------------------------ */

START_TEST(test_rejects_bad_breaks) {
  teal_error err;
  const double y[8] = {0};
  static const double equal[3] = {0.0, 1.0, 1.0}, down[3] = {0.0, 2.0, 1.0};
  ck_assert_ptr_null(teal_piecewise_polynomial_first_order_hold(equal, y, 3, 1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "strictly increasing");
  ASSERT_HAS(err.message, "breaks[2]");
  ck_assert_ptr_null(teal_piecewise_polynomial_zero_order_hold(down, y, 3, 1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "zero_order_hold");
  ck_assert_ptr_null(
      teal_piecewise_polynomial_cubic_spline(down, y, 3, 1, TEAL_SPLINE_NATURAL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "cubic_spline");
  static const double nan_break[3] = {0.0, NAN, 2.0};
  ck_assert_ptr_null(teal_piecewise_polynomial_zero_order_hold(nan_break, y, 3, 1, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ASSERT_HAS(err.message, "breaks[1]");
  static const double inf_break[2] = {0.0, INFINITY};
  ck_assert_ptr_null(teal_piecewise_polynomial_first_order_hold(inf_break, y, 2, 1, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
}
END_TEST

START_TEST(test_rejects_bad_sizes_and_data) {
  teal_error err;
  static const double b[3] = {0.0, 1.0, 2.0};
  const double y[6] = {1, 2, 3, 4, 5, 6};
  ck_assert_ptr_null(teal_piecewise_polynomial_zero_order_hold(b, y, 1, 1, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ASSERT_HAS(err.message, "at least 2 breaks");
  ck_assert_ptr_null(
      teal_piecewise_polynomial_cubic_spline(b, y, 0, 1, TEAL_SPLINE_NOT_A_KNOT, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ck_assert_ptr_null(teal_piecewise_polynomial_first_order_hold(b, y, 3, 0, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ASSERT_HAS(err.message, "rows");
  ck_assert_ptr_null(teal_piecewise_polynomial_first_order_hold(NULL, y, 3, 1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_piecewise_polynomial_first_order_hold(b, NULL, 3, 1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "samples");
  const double bad[6] = {1, 2, 3, 4, NAN, 6};
  ck_assert_ptr_null(
      teal_piecewise_polynomial_cubic_spline(b, bad, 3, 2, TEAL_SPLINE_NATURAL, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ASSERT_HAS(err.message, "samples[4]");
  ck_assert_ptr_null(teal_piecewise_polynomial_cubic_spline(b, y, 3, 1, (teal_spline_end)7, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "end condition");
  /* explicit coefficients */
  ck_assert_ptr_null(teal_piecewise_polynomial_new(b, 3, 1, -1, y, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_piecewise_polynomial_new(b, 3, 1, 99, y, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_piecewise_polynomial_new(b, 3, 1, 1, NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  const double cbad[4] = {0, 1, INFINITY, 0};
  ck_assert_ptr_null(teal_piecewise_polynomial_new(b, 3, 1, 1, cbad, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ASSERT_HAS(err.message, "coeffs[2]");
  ck_assert_ptr_null(teal_piecewise_polynomial_copy(NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
}
END_TEST

START_TEST(test_rejects_bad_evaluation) {
  static const double b[2] = {0.0, 1.0}, y[2] = {0.0, 1.0};
  pp_t *pp = teal_piecewise_polynomial_first_order_hold(b, y, 2, 1, NULL);
  double out;
  ck_assert_int_eq(teal_piecewise_polynomial_value(NULL, 0.5, &out), TEAL_EINVAL);
  ck_assert_int_eq(teal_piecewise_polynomial_value(pp, 0.5, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_piecewise_polynomial_derivative(pp, 0.5, -1, &out), TEAL_EINVAL);
  ck_assert_int_eq(teal_piecewise_polynomial_value(pp, NAN, &out), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_piecewise_polynomial_value(pp, 0.25, &out), TEAL_OK);
  ck_assert_double_eq_tol(out, 0.25, 1e-15);
  ck_assert_int_eq(teal_piecewise_polynomial_rows(NULL), 0);
  ck_assert_int_eq(teal_piecewise_polynomial_degree(NULL), -1);
  ck_assert(isnan(teal_piecewise_polynomial_end_time(NULL)));
  teal_piecewise_polynomial_free(NULL);
  teal_piecewise_polynomial_free(pp);
}
END_TEST

START_TEST(test_out_of_memory) {
  static const double b[5] = {0, 1, 2, 3, 4}, y[5] = {0, 1, 0, 1, 0};
  teal_error err;
  int failures = 0;
  for (long k = 0; k < 8; k++) {
    ts_alloc_install();
    ts_alloc_fail_after(k, 0);
    pp_t *pp = teal_piecewise_polynomial_cubic_spline(b, y, 5, 1, TEAL_SPLINE_NOT_A_KNOT, &err);
    ts_alloc_uninstall();
    if (pp) {
      teal_piecewise_polynomial_free(pp);
      break;
    }
    ck_assert_int_eq(err.code, TEAL_ENOMEM);
    failures++;
  }
  ck_assert_int_eq(failures, 2); /* the object, then the workspace */
}
END_TEST

static Suite *pp_suite(void) {
  Suite *s = suite_create("piecewise_polynomial");
  TCase *tc = tcase_create("holds");
  tcase_add_test(tc, test_zero_order_hold_values);
  tcase_add_test(tc, test_first_order_hold_values_and_slopes);
  suite_add_tcase(s, tc);
  tc = tcase_create("splines");
  tcase_add_test(tc, test_not_a_knot_reproduces_cubics);
  tcase_add_test(tc, test_small_not_a_knot_cases);
  tcase_add_test(tc, test_not_a_knot_continuity_and_end_conditions);
  tcase_add_test(tc, test_natural_continuity_and_end_conditions);
  tcase_add_test(tc, test_natural_hand_computed);
  tcase_add_test(tc, test_natural_reproduces_lines);
  tcase_add_test(tc, test_long_spline_accuracy);
  tcase_add_test(tc, test_held_outside_the_breaks);
  suite_add_tcase(s, tc);
  tc = tcase_create("objects");
  tcase_add_test(tc, test_explicit_coefficients);
  tcase_add_test(tc, test_evaluation_allocates_nothing);
  suite_add_tcase(s, tc);
  tc = tcase_create("errors");
  tcase_add_test(tc, test_rejects_bad_breaks);
  tcase_add_test(tc, test_rejects_bad_sizes_and_data);
  tcase_add_test(tc, test_rejects_bad_evaluation);
  tcase_add_test(tc, test_out_of_memory);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(pp_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
