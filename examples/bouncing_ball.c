/* Bouncing ball: a free ball dropped on the ground with point contact.
 *
 * 1. Build the model in C: a 1 kg solid ball of radius 0.1 m (a free body,
 *    so finalize gives it a quaternion floating joint: q = (quaternion,
 *    position), v = (angular, linear velocity)) with sphere collision
 *    geometry, and a half-space on the world as the ground. The contact
 *    stiffness is left to the plant's default (m g / penetration allowance,
 *    allowance 1 mm) and the Hunt-Crossley dissipation set low (0.5 s/m) so
 *    that the ball bounces; the default (critical damping) would stop it
 *    at the first impact.
 * 2. Simulate 6 s on a continuous plant with error-controlled RK3. A
 *    simulator monitor, run after every step, records the apex of each
 *    flight (z + vz^2 / 2g, exact in free flight). Hunt-Crossley contact
 *    loses a fraction of about (2/3) d v of the impact speed v, so smaller
 *    bounces keep more of their height.
 * 3. Read the contact force at rest from the plant's contact_results port.
 * 4. Write the replay, bouncing_ball.html, with the contact force arrows
 *    (open it in a browser).
 *
 * Passes when the ball bounces at least 3 times with decreasing apex heights
 * and ends at rest with a penetration equal to the allowance (within 2%),
 * the contact force carrying its weight (within 1%). */
#include <math.h>
#include <stdio.h>

#include "multibody/contact/plant_scene_graph.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "teal.h"

#define MASS 1.0 /* kg */
#define RADIUS 0.1
#define G 9.81
#define DROP_HEIGHT 1.0 /* initial height of the ball's centre, m */
#define DISSIPATION 0.5 /* s/m */
#define RUN_SECONDS 6.0
#define MAX_APEXES 64

/* What the monitor records while the simulator runs. */
typedef struct bounce_log {
  teal_plant *plant;
  double z, vz; /* centre height and vertical velocity after the last step */
  int count;
  double apex[MAX_APEXES], apex_time[MAX_APEXES];
} bounce_log;

static int fail(const char *what, const teal_error *err) {
  fprintf(stderr, "bouncing_ball: %s: %s (%s)\n", what, err->message, teal_strerror(err->code));
  return 1;
}

