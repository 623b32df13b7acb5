/* The acrobot LQR diagram of python/bench/bench_python.py, built and run by
 * C (issue 20's like-for-like Python benchmark).
 *
 * The diagram is the one python/examples/acrobot_lqr.py builds, without its
 * visualizer: the acrobot (models/acrobot.urdf) in a discrete plant at 1 ms
 * with its scene graph, an LQR about the upright (Q = diag(10, 10, 1, 1),
 * R = 1) closing the loop, and a state logger every 10 ms. Each run resets the context, starts
 * from q = (pi + 0.05, -0.03), initializes and advances to 5 s; only
 * AdvanceTo is timed, the same call the Python benchmark times.
 *
 * bench_python.py compiles this file into a cffi module (with
 * TEAL_BENCH_NO_MAIN) linked to the same libteal.so as the teal package,
 * so both sides run in one process through one library; built by CMake it
 * is also the program bench_acrobot_diagram [model.urdf [runs]]. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "multibody/contact/plant_scene_graph.h"
#include "multibody/parsing/urdf.h"
#include "multibody/plant/plant_state.h"
#include "teal.h"

#define ACROBOT_PI 3.14159265358979323846

/* The benchmark's diagram and what a run touches. */
typedef struct acrobot_bench {
  teal_plant *plant;
  teal_system *diagram, *logger;
  teal_simulator *sim;
} acrobot_bench;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* LQR about the upright from the plant's own linearization (as the
 * Python example: LinearQuadraticRegulator(plant, context, Q, R)). */
static teal_system *make_lqr(teal_plant *plant, teal_error *err) {
  teal_system *sys = teal_plant_system(plant);
  teal_context *ctx = teal_context_new(sys, err);
  if (!ctx) {
    return NULL;
  }
  double upright[4] = {ACROBOT_PI, 0.0, 0.0, 0.0}, u0 = 0.0, R = 1.0;
  double Q[16] = {10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  int u = teal_plant_actuation_input_port(plant);
  teal_system *lqr = NULL;
  if (teal_plant_set_state(plant, ctx, upright, 4) != TEAL_OK ||
      teal_context_fix_input(ctx, u, &u0, 1) != TEAL_OK) {
    *err = *teal_context_error(ctx);
  } else {
    lqr = teal_lqr_controller_new("lqr", sys, ctx, u, Q, &R, NULL, NULL, NULL, err);
  }
  teal_context_free(ctx);
  return lqr;
}

/* Loads the acrobot into a discrete plant at 1 ms (freed on failure). */
static teal_plant *load_plant(const char *urdf, teal_error *err) {
  teal_plant *plant = teal_plant_new(1e-3, err);
  if (plant &&
      (teal_urdf_load_file(plant, urdf, NULL, err) < 0 || teal_plant_finalize(plant) != TEAL_OK)) {
    if (err->code == TEAL_OK) {
      *err = *teal_plant_error(plant);
    }
    teal_plant_free(plant);
    return NULL;
  }
  return plant;
}

/* Builds the diagram (plant, scene graph, LQR, logger) and its simulator.
 * The builder, then the diagram, owns the plant; app->plant stays valid as
 * long as the diagram. */
static int build(acrobot_bench *app, const char *urdf, teal_error *err) {
  if (!(app->plant = load_plant(urdf, err))) {
    return err->code;
  }
  teal_system *lqr = make_lqr(app->plant, err);
  if (!lqr) {
    teal_plant_free(app->plant);
    return err->code;
  }
  teal_builder *b = teal_builder_new("acrobot_lqr");
  teal_add_plant_and_scene_graph(b, app->plant, err);
  teal_builder_add(b, lqr);
  app->logger = teal_builder_add(b, teal_vector_log_sink_new("logger", 4, 0.01, err));
  teal_builder_connect_by_name(b, "plant", "state", "lqr", "u");
  teal_builder_connect_by_name(b, "lqr", "y", "plant", "actuation");
  teal_builder_connect_by_name(b, "plant", "state", "logger", "data");
  app->diagram = teal_builder_build(b, err); /* frees everything on failure */
  if (!app->diagram) {
    return err->code;
  }
  app->sim = teal_simulator_new(app->diagram, NULL, err);
  return app->sim ? TEAL_OK : err->code;
}

/* One run; returns the seconds AdvanceTo took, or a negative status. */
static double timed_run(acrobot_bench *app, double *xf, teal_error *err) {
  teal_plant *plant = app->plant;
  teal_context *ctx = teal_simulator_context(app->sim);
  double x0[4] = {ACROBOT_PI + 0.05, -0.03, 0.0, 0.0};
  teal_sim_status st;
  teal_context_set_to_defaults(ctx);
  teal_context_set_time(ctx, 0.0);
  teal_vector_log_sink_clear(app->logger, ctx);
  if (teal_plant_set_state(plant, ctx, x0, 4) != TEAL_OK ||
      teal_simulator_initialize(app->sim, &st) != TEAL_OK) {
    *err = *teal_context_error(ctx);
    return err->code ? err->code : TEAL_EINVAL;
  }
  double t0 = now_seconds();
  int rc = teal_simulator_advance_to(app->sim, 5.0, &st);
  double seconds = now_seconds() - t0;
  if (rc != TEAL_OK) {
    teal_error_set(err, st.code, "%s", st.message);
    return st.code;
  }
  return teal_plant_get_state(plant, ctx, xf, 4) == TEAL_OK ? seconds : TEAL_EINVAL;
}

/** Best AdvanceTo(5) time over runs runs of the diagram from urdf (the
 *  final state of the last run in xf, 4 doubles); negative status on error
 *  with the message printed to stderr. */
double bench_acrobot_diagram_best_seconds(const char *urdf, int runs, double *xf);

double bench_acrobot_diagram_best_seconds(const char *urdf, int runs, double *xf) {
  acrobot_bench app = {0};
  teal_error err = {0, ""};
  double best = build(&app, urdf, &err);
  best = best == TEAL_OK ? INFINITY : best;
  for (int k = 0; k < runs && best > 0; k++) {
    double s = timed_run(&app, xf, &err);
    best = s < 0 ? s : fmin(best, s);
  }
  if (best < 0) {
    fprintf(stderr, "bench_acrobot_diagram: %s (%s)\n", err.message, teal_strerror((int)best));
  }
  teal_simulator_free(app.sim);
  teal_system_free(app.diagram);
  return best;
}

#ifndef TEAL_BENCH_NO_MAIN
int main(int argc, char **argv) {
  const char *urdf = argc > 1 ? argv[1] : "acrobot.urdf";
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  double xf[4];
  double best = bench_acrobot_diagram_best_seconds(urdf, runs, xf);
  if (best < 0) {
    return 1;
  }
  printf("acrobot LQR diagram, AdvanceTo(5) at 1 ms, C: best %.3f ms of %d runs\n", best * 1e3,
         runs);
  printf("final state %.9f %.9f %.9f %.9f\n", xf[0], xf[1], xf[2], xf[3]);
  return 0;
}
#endif
