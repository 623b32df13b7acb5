/* Mass properties and closedness of meshes (geometry/shapes/mesh_properties.c)
 * against analytic solids: a cuboid (also rotated and moved, against
 * R diag R^T and its centre), the regular icosahedron (closed-form volume
 * and inertia), a subdivided icosphere (zero centre and isotropic inertia
 * by its symmetry; volume and second moment by the divergence theorem, a
 * route independent of the implementation's tetrahedra), the L-shaped
 * prism (volume and centroid of its three unit cells), a cube and the
 * icospheres written as binary STL, ASCII STL and OBJ and read back, an
 * inside-out mesh, and the open or broken meshes that are refused. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "geometry/shapes/mesh_properties.h"
#include "math/rotation.h"
#include "support/error_messages.h"
#include "support/mesh_fixtures.h"
#include "support/test_support.h"

static void expect_mat3_near(teal_mat3 got, teal_mat3 want, double tol) {
  ck_assert_double_le(teal_mat3_max_abs_diff(got, want), tol);
}

static void expect_vec3_near(teal_vec3 got, teal_vec3 want, double tol) {
  ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(got, want)), tol);
}

START_TEST(cuboid_matches_closed_form) {
  double a = 1.0, b = 2.0, c = 3.0;
  teal_mesh box = ts_mesh_box(a, b, c);
  ck_assert(teal_mesh_is_closed(&box));
  teal_mesh_mass_properties mp;
  ck_assert_int_eq(teal_mesh_calc_mass_properties(&box, &mp, NULL), TEAL_OK);
  ck_assert_double_eq_tol(mp.volume, a * b * c, 1e-14);
  expect_vec3_near(mp.center_of_mass, teal_vec3_zero(), 1e-15);
  teal_mat3 want = teal_mat3_diag((b * b + c * c) / 12, (a * a + c * c) / 12, (a * a + b * b) / 12);
  expect_mat3_near(mp.unit_inertia, want, 1e-14);
  /* rotated and moved: the same solid seen from another frame */
  teal_rotation R = teal_rotation_from_rpy(teal_vec3_make(0.3, -0.7, 1.1));
  teal_vec3 p = teal_vec3_make(10.0, -4.0, 2.5);
  for (int i = 0; i < box.num_vertices; i++) {
    box.vertices[i] = teal_vec3_add(p, teal_rotation_apply(R, box.vertices[i]));
  }
  ck_assert_int_eq(teal_mesh_calc_mass_properties(&box, &mp, NULL), TEAL_OK);
  ck_assert_double_eq_tol(mp.volume, a * b * c, 1e-12);
  expect_vec3_near(mp.center_of_mass, p, 1e-12);
  expect_mat3_near(mp.unit_inertia, teal_mat3_mul(R, teal_mat3_mul(want, teal_mat3_transpose(R))),
                   1e-12);
  teal_mesh_release(&box);
}
END_TEST

/* Volume, first moment and second moment (the integral of x x^T) of the
 * solid a closed mesh bounds, by the divergence theorem face by face, a
 * route independent of the implementation's tetrahedra: with n the unit
 * outward normal of a face and h = n . x its constant distance from the
 * origin, div(x) = 3, div(x_i x) = 4 x_i and div(x_i x_j x) = 5 x_i x_j
 * give V = sum h A / 3, int x = sum h int_f x / 4 and
 * int x x^T = sum h int_f x x^T / 5; the face integrals are exact by the
 * centroid (degree 1) and the edge-midpoint rule (degree 2). */
typedef struct divergence_moments {
  double volume;
  teal_vec3 first;
  teal_mat3 second;
} divergence_moments;

static divergence_moments divergence_theorem(const teal_mesh *m) {
  divergence_moments d = {0.0, {{0, 0, 0}}, {{0}}};
  for (int t = 0; t < m->num_triangles; t++) {
    const int *k = m->triangles + 3 * t;
    teal_vec3 a = m->vertices[k[0]], b = m->vertices[k[1]], c = m->vertices[k[2]];
    teal_vec3 n = teal_vec3_cross(teal_vec3_sub(b, a), teal_vec3_sub(c, a));
    double area = 0.5 * teal_vec3_norm(n), h = teal_vec3_dot(n, a) / (2.0 * area);
    teal_vec3 mid[3] = {teal_vec3_scale(teal_vec3_add(a, b), 0.5),
                        teal_vec3_scale(teal_vec3_add(b, c), 0.5),
                        teal_vec3_scale(teal_vec3_add(c, a), 0.5)};
    teal_vec3 centroid = teal_vec3_scale(teal_vec3_add(a, teal_vec3_add(b, c)), 1.0 / 3.0);
    d.volume += h * area / 3.0;
    d.first = teal_vec3_add(d.first, teal_vec3_scale(centroid, h * area / 4.0));
    for (int q = 0; q < 3; q++) {
      for (int i = 0; i < 9; i++) {
        d.second.m[i] += h * area / 15.0 * mid[q].v[i / 3] * mid[q].v[i % 3];
      }
    }
  }
  return d;
}