/* The ball and the ground, registered on a continuous plant. */
static teal_plant *make_plant(teal_error *err) {
  teal_plant *plant = teal_plant_new(0.0, err);
  if (!plant) {
    return NULL;
  }
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(MASS, RADIUS);
  int ball = teal_plant_add_rigid_body(plant, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  props.hunt_crossley_dissipation = DISSIPATION;
  teal_shape sphere, ground;
  teal_shape_sphere(RADIUS, &sphere, NULL);
  teal_shape_half_space(&ground);
  teal_plant_register_collision_geometry(plant, ball, teal_transform_identity(), &sphere, "ball",
                                         &props);
  teal_plant_register_collision_geometry(plant, TEAL_WORLD_BODY, teal_transform_identity(),
                                         &ground, "ground", &props);
  const double orange[4] = {0.9, 0.45, 0.1, 1.0}, sand[4] = {0.75, 0.72, 0.62, 1.0};
  teal_plant_register_visual_geometry(plant, ball, teal_transform_identity(), &sphere,
                                      "ball_visual", orange);
  teal_plant_register_visual_geometry(plant, TEAL_WORLD_BODY, teal_transform_identity(), &ground,
                                      "ground_visual", sand);
  if (teal_plant_finalize(plant) != TEAL_OK) { /* the first failure above is sticky */
    *err = *teal_plant_error(plant);
    teal_plant_free(plant);
    return NULL;
  }
  return plant;
}

/* After every step: at the top of each flight (vz turns from + to - above
 * the ground) record the apex of the ballistic arc. */
static int watch_apex(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  bounce_log *log = user;
  double x[13];
  teal_plant_get_state(log->plant, ctx, x, 13);
  double z = x[6], vz = x[12];
  if (log->vz > 0.0 && vz <= 0.0 && z > RADIUS && log->count < MAX_APEXES) {
    log->apex[log->count] = z + vz * vz / (2.0 * G);
    log->apex_time[log->count++] = teal_context_time(ctx);
  }
  log->z = z;
  log->vz = vz;
  return TEAL_OK;
}

/* Vertical force of the contacts on the ball, from the contact_results port. */
static double contact_force_z(teal_plant *plant, const teal_context *root) {
  const teal_system *sys = teal_plant_system(plant);
  const teal_contact_results *r;
  double fz = 0.0;
  if (teal_eval_abstract_output(sys, teal_context_subcontext(root, sys),
                                teal_plant_contact_results_output_port(plant),
                                (const void **)&r) != TEAL_OK) {
    return NAN;
  }
  for (int i = 0; i < r->n; i++) { /* f_Bc_W acts on body B, its opposite on A */
    fz += r->c[i].body_B == TEAL_WORLD_BODY ? -r->c[i].f_Bc_W.v[2] : r->c[i].f_Bc_W.v[2];
  }
  return fz;
}

/* Prints the apexes as heights of the ball's bottom above the ground; 1
 * when there are at least 3 and each is lower than the one before. */
static int check_bounces(const bounce_log *log) {
  int decreasing = log->count >= 3;
  double previous = DROP_HEIGHT - RADIUS;
  printf("bounce  apex time [s]  apex height [mm]  apex / previous\n");
  for (int i = 0; i < log->count; i++) {
    double height = log->apex[i] - RADIUS;
    decreasing = decreasing && height < previous;
    if (i < 12) {
      printf("  %3d   %12.3f   %15.3f   %14.3f\n", i + 1, log->apex_time[i], 1e3 * height,
             height / previous);
    }
    previous = height;
  }
  if (log->count > 12) {
    printf("  ... %d bounces in all\n", log->count);
  }
  return decreasing;
}

/* The replay of the run, with the contact forces. */
static void write_replay(const teal_system *viz, const teal_context *ctx) {
  teal_replay_options opts = teal_replay_options_default();
  opts.title = "Bouncing ball";
  teal_error err = {0};
  if (teal_scene_recording_write_html(teal_visualizer_recording(viz, ctx), "bouncing_ball.html",
                                      &opts, &err) != TEAL_OK) {
    fprintf(stderr, "bouncing_ball: no replay written: %s\n", err.message);
    return;
  }
  printf("replay: bouncing_ball.html (open it in a browser)\n");
}

static int simulate(teal_system *diagram, teal_plant *plant, const teal_system *viz,
                    teal_error *err) {
  teal_simulator *sim = teal_simulator_new(diagram, NULL, err);
  if (!sim) {
    return -1;
  }
  bounce_log log = {.plant = plant};
  teal_context *ctx = teal_simulator_context(sim);
  double q0[7] = {1, 0, 0, 0, 0, 0, DROP_HEIGHT}; /* identity quaternion, position */
  teal_plant_set_positions(plant, ctx, q0, 7);
  teal_simulator_set_integrator(sim, teal_integrator_rk3);
  teal_simulator_set_accuracy(sim, 1e-5);
  teal_simulator_set_monitor(sim, watch_apex, &log);
  teal_sim_status st;
  if (teal_simulator_advance_to(sim, RUN_SECONDS, &st) != TEAL_OK) {
    teal_error_set(err, st.code, "%s", st.message);
    teal_simulator_free(sim);
    return -1;
  }
  int bounced = check_bounces(&log);
  double allowance = teal_plant_penetration_allowance(plant), depth = RADIUS - log.z;
  double fz = contact_force_z(plant, ctx), weight = MASS * G;
  int rests = fabs(depth - allowance) < 0.02 * allowance && fabs(log.vz) < 1e-4 &&
              fabs(fz - weight) < 0.01 * weight;
  teal_sim_stats stats = teal_simulator_get_stats(sim);
  printf("at t = %.0f s: penetration %.4f mm (allowance %.4f mm), vz = %.1e m/s, contact force "
         "%.3f N (m g = %.2f N)\n",
         RUN_SECONDS, 1e3 * depth, 1e3 * allowance, log.vz, fz, weight);
  printf("%ld steps (%ld rejected), smallest %.1e s, largest %.1e s\n", stats.steps,
         stats.failed_steps, stats.smallest_step, stats.largest_step);
  printf("bounces with decreasing apexes: %s; rests at the allowance carrying its weight: %s\n",
         bounced ? "yes" : "NO", rests ? "yes" : "NO");
  write_replay(viz, ctx);
  teal_simulator_free(sim);
  return bounced && rests;
}

int main(void) {
  teal_error err = {0};
  printf("Bouncing ball: r = %.1f m, dropped from z = %.1f m, dissipation %.1f s/m, "
         "continuous plant, RK3 at accuracy 1e-5\n",
         RADIUS, DROP_HEIGHT, DISSIPATION);
  teal_plant *plant = make_plant(&err);
  if (!plant) {
    return fail("building the model", &err);
  }
  teal_builder *b = teal_builder_new("bouncing_ball");
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, plant, &err);
  teal_system *viz = sg ? teal_add_visualizer(b, sg, NULL, &err) : NULL;
  if (viz) {
    teal_add_plant_markers(b, plant, viz, &err); /* contact forces, centre of mass */
  }
  teal_system *diagram = teal_builder_build(b, &err);
  if (!diagram) {
    return fail("building the diagram", &err);
  }
  int ok = simulate(diagram, plant, viz, &err);
  teal_system_free(diagram);
  if (ok < 0) {
    return fail("simulating", &err);
  }
  return ok ? 0 : 1;
}
