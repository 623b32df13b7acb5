/* Replacing a built leaf's default state (framework/leaf_defaults.h):
 * contexts made afterwards and teal_context_set_to_defaults use the new
 * values, existing contexts keep theirs, also inside a diagram; bad
 * arguments fail with their codes and messages and change nothing. */
#include <check.h>
#include <math.h>

#include "framework/context.h"
#include "framework/context_access.h"
#include "framework/diagram_builder.h"
#include "framework/leaf_defaults.h"
#include "framework/leaf_system.h"
#include "framework/system.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* Derivatives that are never evaluated here. */
static int no_derivatives(const teal_system *sys, const teal_context *ctx,
                          teal_continuous_view *xcdot, void *user) {
  (void)sys, (void)ctx, (void)xcdot, (void)user;
  return TEAL_EUNSUPPORTED;
}

/* A leaf with continuous state (nq 2, nv 2, nz 1) and discrete groups of
 * sizes 2 and 3. */
static teal_system *make_leaf(void) {
  teal_system *sys = teal_leaf_new("leaf", NULL, NULL);
  const double xc[5] = {1, 2, 3, 4, 5}, d0[2] = {5, 6}, d1[3] = {7, 8, 9};
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 2, 2, 1, xc), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, no_derivatives, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 2, d0), 0);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 3, d1), 1);
  ck_assert_msg(teal_leaf_finalize(sys) == TEAL_OK, "%s", teal_system_error(sys)->message);
  return sys;
}

static void expect_values(const double *x, const double *want, int n) {
  for (int i = 0; i < n; i++) {
    ck_assert_double_eq(x[i], want[i]);
  }
}

START_TEST(test_new_defaults_reach_later_contexts) {
  teal_system *sys = make_leaf();
  teal_context *before = teal_context_new(sys, NULL);
  const double xc[5] = {-1, -2, -3, -4, -5}, d1[3] = {-7, -8, -9}, old_xc[5] = {1, 2, 3, 4, 5};
  ck_assert_int_eq(teal_leaf_set_default_continuous_state(sys, xc, 5, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_default_discrete_state(sys, 1, d1, 3, NULL), TEAL_OK);
  teal_context *after = teal_context_new(sys, NULL);
  expect_values(teal_context_continuous_state(after), xc, 5);
  expect_values(teal_context_discrete_group(after, 1), d1, 3);
  const double d0[2] = {5, 6};
  expect_values(teal_context_discrete_group(after, 0), d0, 2);
  expect_values(teal_context_continuous_state(before), old_xc, 5);
  ck_assert_int_eq(teal_context_set_to_defaults(before), TEAL_OK);
  expect_values(teal_context_continuous_state(before), xc, 5);
  expect_values(teal_context_discrete_group(before, 1), d1, 3);
  teal_context_free(before);
  teal_context_free(after);
  teal_system_free(sys);
}
END_TEST

/* The leaf inside a diagram: a diagram context made afterwards holds the
 * new default in the leaf's subcontext. */
START_TEST(test_inside_diagram) {
  teal_system *leaf = make_leaf();
  teal_builder *b = teal_builder_new("d");
  ck_assert_ptr_nonnull(teal_builder_add(b, leaf));
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  const double xc[5] = {10, 20, 30, 40, 50};
  ck_assert_int_eq(teal_leaf_set_default_continuous_state(leaf, xc, 5, NULL), TEAL_OK);
  teal_context *ctx = teal_context_new(d, NULL);
  expect_values(teal_context_continuous_state(ctx), xc, 5);
  teal_context_free(ctx);
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_leaf_set_default_continuous_state(d, xc, 5, &err), TEAL_EINVAL, &err,
                  "'d' is a diagram, not a leaf");
  teal_system_free(d);
}
END_TEST

START_TEST(test_errors_change_nothing) {
  teal_system *sys = make_leaf();
  const double bad[5] = {1, NAN, 3, 4, 5}, three[3] = {0, 0, 0}, old_xc[5] = {1, 2, 3, 4, 5};
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_leaf_set_default_continuous_state(sys, bad, 5, &err), TEAL_ENONFINITE, &err,
                  "value 1 for 'leaf' is not finite");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_leaf_set_default_continuous_state(sys, three, 3, &err), TEAL_ESIZE, &err,
                  "'leaf' has 5 values there, got 3");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_leaf_set_default_discrete_state(sys, 2, three, 3, &err), TEAL_ENOTFOUND,
                  &err, "no discrete group 2");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_leaf_set_default_discrete_state(sys, 0, three, 3, &err), TEAL_ESIZE, &err,
                  "has 2 values there, got 3");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_leaf_set_default_continuous_state(sys, NULL, 5, &err), TEAL_EINVAL, &err,
                  "NULL values");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_leaf_set_default_discrete_state(NULL, 0, three, 2, &err), TEAL_EINVAL, &err,
                  "NULL system");
  ck_assert_int_eq(teal_system_error(sys)->code, TEAL_OK); /* nothing sticky */
  teal_context *ctx = teal_context_new(sys, NULL);
  expect_values(teal_context_continuous_state(ctx), old_xc, 5);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

int main(void) {
  Suite *s = suite_create("leaf_defaults");
  TCase *tc = tcase_create("leaf_defaults");
  tcase_add_test(tc, test_new_defaults_reach_later_contexts);
  tcase_add_test(tc, test_inside_diagram);
  tcase_add_test(tc, test_errors_change_nothing);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
