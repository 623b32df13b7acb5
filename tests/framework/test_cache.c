/* Tests for cached evaluation: outputs and cache entries are computed once
 * per change of their declared prerequisites, recomputed after each kind of
 * change (also through diagram connections and diagram-level accessors),
 * never recomputed for changes they do not depend on; caching can be turned
 * off; failures propagate with messages and are retried; evaluation-time
 * algebraic loops are reported instead of recursing. */
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
#include "support/test_support.h"

/* ---- the probe leaf --------------------------------------------------- */

/* Outputs of the probe; each depends on exactly what its name says. */
enum {
  O_ALL,     /* default prerequisites (all sources) */
  O_Q,       /* q */
  O_V,       /* v */
  O_Z,       /* z */
  O_G0,      /* discrete group 0 */
  O_XA,      /* abstract state 0 */
  O_P0,      /* parameter 0 */
  O_U0,      /* input 0 */
  O_T,       /* time */
  O_ACC,     /* accuracy */
  O_XC,      /* all continuous state */
  O_XD,      /* all discrete state */
  O_E,       /* cache entry 0 (q and input 1) */
  O_VBOX,    /* abstract output, v */
  NOUT
};

static const char *k_out_names[NOUT] = {"all", "q",  "v",  "z",   "g0", "xa", "p0", "u0",
                                        "t",   "acc", "xc", "xd", "e",  "vbox"};

typedef struct box {
  double x;
} box;
static const teal_value_type box_type = {"box", sizeof(box), NULL, NULL, NULL};

typedef struct probe {
  int which[NOUT];
  int calls[NOUT];
  int entry_calls;     /* cache entry 0 "sq" */
  int abs_entry_calls; /* cache entry 1 "boxed" */
} probe;

static probe *probe_of(const teal_system *sys) { return teal_system_user(sys); }

/* Reads input i (a vector of size 1). */
static int input_value(const teal_system *sys, const teal_context *ctx, int i, double *x) {
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, i, &u);
  if (rc == TEAL_OK) {
    *x = u[0];
  }
  return rc;
}

static double g0_of(const teal_context *ctx) { return teal_context_discrete_group(ctx, 0)[0]; }
static double g1_of(const teal_context *ctx) { return teal_context_discrete_group(ctx, 1)[0]; }
static double xa_of(const teal_context *ctx) {
  return ((const box *)teal_context_abstract_state(ctx, 0))->x;
}
static double p_of(const teal_context *ctx, int i) {
  return teal_context_numeric_parameter(ctx, i)[0];
}

static int entry_sq(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)user;
  probe_of(sys)->entry_calls++;
  double u1;
  int rc = input_value(sys, ctx, 1, &u1);
  if (rc) {
    return rc;
  }
  double q = teal_context_q(ctx)[0];
  out[0] = q * q + u1;
  return TEAL_OK;
}

static int entry_boxed(const teal_system *sys, const teal_context *ctx, void *out, void *user) {
  (void)user;
  probe_of(sys)->abs_entry_calls++;
  ((box *)out)->x = 2.0 * teal_context_q(ctx)[0];
  return TEAL_OK;
}

static int probe_calc(const teal_system *sys, const teal_context *ctx, double *out,
                      void *user) {
  int which = *(const int *)user;
  probe_of(sys)->calls[which]++;
  double u0 = 0, u1 = 0;
  int rc = TEAL_OK;
  const double q = teal_context_q(ctx)[0], v = teal_context_v(ctx)[0], z = teal_context_z(ctx)[0];
  switch (which) {
    case O_ALL:
      if ((rc = input_value(sys, ctx, 0, &u0)) || (rc = input_value(sys, ctx, 1, &u1))) {
        return rc;
      }
      out[0] = teal_context_time(ctx) + teal_context_accuracy(ctx) + q + v + z + g0_of(ctx) +
               g1_of(ctx) + xa_of(ctx) + p_of(ctx, 0) + p_of(ctx, 1) + u0 + u1;
      return TEAL_OK;
    case O_Q: out[0] = q; return TEAL_OK;
    case O_V: out[0] = v; return TEAL_OK;
    case O_Z: out[0] = z; return TEAL_OK;
    case O_G0: out[0] = g0_of(ctx); return TEAL_OK;
    case O_XA: out[0] = xa_of(ctx); return TEAL_OK;
    case O_P0: out[0] = p_of(ctx, 0); return TEAL_OK;
    case O_U0:
      rc = input_value(sys, ctx, 0, &u0);
      out[0] = u0;
      return rc;
    case O_T: out[0] = teal_context_time(ctx); return TEAL_OK;
    case O_ACC: out[0] = teal_context_accuracy(ctx); return TEAL_OK;
    case O_XC: out[0] = q + v + z; return TEAL_OK;
    case O_XD: out[0] = g0_of(ctx) + g1_of(ctx); return TEAL_OK;
    case O_E: {
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
  probe_of(sys)->calls[which]++;
  ((box *)out)->x = 3.0 * teal_context_v(ctx)[0];
  return TEAL_OK;
}

static int probe_deriv(const teal_system *sys, const teal_context *ctx,
                       teal_continuous_view *xdot, void *user) {
  (void)sys;
  (void)user;
  xdot->q[0] = teal_context_v(ctx)[0];
  xdot->v[0] = -teal_context_q(ctx)[0];
  xdot->z[0] = 0.0;
  return TEAL_OK;
}

static teal_system *probe_new(const char *name) {
  probe *p = calloc(1, sizeof *p);
  ck_assert_ptr_nonnull(p);
  for (int i = 0; i < NOUT; i++) {
    p->which[i] = i;
  }
  teal_system *sys = teal_leaf_new(name, p, free);
  const double x0[3] = {1, 2, 3}, g0 = 4, g1 = 5, p0 = 7, p1 = 8;
  const box b0 = {6};
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 1, 1, 1, x0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, probe_deriv, NULL), TEAL_OK);
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
  const teal_ticket deps[NOUT] = {
      0, TEAL_TICKET_Q, TEAL_TICKET_V, TEAL_TICKET_Z, teal_ticket_discrete(0),
      teal_ticket_abstract(0), teal_ticket_parameter(0), teal_ticket_input(0), TEAL_TICKET_TIME,
      TEAL_TICKET_ACCURACY, TEAL_TICKET_XC, TEAL_TICKET_XD,
      teal_ticket_cache(0), TEAL_TICKET_V};
  for (int o = 0; o < NOUT; o++) {
    int idx;
    if (o == O_VBOX) {
      idx = teal_leaf_declare_abstract_output(sys, k_out_names[o], &box_type, probe_vbox,
                                              &p->which[o], &deps[o], 1);
    } else {
      idx = teal_leaf_declare_vector_output(sys, k_out_names[o], 1, probe_calc, &p->which[o],
                                            o == O_ALL ? NULL : &deps[o], o == O_ALL ? 0 : 1);
    }
    ck_assert_int_eq(idx, o);
  }
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  return sys;
}

