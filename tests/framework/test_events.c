/* Tests of event sets, event collection, next-update-time computation and
 * dispatch: publish order, two-phase (all-or-nothing) discrete and
 * unrestricted updates, cache invalidation after updates, forced publish,
 * and rejection of event sets that belong to another system. */
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

/* Make every UBSan report fatal (the suite must be UBSan clean); harmless
 * in builds without the sanitizer. Weak, so a definition elsewhere wins. */
const char *__ubsan_default_options(void);
#if defined(__GNUC__)
__attribute__((weak))
#endif
const char *__ubsan_default_options(void) {
  return "halt_on_error=1:print_stacktrace=1";
}

#define ASSERT_HAS(msg, sub)                                                        \
  ck_assert_msg(strstr((msg), (sub)) != NULL, "message \"%s\" does not contain \"%s\"", \
                (msg), (sub))

/* ---- a log that handlers append to ----------------------------------- */

typedef struct event_log {
  char text[1024];
  int calls;
} event_log;

/* Closure of a logging handler: where to log, what to write, what to return. */
typedef struct log_spec {
  event_log *log;
  const char *tag;
  int ret;
} log_spec;

static void log_append(event_log *log, const char *tag) {
  size_t used = strlen(log->text);
  snprintf(log->text + used, sizeof log->text - used, "%s;", tag);
  log->calls++;
}

static int log_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)ctx;
  log_spec *s = user;
  log_append(s->log, s->tag);
  return s->ret;
}

static int log_discrete(const teal_system *sys, const teal_context *ctx, double *xd_next,
                        void *user) {
  (void)sys;
  (void)ctx;
  (void)xd_next;
  log_spec *s = user;
  log_append(s->log, s->tag);
  return s->ret;
}

static int log_unrestricted(const teal_system *sys, const teal_context *ctx,
                            teal_state_view *next, void *user) {
  (void)sys;
  (void)ctx;
  (void)next;
  log_spec *s = user;
  log_append(s->log, s->tag);
  return s->ret;
}

