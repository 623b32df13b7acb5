/* The simulator on small diagrams of leaves written here: Drake's event
 * order within a step and at initialization, two-phase updates, purely
 * discrete, continuous and hybrid runs against closed forms, witness
 * isolation (bouncing ball), error control statistics, a stiff problem,
 * failures (NaN, step size, monitor and handler stops), publish every
 * step, realtime pacing, option checks and no allocation in advance_to.
 *
 * Set TEAL_TEST_VERBOSE=1 to print the measured figures. */
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
#include "support/test_support.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator.h"
#include "systems/primitives/linear_system.h"

/* ---- common helpers ------------------------------------------------------- */

static teal_system *finalized(teal_system *sys) {
  ck_assert_ptr_nonnull(sys);
  int rc = teal_leaf_finalize(sys);
  ck_assert_msg(rc == TEAL_OK, "finalize %s: %s", teal_system_name(sys),
                teal_system_error(sys)->message);
  return sys;
}

static teal_system *built(teal_builder *b) {
  teal_error err;
  teal_error_clear(&err);
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  return d;
}

static void wire(teal_builder *b, const char *src, const char *out, const char *dst,
                    const char *in) {
  int rc = teal_builder_connect_by_name(b, src, out, dst, in);
  ck_assert_msg(rc == TEAL_OK, "connect %s.%s -> %s.%s: %s", src, out, dst, in,
                teal_builder_error(b)->message);
}

static teal_simulator *new_sim(const teal_system *sys) {
  teal_error err;
  teal_error_clear(&err);
  teal_simulator *sim = teal_simulator_new(sys, NULL, &err);
  ck_assert_msg(sim != NULL, "simulator_new: %s", err.message);
  return sim;
}

/* Advances and insists on reaching the end. */
static void advance_ok(teal_simulator *sim, double t) {
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, t, &st);
  ck_assert_msg(rc == TEAL_OK && st.outcome == TEAL_SIM_REACHED_END,
                "advance_to(%g): rc %d outcome %d at t = %g: %s", t, rc, (int)st.outcome, st.time,
                st.message);
  ck_assert_double_eq(st.time, t);
  ck_assert_double_eq(teal_context_time(teal_simulator_context(sim)), t);
}

static int contains(const char *haystack, const char *needle) {
  return strstr(haystack, needle) != NULL;
}

/* ---- the event log -------------------------------------------------------- */

enum { LOG_MAX = 512, TEXT_MAX = 16384 };

typedef struct log_entry {
  char tag[16];
  double t, value;
} log_entry;

static log_entry g_log[LOG_MAX];
static int g_nlog;
static char g_text[TEXT_MAX];

static void log_reset(void) {
  g_nlog = 0;
  g_text[0] = '\0';
}

static void log_add(const char *leaf, const char *what, double t, double value) {
  if (g_nlog < LOG_MAX) {
    log_entry *e = &g_log[g_nlog++];
    snprintf(e->tag, sizeof e->tag, "%s.%s", leaf, what);
    e->t = t;
    e->value = value;
  }
  size_t len = strlen(g_text);
  snprintf(g_text + len, sizeof g_text - len, "%s%s.%s@%g", len ? " " : "", leaf, what, t);
}

/* ---- leaves ---------------------------------------------------------------- */

/* The event-order leaf: z' = 1 (so z = t), discrete group xd = (a, b).
 * init unrestricted: a = 10; init discrete: b = a; periodic unrestricted:
 * a += 1; periodic discrete: b = a. Publishes log z (init publish: b).
 * Each trio is declared publish, discrete, unrestricted, the reverse of
 * the order the simulator must run them in. */
static int ev_derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                     void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  xd->z[0] = 1.0;
  return TEAL_OK;
}

static int ev_init_unres(const teal_system *sys, const teal_context *ctx, teal_state_view *next,
                         void *user) {
  (void)sys;
  log_add(user, "iu", teal_context_time(ctx), 0.0);
  next->xd[0] = 10.0;
  return TEAL_OK;
}

static int ev_init_disc(const teal_system *sys, const teal_context *ctx, double *xd_next,
                        void *user) {
  (void)sys;
  const double *xd = teal_context_discrete_group(ctx, 0);
  log_add(user, "id", teal_context_time(ctx), xd[0]);
  xd_next[1] = xd[0];
  return TEAL_OK;
}

static int ev_init_pub(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  log_add(user, "ip", teal_context_time(ctx), teal_context_discrete_group(ctx, 0)[1]);
  return TEAL_OK;
}

static int ev_unres(const teal_system *sys, const teal_context *ctx, teal_state_view *next,
                    void *user) {
  (void)sys;
  log_add(user, "pu", teal_context_time(ctx), 0.0);
  next->xd[0] += 1.0;
  return TEAL_OK;
}

static int ev_disc(const teal_system *sys, const teal_context *ctx, double *xd_next,
                   void *user) {
  (void)sys;
  const double *xd = teal_context_discrete_group(ctx, 0);
  log_add(user, "pd", teal_context_time(ctx), xd[0]);
  xd_next[1] = xd[0];
  return TEAL_OK;
}

static int ev_step_disc(const teal_system *sys, const teal_context *ctx, double *xd_next,
                        void *user) {
  (void)sys;
  (void)xd_next;
  log_add(user, "sd", teal_context_time(ctx), teal_context_discrete_group(ctx, 0)[1]);
  return TEAL_OK;
}

static int ev_pub(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  log_add(user, "pp", teal_context_time(ctx), teal_context_z(ctx)[0]);
  return TEAL_OK;
}

static int ev_step_pub(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  log_add(user, "sp", teal_context_time(ctx), teal_context_z(ctx)[0]);
  return TEAL_OK;
}

static teal_system *event_leaf_new(const char *name, int per_step_discrete) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  void *u = (void *)name;
  teal_leaf_declare_continuous_state(s, 0, 0, 1, NULL);
  teal_leaf_set_time_derivatives(s, ev_derivs, NULL);
  teal_leaf_declare_discrete_state(s, 2, NULL);
  teal_leaf_declare_initialization_publish(s, ev_init_pub, u);
  teal_leaf_declare_initialization_discrete_update(s, ev_init_disc, u);
  teal_leaf_declare_initialization_unrestricted_update(s, ev_init_unres, u);
  teal_leaf_declare_periodic_publish(s, 0.25, 0.0, ev_pub, u);
  teal_leaf_declare_periodic_discrete_update(s, 0.25, 0.0, ev_disc, u);
  teal_leaf_declare_periodic_unrestricted_update(s, 0.25, 0.0, ev_unres, u);
  teal_leaf_declare_per_step_publish(s, ev_step_pub, u);
  if (per_step_discrete) {
    teal_leaf_declare_per_step_discrete_update(s, ev_step_disc, u);
  }
  return finalized(s);
}

/* Harmonic oscillator q' = v, v' = -q (nq = nv = 1), x0 = (1, 0); counts
 * its derivative calls. Output "x" = (q, v). */
static long g_osc_calls;

static int osc_derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                      void *user) {
  (void)sys;
  (void)user;
  g_osc_calls++;
  xd->q[0] = teal_context_v(ctx)[0];
  xd->v[0] = -teal_context_q(ctx)[0];
  return TEAL_OK;
}

static int osc_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_q(ctx)[0];
  out[1] = teal_context_v(ctx)[0];
  return TEAL_OK;
}

static teal_system *osc_new(const char *name) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  double x0[2] = {1.0, 0.0};
  teal_ticket xc = TEAL_TICKET_XC;
  teal_leaf_declare_continuous_state(s, 1, 1, 0, x0);
  teal_leaf_set_time_derivatives(s, osc_derivs, NULL);
  teal_leaf_declare_vector_output(s, "x", 2, osc_out, NULL, &xc, 1);
  return finalized(s);
}

/* Scalar decay z' = -z with optional misbehaviour: NaN for t > nan_after,
 * a jump of jump_size in the derivative for t > jump_at. */
typedef struct decay_params {
  double nan_after, jump_at, jump_size, constant;
} decay_params;

static int decay_derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                        void *user) {
  (void)sys;
  const decay_params *p = user;
  double t = teal_context_time(ctx);
  xd->z[0] = -teal_context_z(ctx)[0] + p->constant;
  if (t > p->jump_at) {
    xd->z[0] += p->jump_size;
  }
  if (t > p->nan_after) {
    xd->z[0] = NAN;
  }
  return TEAL_OK;
}

static decay_params decay_defaults(void) {
  decay_params p = {INFINITY, INFINITY, 0.0, 0.0};
  return p;
}

static teal_system *decay_new(const char *name, decay_params *p, double z0) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  teal_leaf_declare_continuous_state(s, 0, 0, 1, &z0);
  teal_leaf_set_time_derivatives(s, decay_derivs, p);
  return finalized(s);
}

/* Bouncing ball: q = height, v = vertical speed, q'' = -g; witness q
 * (positive to negative) with the unrestricted reset v <- -e v. Impact
 * times go to g_impacts. */
typedef struct ball_params {
  double g, e;
} ball_params;

enum { IMPACT_MAX = 64 };
static double g_impacts[IMPACT_MAX];
static int g_nimpacts;
static double g_min_height;

static int ball_derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                       void *user) {
  (void)sys;
  const ball_params *p = user;
  xd->q[0] = teal_context_v(ctx)[0];
  xd->v[0] = -p->g;
  return TEAL_OK;
}

static int ball_witness(const teal_system *sys, const teal_context *ctx, double *w, void *user) {
  (void)sys;
  (void)user;
  *w = teal_context_q(ctx)[0];
  return TEAL_OK;
}

static int ball_bounce(const teal_system *sys, const teal_context *ctx, teal_state_view *next,
                       void *user) {
  (void)sys;
  const ball_params *p = user;
  if (g_nimpacts < IMPACT_MAX) {
    g_impacts[g_nimpacts++] = teal_context_time(ctx);
  }
  next->v[0] = -p->e * teal_context_v(ctx)[0];
  return TEAL_OK;
}

