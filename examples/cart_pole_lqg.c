/* Cart-pole LQG: balance the cart-pole when only the cart position and the
 * pole angle are measured, with noise, by an LQR acting on the estimate of
 * a steady-state Kalman filter.
 *
 * 1. Load models/cart_pole.urdf into a continuous plant (error-controlled
 *    RK3). The state is x = [cart x, pole theta, xdot, thetadot]; upright is
 *    theta = pi.
 * 2. Linearize about the upright: x' = A x + B u + f0 in absolute
 *    coordinates, seen through y = [x, theta]. teal_lqg_controller_new
 *    makes the LQG compensator of that model: the LQR (Q = diag(100, 10,
 *    1, 1), R = 0.01) about the upright acting on the estimate of a
 *    steady-state Kalman filter, with process noise W on the velocities
 *    and measurement noise V.
 * 3. The measurement is y = C x + sigma n, n a seeded Gaussian random
 *    source held for 1 ms; the compensator reads y and sends the force
 *    (which its filter also reads) through a saturation that clamps it to
 *    the URDF's 100 N.
 * 4. Run 8 s from a few perturbations, the estimate starting at the first
 *    measurement with zero velocities. A run passes when, over the last
 *    two seconds, the pole stays within 0.02 rad of upright, the cart
 *    within 0.05 m of the middle, and the estimate's RMS error in theta is
 *    below the raw measurement's noise.
 *
 * Usage: cart_pole_lqg [model.urdf]. Exits non-zero unless every run
 * balances. */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <math.h>
#include <stdio.h>

#include "teal.h"

#define RUN_SECONDS 8.0
#define NOISE_PERIOD 1e-3

static const double kUpright[4] = {0.0, M_PI, 0.0, 0.0};
static const double kSigma[2] = {0.01, 0.005}; /* m, rad: the sensors' noise */
static const double kMeasure[8] = {1, 0, 0, 0, 0, 1, 0, 0};

typedef struct lqg_app {
  teal_plant *plant;
  teal_system *diagram, *lqg, *noise, *plant_log, *estimate_log, *visualizer;
  teal_simulator *sim;
} lqg_app;

static int fail(const char *what, const teal_error *err) {
  fprintf(stderr, "cart_pole_lqg: %s: %s (%s)\n", what, err->message, teal_strerror(err->code));
  return 1;
}

static teal_plant *load_plant(const char *path, teal_error *err) {
  teal_plant *plant = teal_plant_new(0.0, err);
  if (plant &&
      (teal_urdf_load_file(plant, path, NULL, err) < 0 || teal_plant_finalize(plant) != TEAL_OK)) {
    if (err->code == TEAL_OK) {
      *err = *teal_plant_error(plant);
    }
    teal_plant_free(plant);
    return NULL;
  }
  return plant;
}

