/* Steady-state evaluation allocates nothing: after a context is made and
 * warmed up, evaluating outputs, derivatives, changing state, finding the
 * next update time and dispatching events with a preallocated event set
 * must not call the allocator once. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/events.h"
#include "framework/system.h"
#include "framework/ticket.h"
#include "support/test_support.h"

enum { NPAIRS = 10 };
static const double k_gain = -0.5;

/* ---- the clock leaf: discrete state, abstract state and output ------- */

typedef struct clock_data {
  int discrete_updates, publishes, unrestricted_updates, per_step_publishes;
} clock_data;

static clock_data g_clock;

/* xd[0] counts ticks, xd[1] samples the input. */
static int clock_tick(const teal_system *sys, const teal_context *ctx, double *xd_next,
                      void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  g_clock.discrete_updates++;
  xd_next[0] += 1.0;
  xd_next[1] = u[0];
  return TEAL_OK;
}

static int clock_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)user;
  const void *b;
  int rc = teal_eval_abstract_output(sys, ctx, 1, &b);
  if (rc) {
    return rc;
  }
  if (((const ts_buf *)b)->n != 2) {
    return TEAL_ESIZE;
  }
  g_clock.publishes++;
  return TEAL_OK;
}

static int clock_per_step(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  g_clock.per_step_publishes++;
  return TEAL_OK;
}

/* Rotates the abstract buffer's values (no resize: no allocation). */
static int clock_rotate(const teal_system *sys, const teal_context *ctx, teal_state_view *next,
                        void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  ts_buf *b = next->xa[0];
  if (b->n > 1) {
    double first = b->data[0];
    memmove(b->data, b->data + 1, (size_t)(b->n - 1) * sizeof(double));
    b->data[b->n - 1] = first;
  }
  next->xd[0] += 100.0;
  g_clock.unrestricted_updates++;
  return TEAL_OK;
}

static int clock_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_discrete_state(ctx)[0];
  return TEAL_OK;
}

/* Writes xd into the buffer: the value already has room for 2 doubles. */
static int clock_buf(const teal_system *sys, const teal_context *ctx, void *out, void *user) {
  (void)sys;
  (void)user;
  return ts_buf_assign(out, teal_context_discrete_state(ctx), 2);
}

static teal_system *clock_new(void) {
  teal_system *sys = teal_leaf_new("clock", NULL, NULL);
  const double xd0[2] = {0.0, 0.0};
  const double m[3] = {1, 2, 3};
  ts_buf model;
  memset(&model, 0, sizeof model);
  ck_assert_int_eq(ts_buf_assign(&model, m, 3), TEAL_OK);
  const teal_ticket xd = TEAL_TICKET_XD;
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "u", 1), 0);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 2, xd0), 0);
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &ts_buf_type, &model), 0);
  ts_buf_release(&model);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "ticks", 1, clock_out, NULL, &xd, 1), 0);
  ck_assert_int_eq(teal_leaf_declare_abstract_output(sys, "buf", &ts_buf_type, clock_buf, NULL,
                                                     &xd, 1), 1);
  ck_assert_int_ge(teal_leaf_declare_periodic_discrete_update(sys, 0.1, 0.0, clock_tick, NULL),
                   0);
  ck_assert_int_ge(teal_leaf_declare_periodic_publish(sys, 0.05, 0.0, clock_publish, NULL), 0);
  ck_assert_int_ge(
      teal_leaf_declare_periodic_unrestricted_update(sys, 0.2, 0.0, clock_rotate, NULL), 0);
  ck_assert_int_ge(teal_leaf_declare_per_step_publish(sys, clock_per_step, NULL), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  return sys;
}

/* ---- the diagram ------------------------------------------------------ */

typedef struct fixture {
  teal_system *diagram;
  teal_system *integ[NPAIRS], *gain[NPAIRS], *clock;
  teal_context *ctx, *ctx2;
  teal_event_set *set, *set2;
  double *xcdot, *x;
  int nx;
} fixture;

