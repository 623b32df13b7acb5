/* Tests for event sets (framework/events.c): collection in diagrams and
 * subsystems, merging, and the next update time. */
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

static int log_discrete(const teal_system *sys, const teal_context *ctx, double *xd_next,
                        void *user) {
  (void)sys;
  (void)ctx;
  (void)xd_next;
  ts_ev_log_spec *s = user;
  ts_ev_log_append(s->log, s->tag);
  return s->ret;
}

static int log_unrestricted(const teal_system *sys, const teal_context *ctx,
                            teal_state_view *next, void *user) {
  (void)sys;
  (void)ctx;
  (void)next;
  ts_ev_log_spec *s = user;
  ts_ev_log_append(s->log, s->tag);
  return s->ret;
}

/* ---- event sets ------------------------------------------------------- */

START_TEST(test_event_set_basics) {
  ts_ev_event_log log = {{0}, 0};
  ts_ev_log_spec spec = {&log, "x", 0};
  teal_system *s = teal_leaf_new("mixed", NULL, NULL);
  teal_leaf_declare_discrete_state(s, 1, NULL);
  ck_assert_int_eq(teal_leaf_declare_per_step_publish(s, ts_ev_log_publish, &spec), 0);
  ck_assert_int_eq(teal_leaf_declare_per_step_publish(s, ts_ev_log_publish, &spec), 1);
  ck_assert_int_eq(teal_leaf_declare_per_step_discrete_update(s, log_discrete, &spec), 2);
  ck_assert_int_eq(teal_leaf_declare_initialization_unrestricted_update(s, log_unrestricted,
                                                                         &spec), 3);
  ck_assert_int_eq(teal_leaf_declare_initialization_publish(s, ts_ev_log_publish, &spec), 4);
  ck_assert_int_eq(teal_leaf_declare_forced_publish(s, ts_ev_log_publish, &spec), 5);
  ck_assert_int_eq(teal_leaf_declare_periodic_discrete_update(s, 0.5, 0.0, log_discrete, &spec),
                   6);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  teal_context *ctx = teal_context_new(s, NULL);
  ck_assert_ptr_nonnull(ctx);

  teal_event_set *set = teal_event_set_new(s);
  ck_assert_ptr_nonnull(set);
  ck_assert_int_eq(teal_event_set_size(set), 0);

  ck_assert_int_eq(teal_collect_events(s, ctx, TEAL_TRIGGER_PER_STEP, set), TEAL_OK);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_PUBLISH), 2);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_DISCRETE_UPDATE), 1);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_UNRESTRICTED_UPDATE), 0);
  ck_assert_int_eq(teal_event_set_size(set), 3);
  ck_assert_int_eq(teal_event_set_count(set, (teal_event_kind)7), 0);
  ck_assert_int_eq(teal_event_set_count(set, (teal_event_kind)-1), 0);

  teal_event_set_clear(set);
  ck_assert_int_eq(teal_event_set_size(set), 0);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_PUBLISH), 0);

  /* collecting replaces the previous content */
  ck_assert_int_eq(teal_collect_events(s, ctx, TEAL_TRIGGER_PER_STEP, set), TEAL_OK);
  ck_assert_int_eq(teal_collect_events(s, ctx, TEAL_TRIGGER_INITIALIZATION, set), TEAL_OK);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_UNRESTRICTED_UPDATE), 1);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_PUBLISH), 1);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_DISCRETE_UPDATE), 0);
  ck_assert_int_eq(teal_event_set_size(set), 2);

  ck_assert_int_eq(teal_collect_events(s, ctx, TEAL_TRIGGER_FORCED, set), TEAL_OK);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_PUBLISH), 1);
  ck_assert_int_eq(teal_event_set_size(set), 1);

  /* the handlers are the ones collected: dispatching the forced set logs once */
  ck_assert_int_eq(teal_dispatch_publish(s, ctx, set), TEAL_OK);
  ck_assert_int_eq(log.calls, 1);

  ck_assert_int_eq(teal_event_set_size(NULL), 0);
  teal_event_set_clear(NULL);
  teal_event_set_free(NULL);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(s);

  /* no set for NULL or unfinalized systems */
  ck_assert_ptr_null(teal_event_set_new(NULL));
  teal_system *raw = teal_leaf_new("raw", NULL, NULL);
  ck_assert_ptr_null(teal_event_set_new(raw));
  teal_system_free(raw);
}
END_TEST

