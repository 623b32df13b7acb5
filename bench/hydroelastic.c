/* The cost of hydroelastic contact beside point contact (docs/hydroelastic.md).
 *
 * query   one contact query of a sphere (radius 0.1) 2 cm into a half-space:
 *         the point pair (teal_shape_pair_penetration) and the hydroelastic
 *         surface of a soft sphere mesh at cells of R/4, R/8 (the plant's
 *         default) and R/16, in triangles; also a soft box (0.4 x 0.3 x 0.1)
 *         1 mm in. Prints ns per query and its ratio to the point query,
 *         with the mesh's bounding volume hierarchy and without it (every
 *         tetrahedron tested: the cost before the hierarchy), the mesh's
 *         tetrahedra, the surface's faces and the force's error against
 *         the closed form.
 * step    a continuous plant with a 1 kg ball resting on the ground, 2000
 *         semi-explicit Euler steps of 1 ms: point contact, then
 *         hydroelastic with the default mesh. Prints ns per step and the
 *         ratio. The hierarchy's speed-up is the query's. */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <math.h>
#include <stdio.h>

#include "common/timing.h"
#include "teal.h"

/* Timings are the best of REPEATS runs: the machine may be shared. */
enum { QUERIES = 200, STEPS = 2000, REPEATS = 5 };

static double sphere_force(double R, double E, double d) {
  double h = R - d;
  return E * M_PI * (R * R - h * h - 2.0 * (R * R * R - h * h * h) / (3.0 * R));
}

static teal_transform at(double z) {
  return teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, z));
}

static double point_query_ns(void) {
  teal_shape s, hs;
  teal_shape_sphere(0.1, &s, NULL);
  teal_shape_half_space(&hs);
  teal_penetration pen;
  int overlap = 0;
  double best = INFINITY;
  for (int r = 0; r < REPEATS; r++) {
    double t0 = bench_now_seconds();
    for (int i = 0; i < 100 * QUERIES; i++) {
      teal_shape_pair_penetration(&s, at(0.08 + 1e-9 * i), &hs, at(0.0), &pen, &overlap);
    }
    best = fmin(best, (bench_now_seconds() - t0) / (100 * QUERIES) * 1e9);
  }
  return best;
}

/* ns per query of the surface of m at height z into s. */
static double surface_ns(teal_volume_mesh *m, double z, teal_contact_surface *s) {
  teal_soft_half_space_contact_surface(m, at(z), at(0.0), TEAL_CONTACT_SURFACE_TRIANGLES, s, NULL);
  double best = INFINITY;
  for (int r = 0; r < REPEATS; r++) {
    double t0 = bench_now_seconds();
    for (int i = 0; i < QUERIES / REPEATS; i++) {
      teal_soft_half_space_contact_surface(m, at(z), at(0.0), TEAL_CONTACT_SURFACE_TRIANGLES, s,
                                           NULL);
    }
    best = fmin(best, (bench_now_seconds() - t0) / (QUERIES / REPEATS) * 1e9);
  }
  return best;
}

static void hydro_query(const char *name, teal_volume_mesh *m, double z, double exact,
                        double point_ns) {
  teal_contact_surface s = {0};
  int nodes = m->num_bvh_nodes;
  m->num_bvh_nodes = 0; /* every tetrahedron, as before the hierarchy */
  double flat_ns = surface_ns(m, z, &s);
  m->num_bvh_nodes = nodes;
  double ns = surface_ns(m, z, &s);
  double f = teal_contact_surface_total_pressure_force(&s);
  printf("%-18s %9.0f %7.0fx %9.0f %7.0fx %8d %6d %+9.1e\n", name, ns, ns / point_ns, flat_ns,
         flat_ns / point_ns, m->num_tets, s.num_faces, f / exact - 1.0);
  teal_contact_surface_release(&s);
  teal_volume_mesh_free(m);
}

static double step_ns(teal_contact_model model) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_plant_set_contact_model(p, model);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_shape s, hs;
  teal_shape_sphere(0.1, &s, NULL);
  teal_shape_half_space(&hs);
  teal_proximity_properties ball = teal_proximity_properties_make(0.5, 0.5);
  ball.compliance = TEAL_HYDROELASTIC_SOFT;
  ball.hydroelastic_modulus = 1e4;
  teal_proximity_properties ground = teal_proximity_properties_make(0.5, 0.5);
  ground.compliance = TEAL_HYDROELASTIC_RIGID;
  teal_plant_register_collision_geometry(p, b, teal_transform_identity(), &s, "ball", &ball);
  teal_plant_register_collision_geometry(p, TEAL_WORLD_BODY, teal_transform_identity(), &hs,
                                         "ground", &ground);
  teal_plant_finalize(p);
  teal_builder *bld = teal_builder_new("bench");
  teal_add_plant_and_scene_graph(bld, p, NULL);
  teal_system *d = teal_builder_build(bld, NULL);
  teal_simulator *sim = d ? teal_simulator_new(d, NULL, NULL) : NULL;
  if (!sim) {
    teal_system_free(d);
    return NAN;
  }
  teal_simulator_set_integrator(sim, teal_integrator_semi_explicit_euler);
  teal_simulator_set_fixed_step(sim, 1e-3);
  double q[7] = {1, 0, 0, 0, 0, 0, 0.095};
  teal_plant_set_positions(p, teal_simulator_context(sim), q, 7);
  teal_sim_status st;
  teal_simulator_initialize(sim, &st);
  double t0 = bench_now_seconds();
  teal_simulator_advance_to(sim, STEPS * 1e-3, &st);
  double ns = (bench_now_seconds() - t0) / STEPS * 1e9;
  teal_simulator_free(sim);
  teal_system_free(d);
  return ns;
}

int main(void) {
  double point_ns = point_query_ns(), R = 0.1, E = 1e5;
  printf("%-18s %9s %8s %9s %8s %8s %6s %9s\n", "query", "BVH ns", "/ point", "all ns", "/ point",
         "tets", "faces", "force err");
  printf("%-18s %9.0f %7.0fx %9s %8s %8s %6s %9s\n", "point pair", point_ns, 1.0, "-", "-", "-",
         "1", "-");
  const char *names[3] = {"soft sphere R/4", "soft sphere R/8", "soft sphere R/16"};
  for (int k = 0; k < 3; k++) {
    hydro_query(names[k], teal_volume_mesh_soft_sphere(R, E, R / (4 << k), NULL), R - 0.02,
                sphere_force(R, E, 0.02), point_ns);
  }
  double a = 0.2, b = 0.15, hz = 0.05, d = 0.001;
  hydro_query("soft box", teal_volume_mesh_soft_box(teal_vec3_make(2 * a, 2 * b, 2 * hz), E, NAN,
                                                    NULL),
              hz - d, E / hz * 4.0 * (a * b * d - 0.5 * (a + b) * d * d + d * d * d / 3.0),
              point_ns);
  double sp = step_ns(TEAL_CONTACT_MODEL_POINT), sh = step_ns(TEAL_CONTACT_MODEL_HYDROELASTIC);
  printf("\nstep (ball at rest)    ns/step   / point\n");
  printf("%-22s %10.0f %9.1fx\n", "point contact", sp, 1.0);
  printf("%-22s %10.0f %9.1fx\n", "hydroelastic (R/8)", sh, sh / sp);
  return 0;
}