static int ball_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_q(ctx)[0];
  return TEAL_OK;
}

static teal_system *ball_new(const char *name, ball_params *p, double z0) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  double x0[2] = {z0, 0.0};
  teal_ticket xc = TEAL_TICKET_XC;
  teal_leaf_declare_continuous_state(s, 1, 1, 0, x0);
  teal_leaf_set_time_derivatives(s, ball_derivs, p);
  teal_leaf_declare_witness_unrestricted_update(s, TEAL_WITNESS_POSITIVE_TO_NEGATIVE,
                                                ball_witness, ball_bounce, p);
  teal_leaf_declare_vector_output(s, "height", 1, ball_out, NULL, &xc, 1);
  return finalized(s);
}

/* First-order plant z' = -z + u, output y = z. */
static int plant_derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                        void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  xd->z[0] = -teal_context_z(ctx)[0] + u[0];
  return TEAL_OK;
}

static int plant_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_z(ctx)[0];
  return TEAL_OK;
}

static teal_system *plant_new(const char *name, double z0) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  teal_ticket xc = TEAL_TICKET_XC;
  teal_leaf_declare_vector_input(s, "u", 1);
  teal_leaf_declare_continuous_state(s, 0, 0, 1, &z0);
  teal_leaf_set_time_derivatives(s, plant_derivs, NULL);
  teal_leaf_declare_vector_output(s, "y", 1, plant_out, NULL, &xc, 1);
  return finalized(s);
}

/* Zero-order-hold controller: samples x every period into xd = -k x and
 * outputs u = xd (no feedthrough). */
typedef struct zoh_params {
  double k;
} zoh_params;

static int zoh_sample(const teal_system *sys, const teal_context *ctx, double *xd_next,
                      void *user) {
  const zoh_params *p = user;
  const double *x;
  int rc = teal_eval_vector_input(sys, ctx, 0, &x);
  if (rc) {
    return rc;
  }
  xd_next[0] = -p->k * x[0];
  return TEAL_OK;
}

static int zoh_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_discrete_group(ctx, 0)[0];
  return TEAL_OK;
}

static teal_system *zoh_new(const char *name, zoh_params *p, double period) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  teal_ticket xd = TEAL_TICKET_XD;
  teal_leaf_declare_vector_input(s, "x", 1);
  teal_leaf_declare_discrete_state(s, 1, NULL);
  teal_leaf_declare_periodic_discrete_update(s, period, 0.0, zoh_sample, p);
  teal_leaf_declare_vector_output(s, "u", 1, zoh_out, NULL, &xd, 1);
  return finalized(s);
}

/* plant <-> zoh feedback loop */
static teal_system *hybrid_new(zoh_params *p, double period, double z0) {
  teal_builder *b = teal_builder_new("hybrid");
  teal_builder_add(b, plant_new("plant", z0));
  teal_builder_add(b, zoh_new("zoh", p, period));
  wire(b, "plant", "y", "zoh", "x");
  wire(b, "zoh", "u", "plant", "u");
  return built(b);
}

/* ============================================================================
 * Event order
 * ========================================================================== */

static teal_system *event_diagram_new(void) {
  teal_builder *b = teal_builder_new("events");
  teal_builder_add(b, event_leaf_new("A", 0));
  teal_builder_add(b, event_leaf_new("B", 1));
  return built(b);
}

static teal_simulator *event_sim_new(const teal_system *d) {
  teal_simulator *sim = new_sim(d);
  ck_assert_int_eq(teal_simulator_set_max_step(sim, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 0.125), TEAL_OK);
  return sim;
}

START_TEST(test_initialization_order) {
  log_reset();
  teal_system *d = event_diagram_new();
  teal_simulator *sim = event_sim_new(d);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_initialize(sim, &st), TEAL_OK);
  ck_assert_int_eq(st.outcome, TEAL_SIM_REACHED_END);
  ck_assert_double_eq(st.time, 0.0);
  /* init unrestricted, init discrete, init publish, then the per-step and
   * the timed publishes due at t0; each kind in subsystem order */
  ck_assert_str_eq(g_text,
                   "A.iu@0 B.iu@0 A.id@0 B.id@0 A.ip@0 B.ip@0 "
                   "A.sp@0 B.sp@0 A.pp@0 B.pp@0");
  /* init discrete saw init unrestricted's result, init publish both */
  ck_assert_double_eq(g_log[2].value, 10.0);
  ck_assert_double_eq(g_log[4].value, 10.0);
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
  log_reset();
  teal_system *d = event_diagram_new();
  teal_simulator *sim = event_sim_new(d);
  advance_ok(sim, 0.5);
  ck_assert_str_eq(g_text,
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
  for (int i = 0; i < g_nlog; i++) {
    const char *what = g_log[i].tag + 2;
    if (!strcmp(what, "sp") || !strcmp(what, "pp")) {
      ck_assert_double_eq_tol(g_log[i].value, g_log[i].t, 1e-12);
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
  log_reset();
  advance_ok(sim, 0.625);
  ck_assert_str_eq(g_text, "A.pu@0.5 B.pu@0.5 A.pd@0.5 B.pd@0.5 B.sd@0.5 A.sp@0.625 B.sp@0.625");
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
  log_add(user, "su", teal_context_time(ctx), teal_context_discrete_group(ctx, 0)[1]);
  next->xd[1] += 1.0;
  return TEAL_OK;
}

START_TEST(test_per_step_unrestricted_update) {
  log_reset();
  teal_system *s = teal_leaf_new("C", NULL, NULL);
  void *u = (void *)"C";
  teal_leaf_declare_continuous_state(s, 0, 0, 1, NULL);
  teal_leaf_set_time_derivatives(s, ev_derivs, NULL);
  teal_leaf_declare_discrete_state(s, 2, NULL);
  teal_leaf_declare_per_step_unrestricted_update(s, ev_step_unres, u);
  teal_leaf_declare_per_step_discrete_update(s, ev_step_disc, u);
  teal_leaf_declare_per_step_publish(s, ev_step_pub, u);
  finalized(s);
  teal_simulator *sim = new_sim(s);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 0.25), TEAL_OK);
  advance_ok(sim, 0.5);
  ck_assert_str_eq(g_text, "C.sp@0 C.su@0 C.sd@0 C.sp@0.25 C.su@0.25 C.sd@0.25 C.sp@0.5");
  /* the unrestricted update saw 0 then 1; the discrete one its results */
  ck_assert_double_eq(g_log[1].value, 0.0);
  ck_assert_double_eq(g_log[2].value, 1.0);
  ck_assert_double_eq(g_log[4].value, 1.0);
  ck_assert_double_eq(g_log[5].value, 2.0);
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
  teal_leaf_set_time_derivatives(s, ev_derivs, NULL);
  teal_leaf_declare_periodic_publish(s, 1e-17, 0.0, count_publish, &publishes);
  finalized(s);
  teal_simulator *sim = new_sim(s);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_context_set_time(ctx, 1.0), TEAL_OK);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 2.0, &st), TEAL_ESTEPSIZE);
  ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
  ck_assert_msg(contains(st.message, "below the time resolution"), "%s", st.message);
  ck_assert_double_eq(teal_context_time(ctx), 1.0);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

START_TEST(test_advance_to_now) {
  log_reset();
  teal_system *d = event_diagram_new();
  teal_simulator *sim = event_sim_new(d);
  advance_ok(sim, 0.25);
  advance_ok(sim, 0.25);
  advance_ok(sim, 0.375); /* and the run goes on normally */
  ck_assert(contains(g_text, "A.pu@0.25"));
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
  return finalized(s);
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
  wire(b, "P", "y", "Q", "u");
  wire(b, "Q", "y", "P", "u");
  teal_system *d = built(b);
  teal_simulator *sim = new_sim(d);
  teal_context *ctx = teal_simulator_context(sim);
  const teal_context *p = teal_context_subcontext_by_name(ctx, "P");
  const teal_context *q = teal_context_subcontext_by_name(ctx, "Q");
  advance_ok(sim, 0.5); /* update at t = 0 */
  ck_assert_double_eq(teal_context_discrete_group(p, 0)[0], 2.0);
  ck_assert_double_eq(teal_context_discrete_group(q, 0)[0], 1.0); /* not 2: pre-update P */
  advance_ok(sim, 1.5); /* update at t = 1 */
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
  finalized(s);
  sim = new_sim(s);
  ctx = teal_simulator_context(sim);
  advance_ok(sim, 0.5);
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
  log_add(user ? user : "x", "sp", teal_context_time(ctx),
          teal_context_discrete_group(ctx, 0)[0]);
  return TEAL_OK;
}

START_TEST(test_purely_discrete_jumps_between_events) {
  log_reset();
  teal_system *s = teal_leaf_new("counter", NULL, NULL);
  teal_leaf_declare_discrete_state(s, 1, NULL);
  teal_leaf_declare_periodic_discrete_update(s, 0.25, 0.25, count_update, NULL);
  teal_leaf_declare_per_step_publish(s, time_log_publish, "c");
  finalized(s);
  teal_simulator *sim = new_sim(s);
  advance_ok(sim, 2.0);
  teal_sim_stats st = teal_simulator_get_stats(sim);
  /* event times 0.25, 0.5, ..., 2.0: one step each */
  ck_assert_int_eq(st.steps, 8);
  ck_assert_int_eq(st.derivative_evals, 0);
  ck_assert_int_eq(g_nlog, 9); /* initialization + one per step */
  ck_assert_double_eq(g_log[0].t, 0.0);
  for (int k = 1; k <= 8; k++) {
    ck_assert_double_eq(g_log[k].t, 0.25 * k);
    ck_assert_double_eq(g_log[k].value, (double)(k - 1)); /* update at 0.25k pending */
  }
  const teal_context *ctx = teal_simulator_context(sim);
  ck_assert_double_eq(teal_context_discrete_group(ctx, 0)[0], 7.0);
  advance_ok(sim, 2.1);
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
  log_add("timer", "w", teal_context_time(ctx), 0.0);
  return TEAL_OK;
}

