/* A parallel gripper holds a box against gravity: constraints and contact
 * solved together in the discrete step.
 *
 * 1. Build the model in C on a discrete plant (1 ms step): two fingers on
 *    prismatic joints along x, facing each other, tied by a coupler
 *    constraint q_right = q_left (each joint's q grows as its finger
 *    closes), and a free 0.2 kg box between them. Only the left finger has
 *    a motor; the coupler makes the right one follow. The box touches the
 *    finger pads (boxes) through eight small corner spheres, four on each
 *    side, with friction mu = 0.8.
 * 2. Squeeze with 20 N on the left finger's motor and run 2.2 s from rest:
 *    the box drops a little while the contact forces build up, then
 *    friction holds it.
 * 3. Write parallel_gripper.csv (time, box height, finger positions, the
 *    coupler's multiplier) every 10 ms.
 *
 * Passes when the box slips less than SLIP_TOLERANCE between t = 0.2 s and
 * 2.2 s, the coupler holds (|q_right - q_left| < COUPLER_TOLERANCE: the
 * discrete step makes a rigid constraint a near-rigid spring, which holds
 * the 10 N it carries at a 2.5 um offset; see docs/discrete_constraints.md)
 * and the coupler's multiplier carries half the squeeze (each pad presses
 * with F / 2) within 2 %. Exits non-zero otherwise. */
#include <math.h>
#include <stdio.h>

#include "teal.h"

#define SQUEEZE 20.0           /* N, on the left finger's motor */
#define MU 0.8                 /* friction of pads and corners */
#define BOX_MASS 0.2           /* kg, a 6 cm cube */
#define BOX_HALF 0.03          /* m */
#define CORNER_RADIUS 0.005    /* m */
#define HEIGHT 0.3             /* m, the fingers' height */
#define T_SETTLE 0.2           /* s */
#define T_END 2.2              /* s */
#define SLIP_TOLERANCE 1e-4    /* m, box height change from T_SETTLE to T_END */
#define COUPLER_TOLERANCE 1e-5 /* m, |q_right - q_left| */

typedef struct gripper {
  teal_plant *plant;
  int box, left, right, motor, coupler;
} gripper;

static int fail(const char *what, const char *message) {
  fprintf(stderr, "parallel_gripper: %s: %s\n", what, message);
  return 1;
}

/* A finger: a 0.2 kg pad (2 x 10 x 10 cm box) on a prismatic joint at
 * (x, 0, HEIGHT) that closes along axis_x (+1 or -1). Returns the joint. */
static int add_finger(teal_plant *p, const char *name, const char *base, double x, double axis_x,
                      const teal_proximity_properties *props) {
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(0.2, 0.02, 0.1, 0.1);
  int body = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_transform X_WF = teal_transform_make(teal_rotation_identity(), teal_vec3_make(x, 0, HEIGHT));
  int frame = teal_plant_add_frame(p, base, TEAL_WORLD_FRAME, X_WF);
  teal_vec3 axis = teal_vec3_make(axis_x, 0, 0);
  int joint = teal_plant_add_joint(p, name, TEAL_JOINT_PRISMATIC, frame,
                                   teal_plant_body_frame(p, body), &axis, 0.0);
  teal_shape pad;
  teal_shape_box(0.02, 0.1, 0.1, &pad, NULL);
  teal_plant_register_collision_geometry(p, body, teal_transform_identity(), &pad, name, props);
  return joint;
}

