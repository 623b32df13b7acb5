/* Tests for framework/context_access.c: time and accuracy, continuous,
 * discrete and abstract state, parameters, fixed inputs and scratch values. */
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

/* ---- time and accuracy ------------------------------------------------ */

START_TEST(test_time) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  ck_assert_int_eq(teal_context_set_time(ctx, 1.5), TEAL_OK);
  ck_assert(teal_context_time(ctx) == 1.5);
  ck_assert_int_eq(teal_context_set_time(ctx, -2.0), TEAL_OK);
  ck_assert(teal_context_time(ctx) == -2.0);
  ck_assert_int_eq(teal_context_set_time(ctx, NAN), TEAL_ENONFINITE);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ENONFINITE, "not finite");
  ck_assert(teal_context_time(ctx) == -2.0);
  ck_assert_int_eq(teal_context_set_time(ctx, INFINITY), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_context_set_time(ctx, -INFINITY), TEAL_ENONFINITE);
  ck_assert(teal_context_time(ctx) == -2.0);
  ck_assert_int_eq(teal_context_set_time(NULL, 1.0), TEAL_EINVAL);
  ck_assert(isnan(teal_context_time(NULL)));
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_accuracy) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  ck_assert_int_eq(teal_context_set_accuracy(ctx, 1e-6), TEAL_OK);
  ck_assert(teal_context_accuracy(ctx) == 1e-6);
  const double bad[] = {0.0, -1e-3, NAN, INFINITY};
  for (int k = 0; k < 4; k++) {
    ck_assert_int_eq(teal_context_set_accuracy(ctx, bad[k]), TEAL_EINVAL);
    ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_EINVAL);
    ck_assert(teal_context_accuracy(ctx) == 1e-6);
  }
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_continuous_wrong_size) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  const double in[6] = {9, 9, 9, 9, 9, 9};
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, in, 4), TEAL_ESIZE);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ESIZE, "full");
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, in, 6), TEAL_ESIZE);
  ts_ctx_assert_doubles(teal_context_continuous_state(ctx), ts_ctx_k_x0, 5); /* unchanged */
  double out[6];
  ck_assert_int_eq(teal_context_get_continuous_state(ctx, out, 4), TEAL_ESIZE);
  ck_assert_int_eq(teal_context_get_continuous_state(ctx, out, 6), TEAL_ESIZE);
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, NULL, 5), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_get_continuous_state(ctx, NULL, 5), TEAL_EINVAL);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* y = t + q[0]: a cached output that must follow both halves of
 * teal_context_set_time_and_continuous_state. */
static int time_plus_q(const teal_system *sys, const teal_context *ctx, double *y, void *user) {
  (void)sys;
  (*(int *)user)++;
  y[0] = teal_context_time(ctx) + teal_context_q(ctx)[0];
  return TEAL_OK;
}

static int still(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xdot,
                 void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  xdot->q[0] = xdot->v[0] = 0.0;
  return TEAL_OK;
}

START_TEST(test_set_time_and_continuous_state) {
  static int calls;
  calls = 0;
  teal_system *sys = teal_leaf_new("clocked", NULL, NULL);
  teal_ticket deps[2] = {TEAL_TICKET_TIME, TEAL_TICKET_Q};
  teal_leaf_declare_continuous_state(sys, 1, 1, 0, NULL);
  teal_leaf_declare_vector_output(sys, "y", 1, time_plus_q, &calls, deps, 2);
  teal_leaf_set_time_derivatives(sys, still, NULL);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  teal_context *ctx = ts_ctx_new_ctx(sys);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 0.0);
  const double x[2] = {3.0, -1.0};
  ck_assert_int_eq(teal_context_set_time_and_continuous_state(ctx, 0.5, x, 2), TEAL_OK);
  ck_assert_double_eq(teal_context_time(ctx), 0.5);
  ts_ctx_assert_doubles(teal_context_continuous_state(ctx), x, 2);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 3.5); /* recomputed: both stamps moved */
  ck_assert_int_eq(calls, 2);

  /* rejected calls change nothing */
  const double x2[3] = {7, 7, 7};
  ck_assert_int_eq(teal_context_set_time_and_continuous_state(ctx, NAN, x2, 2), TEAL_ENONFINITE);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ENONFINITE, "not finite");
  ck_assert_int_eq(teal_context_set_time_and_continuous_state(ctx, 1.0, x2, 3), TEAL_ESIZE);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ESIZE, "clocked");
  ck_assert_int_eq(teal_context_set_time_and_continuous_state(ctx, 1.0, NULL, 2), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_set_time_and_continuous_state(NULL, 1.0, x2, 2), TEAL_EINVAL);
  ck_assert_double_eq(teal_context_time(ctx), 0.5);
  ts_ctx_assert_doubles(teal_context_continuous_state(ctx), x, 2);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert_int_eq(calls, 2); /* still cached */
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* A leaf with no continuous state, an empty discrete group and an empty
 * parameter: the setters and getters accept a NULL array when n == 0 (their
 * checks are `!x && n`). Each is its own test so that a sanitizer report
 * names the function. */