/* A leaf with one per-step publish that logs its tag. */
static teal_system *publisher_new(const char *name, log_spec *spec) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(teal_leaf_declare_per_step_publish(s, log_publish, spec), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

static teal_system *build2(const char *name, teal_system *a, teal_system *b) {
  teal_builder *bld = teal_builder_new(name);
  ck_assert_ptr_nonnull(teal_builder_add(bld, a));
  if (b) {
    ck_assert_ptr_nonnull(teal_builder_add(bld, b));
  }
  teal_error err;
  teal_system *d = teal_builder_build(bld, &err);
  ck_assert_msg(d != NULL, "build %s: %s", name, err.message);
  return d;
}

/* ---- event sets ------------------------------------------------------- */

START_TEST(test_event_set_basics) {
  event_log log = {{0}, 0};
  log_spec spec = {&log, "x", 0};
  teal_system *s = teal_leaf_new("mixed", NULL, NULL);
  teal_leaf_declare_discrete_state(s, 1, NULL);
  ck_assert_int_eq(teal_leaf_declare_per_step_publish(s, log_publish, &spec), 0);
  ck_assert_int_eq(teal_leaf_declare_per_step_publish(s, log_publish, &spec), 1);
  ck_assert_int_eq(teal_leaf_declare_per_step_discrete_update(s, log_discrete, &spec), 2);
  ck_assert_int_eq(teal_leaf_declare_initialization_unrestricted_update(s, log_unrestricted,
                                                                         &spec), 3);
  ck_assert_int_eq(teal_leaf_declare_initialization_publish(s, log_publish, &spec), 4);
  ck_assert_int_eq(teal_leaf_declare_forced_publish(s, log_publish, &spec), 5);
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
  event_log log = {{0}, 0};
  log_spec sa = {&log, "a", 0}, sb = {&log, "b", 0};
  teal_system *a = teal_leaf_new("a", NULL, NULL);
  teal_leaf_declare_initialization_publish(a, log_publish, &sa);
  teal_leaf_declare_per_step_publish(a, log_publish, &sa);
  ck_assert_int_eq(teal_leaf_finalize(a), TEAL_OK);
  teal_system *b = teal_leaf_new("b", NULL, NULL);
  teal_leaf_declare_initialization_publish(b, log_publish, &sb);
  teal_leaf_declare_initialization_publish(b, log_publish, &sb);
  ck_assert_int_eq(teal_leaf_finalize(b), TEAL_OK);
  teal_system *d = build2("d", a, b);
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
  event_log log = {{0}, 0};
  log_spec s0 = {&log, "e0", 0}, s1 = {&log, "e1", 0}, s2 = {&log, "e2", 0};
  teal_system *s = teal_leaf_new("clock", NULL, NULL);
  teal_leaf_declare_periodic_publish(s, 0.5, 0.0, log_publish, &s0);
  teal_leaf_declare_periodic_publish(s, 0.25, 0.0, log_publish, &s1);
  teal_leaf_declare_periodic_publish(s, 0.5, 0.25, log_publish, &s2);
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
  event_log log = {{0}, 0};
  log_spec s0 = {&log, "p0", 0}, s1 = {&log, "p1", 0};
  teal_system *s = teal_leaf_new("twice", NULL, NULL);
  teal_leaf_declare_per_step_publish(s, log_publish, &s0);
  teal_leaf_declare_per_step_publish(s, log_publish, &s1);
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
  event_log log = {{0}, 0};
  log_spec sp = {&log, "p", 0};
  teal_system *s = teal_leaf_new("k", NULL, NULL);
  teal_leaf_declare_discrete_state(s, 1, NULL);
  teal_leaf_declare_per_step_publish(s, log_publish, &sp);
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
  teal_system *other = publisher_new("other", &sp);
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
                                  log_spec *spec) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_periodic_publish(s, period, offset, log_publish, spec), 0);
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
  event_log log = {{0}, 0};
  log_spec spec = {&log, "p", 0};
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
  event_log log = {{0}, 0};
  log_spec spec = {&log, "p", 0};
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
  event_log log = {{0}, 0};
  log_spec sa = {&log, "A", 0}, sb = {&log, "B", 0};
  teal_system *a = teal_leaf_new("A", NULL, NULL);
  teal_leaf_declare_discrete_state(a, 1, NULL);
  teal_leaf_declare_periodic_publish(a, 0.5, 0.0, log_publish, &sa);
  teal_leaf_declare_periodic_discrete_update(a, 0.25, 0.0, log_discrete, &sa);
  ck_assert_int_eq(teal_leaf_finalize(a), TEAL_OK);
  teal_system *b = teal_leaf_new("B", NULL, NULL);
  teal_leaf_declare_periodic_publish(b, 0.25, 0.0, log_publish, &sb);
  teal_leaf_declare_periodic_unrestricted_update(b, 1.0, 0.0, log_unrestricted, &sb);
  ck_assert_int_eq(teal_leaf_finalize(b), TEAL_OK);
  teal_system *d = build2("d", a, b);
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
  event_log log = {{0}, 0};
  log_spec spec = {&log, "p", 0};
  teal_system *s = publisher_new("nop", &spec); /* per-step only */
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

/* ---- publish ---------------------------------------------------------- */

START_TEST(test_publish_in_subsystem_order) {
  event_log log = {{0}, 0};
  log_spec sz = {&log, "zeta", 0}, sa = {&log, "alpha", 0}, sm = {&log, "mu", 0},
           sb = {&log, "beta", 0}, sb2 = {&log, "beta2", 0};
  teal_system *beta = teal_leaf_new("beta", NULL, NULL);
  teal_leaf_declare_per_step_publish(beta, log_publish, &sb);
  teal_leaf_declare_per_step_publish(beta, log_publish, &sb2);
  ck_assert_int_eq(teal_leaf_finalize(beta), TEAL_OK);
  teal_system *inner = build2("inner", publisher_new("mu", &sm), beta);
  teal_builder *bld = teal_builder_new("top");
  teal_builder_add(bld, publisher_new("zeta", &sz));
  teal_builder_add(bld, inner);
  teal_builder_add(bld, publisher_new("alpha", &sa));
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
  event_log log = {{0}, 0};
  log_spec ok = {&log, "ok", 0}, bad = {&log, "bad", 2}; /* 1 is TEAL_STOP */
  teal_system *d = build2("rig", publisher_new("good", &ok), publisher_new("broken", &bad));
  teal_context *ctx = teal_context_new(d, NULL);
  teal_event_set *set = teal_event_set_new(d);
  teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, set);
  int rc = teal_dispatch_publish(d, ctx, set);
  ck_assert_int_eq(rc, TEAL_ECALLBACK); /* a positive return becomes ECALLBACK */
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_ECALLBACK);
  ASSERT_HAS(e->message, "publish");
  ASSERT_HAS(e->message, "rig/broken");
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

