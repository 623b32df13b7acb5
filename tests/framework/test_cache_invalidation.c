/* Tests for cache invalidation: outputs and cache entries are computed once
 * per change of their declared prerequisites, recomputed after each kind of
 * change (also through diagram connections and diagram-level accessors) and
 * never recomputed for changes they do not depend on. */
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

/* Evaluates every probe output twice (the second must hit the cache),
 * checks the values and returns how many calcs ran per output. */
static void eval_all(const teal_system *sys, const teal_context *ctx, int ran[TS_CACHE_NOUT]) {
  ts_cache_probe *p = ts_cache_probe_of(sys);
  int before[TS_CACHE_NOUT];
  memcpy(before, p->calls, sizeof before);
  for (int pass = 0; pass < 2; pass++) {
    for (int o = 0; o < TS_CACHE_NOUT; o++) {
      double y = NAN;
      ck_assert_msg(ts_cache_eval_probe(sys, ctx, o, &y) == TEAL_OK, "eval '%s': %s",
                    ts_cache_k_out_names[o], teal_context_error(ctx)->message);
      double want = ts_cache_expected_value(sys, ctx, o);
      ck_assert_msg(y == want, "output '%s' = %g, expected %g (stale cache?)",
                    ts_cache_k_out_names[o], y, want);
    }
    if (pass == 0) {
      for (int o = 0; o < TS_CACHE_NOUT; o++) {
        ran[o] = p->calls[o] - before[o];
        before[o] = p->calls[o];
      }
    } else {
      for (int o = 0; o < TS_CACHE_NOUT; o++) {
        ck_assert_msg(p->calls[o] == before[o], "output '%s' recomputed without a change",
                      ts_cache_k_out_names[o]);
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
  if (o == TS_CACHE_O_ALL) {
    return 1;
  }
  switch (c) {
  case C_TIME:
    return o == TS_CACHE_O_T;
  case C_ACC:
    return o == TS_CACHE_O_ACC;
  case C_Q:
    return o == TS_CACHE_O_Q || o == TS_CACHE_O_XC || o == TS_CACHE_O_E;
  case C_V:
    return o == TS_CACHE_O_V || o == TS_CACHE_O_XC || o == TS_CACHE_O_VBOX;
  case C_Z:
    return o == TS_CACHE_O_Z || o == TS_CACHE_O_XC;
  case C_XC:
    return o == TS_CACHE_O_Q || o == TS_CACHE_O_V || o == TS_CACHE_O_Z || o == TS_CACHE_O_XC ||
           o == TS_CACHE_O_E || o == TS_CACHE_O_VBOX;
  case C_G0:
    return o == TS_CACHE_O_G0 || o == TS_CACHE_O_XD;
  case C_G1:
    return o == TS_CACHE_O_XD;
  case C_XD:
    return o == TS_CACHE_O_G0 || o == TS_CACHE_O_XD;
  case C_XA:
  case C_XA_SET:
    return o == TS_CACHE_O_XA;
  case C_P0:
  case C_P0_MUT:
    return o == TS_CACHE_O_P0;
  case C_P1:
    return 0;
  case C_U0:
    return o == TS_CACHE_O_U0;
  case C_U1:
    return o == TS_CACHE_O_E;
  default:
    return -1;
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
      double g = ts_cache_g1_of(leaf) + d;
      ck_assert_int_eq(teal_context_set_discrete_group(leaf, 1, &g, 1), TEAL_OK);
      break;
    }
    case C_XD: teal_context_discrete_state_mut(leaf)[0] -= d; break;
    case C_XA:
      ((ts_cache_box *)teal_context_abstract_state_mut(leaf, 0))->x += d;
      break;
    case C_XA_SET: {
      ts_cache_box b = {ts_cache_xa_of(leaf) - d};
      ck_assert_int_eq(teal_context_set_abstract_state(leaf, 0, &b), TEAL_OK);
      break;
    }
    case C_P0: {
      double p = ts_cache_p_of(leaf, 0) + d;
      ck_assert_int_eq(teal_context_set_numeric_parameter(leaf, 0, &p, 1), TEAL_OK);
      break;
    }
    case C_P1: {
      double p = ts_cache_p_of(leaf, 1) + d;
      ck_assert_int_eq(teal_context_set_numeric_parameter(leaf, 1, &p, 1), TEAL_OK);
      break;
    }
    case C_P0_MUT: teal_context_numeric_parameter_mut(leaf, 0)[0] *= 2; break;
    case C_U0:
    case C_U1: {
      double u;
      ck_assert_int_eq(ts_cache_input_value(teal_context_system(leaf), leaf, c == C_U0 ? 0 : 1, &u),
                       TEAL_OK);
      u += d;
      ck_assert_int_eq(teal_context_fix_input(leaf, c == C_U0 ? 0 : 1, &u, 1), TEAL_OK);
      break;
    }
    default: ck_abort_msg("unknown change %d", c);
  }
}

/* Runs every change (twice) and checks exactly the dependent outputs reran. */
static void run_change_matrix(const teal_system *probe_sys, teal_context *root,
                              teal_context *leaf) {
  int ran[TS_CACHE_NOUT];
  eval_all(probe_sys, leaf, ran);
  for (int o = 0; o < TS_CACHE_NOUT; o++) {
    ck_assert_msg(ran[o] == 1, "first evaluation of '%s' ran %d times", ts_cache_k_out_names[o],
                  ran[o]);
  }
  for (int k = 0; k < 2; k++) {
    for (int c = 0; c < NCHANGE; c++) {
      apply_change(root, leaf, c, k);
      eval_all(probe_sys, leaf, ran);
      for (int o = 0; o < TS_CACHE_NOUT; o++) {
        ck_assert_msg(ran[o] == expect_recompute(o, c),
                      "after %s: output '%s' ran %d times, expected %d", k_change_names[c],
                      ts_cache_k_out_names[o], ran[o], expect_recompute(o, c));
      }
    }
  }
}

START_TEST(test_each_change_recomputes_exactly_its_dependents) {
  teal_system *sys = ts_cache_probe_new("probe");
  teal_context *ctx = ts_cache_new_ctx(sys);
  ts_cache_fix_inputs(ctx, 0.5, 1.5);
  run_change_matrix(sys, ctx, ctx);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_change_matrix_inside_nested_diagram) {
  teal_builder *ib = teal_builder_new("inner");
  teal_system *p = teal_builder_add(ib, ts_cache_probe_new("probe"));
  teal_system *inner = ts_cache_build(ib);
  teal_builder *ob = teal_builder_new("outer");
  teal_builder_add(ob, ts_integrator_new("pre", 2, NULL));
  teal_builder_add(ob, inner);
  teal_system *outer = ts_cache_build(ob);
  teal_context *ctx = ts_cache_new_ctx(outer);
  teal_context *leaf = teal_context_subcontext_by_name_mut(ctx, "inner/probe");
  ck_assert_ptr_nonnull(leaf);
  ts_cache_fix_inputs(leaf, -1.0, 2.0);
  run_change_matrix(p, ctx, leaf);
  teal_context_free(ctx);
  teal_system_free(outer);
}
END_TEST

START_TEST(test_set_to_defaults_and_copy_invalidate) {
  teal_system *sys = ts_cache_probe_new("probe");
  teal_context *ctx = ts_cache_new_ctx(sys);
  ts_cache_fix_inputs(ctx, 0.5, 1.5);
  int ran[TS_CACHE_NOUT];
  eval_all(sys, ctx, ran);
  teal_context_q_mut(ctx)[0] = 10.0;
  teal_context_discrete_group_mut(ctx, 1)[0] = 11.0;
  eval_all(sys, ctx, ran);
  ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_OK);
  eval_all(sys, ctx, ran); /* values checked against the restored state */
  ck_assert_int_eq(ran[TS_CACHE_O_Q], 1);
  ck_assert_int_eq(ran[TS_CACHE_O_XD], 1);
  /* copy_from brings other values in: everything depending on them reruns */
  teal_context *other = ts_cache_new_ctx(sys);
  ts_cache_fix_inputs(other, 3.0, 4.0);
  teal_context_q_mut(other)[0] = -3.0;
  ck_assert_int_eq(teal_context_set_time(other, 9.0), TEAL_OK);
  ck_assert_int_eq(teal_context_copy_from(ctx, other), TEAL_OK);
  eval_all(sys, ctx, ran);
  ck_assert_int_eq(ran[TS_CACHE_O_Q], 1);
  ck_assert_int_eq(ran[TS_CACHE_O_T], 1);
  ck_assert_int_eq(ran[TS_CACHE_O_U0], 1);
  ck_assert_int_eq(ran[TS_CACHE_O_E], 1);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_O_E, &y), TEAL_OK);
  ck_assert(y[0] == 9.0 + 4.0 + 1.0);
  teal_context_free(other);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_upstream_change_through_connections) {
  ts_cache_wired w = ts_cache_wired_new();
  teal_context *ctx = ts_cache_new_ctx(w.outer);
  teal_context *leaf = teal_context_subcontext_mut(ctx, w.ts_cache_probe);
  int ran[TS_CACHE_NOUT];
  eval_all(w.ts_cache_probe, leaf, ran);
  double u0;
  ck_assert_int_eq(ts_cache_input_value(w.ts_cache_probe, leaf, 0, &u0), TEAL_OK);
  ck_assert(u0 == 2.0);
  /* the source's parameter feeds u0: TS_CACHE_O_U0 and TS_CACHE_O_ALL rerun,
   * TS_CACHE_O_E (u1) does not */
  double nv = 5.0;
  ck_assert_int_eq(teal_context_set_numeric_parameter(
                       teal_context_subcontext_mut(ctx, w.src), 0, &nv, 1), TEAL_OK);
  eval_all(w.ts_cache_probe, leaf, ran);
  for (int o = 0; o < TS_CACHE_NOUT; o++) {
    ck_assert_msg(ran[o] == (o == TS_CACHE_O_ALL || o == TS_CACHE_O_U0), "'%s' ran %d",
                  ts_cache_k_out_names[o], ran[o]);
  }
  ck_assert(ts_cache_expected_value(w.ts_cache_probe, leaf, TS_CACHE_O_U0) == 5.0);
  /* src1 feeds u1: the cache entry and TS_CACHE_O_E rerun */
  int entry_before = ts_cache_probe_of(w.ts_cache_probe)->entry_calls;
  teal_context_numeric_parameter_mut(teal_context_subcontext_mut(ctx, w.src1), 0)[0] = 30.0;
  eval_all(w.ts_cache_probe, leaf, ran);
  for (int o = 0; o < TS_CACHE_NOUT; o++) {
    ck_assert_msg(ran[o] == (o == TS_CACHE_O_ALL || o == TS_CACHE_O_E), "'%s' ran %d",
                  ts_cache_k_out_names[o], ran[o]);
  }
  ck_assert_int_eq(ts_cache_probe_of(w.ts_cache_probe)->entry_calls, entry_before + 1);
  /* a change in an unrelated leaf reruns nothing */
  teal_context_z_mut(teal_context_subcontext_mut(ctx, w.pre))[1] = 4.0;
  eval_all(w.ts_cache_probe, leaf, ran);
  for (int o = 0; o < TS_CACHE_NOUT; o++) {
    ck_assert_msg(ran[o] == 0, "'%s' ran %d", ts_cache_k_out_names[o], ran[o]);
  }
  /* the diagram's exported output is the same cached value */
  const double *y;
  int before = ts_cache_probe_of(w.ts_cache_probe)->calls[TS_CACHE_O_ALL];
  ck_assert_int_eq(teal_eval_vector_output(w.outer, ctx, 0, &y), TEAL_OK);
  ck_assert(y[0] == ts_cache_expected_value(w.ts_cache_probe, leaf, TS_CACHE_O_ALL));
  ck_assert_int_eq(ts_cache_probe_of(w.ts_cache_probe)->calls[TS_CACHE_O_ALL], before);
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
  teal_system *p = teal_builder_add(b, ts_cache_probe_new("probe"));
  ck_assert_int_eq(teal_builder_connect_by_name(b, "integ", "y", "gain", "u"), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "gain", "y", "probe", "u0"), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "k", "y", "probe", "u1"), TEAL_OK);
  teal_system *d = ts_cache_build(b);
  teal_context *ctx = ts_cache_new_ctx(d);
  teal_context *leaf = teal_context_subcontext_mut(ctx, p);
  int ran[TS_CACHE_NOUT];
  eval_all(p, leaf, ran);
  ck_assert(ts_cache_expected_value(p, leaf, TS_CACHE_O_U0) == 6.0);
  /* the integrator's state, written through the root's z */
  int nq, nv, nz;
  teal_system_num_continuous_states(d, &nq, &nv, &nz);
  ck_assert_int_eq(nz, 2);
  teal_context_z_mut(ctx)[0] = 2.0; /* integ comes first */
  eval_all(p, leaf, ran);
  ck_assert_int_eq(ran[TS_CACHE_O_U0], 1);
  ck_assert_int_eq(ran[TS_CACHE_O_Q], 0);
  ck_assert(ts_cache_expected_value(p, leaf, TS_CACHE_O_U0) == 8.0);
  /* the gain's parameter */
  teal_context_numeric_parameter_mut(teal_context_subcontext_mut(ctx, gain), 0)[0] = -1.0;
  eval_all(p, leaf, ran);
  ck_assert_int_eq(ran[TS_CACHE_O_U0], 1);
  ck_assert_int_eq(ran[TS_CACHE_O_E], 0);
  ck_assert(ts_cache_expected_value(p, leaf, TS_CACHE_O_U0) == -2.0);
  /* the probe's own z, written through its own context, does not touch u0 */
  teal_context_z_mut(leaf)[0] = 7.0;
  eval_all(p, leaf, ran);
  ck_assert_int_eq(ran[TS_CACHE_O_U0], 0);
  ck_assert_int_eq(ran[TS_CACHE_O_Z], 1);
  /* written through the root's z, it may be anyone's z: both rerun */
  teal_context_z_mut(ctx)[1] = 8.0;
  eval_all(p, leaf, ran);
  ck_assert_int_eq(ran[TS_CACHE_O_U0], 1);
  ck_assert_int_eq(ran[TS_CACHE_O_Z], 1);
  ck_assert_int_eq(ran[TS_CACHE_O_V], 0);
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
  teal_system *p = teal_builder_add(ib, ts_cache_probe_new("probe"));
  teal_system *gin = teal_builder_add(ib, ts_gain_new("gin", 1, 10.0));
  ck_assert_int_eq(teal_builder_export_output(ib, teal_system_output_port(p, TS_CACHE_O_Q), "q"),
                   0);
  ck_assert_int_eq(teal_builder_export_input(ib, teal_system_input_port(gin, 0), "w"), 0);
  ck_assert_int_eq(teal_builder_export_output(ib, teal_system_output_port(gin, 0), "w10"), 1);
  teal_system *inner = ts_cache_build(ib);
  teal_builder *ob = teal_builder_new("outer");
  teal_builder_add(ob, inner);
  teal_system *g = teal_builder_add(ob, ts_gain_new("g", 1, 3.0));
  ck_assert_int_eq(teal_builder_connect(ob, teal_system_output_port(inner, 0),
                                        teal_system_input_port(g, 0)), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_input(ob, teal_system_input_port(inner, 0), "w"), 0);
  teal_system *outer = ts_cache_build(ob);
  teal_context *ctx = ts_cache_new_ctx(outer);
  teal_context *pc = teal_context_subcontext_mut(ctx, p);
  const teal_context *gc = teal_context_subcontext(ctx, g);
  const teal_context *ginc = teal_context_subcontext(ctx, gin);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(g, gc, 0, &y), TEAL_OK);
  ck_assert(y[0] == 3.0); /* 3 * q, q = 1 */
  int calls = ts_cache_probe_of(p)->calls[TS_CACHE_O_Q];
  ck_assert_int_eq(teal_eval_vector_output(g, gc, 0, &y), TEAL_OK);
  ck_assert_int_eq(ts_cache_probe_of(p)->calls[TS_CACHE_O_Q], calls);
  teal_context_q_mut(pc)[0] = 2.0;
  ck_assert_int_eq(teal_eval_vector_output(g, gc, 0, &y), TEAL_OK);
  ck_assert(y[0] == 6.0);
  ck_assert_int_eq(ts_cache_probe_of(p)->calls[TS_CACHE_O_Q], calls + 1);
  teal_context_v_mut(pc)[0] = 5.0; /* q output does not depend on v */
  ck_assert_int_eq(teal_eval_vector_output(g, gc, 0, &y), TEAL_OK);
  ck_assert_int_eq(ts_cache_probe_of(p)->calls[TS_CACHE_O_Q], calls + 1);
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
  int q = o == TS_CACHE_O_Q || o == TS_CACHE_O_XC || o == TS_CACHE_O_E || o == TS_CACHE_O_ALL;
  int v = o == TS_CACHE_O_V || o == TS_CACHE_O_XC || o == TS_CACHE_O_VBOX || o == TS_CACHE_O_ALL;
  int z = o == TS_CACHE_O_Z || o == TS_CACHE_O_XC || o == TS_CACHE_O_ALL;
  switch (c) {
    case D_Q:
    case D_INNER_Q: return q;
    case D_V: return v;
    case D_Z: return z;
    case D_XC_MUT:
    case D_XC_SET:
    case D_INNER_XC_SET: return q || v || z;
    case D_XD_MUT:
      return o == TS_CACHE_O_G0 || o == TS_CACHE_O_XD || o == TS_CACHE_O_ALL;
    case D_PRE_Z: return 0;
    default: return -1;
  }
}

