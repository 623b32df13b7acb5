/* How a simulator run ends: failures (NaN, overflow, step size), monitor and
 * handler stops and errors, and no allocation in advance_to. */
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
 * Failures
 * ========================================================================== */

START_TEST(test_nan_derivative_stops_run) {
  static const struct {
    const teal_integrator_type *const *type;
    double fixed;
  } cases[] = {{&teal_integrator_rk3, 0.0},
               {&teal_integrator_explicit_euler, 0.1},
               {&teal_integrator_implicit_euler, 0.0}};
  for (int i = 0; i < 3; i++) {
    ts_sim_decay_params p = ts_sim_decay_defaults();
    p.nan_after = 0.5;
    teal_system *s = ts_sim_decay_new("decay", &p, 1.0);
    teal_simulator *sim = ts_sim_new(s);
    ck_assert_int_eq(teal_simulator_set_integrator(sim, *cases[i].type), TEAL_OK);
    double h = 0.1; /* default max step */
    if (cases[i].fixed > 0) {
      ck_assert_int_eq(teal_simulator_set_fixed_step(sim, cases[i].fixed), TEAL_OK);
      h = cases[i].fixed;
    }
    teal_sim_status st;
    int rc = teal_simulator_advance_to(sim, 1.0, &st);
    const teal_context *ctx = teal_simulator_context(sim);
    if (ts_verbose()) {
      ts_report("NaN derivative (%s): rc %d at t = %.6f: %s\n", (*cases[i].type)->name, rc, st.time,
                st.message);
    }
    ck_assert_int_eq(rc, TEAL_ENONFINITE);
    ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
    ck_assert_int_eq(st.code, TEAL_ENONFINITE);
    ck_assert_str_ne(st.message, "");
    /* the message names the offending derivative */
    ck_assert_msg(ts_sim_contains(st.message, "derivative"), "message: %s", st.message);
    ck_assert(st.time <= 0.5 + h + 1e-12);
    ck_assert(st.time > 0.3);
    /* the context holds the last accepted state and time */
    ck_assert_double_eq(teal_context_time(ctx), st.time);
    double z = teal_context_z(ctx)[0];
    ck_assert(isfinite(z));
    ck_assert_double_eq_tol(z, exp(-st.time), 0.02);
    teal_simulator_free(sim);
    teal_system_free(s);
  }
}
END_TEST

/* Finite derivatives whose step overflows the state: z' = -z + c with
 * z = -1.7e308 and c = -1.75e308 gives z' = -5e306, and one explicit Euler
 * step of 100 lands on -inf. */
START_TEST(test_state_overflow_reported) {
  ts_sim_decay_params p = ts_sim_decay_defaults();
  p.constant = -1.75e308;
  teal_system *s = ts_sim_decay_new("decay", &p, -1.7e308);
  teal_simulator *sim = ts_sim_new(s);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_explicit_euler), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_max_step(sim, 100.0), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 100.0), TEAL_OK);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 100.0, &st);
  ck_assert_int_eq(rc, TEAL_ENONFINITE);
  ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
  ck_assert_msg(ts_sim_contains(st.message, "non-finite"), "message: %s", st.message);
  ck_assert_double_eq(st.time, 0.0);
  ck_assert_double_eq(teal_context_time(teal_simulator_context(sim)), 0.0);
  ck_assert_double_eq(teal_context_z(teal_simulator_context(sim))[0], -1.7e308);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

START_TEST(test_step_size_failure_min_step) {
  teal_system *s = ts_sim_osc_new("osc");
  teal_simulator *sim = ts_sim_new(s);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk3), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_accuracy(sim, 1e-13), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_min_step(sim, 1e-3), TEAL_OK);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1.0, &st);
  if (ts_verbose()) {
    ts_report("min step failure: rc %d at t = %g: %s\n", rc, st.time, st.message);
  }
  ck_assert_int_eq(rc, TEAL_ESTEPSIZE);
  ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
  ck_assert_int_eq(st.code, TEAL_ESTEPSIZE);
  ck_assert_msg(ts_sim_contains(st.message, "minimum"), "message: %s", st.message);
  ck_assert(st.time < 1.0);
  ck_assert_double_eq(teal_context_time(teal_simulator_context(sim)), st.time);
  ck_assert_int_gt(teal_simulator_get_stats(sim).failed_steps, 0);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* A derivative that jumps by 1e15 at t = 0.5: no step across the jump can
 * meet the accuracy, so the step size collapses and the run fails (it must
 * not hang). */
