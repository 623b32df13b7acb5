/* Block on an incline: Coulomb friction holds it or lets it slide.
 *
 * 1. Build the model in C on a discrete plant (1 ms step, implicit contact
 *    solve): a 1 kg block of 0.2 x 0.2 x 0.1 m resting on four small corner
 *    spheres (point contact needs a point: a box face on a plane would give
 *    one contact wandering across the face), on a half-space tilted by 20
 *    degrees about y. Both carry friction mu (static = dynamic).
 * 2. Run 3.5 s with mu = 0.5 (> tan 20 deg = 0.36: it must stick) and with
 *    mu = 0.2 (< tan: it must slide with a = g (sin - mu cos)).
 * 3. Between t = 0.5 s and 3.5 s measure the creep (sticking) or the
 *    acceleration along the slope (sliding), and read the contact forces
 *    from the contact_results port: friction / normal is tan 20 deg when
 *    sticking and mu when sliding.
 *
 * Passes when the sticking block creeps less than 1 mm and the sliding one
 * accelerates within 1% of the prediction, and when friction / normal is
 * within 1% of tan 20 deg (sticking) and of mu (sliding). */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <math.h>
#include <stdio.h>

#include "multibody/contact/plant_scene_graph.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "teal.h"

#define SLOPE (20.0 * M_PI / 180.0)
#define G 9.81
#define T_START 0.5
#define T_END 3.5

/* What one run measured. */
typedef struct incline_run {
  double s0, s1;   /* distance down the slope at T_START and T_END, m */
  double v0, v1;   /* speed down the slope at T_START and T_END, m/s */
  double traction; /* friction / normal force at T_END */
} incline_run;

static int fail(const char *what, const teal_error *err) {
  fprintf(stderr, "block_on_incline: %s: %s (%s)\n", what, err->message,
          teal_strerror(err->code));
  return 1;
}

/* The incline's frame: the world turned by SLOPE about y. Its x axis points
 * down the slope, its z axis is the plane's normal. */
static teal_rotation incline(void) {
  return teal_rotation_from_rpy(teal_vec3_make(0.0, SLOPE, 0.0));
}

