/* Tests for framework/alloc.h: allocator hooks, and that systems and
 * contexts allocate only through them and free everything they allocate. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"
#include "support/test_support.h"

static void teardown(void) { ts_alloc_uninstall(); }

START_TEST(test_alloc_goes_through_hook) {
  ts_alloc_install();
  unsigned long before = teal_alloc_count();
  void *p = teal_alloc(24);
  ck_assert_ptr_nonnull(p);
  ck_assert_uint_eq(ts_alloc_allocs(), 1);
  ck_assert_uint_eq(ts_alloc_stats_get()->bytes, 24);
  ck_assert_uint_eq(teal_alloc_count(), before + 1);
  memset(p, 0xab, 24); /* the block really has 24 usable bytes (ASan) */
  teal_free(p);
  ck_assert_uint_eq(ts_alloc_frees(), 1);
  teal_free(NULL); /* ignored: must not crash */
  ck_assert_uint_eq(ts_alloc_allocs(), 1);
}
END_TEST

START_TEST(test_hook_receives_user_pointer) {
  ts_alloc_install();
  void *p = teal_alloc(8);
  ck_assert_ptr_eq(ts_alloc_stats_get()->last_user, (void *)ts_alloc_stats_get());
  teal_free(p);
  ck_assert_ptr_eq(ts_alloc_stats_get()->last_user, (void *)ts_alloc_stats_get());
}
END_TEST

START_TEST(test_alloc_zero_gives_unique_pointers) {
  ts_alloc_install();
  void *a = teal_alloc(0);
  void *b = teal_alloc(0);
  ck_assert_ptr_nonnull(a);
  ck_assert_ptr_nonnull(b);
  ck_assert_ptr_ne(a, b);
  ck_assert_uint_eq(ts_alloc_allocs(), 2);
  teal_free(a);
  teal_free(b);
  ck_assert_uint_eq(ts_alloc_frees(), 2);
}
END_TEST

START_TEST(test_calloc_zeroes_and_uses_hook) {
  ts_alloc_install();
  unsigned long before = teal_alloc_count();
  double *d = teal_calloc(16, sizeof *d);
  ck_assert_ptr_nonnull(d);
  ck_assert_uint_eq(ts_alloc_allocs(), 1);
  ck_assert_uint_eq(ts_alloc_stats_get()->bytes, 16 * sizeof *d);
  ck_assert_uint_eq(teal_alloc_count(), before + 1);
  for (int i = 0; i < 16; i++) {
    ck_assert(d[i] == 0.0);
  }
  teal_free(d);
  ck_assert_uint_eq(ts_alloc_frees(), 1);
}
END_TEST

START_TEST(test_calloc_zero_count) {
  ts_alloc_install();
  void *p = teal_calloc(0, 8);
  void *q = teal_calloc(8, 0);
  ck_assert_ptr_nonnull(p);
  ck_assert_ptr_nonnull(q);
  ck_assert_ptr_ne(p, q);
  teal_free(p);
  teal_free(q);
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
}
END_TEST

START_TEST(test_calloc_overflow_returns_null) {
  ts_alloc_install();
  ck_assert_ptr_null(teal_calloc(SIZE_MAX / 2 + 1, 2));
  ck_assert_ptr_null(teal_calloc(2, SIZE_MAX / 2 + 1));
  ck_assert_ptr_null(teal_calloc(SIZE_MAX, SIZE_MAX));
  ck_assert_ptr_null(teal_calloc((size_t)1 << (sizeof(size_t) * 4),
                                 (size_t)1 << (sizeof(size_t) * 4)));
  /* the overflowing request never reached the hook */
  ck_assert_uint_eq(ts_alloc_stats_get()->calls, 0);
  ck_assert_uint_eq(ts_alloc_allocs(), 0);
}
END_TEST

