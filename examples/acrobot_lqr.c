/* Flagship example: balance Spong's acrobot upright with LQR (Drake's
 * acrobot run_lqr).
 *
 * 1. Load models/acrobot.urdf into a discrete plant (1 ms time step).
 * 2. Linearize the plant about the upright (q = (pi, 0), v = 0, u = 0) and
 *    design an LQR controller with Q = diag(10, 10, 1, 1), R = 1.
 * 3. Wire plant + scene graph + controller + state logger in a diagram.
 * 4. Run 5 simulations of 5 s from random perturbations near upright, print
 *    whether each one balanced and write all states to acrobot_lqr.csv.
 * 5. Write the first run's replay next to the CSV (acrobot_lqr.html): open
 *    it in a browser to watch the acrobot balance.
 *
 * Usage: acrobot_lqr [model.urdf [log.csv]]. Exits non-zero unless every
 * run balances. */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "multibody/contact/plant_scene_graph.h"
#include "multibody/parsing/urdf.h"
#include "multibody/plant/plant_state.h"
#include "multibody/tree/topology.h"
#include "teal.h"

#define NUM_RUNS 5
#define RUN_SECONDS 5.0

typedef struct acrobot_app {
  teal_plant *plant;
  teal_system *diagram, *lqr, *logger, *visualizer;
  teal_simulator *sim;
} acrobot_app;

static int fail(const char *what, const teal_error *err) {
  fprintf(stderr, "acrobot_lqr: %s: %s (%s)\n", what, err->message, teal_strerror(err->code));
  return 1;
}

static teal_plant *load_plant(const char *path, teal_error *err) {
  teal_plant *plant = teal_plant_new(1e-3, err);
  if (plant && (teal_urdf_load_file(plant, path, NULL, err) < 0 ||
                teal_plant_finalize(plant) != TEAL_OK)) {
    if (err->code == TEAL_OK) {
      *err = *teal_plant_error(plant);
    }
    teal_plant_free(plant);
    return NULL;
  }
  return plant;
}

/* LQR about the upright, from the plant's own linearization. */
static teal_system *make_lqr(teal_plant *plant, teal_error *err) {
  teal_system *sys = teal_plant_system(plant);
  teal_context *ctx = teal_context_new(sys, err);
  if (!ctx) {
    return NULL;
  }
  double upright[4] = {M_PI, 0.0, 0.0, 0.0}, u0 = 0.0, R = 1.0, K[4];
  double Q[16] = {10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  int u = teal_plant_actuation_input_port(plant);
  teal_system *lqr = NULL;
  if (teal_plant_set_state(plant, ctx, upright, 4) != TEAL_OK ||
      teal_context_fix_input(ctx, u, &u0, 1) != TEAL_OK) {
    *err = *teal_context_error(ctx); /* e.g. a model that is not an acrobot */
  } else {
    lqr = teal_lqr_controller_new("lqr", sys, ctx, u, Q, &R, NULL, K, NULL, err);
  }
  if (lqr) {
    printf("LQR gain K = [%.3f %.3f %.3f %.3f]\n", K[0], K[1], K[2], K[3]);
  }
  teal_context_free(ctx);
  return lqr;
}

static int build(acrobot_app *app, teal_error *err) {
  teal_builder *b = teal_builder_new("acrobot_lqr");
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, app->plant, err);
  teal_builder_add(b, app->lqr);
  app->logger = teal_builder_add(b, teal_vector_log_sink_new("logger", 4, 0.01, err));
  teal_builder_connect_by_name(b, "plant", "state", "lqr", "u");
  teal_builder_connect_by_name(b, "lqr", "y", "plant", "actuation");
  teal_builder_connect_by_name(b, "plant", "state", "logger", "data");
  app->visualizer = teal_add_visualizer(b, sg, NULL, err); /* a frame every 1/60 s */
  app->diagram = teal_builder_build(b, err);
  return app->diagram ? TEAL_OK : err->code;
}