static teal_system *timer_new(void) {
  teal_system *s = teal_leaf_new("timer", NULL, NULL);
  teal_leaf_declare_witness_publish(s, TEAL_WITNESS_NEGATIVE_TO_POSITIVE, timer_witness,
                                    timer_fire, NULL);
  return finalized(s);
}

START_TEST(test_time_witness_with_continuous_state) {
  log_reset();
  decay_params p = decay_defaults();
  teal_builder *b = teal_builder_new("timed");
  teal_builder_add(b, timer_new());
  teal_builder_add(b, decay_new("decay", &p, 1.0));
  teal_system *d = built(b);
  teal_simulator *sim = new_sim(d);
  advance_ok(sim, 1.0);
  ck_assert_int_eq(g_nlog, 1);
  ck_assert_msg(g_log[0].t >= 0.3 && g_log[0].t <= 0.3 + 1e-7, "witness fired at %.17g",
                g_log[0].t);
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

START_TEST(test_time_witness_without_continuous_state) {
  log_reset();
  teal_system *s = timer_new();
  teal_simulator *sim = new_sim(s);
  advance_ok(sim, 1.0);
  ck_assert_msg(g_nlog == 1, "the witness of t - 0.3 fired %d times over [0, 1] in a system "
                "without continuous state", g_nlog);
  ck_assert_msg(g_log[0].t >= 0.3 && g_log[0].t <= 0.3 + 1e-7, "witness fired at %.17g",
                g_log[0].t);
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
  log_add(c->name, "w", teal_context_time(ctx), c->t0);
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
  log_add("cos", "w", teal_context_time(ctx), 0.0);
  return TEAL_OK;
}

START_TEST(test_several_witnesses_and_directions) {
  log_reset();
  decay_params p = decay_defaults();
  teal_system *s = teal_leaf_new("timers", NULL, NULL);
  double z0 = 1.0;
  teal_leaf_declare_continuous_state(s, 0, 0, 1, &z0);
  teal_leaf_set_time_derivatives(s, decay_derivs, &p);
  for (int i = 0; i < 4; i++) {
    teal_witness_direction dir = g_crossings[i].sign > 0 || i == 3
                                     ? TEAL_WITNESS_NEGATIVE_TO_POSITIVE
                                     : TEAL_WITNESS_POSITIVE_TO_NEGATIVE;
    teal_leaf_declare_witness_publish(s, dir, crossing_witness, crossing_fire,
                                      (void *)&g_crossings[i]);
  }
  teal_leaf_declare_witness_publish(s, TEAL_WITNESS_CROSSES_ZERO, cos_witness, cos_fire, NULL);
  finalized(s);
  ck_assert_int_eq(teal_system_num_witnesses(s), 5);
  teal_simulator *sim = new_sim(s);
  ck_assert_int_eq(teal_simulator_set_max_step(sim, 0.2), TEAL_OK);
  advance_ok(sim, 0.5);
  /* cos zeros 0.125 (down) and 0.375 (up) and the three time crossings */
  ck_assert_msg(g_nlog == 5, "log: %s", g_text);
  const char *order[5] = {"cos.w", "up31.w", "down33.w", "up37.w", "cos.w"};
  const double when[5] = {0.125, 0.31, 0.33, 0.37, 0.375};
  for (int i = 0; i < 5; i++) {
    ck_assert_msg(!strcmp(g_log[i].tag, order[i]), "entry %d: %s (log: %s)", i, g_log[i].tag,
                  g_text);
    ck_assert_msg(g_log[i].t >= when[i] - 1e-12 && g_log[i].t <= when[i] + 1e-7,
                  "%s fired at %.17g, expected %g", g_log[i].tag, g_log[i].t, when[i]);
  }
  ck_assert_int_ge(teal_simulator_get_stats(sim).publishes, 5);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* nq != nv through the simulator: q = (a, b), v = w with qdot = (w, a w)
 * and wdot = -a. Semi-explicit Euler must build q from the new v through
 * the leaf's velocity map. */
static int mapped_derivs(const teal_system *sys, const teal_context *ctx,
                         teal_continuous_view *xd, void *user) {
  (void)sys;
  (void)user;
  const double *q = teal_context_q(ctx), *v = teal_context_v(ctx);
  xd->q[0] = v[0];
  xd->q[1] = q[0] * v[0];
  xd->v[0] = -q[0];
  return TEAL_OK;
}

static int mapped_v_to_qdot(const teal_system *sys, const teal_context *ctx, const double *v,
                            double *qdot, void *user) {
  (void)sys;
  (void)user;
  qdot[0] = v[0];
  qdot[1] = teal_context_q(ctx)[0] * v[0];
  return TEAL_OK;
}

static int mapped_qdot_to_v(const teal_system *sys, const teal_context *ctx,
                            const double *qdot, double *v, void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  v[0] = qdot[0];
  return TEAL_OK;
}

START_TEST(test_velocity_map_through_simulator) {
  teal_system *s = teal_leaf_new("mapped", NULL, NULL);
  double x0[3] = {0.5, 2.0, 1.5};
  teal_leaf_declare_continuous_state(s, 2, 1, 0, x0);
  teal_leaf_set_time_derivatives(s, mapped_derivs, NULL);
  teal_leaf_set_velocity_map(s, mapped_v_to_qdot, mapped_qdot_to_v, NULL);
  finalized(s);
  teal_simulator *sim = new_sim(s);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_semi_explicit_euler),
                   TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 0.1), TEAL_OK);
  advance_ok(sim, 1.0);
  double a = x0[0], b = x0[1], w = x0[2], h = 0.1;
  for (int k = 0; k < 10; k++) {
    double w1 = w - h * a;
    b += h * a * w1;
    a += h * w1;
    w = w1;
  }
  const teal_context *ctx = teal_simulator_context(sim);
  ck_assert_double_eq_tol(teal_context_q(ctx)[0], a, 1e-13);
  ck_assert_double_eq_tol(teal_context_q(ctx)[1], b, 1e-13);
  ck_assert_double_eq_tol(teal_context_v(ctx)[0], w, 1e-13);
  /* and the error-controlled default runs on the same leaf */
  teal_simulator_free(sim);
  sim = new_sim(s);
  advance_ok(sim, 1.0);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* The error floor: z counts its error relative to max(|z|, floor). A state
 * of size 1e-6 is controlled loosely against the default floor 1 and
 * tightly against a floor of 1e-12. */
START_TEST(test_error_floor) {
  double rel[2];
  long steps[2];
  const double floors[2] = {1.0, 1e-12};
  for (int i = 0; i < 2; i++) {
    decay_params p = decay_defaults();
    teal_system *s = decay_new("decay", &p, 1e-6);
    teal_simulator *sim = new_sim(s);
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, 1e-6), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_max_step(sim, 1.0), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_error_floor(sim, floors[i]), TEAL_OK);
    advance_ok(sim, 3.0);
    double z = teal_context_z(teal_simulator_context(sim))[0];
    rel[i] = fabs(z - 1e-6 * exp(-3.0)) / (1e-6 * exp(-3.0));
    steps[i] = teal_simulator_get_stats(sim).steps;
    teal_simulator_free(sim);
    teal_system_free(s);
  }
  if (ts_verbose()) {
    ts_report("error floor: floor 1 -> relative error %.3g in %ld steps; floor 1e-12 -> %.3g in "
              "%ld steps\n", rel[0], steps[0], rel[1], steps[1]);
  }
  ck_assert_msg(rel[1] < 1e-4, "relative error %.3g with floor 1e-12", rel[1]);
  ck_assert_msg(rel[0] > 10.0 * rel[1], "floor 1: %.3g, floor 1e-12: %.3g", rel[0], rel[1]);
  ck_assert_int_gt(steps[1], steps[0]);
}
END_TEST

/* x'' = -x held in z = (x, x'); osc_derivs holds it in (q, v). */
static int osc_z_derivs(const teal_system *sys, const teal_context *ctx,
                        teal_continuous_view *xd, void *user) {
  (void)sys;
  (void)user;
  xd->z[0] = teal_context_z(ctx)[1];
  xd->z[1] = -teal_context_z(ctx)[0];
  return TEAL_OK;
}

static teal_system *osc_any_new(int as_qv, double amplitude) {
  teal_system *s = teal_leaf_new(as_qv ? "osc_qv" : "osc_z", NULL, NULL);
  double x0[2] = {amplitude, 0.0};
  teal_leaf_declare_continuous_state(s, as_qv, as_qv, as_qv ? 0 : 2, x0);
  teal_leaf_set_time_derivatives(s, as_qv ? osc_derivs : osc_z_derivs, NULL);
  return finalized(s);
}

/* q counts absolutely, z relatively: an oscillator of amplitude 1000 held
 * in q must take far smaller steps than the same one held in z (the local
 * error allowed on x is 1000 times smaller, so steps about 10 times shorter
 * with RK3's exponent 1/3), and each run stays within its own tolerance. */
START_TEST(test_q_error_is_absolute) {
  long steps[2];
  double err[2];
  for (int as_qv = 0; as_qv < 2; as_qv++) {
    teal_system *s = osc_any_new(as_qv, 1000.0);
    teal_simulator *sim = new_sim(s);
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, 1e-6), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_error_floor(sim, 1.0), TEAL_OK);
    advance_ok(sim, 2.0 * M_PI);
    const teal_context *ctx = teal_simulator_context(sim);
    double x = as_qv ? teal_context_q(ctx)[0] : teal_context_z(ctx)[0];
    err[as_qv] = fabs(x - 1000.0);
    steps[as_qv] = teal_simulator_get_stats(sim).steps;
    teal_simulator_free(sim);
    teal_system_free(s);
  }
  if (ts_verbose()) {
    ts_report("q absolute: held in z %ld steps (|dx| %.3g), in q %ld steps (|dx| %.3g)\n",
              steps[0], err[0], steps[1], err[1]);
  }
  ck_assert_msg(steps[1] > 4 * steps[0], "steps in q %ld, in z %ld", steps[1], steps[0]);
  ck_assert_msg(err[1] < err[0], "|dx| in q %.3g, in z %.3g", err[1], err[0]);
}
END_TEST