START_TEST(test_strdup_goes_through_hook) {
  ts_alloc_install();
  char *s = teal_strdup("pendulum");
  ck_assert_ptr_nonnull(s);
  ck_assert_str_eq(s, "pendulum");
  ck_assert_uint_eq(ts_alloc_allocs(), 1);
  ck_assert_uint_eq(ts_alloc_stats_get()->bytes, strlen("pendulum") + 1);
  char *e = teal_strdup("");
  ck_assert_ptr_nonnull(e);
  ck_assert_str_eq(e, "");
  ck_assert_ptr_ne(e, s);
  teal_free(s);
  teal_free(e);
  ck_assert_uint_eq(ts_alloc_frees(), 2);
}
END_TEST

START_TEST(test_strdup_null) {
  ts_alloc_install();
  ck_assert_ptr_null(teal_strdup(NULL));
  ck_assert_uint_eq(ts_alloc_stats_get()->calls, 0);
}
END_TEST

START_TEST(test_failing_hook_gives_null) {
  ts_alloc_install();
  ts_alloc_fail_after(0, 1);
  ck_assert_ptr_null(teal_alloc(10));
  ck_assert_ptr_null(teal_calloc(3, 4));
  ck_assert_ptr_null(teal_strdup("abc"));
  ck_assert_uint_eq(ts_alloc_stats_get()->failures, 3);
  ck_assert_uint_eq(ts_alloc_allocs(), 0);
}
END_TEST

START_TEST(test_null_hooks_rejected) {
  teal_allocator good = ts_alloc_allocator();
  teal_allocator no_alloc = good, no_free = good, none = {NULL, NULL, NULL};
  no_alloc.alloc_fn = NULL;
  no_free.free_fn = NULL;
  ck_assert_int_eq(teal_set_allocator(&no_alloc), TEAL_EINVAL);
  ck_assert_int_eq(teal_set_allocator(&no_free), TEAL_EINVAL);
  ck_assert_int_eq(teal_set_allocator(&none), TEAL_EINVAL);
  /* a rejected allocator is not installed: the default one still serves */
  ts_alloc_reset();
  void *p = teal_alloc(4);
  ck_assert_ptr_nonnull(p);
  ck_assert_uint_eq(ts_alloc_stats_get()->calls, 0);
  teal_free(p);
  ck_assert_uint_eq(ts_alloc_frees(), 0);
}
END_TEST

START_TEST(test_rejected_hooks_keep_previous_allocator) {
  ts_alloc_install();
  teal_allocator bad = ts_alloc_allocator();
  bad.free_fn = NULL;
  ck_assert_int_eq(teal_set_allocator(&bad), TEAL_EINVAL);
  void *p = teal_alloc(4);
  ck_assert_uint_eq(ts_alloc_allocs(), 1);
  teal_free(p);
  ck_assert_uint_eq(ts_alloc_frees(), 1);
}
END_TEST

START_TEST(test_restore_with_null) {
  ts_alloc_install();
  void *p = teal_alloc(4);
  teal_free(p);
  ck_assert_uint_eq(ts_alloc_allocs(), 1);
  ck_assert_int_eq(teal_set_allocator(NULL), TEAL_OK);
  unsigned long before = teal_alloc_count();
  p = teal_alloc(4);
  ck_assert_ptr_nonnull(p);
  char *s = teal_strdup("x");
  ck_assert_ptr_nonnull(s);
  teal_free(s);
  teal_free(p);
  ck_assert_uint_eq(ts_alloc_stats_get()->calls, 1);
  ck_assert_uint_eq(ts_alloc_frees(), 1);
  /* the cheap counter keeps counting with the default allocator */
  ck_assert_uint_eq(teal_alloc_count(), before + 2);
}
END_TEST

/* ---- systems and contexts through the hooks -------------------------- */

static int out_q(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_q(ctx)[0] + teal_context_numeric_parameter(ctx, 0)[0];
  return TEAL_OK;
}

static int deriv(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xdot,
                 void *user) {
  (void)sys;
  (void)user;
  xdot->q[0] = teal_context_v(ctx)[0];
  xdot->v[0] = -teal_context_q(ctx)[0];
  return TEAL_OK;
}

static int buf_out(const teal_system *sys, const teal_context *ctx, void *out, void *user) {
  (void)sys;
  (void)user;
  double x = teal_context_q(ctx)[0];
  return ts_buf_assign(out, &x, 1);
}