/* The LQG compensator from the plant's linearization at the upright. */
static int design(lqg_app *app, teal_error *err) {
  teal_system *sys = teal_plant_system(app->plant);
  teal_context *ctx = teal_context_new(sys, err);
  if (!ctx) {
    return err->code;
  }
  double u0 = 0.0, R = 0.01, K[4];
  double Q[16] = {100, 0, 0, 0, 0, 10, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  /* process noise on the velocities; V the sensors' variance times the
   * hold period: the spectral density of the held noise */
  double W[16] = {1e-6, 0, 0, 0, 0, 1e-6, 0, 0, 0, 0, 1e-2, 0, 0, 0, 0, 1e-2};
  double V[4] = {kSigma[0] * kSigma[0] * NOISE_PERIOD, 0, 0, kSigma[1] * kSigma[1] * NOISE_PERIOD};
  teal_linearize_options opts;
  teal_linearize_options_init(&opts);
  opts.input_port = teal_plant_actuation_input_port(app->plant);
  opts.output_port = -1;
  opts.equilibrium_tolerance = 0.0;
  teal_plant_set_state(app->plant, ctx, kUpright, 4);
  teal_context_fix_input(ctx, opts.input_port, &u0, 1);
  teal_linear_system_matrices lin = {0};
  if (teal_linearize_matrices(sys, ctx, &opts, &lin, err) == TEAL_OK) {
    teal_linear_system_matrices model = {4, 1, 2, 0.0, lin.A, lin.B, lin.f0, kMeasure, NULL, NULL};
    app->lqg = teal_lqg_controller_new("lqg", &model, kUpright, &u0, Q, &R, W, V, K, NULL, err);
    if (app->lqg) {
      printf("LQR gain K = [%.2f %.2f %.2f %.2f]\n", K[0], K[1], K[2], K[3]);
    }
  }
  teal_linear_system_matrices_free(&lin);
  teal_context_free(ctx);
  return app->lqg ? TEAL_OK : err->code;
}

/* y = C x + sigma n: the measurement of the cart position and the angle. */
static void add_sensor(teal_builder *b, teal_system **noise, teal_error *err) {
  const double sigma[4] = {kSigma[0], 0, 0, kSigma[1]};
  teal_builder_add(b, teal_matrix_gain_new("measure", kMeasure, 2, 4, err));
  *noise = teal_builder_add(
      b, teal_random_source_new("noise", TEAL_NOISE_GAUSSIAN, 2, NOISE_PERIOD, 7, err));
  teal_builder_add(b, teal_matrix_gain_new("noise_scale", sigma, 2, 2, err));
  teal_builder_add(b, teal_adder_new("sensor", 2, 2, err));
  teal_builder_connect_by_name(b, "plant", "state", "measure", "u");
  teal_builder_connect_by_name(b, "noise", "y", "noise_scale", "u");
  teal_builder_connect_by_name(b, "measure", "y", "sensor", "u0");
  teal_builder_connect_by_name(b, "noise_scale", "y", "sensor", "u1");
}

static int build(lqg_app *app, teal_error *err) {
  double hi = teal_plant_actuator_effort_limit(app->plant, 0), lo = -hi;
  teal_builder *b = teal_builder_new("cart_pole_lqg");
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, app->plant, err);
  app->visualizer = teal_add_visualizer(b, sg, NULL, err);
  add_sensor(b, &app->noise, err);
  teal_builder_add(b, app->lqg);
  teal_builder_add(b, teal_saturation_new("saturation", &lo, &hi, 1, err));
  app->plant_log = teal_builder_add(b, teal_vector_log_sink_new("plant_log", 4, 0.01, err));
  app->estimate_log = teal_builder_add(b, teal_vector_log_sink_new("estimate_log", 4, 0.01, err));
  teal_builder_connect_by_name(b, "sensor", "sum", "lqg", "measurement");
  teal_builder_connect_by_name(b, "lqg", "control", "saturation", "u");
  teal_builder_connect_by_name(b, "saturation", "y", "plant", "actuation");
  teal_builder_connect_by_name(b, "plant", "state", "plant_log", "data");
  teal_builder_connect_by_name(b, "lqg", "estimated_state", "estimate_log", "data");
  app->diagram = teal_builder_build(b, err);
  return app->diagram ? TEAL_OK : err->code;
}

/* Over the last two seconds: the largest |theta - pi| and |x|, and the RMS
 * error of the estimated theta. */
static void judge(const teal_vector_log *x, const teal_vector_log *xhat, double *angle,
                  double *cart, double *rms) {
  double sum = 0;
  int n = 0;
  *angle = *cart = 0;
  for (int s = 0; s < x->count && s < xhat->count; s++) {
    if (x->times[s] < RUN_SECONDS - 2.0) {
      continue;
    }
    const double *xs = x->data + (size_t)s * 4, *es = xhat->data + (size_t)s * 4;
    *angle = fmax(*angle, fabs(xs[1] - M_PI));
    *cart = fmax(*cart, fabs(xs[0]));
    sum += (es[1] - xs[1]) * (es[1] - xs[1]);
    n++;
  }
  *rms = n ? sqrt(sum / n) : INFINITY;
}

/* One run from x0 with its own noise seed, the estimate starting at the
 * measured position and angle; 1 when it balanced, 0 when not, -1 on error. */
