/* Tests for dispatching discrete and unrestricted updates: two-phase updates
 * through inputs and output ports, accumulation, failures that change
 * nothing, and outputs recomputed after an update. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/events.h"
#include "framework/system.h"
#include "framework/value.h"
#include "support/event_fixtures.h"
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

START_TEST(test_discrete_two_phase_through_inputs) {
  ts_ev_xchg xa = {10.0, 0, 0, 0}, xb = {100.0, 0, 0, 0};
  teal_system *d = ts_ev_xchg_diagram(&xa, &xb, 1.0, 2.0);
  teal_context *ctx = teal_context_new(d, NULL);
  teal_event_set *set = teal_event_set_new(d);
  ck_assert_int_eq(teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, set), TEAL_OK);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_DISCRETE_UPDATE), 2);
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
  /* both read the pre-update values: A = 2 + 10, B = 1 + 100 */
  ck_assert_double_eq(ts_ev_xd_of(ctx, "A"), 12.0);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "B"), 101.0);
  ck_assert_double_eq(teal_context_discrete_state(ctx)[0], 12.0);
  ck_assert_double_eq(teal_context_discrete_state(ctx)[1], 101.0);
  /* again: the outputs were recomputed from the new state */
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "A"), 111.0);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "B"), 112.0);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* Leaves without inputs that read the other leaf's output port directly
 * (through the other leaf's subcontext) in their discrete update. */
typedef struct peer {
  const teal_system *other;
  const teal_context *other_ctx;
  double scale, add;
  int outputs_seen;
} peer;

static int peer_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_discrete_state(ctx)[0];
  return TEAL_OK;
}

static int peer_update(const teal_system *sys, const teal_context *ctx, double *xd_next,
                       void *user) {
  (void)sys;
  (void)ctx;
  peer *p = user;
  const double *y = NULL;
  int rc = teal_eval_vector_output(p->other, p->other_ctx, 0, &y);
  if (rc) {
    return rc;
  }
  p->outputs_seen++;
  xd_next[0] = p->scale * y[0] + p->add;
  return TEAL_OK;
}

static teal_system *peer_new(const char *name, double x0, peer *p) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(s, 1, &x0), 0);
  teal_ticket xd = TEAL_TICKET_XD;
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", 1, peer_out, NULL, &xd, 1), 0);
  ck_assert_int_eq(teal_leaf_declare_periodic_discrete_update(s, 0.5, 0.0, peer_update, p), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

START_TEST(test_discrete_two_phase_through_output_ports) {
  peer pa = {NULL, NULL, 2.0, 1.0, 0}, pb = {NULL, NULL, 3.0, 0.0, 0};
  teal_system *a = peer_new("P", 1.0, &pa);
  teal_system *b = peer_new("Q", 2.0, &pb);
  teal_system *d = ts_ev_build2("peers", a, b);
  teal_context *ctx = teal_context_new(d, NULL);
  pa.other = b;
  pa.other_ctx = teal_context_subcontext(ctx, b);
  pb.other = a;
  pb.other_ctx = teal_context_subcontext(ctx, a);
  teal_event_set *set = teal_event_set_new(d);
  double next = 0.0;
  ck_assert_int_eq(teal_calc_next_update_time(d, ctx, &next, set), TEAL_OK);
  ck_assert_double_eq(next, 0.5);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_DISCRETE_UPDATE), 2);
  ck_assert_int_eq(teal_context_set_time(ctx, next), TEAL_OK);
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
  ck_assert_int_eq(pa.outputs_seen, 1);
  ck_assert_int_eq(pb.outputs_seen, 1);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "P"), 5.0); /* 2 * Q(2) + 1 */
  ck_assert_double_eq(ts_ev_xd_of(ctx, "Q"), 3.0); /* 3 * P(1), not 3 * 5 */
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* One leaf, two discrete groups [2, 1] and two periodic discrete events
 * due together: the second handler sees the first one's result in xd_next
 * while the context still shows the old values. */
typedef struct accum {
  double seen_ctx[2][3]; /* context values each handler saw */
  double seen_next[2][3];
  int calls;
} accum;