static teal_context *new_ctx(const teal_system *sys) {
  teal_error err;
  teal_error_clear(&err);
  teal_context *ctx = teal_context_new(sys, &err);
  ck_assert_msg(ctx != NULL, "context_new: %s", err.message);
  return ctx;
}

static teal_system *build(teal_builder *b) {
  teal_error err;
  teal_error_clear(&err);
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  return d;
}

/* Expected value of probe output o from the context's current values. */
static double expected_value(const teal_system *sys, const teal_context *ctx, int o) {
  double u0 = 0, u1 = 0;
  ck_assert_int_eq(input_value(sys, ctx, 0, &u0), TEAL_OK);
  ck_assert_int_eq(input_value(sys, ctx, 1, &u1), TEAL_OK);
  double q = teal_context_q(ctx)[0], v = teal_context_v(ctx)[0], z = teal_context_z(ctx)[0];
  switch (o) {
    case O_ALL:
      return teal_context_time(ctx) + teal_context_accuracy(ctx) + q + v + z + g0_of(ctx) +
             g1_of(ctx) + xa_of(ctx) + p_of(ctx, 0) + p_of(ctx, 1) + u0 + u1;
    case O_Q: return q;
    case O_V: return v;
    case O_Z: return z;
    case O_G0: return g0_of(ctx);
    case O_XA: return xa_of(ctx);
    case O_P0: return p_of(ctx, 0);
    case O_U0: return u0;
    case O_T: return teal_context_time(ctx);
    case O_ACC: return teal_context_accuracy(ctx);
    case O_XC: return q + v + z;
    case O_XD: return g0_of(ctx) + g1_of(ctx);
    case O_E: return q * q + u1 + 1.0;
    case O_VBOX: return 3.0 * v;
    default: return NAN;
  }
}