/* ---- discrete updates ------------------------------------------------- */

/* A leaf with one discrete group of size 1, output y = xd (depends on XD
 * only), input u, and a per-step discrete update xd' = u + add. */
typedef struct xchg {
  double add;
  int calc_calls;
  int ret;          /* returned by the update (0: success) */
  int report;       /* when nonzero, report a custom message before failing */
} xchg;

static int xchg_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  xchg *x = user;
  x->calc_calls++;
  out[0] = teal_context_discrete_state(ctx)[0];
  return TEAL_OK;
}

static int xchg_update(const teal_system *sys, const teal_context *ctx, double *xd_next,
                       void *user) {
  xchg *x = user;
  const double *u = NULL;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  xd_next[0] = u[0] + x->add;
  if (x->report) {
    return teal_context_report_error(ctx, x->ret, "controller '%s' diverged",
                                     teal_system_name(sys));
  }
  return x->ret;
}

static teal_system *xchg_new(const char *name, double x0, xchg *x) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(s, 1, &x0), 0);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "u", 1), 0);
  teal_ticket xd = TEAL_TICKET_XD;
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", 1, xchg_out, x, &xd, 1), 0);
  ck_assert_int_eq(teal_leaf_declare_per_step_discrete_update(s, xchg_update, x), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* A.y -> B.u and B.y -> A.u */
static teal_system *xchg_diagram(xchg *xa, xchg *xb, double a0, double b0) {
  teal_system *a = xchg_new("A", a0, xa);
  teal_system *b = xchg_new("B", b0, xb);
  teal_builder *bld = teal_builder_new("pair");
  teal_builder_add(bld, a);
  teal_builder_add(bld, b);
  ck_assert_int_eq(teal_builder_connect_by_name(bld, "A", "y", "B", "u"), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_by_name(bld, "B", "y", "A", "u"), TEAL_OK);
  teal_error err;
  teal_system *d = teal_builder_build(bld, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  return d;
}

static double xd_of(const teal_context *root, const char *path) {
  const teal_context *c = teal_context_subcontext_by_name(root, path);
  ck_assert_ptr_nonnull(c);
  return teal_context_discrete_state(c)[0];
}

START_TEST(test_discrete_two_phase_through_inputs) {
  xchg xa = {10.0, 0, 0, 0}, xb = {100.0, 0, 0, 0};
  teal_system *d = xchg_diagram(&xa, &xb, 1.0, 2.0);
  teal_context *ctx = teal_context_new(d, NULL);
  teal_event_set *set = teal_event_set_new(d);
  ck_assert_int_eq(teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, set), TEAL_OK);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_DISCRETE_UPDATE), 2);
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
  /* both read the pre-update values: A = 2 + 10, B = 1 + 100 */
  ck_assert_double_eq(xd_of(ctx, "A"), 12.0);
  ck_assert_double_eq(xd_of(ctx, "B"), 101.0);
  ck_assert_double_eq(teal_context_discrete_state(ctx)[0], 12.0);
  ck_assert_double_eq(teal_context_discrete_state(ctx)[1], 101.0);
  /* again: the outputs were recomputed from the new state */
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
  ck_assert_double_eq(xd_of(ctx, "A"), 111.0);
  ck_assert_double_eq(xd_of(ctx, "B"), 112.0);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* Leaves without inputs that read the other leaf's output port directly
 * (through the other leaf's subcontext) in their discrete update. */
typedef struct peer {
  const teal_system *other;
  const teal_context *other_ctx;
  double scale, add;
  int outputs_seen;
} peer;

static int peer_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_discrete_state(ctx)[0];
  return TEAL_OK;
}

static int peer_update(const teal_system *sys, const teal_context *ctx, double *xd_next,
                       void *user) {
  (void)sys;
  (void)ctx;
  peer *p = user;
  const double *y = NULL;
  int rc = teal_eval_vector_output(p->other, p->other_ctx, 0, &y);
  if (rc) {
    return rc;
  }
  p->outputs_seen++;
  xd_next[0] = p->scale * y[0] + p->add;
  return TEAL_OK;
}

