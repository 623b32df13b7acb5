/* Tests for framework/context.c: defaults, independent contexts, construction
 * errors, clone/copy_from/set_to_defaults (of leaves and diagrams) and error
 * reports. */
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

/* ---- defaults --------------------------------------------------------- */

START_TEST(test_defaults) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  ck_assert_ptr_eq(teal_context_system(ctx), sys);
  ck_assert_int_eq(teal_context_is_root(ctx), 1);
  ck_assert(teal_context_time(ctx) == 0.0);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_OK);

  ts_ctx_assert_doubles(teal_context_continuous_state(ctx), ts_ctx_k_x0, 5);
  ts_ctx_assert_doubles(teal_context_q(ctx), ts_ctx_k_x0, 2);
  ts_ctx_assert_doubles(teal_context_v(ctx), ts_ctx_k_x0 + 2, 2);
  ts_ctx_assert_doubles(teal_context_z(ctx), ts_ctx_k_x0 + 4, 1);

  ts_ctx_assert_doubles(teal_context_discrete_group(ctx, 0), ts_ctx_k_g0, 2);
  ts_ctx_assert_doubles(teal_context_discrete_group(ctx, 1), ts_ctx_k_g1, 3);
  const double all_xd[5] = {10, 11, 20, 21, 22};
  ts_ctx_assert_doubles(teal_context_discrete_state(ctx), all_xd, 5);

  ts_ctx_assert_buf(teal_context_abstract_state(ctx, 0), ts_ctx_k_model, 3);
  const ts_ctx_pair *p = teal_context_abstract_state(ctx, 1);
  ck_assert_ptr_nonnull(p);
  ck_assert(p->a == 1.5 && p->b == 2.5);

  ts_ctx_assert_doubles(teal_context_numeric_parameter(ctx, 0), ts_ctx_k_p0, 2);
  ts_ctx_assert_doubles(teal_context_numeric_parameter(ctx, 1), ts_ctx_k_p1, 1);

  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 0), 0);
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 1), 0);
  teal_context_free(ctx);
  teal_system_free(sys);
  ts_ctx_assert_all_freed();
}
END_TEST

START_TEST(test_two_contexts_are_independent) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *a = ts_ctx_new_ctx(sys);
  teal_context *b = ts_ctx_new_ctx(sys);
  teal_context_q_mut(a)[0] = 42.0;
  ts_buf *ba = teal_context_abstract_state_mut(a, 0);
  ba->data[0] = 43.0;
  ck_assert(teal_context_q(b)[0] == 1.0);
  ts_ctx_assert_buf(teal_context_abstract_state(b, 0), ts_ctx_k_model, 3);
  ck_assert_ptr_ne(((const ts_buf *)teal_context_abstract_state(b, 0))->data, ba->data);
  teal_context_free(a);
  teal_context_free(b);
  teal_system_free(sys);
  ts_ctx_assert_all_freed();
}
END_TEST

START_TEST(test_context_new_errors) {
  teal_error err;
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_context_new(NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_context_new(NULL, NULL));

  teal_system *sys = teal_leaf_new("unfinished", NULL, NULL);
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_context_new(sys, &err));
  ck_assert_int_eq(err.code, TEAL_ESTATE);
  ck_assert_ptr_nonnull(strstr(err.message, "unfinished"));
  ck_assert_ptr_null(teal_context_new(sys, NULL));
  teal_system_free(sys);

  /* a system owned by a diagram has no context of its own */
  teal_builder *b = teal_builder_new("d");
  teal_system *g = teal_builder_add(b, ts_gain_new("g", 1, 1.0));
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_ptr_nonnull(d);
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_context_new(g, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "'g'"));
  teal_system_free(d);
  teal_context_free(NULL); /* ignored */
  ts_ctx_assert_all_freed();
}
END_TEST

/* ---- clone, copy_from, set_to_defaults -------------------------------- */