/* Evaluates probe output o (vector or abstract) into *value. */
static int eval_probe(const teal_system *sys, const teal_context *ctx, int o, double *value) {
  if (o == O_VBOX) {
    const void *b;
    int rc = teal_eval_abstract_output(sys, ctx, o, &b);
    if (rc == TEAL_OK) {
      *value = ((const box *)b)->x;
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

/* Evaluates every probe output twice (the second must hit the cache),
 * checks the values and returns how many calcs ran per output. */
static void eval_all(const teal_system *sys, const teal_context *ctx, int ran[NOUT]) {
  probe *p = probe_of(sys);
  int before[NOUT];
  memcpy(before, p->calls, sizeof before);
  for (int pass = 0; pass < 2; pass++) {
    for (int o = 0; o < NOUT; o++) {
      double y = NAN;
      ck_assert_msg(eval_probe(sys, ctx, o, &y) == TEAL_OK, "eval '%s': %s", k_out_names[o],
                    teal_context_error(ctx)->message);
      double want = expected_value(sys, ctx, o);
      ck_assert_msg(y == want, "output '%s' = %g, expected %g (stale cache?)", k_out_names[o],
                    y, want);
    }
    if (pass == 0) {
      for (int o = 0; o < NOUT; o++) {
        ran[o] = p->calls[o] - before[o];
        before[o] = p->calls[o];
      }
    } else {
      for (int o = 0; o < NOUT; o++) {
        ck_assert_msg(p->calls[o] == before[o], "output '%s' recomputed without a change",
                      k_out_names[o]);
      }
    }
  }
}

/* ---- kinds of change -------------------------------------------------- */

enum {
  C_TIME, C_ACC, C_Q, C_V, C_Z, C_XC, C_G0, C_G1, C_XD, C_XA, C_XA_SET, C_P0, C_P1, C_P0_MUT,
  C_U0, C_U1, NCHANGE
};
static const char *k_change_names[NCHANGE] = {
    "time", "accuracy", "q_mut", "v_mut", "z_mut", "set_continuous_state", "group0_mut",
    "set_group1", "discrete_state_mut", "abstract_state_mut", "set_abstract_state",
    "set_parameter0", "set_parameter1", "parameter0_mut", "fix_u0", "fix_u1"};

/* Which outputs each change must recompute. */
static int expect_recompute(int o, int c) {
  if (o == O_ALL) {
    return 1;
  }
  switch (c) {
    case C_TIME: return o == O_T;
    case C_ACC: return o == O_ACC;
    case C_Q: return o == O_Q || o == O_XC || o == O_E;
    case C_V: return o == O_V || o == O_XC || o == O_VBOX;
    case C_Z: return o == O_Z || o == O_XC;
    case C_XC:
      return o == O_Q || o == O_V || o == O_Z || o == O_XC || o == O_E || o == O_VBOX;
    case C_G0: return o == O_G0 || o == O_XD;
    case C_G1: return o == O_XD;
    case C_XD: return o == O_G0 || o == O_XD;
    case C_XA:
    case C_XA_SET: return o == O_XA;
    case C_P0:
    case C_P0_MUT: return o == O_P0;
    case C_P1: return 0;
    case C_U0: return o == O_U0;
    case C_U1: return o == O_E;
    default: return -1;
  }
}

/* Applies change c to the probe's leaf context (root is the tree's root,
 * for time and accuracy). k makes each application change the value. */
static void apply_change(teal_context *root, teal_context *leaf, int c, int k) {
  double d = 0.25 * (k + 1);
  switch (c) {
    case C_TIME:
      ck_assert_int_eq(teal_context_set_time(root, teal_context_time(root) + d), TEAL_OK);
      break;
    case C_ACC: ck_assert_int_eq(teal_context_set_accuracy(root, d), TEAL_OK); break;
    case C_Q: teal_context_q_mut(leaf)[0] += d; break;
    case C_V: teal_context_v_mut(leaf)[0] += d; break;
    case C_Z: teal_context_z_mut(leaf)[0] += d; break;
    case C_XC: {
      double x[3] = {teal_context_q(leaf)[0] + d, teal_context_v(leaf)[0] - d,
                     teal_context_z(leaf)[0] + 2 * d};
      ck_assert_int_eq(teal_context_set_continuous_state(leaf, x, 3), TEAL_OK);
      break;
    }
    case C_G0: teal_context_discrete_group_mut(leaf, 0)[0] += d; break;
    case C_G1: {
      double g = g1_of(leaf) + d;
      ck_assert_int_eq(teal_context_set_discrete_group(leaf, 1, &g, 1), TEAL_OK);
      break;
    }
    case C_XD: teal_context_discrete_state_mut(leaf)[0] -= d; break;
    case C_XA: ((box *)teal_context_abstract_state_mut(leaf, 0))->x += d; break;
    case C_XA_SET: {
      box b = {xa_of(leaf) - d};
      ck_assert_int_eq(teal_context_set_abstract_state(leaf, 0, &b), TEAL_OK);
      break;
    }
    case C_P0: {
      double p = p_of(leaf, 0) + d;
      ck_assert_int_eq(teal_context_set_numeric_parameter(leaf, 0, &p, 1), TEAL_OK);
      break;
    }
    case C_P1: {
      double p = p_of(leaf, 1) + d;
      ck_assert_int_eq(teal_context_set_numeric_parameter(leaf, 1, &p, 1), TEAL_OK);
      break;
    }
    case C_P0_MUT: teal_context_numeric_parameter_mut(leaf, 0)[0] *= 2; break;
    case C_U0:
    case C_U1: {
      double u;
      ck_assert_int_eq(input_value(teal_context_system(leaf), leaf, c == C_U0 ? 0 : 1, &u),
                       TEAL_OK);
      u += d;
      ck_assert_int_eq(teal_context_fix_input(leaf, c == C_U0 ? 0 : 1, &u, 1), TEAL_OK);
      break;
    }
    default: ck_abort_msg("unknown change %d", c);
  }
}

static void fix_inputs(teal_context *leaf, double u0, double u1) {
  ck_assert_int_eq(teal_context_fix_input(leaf, 0, &u0, 1), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_input(leaf, 1, &u1, 1), TEAL_OK);
}

/* Runs every change (twice) and checks exactly the dependent outputs reran. */
static void run_change_matrix(const teal_system *probe_sys, teal_context *root,
                              teal_context *leaf) {
  int ran[NOUT];
  eval_all(probe_sys, leaf, ran);
  for (int o = 0; o < NOUT; o++) {
    ck_assert_msg(ran[o] == 1, "first evaluation of '%s' ran %d times", k_out_names[o], ran[o]);
  }
  for (int k = 0; k < 2; k++) {
    for (int c = 0; c < NCHANGE; c++) {
      apply_change(root, leaf, c, k);
      eval_all(probe_sys, leaf, ran);
      for (int o = 0; o < NOUT; o++) {
        ck_assert_msg(ran[o] == expect_recompute(o, c),
                      "after %s: output '%s' ran %d times, expected %d", k_change_names[c],
                      k_out_names[o], ran[o], expect_recompute(o, c));
      }
    }
  }
}

START_TEST(test_each_change_recomputes_exactly_its_dependents) {
  teal_system *sys = probe_new("probe");
  teal_context *ctx = new_ctx(sys);
  fix_inputs(ctx, 0.5, 1.5);
  run_change_matrix(sys, ctx, ctx);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_change_matrix_inside_nested_diagram) {
  teal_builder *ib = teal_builder_new("inner");
  teal_system *p = teal_builder_add(ib, probe_new("probe"));
  teal_system *inner = build(ib);
  teal_builder *ob = teal_builder_new("outer");
  teal_builder_add(ob, ts_integrator_new("pre", 2, NULL));
  teal_builder_add(ob, inner);
  teal_system *outer = build(ob);
  teal_context *ctx = new_ctx(outer);
  teal_context *leaf = teal_context_subcontext_by_name_mut(ctx, "inner/probe");
  ck_assert_ptr_nonnull(leaf);
  fix_inputs(leaf, -1.0, 2.0);
  run_change_matrix(p, ctx, leaf);
  teal_context_free(ctx);
  teal_system_free(outer);
}
END_TEST

START_TEST(test_set_to_defaults_and_copy_invalidate) {
  teal_system *sys = probe_new("probe");
  teal_context *ctx = new_ctx(sys);
  fix_inputs(ctx, 0.5, 1.5);
  int ran[NOUT];
  eval_all(sys, ctx, ran);
  teal_context_q_mut(ctx)[0] = 10.0;
  teal_context_discrete_group_mut(ctx, 1)[0] = 11.0;
  eval_all(sys, ctx, ran);
  ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_OK);
  eval_all(sys, ctx, ran); /* values checked against the restored state */
  ck_assert_int_eq(ran[O_Q], 1);
  ck_assert_int_eq(ran[O_XD], 1);
  /* copy_from brings other values in: everything depending on them reruns */
  teal_context *other = new_ctx(sys);
  fix_inputs(other, 3.0, 4.0);
  teal_context_q_mut(other)[0] = -3.0;
  ck_assert_int_eq(teal_context_set_time(other, 9.0), TEAL_OK);
  ck_assert_int_eq(teal_context_copy_from(ctx, other), TEAL_OK);
  eval_all(sys, ctx, ran);
  ck_assert_int_eq(ran[O_Q], 1);
  ck_assert_int_eq(ran[O_T], 1);
  ck_assert_int_eq(ran[O_U0], 1);
  ck_assert_int_eq(ran[O_E], 1);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, O_E, &y), TEAL_OK);
  ck_assert(y[0] == 9.0 + 4.0 + 1.0);
  teal_context_free(other);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* ---- diagram connections and diagram-level accessors ------------------ */

/* outer { pre (integrator, nz = 2), src (constant 2.0), src1 (constant),
 *         inner { probe } } with src -> probe.u0, src1 -> probe.u1 */
typedef struct wired {
  teal_system *outer, *inner, *probe, *pre, *src, *src1;
} wired;

static wired wired_new(void) {
  wired w;
  const double two = 2.0, three = 3.0;
  teal_builder *ib = teal_builder_new("inner");
  w.probe = teal_builder_add(ib, probe_new("probe"));
  ck_assert_int_ge(teal_builder_export_input(ib, teal_system_input_port(w.probe, 0), "u0"), 0);
  ck_assert_int_ge(teal_builder_export_input(ib, teal_system_input_port(w.probe, 1), "u1"), 0);
  ck_assert_int_ge(teal_builder_export_output(ib, teal_system_output_port(w.probe, O_ALL), "all"),
                   0);
  w.inner = build(ib);
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
  w.outer = build(ob);
  return w;
}

START_TEST(test_upstream_change_through_connections) {
  wired w = wired_new();
  teal_context *ctx = new_ctx(w.outer);
  teal_context *leaf = teal_context_subcontext_mut(ctx, w.probe);
  int ran[NOUT];
  eval_all(w.probe, leaf, ran);
  double u0;
  ck_assert_int_eq(input_value(w.probe, leaf, 0, &u0), TEAL_OK);
  ck_assert(u0 == 2.0);
  /* the source's parameter feeds u0: O_U0 and O_ALL rerun, O_E (u1) does not */
  double nv = 5.0;
  ck_assert_int_eq(teal_context_set_numeric_parameter(
                       teal_context_subcontext_mut(ctx, w.src), 0, &nv, 1), TEAL_OK);
  eval_all(w.probe, leaf, ran);
  for (int o = 0; o < NOUT; o++) {
    ck_assert_msg(ran[o] == (o == O_ALL || o == O_U0), "'%s' ran %d", k_out_names[o], ran[o]);
  }
  ck_assert(expected_value(w.probe, leaf, O_U0) == 5.0);
  /* src1 feeds u1: the cache entry and O_E rerun */
  int entry_before = probe_of(w.probe)->entry_calls;
  teal_context_numeric_parameter_mut(teal_context_subcontext_mut(ctx, w.src1), 0)[0] = 30.0;
  eval_all(w.probe, leaf, ran);
  for (int o = 0; o < NOUT; o++) {
    ck_assert_msg(ran[o] == (o == O_ALL || o == O_E), "'%s' ran %d", k_out_names[o], ran[o]);
  }
  ck_assert_int_eq(probe_of(w.probe)->entry_calls, entry_before + 1);
  /* a change in an unrelated leaf reruns nothing */
  teal_context_z_mut(teal_context_subcontext_mut(ctx, w.pre))[1] = 4.0;
  eval_all(w.probe, leaf, ran);
  for (int o = 0; o < NOUT; o++) {
    ck_assert_msg(ran[o] == 0, "'%s' ran %d", k_out_names[o], ran[o]);
  }
  /* the diagram's exported output is the same cached value */
  const double *y;
  int before = probe_of(w.probe)->calls[O_ALL];
  ck_assert_int_eq(teal_eval_vector_output(w.outer, ctx, 0, &y), TEAL_OK);
  ck_assert(y[0] == expected_value(w.probe, leaf, O_ALL));
  ck_assert_int_eq(probe_of(w.probe)->calls[O_ALL], before);
  teal_context_free(ctx);
  teal_system_free(w.outer);
}
END_TEST

START_TEST(test_chain_through_integrator_and_gain) {
  /* integ.y -> gain.u, gain.y -> probe.u0, const -> probe.u1 */
  teal_builder *b = teal_builder_new("chain");
  const double x0[1] = {1.5}, one = 1.0;
  teal_system *integ = teal_builder_add(b, ts_integrator_new("integ", 1, x0));
  teal_system *gain = teal_builder_add(b, ts_gain_new("gain", 1, 4.0));
  teal_system *k = teal_builder_add(b, ts_constant_new("k", 1, &one));
  teal_system *p = teal_builder_add(b, probe_new("probe"));
  ck_assert_int_eq(teal_builder_connect_by_name(b, "integ", "y", "gain", "u"), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "gain", "y", "probe", "u0"), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "k", "y", "probe", "u1"), TEAL_OK);
  teal_system *d = build(b);
  teal_context *ctx = new_ctx(d);
  teal_context *leaf = teal_context_subcontext_mut(ctx, p);
  int ran[NOUT];
  eval_all(p, leaf, ran);
  ck_assert(expected_value(p, leaf, O_U0) == 6.0);
  /* the integrator's state, written through the root's z */
  int nq, nv, nz;
  teal_system_num_continuous_states(d, &nq, &nv, &nz);
  ck_assert_int_eq(nz, 2);
  teal_context_z_mut(ctx)[0] = 2.0; /* integ comes first */
  eval_all(p, leaf, ran);
  ck_assert_int_eq(ran[O_U0], 1);
  ck_assert_int_eq(ran[O_Q], 0);
  ck_assert(expected_value(p, leaf, O_U0) == 8.0);
  /* the gain's parameter */
  teal_context_numeric_parameter_mut(teal_context_subcontext_mut(ctx, gain), 0)[0] = -1.0;
  eval_all(p, leaf, ran);
  ck_assert_int_eq(ran[O_U0], 1);
  ck_assert_int_eq(ran[O_E], 0);
  ck_assert(expected_value(p, leaf, O_U0) == -2.0);
  /* the probe's own z, written through its own context, does not touch u0 */
  teal_context_z_mut(leaf)[0] = 7.0;
  eval_all(p, leaf, ran);
  ck_assert_int_eq(ran[O_U0], 0);
  ck_assert_int_eq(ran[O_Z], 1);
  /* written through the root's z, it may be anyone's z: both rerun */
  teal_context_z_mut(ctx)[1] = 8.0;
  eval_all(p, leaf, ran);
  ck_assert_int_eq(ran[O_U0], 1);
  ck_assert_int_eq(ran[O_Z], 1);
  ck_assert_int_eq(ran[O_V], 0);
  ck_assert(teal_context_z(leaf)[0] == 8.0);
  (void)integ;
  (void)k;
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* A leaf input fed by a nested diagram's exported output, and a nested
 * leaf input fed by the root's fixed exported input: both resolve through
 * the diagram boundaries and see every change. */
