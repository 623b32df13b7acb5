/* Tests of whole-tree continuous dynamics: time derivatives in the
 * [q all; v all; z all] layout (root and subsystem contexts), callback error
 * propagation, velocity/qdot maps, energy sums, and analytic Jacobians. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"

/* Make every UBSan report fatal (the suite must be UBSan clean); harmless
 * in builds without the sanitizer. Weak, so a definition elsewhere wins. */
const char *__ubsan_default_options(void);
#if defined(__GNUC__)
__attribute__((weak))
#endif
const char *__ubsan_default_options(void) {
  return "halt_on_error=1:print_stacktrace=1";
}

#define ASSERT_HAS(msg, sub)                                                        \
  ck_assert_msg(strstr((msg), (sub)) != NULL, "message \"%s\" does not contain \"%s\"", \
                (msg), (sub))

#define TOL 1e-12

/* ---- leaves ----------------------------------------------------------- */

/* Mass-spring: q' = v, v' = -k/m q; output y = q; energy 0.5 k q^2 and
 * 0.5 m v^2. fail makes the derivative callback fail (see msd_deriv). */
typedef struct msd {
  double k, m;
  int fail; /* 0 ok, 1 return a positive value, 2 report TEAL_ENONFINITE */
  int energy_fail;
} msd;

static int msd_deriv(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                     void *user) {
  const msd *p = user;
  if (p->fail == 1) {
    return 1;
  }
  if (p->fail == 2) {
    return teal_context_report_error(ctx, TEAL_ENONFINITE, "spring '%s' snapped",
                                     teal_system_name(sys));
  }
  double q = teal_context_q(ctx)[0], v = teal_context_v(ctx)[0];
  xd->q[0] = v;
  xd->v[0] = -p->k / p->m * q;
  return TEAL_OK;
}

static int msd_pe(const teal_system *sys, const teal_context *ctx, double *e, void *user) {
  (void)sys;
  const msd *p = user;
  if (p->energy_fail) {
    return TEAL_ESINGULAR;
  }
  double q = teal_context_q(ctx)[0];
  *e = 0.5 * p->k * q * q;
  return TEAL_OK;
}

static int msd_ke(const teal_system *sys, const teal_context *ctx, double *e, void *user) {
  (void)sys;
  const msd *p = user;
  double v = teal_context_v(ctx)[0];
  *e = 0.5 * p->m * v * v;
  return TEAL_OK;
}

static int msd_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_q(ctx)[0];
  return TEAL_OK;
}

static teal_system *msd_new(const char *name, msd *p, double q0, double v0, int hooks) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_ptr_nonnull(s);
  double x0[2] = {q0, v0};
  ck_assert_int_eq(teal_leaf_declare_continuous_state(s, 1, 1, 0, x0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(s, msd_deriv, p), TEAL_OK);
  teal_ticket q = TEAL_TICKET_Q;
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", 1, msd_out, NULL, &q, 1), 0);
  if (hooks == 1) {
    ck_assert_int_eq(teal_leaf_set_energy(s, msd_pe, msd_ke, p), TEAL_OK);
  } else if (hooks == 2) { /* potential only */
    ck_assert_int_eq(teal_leaf_set_energy(s, msd_pe, NULL, p), TEAL_OK);
  }
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* Integrator z' = u (nz = 1), output y = z. */
static int integ_deriv(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                       void *user) {
  (void)user;
  const double *u = NULL;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  xd->z[0] = u[0];
  return TEAL_OK;
}

static int integ_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_z(ctx)[0];
  return TEAL_OK;
}

static teal_system *integ_new(const char *name, double z0) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(s, 0, 0, 1, &z0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(s, integ_deriv, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "u", 1), 0);
  teal_ticket z = TEAL_TICKET_Z;
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", 1, integ_out, NULL, &z, 1), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

static const teal_input_port *in_port(const teal_system *s, const char *name) {
  const teal_input_port *p = teal_system_input_port_by_name(s, name);
  ck_assert_ptr_nonnull(p);
  return p;
}

static const teal_output_port *out_port(const teal_system *s, const char *name) {
  const teal_output_port *p = teal_system_output_port_by_name(s, name);
  ck_assert_ptr_nonnull(p);
  return p;
}

static teal_system *build_or_die(teal_builder *b) {
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  return d;
}

