/* The error estimate projection hook (framework/system_dynamics.h) and its
 * use by the simulator's error control (systems/analysis/
 * simulator_integrate.c): a diagram hands each leaf with the hook its own
 * slices of the [q; v; z] estimate and leaves the others' alone (root and
 * subsystem contexts); the hook sees the step's end state; an oscillator
 * whose hook removes the whole estimate is stepped at the maximum step
 * without rejections while the same run without the projection needs many
 * more; a failing hook stops the run with its message and keeps the last
 * state; bad calls get clear errors. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/leaf_system.h"
#include "framework/system_dynamics.h"
#include "support/error_messages.h"
#include "support/sim_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/simulator_settings.h"

/* What a hook does: scale its leaf's q error by `scale`, zero its v error
 * (or fail with TEAL_ENOCONV and a message), and note when it ran. */
typedef struct hook_state {
  double scale;
  int fail;
  long calls;
  double last_t, last_q; /* the context's time and q at the last call */
} hook_state;

static int scaling_hook(const teal_system *sys, const teal_context *ctx, teal_continuous_view *e,
                        void *user) {
  hook_state *h = user;
  h->calls++;
  h->last_t = teal_context_time(ctx);
  h->last_q = teal_context_q(ctx)[0];
  if (h->fail) {
    return teal_context_report_error(ctx, TEAL_ENOCONV, "leaf '%s': the estimate would not project",
                                     teal_system_name(sys));
  }
  e->q[0] *= h->scale;
  e->v[0] = 0.0;
  return TEAL_OK;
}

/* The oscillator q' = v, v' = -q with the hook (NULL: none). */
static teal_system *osc_new(const char *name, hook_state *h) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  double x0[2] = {1.0, 0.0};
  ck_assert_int_eq(teal_leaf_declare_continuous_state(s, 1, 1, 0, x0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(s, ts_sim_osc_derivs, NULL), TEAL_OK);
  if (h) {
    ck_assert_int_eq(teal_leaf_set_error_projection(s, scaling_hook, h), TEAL_OK);
  }
  return ts_sim_finalize(s);
}

START_TEST(diagram_hands_each_leaf_its_slices) {
  hook_state a = {0.5, 0, 0, 0, 0}, c = {0.25, 0, 0, 0, 0};
  teal_builder *ib = teal_builder_new("inner");
  teal_builder_add(ib, osc_new("a", &a));
  teal_builder_add(ib, osc_new("b", NULL));
  teal_system *inner = ts_sim_build(ib);
  teal_builder *b = teal_builder_new("top");
  teal_builder_add(b, inner);
  teal_builder_add(b, osc_new("c", &c));
  teal_system *top = ts_sim_build(b);
  ck_assert(teal_system_has_error_projection(top));
  ck_assert(teal_system_has_error_projection(inner));
  teal_context *ctx = teal_context_new(top, NULL);
  /* x = [qa qb qc va vb vc] */
  double e[6] = {1, 2, 3, 4, 5, 6};
  ck_assert_int_eq(teal_project_error_estimate(top, ctx, e), TEAL_OK);
  const double expect[6] = {0.5, 2, 0.75, 0, 5, 0};
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq(e[i], expect[i]);
  }
  /* the inner diagram's own layout [qa qb va vb] from its subcontext */
  double ei[4] = {1, 2, 4, 5};
  const teal_context *ictx = teal_context_subcontext(ctx, inner);
  ck_assert_int_eq(teal_project_error_estimate(inner, ictx, ei), TEAL_OK);
  const double expect_i[4] = {0.5, 2, 0, 5};
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq(ei[i], expect_i[i]);
  }
  ck_assert_int_eq(a.calls, 2);
  ck_assert_int_eq(c.calls, 1);
  teal_context_free(ctx);
  teal_system_free(top);
}
END_TEST

/* Steps and rejections of 2 s of the oscillator with RK45 at 1e-10 and a
 * maximum step of 0.1, with the hook removing all of the estimate (scale
 * 0) when project is set. */