static teal_system *empty_leaf_new(void) {
  teal_system *sys = teal_leaf_new("empty", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 0, NULL), 0);
  ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, 0, NULL), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  return sys;
}

START_TEST(test_set_empty_continuous_state_null) {
  teal_system *sys = empty_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, NULL, 0), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_get_empty_continuous_state_null) {
  teal_system *sys = empty_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  ck_assert_int_eq(teal_context_get_continuous_state(ctx, NULL, 0), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_set_empty_discrete_group_null) {
  teal_system *sys = empty_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  ck_assert_int_eq(teal_context_set_discrete_group(ctx, 0, NULL, 0), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_set_empty_parameter_null) {
  teal_system *sys = empty_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  ck_assert_int_eq(teal_context_set_numeric_parameter(ctx, 0, NULL, 0), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* ---- discrete state --------------------------------------------------- */

START_TEST(test_discrete_groups) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  const double *all = teal_context_discrete_state(ctx);
  ck_assert_ptr_eq(teal_context_discrete_group(ctx, 0), all);
  ck_assert_ptr_eq(teal_context_discrete_group(ctx, 1), all + 2);

  const double g1[3] = {-1, -2, -3};
  ck_assert_int_eq(teal_context_set_discrete_group(ctx, 1, g1, 3), TEAL_OK);
  const double want[5] = {10, 11, -1, -2, -3};
  ts_ctx_assert_doubles(all, want, 5);

  teal_context_discrete_group_mut(ctx, 0)[1] = 99.0;
  ck_assert(all[1] == 99.0);
  teal_context_discrete_state_mut(ctx)[4] = 77.0;
  ck_assert(teal_context_discrete_group(ctx, 1)[2] == 77.0);

  ck_assert_int_eq(teal_context_set_discrete_group(ctx, 0, g1, 3), TEAL_ESIZE);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ESIZE, "full");
  ck_assert(all[0] == 10.0 && all[1] == 99.0);

  ck_assert_ptr_null(teal_context_discrete_group(ctx, 2));
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ENOTFOUND, "full");
  ck_assert_ptr_null(teal_context_discrete_group(ctx, -1));
  ck_assert_ptr_null(teal_context_discrete_group_mut(ctx, 5));
  ck_assert_int_eq(teal_context_set_discrete_group(ctx, 7, g1, 3), TEAL_ENOTFOUND);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* ---- abstract state --------------------------------------------------- */

START_TEST(test_abstract_state_deep_copies) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  const double big[6] = {1, 2, 3, 4, 5, 6};
  ts_buf src;
  memset(&src, 0, sizeof src);
  ck_assert_int_eq(ts_buf_assign(&src, big, 6), TEAL_OK);
  long copies = ts_buf_stats_get()->copies;
  ck_assert_int_eq(teal_context_set_abstract_state(ctx, 0, &src), TEAL_OK);
  ck_assert_int_eq(ts_buf_stats_get()->copies, copies + 1); /* through the hook */
  const ts_buf *in_ctx = teal_context_abstract_state(ctx, 0);
  ts_ctx_assert_buf(in_ctx, big, 6);
  ck_assert_ptr_ne(in_ctx->data, src.data);
  src.data[0] = -1.0; /* deep: the context keeps its own copy */
  ck_assert(in_ctx->data[0] == 1.0);
  ts_buf_release(&src);
  ts_ctx_assert_buf(teal_context_abstract_state(ctx, 0), big, 6);

  ts_buf *mut = teal_context_abstract_state_mut(ctx, 0);
  ck_assert_ptr_eq(mut, in_ctx);
  mut->data[5] = 60.0;
  ck_assert(((const ts_buf *)teal_context_abstract_state(ctx, 0))->data[5] == 60.0);

  ts_ctx_pair np = {3.0, 4.0};
  ck_assert_int_eq(teal_context_set_abstract_state(ctx, 1, &np), TEAL_OK);
  np.a = 0.0;
  ck_assert(((const ts_ctx_pair *)teal_context_abstract_state(ctx, 1))->a == 3.0);

  ck_assert_ptr_null(teal_context_abstract_state(ctx, 2));
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ENOTFOUND, "full");
  ck_assert_ptr_null(teal_context_abstract_state(ctx, -1));
  ck_assert_int_eq(teal_context_set_abstract_state(ctx, 3, &np), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_context_set_abstract_state(ctx, 0, NULL), TEAL_EINVAL);

  teal_context_free(ctx);
  teal_system_free(sys);
  ts_ctx_assert_all_freed();
}
END_TEST

