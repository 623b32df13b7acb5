/* Reliability issue, the simulator's defects: 13 (a run's status carried an
 * older message), 14 (retries hid a callback's cause behind "step size
 * fell below the minimum"), 16 (a NULL simulator left the status
 * unwritten), 20 (an unreachable end time ran forever), and checks of 15
 * (teal_simulator_error after a failed run) and 18 (set_integrator(NULL)).
 * The leaf below is z' = -z, whose callbacks misbehave on request. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/system.h"
#include "support/error_messages.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator.h"

#define CAUSE "articulated inertia not positive definite"

/* How the decay leaf misbehaves. */
typedef struct decay_faults {
  double fail_after; /* the derivative fails for t > fail_after ... */
  int fail_code;     /* ... with this code */
  int report;        /* ... recording CAUSE on the context */
  int publish_code;  /* a per-step publish returns this */
} decay_faults;

static decay_faults faults;

static void faults_reset(void) {
  faults.fail_after = INFINITY;
  faults.fail_code = TEAL_OK;
  faults.report = 1;
  faults.publish_code = TEAL_OK;
}

static int decay_derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                        void *user) {
  (void)sys;
  (void)user;
  double t = teal_context_time(ctx);
  xd->z[0] = -teal_context_z(ctx)[0];
  if (t > faults.fail_after) {
    return faults.report
               ? teal_context_report_error(ctx, faults.fail_code, "%s at t = %.17g", CAUSE, t)
               : faults.fail_code;
  }
  return TEAL_OK;
}

static int decay_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)user;
  if (faults.publish_code != TEAL_OK) {
    return teal_context_report_error(ctx, faults.publish_code, "publish refuses t = %g",
                                     teal_context_time(ctx));
  }
  return TEAL_OK;
}

static teal_system *decay_new(void) {
  faults_reset();
  teal_system *sys = teal_leaf_new("decay", NULL, NULL);
  double z0 = 1.0;
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 0, 0, 1, &z0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, decay_derivs, NULL), TEAL_OK);
  ck_assert_int_ge(teal_leaf_declare_per_step_publish(sys, decay_publish, NULL), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  return sys;
}

/* A leaf without continuous state or events. */
static teal_system *empty_new(void) {
  teal_system *sys = teal_leaf_new("empty", NULL, NULL);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  return sys;
}

/* Monitor: returns code once t >= after (recording a message if report),
 * and TEAL_STOP after max_calls calls (a bound on the work of a test that
 * would otherwise run for ever). */
typedef struct monitor_spec {
  double after;
  int code, report;
  long calls, max_calls;
} monitor_spec;

static int monitor(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  monitor_spec *m = user;
  if (++m->calls >= m->max_calls) {
    return TEAL_STOP;
  }
  if (teal_context_time(ctx) < m->after) {
    return TEAL_OK;
  }
  return m->report ? teal_context_report_error(ctx, m->code, "monitor refuses") : m->code;
}

/* Checks a failed run: code in rc, the status and the simulator's record,
 * a message containing needle and no stale text; reports the caller's line. */
static void expect_failed_at(int line, int rc, const teal_sim_status *st, const teal_simulator *sim,
                             int code, const char *needle) {
  ts_expect_error_at(__FILE__, line, rc, code, teal_simulator_error(sim), needle);
  ck_assert_msg(st->outcome == TEAL_SIM_FAILED, "line %d: outcome %d", line, (int)st->outcome);
  ck_assert_msg(st->code == code, "line %d: status code %d", line, st->code);
  ck_assert_str_eq(st->message, teal_simulator_error(sim)->message);
}

#define EXPECT_FAILED(rc, st, sim, code, needle) \
  expect_failed_at(__LINE__, (rc), (st), (sim), (code), (needle))

/* ---- defect 13: each run's status carries its own cause ------------------ */

/* A monitor failing without a message showed the context's stale record
 * (or "unknown error"); now it is named. */
START_TEST(monitor_failure_is_named) {
  static const int codes[] = {TEAL_ENOCONV, -100};
  for (int i = 0; i < 2; i++) {
    teal_system *sys = decay_new();
    teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
    monitor_spec m = {0.2, codes[i], 0, 0, 1000000};
    ck_assert_int_eq(teal_simulator_set_monitor(sim, monitor, &m), TEAL_OK);
    ts_stale_context(teal_simulator_context(sim));
    teal_sim_status st;
    int rc = teal_simulator_advance_to(sim, 1.0, &st);
    EXPECT_FAILED(rc, &st, sim, codes[i], "the monitor failed");
    ck_assert_ptr_nonnull(strstr(st.message, i == 0 ? "no convergence" : "not a Teal status"));
    ck_assert_ptr_null(strstr(st.message, "unknown error"));
    ck_assert(st.time >= 0.2 && st.time < 0.35);
    /* a monitor that records its own message is quoted */
    m.report = 1;
    m.after = 0.5;
    rc = teal_simulator_advance_to(sim, 1.0, &st);
    EXPECT_FAILED(rc, &st, sim, codes[i], "monitor refuses");
    teal_simulator_free(sim);
    teal_system_free(sys);
  }
}
END_TEST