static teal_system *peer_new(const char *name, double x0, peer *p) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(s, 1, &x0), 0);
  teal_ticket xd = TEAL_TICKET_XD;
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", 1, peer_out, NULL, &xd, 1), 0);
  ck_assert_int_eq(teal_leaf_declare_periodic_discrete_update(s, 0.5, 0.0, peer_update, p), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

START_TEST(test_discrete_two_phase_through_output_ports) {
  peer pa = {NULL, NULL, 2.0, 1.0, 0}, pb = {NULL, NULL, 3.0, 0.0, 0};
  teal_system *a = peer_new("P", 1.0, &pa);
  teal_system *b = peer_new("Q", 2.0, &pb);
  teal_system *d = build2("peers", a, b);
  teal_context *ctx = teal_context_new(d, NULL);
  pa.other = b;
  pa.other_ctx = teal_context_subcontext(ctx, b);
  pb.other = a;
  pb.other_ctx = teal_context_subcontext(ctx, a);
  teal_event_set *set = teal_event_set_new(d);
  double next = 0.0;
  ck_assert_int_eq(teal_calc_next_update_time(d, ctx, &next, set), TEAL_OK);
  ck_assert_double_eq(next, 0.5);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_DISCRETE_UPDATE), 2);
  ck_assert_int_eq(teal_context_set_time(ctx, next), TEAL_OK);
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
  ck_assert_int_eq(pa.outputs_seen, 1);
  ck_assert_int_eq(pb.outputs_seen, 1);
  ck_assert_double_eq(xd_of(ctx, "P"), 5.0); /* 2 * Q(2) + 1 */
  ck_assert_double_eq(xd_of(ctx, "Q"), 3.0); /* 3 * P(1), not 3 * 5 */
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* One leaf, two discrete groups [2, 1] and two periodic discrete events
 * due together: the second handler sees the first one's result in xd_next
 * while the context still shows the old values. */
typedef struct accum {
  double seen_ctx[2][3]; /* context values each handler saw */
  double seen_next[2][3];
  int calls;
} accum;

static int accum_first(const teal_system *sys, const teal_context *ctx, double *xd_next,
                       void *user) {
  (void)sys;
  accum *a = user;
  memcpy(a->seen_ctx[0], teal_context_discrete_state(ctx), 3 * sizeof(double));
  memcpy(a->seen_next[0], xd_next, 3 * sizeof(double));
  a->calls++;
  xd_next[0] += 1.0;
  xd_next[1] *= 2.0;
  return TEAL_OK;
}

static int accum_second(const teal_system *sys, const teal_context *ctx, double *xd_next,
                        void *user) {
  (void)sys;
  accum *a = user;
  memcpy(a->seen_ctx[1], teal_context_discrete_state(ctx), 3 * sizeof(double));
  memcpy(a->seen_next[1], xd_next, 3 * sizeof(double));
  a->calls++;
  xd_next[0] += 10.0;
  xd_next[1] += 1.0;
  xd_next[2] = -xd_next[2];
  return TEAL_OK;
}

