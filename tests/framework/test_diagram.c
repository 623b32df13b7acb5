/* Tests of built diagrams (framework/diagram.c): evaluation through
 * connections, exports, feedthrough, lookups, and the equivalence of a
 * three-level nested diagram with the equivalent flat diagram. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"
#include "framework/value.h"
#include "support/diagram_fixtures.h"
#include "support/test_support.h"

/* Make every UBSan report fatal (the suite must be UBSan clean); harmless
 * in builds without the sanitizer. Weak, so a definition elsewhere wins. */
const char *__ubsan_default_options(void);
#if defined(__GNUC__)
__attribute__((weak))
#endif
const char *__ubsan_default_options(void) {
  return "halt_on_error=1:print_stacktrace=1";
}

/* Mass-spring-damper driven by force f: q' = v, v' = (f - k q - c v) / m,
 * output x = [q, v] (depends on state only). */
static int msd_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_q(ctx)[0];
  out[1] = teal_context_v(ctx)[0];
  return TEAL_OK;
}

static int msd_deriv(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                     void *user) {
  (void)user;
  const ts_db_leaf_data *d = teal_system_user(sys);
  const double *f = NULL;
  int rc = teal_eval_vector_input(sys, ctx, 0, &f);
  if (rc) {
    return rc;
  }
  double q = teal_context_q(ctx)[0], v = teal_context_v(ctx)[0];
  xd->q[0] = v;
  xd->v[0] = (f[0] - d->k * q - d->c * v) / d->m;
  return TEAL_OK;
}

