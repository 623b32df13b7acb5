/* Fixtures shared by the simulator tests (test_simulator_*.c): checked
 * build/simulator helpers, an event log, and small leaves (the event-order
 * leaf, an oscillator, a scalar decay, a bouncing ball, a first-order plant
 * and a zero-order hold). */
#ifndef TEAL_TESTS_SUPPORT_SIM_FIXTURES_H
#define TEAL_TESTS_SUPPORT_SIM_FIXTURES_H

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

teal_system *ts_sim_finalize(teal_system *sys);

teal_system *ts_sim_build(teal_builder *b);

void ts_sim_connect(teal_builder *b, const char *src, const char *out, const char *dst,
                    const char *in);

teal_simulator *ts_sim_new(const teal_system *sys);

/* Advances and insists on reaching the end. */
void ts_sim_advance_ok(teal_simulator *sim, double t);

/* A simulator of sys with the RK45 integrator at the given accuracy. */
teal_simulator *ts_sim_new_rk45(const teal_system *sys, double accuracy);

/* Advances to t_warm (the first steps may size caches and workspaces),
 * then to t_end under the counting allocator, and asserts that the steps
 * between allocated nothing. */
void ts_sim_expect_steps_allocate_nothing(teal_simulator *sim, double t_warm, double t_end);

int ts_sim_contains(const char *haystack, const char *needle);

/* ---- the event log -------------------------------------------------------- */

enum { TS_SIM_LOG_MAX = 512, TS_SIM_TEXT_MAX = 16384 };

typedef struct ts_sim_log_entry {
  char tag[16];
  double t, value;
} ts_sim_log_entry;

extern ts_sim_log_entry ts_sim_log[TS_SIM_LOG_MAX];

extern int ts_sim_nlog;

extern char ts_sim_text[TS_SIM_TEXT_MAX];

void ts_sim_log_reset(void);

void ts_sim_log_add(const char *leaf, const char *what, double t, double value);

/* The event-order leaf: z' = 1 (so z = t), discrete group xd = (a, b).
 * init unrestricted: a = 10; init discrete: b = a; periodic unrestricted:
 * a += 1; periodic discrete: b = a. Publishes log z (init publish: b).
 * Each trio is declared publish, discrete, unrestricted, the reverse of
 * the order the simulator must run them in. */
int ts_sim_ev_derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                     void *user);

int ts_sim_ev_step_disc(const teal_system *sys, const teal_context *ctx, double *xd_next,
                        void *user);

int ts_sim_ev_step_pub(const teal_system *sys, const teal_context *ctx, void *user);

/* Harmonic oscillator q' = v, v' = -q (nq = nv = 1), x0 = (1, 0); counts
 * its derivative calls. Output "x" = (q, v). */
extern long ts_sim_osc_calls;

int ts_sim_osc_derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                      void *user);

teal_system *ts_sim_osc_new(const char *name);

/* Scalar decay z' = -z with optional misbehaviour: NaN for t > nan_after,
 * a jump of jump_size in the derivative for t > jump_at. */
typedef struct ts_sim_decay_params {
  double nan_after, jump_at, jump_size, constant;
} ts_sim_decay_params;

int ts_sim_decay_derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                        void *user);

ts_sim_decay_params ts_sim_decay_defaults(void);

teal_system *ts_sim_decay_new(const char *name, ts_sim_decay_params *p, double z0);

/* Bouncing ball: q = height, v = vertical speed, q'' = -g; witness q
 * (positive to negative) with the unrestricted reset v <- -e v. Impact
 * times go to ts_sim_impacts. */
typedef struct ts_sim_ball_params {
  double g, e;
} ts_sim_ball_params;

enum { TS_SIM_IMPACT_MAX = 64 };

extern double ts_sim_impacts[TS_SIM_IMPACT_MAX];

extern int ts_sim_nimpacts;

teal_system *ts_sim_ball_new(const char *name, ts_sim_ball_params *p, double z0);

teal_system *ts_sim_plant_new(const char *name, double z0);

/* Zero-order-hold controller: samples x every period into xd = -k x and
 * outputs u = xd (no feedthrough). */
typedef struct ts_sim_zoh_params {
  double k;
} ts_sim_zoh_params;

teal_system *ts_sim_zoh_new(const char *name, ts_sim_zoh_params *p, double period);

teal_system *ts_sim_event_diagram_new(void);

teal_simulator *ts_sim_event_sim_new(const teal_system *d);

#endif