/* ---- parameters ------------------------------------------------------- */

START_TEST(test_numeric_parameters) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  const double p0[2] = {7, 8};
  ck_assert_int_eq(teal_context_set_numeric_parameter(ctx, 0, p0, 2), TEAL_OK);
  ts_ctx_assert_doubles(teal_context_numeric_parameter(ctx, 0), p0, 2);
  ts_ctx_assert_doubles(teal_context_numeric_parameter(ctx, 1), ts_ctx_k_p1, 1);
  teal_context_numeric_parameter_mut(ctx, 1)[0] = 12.0;
  ck_assert(teal_context_numeric_parameter(ctx, 1)[0] == 12.0);
  ck_assert_int_eq(teal_context_set_numeric_parameter(ctx, 1, p0, 2), TEAL_ESIZE);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ESIZE, "full");
  ck_assert(teal_context_numeric_parameter(ctx, 1)[0] == 12.0);
  ck_assert_ptr_null(teal_context_numeric_parameter(ctx, 2));
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ENOTFOUND, "full");
  ck_assert_int_eq(teal_context_set_numeric_parameter(ctx, -1, p0, 2), TEAL_ENOTFOUND);
  /* the system's defaults are untouched */
  teal_context *fresh = ts_ctx_new_ctx(sys);
  ts_ctx_assert_doubles(teal_context_numeric_parameter(fresh, 0), ts_ctx_k_p0, 2);
  teal_context_free(fresh);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* ---- fixed inputs ----------------------------------------------------- */

