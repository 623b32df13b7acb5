/* The simulator's event handling on small diagrams of leaves: Drake's event
 * order within a step and at initialization, two-phase updates, purely
 * discrete runs, and witness functions (time witnesses, several witnesses and
 * crossing directions). */
#define _POSIX_C_SOURCE 199309L
#define _XOPEN_SOURCE 700 /* M_PI */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"
#include "framework/ticket.h"
#include "support/sim_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator.h"
#include "systems/primitives/linear_system.h"

START_TEST(test_initialization_order) {
  ts_sim_log_reset();
  teal_system *d = ts_sim_event_diagram_new();
  teal_simulator *sim = ts_sim_event_sim_new(d);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_initialize(sim, &st), TEAL_OK);
  ck_assert_int_eq(st.outcome, TEAL_SIM_REACHED_END);
  ck_assert_double_eq(st.time, 0.0);
  /* init unrestricted, init discrete, init publish, then the per-step and
   * the timed publishes due at t0; each kind in subsystem order */
  ck_assert_str_eq(ts_sim_text, "A.iu@0 B.iu@0 A.id@0 B.id@0 A.ip@0 B.ip@0 "
                                "A.sp@0 B.sp@0 A.pp@0 B.pp@0");
  /* init discrete saw init unrestricted's result, init publish both */
  ck_assert_double_eq(ts_sim_log[2].value, 10.0);
  ck_assert_double_eq(ts_sim_log[4].value, 10.0);
  /* the timed updates due at t0 wait for the first step */
  const teal_context *a = teal_context_subcontext_by_name(teal_simulator_context(sim), "A");
  ck_assert_double_eq(teal_context_discrete_group(a, 0)[0], 10.0);
  teal_sim_stats s = teal_simulator_get_stats(sim);
  ck_assert_int_eq(s.steps, 0);
  ck_assert_int_eq(s.publishes, 6);
  ck_assert_int_eq(s.unrestricted_updates, 2);
  ck_assert_int_eq(s.discrete_updates, 2);
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

