/* Support mappings (geometry/shapes/support.c): closed-form values per kind, ties
 * towards the middle (also under rounding), the support point lies on the
 * shape and beats every sampled point of it along the direction, cores and
 * margins add up to the whole shape, and the posed (world) mapping. */
#include <check.h>
#include <math.h>

#include "geometry/shapes/support.h"
#include "support/test_support.h"

static double dist3(teal_vec3 a, teal_vec3 b) {
  return teal_vec3_norm(teal_vec3_sub(a, b));
}

static teal_vec3 v3(double x, double y, double z) {
  return teal_vec3_make(x, y, z);
}

static teal_vec3 rand_dir(unsigned *s) {
  teal_vec3 d;
  do {
    d = v3(ts_rand_uniform(s, -1, 1), ts_rand_uniform(s, -1, 1), ts_rand_uniform(s, -1, 1));
  } while (teal_vec3_norm(d) < 0.1);
  return d;
}

/* Nonzero when p (shape frame) is in the shape, up to tol. */
static int contains(const teal_shape *s, teal_vec3 p, double tol) {
  double h = 0.5 * s->length, rho = hypot(p.v[0], p.v[1]);
  switch (s->kind) {
    case TEAL_SHAPE_SPHERE:
      return teal_vec3_norm(p) <= s->radius + tol;
    case TEAL_SHAPE_BOX:
      return fabs(p.v[0]) <= 0.5 * s->size.v[0] + tol && fabs(p.v[1]) <= 0.5 * s->size.v[1] + tol &&
             fabs(p.v[2]) <= 0.5 * s->size.v[2] + tol;
    case TEAL_SHAPE_CYLINDER:
      return rho <= s->radius + tol && fabs(p.v[2]) <= h + tol;
    case TEAL_SHAPE_CAPSULE:
      return hypot(rho, fmax(0.0, fabs(p.v[2]) - h)) <= s->radius + tol;
    case TEAL_SHAPE_ELLIPSOID:
      return hypot(hypot(p.v[0] / s->size.v[0], p.v[1] / s->size.v[1]), p.v[2] / s->size.v[2]) <=
             1.0 + tol;
    default:
      return 0;
  }
}

/* A random point of the shape (rejection sampling in its bounding box). */
static teal_vec3 sample(unsigned *st, const teal_shape *s) {
  double r = teal_shape_bounding_radius(s);
  teal_vec3 p;
  do {
    p = v3(ts_rand_uniform(st, -r, r), ts_rand_uniform(st, -r, r), ts_rand_uniform(st, -r, r));
  } while (!contains(s, p, 0.0));
  return p;
}

START_TEST(closed_form_values) {
  teal_shape s;
  teal_shape_box(2, 4, 6, &s, NULL);
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(1, -1, 1)), v3(1, -2, 3)), 0.0);
  /* ties: the middle of the face or edge, also under a rotation's rounding */
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(1, 0, 0)), v3(1, 0, 0)), 0.0);
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(1, 6e-17, -1)), v3(1, 0, -3)), 0.0);
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(0, 0, 0)), v3(0, 0, 0)), 0.0);
  teal_shape_sphere(2, &s, NULL);
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(3, 4, 0)), v3(1.2, 1.6, 0)), 1e-15);
  ck_assert_double_le(dist3(teal_shape_core_support(&s, v3(3, 4, 0)), v3(0, 0, 0)), 0.0);
  teal_shape_cylinder(2, 4, &s, NULL);
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(3, 4, 5)), v3(1.2, 1.6, 2)), 1e-15);
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(0, 0, -1)), v3(0, 0, -2)), 0.0);
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(0, 1, 0)), v3(0, 2, 0)), 0.0);
  teal_shape_capsule(1, 4, &s, NULL);
  ck_assert_double_le(dist3(teal_shape_core_support(&s, v3(0.3, 0, 1)), v3(0, 0, 2)), 0.0);
  ck_assert_double_le(dist3(teal_shape_core_support(&s, v3(1, 0, 0)), v3(0, 0, 0)), 0.0);
  double c = 1 / sqrt(2.0);
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(1, 0, -1)), v3(c, 0, -2 - c)), 1e-15);
  teal_shape_ellipsoid(1, 2, 3, &s, NULL);
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(0, 0, 5)), v3(0, 0, 3)), 1e-15);
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(0, -1, 0)), v3(0, -2, 0)), 1e-15);
  teal_vec3 pts[5] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}, {{0.4, 0.4, 0.4}}};
  teal_shape_convex(pts, 5, &s, NULL);
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(1, 1, 1)), v3(0.4, 0.4, 0.4)), 0.0);
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(2, 1, 1)), v3(1, 0, 0)), 0.0);
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(1, 3, 1)), v3(0, 1, 0)), 0.0);
  ck_assert_double_le(dist3(teal_shape_support(&s, v3(-1, -1, -1)), v3(0, 0, 0)), 0.0);
  teal_shape_release(&s);
}
END_TEST

START_TEST(support_is_extreme_point_of_shape) {
  unsigned st = 7u;
  teal_shape shapes[5];
  teal_shape_sphere(0.7, &shapes[0], NULL);
  teal_shape_box(0.5, 1.0, 1.5, &shapes[1], NULL);
  teal_shape_cylinder(0.4, 1.2, &shapes[2], NULL);
  teal_shape_capsule(0.3, 1.0, &shapes[3], NULL);
  teal_shape_ellipsoid(0.3, 0.8, 0.5, &shapes[4], NULL);
  for (int k = 0; k < 5; k++) {
    const teal_shape *s = &shapes[k];
    for (int i = 0; i < 200; i++) {
      teal_vec3 d = rand_dir(&st), p = teal_shape_support(s, d);
      ck_assert(contains(s, p, 1e-12));
      double best = teal_vec3_dot(d, p);
      for (int j = 0; j < 50; j++) {
        ck_assert_double_le(teal_vec3_dot(d, sample(&st, s)), best + 1e-12);
      }
    }
  }
}
END_TEST

