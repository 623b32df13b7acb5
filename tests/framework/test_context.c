/* Tests for framework/context.h: defaults, time and accuracy, continuous,
 * discrete and abstract state, parameters, fixed inputs, clone/copy,
 * subcontexts of nested diagrams and the diagram state layout. */
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
#include "support/test_support.h"

static void setup(void) {
  ts_alloc_install();
  ts_buf_stats_reset();
}

static void teardown(void) { ts_alloc_uninstall(); }

/* Everything allocated by the test was freed, including ts_buf storage. */
static void assert_all_freed(void) {
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  ck_assert_int_eq(ts_buf_stats_get()->live, 0);
}

#define ASSERT_CTX_ERROR(ctx, want_code, substr)                                          \
  do {                                                                                    \
    const teal_error *e_ = teal_context_error(ctx);                                       \
    ck_assert_int_eq(e_->code, (want_code));                                              \
    ck_assert_msg(strstr(e_->message, (substr)) != NULL, "'%s' not in '%s'", (substr),    \
                  e_->message);                                                           \
  } while (0)

/* ---- a leaf with one of everything ----------------------------------- */

typedef struct pair {
  double a, b;
} pair;
static const teal_value_type pair_type = {"pair", sizeof(pair), NULL, NULL, NULL};

static const double k_x0[5] = {1, 2, 3, 4, 5}; /* q = {1,2}, v = {3,4}, z = {5} */
static const double k_g0[2] = {10, 11};
static const double k_g1[3] = {20, 21, 22};
static const double k_p0[2] = {0.5, 0.25};
static const double k_p1[1] = {-3};
static const double k_model[3] = {7, 8, 9};

static int sum_u(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  out[0] = u[0] + u[1];
  return TEAL_OK;
}

static int full_deriv(const teal_system *sys, const teal_context *ctx,
                      teal_continuous_view *xdot, void *user) {
  (void)sys;
  (void)user;
  const double *q = teal_context_q(ctx), *v = teal_context_v(ctx);
  xdot->q[0] = v[0];
  xdot->q[1] = v[1];
  xdot->v[0] = -q[0];
  xdot->v[1] = -q[1];
  xdot->z[0] = 1.0;
  return TEAL_OK;
}

static teal_system *full_leaf_new(void) {
  teal_system *sys = teal_leaf_new("full", NULL, NULL);
  ts_buf model;
  memset(&model, 0, sizeof model);
  ck_assert_int_eq(ts_buf_assign(&model, k_model, 3), TEAL_OK);
  pair pmodel = {1.5, 2.5};
  teal_ticket in0 = teal_ticket_input(0);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 2, 2, 1, k_x0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, full_deriv, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 2, k_g0), 0);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 3, k_g1), 1);
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &ts_buf_type, &model), 0);
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &pair_type, &pmodel), 1);
  ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, 2, k_p0), 0);
  ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, 1, k_p1), 1);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "u", 2), 0);
  ck_assert_int_eq(teal_leaf_declare_abstract_input(sys, "m", &ts_buf_type), 1);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", 1, sum_u, NULL, &in0, 1), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  /* the model was copied at declaration: changing it now changes nothing */
  model.data[0] = -100.0;
  pmodel.a = -100.0;
  ts_buf_release(&model);
  return sys;
}

static teal_context *new_ctx(const teal_system *sys) {
  teal_error err;
  teal_error_clear(&err);
  teal_context *ctx = teal_context_new(sys, &err);
  ck_assert_msg(ctx != NULL, "context_new failed: %s", err.message);
  return ctx;
}

static void assert_doubles(const double *got, const double *want, int n) {
  ck_assert_ptr_nonnull(got);
  for (int i = 0; i < n; i++) {
    ck_assert_msg(got[i] == want[i], "element %d: got %g, want %g", i, got[i], want[i]);
  }
}

static void assert_buf(const void *value, const double *want, int n) {
  const ts_buf *b = value;
  ck_assert_ptr_nonnull(b);
  ck_assert_int_eq(b->n, n);
  ck_assert_int_ge(b->cap, n);
  assert_doubles(b->data, want, n);
}

/* ---- defaults --------------------------------------------------------- */

START_TEST(test_defaults) {
  teal_system *sys = full_leaf_new();
  teal_context *ctx = new_ctx(sys);
  ck_assert_ptr_eq(teal_context_system(ctx), sys);
  ck_assert_int_eq(teal_context_is_root(ctx), 1);
  ck_assert(teal_context_time(ctx) == 0.0);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_OK);

  assert_doubles(teal_context_continuous_state(ctx), k_x0, 5);
  assert_doubles(teal_context_q(ctx), k_x0, 2);
  assert_doubles(teal_context_v(ctx), k_x0 + 2, 2);
  assert_doubles(teal_context_z(ctx), k_x0 + 4, 1);

  assert_doubles(teal_context_discrete_group(ctx, 0), k_g0, 2);
  assert_doubles(teal_context_discrete_group(ctx, 1), k_g1, 3);
  const double all_xd[5] = {10, 11, 20, 21, 22};
  assert_doubles(teal_context_discrete_state(ctx), all_xd, 5);

  assert_buf(teal_context_abstract_state(ctx, 0), k_model, 3);
  const pair *p = teal_context_abstract_state(ctx, 1);
  ck_assert_ptr_nonnull(p);
  ck_assert(p->a == 1.5 && p->b == 2.5);

  assert_doubles(teal_context_numeric_parameter(ctx, 0), k_p0, 2);
  assert_doubles(teal_context_numeric_parameter(ctx, 1), k_p1, 1);

  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 0), 0);
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 1), 0);
  teal_context_free(ctx);
  teal_system_free(sys);
  assert_all_freed();
}
END_TEST