/* flat = {m1, i, m2}, m1.y -> i.u */
static teal_system *flat_plant(msd *p1, msd *p2) {
  teal_builder *b = teal_builder_new("plant");
  teal_system *m1 = teal_builder_add(b, msd_new("m1", p1, 0.0, 0.0, 1));
  teal_system *in = teal_builder_add(b, integ_new("i", 0.0));
  teal_builder_add(b, msd_new("m2", p2, 0.0, 0.0, 1));
  ck_assert_int_eq(teal_builder_connect(b, out_port(m1, "y"), in_port(in, "u")), TEAL_OK);
  return build_or_die(b);
}

/* ---- time derivatives ------------------------------------------------- */

START_TEST(test_derivatives_layout_flat) {
  msd p1 = {2.0, 0.5, 0, 0}, p2 = {3.0, 4.0, 0, 0};
  teal_system *d = flat_plant(&p1, &p2);
  int nq, nv, nz;
  ck_assert_int_eq(teal_system_num_continuous_states(d, &nq, &nv, &nz), 5);
  ck_assert_int_eq(nq, 2);
  ck_assert_int_eq(nv, 2);
  ck_assert_int_eq(nz, 1);
  teal_context *ctx = teal_context_new(d, NULL);
  /* x = [q1 q2 v1 v2 z] */
  const double x[5] = {1.5, -2.0, 0.25, 3.0, 7.0};
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, x, 5), TEAL_OK);
  double xdot[5] = {NAN, NAN, NAN, NAN, NAN};
  ck_assert_int_eq(teal_calc_time_derivatives(d, ctx, xdot), TEAL_OK);
  const double expect[5] = {0.25, 3.0, -2.0 / 0.5 * 1.5, -3.0 / 4.0 * -2.0, 1.5};
  for (int i = 0; i < 5; i++) {
    ck_assert_msg(fabs(xdot[i] - expect[i]) < TOL, "xdot[%d] = %g, expected %g", i, xdot[i],
                  expect[i]);
  }
  /* per-leaf views agree with the layout */
  const teal_context *m2 = teal_context_subcontext_by_name(ctx, "m2");
  ck_assert_double_eq(teal_context_q(m2)[0], -2.0);
  ck_assert_double_eq(teal_context_v(m2)[0], 3.0);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* top = {inner = {m1, i}, m2}: the root layout is [q1 q2 v1 v2 z]; the
 * inner diagram's own layout is [q1 v1 z] and m2's is [q2 v2]. */
START_TEST(test_derivatives_on_subsystem_context) {
  msd p1 = {2.0, 0.5, 0, 0}, p2 = {3.0, 4.0, 0, 0};
  teal_builder *ib = teal_builder_new("inner");
  teal_system *m1 = teal_builder_add(ib, msd_new("m1", &p1, 0.0, 0.0, 1));
  teal_system *in = teal_builder_add(ib, integ_new("i", 0.0));
  ck_assert_int_eq(teal_builder_connect(ib, out_port(m1, "y"), in_port(in, "u")), TEAL_OK);
  teal_system *inner = build_or_die(ib);
  teal_builder *b = teal_builder_new("top");
  teal_builder_add(b, inner);
  teal_system *m2 = teal_builder_add(b, msd_new("m2", &p2, 0.0, 0.0, 1));
  teal_system *top = build_or_die(b);
  teal_context *ctx = teal_context_new(top, NULL);
  const double x[5] = {1.5, -2.0, 0.25, 3.0, 7.0};
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, x, 5), TEAL_OK);

  double all[5];
  ck_assert_int_eq(teal_calc_time_derivatives(top, ctx, all), TEAL_OK);
  const double expect[5] = {0.25, 3.0, -6.0, 1.5, 1.5};
  for (int i = 0; i < 5; i++) {
    ck_assert_msg(fabs(all[i] - expect[i]) < TOL, "root xdot[%d] = %g", i, all[i]);
  }

  const teal_context *ictx = teal_context_subcontext(ctx, inner);
  ck_assert_ptr_nonnull(ictx);
  double sub[3] = {NAN, NAN, NAN};
  ck_assert_int_eq(teal_calc_time_derivatives(inner, ictx, sub), TEAL_OK);
  ck_assert_double_eq_tol(sub[0], 0.25, TOL); /* q1' */
  ck_assert_double_eq_tol(sub[1], -6.0, TOL); /* v1' */
  ck_assert_double_eq_tol(sub[2], 1.5, TOL);  /* z' */
  double xs[3];
  ck_assert_int_eq(teal_context_get_continuous_state(ictx, xs, 3), TEAL_OK);
  ck_assert_double_eq(xs[0], 1.5);
  ck_assert_double_eq(xs[1], 0.25);
  ck_assert_double_eq(xs[2], 7.0);

  const teal_context *mctx = teal_context_subcontext(ctx, m2);
  double leaf[2] = {NAN, NAN};
  ck_assert_int_eq(teal_calc_time_derivatives(m2, mctx, leaf), TEAL_OK);
  ck_assert_double_eq_tol(leaf[0], 3.0, TOL);
  ck_assert_double_eq_tol(leaf[1], 1.5, TOL);

  /* the wrong system/context pairing is rejected */
  ck_assert_int_eq(teal_calc_time_derivatives(top, ictx, all), TEAL_EINVAL);
  ck_assert_int_eq(teal_calc_time_derivatives(top, ctx, NULL), TEAL_EINVAL);
  teal_context_free(ctx);
  teal_system_free(top);
}
END_TEST