START_TEST(test_purely_continuous_against_exact) {
  static const teal_integrator_type *const *types[] = {&teal_integrator_rk3,
                                                       &teal_integrator_rk45};
  static const double accuracy[] = {1e-10, 1e-10};
  static const double tol[] = {2e-8, 1e-8};
  for (int i = 0; i < 2; i++) {
    decay_params p = decay_defaults();
    teal_system *s = decay_new("decay", &p, 2.0);
    teal_simulator *sim = new_sim(s);
    ck_assert_int_eq(teal_simulator_set_integrator(sim, *types[i]), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, accuracy[i]), TEAL_OK);
    ck_assert_double_eq(teal_context_accuracy(teal_simulator_context(sim)), accuracy[i]);
    advance_ok(sim, 1.0);
    double z = teal_context_z(teal_simulator_context(sim))[0];
    double err = fabs(z - 2.0 * exp(-1.0));
    if (ts_verbose()) {
      ts_report("continuous z' = -z, %s at accuracy %g: error %.3g in %ld steps\n",
                (*types[i])->name, accuracy[i], err, teal_simulator_get_stats(sim).steps);
    }
    ck_assert_msg(err < tol[i], "%s: error %.3g", (*types[i])->name, err);
    teal_simulator_free(sim);
    teal_system_free(s);
  }
}
END_TEST

/* Closed form of the sampled loop: x_{k+1} = a x_k with
 * a = -k + (1 + k) e^{-T}, and between samples
 * x(t) = u_k + (x_k - u_k) e^{-(t - t_k)}, u_k = -k x_k. */
typedef struct hybrid_check {
  double k, T, x0, worst;
  long checks;
} hybrid_check;

static double hybrid_exact(const hybrid_check *h, double t) {
  double a = -h->k + (1.0 + h->k) * exp(-h->T);
  double n = floor(t / h->T + 1e-9);
  double xk = h->x0 * pow(a, n), uk = -h->k * xk;
  return uk + (xk - uk) * exp(-(t - n * h->T));
}

static int hybrid_monitor(const teal_system *sys, const teal_context *ctx, void *user) {
  hybrid_check *h = user;
  const teal_context *plant = teal_context_subcontext_by_name(ctx, "plant");
  (void)sys;
  double err = fabs(teal_context_z(plant)[0] - hybrid_exact(h, teal_context_time(ctx)));
  h->worst = fmax(h->worst, err);
  h->checks++;
  return TEAL_OK;
}

START_TEST(test_hybrid_sampled_loop_against_exact) {
  zoh_params zp = {2.0};
  teal_system *d = hybrid_new(&zp, 0.1, 1.0);
  teal_simulator *sim = new_sim(d);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk45), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_accuracy(sim, 1e-12), TEAL_OK);
  hybrid_check h = {2.0, 0.1, 1.0, 0.0, 0};
  ck_assert_int_eq(teal_simulator_set_monitor(sim, hybrid_monitor, &h), TEAL_OK);
  advance_ok(sim, 1.0);
  teal_context *ctx = teal_simulator_context(sim);
  double x_end = teal_context_z(teal_context_subcontext_by_name(ctx, "plant"))[0];
  double a = -2.0 + 3.0 * exp(-0.1);
  double x_expect = pow(a, 10.0);
  /* the held input is the sample at t = 0.9 (the one at 1.0 is pending) */
  double u_held = teal_context_discrete_group(teal_context_subcontext_by_name(ctx, "zoh"), 0)[0];
  if (ts_verbose()) {
    ts_report("hybrid loop: x(1) = %.15f, exact %.15f, worst error over %ld steps %.3g\n", x_end,
              x_expect, h.checks, h.worst);
  }
  ck_assert_msg(fabs(x_end - x_expect) < 1e-8, "x(1) = %.15f, exact %.15f", x_end, x_expect);
  ck_assert_msg(h.worst < 1e-8, "worst error %.3g", h.worst);
  ck_assert_double_eq_tol(u_held, -2.0 * pow(a, 9.0), 1e-8);
  ck_assert_int_eq(teal_simulator_get_stats(sim).discrete_updates, 10);
  ck_assert_int_ge(h.checks, 10);
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

/* ============================================================================
 * Witnesses: the bouncing ball
 * ========================================================================== */

static int min_height_monitor(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)user;
  g_min_height = fmin(g_min_height, teal_context_q(ctx)[0]);
  return TEAL_OK;
}

typedef struct bounce_case {
  const teal_integrator_type *const *type;
  double accuracy; /* 0: defaults */
  double e;
} bounce_case;

static const bounce_case bounce_cases[] = {
    {&teal_integrator_rk3, 1e-8, 1.0},  {&teal_integrator_rk3, 1e-8, 0.8},
    {&teal_integrator_rk45, 1e-8, 1.0}, {&teal_integrator_rk45, 1e-8, 0.8},
    {&teal_integrator_rk45, 0.0, 0.8},  {&teal_integrator_rk4, 0.0, 0.8},
};

START_TEST(test_bouncing_ball_impact_times) {
  const bounce_case *c = &bounce_cases[_i];
  const double g = 9.81, z0 = 1.0;
  ball_params bp = {g, c->e};
  g_nimpacts = 0;
  g_min_height = INFINITY;
  teal_system *s = ball_new("ball", &bp, z0);
  teal_simulator *sim = new_sim(s);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, *c->type), TEAL_OK);
  if (c->accuracy > 0) {
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, c->accuracy), TEAL_OK);
  }
  ck_assert_int_eq(teal_simulator_set_monitor(sim, min_height_monitor, NULL), TEAL_OK);
  /* analytic impacts: t1 = sqrt(2 z0 / g), then flights of 2 e^k t1 */
  double expect[8], t1 = sqrt(2.0 * z0 / g), t = t1;
  for (int k = 0; k < 8; k++) {
    expect[k] = t;
    t += 2.0 * pow(c->e, k + 1) * t1;
  }
  const int bounces = 6;
  double t_end = 0.5 * (expect[bounces - 1] + expect[bounces]);
  advance_ok(sim, t_end);
  ck_assert_int_eq(g_nimpacts, bounces);
  double worst = 0.0;
  for (int k = 0; k < bounces; k++) {
    worst = fmax(worst, fabs(g_impacts[k] - expect[k]));
  }
  teal_sim_stats st = teal_simulator_get_stats(sim);
  if (ts_verbose()) {
    ts_report("bouncing ball %s accuracy %g e = %.1f: %d impacts, worst time error %.3g s, lowest "
              "height %.3g, %ld steps, %ld witness trials\n", (*c->type)->name, c->accuracy, c->e,
              bounces, worst, g_min_height, st.steps, st.witness_trials);
  }
  ck_assert_msg(worst < 1e-6, "impact time error %.3g", worst);
  ck_assert_int_eq(st.unrestricted_updates, bounces);
  ck_assert_int_gt(st.witness_trials, 0);
  /* the ball never sinks noticeably into the floor */
  ck_assert_msg(g_min_height > -1e-6, "lowest height %.3g", g_min_height);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* A tighter witness tolerance gives closer impact times. */
START_TEST(test_witness_tolerance_setting) {
  const double g = 9.81;
  double errs[2];
  const double tols[2] = {1e-3, 1e-9};
  for (int i = 0; i < 2; i++) {
    ball_params bp = {g, 1.0};
    g_nimpacts = 0;
    teal_system *s = ball_new("ball", &bp, 1.0);
    teal_simulator *sim = new_sim(s);
    ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk45), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, 1e-10), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_witness_tolerance(sim, tols[i]), TEAL_OK);
    advance_ok(sim, 0.6);
    ck_assert_int_eq(g_nimpacts, 1);
    errs[i] = g_impacts[0] - sqrt(2.0 / g);
    teal_simulator_free(sim);
    teal_system_free(s);
  }
  /* the crossing is bracketed: the step ends at or just after it */
  ck_assert(errs[0] >= -1e-12 && errs[0] <= 1e-3 + 1e-9);
  ck_assert(errs[1] >= -1e-12 && errs[1] <= 1e-8);
  ck_assert(errs[1] < errs[0]);
}
END_TEST

/* ============================================================================
 * Error control and statistics
 * ========================================================================== */

typedef struct osc_run {
  double err;
  teal_sim_stats stats;
  teal_integrator_counts counts;
  long leaf_calls;
} osc_run;

static osc_run run_osc(const teal_integrator_type *type, double accuracy, double t_end) {
  osc_run r;
  teal_system *s = osc_new("osc");
  teal_simulator *sim = new_sim(s);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, type), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_accuracy(sim, accuracy), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_max_step(sim, 1.0), TEAL_OK);
  g_osc_calls = 0;
  advance_ok(sim, t_end);
  const teal_context *ctx = teal_simulator_context(sim);
  r.err = fmax(fabs(teal_context_q(ctx)[0] - cos(t_end)),
               fabs(teal_context_v(ctx)[0] + sin(t_end)));
  r.stats = teal_simulator_get_stats(sim);
  r.counts = teal_integrator_get_counts(teal_simulator_integrator(sim));
  r.leaf_calls = g_osc_calls;
  teal_simulator_free(sim);
  teal_system_free(s);
  return r;
}

