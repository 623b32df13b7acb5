/* A 7-dof arm tracking a joint trajectory with an inverse dynamics
 * controller (Drake's InverseDynamicsController).
 *
 * 1. Load models/iiwa7_like.urdf into a continuous plant (RK3 with error
 *    control at accuracy 1e-6).
 * 2. The reference is a cubic spline through 5 waypoints, 1 s apart; a
 *    trajectory source outputs q_d, v_d and vd_d, a multiplexer joins q_d and
 *    v_d into the desired state.
 * 3. The controller computes
 *      tau = M(q) (vd_d + Kp (q_d - q) + Kd (v_d - v)) + C(q, v) v - tau_g(q)
 *    (plus the joint damping) with Kp = 100, Kd = 20 (critically damped
 *    error, 10 rad/s) and Ki = 0, and drives the plant's actuation.
 * 4. Start 0.1 rad off the reference on every joint, at rest, run the 4 s
 *    trajectory and print per joint the tracking error after a 1 s
 *    transient (next to what the linear error dynamics predict: the model
 *    is perfect) and the peak torque against the URDF's effort limit (a
 *    continuous plant does not clamp torques, so check them).
 *
 * Passes when every joint tracks within 1e-3 rad after the transient and
 * no torque exceeds its joint's effort limit. */
#include <math.h>
#include <stdio.h>

#include "multibody/contact/plant_scene_graph.h"
#include "multibody/plant/plant_state.h"
#include "multibody/tree/topology.h"
#include "teal.h"

#define N 7
#define NUM_WAYPOINTS 5
#define TRANSIENT 1.0 /* s */
#define BOUND 1e-3    /* rad */
#define OFFSET 0.1    /* initial error on every joint, rad */
#define KP 100.0
#define KD 20.0

/* Joint angles at t = 0, 1, 2, 3, 4 s (inside the +-2.0 / +-2.9 rad limits). */
static const double kWaypoints[NUM_WAYPOINTS][N] = {{0.0, 0.3, 0.0, -1.2, 0.0, 0.6, 0.0},
                                                    {0.5, 0.6, 0.3, -0.8, 0.4, 0.9, 0.5},
                                                    {1.0, 0.2, -0.3, -1.4, -0.3, 0.3, 1.0},
                                                    {0.4, -0.2, 0.2, -1.0, 0.5, 0.7, -0.2},
                                                    {0.0, 0.3, 0.0, -1.2, 0.0, 0.6, 0.0}};