static teal_system *msd_new(const char *name, double k, double c, double m) {
  ts_db_leaf_data *d = ts_db_leaf_data_new(NULL);
  d->k = k;
  d->c = c;
  d->m = m;
  teal_system *s = teal_leaf_new(name, d, ts_db_leaf_data_free);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "f", 1), 0);
  teal_ticket qv[2] = {TEAL_TICKET_Q, TEAL_TICKET_V};
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "x", 2, msd_out, NULL, qv, 2), 0);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(s, 1, 1, 0, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(s, msd_deriv, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* ---- evaluation through built diagrams ------------------------------- */

START_TEST(test_unconnected_input_reports_port_and_path) {
  teal_builder *b = teal_builder_new("plant");
  teal_system *g1 = teal_builder_add(b, ts_db_gain_new("g1", 1, 1.0, NULL));
  teal_system *g2 = teal_builder_add(b, ts_db_gain_new("g2", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g1, "y"), ts_db_in_port(g2, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g2, "y"), "y"), 0);
  teal_system *inner = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(inner);
  /* nest it once so the path has two levels */
  b = teal_builder_new("world");
  teal_builder_add(b, inner);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(inner, "y"), "y"), 0);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  teal_context *ctx = teal_context_new(d, NULL);
  ck_assert_ptr_nonnull(ctx);

  const double *y = NULL;
  int rc = teal_eval_vector_output(d, ctx, 0, &y);
  ck_assert_int_eq(rc, TEAL_ENOTCONNECTED);
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_ENOTCONNECTED);
  TS_DB_ASSERT_HAS(e->message, "'u'");
  TS_DB_ASSERT_HAS(e->message, "world/plant/g1");

  /* directly on the leaf's subcontext */
  const teal_context *g1ctx = teal_context_subcontext_by_name(ctx, "plant/g1");
  ck_assert_ptr_nonnull(g1ctx);
  const double *u = NULL;
  ck_assert_int_eq(teal_eval_vector_input(g1, g1ctx, 0, &u), TEAL_ENOTCONNECTED);
  TS_DB_ASSERT_HAS(teal_context_error(ctx)->message, "world/plant/g1");

  /* fixing the leaf's own (unconnected) input makes it work */
  teal_context *g1mut = teal_context_subcontext_by_name_mut(ctx, "plant/g1");
  double v = -3.0;
  ck_assert_int_eq(teal_context_fix_input(g1mut, 0, &v, 1), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], -3.0, 1e-15);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_fan_out) {
  double c[2] = {1.0, -2.0};
  teal_builder *b = teal_builder_new("fan");
  teal_system *src = teal_builder_add(b, ts_db_const_new("src", 2, c, NULL));
  teal_system *a = teal_builder_add(b, ts_db_gain_new("a", 2, 2.0, NULL));
  teal_system *bb = teal_builder_add(b, ts_db_gain_new("b", 2, -1.0, NULL));
  teal_system *cc = teal_builder_add(b, ts_db_gain_new("c", 2, 10.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(src, "y"), ts_db_in_port(a, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(src, "y"), ts_db_in_port(bb, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(src, "y"), ts_db_in_port(cc, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(a, "y"), NULL), 0);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(bb, "y"), NULL), 1);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(cc, "y"), NULL), 2);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  teal_context *ctx = teal_context_new(d, NULL);
  const double expect_k[3] = {2.0, -1.0, 10.0};
  for (int o = 0; o < 3; o++) {
    const double *y = NULL;
    ck_assert_int_eq(teal_eval_vector_output(d, ctx, o, &y), TEAL_OK);
    ck_assert_double_eq_tol(y[0], expect_k[o] * 1.0, 1e-15);
    ck_assert_double_eq_tol(y[1], expect_k[o] * -2.0, 1e-15);
  }
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_export_input_fans_out) {
  teal_builder *b = teal_builder_new("bus");
  teal_system *g1 = teal_builder_add(b, ts_db_gain_new("g1", 2, 1.0, NULL));
  teal_system *g2 = teal_builder_add(b, ts_db_gain_new("g2", 2, 2.0, NULL));
  teal_system *g3 = teal_builder_add(b, ts_db_gain_new("g3", 2, -3.0, NULL));
  ck_assert_int_eq(teal_builder_export_input(b, ts_db_in_port(g1, "u"), "cmd"), 0);
  ck_assert_int_eq(teal_builder_connect_input(b, "cmd", ts_db_in_port(g2, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_input(b, "cmd", ts_db_in_port(g3, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g3, "y"), "y3"), 0);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  ck_assert_int_eq(teal_system_num_input_ports(d), 1);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(d, 0)), "cmd");
  ck_assert_int_eq(teal_input_port_size(teal_system_input_port(d, 0)), 2);
  ck_assert(teal_system_has_direct_feedthrough(d, 0, 0));

  teal_context *ctx = teal_context_new(d, NULL);
  double u[2] = {4.0, 5.0};
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, u, 2), TEAL_OK);
  const char *names[3] = {"g1", "g2", "g3"};
  const teal_system *subs[3] = {g1, g2, g3};
  for (int i = 0; i < 3; i++) {
    const teal_context *sc = teal_context_subcontext_by_name(ctx, names[i]);
    ck_assert_ptr_nonnull(sc);
    const double *in = NULL;
    ck_assert_int_eq(teal_eval_vector_input(subs[i], sc, 0, &in), TEAL_OK);
    ck_assert_double_eq(in[0], 4.0);
    ck_assert_double_eq(in[1], 5.0);
    /* the subsystem input itself cannot be fixed: it is fed by the diagram */
    teal_context *scm = teal_context_subcontext_by_name_mut(ctx, names[i]);
    ck_assert_int_eq(teal_context_fix_input(scm, 0, u, 2), TEAL_EINVAL);
  }
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], -12.0, 1e-15);
  ck_assert_double_eq_tol(y[1], -15.0, 1e-15);
  /* a new fixed value reaches every subsystem (no stale cache) */
  double u2[2] = {1.0, -1.0};
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, u2, 2), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], -3.0, 1e-15);
  ck_assert_double_eq_tol(y[1], 3.0, 1e-15);
  const double *in2 = NULL;
  ck_assert_int_eq(
      teal_eval_vector_input(g2, teal_context_subcontext(ctx, g2), 0, &in2), TEAL_OK);
  ck_assert_double_eq(in2[0], 1.0);
  ck_assert_double_eq(in2[1], -1.0);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_connect_input_unknown_name) {
  teal_builder *b = teal_builder_new("bus");
  teal_system *g1 = teal_builder_add(b, ts_db_gain_new("g1", 1, 1.0, NULL));
  teal_system *g2 = teal_builder_add(b, ts_db_gain_new("g2", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_input(b, ts_db_in_port(g1, "u"), "cmd"), 0);
  ck_assert_int_eq(teal_builder_connect_input(b, "cmnd", ts_db_in_port(g2, "u")), TEAL_ENOTFOUND);
  TS_DB_ASSERT_HAS(teal_builder_error(b)->message, "'cmnd'");
  teal_builder_free(b);
}
END_TEST

/* An output that depends on nothing (TEAL_TICKET_NOTHING) has an empty
 * dependency list; creating the context and evaluating it must be clean. */
START_TEST(test_source_depending_on_nothing) {
  teal_system *src = teal_leaf_new("src", ts_db_leaf_data_new(NULL), ts_db_leaf_data_free);
  ((ts_db_leaf_data *)teal_system_user(src))->rows = 1;
  ((ts_db_leaf_data *)teal_system_user(src))->K[0] = 7.25;
  teal_ticket nothing = TEAL_TICKET_NOTHING;
  ck_assert_int_eq(
      teal_leaf_declare_vector_output(src, "y", 1, ts_db_const_calc, NULL, &nothing, 1), 0);
  ck_assert_int_eq(teal_leaf_finalize(src), TEAL_OK);
  teal_builder *b = teal_builder_new("d");
  teal_builder_add(b, src);
  teal_system *g = teal_builder_add(b, ts_db_gain_new("g", 1, 2.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(src, "y"), ts_db_in_port(g, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g, "y"), "y"), 0);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  teal_error err;
  teal_context *ctx = teal_context_new(d, &err);
  ck_assert_msg(ctx != NULL, "%s", err.message);
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], 14.5, 1e-15);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_exported_outputs_evaluate) {
  double c = 0.5;
  teal_builder *b = teal_builder_new("chain");
  teal_system *src = teal_builder_add(b, ts_db_const_new("src", 1, &c, NULL));
  teal_system *g1 = teal_builder_add(b, ts_db_gain_new("g1", 1, 4.0, NULL));
  teal_system *g2 = teal_builder_add(b, ts_db_gain_new("g2", 1, -3.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(src, "y"), ts_db_in_port(g1, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g1, "y"), ts_db_in_port(g2, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g2, "y"), "last"), 0);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g1, "y"), "mid"), 1);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  ck_assert_int_eq(teal_system_num_output_ports(d), 2);
  ck_assert_int_eq(teal_output_port_size(teal_system_output_port(d, 0)), 1);
  ck_assert_ptr_eq(teal_output_port_system(teal_system_output_port(d, 0)), d);
  teal_context *ctx = teal_context_new(d, NULL);
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], -6.0, 1e-15);
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 1, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], 2.0, 1e-15);
  double out = 0.0;
  ck_assert_int_eq(teal_calc_vector_output(d, ctx, 0, &out), TEAL_OK);
  ck_assert_double_eq_tol(out, -6.0, 1e-15);
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 2, &y), TEAL_ENOTFOUND);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_default_export_names) {
  teal_builder *b = teal_builder_new("names");
  teal_system *g1 = teal_builder_add(b, ts_db_gain_new("g1", 1, 1.0, NULL));
  teal_system *g2 = teal_builder_add(b, ts_db_gain_new("g2", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g1, "y"), ts_db_in_port(g2, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_export_input(b, ts_db_in_port(g1, "u"), NULL), 0);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g2, "y"), NULL), 0);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g1, "y"), "custom"), 1);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(d, 0)), "g1_u");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(d, 0)), "g2_y");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(d, 1)), "custom");
  ck_assert_ptr_eq(teal_system_input_port_by_name(d, "g1_u"), teal_system_input_port(d, 0));
  ck_assert_ptr_eq(teal_system_output_port_by_name(d, "g2_y"), teal_system_output_port(d, 0));
  teal_system_free(d);
}
END_TEST

