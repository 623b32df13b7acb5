/* Acrobot swing-up: plan by direct collocation, track with a finite-horizon
 * LQR, then balance with the upright LQR (Drake's acrobot swing-up).
 *
 * 1. Load models/acrobot.urdf into a continuous plant and plan the swing-up
 *    from hanging (q = 0) to upright (q = (pi, 0)), at rest at both ends, by
 *    direct collocation (Hermite-Simpson, 61 samples, Ipopt): minimize the
 *    integral of u^2 with |v| <= 5 rad/s, the duration free, and the elbow
 *    torque within 5/6 of the motor's limit (the URDF's effort limit, or a
 *    stated 12 N m since the URDF sets none): the plan rides that bound for
 *    seconds, and a plan at the motor's own limit leaves the feedback no
 *    room there.
 * 2. For each plant mode (continuous; discrete at 1 ms): the upright LQR
 *    (Q = diag(10, 10, 1, 1), R = 1) from the plant's linearization, and the
 *    finite-horizon LQR about the plan with the same Q and R and Qf the
 *    upright LQR's cost-to-go S, so the hand-over costs agree.
 * 3. Wire plant + scene graph + both controllers + a switch that passes the
 *    finite-horizon controller's torque until the plan ends and the upright
 *    LQR's after it + a saturation at the motor's limit + state and torque
 *    loggers.
 * 4. Run each mode from a perturbed hanging start q0 = (0.05, -0.05) for
 *    the plan's duration plus SETTLE_SECONDS, write acrobot_swingup.csv
 *    (mode, time, q, v, u) and check that the final state is within
 *    TOLERANCE of upright.
 *
 * Usage: acrobot_swingup [model.urdf [log.csv]]. Exits non-zero unless both
 * runs end balanced. Built only with Ipopt (TEAL_WITH_IPOPT). */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <math.h>
#include <stdio.h>

#include "teal.h"

#define MOTOR_LIMIT 12.0          /* N m at the elbow when the URDF sets no effort limit */
#define PLAN_FRACTION (5.0 / 6.0) /* of the motor limit, for the plan */
#define SPEED_LIMIT 5.0           /* rad/s, both joints, during the plan */
#define NUM_SAMPLES 61
#define MIN_TIME_STEP 0.03
#define MAX_TIME_STEP 0.1
#define DISCRETE_STEP 1e-3
#define SETTLE_SECONDS 4.0
#define LOG_PERIOD 0.01
#define TOLERANCE 1e-2

