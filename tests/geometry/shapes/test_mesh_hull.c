/* Convex hulls of meshes through qhull (geometry/shapes/mesh_hull.c): the
 * hull of a cube is its 8 corners with their volume, the hull of an
 * icosphere keeps every vertex; support points, in memory and for a cube
 * and an icosphere read from binary STL, ASCII STL and OBJ, are exactly the
 * vertices extreme in their direction (a brute-force search); the hull collides in the GJK/EPA
 * pipeline like the box shape it stands for; non-convexity is 0 for convex solids and 1/7 for the
 * L-shaped prism; the parser convenience warns for that prism and for an open mesh; degenerate
 * input is refused. */
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

/* The index of the vertex of m with the largest dot product with d (the
 * support point of m's convex hull, found by brute force). */
static int extreme_vertex(const teal_mesh *m, teal_vec3 d) {
  int best = 0;
  for (int k = 1; k < m->num_vertices; k++) {
    if (teal_vec3_dot(m->vertices[k], d) > teal_vec3_dot(m->vertices[best], d)) {
      best = k;
    }
  }
  return best;
}

/* Every support point of hull in 200 random directions is exactly the
 * vertex of m that is extreme in that direction: the same coordinates, bit
 * for bit, or (for a direction in which two vertices tie to rounding) one
 * with the same dot product. */
static void expect_support_is_extreme_vertex(const teal_shape *hull, const teal_mesh *m) {
  unsigned seed = 7;
  for (int i = 0; i < 200; i++) {
    teal_vec3 d = teal_vec3_make(ts_rand_uniform(&seed, -1, 1), ts_rand_uniform(&seed, -1, 1),
                                 ts_rand_uniform(&seed, -1, 1));
    teal_vec3 s = teal_shape_support(hull, d);
    teal_vec3 v = m->vertices[extreme_vertex(m, d)];
    if (teal_vec3_dot(s, d) != teal_vec3_dot(v, d)) {
      ck_abort_msg("support (%g %g %g) is not the extreme vertex (%g %g %g)", s.v[0], s.v[1],
                   s.v[2], v.v[0], v.v[1], v.v[2]);
    }
    int is_vertex = 0;
    for (int k = 0; k < m->num_vertices && !is_vertex; k++) {
      is_vertex = memcmp(&m->vertices[k], &s, sizeof(s)) == 0;
    }
    ck_assert_msg(is_vertex, "support (%g %g %g) is no vertex", s.v[0], s.v[1], s.v[2]);
  }
}

START_TEST(icosphere_support_points_are_its_vertices) {
  teal_mesh ball = ts_mesh_icosphere(3, 0.5);
  teal_shape hull;
  ck_assert_int_eq(teal_mesh_convex_hull(&ball, &hull, NULL, NULL), TEAL_OK);
  ck_assert_int_eq(hull.num_vertices, ball.num_vertices);
  expect_support_is_extreme_vertex(&hull, &ball);
  double nc = -1.0;
  ck_assert_int_eq(teal_mesh_nonconvexity(&ball, &nc, NULL), TEAL_OK);
  ck_assert_double_eq_tol(nc, 0.0, 1e-12);
  teal_shape_release(&hull);
  teal_mesh_release(&ball);
}
END_TEST

/* A cube and an icosphere written as binary STL, ASCII STL and OBJ and
 * read back (scale 1.5): the hull's support points are the loaded
 * vertices extreme in each direction; the cube's are its corners
 * sign(d) * half extents, exactly. */
START_TEST(file_hull_support_points_are_the_extreme_vertices) {
  static const char *const names[3] = {"b.stl", "a.stl", "o.obj"};
  int (*const write[3])(const char *, const teal_mesh *) = {
      ts_mesh_write_stl_binary, ts_mesh_write_stl_ascii, ts_mesh_write_obj};
  teal_mesh solids[2] = {ts_mesh_box(1.0, 2.0, 0.5), ts_mesh_icosphere(2, 0.5)};
  make_dir();
  for (int k = 0; k < 6; k++) {
    char path[128];
    snprintf(path, sizeof path, "%s/%s", g_dir, names[k % 3]);
    ck_assert_int_eq(write[k % 3](path, &solids[k / 3]), 0);
    teal_mesh loaded;
    teal_shape hull;
    ck_assert_int_eq(teal_mesh_load_file(path, 1.5, &loaded, NULL), TEAL_OK);
    ck_assert_int_eq(teal_mesh_convex_hull(&loaded, &hull, NULL, NULL), TEAL_OK);
    expect_support_is_extreme_vertex(&hull, &loaded);
    if (k < 3) {
      teal_vec3 d = teal_vec3_make(0.3, -0.8, 0.1), s = teal_shape_support(&hull, d);
      ck_assert_double_eq(s.v[0], 0.75);
      ck_assert_double_eq(s.v[1], -1.5);
      ck_assert_double_eq(s.v[2], 0.375);
    }
    teal_shape_release(&hull);
    teal_mesh_release(&loaded);
    unlink(path);
  }
  rmdir(g_dir);
  teal_mesh_release(&solids[0]);
  teal_mesh_release(&solids[1]);
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
  /* scaled by 2: the prism's volume 3 x 8, its centroid x 2 */
  ck_assert_double_eq_tol(s.mass_properties.volume, 24.0, 1e-5);
  ck_assert_double_eq_tol(s.mass_properties.center_of_mass.v[2], 1.0, 1e-6);
  ck_assert_double_eq_tol(s.mass_properties.center_of_mass.v[0], 5.0 / 3.0, 1e-6);
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
  ck_assert_double_eq(s.mass_properties.volume, 0.0);
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
  tcase_add_test(tc, icosphere_support_points_are_its_vertices);
  tcase_add_test(tc, file_hull_support_points_are_the_extreme_vertices);
  tcase_add_test(tc, hull_collides_like_the_box);
  tcase_add_test(tc, l_prism_is_far_from_convex_and_warns);
  tcase_add_test(tc, degenerate_input_is_refused);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