static int accum_first(const teal_system *sys, const teal_context *ctx, double *xd_next,
                       void *user) {
  (void)sys;
  accum *a = user;
  memcpy(a->seen_ctx[0], teal_context_discrete_state(ctx), 3 * sizeof(double));
  memcpy(a->seen_next[0], xd_next, 3 * sizeof(double));
  a->calls++;
  xd_next[0] += 1.0;
  xd_next[1] *= 2.0;
  return TEAL_OK;
}

static int accum_second(const teal_system *sys, const teal_context *ctx, double *xd_next,
                        void *user) {
  (void)sys;
  accum *a = user;
  memcpy(a->seen_ctx[1], teal_context_discrete_state(ctx), 3 * sizeof(double));
  memcpy(a->seen_next[1], xd_next, 3 * sizeof(double));
  a->calls++;
  xd_next[0] += 10.0;
  xd_next[1] += 1.0;
  xd_next[2] = -xd_next[2];
  return TEAL_OK;
}

START_TEST(test_discrete_same_leaf_events_accumulate) {
  accum acc;
  memset(&acc, 0, sizeof acc);
  ts_ev_event_log log = {{0}, 0};
  ts_ev_log_spec idle_spec = {&log, "idle", 0};
  teal_system *s = teal_leaf_new("acc", NULL, NULL);
  double g0[2] = {0.0, 3.0}, g1[1] = {4.0};
  ck_assert_int_eq(teal_leaf_declare_discrete_state(s, 2, g0), 0);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(s, 1, g1), 1);
  teal_leaf_declare_periodic_discrete_update(s, 1.0, 0.0, accum_first, &acc);
  teal_leaf_declare_periodic_discrete_update(s, 1.0, 0.0, accum_second, &acc);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  /* inside a diagram with a second leaf that has nothing due */
  teal_system *d = ts_ev_build2("d", ts_ev_publisher_new("idle", &idle_spec), s);
  teal_context *ctx = teal_context_new(d, NULL);
  teal_event_set *set = teal_event_set_new(d);
  double next = 0.0;
  ck_assert_int_eq(teal_calc_next_update_time(d, ctx, &next, set), TEAL_OK);
  ck_assert_double_eq(next, 1.0);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_DISCRETE_UPDATE), 2);
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
  ck_assert_int_eq(acc.calls, 2);
  /* first: [0,3,4] -> [1,6,4]; second: -> [11,7,-4] (order: declaration) */
  const teal_context *sc = teal_context_subcontext(ctx, s);
  ck_assert_double_eq(teal_context_discrete_group(sc, 0)[0], 11.0);
  ck_assert_double_eq(teal_context_discrete_group(sc, 0)[1], 7.0);
  ck_assert_double_eq(teal_context_discrete_group(sc, 1)[0], -4.0);
  for (int k = 0; k < 2; k++) {
    ck_assert_double_eq(acc.seen_ctx[k][0], 0.0);
    ck_assert_double_eq(acc.seen_ctx[k][1], 3.0);
    ck_assert_double_eq(acc.seen_ctx[k][2], 4.0);
  }
  ck_assert_double_eq(acc.seen_next[0][0], 0.0); /* xd_next starts at current */
  ck_assert_double_eq(acc.seen_next[0][1], 3.0);
  ck_assert_double_eq(acc.seen_next[0][2], 4.0);
  ck_assert_double_eq(acc.seen_next[1][0], 1.0); /* then accumulates */
  ck_assert_double_eq(acc.seen_next[1][1], 6.0);
  ck_assert_double_eq(acc.seen_next[1][2], 4.0);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_discrete_failure_changes_nothing) {
  /* B fails after A already produced its next value */
  ts_ev_xchg xa = {10.0, 0, 0, 0}, xb = {100.0, 0, TEAL_ECALLBACK, 0};
  teal_system *d = ts_ev_xchg_diagram(&xa, &xb, 1.0, 2.0);
  teal_context *ctx = teal_context_new(d, NULL);
  teal_event_set *set = teal_event_set_new(d);
  teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, set);
  int rc = teal_dispatch_discrete_updates(d, ctx, set);
  ck_assert_int_eq(rc, TEAL_ECALLBACK);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "A"), 1.0);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "B"), 2.0);
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_ECALLBACK);
  TS_EV_ASSERT_HAS(e->message, "discrete update");
  TS_EV_ASSERT_HAS(e->message, "pair/B");
  /* outputs still report the old state */
  const teal_context *actx = teal_context_subcontext_by_name(ctx, "A");
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(teal_context_system(actx), actx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 1.0);

  /* a positive return is reported as TEAL_ECALLBACK */
  xb.ret = 3;
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_ECALLBACK);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "A"), 1.0);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "B"), 2.0);

  /* a handler's own code and message are kept */
  xb.ret = TEAL_ENOCONV;
  xb.report = 1;
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_ENOCONV);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_ENOCONV);
  ck_assert_str_eq(teal_context_error(ctx)->message, "controller 'B' diverged");
  ck_assert_double_eq(ts_ev_xd_of(ctx, "A"), 1.0);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "B"), 2.0);

  /* the first handler failing also changes nothing */
  xb.ret = 0;
  xb.report = 0;
  xa.ret = TEAL_ESINGULAR;
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_ESINGULAR);
  TS_EV_ASSERT_HAS(teal_context_error(ctx)->message, "pair/A");
  ck_assert_double_eq(ts_ev_xd_of(ctx, "A"), 1.0);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "B"), 2.0);

  /* after the failures, a successful dispatch works from the old state */
  xa.ret = 0;
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "A"), 12.0);
  ck_assert_double_eq(ts_ev_xd_of(ctx, "B"), 101.0);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_outputs_recomputed_after_discrete_update) {
  ts_ev_xchg xa = {10.0, 0, 0, 0}, xb = {100.0, 0, 0, 0};
  teal_system *d = ts_ev_xchg_diagram(&xa, &xb, 1.0, 2.0);
  teal_context *ctx = teal_context_new(d, NULL);
  const teal_context *actx = teal_context_subcontext_by_name(ctx, "A");
  const teal_system *a = teal_context_system(actx);
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(a, actx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 1.0);
  ck_assert_int_eq(teal_eval_vector_output(a, actx, 0, &y), TEAL_OK);
  int calls = xa.calc_calls;
  ck_assert_int_eq(calls, 1); /* cached */
  teal_event_set *set = teal_event_set_new(d);
  teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, set);
  ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(a, actx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 12.0);
  ck_assert_int_eq(xa.calc_calls, calls + 1);
  /* B's input (fed by A.y) sees the new value as well */
  const teal_context *bctx = teal_context_subcontext_by_name(ctx, "B");
  const double *u = NULL;
  ck_assert_int_eq(teal_eval_vector_input(teal_context_system(bctx), bctx, 0, &u), TEAL_OK);
  ck_assert_double_eq(u[0], 12.0);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* ---- unrestricted updates -------------------------------------------- */

