/* bench_contact_spheres: the Teal rows, all through teal_simulator over the
 * diagram that teal_add_plant_and_scene_graph makes (see spheres.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multibody/tree/topology.h"
#include "spheres.h"

/* Registers sphere i (body s<i>, its collision sphere); a negative status
 * on failure (the plant's first error is sticky). */
static int teal_add_sphere(teal_plant *p, int i, const teal_shape *sphere,
                           const teal_proximity_properties *props) {
  char name[32];
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(k_mass, k_radius);
  snprintf(name, sizeof name, "s%d", i);
  int body = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  if (body < 0) {
    return body;
  }
  int g = teal_plant_register_collision_geometry(p, body, teal_transform_identity(), sphere, name,
                                                 props);
  return g < 0 ? g : body;
}

/* The plant: K free spheres and the ground (a half-space on the world). */
teal_plant *spheres_teal_build_plant(const scene_spec *s, double time_step, int *body) {
  return spheres_teal_build_plant_with(s, time_step, TEAL_DISCRETE_CONTACT_SOLVER_TAMSI, body);
}

teal_plant *spheres_teal_build_plant_with(const scene_spec *s, double time_step,
                                          teal_discrete_contact_solver solver, int *body) {
  teal_error err;
  teal_plant *p = teal_plant_new(time_step, &err);
  if (!p) {
    fprintf(stderr, "error: teal_plant_new: %s\n", err.message);
    return NULL;
  }
  teal_shape sphere, ground;
  teal_proximity_properties props = teal_proximity_properties_make(k_mu, k_mu);
  int rc = teal_shape_sphere(k_radius, &sphere, &err);
  rc = rc ? rc : teal_shape_half_space(&ground);
  rc = rc ? rc : teal_plant_set_gravity(p, teal_vec3_make(0.0, 0.0, -k_gravity));
  rc = rc ? rc : teal_plant_set_discrete_contact_solver(p, solver);
  if (solver == TEAL_DISCRETE_CONTACT_SOLVER_SAP) {
    /* SAP's Kelvin-Voigt damping, critical at the default stiffness m g /
     * delta: tau_d = 2 sqrt(delta / g) per pair, half on each geometry */
    props.relaxation_time = teal_plant_contact_time_scale(p);
  }
  for (int i = 0; i < s->k && rc == TEAL_OK; i++) {
    body[i] = teal_add_sphere(p, i, &sphere, &props);
    rc = body[i] < 0 ? body[i] : TEAL_OK;
  }
  if (rc == TEAL_OK) {
    int g = teal_plant_register_collision_geometry(p, TEAL_WORLD_BODY, teal_transform_identity(),
                                                   &ground, "ground", &props);
    rc = g < 0 ? g : teal_plant_finalize(p);
  }
  if (rc != TEAL_OK) {
    fprintf(stderr, "error: Teal plant: %s (%s)\n", teal_strerror(rc),
            teal_plant_error(p)->message);
    teal_plant_free(p);
    return NULL;
  }
  return p;
}

/* x0: identity quaternions, the grid positions, v = 0; checks that every
 * sphere got a quaternion floating joint. */
static int teal_initial_state(teal_scene *e) {
  const teal_plant *p = e->plant;
  e->nq = teal_plant_nq(p);
  e->nv = teal_plant_nv(p);
  if (e->nq != 7 * e->spec->k || e->nv != 6 * e->spec->k) {
    fprintf(stderr, "error: Teal plant has nq = %d, nv = %d for %d spheres\n", e->nq, e->nv,
            e->spec->k);
    return 1;
  }
  e->x0 = calloc((size_t)(e->nq + e->nv), sizeof(double));
  if (!e->x0) {
    return 1;
  }
  for (int i = 0; i < e->spec->k; i++) {
    int j = teal_plant_body_joint(p, e->body[i]);
    if (j < 0 || teal_plant_joint_kind(p, j) != TEAL_JOINT_QUATERNION_FLOATING ||
        teal_plant_joint_parent_body(p, j) != TEAL_WORLD_BODY) {
      fprintf(stderr, "error: Teal sphere %d has no floating joint on the world\n", i);
      return 1;
    }
    double *q = e->x0 + teal_plant_joint_q_start(p, j);
    q[0] = 1.0;
    memcpy(q + 4, e->spec->p[i].v, 3 * sizeof(double));
  }
  return 0;
}

void spheres_teal_scene_free(void *state) {
  teal_scene *e = state;
  if (e) {
    teal_simulator_free(e->sim);
    teal_system_free(e->diagram);
    free(e->x0);
    free(e);
  }
}