START_TEST(test_error_control_accuracy_and_stats) {
  const teal_integrator_type *types[] = {teal_integrator_rk3, teal_integrator_rk45};
  const long stages[] = {4, 7};
  for (int i = 0; i < 2; i++) {
    osc_run loose = run_osc(types[i], 1e-4, 10.0);
    osc_run tight = run_osc(types[i], 1e-8, 10.0);
    if (ts_verbose()) {
      ts_report("error control %s: accuracy 1e-4 -> error %.3g in %ld steps (%ld rejected, h "
                "in [%.3g, %.3g]); 1e-8 -> error %.3g in %ld steps (%ld rejected, h in "
                "[%.3g, %.3g])\n",
                types[i]->name, loose.err, loose.stats.steps, loose.stats.failed_steps,
                loose.stats.smallest_step, loose.stats.largest_step, tight.err, tight.stats.steps,
                tight.stats.failed_steps, tight.stats.smallest_step, tight.stats.largest_step);
    }
    ck_assert_msg(tight.err < 0.01 * loose.err, "%s: error %.3g at 1e-8 vs %.3g at 1e-4",
                  types[i]->name, tight.err, loose.err);
    ck_assert_msg(loose.err < 1e-2 && tight.err < 1e-5, "%s: errors %.3g, %.3g",
                  types[i]->name, loose.err, tight.err);
    ck_assert_int_gt(tight.stats.steps, loose.stats.steps);
    const osc_run *runs[2] = {&loose, &tight};
    for (int j = 0; j < 2; j++) {
      const osc_run *r = runs[j];
      ck_assert_int_gt(r->stats.steps, 0);
      ck_assert(r->stats.smallest_step > 0);
      ck_assert(r->stats.smallest_step <= r->stats.largest_step);
      ck_assert(r->stats.largest_step <= 1.0 * 1.01); /* max step */
      ck_assert_int_eq(r->stats.derivative_evals, r->counts.derivative_evals);
      ck_assert_int_eq(r->stats.derivative_evals, r->leaf_calls);
      /* every attempt, accepted or rejected, costs one step's stages */
      ck_assert_int_eq(r->stats.derivative_evals,
                       stages[i] * (r->stats.steps + r->stats.failed_steps));
      ck_assert_int_eq(r->counts.steps, r->stats.steps + r->stats.failed_steps);
      ck_assert_int_eq(r->stats.witness_trials, 0);
      /* covers [0, 10] */
      ck_assert(r->stats.steps * r->stats.largest_step >= 10.0);
    }
  }
}
END_TEST

/* Statistics restart with initialize; derivative_evals only counts since. */
START_TEST(test_stats_reset_by_initialize) {
  teal_system *s = osc_new("osc");
  teal_simulator *sim = new_sim(s);
  advance_ok(sim, 1.0);
  teal_sim_stats first = teal_simulator_get_stats(sim);
  ck_assert_int_gt(first.derivative_evals, 0);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_initialize(sim, &st), TEAL_OK);
  teal_sim_stats zero = teal_simulator_get_stats(sim);
  ck_assert_int_eq(zero.steps, 0);
  ck_assert_int_eq(zero.derivative_evals, 0);
  g_osc_calls = 0;
  advance_ok(sim, 2.0);
  teal_sim_stats second = teal_simulator_get_stats(sim);
  ck_assert_int_gt(second.steps, 0);
  ck_assert_int_eq(second.derivative_evals, g_osc_calls);
  ck_assert_int_eq(teal_integrator_get_counts(teal_simulator_integrator(sim)).derivative_evals,
                   first.derivative_evals + second.derivative_evals);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* Fixed steps: exactly the requested size, for methods with and without an
 * error estimate. */
START_TEST(test_fixed_step_size) {
  const teal_integrator_type *types[] = {teal_integrator_rk3, teal_integrator_rk4,
                                         teal_integrator_explicit_euler};
  for (int i = 0; i < 3; i++) {
    teal_system *s = osc_new("osc");
    teal_simulator *sim = new_sim(s);
    ck_assert_int_eq(teal_simulator_set_integrator(sim, types[i]), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 0.05), TEAL_OK);
    advance_ok(sim, 1.0);
    teal_sim_stats st = teal_simulator_get_stats(sim);
    ck_assert_int_eq(st.steps, 20);
    ck_assert_int_eq(st.failed_steps, 0);
    ck_assert_double_eq_tol(st.smallest_step, 0.05, 1e-12);
    ck_assert_double_eq_tol(st.largest_step, 0.05, 1e-12);
    teal_simulator_free(sim);
    teal_system_free(s);
  }
}
END_TEST

/* A fixed step larger than the default max step (0.1) is still taken as
 * asked: set_fixed_step promises "fixed steps of size h". */
/* Fixed steps keep the state and its time consistent: each step's length is
 * the difference of its representable end times, so 2e5 steps of 1 ms do not
 * leave the state off the clock by the rounding of t += h (integrating with
 * h itself put it 1.2e-9 away from uniform steps here). The reference is the
 * same RK4 stepped directly with uniform h to n h. */
static int oscillator_rhs(double t, const double *x, double *xdot, void *user) {
  (void)t;
  const double *a = user;
  xdot[0] = a[0] * x[0] + a[1] * x[1];
  xdot[1] = a[2] * x[0] + a[3] * x[1];
  return TEAL_OK;
}

START_TEST(test_fixed_steps_keep_state_on_the_clock) {
  static const double A[4] = {0.0, 1.0, -4.0, 0.0};
  const double h = 1e-3, x0[2] = {1.0, 0.0};
  const long steps = 200000;
  teal_system *s = teal_linear_system_new("osc", A, NULL, NULL, NULL, 2, 0, 0, 0.0, NULL);
  ck_assert_ptr_nonnull(s);
  teal_simulator *sim = new_sim(s);
  teal_context *ctx = teal_simulator_context(sim);
  memcpy(teal_context_continuous_state_mut(ctx), x0, sizeof x0);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk4), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, h), TEAL_OK);
  advance_ok(sim, (double)steps * h);
  ck_assert_int_eq(teal_simulator_get_stats(sim).steps, steps);

  teal_integrator *integ = teal_integrator_new(teal_integrator_rk4, 0, 0, 2, NULL);
  ck_assert_ptr_nonnull(integ);
  teal_ode ode = {0, 0, 2, oscillator_rhs, NULL, NULL, (void *)A};
  double x[2] = {x0[0], x0[1]}, x1[2];
  for (long n = 0; n < steps; n++) {
    ck_assert_int_eq(teal_integrator_step(integ, &ode, (double)n * h, h, x, x1, NULL), TEAL_OK);
    memcpy(x, x1, sizeof x);
  }
  const double *xs = teal_context_continuous_state(ctx);
  double diff = fmax(fabs(xs[0] - x[0]), fabs(xs[1] - x[1]));
  ck_assert_msg(diff < 1e-12, "simulator and uniform steps differ by %.3g at t = %g", diff,
                teal_context_time(ctx));
  double t = (double)steps * h, exact_q = cos(2.0 * t), exact_v = -2.0 * sin(2.0 * t);
  ck_assert_double_eq_tol(xs[0], exact_q, 1e-9);
  ck_assert_double_eq_tol(xs[1], exact_v, 2e-9);
  teal_integrator_free(integ);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

START_TEST(test_fixed_step_larger_than_default_max_step) {
  teal_system *s = osc_new("osc");
  teal_simulator *sim = new_sim(s);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk4), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 0.25), TEAL_OK);
  advance_ok(sim, 1.0);
  teal_sim_stats st = teal_simulator_get_stats(sim);
  ck_assert_msg(st.steps == 4 && st.largest_step == 0.25,
                "set_fixed_step(0.25) ran %ld steps of at most %g", st.steps, st.largest_step);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* ============================================================================
 * Stiffness: Robertson's chemical kinetics
 * ========================================================================== */

static teal_sim_stats run_robertson(const teal_integrator_type *type, double accuracy,
                                    double t_end, double *y, long *calls) {
  teal_system *s = ts_robertson_new(calls);
  ck_assert_ptr_nonnull(s);
  teal_simulator *sim = new_sim(s);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, type), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_accuracy(sim, accuracy), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_max_step(sim, t_end), TEAL_OK);
  advance_ok(sim, t_end);
  memcpy(y, teal_context_z(teal_simulator_context(sim)), 3 * sizeof(double));
  teal_sim_stats st = teal_simulator_get_stats(sim);
  teal_simulator_free(sim);
  teal_system_free(s);
  return st;
}

/* Robertson's problem to t = 400 at accuracy 1e-6 (y2 ~ 1e-5 is measured
 * against the error floor 1, so looser accuracies let RK45 drive y2
 * negative and blow up: at 1e-4 it fails with a collapsing step near
 * t = 0.013). Measured: implicit Euler about 1.3e3 steps, RK45 about 5.8e5,
 * a ratio of about 440. */
START_TEST(test_stiff_robertson) {
  /* reference solution at t = 400 (Hairer & Wanner) */
  const double ref[3] = {0.4505186867, 3.222901890e-6, 0.5494780910};
  double y_ie[3], y_rk[3];
  long ie_calls = 0;
  teal_sim_stats ie = run_robertson(teal_integrator_implicit_euler, 1e-6, 400.0, y_ie, &ie_calls);
  teal_sim_stats rk = run_robertson(teal_integrator_rk45, 1e-6, 400.0, y_rk, NULL);
  double ratio = (double)rk.steps / (double)ie.steps;
  if (ts_verbose()) {
    ts_report("Robertson to t = 400 at accuracy 1e-6: implicit Euler %ld steps (%ld rejected, %ld "
              "derivative evals), y = (%.7f, %.5g, %.7f); rk45 %ld steps (%ld rejected), "
              "y = (%.7f, %.5g, %.7f); step ratio %.0f\n", ie.steps, ie.failed_steps, ie_calls,
              y_ie[0], y_ie[1], y_ie[2], rk.steps, rk.failed_steps, y_rk[0], y_rk[1], y_rk[2],
              ratio);
  }
  ck_assert_double_eq_tol(y_ie[0], ref[0], 2e-3);
  ck_assert_double_eq_tol(y_ie[1], ref[1], 2e-7);
  ck_assert_double_eq_tol(y_ie[2], ref[2], 2e-3);
  ck_assert_double_eq_tol(y_ie[0] + y_ie[1] + y_ie[2], 1.0, 1e-9); /* mass is conserved */
  ck_assert_double_eq_tol(y_rk[0] + y_rk[1] + y_rk[2], 1.0, 1e-9);
  ck_assert_msg(ratio > 100.0, "rk45 needed only %.1f times the steps of implicit Euler",
                ratio);
}
END_TEST

/* ============================================================================
 * Failures
 * ========================================================================== */