START_TEST(test_step_size_failure_discontinuity) {
  const teal_integrator_type *types[] = {teal_integrator_rk3, teal_integrator_rk45,
                                         teal_integrator_rk2};
  for (int i = 0; i < 3; i++) {
    ts_sim_decay_params p = ts_sim_decay_defaults();
    p.jump_at = 0.5;
    p.jump_size = 1e15;
    teal_system *s = ts_sim_decay_new("decay", &p, 0.0);
    teal_simulator *sim = ts_sim_new(s);
    ck_assert_int_eq(teal_simulator_set_integrator(sim, types[i]), TEAL_OK);
    teal_sim_status st;
    int rc = teal_simulator_advance_to(sim, 1.0, &st);
    if (ts_verbose()) {
      ts_report("discontinuity (%s): rc %d at t = %.17g after %ld steps, %ld rejected: %s\n",
                types[i]->name, rc, st.time, teal_simulator_get_stats(sim).steps,
                teal_simulator_get_stats(sim).failed_steps, st.message);
    }
    ck_assert_int_eq(rc, TEAL_ESTEPSIZE);
    ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
    ck_assert(st.time <= 0.5 && st.time > 0.4);
    teal_simulator_free(sim);
    teal_system_free(s);
  }
}
END_TEST

/* ---- monitors and stopping handlers --------------------------------------- */

typedef struct monitor_state {
  double stop_after;
  int code;         /* returned once t >= stop_after */
  int report;       /* attach a message */
  double seen_time; /* time of the stopping call */
  long calls;
} monitor_state;

static int test_monitor(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  monitor_state *m = user;
  m->calls++;
  double t = teal_context_time(ctx);
  if (t >= m->stop_after) {
    m->seen_time = t;
    if (m->report) {
      return teal_context_report_error(ctx, m->code, "monitor refuses t = %g", t);
    }
    return m->code;
  }
  return TEAL_OK;
}

START_TEST(test_monitor_stop_terminates) {
  teal_system *s = ts_sim_osc_new("osc");
  teal_simulator *sim = ts_sim_new(s);
  monitor_state m = {0.3, TEAL_STOP, 0, NAN, 0};
  ck_assert_int_eq(teal_simulator_set_monitor(sim, test_monitor, &m), TEAL_OK);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1.0, &st);
  ck_assert_int_eq(rc, TEAL_OK);
  ck_assert_int_eq(st.outcome, TEAL_SIM_TERMINATED);
  ck_assert_int_eq(st.code, TEAL_OK);
  ck_assert_double_eq(st.time, m.seen_time);
  ck_assert(st.time >= 0.3 && st.time < 0.45);
  ck_assert_double_eq(teal_context_time(teal_simulator_context(sim)), st.time);
  ck_assert_str_ne(st.message, "");
  /* once at initialize (as Drake does), then once per step */
  ck_assert_int_eq(m.calls, teal_simulator_get_stats(sim).steps + 1);
  /* clearing the monitor lets the run continue to the end */
  ck_assert_int_eq(teal_simulator_set_monitor(sim, NULL, NULL), TEAL_OK);
  ts_sim_advance_ok(sim, 1.0);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

START_TEST(test_monitor_error_fails) {
  for (int report = 0; report < 2; report++) {
    teal_system *s = ts_sim_osc_new("osc");
    teal_simulator *sim = ts_sim_new(s);
    monitor_state m = {0.3, TEAL_EUNSUPPORTED, report, NAN, 0};
    ck_assert_int_eq(teal_simulator_set_monitor(sim, test_monitor, &m), TEAL_OK);
    teal_sim_status st;
    int rc = teal_simulator_advance_to(sim, 1.0, &st);
    ck_assert_int_eq(rc, TEAL_EUNSUPPORTED);
    ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
    ck_assert_int_eq(st.code, TEAL_EUNSUPPORTED);
    ck_assert_double_eq(st.time, m.seen_time);
    ck_assert_str_ne(st.message, "");
    if (report) {
      ck_assert_msg(ts_sim_contains(st.message, "monitor refuses"), "message: %s", st.message);
    }
    teal_simulator_free(sim);
    teal_system_free(s);
  }
}
END_TEST

static int stop_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  int *calls = user;
  ++*calls;
  return teal_context_time(ctx) >= 0.5 ? TEAL_STOP : TEAL_OK;
}

