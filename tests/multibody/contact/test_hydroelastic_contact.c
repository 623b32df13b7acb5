/* Hydroelastic contact in a continuous plant (multibody/contact/
 * hydroelastic.h): a soft sphere and a soft box rest where the pressure
 * integral carries their weight (closed forms: to the sphere mesh's
 * accuracy, exactly for the box); dissipation reduces the rebound; a
 * sliding sphere's friction is mu f_n against the slip; the fallback model
 * takes point contact for the pairs hydroelastics does not handle, the
 * strict model reports them; the settings' errors; no allocation in the
 * continuous step; the results value copies its surfaces and keeps the
 * source's room. */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/diagram.h"
#include "multibody/contact/hydroelastic.h"
#include "multibody/contact/plant_contact.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_contact_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"

#define R_BALL 0.1
#define G 9.81

/* Closed form of the pressure integral of a soft sphere pressed to depth d
 * (see test_soft_half_space.c): E pi (a^2 - 2 (R^3 - h^3) / (3 R)). */
static double sphere_force(double R, double E, double d) {
  double h = R - d;
  return E * M_PI * (R * R - h * h - 2.0 * (R * R * R - h * h * h) / (3.0 * R));
}

/* The same for a box with half sizes a, b, hz (hz the smallest). */
static double box_force(double a, double b, double hz, double E, double d) {
  return E / hz * 4.0 * (a * b * d - 0.5 * (a + b) * d * d + d * d * d / 3.0);
}

/* The depth where force(d) = w, by bisection on [0, dmax]. */
static double solve_depth(double (*force)(double), double w, double dmax) {
  double lo = 0.0, hi = dmax;
  for (int i = 0; i < 100; i++) {
    double mid = 0.5 * (lo + hi);
    *(force(mid) < w ? &lo : &hi) = mid;
  }
  return 0.5 * (lo + hi);
}

static teal_proximity_properties rigid_props(double mu) {
  teal_proximity_properties pp = teal_proximity_properties_make(mu, mu);
  pp.compliance = TEAL_HYDROELASTIC_RIGID;
  return pp;
}

static teal_proximity_properties soft_props(double E, double dissipation, double mu) {
  teal_proximity_properties pp = teal_proximity_properties_make(mu, mu);
  pp.compliance = TEAL_HYDROELASTIC_SOFT;
  pp.hydroelastic_modulus = E;
  pp.hunt_crossley_dissipation = dissipation;
  return pp;
}

/* A continuous world with one soft body (sphere of radius R_BALL or the
 * given box) over rigid ground; its centre starts at height z. */
static ts_contact_world soft_world(const teal_shape *shape, double m, double E, double d, double mu,
                                   double z) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_plant_set_contact_model(w.plant, TEAL_CONTACT_MODEL_HYDROELASTIC), TEAL_OK);
  teal_proximity_properties pp = soft_props(E, d, mu);
  ts_contact_add_body_with(w.plant, "soft", m, shape, &pp);
  ts_contact_add_rigid_ground(w.plant, mu);
  ts_contact_finish(&w);
  double q[7] = {1, 0, 0, 0, 0, 0, z};
  ck_assert_int_eq(teal_plant_set_positions(w.plant, w.ctx, q, 7), TEAL_OK);
  return w;
}

static double body_z(ts_contact_world *w, int which) {
  double q[14];
  teal_plant_get_positions(w->plant, w->ctx, q, teal_plant_nq(w->plant));
  return q[7 * which + 6];
}

static double body_vz(ts_contact_world *w) {
  double v[6];
  teal_plant_get_velocities(w->plant, w->ctx, v, 6);
  return v[5];
}

static const teal_contact_results *results(ts_contact_world *w) {
  const teal_contact_results *r;
  int rc = teal_plant_eval_contact_results(w->plant, w->ctx, &r);
  ck_assert_msg(rc == TEAL_OK, "%s", teal_context_error(w->ctx)->message);
  return r;
}

static double sphere_E;
static double sphere_force_at(double d) {
  return sphere_force(R_BALL, sphere_E, d);
}

