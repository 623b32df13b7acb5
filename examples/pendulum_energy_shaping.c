/* Pendulum swing-up by energy shaping, then LQR balance at the top.
 *
 * 1. Load models/pendulum.urdf into a continuous plant (RK3 with error
 *    control). theta = 0 hangs down, theta = pi is upright.
 * 2. Read the model back from the plant: inertia I (the mass matrix), m g l
 *    (half the potential energy gained from bottom to top), joint damping b
 *    and the actuator's effort limit; design an LQR gain about the upright.
 * 3. A small leaf "swing_up" picks the controller from the state:
 *      near upright:  u = -K (theta - pi, thetadot)            (LQR)
 *      elsewhere:     u = k (E_top - E) thetadot + b thetadot  (energy pump)
 *    with E = I thetadot^2 / 2 + m g l (1 - cos theta), so that without
 *    saturation dE/dt = k (E_top - E) thetadot^2 drives E to E_top. A
 *    saturation block clamps u to the URDF's effort limit (a continuous
 *    plant does not clamp by itself).
 * 4. Start hanging at rest with a 0.01 rad nudge and run 10 s, once with
 *    the URDF's 10 N m motor (more than m g l: it swings up at once) and once
 *    with a 2 N m motor (it has to pump several swings). Each run passes
 *    when the LQR has held the pendulum for at least the last second and it
 *    ends balanced (within 1e-3 of upright).
 *
 * 5. Write the weak motor's swing-up as a replay,
 *    pendulum_energy_shaping.html (open it in a browser).
 *
 * Usage: pendulum_energy_shaping [model.urdf]. */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <math.h>
#include <stdio.h>

#include "multibody/contact/plant_scene_graph.h"
#include "multibody/plant/plant_state.h"
#include "multibody/tree/topology.h"
#include "teal.h"

#define RUN_SECONDS 10.0
#define ENERGY_GAIN 1.0 /* k, 1 / (J s) */

/* Everything the controller knows about the pendulum. */
typedef struct pendulum_model {
  double inertia, mgl, damping, effort_limit;
  double K[2]; /* LQR gain on (theta - pi, thetadot) */
} pendulum_model;

static int fail(const char *what, const teal_error *err) {
  fprintf(stderr, "pendulum_energy_shaping: %s: %s (%s)\n", what, err->message,
          teal_strerror(err->code));
  return 1;
}

