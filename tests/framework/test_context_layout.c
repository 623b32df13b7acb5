/* Tests for framework/context_layout.c: the state layout of a leaf, of
 * two-leaf, nested and empty diagrams, and of discrete groups. */
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

/* ---- continuous state ------------------------------------------------- */

START_TEST(test_continuous_layout_leaf) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  const double *x = teal_context_continuous_state(ctx);
  ck_assert_ptr_nonnull(x);
  ck_assert_ptr_eq(teal_context_q(ctx), x);
  ck_assert_ptr_eq(teal_context_v(ctx), x + 2);
  ck_assert_ptr_eq(teal_context_z(ctx), x + 4);

  double *q = teal_context_q_mut(ctx);
  ck_assert_ptr_eq(q, x);
  q[1] = -7.0;
  teal_context_v_mut(ctx)[0] = -8.0;
  teal_context_z_mut(ctx)[0] = -9.0;
  const double want[5] = {1, -7, -8, 4, -9};
  ts_ctx_assert_doubles(x, want, 5);
  ck_assert_ptr_eq(teal_context_continuous_state_mut(ctx), x);

  double out[5] = {0};
  ck_assert_int_eq(teal_context_get_continuous_state(ctx, out, 5), TEAL_OK);
  ts_ctx_assert_doubles(out, want, 5);

  const double in[5] = {0.1, 0.2, 0.3, 0.4, 0.5};
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, in, 5), TEAL_OK);
  ts_ctx_assert_doubles(x, in, 5);
  ts_ctx_assert_doubles(teal_context_v(ctx), in + 2, 2);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_two_leaf_layout) {
  teal_builder *b = teal_builder_new("pair");
  teal_system *l1 = teal_builder_add(b, ts_ctx_tri_leaf_new("l1", 1));
  teal_system *l2 = teal_builder_add(b, ts_ctx_tri_leaf_new("l2", 2));
  teal_system *d = ts_ctx_build(b);
  int nq, nv, nz;
  ck_assert_int_eq(teal_system_num_continuous_states(d, &nq, &nv, &nz), 6);
  ck_assert_int_eq(nq, 2);
  ck_assert_int_eq(nv, 2);
  ck_assert_int_eq(nz, 2);
  teal_context *ctx = ts_ctx_new_ctx(d);
  const double *x = teal_context_continuous_state(ctx);
  const double want[6] = {11, 21, 12, 22, 13, 23};
  ts_ctx_assert_doubles(x, want, 6);
  const teal_context *c1 = teal_context_subcontext(ctx, l1);
  const teal_context *c2 = teal_context_subcontext(ctx, l2);
  ck_assert_ptr_eq(teal_context_q(c1), x + 0);
  ck_assert_ptr_eq(teal_context_q(c2), x + 1);
  ck_assert_ptr_eq(teal_context_v(c1), x + 2);
  ck_assert_ptr_eq(teal_context_v(c2), x + 3);
  ck_assert_ptr_eq(teal_context_z(c1), x + 4);
  ck_assert_ptr_eq(teal_context_z(c2), x + 5);
  ck_assert_ptr_eq(teal_context_q(ctx), x);
  ck_assert_ptr_eq(teal_context_v(ctx), x + 2);
  ck_assert_ptr_eq(teal_context_z(ctx), x + 4);
  double xdot[6];
  ck_assert_int_eq(teal_calc_time_derivatives(d, ctx, xdot), TEAL_OK);
  const double want_dot[6] = {101, 201, 102, 202, 103, 203};
  ts_ctx_assert_doubles(xdot, want_dot, 6);
  double sub[3];
  ck_assert_int_eq(teal_context_get_continuous_state(c2, sub, 3), TEAL_OK);
  const double want2[3] = {21, 22, 23};
  ts_ctx_assert_doubles(sub, want2, 3);
  teal_context_free(ctx);
  teal_system_free(d);
  ts_ctx_assert_all_freed();
}
END_TEST

static teal_system *discrete_leaf_new(const char *name, int ngroups, const int *sizes,
                                      const double *defaults) {
  teal_system *sys = teal_leaf_new(name, NULL, NULL);
  for (int g = 0; g < ngroups; g++) {
    ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, sizes[g], defaults), g);
    defaults += sizes[g];
  }
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &ts_ctx_pair_type, NULL), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  return sys;
}

START_TEST(test_diagram_discrete_layout) {
  const int ps[2] = {1, 2}, rs[1] = {2};
  const double pd[3] = {1, 2, 3}, rd[2] = {4, 5};
  teal_builder *b = teal_builder_new("dd");
  teal_system *p = teal_builder_add(b, discrete_leaf_new("p", 2, ps, pd));
  teal_builder_add(b, ts_gain_new("between", 1, 1.0));
  teal_system *r = teal_builder_add(b, discrete_leaf_new("r", 1, rs, rd));
  teal_system *d = ts_ctx_build(b);
  ck_assert_int_eq(teal_system_num_discrete_states(d), 5);
  ck_assert_int_eq(teal_system_num_discrete_groups(d), 0);
  ck_assert_int_eq(teal_system_num_abstract_states(d), 2);
  teal_context *ctx = ts_ctx_new_ctx(d);
  const double *xd = teal_context_discrete_state(ctx);
  const double want[5] = {1, 2, 3, 4, 5};
  ts_ctx_assert_doubles(xd, want, 5);
  teal_context *pc = teal_context_subcontext_mut(ctx, p);
  teal_context *rc = teal_context_subcontext_mut(ctx, r);
  ck_assert_ptr_eq(teal_context_discrete_state(pc), xd);
  ck_assert_ptr_eq(teal_context_discrete_group(pc, 1), xd + 1);
  ck_assert_ptr_eq(teal_context_discrete_state(rc), xd + 3);
  ck_assert_ptr_eq(teal_context_discrete_group(rc, 0), xd + 3);
  teal_context_discrete_state_mut(ctx)[4] = 50.0;
  ck_assert(teal_context_discrete_group(rc, 0)[1] == 50.0);
  /* each leaf's abstract state is its own */
  ts_ctx_pair v = {1.0, 2.0};
  ck_assert_int_eq(teal_context_set_abstract_state(pc, 0, &v), TEAL_OK);
  const ts_ctx_pair *rv = teal_context_abstract_state(rc, 0);
  ck_assert(rv->a == 0.0 && rv->b == 0.0);
  teal_context_free(ctx);
  teal_system_free(d);
  ts_ctx_assert_all_freed();
}
END_TEST