/* The second run fails in the monitor; its status quoted the first run's
 * cause, still the context's latest record. */
START_TEST(second_run_has_its_own_cause) {
  teal_system *sys = decay_new();
  teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
  /* a failure whose message always reached the status: no retries */
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_explicit_euler), TEAL_OK);
  faults.fail_after = 0.3;
  faults.fail_code = TEAL_ESINGULAR;
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1.0, &st);
  EXPECT_FAILED(rc, &st, sim, TEAL_ESINGULAR, CAUSE);
  faults_reset();
  monitor_spec m = {0.5, TEAL_EUNSUPPORTED, 0, 0, 1000000};
  ck_assert_int_eq(teal_simulator_set_monitor(sim, monitor, &m), TEAL_OK);
  rc = teal_simulator_advance_to(sim, 1.0, &st);
  EXPECT_FAILED(rc, &st, sim, TEAL_EUNSUPPORTED, "the monitor failed");
  ck_assert_ptr_null(strstr(st.message, CAUSE));
  /* and a publish handler's failure quotes the handler */
  ck_assert_int_eq(teal_simulator_set_monitor(sim, NULL, NULL), TEAL_OK);
  faults.publish_code = TEAL_EIO;
  rc = teal_simulator_advance_to(sim, 1.0, &st);
  EXPECT_FAILED(rc, &st, sim, TEAL_EIO, "publish refuses");
  teal_simulator_free(sim);
  teal_system_free(sys);
}
END_TEST

/* At t = 1e17 a step of 1e-3 rounds to zero: the run failed with
 * TEAL_EINVAL and the integrator's "step size 0" message; now it says
 * that time cannot advance, and keeps the state. */
START_TEST(step_rounding_to_zero_is_named) {
  teal_system *sys = decay_new();
  teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_context_set_time(ctx, 1e17), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_max_step(sim, 100.0), TEAL_OK);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1e17 + 64.0, &st);
  EXPECT_FAILED(rc, &st, sim, TEAL_ESTEPSIZE, "rounds to zero");
  ck_assert_ptr_nonnull(strstr(st.message, "1e+17"));
  ck_assert_double_eq(st.time, 1e17);
  ck_assert_double_eq(teal_context_z(ctx)[0], 1.0);
  teal_simulator_free(sim);
  teal_system_free(sys);
}
END_TEST

/* ---- defect 14: retry only what a smaller step can fix ------------------- */

/* Under explicit methods a callback's ESINGULAR or ENOCONV was retried down
 * to the minimum step and reported as TEAL_ESTEPSIZE without its cause. */
START_TEST(explicit_method_keeps_callback_cause) {
  static const int codes[] = {TEAL_ESINGULAR, TEAL_ENOCONV};
  const teal_integrator_type *types[] = {teal_integrator_rk3, teal_integrator_rk45,
                                         teal_integrator_rk4};
  for (int i = 0; i < 3; i++) {
    for (int c = 0; c < 2; c++) {
      teal_system *sys = decay_new();
      faults.fail_after = 0.05;
      faults.fail_code = codes[c];
      teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
      ck_assert_int_eq(teal_simulator_set_integrator(sim, types[i]), TEAL_OK);
      teal_sim_status st;
      int rc = teal_simulator_advance_to(sim, 1.0, &st);
      EXPECT_FAILED(rc, &st, sim, codes[c], CAUSE);
      ck_assert_int_eq(teal_simulator_get_stats(sim).failed_steps, 0);
      /* the last accepted state stays, on the exact solution */
      const teal_context *ctx = teal_simulator_context(sim);
      ck_assert_double_eq(teal_context_time(ctx), st.time);
      ck_assert(st.time <= 0.05);
      ck_assert_double_eq_tol(teal_context_z(ctx)[0], exp(-st.time), 1e-3);
      teal_simulator_free(sim);
      teal_system_free(sys);
    }
  }
}
END_TEST

