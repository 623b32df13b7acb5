/* Fuzz-style robustness of mesh loading (geometry/shapes/mesh_file.c) and of
 * what is computed from a loaded mesh (hull, mass properties). Seeds: an
 * icosphere as binary STL, a cuboid as ASCII STL and as OBJ, written by the
 * fixtures. Campaigns: every truncation (at a stride), random byte
 * mutations, hostile binary STL headers (huge or off-by-one triangle
 * counts), NaN and infinite coordinates, and files that are empty, missing,
 * a directory or /dev/zero. Each load must return TEAL_OK with finite
 * vertices and in-range triangles, or a negative status with a message and
 * a zeroed mesh; every teal_alloc must be freed. Run it under ASan/UBSan
 * (TEAL_SANITIZE). The work is bounded by counts, never by time;
 * TEAL_MESH_FUZZ_TRIALS (default 1500 per seed) runs a longer campaign. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "geometry/shapes/mesh_hull.h"
#include "geometry/shapes/mesh_properties.h"
#include "support/error_messages.h"
#include "support/fuzz_fixtures.h"
#include "support/mesh_fixtures.h"
#include "support/test_support.h"

typedef struct seed {
  const char *format;
  unsigned char *bytes;
  size_t size;
} seed;

static seed g_seeds[3];
static char g_dir[64];
static int g_loaded, g_failed;

static void make_seed(int i, const char *name, const teal_mesh *m,
                      int (*write)(const char *, const teal_mesh *), const char *format) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", g_dir, name);
  ck_assert_int_eq(write(path, m), 0);
  g_seeds[i].format = format;
  g_seeds[i].bytes = ts_read_bytes(path, &g_seeds[i].size);
  ck_assert_ptr_nonnull(g_seeds[i].bytes);
  unlink(path);
}

static void setup(void) {
  strcpy(g_dir, "/tmp/teal_mesh_fuzz_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(g_dir));
  teal_mesh ball = ts_mesh_icosphere(1, 1.0), box = ts_mesh_box(1.0, 2.0, 3.0);
  make_seed(0, "ball.stl", &ball, ts_mesh_write_stl_binary, "stl");
  make_seed(1, "box.stl", &box, ts_mesh_write_stl_ascii, "stl");
  make_seed(2, "box.obj", &box, ts_mesh_write_obj, "obj");
  teal_mesh_release(&ball);
  teal_mesh_release(&box);
}

static void teardown(void) {
  for (int i = 0; i < 3; i++) {
    free(g_seeds[i].bytes);
  }
  rmdir(g_dir);
}

/* Checks what a successful load produced, and that the computations on it
 * return a status without failing. */
static void check_mesh(const teal_mesh *m) {
  ck_assert_int_gt(m->num_triangles, 0);
  for (int i = 0; i < m->num_vertices; i++) {
    ck_assert(teal_vec3_is_finite(m->vertices[i]));
  }
  for (int i = 0; i < 3 * m->num_triangles; i++) {
    ck_assert(m->triangles[i] >= 0 && m->triangles[i] < m->num_vertices);
  }
  teal_shape hull;
  teal_error err = {0, ""};
  if (teal_mesh_convex_hull(m, &hull, NULL, &err) == TEAL_OK) {
    teal_shape_release(&hull);
  } else {
    ck_assert(err.message[0] != '\0');
  }
  teal_mesh_mass_properties mp;
  int rc = teal_mesh_calc_mass_properties(m, &mp, NULL);
  ck_assert(rc == TEAL_OK || rc == TEAL_EINVAL);
  ck_assert(rc != TEAL_OK || (mp.volume > 0.0 && isfinite(mp.volume)));
}

/* One load from memory under the contract. */
static void load_once(const unsigned char *bytes, size_t n, const char *format) {
  teal_mesh m;
  teal_error err = {0, ""};
  int rc = teal_mesh_load_memory(bytes, n, format, 1.0, &m, &err);
  if (rc == TEAL_OK) {
    g_loaded++;
    check_mesh(&m);
    teal_mesh_release(&m);
  } else {
    g_failed++;
    ck_assert_int_lt(rc, 0);
    ck_assert_int_eq(err.code, rc);
    ck_assert(err.message[0] != '\0');
    ck_assert_ptr_null(m.vertices);
    ck_assert_ptr_null(m.triangles);
  }
}

START_TEST(truncations) {
  ts_alloc_install();
  for (int s = 0; s < 3; s++) {
    for (size_t n = 0; n <= g_seeds[s].size; n += 1 + n / 64) {
      load_once(g_seeds[s].bytes, n, g_seeds[s].format);
    }
  }
  ck_assert_int_gt(g_loaded, 0);
  ck_assert_int_gt(g_failed, 0);
  ts_alloc_expect_all_freed();
}
END_TEST

static int trials(void) {
  int n = (int)ts_fuzz_env("TEAL_MESH_FUZZ_TRIALS", 1500);
  return n > 0 ? n : 1500;
}

/* Mutates buf (n bytes) in place: flips, random bytes, digits, a NaN or an
 * infinite float over a binary STL coordinate. */