START_TEST(test_two_contexts_are_independent) {
  teal_system *sys = full_leaf_new();
  teal_context *a = new_ctx(sys);
  teal_context *b = new_ctx(sys);
  teal_context_q_mut(a)[0] = 42.0;
  ts_buf *ba = teal_context_abstract_state_mut(a, 0);
  ba->data[0] = 43.0;
  ck_assert(teal_context_q(b)[0] == 1.0);
  assert_buf(teal_context_abstract_state(b, 0), k_model, 3);
  ck_assert_ptr_ne(((const ts_buf *)teal_context_abstract_state(b, 0))->data, ba->data);
  teal_context_free(a);
  teal_context_free(b);
  teal_system_free(sys);
  assert_all_freed();
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
  assert_all_freed();
}
END_TEST

/* ---- time and accuracy ------------------------------------------------ */

START_TEST(test_time) {
  teal_system *sys = full_leaf_new();
  teal_context *ctx = new_ctx(sys);
  ck_assert_int_eq(teal_context_set_time(ctx, 1.5), TEAL_OK);
  ck_assert(teal_context_time(ctx) == 1.5);
  ck_assert_int_eq(teal_context_set_time(ctx, -2.0), TEAL_OK);
  ck_assert(teal_context_time(ctx) == -2.0);
  ck_assert_int_eq(teal_context_set_time(ctx, NAN), TEAL_ENONFINITE);
  ASSERT_CTX_ERROR(ctx, TEAL_ENONFINITE, "not finite");
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
  teal_system *sys = full_leaf_new();
  teal_context *ctx = new_ctx(sys);
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

/* ---- continuous state ------------------------------------------------- */

START_TEST(test_continuous_layout_leaf) {
  teal_system *sys = full_leaf_new();
  teal_context *ctx = new_ctx(sys);
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
  assert_doubles(x, want, 5);
  ck_assert_ptr_eq(teal_context_continuous_state_mut(ctx), x);

  double out[5] = {0};
  ck_assert_int_eq(teal_context_get_continuous_state(ctx, out, 5), TEAL_OK);
  assert_doubles(out, want, 5);

  const double in[5] = {0.1, 0.2, 0.3, 0.4, 0.5};
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, in, 5), TEAL_OK);
  assert_doubles(x, in, 5);
  assert_doubles(teal_context_v(ctx), in + 2, 2);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_continuous_wrong_size) {
  teal_system *sys = full_leaf_new();
  teal_context *ctx = new_ctx(sys);
  const double in[6] = {9, 9, 9, 9, 9, 9};
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, in, 4), TEAL_ESIZE);
  ASSERT_CTX_ERROR(ctx, TEAL_ESIZE, "full");
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, in, 6), TEAL_ESIZE);
  assert_doubles(teal_context_continuous_state(ctx), k_x0, 5); /* unchanged */
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
  teal_context *ctx = new_ctx(sys);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 0.0);
  const double x[2] = {3.0, -1.0};
  ck_assert_int_eq(teal_context_set_time_and_continuous_state(ctx, 0.5, x, 2), TEAL_OK);
  ck_assert_double_eq(teal_context_time(ctx), 0.5);
  assert_doubles(teal_context_continuous_state(ctx), x, 2);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 3.5); /* recomputed: both stamps moved */
  ck_assert_int_eq(calls, 2);

  /* rejected calls change nothing */
  const double x2[3] = {7, 7, 7};
  ck_assert_int_eq(teal_context_set_time_and_continuous_state(ctx, NAN, x2, 2), TEAL_ENONFINITE);
  ASSERT_CTX_ERROR(ctx, TEAL_ENONFINITE, "not finite");
  ck_assert_int_eq(teal_context_set_time_and_continuous_state(ctx, 1.0, x2, 3), TEAL_ESIZE);
  ASSERT_CTX_ERROR(ctx, TEAL_ESIZE, "clocked");
  ck_assert_int_eq(teal_context_set_time_and_continuous_state(ctx, 1.0, NULL, 2), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_set_time_and_continuous_state(NULL, 1.0, x2, 2), TEAL_EINVAL);
  ck_assert_double_eq(teal_context_time(ctx), 0.5);
  assert_doubles(teal_context_continuous_state(ctx), x, 2);
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
  teal_context *ctx = new_ctx(sys);
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, NULL, 0), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_get_empty_continuous_state_null) {
  teal_system *sys = empty_leaf_new();
  teal_context *ctx = new_ctx(sys);
  ck_assert_int_eq(teal_context_get_continuous_state(ctx, NULL, 0), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_set_empty_discrete_group_null) {
  teal_system *sys = empty_leaf_new();
  teal_context *ctx = new_ctx(sys);
  ck_assert_int_eq(teal_context_set_discrete_group(ctx, 0, NULL, 0), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_set_empty_parameter_null) {
  teal_system *sys = empty_leaf_new();
  teal_context *ctx = new_ctx(sys);
  ck_assert_int_eq(teal_context_set_numeric_parameter(ctx, 0, NULL, 0), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* ---- discrete state --------------------------------------------------- */

START_TEST(test_discrete_groups) {
  teal_system *sys = full_leaf_new();
  teal_context *ctx = new_ctx(sys);
  const double *all = teal_context_discrete_state(ctx);
  ck_assert_ptr_eq(teal_context_discrete_group(ctx, 0), all);
  ck_assert_ptr_eq(teal_context_discrete_group(ctx, 1), all + 2);

  const double g1[3] = {-1, -2, -3};
  ck_assert_int_eq(teal_context_set_discrete_group(ctx, 1, g1, 3), TEAL_OK);
  const double want[5] = {10, 11, -1, -2, -3};
  assert_doubles(all, want, 5);

  teal_context_discrete_group_mut(ctx, 0)[1] = 99.0;
  ck_assert(all[1] == 99.0);
  teal_context_discrete_state_mut(ctx)[4] = 77.0;
  ck_assert(teal_context_discrete_group(ctx, 1)[2] == 77.0);

  ck_assert_int_eq(teal_context_set_discrete_group(ctx, 0, g1, 3), TEAL_ESIZE);
  ASSERT_CTX_ERROR(ctx, TEAL_ESIZE, "full");
  ck_assert(all[0] == 10.0 && all[1] == 99.0);

  ck_assert_ptr_null(teal_context_discrete_group(ctx, 2));
  ASSERT_CTX_ERROR(ctx, TEAL_ENOTFOUND, "full");
  ck_assert_ptr_null(teal_context_discrete_group(ctx, -1));
  ck_assert_ptr_null(teal_context_discrete_group_mut(ctx, 5));
  ck_assert_int_eq(teal_context_set_discrete_group(ctx, 7, g1, 3), TEAL_ENOTFOUND);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* ---- abstract state --------------------------------------------------- */

START_TEST(test_abstract_state_deep_copies) {
  teal_system *sys = full_leaf_new();
  teal_context *ctx = new_ctx(sys);
  const double big[6] = {1, 2, 3, 4, 5, 6};
  ts_buf src;
  memset(&src, 0, sizeof src);
  ck_assert_int_eq(ts_buf_assign(&src, big, 6), TEAL_OK);
  long copies = ts_buf_stats_get()->copies;
  ck_assert_int_eq(teal_context_set_abstract_state(ctx, 0, &src), TEAL_OK);
  ck_assert_int_eq(ts_buf_stats_get()->copies, copies + 1); /* through the hook */
  const ts_buf *in_ctx = teal_context_abstract_state(ctx, 0);
  assert_buf(in_ctx, big, 6);
  ck_assert_ptr_ne(in_ctx->data, src.data);
  src.data[0] = -1.0; /* deep: the context keeps its own copy */
  ck_assert(in_ctx->data[0] == 1.0);
  ts_buf_release(&src);
  assert_buf(teal_context_abstract_state(ctx, 0), big, 6);

  ts_buf *mut = teal_context_abstract_state_mut(ctx, 0);
  ck_assert_ptr_eq(mut, in_ctx);
  mut->data[5] = 60.0;
  ck_assert(((const ts_buf *)teal_context_abstract_state(ctx, 0))->data[5] == 60.0);

  pair np = {3.0, 4.0};
  ck_assert_int_eq(teal_context_set_abstract_state(ctx, 1, &np), TEAL_OK);
  np.a = 0.0;
  ck_assert(((const pair *)teal_context_abstract_state(ctx, 1))->a == 3.0);

  ck_assert_ptr_null(teal_context_abstract_state(ctx, 2));
  ASSERT_CTX_ERROR(ctx, TEAL_ENOTFOUND, "full");
  ck_assert_ptr_null(teal_context_abstract_state(ctx, -1));
  ck_assert_int_eq(teal_context_set_abstract_state(ctx, 3, &np), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_context_set_abstract_state(ctx, 0, NULL), TEAL_EINVAL);

  teal_context_free(ctx);
  teal_system_free(sys);
  assert_all_freed();
}
END_TEST

/* ---- parameters ------------------------------------------------------- */

START_TEST(test_numeric_parameters) {
  teal_system *sys = full_leaf_new();
  teal_context *ctx = new_ctx(sys);
  const double p0[2] = {7, 8};
  ck_assert_int_eq(teal_context_set_numeric_parameter(ctx, 0, p0, 2), TEAL_OK);
  assert_doubles(teal_context_numeric_parameter(ctx, 0), p0, 2);
  assert_doubles(teal_context_numeric_parameter(ctx, 1), k_p1, 1);
  teal_context_numeric_parameter_mut(ctx, 1)[0] = 12.0;
  ck_assert(teal_context_numeric_parameter(ctx, 1)[0] == 12.0);
  ck_assert_int_eq(teal_context_set_numeric_parameter(ctx, 1, p0, 2), TEAL_ESIZE);
  ASSERT_CTX_ERROR(ctx, TEAL_ESIZE, "full");
  ck_assert(teal_context_numeric_parameter(ctx, 1)[0] == 12.0);
  ck_assert_ptr_null(teal_context_numeric_parameter(ctx, 2));
  ASSERT_CTX_ERROR(ctx, TEAL_ENOTFOUND, "full");
  ck_assert_int_eq(teal_context_set_numeric_parameter(ctx, -1, p0, 2), TEAL_ENOTFOUND);
  /* the system's defaults are untouched */
  teal_context *fresh = new_ctx(sys);
  assert_doubles(teal_context_numeric_parameter(fresh, 0), k_p0, 2);
  teal_context_free(fresh);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* ---- fixed inputs ----------------------------------------------------- */

START_TEST(test_fix_vector_input) {
  teal_system *sys = full_leaf_new();
  teal_context *ctx = new_ctx(sys);
  const double *u;
  ck_assert_int_eq(teal_eval_vector_input(sys, ctx, 0, &u), TEAL_ENOTCONNECTED);
  ASSERT_CTX_ERROR(ctx, TEAL_ENOTCONNECTED, "'u'");
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "full"));

  double val[3] = {2.0, 3.0, 4.0};
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, val, 3), TEAL_ESIZE);
  ASSERT_CTX_ERROR(ctx, TEAL_ESIZE, "'u'");
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, val, 1), TEAL_ESIZE);
  ck_assert_int_lt(teal_context_fix_input(ctx, 0, NULL, 2), 0);
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 0), 0);

  double nan_val[2] = {1.0, NAN};
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, nan_val, 2), TEAL_ENONFINITE);
  ASSERT_CTX_ERROR(ctx, TEAL_ENONFINITE, "'u'");
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
  teal_system *sys = full_leaf_new();
  teal_context *ctx = new_ctx(sys);
  const void *m;
  ck_assert_int_eq(teal_eval_abstract_input(sys, ctx, 1, &m), TEAL_ENOTCONNECTED);
  ASSERT_CTX_ERROR(ctx, TEAL_ENOTCONNECTED, "'m'");
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
  assert_buf(m, vals, 5);
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
  assert_all_freed();
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
  pair pr = {base + 18, base + 19};
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
  assert_doubles(teal_context_continuous_state(ctx), x, 5);
  const double xd[5] = {base + 6, base + 7, base + 8, base + 9, base + 10};
  assert_doubles(teal_context_discrete_state(ctx), xd, 5);
  const double p0[2] = {base + 11, base + 12}, p1[1] = {base + 13};
  assert_doubles(teal_context_numeric_parameter(ctx, 0), p0, 2);
  assert_doubles(teal_context_numeric_parameter(ctx, 1), p1, 1);
  const double xa[4] = {base + 14, base + 15, base + 16, base + 17};
  assert_buf(teal_context_abstract_state(ctx, 0), xa, 4);
  const pair *pr = teal_context_abstract_state(ctx, 1);
  ck_assert(pr->a == base + 18 && pr->b == base + 19);
  const double *u;
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 0), 1);
  ck_assert_int_eq(teal_eval_vector_input(sys, ctx, 0, &u), TEAL_OK);
  ck_assert(u[0] == base + 20 && u[1] == base + 21);
  const void *m;
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 1), 1);
  ck_assert_int_eq(teal_eval_abstract_input(sys, ctx, 1, &m), TEAL_OK);
  const double mv[2] = {base + 22, base + 23};
  assert_buf(m, mv, 2);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert(y[0] == 2 * base + 41);
}