START_TEST(test_discrete_same_leaf_events_accumulate) {
  accum acc;
  memset(&acc, 0, sizeof acc);
  event_log log = {{0}, 0};
  log_spec idle_spec = {&log, "idle", 0};
  teal_system *s = teal_leaf_new("acc", NULL, NULL);
  double g0[2] = {0.0, 3.0}, g1[1] = {4.0};
  ck_assert_int_eq(teal_leaf_declare_discrete_state(s, 2, g0), 0);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(s, 1, g1), 1);
  teal_leaf_declare_periodic_discrete_update(s, 1.0, 0.0, accum_first, &acc);
  teal_leaf_declare_periodic_discrete_update(s, 1.0, 0.0, accum_second, &acc);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  /* inside a diagram with a second leaf that has nothing due */
  teal_system *d = build2("d", publisher_new("idle", &idle_spec), s);
  teal_context *ctx = teal_context_new(d, NULL);
  teal_event_set *set = teal_event_set_new(d);
  double next = 0.0;
  ck_assert_int_eq(teal_calc_next_update_time(d, ctx, &next, set), TEAL_OK);
  ck_assert_double_eq(next, 1.0);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_DISCRETE_UPDATE), 2);
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
  ck_assert_int_eq(acc.calls, 2);
  /* first: [0,3,4] -> [1,6,4]; second: -> [11,7,-4] (order: declaration) */
  const teal_context *sc = teal_context_subcontext(ctx, s);
  ck_assert_double_eq(teal_context_discrete_group(sc, 0)[0], 11.0);
  ck_assert_double_eq(teal_context_discrete_group(sc, 0)[1], 7.0);
  ck_assert_double_eq(teal_context_discrete_group(sc, 1)[0], -4.0);
  for (int k = 0; k < 2; k++) {
    ck_assert_double_eq(acc.seen_ctx[k][0], 0.0);
    ck_assert_double_eq(acc.seen_ctx[k][1], 3.0);
    ck_assert_double_eq(acc.seen_ctx[k][2], 4.0);
  }
  ck_assert_double_eq(acc.seen_next[0][0], 0.0); /* xd_next starts at current */
  ck_assert_double_eq(acc.seen_next[0][1], 3.0);
  ck_assert_double_eq(acc.seen_next[0][2], 4.0);
  ck_assert_double_eq(acc.seen_next[1][0], 1.0); /* then accumulates */
  ck_assert_double_eq(acc.seen_next[1][1], 6.0);
  ck_assert_double_eq(acc.seen_next[1][2], 4.0);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_discrete_failure_changes_nothing) {
  /* B fails after A already produced its next value */
  xchg xa = {10.0, 0, 0, 0}, xb = {100.0, 0, TEAL_ECALLBACK, 0};
  teal_system *d = xchg_diagram(&xa, &xb, 1.0, 2.0);
  teal_context *ctx = teal_context_new(d, NULL);
  teal_event_set *set = teal_event_set_new(d);
  teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, set);
  int rc = teal_dispatch_discrete_updates(d, ctx, set);
  ck_assert_int_eq(rc, TEAL_ECALLBACK);
  ck_assert_double_eq(xd_of(ctx, "A"), 1.0);
  ck_assert_double_eq(xd_of(ctx, "B"), 2.0);
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_ECALLBACK);
  ASSERT_HAS(e->message, "discrete update");
  ASSERT_HAS(e->message, "pair/B");
  /* outputs still report the old state */
  const teal_context *actx = teal_context_subcontext_by_name(ctx, "A");
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(teal_context_system(actx), actx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 1.0);

  /* a positive return is reported as TEAL_ECALLBACK */
  xb.ret = 3;
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_ECALLBACK);
  ck_assert_double_eq(xd_of(ctx, "A"), 1.0);
  ck_assert_double_eq(xd_of(ctx, "B"), 2.0);

  /* a handler's own code and message are kept */
  xb.ret = TEAL_ENOCONV;
  xb.report = 1;
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_ENOCONV);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_ENOCONV);
  ck_assert_str_eq(teal_context_error(ctx)->message, "controller 'B' diverged");
  ck_assert_double_eq(xd_of(ctx, "A"), 1.0);
  ck_assert_double_eq(xd_of(ctx, "B"), 2.0);

  /* the first handler failing also changes nothing */
  xb.ret = 0;
  xb.report = 0;
  xa.ret = TEAL_ESINGULAR;
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_ESINGULAR);
  ASSERT_HAS(teal_context_error(ctx)->message, "pair/A");
  ck_assert_double_eq(xd_of(ctx, "A"), 1.0);
  ck_assert_double_eq(xd_of(ctx, "B"), 2.0);

  /* after the failures, a successful dispatch works from the old state */
  xa.ret = 0;
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
  ck_assert_double_eq(xd_of(ctx, "A"), 12.0);
  ck_assert_double_eq(xd_of(ctx, "B"), 101.0);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_outputs_recomputed_after_discrete_update) {
  xchg xa = {10.0, 0, 0, 0}, xb = {100.0, 0, 0, 0};
  teal_system *d = xchg_diagram(&xa, &xb, 1.0, 2.0);
  teal_context *ctx = teal_context_new(d, NULL);
  const teal_context *actx = teal_context_subcontext_by_name(ctx, "A");
  const teal_system *a = teal_context_system(actx);
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(a, actx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 1.0);
  ck_assert_int_eq(teal_eval_vector_output(a, actx, 0, &y), TEAL_OK);
  int calls = xa.calc_calls;
  ck_assert_int_eq(calls, 1); /* cached */
  teal_event_set *set = teal_event_set_new(d);
  teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, set);
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(a, actx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 12.0);
  ck_assert_int_eq(xa.calc_calls, calls + 1);
  /* B's input (fed by A.y) sees the new value as well */
  const teal_context *bctx = teal_context_subcontext_by_name(ctx, "B");
  const double *u = NULL;
  ck_assert_int_eq(teal_eval_vector_input(teal_context_system(bctx), bctx, 0, &u), TEAL_OK);
  ck_assert_double_eq(u[0], 12.0);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* ---- unrestricted updates -------------------------------------------- */