START_TEST(soft_sphere_rests_where_pressure_carries_weight) {
  teal_shape s;
  teal_shape_sphere(R_BALL, &s, NULL);
  sphere_E = 1e4;
  ts_contact_world w = soft_world(&s, 1.0, sphere_E, NAN, 0.5, R_BALL + 0.01);
  ts_contact_advance(&w, 2.0);
  const teal_contact_results *r = results(&w);
  ck_assert_int_eq(r->n, 0);
  ck_assert_int_eq(r->num_hydroelastic, 1);
  const teal_hydroelastic_contact_info *h = &r->hydroelastic[0];
  /* at rest the surface carries the weight: force on the ground = m g down */
  ck_assert(fabs(h->f_Bc_W.v[2] + G) < 1e-4 * G);
  /* (friction holds the small rolling moment of the mesh's asymmetry) */
  ck_assert(hypot(h->f_Bc_W.v[0], h->f_Bc_W.v[1]) < 1e-4 * G);
  ck_assert(fabs(body_vz(&w)) < 1e-5);
  /* the depth solves the closed form to the mesh's accuracy (cells of R / 8;
   * the force is a few percent low, the depth about 1-2% deep) */
  double depth = R_BALL - body_z(&w, 0), exact = solve_depth(sphere_force_at, G, R_BALL);
  ck_assert_msg(depth > exact && depth < 1.03 * exact, "depth %g vs %g", depth, exact);
  /* the disc of radius sqrt(2 R d - d^2) under the centre, on the ground */
  double a2 = 2 * R_BALL * depth - depth * depth;
  ck_assert(h->surface.area < M_PI * a2 && h->surface.area > 0.95 * M_PI * a2);
  double q[7];
  teal_plant_get_positions(w.plant, w.ctx, q, 7);
  ck_assert(hypot(h->surface.centroid.v[0] - q[4], h->surface.centroid.v[1] - q[5]) <
            1e-3 * R_BALL);
  ck_assert(fabs(h->surface.centroid.v[2]) < 1e-12);
  ck_assert_int_eq(h->body_A, 1);
  ck_assert_int_eq(h->body_B, TEAL_WORLD_BODY);
  teal_vec3 net = teal_contact_results_net_force(r, 1);
  ck_assert(fabs(net.v[2] - G) < 1e-4 * G);
  ts_contact_world_free(&w);
}
END_TEST

static double box_dims[3] = {0.2, 0.15, 0.05}, box_E = 1e4;
static double box_force_at(double d) {
  return box_force(box_dims[0], box_dims[1], box_dims[2], box_E, d);
}

START_TEST(soft_box_rests_at_exact_depth) {
  teal_shape s;
  teal_shape_box(2 * box_dims[0], 2 * box_dims[1], 2 * box_dims[2], &s, NULL);
  ts_contact_world w = soft_world(&s, 2.0, box_E, NAN, 0.5, box_dims[2] + 0.001);
  ts_contact_advance(&w, 2.0);
  const teal_contact_results *r = results(&w);
  ck_assert_int_eq(r->num_hydroelastic, 1);
  ck_assert(fabs(r->hydroelastic[0].f_Bc_W.v[2] + 2 * G) < 1e-5 * 2 * G);
  /* the box's mesh holds its exact extent field: the depth is exact */
  double depth = box_dims[2] - body_z(&w, 0), exact = solve_depth(box_force_at, 2 * G, 0.05);
  ck_assert_msg(fabs(depth / exact - 1.0) < 1e-4, "depth %g vs %g", depth, exact);
  /* flat: about E d / h_z times the area */
  ck_assert(fabs(2 * G / (box_E * depth / box_dims[2] * 4 * box_dims[0] * box_dims[1]) - 1) < 0.02);
  ck_assert(fabs(r->hydroelastic[0].surface.area - 4 * box_dims[0] * box_dims[1]) < 1e-12);
  ts_contact_world_free(&w);
}
END_TEST

/* Rebound speed over impact speed of the soft sphere dropped from 5 cm. */
static double rebound(double dissipation) {
  teal_shape s;
  teal_shape_sphere(R_BALL, &s, NULL);
  ts_contact_world w = soft_world(&s, 1.0, 1e4, dissipation, 0.5, R_BALL + 0.05);
  double impact = 0.0, up = 0.0;
  for (int i = 1; i <= 400; i++) {
    ts_contact_advance(&w, 1e-3 * i);
    double vz = body_vz(&w);
    impact = fmin(impact, vz);
    up = fmax(up, vz);
  }
  ts_contact_world_free(&w);
  return up / -impact;
}

START_TEST(dissipation_reduces_rebound) {
  double e0 = rebound(0.0), e1 = rebound(0.5), e2 = rebound(3.0);
  /* no dissipation: the pressure force is conservative */
  ck_assert_msg(e0 > 0.97 && e0 < 1.001, "e0 %g", e0);
  ck_assert_msg(e1 < e0 - 0.05 && e2 < e1 - 0.05, "e %g %g %g", e0, e1, e2);
}
END_TEST

