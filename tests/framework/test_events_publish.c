/* Tests for dispatching publish events: subsystem order, handler errors,
 * forced publish, and event sets of another system. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/events.h"
#include "framework/system.h"
#include "framework/value.h"
#include "support/event_fixtures.h"
#include "support/test_support.h"

/* Make every UBSan report fatal (the suite must be UBSan clean); harmless
 * in builds without the sanitizer. Weak, so a definition elsewhere wins. */
const char *__ubsan_default_options(void);
#if defined(__GNUC__)
__attribute__((weak))
#endif
const char *__ubsan_default_options(void) {
  return "halt_on_error=1:print_stacktrace=1";
}

/* ---- publish ---------------------------------------------------------- */

START_TEST(test_publish_in_subsystem_order) {
  ts_ev_event_log log = {{0}, 0};
  ts_ev_log_spec sz = {&log, "zeta", 0}, sa = {&log, "alpha", 0}, sm = {&log, "mu", 0},
                 sb = {&log, "beta", 0}, sb2 = {&log, "beta2", 0};
  teal_system *beta = teal_leaf_new("beta", NULL, NULL);
  teal_leaf_declare_per_step_publish(beta, ts_ev_log_publish, &sb);
  teal_leaf_declare_per_step_publish(beta, ts_ev_log_publish, &sb2);
  ck_assert_int_eq(teal_leaf_finalize(beta), TEAL_OK);
  teal_system *inner = ts_ev_build2("inner", ts_ev_publisher_new("mu", &sm), beta);
  teal_builder *bld = teal_builder_new("top");
  teal_builder_add(bld, ts_ev_publisher_new("zeta", &sz));
  teal_builder_add(bld, inner);
  teal_builder_add(bld, ts_ev_publisher_new("alpha", &sa));
  teal_system *top = teal_builder_build(bld, NULL);
  ck_assert_ptr_nonnull(top);
  teal_context *ctx = teal_context_new(top, NULL);
  teal_event_set *set = teal_event_set_new(top);
  ck_assert_int_eq(teal_collect_events(top, ctx, TEAL_TRIGGER_PER_STEP, set), TEAL_OK);
  ck_assert_int_eq(teal_event_set_size(set), 5);
  ck_assert_int_eq(teal_dispatch_publish(top, ctx, set), TEAL_OK);
  ck_assert_str_eq(log.text, "zeta;mu;beta;beta2;alpha;");
  ck_assert_int_eq(log.calls, 5);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(top);
}
END_TEST

static int report_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)user;
  return teal_context_report_error(ctx, TEAL_ENONFINITE, "sensor '%s' read NaN",
                                   teal_system_name(sys));
}

START_TEST(test_publish_handler_errors) {
  ts_ev_event_log log = {{0}, 0};
  ts_ev_log_spec ok = {&log, "ok", 0}, bad = {&log, "bad", 2}; /* 1 is TEAL_STOP */
  teal_system *d =
      ts_ev_build2("rig", ts_ev_publisher_new("good", &ok), ts_ev_publisher_new("broken", &bad));
  teal_context *ctx = teal_context_new(d, NULL);
  teal_event_set *set = teal_event_set_new(d);
  teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, set);
  int rc = teal_dispatch_publish(d, ctx, set);
  ck_assert_int_eq(rc, TEAL_ECALLBACK); /* a positive return becomes ECALLBACK */
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_ECALLBACK);
  TS_EV_ASSERT_HAS(e->message, "publish");
  TS_EV_ASSERT_HAS(e->message, "rig/broken");
  ck_assert_str_eq(log.text, "ok;bad;");
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);

  /* a handler that reports its own error keeps its code and message */
  teal_system *s = teal_leaf_new("sensor", NULL, NULL);
  teal_leaf_declare_per_step_publish(s, report_publish, NULL);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  ctx = teal_context_new(s, NULL);
  set = teal_event_set_new(s);
  teal_collect_events(s, ctx, TEAL_TRIGGER_PER_STEP, set);
  ck_assert_int_eq(teal_dispatch_publish(s, ctx, set), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_ENONFINITE);
  ck_assert_str_eq(teal_context_error(ctx)->message, "sensor 'sensor' read NaN");
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

/* ---- forced publish and foreign sets --------------------------------- */