static teal_sim_stats run_osc(int project, hook_state *h) {
  teal_system *s = osc_new("osc", h);
  teal_simulator *sim = ts_sim_new_rk45(s, 1e-10);
  ck_assert_int_eq(teal_simulator_set_max_step(sim, 0.1), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_error_projection(sim, project), TEAL_OK);
  ck_assert_int_eq(teal_simulator_uses_error_projection(sim), project);
  ts_sim_advance_ok(sim, 2.0);
  /* the hook ran at the end of the last step, in the state then current */
  ck_assert(!project || h->last_t == 2.0);
  ck_assert(!project || h->last_q == teal_context_q(teal_simulator_context(sim))[0]);
  teal_sim_stats st = teal_simulator_get_stats(sim);
  teal_simulator_free(sim);
  teal_system_free(s);
  return st;
}

START_TEST(error_control_uses_the_projected_estimate) {
  hook_state h = {0.0, 0, 0, 0, 0};
  teal_sim_stats on = run_osc(1, &h), off = run_osc(0, &h);
  /* nothing left to control: every trial step is accepted and grows by the
   * largest factor, 5, from the first step of 1 ms to the maximum: 1, 5
   * and 25 ms, then 20 of 0.1 s */
  ck_assert_int_eq(on.failed_steps, 0);
  ck_assert_int_eq(on.steps, 23);
  ck_assert_double_eq_tol(on.largest_step, 0.1, 1e-12);
  ck_assert_int_ge(h.calls, on.steps - 1);
  ck_assert_int_gt(off.steps, 2 * on.steps); /* RK45 at 1e-10 needs small steps */
}
END_TEST

START_TEST(failing_hook_stops_the_run) {
  hook_state h = {1.0, 1, 0, 0, 0};
  teal_system *s = osc_new("osc", &h);
  teal_simulator *sim = ts_sim_new_rk45(s, 1e-6);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 1.0, &st), TEAL_ENOCONV);
  ck_assert_ptr_nonnull(strstr(st.message, "the error estimate projection failed"));
  ck_assert_ptr_nonnull(strstr(st.message, "leaf 'osc': the estimate would not project"));
  ck_assert_double_eq(teal_context_time(teal_simulator_context(sim)), 0.0);
  ck_assert_double_eq(teal_context_q(teal_simulator_context(sim))[0], 1.0);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

START_TEST(bad_calls_are_reported) {
  ck_assert_int_eq(teal_leaf_set_error_projection(NULL, scaling_hook, NULL), TEAL_EINVAL);
  teal_system *s = teal_leaf_new("leaf", NULL, NULL);
  ck_assert_int_eq(teal_leaf_set_error_projection(s, NULL, NULL), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_system_error(s)->message,
                               "set error projection on system 'leaf': NULL callback"));
  teal_system_free(s);

  hook_state h = {1.0, 0, 0, 0, 0};
  s = osc_new("osc", &h);
  ck_assert_int_eq(teal_leaf_set_error_projection(s, scaling_hook, &h), TEAL_ESTATE);
  teal_context *ctx = teal_context_new(s, NULL);
  TS_EXPECT_ERROR(teal_project_error_estimate(s, ctx, NULL), TEAL_EINVAL, teal_context_error(ctx),
                  "project_error_estimate on 'osc': xerr is NULL");
  ck_assert_int_eq(teal_system_has_error_projection(NULL), 0);
  ck_assert_int_eq(teal_simulator_set_error_projection(NULL, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_uses_error_projection(NULL), 0);
  teal_context_free(ctx);
  teal_system_free(s);

  /* a system without hooks: the setting is kept but has nothing to use */
  s = osc_new("plain", NULL);
  teal_simulator *sim = ts_sim_new_rk45(s, 1e-6);
  ck_assert_int_eq(teal_system_has_error_projection(s), 0);
  ck_assert_int_eq(teal_simulator_uses_error_projection(sim), 0);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("simulator_error_projection");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, diagram_hands_each_leaf_its_slices);
  tcase_add_test(tc, error_control_uses_the_projected_estimate);
  tcase_add_test(tc, failing_hook_stops_the_run);
  tcase_add_test(tc, bad_calls_are_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