START_TEST(test_derivative_errors_propagate) {
  msd p1 = {2.0, 0.5, 0, 0}, p2 = {3.0, 4.0, 1, 0};
  teal_system *d = flat_plant(&p1, &p2);
  teal_context *ctx = teal_context_new(d, NULL);
  double xdot[5];
  ck_assert_int_eq(teal_calc_time_derivatives(d, ctx, xdot), TEAL_ECALLBACK);
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_ECALLBACK);
  ASSERT_HAS(e->message, "time derivatives");
  ASSERT_HAS(e->message, "plant/m2");

  p2.fail = 2; /* the callback's own message is kept */
  ck_assert_int_eq(teal_calc_time_derivatives(d, ctx, xdot), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_ENONFINITE);
  ck_assert_str_eq(teal_context_error(ctx)->message, "spring 'm2' snapped");

  teal_context_free(ctx);
  teal_system_free(d);

  /* an error from an input evaluation inside the callback */
  teal_builder *b = teal_builder_new("open");
  teal_builder_add(b, integ_new("lonely", 0.0));
  d = build_or_die(b);
  ctx = teal_context_new(d, NULL);
  ck_assert_int_eq(teal_calc_time_derivatives(d, ctx, xdot), TEAL_ENOTCONNECTED);
  ASSERT_HAS(teal_context_error(ctx)->message, "open/lonely");
  ASSERT_HAS(teal_context_error(ctx)->message, "'u'");
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* ---- velocity maps ---------------------------------------------------- */

/* nq = 2, nv = 1: qdot = [v; 2 v], v = (qdot0 + 2 qdot1) / 5. */
typedef struct twist {
  int calls;
  int fail;
} twist;

static int twist_v_to_qdot(const teal_system *sys, const teal_context *ctx, const double *in,
                           double *out, void *user) {
  (void)sys;
  (void)ctx;
  twist *t = user;
  t->calls++;
  if (t->fail) {
    return TEAL_ESINGULAR;
  }
  out[0] = in[0];
  out[1] = 2.0 * in[0];
  return TEAL_OK;
}

static int twist_qdot_to_v(const teal_system *sys, const teal_context *ctx, const double *in,
                           double *out, void *user) {
  (void)sys;
  (void)ctx;
  twist *t = user;
  t->calls++;
  out[0] = (in[0] + 2.0 * in[1]) / 5.0;
  return TEAL_OK;
}

static int twist_deriv(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                       void *user) {
  double v = teal_context_v(ctx)[0];
  int rc = twist_v_to_qdot(sys, ctx, &v, xd->q, user);
  xd->v[0] = 0.0;
  return rc;
}