static teal_plant *load_plant(const char *path, teal_error *err) {
  teal_plant *plant = teal_plant_new(0.0, err);
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

/* I, m g l, b and the effort limit, measured on a context of the plant. */
static void measure_model(teal_plant *plant, teal_context *ctx, pendulum_model *m) {
  const teal_system *sys = teal_plant_system(plant);
  const teal_plant_tree *tree = teal_plant_get_tree(plant);
  double down = 0.0, up = M_PI, pe_down, pe_up;
  const double *M;
  teal_plant_set_positions(plant, ctx, &down, 1);
  teal_plant_eval_mass_matrix(plant, ctx, &M);
  m->inertia = M[0];
  teal_calc_potential_energy(sys, ctx, &pe_down);
  teal_plant_set_positions(plant, ctx, &up, 1);
  teal_calc_potential_energy(sys, ctx, &pe_up);
  m->mgl = 0.5 * (pe_up - pe_down);
  m->damping = tree->damping[0];
  m->effort_limit = tree->effort_limit[teal_plant_actuator_v_index(plant, 0)];
}

/* LQR gain about the upright from the plant's linearization. */
static int design_lqr(teal_plant *plant, teal_context *ctx, pendulum_model *m, teal_error *err) {
  double x0[2] = {M_PI, 0.0}, u0 = 0.0, Q[4] = {10, 0, 0, 1}, R = 1.0;
  teal_linearize_options opts;
  teal_linearize_options_init(&opts);
  opts.input_port = teal_plant_actuation_input_port(plant);
  opts.output_port = -1;
  teal_plant_set_state(plant, ctx, x0, 2);
  teal_context_fix_input(ctx, opts.input_port, &u0, 1);
  teal_linear_system_matrices lin;
  int rc = teal_linearize_matrices(teal_plant_system(plant), ctx, &opts, &lin, err);
  if (rc == TEAL_OK) {
    rc = teal_lqr(lin.A, lin.B, Q, &R, NULL, 2, 1, 0, m->K, NULL, err);
    teal_linear_system_matrices_free(&lin);
  }
  return rc;
}

static double wrap_angle(double a) {
  return remainder(a, 2.0 * M_PI); /* into [-pi, pi] */
}

/* The balance region where the LQR takes over. */
static int near_upright(const double *x) {
  return fabs(wrap_angle(x[0] - M_PI)) < 0.5 && fabs(x[1]) < 3.0;
}

static double energy(const pendulum_model *m, const double *x) {
  return 0.5 * m->inertia * x[1] * x[1] + m->mgl * (1.0 - cos(x[0]));
}

/* The swing_up leaf's output: u from the state input. */
static int calc_torque(const teal_system *sys, const teal_context *ctx, double *u, void *user) {
  const pendulum_model *m = user;
  const double *x;
  int rc = teal_eval_vector_input(sys, ctx, 0, &x);
  if (rc != TEAL_OK) {
    return rc;
  }
  if (near_upright(x)) {
    u[0] = -m->K[0] * wrap_angle(x[0] - M_PI) - m->K[1] * x[1];
  } else {
    u[0] = ENERGY_GAIN * (2.0 * m->mgl - energy(m, x)) * x[1] + m->damping * x[1];
  }
  return TEAL_OK;
}

static teal_system *swing_up_new(pendulum_model *m) {
  teal_system *sys = teal_leaf_new("swing_up", m, NULL);
  teal_leaf_declare_vector_input(sys, "state", 2);
  teal_leaf_declare_vector_output(sys, "torque", 1, calc_torque, m, NULL, 0);
  teal_leaf_finalize(sys); /* a failure is sticky and reported by the builder */
  return sys;
}

static teal_system *build(teal_plant *plant, pendulum_model *m, teal_error *err) {
  double lo = -m->effort_limit, hi = m->effort_limit;
  teal_builder *b = teal_builder_new("pendulum_energy_shaping");
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, plant, err);
  teal_add_visualizer(b, sg, NULL, err); /* named "visualizer" */
  teal_builder_add(b, swing_up_new(m));
  teal_builder_add(b, teal_saturation_new("saturation", &lo, &hi, 1, err));
  teal_builder_add(b, teal_vector_log_sink_new("state_log", 2, 0.01, err));
  teal_builder_add(b, teal_vector_log_sink_new("torque_log", 1, 0.01, err));
  teal_builder_connect_by_name(b, "plant", "state", "swing_up", "state");
  teal_builder_connect_by_name(b, "swing_up", "torque", "saturation", "u");
  teal_builder_connect_by_name(b, "saturation", "y", "plant", "actuation");
  teal_builder_connect_by_name(b, "plant", "state", "state_log", "data");
  teal_builder_connect_by_name(b, "saturation", "y", "torque_log", "data");
  return teal_builder_build(b, err);
}

/* Prints the pumping every 0.5 s; returns the time the LQR took over for
 * good and the peak torque applied. */
static double report(const pendulum_model *m, const teal_vector_log *xs,
                     const teal_vector_log *us, double *peak_torque) {
  double t_switch = 0.0;
  *peak_torque = 0.0;
  for (int s = 0; s < xs->count && s < us->count; s++) {
    *peak_torque = fmax(*peak_torque, fabs(us->data[s]));
    t_switch = near_upright(xs->data + 2 * (size_t)s) ? t_switch : xs->times[s];
  }
  printf("   t [s]  theta [rad]  thetadot  E / E_top  torque  mode\n");
  for (int s = 0; s < xs->count && s < us->count; s += 50) {
    const double *x = xs->data + 2 * (size_t)s;
    printf("  %6.2f  %11.3f  %8.3f  %9.3f  %+6.2f  %s\n", xs->times[s], x[0], x[1],
           energy(m, x) / (2.0 * m->mgl), us->data[s], near_upright(x) ? "LQR" : "pump");
    if (xs->times[s] > t_switch) {
      break;
    }
  }
  return t_switch;
}