/* One run from upright + perturbation; returns 1 when it balanced. */
static int run_once(acrobot_app *app, teal_rng *rng, int k, FILE *csv, teal_error *err) {
  teal_context *ctx = teal_simulator_context(app->sim);
  double x[4] = {M_PI, 0.0, 0.0, 0.0};
  for (int i = 0; i < 2; i++) {
    x[i] += 0.05 * (2.0 * teal_rng_uniform(rng) - 1.0);
  }
  teal_context_set_to_defaults(ctx);
  teal_context_set_time(ctx, 0.0);
  teal_vector_log_sink_clear(app->logger, ctx);
  teal_visualizer_clear(app->visualizer, ctx);
  teal_sim_status st;
  if (teal_plant_set_state(app->plant, ctx, x, 4) != TEAL_OK) {
    *err = *teal_context_error(ctx);
    return -1;
  }
  if (teal_simulator_initialize(app->sim, &st) ||
      teal_simulator_advance_to(app->sim, RUN_SECONDS, &st)) {
    teal_error_set(err, st.code, "run %d: %s", k, st.message);
    return -1;
  }
  const teal_vector_log *log = teal_vector_log_sink_log(app->logger, ctx);
  for (int s = 0; csv && s < log->count; s++) {
    const double *y = log->data + (size_t)s * 4;
    fprintf(csv, "%d,%.6f,%.9g,%.9g,%.9g,%.9g\n", k, log->times[s], y[0], y[1], y[2], y[3]);
  }
  double xf[4];
  teal_plant_get_state(app->plant, ctx, xf, 4);
  double dev = fabs(xf[0] - M_PI) + fabs(xf[1]) + fabs(xf[2]) + fabs(xf[3]);
  int ok = dev < 1e-2;
  printf("run %d: start q = (%+.3f, %+.3f) from upright -> final deviation %.2e: %s\n", k,
         x[0] - M_PI, x[1], dev, ok ? "balanced" : "FELL");
  return ok;
}

/* The replay of the run just simulated, written to html_path. A missing
 * three.js (Debian's libjs-three) is reported and the example goes on. */
static void write_replay(acrobot_app *app, const char *html_path) {
  teal_context *ctx = teal_simulator_context(app->sim);
  const teal_scene_recording *rec = teal_visualizer_recording(app->visualizer, ctx);
  const teal_vector_log *log = teal_vector_log_sink_log(app->logger, ctx);
  static const char *const names[4] = {"shoulder_q", "elbow_q", "shoulder_v", "elbow_v"};
  teal_replay_plot plot = {"state (rad, rad/s)", log->count, log->size,
                           log->times,           log->data,  names};
  teal_replay_options opts = teal_replay_options_default();
  opts.title = "Acrobot LQR balance (run 0)";
  opts.plots = &plot; /* the state log beside the scene */
  opts.num_plots = 1;
  teal_error err = {0};
  if (teal_scene_recording_write_html(rec, html_path, &opts, &err) != TEAL_OK) {
    fprintf(stderr, "acrobot_lqr: no replay written: %s\n", err.message);
    return;
  }
  printf("replay: %s (open it in a browser)\n", html_path);
}

static int run_all(acrobot_app *app, const char *csv_path, const char *html_path, teal_error *err) {
  FILE *csv = fopen(csv_path, "w");
  if (csv) {
    fprintf(csv, "run,time,shoulder_q,elbow_q,shoulder_v,elbow_v\n");
  } else {
    fprintf(stderr, "acrobot_lqr: cannot write %s; running without the state log\n", csv_path);
  }
  teal_rng rng;
  teal_rng_seed(&rng, 20240611);
  int balanced = 0;
  for (int k = 0; k < NUM_RUNS; k++) {
    int ok = run_once(app, &rng, k, csv, err);
    if (ok < 0) {
      balanced = -1;
      break;
    }
    balanced += ok;
    if (k == 0) {
      write_replay(app, html_path);
    }
  }
  if (csv) {
    fclose(csv);
    printf("state log: %s\n", csv_path);
  }
  return balanced;
}

int main(int argc, char **argv) {
  const char *model = argc > 1 ? argv[1] : "acrobot.urdf";
  const char *csv = argc > 2 ? argv[2] : "acrobot_lqr.csv";
  teal_error err = {0};
  acrobot_app app = {0};
  printf("Acrobot LQR balance (%s), discrete plant at 1 ms\n", model);
  if (!(app.plant = load_plant(model, &err))) {
    return fail("loading the model", &err);
  }
  if (!(app.lqr = make_lqr(app.plant, &err))) {
    teal_plant_free(app.plant);
    return fail("designing LQR", &err);
  }
  if (build(&app, &err) != TEAL_OK) {
    return fail("building the diagram", &err);
  }
  if (!(app.sim = teal_simulator_new(app.diagram, NULL, &err))) {
    teal_system_free(app.diagram);
    return fail("making the simulator", &err);
  }
  char html[4096]; /* the CSV's path with .html for its extension */
  const char *dot = strrchr(csv, '.');
  int stem = dot && !strchr(dot, '/') ? (int)(dot - csv) : (int)strlen(csv);
  snprintf(html, sizeof(html), "%.*s.html", stem, csv);
  int balanced = run_all(&app, csv, html, &err);
  teal_simulator_free(app.sim);
  teal_system_free(app.diagram);
  if (balanced < 0) {
    return fail("simulating", &err);
  }
  printf("%d of %d runs balanced\n", balanced, NUM_RUNS);
  return balanced == NUM_RUNS ? 0 : 1;
}