static int fail(const char *what, const teal_error *err) {
  fprintf(stderr, "arm_inverse_dynamics: %s: %s (%s)\n", what, err->message,
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

/* The controller's generalized forces drive the actuation input directly,
 * which needs actuator i on velocity i for every joint. */
static int actuated_in_velocity_order(const teal_plant *plant, teal_error *err) {
  for (int i = 0; i < N; i++) {
    if (teal_plant_nu(plant) != N || teal_plant_actuator_v_index(plant, i) != i) {
      return teal_error_set(err, TEAL_EINVAL, "the model needs one actuator per joint, in order");
    }
  }
  return teal_plant_nv(plant) == N ? TEAL_OK
                                   : teal_error_set(err, TEAL_ESIZE, "the model needs nv = %d", N);
}

/* The reference: a not-a-knot cubic spline through the waypoints. */
static teal_piecewise_polynomial *make_reference(teal_error *err) {
  double breaks[NUM_WAYPOINTS];
  for (int k = 0; k < NUM_WAYPOINTS; k++) {
    breaks[k] = k;
  }
  return teal_piecewise_polynomial_cubic_spline(breaks, &kWaypoints[0][0], NUM_WAYPOINTS, N,
                                                TEAL_SPLINE_NOT_A_KNOT, err);
}

/*   reference.y, .ydot -> desired_state -> controller <- plant.state
 *   reference.yddot -> controller.desired_acceleration
 *   controller.generalized_force -> plant.actuation (and torque_log) */
static teal_system *build(teal_plant *plant, const teal_piecewise_polynomial *ref,
                          teal_error *err) {
  double kp[N], ki[N] = {0}, kd[N];
  for (int j = 0; j < N; j++) {
    kp[j] = KP;
    kd[j] = KD;
  }
  const int sizes[2] = {N, N};
  teal_builder *b = teal_builder_new("arm_inverse_dynamics");
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, plant, err);
  teal_add_visualizer(b, sg, NULL, err); /* named "visualizer" */
  teal_builder_add(b, teal_trajectory_source_new("reference", ref, 2, err));
  teal_builder_add(b, teal_multiplexer_new("desired_state", sizes, 2, err));
  teal_builder_add(b, teal_inverse_dynamics_controller_new("controller", plant, kp, ki, kd, N,
                                                           1, err));
  teal_builder_add(b, teal_vector_log_sink_new("state_log", 2 * N, 0.01, err));
  teal_builder_add(b, teal_vector_log_sink_new("torque_log", N, 0.01, err));
  teal_builder_connect_by_name(b, "reference", "y", "desired_state", "u0");
  teal_builder_connect_by_name(b, "reference", "ydot", "desired_state", "u1");
  teal_builder_connect_by_name(b, "desired_state", "y", "controller", "desired_state");
  teal_builder_connect_by_name(b, "reference", "yddot", "controller", "desired_acceleration");
  teal_builder_connect_by_name(b, "plant", "state", "controller", "estimated_state");
  teal_builder_connect_by_name(b, "controller", "generalized_force", "plant", "actuation");
  teal_builder_connect_by_name(b, "plant", "state", "state_log", "data");
  teal_builder_connect_by_name(b, "controller", "generalized_force", "torque_log", "data");
  return teal_builder_build(b, err);
}

/* Largest |q_d - q| per joint over the logged samples after the transient. */
static void tracking_errors(const teal_vector_log *log, const teal_piecewise_polynomial *ref,
                            double *err_max) {
  double qd[N];
  for (int j = 0; j < N; j++) {
    err_max[j] = 0.0;
  }
  for (int s = 0; s < log->count; s++) {
    if (log->times[s] < TRANSIENT) {
      continue;
    }
    teal_piecewise_polynomial_value(ref, log->times[s], qd);
    for (int j = 0; j < N; j++) {
      err_max[j] = fmax(err_max[j], fabs(qd[j] - log->data[(size_t)s * 2 * N + j]));
    }
  }
}

/* The error e = q_d - q of a perfect-model loop obeys e'' + KD e' + KP e = 0,
 * critically damped at w = sqrt(KP): e(t) = (e0 + (e0' + w e0) t) exp(-w t),
 * with e0 = -OFFSET and e0' = v_d(0) (the arm starts at rest). */
static double predicted_error(const teal_piecewise_polynomial *ref, int j, double t) {
  double vd0[N], w = sqrt(KP), e0 = -OFFSET;
  teal_piecewise_polynomial_derivative(ref, 0.0, 1, vd0);
  return fabs((e0 + (vd0[j] + w * e0) * t) * exp(-w * t));
}

/* The run's replay; a missing three.js is only reported. */
static void write_replay(const teal_system *diagram, const teal_context *ctx) {
  const teal_vector_log *x =
      teal_vector_log_sink_log(teal_diagram_find_subsystem(diagram, "state_log"), ctx);
  const teal_vector_log *u =
      teal_vector_log_sink_log(teal_diagram_find_subsystem(diagram, "torque_log"), ctx);
  static const char *const xnames[2 * N] = {"q1", "q2", "q3", "q4", "q5", "q6", "q7",
                                            "v1", "v2", "v3", "v4", "v5", "v6", "v7"};
  static const char *const unames[N] = {"tau1", "tau2", "tau3", "tau4", "tau5", "tau6", "tau7"};
  teal_replay_plot plots[2] = {
      {"joint state (rad, rad/s)", x->count, 2 * N, x->times, x->data, xnames},
      {"joint torques (N m)", u->count, N, u->times, u->data, unames}};
  teal_replay_options opts = teal_replay_options_default();
  opts.title = "7-dof arm tracking a spline (inverse dynamics)";
  opts.plots = plots; /* the two log sinks beside the scene */
  opts.num_plots = 2;
  teal_error err = {0};
  if (teal_visualizer_write_html(teal_diagram_find_subsystem(diagram, "visualizer"), ctx,
                                 "arm_inverse_dynamics.html", &opts, &err) != TEAL_OK) {
    fprintf(stderr, "arm_inverse_dynamics: no replay written: %s\n", err.message);
    return;
  }
  printf("replay: arm_inverse_dynamics.html (open it in a browser)\n");
}

/* Prints the per-joint table; returns 1 when every joint tracked. */
static int report(const teal_plant *plant, const teal_vector_log *xs, const teal_vector_log *us,
                  const teal_piecewise_polynomial *ref) {
  const double *limit = teal_plant_get_tree(plant)->effort_limit;
  double err_max[N];
  int ok = 1;
  tracking_errors(xs, ref, err_max);
  printf("joint  max |q_d - q| after %.0f s  (predicted |e(%.0f s)|)  peak |tau|  effort limit\n",
         TRANSIENT, TRANSIENT);
  for (int j = 0; j < N; j++) {
    double peak = 0.0;
    for (int s = 0; s < us->count; s++) {
      peak = fmax(peak, fabs(us->data[(size_t)s * N + j]));
    }
    printf("  %d    %20.2e    (%9.2e rad)  %7.1f N m  %8.0f N m\n", j + 1, err_max[j],
           predicted_error(ref, j, TRANSIENT), peak, limit[j]);
    ok = ok && err_max[j] < BOUND && peak <= limit[j];
  }
  return ok;
}

static int simulate(teal_system *diagram, teal_plant *plant, const teal_piecewise_polynomial *ref,
                    teal_error *err) {
  teal_simulator *sim = teal_simulator_new(diagram, NULL, err);
  if (!sim) {
    return -1;
  }
  teal_context *ctx = teal_simulator_context(sim);
  double x0[2 * N] = {0};
  teal_piecewise_polynomial_value(ref, 0.0, x0);
  for (int j = 0; j < N; j++) {
    x0[j] += OFFSET; /* start off the reference, at rest */
  }
  teal_plant_set_state(plant, ctx, x0, 2 * N);
  teal_simulator_set_accuracy(sim, 1e-6);
  teal_sim_status st;
  int ok = -1;
  if (teal_simulator_advance_to(sim, teal_piecewise_polynomial_end_time(ref), &st) != TEAL_OK) {
    teal_error_set(err, st.code, "%s", st.message);
  } else {
    const teal_system *xlog = teal_diagram_find_subsystem(diagram, "state_log");
    const teal_system *ulog = teal_diagram_find_subsystem(diagram, "torque_log");
    ok = report(plant, teal_vector_log_sink_log(xlog, ctx), teal_vector_log_sink_log(ulog, ctx),
                ref);
    teal_sim_stats stats = teal_simulator_get_stats(sim);
    printf("%ld integration steps, %s\n", stats.steps,
           ok ? "every joint tracked within 1e-3 rad, torques within limits"
              : "FAILED (tracking error or torque limit)");
    write_replay(diagram, ctx);
  }
  teal_simulator_free(sim);
  return ok;
}

int main(int argc, char **argv) {
  const char *model = argc > 1 ? argv[1] : "iiwa7_like.urdf";
  teal_error err = {0};
  printf("7-dof arm, inverse dynamics controller (%s), continuous plant, RK3\n", model);
  teal_plant *plant = load_plant(model, &err);
  if (!plant || actuated_in_velocity_order(plant, &err) != TEAL_OK) {
    teal_plant_free(plant);
    return fail("loading the model", &err);
  }
  teal_piecewise_polynomial *ref = make_reference(&err);
  if (!ref) {
    teal_plant_free(plant);
    return fail("making the reference", &err);
  }
  teal_system *diagram = build(plant, ref, &err);
  const char *stage = diagram ? "simulating" : "building the diagram";
  int ok = diagram ? simulate(diagram, plant, ref, &err) : -1;
  teal_system_free(diagram);
  teal_piecewise_polynomial_free(ref);
  if (ok < 0) {
    return fail(stage, &err);
  }
  return ok ? 0 : 1;
}
