/* Tests for framework/value.c: value type equality and the init/copy/free
 * hooks of abstract values in contexts (also when they fail). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"
#include "support/context_fixtures.h"
#include "support/test_support.h"

/* ---- value types ------------------------------------------------------ */

START_TEST(test_value_type_equal) {
  const teal_value_type pair_copy = {"pair", sizeof(ts_ctx_pair), NULL, NULL, NULL};
  const teal_value_type pair_other_size = {"pair", sizeof(ts_ctx_pair) + 8, NULL, NULL, NULL};
  const teal_value_type other_name = {"pear", sizeof(ts_ctx_pair), NULL, NULL, NULL};
  const teal_value_type nameless = {NULL, sizeof(ts_ctx_pair), NULL, NULL, NULL};
  ck_assert_int_ne(teal_value_type_equal(&ts_ctx_pair_type, &ts_ctx_pair_type), 0);
  ck_assert_int_ne(teal_value_type_equal(&ts_ctx_pair_type, &pair_copy), 0);
  ck_assert_int_eq(teal_value_type_equal(&ts_ctx_pair_type, &pair_other_size), 0);
  ck_assert_int_eq(teal_value_type_equal(&ts_ctx_pair_type, &other_name), 0);
  ck_assert_int_eq(teal_value_type_equal(&ts_ctx_pair_type, &nameless), 0);
  ck_assert_int_eq(teal_value_type_equal(&nameless, &ts_ctx_pair_type), 0);
  ck_assert_int_ne(teal_value_type_equal(&nameless, &nameless), 0);
  ck_assert_int_eq(teal_value_type_equal(&ts_ctx_pair_type, NULL), 0);
  ck_assert_int_eq(teal_value_type_equal(NULL, &ts_ctx_pair_type), 0);
  ck_assert_int_eq(teal_value_type_equal(&ts_ctx_pair_type, &ts_buf_type), 0);
}
END_TEST

START_TEST(test_value_hooks) {
  /* no hooks: zero fill and memcpy */
  ts_ctx_pair p = {9.0, 9.0}, q = {1.0, 2.0};
  ck_assert_int_eq(teal_value_init(&ts_ctx_pair_type, &p), TEAL_OK);
  ck_assert(p.a == 0.0 && p.b == 0.0);
  ck_assert_int_eq(teal_value_copy(&ts_ctx_pair_type, &p, &q), TEAL_OK);
  ck_assert(p.a == 1.0 && p.b == 2.0);
  teal_value_release(&ts_ctx_pair_type, &p);
  ck_assert(p.a == 1.0); /* nothing to release */
  /* hooks */
  ts_buf a, b;
  ck_assert_int_eq(teal_value_init(&ts_buf_type, &a), TEAL_OK);
  ck_assert_int_eq(teal_value_init(&ts_buf_type, &b), TEAL_OK);
  ck_assert_int_eq(a.n, 0);
  ck_assert_int_eq(a.cap, TS_BUF_INIT_CAP);
  const double v[6] = {1, 2, 3, 4, 5, 6};
  ck_assert_int_eq(ts_buf_assign(&a, v, 6), TEAL_OK);
  long copies = ts_buf_stats_get()->copies;
  ck_assert_int_eq(teal_value_copy(&ts_buf_type, &b, &a), TEAL_OK);
  ck_assert_int_eq(ts_buf_stats_get()->copies, copies + 1);
  ts_ctx_assert_buf(&b, v, 6);
  ck_assert_ptr_ne(a.data, b.data);
  /* copying a value onto itself is a no-op that succeeds */
  ck_assert_int_eq(teal_value_copy(&ts_buf_type, &b, &b), TEAL_OK);
  ts_ctx_assert_buf(&b, v, 6);
  teal_value_release(&ts_buf_type, &a);
  teal_value_release(&ts_buf_type, &b);
  teal_value_release(&ts_buf_type, NULL); /* ignored */
  ck_assert_int_eq(ts_buf_stats_get()->live, 0);
  ts_ctx_assert_all_freed();
}
END_TEST

/* A type whose hooks fail on demand. */
static int flaky_init_fail, flaky_copy_fail, flaky_live;