START_TEST(test_step_event_order) {
  ts_sim_log_reset();
  teal_system *d = ts_sim_event_diagram_new();
  teal_simulator *sim = ts_sim_event_sim_new(d);
  ts_sim_advance_ok(sim, 0.5);
  ck_assert_str_eq(ts_sim_text,
                   /* initialization */
                   "A.iu@0 B.iu@0 A.id@0 B.id@0 A.ip@0 B.ip@0 A.sp@0 B.sp@0 A.pp@0 B.pp@0 "
                   /* step 0 -> 0.125: updates due at 0, integrate, publish */
                   "A.pu@0 B.pu@0 A.pd@0 B.pd@0 B.sd@0 A.sp@0.125 B.sp@0.125 "
                   /* step 0.125 -> 0.25 */
                   "B.sd@0.125 A.sp@0.25 B.sp@0.25 A.pp@0.25 B.pp@0.25 "
                   /* step 0.25 -> 0.375 */
                   "A.pu@0.25 B.pu@0.25 A.pd@0.25 B.pd@0.25 B.sd@0.25 A.sp@0.375 B.sp@0.375 "
                   /* step 0.375 -> 0.5; the updates due at 0.5 wait */
                   "B.sd@0.375 A.sp@0.5 B.sp@0.5 A.pp@0.5 B.pp@0.5");
  /* publishes see the integrated state (z = t); discrete updates see the
   * unrestricted updates of the same time already applied */
  for (int i = 0; i < ts_sim_nlog; i++) {
    const char *what = ts_sim_log[i].tag + 2;
    if (!strcmp(what, "sp") || !strcmp(what, "pp")) {
      ck_assert_double_eq_tol(ts_sim_log[i].value, ts_sim_log[i].t, 1e-12);
    }
  }
  teal_context *ctx = teal_simulator_context(sim);
  const teal_context *a = teal_context_subcontext_by_name(ctx, "A");
  ck_assert_double_eq(teal_context_discrete_group(a, 0)[0], 12.0); /* 10 + updates at 0, 0.25 */
  ck_assert_double_eq(teal_context_discrete_group(a, 0)[1], 12.0);
  teal_sim_stats s = teal_simulator_get_stats(sim);
  ck_assert_int_eq(s.steps, 4);
  ck_assert_int_eq(s.unrestricted_updates, 2 + 2 + 2);
  ck_assert_int_eq(s.discrete_updates, 2 + 3 + 1 + 3 + 1);
  ck_assert_int_eq(s.publishes, 6 + 2 + 4 + 2 + 4);
  ck_assert_double_eq(s.smallest_step, 0.125);
  ck_assert_double_eq(s.largest_step, 0.125);

  /* the next advance_to first applies the updates due at 0.5 */
  ts_sim_log_reset();
  ts_sim_advance_ok(sim, 0.625);
  ck_assert_str_eq(ts_sim_text,
                   "A.pu@0.5 B.pu@0.5 A.pd@0.5 B.pd@0.5 B.sd@0.5 A.sp@0.625 B.sp@0.625");
  ck_assert_double_eq(teal_context_discrete_group(a, 0)[0], 13.0);
  ck_assert_double_eq(teal_context_discrete_group(a, 0)[1], 13.0);
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

/* Advancing to the current time succeeds and leaves the time alone. */
/* Per-step unrestricted updates (Drake's PerStepUnrestrictedUpdateEvent)
 * run at the start of every step, before the per-step discrete updates,
 * which see their result; xd[1] counts them. */
static int ev_step_unres(const teal_system *sys, const teal_context *ctx, teal_state_view *next,
                         void *user) {
  (void)sys;
  ts_sim_log_add(user, "su", teal_context_time(ctx), teal_context_discrete_group(ctx, 0)[1]);
  next->xd[1] += 1.0;
  return TEAL_OK;
}

START_TEST(test_per_step_unrestricted_update) {
  ts_sim_log_reset();
  teal_system *s = teal_leaf_new("C", NULL, NULL);
  void *u = (void *)"C";
  teal_leaf_declare_continuous_state(s, 0, 0, 1, NULL);
  teal_leaf_set_time_derivatives(s, ts_sim_ev_derivs, NULL);
  teal_leaf_declare_discrete_state(s, 2, NULL);
  teal_leaf_declare_per_step_unrestricted_update(s, ev_step_unres, u);
  teal_leaf_declare_per_step_discrete_update(s, ts_sim_ev_step_disc, u);
  teal_leaf_declare_per_step_publish(s, ts_sim_ev_step_pub, u);
  ts_sim_finalize(s);
  teal_simulator *sim = ts_sim_new(s);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 0.25), TEAL_OK);
  ts_sim_advance_ok(sim, 0.5);
  ck_assert_str_eq(ts_sim_text, "C.sp@0 C.su@0 C.sd@0 C.sp@0.25 C.su@0.25 C.sd@0.25 C.sp@0.5");
  /* the unrestricted update saw 0 then 1; the discrete one its results */
  ck_assert_double_eq(ts_sim_log[1].value, 0.0);
  ck_assert_double_eq(ts_sim_log[2].value, 1.0);
  ck_assert_double_eq(ts_sim_log[4].value, 1.0);
  ck_assert_double_eq(ts_sim_log[5].value, 2.0);
  const teal_context *ctx = teal_simulator_context(sim);
  ck_assert_double_eq(teal_context_discrete_group(ctx, 0)[1], 2.0);
  teal_sim_stats st = teal_simulator_get_stats(sim);
  ck_assert_int_eq(st.unrestricted_updates, 2);
  ck_assert_int_eq(st.discrete_updates, 2);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

static int count_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)ctx;
  ++*(long *)user;
  return TEAL_OK;
}

/* A period below the clock's resolution at the current time could never
 * let time pass its event: the run fails with TEAL_ESTEPSIZE at once
 * instead of looping at a standstill. */
START_TEST(test_period_below_time_resolution_fails) {
  long publishes = 0;
  teal_system *s = teal_leaf_new("fast", NULL, NULL);
  teal_leaf_declare_continuous_state(s, 0, 0, 1, NULL);
  teal_leaf_set_time_derivatives(s, ts_sim_ev_derivs, NULL);
  teal_leaf_declare_periodic_publish(s, 1e-17, 0.0, count_publish, &publishes);
  ts_sim_finalize(s);
  teal_simulator *sim = ts_sim_new(s);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_context_set_time(ctx, 1.0), TEAL_OK);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 2.0, &st), TEAL_ESTEPSIZE);
  ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
  ck_assert_msg(ts_sim_contains(st.message, "below the time resolution"), "%s", st.message);
  ck_assert_double_eq(teal_context_time(ctx), 1.0);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