static int publish_nop(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  return TEAL_OK;
}

static int user_frees;
static void user_free_fn(void *p) {
  user_frees++;
  teal_free(p);
}

/* A leaf using most declaration kinds; NULL when out of memory. */
static teal_system *make_rich_leaf(const char *name) {
  void *user = teal_alloc(32);
  if (!user) {
    return NULL;
  }
  teal_system *sys = teal_leaf_new(name, user, user_free_fn);
  if (!sys) {
    return NULL;
  }
  double x0[2] = {1.0, 2.0}, xd0[3] = {3, 4, 5}, p0[2] = {6, 7};
  teal_ticket q_only = TEAL_TICKET_Q;
  teal_ticket entry_deps[2] = {teal_ticket_input(0), TEAL_TICKET_TIME};
  ts_buf model;
  memset(&model, 0, sizeof model);
  double mv[6] = {1, 2, 3, 4, 5, 6};
  int model_ok = ts_buf_assign(&model, mv, 6) == TEAL_OK;
  teal_leaf_declare_vector_input(sys, "u", 2);
  teal_leaf_declare_abstract_input(sys, "msg", &ts_buf_type);
  teal_leaf_declare_vector_output(sys, "y", 1, out_q, NULL, &q_only, 1);
  teal_leaf_declare_abstract_output(sys, "buf", &ts_buf_type, buf_out, NULL, &q_only, 1);
  teal_leaf_declare_continuous_state(sys, 1, 1, 0, x0);
  teal_leaf_declare_discrete_state(sys, 3, xd0);
  teal_leaf_declare_discrete_state(sys, 1, NULL);
  teal_leaf_declare_numeric_parameter(sys, 2, p0);
  if (model_ok) { /* (out of memory for the model itself: declare one less) */
    teal_leaf_declare_abstract_state(sys, &ts_buf_type, &model);
  }
  ts_buf_release(&model);
  teal_leaf_declare_cache_entry(sys, "e", 2, out_q, NULL, entry_deps, 2);
  teal_leaf_set_time_derivatives(sys, deriv, NULL);
  teal_leaf_declare_periodic_publish(sys, 0.1, 0.0, publish_nop, NULL);
  teal_leaf_declare_forced_publish(sys, publish_nop, NULL);
  teal_leaf_finalize(sys);
  return sys;
}

START_TEST(test_leaf_and_context_allocate_through_hook) {
  ts_alloc_install();
  ts_buf_stats_reset();
  user_frees = 0;
  teal_system *sys = make_rich_leaf("rich");
  ck_assert_ptr_nonnull(sys);
  ck_assert_int_eq(teal_system_error(sys)->code, TEAL_OK);
  unsigned long after_leaf = ts_alloc_allocs();
  ck_assert_uint_gt(after_leaf, 0);
  teal_error err;
  teal_context *ctx = teal_context_new(sys, &err);
  ck_assert_msg(ctx != NULL, "%s", err.message);
  ck_assert_uint_gt(ts_alloc_allocs(), after_leaf);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert(y[0] == 1.0 + 6.0);
  const void *b;
  ck_assert_int_eq(teal_eval_abstract_output(sys, ctx, 1, &b), TEAL_OK);
  ck_assert_int_eq(((const ts_buf *)b)->n, 1);
  teal_context_free(ctx);
  teal_system_free(sys);
  ck_assert_int_eq(user_frees, 1);
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  ck_assert_int_eq(ts_buf_stats_get()->live, 0);
}
END_TEST