/* mp against the divergence theorem's moments of m (relative tolerance). */
static void expect_divergence_moments(const teal_mesh *m, const teal_mesh_mass_properties *mp,
                                      double tol) {
  divergence_moments d = divergence_theorem(m);
  ck_assert_double_eq_tol(mp->volume, d.volume, tol * d.volume);
  teal_vec3 com = teal_vec3_scale(d.first, 1.0 / d.volume);
  double size = sqrt(d.second.m[0] + d.second.m[4] + d.second.m[8]) / sqrt(d.volume);
  expect_vec3_near(mp->center_of_mass, com, tol * size);
  /* the unit inertia about the centroid: (tr(C) 1 - C) / V, C the second
   * moment about the centroid */
  teal_mat3 C = teal_mat3_scale(d.second, 1.0 / d.volume);
  for (int i = 0; i < 9; i++) {
    C.m[i] -= com.v[i / 3] * com.v[i % 3];
  }
  double tr = C.m[0] + C.m[4] + C.m[8];
  teal_mat3 G = teal_mat3_sub(teal_mat3_diag(tr, tr, tr), C);
  expect_mat3_near(mp->unit_inertia, G, tol * tr);
}

/* The level-0 icosphere is the regular icosahedron: for circumradius r its
 * edge is a = 4 r / sqrt(10 + 2 sqrt 5), its volume 5 (3 + sqrt 5) a^3 / 12
 * and, isotropic by its symmetry, its unit inertia (3 + sqrt 5) a^2 / 20
 * about every axis through its centre (closed forms checked in scratch
 * code against a tetrahedral sum and a Monte Carlo estimate). */
START_TEST(icosahedron_matches_closed_form) {
  double r = 0.5, s5 = sqrt(5.0), a = 4.0 * r / sqrt(10.0 + 2.0 * s5);
  teal_mesh ico = ts_mesh_icosphere(0, r);
  ck_assert_int_eq(ico.num_vertices, 12);
  ck_assert(teal_mesh_is_closed(&ico));
  for (int t = 0; t < ico.num_triangles; t++) { /* every edge is a */
    for (int k = 0; k < 3; k++) {
      teal_vec3 e = teal_vec3_sub(ico.vertices[ico.triangles[3 * t + k]],
                                  ico.vertices[ico.triangles[3 * t + (k + 1) % 3]]);
      ck_assert_double_eq_tol(teal_vec3_norm(e), a, 2e-15);
    }
  }
  teal_mesh_mass_properties mp;
  ck_assert_int_eq(teal_mesh_calc_mass_properties(&ico, &mp, NULL), TEAL_OK);
  ck_assert_double_eq_tol(mp.volume, 5.0 * (3.0 + s5) / 12.0 * a * a * a, 1e-14);
  expect_vec3_near(mp.center_of_mass, teal_vec3_zero(), 1e-15);
  double g = (3.0 + s5) / 20.0 * a * a;
  expect_mat3_near(mp.unit_inertia, teal_mat3_diag(g, g, g), 1e-14);
  teal_mesh_release(&ico);
}
END_TEST

/* A subdivided icosphere: its icosahedral symmetry makes the centroid the
 * origin and the inertia isotropic (zero products, equal moments), and its
 * moments are the divergence theorem's. */
START_TEST(icosphere_is_isotropic_with_the_divergence_theorem_moments) {
  double r = 0.5;
  teal_mesh ball = ts_mesh_icosphere(3, r);
  ck_assert(teal_mesh_is_closed(&ball));
  teal_mesh_mass_properties mp;
  ck_assert_int_eq(teal_mesh_calc_mass_properties(&ball, &mp, NULL), TEAL_OK);
  expect_vec3_near(mp.center_of_mass, teal_vec3_zero(), 1e-15);
  double g = mp.unit_inertia.m[0];
  expect_mat3_near(mp.unit_inertia, teal_mat3_diag(g, g, g), 1e-15);
  expect_divergence_moments(&ball, &mp, 1e-14);
  teal_mesh_release(&ball);
}
END_TEST