/* Plant, scene graph, diagram and simulator with the given integrator. */
static teal_scene *teal_scene_new(const scene_spec *s, double time_step,
                                  teal_discrete_contact_solver solver,
                                  const teal_integrator_type *integrator, double accuracy) {
  teal_error err = {0};
  teal_scene *e = calloc(1, sizeof *e);
  if (!e) {
    return NULL;
  }
  e->spec = s;
  e->plant = spheres_teal_build_plant_with(s, time_step, solver, e->body);
  teal_builder *b = e->plant ? teal_builder_new("spheres") : NULL;
  e->sg = b ? teal_add_plant_and_scene_graph(b, e->plant, &err) : NULL;
  e->diagram = b ? teal_builder_build(b, &err) : NULL;
  e->sim = e->diagram ? teal_simulator_new(e->diagram, NULL, &err) : NULL;
  if (!e->sim || !e->sg) {
    fprintf(stderr, "error: Teal diagram: %s\n", e->plant ? err.message : "no plant");
    if (!e->diagram && !b) {
      teal_plant_free(e->plant);
    }
    spheres_teal_scene_free(e);
    return NULL;
  }
  int rc = teal_simulator_set_integrator(e->sim, integrator);
  rc = rc               ? rc
       : accuracy > 0.0 ? teal_simulator_set_accuracy(e->sim, accuracy)
                        : teal_simulator_set_fixed_step(e->sim, k_dt);
  if (rc || teal_initial_state(e)) {
    fprintf(stderr, "error: Teal simulator setup: %s\n", teal_simulator_error(e->sim)->message);
    spheres_teal_scene_free(e);
    return NULL;
  }
  return e;
}

void *spheres_teal_euler_new(const scene_spec *s) {
  return teal_scene_new(s, 0.0, TEAL_DISCRETE_CONTACT_SOLVER_TAMSI,
                        teal_integrator_semi_explicit_euler, 0.0);
}

void *spheres_teal_rk3_new(const scene_spec *s) {
  return teal_scene_new(s, 0.0, TEAL_DISCRETE_CONTACT_SOLVER_TAMSI, teal_integrator_rk3,
                        k_accuracy);
}

void *spheres_teal_discrete_new(const scene_spec *s) {
  /* the integrator has nothing to integrate; the plant updates every 1 ms */
  return teal_scene_new(s, k_dt, TEAL_DISCRETE_CONTACT_SOLVER_TAMSI,
                        teal_integrator_semi_explicit_euler, 0.0);
}

void *spheres_teal_sap_new(const scene_spec *s) {
  return teal_scene_new(s, k_dt, TEAL_DISCRETE_CONTACT_SOLVER_SAP,
                        teal_integrator_semi_explicit_euler, 0.0);
}

int spheres_teal_state_size(const void *state) {
  const teal_scene *e = state;
  return e->nq + e->nv;
}

/* After every step of a warm-up run: the number of penetrating pairs and
 * the broadphase's candidate pairs and box tests of that query (the pairs
 * the narrowphase actually tests, not all pairs the filters allow). */
static int teal_count_contacts(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  teal_scene *e = user;
  const teal_point_pair_list *pairs;
  teal_broadphase_stats bp;
  int rc = teal_scene_graph_eval_point_pair_penetrations(e->sg, ctx, &pairs);
  rc = rc ? rc : teal_scene_graph_broadphase_stats(e->sg, ctx, &bp);
  if (rc == TEAL_OK) {
    e->max_contacts = pairs->n > e->max_contacts ? pairs->n : e->max_contacts;
    e->max_bp_pairs = bp.num_pairs > e->max_bp_pairs ? bp.num_pairs : e->max_bp_pairs;
    e->max_bp_tests = bp.box_tests > e->max_bp_tests ? bp.box_tests : e->max_bp_tests;
    e->rest_bp_pairs = bp.num_pairs;
  }
  return rc;
}

/* Final heights and speeds from the state x. */
static void teal_rest_figures(const teal_scene *e, const double *x, run_info *info) {
  double z[MAX_SPHERES], speed[MAX_SPHERES];
  for (int i = 0; i < e->spec->k; i++) {
    int j = teal_plant_body_joint(e->plant, e->body[i]);
    const double *v = x + e->nq + teal_plant_joint_v_start(e->plant, j);
    z[i] = x[teal_plant_joint_q_start(e->plant, j) + 6];
    speed[i] = sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
  }
  spheres_rest_figures(z, speed, e->spec->k, info);
}

int spheres_teal_run(void *state, int count_contacts, double *x, run_info *info) {
  teal_scene *e = state;
  teal_context *ctx = teal_simulator_context(e->sim);
  teal_sim_status st;
  e->max_contacts = 0;
  e->max_bp_pairs = e->max_bp_tests = e->rest_bp_pairs = 0;
  int rc = teal_simulator_set_monitor(e->sim, count_contacts ? teal_count_contacts : NULL, e);
  rc = rc ? rc : teal_context_set_time(ctx, 0.0);
  rc = rc ? rc : teal_plant_set_state(e->plant, ctx, e->x0, e->nq + e->nv);
  rc = rc ? rc : teal_simulator_initialize(e->sim, &st);
  rc = rc ? rc : teal_simulator_advance_to(e->sim, k_t_final, &st);
  rc = rc ? rc : teal_plant_get_state(e->plant, ctx, x, e->nq + e->nv);
  if (rc != TEAL_OK) {
    fprintf(stderr, "error: Teal run: %s (%s)\n", teal_strerror(rc),
            teal_simulator_error(e->sim)->message);
    return rc;
  }
  teal_sim_stats stats = teal_simulator_get_stats(e->sim);
  int discrete = teal_plant_time_step(e->plant) > 0.0;
  info->steps = discrete ? stats.discrete_updates : stats.steps;
  info->rejected = discrete ? -1 : stats.failed_steps;
  info->evals = discrete ? -1 : stats.derivative_evals;
  info->max_contacts = count_contacts ? e->max_contacts : -1;
  teal_rest_figures(e, x, info);
  return TEAL_OK;
}
