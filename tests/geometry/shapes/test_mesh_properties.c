/* Mass properties and closedness of meshes (geometry/shapes/mesh_properties.c)
 * against analytic solids: a cuboid (also rotated and moved, against
 * R diag R^T and its centre), an icosphere (zero centre, isotropic inertia
 * by its symmetry, volume and inertia between those of its inscribed and
 * circumscribed balls), the L-shaped prism (volume and centroid of its three
 * unit cells), a cube loaded from an STL file, an inside-out mesh, and the
 * open or broken meshes that are refused. */
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

START_TEST(icosphere_is_isotropic_and_between_its_balls) {
  double r = 0.5;
  teal_mesh ball = ts_mesh_icosphere(3, r);
  ck_assert(teal_mesh_is_closed(&ball));
  teal_mesh_mass_properties mp;
  ck_assert_int_eq(teal_mesh_calc_mass_properties(&ball, &mp, NULL), TEAL_OK);
  /* the inscribed radius: the nearest face plane */
  double r_in = r;
  for (int t = 0; t < ball.num_triangles; t++) {
    const int *k = ball.triangles + 3 * t;
    teal_vec3 n = teal_vec3_cross(teal_vec3_sub(ball.vertices[k[1]], ball.vertices[k[0]]),
                                  teal_vec3_sub(ball.vertices[k[2]], ball.vertices[k[0]]));
    r_in = fmin(r_in, fabs(teal_vec3_dot(n, ball.vertices[k[0]])) / teal_vec3_norm(n));
  }
  ck_assert_double_gt(mp.volume, 4.0 / 3.0 * M_PI * pow(r_in, 3));
  ck_assert_double_lt(mp.volume, 4.0 / 3.0 * M_PI * pow(r, 3));
  expect_vec3_near(mp.center_of_mass, teal_vec3_zero(), 1e-15);
  double g = mp.unit_inertia.m[0];
  expect_mat3_near(mp.unit_inertia, teal_mat3_diag(g, g, g), 1e-14);
  /* a solid between the balls: its radius of gyration between theirs */
  ck_assert_double_gt(g, 0.4 * r_in * r_in);
  ck_assert_double_lt(g, 0.4 * r * r);
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
  teal_mesh_release(&l);
}
END_TEST

START_TEST(stl_cube_and_inside_out_mesh) {
  char dir[] = "/tmp/teal_mesh_props_XXXXXX", path[128];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/cube.stl", dir);
  teal_mesh cube = ts_mesh_box(2.0, 2.0, 2.0);
  ck_assert_int_eq(ts_mesh_write_stl_binary(path, &cube), 0);
  teal_mesh loaded;
  ck_assert_int_eq(teal_mesh_load_file(path, 0.5, &loaded, NULL), TEAL_OK);
  teal_mesh_mass_properties mp;
  ck_assert_int_eq(teal_mesh_calc_mass_properties(&loaded, &mp, NULL), TEAL_OK);
  ck_assert_double_eq_tol(mp.volume, 1.0, 1e-14);
  expect_mat3_near(mp.unit_inertia, teal_mat3_diag(1.0 / 6, 1.0 / 6, 1.0 / 6), 1e-14);
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
  teal_mesh_release(&loaded);
  unlink(path);
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
  tcase_add_test(tc, icosphere_is_isotropic_and_between_its_balls);
  tcase_add_test(tc, l_prism_is_three_unit_cells);
  tcase_add_test(tc, stl_cube_and_inside_out_mesh);
  tcase_add_test(tc, open_and_broken_meshes_are_refused);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
