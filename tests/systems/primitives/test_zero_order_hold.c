/* Tests of the zero-order hold: ports and feedthrough, sampling at
 * offset + k * period and holding in between (driven through the event
 * API), abstract values through the type's hooks, loops through a hold,
 * and parameter validation. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/events.h"
#include "support/test_support.h"
#include "systems/analysis/simulator.h"
#include "systems/primitives/zero_order_hold.h"

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

/* The input signal used by the sampling tests. */
static void signal_at(double t, double u[2]) {
  u[0] = 10.0 * t + 1.0;
  u[1] = -3.0 * t * t;
}

/* Moves ctx to the next periodic update time; returns it. */
static double advance_to_next_event(const teal_system *sys, teal_context *ctx,
                                    teal_event_set *set) {
  double t_next = NAN;
  ck_assert_int_eq(teal_calc_next_update_time(sys, ctx, &t_next, set), TEAL_OK);
  ck_assert_int_eq(teal_context_set_time(ctx, t_next), TEAL_OK);
  return t_next;
}

START_TEST(test_vector_ports_and_feedthrough) {
  teal_error err;
  teal_system *zoh = teal_zero_order_hold_new("zoh", 0.1, 0.0, 3, &err);
  ck_assert_ptr_nonnull(zoh);
  ck_assert_int_eq(teal_system_num_input_ports(zoh), 1);
  ck_assert_int_eq(teal_system_num_output_ports(zoh), 1);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(zoh, 0)), "u");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(zoh, 0)), "y");
  ck_assert_int_eq(teal_input_port_size(teal_system_input_port(zoh, 0)), 3);
  ck_assert_int_eq(teal_output_port_size(teal_system_output_port(zoh, 0)), 3);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(zoh, 0, 0), 0);
  ck_assert_int_eq(teal_system_num_discrete_groups(zoh), 1);
  ck_assert_int_eq(teal_system_discrete_group_size(zoh, 0), 3);
  ck_assert_int_eq(teal_system_num_continuous_states(zoh, NULL, NULL, NULL), 0);

  /* the default held value is zero and needs no input */
  teal_context *ctx = teal_context_new(zoh, &err);
  ck_assert_ptr_nonnull(ctx);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(zoh, ctx, 0, &y), TEAL_OK);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq(y[i], 0.0);
  }
  teal_context_free(ctx);
  teal_system_free(zoh);
}
END_TEST

START_TEST(test_vector_samples_at_offset_plus_k_period) {
  teal_error err;
  teal_system *zoh = teal_zero_order_hold_new("zoh", 0.25, 0.1, 2, &err);
  ck_assert_ptr_nonnull(zoh);
  teal_context *ctx = teal_context_new(zoh, &err);
  teal_event_set *set = teal_event_set_new(zoh);
  ck_assert_ptr_nonnull(set);

  double t_next;
  /* before the offset the next sample is the offset itself */
  ck_assert_int_eq(teal_calc_next_update_time(zoh, ctx, &t_next, set), TEAL_OK);
  ck_assert_double_eq(t_next, 0.1);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_DISCRETE_UPDATE), 1);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_PUBLISH), 0);
  /* between samples the next one is the following grid point */
  teal_context_set_time(ctx, 0.2);
  teal_calc_next_update_time(zoh, ctx, &t_next, set);
  ck_assert_double_eq_tol(t_next, 0.35, 1e-15);
  /* exactly at a sample the next one is strictly later */
  teal_context_set_time(ctx, 0.35);
  teal_calc_next_update_time(zoh, ctx, &t_next, set);
  ck_assert_double_eq_tol(t_next, 0.6, 1e-15);

  /* run six samples, checking the held value at and between them */
  teal_context_set_time(ctx, 0.0);
  double expected_times[6] = {0.1, 0.35, 0.6, 0.85, 1.1, 1.35};
  for (int k = 0; k < 6; k++) {
    double t = advance_to_next_event(zoh, ctx, set);
    ck_assert_double_eq_tol(t, expected_times[k], 1e-12);
    double u[2];
    signal_at(t, u);
    ck_assert_int_eq(teal_context_fix_input(ctx, 0, u, 2), TEAL_OK);
    ck_assert_int_eq(teal_dispatch_discrete_updates(zoh, ctx, set), TEAL_OK);
    const double *y;
    ck_assert_int_eq(teal_eval_vector_output(zoh, ctx, 0, &y), TEAL_OK);
    ck_assert_double_eq(y[0], u[0]);
    ck_assert_double_eq(y[1], u[1]);
    /* the input keeps moving between samples; the output holds */
    double later = t + 0.2, u_later[2];
    signal_at(later, u_later);
    teal_context_set_time(ctx, later);
    teal_context_fix_input(ctx, 0, u_later, 2);
    ck_assert_int_eq(teal_eval_vector_output(zoh, ctx, 0, &y), TEAL_OK);
    ck_assert_double_eq(y[0], u[0]);
    ck_assert_double_eq(y[1], u[1]);
    teal_context_set_time(ctx, t);
  }
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(zoh);
}
END_TEST

