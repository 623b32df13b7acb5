/* AABBs (geometry/proximity/aabb.c): for every bounded kind at random poses the box
 * is tight (each face touches the shape: it equals the support along that
 * world axis); half-spaces are unbounded; meshes and bad poses are refused;
 * overlap (closed), inflate and the unbounded test. */
#include <check.h>
#include <math.h>

#include "geometry/proximity/aabb.h"
#include "geometry/shapes/support.h"
#include "support/test_support.h"

static teal_transform rand_pose(unsigned *s) {
  teal_quaternion q;
  do {
    q = teal_quaternion_make(ts_rand_uniform(s, -1, 1), ts_rand_uniform(s, -1, 1),
                             ts_rand_uniform(s, -1, 1), ts_rand_uniform(s, -1, 1));
  } while (teal_quaternion_norm(q) < 0.1);
  teal_quaternion_normalize(&q);
  teal_vec3 p = teal_vec3_make(ts_rand_uniform(s, -5, 5), ts_rand_uniform(s, -5, 5),
                               ts_rand_uniform(s, -5, 5));
  return teal_transform_make(teal_rotation_from_quaternion(q), p);
}

START_TEST(boxes_are_tight) {
  unsigned st = 3u;
  teal_vec3 pts[6] = {{{0, 0, 0}},  {{1, 0, 0}},   {{0, 2, 0}},
                      {{0, 0, 3}},  {{-1, -1, 1}}, {{1, 1, 1}}};
  teal_shape shapes[6];
  teal_shape_sphere(0.7, &shapes[0], NULL);
  teal_shape_box(0.5, 1.0, 1.5, &shapes[1], NULL);
  teal_shape_cylinder(0.4, 1.2, &shapes[2], NULL);
  teal_shape_capsule(0.3, 1.0, &shapes[3], NULL);
  teal_shape_ellipsoid(0.3, 0.8, 0.5, &shapes[4], NULL);
  teal_shape_convex(pts, 6, &shapes[5], NULL);
  for (int k = 0; k < 6; k++) {
    for (int i = 0; i < 100; i++) {
      teal_transform X = rand_pose(&st);
      teal_support_map m = {&shapes[k], X, 0};
      teal_aabb box;
      ck_assert_int_eq(teal_shape_aabb(&shapes[k], X, &box), TEAL_OK);
      ck_assert(!teal_aabb_is_unbounded(&box));
      for (int a = 0; a < 3; a++) {
        teal_vec3 e = teal_vec3_zero();
        e.v[a] = 1.0;
        ck_assert_double_eq_tol(box.hi.v[a], teal_support_map_point(&m, e).v[a], 1e-12);
        ck_assert_double_eq_tol(box.lo.v[a], teal_support_map_point(&m, teal_vec3_neg(e)).v[a],
                                1e-12);
      }
    }
  }
  teal_shape_release(&shapes[5]);
}
END_TEST

START_TEST(half_space_is_unbounded_and_errors) {
  teal_shape h, mesh, s;
  teal_shape_half_space(&h);
  teal_shape_mesh("m.obj", 1.0, &mesh, NULL);
  teal_shape_sphere(1.0, &s, NULL);
  teal_transform I = teal_transform_identity();
  teal_aabb box;
  ck_assert_int_eq(teal_shape_aabb(&h, I, &box), TEAL_OK);
  ck_assert(teal_aabb_is_unbounded(&box));
  for (int a = 0; a < 3; a++) {
    ck_assert(isinf(box.lo.v[a]) && box.lo.v[a] < 0 && isinf(box.hi.v[a]) && box.hi.v[a] > 0);
  }
  ck_assert_int_eq(teal_shape_aabb(&mesh, I, &box), TEAL_EUNSUPPORTED);
  ck_assert_int_eq(teal_shape_aabb(NULL, I, &box), TEAL_EINVAL);
  ck_assert_int_eq(teal_shape_aabb(&s, I, NULL), TEAL_EINVAL);
  teal_transform bad = I;
  bad.p.v[1] = NAN;
  ck_assert_int_eq(teal_shape_aabb(&s, bad, &box), TEAL_ENONFINITE);
  teal_shape empty = s;
  empty.kind = TEAL_SHAPE_CONVEX;
  empty.vertices = NULL;
  ck_assert_int_eq(teal_shape_aabb(&empty, I, &box), TEAL_EINVAL);
  teal_shape_release(&mesh);
}
END_TEST

START_TEST(overlap_inflate) {
  teal_aabb a = {{{0, 0, 0}}, {{1, 1, 1}}}, b = {{{1, 0.5, 0.5}}, {{2, 2, 2}}};
  teal_aabb c = {{{1.1, 0, 0}}, {{2, 1, 1}}};
  ck_assert(teal_aabb_overlap(&a, &b)); /* touching faces count */
  ck_assert(teal_aabb_overlap(&b, &a));
  ck_assert(!teal_aabb_overlap(&a, &c));
  teal_aabb big = teal_aabb_inflate(a, 0.1);
  ck_assert(teal_aabb_overlap(&big, &c));
  ck_assert_double_eq_tol(big.lo.v[2], -0.1, 1e-15);
  ck_assert_double_eq_tol(big.hi.v[0], 1.1, 1e-15);
  teal_aabb inf = {{{-INFINITY, -INFINITY, -INFINITY}}, {{INFINITY, INFINITY, INFINITY}}};
  ck_assert(teal_aabb_overlap(&inf, &c));
  ck_assert(!teal_aabb_is_unbounded(&a));
}
END_TEST

int main(void) {
  Suite *s = suite_create("aabb");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, boxes_are_tight);
  tcase_add_test(tc, half_space_is_unbounded_and_errors);
  tcase_add_test(tc, overlap_inflate);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