/* The run's replay at path; a missing three.js is only reported. */
static void write_replay(const teal_system *diagram, const teal_context *ctx, const char *path) {
  const teal_vector_log *x =
      teal_vector_log_sink_log(teal_diagram_find_subsystem(diagram, "state_log"), ctx);
  const teal_vector_log *u =
      teal_vector_log_sink_log(teal_diagram_find_subsystem(diagram, "torque_log"), ctx);
  static const char *const xnames[2] = {"theta", "thetadot"}, *const unames[1] = {"torque"};
  teal_replay_plot plots[2] = {{"state (rad, rad/s)", x->count, 2, x->times, x->data, xnames},
                               {"torque (N m)", u->count, 1, u->times, u->data, unames}};
  teal_replay_options opts = teal_replay_options_default();
  opts.title = "Pendulum swing-up (2 N m motor)";
  opts.plots = plots; /* the two log sinks beside the scene */
  opts.num_plots = 2;
  teal_error err = {0};
  if (teal_visualizer_write_html(teal_diagram_find_subsystem(diagram, "visualizer"), ctx, path,
                                 &opts, &err) != TEAL_OK) {
    fprintf(stderr, "pendulum_energy_shaping: no replay written: %s\n", err.message);
    return;
  }
  printf("replay: %s (open it in a browser)\n", path);
}

/* Simulates from hanging at rest plus a nudge; 1 when it ends balanced.
 * Writes the replay to replay (NULL: none). */
static int simulate(teal_system *diagram, teal_plant *plant, const pendulum_model *m,
                    const char *replay, teal_error *err) {
  teal_simulator *sim = teal_simulator_new(diagram, NULL, err);
  if (!sim) {
    return -1;
  }
  teal_context *ctx = teal_simulator_context(sim);
  double x0[2] = {0.01, 0.0}, xf[2], peak;
  teal_plant_set_state(plant, ctx, x0, 2);
  teal_sim_status st;
  int ok = -1;
  if (teal_simulator_advance_to(sim, RUN_SECONDS, &st) != TEAL_OK) {
    teal_error_set(err, st.code, "%s", st.message);
  } else {
    const teal_system *xlog = teal_diagram_find_subsystem(diagram, "state_log");
    const teal_system *ulog = teal_diagram_find_subsystem(diagram, "torque_log");
    double t_switch = report(m, teal_vector_log_sink_log(xlog, ctx),
                             teal_vector_log_sink_log(ulog, ctx), &peak);
    teal_plant_get_state(plant, ctx, xf, 2);
    double dev = fabs(wrap_angle(xf[0] - M_PI)) + fabs(xf[1]);
    ok = dev < 1e-3 && t_switch < RUN_SECONDS - 1.0;
    printf("  LQR from t = %.2f s, peak torque %.2f N m, final error %.1e: %s\n", t_switch, peak,
           dev, ok ? "balanced" : "FAILED");
    if (replay) {
      write_replay(diagram, ctx, replay);
    }
  }
  teal_simulator_free(sim);
  return ok;
}

/* One swing-up with the motor limited to torque_limit (0: the URDF's);
 * its replay goes to replay (NULL: none). */
static int run(const char *model, double torque_limit, const char *replay, teal_error *err) {
  pendulum_model m = {0};
  teal_plant *plant = load_plant(model, err);
  teal_context *ctx = plant ? teal_context_new(teal_plant_system(plant), err) : NULL;
  if (!ctx) {
    teal_plant_free(plant);
    return -1;
  }
  measure_model(plant, ctx, &m);
  int rc = design_lqr(plant, ctx, &m, err);
  teal_context_free(ctx);
  if (rc != TEAL_OK) {
    teal_plant_free(plant);
    return -1;
  }
  if (torque_limit > 0.0) {
    m.effort_limit = fmin(m.effort_limit, torque_limit);
  }
  printf("\ntorque limit %.1f N m (I = %.3f kg m^2, m g l = %.3f N m, b = %.2f N m s, "
         "K = [%.2f %.2f])\n",
         m.effort_limit, m.inertia, m.mgl, m.damping, m.K[0], m.K[1]);
  teal_system *diagram = build(plant, &m, err);
  if (!diagram) {
    return -1;
  }
  int ok = simulate(diagram, plant, &m, replay, err);
  teal_system_free(diagram);
  return ok;
}

int main(int argc, char **argv) {
  const char *model = argc > 1 ? argv[1] : "pendulum.urdf";
  const double limits[2] = {0.0, 2.0}; /* the URDF's motor, then a weak one */
  teal_error err = {0};
  printf("Pendulum energy-shaping swing-up + LQR (%s), continuous plant, RK3\n", model);
  int balanced = 0;
  for (int k = 0; k < 2; k++) {
    int ok = run(model, limits[k], k == 1 ? "pendulum_energy_shaping.html" : NULL, &err);
    if (ok < 0) {
      return fail("running", &err);
    }
    balanced += ok;
  }
  printf("\n%d of 2 swing-ups balanced\n", balanced);
  return balanced == 2 ? 0 : 1;
}