static int flaky_init(void *dst) {
  if (flaky_init_fail > 0 && --flaky_init_fail == 0) {
    return TEAL_ENOMEM;
  }
  *(void **)dst = teal_alloc(8);
  if (*(void **)dst) {
    flaky_live++;
  }
  return *(void **)dst ? TEAL_OK : TEAL_ENOMEM;
}

static int flaky_copy(void *dst, const void *src) {
  (void)dst;
  (void)src;
  if (flaky_copy_fail > 0 && --flaky_copy_fail == 0) {
    return TEAL_EIO;
  }
  return TEAL_OK;
}

static void flaky_free(void *value) {
  if (*(void **)value) {
    teal_free(*(void **)value);
    flaky_live--;
  }
  *(void **)value = NULL;
}

static const teal_value_type flaky_type = {"flaky", sizeof(void *), flaky_init, flaky_copy,
                                           flaky_free};

static teal_system *flaky_leaf_new(void) {
  teal_system *sys = teal_leaf_new("flaky_leaf", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &flaky_type, NULL), 0);
  ck_assert_int_eq(teal_leaf_declare_abstract_input(sys, "in", &flaky_type), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  return sys;
}

START_TEST(test_failing_value_hooks) {
  flaky_init_fail = flaky_copy_fail = flaky_live = 0;
  /* model copy fails at declaration */
  teal_system *bad = teal_leaf_new("bad", NULL, NULL);
  void *model = NULL;
  flaky_copy_fail = 1;
  ck_assert_int_eq(teal_leaf_declare_abstract_state(bad, &flaky_type, &model), TEAL_EIO);
  ck_assert_ptr_nonnull(strstr(teal_system_error(bad)->message, "flaky"));
  ck_assert_int_eq(teal_leaf_finalize(bad), TEAL_EIO);
  teal_system_free(bad);
  ck_assert_int_eq(flaky_live, 0);

  teal_system *sys = flaky_leaf_new();
  /* every init of the context's values may fail: no context, nothing leaked */
  for (int k = 1; k <= 6; k++) {
    flaky_init_fail = k;
    teal_error err;
    teal_error_clear(&err);
    teal_context *ctx = teal_context_new(sys, &err);
    if (ctx) {
      ck_assert_int_gt(flaky_init_fail, 0); /* fewer inits than k */
      teal_context_free(ctx);
    } else {
      ck_assert_int_eq(err.code, TEAL_ENOMEM);
      ck_assert_ptr_nonnull(strstr(err.message, "flaky_leaf"));
    }
    flaky_init_fail = 0;
    ck_assert_int_eq(flaky_live, 1); /* the model only */
  }
  teal_context *ctx = ts_ctx_new_ctx(sys);
  void *value = NULL;
  /* copy failures surface with their code */
  flaky_copy_fail = 1;
  ck_assert_int_eq(teal_context_set_abstract_state(ctx, 0, &value), TEAL_EIO);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_EIO, "flaky_leaf");
  flaky_copy_fail = 1;
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, 0, &value), TEAL_EIO);
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 0), 0);
  flaky_copy_fail = 1;
  ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_EIO);
  teal_context *other = ts_ctx_new_ctx(sys);
  flaky_copy_fail = 1;
  ck_assert_int_eq(teal_context_copy_from(other, ctx), TEAL_EIO);
  ck_assert_int_eq(teal_context_error(other)->code, TEAL_EIO);
  teal_context_free(other);
  flaky_copy_fail = 2; /* clone: the new context's defaults copy, then the state copy */
  teal_error err;
  teal_error_clear(&err);
  teal_context *copy = teal_context_clone(ctx, &err);
  ck_assert_ptr_null(copy);
  ck_assert_int_eq(err.code, TEAL_EIO);
  flaky_copy_fail = 0;
  teal_context_free(ctx);
  teal_system_free(sys);
  ck_assert_int_eq(flaky_live, 0);
  ts_ctx_assert_all_freed();
}
END_TEST

static Suite *value_suite(void) {
  Suite *s = suite_create("value");
  TCase *tc = tcase_create("values");
  tcase_add_checked_fixture(tc, ts_ctx_setup, ts_ctx_teardown);
  tcase_add_test(tc, test_value_type_equal);
  tcase_add_test(tc, test_value_hooks);
  tcase_add_test(tc, test_failing_value_hooks);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(value_suite());
}
