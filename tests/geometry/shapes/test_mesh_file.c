/* Mesh files through assimp (geometry/shapes/mesh_file.c): a cube and an
 * icosphere written by the test as binary STL, ASCII STL and OBJ load back
 * as the same vertices (to float precision) and triangles, scaled; the
 * memory form; and every bad input with its code and message. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "geometry/shapes/mesh_file.h"
#include "support/error_messages.h"
#include "support/mesh_fixtures.h"
#include "support/test_support.h"

static char g_dir[64];

static void make_dir(void) {
  strcpy(g_dir, "/tmp/teal_mesh_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(g_dir));
}

static void path_in_dir(char *out, size_t cap, const char *name) {
  snprintf(out, cap, "%s/%s", g_dir, name);
}

typedef int (*writer_fn)(const char *, const teal_mesh *);

static const struct {
  const char *name;
  writer_fn write;
} kWriters[] = {{"m_bin.stl", ts_mesh_write_stl_binary},
                {"m_ascii.STL", ts_mesh_write_stl_ascii},
                {"m.obj", ts_mesh_write_obj}};

/* Each vertex of got is scale times a vertex of want (float precision), and
 * both have the same number of vertices and triangles; every triangle of got
 * maps to a triangle of want with the same orientation. */
static void expect_same_mesh(const teal_mesh *got, const teal_mesh *want, double scale) {
  ck_assert_int_eq(got->num_vertices, want->num_vertices);
  ck_assert_int_eq(got->num_triangles, want->num_triangles);
  int *map = calloc((size_t)got->num_vertices, sizeof(int));
  for (int i = 0; i < got->num_vertices; i++) {
    map[i] = -1;
    for (int j = 0; j < want->num_vertices; j++) {
      teal_vec3 d = teal_vec3_sub(got->vertices[i], teal_vec3_scale(want->vertices[j], scale));
      if (teal_vec3_norm(d) < 1e-6 * scale) {
        map[i] = j;
      }
    }
    ck_assert_int_ge(map[i], 0);
  }
  for (int t = 0; t < got->num_triangles; t++) {
    const int *g = got->triangles + 3 * t;
    int found = 0;
    for (int u = 0; u < want->num_triangles && !found; u++) {
      const int *w = want->triangles + 3 * u;
      for (int r = 0; r < 3; r++) {
        found |= map[g[0]] == w[r] && map[g[1]] == w[(r + 1) % 3] && map[g[2]] == w[(r + 2) % 3];
      }
    }
    ck_assert_msg(found, "triangle %d has no match", t);
  }
  free(map);
}

static void round_trip(const teal_mesh *want) {
  for (size_t w = 0; w < sizeof(kWriters) / sizeof(kWriters[0]); w++) {
    char path[128];
    path_in_dir(path, sizeof path, kWriters[w].name);
    ck_assert_int_eq(kWriters[w].write(path, want), 0);
    for (double scale = 1.0; scale <= 4.0; scale *= 4.0) {
      teal_mesh got;
      teal_error err;
      ck_assert_int_eq(teal_mesh_load_file(path, scale, &got, &err), TEAL_OK);
      expect_same_mesh(&got, want, scale);
      teal_mesh_release(&got);
      ck_assert_ptr_null(got.vertices);
    }
    unlink(path);
  }
}

START_TEST(cube_round_trips_through_every_format) {
  make_dir();
  teal_mesh cube = ts_mesh_box(1.0, 2.0, 3.0);
  round_trip(&cube);
  teal_mesh_release(&cube);
  rmdir(g_dir);
}
END_TEST

START_TEST(icosphere_round_trips_through_every_format) {
  make_dir();
  teal_mesh ball = ts_mesh_icosphere(2, 0.5);
  ck_assert_int_eq(ball.num_vertices, 162);
  ck_assert_int_eq(ball.num_triangles, 320);
  round_trip(&ball);
  teal_mesh_release(&ball);
  rmdir(g_dir);
}
END_TEST