typedef struct counter {
  int n;
  double acc;
} counter;

static const teal_value_type k_counter = {"counter", sizeof(counter), NULL, NULL, NULL};

/* A leaf with q, v, z (1 each), a discrete group of 2, an abstract counter,
 * input u, output y = q + 10 v + 100 z (depends on continuous state). */
typedef struct full {
  int ret;
  int out_calls;
  double seen_u;
} full;

static int full_deriv(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                      void *user) {
  (void)sys;
  (void)user;
  xd->q[0] = teal_context_v(ctx)[0];
  xd->v[0] = 0.0;
  xd->z[0] = 0.0;
  return TEAL_OK;
}

static int full_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  full *f = user;
  f->out_calls++;
  out[0] = teal_context_q(ctx)[0] + 10.0 * teal_context_v(ctx)[0] +
           100.0 * teal_context_z(ctx)[0];
  return TEAL_OK;
}

static int full_update(const teal_system *sys, const teal_context *ctx, teal_state_view *next,
                       void *user) {
  full *f = user;
  const double *u = NULL;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  f->seen_u = u[0];
  next->q[0] = u[0];
  next->v[0] *= 2.0;
  next->z[0] = -next->z[0];
  next->xd[0] += 5.0;
  next->xd[1] = u[0];
  counter *c = next->xa[0];
  c->n++;
  c->acc += u[0];
  return f->ret;
}