START_TEST(test_duplicate_export_names) {
  teal_builder *b = teal_builder_new("exp");
  teal_system *g1 = teal_builder_add(b, ts_db_gain_new("g1", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g1, "y"), NULL), 0);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g1, "y"), NULL), TEAL_EDUPLICATE);
  TS_DB_ASSERT_HAS(teal_builder_error(b)->message, "'g1_y'");
  teal_builder_free(b);

  b = teal_builder_new("exp");
  g1 = teal_builder_add(b, ts_db_gain_new("g1", 1, 1.0, NULL));
  teal_system *g2 = teal_builder_add(b, ts_db_gain_new("g2", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_input(b, ts_db_in_port(g1, "u"), "u"), 0);
  ck_assert_int_eq(teal_builder_export_input(b, ts_db_in_port(g2, "u"), "u"), TEAL_EDUPLICATE);
  TS_DB_ASSERT_HAS(teal_builder_error(b)->message, "'u'");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_diagram_feedthrough) {
  /* a -> g -> ya ; b -> int -> yb ; int.y -> g2 -> yc ; g.y -> g3 -> yd */
  teal_builder *b = teal_builder_new("ft");
  teal_system *g = teal_builder_add(b, ts_db_gain_new("g", 1, 1.0, NULL));
  teal_system *in = teal_builder_add(b, ts_db_integ_new("int", 1, NULL));
  teal_system *g2 = teal_builder_add(b, ts_db_gain_new("g2", 1, 1.0, NULL));
  teal_system *g3 = teal_builder_add(b, ts_db_gain_new("g3", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_input(b, ts_db_in_port(g, "u"), "a"), 0);
  ck_assert_int_eq(teal_builder_export_input(b, ts_db_in_port(in, "u"), "b"), 1);
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(in, "y"), ts_db_in_port(g2, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g, "y"), ts_db_in_port(g3, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g, "y"), "ya"), 0);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(in, "y"), "yb"), 1);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g2, "y"), "yc"), 2);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g3, "y"), "yd"), 3);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  const int expect[4][2] = {{1, 0}, {0, 0}, {0, 0}, {1, 0}}; /* [out][in] */
  for (int o = 0; o < 4; o++) {
    for (int i = 0; i < 2; i++) {
      ck_assert_msg(teal_system_has_direct_feedthrough(d, i, o) == expect[o][i],
                    "feedthrough(in %d, out %d)", i, o);
    }
  }
  ck_assert_int_eq(teal_system_has_direct_feedthrough(d, 2, 0), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(d, 0, 4), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(d, -1, 0), 0);

  /* nested one level: the outer diagram inherits the inner feedthrough */
  teal_builder *ob = teal_builder_new("outer");
  teal_builder_add(ob, d);
  teal_system *h = teal_builder_add(ob, ts_db_gain_new("h", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_input(ob, ts_db_in_port(d, "b"), "ob"), 0);
  ck_assert_int_eq(teal_builder_export_input(ob, ts_db_in_port(d, "a"), "oa"), 1);
  ck_assert_int_eq(teal_builder_connect(ob, ts_db_out_port(d, "yd"), ts_db_in_port(h, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(ob, ts_db_out_port(h, "y"), "oy"), 0);
  ck_assert_int_eq(teal_builder_export_output(ob, ts_db_out_port(d, "yb"), "oyb"), 1);
  teal_system *outer = teal_builder_build(ob, NULL);
  ck_assert_ptr_nonnull(outer);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(outer, 0, 0), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(outer, 1, 0), 1);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(outer, 0, 1), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(outer, 1, 1), 0);
  teal_system_free(outer);
}
END_TEST

