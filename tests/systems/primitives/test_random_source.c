/* Tests of the random source: the generator against published reference
 * outputs, sample statistics (mean, variance, tail mass, correlation) of
 * the uniform and gaussian outputs with tolerances of several standard
 * errors, timing of the samples, determinism across contexts and systems,
 * seed dependence, clone continuation, reseeding, no allocation while
 * updating, and parameter validation. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/events.h"
#include "support/test_support.h"
#include "systems/primitives/random_source.h"

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

/* ---- the generator ----------------------------------------------------- */

START_TEST(test_splitmix64_reference) {
  uint64_t x = 0;
  ck_assert_uint_eq(teal_splitmix64_next(&x), 0xe220a8397b1dcdafull);
  ck_assert_uint_eq(teal_splitmix64_next(&x), 0x6e789e6aa1b965f4ull);
  ck_assert_uint_eq(teal_splitmix64_next(&x), 0x06c45d188009454full);
  ck_assert_uint_eq(teal_splitmix64_next(&x), 0xf88bb8a8724c81ecull);
  teal_rng rng;
  teal_rng_seed(&rng, 0);
  ck_assert_uint_eq(rng.s[0], 0xe220a8397b1dcdafull);
  ck_assert_uint_eq(rng.s[3], 0xf88bb8a8724c81ecull);
}
END_TEST

START_TEST(test_xoshiro256ss_reference) {
  teal_rng rng = {{1, 2, 3, 4}};
  ck_assert_uint_eq(teal_rng_next(&rng), 11520u);
  ck_assert_uint_eq(teal_rng_next(&rng), 0u);
  ck_assert_uint_eq(teal_rng_next(&rng), 1509978240u);
  ck_assert_uint_eq(teal_rng_next(&rng), 1215971899390074240ull);
  ck_assert_uint_eq(teal_rng_next(&rng), 1216172134540287360ull);
  /* uniforms are the top 53 bits scaled to [0, 1) */
  teal_rng a = {{1, 2, 3, 4}}, b = {{1, 2, 3, 4}};
  ck_assert_double_eq(teal_rng_uniform(&a), (double)(teal_rng_next(&b) >> 11) * 0x1.0p-53);
}
END_TEST

/* ---- driving a source through its events ------------------------------- */

/* Applies the next periodic update; returns its time. */
static double next_sample(const teal_system *sys, teal_context *ctx, teal_event_set *set) {
  double t;
  ck_assert_int_eq(teal_calc_next_update_time(sys, ctx, &t, set), TEAL_OK);
  teal_context_set_time(ctx, t);
  ck_assert_int_eq(teal_dispatch_unrestricted_updates(sys, ctx, set), TEAL_OK);
  return t;
}

/* Collects `count` samples of n values (the current one first). */
static void collect(const teal_system *sys, teal_context *ctx, int count, int n, double *out) {
  teal_event_set *set = teal_event_set_new(sys);
  for (int k = 0; k < count; k++) {
    if (k > 0) {
      next_sample(sys, ctx, set);
    }
    const double *y;
    ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
    memcpy(out + (size_t)k * (size_t)n, y, (size_t)n * sizeof *y);
  }
  teal_event_set_free(set);
}

typedef struct moments {
  double mean, var, within_one, lag_corr;
  double lo, hi;
} moments;

static moments moments_of(const double *x, int m) {
  moments r = {0, 0, 0, 0, INFINITY, -INFINITY};
  for (int i = 0; i < m; i++) {
    r.mean += x[i];
    r.lo = fmin(r.lo, x[i]);
    r.hi = fmax(r.hi, x[i]);
  }
  r.mean /= m;
  double cov = 0.0;
  for (int i = 0; i < m; i++) {
    double d = x[i] - r.mean;
    r.var += d * d;
    r.within_one += fabs(x[i]) < 1.0;
    if (i + 1 < m) {
      cov += d * (x[i + 1] - r.mean);
    }
  }
  r.var /= m - 1;
  r.within_one /= m;
  r.lag_corr = cov / (m - 1) / r.var;
  return r;
}

enum { STAT_N = 7, STAT_COUNT = 4000, STAT_M = STAT_N * STAT_COUNT };