START_TEST(l_prism_is_three_unit_cells) {
  teal_mesh l = ts_mesh_l_prism();
  ck_assert(teal_mesh_is_closed(&l));
  teal_mesh_mass_properties mp;
  ck_assert_int_eq(teal_mesh_calc_mass_properties(&l, &mp, NULL), TEAL_OK);
  ck_assert_double_eq_tol(mp.volume, 3.0, 1e-14);
  expect_vec3_near(mp.center_of_mass, teal_vec3_make(2.5 / 3, 2.5 / 3, 0.5), 1e-14);
  /* Ixx about the centroid: the three cubes' own 1/6 plus their offsets */
  double cy[3] = {0.5, 0.5, 1.5}, cx[3] = {0.5, 1.5, 0.5}, ixx = 0.0, ixy = 0.0;
  for (int i = 0; i < 3; i++) {
    double dy = cy[i] - 2.5 / 3, dx = cx[i] - 2.5 / 3;
    ixx += 1.0 / 6.0 + dy * dy;
    ixy -= dx * dy;
  }
  ck_assert_double_eq_tol(mp.unit_inertia.m[0], ixx / 3.0, 1e-14);
  ck_assert_double_eq_tol(mp.unit_inertia.m[1], ixy / 3.0, 1e-14);
  expect_divergence_moments(&l, &mp, 1e-14); /* the helper on a known, lopsided solid */
  teal_mesh_release(&l);
}
END_TEST

static const char *const k_file_names[3] = {"b.stl", "a.stl", "o.obj"};
static int (*const k_writers[3])(const char *, const teal_mesh *) = {
    ts_mesh_write_stl_binary, ts_mesh_write_stl_ascii, ts_mesh_write_obj};

/* A cube of side 2 (corners exact in float) written as binary STL, ASCII
 * STL and OBJ and read back at scale 0.5 is the unit cube. */
START_TEST(cube_files_and_inside_out_mesh) {
  char dir[] = "/tmp/teal_mesh_props_XXXXXX", path[128];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  teal_mesh cube = ts_mesh_box(2.0, 2.0, 2.0);
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, k_file_names[i]);
    ck_assert_int_eq(k_writers[i](path, &cube), 0);
    teal_mesh loaded;
    ck_assert_int_eq(teal_mesh_load_file(path, 0.5, &loaded, NULL), TEAL_OK);
    teal_mesh_mass_properties mp;
    ck_assert_int_eq(teal_mesh_calc_mass_properties(&loaded, &mp, NULL), TEAL_OK);
    ck_assert_double_eq_tol(mp.volume, 1.0, 1e-14);
    expect_vec3_near(mp.center_of_mass, teal_vec3_zero(), 1e-15);
    expect_mat3_near(mp.unit_inertia, teal_mat3_diag(1.0 / 6, 1.0 / 6, 1.0 / 6), 1e-14);
    teal_mesh_release(&loaded);
    unlink(path);
  }
  /* every triangle reversed: the same solid */
  for (int t = 0; t < cube.num_triangles; t++) {
    int tmp = cube.triangles[3 * t + 1];
    cube.triangles[3 * t + 1] = cube.triangles[3 * t + 2];
    cube.triangles[3 * t + 2] = tmp;
  }
  teal_mesh_mass_properties flipped;
  ck_assert_int_eq(teal_mesh_calc_mass_properties(&cube, &flipped, NULL), TEAL_OK);
  ck_assert_double_eq_tol(flipped.volume, 8.0, 1e-14);
  expect_mat3_near(flipped.unit_inertia, teal_mat3_diag(4.0 / 6, 4.0 / 6, 4.0 / 6), 1e-14);
  teal_mesh_release(&cube);
  rmdir(dir);
}
END_TEST

/* The icosahedron and a subdivided icosphere read back from binary STL,
 * ASCII STL and OBJ at scale 2: the moments of the solid their float
 * vertices bound are exactly the divergence theorem's of the loaded vertex
 * list, and within float rounding (~1e-7) the in-memory polyhedron's
 * scaled (volume x 8, unit inertia x 4); for the icosahedron these are the
 * closed forms of icosahedron_matches_closed_form. */
