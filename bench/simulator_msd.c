/* Simulator overhead benchmark (issue 3).
 *
 * A mass-spring-damper plant (m x'' = -k x - c x' + u) under a PID
 * controller tracking a constant set point, with a logger recording the
 * plant state at every step: four leaves, three continuous states [x; v; I].
 * 10 s are simulated (a) with error-controlled RK3 (Bogacki-Shampine) at
 * accuracy 1e-6 and (b) with classic RK4 at fixed 1 ms steps. Each run is
 * compared per step with a hand-written C loop integrating the same ODE with
 * the same method and step-size rule, logging the same data. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/table.h"
#include "common/timing.h"
#include "systems/analysis/simulator.h"
#include "systems/controllers/pid.h"
#include "systems/primitives/constant_vector_source.h"
#include "systems/primitives/vector_log_sink.h"
#include "teal.h"

static const double mass = 1.0, stiffness = 10.0, damping = 0.5;
static const double kp = 50.0, ki = 10.0, kd = 5.0, setpoint = 1.0, t_end = 10.0;

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
  double t0 = bench_now_seconds();
  teal_sim_status st;
  if (teal_simulator_advance_to(sim, t_end, &st) != TEAL_OK) {
    fprintf(stderr, "simulation failed: %s\n", st.message);
    exit(1);
  }
  run_figures f = {bench_now_seconds() - t0, teal_simulator_get_stats(sim).steps,
                   teal_simulator_get_stats(sim).derivative_evals, teal_context_q(ctx)[0]};
  teal_simulator_free(sim);
  return f;
}

/* ---- the hand-written reference -------------------------------------------- */

/* x = [x; v; I]: the same closed loop written out. */
static void msd_rhs(const double *x, double *xdot) {
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

typedef void (*rhs_fn)(const double *x, double *xdot);

/* Each hand loop is written once with the right-hand side f as a parameter
 * and always inlined: called with msd_rhs it becomes the inline loop, called
 * from a wrapper that hides f it becomes the "through a function pointer"
 * floor of workload 4 in bench/README.md. */
#define HAND_LOOP static inline __attribute__((always_inline)) run_figures

HAND_LOOP hand_rk4(rhs_fn f, double h, hand_log *log) {
  double x[3] = {0, 0, 0}, k[4][3], xs[3], t = 0.0;
  long steps = 0;
  double t0 = bench_now_seconds();
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
  run_figures r = {bench_now_seconds() - t0, steps, 4 * steps, x[0]};
  return r;
}

/* Bogacki-Shampine with the simulator's error control: q absolute, v and z
 * relative to max(|x0|, |x1|, 1); factor 0.9 (acc/err)^(1/3) in [0.2, 5]. */
HAND_LOOP hand_rk3(rhs_fn f, double accuracy, hand_log *log) {
  double x[3] = {0, 0, 0}, x1[3], k[4][3], xs[3], t = 0.0, h = 1e-3;
  long steps = 0, evals = 0;
  double t0 = bench_now_seconds();
  log_step(log, t, x);
  while (t < t_end) {
    int last = t + h * 1.01 >= t_end;
    double hh = last ? t_end - t : h;
    f(x, k[0]);
    for (int i = 0; i < 3; i++)
      xs[i] = x[i] + 0.5 * hh * k[0][i];
    f(xs, k[1]);
    for (int i = 0; i < 3; i++)
      xs[i] = x[i] + 0.75 * hh * k[1][i];
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
  run_figures r = {bench_now_seconds() - t0, steps, evals, x[0]};
  return r;
}

static run_figures inline_run(int rk4, hand_log *log) {
  return rk4 ? hand_rk4(msd_rhs, 1e-3, log) : hand_rk3(msd_rhs, 1e-6, log);
}

static __attribute__((noinline)) run_figures pointer_run(int rk4, hand_log *log) {
  rhs_fn f = msd_rhs;
  __asm__("" : "+r"(f)); /* hide the target */
  return rk4 ? hand_rk4(f, 1e-3, log) : hand_rk3(f, 1e-6, log);
}

static double ns_per_step(run_figures r) {
  return 1e9 * r.seconds / (double)r.steps;
}

static void report(const char *what, run_figures teal, run_figures hand, run_figures ptr) {
  double t = ns_per_step(teal), h = ns_per_step(hand), p = ns_per_step(ptr);
  printf("%-20s %6ld %6ld %10.1f %10.1f %10.1f %8.1fx %8.1fx %10.2e\n", what, teal.steps,
         hand.steps, t, h, p, t / h, t / p,
         fmax(fabs(teal.x_final - hand.x_final), fabs(ptr.x_final - hand.x_final)));
}

static run_figures fastest(run_figures a, run_figures b) {
  return a.seconds < b.seconds ? a : b;
}

int main(void) {
  teal_system *d = diagram_new();
  hand_log log = {malloc(200001 * sizeof(double)), malloc(400002 * sizeof(double)), 0};
  printf("Mass-spring-damper + PID + source + logger, 10 s (best of 5 interleaved runs)\n");
  printf(
      "hand: the closed loop written out inline; pointer: the same loop calling the\n"
      "right-hand side through a function pointer (bench/README.md workload 4's floors)\n\n");
  printf("%-20s %6s %6s %10s %10s %10s %9s %9s %10s\n", "method", "steps", "hand", "teal ns",
         "hand ns", "pointer ns", "/ hand", "/ pointer", "|dx_final|");
  const char *names[2] = {"RK3, accuracy 1e-6", "RK4, fixed 1 ms"};
  for (int m = 0; m < 2; m++) {
    run_figures none = {INFINITY, 0, 0, 0}, bt = none, bh = none, bp = none;
    for (int r = 0; r < 5; r++) {
      bt = fastest(
          bt, m ? teal_run(d, teal_integrator_rk4, 1e-3) : teal_run(d, teal_integrator_rk3, 0));
      log.n = 0;
      bh = fastest(bh, inline_run(m, &log));
      log.n = 0;
      bp = fastest(bp, pointer_run(m, &log));
    }
    report(names[m], bt, bh, bp);
  }
  printf("\n");
  bench_print_reproduce("simulator_msd", 0);
  free(log.t);
  free(log.y);
  teal_system_free(d);
  return 0;
}