static const double kHanging[4] = {0.0, 0.0, 0.0, 0.0};
static const double kUpright[4] = {M_PI, 0.0, 0.0, 0.0};
static const double kStart[4] = {0.05, -0.05, 0.0, 0.0};
static const double kQ[16] = {10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
static const double kR = 1.0;

/* The planned swing-up: x(t) (4 rows) and u(t) (1 row) on [0, duration],
 * with |u| <= torque_limit, below the motor's limit so that the feedback
 * has room on the plan's full-torque arcs. */
typedef struct swingup_plan {
  teal_piecewise_polynomial *x, *u;
  double duration, motor_limit, torque_limit;
} swingup_plan;

/* One closed loop; switch_time is read by the switch leaf. */
typedef struct swingup_loop {
  teal_plant *plant;
  teal_system *diagram, *state_log, *torque_log, *visualizer;
  teal_simulator *sim;
  double switch_time;
} swingup_loop;

static int fail(const char *what, const teal_error *err) {
  fprintf(stderr, "acrobot_swingup: %s: %s (%s)\n", what, err->message, teal_strerror(err->code));
  return 1;
}

static teal_plant *load_plant(const char *path, double time_step, teal_error *err) {
  teal_plant *plant = teal_plant_new(time_step, err);
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

/* Hanging to upright at rest, |u| and |v| bounded, from a straight-line
 * guess in the middle of the allowed durations. */
static int set_up_plan(teal_direct_collocation *dc, double torque_limit) {
  const double ulo = -torque_limit, uhi = torque_limit;
  const double xlo[4] = {-INFINITY, -INFINITY, -SPEED_LIMIT, -SPEED_LIMIT};
  const double xhi[4] = {INFINITY, INFINITY, SPEED_LIMIT, SPEED_LIMIT};
  double guess = 0.5 * (MIN_TIME_STEP + MAX_TIME_STEP) * (NUM_SAMPLES - 1);
  int rc = teal_direct_collocation_set_initial_state(dc, kHanging);
  rc = rc ? rc : teal_direct_collocation_set_final_state(dc, kUpright);
  rc = rc ? rc : teal_direct_collocation_set_input_bounds(dc, &ulo, &uhi);
  rc = rc ? rc : teal_direct_collocation_set_state_bounds(dc, xlo, xhi);
  return rc ? rc : teal_direct_collocation_set_initial_guess(dc, kHanging, kUpright, NULL, guess);
}

static void print_plan(const teal_direct_collocation *dc, const teal_direct_collocation_result *r) {
  double u[NUM_SAMPLES], peak = 0.0;
  teal_direct_collocation_inputs(dc, u);
  for (int k = 0; k < NUM_SAMPLES; k++) {
    peak = fmax(peak, fabs(u[k]));
  }
  printf("direct collocation: %s in %d Ipopt iterations, solve time %.3f s (%s Jacobians)\n",
         r->status_name, r->iterations, r->solve_seconds, r->analytic ? "analytic" : "numerical");
  printf("  plan: %.3f s, cost %.3f, peak torque %.3f N m, largest defect %.1e\n", r->duration,
         r->cost, peak, r->max_defect);
}

/* Solves the swing-up on the continuous plant and keeps its trajectories. */
static int plan_swing_up(teal_plant *plant, swingup_plan *plan, teal_error *err) {
  teal_system *sys = teal_plant_system(plant);
  teal_context *ctx = teal_context_new(sys, err);
  if (!ctx) {
    return err->code;
  }
  int port = teal_plant_actuation_input_port(plant);
  teal_direct_collocation *dc =
      teal_direct_collocation_new(sys, ctx, port, NUM_SAMPLES, MIN_TIME_STEP, MAX_TIME_STEP, err);
  teal_context_free(ctx); /* the problem keeps its own copy */
  if (!dc) {
    return err->code;
  }
  int nx = teal_direct_collocation_num_states(dc), nu = teal_direct_collocation_num_inputs(dc);
  teal_direct_collocation_result r;
  if (nx != 4 || nu != 1) {
    teal_error_set(err, TEAL_ESIZE,
                   "the swing-up needs an acrobot: 2 joints and 1 actuator (nx = 4, nu = 1), "
                   "the model has nx = %d, nu = %d",
                   nx, nu);
  } else if (set_up_plan(dc, plan->torque_limit) != TEAL_OK ||
             teal_direct_collocation_solve(dc, NULL, &r) != TEAL_OK) {
    *err = *teal_direct_collocation_error(dc);
  } else {
    print_plan(dc, &r);
    plan->duration = r.duration;
    plan->x = teal_direct_collocation_state_trajectory(dc, err);
    plan->u = plan->x ? teal_direct_collocation_input_trajectory(dc, err) : NULL;
  }
  teal_direct_collocation_free(dc);
  return plan->u ? TEAL_OK : err->code;
}

static void print_matrix(const char *name, const double *m, int n) {
  printf("  %s = [", name);
  for (int i = 0; i < n * n; i++) {
    printf("%.4g%s", m[i], i + 1 == n * n ? "]\n" : (i + 1) % n ? " " : "; ");
  }
}

/* The finite-horizon LQR about the plan on [0, tf] with Qf = S, and its
 * time-varying controller u = u0(t) - K(t) (x - x0(t)) - k0(t). */
static teal_system *make_tvlqr(teal_system *sys, const teal_context *ctx, int port,
                               const swingup_plan *plan, const double *S, double tf,
                               teal_error *err) {
  teal_finite_horizon_lqr_options o;
  teal_finite_horizon_lqr_options_init(&o);
  o.Qf = S;
  o.input_port = port;
  o.x0 = plan->x;
  o.u0 = plan->u;
  teal_finite_horizon_lqr_result res;
  if (teal_finite_horizon_lqr(sys, ctx, 0.0, tf, kQ, &kR, &o, &res, err) != TEAL_OK) {
    return NULL;
  }
  double K0[4];
  teal_piecewise_polynomial_value(res.K, 0.0, K0);
  printf(
      "  finite-horizon LQR on [0, %.3f] s, Q as above, R = %g, Qf = S; K(0) = [%.3f %.3f "
      "%.3f %.3f]\n",
      tf, kR, K0[0], K0[1], K0[2], K0[3]);
  teal_system *controller = teal_finite_horizon_lqr_controller_new("tvlqr", &res, err);
  teal_finite_horizon_lqr_result_free(&res);
  return controller;
}

/* The upright LQR (K, S) and the finite-horizon LQR that hands over to it
 * at loop->switch_time, both from this plant's own linearizations. */
static int design(swingup_loop *loop, const swingup_plan *plan, teal_system **tvlqr,
                  teal_system **lqr, teal_error *err) {
  teal_system *sys = teal_plant_system(loop->plant);
  teal_context *ctx = teal_context_new(sys, err);
  if (!ctx) {
    return err->code;
  }
  int port = teal_plant_actuation_input_port(loop->plant);
  double u0 = 0.0, K[4], S[16];
  if (teal_plant_set_state(loop->plant, ctx, kUpright, 4) != TEAL_OK ||
      teal_context_fix_input(ctx, port, &u0, 1) != TEAL_OK) {
    *err = *teal_context_error(ctx);
  } else if ((*lqr = teal_lqr_controller_new("lqr", sys, ctx, port, kQ, &kR, NULL, K, S, err))) {
    printf("  upright LQR: Q = diag(10, 10, 1, 1), R = %g, K = [%.3f %.3f %.3f %.3f]\n", kR, K[0],
           K[1], K[2], K[3]);
    print_matrix("Qf = S", S, 4);
    *tvlqr = make_tvlqr(sys, ctx, port, plan, S, loop->switch_time, err);
  }
  teal_context_free(ctx);
  return *lqr && *tvlqr ? TEAL_OK : err->code;
}

/* y = the finite-horizon torque (input 0) before the switch time, the
 * upright LQR's (input 1) from then on. */
static int calc_switch(const teal_system *sys, const teal_context *ctx, double *y, void *user) {
  const double *switch_time = user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, teal_context_time(ctx) < *switch_time ? 0 : 1, &u);
  if (rc == TEAL_OK) {
    y[0] = u[0];
  }
  return rc;
}

static teal_system *switch_new(const double *switch_time, teal_error *err) {
  teal_system *s = teal_leaf_new("switch", NULL, NULL);
  if (s) {
    teal_leaf_declare_vector_input(s, "tvlqr", 1);
    teal_leaf_declare_vector_input(s, "lqr", 1);
    teal_leaf_declare_vector_output(s, "y", 1, calc_switch, (void *)switch_time, NULL, 0);
  }
  if (!s || teal_leaf_finalize(s) != TEAL_OK) {
    teal_system_free(s);
    teal_error_set(err, TEAL_ENOMEM, "cannot make the controller switch");
    return NULL;
  }
  return s;
}

static int build(swingup_loop *loop, double motor_limit, teal_system *tvlqr, teal_system *lqr,
                 teal_error *err) {
  const double lo = -motor_limit, hi = motor_limit;
  teal_builder *b = teal_builder_new("acrobot_swingup");
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, loop->plant, err);
  loop->visualizer = teal_add_visualizer(b, sg, NULL, err);
  teal_builder_add(b, tvlqr);
  teal_builder_add(b, lqr);
  teal_builder_add(b, switch_new(&loop->switch_time, err));
  teal_builder_add(b, teal_saturation_new("saturation", &lo, &hi, 1, err));
  loop->state_log = teal_builder_add(b, teal_vector_log_sink_new("state_log", 4, LOG_PERIOD, err));
  loop->torque_log =
      teal_builder_add(b, teal_vector_log_sink_new("torque_log", 1, LOG_PERIOD, err));
  teal_builder_connect_by_name(b, "plant", "state", "tvlqr", "u");
  teal_builder_connect_by_name(b, "plant", "state", "lqr", "u");
  teal_builder_connect_by_name(b, "plant", "state", "state_log", "data");
  teal_builder_connect_by_name(b, "tvlqr", "y", "switch", "tvlqr");
  teal_builder_connect_by_name(b, "lqr", "y", "switch", "lqr");
  teal_builder_connect_by_name(b, "switch", "y", "saturation", "u");
  teal_builder_connect_by_name(b, "saturation", "y", "plant", "actuation");
  teal_builder_connect_by_name(b, "saturation", "y", "torque_log", "data");
  loop->diagram = teal_builder_build(b, err);
  return loop->diagram ? TEAL_OK : err->code;
}