START_TEST(test_clone_is_deep) {
  teal_system *sys = full_leaf_new();
  teal_context *ctx = new_ctx(sys);
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
  assert_all_freed();
}
END_TEST

START_TEST(test_clone_of_unfixed_context) {
  teal_system *sys = full_leaf_new();
  teal_context *ctx = new_ctx(sys);
  teal_context *copy = teal_context_clone(ctx, NULL);
  ck_assert_ptr_nonnull(copy);
  ck_assert_int_eq(teal_context_input_is_fixed(copy, 0), 0);
  ck_assert_int_eq(teal_context_input_is_fixed(copy, 1), 0);
  assert_doubles(teal_context_continuous_state(copy), k_x0, 5);
  teal_context_free(copy);
  teal_context_free(ctx);
  teal_system_free(sys);
  assert_all_freed();
}
END_TEST

START_TEST(test_copy_from) {
  teal_system *sys = full_leaf_new();
  teal_context *src = new_ctx(sys);
  teal_context *dst = new_ctx(sys);
  scramble(src, 10.0);
  unsigned long allocs = ts_alloc_allocs();
  ck_assert_int_eq(teal_context_copy_from(dst, src), TEAL_OK);
  ck_assert_uint_eq(ts_alloc_allocs(), allocs); /* allocates nothing */
  assert_scrambled(sys, dst, 10.0);
  assert_scrambled(sys, src, 10.0);
  /* copying an unfixed input unfixes it in dst */
  teal_context *fresh = new_ctx(sys);
  ck_assert_int_eq(teal_context_copy_from(dst, fresh), TEAL_OK);
  ck_assert_int_eq(teal_context_input_is_fixed(dst, 0), 0);
  ck_assert_int_eq(teal_context_input_is_fixed(dst, 1), 0);
  assert_doubles(teal_context_continuous_state(dst), k_x0, 5);
  assert_buf(teal_context_abstract_state(dst, 0), k_model, 3);
  /* different systems */
  teal_system *other = full_leaf_new();
  teal_context *octx = new_ctx(other);
  ck_assert_int_eq(teal_context_copy_from(octx, src), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_copy_from(NULL, src), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_copy_from(dst, NULL), TEAL_EINVAL);
  teal_context_free(octx);
  teal_system_free(other);
  teal_context_free(fresh);
  teal_context_free(src);
  teal_context_free(dst);
  teal_system_free(sys);
  assert_all_freed();
}
END_TEST

