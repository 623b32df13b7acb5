/* Tests of the trajectory source: port names and sizes, time-only
 * prerequisites (no inputs, values follow the context time through the
 * cache), values and derivatives against the trajectory, behaviour outside
 * the breaks, ownership of the copied trajectory, and bad parameters. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "support/test_support.h"
#include "systems/primitives/trajectory_source.h"

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

/* Row 0: t^3 - 2t on [0, 3] (reproduced exactly by not-a-knot); row 1: 5t. */
static teal_piecewise_polynomial *make_cubic(void) {
  static const double b[5] = {0.0, 0.5, 1.25, 2.0, 3.0};
  double y[10];
  for (int k = 0; k < 5; k++) {
    double t = b[k];
    y[2 * k] = t * t * t - 2.0 * t;
    y[2 * k + 1] = 5.0 * t;
  }
  teal_error err;
  teal_piecewise_polynomial *pp =
      teal_piecewise_polynomial_cubic_spline(b, y, 5, 2, TEAL_SPLINE_NOT_A_KNOT, &err);
  ck_assert_msg(pp != NULL, "%s", err.message);
  return pp;
}

START_TEST(test_ports) {
  teal_piecewise_polynomial *pp = make_cubic();
  teal_error err;
  teal_system *src = teal_trajectory_source_new("traj", pp, 2, &err);
  ck_assert_msg(src != NULL, "%s", err.message);
  ck_assert_int_eq(teal_system_num_input_ports(src), 0);
  ck_assert_int_eq(teal_system_num_output_ports(src), 3);
  static const char *names[3] = {"y", "ydot", "yddot"};
  for (int k = 0; k < 3; k++) {
    const teal_output_port *p = teal_system_output_port(src, k);
    ck_assert_str_eq(teal_output_port_name(p), names[k]);
    ck_assert_int_eq(teal_output_port_size(p), 2);
  }
  teal_system_free(src);

  src = teal_trajectory_source_new("y_only", pp, 0, &err);
  ck_assert_int_eq(teal_system_num_output_ports(src), 1);
  teal_system_free(src);
  src = teal_trajectory_source_new("high", pp, 4, &err);
  ck_assert_int_eq(teal_system_num_output_ports(src), 5);
  ck_assert_ptr_nonnull(teal_system_output_port_by_name(src, "y_d3"));
  ck_assert_ptr_nonnull(teal_system_output_port_by_name(src, "y_d4"));
  teal_system_free(src);
  teal_piecewise_polynomial_free(pp);
}
END_TEST

START_TEST(test_values_follow_time) {
  teal_piecewise_polynomial *pp = make_cubic();
  teal_error err;
  teal_system *src = teal_trajectory_source_new("traj", pp, 3, &err);
  teal_piecewise_polynomial_free(pp); /* the source owns a copy */
  const teal_piecewise_polynomial *own = teal_trajectory_source_trajectory(src);
  ck_assert_ptr_nonnull(own);
  ck_assert_int_eq(teal_piecewise_polynomial_num_segments(own), 4);
  ck_assert_ptr_null(teal_trajectory_source_trajectory(NULL));
  teal_system *other = ts_gain_new("g", 1, 2.0);
  ck_assert_ptr_null(teal_trajectory_source_trajectory(other));
  teal_system_free(other);
  teal_context *ctx = teal_context_new(src, &err);
  ck_assert_ptr_nonnull(ctx);
  for (int i = 0; i <= 30; i++) {
    double t = 0.1 * i;
    ck_assert_int_eq(teal_context_set_time(ctx, t), TEAL_OK);
    const double *y, *yd, *ydd, *y3;
    ck_assert_int_eq(teal_eval_vector_output(src, ctx, 0, &y), TEAL_OK);
    ck_assert_int_eq(teal_eval_vector_output(src, ctx, 1, &yd), TEAL_OK);
    ck_assert_int_eq(teal_eval_vector_output(src, ctx, 2, &ydd), TEAL_OK);
    ck_assert_int_eq(teal_eval_vector_output(src, ctx, 3, &y3), TEAL_OK);
    ck_assert_double_eq_tol(y[0], t * t * t - 2.0 * t, 1e-11);
    ck_assert_double_eq_tol(y[1], 5.0 * t, 1e-11);
    ck_assert_double_eq_tol(yd[0], 3.0 * t * t - 2.0, 1e-10);
    ck_assert_double_eq_tol(yd[1], 5.0, 1e-10);
    ck_assert_double_eq_tol(ydd[0], 6.0 * t, 1e-9);
    ck_assert_double_eq_tol(ydd[1], 0.0, 1e-9);
    ck_assert_double_eq_tol(y3[0], 6.0, 1e-8);
  }
  teal_context_free(ctx);
  teal_system_free(src);
}
END_TEST