/* The box: a free body with a sphere at each corner of its two x faces. */
static int add_box(teal_plant *p, const teal_proximity_properties *props) {
  teal_spatial_inertia M =
      teal_spatial_inertia_solid_box(BOX_MASS, 2 * BOX_HALF, 2 * BOX_HALF, 2 * BOX_HALF);
  int box = teal_plant_add_rigid_body(p, "box", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_shape corner;
  teal_shape_sphere(CORNER_RADIUS, &corner, NULL);
  for (int i = 0; i < 8; i++) {
    char name[16];
    double c = BOX_HALF - CORNER_RADIUS, s = BOX_HALF - 2 * CORNER_RADIUS;
    teal_vec3 at = teal_vec3_make(i & 1 ? c : -c, i & 2 ? s : -s, i & 4 ? s : -s);
    snprintf(name, sizeof name, "corner%d", i);
    teal_plant_register_collision_geometry(
        p, box, teal_transform_make(teal_rotation_identity(), at), &corner, name, props);
  }
  return box;
}

/* The gripper, its fingers touching the box at q = 0 (pad faces at
 * x = -+BOX_HALF). */
static int make_gripper(gripper *g, teal_error *err) {
  teal_plant *p = teal_plant_new(1e-3, err);
  if (!p) {
    return -1;
  }
  teal_proximity_properties props = teal_proximity_properties_make(MU, MU);
  g->plant = p;
  g->left = add_finger(p, "left", "left_base", -BOX_HALF - 0.01, 1.0, &props);
  g->right = add_finger(p, "right", "right_base", BOX_HALF + 0.01, -1.0, &props);
  g->box = add_box(p, &props);
  g->motor = teal_plant_add_joint_actuator(p, "squeeze", g->left, INFINITY);
  g->coupler = teal_plant_add_coupler_constraint(p, g->right, g->left, 1.0, 0.0);
  if (teal_plant_finalize(p) != TEAL_OK) { /* the first failure above is sticky */
    *err = *teal_plant_error(p);
    teal_plant_free(p);
    return -1;
  }
  return 0;
}

/* The state's box height, finger positions and coupler multiplier. */
typedef struct sample {
  double t, z, q_left, q_right, lambda;
} sample;

static int read_sample(const gripper *g, const teal_context *root, sample *s) {
  const teal_context *ctx = teal_context_subcontext(root, teal_plant_system(g->plant));
  double q[16], lambda[1];
  int nq = teal_plant_nq(g->plant);
  int rc = teal_plant_get_positions(g->plant, ctx, q, nq);
  rc = rc ? rc : teal_plant_get_discrete_constraint_multipliers(g->plant, ctx, lambda);
  int zbox = teal_plant_joint_q_start(g->plant, teal_plant_body_joint(g->plant, g->box)) + 6;
  s->t = teal_context_time(root);
  s->z = q[zbox];
  s->q_left = q[teal_plant_joint_q_start(g->plant, g->left)];
  s->q_right = q[teal_plant_joint_q_start(g->plant, g->right)];
  s->lambda = lambda[0];
  return rc;
}

/* Builds the diagram, places the box and fixes the squeeze. */
static teal_simulator *make_simulator(gripper *g, teal_system **diagram, teal_error *err) {
  teal_builder *b = teal_builder_new("parallel_gripper");
  *diagram = teal_add_plant_and_scene_graph(b, g->plant, err) ? teal_builder_build(b, err) : NULL;
  teal_simulator *sim = *diagram ? teal_simulator_new(*diagram, NULL, err) : NULL;
  if (!sim) {
    return NULL;
  }
  teal_context *ctx =
      teal_context_subcontext_mut(teal_simulator_context(sim), teal_plant_system(g->plant));
  double q[16], u = SQUEEZE;
  int nq = teal_plant_nq(g->plant);
  teal_plant_get_positions(g->plant, ctx, q, nq);
  int qb = teal_plant_joint_q_start(g->plant, teal_plant_body_joint(g->plant, g->box));
  q[qb + 6] = HEIGHT; /* identity orientation, centred between the pads */
  if (teal_plant_set_positions(g->plant, ctx, q, nq) != TEAL_OK ||
      teal_context_fix_input(ctx, teal_plant_actuation_input_port(g->plant), &u, 1) != TEAL_OK) {
    teal_error_set(err, TEAL_EINVAL, "%s", teal_context_error(ctx)->message);
    teal_simulator_free(sim);
    return NULL;
  }
  return sim;
}

/* Runs to T_END, logging every 10 ms to csv; the samples at T_SETTLE and
 * T_END go to settled and end. */
static int run(teal_simulator *sim, const gripper *g, FILE *csv, sample *settled, sample *end) {
  teal_sim_status st;
  sample s;
  fprintf(csv, "t,box_z,q_left,q_right,coupler_lambda\n");
  for (int k = 1; k <= (int)lround(T_END / 0.01); k++) {
    if (teal_simulator_advance_to(sim, 0.01 * k, &st) != TEAL_OK) {
      return fail("simulating", st.message);
    }
    if (read_sample(g, teal_simulator_context(sim), &s) != TEAL_OK) {
      return fail("reading the state", "multipliers or positions unavailable");
    }
    fprintf(csv, "%.3f,%.9f,%.9f,%.9f,%.6f\n", s.t, s.z, s.q_left, s.q_right, s.lambda);
    *settled = k == (int)lround(T_SETTLE / 0.01) ? s : *settled;
    *end = s;
  }
  return 0;
}

int main(void) {
  gripper g;
  teal_error err = {0};
  teal_system *diagram = NULL;
  if (make_gripper(&g, &err) != 0) {
    return fail("building the gripper", err.message);
  }
  teal_simulator *sim = make_simulator(&g, &diagram, &err);
  if (!sim) {
    teal_system_free(diagram);
    return fail("building the simulator", err.message);
  }
  FILE *csv = fopen("parallel_gripper.csv", "w");
  sample settled = {0}, end = {0};
  int rc = csv ? run(sim, &g, csv, &settled, &end) : fail("writing", "parallel_gripper.csv");
  if (csv && fclose(csv) != 0) {
    rc = fail("writing", "parallel_gripper.csv");
  }
  teal_simulator_free(sim);
  teal_system_free(diagram);
  if (rc) {
    return rc;
  }
  double slip = end.z - settled.z, gap = end.q_right - end.q_left;
  int holds = fabs(slip) < SLIP_TOLERANCE, tied = fabs(gap) < COUPLER_TOLERANCE;
  int shared = fabs(fabs(end.lambda) - 0.5 * SQUEEZE) < 0.02 * 0.5 * SQUEEZE;
  printf("Parallel gripper, discrete plant at 1 ms: %.0f N squeeze, %.1f kg box, mu = %.1f\n",
         SQUEEZE, BOX_MASS, MU);
  printf("box slip from t = %.1f s to %.1f s: %.2e m (tolerance %.0e m): %s\n", T_SETTLE, T_END,
         slip, SLIP_TOLERANCE, holds ? "held" : "FAILED");
  printf(
      "coupler: q_right - q_left = %.2e m (tolerance %.0e m): %s; multiplier %.3f N "
      "(squeeze / 2 = %.1f N): %s\n",
      gap, COUPLER_TOLERANCE, tied ? "holds" : "FAILED", end.lambda, 0.5 * SQUEEZE,
      shared ? "ok" : "FAILED");
  printf("wrote parallel_gripper.csv\n");
  return holds && tied && shared ? 0 : 1;
}