static void write_csv(const swingup_loop *loop, const teal_context *ctx, const char *mode,
                      FILE *csv) {
  const teal_vector_log *x = teal_vector_log_sink_log(loop->state_log, ctx);
  const teal_vector_log *u = teal_vector_log_sink_log(loop->torque_log, ctx);
  for (int s = 0; csv && s < x->count && s < u->count; s++) {
    const double *xs = x->data + (size_t)s * 4;
    fprintf(csv, "%s,%.6f,%.9g,%.9g,%.9g,%.9g,%.9g\n", mode, x->times[s], xs[0], xs[1], xs[2],
            xs[3], u->data[s]);
  }
}

/* The run's replay, acrobot_swingup_<mode>.html; a missing three.js is
 * only reported. */
static void write_replay(const swingup_loop *loop, const teal_context *ctx, const char *mode) {
  char path[64], title[64];
  snprintf(path, sizeof path, "acrobot_swingup_%s.html", mode);
  snprintf(title, sizeof title, "Acrobot swing-up (%s plant)", mode);
  teal_error e = {0};
  const teal_vector_log *x = teal_vector_log_sink_log(loop->state_log, ctx);
  const teal_vector_log *u = teal_vector_log_sink_log(loop->torque_log, ctx);
  static const char *const xnames[4] = {"shoulder_q", "elbow_q", "shoulder_v", "elbow_v"};
  static const char *const unames[1] = {"elbow_u"};
  teal_replay_plot plots[2] = {{"state (rad, rad/s)", x->count, 4, x->times, x->data, xnames},
                               {"elbow torque (N m)", u->count, 1, u->times, u->data, unames}};
  teal_replay_options opts = teal_replay_options_default();
  opts.title = title;
  opts.plots = plots; /* the two log sinks beside the scene */
  opts.num_plots = 2;
  if (teal_visualizer_write_html(loop->visualizer, ctx, path, &opts, &e) == TEAL_OK) {
    printf("  replay: %s (open it in a browser)\n", path);
  } else {
    fprintf(stderr, "acrobot_swingup: no replay written: %s\n", e.message);
  }
}

