/* The fixtures declared in support/cache_fixtures.h. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"
#include "framework/ticket.h"
#include "support/cache_fixtures.h"
#include "support/test_support.h"

const char *ts_cache_k_out_names[TS_CACHE_NOUT] = {"all", "q", "v",   "z",  "g0", "xa", "p0",
                                                   "u0",  "t", "acc", "xc", "xd", "e",  "vbox"};
static const teal_value_type box_type = {"box", sizeof(ts_cache_box), NULL, NULL, NULL};

ts_cache_probe *ts_cache_probe_of(const teal_system *sys) {
  return teal_system_user(sys);
}

/* Reads input i (a vector of size 1). */
int ts_cache_input_value(const teal_system *sys, const teal_context *ctx, int i, double *x) {
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, i, &u);
  if (rc == TEAL_OK) {
    *x = u[0];
  }
  return rc;
}

static double g0_of(const teal_context *ctx) { return teal_context_discrete_group(ctx, 0)[0]; }
double ts_cache_g1_of(const teal_context *ctx) {
  return teal_context_discrete_group(ctx, 1)[0];
}
double ts_cache_xa_of(const teal_context *ctx) {
  return ((const ts_cache_box *)teal_context_abstract_state(ctx, 0))->x;
}
double ts_cache_p_of(const teal_context *ctx, int i) {
  return teal_context_numeric_parameter(ctx, i)[0];
}

static int entry_sq(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)user;
  ts_cache_probe_of(sys)->entry_calls++;
  double u1;
  int rc = ts_cache_input_value(sys, ctx, 1, &u1);
  if (rc) {
    return rc;
  }
  double q = teal_context_q(ctx)[0];
  out[0] = q * q + u1;
  return TEAL_OK;
}

static int entry_boxed(const teal_system *sys, const teal_context *ctx, void *out, void *user) {
  (void)user;
  ts_cache_probe_of(sys)->abs_entry_calls++;
  ((ts_cache_box *)out)->x = 2.0 * teal_context_q(ctx)[0];
  return TEAL_OK;
}

static int probe_calc(const teal_system *sys, const teal_context *ctx, double *out,
                      void *user) {
  int which = *(const int *)user;
  ts_cache_probe_of(sys)->calls[which]++;
  double u0 = 0, u1 = 0;
  int rc = TEAL_OK;
  const double q = teal_context_q(ctx)[0], v = teal_context_v(ctx)[0], z = teal_context_z(ctx)[0];
  switch (which) {
  case TS_CACHE_O_ALL:
    if ((rc = ts_cache_input_value(sys, ctx, 0, &u0)) ||
        (rc = ts_cache_input_value(sys, ctx, 1, &u1))) {
      return rc;
    }
    out[0] = teal_context_time(ctx) + teal_context_accuracy(ctx) + q + v + z + g0_of(ctx) +
             ts_cache_g1_of(ctx) + ts_cache_xa_of(ctx) + ts_cache_p_of(ctx, 0) +
             ts_cache_p_of(ctx, 1) + u0 + u1;
    return TEAL_OK;
  case TS_CACHE_O_Q:
    out[0] = q;
    return TEAL_OK;
  case TS_CACHE_O_V:
    out[0] = v;
    return TEAL_OK;
  case TS_CACHE_O_Z:
    out[0] = z;
    return TEAL_OK;
  case TS_CACHE_O_G0:
    out[0] = g0_of(ctx);
    return TEAL_OK;
  case TS_CACHE_O_XA:
    out[0] = ts_cache_xa_of(ctx);
    return TEAL_OK;
  case TS_CACHE_O_P0:
    out[0] = ts_cache_p_of(ctx, 0);
    return TEAL_OK;
  case TS_CACHE_O_U0:
    rc = ts_cache_input_value(sys, ctx, 0, &u0);
    out[0] = u0;
    return rc;
  case TS_CACHE_O_T:
    out[0] = teal_context_time(ctx);
    return TEAL_OK;
  case TS_CACHE_O_ACC:
    out[0] = teal_context_accuracy(ctx);
    return TEAL_OK;
  case TS_CACHE_O_XC:
    out[0] = q + v + z;
    return TEAL_OK;
  case TS_CACHE_O_XD:
    out[0] = g0_of(ctx) + ts_cache_g1_of(ctx);
    return TEAL_OK;
  case TS_CACHE_O_E: {
    const void *e;
    rc = teal_eval_cache_entry(sys, ctx, 0, &e);
    if (rc == TEAL_OK) {
      out[0] = ((const double *)e)[0] + 1.0;
    }
    return rc;
  }
    default: return TEAL_EINVAL;
  }
}