START_TEST(test_advance_to_now) {
  ts_sim_log_reset();
  teal_system *d = ts_sim_event_diagram_new();
  teal_simulator *sim = ts_sim_event_sim_new(d);
  ts_sim_advance_ok(sim, 0.25);
  ts_sim_advance_ok(sim, 0.25);
  ts_sim_advance_ok(sim, 0.375); /* and the run goes on normally */
  ck_assert(ts_sim_contains(ts_sim_text, "A.pu@0.25"));
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

/* ---- two-phase updates ---------------------------------------------------- */

/* Leaf with one discrete value x, output y = x, input u; every 1 s, x = u. */
static int follow_update(const teal_system *sys, const teal_context *ctx, double *xd_next,
                         void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc == TEAL_OK) {
    xd_next[0] = u[0];
  }
  return rc;
}

static int xd_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_discrete_group(ctx, 0)[0];
  return TEAL_OK;
}

static teal_system *follower_new(const char *name, double x0) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  teal_ticket xd = TEAL_TICKET_XD;
  teal_leaf_declare_vector_input(s, "u", 1);
  teal_leaf_declare_discrete_state(s, 1, &x0);
  teal_leaf_declare_periodic_discrete_update(s, 1.0, 0.0, follow_update, NULL);
  teal_leaf_declare_vector_output(s, "y", 1, xd_out, NULL, &xd, 1);
  return ts_sim_finalize(s);
}

/* One leaf, two groups (a) and (b), two updates at the same time:
 * a' = b and b' = a. */
static int swap_a(const teal_system *sys, const teal_context *ctx, double *xd_next, void *user) {
  (void)sys;
  (void)user;
  xd_next[0] = teal_context_discrete_group(ctx, 1)[0];
  return TEAL_OK;
}

static int swap_b(const teal_system *sys, const teal_context *ctx, double *xd_next, void *user) {
  (void)sys;
  (void)user;
  xd_next[1] = teal_context_discrete_group(ctx, 0)[0];
  return TEAL_OK;
}

START_TEST(test_two_phase_discrete_updates) {
  teal_builder *b = teal_builder_new("swap");
  teal_builder_add(b, follower_new("P", 1.0));
  teal_builder_add(b, follower_new("Q", 2.0));
  ts_sim_connect(b, "P", "y", "Q", "u");
  ts_sim_connect(b, "Q", "y", "P", "u");
  teal_system *d = ts_sim_build(b);
  teal_simulator *sim = ts_sim_new(d);
  teal_context *ctx = teal_simulator_context(sim);
  const teal_context *p = teal_context_subcontext_by_name(ctx, "P");
  const teal_context *q = teal_context_subcontext_by_name(ctx, "Q");
  ts_sim_advance_ok(sim, 0.5); /* update at t = 0 */
  ck_assert_double_eq(teal_context_discrete_group(p, 0)[0], 2.0);
  ck_assert_double_eq(teal_context_discrete_group(q, 0)[0], 1.0); /* not 2: pre-update P */
  ts_sim_advance_ok(sim, 1.5);                                    /* update at t = 1 */
  ck_assert_double_eq(teal_context_discrete_group(p, 0)[0], 1.0);
  ck_assert_double_eq(teal_context_discrete_group(q, 0)[0], 2.0);
  teal_simulator_free(sim);
  teal_system_free(d);

  /* the same within one leaf */
  teal_system *s = teal_leaf_new("S", NULL, NULL);
  double a0 = 3.0, b0 = 4.0;
  teal_leaf_declare_discrete_state(s, 1, &a0);
  teal_leaf_declare_discrete_state(s, 1, &b0);
  teal_leaf_declare_periodic_discrete_update(s, 1.0, 0.0, swap_a, NULL);
  teal_leaf_declare_periodic_discrete_update(s, 1.0, 0.0, swap_b, NULL);
  ts_sim_finalize(s);
  sim = ts_sim_new(s);
  ctx = teal_simulator_context(sim);
  ts_sim_advance_ok(sim, 0.5);
  ck_assert_double_eq(teal_context_discrete_group(ctx, 0)[0], 4.0);
  ck_assert_double_eq(teal_context_discrete_group(ctx, 1)[0], 3.0);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* ============================================================================
 * Purely discrete, continuous and hybrid runs
 * ========================================================================== */

static int count_update(const teal_system *sys, const teal_context *ctx, double *xd_next,
                        void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  xd_next[0] += 1.0;
  return TEAL_OK;
}

static int time_log_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  ts_sim_log_add(user ? user : "x", "sp", teal_context_time(ctx),
                 teal_context_discrete_group(ctx, 0)[0]);
  return TEAL_OK;
}