START_TEST(test_publish_stop_terminates) {
  int calls = 0;
  teal_system *s = teal_leaf_new("osc", NULL, NULL);
  double x0[2] = {1.0, 0.0};
  teal_leaf_declare_continuous_state(s, 1, 1, 0, x0);
  teal_leaf_set_time_derivatives(s, ts_sim_osc_derivs, NULL);
  teal_leaf_declare_periodic_publish(s, 0.25, 0.0, stop_publish, &calls);
  ts_sim_finalize(s);
  teal_simulator *sim = ts_sim_new(s);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 2.0, &st);
  ck_assert_int_eq(rc, TEAL_OK);
  ck_assert_int_eq(st.outcome, TEAL_SIM_TERMINATED);
  ck_assert_double_eq(st.time, 0.5);
  ck_assert_int_eq(calls, 3); /* 0, 0.25, 0.5 */
  /* the run can be resumed */
  teal_sim_status st2;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.6, &st2), TEAL_OK);
  ck_assert_int_eq(st2.outcome, TEAL_SIM_REACHED_END);
  ck_assert_double_eq(st2.time, 0.6);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* An update handler returning TEAL_STOP: the update is applied and the run
 * ends at the update's time, without integrating past it (Drake: "if any
 * of the unrestricted or discrete update events reported reached
 * termination at the step start time, we're done with this step and the
 * simulation and should not advance time further"). */
static int stop_discrete(const teal_system *sys, const teal_context *ctx, double *xd_next,
                         void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  xd_next[0] += 1.0;
  return TEAL_STOP;
}

static int stop_unrestricted(const teal_system *sys, const teal_context *ctx,
                             teal_state_view *next, void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  next->xd[0] += 1.0;
  return TEAL_STOP;
}

START_TEST(test_update_stop_terminates_at_event_time) {
  for (int unrestricted = 0; unrestricted < 2; unrestricted++) {
    teal_system *s = teal_leaf_new("stopper", NULL, NULL);
    teal_leaf_declare_continuous_state(s, 0, 0, 1, NULL);
    teal_leaf_set_time_derivatives(s, ts_sim_ev_derivs, NULL); /* z' = 1 */
    teal_leaf_declare_discrete_state(s, 1, NULL);
    if (unrestricted) {
      teal_leaf_declare_periodic_unrestricted_update(s, 0.5, 0.5, stop_unrestricted, NULL);
    } else {
      teal_leaf_declare_periodic_discrete_update(s, 0.5, 0.5, stop_discrete, NULL);
    }
    ts_sim_finalize(s);
    teal_simulator *sim = ts_sim_new(s);
    teal_sim_status st;
    int rc = teal_simulator_advance_to(sim, 2.0, &st);
    const teal_context *ctx = teal_simulator_context(sim);
    ck_assert_int_eq(rc, TEAL_OK);
    ck_assert_int_eq(st.outcome, TEAL_SIM_TERMINATED);
    ck_assert_double_eq(teal_context_discrete_group(ctx, 0)[0], 1.0); /* applied once */
    ck_assert_msg(st.time == 0.5 && teal_context_time(ctx) == 0.5,
                  "%s update asked to stop at t = 0.5 but the run went on to t = %.17g",
                  unrestricted ? "an unrestricted" : "a discrete", st.time);
    ck_assert_double_eq_tol(teal_context_z(ctx)[0], 0.5, 1e-12);
    teal_simulator_free(sim);
    teal_system_free(s);
  }
}
END_TEST

/* A failing publish handler fails the run with the framework's message. */
static int failing_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)user;
  return teal_context_time(ctx) > 0.2 ? TEAL_EUNSUPPORTED : TEAL_OK;
}

START_TEST(test_publish_error_fails) {
  teal_system *s = teal_leaf_new("pub", NULL, NULL);
  teal_leaf_declare_discrete_state(s, 1, NULL);
  teal_leaf_declare_periodic_publish(s, 0.25, 0.0, failing_publish, NULL);
  ts_sim_finalize(s);
  teal_simulator *sim = ts_sim_new(s);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1.0, &st);
  ck_assert_int_eq(rc, TEAL_EUNSUPPORTED);
  ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
  ck_assert_double_eq(st.time, 0.25);
  ck_assert_msg(ts_sim_contains(st.message, "pub"), "message: %s", st.message);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* ============================================================================
 * No allocation in advance_to
 * ========================================================================== */

static long g_logger_calls;

static int logger_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc == TEAL_OK && isfinite(u[0])) {
    g_logger_calls++;
  }
  return rc;
}

static int quiet_monitor(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  return TEAL_OK;
}

/* ball (witness, unrestricted update), plant + zoh (periodic discrete),
 * logger (per-step and periodic publishes of the ball's height, forced
 * publish). */