START_TEST(test_changes_across_diagram_boundaries) {
  teal_builder *ib = teal_builder_new("inner");
  teal_system *p = teal_builder_add(ib, probe_new("probe"));
  teal_system *gin = teal_builder_add(ib, ts_gain_new("gin", 1, 10.0));
  ck_assert_int_eq(teal_builder_export_output(ib, teal_system_output_port(p, O_Q), "q"), 0);
  ck_assert_int_eq(teal_builder_export_input(ib, teal_system_input_port(gin, 0), "w"), 0);
  ck_assert_int_eq(teal_builder_export_output(ib, teal_system_output_port(gin, 0), "w10"), 1);
  teal_system *inner = build(ib);
  teal_builder *ob = teal_builder_new("outer");
  teal_builder_add(ob, inner);
  teal_system *g = teal_builder_add(ob, ts_gain_new("g", 1, 3.0));
  ck_assert_int_eq(teal_builder_connect(ob, teal_system_output_port(inner, 0),
                                        teal_system_input_port(g, 0)), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_input(ob, teal_system_input_port(inner, 0), "w"), 0);
  teal_system *outer = build(ob);
  teal_context *ctx = new_ctx(outer);
  teal_context *pc = teal_context_subcontext_mut(ctx, p);
  const teal_context *gc = teal_context_subcontext(ctx, g);
  const teal_context *ginc = teal_context_subcontext(ctx, gin);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(g, gc, 0, &y), TEAL_OK);
  ck_assert(y[0] == 3.0); /* 3 * q, q = 1 */
  int calls = probe_of(p)->calls[O_Q];
  ck_assert_int_eq(teal_eval_vector_output(g, gc, 0, &y), TEAL_OK);
  ck_assert_int_eq(probe_of(p)->calls[O_Q], calls);
  teal_context_q_mut(pc)[0] = 2.0;
  ck_assert_int_eq(teal_eval_vector_output(g, gc, 0, &y), TEAL_OK);
  ck_assert(y[0] == 6.0);
  ck_assert_int_eq(probe_of(p)->calls[O_Q], calls + 1);
  teal_context_v_mut(pc)[0] = 5.0; /* q output does not depend on v */
  ck_assert_int_eq(teal_eval_vector_output(g, gc, 0, &y), TEAL_OK);
  ck_assert_int_eq(probe_of(p)->calls[O_Q], calls + 1);
  /* root's fixed input -> inner.w -> gin.u */
  double w = 0.5;
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, &w, 1), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(gin, ginc, 0, &y), TEAL_OK);
  ck_assert(y[0] == 5.0);
  w = 1.25;
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, &w, 1), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(gin, ginc, 0, &y), TEAL_OK);
  ck_assert(y[0] == 12.5);
  ck_assert_int_eq(teal_eval_vector_output(inner, teal_context_subcontext(ctx, inner), 1, &y),
                   TEAL_OK);
  ck_assert(y[0] == 12.5);
  ck_assert_int_eq(teal_context_unfix_input(ctx, 0), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(gin, ginc, 0, &y), TEAL_ENOTCONNECTED);
  teal_context_free(ctx);
  teal_system_free(outer);
}
END_TEST

