/* The fixtures declared in support/event_fixtures.h. */
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

void ts_ev_log_append(ts_ev_event_log *log, const char *tag) {
  size_t used = strlen(log->text);
  snprintf(log->text + used, sizeof log->text - used, "%s;", tag);
  log->calls++;
}

int ts_ev_log_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)ctx;
  ts_ev_log_spec *s = user;
  ts_ev_log_append(s->log, s->tag);
  return s->ret;
}

/* A leaf with one per-step publish that logs its tag. */
teal_system *ts_ev_publisher_new(const char *name, ts_ev_log_spec *spec) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(teal_leaf_declare_per_step_publish(s, ts_ev_log_publish, spec), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

teal_system *ts_ev_build2(const char *name, teal_system *a, teal_system *b) {
  teal_builder *bld = teal_builder_new(name);
  ck_assert_ptr_nonnull(teal_builder_add(bld, a));
  if (b) {
    ck_assert_ptr_nonnull(teal_builder_add(bld, b));
  }
  teal_error err;
  teal_system *d = teal_builder_build(bld, &err);
  ck_assert_msg(d != NULL, "build %s: %s", name, err.message);
  return d;
}

static int xchg_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  ts_ev_xchg *x = user;
  x->calc_calls++;
  out[0] = teal_context_discrete_state(ctx)[0];
  return TEAL_OK;
}

static int xchg_update(const teal_system *sys, const teal_context *ctx, double *xd_next,
                       void *user) {
  ts_ev_xchg *x = user;
  const double *u = NULL;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  xd_next[0] = u[0] + x->add;
  if (x->report) {
    return teal_context_report_error(ctx, x->ret, "controller '%s' diverged",
                                     teal_system_name(sys));
  }
  return x->ret;
}

static teal_system *xchg_new(const char *name, double x0, ts_ev_xchg *x) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(s, 1, &x0), 0);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "u", 1), 0);
  teal_ticket xd = TEAL_TICKET_XD;
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", 1, xchg_out, x, &xd, 1), 0);
  ck_assert_int_eq(teal_leaf_declare_per_step_discrete_update(s, xchg_update, x), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* A.y -> B.u and B.y -> A.u */
teal_system *ts_ev_xchg_diagram(ts_ev_xchg *xa, ts_ev_xchg *xb, double a0, double b0) {
  teal_system *a = xchg_new("A", a0, xa);
  teal_system *b = xchg_new("B", b0, xb);
  teal_builder *bld = teal_builder_new("pair");
  teal_builder_add(bld, a);
  teal_builder_add(bld, b);
  ck_assert_int_eq(teal_builder_connect_by_name(bld, "A", "y", "B", "u"), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_by_name(bld, "B", "y", "A", "u"), TEAL_OK);
  teal_error err;
  teal_system *d = teal_builder_build(bld, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  return d;
}

double ts_ev_xd_of(const teal_context *root, const char *path) {
  const teal_context *c = teal_context_subcontext_by_name(root, path);
  ck_assert_ptr_nonnull(c);
  return teal_context_discrete_state(c)[0];
}
