/* Error messages of the simulator, integrators and linearization: each
 * failure below returns its code and leaves in the record it reports into
 * (teal_simulator_error, teal_integrator_error, an err argument) a message
 * that names the call or the cause, replacing an earlier one. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/system.h"
#include "support/error_messages.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/linearize.h"
#include "systems/analysis/simulator.h"

/* z' = -z, failing without a message of its own once t > 0.05. */
static int failing_derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                          void *user) {
  (void)sys;
  (void)user;
  xd->z[0] = -teal_context_z(ctx)[0];
  return teal_context_time(ctx) > 0.05 ? TEAL_EINVAL : TEAL_OK;
}

static int publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  return TEAL_OK;
}

/* A leaf "decay" with one z and a per-step publish (so the simulator has
 * events to track). */
static teal_system *decay_new(void) {
  teal_system *sys = teal_leaf_new("decay", NULL, NULL);
  double z0 = 1.0;
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 0, 0, 1, &z0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, failing_derivs, NULL), TEAL_OK);
  ck_assert_int_ge(teal_leaf_declare_per_step_publish(sys, publish, NULL), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  return sys;
}

/* Item 1 of the outside users' report: a NULL integrator type failed with
 * an empty (or an earlier call's) message. */
START_TEST(set_integrator_null) {
  teal_system *sys = decay_new();
  teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
  const teal_error *e = teal_simulator_error(sim);
  TS_EXPECT_ERROR(teal_simulator_set_integrator(sim, NULL), TEAL_EINVAL, e,
                  "set_integrator: NULL integrator type");
  /* an earlier failed setting's message is replaced */
  ck_assert_int_eq(teal_simulator_set_accuracy(sim, -1.0), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(e->message, "accuracy"));
  TS_EXPECT_ERROR(teal_simulator_set_integrator(sim, NULL), TEAL_EINVAL, e, "set_integrator");
  ck_assert_ptr_null(strstr(e->message, "accuracy"));
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk4), TEAL_OK);
  teal_simulator_free(sim);
  teal_system_free(sys);
}
END_TEST

/* A run that fails in a callback leaves the reason in teal_simulator_error
 * too, not only in the status and the context. */
START_TEST(failed_run_sets_simulator_error) {
  teal_system *sys = decay_new();
  teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
  teal_sim_status st;
  TS_EXPECT_ERROR(teal_simulator_advance_to(sim, 1.0, &st), TEAL_EINVAL, teal_simulator_error(sim),
                  "time derivatives of system 'decay' failed");
  ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
  ck_assert_str_eq(st.message, teal_simulator_error(sim)->message);
  teal_simulator_free(sim);
  teal_system_free(sys);
}
END_TEST

/* Out of memory at any allocation of teal_simulator_new (the event sets
 * included) is reported in err. */
START_TEST(simulator_new_out_of_memory) {
  teal_system *sys = decay_new();
  ts_alloc_install();
  int failures = 0;
  for (long k = 0; k < 64; k++) {
    teal_error err;
    ts_stale_error(&err);
    ts_alloc_fail_after(k, 0);
    teal_simulator *sim = teal_simulator_new(sys, NULL, &err);
    ts_alloc_fail_after(-1, 0);
    if (sim) {
      teal_simulator_free(sim);
      break;
    }
    failures++;
    ts_expect_error_at(__FILE__, __LINE__, TEAL_ENOMEM, TEAL_ENOMEM, &err, "out of memory");
  }
  ts_alloc_uninstall();
  ck_assert_int_gt(failures, 5);
  teal_system_free(sys);
}
END_TEST

static int ode_fails(double t, const double *x, double *xdot, void *user) {
  (void)t;
  (void)x;
  (void)xdot;
  (void)user;
  return TEAL_ENONFINITE;
}

static int ode_decay(double t, const double *x, double *xdot, void *user) {
  (void)t;
  (void)user;
  xdot[0] = -x[0];
  return TEAL_OK;
}

START_TEST(integrator_step_messages) {
  teal_integrator *integ = teal_integrator_new(teal_integrator_rk4, 0, 0, 1, NULL);
  const teal_error *e = teal_integrator_error(integ);
  const char *name = teal_integrator_rk4->name;
  double x0 = 1.0, x1;
  teal_ode ode = {0, 0, 1, ode_fails, NULL, NULL, NULL};
  TS_EXPECT_ERROR(teal_integrator_step(integ, NULL, 0.0, 0.1, &x0, &x1, NULL), TEAL_EINVAL, e,
                  "NULL ode");
  TS_EXPECT_ERROR(teal_integrator_step(integ, &ode, 0.0, 0.1, &x0, NULL, NULL), TEAL_EINVAL, e,
                  "NULL x1");
  /* a failure of the ODE, which leaves no message of its own */
  TS_EXPECT_ERROR(teal_integrator_step(integ, &ode, 0.0, 0.1, &x0, &x1, NULL), TEAL_ENONFINITE, e,
                  name);
  ck_assert_ptr_nonnull(strstr(e->message, "failed"));
  /* a successful step keeps the last failure's record */
  ode.derivatives = ode_decay;
  ck_assert_int_eq(teal_integrator_step(integ, &ode, 0.0, 0.1, &x0, &x1, NULL), TEAL_OK);
  ck_assert_int_eq(e->code, TEAL_ENONFINITE);
  teal_integrator_free(integ);
}
END_TEST

START_TEST(linearize_null_out) {
  teal_system *sys = decay_new();
  teal_context *ctx = teal_context_new(sys, NULL);
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_linearize_matrices(sys, ctx, NULL, NULL, &err), TEAL_EINVAL, &err,
                  "linearize: out is NULL");
  teal_linear_system_matrices m;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_linearize_matrices(NULL, ctx, NULL, &m, &err), TEAL_EINVAL, &err,
                  "root context");
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

static Suite *analysis_error_messages_suite(void) {
  Suite *s = suite_create("analysis_error_messages");
  TCase *tc = tcase_create("messages");
  tcase_add_test(tc, set_integrator_null);
  tcase_add_test(tc, failed_run_sets_simulator_error);
  tcase_add_test(tc, simulator_new_out_of_memory);
  tcase_add_test(tc, integrator_step_messages);
  tcase_add_test(tc, linearize_null_out);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(analysis_error_messages_suite());
}