START_TEST(test_uniform_statistics) {
  teal_error err;
  teal_system *src = teal_random_source_new("noise", TEAL_NOISE_UNIFORM, STAT_N, 0.01, 42, &err);
  ck_assert_msg(src != NULL, "%s", err.message);
  teal_context *ctx = teal_context_new(src, &err);
  double *x = malloc(STAT_M * sizeof *x);
  collect(src, ctx, STAT_COUNT, STAT_N, x);
  moments m = moments_of(x, STAT_M);
  /* standard errors: mean 0.0017, variance 0.0005, correlation 0.006 */
  ck_assert_double_eq_tol(m.mean, 0.5, 0.01);
  ck_assert_double_eq_tol(m.var, 1.0 / 12.0, 0.003);
  ck_assert_double_eq_tol(m.lag_corr, 0.0, 0.03);
  ck_assert_double_ge(m.lo, 0.0);
  ck_assert_double_lt(m.hi, 1.0);
  ck_assert_double_lt(m.lo, 0.001); /* the whole range is covered */
  ck_assert_double_gt(m.hi, 0.999);
  free(x);
  teal_context_free(ctx);
  teal_system_free(src);
}
END_TEST

START_TEST(test_gaussian_statistics) {
  teal_error err;
  teal_system *src = teal_random_source_new("noise", TEAL_NOISE_GAUSSIAN, STAT_N, 0.01, 7, &err);
  ck_assert_msg(src != NULL, "%s", err.message);
  teal_context *ctx = teal_context_new(src, &err);
  double *x = malloc(STAT_M * sizeof *x);
  collect(src, ctx, STAT_COUNT, STAT_N, x);
  moments m = moments_of(x, STAT_M);
  /* standard errors: mean 0.006, variance 0.0085, P(|z| < 1) 0.0028 */
  ck_assert_double_eq_tol(m.mean, 0.0, 0.03);
  ck_assert_double_eq_tol(m.var, 1.0, 0.045);
  ck_assert_double_eq_tol(m.within_one, 0.682689, 0.014);
  ck_assert_double_eq_tol(m.lag_corr, 0.0, 0.03);
  ck_assert_double_lt(m.lo, -3.0); /* tails are there... */
  ck_assert_double_gt(m.hi, 3.0);
  ck_assert_double_gt(m.lo, -7.0); /* ...but not absurd */
  ck_assert_double_lt(m.hi, 7.0);
  free(x);
  teal_context_free(ctx);
  teal_system_free(src);
}
END_TEST

START_TEST(test_gaussian_layout) {
  /* three components: a full pair, then z0 of a second pair */
  teal_rng a, b;
  teal_rng_seed(&a, 99);
  teal_rng_seed(&b, 99);
  double z[3];
  teal_rng_fill(&a, TEAL_NOISE_GAUSSIAN, z, 3);
  const double two_pi = 6.283185307179586;
  double u[4];
  for (int i = 0; i < 4; i++) {
    u[i] = teal_rng_uniform(&b);
  }
  ck_assert_double_eq_tol(z[0], sqrt(-2.0 * log(1.0 - u[0])) * cos(two_pi * u[1]), 1e-12);
  ck_assert_double_eq_tol(z[1], sqrt(-2.0 * log(1.0 - u[0])) * sin(two_pi * u[1]), 1e-12);
  ck_assert_double_eq_tol(z[2], sqrt(-2.0 * log(1.0 - u[2])) * cos(two_pi * u[3]), 1e-12);
  ck_assert_uint_eq(teal_rng_next(&a), teal_rng_next(&b)); /* four draws each */
}
END_TEST

START_TEST(test_sample_timing_and_hold) {
  teal_error err;
  teal_system *src = teal_random_source_new("noise", TEAL_NOISE_UNIFORM, 3, 0.25, 5, &err);
  ck_assert_int_eq(teal_system_num_input_ports(src), 0);
  ck_assert_int_eq(teal_system_num_discrete_states(src), 3);
  ck_assert_int_eq(teal_system_num_abstract_states(src), 1);
  teal_context *ctx = teal_context_new(src, &err);
  /* the default sample is sample 0 of the seed */
  teal_rng ref;
  teal_rng_seed(&ref, 5);
  double expect[3];
  teal_rng_fill(&ref, TEAL_NOISE_UNIFORM, expect, 3);
  const double *y;
  teal_eval_vector_output(src, ctx, 0, &y);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq(y[i], expect[i]);
  }
  /* the first redraw is at one period, not at t = 0 */
  teal_event_set *set = teal_event_set_new(src);
  double t;
  teal_context_set_time(ctx, -1e-9);
  teal_calc_next_update_time(src, ctx, &t, set);
  ck_assert_double_eq(t, 0.25);
  teal_context_set_time(ctx, 0.0);
  for (int k = 1; k <= 4; k++) {
    teal_context_set_time(ctx, t - 0.1); /* between samples: held */
    teal_eval_vector_output(src, ctx, 0, &y);
    ck_assert_double_eq(y[2], expect[2]);
    double when = next_sample(src, ctx, set);
    ck_assert_double_eq_tol(when, 0.25 * k, 1e-12);
    teal_rng_fill(&ref, TEAL_NOISE_UNIFORM, expect, 3);
    teal_eval_vector_output(src, ctx, 0, &y);
    for (int i = 0; i < 3; i++) {
      ck_assert_double_eq(y[i], expect[i]);
    }
    t = when + 0.25;
  }
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(src);
}
END_TEST