START_TEST(test_nan_derivative_stops_run) {
  static const struct {
    const teal_integrator_type *const *type;
    double fixed;
  } cases[] = {{&teal_integrator_rk3, 0.0},
               {&teal_integrator_explicit_euler, 0.1},
               {&teal_integrator_implicit_euler, 0.0}};
  for (int i = 0; i < 3; i++) {
    decay_params p = decay_defaults();
    p.nan_after = 0.5;
    teal_system *s = decay_new("decay", &p, 1.0);
    teal_simulator *sim = new_sim(s);
    ck_assert_int_eq(teal_simulator_set_integrator(sim, *cases[i].type), TEAL_OK);
    double h = 0.1; /* default max step */
    if (cases[i].fixed > 0) {
      ck_assert_int_eq(teal_simulator_set_fixed_step(sim, cases[i].fixed), TEAL_OK);
      h = cases[i].fixed;
    }
    teal_sim_status st;
    int rc = teal_simulator_advance_to(sim, 1.0, &st);
    const teal_context *ctx = teal_simulator_context(sim);
    if (ts_verbose()) {
      ts_report("NaN derivative (%s): rc %d at t = %.6f: %s\n", (*cases[i].type)->name, rc, st.time,
                st.message);
    }
    ck_assert_int_eq(rc, TEAL_ENONFINITE);
    ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
    ck_assert_int_eq(st.code, TEAL_ENONFINITE);
    ck_assert_str_ne(st.message, "");
    /* the message names the offending derivative */
    ck_assert_msg(contains(st.message, "derivative"), "message: %s", st.message);
    ck_assert(st.time <= 0.5 + h + 1e-12);
    ck_assert(st.time > 0.3);
    /* the context holds the last accepted state and time */
    ck_assert_double_eq(teal_context_time(ctx), st.time);
    double z = teal_context_z(ctx)[0];
    ck_assert(isfinite(z));
    ck_assert_double_eq_tol(z, exp(-st.time), 0.02);
    teal_simulator_free(sim);
    teal_system_free(s);
  }
}
END_TEST

/* Finite derivatives whose step overflows the state: z' = -z + c with
 * z = -1.7e308 and c = -1.75e308 gives z' = -5e306, and one explicit Euler
 * step of 100 lands on -inf. */
START_TEST(test_state_overflow_reported) {
  decay_params p = decay_defaults();
  p.constant = -1.75e308;
  teal_system *s = decay_new("decay", &p, -1.7e308);
  teal_simulator *sim = new_sim(s);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_explicit_euler), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_max_step(sim, 100.0), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 100.0), TEAL_OK);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 100.0, &st);
  ck_assert_int_eq(rc, TEAL_ENONFINITE);
  ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
  ck_assert_msg(contains(st.message, "non-finite"), "message: %s", st.message);
  ck_assert_double_eq(st.time, 0.0);
  ck_assert_double_eq(teal_context_time(teal_simulator_context(sim)), 0.0);
  ck_assert_double_eq(teal_context_z(teal_simulator_context(sim))[0], -1.7e308);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

START_TEST(test_step_size_failure_min_step) {
  teal_system *s = osc_new("osc");
  teal_simulator *sim = new_sim(s);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk3), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_accuracy(sim, 1e-13), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_min_step(sim, 1e-3), TEAL_OK);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1.0, &st);
  if (ts_verbose()) {
    ts_report("min step failure: rc %d at t = %g: %s\n", rc, st.time, st.message);
  }
  ck_assert_int_eq(rc, TEAL_ESTEPSIZE);
  ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
  ck_assert_int_eq(st.code, TEAL_ESTEPSIZE);
  ck_assert_msg(contains(st.message, "minimum"), "message: %s", st.message);
  ck_assert(st.time < 1.0);
  ck_assert_double_eq(teal_context_time(teal_simulator_context(sim)), st.time);
  ck_assert_int_gt(teal_simulator_get_stats(sim).failed_steps, 0);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* A derivative that jumps by 1e15 at t = 0.5: no step across the jump can
 * meet the accuracy, so the step size collapses and the run fails (it must
 * not hang). */
START_TEST(test_step_size_failure_discontinuity) {
  const teal_integrator_type *types[] = {teal_integrator_rk3, teal_integrator_rk45,
                                         teal_integrator_rk2};
  for (int i = 0; i < 3; i++) {
    decay_params p = decay_defaults();
    p.jump_at = 0.5;
    p.jump_size = 1e15;
    teal_system *s = decay_new("decay", &p, 0.0);
    teal_simulator *sim = new_sim(s);
    ck_assert_int_eq(teal_simulator_set_integrator(sim, types[i]), TEAL_OK);
    teal_sim_status st;
    int rc = teal_simulator_advance_to(sim, 1.0, &st);
    if (ts_verbose()) {
      ts_report("discontinuity (%s): rc %d at t = %.17g after %ld steps, %ld rejected: %s\n",
                types[i]->name, rc, st.time, teal_simulator_get_stats(sim).steps,
                teal_simulator_get_stats(sim).failed_steps, st.message);
    }
    ck_assert_int_eq(rc, TEAL_ESTEPSIZE);
    ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
    ck_assert(st.time <= 0.5 && st.time > 0.4);
    teal_simulator_free(sim);
    teal_system_free(s);
  }
}
END_TEST

/* ---- monitors and stopping handlers --------------------------------------- */

typedef struct monitor_state {
  double stop_after;
  int code;         /* returned once t >= stop_after */
  int report;       /* attach a message */
  double seen_time; /* time of the stopping call */
  long calls;
} monitor_state;

static int test_monitor(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  monitor_state *m = user;
  m->calls++;
  double t = teal_context_time(ctx);
  if (t >= m->stop_after) {
    m->seen_time = t;
    if (m->report) {
      return teal_context_report_error(ctx, m->code, "monitor refuses t = %g", t);
    }
    return m->code;
  }
  return TEAL_OK;
}

START_TEST(test_monitor_stop_terminates) {
  teal_system *s = osc_new("osc");
  teal_simulator *sim = new_sim(s);
  monitor_state m = {0.3, TEAL_STOP, 0, NAN, 0};
  ck_assert_int_eq(teal_simulator_set_monitor(sim, test_monitor, &m), TEAL_OK);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1.0, &st);
  ck_assert_int_eq(rc, TEAL_OK);
  ck_assert_int_eq(st.outcome, TEAL_SIM_TERMINATED);
  ck_assert_int_eq(st.code, TEAL_OK);
  ck_assert_double_eq(st.time, m.seen_time);
  ck_assert(st.time >= 0.3 && st.time < 0.45);
  ck_assert_double_eq(teal_context_time(teal_simulator_context(sim)), st.time);
  ck_assert_str_ne(st.message, "");
  /* once at initialize (as Drake does), then once per step */
  ck_assert_int_eq(m.calls, teal_simulator_get_stats(sim).steps + 1);
  /* clearing the monitor lets the run continue to the end */
  ck_assert_int_eq(teal_simulator_set_monitor(sim, NULL, NULL), TEAL_OK);
  advance_ok(sim, 1.0);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

START_TEST(test_monitor_error_fails) {
  for (int report = 0; report < 2; report++) {
    teal_system *s = osc_new("osc");
    teal_simulator *sim = new_sim(s);
    monitor_state m = {0.3, TEAL_EUNSUPPORTED, report, NAN, 0};
    ck_assert_int_eq(teal_simulator_set_monitor(sim, test_monitor, &m), TEAL_OK);
    teal_sim_status st;
    int rc = teal_simulator_advance_to(sim, 1.0, &st);
    ck_assert_int_eq(rc, TEAL_EUNSUPPORTED);
    ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
    ck_assert_int_eq(st.code, TEAL_EUNSUPPORTED);
    ck_assert_double_eq(st.time, m.seen_time);
    ck_assert_str_ne(st.message, "");
    if (report) {
      ck_assert_msg(contains(st.message, "monitor refuses"), "message: %s", st.message);
    }
    teal_simulator_free(sim);
    teal_system_free(s);
  }
}
END_TEST

static int stop_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  int *calls = user;
  ++*calls;
  return teal_context_time(ctx) >= 0.5 ? TEAL_STOP : TEAL_OK;
}

START_TEST(test_publish_stop_terminates) {
  int calls = 0;
  teal_system *s = teal_leaf_new("osc", NULL, NULL);
  double x0[2] = {1.0, 0.0};
  teal_leaf_declare_continuous_state(s, 1, 1, 0, x0);
  teal_leaf_set_time_derivatives(s, osc_derivs, NULL);
  teal_leaf_declare_periodic_publish(s, 0.25, 0.0, stop_publish, &calls);
  finalized(s);
  teal_simulator *sim = new_sim(s);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 2.0, &st);
  ck_assert_int_eq(rc, TEAL_OK);
  ck_assert_int_eq(st.outcome, TEAL_SIM_TERMINATED);
  ck_assert_double_eq(st.time, 0.5);
  ck_assert_int_eq(calls, 3); /* 0, 0.25, 0.5 */
  /* the run can be resumed */
  teal_sim_status st2;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.6, &st2), TEAL_OK);
  ck_assert_int_eq(st2.outcome, TEAL_SIM_REACHED_END);
  ck_assert_double_eq(st2.time, 0.6);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* An update handler returning TEAL_STOP: the update is applied and the run
 * ends at the update's time, without integrating past it (Drake: "if any
 * of the unrestricted or discrete update events reported reached
 * termination at the step start time, we're done with this step and the
 * simulation and should not advance time further"). */
static int stop_discrete(const teal_system *sys, const teal_context *ctx, double *xd_next,
                         void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  xd_next[0] += 1.0;
  return TEAL_STOP;
}

static int stop_unrestricted(const teal_system *sys, const teal_context *ctx,
                             teal_state_view *next, void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  next->xd[0] += 1.0;
  return TEAL_STOP;
}

