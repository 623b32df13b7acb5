/* Tests for framework/context_tree.c: subcontexts of nested diagrams, at any
 * depth, and fixed inputs on exported and connected ports. */
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

START_TEST(test_subcontexts) {
  ts_ctx_nested n = ts_ctx_nested_new();
  teal_context *ctx = ts_ctx_new_ctx(n.outer);
  const teal_context *ca = teal_context_subcontext(ctx, n.a);
  const teal_context *cb = teal_context_subcontext(ctx, n.b);
  const teal_context *cc = teal_context_subcontext(ctx, n.c);
  const teal_context *ci = teal_context_subcontext(ctx, n.inner);
  ck_assert_ptr_nonnull(ca);
  ck_assert_ptr_nonnull(cb);
  ck_assert_ptr_nonnull(cc);
  ck_assert_ptr_nonnull(ci);
  ck_assert_ptr_eq(teal_context_system(ca), n.a);
  ck_assert_ptr_eq(teal_context_system(cb), n.b);
  ck_assert_ptr_eq(teal_context_system(cc), n.c);
  ck_assert_ptr_eq(teal_context_system(ci), n.inner);
  ck_assert_ptr_ne(ca, cb);
  ck_assert_int_eq(teal_context_is_root(ca), 0);
  ck_assert_int_eq(teal_context_is_root(ci), 0);
  ck_assert_ptr_eq(teal_context_subcontext(ctx, n.outer), ctx);

  /* by path */
  ck_assert_ptr_eq(teal_context_subcontext_by_name(ctx, "inner/a"), ca);
  ck_assert_ptr_eq(teal_context_subcontext_by_name(ctx, "inner/b"), cb);
  ck_assert_ptr_eq(teal_context_subcontext_by_name(ctx, "c"), cc);
  ck_assert_ptr_eq(teal_context_subcontext_by_name(ctx, "inner"), ci);
  ck_assert_ptr_eq(teal_context_subcontext_by_name_mut(ctx, "inner/a"), ca);
  /* relative to a subcontext */
  ck_assert_ptr_eq(teal_context_subcontext(ci, n.a), ca);
  ck_assert_ptr_eq(teal_context_subcontext_by_name(ci, "b"), cb);
  ck_assert_ptr_eq(teal_context_subcontext_mut(ctx, n.b), cb);

  /* not found */
  const char *missing[] = {"inner/zzz", "zzz", "c/a", "a", "inner/a/x"};
  for (int k = 0; k < 5; k++) {
    teal_context_report_error(ctx, TEAL_OK, "reset");
    ck_assert_msg(teal_context_subcontext_by_name(ctx, missing[k]) == NULL, "%s", missing[k]);
    TS_ASSERT_CTX_ERROR(ctx, TEAL_ENOTFOUND, missing[k]);
  }
  ck_assert_ptr_null(teal_context_subcontext_by_name(ctx, NULL));

  /* a system that is not in this tree */
  teal_system *stranger = ts_ctx_tri_leaf_new("stranger", 0);
  ck_assert_ptr_null(teal_context_subcontext(ctx, stranger));
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ENOTFOUND, "stranger");
  /* a sibling is not below inner */
  ck_assert_ptr_null(teal_context_subcontext(ci, n.c));
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ENOTFOUND, "'c'");
  ck_assert_ptr_null(teal_context_subcontext(ctx, NULL));
  teal_system_free(stranger);

  /* the tree shares one error record and one time */
  ck_assert_ptr_eq(teal_context_error(ca), teal_context_error(ctx));
  ck_assert_int_eq(teal_context_set_time(ctx, 2.5), TEAL_OK);
  ck_assert(teal_context_time(ca) == 2.5);
  ck_assert(teal_context_time(ci) == 2.5);
  ck_assert_int_eq(teal_context_set_time((teal_context *)ca, 3.0), TEAL_EINVAL);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_EINVAL, "root");
  ck_assert(teal_context_time(ctx) == 2.5);
  ck_assert_int_eq(teal_context_set_accuracy((teal_context *)ci, 1e-3), TEAL_EINVAL);

  teal_context_free((teal_context *)ca); /* ignored: not a root */
  ck_assert_ptr_eq(teal_context_subcontext(ctx, n.a), ca);
  teal_context_free(ctx);
  teal_system_free(n.outer);
  ts_ctx_assert_all_freed();
}
END_TEST