START_TEST(test_lookups) {
  teal_builder *ib = teal_builder_new("arm");
  teal_system *j1 = teal_builder_add(ib, ts_db_gain_new("joint1", 1, 1.0, NULL));
  teal_system *j2 = teal_builder_add(ib, ts_db_gain_new("joint2", 1, 1.0, NULL));
  ck_assert_ptr_eq(teal_builder_find(ib, "joint1"), j1);
  ck_assert_ptr_eq(teal_builder_find(ib, "joint2"), j2);
  ck_assert_ptr_null(teal_builder_find(ib, "joint3"));
  ck_assert_ptr_null(teal_builder_find(ib, NULL));
  ck_assert_ptr_null(teal_builder_find(NULL, "joint1"));
  teal_system *arm = teal_builder_build(ib, NULL);
  ck_assert_ptr_nonnull(arm);

  teal_builder *b = teal_builder_new("robot");
  teal_system *base = teal_builder_add(b, ts_db_gain_new("base", 1, 1.0, NULL));
  ck_assert_ptr_eq(teal_builder_add(b, arm), arm);
  ck_assert_ptr_eq(teal_builder_find(b, "arm"), arm);
  teal_system *robot = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(robot);

  ck_assert_int_eq(teal_diagram_num_subsystems(robot), 2);
  ck_assert_int_eq(teal_diagram_num_subsystems(arm), 2);
  ck_assert_int_eq(teal_diagram_num_subsystems(base), 0);
  ck_assert_int_eq(teal_diagram_num_subsystems(NULL), 0);
  ck_assert_ptr_eq(teal_diagram_subsystem(robot, 0), base);
  ck_assert_ptr_eq(teal_diagram_subsystem(robot, 1), arm);
  ck_assert_ptr_null(teal_diagram_subsystem(robot, 2));
  ck_assert_ptr_null(teal_diagram_subsystem(robot, -1));
  ck_assert_ptr_eq(teal_diagram_find_subsystem(robot, "base"), base);
  ck_assert_ptr_eq(teal_diagram_find_subsystem(robot, "arm"), arm);
  ck_assert_ptr_eq(teal_diagram_find_subsystem(robot, "arm/joint1"), j1);
  ck_assert_ptr_eq(teal_diagram_find_subsystem(robot, "arm/joint2"), j2);
  ck_assert_ptr_eq(teal_diagram_find_subsystem(arm, "joint2"), j2);
  ck_assert_ptr_null(teal_diagram_find_subsystem(robot, "arm/joint9"));
  ck_assert_ptr_null(teal_diagram_find_subsystem(robot, "joint1"));
  ck_assert_ptr_null(teal_diagram_find_subsystem(robot, "base/joint1"));
  ck_assert_ptr_null(teal_diagram_find_subsystem(robot, "ar"));
  ck_assert_ptr_null(teal_diagram_find_subsystem(robot, NULL));
  ck_assert_ptr_eq(teal_system_parent(j1), arm);
  ck_assert_ptr_eq(teal_system_parent(arm), robot);
  ck_assert_ptr_null(teal_system_parent(robot));
  ck_assert(teal_system_is_diagram(robot));
  ck_assert(teal_system_is_diagram(arm));
  ck_assert(!teal_system_is_diagram(j1));
  ck_assert_str_eq(teal_system_name(robot), "robot");
  teal_system_free(robot);
}
END_TEST