/* Diagram-level _mut accessors and setters invalidate leaf outputs. */
enum { D_Q, D_V, D_Z, D_XC_MUT, D_XC_SET, D_XD_MUT, D_INNER_Q, D_INNER_XC_SET, D_PRE_Z, NDCHANGE };
static const char *k_dchange_names[NDCHANGE] = {
    "root q_mut", "root v_mut", "root z_mut", "root continuous_state_mut",
    "root set_continuous_state", "root discrete_state_mut", "inner q_mut",
    "inner set_continuous_state", "pre z_mut"};

static int expect_diagram(int o, int c) {
  int q = o == O_Q || o == O_XC || o == O_E || o == O_ALL;
  int v = o == O_V || o == O_XC || o == O_VBOX || o == O_ALL;
  int z = o == O_Z || o == O_XC || o == O_ALL;
  switch (c) {
    case D_Q:
    case D_INNER_Q: return q;
    case D_V: return v;
    case D_Z: return z;
    case D_XC_MUT:
    case D_XC_SET:
    case D_INNER_XC_SET: return q || v || z;
    case D_XD_MUT: return o == O_G0 || o == O_XD || o == O_ALL;
    case D_PRE_Z: return 0;
    default: return -1;
  }
}

START_TEST(test_diagram_level_mut_invalidates_leaf_outputs) {
  wired w = wired_new();
  teal_context *ctx = new_ctx(w.outer);
  teal_context *leaf = teal_context_subcontext_mut(ctx, w.probe);
  teal_context *inner = teal_context_subcontext_mut(ctx, w.inner);
  teal_context *pre = teal_context_subcontext_mut(ctx, w.pre);
  /* root layout: q = [probe], v = [probe], z = [pre(2), probe],
   * xd = [probe g0, probe g1] */
  int nq, nv, nz;
  ck_assert_int_eq(teal_system_num_continuous_states(w.outer, &nq, &nv, &nz), 5);
  ck_assert_int_eq(nq, 1);
  ck_assert_int_eq(nz, 3);
  int ran[NOUT];
  eval_all(w.probe, leaf, ran);
  for (int c = 0; c < NDCHANGE; c++) {
    switch (c) {
      case D_Q: teal_context_q_mut(ctx)[0] += 1.0; break;
      case D_V: teal_context_v_mut(ctx)[0] += 1.0; break;
      case D_Z: teal_context_z_mut(ctx)[2] += 1.0; break;
      case D_XC_MUT: teal_context_continuous_state_mut(ctx)[4] += 1.0; break;
      case D_XC_SET: {
        double x[5];
        ck_assert_int_eq(teal_context_get_continuous_state(ctx, x, 5), TEAL_OK);
        x[0] -= 0.5;
        ck_assert_int_eq(teal_context_set_continuous_state(ctx, x, 5), TEAL_OK);
        break;
      }
      case D_XD_MUT: teal_context_discrete_state_mut(ctx)[0] += 1.0; break;
      case D_INNER_Q: teal_context_q_mut(inner)[0] += 1.0; break;
      case D_INNER_XC_SET: {
        double x[3] = {-1.0, -2.0, -3.0};
        ck_assert_int_eq(teal_context_set_continuous_state(inner, x, 3), TEAL_OK);
        break;
      }
      case D_PRE_Z: teal_context_z_mut(pre)[0] += 1.0; break;
      default: break;
    }
    eval_all(w.probe, leaf, ran);
    for (int o = 0; o < NOUT; o++) {
      ck_assert_msg(ran[o] == expect_diagram(o, c), "after %s: '%s' ran %d, expected %d",
                    k_dchange_names[c], k_out_names[o], ran[o], expect_diagram(o, c));
    }
  }
  /* the writes landed in the probe's state */
  ck_assert(teal_context_q(leaf)[0] == -1.0);
  ck_assert(teal_context_v(leaf)[0] == -2.0);
  ck_assert(teal_context_z(leaf)[0] == -3.0);
  teal_context_free(ctx);
  teal_system_free(w.outer);
}
END_TEST

/* ---- cache entries ---------------------------------------------------- */