START_TEST(test_continuous_state_of_subcontext_is_null) {
  ts_ctx_nested n = ts_ctx_nested_new();
  teal_context *ctx = ts_ctx_new_ctx(n.outer);
  teal_context *ca = teal_context_subcontext_mut(ctx, n.a);
  teal_context *ci = teal_context_subcontext_mut(ctx, n.inner);
  ck_assert_ptr_null(teal_context_continuous_state(ca));
  TS_ASSERT_CTX_ERROR(ctx, TEAL_EINVAL, "'a'");
  ck_assert_ptr_null(teal_context_continuous_state_mut(ca));
  ck_assert_ptr_null(teal_context_continuous_state(ci));
  TS_ASSERT_CTX_ERROR(ctx, TEAL_EINVAL, "'inner'");
  /* q/v/z accessors still work there */
  ck_assert(teal_context_q(ca)[0] == 11.0);
  ck_assert(teal_context_z(ci)[1] == 23.0);
  /* clone and copy_from want roots */
  teal_error err;
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_context_clone(ca, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_context_clone(NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  teal_context *other = ts_ctx_new_ctx(n.outer);
  ck_assert_int_eq(teal_context_copy_from(ci, teal_context_subcontext(other, n.inner)),
                   TEAL_EINVAL);
  teal_context_free(other);
  /* leaf-only accessors on a diagram context */
  ck_assert_ptr_null(teal_context_discrete_group(ctx, 0));
  TS_ASSERT_CTX_ERROR(ctx, TEAL_EINVAL, "diagram");
  ck_assert_ptr_null(teal_context_numeric_parameter(ctx, 0));
  ck_assert_ptr_null(teal_context_abstract_state(ci, 0));
  teal_context_free(ctx);
  teal_system_free(n.outer);
  ts_ctx_assert_all_freed();
}
END_TEST

START_TEST(test_fix_connected_input_rejected) {
  /* const -> g1 (connected), exported input -> g2 */
  teal_builder *b = teal_builder_new("d");
  double two = 2.0;
  teal_system *k = teal_builder_add(b, ts_constant_new("k", 1, &two));
  teal_system *g1 = teal_builder_add(b, ts_gain_new("g1", 1, 3.0));
  teal_system *g2 = teal_builder_add(b, ts_gain_new("g2", 1, 5.0));
  ck_assert_int_eq(teal_builder_connect(b, teal_system_output_port(k, 0),
                                        teal_system_input_port(g1, 0)), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_input(b, teal_system_input_port(g2, 0), "in"), 0);
  teal_system *d = ts_ctx_build(b);
  teal_context *ctx = ts_ctx_new_ctx(d);
  teal_context *c1 = teal_context_subcontext_mut(ctx, g1);
  teal_context *c2 = teal_context_subcontext_mut(ctx, g2);
  double v = 7.0;
  ck_assert_int_eq(teal_context_fix_input(c1, 0, &v, 1), TEAL_EINVAL);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_EINVAL, "connected");
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "g1"));
  ck_assert_int_eq(teal_context_unfix_input(c1, 0), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_fix_input(c2, 0, &v, 1), TEAL_EINVAL);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_EINVAL, "connected");
  /* the connected value is still the constant's */
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(g1, c1, 0, &y), TEAL_OK);
  ck_assert(y[0] == 6.0);
  /* the exported input is fixed on the diagram's context */
  ck_assert_int_eq(teal_eval_vector_output(g2, c2, 0, &y), TEAL_ENOTCONNECTED);
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, &v, 1), TEAL_OK);
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 0), 1);
  ck_assert_int_eq(teal_context_input_is_fixed(c2, 0), 0);
  ck_assert_int_eq(teal_eval_vector_output(g2, c2, 0, &y), TEAL_OK);
  ck_assert(y[0] == 35.0);
  const double *u;
  ck_assert_int_eq(teal_eval_vector_input(g2, c2, 0, &u), TEAL_OK);
  ck_assert(u[0] == 7.0);
  ck_assert_int_eq(teal_eval_vector_input(d, ctx, 0, &u), TEAL_OK);
  ck_assert(u[0] == 7.0);
  teal_context_free(ctx);
  teal_system_free(d);
  ts_ctx_assert_all_freed();
}
END_TEST

START_TEST(test_nested_exported_input) {
  /* outer exports inner's exported input; only outer's root can fix it */
  teal_builder *ib = teal_builder_new("inner");
  teal_system *g = teal_builder_add(ib, ts_gain_new("g", 1, 4.0));
  ck_assert_int_ge(teal_builder_export_input(ib, teal_system_input_port(g, 0), "u"), 0);
  teal_system *inner = ts_ctx_build(ib);
  teal_builder *ob = teal_builder_new("outer");
  teal_builder_add(ob, inner);
  ck_assert_int_ge(teal_builder_export_input(ob, teal_system_input_port(inner, 0), "u"), 0);
  teal_system *outer = ts_ctx_build(ob);
  teal_context *ctx = ts_ctx_new_ctx(outer);
  teal_context *ci = teal_context_subcontext_mut(ctx, inner);
  teal_context *cg = teal_context_subcontext_by_name_mut(ctx, "inner/g");
  ck_assert_ptr_nonnull(cg);
  double v = 0.5;
  ck_assert_int_eq(teal_context_fix_input(ci, 0, &v, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_fix_input(cg, 0, &v, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, &v, 1), TEAL_OK);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(g, cg, 0, &y), TEAL_OK);
  ck_assert(y[0] == 2.0);
  /* a clone carries the fixed value to the same place */
  teal_context *copy = teal_context_clone(ctx, NULL);
  ck_assert_ptr_nonnull(copy);
  ck_assert_int_eq(teal_eval_vector_output(g, teal_context_subcontext(copy, g), 0, &y), TEAL_OK);
  ck_assert(y[0] == 2.0);
  teal_context_free(copy);
  teal_context_free(ctx);
  teal_system_free(outer);
  ts_ctx_assert_all_freed();
}
END_TEST

