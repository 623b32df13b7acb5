/* Broadphase (sweep and prune): for random spheres, boxes and half-spaces
 * the candidate pairs equal a brute-force test of all AABB pairs, frame
 * after frame of coherent motion, with and without a collision filter;
 * the buffer overflow is counted; coherent motion costs O(n) sort moves and
 * box tests (counted, not timed); the sweep axis follows the spread;
 * nothing is allocated after creation; errors. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geometry/proximity/broadphase.h"
#include "support/test_support.h"

enum { kMaxPairs = 20000 };

static teal_vec3 rand_point(unsigned *s, double lx, double ly, double lz) {
  return teal_vec3_make(ts_rand_uniform(s, 0, lx), ts_rand_uniform(s, 0, ly),
                        ts_rand_uniform(s, 0, lz));
}

/* AABBs of n spheres of radius r at centres c (every 10th a unit box, the
 * last nplanes entries half-spaces). */
static void make_boxes(const teal_vec3 *c, int n, int nplanes, double r, teal_aabb *boxes) {
  teal_shape sphere, box, plane;
  teal_shape_sphere(r, &sphere, NULL);
  teal_shape_box(2 * r, r, r, &box, NULL);
  teal_shape_half_space(&plane);
  for (int g = 0; g < n; g++) {
    const teal_shape *s = g >= n - nplanes ? &plane : (g % 10 == 0 ? &box : &sphere);
    teal_transform X = teal_transform_make(teal_rotation_from_axis_angle(c[g], 0.3 * g), c[g]);
    ck_assert_int_eq(teal_shape_aabb(s, X, &boxes[g]), TEAL_OK);
  }
}

static int pair_cmp(const void *x, const void *y) {
  const teal_geometry_pair *p = x, *q = y;
  return p->a != q->a ? (p->a > q->a) - (p->a < q->a) : (p->b > q->b) - (p->b < q->b);
}

/* All allowed overlapping pairs by testing every pair. */
static int brute_force(const teal_aabb *boxes, int n, const teal_collision_filter *f,
                       teal_geometry_pair *out) {
  int k = 0;
  for (int a = 0; a < n; a++) {
    for (int b = a + 1; b < n; b++) {
      int allowed = !f || teal_collision_filter_allows(f, a, b);
      if (allowed && teal_aabb_overlap(&boxes[a], &boxes[b])) {
        out[k].a = a;
        out[k].b = b;
        k++;
      }
    }
  }
  return k;
}

/* The broadphase's pairs (a < b, each once) equal the brute-force set. */
static int check_against_brute_force(teal_broadphase *bp, const teal_aabb *boxes, int n,
                                     const teal_collision_filter *f) {
  static teal_geometry_pair got[kMaxPairs], want[kMaxPairs];
  int ngot = -1;
  ck_assert_int_eq(teal_broadphase_find_pairs(bp, boxes, f, got, kMaxPairs, &ngot), TEAL_OK);
  int nwant = brute_force(boxes, n, f, want);
  ck_assert_int_eq(ngot, nwant);
  ck_assert_int_eq(teal_broadphase_get_stats(bp)->overflow, 0);
  for (int i = 0; i < ngot; i++) {
    ck_assert_int_lt(got[i].a, got[i].b);
  }
  qsort(got, (size_t)ngot, sizeof(got[0]), pair_cmp);
  qsort(want, (size_t)nwant, sizeof(want[0]), pair_cmp);
  for (int i = 0; i < ngot; i++) {
    ck_assert_int_eq(got[i].a, want[i].a);
    ck_assert_int_eq(got[i].b, want[i].b);
  }
  return ngot;
}

/* Moves every centre by up to step in each coordinate. */
static void jiggle(unsigned *s, teal_vec3 *c, int n, double step) {
  for (int g = 0; g < n; g++) {
    for (int i = 0; i < 3; i++) {
      c[g].v[i] += ts_rand_uniform(s, -step, step);
    }
  }
}

START_TEST(matches_brute_force) {
  enum { N = 400 };
  unsigned s = 5u;
  teal_vec3 c[N];
  teal_aabb boxes[N];
  for (int g = 0; g < N; g++) {
    c[g] = rand_point(&s, 10, 10, 10);
  }
  teal_broadphase *bp = teal_broadphase_new(N, NULL);
  ck_assert_ptr_nonnull(bp);
  int total = 0;
  for (int frame = 0; frame < 20; frame++) {
    make_boxes(c, N, 2, 0.5, boxes);
    total += check_against_brute_force(bp, boxes, N, NULL);
    jiggle(&s, c, N, 0.2);
  }
  ck_assert_int_gt(total, 20 * 2 * (N - 2)); /* the half-spaces pair with all */
  teal_broadphase_free(bp);
}
END_TEST