START_TEST(test_cache_entries) {
  teal_system *sys = probe_new("probe");
  teal_context *ctx = new_ctx(sys);
  fix_inputs(ctx, 0.0, 0.5);
  probe *p = probe_of(sys);
  const void *e;
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &e), TEAL_OK);
  ck_assert(((const double *)e)[0] == 1.0 + 0.5);
  ck_assert_int_eq(p->entry_calls, 1);
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &e), TEAL_OK);
  ck_assert_int_eq(p->entry_calls, 1);
  /* the output depending on the entry uses the cached entry */
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, O_E, &y), TEAL_OK);
  ck_assert(y[0] == 2.5);
  ck_assert_int_eq(p->entry_calls, 1);
  ck_assert_int_eq(p->calls[O_E], 1);
  /* v does not matter to either */
  teal_context_v_mut(ctx)[0] = 100.0;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, O_E, &y), TEAL_OK);
  ck_assert_int_eq(p->entry_calls, 1);
  ck_assert_int_eq(p->calls[O_E], 1);
  /* q does: evaluating the output recomputes the entry once */
  teal_context_q_mut(ctx)[0] = 3.0;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, O_E, &y), TEAL_OK);
  ck_assert(y[0] == 9.0 + 0.5 + 1.0);
  ck_assert_int_eq(p->entry_calls, 2);
  ck_assert_int_eq(p->calls[O_E], 2);
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &e), TEAL_OK);
  ck_assert(((const double *)e)[0] == 9.5);
  ck_assert_int_eq(p->entry_calls, 2);
  /* abstract entry */
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 1, &e), TEAL_OK);
  ck_assert(((const box *)e)->x == 6.0);
  ck_assert_int_eq(p->abs_entry_calls, 1);
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 1, &e), TEAL_OK);
  ck_assert_int_eq(p->abs_entry_calls, 1);
  teal_context_q_mut(ctx)[0] = -1.0;
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 1, &e), TEAL_OK);
  ck_assert(((const box *)e)->x == -2.0);
  ck_assert_int_eq(p->abs_entry_calls, 2);
  /* bad indices */
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 2, &e), TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "probe"));
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, -1, &e), TEAL_ENOTFOUND);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_calc_does_not_touch_cache) {
  teal_system *sys = probe_new("probe");
  teal_context *ctx = new_ctx(sys);
  fix_inputs(ctx, 0.0, 0.0);
  probe *p = probe_of(sys);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, O_Q, &y), TEAL_OK);
  ck_assert_int_eq(p->calls[O_Q], 1);
  double out = 0.0;
  ck_assert_int_eq(teal_calc_vector_output(sys, ctx, O_Q, &out), TEAL_OK);
  ck_assert(out == 1.0);
  ck_assert_int_eq(p->calls[O_Q], 2);
  ck_assert_int_eq(teal_calc_vector_output(sys, ctx, O_Q, &out), TEAL_OK);
  ck_assert_int_eq(p->calls[O_Q], 3);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, O_Q, &y), TEAL_OK);
  ck_assert_int_eq(p->calls[O_Q], 3); /* still cached */
  /* calc of a never-evaluated output leaves it unevaluated */
  ck_assert_int_eq(teal_calc_vector_output(sys, ctx, O_V, &out), TEAL_OK);
  ck_assert(out == 2.0);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, O_V, &y), TEAL_OK);
  ck_assert_int_eq(p->calls[O_V], 2);
  box b = {0};
  ck_assert_int_eq(teal_calc_abstract_output(sys, ctx, O_VBOX, &b), TEAL_OK);
  ck_assert(b.x == 6.0);
  /* kind and index checks */
  const void *a;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, O_VBOX, &y), TEAL_ETYPE);
  ck_assert_int_eq(teal_eval_abstract_output(sys, ctx, O_Q, &a), TEAL_ETYPE);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, NOUT, &y), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, -1, &y), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_calc_vector_output(sys, ctx, O_Q, NULL), TEAL_EINVAL);
  /* a NULL result pointer is an error with a message, never a store */
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, O_Q, NULL), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "NULL result pointer"));
  ck_assert_int_eq(teal_eval_abstract_output(sys, ctx, O_VBOX, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_calc_abstract_output(sys, ctx, O_VBOX, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_eval_vector_input(sys, ctx, 0, NULL), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "eval_vector_input"));
  ck_assert_int_eq(teal_eval_abstract_input(sys, ctx, 0, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, NULL), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "eval_cache_entry"));
  /* a context of another system */
  teal_system *other = probe_new("other");
  ck_assert_int_eq(teal_eval_vector_output(other, ctx, O_Q, &y), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "other"));
  teal_system_free(other);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* ---- caching disabled ------------------------------------------------- */

START_TEST(test_caching_disabled_recomputes_every_eval) {
  teal_system *sys = probe_new("probe");
  teal_context *ctx = new_ctx(sys);
  fix_inputs(ctx, 0.0, 0.0);
  teal_context_set_caching(ctx, 0);
  probe *p = probe_of(sys);
  const double *y;
  for (int k = 1; k <= 3; k++) {
    ck_assert_int_eq(teal_eval_vector_output(sys, ctx, O_T, &y), TEAL_OK);
    ck_assert(y[0] == 0.0);
    ck_assert_int_eq(p->calls[O_T], k);
    ck_assert_int_eq(teal_eval_vector_output(sys, ctx, O_E, &y), TEAL_OK);
    ck_assert_int_eq(p->calls[O_E], k);
    ck_assert_int_eq(p->entry_calls, k);
  }
  /* turned back on, repeated evaluations hit the cache again */
  teal_context_set_caching(ctx, 1);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, O_T, &y), TEAL_OK);
  int after_first = p->calls[O_T];
  ck_assert_int_le(after_first, 4);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, O_T, &y), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, O_T, &y), TEAL_OK);
  ck_assert_int_eq(p->calls[O_T], after_first);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* An output whose only prerequisite is TEAL_TICKET_NOTHING (an empty
 * dependency list) is computed once and never again. */
static int nothing_calls;

static int nothing_calc(const teal_system *sys, const teal_context *ctx, double *out,
                        void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  nothing_calls++;
  out[0] = 42.0;
  return TEAL_OK;
}