START_TEST(test_fix_vector_input) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  const double *u;
  ck_assert_int_eq(teal_eval_vector_input(sys, ctx, 0, &u), TEAL_ENOTCONNECTED);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ENOTCONNECTED, "'u'");
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "full"));

  double val[3] = {2.0, 3.0, 4.0};
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, val, 3), TEAL_ESIZE);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ESIZE, "'u'");
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, val, 1), TEAL_ESIZE);
  ck_assert_int_lt(teal_context_fix_input(ctx, 0, NULL, 2), 0);
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 0), 0);

  double nan_val[2] = {1.0, NAN};
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, nan_val, 2), TEAL_ENONFINITE);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ENONFINITE, "'u'");
  double inf_val[2] = {INFINITY, 1.0}; /* infinities are legitimate (limits) */
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, inf_val, 2), TEAL_OK);
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 0), 1);
  ck_assert_int_eq(teal_context_unfix_input(ctx, 0), TEAL_OK);

  ck_assert_int_eq(teal_context_fix_input(ctx, 0, val, 2), TEAL_OK);
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 0), 1);
  val[0] = 100.0; /* the context holds a copy */
  ck_assert_int_eq(teal_eval_vector_input(sys, ctx, 0, &u), TEAL_OK);
  ck_assert(u[0] == 2.0 && u[1] == 3.0);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert(y[0] == 5.0);

  /* a rejected re-fix keeps the previous value */
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, nan_val, 2), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 0), 1);
  ck_assert_int_eq(teal_eval_vector_input(sys, ctx, 0, &u), TEAL_OK);
  ck_assert(u[0] == 2.0 && u[1] == 3.0);

  ck_assert_int_eq(teal_context_unfix_input(ctx, 0), TEAL_OK);
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 0), 0);
  ck_assert_int_eq(teal_eval_vector_input(sys, ctx, 0, &u), TEAL_ENOTCONNECTED);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_ENOTCONNECTED);

  /* wrong kinds and indices */
  ts_buf m;
  memset(&m, 0, sizeof m);
  ck_assert_int_eq(teal_context_fix_input(ctx, 1, val, 0), TEAL_ETYPE);
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, 0, &m), TEAL_ETYPE);
  ck_assert_int_eq(teal_context_fix_input(ctx, 2, val, 2), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_context_fix_input(ctx, -1, val, 2), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_context_unfix_input(ctx, 2), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 2), 0);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_fix_abstract_input) {
  teal_system *sys = ts_ctx_full_leaf_new();
  teal_context *ctx = ts_ctx_new_ctx(sys);
  const void *m;
  ck_assert_int_eq(teal_eval_abstract_input(sys, ctx, 1, &m), TEAL_ENOTCONNECTED);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_ENOTCONNECTED, "'m'");
  const double vals[5] = {5, 4, 3, 2, 1};
  ts_buf src;
  memset(&src, 0, sizeof src);
  ck_assert_int_eq(ts_buf_assign(&src, vals, 5), TEAL_OK);
  long copies = ts_buf_stats_get()->copies;
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, 1, &src), TEAL_OK);
  ck_assert_int_eq(ts_buf_stats_get()->copies, copies + 1);
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 1), 1);
  src.data[0] = -5.0;
  ck_assert_int_eq(teal_eval_abstract_input(sys, ctx, 1, &m), TEAL_OK);
  ts_ctx_assert_buf(m, vals, 5);
  ck_assert_ptr_ne(((const ts_buf *)m)->data, src.data);
  ts_buf_release(&src);
  /* abstract eval of a vector port and vice versa */
  const double *u;
  ck_assert_int_eq(teal_eval_vector_input(sys, ctx, 1, &u), TEAL_ETYPE);
  ck_assert_int_eq(teal_eval_abstract_input(sys, ctx, 0, &m), TEAL_ETYPE);
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, 1, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_unfix_input(ctx, 1), TEAL_OK);
  ck_assert_int_eq(teal_eval_abstract_input(sys, ctx, 1, &m), TEAL_ENOTCONNECTED);
  teal_context_free(ctx);
  teal_system_free(sys);
  ts_ctx_assert_all_freed();
}
END_TEST