/* Changes every value of a full-leaf context away from its default. */
static void scramble(teal_context *ctx, double base) {
  ck_assert_int_eq(teal_context_set_time(ctx, base + 0.5), TEAL_OK);
  ck_assert_int_eq(teal_context_set_accuracy(ctx, 1e-4), TEAL_OK);
  double x[5] = {base + 1, base + 2, base + 3, base + 4, base + 5};
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, x, 5), TEAL_OK);
  double g0[2] = {base + 6, base + 7}, g1[3] = {base + 8, base + 9, base + 10};
  ck_assert_int_eq(teal_context_set_discrete_group(ctx, 0, g0, 2), TEAL_OK);
  ck_assert_int_eq(teal_context_set_discrete_group(ctx, 1, g1, 3), TEAL_OK);
  double p0[2] = {base + 11, base + 12}, p1[1] = {base + 13};
  ck_assert_int_eq(teal_context_set_numeric_parameter(ctx, 0, p0, 2), TEAL_OK);
  ck_assert_int_eq(teal_context_set_numeric_parameter(ctx, 1, p1, 1), TEAL_OK);
  double xa[4] = {base + 14, base + 15, base + 16, base + 17};
  ts_buf b;
  memset(&b, 0, sizeof b);
  ck_assert_int_eq(ts_buf_assign(&b, xa, 4), TEAL_OK);
  ck_assert_int_eq(teal_context_set_abstract_state(ctx, 0, &b), TEAL_OK);
  ts_ctx_pair pr = {base + 18, base + 19};
  ck_assert_int_eq(teal_context_set_abstract_state(ctx, 1, &pr), TEAL_OK);
  double u[2] = {base + 20, base + 21};
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, u, 2), TEAL_OK);
  double m[2] = {base + 22, base + 23};
  ck_assert_int_eq(ts_buf_assign(&b, m, 2), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, 1, &b), TEAL_OK);
  ts_buf_release(&b);
}

/* Checks the values scramble(ctx, base) wrote. */
static void assert_scrambled(const teal_system *sys, const teal_context *ctx, double base) {
  ck_assert(teal_context_time(ctx) == base + 0.5);
  ck_assert(teal_context_accuracy(ctx) == 1e-4);
  const double x[5] = {base + 1, base + 2, base + 3, base + 4, base + 5};
  ts_ctx_assert_doubles(teal_context_continuous_state(ctx), x, 5);
  const double xd[5] = {base + 6, base + 7, base + 8, base + 9, base + 10};
  ts_ctx_assert_doubles(teal_context_discrete_state(ctx), xd, 5);
  const double p0[2] = {base + 11, base + 12}, p1[1] = {base + 13};
  ts_ctx_assert_doubles(teal_context_numeric_parameter(ctx, 0), p0, 2);
  ts_ctx_assert_doubles(teal_context_numeric_parameter(ctx, 1), p1, 1);
  const double xa[4] = {base + 14, base + 15, base + 16, base + 17};
  ts_ctx_assert_buf(teal_context_abstract_state(ctx, 0), xa, 4);
  const ts_ctx_pair *pr = teal_context_abstract_state(ctx, 1);
  ck_assert(pr->a == base + 18 && pr->b == base + 19);
  const double *u;
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 0), 1);
  ck_assert_int_eq(teal_eval_vector_input(sys, ctx, 0, &u), TEAL_OK);
  ck_assert(u[0] == base + 20 && u[1] == base + 21);
  const void *m;
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 1), 1);
  ck_assert_int_eq(teal_eval_abstract_input(sys, ctx, 1, &m), TEAL_OK);
  const double mv[2] = {base + 22, base + 23};
  ts_ctx_assert_buf(m, mv, 2);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert(y[0] == 2 * base + 41);
}