START_TEST(sliding_friction_opposes_slip) {
  teal_shape s;
  teal_shape_sphere(R_BALL, &s, NULL);
  ts_contact_world w = soft_world(&s, 1.0, 1e4, 0.0, 0.4, R_BALL - 0.02);
  double v[6] = {0, 0, 0, 0.6, -0.8, 0}; /* slipping at 1 m/s, no spin */
  ck_assert_int_eq(teal_plant_set_velocities(w.plant, w.ctx, v, 6), TEAL_OK);
  const teal_contact_results *r = results(&w);
  ck_assert_int_eq(r->num_hydroelastic, 1);
  const teal_hydroelastic_contact_info *h = &r->hydroelastic[0];
  double fn = -h->f_Bc_W.v[2];
  double pressure = teal_contact_surface_total_pressure_force(&h->surface);
  ck_assert(fabs(fn - pressure) < 1e-9 * fn); /* no penetration rate: f_n = int p */
  /* on the ground (B) the friction pulls along the sphere's slip: mu f_n */
  ck_assert(fabs(h->f_Bc_W.v[0] - 0.4 * fn * 0.6) < 1e-9 * fn);
  ck_assert(fabs(h->f_Bc_W.v[1] + 0.4 * fn * 0.8) < 1e-9 * fn);
  /* every face slips alike, so the face forces are parallel: the moment
   * about the centroid is (c_p - c) x F, c_p the centre of pressure */
  teal_vec3 cp = teal_vec3_zero();
  for (int i = 0; i < h->surface.num_faces; i++) {
    const teal_contact_polygon *face = &h->surface.faces[i];
    cp = teal_vec3_add(cp, teal_vec3_scale(face->centroid, face->pressure * face->area / pressure));
  }
  teal_vec3 tau_cp = teal_vec3_cross(teal_vec3_sub(cp, h->surface.centroid), h->f_Bc_W);
  ck_assert(teal_vec3_norm(teal_vec3_sub(h->tau_Bc_W, tau_cp)) < 1e-12 * fn);
  ck_assert(teal_vec3_norm(h->tau_Bc_W) < 2e-3 * fn * R_BALL); /* the mesh's asymmetry */
  ck_assert(hypot(h->surface.centroid.v[0], h->surface.centroid.v[1]) < 1e-9);
  /* the generalized force on the sphere: the opposite force and moment,
   * shifted from the surface centroid R - 0.02 below its centre */
  const teal_system *plant = teal_plant_system(w.plant);
  const teal_context *pc = teal_context_subcontext(w.ctx, plant);
  const double *gcf;
  ck_assert_int_eq(teal_eval_vector_output(
                       plant, pc, teal_plant_generalized_contact_forces_output_port(w.plant), &gcf),
                   TEAL_OK);
  teal_vec3 f = teal_vec3_neg(h->f_Bc_W);
  teal_vec3 tau =
      teal_vec3_sub(teal_vec3_cross(teal_vec3_make(0, 0, -(R_BALL - 0.02)), f), h->tau_Bc_W);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(gcf[i], tau.v[i], 1e-9 * fn);
    ck_assert_double_eq_tol(gcf[3 + i], f.v[i], 1e-9 * fn);
  }
  ts_contact_world_free(&w);
}
END_TEST

START_TEST(fallback_takes_point_contact_for_other_pairs) {
  for (int strict = 0; strict < 2; strict++) {
    ts_contact_world w = {0};
    w.plant = teal_plant_new(0.0, NULL);
    teal_contact_model model =
        strict ? TEAL_CONTACT_MODEL_HYDROELASTIC : TEAL_CONTACT_MODEL_HYDROELASTIC_WITH_FALLBACK;
    ck_assert_int_eq(teal_plant_set_contact_model(w.plant, model), TEAL_OK);
    ck_assert_int_eq(teal_plant_get_contact_model(w.plant), model);
    teal_shape s;
    teal_shape_sphere(R_BALL, &s, NULL);
    teal_proximity_properties soft = soft_props(1e4, NAN, 0.5);
    teal_proximity_properties plain = teal_proximity_properties_make(0.5, 0.5);
    ts_contact_add_body_with(w.plant, "soft", 1.0, &s, &soft);
    ts_contact_add_body_with(w.plant, "plain", 1.0, &s,
                             &plain); /* no hydroelastic representation */
    ts_contact_add_rigid_ground(w.plant, 0.5);
    ts_contact_finish(&w);
    double q[14] = {1, 0, 0, 0, 0, 0, R_BALL - 0.01, 1, 0, 0, 0, 1, 0, R_BALL - 0.001};
    ck_assert_int_eq(teal_plant_set_positions(w.plant, w.ctx, q, 14), TEAL_OK);
    const teal_contact_results *r;
    int rc = teal_plant_eval_contact_results(w.plant, w.ctx, &r);
    if (strict) {
      TS_EXPECT_ERROR(rc, TEAL_EUNSUPPORTED, teal_context_error(w.ctx),
                      "between geometries 'plain' and 'ground' is not supported");
    } else {
      ck_assert_int_eq(rc, TEAL_OK);
      ck_assert_int_eq(r->num_hydroelastic, 1);
      ck_assert_int_eq(r->n, 1);
      ck_assert_int_eq(r->c[0].body_B == 2 || r->c[0].body_A == 2, 1);
      ck_assert(fabs(r->c[0].depth - 0.001) < 1e-12);
      ck_assert_int_eq(r->hydroelastic[0].body_A, 1);
      ck_assert(teal_contact_results_net_force(r, 2).v[2] > 0.0);
    }
    ts_contact_world_free(&w);
  }
}
END_TEST