static teal_system *twist_new(const char *name, twist *t) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(s, 2, 1, 0, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(s, twist_deriv, t), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_velocity_map(s, twist_v_to_qdot, twist_qdot_to_v, t), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

START_TEST(test_velocity_map_identity) {
  msd p1 = {1.0, 1.0, 0, 0}, p2 = {1.0, 1.0, 0, 0};
  teal_system *d = flat_plant(&p1, &p2);
  teal_context *ctx = teal_context_new(d, NULL);
  const double v[2] = {3.5, -1.25};
  double qdot[2] = {NAN, NAN}, back[2] = {NAN, NAN};
  ck_assert_int_eq(teal_map_velocity_to_qdot(d, ctx, v, qdot), TEAL_OK);
  ck_assert_double_eq(qdot[0], 3.5);
  ck_assert_double_eq(qdot[1], -1.25);
  ck_assert_int_eq(teal_map_qdot_to_velocity(d, ctx, qdot, back), TEAL_OK);
  ck_assert_double_eq(back[0], 3.5);
  ck_assert_double_eq(back[1], -1.25);
  ck_assert_int_eq(teal_map_velocity_to_qdot(d, ctx, NULL, qdot), TEAL_EINVAL);
  ck_assert_int_eq(teal_map_qdot_to_velocity(d, ctx, qdot, NULL), TEAL_EINVAL);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* {m1 (identity), tw (nq 2, nv 1), m2 (identity)}: nq = 4, nv = 3. */
START_TEST(test_velocity_map_custom_leafwise) {
  msd p1 = {1.0, 1.0, 0, 0}, p2 = {1.0, 1.0, 0, 0};
  twist tw = {0, 0};
  teal_builder *b = teal_builder_new("robot");
  teal_builder_add(b, msd_new("m1", &p1, 0.0, 0.0, 0));
  teal_system *t = teal_builder_add(b, twist_new("tw", &tw));
  teal_builder_add(b, msd_new("m2", &p2, 0.0, 0.0, 0));
  teal_system *d = build_or_die(b);
  int nq, nv, nz;
  ck_assert_int_eq(teal_system_num_continuous_states(d, &nq, &nv, &nz), 7);
  ck_assert_int_eq(nq, 4);
  ck_assert_int_eq(nv, 3);
  ck_assert_int_eq(nz, 0);
  teal_context *ctx = teal_context_new(d, NULL);

  const double v[3] = {1.0, 2.5, -3.0};
  double qdot[4] = {NAN, NAN, NAN, NAN};
  ck_assert_int_eq(teal_map_velocity_to_qdot(d, ctx, v, qdot), TEAL_OK);
  ck_assert_double_eq(qdot[0], 1.0);  /* m1: identity */
  ck_assert_double_eq(qdot[1], 2.5);  /* tw: v */
  ck_assert_double_eq(qdot[2], 5.0);  /* tw: 2 v */
  ck_assert_double_eq(qdot[3], -3.0); /* m2: identity */
  ck_assert_int_eq(tw.calls, 1);

  const double qd[4] = {1.0, 2.0, 4.0, 3.0};
  double vb[3] = {NAN, NAN, NAN};
  ck_assert_int_eq(teal_map_qdot_to_velocity(d, ctx, qd, vb), TEAL_OK);
  ck_assert_double_eq(vb[0], 1.0);
  ck_assert_double_eq_tol(vb[1], 2.0, TOL); /* (2 + 8) / 5 */
  ck_assert_double_eq(vb[2], 3.0);

  /* the time derivatives use the same map: x = [q(4); v(3)] */
  const double x[7] = {0.0, 0.0, 0.0, 0.0, 0.5, 1.5, -2.0};
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, x, 7), TEAL_OK);
  double xdot[7];
  ck_assert_int_eq(teal_calc_time_derivatives(d, ctx, xdot), TEAL_OK);
  ck_assert_double_eq(xdot[0], 0.5);
  ck_assert_double_eq(xdot[1], 1.5);
  ck_assert_double_eq(xdot[2], 3.0);
  ck_assert_double_eq(xdot[3], -2.0);

  /* the leaf alone, through its subcontext */
  const teal_context *tctx = teal_context_subcontext(ctx, t);
  double one = 4.0, two[2];
  ck_assert_int_eq(teal_map_velocity_to_qdot(t, tctx, &one, two), TEAL_OK);
  ck_assert_double_eq(two[0], 4.0);
  ck_assert_double_eq(two[1], 8.0);

  /* a failing map reports its error */
  tw.fail = 1;
  ck_assert_int_eq(teal_map_velocity_to_qdot(d, ctx, v, qdot), TEAL_ESINGULAR);
  ASSERT_HAS(teal_context_error(ctx)->message, "velocity map");
  ASSERT_HAS(teal_context_error(ctx)->message, "robot/tw");
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_velocity_map_required_when_nq_differs) {
  teal_system *s = teal_leaf_new("odd", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(s, 2, 1, 0, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(s, twist_deriv, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_EINVAL);
  ASSERT_HAS(teal_system_error(s)->message, "'odd'");
  ASSERT_HAS(teal_system_error(s)->message, "velocity map");
  teal_system_free(s);
}
END_TEST

/* ---- energy ----------------------------------------------------------- */

START_TEST(test_energy_sums_over_leaves) {
  msd p1 = {2.0, 0.5, 0, 0}, p2 = {3.0, 4.0, 0, 0};
  teal_system *d = flat_plant(&p1, &p2);
  teal_context *ctx = teal_context_new(d, NULL);
  const double x[5] = {1.5, -2.0, 0.25, 3.0, 7.0};
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, x, 5), TEAL_OK);
  double pe = NAN, ke = NAN;
  ck_assert_int_eq(teal_calc_potential_energy(d, ctx, &pe), TEAL_OK);
  ck_assert_int_eq(teal_calc_kinetic_energy(d, ctx, &ke), TEAL_OK);
  ck_assert_double_eq_tol(pe, 0.5 * 2.0 * 1.5 * 1.5 + 0.5 * 3.0 * 4.0, TOL);
  ck_assert_double_eq_tol(ke, 0.5 * 0.5 * 0.0625 + 0.5 * 4.0 * 9.0, TOL);

  /* a single leaf through its subcontext */
  const teal_context *m2 = teal_context_subcontext_by_name(ctx, "m2");
  ck_assert_int_eq(teal_calc_potential_energy(teal_context_system(m2), m2, &pe), TEAL_OK);
  ck_assert_double_eq_tol(pe, 6.0, TOL);
  /* the integrator has no hooks: zero */
  const teal_context *ic = teal_context_subcontext_by_name(ctx, "i");
  pe = ke = NAN;
  ck_assert_int_eq(teal_calc_potential_energy(teal_context_system(ic), ic, &pe), TEAL_OK);
  ck_assert_int_eq(teal_calc_kinetic_energy(teal_context_system(ic), ic, &ke), TEAL_OK);
  ck_assert_double_eq(pe, 0.0);
  ck_assert_double_eq(ke, 0.0);
  ck_assert_int_eq(teal_calc_potential_energy(d, ctx, NULL), TEAL_EINVAL);

  /* energy reflects state changes */
  double *q = teal_context_q_mut(ctx);
  q[0] = 0.0;
  ck_assert_int_eq(teal_calc_potential_energy(d, ctx, &pe), TEAL_OK);
  ck_assert_double_eq_tol(pe, 6.0, TOL);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_energy_missing_hooks_and_errors) {
  msd p1 = {2.0, 1.0, 0, 0}, p2 = {8.0, 2.0, 0, 0}, p3 = {5.0, 5.0, 0, 0};
  teal_builder *b = teal_builder_new("mix");
  teal_builder_add(b, msd_new("full", &p1, 1.0, 2.0, 1));    /* both hooks */
  teal_builder_add(b, msd_new("pot", &p2, 0.5, 3.0, 2));     /* potential only */
  teal_builder_add(b, msd_new("bare", &p3, 10.0, 10.0, 0));  /* no hooks */
  teal_system *d = build_or_die(b);
  teal_context *ctx = teal_context_new(d, NULL);
  double pe = NAN, ke = NAN;
  ck_assert_int_eq(teal_calc_potential_energy(d, ctx, &pe), TEAL_OK);
  ck_assert_int_eq(teal_calc_kinetic_energy(d, ctx, &ke), TEAL_OK);
  ck_assert_double_eq_tol(pe, 0.5 * 2.0 * 1.0 + 0.5 * 8.0 * 0.25, TOL);
  ck_assert_double_eq_tol(ke, 0.5 * 1.0 * 4.0, TOL);

  p2.energy_fail = 1;
  ck_assert_int_eq(teal_calc_potential_energy(d, ctx, &pe), TEAL_ESINGULAR);
  ASSERT_HAS(teal_context_error(ctx)->message, "potential energy");
  ASSERT_HAS(teal_context_error(ctx)->message, "mix/pot");
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* ---- Jacobians -------------------------------------------------------- */

/* x' = A x + B u, y = C x + D u with nx = 2 (z), nu = 1, ny = 1. */
typedef struct linsys {
  double A[4], B[2], C[2], D[1];
  int calls;
  int last_in, last_out;
  int fail;
} linsys;

static int lin_deriv(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                     void *user) {
  const linsys *l = user;
  const double *u = NULL;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  const double *z = teal_context_z(ctx);
  for (int r = 0; r < 2; r++) {
    xd->z[r] = l->A[2 * r] * z[0] + l->A[2 * r + 1] * z[1] + l->B[r] * u[0];
  }
  return TEAL_OK;
}

static int lin_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  const linsys *l = user;
  const double *u = NULL;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  const double *z = teal_context_z(ctx);
  out[0] = l->C[0] * z[0] + l->C[1] * z[1] + l->D[0] * u[0];
  return TEAL_OK;
}