START_TEST(test_diagram_level_mut_invalidates_leaf_outputs) {
  ts_cache_wired w = ts_cache_wired_new();
  teal_context *ctx = ts_cache_new_ctx(w.outer);
  teal_context *leaf = teal_context_subcontext_mut(ctx, w.ts_cache_probe);
  teal_context *inner = teal_context_subcontext_mut(ctx, w.inner);
  teal_context *pre = teal_context_subcontext_mut(ctx, w.pre);
  /* root layout: q = [probe], v = [probe], z = [pre(2), probe],
   * xd = [probe g0, probe g1] */
  int nq, nv, nz;
  ck_assert_int_eq(teal_system_num_continuous_states(w.outer, &nq, &nv, &nz), 5);
  ck_assert_int_eq(nq, 1);
  ck_assert_int_eq(nz, 3);
  int ran[TS_CACHE_NOUT];
  eval_all(w.ts_cache_probe, leaf, ran);
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
    eval_all(w.ts_cache_probe, leaf, ran);
    for (int o = 0; o < TS_CACHE_NOUT; o++) {
      ck_assert_msg(ran[o] == expect_diagram(o, c), "after %s: '%s' ran %d, expected %d",
                    k_dchange_names[c], ts_cache_k_out_names[o], ran[o], expect_diagram(o, c));
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
  teal_leaf_set_time_derivatives(sys, ts_cache_probe_deriv, NULL);
  teal_leaf_declare_discrete_state(sys, 1, NULL);
  teal_leaf_declare_numeric_parameter(sys, 1, NULL);
  teal_leaf_declare_vector_input(sys, "u", 1);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "k", 1, nothing_calc, NULL, &nothing, 1),
                   0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 0, 0), 0);
  teal_context *ctx = ts_cache_new_ctx(sys);
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

static Suite *cache_invalidation_suite(void) {
  Suite *s = suite_create("cache_invalidation");
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
  return s;
}

int main(void) {
  return ts_run_suite(cache_invalidation_suite());
}