enum { SEQ_N = 2, SEQ_COUNT = 20 };

START_TEST(test_determinism_and_seed_dependence) {
  teal_error err;
  teal_system *s1 = teal_random_source_new("a", TEAL_NOISE_GAUSSIAN, SEQ_N, 0.1, 1234, &err);
  teal_system *s2 = teal_random_source_new("b", TEAL_NOISE_GAUSSIAN, SEQ_N, 0.1, 1234, &err);
  teal_system *s3 = teal_random_source_new("c", TEAL_NOISE_GAUSSIAN, SEQ_N, 0.1, 1235, &err);
  teal_context *c1 = teal_context_new(s1, &err), *c1b = teal_context_new(s1, &err);
  teal_context *c2 = teal_context_new(s2, &err), *c3 = teal_context_new(s3, &err);
  double x1[SEQ_N * SEQ_COUNT], x1b[SEQ_N * SEQ_COUNT], x2[SEQ_N * SEQ_COUNT],
      x3[SEQ_N * SEQ_COUNT];
  collect(s1, c1, SEQ_COUNT, SEQ_N, x1);
  collect(s1, c1b, SEQ_COUNT, SEQ_N, x1b);
  collect(s2, c2, SEQ_COUNT, SEQ_N, x2);
  collect(s3, c3, SEQ_COUNT, SEQ_N, x3);
  int differ = 0;
  for (int i = 0; i < SEQ_N * SEQ_COUNT; i++) {
    ck_assert_double_eq(x1[i], x1b[i]); /* same system, two contexts */
    ck_assert_double_eq(x1[i], x2[i]);  /* same seed, two systems */
    differ += x1[i] != x3[i];
  }
  ck_assert_int_eq(differ, SEQ_N * SEQ_COUNT); /* another seed: all different */
  /* samples within one draw differ from each other too */
  ck_assert_double_ne(x1[0], x1[1]);
  teal_context_free(c1);
  teal_context_free(c1b);
  teal_context_free(c2);
  teal_context_free(c3);
  teal_system_free(s1);
  teal_system_free(s2);
  teal_system_free(s3);
}
END_TEST

START_TEST(test_clone_continues_identically) {
  teal_error err;
  teal_system *src = teal_random_source_new("n", TEAL_NOISE_UNIFORM, SEQ_N, 0.1, 77, &err);
  teal_context *ctx = teal_context_new(src, &err);
  double skip[SEQ_N * 4];
  collect(src, ctx, 4, SEQ_N, skip);
  teal_context *copy = teal_context_clone(ctx, &err);
  ck_assert_ptr_nonnull(copy);
  double a[SEQ_N * SEQ_COUNT], b[SEQ_N * SEQ_COUNT];
  collect(src, ctx, SEQ_COUNT, SEQ_N, a);
  collect(src, copy, SEQ_COUNT, SEQ_N, b);
  for (int i = 0; i < SEQ_N * SEQ_COUNT; i++) {
    ck_assert_double_eq(a[i], b[i]);
  }
  ck_assert_double_eq(a[0], skip[SEQ_N * 3]); /* the clone starts where ctx was */
  /* copy_from rewinds a context onto another one's position */
  teal_context *fresh = teal_context_new(src, &err);
  ck_assert_int_eq(teal_context_copy_from(fresh, copy), TEAL_OK);
  double c[SEQ_N * 3], d[SEQ_N * 3];
  collect(src, fresh, 3, SEQ_N, c);
  collect(src, copy, 3, SEQ_N, d);
  for (int i = 0; i < SEQ_N * 3; i++) {
    ck_assert_double_eq(c[i], d[i]);
  }
  teal_context_free(fresh);
  teal_context_free(copy);
  teal_context_free(ctx);
  teal_system_free(src);
}
END_TEST