START_TEST(icosphere_files_match_the_polyhedron) {
  char dir[] = "/tmp/teal_mesh_ico_XXXXXX", path[128];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  for (int level = 0; level <= 2; level += 2) {
    teal_mesh ball = ts_mesh_icosphere(level, 0.5);
    teal_mesh_mass_properties want, got;
    ck_assert_int_eq(teal_mesh_calc_mass_properties(&ball, &want, NULL), TEAL_OK);
    for (int i = 0; i < 3; i++) {
      snprintf(path, sizeof path, "%s/%s", dir, k_file_names[i]);
      ck_assert_int_eq(k_writers[i](path, &ball), 0);
      teal_mesh loaded;
      ck_assert_int_eq(teal_mesh_load_file(path, 2.0, &loaded, NULL), TEAL_OK);
      ck_assert(teal_mesh_is_closed(&loaded));
      ck_assert_int_eq(teal_mesh_calc_mass_properties(&loaded, &got, NULL), TEAL_OK);
      expect_divergence_moments(&loaded, &got, 1e-13);
      ck_assert_double_eq_tol(got.volume, 8.0 * want.volume, 1e-6 * want.volume);
      expect_vec3_near(got.center_of_mass, teal_vec3_zero(), 1e-7);
      expect_mat3_near(got.unit_inertia, teal_mat3_scale(want.unit_inertia, 4.0),
                       1e-6 * want.unit_inertia.m[0]);
      teal_mesh_release(&loaded);
      unlink(path);
    }
    teal_mesh_release(&ball);
  }
  rmdir(dir);
}
END_TEST

START_TEST(open_and_broken_meshes_are_refused) {
  teal_mesh box = ts_mesh_box(1.0, 1.0, 1.0);
  teal_mesh_mass_properties mp = {-1.0, {{0, 0, 0}}, {{0}}};
  teal_error err;
  ts_stale_error(&err);
  /* one face missing */
  box.num_triangles = 11;
  ck_assert(!teal_mesh_is_closed(&box));
  TS_EXPECT_ERROR(teal_mesh_calc_mass_properties(&box, &mp, &err), TEAL_EINVAL, &err, "closed");
  ck_assert_double_eq(mp.volume, -1.0);
  /* one triangle turned the wrong way */
  box.num_triangles = 12;
  int tmp = box.triangles[1];
  box.triangles[1] = box.triangles[2];
  box.triangles[2] = tmp;
  ck_assert(!teal_mesh_is_closed(&box));
  box.triangles[2] = box.triangles[1];
  box.triangles[1] = tmp;
  ck_assert(teal_mesh_is_closed(&box));
  /* an index out of range */
  box.triangles[5] = 8;
  ck_assert(!teal_mesh_is_closed(&box));
  TS_EXPECT_ERROR(teal_mesh_calc_mass_properties(&box, &mp, &err), TEAL_EINVAL, &err, "closed");
  TS_EXPECT_ERROR(teal_mesh_calc_mass_properties(NULL, &mp, &err), TEAL_EINVAL, &err, "NULL");
  TS_EXPECT_ERROR(teal_mesh_calc_mass_properties(&box, NULL, &err), TEAL_EINVAL, &err, "out");
  ck_assert(!teal_mesh_is_closed(NULL));
  teal_mesh_release(&box);
  /* closed but flat: two triangles back to back */
  teal_mesh flat = ts_mesh_box(1.0, 1.0, 1.0);
  int pair[6] = {0, 1, 2, 0, 2, 1};
  memcpy(flat.triangles, pair, sizeof pair);
  flat.num_triangles = 2;
  ck_assert(teal_mesh_is_closed(&flat));
  TS_EXPECT_ERROR(teal_mesh_calc_mass_properties(&flat, &mp, &err), TEAL_EINVAL, &err, "no volume");
  teal_mesh_release(&flat);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mesh_properties");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, cuboid_matches_closed_form);
  tcase_add_test(tc, icosahedron_matches_closed_form);
  tcase_add_test(tc, icosphere_is_isotropic_with_the_divergence_theorem_moments);
  tcase_add_test(tc, l_prism_is_three_unit_cells);
  tcase_add_test(tc, cube_files_and_inside_out_mesh);
  tcase_add_test(tc, icosphere_files_match_the_polyhedron);
  tcase_add_test(tc, open_and_broken_meshes_are_refused);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