START_TEST(test_clone_is_deep) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  scramble(ctx, 100.0);
  teal_error err;
  teal_context *copy = teal_context_clone(ctx, &err);
  ck_assert_msg(copy != NULL, "%s", err.message);
  ck_assert_int_eq(teal_context_is_root(copy), 1);
  ck_assert_ptr_eq(teal_context_system(copy), sys);
  assert_scrambled(sys, copy, 100.0);
  /* the abstract values of the clone own their storage */
  const ts_buf *a0 = teal_context_abstract_state(ctx, 0);
  const ts_buf *c0 = teal_context_abstract_state(copy, 0);
  ck_assert_ptr_ne(a0->data, c0->data);
  const void *am, *cm;
  ck_assert_int_eq(teal_eval_abstract_input(sys, ctx, 1, &am), TEAL_OK);
  ck_assert_int_eq(teal_eval_abstract_input(sys, copy, 1, &cm), TEAL_OK);
  ck_assert_ptr_ne(((const ts_buf *)am)->data, ((const ts_buf *)cm)->data);
  /* changing the clone leaves the original alone */
  scramble(copy, 1000.0);
  ((ts_buf *)teal_context_abstract_state_mut(copy, 0))->data[0] = -1.0;
  ck_assert_int_eq(teal_context_unfix_input(copy, 0), TEAL_OK);
  assert_scrambled(sys, ctx, 100.0);
  teal_context_free(copy);
  /* and freeing the clone leaves it alone too */
  assert_scrambled(sys, ctx, 100.0);
  teal_context_free(ctx);
  teal_system_free(sys);
  ts_ctx_assert_all_freed();
}
END_TEST

START_TEST(test_clone_of_unfixed_context) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  teal_context *copy = teal_context_clone(ctx, NULL);
  ck_assert_ptr_nonnull(copy);
  ck_assert_int_eq(teal_context_input_is_fixed(copy, 0), 0);
  ck_assert_int_eq(teal_context_input_is_fixed(copy, 1), 0);
  ts_ctx_assert_doubles(teal_context_continuous_state(copy), ts_ctx_k_x0, 5);
  teal_context_free(copy);
  teal_context_free(ctx);
  teal_system_free(sys);
  ts_ctx_assert_all_freed();
}
END_TEST

START_TEST(test_copy_from) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *src = ts_ctx_new_ctx(sys);
  teal_context *dst = ts_ctx_new_ctx(sys);
  scramble(src, 10.0);
  unsigned long allocs = ts_alloc_allocs();
  ck_assert_int_eq(teal_context_copy_from(dst, src), TEAL_OK);
  ck_assert_uint_eq(ts_alloc_allocs(), allocs); /* allocates nothing */
  assert_scrambled(sys, dst, 10.0);
  assert_scrambled(sys, src, 10.0);
  /* copying an unfixed input unfixes it in dst */
  teal_context *fresh = ts_ctx_new_ctx(sys);
  ck_assert_int_eq(teal_context_copy_from(dst, fresh), TEAL_OK);
  ck_assert_int_eq(teal_context_input_is_fixed(dst, 0), 0);
  ck_assert_int_eq(teal_context_input_is_fixed(dst, 1), 0);
  ts_ctx_assert_doubles(teal_context_continuous_state(dst), ts_ctx_k_x0, 5);
  ts_ctx_assert_buf(teal_context_abstract_state(dst, 0), ts_ctx_k_model, 3);
  /* different systems */
  teal_system *other = ts_ctx_full_leaf_new();
  teal_context *octx = ts_ctx_new_ctx(other);
  ck_assert_int_eq(teal_context_copy_from(octx, src), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_copy_from(NULL, src), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_copy_from(dst, NULL), TEAL_EINVAL);
  teal_context_free(octx);
  teal_system_free(other);
  teal_context_free(fresh);
  teal_context_free(src);
  teal_context_free(dst);
  teal_system_free(sys);
  ts_ctx_assert_all_freed();
}
END_TEST