START_TEST(test_purely_discrete_jumps_between_events) {
  ts_sim_log_reset();
  teal_system *s = teal_leaf_new("counter", NULL, NULL);
  teal_leaf_declare_discrete_state(s, 1, NULL);
  teal_leaf_declare_periodic_discrete_update(s, 0.25, 0.25, count_update, NULL);
  teal_leaf_declare_per_step_publish(s, time_log_publish, "c");
  ts_sim_finalize(s);
  teal_simulator *sim = ts_sim_new(s);
  ts_sim_advance_ok(sim, 2.0);
  teal_sim_stats st = teal_simulator_get_stats(sim);
  /* event times 0.25, 0.5, ..., 2.0: one step each */
  ck_assert_int_eq(st.steps, 8);
  ck_assert_int_eq(st.derivative_evals, 0);
  ck_assert_int_eq(ts_sim_nlog, 9); /* initialization + one per step */
  ck_assert_double_eq(ts_sim_log[0].t, 0.0);
  for (int k = 1; k <= 8; k++) {
    ck_assert_double_eq(ts_sim_log[k].t, 0.25 * k);
    ck_assert_double_eq(ts_sim_log[k].value, (double)(k - 1)); /* update at 0.25k pending */
  }
  const teal_context *ctx = teal_simulator_context(sim);
  ck_assert_double_eq(teal_context_discrete_group(ctx, 0)[0], 7.0);
  ts_sim_advance_ok(sim, 2.1);
  ck_assert_double_eq(teal_context_discrete_group(ctx, 0)[0], 8.0);
  ck_assert_int_eq(teal_simulator_get_stats(sim).steps, 9);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* A witness of time alone in a diagram without continuous state: the
 * crossing at t = 0.3 must still be isolated and its event run. */
static int timer_witness(const teal_system *sys, const teal_context *ctx, double *w, void *user) {
  (void)sys;
  (void)user;
  *w = teal_context_time(ctx) - 0.3;
  return TEAL_OK;
}

static int timer_fire(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)user;
  ts_sim_log_add("timer", "w", teal_context_time(ctx), 0.0);
  return TEAL_OK;
}

static teal_system *timer_new(void) {
  teal_system *s = teal_leaf_new("timer", NULL, NULL);
  teal_leaf_declare_witness_publish(s, TEAL_WITNESS_NEGATIVE_TO_POSITIVE, timer_witness,
                                    timer_fire, NULL);
  return ts_sim_finalize(s);
}