START_TEST(settings_and_bad_inputs) {
  teal_plant *p = teal_plant_new(1e-3, NULL);
  ck_assert_int_eq(teal_plant_get_contact_model(p), TEAL_CONTACT_MODEL_POINT);
  ck_assert_int_eq(teal_plant_get_contact_model(NULL), TEAL_CONTACT_MODEL_POINT);
  /* discrete plants take it too (test_hydroelastic_discrete.c) */
  ck_assert_int_eq(teal_plant_set_contact_model(p, TEAL_CONTACT_MODEL_HYDROELASTIC), TEAL_OK);
  teal_plant_free(p);
  p = teal_plant_new(0.0, NULL);
  TS_EXPECT_ERROR(teal_plant_set_contact_model(p, (teal_contact_model)5), TEAL_EINVAL,
                  teal_plant_error(p), "unknown contact model");
  teal_plant_free(p);
  p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_plant_get_contact_surface_representation(p),
                   TEAL_CONTACT_SURFACE_TRIANGLES);
  ck_assert_int_eq(teal_plant_set_contact_surface_representation(p, TEAL_CONTACT_SURFACE_POLYGONS),
                   TEAL_OK);
  ck_assert_int_eq(teal_plant_get_contact_surface_representation(p), TEAL_CONTACT_SURFACE_POLYGONS);
  TS_EXPECT_ERROR(
      teal_plant_set_contact_surface_representation(p, (teal_contact_surface_representation)3),
      TEAL_EINVAL, teal_plant_error(p), "unknown contact surface representation");
  teal_plant_free(p);
  /* a soft geometry without a modulus, or a negative one */
  teal_shape s;
  teal_shape_sphere(R_BALL, &s, NULL);
  double moduli[2] = {NAN, -1e5};
  for (int i = 0; i < 2; i++) {
    p = teal_plant_new(0.0, NULL);
    teal_proximity_properties pp = soft_props(moduli[i], NAN, 0.5);
    ck_assert(!teal_proximity_properties_valid(&pp));
    teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
    int b = teal_plant_add_rigid_body(p, "b", TEAL_DEFAULT_MODEL_INSTANCE, &M);
    TS_EXPECT_ERROR(
        teal_plant_register_collision_geometry(p, b, teal_transform_identity(), &s, "b", &pp),
        TEAL_EINVAL, teal_plant_error(p), "hydroelastic modulus that is finite and > 0");
    teal_plant_free(p);
  }
  teal_proximity_properties pp = rigid_props(0.5);
  pp.hydroelastic_modulus = -3.0;
  ck_assert(!teal_proximity_properties_valid(&pp));
  pp = rigid_props(0.5);
  pp.compliance = (teal_hydroelastic_compliance)9;
  ck_assert(!teal_proximity_properties_valid(&pp));
  /* after finalize; and a soft shape without a mesh under the strict model */
  p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_plant_set_contact_model(p, TEAL_CONTACT_MODEL_HYDROELASTIC), TEAL_OK);
  teal_shape cap;
  teal_shape_capsule(0.1, 0.2, &cap, NULL);
  pp = soft_props(1e5, NAN, 0.5);
  ts_contact_add_body_with(p, "capsule", 1.0, &cap, &pp);
  TS_EXPECT_ERROR(teal_plant_finalize(p), TEAL_EUNSUPPORTED, teal_plant_error(p),
                  "soft geometry 'capsule': a soft capsule is not supported");
  teal_plant_free(p);
  p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  TS_EXPECT_ERROR(teal_plant_set_contact_model(p, TEAL_CONTACT_MODEL_HYDROELASTIC), TEAL_ESTATE,
                  teal_plant_error(p), "after finalize");
  teal_plant_free(p);
}
END_TEST

