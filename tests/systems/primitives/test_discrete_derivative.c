/* Tests of the discrete derivative: ports, state layout and feedthrough,
 * the sample-by-sample output (driven through the event API from before
 * t = 0) with and without transient suppression, seeding the input
 * history, and parameter validation. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/events.h"
#include "support/test_support.h"
#include "systems/analysis/simulator.h"
#include "systems/primitives/discrete_derivative.h"

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

enum { N = 2 };
static const double H = 0.1;

static void input_at(double t, double u[N]) {
  u[0] = 3.0 * t * t + 1.0;
  u[1] = -2.0 * t;
}

/* Moves to the next sample time, latches u there; returns the time. */
static double take_sample(const teal_system *sys, teal_context *ctx, teal_event_set *set) {
  double t;
  ck_assert_int_eq(teal_calc_next_update_time(sys, ctx, &t, set), TEAL_OK);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_DISCRETE_UPDATE), 1);
  teal_context_set_time(ctx, t);
  double u[N];
  input_at(t, u);
  teal_context_fix_input(ctx, 0, u, N);
  ck_assert_int_eq(teal_dispatch_discrete_updates(sys, ctx, set), TEAL_OK);
  return t;
}

static void output(const teal_system *sys, const teal_context *ctx, double y[N]) {
  const double *v;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &v), TEAL_OK);
  memcpy(y, v, sizeof(double) * N);
}

START_TEST(test_ports_and_state) {
  teal_error err;
  teal_system *dd = teal_discrete_derivative_new("dd", 3, 0.01, &err);
  ck_assert_msg(dd != NULL, "%s", err.message);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(dd, 0)), "u");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(dd, 0)), "dudt");
  ck_assert_int_eq(teal_output_port_size(teal_system_output_port(dd, 0)), 3);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(dd, 0, 0), 0);
  ck_assert_int_eq(teal_system_num_discrete_groups(dd), 3);
  ck_assert_int_eq(teal_system_discrete_group_size(dd, 0), 3);
  ck_assert_int_eq(teal_system_discrete_group_size(dd, 1), 3);
  ck_assert_int_eq(teal_system_discrete_group_size(dd, 2), 1);
  teal_system_free(dd);
  dd = teal_discrete_derivative_new_ex("raw", 3, 0.01, 0, &err);
  ck_assert_int_eq(teal_system_num_discrete_groups(dd), 2);
  ck_assert_int_eq(teal_system_num_discrete_states(dd), 6);
  teal_system_free(dd);
}
END_TEST

START_TEST(test_suppressed_transient_sequence) {
  teal_error err;
  teal_system *dd = teal_discrete_derivative_new("dd", N, H, &err);
  teal_context *ctx = teal_context_new(dd, &err);
  teal_event_set *set = teal_event_set_new(dd);
  double y[N];
  teal_context_set_time(ctx, -0.05);
  output(dd, ctx, y);
  ck_assert_double_eq(y[0], 0.0); /* no sample yet */

  double t = take_sample(dd, ctx, set);
  ck_assert_double_eq(t, 0.0); /* the first sample is at t = 0 */
  output(dd, ctx, y);
  ck_assert_double_eq(y[0], 0.0); /* one sample: still suppressed */
  ck_assert_double_eq(y[1], 0.0);

  for (int k = 1; k <= 6; k++) {
    t = take_sample(dd, ctx, set);
    ck_assert_double_eq_tol(t, k * H, 1e-12);
    double u_now[N], u_before[N];
    input_at(t, u_now);
    input_at((k - 1) * H, u_before);
    output(dd, ctx, y);
    /* 3 t^2 differenced: 3 (t_k^2 - t_{k-1}^2) / h = 3 (2k - 1) h */
    ck_assert_double_eq_tol(y[0], (u_now[0] - u_before[0]) / H, 1e-9);
    ck_assert_double_eq_tol(y[0], 3.0 * (2.0 * k - 1.0) * H, 1e-9);
    ck_assert_double_eq_tol(y[1], -2.0, 1e-9);
    /* held between samples, whatever the input does */
    double wild[N] = {1e6, -1e6};
    teal_context_fix_input(ctx, 0, wild, N);
    double y_mid[N];
    output(dd, ctx, y_mid);
    ck_assert_double_eq(y_mid[0], y[0]);
  }
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(dd);
}
END_TEST

START_TEST(test_unsuppressed_transient_sequence) {
  teal_error err;
  teal_system *dd = teal_discrete_derivative_new_ex("dd", N, H, 0, &err);
  teal_context *ctx = teal_context_new(dd, &err);
  teal_event_set *set = teal_event_set_new(dd);
  double y[N];
  teal_context_set_time(ctx, -0.05);
  output(dd, ctx, y);
  ck_assert_double_eq(y[0], 0.0);
  take_sample(dd, ctx, set);
  output(dd, ctx, y);
  ck_assert_double_eq_tol(y[0], 1.0 / H, 1e-12); /* u(0) / h: the transient */
  ck_assert_double_eq(y[1], 0.0);
  take_sample(dd, ctx, set);
  output(dd, ctx, y);
  ck_assert_double_eq_tol(y[0], 3.0 * H, 1e-9);
  ck_assert_double_eq_tol(y[1], -2.0, 1e-9);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(dd);
}
END_TEST

