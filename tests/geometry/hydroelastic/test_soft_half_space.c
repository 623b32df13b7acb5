/* Soft volume meshes and their contact surfaces with a rigid half-space
 * (geometry/hydroelastic/): a soft sphere pressed to depth d gives a disc
 * of radius sqrt(2 R d - d^2) carrying the closed-form integral of
 * p = E (1 - r / R), converging at second order with the mesh; a soft box
 * gives the exact integral of its extent field; both representations
 * agree; the surface moves rigidly with the pair; bad inputs. */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <check.h>
#include <math.h>
#include <string.h>

#include "geometry/hydroelastic/soft_half_space.h"
#include "math/rotation.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* The integral of E (1 - r / R) over the disc where the plane at distance
 * h = R - d from the centre cuts the sphere: with a^2 = R^2 - h^2,
 * int_0^a E (1 - sqrt(h^2 + s^2) / R) 2 pi s ds
 *   = E pi (a^2 - 2 (R^3 - h^3) / (3 R)). */
static double sphere_force(double R, double E, double d) {
  double h = R - d, a2 = R * R - h * h;
  return E * M_PI * (a2 - 2.0 * (R * R * R - h * h * h) / (3.0 * R));
}

/* The integral of E min(d, a - |x|, b - |y|) / h_z over the rectangle
 * [-a, a] x [-b, b] (a box with half sizes a, b, h_z >= ... pressed to
 * depth d <= h_z): int_0^d (2a - 2t)(2b - 2t) dt, times E / h_z. */
static double box_force(double a, double b, double hz, double E, double d) {
  return E / hz * 4.0 * (a * b * d - 0.5 * (a + b) * d * d + d * d * d / 3.0);
}

static teal_transform at(double x, double y, double z) {
  return teal_transform_make(teal_rotation_identity(), teal_vec3_make(x, y, z));
}

/* The surface of a sphere mesh (radius R, cells of R / k) whose lowest
 * point is d under the ground plane z = 0. */
static double sphere_surface(double R, double d, int k, teal_contact_surface_representation rep,
                             teal_contact_surface *s) {
  teal_volume_mesh *m = teal_volume_mesh_soft_sphere(R, 1e5, R / k, NULL);
  ck_assert_ptr_nonnull(m);
  int n = teal_soft_half_space_contact_surface(m, at(0.3, -0.2, R - d), at(0.3, -0.2, 0.0), rep, s,
                                               NULL);
  ck_assert_int_gt(n, 0);
  teal_volume_mesh_free(m);
  return teal_contact_surface_total_pressure_force(s);
}

START_TEST(sphere_force_converges_to_closed_form) {
  double R = 0.1, d = 0.02, exact = sphere_force(R, 1e5, d), err[3];
  teal_contact_surface s = {0};
  for (int i = 0; i < 3; i++) {
    err[i] = fabs(sphere_surface(R, d, 4 << i, TEAL_CONTACT_SURFACE_TRIANGLES, &s) / exact - 1.0);
  }
  /* second order: the error falls about 4x per halving of the cell size */
  ck_assert_msg(err[1] < 0.03 && err[2] < 0.008, "errors %g %g", err[1], err[2]);
  ck_assert(err[1] / err[2] > 3.5 && err[0] / err[1] > 3.5);
  /* the disc: radius sqrt(2 R d - d^2), on the plane, centred under the sphere */
  double a2 = 2 * R * d - d * d;
  ck_assert(fabs(s.area / (M_PI * a2) - 1.0) < 0.005);
  ck_assert(fabs(s.centroid.v[0] - 0.3) < 1e-12 && fabs(s.centroid.v[1] + 0.2) < 1e-12);
  ck_assert(fabs(s.centroid.v[2]) < 1e-15);
  for (int i = 0; i < s.num_vertices; i++) {
    double rx = s.vertices[i].v[0] - 0.3, ry = s.vertices[i].v[1] + 0.2;
    ck_assert(fabs(s.vertices[i].v[2]) < 1e-15);
    ck_assert(rx * rx + ry * ry <= a2 * (1 + 1e-12));
    ck_assert(s.pressure[i] >= -1e-9 && s.pressure[i] <= 1e5 * d / R + 1e-9);
  }
  for (int f = 0; f < s.num_faces; f++) {
    ck_assert(fabs(s.faces[f].normal.v[2] - 1.0) < 1e-15);
    ck_assert_int_eq(s.faces[f].count, 3);
    /* the pressure grows into the sphere: its gradient points up, into the soft body */
    ck_assert(s.faces[f].grad_p.v[2] > 0.0);
  }
  teal_contact_surface_release(&s);
}
END_TEST