START_TEST(test_collect_in_diagram_and_subsystem) {
  ts_ev_event_log log = {{0}, 0};
  ts_ev_log_spec sa = {&log, "a", 0}, sb = {&log, "b", 0};
  teal_system *a = teal_leaf_new("a", NULL, NULL);
  teal_leaf_declare_initialization_publish(a, ts_ev_log_publish, &sa);
  teal_leaf_declare_per_step_publish(a, ts_ev_log_publish, &sa);
  ck_assert_int_eq(teal_leaf_finalize(a), TEAL_OK);
  teal_system *b = teal_leaf_new("b", NULL, NULL);
  teal_leaf_declare_initialization_publish(b, ts_ev_log_publish, &sb);
  teal_leaf_declare_initialization_publish(b, ts_ev_log_publish, &sb);
  ck_assert_int_eq(teal_leaf_finalize(b), TEAL_OK);
  teal_system *d = ts_ev_build2("d", a, b);
  teal_context *ctx = teal_context_new(d, NULL);

  teal_event_set *set = teal_event_set_new(d);
  ck_assert_int_eq(teal_collect_events(d, ctx, TEAL_TRIGGER_INITIALIZATION, set), TEAL_OK);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_PUBLISH), 3);
  ck_assert_int_eq(teal_dispatch_publish(d, ctx, set), TEAL_OK);
  ck_assert_str_eq(log.text, "a;b;b;");
  ck_assert_int_eq(teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, set), TEAL_OK);
  ck_assert_int_eq(teal_event_set_size(set), 1);
  ck_assert_int_eq(teal_collect_events(d, ctx, TEAL_TRIGGER_FORCED, set), TEAL_OK);
  ck_assert_int_eq(teal_event_set_size(set), 0);

  /* a subsystem's own set, with its subcontext, sees only its events */
  teal_event_set *bset = teal_event_set_new(b);
  const teal_context *bctx = teal_context_subcontext(ctx, b);
  ck_assert_int_eq(teal_collect_events(b, bctx, TEAL_TRIGGER_INITIALIZATION, bset), TEAL_OK);
  ck_assert_int_eq(teal_event_set_size(bset), 2);
  log.text[0] = '\0';
  ck_assert_int_eq(teal_dispatch_publish(b, bctx, bset), TEAL_OK);
  ck_assert_str_eq(log.text, "b;b;");

  teal_event_set_free(bset);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* e0 period .5, e1 period .25, e2 period .5 offset .25, all publishes that
 * log their index: t=0 gives {e1, e2} (both due at .25), t=.25 gives
 * {e0, e1} (due at .5); merging yields e0, e1, e2 once each, in order. */
