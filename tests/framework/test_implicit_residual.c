/* Tests of teal_calc_implicit_time_derivatives_residual: the default
 * residual (proposed minus explicit derivatives) of a linear leaf against its
 * closed form, a leaf's own residual hook, the [q; v; z] layout of a diagram
 * and of a subcontext, no allocation, and every bad input. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"
#include "support/test_support.h"

#define ASSERT_HAS(msg, sub)                                                                   \
  ck_assert_msg(strstr((msg), (sub)) != NULL, "message \"%s\" does not contain \"%s\"", (msg), \
                (sub))

#define TOL 1e-13

/* ---- leaves ------------------------------------------------------------------------- */

/* lin: x = [q0 q1 v0 v1 z] (nq = nv = 2, nz = 1), xdot = A x + c. */
static const double kA[5][5] = {{0.0, 0.0, 1.0, 0.0, 0.0},
                                {0.0, 0.0, 0.0, 1.0, 0.0},
                                {-2.0, 0.5, -0.1, 0.0, 0.3},
                                {0.25, -3.0, 0.0, -0.2, 0.0},
                                {1.0, -1.0, 0.5, 0.0, -4.0}};
static const double kc[5] = {0.5, -0.25, 1.0, 2.0, -3.0};

static int lin_deriv(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                     void *user) {
  (void)sys;
  (void)user;
  const double *q = teal_context_q(ctx), *v = teal_context_v(ctx), *z = teal_context_z(ctx);
  const double x[5] = {q[0], q[1], v[0], v[1], z[0]};
  double *out[5] = {&xd->q[0], &xd->q[1], &xd->v[0], &xd->v[1], &xd->z[0]};
  for (int i = 0; i < 5; i++) {
    double acc = kc[i];
    for (int j = 0; j < 5; j++) {
      acc += kA[i][j] * x[j];
    }
    *out[i] = acc;
  }
  return TEAL_OK;
}