START_TEST(representations_agree) {
  teal_contact_surface tri = {0}, poly = {0};
  double ft = sphere_surface(0.1, 0.03, 8, TEAL_CONTACT_SURFACE_TRIANGLES, &tri);
  double fp = sphere_surface(0.1, 0.03, 8, TEAL_CONTACT_SURFACE_POLYGONS, &poly);
  ck_assert(fabs(ft - fp) < 1e-12 * fp);
  ck_assert(fabs(tri.area - poly.area) < 1e-12 * poly.area);
  ck_assert_int_gt(tri.num_faces, poly.num_faces);
  int quads = 0;
  for (int f = 0; f < poly.num_faces; f++) {
    const teal_contact_polygon *face = &poly.faces[f];
    ck_assert(face->count == 3 || face->count == 4);
    quads += face->count == 4;
    /* counter-clockwise about the normal: every corner turns left */
    for (int i = 0; i < face->count; i++) {
      teal_vec3 a = poly.vertices[face->first + i];
      teal_vec3 b = poly.vertices[face->first + (i + 1) % face->count];
      teal_vec3 c = poly.vertices[face->first + (i + 2) % face->count];
      teal_vec3 turn = teal_vec3_cross(teal_vec3_sub(b, a), teal_vec3_sub(c, b));
      ck_assert(teal_vec3_dot(turn, face->normal) > 0.0);
    }
  }
  ck_assert_int_gt(quads, 0);
  ck_assert_int_eq(tri.num_faces, poly.num_faces + 3 * quads); /* a quad makes 4 triangles */
  teal_contact_surface_release(&tri);
  teal_contact_surface_release(&poly);
}
END_TEST

START_TEST(box_force_is_exact) {
  double a = 0.2, b = 0.15, hz = 0.05, E = 2e6;
  teal_volume_mesh *m =
      teal_volume_mesh_soft_box(teal_vec3_make(2 * a, 2 * b, 2 * hz), E, NAN, NULL);
  ck_assert_ptr_nonnull(m);
  ck_assert(fabs(teal_volume_mesh_volume(m) - 8 * a * b * hz) < 1e-12);
  teal_contact_surface s = {0};
  double depths[] = {0.001, 0.004, 0.02, 0.05};
  for (int i = 0; i < 4; i++) {
    double d = depths[i];
    ck_assert_int_gt(teal_soft_half_space_contact_surface(m, at(0, 0, hz - d), at(0, 0, 0),
                                                          TEAL_CONTACT_SURFACE_POLYGONS, &s, NULL),
                     0);
    double f = teal_contact_surface_total_pressure_force(&s);
    ck_assert_msg(fabs(f / box_force(a, b, hz, E, d) - 1.0) < 1e-12, "d %g: %g vs %g", d, f,
                  box_force(a, b, hz, E, d));
    ck_assert(fabs(s.area - 4 * a * b) < 1e-12);
    /* a flat box: the leading term E d / h_z times the area, less the edge band */
    ck_assert(f < E * d / hz * 4 * a * b && f > E * d / hz * 4 * (a - d) * (b - d));
  }
  teal_contact_surface_release(&s);
  teal_volume_mesh_free(m);
}
END_TEST

