/* Convex hulls of meshes through qhull (geometry/shapes/mesh_hull.c): the
 * hull of a cube is its 8 corners with their volume, the hull of an
 * icosphere keeps every vertex and its support points are the sphere's to
 * the discretization bound; the hull collides in the GJK/EPA pipeline like
 * the box shape it stands for; non-convexity is 0 for convex solids and 1/7
 * for the L-shaped prism; the parser convenience warns for that prism and
 * for an open mesh; degenerate input is refused. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "geometry/proximity/narrowphase.h"
#include "geometry/shapes/mesh_hull.h"
#include "geometry/shapes/support.h"
#include "math/rotation.h"
#include "support/error_messages.h"
#include "support/mesh_fixtures.h"
#include "support/test_support.h"

static char g_dir[64];

static void make_dir(void) {
  strcpy(g_dir, "/tmp/teal_hull_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(g_dir));
}

START_TEST(cube_hull_is_its_corners) {
  /* a cube with its face centres added: they are not hull vertices */
  teal_mesh cube = ts_mesh_box(1.0, 2.0, 3.0);
  teal_vec3 *v = calloc(14, sizeof(*v));
  memcpy(v, cube.vertices, 8 * sizeof(*v));
  for (int a = 0; a < 3; a++) {
    v[8 + 2 * a].v[a] = 0.5 * (a + 1);
    v[9 + 2 * a].v[a] = -0.5 * (a + 1);
  }
  teal_mesh points = {14, v, cube.num_triangles, cube.triangles};
  teal_shape hull;
  double volume = 0.0;
  ck_assert_int_eq(teal_mesh_convex_hull(&points, &hull, &volume, NULL), TEAL_OK);
  ck_assert_int_eq(hull.kind, TEAL_SHAPE_CONVEX);
  ck_assert_int_eq(hull.num_vertices, 8);
  ck_assert_double_eq_tol(volume, 6.0, 1e-12);
  for (int i = 0; i < 8; i++) {
    for (int a = 0; a < 3; a++) {
      ck_assert_double_eq(fabs(hull.vertices[i].v[a]), 0.5 * (a + 1));
    }
  }
  teal_shape_release(&hull);
  free(v);
  teal_mesh_release(&cube);
}
END_TEST

START_TEST(icosphere_support_points_are_the_spheres) {
  double r = 0.5;
  teal_mesh ball = ts_mesh_icosphere(3, r);
  teal_shape hull;
  ck_assert_int_eq(teal_mesh_convex_hull(&ball, &hull, NULL, NULL), TEAL_OK);
  ck_assert_int_eq(hull.num_vertices, ball.num_vertices);
  /* the largest angle between a face's vertices bounds how far the support
   * point is from the sphere's, r d */
  double max_edge = 0.0;
  for (int t = 0; t < ball.num_triangles; t++) {
    for (int k = 0; k < 3; k++) {
      teal_vec3 e = teal_vec3_sub(ball.vertices[ball.triangles[3 * t + k]],
                                  ball.vertices[ball.triangles[3 * t + (k + 1) % 3]]);
      max_edge = fmax(max_edge, teal_vec3_norm(e));
    }
  }
  unsigned seed = 7;
  for (int i = 0; i < 200; i++) {
    teal_vec3 d = teal_vec3_make(ts_rand_uniform(&seed, -1, 1), ts_rand_uniform(&seed, -1, 1),
                                 ts_rand_uniform(&seed, -1, 1));
    d = teal_vec3_scale(d, 1.0 / teal_vec3_norm(d));
    teal_vec3 s = teal_shape_support(&hull, d);
    ck_assert_double_eq_tol(teal_vec3_norm(s), r, 1e-15);
    ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(s, teal_vec3_scale(d, r))), max_edge);
    /* and it is the extreme vertex of the mesh itself */
    for (int k = 0; k < ball.num_vertices; k++) {
      ck_assert_double_le(teal_vec3_dot(ball.vertices[k], d), teal_vec3_dot(s, d) + 1e-15);
    }
  }
  double nc = -1.0;
  ck_assert_int_eq(teal_mesh_nonconvexity(&ball, &nc, NULL), TEAL_OK);
  ck_assert_double_eq_tol(nc, 0.0, 1e-12);
  teal_shape_release(&hull);
  teal_mesh_release(&ball);
}
END_TEST

START_TEST(hull_collides_like_the_box) {
  teal_mesh cube = ts_mesh_box(0.4, 0.6, 0.8);
  teal_shape hull, box, ball;
  ck_assert_int_eq(teal_mesh_convex_hull(&cube, &hull, NULL, NULL), TEAL_OK);
  ck_assert_int_eq(teal_shape_box(0.4, 0.6, 0.8, &box, NULL), TEAL_OK);
  ck_assert_int_eq(teal_shape_sphere(0.25, &ball, NULL), TEAL_OK);
  teal_transform X_WA = teal_transform_make(teal_rotation_from_rpy(teal_vec3_make(0.2, 0.1, -0.3)),
                                            teal_vec3_make(0.1, 0.0, 0.2));
  teal_vec3 offsets[3] = {{{0.0, 0.0, 0.55}}, {{0.35, 0.1, 0.0}}, {{0.05, -0.4, 0.1}}};
  for (int i = 0; i < 3; i++) {
    teal_transform X_WB =
        teal_transform_make(teal_rotation_identity(), teal_vec3_add(X_WA.p, offsets[i]));
    teal_penetration ph, pb;
    int oh = 0, ob = 0;
    ck_assert_int_eq(teal_shape_pair_penetration(&hull, X_WA, &ball, X_WB, &ph, &oh), TEAL_OK);
    ck_assert_int_eq(teal_shape_pair_penetration(&box, X_WA, &ball, X_WB, &pb, &ob), TEAL_OK);
    ck_assert_int_eq(oh, 1);
    ck_assert_int_eq(ob, 1);
    ck_assert_double_eq_tol(ph.depth, pb.depth, 1e-9);
    ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(ph.nhat_BA_W, pb.nhat_BA_W)), 1e-7);
  }
  teal_shape_release(&hull);
  teal_mesh_release(&cube);
}
END_TEST