START_TEST(continuous_step_allocates_nothing) {
  teal_shape s;
  teal_shape_sphere(R_BALL, &s, NULL);
  ts_contact_world w = soft_world(&s, 1.0, 1e4, NAN, 0.5, R_BALL + 0.02);
  teal_simulator_set_integrator(w.sim, teal_integrator_semi_explicit_euler);
  teal_simulator_set_fixed_step(w.sim, 1e-3);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_initialize(w.sim, &st), TEAL_OK);
  ts_alloc_install();
  ts_alloc_reset();
  ts_contact_advance(&w, 0.3); /* lands during the run */
  ts_alloc_expect_none();
  ck_assert_int_eq(results(&w)->num_hydroelastic, 1);
  ck_assert_int_eq(teal_plant_warning_count(w.plant, w.ctx), 0); /* no surface grew */
  ts_contact_world_free(&w);
}
END_TEST

START_TEST(results_copy_their_surfaces) {
  teal_shape s;
  teal_shape_sphere(R_BALL, &s, NULL);
  ts_contact_world w = soft_world(&s, 1.0, 1e4, NAN, 0.5, R_BALL - 0.01);
  const teal_contact_results *r = results(&w);
  teal_contact_results copy = {0};
  ck_assert_int_eq(teal_contact_results_type.copy(&copy, r), TEAL_OK);
  ck_assert_int_eq(copy.num_hydroelastic, 1);
  const teal_contact_surface *a = &r->hydroelastic[0].surface, *b = &copy.hydroelastic[0].surface;
  ck_assert_ptr_ne(a->faces, b->faces);
  ck_assert_int_eq(a->num_faces, b->num_faces);
  ck_assert_int_eq(memcmp(a->faces, b->faces, (size_t)a->num_faces * sizeof(*a->faces)), 0);
  ck_assert_int_eq(memcmp(a->vertices, b->vertices, (size_t)a->num_vertices * sizeof(*a->vertices)),
                   0);
  ck_assert(b->area == a->area);
  ck_assert(copy.hydroelastic[0].f_Bc_W.v[2] == r->hydroelastic[0].f_Bc_W.v[2]);
  teal_contact_results_type.free(&copy);
  ck_assert_int_eq(teal_contact_results_reserve_hydroelastic(NULL, 1), TEAL_EINVAL);
  ts_contact_world_free(&w);
}
END_TEST

START_TEST(results_copy_keeps_the_room) {
  /* a copy made before contact (an output or a sampled value) keeps the
   * source's room, so copying the results in contact allocates nothing */
  teal_shape s;
  teal_shape_sphere(R_BALL, &s, NULL);
  ts_contact_world w = soft_world(&s, 1.0, 1e4, NAN, 0.5, R_BALL + 0.05);
  const teal_contact_results *r = results(&w);
  ck_assert_int_eq(r->num_hydroelastic, 0);
  teal_contact_results copy = {0};
  ck_assert_int_eq(teal_contact_results_type.copy(&copy, r), TEAL_OK);
  ck_assert_int_ge(copy.hydroelastic_cap, r->hydroelastic_cap);
  double q[7] = {1, 0, 0, 0, 0, 0, R_BALL - 0.01};
  ck_assert_int_eq(teal_plant_set_positions(w.plant, w.ctx, q, 7), TEAL_OK);
  r = results(&w);
  ck_assert_int_eq(r->num_hydroelastic, 1);
  ts_alloc_install();
  ts_alloc_reset();
  ck_assert_int_eq(teal_contact_results_type.copy(&copy, r), TEAL_OK);
  ts_alloc_expect_none();
  ck_assert_int_eq(copy.num_hydroelastic, 1);
  ck_assert_int_eq(copy.hydroelastic[0].surface.num_faces, r->hydroelastic[0].surface.num_faces);
  teal_contact_results_type.free(&copy);
  ts_contact_world_free(&w);
}
END_TEST

int main(void) {
  Suite *s = suite_create("hydroelastic_contact");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, soft_sphere_rests_where_pressure_carries_weight);
  tcase_add_test(tc, soft_box_rests_at_exact_depth);
  tcase_add_test(tc, dissipation_reduces_rebound);
  tcase_add_test(tc, sliding_friction_opposes_slip);
  tcase_add_test(tc, fallback_takes_point_contact_for_other_pairs);
  tcase_add_test(tc, settings_and_bad_inputs);
  tcase_add_test(tc, continuous_step_allocates_nothing);
  tcase_add_test(tc, results_copy_their_surfaces);
  tcase_add_test(tc, results_copy_keeps_the_room);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