START_TEST(test_set_seed_restarts) {
  teal_error err;
  teal_builder *bl = teal_builder_new("d");
  teal_system *src =
      teal_builder_add(bl, teal_random_source_new("n", TEAL_NOISE_GAUSSIAN, 3, 0.1, 1, &err));
  teal_system *d = teal_builder_build(bl, &err);
  teal_context *ctx = teal_context_new(d, &err);
  teal_system *ref = teal_random_source_new("ref", TEAL_NOISE_GAUSSIAN, 3, 0.1, 555, &err);
  teal_context *rctx = teal_context_new(ref, &err);
  ck_assert_int_eq(teal_random_source_set_seed(src, ctx, 555), TEAL_OK);
  double a[3 * 5], b[3 * 5];
  collect(ref, rctx, 5, 3, b);
  teal_event_set *set = teal_event_set_new(d);
  for (int k = 0; k < 5; k++) {
    if (k > 0) {
      next_sample(d, ctx, set);
    }
    const double *y;
    teal_eval_vector_output(src, teal_context_subcontext(ctx, src), 0, &y);
    memcpy(a + 3 * k, y, 3 * sizeof *y);
  }
  for (int i = 0; i < 15; i++) {
    ck_assert_double_eq(a[i], b[i]);
  }
  ck_assert_int_eq(teal_random_source_set_seed(NULL, ctx, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_random_source_set_seed(ref, ctx, 1), TEAL_ENOTFOUND);
  teal_system *gain = ts_gain_new("gain", 1, 1.0);
  ck_assert_int_eq(teal_random_source_set_seed(gain, ctx, 1), TEAL_EINVAL);
  teal_system_free(gain);
  teal_event_set_free(set);
  teal_context_free(rctx);
  teal_system_free(ref);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_updates_allocate_nothing) {
  teal_system *src = teal_random_source_new("n", TEAL_NOISE_GAUSSIAN, 5, 0.1, 3, NULL);
  teal_context *ctx = teal_context_new(src, NULL);
  teal_event_set *set = teal_event_set_new(src);
  ts_alloc_install();
  for (int k = 0; k < 50; k++) {
    next_sample(src, ctx, set);
    const double *y;
    teal_eval_vector_output(src, ctx, 0, &y);
  }
  ck_assert_int_eq(ts_alloc_allocs(), 0);
  ts_alloc_uninstall();
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(src);
}
END_TEST

/* The constructor under the allocation-failure sweep. */
static teal_system *make_oom(teal_error *err, void *user) {
  (void)user;
  return teal_random_source_new("oom", TEAL_NOISE_UNIFORM, 2, 0.1, 1, err);
}

START_TEST(test_bad_parameters) {
  teal_error err;
  ck_assert_ptr_null(teal_random_source_new("r1", TEAL_NOISE_UNIFORM, 0, 0.1, 1, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ASSERT_HAS(err.message, "'r1'");
  ck_assert_ptr_null(teal_random_source_new("r2", (teal_noise_kind)5, 1, 0.1, 1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "'r2'");
  ASSERT_HAS(err.message, "kind");
  ck_assert_ptr_null(teal_random_source_new("r3", TEAL_NOISE_UNIFORM, 1, 0.0, 1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "period");
  ck_assert_ptr_null(teal_random_source_new("r4", TEAL_NOISE_GAUSSIAN, 1, NAN, 1, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ASSERT_HAS(err.message, "'r4'");
  ck_assert_ptr_null(teal_random_source_new("r5", TEAL_NOISE_GAUSSIAN, 1, -INFINITY, 1, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ck_assert_int_gt(ts_oom_sweep(make_oom, NULL, "'oom'"), 3);
}
END_TEST

static Suite *random_suite(void) {
  Suite *s = suite_create("random_source");
  TCase *tc = tcase_create("generator");
  tcase_add_test(tc, test_splitmix64_reference);
  tcase_add_test(tc, test_xoshiro256ss_reference);
  tcase_add_test(tc, test_gaussian_layout);
  suite_add_tcase(s, tc);
  tc = tcase_create("statistics");
  tcase_add_test(tc, test_uniform_statistics);
  tcase_add_test(tc, test_gaussian_statistics);
  suite_add_tcase(s, tc);
  tc = tcase_create("source");
  tcase_add_test(tc, test_sample_timing_and_hold);
  tcase_add_test(tc, test_determinism_and_seed_dependence);
  tcase_add_test(tc, test_clone_continues_identically);
  tcase_add_test(tc, test_set_seed_restarts);
  tcase_add_test(tc, test_updates_allocate_nothing);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(random_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