/* Under implicit methods a callback's ENOCONV at a Newton iterate may go
 * away with a smaller step, so it is retried; when the step then falls
 * below the minimum the message still carries the callback's cause. */
START_TEST(implicit_retries_keep_callback_cause) {
  const teal_integrator_type *types[] = {teal_integrator_implicit_euler, teal_integrator_radau3};
  for (int i = 0; i < 2; i++) {
    teal_system *sys = decay_new();
    faults.fail_after = 0.05;
    faults.fail_code = TEAL_ENOCONV;
    teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
    ck_assert_int_eq(teal_simulator_set_integrator(sim, types[i]), TEAL_OK);
    teal_sim_status st;
    int rc = teal_simulator_advance_to(sim, 1.0, &st);
    EXPECT_FAILED(rc, &st, sim, TEAL_ESTEPSIZE, CAUSE);
    ck_assert_ptr_nonnull(strstr(st.message, "fell below the minimum"));
    ck_assert_int_gt(teal_simulator_get_stats(sim).failed_steps, 0);
    ck_assert(st.time <= 0.05 && st.time > 0.049);
    teal_simulator_free(sim);
    teal_system_free(sys);
  }
}
END_TEST

/* A callback failing at the step's start point fails at any step size:
 * even implicit methods report it at once, with its own code. */
START_TEST(failure_at_start_point_not_retried) {
  const teal_integrator_type *types[] = {teal_integrator_implicit_euler, teal_integrator_radau3};
  for (int i = 0; i < 2; i++) {
    teal_system *sys = decay_new();
    teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
    ck_assert_int_eq(teal_simulator_set_integrator(sim, types[i]), TEAL_OK);
    teal_sim_status st;
    ck_assert_int_eq(teal_simulator_advance_to(sim, 0.2, &st), TEAL_OK);
    long failed = teal_simulator_get_stats(sim).failed_steps;
    faults.fail_after = 0.0; /* now every evaluation fails */
    faults.fail_code = TEAL_ESINGULAR;
    int rc = teal_simulator_advance_to(sim, 0.4, &st);
    EXPECT_FAILED(rc, &st, sim, TEAL_ESINGULAR, CAUSE);
    ck_assert_int_eq(teal_simulator_get_stats(sim).failed_steps, failed);
    ck_assert_double_eq(st.time, 0.2);
    teal_simulator_free(sim);
    teal_system_free(sys);
  }
}
END_TEST

/* A callback failing without a message of its own still gets one naming
 * it, not an earlier record. */
START_TEST(silent_callback_failure_is_named) {
  teal_system *sys = decay_new();
  faults.fail_after = 0.05;
  faults.fail_code = TEAL_ESINGULAR;
  faults.report = 0;
  teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
  ts_stale_context(teal_simulator_context(sim));
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1.0, &st);
  EXPECT_FAILED(rc, &st, sim, TEAL_ESINGULAR, "time derivatives of system 'decay' failed");
  ck_assert_int_eq(teal_simulator_get_stats(sim).failed_steps, 0);
  teal_simulator_free(sim);
  teal_system_free(sys);
}
END_TEST

/* ---- defect 15 (check): the simulator's record after a failed run -------- */

START_TEST(simulator_error_holds_failed_run) {
  teal_system *sys = decay_new();
  teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
  faults.publish_code = TEAL_ECALLBACK;
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1.0, &st);
  EXPECT_FAILED(rc, &st, sim, TEAL_ECALLBACK, "publish refuses");
  /* initialize too */
  rc = teal_simulator_initialize(sim, &st);
  EXPECT_FAILED(rc, &st, sim, TEAL_ECALLBACK, "publish refuses");
  teal_simulator_free(sim);
  teal_system_free(sys);
}
END_TEST

/* ---- defect 16: a NULL simulator fills the status ------------------------ */