static teal_plant *make_plant(double mu, teal_error *err) {
  teal_plant *plant = teal_plant_new(1e-3, err);
  if (!plant) {
    return NULL;
  }
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(1.0, 0.2, 0.2, 0.1);
  int block = teal_plant_add_rigid_body(plant, "block", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_proximity_properties props = teal_proximity_properties_make(mu, mu);
  teal_shape corner, ground;
  teal_shape_sphere(0.01, &corner, NULL);
  teal_shape_half_space(&ground);
  const char *names[4] = {"corner0", "corner1", "corner2", "corner3"};
  for (int i = 0; i < 4; i++) {
    teal_vec3 p = teal_vec3_make(i & 1 ? 0.1 : -0.1, i & 2 ? 0.1 : -0.1, -0.05);
    teal_transform X_BG = teal_transform_make(teal_rotation_identity(), p);
    teal_plant_register_collision_geometry(plant, block, X_BG, &corner, names[i], &props);
  }
  teal_transform X_WG = teal_transform_make(incline(), teal_vec3_zero());
  teal_plant_register_collision_geometry(plant, TEAL_WORLD_BODY, X_WG, &ground, "incline",
                                         &props);
  teal_shape box; /* what the replay draws */
  teal_shape_box(0.2, 0.2, 0.1, &box, NULL);
  const double blue[4] = {0.15, 0.35, 0.85, 1.0}, stone[4] = {0.7, 0.68, 0.62, 1.0};
  teal_plant_register_visual_geometry(plant, block, teal_transform_identity(), &box, "block_visual",
                                      blue);
  teal_plant_register_visual_geometry(plant, TEAL_WORLD_BODY, X_WG, &ground, "incline_visual",
                                      stone);
  teal_shape_release(&box);
  if (teal_plant_finalize(plant) != TEAL_OK) { /* the first failure above is sticky */
    *err = *teal_plant_error(plant);
    teal_plant_free(plant);
    return NULL;
  }
  return plant;
}

/* Sets the block on the plane, aligned with it, its corner spheres touching. */
static void place_block(teal_plant *plant, teal_context *ctx) {
  teal_quaternion quat = teal_rotation_to_quaternion(incline());
  teal_vec3 p = teal_rotation_apply(incline(), teal_vec3_make(0.0, 0.0, 0.05 + 0.01));
  double q[7] = {quat.w, quat.x, quat.y, quat.z, p.v[0], p.v[1], p.v[2]};
  teal_plant_set_positions(plant, ctx, q, 7);
}

/* Distance and speed of the block's centre down the slope. */
static void downhill(teal_plant *plant, const teal_context *ctx, double *s, double *v) {
  double x[13];
  teal_plant_get_state(plant, ctx, x, 13);
  teal_vec3 d = teal_rotation_apply(incline(), teal_vec3_make(1.0, 0.0, 0.0));
  *s = x[4] * d.v[0] + x[5] * d.v[1] + x[6] * d.v[2];
  *v = x[10] * d.v[0] + x[11] * d.v[1] + x[12] * d.v[2]; /* v = (w_WB, v_WB) */
}

/* |friction| / normal of the total contact force on the block. */
static double traction(teal_plant *plant, const teal_context *root) {
  const teal_system *sys = teal_plant_system(plant);
  const teal_contact_results *r;
  if (teal_eval_abstract_output(sys, teal_context_subcontext(root, sys),
                                teal_plant_contact_results_output_port(plant),
                                (const void **)&r) != TEAL_OK) {
    return NAN;
  }
  teal_vec3 f = teal_vec3_zero(), n = teal_rotation_apply(incline(), teal_vec3_make(0, 0, 1));
  for (int i = 0; i < r->n; i++) { /* f_Bc_W acts on body B, its opposite on A */
    teal_vec3 fi = r->c[i].f_Bc_W;
    f = teal_vec3_add(f, r->c[i].body_B == TEAL_WORLD_BODY ? teal_vec3_neg(fi) : fi);
  }
  double fn = teal_vec3_dot(f, n);
  return teal_vec3_norm(teal_vec3_sub(f, teal_vec3_scale(n, fn))) / fn;
}

/* The run's replay with its contact forces; a missing three.js is only
 * reported. */
static void write_replay(const teal_system *diagram, const teal_context *ctx, const char *path) {
  teal_replay_options opts = teal_replay_options_default();
  opts.title = "Block sliding down a 20 degree incline (mu = 0.2)";
  teal_error err = {0};
  if (teal_visualizer_write_html(teal_diagram_find_subsystem(diagram, "visualizer"), ctx, path,
                                 &opts, &err) != TEAL_OK) {
    fprintf(stderr, "block_on_incline: no replay written: %s\n", err.message);
    return;
  }
  printf("replay: %s (open it in a browser)\n", path);
}

/* One run at friction mu; its replay goes to replay (NULL: none). */
static int run(double mu, const char *replay, incline_run *out, teal_error *err) {
  teal_plant *plant = make_plant(mu, err);
  if (!plant) {
    return -1;
  }
  teal_builder *b = teal_builder_new("block_on_incline");
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, plant, err);
  teal_system *viz = sg ? teal_add_visualizer(b, sg, NULL, err) : NULL;
  if (viz) {
    teal_add_plant_markers(b, plant, viz, err); /* contact forces */
  }
  teal_system *diagram = teal_builder_build(b, err);
  teal_simulator *sim = diagram ? teal_simulator_new(diagram, NULL, err) : NULL;
  int rc = sim ? TEAL_OK : -1;
  teal_sim_status st;
  if (sim) {
    teal_context *ctx = teal_simulator_context(sim);
    place_block(plant, ctx);
    rc = teal_simulator_advance_to(sim, T_START, &st);
    downhill(plant, ctx, &out->s0, &out->v0);
    rc = rc ? rc : teal_simulator_advance_to(sim, T_END, &st);
    downhill(plant, ctx, &out->s1, &out->v1);
    out->traction = traction(plant, ctx);
    if (rc != TEAL_OK) {
      teal_error_set(err, st.code, "%s", st.message);
    } else if (replay) {
      write_replay(diagram, ctx, replay);
    }
  }
  teal_simulator_free(sim);
  teal_system_free(diagram);
  return rc;
}

int main(void) {
  const double mu_stick = 0.5, mu_slide = 0.2;
  incline_run stick, slide;
  teal_error err = {0};
  printf("Block on a %.0f degree incline (tan = %.3f), discrete plant at 1 ms\n",
         SLOPE * 180.0 / M_PI, tan(SLOPE));
  if (run(mu_stick, NULL, &stick, &err) != TEAL_OK ||
      run(mu_slide, "block_on_incline.html", &slide, &err) != TEAL_OK) {
    return fail("simulating", &err);
  }
  double creep = stick.s1 - stick.s0;
  double a = (slide.v1 - slide.v0) / (T_END - T_START);
  double a_expected = G * (sin(SLOPE) - mu_slide * cos(SLOPE));
  int sticks = fabs(creep) < 1e-3 && fabs(stick.traction - tan(SLOPE)) < 0.01 * tan(SLOPE);
  int slides = fabs(a - a_expected) < 0.01 * a_expected &&
               fabs(slide.traction - mu_slide) < 0.01 * mu_slide;
  printf("mu = %.1f: creep %.2e m over %.0f s (< 1 mm expected), friction / normal %.3f "
         "(tan = %.3f): %s\n",
         mu_stick, creep, T_END - T_START, stick.traction, tan(SLOPE),
         sticks ? "sticks" : "FAILED");
  printf("mu = %.1f: a = %.4f m/s^2, g (sin - mu cos) = %.4f m/s^2 (error %+.3f%%), friction / "
         "normal %.3f (mu = %.1f): %s\n",
         mu_slide, a, a_expected, 100.0 * (a - a_expected) / a_expected, slide.traction,
         mu_slide, slides ? "slides" : "FAILED");
  return sticks && slides ? 0 : 1;
}