/* ---- three-level nesting equals the flat diagram --------------------- */

static const double K_MIX[2] = {0.5, -2.0}; /* g1: y = 0.5 x0 - 2 x1 */

/* Flat: g0, m1, i1, g1, m2, g2, i2 (the nested tree's depth-first order). */
static teal_system *build_flat(void) {
  teal_builder *b = teal_builder_new("flat");
  teal_system *g0 = teal_builder_add(b, ts_db_gain_new("g0", 1, 1.5, NULL));
  teal_system *m1 = teal_builder_add(b, msd_new("m1", 4.0, 0.3, 2.0));
  teal_system *i1 = teal_builder_add(b, ts_db_integ_new("i1", 1, NULL));
  teal_system *g1 = teal_builder_add(b, ts_db_matgain_new("g1", 1, 2, K_MIX, NULL));
  teal_system *m2 = teal_builder_add(b, msd_new("m2", 9.0, 0.1, 0.5));
  teal_system *g2 = teal_builder_add(b, ts_db_gain_new("g2", 1, 3.0, NULL));
  teal_system *i2 = teal_builder_add(b, ts_db_integ_new("i2", 1, NULL));
  ck_assert_int_eq(teal_builder_export_input(b, ts_db_in_port(g0, "u"), "u"), 0);
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g0, "y"), ts_db_in_port(m1, "f")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(m1, "x"), ts_db_in_port(g1, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g1, "y"), ts_db_in_port(i1, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(i1, "y"), ts_db_in_port(m2, "f")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g1, "y"), ts_db_in_port(g2, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g2, "y"), ts_db_in_port(i2, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(m2, "x"), "x2"), 0);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(i2, "y"), "z2"), 1);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g2, "y"), "y2"), 2);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(m1, "x"), "x1"), 3);
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "flat build: %s", err.message);
  return d;
}