START_TEST(l_prism_is_far_from_convex_and_warns) {
  make_dir();
  teal_mesh l = ts_mesh_l_prism();
  double nc = 0.0;
  ck_assert_int_eq(teal_mesh_nonconvexity(&l, &nc, NULL), TEAL_OK);
  ck_assert_double_eq_tol(nc, 1.0 / 7.0, 1e-12);
  char path[128];
  snprintf(path, sizeof path, "%s/l.obj", g_dir);
  ck_assert_int_eq(ts_mesh_write_obj(path, &l), 0);
  teal_mesh_shapes s;
  ck_assert_int_eq(teal_mesh_shapes_from_file(path, 2.0, &s, NULL), TEAL_OK);
  ck_assert_int_eq(s.collision.kind, TEAL_SHAPE_CONVEX);
  ck_assert_int_eq(s.collision.num_vertices, 10);
  ck_assert_int_eq(s.visual.kind, TEAL_SHAPE_MESH);
  ck_assert_str_eq(s.visual.filename, path);
  ck_assert_double_eq(s.visual.size.v[0], 2.0);
  ck_assert_double_eq_tol(s.nonconvexity, 1.0 / 7.0, 1e-6);
  ck_assert_ptr_nonnull(strstr(s.warning, "far from convex"));
  ck_assert_ptr_nonnull(strstr(s.warning, "l.obj"));
  teal_mesh_shapes_release(&s);
  /* a convex cube gives no warning */
  teal_mesh cube = ts_mesh_box(1.0, 1.0, 1.0);
  snprintf(path, sizeof path, "%s/cube.stl", g_dir);
  ck_assert_int_eq(ts_mesh_write_stl_ascii(path, &cube), 0);
  ck_assert_int_eq(teal_mesh_shapes_from_file(path, 1.0, &s, NULL), TEAL_OK);
  ck_assert_str_eq(s.warning, "");
  ck_assert_double_eq_tol(s.nonconvexity, 0.0, 1e-12);
  teal_mesh_shapes_release(&s);
  /* an open one (a face missing) collides as its hull, with a warning */
  cube.num_triangles = 10;
  ck_assert_int_eq(ts_mesh_write_stl_binary(path, &cube), 0);
  ck_assert_int_eq(teal_mesh_shapes_from_file(path, 1.0, &s, NULL), TEAL_OK);
  ck_assert_double_eq(s.nonconvexity, -1.0);
  ck_assert_ptr_nonnull(strstr(s.warning, "not closed"));
  teal_mesh_shapes_release(&s);
  unlink(path);
  snprintf(path, sizeof path, "%s/l.obj", g_dir);
  unlink(path);
  rmdir(g_dir);
  teal_mesh_release(&cube);
  teal_mesh_release(&l);
}
END_TEST

START_TEST(degenerate_input_is_refused) {
  teal_error err;
  ts_stale_error(&err);
  teal_shape hull;
  teal_mesh flat = ts_mesh_box(1.0, 1.0, 1.0);
  for (int i = 0; i < flat.num_vertices; i++) {
    flat.vertices[i].v[2] = 0.0;
  }
  TS_EXPECT_ERROR(teal_mesh_convex_hull(&flat, &hull, NULL, &err), TEAL_EINVAL, &err,
                  "span no volume");
  flat.num_vertices = 3;
  TS_EXPECT_ERROR(teal_mesh_convex_hull(&flat, &hull, NULL, &err), TEAL_EINVAL, &err, ">= 4");
  flat.num_vertices = 8;
  flat.vertices[2].v[0] = NAN;
  TS_EXPECT_ERROR(teal_mesh_convex_hull(&flat, &hull, NULL, &err), TEAL_ENONFINITE, &err,
                  "vertex 2");
  TS_EXPECT_ERROR(teal_mesh_convex_hull(NULL, &hull, NULL, &err), TEAL_EINVAL, &err, "NULL");
  TS_EXPECT_ERROR(teal_mesh_convex_hull(&flat, NULL, NULL, &err), TEAL_EINVAL, &err, "hull");
  TS_EXPECT_ERROR(teal_mesh_nonconvexity(&flat, NULL, &err), TEAL_EINVAL, &err, "out");
  teal_mesh_shapes s;
  TS_EXPECT_ERROR(teal_mesh_shapes_from_file("/nonexistent/m.stl", 1.0, &s, &err), TEAL_EIO, &err,
                  "/nonexistent/m.stl");
  ck_assert_ptr_null(s.collision.vertices);
  TS_EXPECT_ERROR(teal_mesh_shapes_from_file("m.stl", 1.0, NULL, &err), TEAL_EINVAL, &err, "out");
  teal_mesh_shapes_release(NULL);
  teal_mesh_release(&flat);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mesh_hull");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, cube_hull_is_its_corners);
  tcase_add_test(tc, icosphere_support_points_are_the_spheres);
  tcase_add_test(tc, hull_collides_like_the_box);
  tcase_add_test(tc, l_prism_is_far_from_convex_and_warns);
  tcase_add_test(tc, degenerate_input_is_refused);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