START_TEST(test_update_stop_terminates_at_event_time) {
  for (int unrestricted = 0; unrestricted < 2; unrestricted++) {
    teal_system *s = teal_leaf_new("stopper", NULL, NULL);
    teal_leaf_declare_continuous_state(s, 0, 0, 1, NULL);
    teal_leaf_set_time_derivatives(s, ev_derivs, NULL); /* z' = 1 */
    teal_leaf_declare_discrete_state(s, 1, NULL);
    if (unrestricted) {
      teal_leaf_declare_periodic_unrestricted_update(s, 0.5, 0.5, stop_unrestricted, NULL);
    } else {
      teal_leaf_declare_periodic_discrete_update(s, 0.5, 0.5, stop_discrete, NULL);
    }
    finalized(s);
    teal_simulator *sim = new_sim(s);
    teal_sim_status st;
    int rc = teal_simulator_advance_to(sim, 2.0, &st);
    const teal_context *ctx = teal_simulator_context(sim);
    ck_assert_int_eq(rc, TEAL_OK);
    ck_assert_int_eq(st.outcome, TEAL_SIM_TERMINATED);
    ck_assert_double_eq(teal_context_discrete_group(ctx, 0)[0], 1.0); /* applied once */
    ck_assert_msg(st.time == 0.5 && teal_context_time(ctx) == 0.5,
                  "%s update asked to stop at t = 0.5 but the run went on to t = %.17g",
                  unrestricted ? "an unrestricted" : "a discrete", st.time);
    ck_assert_double_eq_tol(teal_context_z(ctx)[0], 0.5, 1e-12);
    teal_simulator_free(sim);
    teal_system_free(s);
  }
}
END_TEST

/* A failing publish handler fails the run with the framework's message. */
static int failing_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)user;
  return teal_context_time(ctx) > 0.2 ? TEAL_EUNSUPPORTED : TEAL_OK;
}

START_TEST(test_publish_error_fails) {
  teal_system *s = teal_leaf_new("pub", NULL, NULL);
  teal_leaf_declare_discrete_state(s, 1, NULL);
  teal_leaf_declare_periodic_publish(s, 0.25, 0.0, failing_publish, NULL);
  finalized(s);
  teal_simulator *sim = new_sim(s);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1.0, &st);
  ck_assert_int_eq(rc, TEAL_EUNSUPPORTED);
  ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
  ck_assert_double_eq(st.time, 0.25);
  ck_assert_msg(contains(st.message, "pub"), "message: %s", st.message);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* ============================================================================
 * Publish every step, realtime pacing
 * ========================================================================== */

static long g_forced;
static double g_forced_last_t;
static int g_forced_monotone;

static int forced_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)user;
  double t = teal_context_time(ctx);
  if (g_forced > 0 && !(t > g_forced_last_t)) {
    g_forced_monotone = 0;
  }
  g_forced_last_t = t;
  g_forced++;
  return TEAL_OK;
}

static teal_system *osc_with_forced_new(void) {
  teal_system *s = teal_leaf_new("osc", NULL, NULL);
  double x0[2] = {1.0, 0.0};
  teal_leaf_declare_continuous_state(s, 1, 1, 0, x0);
  teal_leaf_set_time_derivatives(s, osc_derivs, NULL);
  teal_leaf_declare_forced_publish(s, forced_publish, NULL);
  return finalized(s);
}

START_TEST(test_publish_every_step) {
  g_forced = 0;
  g_forced_monotone = 1;
  teal_system *s = osc_with_forced_new();
  teal_simulator *sim = new_sim(s);
  advance_ok(sim, 0.5);
  ck_assert_int_eq(g_forced, 0); /* off by default */
  ck_assert_int_eq(teal_simulator_set_publish_every_step(sim, 1), TEAL_OK);
  ck_assert_int_eq(teal_simulator_initialize(sim, NULL), TEAL_OK);
  ck_assert_int_eq(g_forced, 1); /* at initialization */
  advance_ok(sim, 1.5);
  teal_sim_stats st = teal_simulator_get_stats(sim);
  ck_assert_int_gt(st.steps, 5);
  ck_assert_int_eq(g_forced, st.steps + 1); /* once per step */
  ck_assert(g_forced_monotone);
  ck_assert_double_eq(g_forced_last_t, 1.5);
  ck_assert_int_eq(teal_simulator_set_publish_every_step(sim, 0), TEAL_OK);
  long before = g_forced;
  advance_ok(sim, 2.0);
  ck_assert_int_eq(g_forced, before);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

START_TEST(test_target_realtime_rate) {
  teal_system *s = osc_new("osc");
  teal_simulator *sim = new_sim(s);
  ck_assert_int_eq(teal_simulator_set_target_realtime_rate(sim, 1.0), TEAL_OK);
  double t0 = wall_now();
  advance_ok(sim, 0.2);
  double paced = wall_now() - t0;
  /* at rate 2, 0.2 s of simulated time takes at least 0.1 s */
  ck_assert_int_eq(teal_simulator_set_target_realtime_rate(sim, 2.0), TEAL_OK);
  ck_assert_int_eq(teal_simulator_initialize(sim, NULL), TEAL_OK);
  t0 = wall_now();
  advance_ok(sim, 0.4);
  double fast = wall_now() - t0;
  if (ts_verbose()) {
    ts_report("realtime: 0.2 s at rate 1 took %.3f s; 0.2 s at rate 2 took %.3f s\n", paced, fast);
  }
  ck_assert_msg(paced >= 0.18, "0.2 s at rate 1.0 took %.3f s of wall time", paced);
  ck_assert_msg(fast >= 0.09, "0.2 s at rate 2.0 took %.3f s of wall time", fast);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

/* ============================================================================
 * Options and construction
 * ========================================================================== */

START_TEST(test_bad_options) {
  teal_system *s = osc_new("osc");
  teal_simulator *sim = new_sim(s);
  double accuracy_before = teal_context_accuracy(teal_simulator_context(sim));
  const double bad[] = {0.0, -1.0, NAN, INFINITY};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, bad[i]), TEAL_EINVAL);
    ck_assert_int_eq(teal_simulator_set_fixed_step(sim, bad[i]), TEAL_EINVAL);
    ck_assert_int_eq(teal_simulator_set_max_step(sim, bad[i]), TEAL_EINVAL);
    ck_assert_int_eq(teal_simulator_set_min_step(sim, bad[i]), TEAL_EINVAL);
    ck_assert_int_eq(teal_simulator_set_error_floor(sim, bad[i]), TEAL_EINVAL);
    ck_assert_int_eq(teal_simulator_set_witness_tolerance(sim, bad[i]), TEAL_EINVAL);
  }
  ck_assert_int_eq(teal_simulator_set_target_realtime_rate(sim, -1.0), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_set_target_realtime_rate(sim, NAN), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_set_target_realtime_rate(sim, INFINITY), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_set_target_realtime_rate(sim, 0.0), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, NULL), TEAL_EINVAL);
  /* the rejected values changed nothing: defaults still run (rk3, 1e-4) */
  ck_assert_double_eq(teal_context_accuracy(teal_simulator_context(sim)), accuracy_before);
  advance_ok(sim, 1.0);
  ck_assert(fabs(teal_context_q(teal_simulator_context(sim))[0] - cos(1.0)) < 1e-3);

  /* NULL simulator */
  ck_assert_int_eq(teal_simulator_set_accuracy(NULL, 1e-3), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_set_monitor(NULL, NULL, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_set_publish_every_step(NULL, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_advance_to(NULL, 1.0, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_simulator_initialize(NULL, NULL), TEAL_EINVAL);
  ck_assert_ptr_null(teal_simulator_context(NULL));

  /* end time before the current time, or not finite */
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.5, &st), TEAL_EINVAL);
  ck_assert_int_eq(st.outcome, TEAL_SIM_FAILED);
  ck_assert_int_eq(st.code, TEAL_EINVAL);
  ck_assert_msg(contains(st.message, "before the current time"), "message: %s", st.message);
  ck_assert_double_eq(st.time, 1.0);
  ck_assert_int_eq(teal_simulator_advance_to(sim, NAN, &st), TEAL_EINVAL);
  ck_assert_str_ne(st.message, "");
  ck_assert_int_eq(teal_simulator_advance_to(sim, INFINITY, &st), TEAL_EINVAL);
  ck_assert_double_eq(teal_context_time(teal_simulator_context(sim)), 1.0);
  /* and the simulator still works */
  advance_ok(sim, 1.5);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

START_TEST(test_borrowed_context) {
  teal_system *s = osc_new("osc");
  teal_system *other = osc_new("other");
  teal_error err;

  /* a context of another system is rejected */
  teal_context *foreign = teal_context_new(other, NULL);
  ck_assert_ptr_nonnull(foreign);
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_simulator_new(s, foreign, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_msg(contains(err.message, "context"), "message: %s", err.message);
  teal_context_free(foreign);

  /* so is a subcontext, even of the right system */
  teal_builder *b = teal_builder_new("wrap");
  teal_builder_add(b, osc_new("inner"));
  teal_system *d = built(b);
  teal_context *dctx = teal_context_new(d, NULL);
  teal_context *sub = teal_context_subcontext_by_name_mut(dctx, "inner");
  ck_assert_ptr_nonnull(sub);
  teal_error_clear(&err);
  ck_assert_ptr_null(
      teal_simulator_new(teal_diagram_find_subsystem(d, "inner"), sub, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  teal_context_free(dctx);
  teal_system_free(d);

  /* NULL system */
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_simulator_new(NULL, NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);

  /* a borrowed root context of the system is advanced in place and
   * outlives the simulator */
  teal_context *mine = teal_context_new(s, NULL);
  ck_assert_ptr_nonnull(mine);
  teal_context_q_mut(mine)[0] = 0.0;
  teal_context_v_mut(mine)[0] = 1.0; /* q = sin t */
  teal_simulator *sim = teal_simulator_new(s, mine, &err);
  ck_assert_ptr_nonnull(sim);
  ck_assert_ptr_eq(teal_simulator_context(sim), mine);
  ck_assert_ptr_eq(teal_simulator_system(sim), s);
  advance_ok(sim, 1.0);
  teal_simulator_free(sim);
  ck_assert_double_eq(teal_context_time(mine), 1.0);
  ck_assert_double_eq_tol(teal_context_q(mine)[0], sin(1.0), 1e-3);
  teal_context_free(mine);
  teal_system_free(s);
  teal_system_free(other);
}
END_TEST

/* Choosing another integrator after a run re-initializes. */
START_TEST(test_set_integrator_reinitializes) {
  log_reset();
  teal_system *d = event_diagram_new();
  teal_simulator *sim = event_sim_new(d);
  advance_ok(sim, 0.25);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk45), TEAL_OK);
  ck_assert_ptr_eq(teal_integrator_get_type(teal_simulator_integrator(sim)),
                   teal_integrator_rk45);
  log_reset();
  advance_ok(sim, 0.375);
  /* initialization events run again at the current time */
  ck_assert_msg(!strncmp(g_text, "A.iu@0.25 B.iu@0.25", 19), "log: %s", g_text);
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

/* ============================================================================
 * No allocation in advance_to
 * ========================================================================== */

static long g_logger_calls;

static int logger_publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc == TEAL_OK && isfinite(u[0])) {
    g_logger_calls++;
  }
  return rc;
}

static int quiet_monitor(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  return TEAL_OK;
}

/* ball (witness, unrestricted update), plant + zoh (periodic discrete),
 * logger (per-step and periodic publishes of the ball's height, forced
 * publish). */
static teal_system *busy_diagram_new(ball_params *bp, zoh_params *zp) {
  teal_builder *b = teal_builder_new("busy");
  teal_builder_add(b, ball_new("ball", bp, 1.0));
  teal_builder_add(b, plant_new("plant", 1.0));
  teal_builder_add(b, zoh_new("zoh", zp, 0.1));
  teal_system *lg = teal_leaf_new("logger", NULL, NULL);
  teal_leaf_declare_vector_input(lg, "u", 1);
  teal_leaf_declare_per_step_publish(lg, logger_publish, NULL);
  teal_leaf_declare_periodic_publish(lg, 0.05, 0.0, logger_publish, NULL);
  teal_leaf_declare_forced_publish(lg, logger_publish, NULL);
  teal_builder_add(b, finalized(lg));
  wire(b, "plant", "y", "zoh", "x");
  wire(b, "zoh", "u", "plant", "u");
  wire(b, "ball", "height", "logger", "u");
  return built(b);
}

typedef struct alloc_case {
  const teal_integrator_type *const *type;
  double fixed_step; /* 0: error control */
} alloc_case;

static const alloc_case alloc_cases[] = {
    {&teal_integrator_explicit_euler, 0.01}, {&teal_integrator_semi_explicit_euler, 0.01},
    {&teal_integrator_rk2, 0.0},             {&teal_integrator_rk3, 0.0},
    {&teal_integrator_rk4, 0.02},            {&teal_integrator_rk45, 0.0},
    {&teal_integrator_implicit_euler, 0.0},  {&teal_integrator_implicit_euler, 0.01},
};

START_TEST(test_no_allocation_in_advance_to) {
  const alloc_case *c = &alloc_cases[_i];
  ball_params bp = {9.81, 0.9};
  zoh_params zp = {2.0};
  g_nimpacts = 0;
  teal_system *d = busy_diagram_new(&bp, &zp);
  teal_simulator *sim = new_sim(d);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, *c->type), TEAL_OK);
  if (c->fixed_step > 0) {
    ck_assert_int_eq(teal_simulator_set_fixed_step(sim, c->fixed_step), TEAL_OK);
  } else {
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, 1e-6), TEAL_OK);
  }
  ck_assert_int_eq(teal_simulator_set_publish_every_step(sim, 1), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_monitor(sim, quiet_monitor, NULL), TEAL_OK);
  advance_ok(sim, 0.3); /* initialized and warmed up, before the first impact */
  teal_sim_stats before = teal_simulator_get_stats(sim);
  long logged = g_logger_calls;

  unsigned long count0 = teal_alloc_count();
  ts_alloc_install();
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1.5, &st);
  unsigned long allocs = ts_alloc_allocs(), calls = ts_alloc_stats_get()->calls;
  ts_alloc_uninstall();
  unsigned long counted = teal_alloc_count() - count0;

  ck_assert_msg(rc == TEAL_OK, "%s: %s", (*c->type)->name, st.message);
  ck_assert_msg(allocs == 0 && calls == 0 && counted == 0,
                "%s: %lu allocations during advance_to", (*c->type)->name, calls);
  /* the window really exercised every kind of event */
  teal_sim_stats after = teal_simulator_get_stats(sim);
  ck_assert_int_gt(after.steps, before.steps);
  ck_assert_int_ge(after.unrestricted_updates - before.unrestricted_updates, 1); /* impact */
  ck_assert_int_gt(after.witness_trials, before.witness_trials);
  ck_assert_int_ge(after.discrete_updates - before.discrete_updates, 11);
  ck_assert_int_gt(after.publishes, before.publishes);
  ck_assert_int_gt(g_logger_calls, logged);
  ck_assert_int_ge(g_nimpacts, 1);
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