typedef struct counter {
  int n;
  double acc;
} counter;

static const teal_value_type k_counter = {"counter", sizeof(counter), NULL, NULL, NULL};

/* A leaf with q, v, z (1 each), a discrete group of 2, an abstract counter,
 * input u, output y = q + 10 v + 100 z (depends on continuous state). */
typedef struct full {
  int ret;
  int out_calls;
  double seen_u;
} full;

static int full_deriv(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                      void *user) {
  (void)sys;
  (void)user;
  xd->q[0] = teal_context_v(ctx)[0];
  xd->v[0] = 0.0;
  xd->z[0] = 0.0;
  return TEAL_OK;
}

static int full_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  full *f = user;
  f->out_calls++;
  out[0] = teal_context_q(ctx)[0] + 10.0 * teal_context_v(ctx)[0] +
           100.0 * teal_context_z(ctx)[0];
  return TEAL_OK;
}

static int full_update(const teal_system *sys, const teal_context *ctx, teal_state_view *next,
                       void *user) {
  full *f = user;
  const double *u = NULL;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  f->seen_u = u[0];
  next->q[0] = u[0];
  next->v[0] *= 2.0;
  next->z[0] = -next->z[0];
  next->xd[0] += 5.0;
  next->xd[1] = u[0];
  counter *c = next->xa[0];
  c->n++;
  c->acc += u[0];
  return f->ret;
}

static teal_system *full_new(const char *name, const double x0[3], full *f) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(s, 1, 1, 1, x0), TEAL_OK);
  teal_leaf_set_time_derivatives(s, full_deriv, NULL);
  double xd0[2] = {1.0, 0.0};
  ck_assert_int_eq(teal_leaf_declare_discrete_state(s, 2, xd0), 0);
  counter c0 = {0, 0.0};
  ck_assert_int_eq(teal_leaf_declare_abstract_state(s, &k_counter, &c0), 0);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "u", 1), 0);
  teal_ticket xc = TEAL_TICKET_XC;
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", 1, full_out, f, &xc, 1), 0);
  ck_assert_int_eq(teal_leaf_declare_per_step_unrestricted_update(s, full_update, f), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* F.y -> G.u, G.y -> F.u */
static teal_system *full_pair(full *ff, full *fg, const double xf[3], const double xg[3]) {
  teal_builder *b = teal_builder_new("duo");
  teal_builder_add(b, full_new("F", xf, ff));
  teal_builder_add(b, full_new("G", xg, fg));
  ck_assert_int_eq(teal_builder_connect_by_name(b, "F", "y", "G", "u"), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "G", "y", "F", "u"), TEAL_OK);
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  return d;
}