START_TEST(test_time_witness_with_continuous_state) {
  ts_sim_log_reset();
  ts_sim_decay_params p = ts_sim_decay_defaults();
  teal_builder *b = teal_builder_new("timed");
  teal_builder_add(b, timer_new());
  teal_builder_add(b, ts_sim_decay_new("decay", &p, 1.0));
  teal_system *d = ts_sim_build(b);
  teal_simulator *sim = ts_sim_new(d);
  ts_sim_advance_ok(sim, 1.0);
  ck_assert_int_eq(ts_sim_nlog, 1);
  ck_assert_msg(ts_sim_log[0].t >= 0.3 && ts_sim_log[0].t <= 0.3 + 1e-7, "witness fired at %.17g",
                ts_sim_log[0].t);
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

START_TEST(test_time_witness_without_continuous_state) {
  ts_sim_log_reset();
  teal_system *s = timer_new();
  teal_simulator *sim = ts_sim_new(s);
  ts_sim_advance_ok(sim, 1.0);
  ck_assert_msg(ts_sim_nlog == 1,
                "the witness of t - 0.3 fired %d times over [0, 1] in a system "
                "without continuous state",
                ts_sim_nlog);
  ck_assert_msg(ts_sim_log[0].t >= 0.3 && ts_sim_log[0].t <= 0.3 + 1e-7, "witness fired at %.17g",
                ts_sim_log[0].t);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* Several witnesses of time in one leaf: crossings inside one step are
 * isolated one at a time, earliest first, and directions are respected. */
typedef struct crossing {
  const char *name;
  double t0;  /* zero of the witness */
  double sign; /* +1: w = t - t0, -1: w = t0 - t */
} crossing;

static const crossing g_crossings[] = {
    {"up31", 0.31, +1.0},   /* NEG->POS, fires at 0.31 */
    {"up37", 0.37, +1.0},   /* NEG->POS, fires at 0.37 */
    {"down33", 0.33, -1.0}, /* POS->NEG, fires at 0.33 */
    {"miss35", 0.35, -1.0}, /* declared NEG->POS but goes POS->NEG: never */
};

static int crossing_witness(const teal_system *sys, const teal_context *ctx, double *w,
                            void *user) {
  (void)sys;
  const crossing *c = user;
  *w = c->sign * (teal_context_time(ctx) - c->t0);
  return TEAL_OK;
}

static int crossing_fire(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  const crossing *c = user;
  ts_sim_log_add(c->name, "w", teal_context_time(ctx), c->t0);
  return TEAL_OK;
}

/* cos(4 pi t): zeros at 0.125 + 0.25 k, alternating directions (more than
 * the max step apart: a sign test cannot see two zeros in one step) */
static int cos_witness(const teal_system *sys, const teal_context *ctx, double *w, void *user) {
  (void)sys;
  (void)user;
  *w = cos(4.0 * M_PI * teal_context_time(ctx));
  return TEAL_OK;
}

static int cos_fire(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)user;
  ts_sim_log_add("cos", "w", teal_context_time(ctx), 0.0);
  return TEAL_OK;
}

START_TEST(test_several_witnesses_and_directions) {
  ts_sim_log_reset();
  ts_sim_decay_params p = ts_sim_decay_defaults();
  teal_system *s = teal_leaf_new("timers", NULL, NULL);
  double z0 = 1.0;
  teal_leaf_declare_continuous_state(s, 0, 0, 1, &z0);
  teal_leaf_set_time_derivatives(s, ts_sim_decay_derivs, &p);
  for (int i = 0; i < 4; i++) {
    teal_witness_direction dir = g_crossings[i].sign > 0 || i == 3
                                     ? TEAL_WITNESS_NEGATIVE_TO_POSITIVE
                                     : TEAL_WITNESS_POSITIVE_TO_NEGATIVE;
    teal_leaf_declare_witness_publish(s, dir, crossing_witness, crossing_fire,
                                      (void *)&g_crossings[i]);
  }
  teal_leaf_declare_witness_publish(s, TEAL_WITNESS_CROSSES_ZERO, cos_witness, cos_fire, NULL);
  ts_sim_finalize(s);
  ck_assert_int_eq(teal_system_num_witnesses(s), 5);
  teal_simulator *sim = ts_sim_new(s);
  ck_assert_int_eq(teal_simulator_set_max_step(sim, 0.2), TEAL_OK);
  ts_sim_advance_ok(sim, 0.5);
  /* cos zeros 0.125 (down) and 0.375 (up) and the three time crossings */
  ck_assert_msg(ts_sim_nlog == 5, "log: %s", ts_sim_text);
  const char *order[5] = {"cos.w", "up31.w", "down33.w", "up37.w", "cos.w"};
  const double when[5] = {0.125, 0.31, 0.33, 0.37, 0.375};
  for (int i = 0; i < 5; i++) {
    ck_assert_msg(!strcmp(ts_sim_log[i].tag, order[i]), "entry %d: %s (log: %s)", i,
                  ts_sim_log[i].tag, ts_sim_text);
    ck_assert_msg(ts_sim_log[i].t >= when[i] - 1e-12 && ts_sim_log[i].t <= when[i] + 1e-7,
                  "%s fired at %.17g, expected %g", ts_sim_log[i].tag, ts_sim_log[i].t, when[i]);
  }
  ck_assert_int_ge(teal_simulator_get_stats(sim).publishes, 5);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

static Suite *simulator_events_suite(void) {
  Suite *s = suite_create("simulator_events");
  TCase *tc = tcase_create("events");
  tcase_add_test(tc, test_initialization_order);
  tcase_add_test(tc, test_step_event_order);
  tcase_add_test(tc, test_per_step_unrestricted_update);
  tcase_add_test(tc, test_period_below_time_resolution_fails);
  tcase_add_test(tc, test_advance_to_now);
  tcase_add_test(tc, test_two_phase_discrete_updates);
  tcase_add_test(tc, test_purely_discrete_jumps_between_events);
  tcase_add_test(tc, test_time_witness_with_continuous_state);
  tcase_add_test(tc, test_time_witness_without_continuous_state);
  tcase_add_test(tc, test_several_witnesses_and_directions);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(simulator_events_suite());
}