START_TEST(surface_moves_with_the_pair) {
  teal_volume_mesh *m = teal_volume_mesh_soft_box(teal_vec3_make(0.3, 0.2, 0.1), 1e6, 0.02, NULL);
  teal_contact_surface s0 = {0}, s1 = {0};
  /* a tilted box on the plane z = 0, then the same pair moved and turned */
  teal_transform X_WS = teal_transform_make(teal_rotation_from_rpy(teal_vec3_make(0.2, -0.1, 0.7)),
                                            teal_vec3_make(0, 0, 0.03));
  teal_transform X_WH = teal_transform_identity();
  teal_transform X_W2W = teal_transform_make(teal_rotation_from_rpy(teal_vec3_make(1.0, 0.5, -2.0)),
                                             teal_vec3_make(0.4, -1.0, 2.0));
  ck_assert_int_gt(teal_soft_half_space_contact_surface(m, X_WS, X_WH,
                                                        TEAL_CONTACT_SURFACE_TRIANGLES, &s0, NULL),
                   0);
  ck_assert_int_gt(teal_soft_half_space_contact_surface(m, teal_transform_compose(X_W2W, X_WS),
                                                        teal_transform_compose(X_W2W, X_WH),
                                                        TEAL_CONTACT_SURFACE_TRIANGLES, &s1, NULL),
                   0);
  double f0 = teal_contact_surface_total_pressure_force(&s0);
  ck_assert(fabs(teal_contact_surface_total_pressure_force(&s1) - f0) < 1e-9 * f0);
  ck_assert(fabs(s1.area - s0.area) < 1e-12);
  teal_vec3 c = teal_transform_apply(X_W2W, s0.centroid);
  ck_assert(teal_vec3_norm(teal_vec3_sub(c, s1.centroid)) < 1e-12);
  teal_vec3 n = teal_rotation_apply(X_W2W.R, teal_vec3_make(0, 0, 1));
  ck_assert(teal_vec3_norm(teal_vec3_sub(s1.faces[0].normal, n)) < 1e-12);
  /* out of contact: no faces */
  ck_assert_int_eq(teal_soft_half_space_contact_surface(m, at(0, 0, 0.5), X_WH,
                                                        TEAL_CONTACT_SURFACE_TRIANGLES, &s0, NULL),
                   0);
  ck_assert(s0.area == 0.0);
  teal_contact_surface_release(&s0);
  teal_contact_surface_release(&s1);
  teal_volume_mesh_free(m);
}
END_TEST

START_TEST(sphere_mesh_field_and_volume) {
  double R = 0.2, E = 3e5;
  teal_volume_mesh *m = teal_volume_mesh_soft_sphere(R, E, R / 8, NULL);
  ck_assert_ptr_nonnull(m);
  double vol = teal_volume_mesh_volume(m), ball = 4.0 / 3.0 * M_PI * R * R * R;
  ck_assert(vol < ball && vol > 0.99 * ball);
  double pmax = 0.0;
  for (int v = 0; v < m->num_vertices; v++) {
    double r = teal_vec3_norm(m->vertices[v]);
    ck_assert(r <= R * (1 + 1e-12));
    ck_assert(fabs(m->pressure[v] - E * (1.0 - r / R)) < 1e-9 * E);
    pmax = fmax(pmax, m->pressure[v]);
  }
  ck_assert(pmax == E); /* the centre is a vertex */
  teal_volume_mesh_free(m);
}
END_TEST