START_TEST(null_simulator_fills_status) {
  teal_sim_status st;
  memset(&st, 0x55, sizeof st);
  ck_assert_int_eq(teal_simulator_advance_to(NULL, 1.0, &st), TEAL_EINVAL);
  ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
  ck_assert_int_eq(st.code, TEAL_EINVAL);
  ck_assert(isnan(st.time));
  ck_assert_str_eq(st.message, "simulator_advance_to: NULL simulator");
  memset(&st, 0x55, sizeof st);
  ck_assert_int_eq(teal_simulator_initialize(NULL, &st), TEAL_EINVAL);
  ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
  ck_assert_int_eq(st.code, TEAL_EINVAL);
  ck_assert_str_eq(st.message, "simulator_initialize: NULL simulator");
  /* a NULL status is still allowed */
  ck_assert_int_eq(teal_simulator_advance_to(NULL, 1.0, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_initialize(NULL, NULL), TEAL_EINVAL);
}
END_TEST

/* ---- defect 18 (check): set_integrator(NULL) ----------------------------- */

START_TEST(set_integrator_null_has_message) {
  teal_system *sys = decay_new();
  teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
  TS_EXPECT_ERROR(teal_simulator_set_integrator(sim, NULL), TEAL_EINVAL, teal_simulator_error(sim),
                  "set_integrator: NULL integrator type");
  /* the simulator still runs with its integrator */
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.5, &st), TEAL_OK);
  ck_assert_double_eq_tol(teal_context_z(teal_simulator_context(sim))[0], exp(-0.5), 1e-4);
  teal_simulator_free(sim);
  teal_system_free(sys);
}
END_TEST

/* ---- defect 20: an end time no run can reach ----------------------------- */

/* What stays allowed: 1e12 steps of 0.1 (the bound) start and run (the monitor
 * stops them), and a system without continuous state jumps to any finite
 * end time. */
static void accepted_end_times(void) {
  teal_system *sys = decay_new();
  teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_explicit_euler), TEAL_OK);
  monitor_spec m = {INFINITY, TEAL_OK, 0, 0, 1000};
  ck_assert_int_eq(teal_simulator_set_monitor(sim, monitor, &m), TEAL_OK);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1e11, &st);
  ck_assert_msg(rc == TEAL_OK && st.outcome == TEAL_SIM_TERMINATED, "%d: %s", rc, st.message);
  ck_assert_int_eq(m.calls, 1000);
  ck_assert_double_eq_tol(st.time, 99.9, 1e-9);
  teal_simulator_free(sim);
  teal_system_free(sys);

  teal_system *e = empty_new();
  sim = teal_simulator_new(e, NULL, NULL);
  rc = teal_simulator_advance_to(sim, 1e300, &st);
  ck_assert_msg(rc == TEAL_OK && st.outcome == TEAL_SIM_REACHED_END, "%d: %s", rc, st.message);
  ck_assert_double_eq(st.time, 1e300);
  teal_simulator_free(sim);
  teal_system_free(e);
}

/* advance_to(1e300) stepped 0.1 s at a time for ever (a monitor stops the
 * old code after 10^5 steps); now it fails at once. */
START_TEST(unreachable_end_time_rejected) {
  teal_system *sys = decay_new();
  teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
  monitor_spec m = {INFINITY, TEAL_OK, 0, 0, 100000};
  ck_assert_int_eq(teal_simulator_set_monitor(sim, monitor, &m), TEAL_OK);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1e300, &st);
  EXPECT_FAILED(rc, &st, sim, TEAL_EINVAL, "cannot be reached");
  ck_assert_ptr_nonnull(strstr(st.message, "max step"));
  ck_assert_double_eq(st.time, 0.0);
  ck_assert_int_eq(m.calls, 0); /* not even initialized */
  /* nor reached in 1e13 steps of 0.1 */
  rc = teal_simulator_advance_to(sim, 1e12, &st);
  EXPECT_FAILED(rc, &st, sim, TEAL_EINVAL, "1e+13 steps");
  /* nor in 1e13 fixed steps of 1e-3 */
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 1e-3), TEAL_OK);
  rc = teal_simulator_advance_to(sim, 1e10, &st);
  EXPECT_FAILED(rc, &st, sim, TEAL_EINVAL, "fixed step");
  ck_assert_int_eq(m.calls, 0);
  teal_simulator_free(sim);
  teal_system_free(sys);
  accepted_end_times();
}
END_TEST

static Suite *robustness_simulator_suite(void) {
  Suite *s = suite_create("robustness_simulator");
  TCase *tc = tcase_create("defects");
  tcase_add_test(tc, monitor_failure_is_named);
  tcase_add_test(tc, second_run_has_its_own_cause);
  tcase_add_test(tc, step_rounding_to_zero_is_named);
  tcase_add_test(tc, explicit_method_keeps_callback_cause);
  tcase_add_test(tc, implicit_retries_keep_callback_cause);
  tcase_add_test(tc, failure_at_start_point_not_retried);
  tcase_add_test(tc, silent_callback_failure_is_named);
  tcase_add_test(tc, simulator_error_holds_failed_run);
  tcase_add_test(tc, null_simulator_fills_status);
  tcase_add_test(tc, set_integrator_null_has_message);
  tcase_add_test(tc, unreachable_end_time_rejected);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(robustness_simulator_suite());
}