/* ============================================================================ */

/* x' = A x through a custom leaf (no Jacobian hook). */
static const double stiff_a[4] = {-500.0, 1.0, 0.0, -2.0};

static int stiff_derivs(const teal_system *sys, const teal_context *ctx,
                        teal_continuous_view *xd, void *user) {
  (void)sys;
  (void)user;
  const double *z = teal_context_z(ctx);
  xd->z[0] = stiff_a[0] * z[0] + stiff_a[1] * z[1];
  xd->z[1] = stiff_a[2] * z[0] + stiff_a[3] * z[1];
  return TEAL_OK;
}

/* Implicit Euler uses a leaf's analytic Jacobian (the linear system's
 * hook): same result as differencing, fewer derivative evaluations. */
START_TEST(test_implicit_uses_analytic_jacobian) {
  const double x0[2] = {1.0, 1.0};
  teal_system *hooked = teal_linear_system_new("lin", stiff_a, NULL, NULL, NULL, 2, 0, 0, 0.0,
                                               NULL);
  ck_assert_ptr_nonnull(hooked);
  ck_assert(teal_system_has_jacobian(hooked));
  teal_system *plain = teal_leaf_new("plain", NULL, NULL);
  teal_leaf_declare_continuous_state(plain, 0, 0, 2, x0);
  teal_leaf_set_time_derivatives(plain, stiff_derivs, NULL);
  ck_assert_int_eq(teal_leaf_finalize(plain), TEAL_OK);
  teal_system *systems[2] = {hooked, plain};
  double final[2][2];
  long evals[2];
  for (int k = 0; k < 2; k++) {
    teal_simulator *sim = teal_simulator_new(systems[k], NULL, NULL);
    teal_context_set_continuous_state(teal_simulator_context(sim), x0, 2);
    teal_simulator_set_integrator(sim, teal_integrator_implicit_euler);
    teal_simulator_set_fixed_step(sim, 0.01);
    ck_assert_int_eq(teal_simulator_advance_to(sim, 1.0, NULL), TEAL_OK);
    teal_context_get_continuous_state(teal_simulator_context(sim), final[k], 2);
    evals[k] = teal_simulator_get_stats(sim).derivative_evals;
    teal_simulator_free(sim);
  }
  ck_assert_double_eq_tol(final[0][0], final[1][0], 1e-9);
  ck_assert_double_eq_tol(final[0][1], final[1][1], 1e-9);
  /* differencing costs n = 2 extra evaluations per step (100 steps) */
  ck_assert_int_le(evals[0] + 200, evals[1]);
  teal_system_free(hooked);
  teal_system_free(plain);
}
END_TEST

static Suite *simulator_suite(void) {
  Suite *s = suite_create("simulator");
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

  tc = tcase_create("accuracy");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_purely_continuous_against_exact);
  tcase_add_test(tc, test_hybrid_sampled_loop_against_exact);
  tcase_add_loop_test(tc, test_bouncing_ball_impact_times, 0,
                      (int)(sizeof bounce_cases / sizeof *bounce_cases));
  tcase_add_test(tc, test_witness_tolerance_setting);
  tcase_add_test(tc, test_error_control_accuracy_and_stats);
  tcase_add_test(tc, test_stats_reset_by_initialize);
  tcase_add_test(tc, test_velocity_map_through_simulator);
  tcase_add_test(tc, test_error_floor);
  tcase_add_test(tc, test_q_error_is_absolute);
  tcase_add_test(tc, test_fixed_step_size);
  tcase_add_test(tc, test_fixed_step_larger_than_default_max_step);
  tcase_add_test(tc, test_fixed_steps_keep_state_on_the_clock);
  tcase_add_test(tc, test_stiff_robertson);
  tcase_add_test(tc, test_implicit_uses_analytic_jacobian);
  suite_add_tcase(s, tc);

  tc = tcase_create("failures");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_nan_derivative_stops_run);
  tcase_add_test(tc, test_state_overflow_reported);
  tcase_add_test(tc, test_step_size_failure_min_step);
  tcase_add_test(tc, test_step_size_failure_discontinuity);
  tcase_add_test(tc, test_monitor_stop_terminates);
  tcase_add_test(tc, test_monitor_error_fails);
  tcase_add_test(tc, test_publish_stop_terminates);
  tcase_add_test(tc, test_update_stop_terminates_at_event_time);
  tcase_add_test(tc, test_publish_error_fails);
  suite_add_tcase(s, tc);

  tc = tcase_create("settings");
  tcase_add_test(tc, test_publish_every_step);
  tcase_add_test(tc, test_target_realtime_rate);
  tcase_add_test(tc, test_bad_options);
  tcase_add_test(tc, test_borrowed_context);
  tcase_add_test(tc, test_set_integrator_reinitializes);
  suite_add_tcase(s, tc);

  tc = tcase_create("no_alloc");
  tcase_add_loop_test(tc, test_no_allocation_in_advance_to, 0,
                      (int)(sizeof alloc_cases / sizeof *alloc_cases));
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(simulator_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
