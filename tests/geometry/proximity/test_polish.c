/* Polishing a direction (geometry/proximity/polish.c): on smooth differences Newton
 * steps reach the least support height from a rough start; across a kink
 * (a cylinder's straight side) only the curved direction is stepped; on a
 * flat face nothing gets worse; witness points follow the shape whose
 * support is unique. */
#include <check.h>
#include <math.h>

#include "geometry/proximity/gjk_epa_internal.h"
#include "support/test_support.h"

static teal_vec3 v3(double x, double y, double z) {
  return teal_vec3_make(x, y, z);
}

static teal_transform at(double x, double y, double z) {
  return teal_transform_make(teal_rotation_identity(), v3(x, y, z));
}

static teal_vec3 unit(teal_vec3 v) {
  return teal_vec3_scale(v, 1.0 / teal_vec3_norm(v));
}

static teal_minkowski pair(const teal_shape *a, teal_transform X_WA, const teal_shape *b,
                           teal_transform X_WB, int use_core) {
  teal_minkowski m = {{a, X_WA, use_core}, {b, X_WB, use_core}, 0.0};
  m.scale = teal_shape_bounding_radius(a) + teal_shape_bounding_radius(b) +
            teal_vec3_norm(teal_vec3_sub(X_WA.p, X_WB.p));
  return m;
}

START_TEST(smooth_converges) {
  /* ellipsoid A above ball B (whole shapes), apart: h(u) is least at the
   * separating direction, -distance; and a deep overlap: +depth */
  teal_shape e, s;
  teal_shape_ellipsoid(0.5, 0.8, 0.3, &e, NULL);
  teal_shape_sphere(0.4, &s, NULL);
  double z[2] = {1.0, 0.2};
  for (int k = 0; k < 2; k++) {
    teal_minkowski m = pair(&e, at(0, 0, z[k]), &s, at(0, 0, 0), 0);
    /* from A's side the answer is u = -z (A's lowest point, B's top) */
    teal_vec3 u = unit(v3(0.05, -0.03, -1));
    double h;
    ck_assert(teal_polish_direction(&m, &u, &h));
    ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(u, v3(0, 0, -1))), 1e-9);
    ck_assert_double_eq_tol(h, 0.3 + 0.4 - z[k], 1e-12);
    ck_assert_double_eq(teal_polish_height(&m, u), h);
  }
}
END_TEST

START_TEST(kink_steps_along_it) {
  /* a point (sphere core) inside a cylinder, nearest its side: h has a
   * kink across the side (straight along the axis); from a start on the
   * kink but turned about the axis, the polish finds the radial direction */
  teal_shape s, c;
  teal_shape_sphere(0.1, &s, NULL);
  teal_shape_cylinder(1.0, 2.0, &c, NULL);
  teal_minkowski m = pair(&s, at(0.3, 0.4, 0.2), &c, at(0, 0, 0), 1);
  /* depth 1 - 0.5 along n_AB = -(0.6, 0.8, 0) (A moves out through the side) */
  teal_vec3 u = unit(v3(-0.62, -0.78, 0.0));
  double h;
  ck_assert(teal_polish_direction(&m, &u, &h));
  ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(u, v3(-0.6, -0.8, 0))), 1e-9);
  ck_assert_double_eq_tol(h, 0.5, 1e-12);
}
END_TEST

START_TEST(flat_never_worse) {
  /* box faces: h is piecewise linear; from the exact normal nothing moves,
   * from a tilted one the height never rises */
  teal_shape a, b;
  teal_shape_box(2, 2, 2, &a, NULL);
  teal_shape_box(1, 1, 1, &b, NULL);
  teal_minkowski m = pair(&a, at(0, 0, 0), &b, at(1.3, 0.1, -0.2), 1);
  teal_vec3 u = v3(1, 0, 0);
  double h0 = teal_polish_height(&m, u), h;
  ck_assert(!teal_polish_direction(&m, &u, &h));
  ck_assert_double_eq(h, h0);
  teal_vec3 w = unit(v3(1, 0.01, 0.02));
  double hw = teal_polish_height(&m, w);
  teal_polish_direction(&m, &w, &h);
  ck_assert_double_le(h, hw);
  ck_assert_double_ge(h, 0.2 - 1e-12); /* never below the depth */
}
END_TEST

START_TEST(witnesses_follow_strict_shape) {
  teal_shape s, b;
  teal_shape_sphere(0.5, &s, NULL);
  teal_shape_box(1, 1, 1, &b, NULL);
  teal_minkowski m = pair(&b, at(0, 0, 0), &s, at(0, 0, 2), 0);
  teal_vec3 pa = v3(9, 9, 9), pb = v3(7, 7, 7), u = v3(0, 0, 1);
  /* B (the ball) is strict: p_B = its support along -u, p_A = p_B + h u */
  teal_polish_witnesses(&m, u, -1.0, &pa, &pb);
  ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(pb, v3(0, 0, 1.5))), 1e-15);
  ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(pa, v3(0, 0, 0.5))), 1e-15);
  /* neither strict (two boxes): the given pair keeps its midpoint */
  teal_minkowski boxes = pair(&b, at(0, 0, 0), &b, at(0, 0, 2), 0);
  pa = v3(0, 0, 0.5);
  pb = v3(0, 0, 1.5);
  teal_polish_witnesses(&boxes, u, -1.2, &pa, &pb);
  ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(pa, v3(0, 0, 0.4))), 1e-15);
  ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(pb, v3(0, 0, 1.6))), 1e-15);
}
END_TEST

int main(void) {
  Suite *s = suite_create("polish");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, smooth_converges);
  tcase_add_test(tc, kink_steps_along_it);
  tcase_add_test(tc, flat_never_worse);
  tcase_add_test(tc, witnesses_follow_strict_shape);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