START_TEST(test_unrestricted_updates_change_all_state) {
  full ff = {0, 0, 0.0}, fg = {0, 0, 0.0};
  const double xf[3] = {1.0, 2.0, 3.0}, xg[3] = {4.0, 5.0, 6.0};
  teal_system *d = full_pair(&ff, &fg, xf, xg);
  teal_context *ctx = teal_context_new(d, NULL);
  teal_event_set *set = teal_event_set_new(d);
  ck_assert_int_eq(teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, set), TEAL_OK);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_UNRESTRICTED_UPDATE), 2);

  /* cache F.y before the update */
  const teal_context *fctx = teal_context_subcontext_by_name(ctx, "F");
  const teal_context *gctx = teal_context_subcontext_by_name(ctx, "G");
  const teal_system *f = teal_context_system(fctx);
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(f, fctx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 321.0);

  ck_assert_int_eq(teal_dispatch_unrestricted_updates(d, ctx, set), TEAL_OK);
  /* two-phase: F saw G.y = 4 + 50 + 600 = 654, G saw F.y = 321 (pre-update) */
  ck_assert_double_eq(ff.seen_u, 654.0);
  ck_assert_double_eq(fg.seen_u, 321.0);
  ck_assert_double_eq(teal_context_q(fctx)[0], 654.0);
  ck_assert_double_eq(teal_context_v(fctx)[0], 4.0);
  ck_assert_double_eq(teal_context_z(fctx)[0], -3.0);
  ck_assert_double_eq(teal_context_q(gctx)[0], 321.0);
  ck_assert_double_eq(teal_context_v(gctx)[0], 10.0);
  ck_assert_double_eq(teal_context_z(gctx)[0], -6.0);
  ck_assert_double_eq(teal_context_discrete_group(fctx, 0)[0], 6.0);
  ck_assert_double_eq(teal_context_discrete_group(fctx, 0)[1], 654.0);
  ck_assert_double_eq(teal_context_discrete_group(gctx, 0)[1], 321.0);
  const counter *cf = teal_context_abstract_state(fctx, 0);
  const counter *cg = teal_context_abstract_state(gctx, 0);
  ck_assert_int_eq(cf->n, 1);
  ck_assert_double_eq(cf->acc, 654.0);
  ck_assert_int_eq(cg->n, 1);
  ck_assert_double_eq(cg->acc, 321.0);
  /* root layout [q all; v all; z all] */
  double x[6];
  ck_assert_int_eq(teal_context_get_continuous_state(ctx, x, 6), TEAL_OK);
  ck_assert_double_eq(x[0], 654.0);
  ck_assert_double_eq(x[1], 321.0);
  ck_assert_double_eq(x[2], 4.0);
  ck_assert_double_eq(x[3], 10.0);
  ck_assert_double_eq(x[4], -3.0);
  ck_assert_double_eq(x[5], -6.0);

  /* the cached output was invalidated and recomputed */
  int calls = ff.out_calls;
  ck_assert_int_eq(teal_eval_vector_output(f, fctx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 654.0 + 40.0 - 300.0);
  ck_assert_int_eq(ff.out_calls, calls + 1);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_unrestricted_failure_changes_nothing) {
  full ff = {0, 0, 0.0}, fg = {TEAL_ECALLBACK, 0, 0.0};
  const double xf[3] = {1.0, 2.0, 3.0}, xg[3] = {4.0, 5.0, 6.0};
  teal_system *d = full_pair(&ff, &fg, xf, xg);
  teal_context *ctx = teal_context_new(d, NULL);
  teal_event_set *set = teal_event_set_new(d);
  teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, set);
  int rc = teal_dispatch_unrestricted_updates(d, ctx, set);
  ck_assert_int_eq(rc, TEAL_ECALLBACK);
  ck_assert_double_eq(ff.seen_u, 654.0); /* F ran (and succeeded) first */
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_ECALLBACK);
  ASSERT_HAS(e->message, "unrestricted update");
  ASSERT_HAS(e->message, "duo/G");
  const char *names[2] = {"F", "G"};
  const double *x0[2] = {xf, xg};
  for (int i = 0; i < 2; i++) {
    const teal_context *c = teal_context_subcontext_by_name(ctx, names[i]);
    ck_assert_double_eq(teal_context_q(c)[0], x0[i][0]);
    ck_assert_double_eq(teal_context_v(c)[0], x0[i][1]);
    ck_assert_double_eq(teal_context_z(c)[0], x0[i][2]);
    ck_assert_double_eq(teal_context_discrete_group(c, 0)[0], 1.0);
    ck_assert_double_eq(teal_context_discrete_group(c, 0)[1], 0.0);
    const counter *cnt = teal_context_abstract_state(c, 0);
    ck_assert_int_eq(cnt->n, 0);
    ck_assert_double_eq(cnt->acc, 0.0);
  }
  /* a positive return also becomes TEAL_ECALLBACK, still changing nothing */
  fg.ret = 2;
  ck_assert_int_eq(teal_dispatch_unrestricted_updates(d, ctx, set), TEAL_ECALLBACK);
  const teal_context *fc = teal_context_subcontext_by_name(ctx, "F");
  ck_assert_double_eq(teal_context_q(fc)[0], 1.0);
  ck_assert_int_eq(((const counter *)teal_context_abstract_state(fc, 0))->n, 0);
  /* then success applies exactly one update */
  fg.ret = 0;
  ck_assert_int_eq(teal_dispatch_unrestricted_updates(d, ctx, set), TEAL_OK);
  ck_assert_double_eq(teal_context_q(fc)[0], 654.0);
  ck_assert_int_eq(((const counter *)teal_context_abstract_state(fc, 0))->n, 1);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* ---- forced publish and foreign sets --------------------------------- */

