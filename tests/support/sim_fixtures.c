/* The fixtures declared in support/sim_fixtures.h. */
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

/* ---- common helpers ------------------------------------------------------- */

teal_system *ts_sim_finalize(teal_system *sys) {
  ck_assert_ptr_nonnull(sys);
  int rc = teal_leaf_finalize(sys);
  ck_assert_msg(rc == TEAL_OK, "finalize %s: %s", teal_system_name(sys),
                teal_system_error(sys)->message);
  return sys;
}

teal_system *ts_sim_build(teal_builder *b) {
  teal_error err;
  teal_error_clear(&err);
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  return d;
}

void ts_sim_connect(teal_builder *b, const char *src, const char *out, const char *dst,
                    const char *in) {
  int rc = teal_builder_connect_by_name(b, src, out, dst, in);
  ck_assert_msg(rc == TEAL_OK, "connect %s.%s -> %s.%s: %s", src, out, dst, in,
                teal_builder_error(b)->message);
}

teal_simulator *ts_sim_new(const teal_system *sys) {
  teal_error err;
  teal_error_clear(&err);
  teal_simulator *sim = teal_simulator_new(sys, NULL, &err);
  ck_assert_msg(sim != NULL, "simulator_new: %s", err.message);
  return sim;
}

/* Advances and insists on reaching the end. */
void ts_sim_advance_ok(teal_simulator *sim, double t) {
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, t, &st);
  ck_assert_msg(rc == TEAL_OK && st.outcome == TEAL_SIM_REACHED_END,
                "advance_to(%g): rc %d outcome %d at t = %g: %s", t, rc, (int)st.outcome, st.time,
                st.message);
  ck_assert_double_eq(st.time, t);
  ck_assert_double_eq(teal_context_time(teal_simulator_context(sim)), t);
}

teal_simulator *ts_sim_new_rk45(const teal_system *sys, double accuracy) {
  teal_simulator *sim = teal_simulator_new(sys, NULL, NULL);
  ck_assert_ptr_nonnull(sim);
  teal_simulator_set_integrator(sim, teal_integrator_rk45);
  teal_simulator_set_accuracy(sim, accuracy);
  return sim;
}

void ts_sim_expect_steps_allocate_nothing(teal_simulator *sim, double t_warm, double t_end) {
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, t_warm, &st), TEAL_OK);
  ts_alloc_install();
  ts_alloc_reset();
  ck_assert_int_eq(teal_simulator_advance_to(sim, t_end, &st), TEAL_OK);
  ts_alloc_expect_none();
}

int ts_sim_contains(const char *haystack, const char *needle) {
  return strstr(haystack, needle) != NULL;
}

ts_sim_log_entry ts_sim_log[TS_SIM_LOG_MAX];
int ts_sim_nlog;
char ts_sim_text[TS_SIM_TEXT_MAX];

void ts_sim_log_reset(void) {
  ts_sim_nlog = 0;
  ts_sim_text[0] = '\0';
}

void ts_sim_log_add(const char *leaf, const char *what, double t, double value) {
  if (ts_sim_nlog < TS_SIM_LOG_MAX) {
    ts_sim_log_entry *e = &ts_sim_log[ts_sim_nlog++];
    snprintf(e->tag, sizeof e->tag, "%s.%s", leaf, what);
    e->t = t;
    e->value = value;
  }
  size_t len = strlen(ts_sim_text);
  snprintf(ts_sim_text + len, sizeof ts_sim_text - len, "%s%s.%s@%g", len ? " " : "", leaf, what,
           t);
}

/* ---- leaves ---------------------------------------------------------------- */

/* The event-order leaf: z' = 1 (so z = t), discrete group xd = (a, b).
 * init unrestricted: a = 10; init discrete: b = a; periodic unrestricted:
 * a += 1; periodic discrete: b = a. Publishes log z (init publish: b).
 * Each trio is declared publish, discrete, unrestricted, the reverse of
 * the order the simulator must run them in. */
int ts_sim_ev_derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
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
  ts_sim_log_add(user, "iu", teal_context_time(ctx), 0.0);
  next->xd[0] = 10.0;
  return TEAL_OK;
}

static int ev_init_disc(const teal_system *sys, const teal_context *ctx, double *xd_next,
                        void *user) {
  (void)sys;
  const double *xd = teal_context_discrete_group(ctx, 0);
  ts_sim_log_add(user, "id", teal_context_time(ctx), xd[0]);
  xd_next[1] = xd[0];
  return TEAL_OK;
}

static int ev_init_pub(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  ts_sim_log_add(user, "ip", teal_context_time(ctx), teal_context_discrete_group(ctx, 0)[1]);
  return TEAL_OK;
}

static int ev_unres(const teal_system *sys, const teal_context *ctx, teal_state_view *next,
                    void *user) {
  (void)sys;
  ts_sim_log_add(user, "pu", teal_context_time(ctx), 0.0);
  next->xd[0] += 1.0;
  return TEAL_OK;
}

static int ev_disc(const teal_system *sys, const teal_context *ctx, double *xd_next,
                   void *user) {
  (void)sys;
  const double *xd = teal_context_discrete_group(ctx, 0);
  ts_sim_log_add(user, "pd", teal_context_time(ctx), xd[0]);
  xd_next[1] = xd[0];
  return TEAL_OK;
}

int ts_sim_ev_step_disc(const teal_system *sys, const teal_context *ctx, double *xd_next,
                        void *user) {
  (void)sys;
  (void)xd_next;
  ts_sim_log_add(user, "sd", teal_context_time(ctx), teal_context_discrete_group(ctx, 0)[1]);
  return TEAL_OK;
}

static int ev_pub(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  ts_sim_log_add(user, "pp", teal_context_time(ctx), teal_context_z(ctx)[0]);
  return TEAL_OK;
}

