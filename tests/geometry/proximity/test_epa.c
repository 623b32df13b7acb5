/* EPA (geometry/proximity/epa.c): exact depth, normal and witness points on
 * polytope differences (boxes, point in box) from any starting simplex
 * that holds the origin; a flat start is flagged, not a crash; on a curved
 * difference (deep, near-concentric balls, where the polytope runs out)
 * the polished depth is still exact and the lower/upper bounds hold. */
#include <check.h>
#include <math.h>

#include "geometry/proximity/gjk_epa_internal.h"
#include "geometry/proximity/narrowphase.h"
#include "support/test_support.h"

static teal_vec3 v3(double x, double y, double z) {
  return teal_vec3_make(x, y, z);
}

static teal_transform at(double x, double y, double z) {
  return teal_transform_make(teal_rotation_identity(), v3(x, y, z));
}

static teal_minkowski pair(const teal_shape *a, teal_transform X_WA, const teal_shape *b,
                           teal_transform X_WB, int use_core) {
  teal_minkowski m = {{a, X_WA, use_core}, {b, X_WB, use_core}, 0.0};
  m.scale = teal_shape_bounding_radius(a) + teal_shape_bounding_radius(b) +
            teal_vec3_norm(teal_vec3_sub(X_WA.p, X_WB.p));
  return m;
}

/* EPA from the simplex GJK ends with. */
static teal_epa_result run(const teal_minkowski *m) {
  teal_gjk_result g;
  teal_gjk(m, 0, 0.0, &g);
  ck_assert(g.intersecting);
  teal_epa_result e;
  teal_epa(m, &g.simplex, &e);
  teal_vec3 r = teal_vec3_sub(teal_vec3_sub(e.p_A, e.p_B), teal_vec3_scale(e.n_AB, e.depth));
  ck_assert_double_le(teal_vec3_norm(r), 1e-12);
  return e;
}

START_TEST(boxes_exact) {
  teal_shape a, b;
  teal_shape_box(2, 2, 2, &a, NULL);
  teal_shape_box(1, 1, 1, &b, NULL);
  /* B's face 0.2 into A's +x face: n_AB = +x (from A into B) */
  teal_minkowski m = pair(&a, at(0, 0, 0), &b, at(1.3, 0.1, -0.2), 1);
  teal_epa_result e = run(&m);
  ck_assert_uint_eq(e.flags, 0);
  ck_assert_double_eq_tol(e.depth, 0.2, 1e-12);
  ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(e.n_AB, v3(1, 0, 0))), 1e-12);
  ck_assert_double_eq_tol(e.p_A.v[0], 1.0, 1e-12);
  ck_assert_double_eq_tol(e.p_B.v[0], 0.8, 1e-12);
  /* deep: B's centre inside A, nearest face of A is -y */
  m = pair(&a, at(0, 0, 0), &b, at(0.1, -0.7, 0.05), 1);
  e = run(&m);
  ck_assert_double_eq_tol(e.depth, 0.8, 1e-12);
  ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(e.n_AB, v3(0, -1, 0))), 1e-12);
}
END_TEST

START_TEST(any_start_that_holds_the_origin) {
  /* a point (sphere core) inside a box: M is a box; starting from a
   * segment or a triangle through the origin gives the same answer */
  teal_shape s, b;
  teal_shape_sphere(0.1, &s, NULL);
  teal_shape_box(2, 4, 6, &b, NULL);
  teal_minkowski m = pair(&s, at(0.6, 0.5, -0.2), &b, at(0, 0, 0), 1);
  teal_mink_vertex x1 = teal_minkowski_support(&m, v3(1, 0, 0));
  teal_mink_vertex x2 = teal_minkowski_support(&m, v3(-1, 0, 0));
  teal_simplex seg = {.n = 2, .v = {x1, x2}, .lambda = {0.5, 0.5}};
  teal_simplex starts[2] = {seg, seg};
  starts[1].n = 3;
  starts[1].v[2] = teal_minkowski_support(&m, v3(0, 1, 0));
  for (int k = 0; k < 2; k++) {
    teal_epa_result e;
    teal_epa(&m, &starts[k], &e);
    ck_assert_uint_eq(e.flags, 0);
    /* nearest face of the box to (0.6, 0.5, -0.2): x = 1, 0.4 away */
    ck_assert_double_eq_tol(e.depth, 0.4, 1e-12);
    ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(e.n_AB, v3(-1, 0, 0))), 1e-12);
  }
}
END_TEST

START_TEST(flat_start_is_flagged) {
  /* two sphere cores (points) at one place: M is a single point */
  teal_shape s;
  teal_shape_sphere(1.0, &s, NULL);
  teal_minkowski m = pair(&s, at(1, 2, 3), &s, at(1, 2, 3), 1);
  teal_simplex start = {.n = 1};
  start.v[0] = teal_minkowski_support(&m, v3(1, 0, 0));
  start.lambda[0] = 1.0;
  teal_epa_result e;
  teal_epa(&m, &start, &e);
  ck_assert(e.flags & TEAL_QUERY_EPA_DEGENERATE);
  ck_assert_double_eq(e.depth, 0.0);
  ck_assert_double_eq_tol(teal_vec3_norm(e.n_AB), 1.0, 1e-15);
}
END_TEST

START_TEST(near_concentric_balls) {
  /* whole spheres (curved M) nearly concentric: every direction is nearly
   * as deep, so the polytope refines everywhere and may run out; EPA's
   * polished answer is still rA + rB - |c| along the centre line */
  unsigned st = 31u;
  for (int k = 0; k < 100; k++) {
    teal_shape a, b;
    teal_shape_sphere(ts_rand_uniform(&st, 0.3, 1.0), &a, NULL);
    teal_shape_sphere(ts_rand_uniform(&st, 0.3, 1.0), &b, NULL);
    teal_vec3 c = v3(ts_rand_uniform(&st, -0.1, 0.1), ts_rand_uniform(&st, -0.1, 0.1),
                     ts_rand_uniform(&st, -0.1, 0.1));
    teal_minkowski m = pair(&a, at(c.v[0], c.v[1], c.v[2]), &b, at(0, 0, 0), 0);
    teal_epa_result e = run(&m);
    ck_assert_double_eq_tol(e.depth, a.radius + b.radius - teal_vec3_norm(c), 1e-10);
    teal_vec3 n = teal_vec3_scale(c, -1.0 / teal_vec3_norm(c));
    ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(e.n_AB, n)), 1e-6);
    ck_assert_int_le(e.iterations, TEAL_EPA_MAX_VERTICES);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("epa");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, boxes_exact);
  tcase_add_test(tc, any_start_that_holds_the_origin);
  tcase_add_test(tc, flat_start_is_flagged);
  tcase_add_test(tc, near_concentric_balls);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