START_TEST(test_set_to_defaults) {
  teal_system *sys = full_leaf_new();
  teal_context *ctx = new_ctx(sys);
  scramble(ctx, 50.0);
  ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_OK);
  ck_assert(teal_context_time(ctx) == 0.0);
  assert_doubles(teal_context_continuous_state(ctx), k_x0, 5);
  assert_doubles(teal_context_discrete_group(ctx, 0), k_g0, 2);
  assert_doubles(teal_context_discrete_group(ctx, 1), k_g1, 3);
  assert_doubles(teal_context_numeric_parameter(ctx, 0), k_p0, 2);
  assert_doubles(teal_context_numeric_parameter(ctx, 1), k_p1, 1);
  assert_buf(teal_context_abstract_state(ctx, 0), k_model, 3);
  const pair *pr = teal_context_abstract_state(ctx, 1);
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
  assert_all_freed();
}
END_TEST

START_TEST(test_report_error) {
  teal_system *sys = full_leaf_new();
  teal_context *ctx = new_ctx(sys);
  ck_assert_int_eq(teal_context_report_error(ctx, TEAL_ESINGULAR, "pivot %d is %g", 3, 0.0),
                   TEAL_ESINGULAR);
  ASSERT_CTX_ERROR(ctx, TEAL_ESINGULAR, "pivot 3 is 0");
  ck_assert_int_eq(teal_context_report_error(NULL, TEAL_EIO, "x"), TEAL_EIO);
  ck_assert_ptr_null(teal_context_error(NULL));
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* ---- diagrams: subcontexts and layout --------------------------------- */

/* Leaf with nq = nv = nz = 1, defaults {10 id + 1, 10 id + 2, 10 id + 3}
 * and derivatives {100 id + 1, 100 id + 2, 100 id + 3}. */
static int tri_deriv(const teal_system *sys, const teal_context *ctx,
                     teal_continuous_view *xdot, void *user) {
  (void)sys;
  (void)ctx;
  int id = *(const int *)user;
  xdot->q[0] = 100 * id + 1;
  xdot->v[0] = 100 * id + 2;
  xdot->z[0] = 100 * id + 3;
  return TEAL_OK;
}

static const int k_ids[4] = {0, 1, 2, 3};

static teal_system *tri_leaf_new(const char *name, int id) {
  teal_system *sys = teal_leaf_new(name, NULL, NULL);
  double x0[3] = {10 * id + 1, 10 * id + 2, 10 * id + 3};
  teal_leaf_declare_continuous_state(sys, 1, 1, 1, x0);
  teal_leaf_set_time_derivatives(sys, tri_deriv, (void *)&k_ids[id]);
  teal_leaf_declare_vector_input(sys, "u", 1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  return sys;
}

static teal_system *build(teal_builder *b) {
  teal_error err;
  teal_error_clear(&err);
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build failed: %s", err.message);
  return d;
}

START_TEST(test_two_leaf_layout) {
  teal_builder *b = teal_builder_new("pair");
  teal_system *l1 = teal_builder_add(b, tri_leaf_new("l1", 1));
  teal_system *l2 = teal_builder_add(b, tri_leaf_new("l2", 2));
  teal_system *d = build(b);
  int nq, nv, nz;
  ck_assert_int_eq(teal_system_num_continuous_states(d, &nq, &nv, &nz), 6);
  ck_assert_int_eq(nq, 2);
  ck_assert_int_eq(nv, 2);
  ck_assert_int_eq(nz, 2);
  teal_context *ctx = new_ctx(d);
  const double *x = teal_context_continuous_state(ctx);
  const double want[6] = {11, 21, 12, 22, 13, 23};
  assert_doubles(x, want, 6);
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
  assert_doubles(xdot, want_dot, 6);
  double sub[3];
  ck_assert_int_eq(teal_context_get_continuous_state(c2, sub, 3), TEAL_OK);
  const double want2[3] = {21, 22, 23};
  assert_doubles(sub, want2, 3);
  teal_context_free(ctx);
  teal_system_free(d);
  assert_all_freed();
}
END_TEST

static teal_system *discrete_leaf_new(const char *name, int ngroups, const int *sizes,
                                      const double *defaults) {
  teal_system *sys = teal_leaf_new(name, NULL, NULL);
  for (int g = 0; g < ngroups; g++) {
    ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, sizes[g], defaults), g);
    defaults += sizes[g];
  }
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &pair_type, NULL), 0);
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
  teal_system *d = build(b);
  ck_assert_int_eq(teal_system_num_discrete_states(d), 5);
  ck_assert_int_eq(teal_system_num_discrete_groups(d), 0);
  ck_assert_int_eq(teal_system_num_abstract_states(d), 2);
  teal_context *ctx = new_ctx(d);
  const double *xd = teal_context_discrete_state(ctx);
  const double want[5] = {1, 2, 3, 4, 5};
  assert_doubles(xd, want, 5);
  teal_context *pc = teal_context_subcontext_mut(ctx, p);
  teal_context *rc = teal_context_subcontext_mut(ctx, r);
  ck_assert_ptr_eq(teal_context_discrete_state(pc), xd);
  ck_assert_ptr_eq(teal_context_discrete_group(pc, 1), xd + 1);
  ck_assert_ptr_eq(teal_context_discrete_state(rc), xd + 3);
  ck_assert_ptr_eq(teal_context_discrete_group(rc, 0), xd + 3);
  teal_context_discrete_state_mut(ctx)[4] = 50.0;
  ck_assert(teal_context_discrete_group(rc, 0)[1] == 50.0);
  /* each leaf's abstract state is its own */
  pair v = {1.0, 2.0};
  ck_assert_int_eq(teal_context_set_abstract_state(pc, 0, &v), TEAL_OK);
  const pair *rv = teal_context_abstract_state(rc, 0);
  ck_assert(rv->a == 0.0 && rv->b == 0.0);
  teal_context_free(ctx);
  teal_system_free(d);
  assert_all_freed();
}
END_TEST