static teal_system *busy_diagram_new(ts_sim_ball_params *bp, ts_sim_zoh_params *zp) {
  teal_builder *b = teal_builder_new("busy");
  teal_builder_add(b, ts_sim_ball_new("ball", bp, 1.0));
  teal_builder_add(b, ts_sim_plant_new("plant", 1.0));
  teal_builder_add(b, ts_sim_zoh_new("zoh", zp, 0.1));
  teal_system *lg = teal_leaf_new("logger", NULL, NULL);
  teal_leaf_declare_vector_input(lg, "u", 1);
  teal_leaf_declare_per_step_publish(lg, logger_publish, NULL);
  teal_leaf_declare_periodic_publish(lg, 0.05, 0.0, logger_publish, NULL);
  teal_leaf_declare_forced_publish(lg, logger_publish, NULL);
  teal_builder_add(b, ts_sim_finalize(lg));
  ts_sim_connect(b, "plant", "y", "zoh", "x");
  ts_sim_connect(b, "zoh", "u", "plant", "u");
  ts_sim_connect(b, "ball", "height", "logger", "u");
  return ts_sim_build(b);
}

typedef struct alloc_case {
  const teal_integrator_type *const *type;
  double fixed_step; /* 0: error control */
} alloc_case;

static const alloc_case alloc_cases[] = {
    {&teal_integrator_explicit_euler, 0.01}, {&teal_integrator_semi_explicit_euler, 0.01},
    {&teal_integrator_rk2, 0.0},             {&teal_integrator_rk3, 0.0},
    {&teal_integrator_rk4, 0.02},            {&teal_integrator_rk45, 0.0},
    {&teal_integrator_implicit_euler, 0.0},  {&teal_integrator_implicit_euler, 0.01},
};

START_TEST(test_no_allocation_in_advance_to) {
  const alloc_case *c = &alloc_cases[_i];
  ts_sim_ball_params bp = {9.81, 0.9};
  ts_sim_zoh_params zp = {2.0};
  ts_sim_nimpacts = 0;
  teal_system *d = busy_diagram_new(&bp, &zp);
  teal_simulator *sim = ts_sim_new(d);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, *c->type), TEAL_OK);
  if (c->fixed_step > 0) {
    ck_assert_int_eq(teal_simulator_set_fixed_step(sim, c->fixed_step), TEAL_OK);
  } else {
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, 1e-6), TEAL_OK);
  }
  ck_assert_int_eq(teal_simulator_set_publish_every_step(sim, 1), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_monitor(sim, quiet_monitor, NULL), TEAL_OK);
  ts_sim_advance_ok(sim, 0.3); /* initialized and warmed up, before the first impact */
  teal_sim_stats before = teal_simulator_get_stats(sim);
  long logged = g_logger_calls;

  unsigned long count0 = teal_alloc_count();
  ts_alloc_install();
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1.5, &st);
  unsigned long allocs = ts_alloc_allocs(), calls = ts_alloc_stats_get()->calls;
  ts_alloc_uninstall();
  unsigned long counted = teal_alloc_count() - count0;

  ck_assert_msg(rc == TEAL_OK, "%s: %s", (*c->type)->name, st.message);
  ck_assert_msg(allocs == 0 && calls == 0 && counted == 0,
                "%s: %lu allocations during advance_to", (*c->type)->name, calls);
  /* the window really exercised every kind of event */
  teal_sim_stats after = teal_simulator_get_stats(sim);
  ck_assert_int_gt(after.steps, before.steps);
  ck_assert_int_ge(after.unrestricted_updates - before.unrestricted_updates, 1); /* impact */
  ck_assert_int_gt(after.witness_trials, before.witness_trials);
  ck_assert_int_ge(after.discrete_updates - before.discrete_updates, 11);
  ck_assert_int_gt(after.publishes, before.publishes);
  ck_assert_int_gt(g_logger_calls, logged);
  ck_assert_int_ge(ts_sim_nimpacts, 1);
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

static Suite *simulator_run_suite(void) {
  Suite *s = suite_create("simulator_run");
  TCase *tc = tcase_create("failures");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_nan_derivative_stops_run);
  tcase_add_test(tc, test_state_overflow_reported);
  tcase_add_test(tc, test_step_size_failure_min_step);
  tcase_add_test(tc, test_step_size_failure_discontinuity);
  tcase_add_test(tc, test_monitor_stop_terminates);
  tcase_add_test(tc, test_monitor_error_fails);
  tcase_add_test(tc, test_publish_stop_terminates);
  tcase_add_test(tc, test_update_stop_terminates_at_event_time);
  tcase_add_test(tc, test_publish_error_fails);
  suite_add_tcase(s, tc);

  tc = tcase_create("no_alloc");
  tcase_add_loop_test(tc, test_no_allocation_in_advance_to, 0,
                      (int)(sizeof alloc_cases / sizeof *alloc_cases));
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(simulator_run_suite());
}
