/* Contact test fixtures (see mb_contact_fixtures.h). */
#include "support/mb_contact_fixtures.h"

#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/diagram.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/contact/plant_scene_graph.h"
#include "multibody/plant/plant_state.h"
#include "multibody/tree/topology.h"
#include "systems/analysis/integrator.h"

void ts_contact_add_rigid_ground(teal_plant *p, double mu) {
  teal_shape hs;
  teal_shape_half_space(&hs);
  teal_proximity_properties pp = teal_proximity_properties_make(mu, mu);
  pp.compliance = TEAL_HYDROELASTIC_RIGID;
  ck_assert_int_ge(teal_plant_register_collision_geometry(
                       p, TEAL_WORLD_BODY, teal_transform_identity(), &hs, "ground", &pp),
                   0);
}

int ts_contact_add_body_with(teal_plant *p, const char *name, double m, const teal_shape *shape,
                             const teal_proximity_properties *pp) {
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(m, 0.1);
  int b = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_ge(
      teal_plant_register_collision_geometry(p, b, teal_transform_identity(), shape, name, pp), 0);
  return b;
}

void ts_contact_add_ground(teal_plant *p, double theta, double mu, double dissipation) {
  teal_shape hs;
  teal_shape_half_space(&hs);
  teal_proximity_properties props = teal_proximity_properties_make(mu, mu);
  props.hunt_crossley_dissipation = dissipation;
  teal_transform X =
      teal_transform_make(teal_rotation_from_rpy(teal_vec3_make(0, theta, 0)), teal_vec3_zero());
  ck_assert_int_ge(
      teal_plant_register_collision_geometry(p, TEAL_WORLD_BODY, X, &hs, "ground", &props), 0);
}

void ts_contact_finish(ts_contact_world *w) {
  ck_assert_int_eq(teal_plant_finalize(w->plant), TEAL_OK);
  teal_builder *b = teal_builder_new("contact");
  teal_error err;
  ck_assert_msg(teal_add_plant_and_scene_graph(b, w->plant, &err) != NULL, "%s", err.message);
  ts_contact_build(w, b);
}

void ts_contact_build(ts_contact_world *w, teal_builder *b) {
  teal_error err;
  w->diagram = teal_builder_build(b, &err);
  ck_assert_msg(w->diagram != NULL, "%s", err.message);
  w->sim = teal_simulator_new(w->diagram, NULL, &err);
  ck_assert_ptr_nonnull(w->sim);
  w->ctx = teal_simulator_context(w->sim);
  if (teal_plant_time_step(w->plant) == 0.0) {
    teal_simulator_set_integrator(w->sim, teal_integrator_rk3);
    teal_simulator_set_accuracy(w->sim, 1e-5);
  }
}

void ts_contact_world_free(ts_contact_world *w) {
  teal_simulator_free(w->sim);
  teal_system_free(w->diagram);
}

void ts_contact_advance(ts_contact_world *w, double t) {
  teal_sim_status st;
  int rc = teal_simulator_advance_to(w->sim, t, &st);
  ck_assert_msg(rc == TEAL_OK, "t = %g: %s", st.time, st.message);
}

ts_contact_world ts_contact_ball_world(double time_step, double z, double dissipation) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(time_step, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(w.plant, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_shape s;
  teal_shape_sphere(0.1, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  props.hunt_crossley_dissipation = dissipation;
  teal_plant_register_collision_geometry(w.plant, b, teal_transform_identity(), &s, "ball", &props);
  ts_contact_add_ground(w.plant, 0.0, 0.5, dissipation);
  ts_contact_finish(&w);
  double q[7] = {1, 0, 0, 0, 0, 0, z};
  ck_assert_int_eq(teal_plant_set_positions(w.plant, w.ctx, q, 7), TEAL_OK);
  return w;
}

int ts_contact_body_with_sphere(teal_plant *p, const char *name, int *body) {
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  *body = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_shape s;
  teal_shape_sphere(0.1, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  int g =
      teal_plant_register_collision_geometry(p, *body, teal_transform_identity(), &s, name, &props);
  ck_assert_int_ge(g, 0);
  return g;
}

int ts_contact_three_balls(teal_plant *p) {
  const char *names[3] = {"a", "b", "c"};
  for (int i = 0; i < 3; i++) {
    int body;
    ts_contact_body_with_sphere(p, names[i], &body);
  }
  ts_contact_add_ground(p, 0.1, 0.5, NAN);
  return teal_plant_num_geometries(p);
}

void ts_contact_three_balls_place(ts_contact_world *w) {
  const double z[3] = {0.12, 0.12, 0.4}, x[3] = {0.0, 0.15, 1.0};
  double q[21];
  for (int i = 0; i < 3; i++) {
    const double qi[7] = {1, 0, 0, 0, x[i], 0, z[i]};
    memcpy(q + 7 * i, qi, sizeof(qi));
  }
  ck_assert_int_eq(teal_plant_set_positions(w->plant, w->ctx, q, 21), TEAL_OK);
}

void ts_contact_expect_same_state(const ts_contact_world *a, const ts_contact_world *b) {
  int n = teal_plant_nq(a->plant) + teal_plant_nv(a->plant);
  ck_assert_int_eq(teal_plant_nq(b->plant) + teal_plant_nv(b->plant), n);
  double xa[64], xb[64];
  ck_assert_int_le(n, 64);
  ck_assert_int_eq(teal_plant_get_state(a->plant, a->ctx, xa, n), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_state(b->plant, b->ctx, xb, n), TEAL_OK);
  for (int i = 0; i < n; i++) {
    ck_assert_msg(xa[i] == xb[i], "x[%d]: %.17g vs %.17g", i, xa[i], xb[i]);
  }
}
