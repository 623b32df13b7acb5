/* The simulator's integration: continuous and hybrid runs against closed forms,
 * witness isolation (bouncing ball), error control and its statistics, the
 * velocity map, fixed steps, a stiff problem and analytic Jacobians.
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
#include "support/sim_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator.h"
#include "systems/primitives/linear_system.h"

static double g_min_height;

/* plant <-> zoh feedback loop */
static teal_system *hybrid_new(ts_sim_zoh_params *p, double period, double z0) {
  teal_builder *b = teal_builder_new("hybrid");
  teal_builder_add(b, ts_sim_plant_new("plant", z0));
  teal_builder_add(b, ts_sim_zoh_new("zoh", p, period));
  ts_sim_connect(b, "plant", "y", "zoh", "x");
  ts_sim_connect(b, "zoh", "u", "plant", "u");
  return ts_sim_build(b);
}

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
  ts_sim_finalize(s);
  teal_simulator *sim = ts_sim_new(s);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_semi_explicit_euler),
                   TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 0.1), TEAL_OK);
  ts_sim_advance_ok(sim, 1.0);
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
  sim = ts_sim_new(s);
  ts_sim_advance_ok(sim, 1.0);
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
    ts_sim_decay_params p = ts_sim_decay_defaults();
    teal_system *s = ts_sim_decay_new("decay", &p, 1e-6);
    teal_simulator *sim = ts_sim_new(s);
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, 1e-6), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_max_step(sim, 1.0), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_error_floor(sim, floors[i]), TEAL_OK);
    ts_sim_advance_ok(sim, 3.0);
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

/* x'' = -x held in z = (x, x'); ts_sim_osc_derivs holds it in (q, v). */
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
  teal_leaf_set_time_derivatives(s, as_qv ? ts_sim_osc_derivs : osc_z_derivs, NULL);
  return ts_sim_finalize(s);
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
    teal_simulator *sim = ts_sim_new(s);
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, 1e-6), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_error_floor(sim, 1.0), TEAL_OK);
    ts_sim_advance_ok(sim, 2.0 * M_PI);
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
    ts_sim_decay_params p = ts_sim_decay_defaults();
    teal_system *s = ts_sim_decay_new("decay", &p, 2.0);
    teal_simulator *sim = ts_sim_new(s);
    ck_assert_int_eq(teal_simulator_set_integrator(sim, *types[i]), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, accuracy[i]), TEAL_OK);
    ck_assert_double_eq(teal_context_accuracy(teal_simulator_context(sim)), accuracy[i]);
    ts_sim_advance_ok(sim, 1.0);
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
  ts_sim_zoh_params zp = {2.0};
  teal_system *d = hybrid_new(&zp, 0.1, 1.0);
  teal_simulator *sim = ts_sim_new(d);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk45), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_accuracy(sim, 1e-12), TEAL_OK);
  hybrid_check h = {2.0, 0.1, 1.0, 0.0, 0};
  ck_assert_int_eq(teal_simulator_set_monitor(sim, hybrid_monitor, &h), TEAL_OK);
  ts_sim_advance_ok(sim, 1.0);
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
  ts_sim_ball_params bp = {g, c->e};
  ts_sim_nimpacts = 0;
  g_min_height = INFINITY;
  teal_system *s = ts_sim_ball_new("ball", &bp, z0);
  teal_simulator *sim = ts_sim_new(s);
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
  ts_sim_advance_ok(sim, t_end);
  ck_assert_int_eq(ts_sim_nimpacts, bounces);
  double worst = 0.0;
  for (int k = 0; k < bounces; k++) {
    worst = fmax(worst, fabs(ts_sim_impacts[k] - expect[k]));
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
    ts_sim_ball_params bp = {g, 1.0};
    ts_sim_nimpacts = 0;
    teal_system *s = ts_sim_ball_new("ball", &bp, 1.0);
    teal_simulator *sim = ts_sim_new(s);
    ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk45), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, 1e-10), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_witness_tolerance(sim, tols[i]), TEAL_OK);
    ts_sim_advance_ok(sim, 0.6);
    ck_assert_int_eq(ts_sim_nimpacts, 1);
    errs[i] = ts_sim_impacts[0] - sqrt(2.0 / g);
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
  teal_system *s = ts_sim_osc_new("osc");
  teal_simulator *sim = ts_sim_new(s);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, type), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_accuracy(sim, accuracy), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_max_step(sim, 1.0), TEAL_OK);
  ts_sim_osc_calls = 0;
  ts_sim_advance_ok(sim, t_end);
  const teal_context *ctx = teal_simulator_context(sim);
  r.err = fmax(fabs(teal_context_q(ctx)[0] - cos(t_end)),
               fabs(teal_context_v(ctx)[0] + sin(t_end)));
  r.stats = teal_simulator_get_stats(sim);
  r.counts = teal_integrator_get_counts(teal_simulator_integrator(sim));
  r.leaf_calls = ts_sim_osc_calls;
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
  teal_system *s = ts_sim_osc_new("osc");
  teal_simulator *sim = ts_sim_new(s);
  ts_sim_advance_ok(sim, 1.0);
  teal_sim_stats first = teal_simulator_get_stats(sim);
  ck_assert_int_gt(first.derivative_evals, 0);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_initialize(sim, &st), TEAL_OK);
  teal_sim_stats zero = teal_simulator_get_stats(sim);
  ck_assert_int_eq(zero.steps, 0);
  ck_assert_int_eq(zero.derivative_evals, 0);
  ts_sim_osc_calls = 0;
  ts_sim_advance_ok(sim, 2.0);
  teal_sim_stats second = teal_simulator_get_stats(sim);
  ck_assert_int_gt(second.steps, 0);
  ck_assert_int_eq(second.derivative_evals, ts_sim_osc_calls);
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
    teal_system *s = ts_sim_osc_new("osc");
    teal_simulator *sim = ts_sim_new(s);
    ck_assert_int_eq(teal_simulator_set_integrator(sim, types[i]), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 0.05), TEAL_OK);
    ts_sim_advance_ok(sim, 1.0);
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
  teal_simulator *sim = ts_sim_new(s);
  teal_context *ctx = teal_simulator_context(sim);
  memcpy(teal_context_continuous_state_mut(ctx), x0, sizeof x0);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk4), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, h), TEAL_OK);
  ts_sim_advance_ok(sim, (double)steps * h);
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
  teal_system *s = ts_sim_osc_new("osc");
  teal_simulator *sim = ts_sim_new(s);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk4), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 0.25), TEAL_OK);
  ts_sim_advance_ok(sim, 1.0);
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
  teal_simulator *sim = ts_sim_new(s);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, type), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_accuracy(sim, accuracy), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_max_step(sim, t_end), TEAL_OK);
  ts_sim_advance_ok(sim, t_end);
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

static Suite *simulator_integrate_suite(void) {
  Suite *s = suite_create("simulator_integrate");
  TCase *tc = tcase_create("accuracy");
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
  return s;
}

int main(void) {
  return ts_run_suite(simulator_integrate_suite());
}