static int probe_vbox(const teal_system *sys, const teal_context *ctx, void *out, void *user) {
  int which = *(const int *)user;
  ts_cache_probe_of(sys)->calls[which]++;
  ((ts_cache_box *)out)->x = 3.0 * teal_context_v(ctx)[0];
  return TEAL_OK;
}

int ts_cache_probe_deriv(const teal_system *sys, const teal_context *ctx,
                         teal_continuous_view *xdot, void *user) {
  (void)sys;
  (void)user;
  xdot->q[0] = teal_context_v(ctx)[0];
  xdot->v[0] = -teal_context_q(ctx)[0];
  xdot->z[0] = 0.0;
  return TEAL_OK;
}

teal_system *ts_cache_probe_new(const char *name) {
  ts_cache_probe *p = calloc(1, sizeof *p);
  ck_assert_ptr_nonnull(p);
  for (int i = 0; i < TS_CACHE_NOUT; i++) {
    p->which[i] = i;
  }
  teal_system *sys = teal_leaf_new(name, p, free);
  const double x0[3] = {1, 2, 3}, g0 = 4, g1 = 5, p0 = 7, p1 = 8;
  const ts_cache_box b0 = {6};
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 1, 1, 1, x0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, ts_cache_probe_deriv, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 1, &g0), 0);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 1, &g1), 1);
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &box_type, &b0), 0);
  ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, 1, &p0), 0);
  ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, 1, &p1), 1);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "u0", 1), 0);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "u1", 1), 1);
  const teal_ticket sq_deps[2] = {TEAL_TICKET_Q, teal_ticket_input(1)};
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "sq", 1, entry_sq, NULL, sq_deps, 2), 0);
  const teal_ticket q_only = TEAL_TICKET_Q;
  ck_assert_int_eq(teal_leaf_declare_abstract_cache_entry(sys, "boxed", &box_type, entry_boxed,
                                                          NULL, &q_only, 1), 1);
  const teal_ticket deps[TS_CACHE_NOUT] = {0,
                                           TEAL_TICKET_Q,
                                           TEAL_TICKET_V,
                                           TEAL_TICKET_Z,
                                           teal_ticket_discrete(0),
                                           teal_ticket_abstract(0),
                                           teal_ticket_parameter(0),
                                           teal_ticket_input(0),
                                           TEAL_TICKET_TIME,
                                           TEAL_TICKET_ACCURACY,
                                           TEAL_TICKET_XC,
                                           TEAL_TICKET_XD,
                                           teal_ticket_cache(0),
                                           TEAL_TICKET_V};
  for (int o = 0; o < TS_CACHE_NOUT; o++) {
    int idx;
    if (o == TS_CACHE_O_VBOX) {
      idx = teal_leaf_declare_abstract_output(sys, ts_cache_k_out_names[o], &box_type, probe_vbox,
                                              &p->which[o], &deps[o], 1);
    } else {
      idx = teal_leaf_declare_vector_output(sys, ts_cache_k_out_names[o], 1, probe_calc,
                                            &p->which[o], o == TS_CACHE_O_ALL ? NULL : &deps[o],
                                            o == TS_CACHE_O_ALL ? 0 : 1);
    }
    ck_assert_int_eq(idx, o);
  }
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  return sys;
}

teal_context *ts_cache_new_ctx(const teal_system *sys) {
  teal_error err;
  teal_error_clear(&err);
  teal_context *ctx = teal_context_new(sys, &err);
  ck_assert_msg(ctx != NULL, "context_new: %s", err.message);
  return ctx;
}

teal_system *ts_cache_build(teal_builder *b) {
  teal_error err;
  teal_error_clear(&err);
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  return d;
}