static int lin_jac(const teal_system *sys, const teal_context *ctx, int input_port,
                   int output_port, teal_jacobian *jac, void *user) {
  (void)sys;
  (void)ctx;
  linsys *l = user;
  l->calls++;
  l->last_in = input_port;
  l->last_out = output_port;
  if (l->fail) {
    return 1;
  }
  memcpy(jac->A, l->A, sizeof l->A);
  if (input_port >= 0) {
    memcpy(jac->B, l->B, sizeof l->B);
  }
  if (output_port >= 0) {
    memcpy(jac->C, l->C, sizeof l->C);
  }
  if (input_port >= 0 && output_port >= 0) {
    memcpy(jac->D, l->D, sizeof l->D);
  }
  return TEAL_OK;
}

static teal_system *lin_new(const char *name, linsys *l, int with_hook) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(s, 0, 0, 2, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(s, lin_deriv, l), TEAL_OK);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "u", 1), 0);
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", 1, lin_out, l, NULL, 0), 0);
  if (with_hook) {
    ck_assert_int_eq(teal_leaf_set_jacobian(s, lin_jac, l), TEAL_OK);
  }
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

START_TEST(test_jacobian_from_hook) {
  linsys l = {{0.0, 1.0, -2.0, -0.5}, {0.0, 3.0}, {1.5, -1.0}, {0.25}, 0, 9, 9, 0};
  teal_system *s = lin_new("lin", &l, 1);
  ck_assert(teal_system_has_jacobian(s));
  teal_context *ctx = teal_context_new(s, NULL);
  double A[4] = {0}, B[2] = {0}, C[2] = {0}, D[1] = {0};
  teal_jacobian jac = {2, 1, 1, A, B, C, D};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &jac), TEAL_OK);
  ck_assert_int_eq(l.calls, 1);
  ck_assert_int_eq(l.last_in, 0);
  ck_assert_int_eq(l.last_out, 0);
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq(A[i], l.A[i]);
  }
  for (int i = 0; i < 2; i++) {
    ck_assert_double_eq(B[i], l.B[i]);
    ck_assert_double_eq(C[i], l.C[i]);
  }
  ck_assert_double_eq(D[0], 0.25);

  /* the matrices agree with the simulated dynamics */
  const double z[2] = {0.5, -1.0};
  double u = 2.0, zdot[2], y = 0.0;
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, z, 2), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, &u, 1), TEAL_OK);
  ck_assert_int_eq(teal_calc_time_derivatives(s, ctx, zdot), TEAL_OK);
  ck_assert_int_eq(teal_calc_vector_output(s, ctx, 0, &y), TEAL_OK);
  for (int r = 0; r < 2; r++) {
    ck_assert_double_eq_tol(zdot[r], A[2 * r] * z[0] + A[2 * r + 1] * z[1] + B[r] * u, TOL);
  }
  ck_assert_double_eq_tol(y, C[0] * z[0] + C[1] * z[1] + D[0] * u, TOL);

  /* no ports: A only */
  double A2[4] = {0};
  teal_jacobian jx = {2, 0, 0, A2, NULL, NULL, NULL};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, -1, -1, &jx), TEAL_OK);
  ck_assert_int_eq(l.last_in, -1);
  ck_assert_int_eq(l.last_out, -1);
  ck_assert_double_eq(A2[2], -2.0);

  /* hook failure */
  l.fail = 1;
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &jac), TEAL_ECALLBACK);
  ASSERT_HAS(teal_context_error(ctx)->message, "Jacobian");
  ASSERT_HAS(teal_context_error(ctx)->message, "'lin'");
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, NULL), TEAL_EINVAL);
  /* a block with entries but no storage is named; the hook never runs */
  l.fail = 0;
  int calls = l.calls;
  double *saved[4] = {jac.A, jac.B, jac.C, jac.D};
  static const char *const names[4] = {"block A", "block B", "block C", "block D"};
  for (int b = 0; b < 4; b++) {
    double **slot[4] = {&jac.A, &jac.B, &jac.C, &jac.D};
    *slot[b] = NULL;
    ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &jac), TEAL_EINVAL);
    ASSERT_HAS(teal_context_error(ctx)->message, names[b]);
    *slot[b] = saved[b];
  }
  ck_assert_int_eq(l.calls, calls);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_jacobian_port_range) {
  linsys l = {{1, 0, 0, 1}, {1, 1}, {1, 1}, {0}, 0, 9, 9, 0};
  teal_system *s = lin_new("lin", &l, 1);
  teal_context *ctx = teal_context_new(s, NULL);
  double A[4], B[2], C[2], D[1];
  teal_jacobian jac = {2, 1, 1, A, B, C, D};
  const int bad[4][2] = {{1, 0}, {0, 1}, {-2, 0}, {0, -2}};
  for (int k = 0; k < 4; k++) {
    ck_assert_int_eq(teal_calc_jacobian(s, ctx, bad[k][0], bad[k][1], &jac), TEAL_ENOTFOUND);
    ASSERT_HAS(teal_context_error(ctx)->message, "out of range");
    ASSERT_HAS(teal_context_error(ctx)->message, "'lin'");
  }
  ck_assert_int_eq(l.calls, 0); /* the hook never ran */
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_jacobian_unsupported) {
  linsys l = {{1, 0, 0, 1}, {1, 1}, {1, 1}, {0}, 0, 9, 9, 0};
  teal_system *plain = lin_new("plain", &l, 0);
  ck_assert(!teal_system_has_jacobian(plain));
  teal_context *ctx = teal_context_new(plain, NULL);
  double A[4], B[2], C[2], D[1];
  teal_jacobian jac = {2, 1, 1, A, B, C, D};
  ck_assert_int_eq(teal_calc_jacobian(plain, ctx, 0, 0, &jac), TEAL_EUNSUPPORTED);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_EUNSUPPORTED);
  ASSERT_HAS(teal_context_error(ctx)->message, "'plain'");
  teal_context_free(ctx);
  teal_system_free(plain);

  /* a diagram has no analytic Jacobian even when its only leaf does */
  teal_builder *b = teal_builder_new("wrap");
  teal_system *hooked = teal_builder_add(b, lin_new("hooked", &l, 1));
  ck_assert_int_eq(teal_builder_export_input(b, in_port(hooked, "u"), "u"), 0);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(hooked, "y"), "y"), 0);
  teal_system *d = build_or_die(b);
  ck_assert(!teal_system_has_jacobian(d));
  ctx = teal_context_new(d, NULL);
  ck_assert_int_eq(teal_calc_jacobian(d, ctx, 0, 0, &jac), TEAL_EUNSUPPORTED);
  ASSERT_HAS(teal_context_error(ctx)->message, "'wrap'");
  ck_assert_int_eq(l.calls, 0);
  /* the leaf inside still answers through its subcontext */
  ck_assert_int_eq(teal_calc_jacobian(hooked, teal_context_subcontext(ctx, hooked), 0, 0, &jac),
                   TEAL_OK);
  ck_assert_int_eq(l.calls, 1);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

static Suite *system_dynamics_suite(void) {
  Suite *s = suite_create("system_dynamics");
  TCase *tc = tcase_create("derivatives");
  tcase_add_test(tc, test_derivatives_layout_flat);
  tcase_add_test(tc, test_derivatives_on_subsystem_context);
  tcase_add_test(tc, test_derivative_errors_propagate);
  suite_add_tcase(s, tc);

  tc = tcase_create("velocity_maps");
  tcase_add_test(tc, test_velocity_map_identity);
  tcase_add_test(tc, test_velocity_map_custom_leafwise);
  tcase_add_test(tc, test_velocity_map_required_when_nq_differs);
  suite_add_tcase(s, tc);

  tc = tcase_create("energy");
  tcase_add_test(tc, test_energy_sums_over_leaves);
  tcase_add_test(tc, test_energy_missing_hooks_and_errors);
  suite_add_tcase(s, tc);

  tc = tcase_create("jacobian");
  tcase_add_test(tc, test_jacobian_from_hook);
  tcase_add_test(tc, test_jacobian_port_range);
  tcase_add_test(tc, test_jacobian_unsupported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(system_dynamics_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