START_TEST(test_outside_the_breaks) {
  teal_piecewise_polynomial *pp = make_cubic();
  teal_system *src = teal_trajectory_source_new("traj", pp, 1, NULL);
  teal_piecewise_polynomial_free(pp);
  teal_context *ctx = teal_context_new(src, NULL);
  double y[2], yd[2];
  teal_context_set_time(ctx, 10.0);
  ck_assert_int_eq(teal_calc_vector_output(src, ctx, 0, y), TEAL_OK);
  ck_assert_int_eq(teal_calc_vector_output(src, ctx, 1, yd), TEAL_OK);
  ck_assert_double_eq_tol(y[0], 27.0 - 6.0, 1e-10);
  ck_assert_double_eq_tol(y[1], 15.0, 1e-10);
  ck_assert_double_eq(yd[0], 0.0);
  ck_assert_double_eq(yd[1], 0.0);
  teal_context_set_time(ctx, -1.0);
  teal_calc_vector_output(src, ctx, 0, y);
  teal_calc_vector_output(src, ctx, 1, yd);
  ck_assert_double_eq_tol(y[0], 0.0, 1e-14);
  ck_assert_double_eq(yd[0], 0.0);
  teal_context_free(ctx);
  teal_system_free(src);
}
END_TEST

/* A trajectory source feeding a gain in a diagram: evaluation through the
 * connection allocates nothing and tracks time. */
START_TEST(test_in_a_diagram) {
  static const double b[2] = {0.0, 2.0}, y[2] = {1.0, 5.0};
  teal_piecewise_polynomial *pp = teal_piecewise_polynomial_first_order_hold(b, y, 2, 1, NULL);
  teal_error err;
  teal_builder *bld = teal_builder_new("d");
  teal_builder_add(bld, teal_trajectory_source_new("src", pp, 1, &err));
  teal_builder_add(bld, ts_gain_new("gain", 1, 3.0));
  teal_builder_connect_by_name(bld, "src", "ydot", "gain", "u");
  teal_system *gain = teal_builder_find(bld, "gain");
  teal_builder_export_output(bld, teal_system_output_port(gain, 0), "out");
  teal_system *d = teal_builder_build(bld, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_piecewise_polynomial_free(pp);
  teal_context *ctx = teal_context_new(d, &err);
  ts_alloc_install();
  const double *out;
  teal_context_set_time(ctx, 1.0);
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &out), TEAL_OK);
  ck_assert_double_eq_tol(out[0], 6.0, 1e-14);
  teal_context_set_time(ctx, 3.0);
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &out), TEAL_OK);
  ck_assert_double_eq(out[0], 0.0);
  ck_assert_int_eq(ts_alloc_allocs(), 0);
  ts_alloc_uninstall();
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* The constructor under the allocation-failure sweep. */
static teal_system *make_oom(teal_error *err, void *user) {
  return teal_trajectory_source_new("oom", user, 2, err);
}

START_TEST(test_bad_parameters) {
  teal_error err;
  ck_assert_ptr_null(teal_trajectory_source_new("src1", NULL, 0, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "'src1'");
  ASSERT_HAS(err.message, "trajectory");
  teal_piecewise_polynomial *pp = make_cubic();
  ck_assert_ptr_null(teal_trajectory_source_new("src2", pp, -1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "'src2'");
  ASSERT_HAS(err.message, "output_derivative_order");
  ck_assert_ptr_null(
      teal_trajectory_source_new("src3", pp, TEAL_TRAJECTORY_SOURCE_MAX_ORDER + 1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_trajectory_source_new("a/b", pp, 0, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "a/b");
  /* out of memory at each allocation is reported, and nothing leaks */
  ck_assert_int_gt(ts_oom_sweep(make_oom, pp, "oom"), 2);
  teal_piecewise_polynomial_free(pp);
}
END_TEST

static Suite *source_suite(void) {
  Suite *s = suite_create("trajectory_source");
  TCase *tc = tcase_create("source");
  tcase_add_test(tc, test_ports);
  tcase_add_test(tc, test_values_follow_time);
  tcase_add_test(tc, test_outside_the_breaks);
  tcase_add_test(tc, test_in_a_diagram);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(source_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