static void fixture_make(fixture *f) {
  memset(f, 0, sizeof *f);
  memset(&g_clock, 0, sizeof g_clock);
  teal_builder *b = teal_builder_new("ring");
  char name[32];
  for (int i = 0; i < NPAIRS; i++) {
    double x0 = i + 1.0;
    snprintf(name, sizeof name, "integ%d", i);
    f->integ[i] = teal_builder_add(b, ts_integrator_new(name, 1, &x0));
    snprintf(name, sizeof name, "gain%d", i);
    f->gain[i] = teal_builder_add(b, ts_gain_new(name, 1, k_gain));
  }
  f->clock = teal_builder_add(b, clock_new());
  for (int i = 0; i < NPAIRS; i++) {
    ck_assert_int_eq(teal_builder_connect(b, teal_system_output_port(f->integ[i], 0),
                                          teal_system_input_port(f->gain[i], 0)), TEAL_OK);
    ck_assert_int_eq(
        teal_builder_connect(b, teal_system_output_port(f->gain[i], 0),
                             teal_system_input_port(f->integ[(i + 1) % NPAIRS], 0)), TEAL_OK);
  }
  ck_assert_int_eq(teal_builder_connect(b, teal_system_output_port(f->gain[NPAIRS - 1], 0),
                                        teal_system_input_port(f->clock, 0)), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, teal_system_output_port(f->integ[0], 0), "y0"),
                   0);
  ck_assert_int_eq(teal_builder_export_output(b, teal_system_output_port(f->clock, 1), "buf"), 1);
  teal_error err;
  teal_error_clear(&err);
  f->diagram = teal_builder_build(b, &err);
  ck_assert_msg(f->diagram != NULL, "build: %s", err.message);
  f->ctx = teal_context_new(f->diagram, &err);
  ck_assert_msg(f->ctx != NULL, "context: %s", err.message);
  f->ctx2 = teal_context_new(f->diagram, &err);
  ck_assert_ptr_nonnull(f->ctx2);
  f->set = teal_event_set_new(f->diagram);
  f->set2 = teal_event_set_new(f->diagram);
  ck_assert_ptr_nonnull(f->set);
  ck_assert_ptr_nonnull(f->set2);
  f->nx = teal_system_num_continuous_states(f->diagram, NULL, NULL, NULL);
  ck_assert_int_eq(f->nx, NPAIRS);
  f->xcdot = calloc((size_t)f->nx, sizeof(double));
  f->x = calloc((size_t)f->nx, sizeof(double));
  ck_assert_ptr_nonnull(f->xcdot);
  ck_assert_ptr_nonnull(f->x);
}

static void fixture_free(fixture *f) {
  free(f->xcdot);
  free(f->x);
  teal_event_set_free(f->set);
  teal_event_set_free(f->set2);
  teal_context_free(f->ctx);
  teal_context_free(f->ctx2);
  teal_system_free(f->diagram);
}

/* Evaluates every output of every subsystem and of the diagram. */
static void eval_everything(fixture *f) {
  const double *y;
  const void *a;
  for (int i = 0; i < NPAIRS; i++) {
    const teal_context *ic = teal_context_subcontext(f->ctx, f->integ[i]);
    const teal_context *gc = teal_context_subcontext(f->ctx, f->gain[i]);
    ck_assert_int_eq(teal_eval_vector_output(f->integ[i], ic, 0, &y), TEAL_OK);
    ck_assert(y[0] == teal_context_z(ic)[0]);
    ck_assert_int_eq(teal_eval_vector_output(f->gain[i], gc, 0, &y), TEAL_OK);
    ck_assert(y[0] == k_gain * teal_context_z(ic)[0]);
  }
  const teal_context *cc = teal_context_subcontext(f->ctx, f->clock);
  ck_assert_int_eq(teal_eval_vector_output(f->clock, cc, 0, &y), TEAL_OK);
  ck_assert_int_eq(teal_eval_abstract_output(f->clock, cc, 1, &a), TEAL_OK);
  ck_assert_int_eq(((const ts_buf *)a)->n, 2);
  ck_assert(((const ts_buf *)a)->data[0] == teal_context_discrete_state(cc)[0]);
  ck_assert_int_eq(teal_eval_vector_output(f->diagram, f->ctx, 0, &y), TEAL_OK);
  ck_assert_int_eq(teal_eval_abstract_output(f->diagram, f->ctx, 1, &a), TEAL_OK);
  double out;
  ck_assert_int_eq(teal_calc_vector_output(f->gain[3], teal_context_subcontext(f->ctx, f->gain[3]),
                                           0, &out), TEAL_OK);
}