START_TEST(filter_is_honored) {
  enum { N = 300 };
  unsigned s = 6u;
  teal_vec3 c[N];
  teal_aabb boxes[N];
  int frames[N];
  for (int g = 0; g < N; g++) {
    c[g] = rand_point(&s, 6, 6, 6);
    frames[g] = g / 3; /* three geometries per frame */
  }
  teal_collision_filter *f = teal_collision_filter_new(N, frames, NULL);
  for (int k = 0; k < 200; k++) {
    int a = (int)ts_rand_uniform(&s, 0, N), b = (int)ts_rand_uniform(&s, 0, N);
    if (a != b) {
      teal_collision_filter_exclude_pair(f, a, b, 1);
    }
  }
  teal_collision_filter_exclude_frame_pair(f, 0, 1);
  for (int g = 0; g < N; g += 7) {
    teal_collision_filter_set_group(f, g, 2u, 2u); /* only among themselves */
  }
  teal_broadphase *bp = teal_broadphase_new(N, NULL);
  for (int frame = 0; frame < 10; frame++) {
    make_boxes(c, N, 1, 0.5, boxes);
    int n = check_against_brute_force(bp, boxes, N, f);
    ck_assert_int_gt(n, 0);
    jiggle(&s, c, N, 0.1);
  }
  /* without the filter there are more pairs, including same-frame ones */
  static teal_geometry_pair pairs[kMaxPairs];
  int with, without;
  teal_broadphase_find_pairs(bp, boxes, f, pairs, kMaxPairs, &with);
  teal_broadphase_find_pairs(bp, boxes, NULL, pairs, kMaxPairs, &without);
  ck_assert_int_gt(without, with);
  teal_broadphase_free(bp);
  teal_collision_filter_free(f);
}
END_TEST

START_TEST(overflow_is_counted) {
  enum { N = 200 };
  unsigned s = 7u;
  teal_vec3 c[N];
  teal_aabb boxes[N];
  for (int g = 0; g < N; g++) {
    c[g] = rand_point(&s, 4, 4, 4);
  }
  make_boxes(c, N, 0, 0.5, boxes);
  teal_broadphase *bp = teal_broadphase_new(N, NULL);
  static teal_geometry_pair pairs[kMaxPairs];
  int all, some;
  ck_assert_int_eq(teal_broadphase_find_pairs(bp, boxes, NULL, pairs, kMaxPairs, &all), TEAL_OK);
  ck_assert_int_gt(all, 100);
  ck_assert_int_eq(teal_broadphase_find_pairs(bp, boxes, NULL, pairs, 50, &some), TEAL_OK);
  const teal_broadphase_stats *st = teal_broadphase_get_stats(bp);
  ck_assert_int_eq(some, 50);
  ck_assert_int_eq(st->num_pairs, all);
  ck_assert_int_eq(st->overflow, all - 50);
  ck_assert_uint_eq(st->overflow_total, (unsigned long)(all - 50));
  ck_assert_int_eq(teal_broadphase_find_pairs(bp, boxes, NULL, NULL, 0, &some), TEAL_OK);
  ck_assert_int_eq(some, 0);
  ck_assert_uint_eq(st->overflow_total, (unsigned long)(2 * all - 50));
  teal_broadphase_free(bp);
}
END_TEST

/* Box tests and sort moves of one coherent step for n spheres along a
 * corridor whose length grows with n (fixed density and cross-section, so
 * the number of neighbours along the sweep axis stays fixed); also the sort
 * moves of the first call. */
static void coherent_costs(int n, long *tests, long *moves, long *first_moves) {
  unsigned s = 8u;
  teal_vec3 *c = malloc((size_t)n * sizeof(*c));
  teal_aabb *boxes = malloc((size_t)n * sizeof(*boxes));
  static teal_geometry_pair pairs[kMaxPairs];
  for (int g = 0; g < n; g++) {
    c[g] = rand_point(&s, 0.5 * n, 3, 3);
  }
  teal_broadphase *bp = teal_broadphase_new(n, NULL);
  int np;
  make_boxes(c, n, 0, 0.3, boxes);
  teal_broadphase_find_pairs(bp, boxes, NULL, pairs, kMaxPairs, &np);
  *first_moves = teal_broadphase_get_stats(bp)->sort_moves;
  jiggle(&s, c, n, 0.01);
  make_boxes(c, n, 0, 0.3, boxes);
  teal_broadphase_find_pairs(bp, boxes, NULL, pairs, kMaxPairs, &np);
  ck_assert_int_eq(teal_broadphase_get_stats(bp)->axis, 0);
  *tests = teal_broadphase_get_stats(bp)->box_tests;
  *moves = teal_broadphase_get_stats(bp)->sort_moves;
  teal_broadphase_free(bp);
  free(c);
  free(boxes);
}

START_TEST(coherent_motion_is_linear) {
  int sizes[3] = {500, 2000, 8000};
  for (int k = 0; k < 3; k++) {
    int n = sizes[k];
    long tests, moves, first;
    coherent_costs(n, &tests, &moves, &first);
    /* the first sort is a heapsort: n log n, not the n^2 / 4 moves of an
     * insertion sort from index order */
    ck_assert_int_lt(first, 3L * n * (long)ceil(log2(n)));
    /* after a small motion the previous order is nearly sorted */
    ck_assert_int_lt(moves, n / 4);
    /* about 1.2 neighbours per box along the corridor */
    ck_assert_int_lt(tests, 3L * n);
  }
}
END_TEST

