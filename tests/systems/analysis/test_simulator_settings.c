/* Simulator settings: publish every step, realtime pacing, option checks, a
 * borrowed context and changing the integrator. */
#define _POSIX_C_SOURCE 199309L
#define _XOPEN_SOURCE 700 /* M_PI */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"
#include "framework/ticket.h"
#include "support/sim_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator.h"
#include "systems/primitives/linear_system.h"

/* ============================================================================
 * Publish every step, realtime pacing
 * ========================================================================== */

static long g_forced;
static double g_forced_last_t;
static int g_forced_monotone;

static int forced_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)user;
  double t = teal_context_time(ctx);
  if (g_forced > 0 && !(t > g_forced_last_t)) {
    g_forced_monotone = 0;
  }
  g_forced_last_t = t;
  g_forced++;
  return TEAL_OK;
}

static teal_system *osc_with_forced_new(void) {
  teal_system *s = teal_leaf_new("osc", NULL, NULL);
  double x0[2] = {1.0, 0.0};
  teal_leaf_declare_continuous_state(s, 1, 1, 0, x0);
  teal_leaf_set_time_derivatives(s, ts_sim_osc_derivs, NULL);
  teal_leaf_declare_forced_publish(s, forced_publish, NULL);
  return ts_sim_finalize(s);
}