START_TEST(test_nested_layout) {
  ts_ctx_nested n = ts_ctx_nested_new();
  teal_context *ctx = ts_ctx_new_ctx(n.outer);
  const double *x = teal_context_continuous_state(ctx);
  const double want[9] = {11, 21, 31, 12, 22, 32, 13, 23, 33};
  ts_ctx_assert_doubles(x, want, 9);
  teal_context *ia = teal_context_subcontext_mut(ctx, n.a);
  teal_context *ib = teal_context_subcontext_mut(ctx, n.b);
  teal_context *ic = teal_context_subcontext_mut(ctx, n.c);
  teal_context *ii = teal_context_subcontext_mut(ctx, n.inner);
  ck_assert_ptr_eq(teal_context_q(ia), x + 0);
  ck_assert_ptr_eq(teal_context_q(ib), x + 1);
  ck_assert_ptr_eq(teal_context_q(ic), x + 2);
  ck_assert_ptr_eq(teal_context_v(ia), x + 3);
  ck_assert_ptr_eq(teal_context_v(ic), x + 5);
  ck_assert_ptr_eq(teal_context_z(ib), x + 7);
  ck_assert_ptr_eq(teal_context_q(ii), x + 0);
  ck_assert_ptr_eq(teal_context_v(ii), x + 3);
  ck_assert_ptr_eq(teal_context_z(ii), x + 6);

  double inner_x[6];
  ck_assert_int_eq(teal_context_get_continuous_state(ii, inner_x, 6), TEAL_OK);
  const double want_inner[6] = {11, 21, 12, 22, 13, 23};
  ts_ctx_assert_doubles(inner_x, want_inner, 6);

  const double nb[3] = {-1, -2, -3};
  ck_assert_int_eq(teal_context_set_continuous_state(ib, nb, 3), TEAL_OK);
  const double want2[9] = {11, -1, 31, 12, -2, 32, 13, -3, 33};
  ts_ctx_assert_doubles(x, want2, 9);
  const double ni[6] = {-10, -20, -30, -40, -50, -60};
  ck_assert_int_eq(teal_context_set_continuous_state(ii, ni, 6), TEAL_OK);
  const double want3[9] = {-10, -20, 31, -30, -40, 32, -50, -60, 33};
  ts_ctx_assert_doubles(x, want3, 9);
  ck_assert_int_eq(teal_context_set_continuous_state(ii, ni, 3), TEAL_ESIZE);

  double xdot[9];
  ck_assert_int_eq(teal_calc_time_derivatives(n.outer, ctx, xdot), TEAL_OK);
  const double want_dot[9] = {101, 201, 301, 102, 202, 302, 103, 203, 303};
  ts_ctx_assert_doubles(xdot, want_dot, 9);
  double idot[6];
  ck_assert_int_eq(teal_calc_time_derivatives(n.inner, ii, idot), TEAL_OK);
  const double want_idot[6] = {101, 201, 102, 202, 103, 203};
  ts_ctx_assert_doubles(idot, want_idot, 6);

  teal_context_free(ctx);
  teal_system_free(n.outer);
  ts_ctx_assert_all_freed();
}
END_TEST

START_TEST(test_empty_diagram_context) {
  teal_system *d = ts_ctx_build(teal_builder_new("nothing"));
  teal_context *ctx = ts_ctx_new_ctx(d);
  ck_assert_int_eq(teal_system_num_continuous_states(d, NULL, NULL, NULL), 0);
  ck_assert_int_eq(teal_context_set_time(ctx, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_calc_time_derivatives(d, ctx, NULL), TEAL_OK);
  teal_context *copy = teal_context_clone(ctx, NULL);
  ck_assert_ptr_nonnull(copy);
  ck_assert(teal_context_time(copy) == 1.0);
  ck_assert_ptr_eq(teal_context_subcontext(ctx, d), ctx);
  teal_context_free(copy);
  teal_context_free(ctx);
  teal_system_free(d);
  ts_ctx_assert_all_freed();
}
END_TEST

static Suite *context_layout_suite(void) {
  Suite *s = suite_create("context_layout");
  TCase *tc = tcase_create("leaf");
  tcase_add_checked_fixture(tc, ts_ctx_setup, ts_ctx_teardown);
  tcase_add_test(tc, test_continuous_layout_leaf);
  suite_add_tcase(s, tc);

  tc = tcase_create("diagram");
  tcase_add_checked_fixture(tc, ts_ctx_setup, ts_ctx_teardown);
  tcase_add_test(tc, test_two_leaf_layout);
  tcase_add_test(tc, test_nested_layout);
  tcase_add_test(tc, test_diagram_discrete_layout);
  tcase_add_test(tc, test_empty_diagram_context);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(context_layout_suite());
}