START_TEST(test_inner_exported_input_fixed_on_subcontext) {
  /* inner exports g's input, outer leaves it unconnected: the inner
   * diagram's subcontext is where it can be fixed */
  teal_builder *ib = teal_builder_new("inner");
  teal_system *g = teal_builder_add(ib, ts_gain_new("g", 1, 4.0));
  ck_assert_int_ge(teal_builder_export_input(ib, teal_system_input_port(g, 0), "u"), 0);
  teal_system *inner = ts_ctx_build(ib);
  teal_builder *ob = teal_builder_new("outer");
  teal_builder_add(ob, inner);
  teal_system *outer = ts_ctx_build(ob);
  ck_assert_int_eq(teal_system_num_input_ports(outer), 0);
  teal_context *ctx = ts_ctx_new_ctx(outer);
  teal_context *ci = teal_context_subcontext_mut(ctx, inner);
  teal_context *cg = teal_context_subcontext_mut(ctx, g);
  double v = 1.5;
  ck_assert_int_eq(teal_context_fix_input(cg, 0, &v, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_fix_input(ci, 0, &v, 1), TEAL_OK);
  ck_assert_int_eq(teal_context_input_is_fixed(ci, 0), 1);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(g, cg, 0, &y), TEAL_OK);
  ck_assert(y[0] == 6.0);
  teal_context *copy = teal_context_clone(ctx, NULL);
  ck_assert_ptr_nonnull(copy);
  ck_assert_int_eq(teal_context_input_is_fixed(teal_context_subcontext(copy, inner), 0), 1);
  ck_assert_int_eq(teal_eval_vector_output(g, teal_context_subcontext(copy, g), 0, &y), TEAL_OK);
  ck_assert(y[0] == 6.0);
  ck_assert_int_eq(teal_context_unfix_input(ci, 0), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(g, cg, 0, &y), TEAL_ENOTCONNECTED);
  teal_context_free(copy);
  teal_context_free(ctx);
  teal_system_free(outer);
  ts_ctx_assert_all_freed();
}
END_TEST

/* "Context of subsystem sub (any depth below ctx's system)": a leaf 70
 * diagrams down is still found, by handle and by path. */
enum { DEEP = 70 };

START_TEST(test_subcontext_at_any_depth) {
  teal_system *leaf = ts_ctx_tri_leaf_new("x", 1);
  teal_system *sys = leaf;
  char path[DEEP * 8 + 8] = "";
  char name[16];
  for (int level = 0; level < DEEP; level++) {
    snprintf(name, sizeof name, "d%d", level);
    teal_builder *b = teal_builder_new(name);
    ck_assert_ptr_nonnull(teal_builder_add(b, sys));
    sys = ts_ctx_build(b);
  }
  for (int level = DEEP - 2; level >= 0; level--) {
    snprintf(name, sizeof name, "d%d/", level);
    strcat(path, name);
  }
  strcat(path, "x");
  teal_context *ctx = ts_ctx_new_ctx(sys);
  const teal_context *by_path = teal_context_subcontext_by_name(ctx, path);
  ck_assert_ptr_nonnull(by_path);
  ck_assert_ptr_eq(teal_context_system(by_path), leaf);
  ck_assert(teal_context_q(by_path)[0] == 11.0);
  const teal_context *by_handle = teal_context_subcontext(ctx, leaf);
  ck_assert_msg(by_handle != NULL, "subcontext(root, leaf %d levels down) failed: %s", DEEP,
                teal_context_error(ctx)->message);
  ck_assert_ptr_eq(by_handle, by_path);
  teal_context_free(ctx);
  teal_system_free(sys);
  ts_ctx_assert_all_freed();
}
END_TEST

static Suite *context_tree_suite(void) {
  Suite *s = suite_create("context_tree");
  TCase *tc = tcase_create("diagram");
  tcase_add_checked_fixture(tc, ts_ctx_setup, ts_ctx_teardown);
  tcase_add_test(tc, test_subcontexts);
  tcase_add_test(tc, test_continuous_state_of_subcontext_is_null);
  tcase_add_test(tc, test_fix_connected_input_rejected);
  tcase_add_test(tc, test_nested_exported_input);
  tcase_add_test(tc, test_inner_exported_input_fixed_on_subcontext);
  tcase_add_test(tc, test_subcontext_at_any_depth);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(context_tree_suite());
}