START_TEST(memory_form_reads_the_same_bytes) {
  make_dir();
  char path[128];
  path_in_dir(path, sizeof path, "cube.stl");
  teal_mesh cube = ts_mesh_box(1.0, 1.0, 1.0);
  ck_assert_int_eq(ts_mesh_write_stl_binary(path, &cube), 0);
  size_t n = 0;
  unsigned char *bytes = ts_read_bytes(path, &n);
  teal_mesh got;
  ck_assert_int_eq(teal_mesh_load_memory(bytes, n, "stl", 2.0, &got, NULL), TEAL_OK);
  expect_same_mesh(&got, &cube, 2.0);
  teal_mesh_release(&got);
  free(bytes);
  teal_mesh_release(&cube);
  unlink(path);
  rmdir(g_dir);
}
END_TEST

START_TEST(bad_arguments_and_files) {
  make_dir();
  teal_mesh m;
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_mesh_load_file(NULL, 1.0, &m, &err), TEAL_EINVAL, &err, "NULL");
  TS_EXPECT_ERROR(teal_mesh_load_file("x.stl", 1.0, NULL, &err), TEAL_EINVAL, &err, "out");
  TS_EXPECT_ERROR(teal_mesh_load_file("x.stl", 0.0, &m, &err), TEAL_EINVAL, &err, "scale");
  TS_EXPECT_ERROR(teal_mesh_load_file("x.stl", NAN, &m, &err), TEAL_EINVAL, &err, "scale");
  char path[128];
  path_in_dir(path, sizeof path, "missing.stl");
  TS_EXPECT_ERROR(teal_mesh_load_file(path, 1.0, &m, &err), TEAL_EIO, &err, "missing.stl");
  TS_EXPECT_ERROR(teal_mesh_load_file(g_dir, 1.0, &m, &err), TEAL_EIO, &err, "not a regular");
  path_in_dir(path, sizeof path, "empty.stl");
  ck_assert_int_eq(ts_write_bytes(path, "", 0), 0);
  TS_EXPECT_ERROR(teal_mesh_load_file(path, 1.0, &m, &err), TEAL_EPARSE, &err, "empty");
  ck_assert_ptr_null(m.vertices);
  path_in_dir(path, sizeof path, "junk.obj");
  ck_assert_int_eq(ts_write_bytes(path, "this is no mesh\n", 16), 0);
  TS_EXPECT_ERROR(teal_mesh_load_file(path, 1.0, &m, &err), TEAL_EPARSE, &err, "junk.obj");
  unlink(path);
  path_in_dir(path, sizeof path, "empty.stl");
  unlink(path);
  TS_EXPECT_ERROR(teal_mesh_load_memory(NULL, 4, "stl", 1.0, &m, &err), TEAL_EINVAL, &err, "NULL");
  TS_EXPECT_ERROR(teal_mesh_load_memory("abc", TEAL_MESH_MAX_BYTES + 1, "stl", 1.0, &m, &err),
                  TEAL_ESIZE, &err, "<memory>");
  rmdir(g_dir);
}
END_TEST

START_TEST(nan_vertex_is_refused) {
  teal_mesh cube = ts_mesh_box(1.0, 1.0, 1.0);
  make_dir();
  char path[128];
  path_in_dir(path, sizeof path, "nan.stl");
  cube.vertices[3].v[1] = NAN;
  ck_assert_int_eq(ts_mesh_write_stl_binary(path, &cube), 0);
  teal_mesh m;
  teal_error err;
  TS_EXPECT_ERROR(teal_mesh_load_file(path, 1.0, &m, &err), TEAL_ENONFINITE, &err, "not finite");
  ck_assert_ptr_null(m.vertices);
  teal_mesh_release(&cube);
  unlink(path);
  rmdir(g_dir);
}
END_TEST

START_TEST(release_of_null_and_empty) {
  teal_mesh_release(NULL);
  teal_mesh m = {0, NULL, 0, NULL};
  teal_mesh_release(&m);
  ck_assert_int_eq(m.num_vertices, 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mesh_file");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, cube_round_trips_through_every_format);
  tcase_add_test(tc, icosphere_round_trips_through_every_format);
  tcase_add_test(tc, memory_form_reads_the_same_bytes);
  tcase_add_test(tc, bad_arguments_and_files);
  tcase_add_test(tc, nan_vertex_is_refused);
  tcase_add_test(tc, release_of_null_and_empty);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