static int run_once(lqg_app *app, const double *x0, uint64_t seed, teal_error *err) {
  teal_context *ctx = teal_simulator_context(app->sim);
  teal_context_set_to_defaults(ctx);
  teal_context_set_time(ctx, 0.0);
  teal_random_source_set_seed(app->noise, ctx, seed);
  teal_plant_set_state(app->plant, ctx, x0, 4);
  const double xhat0[4] = {x0[0], x0[1], 0.0, 0.0};
  teal_context_set_continuous_state(teal_context_subcontext_mut(ctx, app->lqg), xhat0, 4);
  teal_vector_log_sink_clear(app->plant_log, ctx);
  teal_vector_log_sink_clear(app->estimate_log, ctx);
  teal_visualizer_clear(app->visualizer, ctx);
  teal_sim_status st;
  if (teal_simulator_initialize(app->sim, &st) ||
      teal_simulator_advance_to(app->sim, RUN_SECONDS, &st)) {
    teal_error_set(err, st.code, "%s", st.message);
    return -1;
  }
  double angle, cart, rms;
  judge(teal_vector_log_sink_log(app->plant_log, ctx),
        teal_vector_log_sink_log(app->estimate_log, ctx), &angle, &cart, &rms);
  int ok = angle < 0.02 && cart < 0.05 && rms < kSigma[1];
  printf(
      "  x0 = (%+.1f, pi%+.2f, %+.1f, %+.1f): last 2 s |theta - pi| <= %.4f rad, "
      "|x| <= %.4f m, estimate RMS error %.5f rad (sensor %.3f): %s\n",
      x0[0], x0[1] - M_PI, x0[2], x0[3], angle, cart, rms, kSigma[1], ok ? "balanced" : "FAILED");
  return ok;
}

/* The first run's replay; a missing three.js is only reported. */
static void write_replay(lqg_app *app) {
  teal_error err = {0};
  const teal_context *ctx = teal_simulator_context(app->sim);
  const teal_vector_log *x = teal_vector_log_sink_log(app->plant_log, ctx);
  const teal_vector_log *e = teal_vector_log_sink_log(app->estimate_log, ctx);
  static const char *const names[4] = {"x", "theta", "xdot", "thetadot"};
  teal_replay_plot plots[2] = {
      {"state (m, rad, m/s, rad/s)", x->count, 4, x->times, x->data, names},
      {"Kalman estimate", e->count, 4, e->times, e->data, names}};
  teal_replay_options opts = teal_replay_options_default();
  opts.title = "Cart-pole LQG (run 0)";
  opts.plots = plots; /* the two log sinks beside the scene */
  opts.num_plots = 2;
  if (teal_visualizer_write_html(app->visualizer, ctx, "cart_pole_lqg.html", &opts, &err) ==
      TEAL_OK) {
    printf("replay: cart_pole_lqg.html (open it in a browser)\n");
  } else {
    fprintf(stderr, "cart_pole_lqg: no replay written: %s\n", err.message);
  }
}

int main(int argc, char **argv) {
  const char *model = argc > 1 ? argv[1] : "cart_pole.urdf";
  const double starts[3][4] = {
      {0.3, M_PI + 0.1, 0.0, 0.0}, {-0.5, M_PI - 0.15, 0.3, 0.0}, {0.0, M_PI + 0.05, 0.0, -0.5}};
  teal_error err = {0};
  lqg_app app = {0};
  printf("Cart-pole LQG (%s): x and theta measured with noise %.3f m, %.3f rad\n", model, kSigma[0],
         kSigma[1]);
  if (!(app.plant = load_plant(model, &err))) {
    return fail("loading the model", &err);
  }
  if (design(&app, &err) != TEAL_OK) {
    teal_plant_free(app.plant);
    return fail("designing the LQG compensator", &err);
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
    balanced += (rc = run_once(&app, starts[k], 7u + (uint64_t)k, &err)) > 0;
    if (k == 0 && rc >= 0) {
      write_replay(&app);
    }
  }
  teal_simulator_free(app.sim);
  teal_system_free(app.diagram);
  if (rc < 0) {
    return fail("simulating", &err);
  }
  printf("%d of 3 runs balanced on the estimate\n", balanced);
  return balanced == 3 ? 0 : 1;
}