/* Runs the loop from kStart; *error is the final distance from upright.
 * TEAL_OK or the simulator's error. */
static int simulate(swingup_loop *loop, const char *mode, FILE *csv, double *error,
                    teal_error *err) {
  teal_context *ctx = teal_simulator_context(loop->sim);
  teal_sim_status st;
  if (teal_plant_set_state(loop->plant, ctx, kStart, 4) != TEAL_OK) {
    *err = *teal_context_error(ctx);
    return err->code;
  }
  if (teal_simulator_initialize(loop->sim, &st) ||
      teal_simulator_advance_to(loop->sim, loop->switch_time + SETTLE_SECONDS, &st)) {
    return teal_error_set(err, st.code, "%s run: %s", mode, st.message);
  }
  write_csv(loop, ctx, mode, csv);
  write_replay(loop, ctx, mode);
  double x[4], sum = 0.0;
  teal_plant_get_state(loop->plant, ctx, x, 4);
  for (int i = 0; i < 4; i++) {
    sum += (x[i] - kUpright[i]) * (x[i] - kUpright[i]);
  }
  *error = sqrt(sum);
  return TEAL_OK;
}

/* Designs, wires and runs one plant mode (time_step 0: continuous); 1 when
 * it ends balanced, 0 when not, -1 on error. */
