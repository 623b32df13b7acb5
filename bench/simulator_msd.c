/* Simulator overhead benchmark (issue 3).
 *
 * A mass-spring-damper plant (m x'' = -k x - c x' + u) under a PID
 * controller tracking a constant set point, with a logger recording the
 * plant state at every step: four leaves, three continuous states [x; v; I].
 * 10 s are simulated (a) with error-controlled RK3 (Bogacki-Shampine) at
 * accuracy 1e-6 and (b) with classic RK4 at fixed 1 ms steps. Each run is
 * compared per step with a hand-written C loop integrating the same ODE with
 * the same method and step-size rule, logging the same data. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "systems/analysis/simulator.h"
#include "systems/controllers/pid.h"
#include "systems/primitives/constant_vector_source.h"
#include "systems/primitives/vector_log_sink.h"
#include "teal.h"

static const double mass = 1.0, stiffness = 10.0, damping = 0.5;
static const double kp = 50.0, ki = 10.0, kd = 5.0, setpoint = 1.0, t_end = 10.0;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the Teal diagram ----------------------------------------------------- */

static int plant_state(const teal_system *sys, const teal_context *ctx, double *y, void *user) {
  (void)sys;
  (void)user;
  y[0] = teal_context_q(ctx)[0];
  y[1] = teal_context_v(ctx)[0];
  return TEAL_OK;
}

static int plant_derivatives(const teal_system *sys, const teal_context *ctx,
                             teal_continuous_view *xdot, void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  double x = teal_context_q(ctx)[0], v = teal_context_v(ctx)[0];
  xdot->q[0] = v;
  xdot->v[0] = (-stiffness * x - damping * v + (rc ? 0.0 : u[0])) / mass;
  return rc;
}

static teal_system *plant_new(void) {
  teal_system *s = teal_leaf_new("plant", NULL, NULL);
  teal_ticket xc = TEAL_TICKET_XC;
  teal_leaf_declare_vector_input(s, "u", 1);
  teal_leaf_declare_vector_output(s, "state", 2, plant_state, NULL, &xc, 1);
  teal_leaf_declare_continuous_state(s, 1, 1, 0, NULL);
  teal_leaf_set_time_derivatives(s, plant_derivatives, NULL);
  teal_leaf_finalize(s);
  return s;
}

static teal_system *diagram_new(void) {
  double target[2] = {setpoint, 0.0};
  teal_builder *b = teal_builder_new("msd");
  teal_builder_add(b, plant_new());
  teal_builder_add(b, teal_pid_new("pid", &kp, &ki, &kd, 1, NULL));
  teal_builder_add(b, teal_constant_vector_source_new("target", target, 2, NULL));
  teal_builder_add(b, teal_vector_log_sink_new("logger", 2, 0.0, NULL));
  teal_builder_connect_by_name(b, "plant", "state", "pid", "estimated_state");
  teal_builder_connect_by_name(b, "target", "y", "pid", "desired_state");
  teal_builder_connect_by_name(b, "pid", "control", "plant", "u");
  teal_builder_connect_by_name(b, "plant", "state", "logger", "data");
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  if (!d) {
    fprintf(stderr, "build failed: %s\n", err.message);
    exit(1);
  }
  return d;
}

typedef struct run_figures {
  double seconds;
  long steps, evals;
  double x_final;
} run_figures;