START_TEST(ellipsoid_support_normal_is_the_direction) {
  unsigned st = 8u;
  teal_shape s;
  teal_shape_ellipsoid(0.3, 0.8, 0.5, &s, NULL);
  for (int i = 0; i < 200; i++) {
    teal_vec3 d = rand_dir(&st), p = teal_shape_support(&s, d);
    /* on the surface, with outward normal (x / a^2, y / b^2, z / c^2) along d */
    teal_vec3 q = v3(p.v[0] / s.size.v[0], p.v[1] / s.size.v[1], p.v[2] / s.size.v[2]);
    ck_assert_double_eq_tol(teal_vec3_norm(q), 1.0, 1e-14);
    teal_vec3 n = v3(q.v[0] / s.size.v[0], q.v[1] / s.size.v[1], q.v[2] / s.size.v[2]);
    ck_assert_double_le(teal_vec3_norm(teal_vec3_cross(n, d)),
                        1e-13 * teal_vec3_norm(n) * teal_vec3_norm(d));
    ck_assert_double_gt(teal_vec3_dot(n, d), 0.0);
  }
}
END_TEST

START_TEST(core_plus_margin_is_whole_shape) {
  unsigned st = 9u;
  teal_shape sphere, capsule, box;
  teal_shape_sphere(0.7, &sphere, NULL);
  teal_shape_capsule(0.3, 1.0, &capsule, NULL);
  teal_shape_box(1, 1, 1, &box, NULL);
  ck_assert_double_eq(teal_shape_margin(&sphere), 0.7);
  ck_assert_double_eq(teal_shape_margin(&capsule), 0.3);
  ck_assert_double_eq(teal_shape_margin(&box), 0.0);
  ck_assert(teal_shape_core_is_thin(&sphere) && teal_shape_core_is_thin(&capsule));
  ck_assert(!teal_shape_core_is_thin(&box));
  const teal_shape *s[2] = {&sphere, &capsule};
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 100; i++) {
      teal_vec3 d = rand_dir(&st);
      teal_vec3 ball = teal_vec3_scale(d, teal_shape_margin(s[k]) / teal_vec3_norm(d));
      teal_vec3 sum = teal_vec3_add(teal_shape_core_support(s[k], d), ball);
      ck_assert_double_le(dist3(sum, teal_shape_support(s[k], d)), 1e-15);
    }
  }
  /* a box's core is the box */
  teal_vec3 d = v3(0.2, -0.3, 0.9);
  ck_assert_double_le(dist3(teal_shape_core_support(&box, d), teal_shape_support(&box, d)), 0.0);
}
END_TEST

START_TEST(has_support_by_kind) {
  teal_shape s;
  teal_shape_sphere(1, &s, NULL);
  ck_assert(teal_shape_has_support(&s));
  teal_shape_half_space(&s);
  ck_assert(!teal_shape_has_support(&s));
  teal_shape_mesh("m.obj", 1, &s, NULL);
  ck_assert(!teal_shape_has_support(&s));
  teal_shape_release(&s);
  s.kind = TEAL_SHAPE_CONVEX; /* no vertices */
  s.vertices = NULL;
  s.num_vertices = 0;
  ck_assert(!teal_shape_has_support(&s));
  ck_assert(!teal_shape_has_support(NULL));
}
END_TEST

START_TEST(posed_map_rotates_and_translates) {
  unsigned st = 10u;
  teal_shape box, sphere, ell;
  teal_shape_box(0.5, 1.0, 1.5, &box, NULL);
  teal_shape_sphere(0.4, &sphere, NULL);
  teal_shape_ellipsoid(0.3, 0.4, 0.5, &ell, NULL);
  teal_quaternion q = teal_quaternion_make(0.3, -0.5, 0.2, 0.7);
  teal_quaternion_normalize(&q);
  teal_transform X = teal_transform_make(teal_rotation_from_quaternion(q), v3(1, -2, 3));
  teal_support_map m = {&box, X, 0}, c = {&sphere, X, 1}, e = {&ell, X, 0};
  for (int i = 0; i < 100; i++) {
    teal_vec3 d = rand_dir(&st);
    teal_vec3 d_G = teal_rotation_apply_inverse(X.R, d);
    teal_vec3 expect = teal_transform_apply(X, teal_shape_support(&box, d_G));
    ck_assert_double_le(dist3(teal_support_map_point(&m, d), expect), 1e-15);
    /* a sphere's core is its centre */
    ck_assert_double_le(dist3(teal_support_map_point(&c, d), X.p), 1e-15);
  }
  ck_assert(!teal_support_map_is_strict(&m));
  ck_assert(teal_support_map_is_strict(&c));
  ck_assert(teal_support_map_is_strict(&e));
}
END_TEST

int main(void) {
  Suite *s = suite_create("shape_support");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, closed_form_values);
  tcase_add_test(tc, support_is_extreme_point_of_shape);
  tcase_add_test(tc, ellipsoid_support_normal_is_the_direction);
  tcase_add_test(tc, core_plus_margin_is_whole_shape);
  tcase_add_test(tc, has_support_by_kind);
  tcase_add_test(tc, posed_map_rotates_and_translates);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