static teal_system *lin_new(const char *name) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  const double x0[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
  ck_assert_int_eq(teal_leaf_declare_continuous_state(s, 2, 2, 1, x0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(s, lin_deriv, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* osc: q' = v, m v' = -k q, with its own residual in Drake's mechanical form:
 * r_q = qdot_p - v, r_v = m vdot_p + k q (the force imbalance). */
typedef struct osc {
  double m, k;
  int fail; /* the hook returns 1 */
} osc;

static int osc_deriv(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                     void *user) {
  (void)sys;
  const osc *o = user;
  xd->q[0] = teal_context_v(ctx)[0];
  xd->v[0] = -o->k / o->m * teal_context_q(ctx)[0];
  return TEAL_OK;
}

static int osc_residual(const teal_system *sys, const teal_context *ctx,
                        const teal_const_continuous_view *p, teal_continuous_view *r, void *user) {
  (void)sys;
  const osc *o = user;
  if (o->fail) {
    return 1;
  }
  r->q[0] = p->q[0] - teal_context_v(ctx)[0];
  r->v[0] = o->m * p->v[0] + o->k * teal_context_q(ctx)[0];
  return TEAL_OK;
}

static teal_system *osc_new(const char *name, osc *o) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  const double x0[2] = {0.0, 0.0};
  ck_assert_int_eq(teal_leaf_declare_continuous_state(s, 1, 1, 0, x0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(s, osc_deriv, o), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_implicit_time_derivatives_residual(s, osc_residual, o), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* top = {lin, osc}: root layout [lq0 lq1 oq | lv0 lv1 ov | lz]. */
static teal_system *top_new(osc *o) {
  teal_builder *b = teal_builder_new("top");
  teal_builder_add(b, lin_new("lin"));
  teal_builder_add(b, osc_new("osc", o));
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  return d;
}

static const double kx[7] = {0.3, -1.2, 0.7, 2.0, -0.4, 1.1, 0.9};
static const double kp[7] = {1.0, -2.0, 0.5, 0.25, 3.0, -1.5, 4.0};

/* The closed form of the residual of top at state kx for proposal kp. */
static void top_expected(const osc *o, double *r) {
  const double xl[5] = {kx[0], kx[1], kx[3], kx[4], kx[6]};
  const int at[5] = {0, 1, 3, 4, 6}; /* lin's entries in the root layout */
  for (int i = 0; i < 5; i++) {
    double f = kc[i];
    for (int j = 0; j < 5; j++) {
      f += kA[i][j] * xl[j];
    }
    r[at[i]] = kp[at[i]] - f;
  }
  r[2] = kp[2] - kx[5];               /* osc: qdot_p - v */
  r[5] = o->m * kp[5] + o->k * kx[2]; /* osc: m vdot_p + k q */
}

/* ---- tests -------------------------------------------------------------------------- */

START_TEST(test_default_residual_closed_form) {
  teal_system *s = lin_new("lin");
  teal_context *ctx = teal_context_new(s, NULL);
  const double x[5] = {0.3, -1.2, 2.0, -0.4, 0.9};
  const double p[5] = {1.0, -2.0, 0.25, 3.0, 4.0};
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, x, 5), TEAL_OK);
  ck_assert_int_eq(teal_implicit_time_derivatives_residual_size(s), 5);
  double r[5];
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(s, ctx, p, 5, r, 5), TEAL_OK);
  for (int i = 0; i < 5; i++) {
    double f = kc[i];
    for (int j = 0; j < 5; j++) {
      f += kA[i][j] * x[j];
    }
    ck_assert_msg(fabs(r[i] - (p[i] - f)) < TOL, "r[%d] = %g, expected %g", i, r[i], p[i] - f);
  }
  /* zero at the system's own derivatives */
  double xdot[5];
  ck_assert_int_eq(teal_calc_time_derivatives(s, ctx, xdot), TEAL_OK);
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(s, ctx, xdot, 5, r, 5), TEAL_OK);
  for (int i = 0; i < 5; i++) {
    ck_assert_double_eq(r[i], 0.0);
  }
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_diagram_layout_and_hook) {
  osc o = {2.5, 4.0, 0};
  teal_system *d = top_new(&o);
  teal_context *ctx = teal_context_new(d, NULL);
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, kx, 7), TEAL_OK);
  ck_assert_int_eq(teal_implicit_time_derivatives_residual_size(d), 7);
  double r[7], want[7];
  top_expected(&o, want);
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(d, ctx, kp, 7, r, 7), TEAL_OK);
  for (int i = 0; i < 7; i++) {
    ck_assert_msg(fabs(r[i] - want[i]) < TOL, "r[%d] = %g, expected %g", i, r[i], want[i]);
  }
  /* the hook's residual also vanishes at the explicit derivatives */
  double xdot[7];
  ck_assert_int_eq(teal_calc_time_derivatives(d, ctx, xdot), TEAL_OK);
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(d, ctx, xdot, 7, r, 7), TEAL_OK);
  for (int i = 0; i < 7; i++) {
    ck_assert_msg(fabs(r[i]) < TOL, "r[%d] = %g at the explicit derivatives", i, r[i]);
  }
  /* on osc's own subcontext, with osc's own layout [q; v] */
  const teal_system *os = teal_diagram_find_subsystem(d, "osc");
  ck_assert_ptr_nonnull(os);
  const teal_context *octx = teal_context_subcontext(ctx, os);
  const double po[2] = {kp[2], kp[5]};
  double ro[2];
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(os, octx, po, 2, ro, 2), TEAL_OK);
  ck_assert_double_eq_tol(ro[0], want[2], TOL);
  ck_assert_double_eq_tol(ro[1], want[5], TOL);
  /* the hook's failure is reported with the leaf's path */
  o.fail = 1;
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(d, ctx, kp, 7, r, 7),
                   TEAL_ECALLBACK);
  ASSERT_HAS(teal_context_error(ctx)->message, "implicit time derivatives residual");
  ASSERT_HAS(teal_context_error(ctx)->message, "top/osc");
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_no_allocation) {
  osc o = {1.0, 1.0, 0};
  teal_system *d = top_new(&o);
  teal_context *ctx = teal_context_new(d, NULL);
  double r[7];
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(d, ctx, kp, 7, r, 7), TEAL_OK);
  ts_alloc_install();
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(d, ctx, kp, 7, r, 7), TEAL_OK);
  unsigned long allocs = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_uint_eq(allocs, 0);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_bad_arguments) {
  osc o = {1.0, 1.0, 0};
  teal_system *d = top_new(&o);
  teal_context *ctx = teal_context_new(d, NULL);
  double r[7], bad[7];
  memcpy(bad, kp, sizeof(bad));
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(NULL, ctx, kp, 7, r, 7),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(d, NULL, kp, 7, r, 7), TEAL_EINVAL);
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(d, ctx, NULL, 7, r, 7),
                   TEAL_EINVAL);
  ASSERT_HAS(teal_context_error(ctx)->message, "proposed is NULL");
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(d, ctx, kp, 7, NULL, 7),
                   TEAL_EINVAL);
  ASSERT_HAS(teal_context_error(ctx)->message, "residual is NULL");
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(d, ctx, kp, 6, r, 7), TEAL_ESIZE);
  ASSERT_HAS(teal_context_error(ctx)->message, "proposed has 6 values");
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(d, ctx, kp, 7, r, 8), TEAL_ESIZE);
  ASSERT_HAS(teal_context_error(ctx)->message, "continuous state has 7");
  bad[4] = NAN;
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(d, ctx, bad, 7, r, 7),
                   TEAL_ENONFINITE);
  ASSERT_HAS(teal_context_error(ctx)->message, "proposed[4]");
  bad[4] = INFINITY;
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(d, ctx, bad, 7, r, 7),
                   TEAL_ENONFINITE);
  /* a context of another system */
  teal_system *other = lin_new("other");
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(other, ctx, kp, 5, r, 5),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_implicit_time_derivatives_residual_size(NULL), -1);
  teal_system_free(other);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_discrete_and_stateless) {
  teal_system *s = teal_leaf_new("dsc", NULL, NULL);
  const double xd0[2] = {1.0, 2.0};
  ck_assert_int_eq(teal_leaf_declare_discrete_state(s, 2, xd0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  teal_context *ctx = teal_context_new(s, NULL);
  double r[2];
  ck_assert_int_eq(teal_implicit_time_derivatives_residual_size(s), 0);
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(s, ctx, xd0, 0, r, 0),
                   TEAL_EUNSUPPORTED);
  ASSERT_HAS(teal_context_error(ctx)->message, "no continuous state");
  ASSERT_HAS(teal_context_error(ctx)->message, "dsc");
  teal_context_free(ctx);
  teal_system_free(s);

  /* no state at all: an empty residual, NULL arrays allowed */
  s = teal_leaf_new("empty", NULL, NULL);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  ctx = teal_context_new(s, NULL);
  ck_assert_int_eq(teal_calc_implicit_time_derivatives_residual(s, ctx, NULL, 0, NULL, 0), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_setter_errors) {
  ck_assert_int_eq(teal_leaf_set_implicit_time_derivatives_residual(NULL, osc_residual, NULL),
                   TEAL_EINVAL);
  teal_system *s = teal_leaf_new("leaf", NULL, NULL);
  ck_assert_int_eq(teal_leaf_set_implicit_time_derivatives_residual(s, NULL, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_system_error(s)->code, TEAL_EINVAL); /* sticky */
  ASSERT_HAS(teal_system_error(s)->message, "NULL callback");
  teal_system_free(s);

  s = lin_new("done");
  ck_assert_int_eq(teal_leaf_set_implicit_time_derivatives_residual(s, osc_residual, NULL),
                   TEAL_ESTATE);
  ASSERT_HAS(teal_system_error(s)->message, "already finalized");
  teal_system_free(s);

  osc o = {1.0, 1.0, 0};
  teal_system *d = top_new(&o);
  ck_assert_int_eq(teal_leaf_set_implicit_time_derivatives_residual(d, osc_residual, NULL),
                   TEAL_ESTATE);
  ASSERT_HAS(teal_system_error(d)->message, "a diagram");
  teal_system_free(d);
}
END_TEST

static Suite *implicit_residual_suite(void) {
  Suite *s = suite_create("implicit_residual");
  TCase *tc = tcase_create("residual");
  tcase_add_test(tc, test_default_residual_closed_form);
  tcase_add_test(tc, test_diagram_layout_and_hook);
  tcase_add_test(tc, test_no_allocation);
  suite_add_tcase(s, tc);
  tc = tcase_create("errors");
  tcase_add_test(tc, test_bad_arguments);
  tcase_add_test(tc, test_discrete_and_stateless);
  tcase_add_test(tc, test_setter_errors);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(implicit_residual_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