static void mutate(unsigned char *buf, size_t n, unsigned *rng) {
  int edits = 1 + (int)(ts_rand_uniform(rng, 0, 4));
  for (int e = 0; e < edits; e++) {
    size_t at = (size_t)ts_rand_uniform(rng, 0, (double)n - 1e-9);
    int kind = (int)ts_rand_uniform(rng, 0, 4);
    if (kind == 0) {
      buf[at] ^= (unsigned char)(1u << (int)ts_rand_uniform(rng, 0, 8));
    } else if (kind == 1) {
      buf[at] = (unsigned char)ts_rand_uniform(rng, 0, 256);
    } else if (kind == 2) {
      buf[at] = (unsigned char)"0123456789.-e+nN "[(int)ts_rand_uniform(rng, 0, 17)];
    } else if (at + 4 <= n) {
      float f = ts_rand_uniform(rng, 0, 1) < 0.5 ? NAN : INFINITY;
      memcpy(buf + at, &f, 4);
    }
  }
}

START_TEST(random_mutations) {
  ts_alloc_install();
  unsigned rng = 20261126u;
  for (int s = 0; s < 3; s++) {
    unsigned char *buf = malloc(g_seeds[s].size);
    for (int t = 0; t < trials(); t++) {
      memcpy(buf, g_seeds[s].bytes, g_seeds[s].size);
      mutate(buf, g_seeds[s].size, &rng);
      load_once(buf, g_seeds[s].size, g_seeds[s].format);
    }
    free(buf);
  }
  ts_alloc_expect_all_freed();
}
END_TEST

START_TEST(hostile_stl_counts_and_numbers) {
  seed *b = &g_seeds[0];
  unsigned char *buf = malloc(b->size);
  const uint32_t counts[] = {0, 1, 79, 81, 1000000, 0x7FFFFFFFu, 0xFFFFFFFFu};
  for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
    memcpy(buf, b->bytes, b->size);
    memcpy(buf + 80, &counts[i], 4);
    load_once(buf, b->size, "stl");
  }
  /* every coordinate of triangle 5 NaN: the whole load fails */
  const float bad[2] = {NAN, -INFINITY};
  for (int k = 0; k < 2; k++) {
    memcpy(buf, b->bytes, b->size);
    for (int c = 0; c < 9; c++) {
      memcpy(buf + 84 + 50 * 5 + 12 + 4 * c, &bad[k], 4);
    }
    teal_mesh m;
    teal_error err;
    TS_EXPECT_ERROR(teal_mesh_load_memory(buf, b->size, "stl", 1.0, &m, &err), TEAL_ENONFINITE,
                    &err, "not finite");
  }
  /* a finite file (the cuboid's corners at up to 1.5) scaled past the
   * doubles' range */
  teal_mesh m;
  teal_error err;
  TS_EXPECT_ERROR(
      teal_mesh_load_memory(g_seeds[1].bytes, g_seeds[1].size, "stl", 1.7e308, &m, &err),
      TEAL_ENONFINITE, &err, "not finite");
  free(buf);
}
END_TEST

/* OBJ faces that point past the vertices, and numbers out of range. */
START_TEST(hostile_obj_indices_and_numbers) {
  static const struct {
    const char *text;
    int code;
    const char *needle;
  } cases[] = {
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 999999999\n", TEAL_EPARSE, "index"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf -5 1 2\n", TEAL_EPARSE, "index"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", TEAL_EPARSE, "index"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3 4 5 6 7 8 9 10 11 12\n", TEAL_EPARSE, "index"},
      {"v 1e400 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", TEAL_ENONFINITE, "vertex 0 is not finite"},
      {"v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", TEAL_ENONFINITE, "vertex 0 is not finite"},
      {"v 0 0 0\nv 1 0 0\n", TEAL_EPARSE, "<memory>"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    teal_mesh m;
    teal_error err;
    ts_stale_error(&err);
    TS_EXPECT_ERROR(
        teal_mesh_load_memory(cases[i].text, strlen(cases[i].text), "obj", 1.0, &m, &err),
        cases[i].code, &err, cases[i].needle);
    ck_assert_ptr_null(m.vertices);
  }
}
END_TEST

START_TEST(empty_missing_and_special_files) {
  teal_mesh m;
  teal_error err;
  char path[128];
  snprintf(path, sizeof path, "%s/empty.obj", g_dir);
  ck_assert_int_eq(ts_write_bytes(path, "", 0), 0);
  TS_EXPECT_ERROR(teal_mesh_load_file(path, 1.0, &m, &err), TEAL_EPARSE, &err, "empty");
  unlink(path);
  TS_EXPECT_ERROR(teal_mesh_load_file(path, 1.0, &m, &err), TEAL_EIO, &err, "empty.obj");
  TS_EXPECT_ERROR(teal_mesh_load_file(g_dir, 1.0, &m, &err), TEAL_EIO, &err, "regular");
  TS_EXPECT_ERROR(teal_mesh_load_file("/dev/zero", 1.0, &m, &err), TEAL_EIO, &err, "/dev/zero");
  /* a header alone, and a header claiming triangles it lacks */
  TS_EXPECT_ERROR(teal_mesh_load_memory(g_seeds[0].bytes, 84, "stl", 1.0, &m, &err), TEAL_EPARSE,
                  &err, "<memory>");
}
END_TEST

int main(void) {
  Suite *s = suite_create("mesh_fuzz");
  TCase *tc = tcase_create("core");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, truncations);
  tcase_add_test(tc, random_mutations);
  tcase_add_test(tc, hostile_stl_counts_and_numbers);
  tcase_add_test(tc, hostile_obj_indices_and_numbers);
  tcase_add_test(tc, empty_missing_and_special_files);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