/* outer { inner { a, b }, c } */
typedef struct nested {
  teal_system *outer, *inner, *a, *b, *c;
} nested;

static nested nested_new(void) {
  nested n;
  teal_builder *ib = teal_builder_new("inner");
  n.a = teal_builder_add(ib, tri_leaf_new("a", 1));
  n.b = teal_builder_add(ib, tri_leaf_new("b", 2));
  n.inner = build(ib);
  teal_builder *ob = teal_builder_new("outer");
  teal_builder_add(ob, n.inner);
  n.c = teal_builder_add(ob, tri_leaf_new("c", 3));
  n.outer = build(ob);
  return n;
}

START_TEST(test_nested_layout) {
  nested n = nested_new();
  teal_context *ctx = new_ctx(n.outer);
  const double *x = teal_context_continuous_state(ctx);
  const double want[9] = {11, 21, 31, 12, 22, 32, 13, 23, 33};
  assert_doubles(x, want, 9);
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
  assert_doubles(inner_x, want_inner, 6);

  const double nb[3] = {-1, -2, -3};
  ck_assert_int_eq(teal_context_set_continuous_state(ib, nb, 3), TEAL_OK);
  const double want2[9] = {11, -1, 31, 12, -2, 32, 13, -3, 33};
  assert_doubles(x, want2, 9);
  const double ni[6] = {-10, -20, -30, -40, -50, -60};
  ck_assert_int_eq(teal_context_set_continuous_state(ii, ni, 6), TEAL_OK);
  const double want3[9] = {-10, -20, 31, -30, -40, 32, -50, -60, 33};
  assert_doubles(x, want3, 9);
  ck_assert_int_eq(teal_context_set_continuous_state(ii, ni, 3), TEAL_ESIZE);

  double xdot[9];
  ck_assert_int_eq(teal_calc_time_derivatives(n.outer, ctx, xdot), TEAL_OK);
  const double want_dot[9] = {101, 201, 301, 102, 202, 302, 103, 203, 303};
  assert_doubles(xdot, want_dot, 9);
  double idot[6];
  ck_assert_int_eq(teal_calc_time_derivatives(n.inner, ii, idot), TEAL_OK);
  const double want_idot[6] = {101, 201, 102, 202, 103, 203};
  assert_doubles(idot, want_idot, 6);

  teal_context_free(ctx);
  teal_system_free(n.outer);
  assert_all_freed();
}
END_TEST