START_TEST(test_vector_update_needs_input) {
  teal_error err;
  teal_system *zoh = teal_zero_order_hold_new("held", 1.0, 0.0, 1, &err);
  teal_context *ctx = teal_context_new(zoh, &err);
  teal_event_set *set = teal_event_set_new(zoh);
  advance_to_next_event(zoh, ctx, set);
  ck_assert_int_eq(teal_dispatch_discrete_updates(zoh, ctx, set), TEAL_ENOTCONNECTED);
  /* the failed update changed nothing */
  ck_assert_double_eq(teal_context_discrete_group(ctx, 0)[0], 0.0);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(zoh);
}
END_TEST

/* zoh -> gain(-0.5) -> zoh: a loop that is legal because the hold has no
 * direct feedthrough. Each sample gives x_{k+1} = -0.5 x_k. */
START_TEST(test_loop_through_hold_is_not_algebraic) {
  teal_error err;
  teal_builder *b = teal_builder_new("loop");
  teal_system *zoh = teal_builder_add(b, teal_zero_order_hold_new("zoh", 0.5, 0.0, 1, &err));
  teal_builder_add(b, ts_gain_new("gain", 1, -0.5));
  ck_assert_int_eq(teal_builder_connect_by_name(b, "zoh", "y", "gain", "u"), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "gain", "y", "zoh", "u"), TEAL_OK);
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_context *ctx = teal_context_new(d, &err);
  teal_context *zctx = teal_context_subcontext_mut(ctx, zoh);
  double x0 = 8.0;
  teal_context_set_discrete_group(zctx, 0, &x0, 1);
  teal_event_set *set = teal_event_set_new(d);
  double expected = 8.0;
  teal_context_set_time(ctx, -0.25);
  for (int k = 0; k < 5; k++) {
    advance_to_next_event(d, ctx, set);
    ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
    expected *= -0.5;
    ck_assert_double_eq(teal_context_discrete_group(zctx, 0)[0], expected);
  }
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_abstract_hold_copies_through_hooks) {
  ts_buf_stats_reset();
  teal_error err;
  teal_system *zoh = teal_zero_order_hold_abstract_new("zoh", 0.5, 0.25, &ts_buf_type, &err);
  ck_assert_msg(zoh != NULL, "%s", err.message);
  ck_assert_ptr_eq(teal_input_port_type(teal_system_input_port(zoh, 0)), &ts_buf_type);
  ck_assert_ptr_eq(teal_output_port_type(teal_system_output_port(zoh, 0)), &ts_buf_type);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(zoh, 0, 0), 0);
  ck_assert_int_eq(teal_system_num_abstract_states(zoh), 1);
  ck_assert_int_eq(teal_system_num_discrete_states(zoh), 0);

  teal_context *ctx = teal_context_new(zoh, &err);
  teal_event_set *set = teal_event_set_new(zoh);
  const void *yv;
  ck_assert_int_eq(teal_eval_abstract_output(zoh, ctx, 0, &yv), TEAL_OK);
  ck_assert_int_eq(((const ts_buf *)yv)->n, 0); /* the type's default */

  ts_buf in;
  ck_assert_int_eq(ts_buf_type.init(&in), TEAL_OK);
  double t = advance_to_next_event(zoh, ctx, set);
  ck_assert_double_eq(t, 0.25);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_UNRESTRICTED_UPDATE), 1);
  double sample[6] = {1, 2, 3, 4, 5, 6};
  ts_buf_assign(&in, sample, 6);
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, 0, &in), TEAL_OK);
  ck_assert_int_eq(teal_dispatch_unrestricted_updates(zoh, ctx, set), TEAL_OK);

  /* the input changes; the held value does not until the next sample */
  double other[2] = {-1, -2};
  ts_buf_assign(&in, other, 2);
  teal_context_fix_abstract_input(ctx, 0, &in);
  ck_assert_int_eq(teal_eval_abstract_output(zoh, ctx, 0, &yv), TEAL_OK);
  const ts_buf *y = yv;
  ck_assert_int_eq(y->n, 6);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq(y->data[i], sample[i]);
  }
  t = advance_to_next_event(zoh, ctx, set);
  ck_assert_double_eq(t, 0.75);
  ck_assert_int_eq(teal_dispatch_unrestricted_updates(zoh, ctx, set), TEAL_OK);
  ck_assert_int_eq(teal_eval_abstract_output(zoh, ctx, 0, &yv), TEAL_OK);
  y = yv;
  ck_assert_int_eq(y->n, 2);
  ck_assert_double_eq(y->data[1], -2.0);

  /* a clone holds its own copy */
  teal_context *copy = teal_context_clone(ctx, &err);
  ck_assert_ptr_nonnull(copy);
  ck_assert_int_eq(teal_eval_abstract_output(zoh, copy, 0, &yv), TEAL_OK);
  ck_assert_int_eq(((const ts_buf *)yv)->n, 2);
  ck_assert_ptr_ne(((const ts_buf *)yv)->data, y->data);

  ts_buf_release(&in);
  teal_context_free(copy);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(zoh);
  ck_assert_int_eq(ts_buf_stats_get()->live, 0);
}
END_TEST