START_TEST(test_set_to_defaults) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  scramble(ctx, 50.0);
  ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_OK);
  ck_assert(teal_context_time(ctx) == 0.0);
  ts_ctx_assert_doubles(teal_context_continuous_state(ctx), ts_ctx_k_x0, 5);
  ts_ctx_assert_doubles(teal_context_discrete_group(ctx, 0), ts_ctx_k_g0, 2);
  ts_ctx_assert_doubles(teal_context_discrete_group(ctx, 1), ts_ctx_k_g1, 3);
  ts_ctx_assert_doubles(teal_context_numeric_parameter(ctx, 0), ts_ctx_k_p0, 2);
  ts_ctx_assert_doubles(teal_context_numeric_parameter(ctx, 1), ts_ctx_k_p1, 1);
  ts_ctx_assert_buf(teal_context_abstract_state(ctx, 0), ts_ctx_k_model, 3);
  const ts_ctx_pair *pr = teal_context_abstract_state(ctx, 1);
  ck_assert(pr->a == 1.5 && pr->b == 2.5);
  /* fixed inputs stay */
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 0), 1);
  const double *u;
  ck_assert_int_eq(teal_eval_vector_input(sys, ctx, 0, &u), TEAL_OK);
  ck_assert(u[0] == 70.0 && u[1] == 71.0);
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 1), 1);
  ck_assert_int_eq(teal_context_set_to_defaults(NULL), TEAL_EINVAL);
  teal_context_free(ctx);
  teal_system_free(sys);
  ts_ctx_assert_all_freed();
}
END_TEST

START_TEST(test_report_error) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  ck_assert_int_eq(teal_context_report_error(ctx, TEAL_ESINGULAR, "pivot %d is %g", 3, 0.0),
                   TEAL_ESINGULAR);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ESINGULAR, "pivot 3 is 0");
  ck_assert_int_eq(teal_context_report_error(NULL, TEAL_EIO, "x"), TEAL_EIO);
  ck_assert_ptr_null(teal_context_error(NULL));
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_diagram_set_to_defaults_and_clone) {
  ts_ctx_nested n = ts_ctx_nested_new();
  teal_context *ctx = ts_ctx_new_ctx(n.outer);
  double *x = teal_context_continuous_state_mut(ctx);
  for (int i = 0; i < 9; i++) {
    x[i] = -i;
  }
  teal_context *copy = teal_context_clone(ctx, NULL);
  ck_assert_ptr_nonnull(copy);
  const double *cx = teal_context_continuous_state(copy);
  for (int i = 0; i < 9; i++) {
    ck_assert(cx[i] == -i);
  }
  /* defaults on a subcontext restore only that subtree */
  ck_assert_int_eq(teal_context_set_to_defaults(teal_context_subcontext_mut(ctx, n.inner)),
                   TEAL_OK);
  const double want[9] = {11, 21, -2, 12, 22, -5, 13, 23, -8};
  ts_ctx_assert_doubles(x, want, 9);
  ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_OK);
  const double want2[9] = {11, 21, 31, 12, 22, 32, 13, 23, 33};
  ts_ctx_assert_doubles(x, want2, 9);
  for (int i = 0; i < 9; i++) {
    ck_assert(cx[i] == -i); /* clone untouched */
  }
  teal_context_free(copy);
  teal_context_free(ctx);
  teal_system_free(n.outer);
  ts_ctx_assert_all_freed();
}
END_TEST

static Suite *context_suite(void) {
  Suite *s = suite_create("context");
  TCase *tc = tcase_create("leaf");
  tcase_add_checked_fixture(tc, ts_ctx_setup, ts_ctx_teardown);
  tcase_add_test(tc, test_defaults);
  tcase_add_test(tc, test_two_contexts_are_independent);
  tcase_add_test(tc, test_context_new_errors);
  tcase_add_test(tc, test_clone_is_deep);
  tcase_add_test(tc, test_clone_of_unfixed_context);
  tcase_add_test(tc, test_copy_from);
  tcase_add_test(tc, test_set_to_defaults);
  tcase_add_test(tc, test_report_error);
  suite_add_tcase(s, tc);

  tc = tcase_create("diagram");
  tcase_add_checked_fixture(tc, ts_ctx_setup, ts_ctx_teardown);
  tcase_add_test(tc, test_diagram_set_to_defaults_and_clone);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(context_suite());
}