START_TEST(test_clone_and_diagram_free_everything) {
  ts_alloc_install();
  ts_buf_stats_reset();
  teal_builder *b = teal_builder_new("top");
  teal_builder *ib = teal_builder_new("inner");
  double one = 1.0;
  teal_system *c = teal_builder_add(ib, ts_constant_new("c", 1, &one));
  teal_system *g = teal_builder_add(ib, ts_gain_new("g", 1, 2.0));
  ck_assert_int_eq(teal_builder_connect(ib, teal_system_output_port(c, 0),
                                        teal_system_input_port(g, 0)), TEAL_OK);
  ck_assert_int_ge(teal_builder_export_output(ib, teal_system_output_port(g, 0), "y"), 0);
  teal_error err;
  teal_system *inner = teal_builder_build(ib, &err);
  ck_assert_msg(inner != NULL, "%s", err.message);
  teal_builder_add(b, inner);
  teal_builder_add(b, make_rich_leaf("rich"));
  teal_system *top = teal_builder_build(b, &err);
  ck_assert_msg(top != NULL, "%s", err.message);
  teal_context *ctx = teal_context_new(top, &err);
  ck_assert_msg(ctx != NULL, "%s", err.message);
  teal_context *copy = teal_context_clone(ctx, &err);
  ck_assert_msg(copy != NULL, "%s", err.message);
  const double *y;
  const teal_context *ictx = teal_context_subcontext(copy, inner);
  ck_assert_int_eq(teal_eval_vector_output(inner, ictx, 0, &y), TEAL_OK);
  ck_assert(y[0] == 2.0);
  teal_context_free(copy);
  teal_context_free(ctx);
  teal_system_free(top);
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  ck_assert_int_eq(ts_buf_stats_get()->live, 0);
}
END_TEST

/* Every single allocation failure while declaring a leaf and creating its
 * context must fail cleanly: no crash, a NULL or error result, nothing
 * leaked. */
START_TEST(test_out_of_memory_anywhere_leaks_nothing) {
  ts_alloc_install();
  ts_buf_stats_reset();
  teal_system *sys = make_rich_leaf("probe");
  teal_error err;
  teal_context *ctx = teal_context_new(sys, &err);
  ck_assert_ptr_nonnull(ctx);
  teal_context_free(ctx);
  teal_system_free(sys);
  unsigned long total = ts_alloc_allocs();
  ck_assert_uint_gt(total, 10);
  int failures_seen = 0;
  for (unsigned long k = 0; k < total; k++) {
    ts_alloc_reset();
    ts_buf_stats_reset();
    user_frees = 0;
    ts_alloc_fail_after((long)k, 0);
    sys = make_rich_leaf("probe");
    ctx = NULL;
    teal_error_clear(&err);
    if (sys && teal_system_error(sys)->code == TEAL_OK) {
      ctx = teal_context_new(sys, &err);
      if (!ctx) {
        ck_assert_int_eq(err.code, TEAL_ENOMEM);
      }
    } else if (sys) {
      ck_assert_int_eq(teal_system_error(sys)->code, TEAL_ENOMEM);
    }
    if (ctx) {
      teal_context_free(ctx);
    } else {
      failures_seen++;
    }
    teal_system_free(sys);
    ck_assert_msg(ts_alloc_stats_get()->failures == 1, "allocation %lu was not reached", k);
    ck_assert_msg(ts_alloc_allocs() == ts_alloc_frees(),
                  "failing allocation %lu: %lu allocs but %lu frees", k, ts_alloc_allocs(),
                  ts_alloc_frees());
    ck_assert_int_eq(ts_buf_stats_get()->live, 0);
  }
  ck_assert_int_gt(failures_seen, 0);
}
END_TEST

/* outer { inner { c -> g (exported y) }, rich, integ } with inner.y ->
 * integ.u and integ.y exported; then its context and a clone. Every step
 * tolerates an earlier failure (NULL builders and systems are accepted). */
