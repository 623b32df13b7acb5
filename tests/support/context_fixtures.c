/* The fixtures declared in support/context_fixtures.h. */
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

void ts_ctx_setup(void) {
  ts_alloc_install();
  ts_buf_stats_reset();
}

void ts_ctx_teardown(void) {
  ts_alloc_uninstall();
}

/* Everything allocated by the test was freed, including ts_buf storage. */
void ts_ctx_assert_all_freed(void) {
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  ck_assert_int_eq(ts_buf_stats_get()->live, 0);
}
const teal_value_type ts_ctx_pair_type = {"pair", sizeof(ts_ctx_pair), NULL, NULL, NULL};

const double ts_ctx_k_x0[5] = {1, 2, 3, 4, 5}; /* q = {1,2}, v = {3,4}, z = {5} */
const double ts_ctx_k_g0[2] = {10, 11};
const double ts_ctx_k_g1[3] = {20, 21, 22};
const double ts_ctx_k_p0[2] = {0.5, 0.25};
const double ts_ctx_k_p1[1] = {-3};
const double ts_ctx_k_model[3] = {7, 8, 9};

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

teal_system *ts_ctx_full_leaf_new(void) {
  teal_system *sys = teal_leaf_new("full", NULL, NULL);
  ts_buf model;
  memset(&model, 0, sizeof model);
  ck_assert_int_eq(ts_buf_assign(&model, ts_ctx_k_model, 3), TEAL_OK);
  ts_ctx_pair pmodel = {1.5, 2.5};
  teal_ticket in0 = teal_ticket_input(0);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 2, 2, 1, ts_ctx_k_x0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, full_deriv, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 2, ts_ctx_k_g0), 0);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 3, ts_ctx_k_g1), 1);
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &ts_buf_type, &model), 0);
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &ts_ctx_pair_type, &pmodel), 1);
  ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, 2, ts_ctx_k_p0), 0);
  ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, 1, ts_ctx_k_p1), 1);
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

teal_context *ts_ctx_new_ctx(const teal_system *sys) {
  teal_error err;
  teal_error_clear(&err);
  teal_context *ctx = teal_context_new(sys, &err);
  ck_assert_msg(ctx != NULL, "context_new failed: %s", err.message);
  return ctx;
}

void ts_ctx_assert_doubles(const double *got, const double *want, int n) {
  ck_assert_ptr_nonnull(got);
  for (int i = 0; i < n; i++) {
    ck_assert_msg(got[i] == want[i], "element %d: got %g, want %g", i, got[i], want[i]);
  }
}

void ts_ctx_assert_buf(const void *value, const double *want, int n) {
  const ts_buf *b = value;
  ck_assert_ptr_nonnull(b);
  ck_assert_int_eq(b->n, n);
  ck_assert_int_ge(b->cap, n);
  ts_ctx_assert_doubles(b->data, want, n);
}

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

teal_system *ts_ctx_tri_leaf_new(const char *name, int id) {
  teal_system *sys = teal_leaf_new(name, NULL, NULL);
  double x0[3] = {10 * id + 1, 10 * id + 2, 10 * id + 3};
  teal_leaf_declare_continuous_state(sys, 1, 1, 1, x0);
  teal_leaf_set_time_derivatives(sys, tri_deriv, (void *)&k_ids[id]);
  teal_leaf_declare_vector_input(sys, "u", 1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  return sys;
}

teal_system *ts_ctx_build(teal_builder *b) {
  teal_error err;
  teal_error_clear(&err);
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build failed: %s", err.message);
  return d;
}

ts_ctx_nested ts_ctx_nested_new(void) {
  ts_ctx_nested n;
  teal_builder *ib = teal_builder_new("inner");
  n.a = teal_builder_add(ib, ts_ctx_tri_leaf_new("a", 1));
  n.b = teal_builder_add(ib, ts_ctx_tri_leaf_new("b", 2));
  n.inner = ts_ctx_build(ib);
  teal_builder *ob = teal_builder_new("outer");
  teal_builder_add(ob, n.inner);
  n.c = teal_builder_add(ob, ts_ctx_tri_leaf_new("c", 3));
  n.outer = ts_ctx_build(ob);
  return n;
}