START_TEST(axis_follows_spread) {
  enum { N = 100 };
  unsigned s = 9u;
  teal_vec3 c[N];
  teal_aabb boxes[N];
  for (int g = 0; g < N; g++) {
    c[g] = rand_point(&s, 1, 50, 2); /* spread along y */
  }
  make_boxes(c, N, 1, 0.2, boxes);
  teal_broadphase *bp = teal_broadphase_new(N, NULL);
  static teal_geometry_pair pairs[kMaxPairs];
  int np;
  teal_broadphase_find_pairs(bp, boxes, NULL, pairs, kMaxPairs, &np);
  ck_assert_int_eq(teal_broadphase_get_stats(bp)->axis, 1);
  for (int g = 0; g < N; g++) {
    c[g] = teal_vec3_make(c[g].v[1], c[g].v[0], c[g].v[2]); /* now along x */
  }
  make_boxes(c, N, 1, 0.2, boxes);
  check_against_brute_force(bp, boxes, N, NULL);
  ck_assert_int_eq(teal_broadphase_get_stats(bp)->axis, 0);
  teal_broadphase_free(bp);
}
END_TEST

START_TEST(no_allocation_after_creation) {
  enum { N = 200 };
  unsigned s = 10u;
  teal_vec3 c[N];
  teal_aabb boxes[N];
  int frames[N];
  for (int g = 0; g < N; g++) {
    c[g] = rand_point(&s, 5, 5, 5);
    frames[g] = g;
  }
  teal_collision_filter *f = teal_collision_filter_new(N, frames, NULL);
  teal_broadphase *bp = teal_broadphase_new(N, NULL);
  static teal_geometry_pair pairs[kMaxPairs];
  unsigned long before = teal_alloc_count();
  for (int frame = 0; frame < 10; frame++) {
    int np;
    make_boxes(c, N, 1, 0.4, boxes);
    ck_assert_int_eq(teal_broadphase_find_pairs(bp, boxes, f, pairs, kMaxPairs, &np), TEAL_OK);
    jiggle(&s, c, N, 0.1);
  }
  ck_assert_uint_eq(teal_alloc_count(), before);
  teal_broadphase_free(bp);
  teal_collision_filter_free(f);
}
END_TEST

START_TEST(errors) {
  teal_error err;
  ck_assert_ptr_null(teal_broadphase_new(-1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  teal_broadphase *bp = teal_broadphase_new(3, NULL);
  teal_aabb boxes[3] = {{{{0, 0, 0}}, {{1, 1, 1}}}, {{{0, 0, 0}}, {{1, 1, 1}}},
                        {{{0, 0, 0}}, {{1, 1, 1}}}};
  teal_geometry_pair pairs[3];
  int np, frames[2] = {0, 1};
  ck_assert_int_eq(teal_broadphase_find_pairs(NULL, boxes, NULL, pairs, 3, &np), TEAL_EINVAL);
  ck_assert_int_eq(teal_broadphase_find_pairs(bp, NULL, NULL, pairs, 3, &np), TEAL_EINVAL);
  ck_assert_int_eq(teal_broadphase_find_pairs(bp, boxes, NULL, NULL, 3, &np), TEAL_EINVAL);
  ck_assert_int_eq(teal_broadphase_find_pairs(bp, boxes, NULL, pairs, 3, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_broadphase_find_pairs(bp, boxes, NULL, pairs, -1, &np), TEAL_EINVAL);
  teal_collision_filter *f = teal_collision_filter_new(2, frames, NULL);
  ck_assert_int_eq(teal_broadphase_find_pairs(bp, boxes, f, pairs, 3, &np), TEAL_ESIZE);
  boxes[1].hi.v[2] = NAN;
  ck_assert_int_eq(teal_broadphase_find_pairs(bp, boxes, NULL, pairs, 3, &np), TEAL_ENONFINITE);
  ck_assert_ptr_null(teal_broadphase_get_stats(NULL));
  teal_collision_filter_free(f);
  teal_broadphase_free(bp);
  teal_broadphase_free(NULL);
  /* an empty broadphase finds nothing */
  teal_broadphase *empty = teal_broadphase_new(0, NULL);
  ck_assert_int_eq(teal_broadphase_find_pairs(empty, NULL, NULL, NULL, 0, &np), TEAL_OK);
  ck_assert_int_eq(np, 0);
  teal_broadphase_free(empty);
}
END_TEST

int main(void) {
  Suite *s = suite_create("broadphase");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, matches_brute_force);
  tcase_add_test(tc, filter_is_honored);
  tcase_add_test(tc, overflow_is_counted);
  tcase_add_test(tc, coherent_motion_is_linear);
  tcase_add_test(tc, axis_follows_spread);
  tcase_add_test(tc, no_allocation_after_creation);
  tcase_add_test(tc, errors);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