static run_figures teal_run(const teal_system *d, const teal_integrator_type *type, double h) {
  teal_simulator *sim = teal_simulator_new(d, NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  const teal_system *logger = teal_diagram_find_subsystem(d, "logger");
  teal_vector_log_sink_reserve(logger, teal_context_subcontext_mut(ctx, logger), 200000);
  teal_simulator_set_integrator(sim, type);
  if (h > 0) {
    teal_simulator_set_fixed_step(sim, h);
  } else {
    teal_simulator_set_accuracy(sim, 1e-6);
  }
  double t0 = now_seconds();
  teal_sim_status st;
  if (teal_simulator_advance_to(sim, t_end, &st) != TEAL_OK) {
    fprintf(stderr, "simulation failed: %s\n", st.message);
    exit(1);
  }
  run_figures f = {now_seconds() - t0, teal_simulator_get_stats(sim).steps,
                   teal_simulator_get_stats(sim).derivative_evals, teal_context_q(ctx)[0]};
  teal_simulator_free(sim);
  return f;
}

/* ---- the hand-written reference -------------------------------------------- */

/* x = [x; v; I]: the same closed loop written out. */
static void f(const double *x, double *xdot) {
  double e = setpoint - x[0];
  double u = kp * e + ki * x[2] + kd * (0.0 - x[1]);
  xdot[0] = x[1];
  xdot[1] = (-stiffness * x[0] - damping * x[1] + u) / mass;
  xdot[2] = e;
}

typedef struct hand_log {
  double *t, *y;
  long n;
} hand_log;

static void log_step(hand_log *log, double t, const double *x) {
  log->t[log->n] = t;
  log->y[2 * log->n] = x[0];
  log->y[2 * log->n + 1] = x[1];
  log->n++;
}

static run_figures hand_rk4(double h, hand_log *log) {
  double x[3] = {0, 0, 0}, k[4][3], xs[3], t = 0.0;
  long steps = 0;
  double t0 = now_seconds();
  log_step(log, t, x);
  while (t < t_end - 1e-12) {
    static const double c[4] = {0.0, 0.5, 0.5, 1.0};
    for (int s = 0; s < 4; s++) {
      for (int i = 0; i < 3; i++) {
        xs[i] = x[i] + (s ? c[s] * h * k[s - 1][i] : 0.0);
      }
      f(xs, k[s]);
    }
    for (int i = 0; i < 3; i++) {
      x[i] += h / 6.0 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
    }
    t = (t + h * 1.01 >= t_end) ? t_end : t + h;
    steps++;
    log_step(log, t, x);
  }
  run_figures r = {now_seconds() - t0, steps, 4 * steps, x[0]};
  return r;
}

/* Bogacki-Shampine with the simulator's error control: q absolute, v and z
 * relative to max(|x0|, |x1|, 1); factor 0.9 (acc/err)^(1/3) in [0.2, 5]. */
static run_figures hand_rk3(double accuracy, hand_log *log) {
  double x[3] = {0, 0, 0}, x1[3], k[4][3], xs[3], t = 0.0, h = 1e-3;
  long steps = 0, evals = 0;
  double t0 = now_seconds();
  log_step(log, t, x);
  while (t < t_end) {
    int last = t + h * 1.01 >= t_end;
    double hh = last ? t_end - t : h;
    f(x, k[0]);
    for (int i = 0; i < 3; i++) xs[i] = x[i] + 0.5 * hh * k[0][i];
    f(xs, k[1]);
    for (int i = 0; i < 3; i++) xs[i] = x[i] + 0.75 * hh * k[1][i];
    f(xs, k[2]);
    for (int i = 0; i < 3; i++) {
      x1[i] = x[i] + hh * (2.0 / 9 * k[0][i] + 1.0 / 3 * k[1][i] + 4.0 / 9 * k[2][i]);
    }
    f(x1, k[3]);
    evals += 4;
    double norm = 0.0;
    for (int i = 0; i < 3; i++) {
      double e = hh * ((2.0 / 9 - 7.0 / 24) * k[0][i] + (1.0 / 3 - 0.25) * k[1][i] +
                       (4.0 / 9 - 1.0 / 3) * k[2][i] - 0.125 * k[3][i]);
      double scale = i == 0 ? 1.0 : fmax(1.0, fmax(fabs(x[i]), fabs(x1[i])));
      norm = fmax(norm, fabs(e) / scale);
    }
    double factor = norm == 0 ? 5.0 : fmin(5.0, fmax(0.2, 0.9 * pow(accuracy / norm, 1.0 / 3)));
    if (norm > accuracy) {
      h = hh * factor;
      continue;
    }
    memcpy(x, x1, sizeof x);
    t = last ? t_end : t + hh;
    h = fmin(h * factor, 0.1);
    steps++;
    log_step(log, t, x);
  }
  run_figures r = {now_seconds() - t0, steps, evals, x[0]};
  return r;
}

static void report(const char *what, run_figures teal, run_figures hand) {
  double teal_ns = 1e9 * teal.seconds / teal.steps, hand_ns = 1e9 * hand.seconds / hand.steps;
  printf("%-22s %8ld %8ld %12.1f %12.1f %9.1fx %12.2e\n", what, teal.steps, hand.steps, teal_ns,
         hand_ns, teal_ns / hand_ns, fabs(teal.x_final - hand.x_final));
}

int main(void) {
  teal_system *d = diagram_new();
  hand_log log = {malloc(200001 * sizeof(double)), malloc(400002 * sizeof(double)), 0};
  printf("Mass-spring-damper + PID + source + logger, 10 s (best of 5 runs)\n");
  printf("%-22s %8s %8s %12s %12s %10s %12s\n", "method", "steps", "hand", "teal ns/st",
         "hand ns/st", "ratio", "|dx_final|");
  const char *names[2] = {"RK3, accuracy 1e-6", "RK4, fixed 1 ms"};
  for (int m = 0; m < 2; m++) {
    run_figures best_t = {INFINITY, 0, 0, 0}, best_h = {INFINITY, 0, 0, 0};
    for (int r = 0; r < 5; r++) {
      run_figures t = m ? teal_run(d, teal_integrator_rk4, 1e-3) : teal_run(d, teal_integrator_rk3, 0);
      log.n = 0;
      run_figures h = m ? hand_rk4(1e-3, &log) : hand_rk3(1e-6, &log);
      best_t = t.seconds < best_t.seconds ? t : best_t;
      best_h = h.seconds < best_h.seconds ? h : best_h;
    }
    report(names[m], best_t, best_h);
  }
  free(log.t);
  free(log.y);
  teal_system_free(d);
  return 0;
}
