/* Cart-pole LQR: balance Drake's cart-pole with its pole upright and bring
 * the cart back to the middle of the rail.
 *
 * 1. Load models/cart_pole.urdf into a continuous plant (time_step 0,
 *    error-controlled RK3). The state is x = [cart x, pole theta, xdot,
 *    thetadot]; the pole hangs down at theta = 0, so upright is theta = pi.
 * 2. Linearize about the upright (x = (0, pi, 0, 0), u = 0) and design an
 *    LQR controller with Q = diag(100, 10, 1, 1), R = 0.01.
 * 3. Wire plant + scene graph + controller + saturation + state logger in a
 *    diagram. A continuous plant ignores effort limits (as in Drake), so the
 *    saturation block clamps the force to the URDF's limit (100 N).
 * 4. Run 6 s from a few perturbations; each run passes when the state stays
 *    within 1e-3 of upright (cart at 0) for the last second.
 *
 * Usage: cart_pole_lqr [model.urdf]. Exits non-zero unless every run
 * settles. */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <math.h>
#include <stdio.h>

#include "multibody/contact/plant_scene_graph.h"
#include "multibody/plant/plant_state.h"
#include "multibody/tree/topology.h"
#include "teal.h"

#define RUN_SECONDS 6.0
#define TOLERANCE 1e-3

static const double kUpright[4] = {0.0, M_PI, 0.0, 0.0};

typedef struct cart_pole_app {
  teal_plant *plant;
  teal_system *diagram, *lqr, *logger, *visualizer;
  double K[4];
  teal_simulator *sim;
} cart_pole_app;

static int fail(const char *what, const teal_error *err) {
  fprintf(stderr, "cart_pole_lqr: %s: %s (%s)\n", what, err->message, teal_strerror(err->code));
  return 1;
}