START_TEST(test_bad_parameters) {
  teal_error err;
  ck_assert_ptr_null(teal_zero_order_hold_new("z1", 0.1, 0.0, 0, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ASSERT_HAS(err.message, "'z1'");
  ASSERT_HAS(err.message, "n = 0");
  ck_assert_ptr_null(teal_zero_order_hold_new("z2", 0.0, 0.0, 1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "'z2'");
  ASSERT_HAS(err.message, "period");
  ck_assert_ptr_null(teal_zero_order_hold_new("z3", -1.0, 0.0, 1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_zero_order_hold_new("z4", NAN, 0.0, 1, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ASSERT_HAS(err.message, "'z4'");
  ck_assert_ptr_null(teal_zero_order_hold_new("z5", 0.1, -0.5, 1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "offset");
  ck_assert_ptr_null(teal_zero_order_hold_new("z6", 0.1, INFINITY, 1, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ck_assert_ptr_null(teal_zero_order_hold_new("a/b", 0.1, 0.0, 1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "a/b");
  /* err may be NULL */
  ck_assert_ptr_null(teal_zero_order_hold_new("z7", 0.1, 0.0, -2, NULL));

  ck_assert_ptr_null(teal_zero_order_hold_abstract_new("za", 0.1, 0.0, NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "'za'");
  ASSERT_HAS(err.message, "type");
  teal_value_type unnamed = {NULL, 8, NULL, NULL, NULL};
  ck_assert_ptr_null(teal_zero_order_hold_abstract_new("zb", 0.1, 0.0, &unnamed, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_zero_order_hold_abstract_new("zc", 0.0, 0.0, &ts_buf_type, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "'zc'");
  ck_assert_ptr_null(teal_zero_order_hold_abstract_new("zd", 0.1, NAN, &ts_buf_type, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
}
END_TEST

/* The constructor under the allocation-failure sweep. */
static teal_system *make_oom(teal_error *err, void *user) {
  (void)user;
  return teal_zero_order_hold_new("oom", 0.1, 0.0, 2, err);
}

START_TEST(test_out_of_memory_is_reported) {
  ck_assert_int_gt(ts_oom_sweep(make_oom, NULL, "'oom'"), 0);
}
END_TEST

/* ramp x(t) = 5 + t -> hold (period 0.5, offset 0) on the simulator: the
 * sample due at the start time is taken, then one every period. */
START_TEST(test_on_the_simulator) {
  teal_error err;
  const double x0 = 5.0, one = 1.0;
  teal_builder *b = teal_builder_new("d");
  teal_builder_add(b, ts_constant_new("one", 1, &one));
  teal_builder_add(b, ts_integrator_new("x", 1, &x0));
  teal_system *zoh = teal_builder_add(b, teal_zero_order_hold_new("zoh", 0.5, 0.0, 1, &err));
  teal_builder_connect_by_name(b, "one", "y", "x", "u");
  teal_builder_connect_by_name(b, "x", "y", "zoh", "u");
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_simulator *sim = teal_simulator_new(d, NULL, &err);
  ck_assert_ptr_nonnull(sim);
  const teal_context *zctx = teal_context_subcontext(teal_simulator_context(sim), zoh);
  static const double ends[4] = {0.1, 0.45, 0.6, 1.7};
  static const double held[4] = {5.0, 5.0, 5.5, 6.5};
  for (int k = 0; k < 4; k++) {
    ck_assert_int_eq(teal_simulator_advance_to(sim, ends[k], NULL), TEAL_OK);
    ck_assert_double_eq_tol(teal_context_discrete_group(zctx, 0)[0], held[k], 1e-9);
  }
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

static Suite *zoh_suite(void) {
  Suite *s = suite_create("zero_order_hold");
  TCase *tc = tcase_create("vector");
  tcase_add_test(tc, test_vector_ports_and_feedthrough);
  tcase_add_test(tc, test_vector_samples_at_offset_plus_k_period);
  tcase_add_test(tc, test_vector_update_needs_input);
  tcase_add_test(tc, test_loop_through_hold_is_not_algebraic);
  tcase_add_test(tc, test_on_the_simulator);
  suite_add_tcase(s, tc);
  tc = tcase_create("abstract");
  tcase_add_test(tc, test_abstract_hold_copies_through_hooks);
  suite_add_tcase(s, tc);
  tc = tcase_create("errors");
  tcase_add_test(tc, test_bad_parameters);
  tcase_add_test(tc, test_out_of_memory_is_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(zoh_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