/* top = {L1, g2, i2}; L1 = {L2, g1, m2}; L2 = {g0, m1, i1}. */
static teal_system *build_nested(void) {
  teal_error err;
  teal_builder *b2 = teal_builder_new("L2");
  teal_system *g0 = teal_builder_add(b2, ts_db_gain_new("g0", 1, 1.5, NULL));
  teal_system *m1 = teal_builder_add(b2, msd_new("m1", 4.0, 0.3, 2.0));
  teal_system *i1 = teal_builder_add(b2, ts_db_integ_new("i1", 1, NULL));
  ck_assert_int_eq(teal_builder_connect(b2, ts_db_out_port(g0, "y"), ts_db_in_port(m1, "f")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_export_input(b2, ts_db_in_port(g0, "u"), "u2"), 0);
  ck_assert_int_eq(teal_builder_export_input(b2, ts_db_in_port(i1, "u"), "ui"), 1);
  ck_assert_int_eq(teal_builder_export_output(b2, ts_db_out_port(m1, "x"), "x1"), 0);
  ck_assert_int_eq(teal_builder_export_output(b2, ts_db_out_port(i1, "y"), "z1"), 1);
  teal_system *l2 = teal_builder_build(b2, &err);
  ck_assert_msg(l2 != NULL, "L2 build: %s", err.message);

  teal_builder *b1 = teal_builder_new("L1");
  teal_builder_add(b1, l2);
  teal_system *g1 = teal_builder_add(b1, ts_db_matgain_new("g1", 1, 2, K_MIX, NULL));
  teal_system *m2 = teal_builder_add(b1, msd_new("m2", 9.0, 0.1, 0.5));
  ck_assert_int_eq(teal_builder_connect(b1, ts_db_out_port(l2, "x1"), ts_db_in_port(g1, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b1, ts_db_out_port(g1, "y"), ts_db_in_port(l2, "ui")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b1, ts_db_out_port(l2, "z1"), ts_db_in_port(m2, "f")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_export_input(b1, ts_db_in_port(l2, "u2"), "u1"), 0);
  ck_assert_int_eq(teal_builder_export_output(b1, ts_db_out_port(g1, "y"), "y1"), 0);
  ck_assert_int_eq(teal_builder_export_output(b1, ts_db_out_port(m2, "x"), "x2"), 1);
  ck_assert_int_eq(teal_builder_export_output(b1, ts_db_out_port(l2, "x1"), "x1"), 2);
  teal_system *l1 = teal_builder_build(b1, &err);
  ck_assert_msg(l1 != NULL, "L1 build: %s", err.message);

  teal_builder *b0 = teal_builder_new("top");
  teal_builder_add(b0, l1);
  teal_system *g2 = teal_builder_add(b0, ts_db_gain_new("g2", 1, 3.0, NULL));
  teal_system *i2 = teal_builder_add(b0, ts_db_integ_new("i2", 1, NULL));
  ck_assert_int_eq(teal_builder_connect(b0, ts_db_out_port(l1, "y1"), ts_db_in_port(g2, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b0, ts_db_out_port(g2, "y"), ts_db_in_port(i2, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_export_input(b0, ts_db_in_port(l1, "u1"), "u"), 0);
  ck_assert_int_eq(teal_builder_export_output(b0, ts_db_out_port(l1, "x2"), "x2"), 0);
  ck_assert_int_eq(teal_builder_export_output(b0, ts_db_out_port(i2, "y"), "z2"), 1);
  ck_assert_int_eq(teal_builder_export_output(b0, ts_db_out_port(g2, "y"), "y2"), 2);
  ck_assert_int_eq(teal_builder_export_output(b0, ts_db_out_port(l1, "x1"), "x1"), 3);
  teal_system *top = teal_builder_build(b0, &err);
  ck_assert_msg(top != NULL, "top build: %s", err.message);
  return top;
}

static double lcg_uniform(unsigned long *s) {
  *s = *s * 6364136223846793005UL + 1442695040888963407UL;
  return (double)((*s >> 11) & ((1UL << 53) - 1)) / (double)(1UL << 53) * 2.0 - 1.0;
}

START_TEST(test_three_level_nesting_matches_flat) {
  teal_system *flat = build_flat();
  teal_system *top = build_nested();
  int nq, nv, nz, fq, fv, fz;
  ck_assert_int_eq(teal_system_num_continuous_states(top, &nq, &nv, &nz), 6);
  ck_assert_int_eq(teal_system_num_continuous_states(flat, &fq, &fv, &fz), 6);
  ck_assert_int_eq(nq, 2);
  ck_assert_int_eq(nv, 2);
  ck_assert_int_eq(nz, 2);
  ck_assert_int_eq(fq, nq);
  ck_assert_int_eq(fv, nv);
  ck_assert_int_eq(fz, nz);
  ck_assert_ptr_nonnull(teal_diagram_find_subsystem(top, "L1/L2/m1"));
  ck_assert(teal_system_has_direct_feedthrough(top, 0, 2) == 0); /* via m1 state */

  teal_context *cf = teal_context_new(flat, NULL);
  teal_context *cn = teal_context_new(top, NULL);
  ck_assert_ptr_nonnull(cf);
  ck_assert_ptr_nonnull(cn);
  unsigned long seed = 12345;
  for (int trial = 0; trial < 20; trial++) {
    double x[6], u = lcg_uniform(&seed) * 3.0;
    for (int i = 0; i < 6; i++) {
      x[i] = lcg_uniform(&seed) * 5.0;
    }
    ck_assert_int_eq(teal_context_set_continuous_state(cf, x, 6), TEAL_OK);
    ck_assert_int_eq(teal_context_set_continuous_state(cn, x, 6), TEAL_OK);
    ck_assert_int_eq(teal_context_fix_input(cf, 0, &u, 1), TEAL_OK);
    ck_assert_int_eq(teal_context_fix_input(cn, 0, &u, 1), TEAL_OK);

    double df[6], dn[6];
    ck_assert_int_eq(teal_calc_time_derivatives(flat, cf, df), TEAL_OK);
    ck_assert_int_eq(teal_calc_time_derivatives(top, cn, dn), TEAL_OK);
    /* hand-computed [q1 q2 v1 v2 z1 z2]' with m1(k4,c.3,m2), m2(k9,c.1,m.5) */
    double q1 = x[0], q2 = x[1], v1 = x[2], v2 = x[3], z1 = x[4];
    double g1y = 0.5 * q1 - 2.0 * v1;
    double expect[6] = {v1, v2, (1.5 * u - 4.0 * q1 - 0.3 * v1) / 2.0,
                        (z1 - 9.0 * q2 - 0.1 * v2) / 0.5, g1y, 3.0 * g1y};
    for (int i = 0; i < 6; i++) {
      ck_assert_msg(fabs(df[i] - expect[i]) < 1e-12, "flat xdot[%d] %g != %g", i, df[i],
                    expect[i]);
      ck_assert_msg(fabs(dn[i] - df[i]) < 1e-12, "trial %d xdot[%d]: nested %g flat %g", trial,
                    i, dn[i], df[i]);
    }
    for (int o = 0; o < 4; o++) {
      const double *yf = NULL, *yn = NULL;
      ck_assert_int_eq(teal_eval_vector_output(flat, cf, o, &yf), TEAL_OK);
      ck_assert_int_eq(teal_eval_vector_output(top, cn, o, &yn), TEAL_OK);
      int n = teal_output_port_size(teal_system_output_port(top, o));
      ck_assert_int_eq(n, teal_output_port_size(teal_system_output_port(flat, o)));
      for (int i = 0; i < n; i++) {
        ck_assert_msg(fabs(yn[i] - yf[i]) < 1e-12, "trial %d output %d[%d]: %g vs %g", trial,
                      o, i, yn[i], yf[i]);
      }
    }
    const double *y2 = NULL;
    ck_assert_int_eq(teal_eval_vector_output(top, cn, 2, &y2), TEAL_OK);
    ck_assert_double_eq_tol(y2[0], 3.0 * g1y, 1e-12);
  }
  teal_context_free(cf);
  teal_context_free(cn);
  teal_system_free(flat);
  teal_system_free(top);
}
END_TEST

static Suite *diagram_suite(void) {
  Suite *s = suite_create("diagram");
  TCase *tc = tcase_create("built_diagrams");
  tcase_add_test(tc, test_unconnected_input_reports_port_and_path);
  tcase_add_test(tc, test_fan_out);
  tcase_add_test(tc, test_export_input_fans_out);
  tcase_add_test(tc, test_connect_input_unknown_name);
  tcase_add_test(tc, test_exported_outputs_evaluate);
  tcase_add_test(tc, test_source_depending_on_nothing);
  tcase_add_test(tc, test_default_export_names);
  tcase_add_test(tc, test_duplicate_export_names);
  tcase_add_test(tc, test_diagram_feedthrough);
  tcase_add_test(tc, test_lookups);
  tcase_add_test(tc, test_three_level_nesting_matches_flat);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(diagram_suite());
}