static teal_system *full_new(const char *name, const double x0[3], full *f) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(s, 1, 1, 1, x0), TEAL_OK);
  teal_leaf_set_time_derivatives(s, full_deriv, NULL);
  double xd0[2] = {1.0, 0.0};
  ck_assert_int_eq(teal_leaf_declare_discrete_state(s, 2, xd0), 0);
  counter c0 = {0, 0.0};
  ck_assert_int_eq(teal_leaf_declare_abstract_state(s, &k_counter, &c0), 0);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "u", 1), 0);
  teal_ticket xc = TEAL_TICKET_XC;
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", 1, full_out, f, &xc, 1), 0);
  ck_assert_int_eq(teal_leaf_declare_per_step_unrestricted_update(s, full_update, f), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* F.y -> G.u, G.y -> F.u */
static teal_system *full_pair(full *ff, full *fg, const double xf[3], const double xg[3]) {
  teal_builder *b = teal_builder_new("duo");
  teal_builder_add(b, full_new("F", xf, ff));
  teal_builder_add(b, full_new("G", xg, fg));
  ck_assert_int_eq(teal_builder_connect_by_name(b, "F", "y", "G", "u"), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "G", "y", "F", "u"), TEAL_OK);
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  return d;
}

START_TEST(test_unrestricted_updates_change_all_state) {
  full ff = {0, 0, 0.0}, fg = {0, 0, 0.0};
  const double xf[3] = {1.0, 2.0, 3.0}, xg[3] = {4.0, 5.0, 6.0};
  teal_system *d = full_pair(&ff, &fg, xf, xg);
  teal_context *ctx = teal_context_new(d, NULL);
  teal_event_set *set = teal_event_set_new(d);
  ck_assert_int_eq(teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, set), TEAL_OK);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_UNRESTRICTED_UPDATE), 2);

  /* cache F.y before the update */
  const teal_context *fctx = teal_context_subcontext_by_name(ctx, "F");
  const teal_context *gctx = teal_context_subcontext_by_name(ctx, "G");
  const teal_system *f = teal_context_system(fctx);
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(f, fctx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 321.0);

  ck_assert_int_eq(teal_dispatch_unrestricted_updates(d, ctx, set), TEAL_OK);
  /* two-phase: F saw G.y = 4 + 50 + 600 = 654, G saw F.y = 321 (pre-update) */
  ck_assert_double_eq(ff.seen_u, 654.0);
  ck_assert_double_eq(fg.seen_u, 321.0);
  ck_assert_double_eq(teal_context_q(fctx)[0], 654.0);
  ck_assert_double_eq(teal_context_v(fctx)[0], 4.0);
  ck_assert_double_eq(teal_context_z(fctx)[0], -3.0);
  ck_assert_double_eq(teal_context_q(gctx)[0], 321.0);
  ck_assert_double_eq(teal_context_v(gctx)[0], 10.0);
  ck_assert_double_eq(teal_context_z(gctx)[0], -6.0);
  ck_assert_double_eq(teal_context_discrete_group(fctx, 0)[0], 6.0);
  ck_assert_double_eq(teal_context_discrete_group(fctx, 0)[1], 654.0);
  ck_assert_double_eq(teal_context_discrete_group(gctx, 0)[1], 321.0);
  const counter *cf = teal_context_abstract_state(fctx, 0);
  const counter *cg = teal_context_abstract_state(gctx, 0);
  ck_assert_int_eq(cf->n, 1);
  ck_assert_double_eq(cf->acc, 654.0);
  ck_assert_int_eq(cg->n, 1);
  ck_assert_double_eq(cg->acc, 321.0);
  /* root layout [q all; v all; z all] */
  double x[6];
  ck_assert_int_eq(teal_context_get_continuous_state(ctx, x, 6), TEAL_OK);
  ck_assert_double_eq(x[0], 654.0);
  ck_assert_double_eq(x[1], 321.0);
  ck_assert_double_eq(x[2], 4.0);
  ck_assert_double_eq(x[3], 10.0);
  ck_assert_double_eq(x[4], -3.0);
  ck_assert_double_eq(x[5], -6.0);

  /* the cached output was invalidated and recomputed */
  int calls = ff.out_calls;
  ck_assert_int_eq(teal_eval_vector_output(f, fctx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 654.0 + 40.0 - 300.0);
  ck_assert_int_eq(ff.out_calls, calls + 1);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_unrestricted_failure_changes_nothing) {
  full ff = {0, 0, 0.0}, fg = {TEAL_ECALLBACK, 0, 0.0};
  const double xf[3] = {1.0, 2.0, 3.0}, xg[3] = {4.0, 5.0, 6.0};
  teal_system *d = full_pair(&ff, &fg, xf, xg);
  teal_context *ctx = teal_context_new(d, NULL);
  teal_event_set *set = teal_event_set_new(d);
  teal_collect_events(d, ctx, TEAL_TRIGGER_PER_STEP, set);
  int rc = teal_dispatch_unrestricted_updates(d, ctx, set);
  ck_assert_int_eq(rc, TEAL_ECALLBACK);
  ck_assert_double_eq(ff.seen_u, 654.0); /* F ran (and succeeded) first */
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_ECALLBACK);
  TS_EV_ASSERT_HAS(e->message, "unrestricted update");
  TS_EV_ASSERT_HAS(e->message, "duo/G");
  const char *names[2] = {"F", "G"};
  const double *x0[2] = {xf, xg};
  for (int i = 0; i < 2; i++) {
    const teal_context *c = teal_context_subcontext_by_name(ctx, names[i]);
    ck_assert_double_eq(teal_context_q(c)[0], x0[i][0]);
    ck_assert_double_eq(teal_context_v(c)[0], x0[i][1]);
    ck_assert_double_eq(teal_context_z(c)[0], x0[i][2]);
    ck_assert_double_eq(teal_context_discrete_group(c, 0)[0], 1.0);
    ck_assert_double_eq(teal_context_discrete_group(c, 0)[1], 0.0);
    const counter *cnt = teal_context_abstract_state(c, 0);
    ck_assert_int_eq(cnt->n, 0);
    ck_assert_double_eq(cnt->acc, 0.0);
  }
  /* a positive return also becomes TEAL_ECALLBACK, still changing nothing */
  fg.ret = 2;
  ck_assert_int_eq(teal_dispatch_unrestricted_updates(d, ctx, set), TEAL_ECALLBACK);
  const teal_context *fc = teal_context_subcontext_by_name(ctx, "F");
  ck_assert_double_eq(teal_context_q(fc)[0], 1.0);
  ck_assert_int_eq(((const counter *)teal_context_abstract_state(fc, 0))->n, 0);
  /* then success applies exactly one update */
  fg.ret = 0;
  ck_assert_int_eq(teal_dispatch_unrestricted_updates(d, ctx, set), TEAL_OK);
  ck_assert_double_eq(teal_context_q(fc)[0], 654.0);
  ck_assert_int_eq(((const counter *)teal_context_abstract_state(fc, 0))->n, 1);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

static Suite *events_update_suite(void) {
  Suite *s = suite_create("events_update");
  TCase *tc = tcase_create("dispatch");
  tcase_add_test(tc, test_discrete_two_phase_through_inputs);
  tcase_add_test(tc, test_discrete_two_phase_through_output_ports);
  tcase_add_test(tc, test_discrete_same_leaf_events_accumulate);
  tcase_add_test(tc, test_discrete_failure_changes_nothing);
  tcase_add_test(tc, test_outputs_recomputed_after_discrete_update);
  tcase_add_test(tc, test_unrestricted_updates_change_all_state);
  tcase_add_test(tc, test_unrestricted_failure_changes_nothing);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(events_update_suite());
}