START_TEST(test_event_set_merge_order_and_duplicates) {
  ts_ev_event_log log = {{0}, 0};
  ts_ev_log_spec s0 = {&log, "e0", 0}, s1 = {&log, "e1", 0}, s2 = {&log, "e2", 0};
  teal_system *s = teal_leaf_new("clock", NULL, NULL);
  teal_leaf_declare_periodic_publish(s, 0.5, 0.0, ts_ev_log_publish, &s0);
  teal_leaf_declare_periodic_publish(s, 0.25, 0.0, ts_ev_log_publish, &s1);
  teal_leaf_declare_periodic_publish(s, 0.5, 0.25, ts_ev_log_publish, &s2);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  teal_context *ctx = teal_context_new(s, NULL);
  teal_event_set *first = teal_event_set_new(s), *second = teal_event_set_new(s);
  double t = 0.0;
  ck_assert_int_eq(teal_calc_next_update_time(s, ctx, &t, first), TEAL_OK);
  ck_assert_double_eq(t, 0.25);
  ck_assert_int_eq(teal_event_set_size(first), 2);
  ck_assert_int_eq(teal_context_set_time(ctx, 0.25), TEAL_OK);
  ck_assert_int_eq(teal_calc_next_update_time(s, ctx, &t, second), TEAL_OK);
  ck_assert_double_eq(t, 0.5);
  ck_assert_int_eq(teal_event_set_size(second), 2);

  ck_assert_int_eq(teal_dispatch_publish(s, ctx, first), TEAL_OK);
  ck_assert_str_eq(log.text, "e1;e2;");
  log.text[0] = '\0';
  ck_assert_int_eq(teal_dispatch_publish(s, ctx, second), TEAL_OK);
  ck_assert_str_eq(log.text, "e0;e1;");

  ck_assert_int_eq(teal_event_set_merge(first, second), TEAL_OK);
  ck_assert_int_eq(teal_event_set_size(first), 3);
  ck_assert_int_eq(teal_event_set_count(first, TEAL_EVENT_PUBLISH), 3);
  ck_assert_int_eq(teal_event_set_size(second), 2); /* src unchanged */
  log.text[0] = '\0';
  ck_assert_int_eq(teal_dispatch_publish(s, ctx, first), TEAL_OK);
  ck_assert_str_eq(log.text, "e0;e1;e2;");

  /* merging an empty set changes nothing; merging into an empty set copies */
  teal_event_set_clear(second);
  ck_assert_int_eq(teal_event_set_merge(first, second), TEAL_OK);
  ck_assert_int_eq(teal_event_set_size(first), 3);
  ck_assert_int_eq(teal_event_set_merge(second, first), TEAL_OK);
  ck_assert_int_eq(teal_event_set_size(second), 3);
  log.text[0] = '\0';
  ck_assert_int_eq(teal_dispatch_publish(s, ctx, second), TEAL_OK);
  ck_assert_str_eq(log.text, "e0;e1;e2;");

  teal_event_set_free(first);
  teal_event_set_free(second);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

/* Merging two sets that both hold every event of a kind (e.g. the per-step
 * set merged with a copy of itself) must drop all duplicates in place. */
START_TEST(test_event_set_merge_identical_full_sets) {
  ts_ev_event_log log = {{0}, 0};
  ts_ev_log_spec s0 = {&log, "p0", 0}, s1 = {&log, "p1", 0};
  teal_system *s = teal_leaf_new("twice", NULL, NULL);
  teal_leaf_declare_per_step_publish(s, ts_ev_log_publish, &s0);
  teal_leaf_declare_per_step_publish(s, ts_ev_log_publish, &s1);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  teal_context *ctx = teal_context_new(s, NULL);
  teal_event_set *a = teal_event_set_new(s), *b = teal_event_set_new(s);
  ck_assert_int_eq(teal_collect_events(s, ctx, TEAL_TRIGGER_PER_STEP, a), TEAL_OK);
  ck_assert_int_eq(teal_collect_events(s, ctx, TEAL_TRIGGER_PER_STEP, b), TEAL_OK);
  ck_assert_int_eq(teal_event_set_merge(a, b), TEAL_OK);
  ck_assert_int_eq(teal_event_set_size(a), 2);
  ck_assert_int_eq(teal_dispatch_publish(s, ctx, a), TEAL_OK);
  ck_assert_str_eq(log.text, "p0;p1;");
  teal_event_set_free(a);
  teal_event_set_free(b);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_event_set_merge_kinds_and_systems) {
  ts_ev_event_log log = {{0}, 0};
  ts_ev_log_spec sp = {&log, "p", 0};
  teal_system *s = teal_leaf_new("k", NULL, NULL);
  teal_leaf_declare_discrete_state(s, 1, NULL);
  teal_leaf_declare_per_step_publish(s, ts_ev_log_publish, &sp);
  teal_leaf_declare_initialization_discrete_update(s, log_discrete, &sp);
  teal_leaf_declare_initialization_unrestricted_update(s, log_unrestricted, &sp);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  teal_context *ctx = teal_context_new(s, NULL);
  teal_event_set *a = teal_event_set_new(s), *b = teal_event_set_new(s);
  teal_collect_events(s, ctx, TEAL_TRIGGER_PER_STEP, a);
  teal_collect_events(s, ctx, TEAL_TRIGGER_INITIALIZATION, b);
  ck_assert_int_eq(teal_event_set_merge(a, b), TEAL_OK);
  ck_assert_int_eq(teal_event_set_count(a, TEAL_EVENT_PUBLISH), 1);
  ck_assert_int_eq(teal_event_set_count(a, TEAL_EVENT_DISCRETE_UPDATE), 1);
  ck_assert_int_eq(teal_event_set_count(a, TEAL_EVENT_UNRESTRICTED_UPDATE), 1);
  ck_assert_int_eq(teal_event_set_size(a), 3);

  /* sets of different systems do not merge */
  teal_system *other = ts_ev_publisher_new("other", &sp);
  teal_event_set *o = teal_event_set_new(other);
  ck_assert_int_eq(teal_event_set_merge(a, o), TEAL_EINVAL);
  ck_assert_int_eq(teal_event_set_size(a), 3);
  ck_assert_int_eq(teal_event_set_merge(NULL, a), TEAL_EINVAL);
  ck_assert_int_eq(teal_event_set_merge(a, NULL), TEAL_EINVAL);
  teal_event_set_free(o);
  teal_system_free(other);
  teal_event_set_free(a);
  teal_event_set_free(b);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

/* ---- next update time ------------------------------------------------- */

static teal_system *periodic_leaf(const char *name, double period, double offset,
                                  ts_ev_log_spec *spec) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_periodic_publish(s, period, offset, ts_ev_log_publish, spec),
                   0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

static double next_time_at(const teal_system *s, teal_context *ctx, teal_event_set *set,
                           double t) {
  ck_assert_int_eq(teal_context_set_time(ctx, t), TEAL_OK);
  double next = -1.0;
  ck_assert_int_eq(teal_calc_next_update_time(s, ctx, &next, set), TEAL_OK);
  return next;
}

START_TEST(test_next_update_time_is_strictly_after_now) {
  ts_ev_event_log log = {{0}, 0};
  ts_ev_log_spec spec = {&log, "p", 0};
  teal_system *s = periodic_leaf("p", 0.25, 0.0, &spec);
  teal_context *ctx = teal_context_new(s, NULL);
  teal_event_set *set = teal_event_set_new(s);
  ck_assert_double_eq(next_time_at(s, ctx, set, 0.0), 0.25); /* t == offset: not now */
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_PUBLISH), 1);
  ck_assert_double_eq(next_time_at(s, ctx, set, 0.1), 0.25);
  ck_assert_double_eq(next_time_at(s, ctx, set, 0.25), 0.5);
  ck_assert_double_eq(next_time_at(s, ctx, set, 0.3), 0.5);
  ck_assert_double_eq(next_time_at(s, ctx, set, 2.0), 2.25);
  ck_assert_double_eq(next_time_at(s, ctx, set, 2.125), 2.25);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_next_update_time_offset) {
  ts_ev_event_log log = {{0}, 0};
  ts_ev_log_spec spec = {&log, "p", 0};
  teal_system *s = periodic_leaf("p", 0.25, 0.5, &spec);
  teal_context *ctx = teal_context_new(s, NULL);
  teal_event_set *set = teal_event_set_new(s);
  ck_assert_double_eq(next_time_at(s, ctx, set, 0.0), 0.5); /* before the offset */
  ck_assert_double_eq(next_time_at(s, ctx, set, 0.375), 0.5);
  ck_assert_double_eq(next_time_at(s, ctx, set, 0.5), 0.75); /* at the offset */
  ck_assert_double_eq(next_time_at(s, ctx, set, 0.625), 0.75);
  ck_assert_double_eq(next_time_at(s, ctx, set, 0.75), 1.0);
  ck_assert_int_eq(teal_event_set_size(set), 1);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

/* A: publish every .5, discrete every .25; B: publish every .25,
 * unrestricted every 1. */
START_TEST(test_next_update_time_minimum_and_ties) {
  ts_ev_event_log log = {{0}, 0};
  ts_ev_log_spec sa = {&log, "A", 0}, sb = {&log, "B", 0};
  teal_system *a = teal_leaf_new("A", NULL, NULL);
  teal_leaf_declare_discrete_state(a, 1, NULL);
  teal_leaf_declare_periodic_publish(a, 0.5, 0.0, ts_ev_log_publish, &sa);
  teal_leaf_declare_periodic_discrete_update(a, 0.25, 0.0, log_discrete, &sa);
  ck_assert_int_eq(teal_leaf_finalize(a), TEAL_OK);
  teal_system *b = teal_leaf_new("B", NULL, NULL);
  teal_leaf_declare_periodic_publish(b, 0.25, 0.0, ts_ev_log_publish, &sb);
  teal_leaf_declare_periodic_unrestricted_update(b, 1.0, 0.0, log_unrestricted, &sb);
  ck_assert_int_eq(teal_leaf_finalize(b), TEAL_OK);
  teal_system *d = ts_ev_build2("d", a, b);
  teal_context *ctx = teal_context_new(d, NULL);
  teal_event_set *set = teal_event_set_new(d);

  ck_assert_double_eq(next_time_at(d, ctx, set, 0.0), 0.25);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_PUBLISH), 1);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_DISCRETE_UPDATE), 1);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_UNRESTRICTED_UPDATE), 0);
  ck_assert_int_eq(teal_dispatch_publish(d, ctx, set), TEAL_OK);
  ck_assert_str_eq(log.text, "B;");

  ck_assert_double_eq(next_time_at(d, ctx, set, 0.25), 0.5);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_PUBLISH), 2);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_DISCRETE_UPDATE), 1);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_UNRESTRICTED_UPDATE), 0);
  log.text[0] = '\0';
  ck_assert_int_eq(teal_dispatch_publish(d, ctx, set), TEAL_OK);
  ck_assert_str_eq(log.text, "A;B;");

  ck_assert_double_eq(next_time_at(d, ctx, set, 0.75), 1.0);
  ck_assert_int_eq(teal_event_set_size(set), 4);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_UNRESTRICTED_UPDATE), 1);

  /* the subsystem alone: only its events */
  teal_event_set *bset = teal_event_set_new(b);
  double next = 0.0;
  ck_assert_int_eq(teal_calc_next_update_time(b, teal_context_subcontext(ctx, b), &next, bset),
                   TEAL_OK);
  ck_assert_double_eq(next, 1.0);
  ck_assert_int_eq(teal_event_set_size(bset), 2);
  teal_event_set_free(bset);

  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_next_update_time_none) {
  ts_ev_event_log log = {{0}, 0};
  ts_ev_log_spec spec = {&log, "p", 0};
  teal_system *s = ts_ev_publisher_new("nop", &spec); /* per-step only */
  teal_context *ctx = teal_context_new(s, NULL);
  teal_event_set *set = teal_event_set_new(s);
  ck_assert_int_eq(teal_collect_events(s, ctx, TEAL_TRIGGER_PER_STEP, set), TEAL_OK);
  ck_assert_int_eq(teal_event_set_size(set), 1);
  double next = 0.0;
  ck_assert_int_eq(teal_calc_next_update_time(s, ctx, &next, set), TEAL_OK);
  ck_assert(isinf(next) && next > 0);
  ck_assert_int_eq(teal_event_set_size(set), 0); /* the old content is gone */
  ck_assert_int_eq(teal_calc_next_update_time(s, ctx, NULL, set), TEAL_EINVAL);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

static Suite *events_suite(void) {
  Suite *s = suite_create("events");
  TCase *tc = tcase_create("sets");
  tcase_add_test(tc, test_event_set_basics);
  tcase_add_test(tc, test_collect_in_diagram_and_subsystem);
  tcase_add_test(tc, test_event_set_merge_order_and_duplicates);
  tcase_add_test(tc, test_event_set_merge_identical_full_sets);
  tcase_add_test(tc, test_event_set_merge_kinds_and_systems);
  suite_add_tcase(s, tc);

  tc = tcase_create("timing");
  tcase_add_test(tc, test_next_update_time_is_strictly_after_now);
  tcase_add_test(tc, test_next_update_time_offset);
  tcase_add_test(tc, test_next_update_time_minimum_and_ties);
  tcase_add_test(tc, test_next_update_time_none);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(events_suite());
}