static int make_diagram_and_contexts(void) {
  teal_builder *ib = teal_builder_new("inner");
  double one = 1.0;
  teal_system *c = teal_builder_add(ib, ts_constant_new("c", 1, &one));
  teal_system *g = teal_builder_add(ib, ts_gain_new("g", 1, 2.0));
  if (c && g) {
    teal_builder_connect(ib, teal_system_output_port(c, 0), teal_system_input_port(g, 0));
    teal_builder_export_output(ib, teal_system_output_port(g, 0), "y");
  }
  teal_system *inner = teal_builder_build(ib, NULL);
  teal_builder *ob = teal_builder_new("outer");
  teal_system *in = teal_builder_add(ob, inner);
  teal_builder_add(ob, make_rich_leaf("rich"));
  teal_system *integ = teal_builder_add(ob, ts_integrator_new("integ", 1, NULL));
  if (in && integ) {
    teal_builder_connect(ob, teal_system_output_port(in, 0), teal_system_input_port(integ, 0));
    teal_builder_export_output(ob, teal_system_output_port(integ, 0), NULL);
  }
  teal_system *d = teal_builder_build(ob, NULL);
  teal_context *ctx = teal_context_new(d, NULL);
  teal_context *copy = teal_context_clone(ctx, NULL);
  int ok = d && ctx && copy;
  if (ok) {
    const double *y;
    ck_assert_int_eq(teal_eval_vector_output(d, copy, 0, &y), TEAL_OK);
  }
  teal_context_free(copy);
  teal_context_free(ctx);
  teal_system_free(d);
  return ok;
}

START_TEST(test_out_of_memory_in_diagram_leaks_nothing) {
  ts_alloc_install();
  ts_buf_stats_reset();
  ck_assert_int_eq(make_diagram_and_contexts(), 1);
  unsigned long total = ts_alloc_allocs();
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  ck_assert_uint_gt(total, 50);
  for (unsigned long k = 0; k < total; k++) {
    ts_alloc_reset();
    ts_buf_stats_reset();
    ts_alloc_fail_after((long)k, 0);
    make_diagram_and_contexts();
    ck_assert_msg(ts_alloc_stats_get()->failures == 1, "allocation %lu was not reached", k);
    ck_assert_msg(ts_alloc_allocs() == ts_alloc_frees(),
                  "failing allocation %lu: %lu allocs but %lu frees", k, ts_alloc_allocs(),
                  ts_alloc_frees());
    ck_assert_int_eq(ts_buf_stats_get()->live, 0);
  }
}
END_TEST

/* teal_leaf_new calls user_free when it cannot allocate. */
START_TEST(test_leaf_new_out_of_memory_calls_user_free) {
  ts_alloc_install();
  for (long k = 0; k < 2; k++) {
    ts_alloc_reset();
    user_frees = 0;
    void *user = teal_alloc(16);
    ck_assert_ptr_nonnull(user);
    ts_alloc_fail_after(k, 0);
    teal_system *sys = teal_leaf_new("name", user, user_free_fn);
    ck_assert_ptr_null(sys);
    ck_assert_int_eq(user_frees, 1);
    ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  }
}
END_TEST

static Suite *alloc_suite(void) {
  Suite *s = suite_create("alloc");
  TCase *tc = tcase_create("hooks");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, test_alloc_goes_through_hook);
  tcase_add_test(tc, test_hook_receives_user_pointer);
  tcase_add_test(tc, test_alloc_zero_gives_unique_pointers);
  tcase_add_test(tc, test_calloc_zeroes_and_uses_hook);
  tcase_add_test(tc, test_calloc_zero_count);
  tcase_add_test(tc, test_calloc_overflow_returns_null);
  tcase_add_test(tc, test_strdup_goes_through_hook);
  tcase_add_test(tc, test_strdup_null);
  tcase_add_test(tc, test_failing_hook_gives_null);
  tcase_add_test(tc, test_null_hooks_rejected);
  tcase_add_test(tc, test_rejected_hooks_keep_previous_allocator);
  tcase_add_test(tc, test_restore_with_null);
  suite_add_tcase(s, tc);
  tc = tcase_create("objects");
  tcase_add_checked_fixture(tc, NULL, teardown);
  tcase_add_test(tc, test_leaf_and_context_allocate_through_hook);
  tcase_add_test(tc, test_clone_and_diagram_free_everything);
  tcase_add_test(tc, test_out_of_memory_anywhere_leaks_nothing);
  tcase_add_test(tc, test_leaf_new_out_of_memory_calls_user_free);
  tcase_add_test(tc, test_out_of_memory_in_diagram_leaks_nothing);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(alloc_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