START_TEST(test_output_depending_on_nothing) {
  nothing_calls = 0;
  teal_system *sys = teal_leaf_new("constant", NULL, NULL);
  teal_ticket nothing = TEAL_TICKET_NOTHING;
  const double x0[3] = {1, 2, 3};
  teal_leaf_declare_continuous_state(sys, 1, 1, 1, x0);
  teal_leaf_set_time_derivatives(sys, probe_deriv, NULL);
  teal_leaf_declare_discrete_state(sys, 1, NULL);
  teal_leaf_declare_numeric_parameter(sys, 1, NULL);
  teal_leaf_declare_vector_input(sys, "u", 1);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "k", 1, nothing_calc, NULL, &nothing, 1),
                   0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 0, 0), 0);
  teal_context *ctx = new_ctx(sys);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert(y[0] == 42.0);
  ck_assert_int_eq(nothing_calls, 1);
  double one = 1.0;
  ck_assert_int_eq(teal_context_set_time(ctx, 3.0), TEAL_OK);
  ck_assert_int_eq(teal_context_set_accuracy(ctx, 0.1), TEAL_OK);
  teal_context_q_mut(ctx)[0] = 5.0;
  teal_context_v_mut(ctx)[0] = 5.0;
  teal_context_z_mut(ctx)[0] = 5.0;
  teal_context_discrete_state_mut(ctx)[0] = 5.0;
  ck_assert_int_eq(teal_context_set_numeric_parameter(ctx, 0, &one, 1), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, &one, 1), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert(y[0] == 42.0);
  ck_assert_int_eq(nothing_calls, 1);
  teal_context_set_caching(ctx, 0);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert_int_eq(nothing_calls, 2);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_caching_disabled_matches_cached_results) {
  wired w = wired_new();
  teal_context *cached = new_ctx(w.outer);
  teal_context *uncached = new_ctx(w.outer);
  teal_context_set_caching(uncached, 0);
  teal_context *ctxs[2] = {cached, uncached};
  unsigned seed = 12345u;
  int checked = 0;
  for (int step = 0; step < 400; step++) {
    int kind = (int)(ts_rand_next(&seed) % 9);
    double val = ts_rand_uniform(&seed, -5.0, 5.0);
    for (int k = 0; k < 2; k++) {
      teal_context *ctx = ctxs[k];
      teal_context *leaf = teal_context_subcontext_mut(ctx, w.probe);
      switch (kind) {
        case 0: ck_assert_int_eq(teal_context_set_time(ctx, val), TEAL_OK); break;
        case 1: teal_context_q_mut(leaf)[0] = val; break;
        case 2: teal_context_v_mut(ctx)[0] = val; break;
        case 3: teal_context_z_mut(ctx)[2] = val; break;
        case 4: teal_context_discrete_group_mut(leaf, (int)(fabs(val) * 10) % 2)[0] = val; break;
        case 5: ((box *)teal_context_abstract_state_mut(leaf, 0))->x = val; break;
        case 6:
          ck_assert_int_eq(teal_context_set_numeric_parameter(
                               teal_context_subcontext_mut(ctx, w.src), 0, &val, 1), TEAL_OK);
          break;
        case 7: teal_context_numeric_parameter_mut(leaf, 1)[0] = val; break;
        case 8:
          teal_context_numeric_parameter_mut(teal_context_subcontext_mut(ctx, w.src1), 0)[0] = val;
          break;
        default: break;
      }
    }
    /* evaluate a random subset of outputs, in random order, on both */
    int nevals = 1 + (int)(ts_rand_next(&seed) % NOUT);
    for (int e = 0; e < nevals; e++) {
      int o = (int)(ts_rand_next(&seed) % NOUT);
      double a = NAN, b = NAN;
      ck_assert_int_eq(eval_probe(w.probe, teal_context_subcontext(cached, w.probe), o, &a),
                       TEAL_OK);
      ck_assert_int_eq(eval_probe(w.probe, teal_context_subcontext(uncached, w.probe), o, &b),
                       TEAL_OK);
      ck_assert_msg(a == b, "step %d output '%s': cached %.17g, uncached %.17g", step,
                    k_out_names[o], a, b);
      ck_assert(b == expected_value(w.probe, teal_context_subcontext(uncached, w.probe), o));
      checked++;
    }
    const double *ya, *yb;
    ck_assert_int_eq(teal_eval_vector_output(w.outer, cached, 0, &ya), TEAL_OK);
    ck_assert_int_eq(teal_eval_vector_output(w.outer, uncached, 0, &yb), TEAL_OK);
    ck_assert(ya[0] == yb[0]);
  }
  ck_assert_int_gt(checked, 400);
  teal_context_free(cached);
  teal_context_free(uncached);
  teal_system_free(w.outer);
}
END_TEST

/* ---- failures --------------------------------------------------------- */

typedef struct faulty {
  int mode; /* 0 ok, 1 return ESINGULAR, 2 return a positive code, 3 report own message */
  int calls;
} faulty;

static int faulty_calc(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  faulty *f = user;
  f->calls++;
  switch (f->mode) {
    case 1: return TEAL_ESINGULAR;
    case 2: return 7;
    case 3: return teal_context_report_error(ctx, TEAL_ENOCONV, "custom failure %d", 12);
    default: out[0] = 10.0 * f->calls; return TEAL_OK;
  }
}

static faulty g_faulty;

static teal_system *faulty_new(void) {
  teal_system *sys = teal_leaf_new("faulty", NULL, NULL);
  teal_ticket t = TEAL_TICKET_TIME;
  teal_leaf_declare_vector_output(sys, "y", 1, faulty_calc, &g_faulty, &t, 1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  return sys;
}

START_TEST(test_failing_calc_propagates_and_is_retried) {
  memset(&g_faulty, 0, sizeof g_faulty);
  teal_system *sys = faulty_new();
  teal_context *ctx = new_ctx(sys);
  const double *y;
  g_faulty.mode = 1;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_ESINGULAR);
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_ESINGULAR);
  ck_assert_ptr_nonnull(strstr(e->message, "faulty"));
  ck_assert_ptr_nonnull(strstr(e->message, "'y'"));
  ck_assert_int_eq(g_faulty.calls, 1);
  /* no change, but the failed value is not cached: it is tried again */
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_ESINGULAR);
  ck_assert_int_eq(g_faulty.calls, 2);
  g_faulty.mode = 0;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert(y[0] == 30.0);
  ck_assert_int_eq(g_faulty.calls, 3);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert_int_eq(g_faulty.calls, 3);
  ck_assert(y[0] == 30.0);
  /* a positive return becomes TEAL_ECALLBACK */
  g_faulty.mode = 2;
  ck_assert_int_eq(teal_context_set_time(ctx, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_ECALLBACK);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_ECALLBACK);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "faulty"));
  /* a callback's own message is kept */
  g_faulty.mode = 3;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_ENOCONV);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_ENOCONV);
  ck_assert_str_eq(teal_context_error(ctx)->message, "custom failure 12");
  /* calc (uncached) reports the same way */
  g_faulty.mode = 1;
  double out;
  ck_assert_int_eq(teal_calc_vector_output(sys, ctx, 0, &out), TEAL_ESINGULAR);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "faulty"));
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_failure_downstream_in_diagram) {
  memset(&g_faulty, 0, sizeof g_faulty);
  teal_builder *b = teal_builder_new("outer");
  teal_system *f = teal_builder_add(b, faulty_new());
  teal_system *g = teal_builder_add(b, ts_gain_new("g", 1, 2.0));
  ck_assert_int_eq(teal_builder_connect(b, teal_system_output_port(f, 0),
                                        teal_system_input_port(g, 0)), TEAL_OK);
  teal_system *d = build(b);
  teal_context *ctx = new_ctx(d);
  const teal_context *gc = teal_context_subcontext(ctx, g);
  const double *y;
  g_faulty.mode = 1;
  ck_assert_int_eq(teal_eval_vector_output(g, gc, 0, &y), TEAL_ESINGULAR);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "outer/faulty"));
  g_faulty.mode = 0;
  ck_assert_int_eq(teal_eval_vector_output(g, gc, 0, &y), TEAL_OK);
  ck_assert(y[0] == 2.0 * 10.0 * g_faulty.calls);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_unconnected_upstream_message_kept) {
  /* gain g2 reads gain g1 whose input is unconnected and unfixed */
  teal_builder *b = teal_builder_new("d");
  teal_system *g1 = teal_builder_add(b, ts_gain_new("g1", 1, 2.0));
  teal_system *g2 = teal_builder_add(b, ts_gain_new("g2", 1, 3.0));
  ck_assert_int_eq(teal_builder_connect(b, teal_system_output_port(g1, 0),
                                        teal_system_input_port(g2, 0)), TEAL_OK);
  teal_system *d = build(b);
  teal_context *ctx = new_ctx(d);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(g2, teal_context_subcontext(ctx, g2), 0, &y),
                   TEAL_ENOTCONNECTED);
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_ENOTCONNECTED);
  ck_assert_ptr_nonnull(strstr(e->message, "'u'"));
  ck_assert_ptr_nonnull(strstr(e->message, "g1"));
  double one = 1.0;
  ck_assert_int_eq(teal_context_fix_input(teal_context_subcontext_mut(ctx, g1), 0, &one, 1),
                   TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(g2, teal_context_subcontext(ctx, g2), 0, &y),
                   TEAL_OK);
  ck_assert(y[0] == 6.0);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* ---- algebraic loops at evaluation time ------------------------------- */

