/* GJK (geometry/proximity/gjk.c): the simplex sub-algorithm against brute force on
 * random segments, triangles and tetrahedra (the point it returns is in
 * the hull, its weights sum to 1 and no sampled point of the hull is
 * nearer the origin); GJK distances of boxes against closed forms, the
 * intersecting and early-exit outcomes, and its bounds closing near contact
 * of a box face and an ellipsoid (long thin simplices). */
#include <check.h>
#include <math.h>

#include "geometry/proximity/gjk_epa_internal.h"
#include "support/test_support.h"

static teal_vec3 v3(double x, double y, double z) {
  return teal_vec3_make(x, y, z);
}

static teal_vec3 rand_vec(unsigned *s, double r) {
  return v3(ts_rand_uniform(s, -r, r), ts_rand_uniform(s, -r, r), ts_rand_uniform(s, -r, r));
}

static teal_minkowski pair(const teal_shape *a, teal_transform X_WA, const teal_shape *b,
                           teal_transform X_WB) {
  teal_minkowski m = {{a, X_WA, 1}, {b, X_WB, 1}, 0.0};
  m.scale = teal_shape_bounding_radius(a) + teal_shape_bounding_radius(b) +
            teal_vec3_norm(teal_vec3_sub(X_WA.p, X_WB.p));
  return m;
}

START_TEST(simplex_closest_matches_brute_force) {
  unsigned s = 21u;
  for (int k = 0; k < 3000; k++) {
    teal_simplex sx = {.n = 2 + k % 3};
    teal_simplex orig = sx;
    for (int i = 0; i < sx.n; i++) {
      sx.v[i].w = rand_vec(&s, 1.0);
      orig.v[i] = sx.v[i];
    }
    teal_vec3 p = teal_simplex_closest(&sx);
    double sum = 0.0;
    teal_vec3 q = teal_vec3_zero();
    for (int i = 0; i < sx.n; i++) {
      ck_assert_double_ge(sx.lambda[i], -1e-12);
      sum += sx.lambda[i];
      q = teal_vec3_add(q, teal_vec3_scale(sx.v[i].w, sx.lambda[i]));
    }
    ck_assert_double_eq_tol(sum, 1.0, 1e-12);
    ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(p, q)), 1e-12);
    /* no random point of the original hull is nearer the origin */
    for (int j = 0; j < 50; j++) {
      double w[4], total = 0.0;
      teal_vec3 r = teal_vec3_zero();
      for (int i = 0; i < orig.n; i++) {
        w[i] = -log(ts_rand_uniform(&s, 1e-12, 1.0));
        total += w[i];
      }
      for (int i = 0; i < orig.n; i++) {
        r = teal_vec3_add(r, teal_vec3_scale(orig.v[i].w, w[i] / total));
      }
      ck_assert_double_le(teal_vec3_norm(p), teal_vec3_norm(r) + 1e-12);
    }
  }
}
END_TEST

START_TEST(simplex_closest_regions) {
  teal_simplex s = {.n = 3};
  /* a triangle in z = 1 around the axis: the interior, point (0, 0, 1) */
  s.v[0].w = v3(-1, -1, 1);
  s.v[1].w = v3(2, -1, 1);
  s.v[2].w = v3(-1, 2, 1);
  teal_vec3 p = teal_simplex_closest(&s);
  ck_assert_int_eq(s.n, 3);
  ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(p, v3(0, 0, 1))), 1e-15);
  /* shifted so the nearest point is on the edge from (1, -1) to (1, 2) */
  s.v[0].w = v3(1, -1, 1);
  s.v[1].w = v3(3, -1, 1);
  s.v[2].w = v3(1, 2, 1);
  p = teal_simplex_closest(&s);
  ck_assert_int_eq(s.n, 2);
  ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(p, v3(1, 0, 1))), 1e-15);
  /* a tetrahedron around the origin: inside, weights are barycentric */
  teal_simplex t = {.n = 4};
  t.v[0].w = v3(1, 0, -0.5);
  t.v[1].w = v3(-1, 1, -0.5);
  t.v[2].w = v3(-1, -1, -0.5);
  t.v[3].w = v3(0, 0, 2);
  p = teal_simplex_closest(&t);
  ck_assert_int_eq(t.n, 4);
  ck_assert_double_le(teal_vec3_norm(p), 1e-15);
  /* a single point */
  teal_simplex one = {.n = 1};
  one.v[0].w = v3(1, 2, 3);
  p = teal_simplex_closest(&one);
  ck_assert_double_eq(one.lambda[0], 1.0);
  ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(p, v3(1, 2, 3))), 0.0);
}
END_TEST