/* Expected value of probe output o from the context's current values. */
double ts_cache_expected_value(const teal_system *sys, const teal_context *ctx, int o) {
  double u0 = 0, u1 = 0;
  ck_assert_int_eq(ts_cache_input_value(sys, ctx, 0, &u0), TEAL_OK);
  ck_assert_int_eq(ts_cache_input_value(sys, ctx, 1, &u1), TEAL_OK);
  double q = teal_context_q(ctx)[0], v = teal_context_v(ctx)[0], z = teal_context_z(ctx)[0];
  switch (o) {
  case TS_CACHE_O_ALL:
    return teal_context_time(ctx) + teal_context_accuracy(ctx) + q + v + z + g0_of(ctx) +
           ts_cache_g1_of(ctx) + ts_cache_xa_of(ctx) + ts_cache_p_of(ctx, 0) +
           ts_cache_p_of(ctx, 1) + u0 + u1;
  case TS_CACHE_O_Q:
    return q;
  case TS_CACHE_O_V:
    return v;
  case TS_CACHE_O_Z:
    return z;
  case TS_CACHE_O_G0:
    return g0_of(ctx);
  case TS_CACHE_O_XA:
    return ts_cache_xa_of(ctx);
  case TS_CACHE_O_P0:
    return ts_cache_p_of(ctx, 0);
  case TS_CACHE_O_U0:
    return u0;
  case TS_CACHE_O_T:
    return teal_context_time(ctx);
  case TS_CACHE_O_ACC:
    return teal_context_accuracy(ctx);
  case TS_CACHE_O_XC:
    return q + v + z;
  case TS_CACHE_O_XD:
    return g0_of(ctx) + ts_cache_g1_of(ctx);
  case TS_CACHE_O_E:
    return q * q + u1 + 1.0;
  case TS_CACHE_O_VBOX:
    return 3.0 * v;
  default:
    return NAN;
  }
}

/* Evaluates probe output o (vector or abstract) into *value. */
int ts_cache_eval_probe(const teal_system *sys, const teal_context *ctx, int o, double *value) {
  if (o == TS_CACHE_O_VBOX) {
    const void *b;
    int rc = teal_eval_abstract_output(sys, ctx, o, &b);
    if (rc == TEAL_OK) {
      *value = ((const ts_cache_box *)b)->x;
    }
    return rc;
  }
  const double *y;
  int rc = teal_eval_vector_output(sys, ctx, o, &y);
  if (rc == TEAL_OK) {
    *value = y[0];
  }
  return rc;
}

void ts_cache_fix_inputs(teal_context *leaf, double u0, double u1) {
  ck_assert_int_eq(teal_context_fix_input(leaf, 0, &u0, 1), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_input(leaf, 1, &u1, 1), TEAL_OK);
}

ts_cache_wired ts_cache_wired_new(void) {
  ts_cache_wired w;
  const double two = 2.0, three = 3.0;
  teal_builder *ib = teal_builder_new("inner");
  w.ts_cache_probe = teal_builder_add(ib, ts_cache_probe_new("probe"));
  ck_assert_int_ge(teal_builder_export_input(ib, teal_system_input_port(w.ts_cache_probe, 0), "u0"),
                   0);
  ck_assert_int_ge(teal_builder_export_input(ib, teal_system_input_port(w.ts_cache_probe, 1), "u1"),
                   0);
  ck_assert_int_ge(teal_builder_export_output(
                       ib, teal_system_output_port(w.ts_cache_probe, TS_CACHE_O_ALL), "all"),
                   0);
  w.inner = ts_cache_build(ib);
  teal_builder *ob = teal_builder_new("outer");
  w.pre = teal_builder_add(ob, ts_integrator_new("pre", 2, NULL));
  w.src = teal_builder_add(ob, ts_constant_new("src", 1, &two));
  w.src1 = teal_builder_add(ob, ts_constant_new("src1", 1, &three));
  teal_builder_add(ob, w.inner);
  ck_assert_int_eq(teal_builder_connect(ob, teal_system_output_port(w.src, 0),
                                        teal_system_input_port(w.inner, 0)), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(ob, teal_system_output_port(w.src1, 0),
                                        teal_system_input_port(w.inner, 1)), TEAL_OK);
  ck_assert_int_ge(teal_builder_export_output(ob, teal_system_output_port(w.inner, 0), "all"), 0);
  w.outer = ts_cache_build(ob);
  return w;
}