START_TEST(test_force_publish_runs_only_forced) {
  ts_ev_event_log log = {{0}, 0};
  ts_ev_log_spec f1 = {&log, "a.forced1", 0}, f2 = {&log, "a.forced2", 0}, ps = {&log, "a.step", 0},
                 pp = {&log, "a.periodic", 0}, pi = {&log, "a.init", 0}, fb = {&log, "b.forced", 0};
  teal_system *a = teal_leaf_new("a", NULL, NULL);
  teal_leaf_declare_per_step_publish(a, ts_ev_log_publish, &ps);
  teal_leaf_declare_forced_publish(a, ts_ev_log_publish, &f1);
  teal_leaf_declare_periodic_publish(a, 0.1, 0.0, ts_ev_log_publish, &pp);
  teal_leaf_declare_initialization_publish(a, ts_ev_log_publish, &pi);
  teal_leaf_declare_forced_publish(a, ts_ev_log_publish, &f2);
  ck_assert_int_eq(teal_leaf_finalize(a), TEAL_OK);
  teal_system *b = teal_leaf_new("b", NULL, NULL);
  teal_leaf_declare_forced_publish(b, ts_ev_log_publish, &fb);
  ck_assert_int_eq(teal_leaf_finalize(b), TEAL_OK);
  teal_system *d = ts_ev_build2("d", a, b);
  teal_context *ctx = teal_context_new(d, NULL);
  ck_assert_int_eq(teal_force_publish(d, ctx), TEAL_OK);
  ck_assert_str_eq(log.text, "a.forced1;a.forced2;b.forced;");
  /* on a subsystem: only its forced publishes */
  log.text[0] = '\0';
  ck_assert_int_eq(teal_force_publish(b, teal_context_subcontext(ctx, b)), TEAL_OK);
  ck_assert_str_eq(log.text, "b.forced;");
  /* TEAL_STOP is a request, not an error: every handler still runs */
  log.text[0] = '\0';
  f1.ret = TEAL_STOP;
  ck_assert_int_eq(teal_force_publish(d, ctx), TEAL_STOP);
  ck_assert_str_eq(log.text, "a.forced1;a.forced2;b.forced;");
  f1.ret = 0;
  /* a failing forced handler reports an error */
  fb.ret = 2;
  ck_assert_int_eq(teal_force_publish(d, ctx), TEAL_ECALLBACK);
  TS_EV_ASSERT_HAS(teal_context_error(ctx)->message, "d/b");
  /* wrong pairings */
  ck_assert_int_eq(teal_force_publish(a, ctx), TEAL_EINVAL);
  ck_assert_int_eq(teal_force_publish(d, NULL), TEAL_EINVAL);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_event_set_of_other_system_rejected) {
  ts_ev_xchg xa = {1.0, 0, 0, 0}, xb = {1.0, 0, 0, 0};
  teal_system *d = ts_ev_xchg_diagram(&xa, &xb, 1.0, 2.0);
  teal_context *ctx = teal_context_new(d, NULL);
  const teal_system *a = teal_diagram_find_subsystem(d, "A");
  teal_event_set *aset = teal_event_set_new(a); /* a subsystem's set */
  ts_ev_event_log log = {{0}, 0};
  ts_ev_log_spec spec = {&log, "o", 0};
  teal_system *other = ts_ev_publisher_new("other", &spec);
  teal_event_set *oset = teal_event_set_new(other);
  double next = 0.0;

  ck_assert_int_eq(teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, aset), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_EINVAL);
  TS_EV_ASSERT_HAS(teal_context_error(ctx)->message, "event set");
  TS_EV_ASSERT_HAS(teal_context_error(ctx)->message, "'pair'");
  ck_assert_int_eq(teal_calc_next_update_time(d, ctx, &next, oset), TEAL_EINVAL);
  ck_assert_int_eq(teal_dispatch_publish(d, ctx, oset), TEAL_EINVAL);
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, aset), TEAL_EINVAL);
  TS_EV_ASSERT_HAS(teal_context_error(ctx)->message, "event set");
  ck_assert_int_eq(teal_dispatch_unrestricted_updates(d, ctx, oset), TEAL_EINVAL);
  TS_EV_ASSERT_HAS(teal_context_error(ctx)->message, "event set");
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_dispatch_publish(d, ctx, NULL), TEAL_EINVAL);
  /* nothing ran and nothing changed */
  ck_assert_int_eq(log.calls, 0);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "A"), 1.0);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "B"), 2.0);

  /* a context of another system is rejected as well */
  teal_event_set *dset = teal_event_set_new(d);
  teal_context *octx = teal_context_new(other, NULL);
  ck_assert_int_eq(teal_collect_events(d, octx, TEAL_TRIGGER_PER_STEP, dset), TEAL_EINVAL);
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, octx, dset), TEAL_EINVAL);

  /* the subsystem's set works with the subsystem's context */
  teal_context *actx = teal_context_subcontext_mut(ctx, a);
  ck_assert_int_eq(teal_collect_events(a, actx, TEAL_TRIGGER_PER_STEP, aset), TEAL_OK);
  ck_assert_int_eq(teal_event_set_size(aset), 1);
  ck_assert_int_eq(teal_dispatch_discrete_updates(a, actx, aset), TEAL_OK);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "A"), 3.0); /* B.y (2) + 1 */
  ck_assert_double_eq(ts_ev_xd_of(ctx, "B"), 2.0);

  teal_context_free(octx);
  teal_event_set_free(dset);
  teal_event_set_free(oset);
  teal_event_set_free(aset);
  teal_system_free(other);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

static Suite *events_publish_suite(void) {
  Suite *s = suite_create("events_publish");
  TCase *tc = tcase_create("dispatch");
  tcase_add_test(tc, test_publish_in_subsystem_order);
  tcase_add_test(tc, test_publish_handler_errors);
  tcase_add_test(tc, test_force_publish_runs_only_forced);
  tcase_add_test(tc, test_event_set_of_other_system_rejected);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(events_publish_suite());
}