START_TEST(bad_inputs) {
  teal_error err = {0};
  ck_assert_ptr_null(teal_volume_mesh_soft_sphere(0.1, -1.0, NAN, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "hydroelastic modulus (-1)"));
  ck_assert_ptr_null(teal_volume_mesh_soft_sphere(0.0, 1e5, NAN, &err));
  ck_assert_ptr_nonnull(strstr(err.message, "radius (0)"));
  ck_assert_ptr_null(teal_volume_mesh_soft_sphere(0.1, 1e5, -0.1, &err));
  ck_assert_ptr_nonnull(strstr(err.message, "resolution hint"));
  ck_assert_ptr_null(teal_volume_mesh_soft_box(teal_vec3_make(1, NAN, 1), 1e5, NAN, &err));
  ck_assert_ptr_nonnull(strstr(err.message, "soft box"));
  ck_assert_ptr_null(teal_volume_mesh_soft_box(teal_vec3_make(1, 1, 1), NAN, NAN, &err));
  ck_assert_ptr_nonnull(strstr(err.message, "modulus (nan)"));
  teal_volume_mesh *m = teal_volume_mesh_soft_sphere(0.1, 1e5, NAN, NULL);
  teal_contact_surface s = {0};
  teal_transform X = teal_transform_identity(), bad = at(NAN, 0, 0);
  TS_EXPECT_ERROR(teal_soft_half_space_contact_surface(NULL, X, X, 0, &s, &err), TEAL_EINVAL, &err,
                  "NULL mesh");
  TS_EXPECT_ERROR(teal_soft_half_space_contact_surface(m, X, X, 0, NULL, &err), TEAL_EINVAL, &err,
                  "NULL surface");
  TS_EXPECT_ERROR(teal_soft_half_space_contact_surface(
                      m, X, X, (teal_contact_surface_representation)7, &s, &err),
                  TEAL_EINVAL, &err, "unknown representation");
  TS_EXPECT_ERROR(teal_soft_half_space_contact_surface(m, bad, X, 0, &s, &err), TEAL_ENONFINITE,
                  &err, "not finite");
  ck_assert_int_eq(teal_contact_surface_reserve(NULL, 1, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_contact_surface_reserve(&s, -1, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_soft_half_space_capacity(NULL, 0, NULL, NULL), TEAL_EINVAL);
  ck_assert(teal_volume_mesh_volume(NULL) == 0.0);
  ck_assert(teal_contact_surface_total_pressure_force(NULL) == 0.0);
  teal_volume_mesh_free(NULL);
  teal_contact_surface_release(&s);
  teal_volume_mesh_free(m);
}
END_TEST

/* A reserved surface is filled without allocating. */
START_TEST(reserved_surface_allocates_nothing) {
  teal_volume_mesh *m = teal_volume_mesh_soft_sphere(0.1, 1e5, NAN, NULL);
  teal_contact_surface s = {0};
  int faces, verts;
  ck_assert_int_eq(teal_soft_half_space_capacity(m, TEAL_CONTACT_SURFACE_TRIANGLES, &faces, &verts),
                   TEAL_OK);
  ck_assert_int_eq(teal_contact_surface_reserve(&s, faces, verts), TEAL_OK);
  ts_alloc_install();
  ts_alloc_reset();
  for (int i = 0; i < 10; i++) {
    teal_soft_half_space_contact_surface(m, at(0, 0, 0.1 - 0.01 * i), teal_transform_identity(),
                                         TEAL_CONTACT_SURFACE_TRIANGLES, &s, NULL);
  }
  ts_alloc_expect_none();
  teal_contact_surface_release(&s);
  teal_volume_mesh_free(m);
}
END_TEST

/* Clearing empties a surface and keeps its room: the next cut reuses it. */
START_TEST(clear_keeps_the_capacity) {
  teal_volume_mesh *m = teal_volume_mesh_soft_sphere(0.1, 1e5, NAN, NULL);
  teal_contact_surface s = {0};
  int face_count = teal_soft_half_space_contact_surface(
      m, at(0, 0, 0.09), teal_transform_identity(), TEAL_CONTACT_SURFACE_TRIANGLES, &s, NULL);
  ck_assert_int_gt(face_count, 0);
  ck_assert_int_eq(s.num_faces, face_count);
  double force = teal_contact_surface_total_pressure_force(&s);
  ck_assert_double_gt(force, 0.0);
  int face_cap = s.face_cap, vertex_cap = s.vertex_cap;
  teal_contact_surface_clear(&s);
  ck_assert_int_eq(s.num_faces, 0);
  ck_assert_int_eq(s.num_vertices, 0);
  ck_assert_double_eq(s.area, 0.0);
  ck_assert_double_eq(teal_contact_surface_total_pressure_force(&s), 0.0);
  ck_assert_int_eq(s.face_cap, face_cap);
  ck_assert_int_eq(s.vertex_cap, vertex_cap);
  teal_contact_surface_clear(NULL); /* allowed */
  ts_alloc_install();
  ts_alloc_reset();
  ck_assert_int_eq(
      teal_soft_half_space_contact_surface(m, at(0, 0, 0.09), teal_transform_identity(),
                                           TEAL_CONTACT_SURFACE_TRIANGLES, &s, NULL),
      face_count);
  ts_alloc_expect_none();
  ck_assert_double_eq_tol(teal_contact_surface_total_pressure_force(&s), force, 1e-12 * force);
  teal_contact_surface_release(&s);
  teal_volume_mesh_free(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("soft_half_space");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, sphere_force_converges_to_closed_form);
  tcase_add_test(tc, representations_agree);
  tcase_add_test(tc, box_force_is_exact);
  tcase_add_test(tc, surface_moves_with_the_pair);
  tcase_add_test(tc, sphere_mesh_field_and_volume);
  tcase_add_test(tc, bad_inputs);
  tcase_add_test(tc, reserved_surface_allocates_nothing);
  tcase_add_test(tc, clear_keeps_the_capacity);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