static teal_plant *load_plant(const char *path, teal_error *err) {
  teal_plant *plant = teal_plant_new(0.0, err); /* 0: continuous */
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

/* LQR about the upright, from the plant's own linearization (CARE, since
 * the plant is continuous). */
static teal_system *make_lqr(teal_plant *plant, double *K, teal_error *err) {
  teal_system *sys = teal_plant_system(plant);
  teal_context *ctx = teal_context_new(sys, err);
  if (!ctx) {
    return NULL;
  }
  double u0 = 0.0, R = 0.01;
  double Q[16] = {100, 0, 0, 0, 0, 10, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  int u = teal_plant_actuation_input_port(plant);
  teal_plant_set_state(plant, ctx, kUpright, 4);
  teal_context_fix_input(ctx, u, &u0, 1);
  teal_system *lqr = teal_lqr_controller_new("lqr", sys, ctx, u, Q, &R, NULL, K, NULL, err);
  if (lqr) {
    printf("LQR gain K = [%.2f %.2f %.2f %.2f]\n", K[0], K[1], K[2], K[3]);
  }
  teal_context_free(ctx);
  return lqr;
}

/* The cart's force limit from the URDF (the joint's effort limit). */
static double force_limit(const teal_plant *plant) {
  return teal_plant_get_tree(plant)->effort_limit[teal_plant_actuator_v_index(plant, 0)];
}

static int build(cart_pole_app *app, teal_error *err) {
  double hi = force_limit(app->plant), lo = -hi;
  teal_builder *b = teal_builder_new("cart_pole_lqr");
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, app->plant, err);
  app->visualizer = teal_add_visualizer(b, sg, NULL, err);
  teal_builder_add(b, app->lqr);
  teal_builder_add(b, teal_saturation_new("saturation", &lo, &hi, 1, err));
  app->logger = teal_builder_add(b, teal_vector_log_sink_new("logger", 4, 0.01, err));
  teal_builder_connect_by_name(b, "plant", "state", "lqr", "u");
  teal_builder_connect_by_name(b, "lqr", "y", "saturation", "u");
  teal_builder_connect_by_name(b, "saturation", "y", "plant", "actuation");
  teal_builder_connect_by_name(b, "plant", "state", "logger", "data");
  app->diagram = teal_builder_build(b, err);
  return app->diagram ? TEAL_OK : err->code;
}

/* Distance of a logged state from the upright equilibrium. */
static double deviation(const double *x) {
  double d = 0.0;
  for (int i = 0; i < 4; i++) {
    d += (x[i] - kUpright[i]) * (x[i] - kUpright[i]);
  }
  return sqrt(d);
}

/* The largest force the LQR asked for over the log, u = -K (x - upright). */
static double peak_force(const teal_vector_log *log, const double *K) {
  double peak = 0.0;
  for (int s = 0; s < log->count; s++) {
    const double *x = log->data + (size_t)s * 4;
    double u = 0.0;
    for (int i = 0; i < 4; i++) {
      u -= K[i] * (x[i] - kUpright[i]);
    }
    peak = fmax(peak, fabs(u));
  }
  return peak;
}

/* The time after which the logged state stays within TOLERANCE. */
static double settle_time(const teal_vector_log *log) {
  double t = 0.0;
  for (int s = 0; s < log->count; s++) {
    if (deviation(log->data + (size_t)s * 4) > TOLERANCE) {
      t = log->times[s];
    }
  }
  return t;
}

/* One run from x0; returns 1 when it settled, 0 when not, -1 on error. */
static int run_once(cart_pole_app *app, const double *x0, teal_error *err) {
  teal_context *ctx = teal_simulator_context(app->sim);
  teal_context_set_to_defaults(ctx);
  teal_context_set_time(ctx, 0.0);
  teal_plant_set_state(app->plant, ctx, x0, 4);
  teal_vector_log_sink_clear(app->logger, ctx);
  teal_visualizer_clear(app->visualizer, ctx);
  teal_sim_status st;
  if (teal_simulator_initialize(app->sim, &st) ||
      teal_simulator_advance_to(app->sim, RUN_SECONDS, &st)) {
    teal_error_set(err, st.code, "%s", st.message);
    return -1;
  }
  double xf[4];
  teal_plant_get_state(app->plant, ctx, xf, 4);
  const teal_vector_log *log = teal_vector_log_sink_log(app->logger, ctx);
  double t_settle = settle_time(log);
  int ok = t_settle < RUN_SECONDS - 1.0 && deviation(xf) < TOLERANCE;
  printf("  x0 = (%+.1f, pi%+.1f, %+.1f, %+.1f): LQR asks up to %5.1f N, settled at %.2f s, "
         "final error %.0e: %s\n",
         x0[0], x0[1] - M_PI, x0[2], x0[3], peak_force(log, app->K), t_settle, deviation(xf),
         ok ? "balanced" : "FAILED");
  return ok;
}

int main(int argc, char **argv) {
  const char *model = argc > 1 ? argv[1] : "cart_pole.urdf";
  const double starts[3][4] = {{0.5, M_PI + 0.2, 0.0, 0.0},
                               {-1.0, M_PI - 0.3, 0.5, 0.0},
                               {0.0, M_PI + 0.1, 0.0, -1.0}};
  teal_error err = {0};
  cart_pole_app app = {0};
  printf("Cart-pole LQR balance (%s), continuous plant, RK3\n", model);
  if (!(app.plant = load_plant(model, &err))) {
    return fail("loading the model", &err);
  }
  printf("force limit %.0f N (URDF), runs from x0 = (x m, theta rad, xdot m/s, thetadot rad/s)\n",
         force_limit(app.plant));
  if (!(app.lqr = make_lqr(app.plant, app.K, &err))) {
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
  int balanced = 0, rc = 0;
  for (int k = 0; k < 3 && rc >= 0; k++) {
    balanced += (rc = run_once(&app, starts[k], &err)) > 0;
    if (k == 0 && rc >= 0) { /* the first run's replay; a missing three.js is only reported */
      teal_error e = {0};
      const teal_vector_log *x =
          teal_vector_log_sink_log(app.logger, teal_simulator_context(app.sim));
      static const char *const names[4] = {"x", "theta", "xdot", "thetadot"};
      teal_replay_plot plot = {"state (m, rad, m/s, rad/s)", x->count, 4, x->times, x->data, names};
      teal_replay_options opts = teal_replay_options_default();
      opts.title = "Cart-pole LQR balance (run 0)";
      opts.plots = &plot; /* the state log beside the scene */
      opts.num_plots = 1;
      if (teal_visualizer_write_html(app.visualizer, teal_simulator_context(app.sim),
                                     "cart_pole_lqr.html", &opts, &e) == TEAL_OK) {
        printf("replay: cart_pole_lqr.html (open it in a browser)\n");
      } else {
        fprintf(stderr, "cart_pole_lqr: no replay written: %s\n", e.message);
      }
    }
  }
  teal_simulator_free(app.sim);
  teal_system_free(app.diagram);
  if (rc < 0) {
    return fail("simulating", &err);
  }
  printf("%d of 3 runs balanced within %.0e of upright\n", balanced, TOLERANCE);
  return balanced == 3 ? 0 : 1;
}