static int self_calls;

static int self_entry(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)user;
  self_calls++;
  if (self_calls > 100) {
    return TEAL_EINVAL; /* runaway recursion guard for the test itself */
  }
  const void *me;
  int rc = teal_eval_cache_entry(sys, ctx, 0, &me);
  if (rc) {
    return rc;
  }
  out[0] = ((const double *)me)[0] + 1.0;
  return TEAL_OK;
}

START_TEST(test_cache_entry_evaluating_itself) {
  self_calls = 0;
  teal_system *sys = teal_leaf_new("ouroboros", NULL, NULL);
  teal_ticket t = TEAL_TICKET_TIME; /* declared honestly enough to finalize */
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "tail", 1, self_entry, NULL, &t, 1), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  teal_context *ctx = new_ctx(sys);
  const void *v;
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &v), TEAL_EALGLOOP);
  ck_assert_int_eq(self_calls, 1);
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_EALGLOOP);
  ck_assert_ptr_nonnull(strstr(e->message, "algebraic loop"));
  ck_assert_ptr_nonnull(strstr(e->message, "tail"));
  ck_assert_ptr_nonnull(strstr(e->message, "ouroboros"));
  /* the guard is released: a second attempt fails the same way */
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &v), TEAL_EALGLOOP);
  ck_assert_int_eq(self_calls, 2);
  teal_context_set_caching(ctx, 0);
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &v), TEAL_EALGLOOP);
  ck_assert_int_eq(self_calls, 3);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

static int echo_calls;

/* Declares no feedthrough but reads its own input anyway. */
static int liar_calc(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)user;
  echo_calls++;
  if (echo_calls > 100) {
    return TEAL_EINVAL;
  }
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  out[0] = u[0] + 1.0;
  return TEAL_OK;
}

START_TEST(test_output_fed_back_to_own_input) {
  echo_calls = 0;
  teal_system *liar = teal_leaf_new("liar", NULL, NULL);
  teal_ticket time_only = TEAL_TICKET_TIME;
  teal_leaf_declare_vector_input(liar, "u", 1);
  teal_leaf_declare_vector_output(liar, "y", 1, liar_calc, NULL, &time_only, 1);
  ck_assert_int_eq(teal_leaf_finalize(liar), TEAL_OK);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(liar, 0, 0), 0);
  teal_builder *b = teal_builder_new("loop");
  teal_builder_add(b, liar);
  ck_assert_int_eq(teal_builder_connect(b, teal_system_output_port(liar, 0),
                                        teal_system_input_port(liar, 0)), TEAL_OK);
  teal_system *d = build(b); /* no declared feedthrough: the builder accepts it */
  teal_context *ctx = new_ctx(d);
  const double *y;
  const teal_context *lc = teal_context_subcontext(ctx, liar);
  ck_assert_int_eq(teal_eval_vector_output(liar, lc, 0, &y), TEAL_EALGLOOP);
  ck_assert_int_eq(echo_calls, 1);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_EALGLOOP);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "liar"));
  ck_assert_int_eq(teal_eval_vector_output(liar, lc, 0, &y), TEAL_EALGLOOP);
  ck_assert_int_eq(echo_calls, 2);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

static Suite *cache_suite(void) {
  Suite *s = suite_create("cache");
  TCase *tc = tcase_create("invalidation");
  tcase_add_test(tc, test_each_change_recomputes_exactly_its_dependents);
  tcase_add_test(tc, test_change_matrix_inside_nested_diagram);
  tcase_add_test(tc, test_set_to_defaults_and_copy_invalidate);
  tcase_add_test(tc, test_output_depending_on_nothing);
  tcase_add_test(tc, test_upstream_change_through_connections);
  tcase_add_test(tc, test_chain_through_integrator_and_gain);
  tcase_add_test(tc, test_diagram_level_mut_invalidates_leaf_outputs);
  tcase_add_test(tc, test_changes_across_diagram_boundaries);
  suite_add_tcase(s, tc);

  tc = tcase_create("entries");
  tcase_add_test(tc, test_cache_entries);
  tcase_add_test(tc, test_calc_does_not_touch_cache);
  suite_add_tcase(s, tc);

  tc = tcase_create("disabled");
  tcase_add_test(tc, test_caching_disabled_recomputes_every_eval);
  tcase_add_test(tc, test_caching_disabled_matches_cached_results);
  suite_add_tcase(s, tc);

  tc = tcase_create("failures");
  tcase_add_test(tc, test_failing_calc_propagates_and_is_retried);
  tcase_add_test(tc, test_failure_downstream_in_diagram);
  tcase_add_test(tc, test_unconnected_upstream_message_kept);
  tcase_add_test(tc, test_cache_entry_evaluating_itself);
  tcase_add_test(tc, test_output_fed_back_to_own_input);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(cache_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