static int run_mode(const char *model, double time_step, const swingup_plan *plan, FILE *csv,
                    teal_error *err) {
  const char *mode = time_step > 0 ? "discrete" : "continuous";
  swingup_loop loop = {0};
  teal_system *tvlqr = NULL, *lqr = NULL;
  /* a discrete horizon is a whole number of periods (not past the plan) */
  loop.switch_time =
      time_step > 0 ? floor(plan->duration / time_step + 1e-9) * time_step : plan->duration;
  printf("%s plant%s:\n", mode,
         time_step > 0 ? " (1 ms, LQR costs per step)" : " (RK3 with error control)");
  if (!(loop.plant = load_plant(model, time_step, err))) {
    return -1;
  }
  if (design(&loop, plan, &tvlqr, &lqr, err) != TEAL_OK) {
    teal_system_free(tvlqr);
    teal_system_free(lqr);
    teal_plant_free(loop.plant);
    return -1;
  }
  double error = INFINITY;
  int rc = build(&loop, plan->motor_limit, tvlqr, lqr, err);
  if (rc == TEAL_OK && !(loop.sim = teal_simulator_new(loop.diagram, NULL, err))) {
    rc = err->code;
  }
  rc = rc == TEAL_OK ? simulate(&loop, mode, csv, &error, err) : rc;
  teal_simulator_free(loop.sim);
  teal_system_free(loop.diagram);
  if (rc != TEAL_OK) {
    return -1;
  }
  int ok = error < TOLERANCE;
  printf("  from q0 = (%+.2f, %+.2f): final |x - x_upright| = %.2e after %.3f s: %s\n", kStart[0],
         kStart[1], error, loop.switch_time + SETTLE_SECONDS, ok ? "balanced" : "FELL");
  return ok;
}

static int run_both(const char *model, const swingup_plan *plan, const char *csv_path,
                    teal_error *err) {
  FILE *csv = fopen(csv_path, "w");
  if (csv) {
    fprintf(csv, "mode,time,shoulder_q,elbow_q,shoulder_v,elbow_v,elbow_u\n");
  } else {
    fprintf(stderr, "acrobot_swingup: cannot write %s; running without the log\n", csv_path);
  }
  int balanced = run_mode(model, 0.0, plan, csv, err), discrete = -1;
  if (balanced >= 0 && (discrete = run_mode(model, DISCRETE_STEP, plan, csv, err)) >= 0) {
    balanced += discrete;
  }
  if (csv) {
    fclose(csv);
    printf("state and torque log: %s\n", csv_path);
  }
  return discrete < 0 ? -1 : balanced;
}

/* The motor limit is the URDF's elbow effort limit, or MOTOR_LIMIT when it
 * sets none; the plan keeps PLAN_FRACTION of it. */
static void set_limits(const teal_plant *plant, swingup_plan *plan) {
  double urdf = teal_plant_actuator_effort_limit(plant, 0);
  plan->motor_limit = isfinite(urdf) ? urdf : MOTOR_LIMIT;
  plan->torque_limit = PLAN_FRACTION * plan->motor_limit;
  printf("elbow motor limit %.1f N m (%s), plan within %.1f N m and |v| <= %.1f rad/s\n",
         plan->motor_limit, isfinite(urdf) ? "the URDF's" : "stated: the URDF sets none",
         plan->torque_limit, SPEED_LIMIT);
}

int main(int argc, char **argv) {
  const char *model = argc > 1 ? argv[1] : "acrobot.urdf";
  const char *csv = argc > 2 ? argv[2] : "acrobot_swingup.csv";
  teal_error err = {0};
  swingup_plan plan = {0};
  printf("Acrobot swing-up (%s): direct collocation, finite-horizon LQR, upright LQR\n", model);
  teal_plant *planning = load_plant(model, 0.0, &err);
  if (!planning) {
    return fail("loading the model", &err);
  }
  set_limits(planning, &plan);
  int rc = plan_swing_up(planning, &plan, &err);
  teal_plant_free(planning);
  int balanced = rc == TEAL_OK ? run_both(model, &plan, csv, &err) : -1;
  teal_piecewise_polynomial_free(plan.x);
  teal_piecewise_polynomial_free(plan.u);
  if (rc != TEAL_OK) {
    return fail("planning the swing-up", &err);
  }
  if (balanced < 0) {
    return fail("stabilizing the swing-up", &err);
  }
  printf("%d of 2 plant modes ended balanced (within %.0e of upright)\n", balanced, TOLERANCE);
  return balanced == 2 ? 0 : 1;
}