START_TEST(test_set_time_and_continuous_state_root_only) {
  nested n = nested_new();
  teal_context *ctx = new_ctx(n.outer);
  teal_context *ii = teal_context_subcontext_mut(ctx, n.inner);
  const double x[6] = {1, 2, 3, 4, 5, 6};
  ck_assert_int_eq(teal_context_set_time_and_continuous_state(ii, 1.0, x, 6), TEAL_EINVAL);
  ASSERT_CTX_ERROR(ctx, TEAL_EINVAL, "root");
  ck_assert_double_eq(teal_context_time(ctx), 0.0);
  const double xr[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  ck_assert_int_eq(teal_context_set_time_and_continuous_state(ctx, 2.0, xr, 9), TEAL_OK);
  assert_doubles(teal_context_continuous_state(ctx), xr, 9);
  ck_assert_double_eq(teal_context_q(teal_context_subcontext(ctx, n.b))[0], 2.0);
  teal_context_free(ctx);
  teal_system_free(n.outer);
  assert_all_freed();
}
END_TEST

START_TEST(test_subcontexts) {
  nested n = nested_new();
  teal_context *ctx = new_ctx(n.outer);
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
    ASSERT_CTX_ERROR(ctx, TEAL_ENOTFOUND, missing[k]);
  }
  ck_assert_ptr_null(teal_context_subcontext_by_name(ctx, NULL));

  /* a system that is not in this tree */
  teal_system *stranger = tri_leaf_new("stranger", 0);
  ck_assert_ptr_null(teal_context_subcontext(ctx, stranger));
  ASSERT_CTX_ERROR(ctx, TEAL_ENOTFOUND, "stranger");
  /* a sibling is not below inner */
  ck_assert_ptr_null(teal_context_subcontext(ci, n.c));
  ASSERT_CTX_ERROR(ctx, TEAL_ENOTFOUND, "'c'");
  ck_assert_ptr_null(teal_context_subcontext(ctx, NULL));
  teal_system_free(stranger);

  /* the tree shares one error record and one time */
  ck_assert_ptr_eq(teal_context_error(ca), teal_context_error(ctx));
  ck_assert_int_eq(teal_context_set_time(ctx, 2.5), TEAL_OK);
  ck_assert(teal_context_time(ca) == 2.5);
  ck_assert(teal_context_time(ci) == 2.5);
  ck_assert_int_eq(teal_context_set_time((teal_context *)ca, 3.0), TEAL_EINVAL);
  ASSERT_CTX_ERROR(ctx, TEAL_EINVAL, "root");
  ck_assert(teal_context_time(ctx) == 2.5);
  ck_assert_int_eq(teal_context_set_accuracy((teal_context *)ci, 1e-3), TEAL_EINVAL);

  teal_context_free((teal_context *)ca); /* ignored: not a root */
  ck_assert_ptr_eq(teal_context_subcontext(ctx, n.a), ca);
  teal_context_free(ctx);
  teal_system_free(n.outer);
  assert_all_freed();
}
END_TEST