int ts_sim_ev_step_pub(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  ts_sim_log_add(user, "sp", teal_context_time(ctx), teal_context_z(ctx)[0]);
  return TEAL_OK;
}

static teal_system *event_leaf_new(const char *name, int per_step_discrete) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  void *u = (void *)name;
  teal_leaf_declare_continuous_state(s, 0, 0, 1, NULL);
  teal_leaf_set_time_derivatives(s, ts_sim_ev_derivs, NULL);
  teal_leaf_declare_discrete_state(s, 2, NULL);
  teal_leaf_declare_initialization_publish(s, ev_init_pub, u);
  teal_leaf_declare_initialization_discrete_update(s, ev_init_disc, u);
  teal_leaf_declare_initialization_unrestricted_update(s, ev_init_unres, u);
  teal_leaf_declare_periodic_publish(s, 0.25, 0.0, ev_pub, u);
  teal_leaf_declare_periodic_discrete_update(s, 0.25, 0.0, ev_disc, u);
  teal_leaf_declare_periodic_unrestricted_update(s, 0.25, 0.0, ev_unres, u);
  teal_leaf_declare_per_step_publish(s, ts_sim_ev_step_pub, u);
  if (per_step_discrete) {
    teal_leaf_declare_per_step_discrete_update(s, ts_sim_ev_step_disc, u);
  }
  return ts_sim_finalize(s);
}

/* Harmonic oscillator q' = v, v' = -q (nq = nv = 1), x0 = (1, 0); counts
 * its derivative calls. Output "x" = (q, v). */
long ts_sim_osc_calls;

int ts_sim_osc_derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                      void *user) {
  (void)sys;
  (void)user;
  ts_sim_osc_calls++;
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

teal_system *ts_sim_osc_new(const char *name) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  double x0[2] = {1.0, 0.0};
  teal_ticket xc = TEAL_TICKET_XC;
  teal_leaf_declare_continuous_state(s, 1, 1, 0, x0);
  teal_leaf_set_time_derivatives(s, ts_sim_osc_derivs, NULL);
  teal_leaf_declare_vector_output(s, "x", 2, osc_out, NULL, &xc, 1);
  return ts_sim_finalize(s);
}

int ts_sim_decay_derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                        void *user) {
  (void)sys;
  const ts_sim_decay_params *p = user;
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

ts_sim_decay_params ts_sim_decay_defaults(void) {
  ts_sim_decay_params p = {INFINITY, INFINITY, 0.0, 0.0};
  return p;
}

teal_system *ts_sim_decay_new(const char *name, ts_sim_decay_params *p, double z0) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  teal_leaf_declare_continuous_state(s, 0, 0, 1, &z0);
  teal_leaf_set_time_derivatives(s, ts_sim_decay_derivs, p);
  return ts_sim_finalize(s);
}
double ts_sim_impacts[TS_SIM_IMPACT_MAX];
int ts_sim_nimpacts;

static int ball_derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                       void *user) {
  (void)sys;
  const ts_sim_ball_params *p = user;
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
  const ts_sim_ball_params *p = user;
  if (ts_sim_nimpacts < TS_SIM_IMPACT_MAX) {
    ts_sim_impacts[ts_sim_nimpacts++] = teal_context_time(ctx);
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

teal_system *ts_sim_ball_new(const char *name, ts_sim_ball_params *p, double z0) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  double x0[2] = {z0, 0.0};
  teal_ticket xc = TEAL_TICKET_XC;
  teal_leaf_declare_continuous_state(s, 1, 1, 0, x0);
  teal_leaf_set_time_derivatives(s, ball_derivs, p);
  teal_leaf_declare_witness_unrestricted_update(s, TEAL_WITNESS_POSITIVE_TO_NEGATIVE,
                                                ball_witness, ball_bounce, p);
  teal_leaf_declare_vector_output(s, "height", 1, ball_out, NULL, &xc, 1);
  return ts_sim_finalize(s);
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

teal_system *ts_sim_plant_new(const char *name, double z0) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  teal_ticket xc = TEAL_TICKET_XC;
  teal_leaf_declare_vector_input(s, "u", 1);
  teal_leaf_declare_continuous_state(s, 0, 0, 1, &z0);
  teal_leaf_set_time_derivatives(s, plant_derivs, NULL);
  teal_leaf_declare_vector_output(s, "y", 1, plant_out, NULL, &xc, 1);
  return ts_sim_finalize(s);
}

static int zoh_sample(const teal_system *sys, const teal_context *ctx, double *xd_next,
                      void *user) {
  const ts_sim_zoh_params *p = user;
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

teal_system *ts_sim_zoh_new(const char *name, ts_sim_zoh_params *p, double period) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  teal_ticket xd = TEAL_TICKET_XD;
  teal_leaf_declare_vector_input(s, "x", 1);
  teal_leaf_declare_discrete_state(s, 1, NULL);
  teal_leaf_declare_periodic_discrete_update(s, period, 0.0, zoh_sample, p);
  teal_leaf_declare_vector_output(s, "u", 1, zoh_out, NULL, &xd, 1);
  return ts_sim_finalize(s);
}

/* ============================================================================
 * Event order
 * ========================================================================== */

teal_system *ts_sim_event_diagram_new(void) {
  teal_builder *b = teal_builder_new("events");
  teal_builder_add(b, event_leaf_new("A", 0));
  teal_builder_add(b, event_leaf_new("B", 1));
  return ts_sim_build(b);
}

teal_simulator *ts_sim_event_sim_new(const teal_system *d) {
  teal_simulator *sim = ts_sim_new(d);
  ck_assert_int_eq(teal_simulator_set_max_step(sim, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 0.125), TEAL_OK);
  return sim;
}