START_TEST(test_force_publish_runs_only_forced) {
  event_log log = {{0}, 0};
  log_spec f1 = {&log, "a.forced1", 0}, f2 = {&log, "a.forced2", 0}, ps = {&log, "a.step", 0},
           pp = {&log, "a.periodic", 0}, pi = {&log, "a.init", 0}, fb = {&log, "b.forced", 0};
  teal_system *a = teal_leaf_new("a", NULL, NULL);
  teal_leaf_declare_per_step_publish(a, log_publish, &ps);
  teal_leaf_declare_forced_publish(a, log_publish, &f1);
  teal_leaf_declare_periodic_publish(a, 0.1, 0.0, log_publish, &pp);
  teal_leaf_declare_initialization_publish(a, log_publish, &pi);
  teal_leaf_declare_forced_publish(a, log_publish, &f2);
  ck_assert_int_eq(teal_leaf_finalize(a), TEAL_OK);
  teal_system *b = teal_leaf_new("b", NULL, NULL);
  teal_leaf_declare_forced_publish(b, log_publish, &fb);
  ck_assert_int_eq(teal_leaf_finalize(b), TEAL_OK);
  teal_system *d = build2("d", a, b);
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
  ASSERT_HAS(teal_context_error(ctx)->message, "d/b");
  /* wrong pairings */
  ck_assert_int_eq(teal_force_publish(a, ctx), TEAL_EINVAL);
  ck_assert_int_eq(teal_force_publish(d, NULL), TEAL_EINVAL);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_event_set_of_other_system_rejected) {
  xchg xa = {1.0, 0, 0, 0}, xb = {1.0, 0, 0, 0};
  teal_system *d = xchg_diagram(&xa, &xb, 1.0, 2.0);
  teal_context *ctx = teal_context_new(d, NULL);
  const teal_system *a = teal_diagram_find_subsystem(d, "A");
  teal_event_set *aset = teal_event_set_new(a); /* a subsystem's set */
  event_log log = {{0}, 0};
  log_spec spec = {&log, "o", 0};
  teal_system *other = publisher_new("other", &spec);
  teal_event_set *oset = teal_event_set_new(other);
  double next = 0.0;

  ck_assert_int_eq(teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, aset), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_EINVAL);
  ASSERT_HAS(teal_context_error(ctx)->message, "event set");
  ASSERT_HAS(teal_context_error(ctx)->message, "'pair'");
  ck_assert_int_eq(teal_calc_next_update_time(d, ctx, &next, oset), TEAL_EINVAL);
  ck_assert_int_eq(teal_dispatch_publish(d, ctx, oset), TEAL_EINVAL);
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, aset), TEAL_EINVAL);
  ASSERT_HAS(teal_context_error(ctx)->message, "event set");
  ck_assert_int_eq(teal_dispatch_unrestricted_updates(d, ctx, oset), TEAL_EINVAL);
  ASSERT_HAS(teal_context_error(ctx)->message, "event set");
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_dispatch_publish(d, ctx, NULL), TEAL_EINVAL);
  /* nothing ran and nothing changed */
  ck_assert_int_eq(log.calls, 0);
  ck_assert_double_eq(xd_of(ctx, "A"), 1.0);
  ck_assert_double_eq(xd_of(ctx, "B"), 2.0);

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
  ck_assert_double_eq(xd_of(ctx, "A"), 3.0); /* B.y (2) + 1 */
  ck_assert_double_eq(xd_of(ctx, "B"), 2.0);

  teal_context_free(octx);
  teal_event_set_free(dset);
  teal_event_set_free(oset);
  teal_event_set_free(aset);
  teal_system_free(other);
  teal_context_free(ctx);
  teal_system_free(d);
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

  tc = tcase_create("dispatch");
  tcase_add_test(tc, test_publish_in_subsystem_order);
  tcase_add_test(tc, test_publish_handler_errors);
  tcase_add_test(tc, test_discrete_two_phase_through_inputs);
  tcase_add_test(tc, test_discrete_two_phase_through_output_ports);
  tcase_add_test(tc, test_discrete_same_leaf_events_accumulate);
  tcase_add_test(tc, test_discrete_failure_changes_nothing);
  tcase_add_test(tc, test_outputs_recomputed_after_discrete_update);
  tcase_add_test(tc, test_unrestricted_updates_change_all_state);
  tcase_add_test(tc, test_unrestricted_failure_changes_nothing);
  tcase_add_test(tc, test_force_publish_runs_only_forced);
  tcase_add_test(tc, test_event_set_of_other_system_rejected);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(events_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