START_TEST(test_set_time_and_continuous_state_root_only) {
  ts_ctx_nested n = ts_ctx_nested_new();
  teal_context *ctx = ts_ctx_new_ctx(n.outer);
  teal_context *ii = teal_context_subcontext_mut(ctx, n.inner);
  const double x[6] = {1, 2, 3, 4, 5, 6};
  ck_assert_int_eq(teal_context_set_time_and_continuous_state(ii, 1.0, x, 6), TEAL_EINVAL);
  TS_ASSERT_CTX_ERROR(ctx, TEAL_EINVAL, "root");
  ck_assert_double_eq(teal_context_time(ctx), 0.0);
  const double xr[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  ck_assert_int_eq(teal_context_set_time_and_continuous_state(ctx, 2.0, xr, 9), TEAL_OK);
  ts_ctx_assert_doubles(teal_context_continuous_state(ctx), xr, 9);
  ck_assert_double_eq(teal_context_q(teal_context_subcontext(ctx, n.b))[0], 2.0);
  teal_context_free(ctx);
  teal_system_free(n.outer);
  ts_ctx_assert_all_freed();
}
END_TEST

START_TEST(test_scratch_values) {
  ts_buf_stats_reset();
  ts_buf model = {0, 0, NULL};
  const double init[2] = {7.0, 8.0};
  ck_assert_int_eq(ts_buf_assign(&model, init, 2), TEAL_OK);
  teal_system *sys = teal_leaf_new("logger", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_scratch(sys, "log", &ts_buf_type, &model), 0);
  ck_assert_int_eq(teal_leaf_declare_scratch(sys, "empty", &ts_buf_type, NULL), 1);
  ck_assert_int_eq(teal_leaf_declare_scratch(sys, "bad", NULL, NULL), TEAL_EINVAL);
  ts_buf_release(&model); /* the system holds its own copy */
  teal_system_free(sys);

  sys = teal_leaf_new("logger", NULL, NULL);
  ck_assert_int_eq(ts_buf_assign(&model, init, 2), TEAL_OK);
  teal_leaf_declare_scratch(sys, "log", &ts_buf_type, &model);
  ts_buf_release(&model);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  teal_context *ctx = teal_context_new(sys, NULL);
  const ts_buf *b = teal_context_scratch(ctx, 0);
  ck_assert_ptr_nonnull(b);
  ck_assert_int_eq(b->n, 2);
  ck_assert(b->data[0] == 7.0 && b->data[1] == 8.0);
  /* writable through a const context (it is not state) */
  const teal_context *cctx = ctx;
  ts_buf *w = teal_context_scratch_mut(cctx, 0);
  const double more[3] = {1.0, 2.0, 3.0};
  ck_assert_int_eq(ts_buf_assign(w, more, 3), TEAL_OK);
  /* clones copy it deeply; set_to_defaults keeps it */
  teal_context *copy = teal_context_clone(ctx, NULL);
  const ts_buf *c = teal_context_scratch(copy, 0);
  ck_assert_int_eq(c->n, 3);
  ck_assert_ptr_ne(c->data, w->data);
  w->data[0] = -1.0;
  ck_assert(c->data[0] == 1.0);
  ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_OK);
  ck_assert_int_eq(((const ts_buf *)teal_context_scratch(ctx, 0))->n, 3);
  /* bad index */
  ck_assert_ptr_null(teal_context_scratch(ctx, 1));
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_ENOTFOUND);
  teal_context_free(copy);
  teal_context_free(ctx);
  teal_system_free(sys);
  ck_assert_int_eq(ts_buf_stats_get()->live, 0);
}
END_TEST

static Suite *context_access_suite(void) {
  Suite *s = suite_create("context_access");
  TCase *tc = tcase_create("leaf");
  tcase_add_checked_fixture(tc, ts_ctx_setup, ts_ctx_teardown);
  tcase_add_test(tc, test_time);
  tcase_add_test(tc, test_accuracy);
  tcase_add_test(tc, test_continuous_wrong_size);
  tcase_add_test(tc, test_set_time_and_continuous_state);
  tcase_add_test(tc, test_set_empty_continuous_state_null);
  tcase_add_test(tc, test_get_empty_continuous_state_null);
  tcase_add_test(tc, test_set_empty_discrete_group_null);
  tcase_add_test(tc, test_set_empty_parameter_null);
  tcase_add_test(tc, test_discrete_groups);
  tcase_add_test(tc, test_abstract_state_deep_copies);
  tcase_add_test(tc, test_numeric_parameters);
  tcase_add_test(tc, test_fix_vector_input);
  tcase_add_test(tc, test_fix_abstract_input);
  tcase_add_test(tc, test_scratch_values);
  suite_add_tcase(s, tc);

  tc = tcase_create("diagram");
  tcase_add_checked_fixture(tc, ts_ctx_setup, ts_ctx_teardown);
  tcase_add_test(tc, test_set_time_and_continuous_state_root_only);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(context_access_suite());
}