START_TEST(test_continuous_state_of_subcontext_is_null) {
  nested n = nested_new();
  teal_context *ctx = new_ctx(n.outer);
  teal_context *ca = teal_context_subcontext_mut(ctx, n.a);
  teal_context *ci = teal_context_subcontext_mut(ctx, n.inner);
  ck_assert_ptr_null(teal_context_continuous_state(ca));
  ASSERT_CTX_ERROR(ctx, TEAL_EINVAL, "'a'");
  ck_assert_ptr_null(teal_context_continuous_state_mut(ca));
  ck_assert_ptr_null(teal_context_continuous_state(ci));
  ASSERT_CTX_ERROR(ctx, TEAL_EINVAL, "'inner'");
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
  teal_context *other = new_ctx(n.outer);
  ck_assert_int_eq(teal_context_copy_from(ci, teal_context_subcontext(other, n.inner)),
                   TEAL_EINVAL);
  teal_context_free(other);
  /* leaf-only accessors on a diagram context */
  ck_assert_ptr_null(teal_context_discrete_group(ctx, 0));
  ASSERT_CTX_ERROR(ctx, TEAL_EINVAL, "diagram");
  ck_assert_ptr_null(teal_context_numeric_parameter(ctx, 0));
  ck_assert_ptr_null(teal_context_abstract_state(ci, 0));
  teal_context_free(ctx);
  teal_system_free(n.outer);
  assert_all_freed();
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
  teal_system *d = build(b);
  teal_context *ctx = new_ctx(d);
  teal_context *c1 = teal_context_subcontext_mut(ctx, g1);
  teal_context *c2 = teal_context_subcontext_mut(ctx, g2);
  double v = 7.0;
  ck_assert_int_eq(teal_context_fix_input(c1, 0, &v, 1), TEAL_EINVAL);
  ASSERT_CTX_ERROR(ctx, TEAL_EINVAL, "connected");
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "g1"));
  ck_assert_int_eq(teal_context_unfix_input(c1, 0), TEAL_EINVAL);
  ck_assert_int_eq(teal_context_fix_input(c2, 0, &v, 1), TEAL_EINVAL);
  ASSERT_CTX_ERROR(ctx, TEAL_EINVAL, "connected");
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
  assert_all_freed();
}
END_TEST

START_TEST(test_nested_exported_input) {
  /* outer exports inner's exported input; only outer's root can fix it */
  teal_builder *ib = teal_builder_new("inner");
  teal_system *g = teal_builder_add(ib, ts_gain_new("g", 1, 4.0));
  ck_assert_int_ge(teal_builder_export_input(ib, teal_system_input_port(g, 0), "u"), 0);
  teal_system *inner = build(ib);
  teal_builder *ob = teal_builder_new("outer");
  teal_builder_add(ob, inner);
  ck_assert_int_ge(teal_builder_export_input(ob, teal_system_input_port(inner, 0), "u"), 0);
  teal_system *outer = build(ob);
  teal_context *ctx = new_ctx(outer);
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
  assert_all_freed();
}
END_TEST

START_TEST(test_inner_exported_input_fixed_on_subcontext) {
  /* inner exports g's input, outer leaves it unconnected: the inner
   * diagram's subcontext is where it can be fixed */
  teal_builder *ib = teal_builder_new("inner");
  teal_system *g = teal_builder_add(ib, ts_gain_new("g", 1, 4.0));
  ck_assert_int_ge(teal_builder_export_input(ib, teal_system_input_port(g, 0), "u"), 0);
  teal_system *inner = build(ib);
  teal_builder *ob = teal_builder_new("outer");
  teal_builder_add(ob, inner);
  teal_system *outer = build(ob);
  ck_assert_int_eq(teal_system_num_input_ports(outer), 0);
  teal_context *ctx = new_ctx(outer);
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
  assert_all_freed();
}
END_TEST

START_TEST(test_empty_diagram_context) {
  teal_system *d = build(teal_builder_new("nothing"));
  teal_context *ctx = new_ctx(d);
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
  assert_all_freed();
}
END_TEST

/* "Context of subsystem sub (any depth below ctx's system)": a leaf 70
 * diagrams down is still found, by handle and by path. */
enum { DEEP = 70 };

START_TEST(test_subcontext_at_any_depth) {
  teal_system *leaf = tri_leaf_new("x", 1);
  teal_system *sys = leaf;
  char path[DEEP * 8 + 8] = "";
  char name[16];
  for (int level = 0; level < DEEP; level++) {
    snprintf(name, sizeof name, "d%d", level);
    teal_builder *b = teal_builder_new(name);
    ck_assert_ptr_nonnull(teal_builder_add(b, sys));
    sys = build(b);
  }
  for (int level = DEEP - 2; level >= 0; level--) {
    snprintf(name, sizeof name, "d%d/", level);
    strcat(path, name);
  }
  strcat(path, "x");
  teal_context *ctx = new_ctx(sys);
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
  assert_all_freed();
}
END_TEST