START_TEST(test_input_history) {
  teal_error err;
  teal_builder *b = teal_builder_new("d");
  teal_system *dd = teal_builder_add(b, teal_discrete_derivative_new("dd", N, H, &err));
  teal_system *d = teal_builder_build(b, &err);
  teal_context *ctx = teal_context_new(d, &err);
  const double now[N] = {2.0, 5.0}, before[N] = {1.0, 5.5};
  ck_assert_int_eq(teal_discrete_derivative_set_input_history(dd, ctx, now, before), TEAL_OK);
  double y[N];
  output(dd, teal_context_subcontext(ctx, dd), y);
  ck_assert_double_eq_tol(y[0], 10.0, 1e-12);
  ck_assert_double_eq_tol(y[1], -5.0, 1e-12);
  /* the next sample shifts the history */
  teal_event_set *set = teal_event_set_new(d);
  teal_context_set_time(ctx, -0.01);
  double t;
  teal_calc_next_update_time(d, ctx, &t, set);
  teal_context_set_time(ctx, t);
  const double u[N] = {2.5, 5.0};
  teal_context_fix_input(teal_context_subcontext_mut(ctx, dd), 0, u, N);
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
  output(dd, teal_context_subcontext(ctx, dd), y);
  ck_assert_double_eq_tol(y[0], 5.0, 1e-12);
  ck_assert_double_eq_tol(y[1], 0.0, 1e-12);
  ck_assert_int_eq(teal_discrete_derivative_set_input_history(dd, ctx, NULL, before),
                   TEAL_EINVAL);
  teal_system *gain = ts_gain_new("gain", N, 1.0);
  ck_assert_int_eq(teal_discrete_derivative_set_input_history(gain, ctx, now, before),
                   TEAL_EINVAL);
  teal_system_free(gain);
  teal_system *stray = teal_discrete_derivative_new("stray", N, H, &err);
  ck_assert_int_eq(teal_discrete_derivative_set_input_history(stray, ctx, now, before),
                   TEAL_ENOTFOUND);
  teal_system_free(stray);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);

  /* without suppression the history has no counter to set */
  teal_system *raw = teal_discrete_derivative_new_ex("raw", N, H, 0, &err);
  teal_context *rctx = teal_context_new(raw, &err);
  ck_assert_int_eq(teal_discrete_derivative_set_input_history(raw, rctx, now, before), TEAL_OK);
  output(raw, rctx, y);
  ck_assert_double_eq_tol(y[0], 10.0, 1e-12);
  teal_context_free(rctx);
  teal_system_free(raw);
}
END_TEST

/* The constructor under the allocation-failure sweep. */
static teal_system *make_oom(teal_error *err, void *user) {
  (void)user;
  return teal_discrete_derivative_new("oom", 2, 0.1, err);
}

START_TEST(test_bad_parameters) {
  teal_error err;
  ck_assert_ptr_null(teal_discrete_derivative_new("d1", 0, 0.1, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ASSERT_HAS(err.message, "'d1'");
  ck_assert_ptr_null(teal_discrete_derivative_new("d2", 1, 0.0, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "'d2'");
  ASSERT_HAS(err.message, "period");
  ck_assert_ptr_null(teal_discrete_derivative_new("d3", 1, -0.1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_discrete_derivative_new_ex("d4", 1, NAN, 0, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ASSERT_HAS(err.message, "'d4'");
  ck_assert_ptr_null(teal_discrete_derivative_new("d5", 1, INFINITY, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ck_assert_int_gt(ts_oom_sweep(make_oom, NULL, "'oom'"), 2);
}
END_TEST

/* ramp x(t) = 5 + 2t -> discrete derivative (h = 0.1) on the simulator. */
START_TEST(test_on_the_simulator) {
  teal_error err;
  const double x0 = 5.0, two = 2.0;
  teal_builder *b = teal_builder_new("d");
  teal_builder_add(b, ts_constant_new("slope", 1, &two));
  teal_builder_add(b, ts_integrator_new("x", 1, &x0));
  teal_system *dd = teal_builder_add(b, teal_discrete_derivative_new("dd", 1, 0.1, &err));
  teal_builder_connect_by_name(b, "slope", "y", "x", "u");
  teal_builder_connect_by_name(b, "x", "y", "dd", "u");
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_simulator *sim = teal_simulator_new(d, NULL, &err);
  const teal_context *dctx = teal_context_subcontext(teal_simulator_context(sim), dd);
  double y;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.05, NULL), TEAL_OK);
  ck_assert_int_eq(teal_calc_vector_output(dd, dctx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y, 0.0); /* one sample (t = 0): suppressed */
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.35, NULL), TEAL_OK);
  ck_assert_int_eq(teal_calc_vector_output(dd, dctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y, 2.0, 1e-9);
  ck_assert_double_eq_tol(teal_context_discrete_group(dctx, 0)[0], 5.6, 1e-9); /* x(0.3) */
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

static Suite *dd_suite(void) {
  Suite *s = suite_create("discrete_derivative");
  TCase *tc = tcase_create("derivative");
  tcase_add_test(tc, test_ports_and_state);
  tcase_add_test(tc, test_suppressed_transient_sequence);
  tcase_add_test(tc, test_unsuppressed_transient_sequence);
  tcase_add_test(tc, test_input_history);
  tcase_add_test(tc, test_on_the_simulator);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(dd_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