START_TEST(test_publish_every_step) {
  g_forced = 0;
  g_forced_monotone = 1;
  teal_system *s = osc_with_forced_new();
  teal_simulator *sim = ts_sim_new(s);
  ts_sim_advance_ok(sim, 0.5);
  ck_assert_int_eq(g_forced, 0); /* off by default */
  ck_assert_int_eq(teal_simulator_set_publish_every_step(sim, 1), TEAL_OK);
  ck_assert_int_eq(teal_simulator_initialize(sim, NULL), TEAL_OK);
  ck_assert_int_eq(g_forced, 1); /* at initialization */
  ts_sim_advance_ok(sim, 1.5);
  teal_sim_stats st = teal_simulator_get_stats(sim);
  ck_assert_int_gt(st.steps, 5);
  ck_assert_int_eq(g_forced, st.steps + 1); /* once per step */
  ck_assert(g_forced_monotone);
  ck_assert_double_eq(g_forced_last_t, 1.5);
  ck_assert_int_eq(teal_simulator_set_publish_every_step(sim, 0), TEAL_OK);
  long before = g_forced;
  ts_sim_advance_ok(sim, 2.0);
  ck_assert_int_eq(g_forced, before);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

START_TEST(test_target_realtime_rate) {
  teal_system *s = ts_sim_osc_new("osc");
  teal_simulator *sim = ts_sim_new(s);
  ck_assert_int_eq(teal_simulator_set_target_realtime_rate(sim, 1.0), TEAL_OK);
  double t0 = wall_now();
  ts_sim_advance_ok(sim, 0.2);
  double paced = wall_now() - t0;
  /* at rate 2, 0.2 s of simulated time takes at least 0.1 s */
  ck_assert_int_eq(teal_simulator_set_target_realtime_rate(sim, 2.0), TEAL_OK);
  ck_assert_int_eq(teal_simulator_initialize(sim, NULL), TEAL_OK);
  t0 = wall_now();
  ts_sim_advance_ok(sim, 0.4);
  double fast = wall_now() - t0;
  if (ts_verbose()) {
    ts_report("realtime: 0.2 s at rate 1 took %.3f s; 0.2 s at rate 2 took %.3f s\n", paced, fast);
  }
  ck_assert_msg(paced >= 0.18, "0.2 s at rate 1.0 took %.3f s of wall time", paced);
  ck_assert_msg(fast >= 0.09, "0.2 s at rate 2.0 took %.3f s of wall time", fast);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* ============================================================================
 * Options and construction
 * ========================================================================== */

START_TEST(test_bad_options) {
  teal_system *s = ts_sim_osc_new("osc");
  teal_simulator *sim = ts_sim_new(s);
  double accuracy_before = teal_context_accuracy(teal_simulator_context(sim));
  const double bad[] = {0.0, -1.0, NAN, INFINITY};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, bad[i]), TEAL_EINVAL);
    ck_assert_int_eq(teal_simulator_set_fixed_step(sim, bad[i]), TEAL_EINVAL);
    ck_assert_int_eq(teal_simulator_set_max_step(sim, bad[i]), TEAL_EINVAL);
    ck_assert_int_eq(teal_simulator_set_min_step(sim, bad[i]), TEAL_EINVAL);
    ck_assert_int_eq(teal_simulator_set_error_floor(sim, bad[i]), TEAL_EINVAL);
    ck_assert_int_eq(teal_simulator_set_witness_tolerance(sim, bad[i]), TEAL_EINVAL);
  }
  ck_assert_int_eq(teal_simulator_set_target_realtime_rate(sim, -1.0), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_set_target_realtime_rate(sim, NAN), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_set_target_realtime_rate(sim, INFINITY), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_set_target_realtime_rate(sim, 0.0), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, NULL), TEAL_EINVAL);
  /* the rejected values changed nothing: defaults still run (rk3, 1e-4) */
  ck_assert_double_eq(teal_context_accuracy(teal_simulator_context(sim)), accuracy_before);
  ts_sim_advance_ok(sim, 1.0);
  ck_assert(fabs(teal_context_q(teal_simulator_context(sim))[0] - cos(1.0)) < 1e-3);

  /* NULL simulator */
  ck_assert_int_eq(teal_simulator_set_accuracy(NULL, 1e-3), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_set_monitor(NULL, NULL, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_set_publish_every_step(NULL, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_advance_to(NULL, 1.0, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_initialize(NULL, NULL), TEAL_EINVAL);
  ck_assert_ptr_null(teal_simulator_context(NULL));

  /* end time before the current time, or not finite */
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.5, &st), TEAL_EINVAL);
  ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
  ck_assert_int_eq(st.code, TEAL_EINVAL);
  ck_assert_msg(ts_sim_contains(st.message, "before the current time"), "message: %s", st.message);
  ck_assert_double_eq(st.time, 1.0);
  ck_assert_int_eq(teal_simulator_advance_to(sim, NAN, &st), TEAL_EINVAL);
  ck_assert_str_ne(st.message, "");
  ck_assert_int_eq(teal_simulator_advance_to(sim, INFINITY, &st), TEAL_EINVAL);
  ck_assert_double_eq(teal_context_time(teal_simulator_context(sim)), 1.0);
  /* and the simulator still works */
  ts_sim_advance_ok(sim, 1.5);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

START_TEST(test_borrowed_context) {
  teal_system *s = ts_sim_osc_new("osc");
  teal_system *other = ts_sim_osc_new("other");
  teal_error err;

  /* a context of another system is rejected */
  teal_context *foreign = teal_context_new(other, NULL);
  ck_assert_ptr_nonnull(foreign);
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_simulator_new(s, foreign, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_msg(ts_sim_contains(err.message, "context"), "message: %s", err.message);
  teal_context_free(foreign);

  /* so is a subcontext, even of the right system */
  teal_builder *b = teal_builder_new("wrap");
  teal_builder_add(b, ts_sim_osc_new("inner"));
  teal_system *d = ts_sim_build(b);
  teal_context *dctx = teal_context_new(d, NULL);
  teal_context *sub = teal_context_subcontext_by_name_mut(dctx, "inner");
  ck_assert_ptr_nonnull(sub);
  teal_error_clear(&err);
  ck_assert_ptr_null(
      teal_simulator_new(teal_diagram_find_subsystem(d, "inner"), sub, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  teal_context_free(dctx);
  teal_system_free(d);

  /* NULL system */
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_simulator_new(NULL, NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);

  /* a borrowed root context of the system is advanced in place and
   * outlives the simulator */
  teal_context *mine = teal_context_new(s, NULL);
  ck_assert_ptr_nonnull(mine);
  teal_context_q_mut(mine)[0] = 0.0;
  teal_context_v_mut(mine)[0] = 1.0; /* q = sin t */
  teal_simulator *sim = teal_simulator_new(s, mine, &err);
  ck_assert_ptr_nonnull(sim);
  ck_assert_ptr_eq(teal_simulator_context(sim), mine);
  ck_assert_ptr_eq(teal_simulator_system(sim), s);
  ts_sim_advance_ok(sim, 1.0);
  teal_simulator_free(sim);
  ck_assert_double_eq(teal_context_time(mine), 1.0);
  ck_assert_double_eq_tol(teal_context_q(mine)[0], sin(1.0), 1e-3);
  teal_context_free(mine);
  teal_system_free(s);
  teal_system_free(other);
}
END_TEST

/* The simulator and its context agree on the accuracy, as in Drake: a
 * context that names one sets the simulator's, and otherwise the
 * simulator's default (1e-4) is written to the context. */
START_TEST(test_context_and_simulator_share_the_accuracy) {
  teal_system *s = ts_sim_osc_new("osc");
  teal_simulator *loose = teal_simulator_new(s, NULL, NULL);
  ck_assert_double_eq(teal_context_accuracy(teal_simulator_context(loose)), 1e-4);
  teal_context *tight_ctx = teal_context_new(s, NULL);
  ck_assert_int_eq(teal_context_set_accuracy(tight_ctx, 1e-9), TEAL_OK);
  teal_simulator *tight = teal_simulator_new(s, tight_ctx, NULL);
  ck_assert_double_eq(teal_context_accuracy(tight_ctx), 1e-9);
  teal_simulator *runs[2] = {loose, tight};
  double error[2];
  for (int i = 0; i < 2; i++) {
    teal_context *ctx = teal_simulator_context(runs[i]);
    teal_context_q_mut(ctx)[0] = 0.0;
    teal_context_v_mut(ctx)[0] = 1.0; /* q = sin t */
    ts_sim_advance_ok(runs[i], 1.0);
    error[i] = fabs(teal_context_q(ctx)[0] - sin(1.0));
  }
  ck_assert_double_lt(error[1], 1e-7);           /* the context's 1e-9 was used */
  ck_assert_double_lt(error[1], error[0] / 100); /* and it is not the default */
  teal_simulator_free(loose);
  teal_simulator_free(tight);
  teal_context_free(tight_ctx);
  teal_system_free(s);
}
END_TEST

/* Choosing another integrator after a run re-initializes. */
START_TEST(test_set_integrator_reinitializes) {
  ts_sim_log_reset();
  teal_system *d = ts_sim_event_diagram_new();
  teal_simulator *sim = ts_sim_event_sim_new(d);
  ts_sim_advance_ok(sim, 0.25);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk45), TEAL_OK);
  ck_assert_ptr_eq(teal_integrator_get_type(teal_simulator_integrator(sim)),
                   teal_integrator_rk45);
  ts_sim_log_reset();
  ts_sim_advance_ok(sim, 0.375);
  /* initialization events run again at the current time */
  ck_assert_msg(!strncmp(ts_sim_text, "A.iu@0.25 B.iu@0.25", 19), "log: %s", ts_sim_text);
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

static Suite *simulator_settings_suite(void) {
  Suite *s = suite_create("simulator_settings");
  TCase *tc = tcase_create("settings");
  tcase_add_test(tc, test_publish_every_step);
  tcase_add_test(tc, test_target_realtime_rate);
  tcase_add_test(tc, test_bad_options);
  tcase_add_test(tc, test_borrowed_context);
  tcase_add_test(tc, test_context_and_simulator_share_the_accuracy);
  tcase_add_test(tc, test_set_integrator_reinitializes);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(simulator_settings_suite());
}