START_TEST(test_diagram_set_to_defaults_and_clone) {
  nested n = nested_new();
  teal_context *ctx = new_ctx(n.outer);
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
  assert_doubles(x, want, 9);
  ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_OK);
  const double want2[9] = {11, 21, 31, 12, 22, 32, 13, 23, 33};
  assert_doubles(x, want2, 9);
  for (int i = 0; i < 9; i++) {
    ck_assert(cx[i] == -i); /* clone untouched */
  }
  teal_context_free(copy);
  teal_context_free(ctx);
  teal_system_free(n.outer);
  assert_all_freed();
}
END_TEST

/* ---- value types ------------------------------------------------------ */

START_TEST(test_value_type_equal) {
  const teal_value_type pair_copy = {"pair", sizeof(pair), NULL, NULL, NULL};
  const teal_value_type pair_other_size = {"pair", sizeof(pair) + 8, NULL, NULL, NULL};
  const teal_value_type other_name = {"pear", sizeof(pair), NULL, NULL, NULL};
  const teal_value_type nameless = {NULL, sizeof(pair), NULL, NULL, NULL};
  ck_assert_int_ne(teal_value_type_equal(&pair_type, &pair_type), 0);
  ck_assert_int_ne(teal_value_type_equal(&pair_type, &pair_copy), 0);
  ck_assert_int_eq(teal_value_type_equal(&pair_type, &pair_other_size), 0);
  ck_assert_int_eq(teal_value_type_equal(&pair_type, &other_name), 0);
  ck_assert_int_eq(teal_value_type_equal(&pair_type, &nameless), 0);
  ck_assert_int_eq(teal_value_type_equal(&nameless, &pair_type), 0);
  ck_assert_int_ne(teal_value_type_equal(&nameless, &nameless), 0);
  ck_assert_int_eq(teal_value_type_equal(&pair_type, NULL), 0);
  ck_assert_int_eq(teal_value_type_equal(NULL, &pair_type), 0);
  ck_assert_int_eq(teal_value_type_equal(&pair_type, &ts_buf_type), 0);
}
END_TEST

START_TEST(test_value_hooks) {
  /* no hooks: zero fill and memcpy */
  pair p = {9.0, 9.0}, q = {1.0, 2.0};
  ck_assert_int_eq(teal_value_init(&pair_type, &p), TEAL_OK);
  ck_assert(p.a == 0.0 && p.b == 0.0);
  ck_assert_int_eq(teal_value_copy(&pair_type, &p, &q), TEAL_OK);
  ck_assert(p.a == 1.0 && p.b == 2.0);
  teal_value_release(&pair_type, &p);
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
  assert_buf(&b, v, 6);
  ck_assert_ptr_ne(a.data, b.data);
  /* copying a value onto itself is a no-op that succeeds */
  ck_assert_int_eq(teal_value_copy(&ts_buf_type, &b, &b), TEAL_OK);
  assert_buf(&b, v, 6);
  teal_value_release(&ts_buf_type, &a);
  teal_value_release(&ts_buf_type, &b);
  teal_value_release(&ts_buf_type, NULL); /* ignored */
  ck_assert_int_eq(ts_buf_stats_get()->live, 0);
  assert_all_freed();
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
  teal_context *ctx = new_ctx(sys);
  void *value = NULL;
  /* copy failures surface with their code */
  flaky_copy_fail = 1;
  ck_assert_int_eq(teal_context_set_abstract_state(ctx, 0, &value), TEAL_EIO);
  ASSERT_CTX_ERROR(ctx, TEAL_EIO, "flaky_leaf");
  flaky_copy_fail = 1;
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, 0, &value), TEAL_EIO);
  ck_assert_int_eq(teal_context_input_is_fixed(ctx, 0), 0);
  flaky_copy_fail = 1;
  ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_EIO);
  teal_context *other = new_ctx(sys);
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
  assert_all_freed();
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

static Suite *context_suite(void) {
  Suite *s = suite_create("context");
  TCase *tc = tcase_create("leaf");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_defaults);
  tcase_add_test(tc, test_two_contexts_are_independent);
  tcase_add_test(tc, test_context_new_errors);
  tcase_add_test(tc, test_time);
  tcase_add_test(tc, test_accuracy);
  tcase_add_test(tc, test_continuous_layout_leaf);
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
  tcase_add_test(tc, test_clone_is_deep);
  tcase_add_test(tc, test_scratch_values);
  tcase_add_test(tc, test_clone_of_unfixed_context);
  tcase_add_test(tc, test_copy_from);
  tcase_add_test(tc, test_set_to_defaults);
  tcase_add_test(tc, test_report_error);
  suite_add_tcase(s, tc);

  tc = tcase_create("values");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_value_type_equal);
  tcase_add_test(tc, test_value_hooks);
  tcase_add_test(tc, test_failing_value_hooks);
  suite_add_tcase(s, tc);

  tc = tcase_create("diagram");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_two_leaf_layout);
  tcase_add_test(tc, test_nested_layout);
  tcase_add_test(tc, test_set_time_and_continuous_state_root_only);
  tcase_add_test(tc, test_diagram_discrete_layout);
  tcase_add_test(tc, test_subcontexts);
  tcase_add_test(tc, test_continuous_state_of_subcontext_is_null);
  tcase_add_test(tc, test_fix_connected_input_rejected);
  tcase_add_test(tc, test_nested_exported_input);
  tcase_add_test(tc, test_diagram_set_to_defaults_and_clone);
  tcase_add_test(tc, test_inner_exported_input_fixed_on_subcontext);
  tcase_add_test(tc, test_empty_diagram_context);
  tcase_add_test(tc, test_subcontext_at_any_depth);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(context_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