static void derivatives(fixture *f) {
  ck_assert_int_eq(teal_calc_time_derivatives(f->diagram, f->ctx, f->xcdot), TEAL_OK);
  const double *z = teal_context_continuous_state(f->ctx);
  for (int i = 0; i < NPAIRS; i++) {
    /* zdot_i = k * z_{i-1} */
    ck_assert(f->xcdot[i] == k_gain * z[(i + NPAIRS - 1) % NPAIRS]);
  }
}

/* One "step": state changes, evaluation, events. */
static void step(fixture *f, int k) {
  /* continuous state, several ways */
  double *x = teal_context_continuous_state_mut(f->ctx);
  x[k % NPAIRS] += 0.01;
  teal_context_z_mut(teal_context_subcontext_mut(f->ctx, f->integ[(k + 3) % NPAIRS]))[0] *= 0.99;
  ck_assert_int_eq(teal_context_get_continuous_state(f->ctx, f->x, f->nx), TEAL_OK);
  f->x[0] += 1e-3;
  ck_assert_int_eq(teal_context_set_continuous_state(f->ctx, f->x, f->nx), TEAL_OK);
  /* parameters */
  double kk = k_gain;
  ck_assert_int_eq(teal_context_set_numeric_parameter(
                       teal_context_subcontext_mut(f->ctx, f->gain[k % NPAIRS]), 0, &kk, 1),
                   TEAL_OK);
  eval_everything(f);
  derivatives(f);

  /* periodic events */
  double t_next = 0.0;
  ck_assert_int_eq(teal_calc_next_update_time(f->diagram, f->ctx, &t_next, f->set), TEAL_OK);
  ck_assert(isfinite(t_next));
  ck_assert(t_next > teal_context_time(f->ctx));
  ck_assert_int_gt(teal_event_set_size(f->set), 0);
  ck_assert_int_eq(teal_context_set_time(f->ctx, t_next), TEAL_OK);
  ck_assert_int_eq(teal_dispatch_unrestricted_updates(f->diagram, f->ctx, f->set), TEAL_OK);
  ck_assert_int_eq(teal_dispatch_discrete_updates(f->diagram, f->ctx, f->set), TEAL_OK);
  ck_assert_int_eq(teal_dispatch_publish(f->diagram, f->ctx, f->set), TEAL_OK);

  /* per-step events, merged into a second preallocated set */
  ck_assert_int_eq(teal_collect_events(f->diagram, f->ctx, TEAL_TRIGGER_PER_STEP, f->set2),
                   TEAL_OK);
  ck_assert_int_eq(teal_event_set_merge(f->set2, f->set), TEAL_OK);
  ck_assert_int_eq(teal_dispatch_publish(f->diagram, f->ctx, f->set2), TEAL_OK);
  teal_event_set_clear(f->set2);

  /* discrete state written directly, then re-evaluated */
  double g[2] = {teal_context_discrete_state(f->ctx)[0], (double)k};
  ck_assert_int_eq(teal_context_set_discrete_group(
                       teal_context_subcontext_mut(f->ctx, f->clock), 0, g, 2), TEAL_OK);
  eval_everything(f);
  derivatives(f);

  /* copy into a second context of the same diagram */
  ck_assert_int_eq(teal_context_copy_from(f->ctx2, f->ctx), TEAL_OK);
  const double *y2;
  ck_assert_int_eq(teal_eval_vector_output(f->diagram, f->ctx2, 0, &y2), TEAL_OK);
  ck_assert(y2[0] == teal_context_continuous_state(f->ctx)[0]);
}