START_TEST(box_distances) {
  teal_shape a, b;
  teal_shape_box(2, 2, 2, &a, NULL);
  teal_shape_box(2, 2, 2, &b, NULL);
  teal_transform I = teal_transform_identity();
  struct {
    teal_vec3 p;
    double d;
  } cases[3] = {{{{0.5, 0.3, 2.5}}, 0.5},             /* face to face */
                {{{3, 3, 0.2}}, sqrt(2.0)},           /* edge to edge */
                {{{2.5, 2.5, 2.5}}, sqrt(3.0) * 0.5}}; /* corner to corner */
  for (int k = 0; k < 3; k++) {
    teal_minkowski m = pair(&a, teal_transform_make(teal_rotation_identity(), cases[k].p), &b, I);
    teal_gjk_result g;
    teal_gjk(&m, 0, 0.0, &g);
    ck_assert(!g.intersecting && !g.separated);
    ck_assert_uint_eq(g.flags, 0);
    ck_assert_double_eq_tol(g.distance, cases[k].d, 1e-12);
    teal_vec3 r = teal_vec3_sub(teal_vec3_sub(g.p_A, g.p_B), g.v);
    ck_assert_double_le(teal_vec3_norm(r), 1e-12);
    ck_assert_int_lt(g.iterations, 10);
  }
}
END_TEST

START_TEST(intersecting_and_early_exit) {
  teal_shape a, b;
  teal_shape_box(2, 2, 2, &a, NULL);
  teal_shape_ellipsoid(1, 0.5, 0.7, &b, NULL);
  teal_transform I = teal_transform_identity();
  teal_transform near = teal_transform_make(teal_rotation_identity(), v3(1.5, 0.2, 0.1));
  teal_minkowski m = pair(&a, near, &b, I);
  teal_gjk_result g;
  teal_gjk(&m, 0, 0.0, &g);
  ck_assert(g.intersecting);
  ck_assert_double_eq(g.distance, 0.0);
  teal_simplex s = g.simplex;
  ck_assert_double_le(teal_vec3_norm(teal_simplex_closest(&s)), 1e-9);
  /* 3 apart along x: the early exit stops with a lower bound above 1 */
  teal_transform far = teal_transform_make(teal_rotation_identity(), v3(5, 0, 0));
  m = pair(&a, far, &b, I);
  teal_gjk(&m, 1, 1.0, &g);
  ck_assert(g.separated);
  ck_assert_double_gt(g.distance, 1.0);
  ck_assert_double_le(g.distance, 3.0 + 1e-12);
  teal_gjk(&m, 0, 0.0, &g);
  ck_assert(!g.separated);
  ck_assert_double_eq_tol(g.distance, 3.0, 1e-9);
}
END_TEST

START_TEST(bounds_close_near_contact) {
  /* a box face just above an ellipsoid: the simplex ends long and thin;
   * GJK's upper bound |v| and lower bound (support plane) still agree */
  unsigned s = 22u;
  teal_shape box, ell;
  teal_shape_box(4, 4, 2, &box, NULL);
  for (int k = 0; k < 300; k++) {
    teal_shape_ellipsoid(ts_rand_uniform(&s, 0.2, 1), ts_rand_uniform(&s, 0.2, 1),
                         ts_rand_uniform(&s, 0.2, 1), &ell, NULL);
    double gap = pow(10.0, ts_rand_uniform(&s, -6, -1));
    teal_vec3 axis = rand_vec(&s, 1.0);
    teal_quaternion q = teal_quaternion_make(ts_rand_uniform(&s, -1, 1), axis.v[0], axis.v[1],
                                             axis.v[2]);
    teal_quaternion_normalize(&q);
    teal_transform X_WE = teal_transform_make(teal_rotation_from_quaternion(q), teal_vec3_zero());
    teal_support_map em = {&ell, X_WE, 0};
    double top = teal_support_map_point(&em, v3(0, 0, 1)).v[2];
    teal_vec3 p = v3(ts_rand_uniform(&s, -0.5, 0.5), 0.2, top + 1 + gap);
    teal_transform X_WB = teal_transform_make(teal_rotation_identity(), p);
    teal_minkowski m = pair(&box, X_WB, &ell, X_WE);
    teal_gjk_result g;
    teal_gjk(&m, 0, 0.0, &g);
    ck_assert(!g.intersecting);
    ck_assert_double_eq_tol(g.distance, gap, 1e-10);
    teal_vec3 n = teal_vec3_scale(g.v, 1.0 / g.distance);
    double lower = teal_vec3_dot(n, teal_minkowski_support(&m, teal_vec3_neg(n)).w);
    ck_assert_double_le(g.distance - lower, 1e-9);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("gjk");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, simplex_closest_matches_brute_force);
  tcase_add_test(tc, simplex_closest_regions);
  tcase_add_test(tc, box_distances);
  tcase_add_test(tc, intersecting_and_early_exit);
  tcase_add_test(tc, bounds_close_near_contact);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