START_TEST(test_steady_state_allocates_nothing) {
  fixture f;
  fixture_make(&f);
  step(&f, 0); /* warm up */
  int updates_before = g_clock.discrete_updates;
  unsigned long count_before = teal_alloc_count();
  ts_alloc_install();
  for (int k = 1; k <= 60; k++) {
    step(&f, k);
  }
  const ts_alloc_stats *st = ts_alloc_stats_get();
  unsigned long calls = st->calls;
  ts_alloc_uninstall();
  ck_assert_msg(calls == 0, "%lu allocations in steady state", calls);
  ck_assert_uint_eq(teal_alloc_count(), count_before);
  /* the events really ran */
  ck_assert_int_gt(g_clock.discrete_updates, updates_before + 10);
  ck_assert_int_gt(g_clock.publishes, 10);
  ck_assert_int_gt(g_clock.unrestricted_updates, 5);
  ck_assert_int_eq(g_clock.per_step_publishes, 61);
  fixture_free(&f);
}
END_TEST

/* Each operation checked on its own, so a failure names the culprit. */
START_TEST(test_each_operation_allocates_nothing) {
  fixture f;
  fixture_make(&f);
  step(&f, 0);
  const char *what = NULL;
  ts_buf value; /* made before counting starts */
  memset(&value, 0, sizeof value);
  const double v[3] = {4, 5, 6};
  ck_assert_int_eq(ts_buf_assign(&value, v, 3), TEAL_OK);
  for (int op = 0; op < 9; op++) {
    ts_alloc_install();
    double t_next;
    const double *y;
    const void *a;
    switch (op) {
      case 0:
        what = "eval_vector_output";
        teal_context_q_mut(f.ctx);
        teal_context_z_mut(f.ctx)[1] += 1.0;
        ck_assert_int_eq(teal_eval_vector_output(f.diagram, f.ctx, 0, &y), TEAL_OK);
        break;
      case 1:
        what = "eval_abstract_output";
        teal_context_discrete_state_mut(f.ctx)[0] += 1.0;
        ck_assert_int_eq(teal_eval_abstract_output(f.diagram, f.ctx, 1, &a), TEAL_OK);
        break;
      case 2:
        what = "calc_time_derivatives";
        teal_context_continuous_state_mut(f.ctx)[4] += 1.0;
        ck_assert_int_eq(teal_calc_time_derivatives(f.diagram, f.ctx, f.xcdot), TEAL_OK);
        break;
      case 3:
        what = "calc_next_update_time";
        ck_assert_int_eq(teal_calc_next_update_time(f.diagram, f.ctx, &t_next, f.set), TEAL_OK);
        ck_assert_int_eq(teal_context_set_time(f.ctx, t_next), TEAL_OK);
        break;
      case 4:
        what = "dispatch_discrete_updates";
        ck_assert_int_eq(teal_dispatch_discrete_updates(f.diagram, f.ctx, f.set), TEAL_OK);
        break;
      case 5:
        what = "dispatch_unrestricted_updates";
        ck_assert_int_eq(teal_dispatch_unrestricted_updates(f.diagram, f.ctx, f.set), TEAL_OK);
        break;
      case 6:
        what = "dispatch_publish";
        ck_assert_int_eq(teal_dispatch_publish(f.diagram, f.ctx, f.set), TEAL_OK);
        break;
      case 7:
        what = "set_abstract_state";
        ck_assert_int_eq(teal_context_set_abstract_state(
                             teal_context_subcontext_mut(f.ctx, f.clock), 0, &value), TEAL_OK);
        break;
      case 8:
        what = "copy_from";
        ck_assert_int_eq(teal_context_copy_from(f.ctx2, f.ctx), TEAL_OK);
        break;
      default: break;
    }
    unsigned long calls = ts_alloc_stats_get()->calls;
    ts_alloc_uninstall();
    ck_assert_msg(calls == 0, "%s allocated %lu times", what, calls);
  }
  const ts_buf *now = teal_context_abstract_state(teal_context_subcontext(f.ctx, f.clock), 0);
  ck_assert_int_eq(now->n, 3);
  ck_assert(now->data[0] == 4.0 && now->data[2] == 6.0);
  ts_buf_release(&value);
  fixture_free(&f);
}
END_TEST

static Suite *no_alloc_suite(void) {
  Suite *s = suite_create("no_alloc");
  TCase *tc = tcase_create("steady_state");
  tcase_add_test(tc, test_steady_state_allocates_nothing);
  tcase_add_test(tc, test_each_operation_allocates_nothing);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(no_alloc_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
