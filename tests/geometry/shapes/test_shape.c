/* Shapes: constructors store their dimensions, reject bad ones (zero,
 * negative, NaN, infinite) with TEAL_EINVAL and a message; convex hulls
 * and meshes own copies of their data; copy is deep and release frees
 * (counted through the allocator hooks, also when an allocation fails);
 * kind names and bounding radii. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "geometry/shapes/shape.h"
#include "support/test_support.h"

static const double kBad[] = {0.0, -1.0, NAN, INFINITY, -INFINITY};
enum { kNumBad = sizeof(kBad) / sizeof(kBad[0]) };

static void tetrahedron(teal_vec3 v[4]) {
  v[0] = teal_vec3_make(0, 0, 0);
  v[1] = teal_vec3_make(1, 0, 0);
  v[2] = teal_vec3_make(0, 1, 0);
  v[3] = teal_vec3_make(0, 0, 1);
}

START_TEST(constructors_store_dimensions) {
  teal_shape s;
  ck_assert_int_eq(teal_shape_sphere(0.5, &s, NULL), TEAL_OK);
  ck_assert_int_eq(s.kind, TEAL_SHAPE_SPHERE);
  ck_assert_double_eq(s.radius, 0.5);
  ck_assert_ptr_null(s.vertices);
  ck_assert_int_eq(teal_shape_box(1, 2, 3, &s, NULL), TEAL_OK);
  ck_assert_int_eq(s.kind, TEAL_SHAPE_BOX);
  ck_assert_double_eq(s.size.v[0], 1);
  ck_assert_double_eq(s.size.v[1], 2);
  ck_assert_double_eq(s.size.v[2], 3);
  ck_assert_int_eq(teal_shape_cylinder(0.2, 0.7, &s, NULL), TEAL_OK);
  ck_assert_int_eq(s.kind, TEAL_SHAPE_CYLINDER);
  ck_assert_double_eq(s.radius, 0.2);
  ck_assert_double_eq(s.length, 0.7);
  ck_assert_int_eq(teal_shape_capsule(0.3, 0.9, &s, NULL), TEAL_OK);
  ck_assert_int_eq(s.kind, TEAL_SHAPE_CAPSULE);
  ck_assert_double_eq(s.radius, 0.3);
  ck_assert_double_eq(s.length, 0.9);
  ck_assert_int_eq(teal_shape_ellipsoid(1, 2, 3, &s, NULL), TEAL_OK);
  ck_assert_int_eq(s.kind, TEAL_SHAPE_ELLIPSOID);
  ck_assert_double_eq(s.size.v[2], 3);
  ck_assert_int_eq(teal_shape_half_space(&s), TEAL_OK);
  ck_assert_int_eq(s.kind, TEAL_SHAPE_HALF_SPACE);
  ck_assert_int_eq(teal_shape_half_space(NULL), TEAL_EINVAL);
}
END_TEST

START_TEST(bad_dimensions_are_rejected) {
  teal_shape s;
  teal_error err;
  for (int i = 0; i < kNumBad; i++) {
    double x = kBad[i];
    teal_error_clear(&err);
    ck_assert_int_eq(teal_shape_sphere(x, &s, &err), TEAL_EINVAL);
    ck_assert_int_eq(err.code, TEAL_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "sphere"));
    ck_assert_int_eq(teal_shape_box(x, 1, 1, &s, NULL), TEAL_EINVAL);
    ck_assert_int_eq(teal_shape_box(1, x, 1, &s, NULL), TEAL_EINVAL);
    ck_assert_int_eq(teal_shape_box(1, 1, x, &s, NULL), TEAL_EINVAL);
    ck_assert_int_eq(teal_shape_cylinder(x, 1, &s, NULL), TEAL_EINVAL);
    ck_assert_int_eq(teal_shape_cylinder(1, x, &s, NULL), TEAL_EINVAL);
    ck_assert_int_eq(teal_shape_capsule(x, 1, &s, NULL), TEAL_EINVAL);
    ck_assert_int_eq(teal_shape_capsule(1, x, &s, NULL), TEAL_EINVAL);
    ck_assert_int_eq(teal_shape_ellipsoid(x, 1, 1, &s, NULL), TEAL_EINVAL);
    ck_assert_int_eq(teal_shape_ellipsoid(1, 1, x, &s, NULL), TEAL_EINVAL);
    ck_assert_int_eq(teal_shape_mesh("m.obj", x, &s, NULL), TEAL_EINVAL);
  }
  ck_assert_int_eq(teal_shape_sphere(1, NULL, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_shape_mesh(NULL, 1, &s, NULL), TEAL_EINVAL);
}
END_TEST

START_TEST(convex_validates_and_copies) {
  teal_vec3 v[5];
  teal_shape s;
  teal_error err;
  tetrahedron(v);
  /* too few, coplanar, non-finite */
  ck_assert_int_eq(teal_shape_convex(v, 3, &s, &err), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "4 vertices"));
  teal_vec3 flat[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{1, 1, 0}}};
  ck_assert_int_eq(teal_shape_convex(flat, 4, &s, &err), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "coplanar"));
  v[4] = teal_vec3_make(NAN, 0, 0);
  ck_assert_int_eq(teal_shape_convex(v, 5, &s, &err), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "not finite"));
  ck_assert_int_eq(teal_shape_convex(NULL, 4, &s, NULL), TEAL_EINVAL);
  /* the vertices are copied */
  ck_assert_int_eq(teal_shape_convex(v, 4, &s, NULL), TEAL_OK);
  ck_assert_int_eq(s.kind, TEAL_SHAPE_CONVEX);
  ck_assert_int_eq(s.num_vertices, 4);
  ck_assert_ptr_ne(s.vertices, v);
  v[3].v[2] = 7.0;
  ck_assert_double_eq(s.vertices[3].v[2], 1.0);
  teal_shape_release(&s);
  ck_assert_ptr_null(s.vertices);
  ck_assert_int_eq(s.num_vertices, 0);
  teal_shape_release(&s); /* twice is harmless */
  teal_shape_release(NULL);
}
END_TEST

START_TEST(copy_is_deep_and_release_frees) {
  ts_alloc_install();
  teal_vec3 v[4];
  tetrahedron(v);
  teal_shape convex, mesh, a, b;
  ck_assert_int_eq(teal_shape_convex(v, 4, &convex, NULL), TEAL_OK);
  ck_assert_int_eq(teal_shape_mesh("robot/link.obj", 0.5, &mesh, NULL), TEAL_OK);
  ck_assert_str_eq(mesh.filename, "robot/link.obj");
  ck_assert_double_eq(mesh.size.v[1], 0.5);
  ck_assert_int_eq(teal_shape_copy(&a, &convex), TEAL_OK);
  ck_assert_int_eq(teal_shape_copy(&b, &mesh), TEAL_OK);
  ck_assert_ptr_ne(a.vertices, convex.vertices);
  ck_assert_ptr_ne(b.filename, mesh.filename);
  ck_assert_str_eq(b.filename, "robot/link.obj");
  ck_assert_int_eq(memcmp(a.vertices, convex.vertices, sizeof(v)), 0);
  teal_shape_release(&convex);
  teal_shape_release(&mesh);
  ck_assert_double_eq(a.vertices[1].v[0], 1.0); /* the copy survives */
  teal_shape_release(&a);
  teal_shape_release(&b);
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  /* a copy of a plain shape allocates nothing */
  teal_shape s, t;
  teal_shape_box(1, 2, 3, &s, NULL);
  unsigned long before = ts_alloc_allocs();
  ck_assert_int_eq(teal_shape_copy(&t, &s), TEAL_OK);
  ck_assert_uint_eq(ts_alloc_allocs(), before);
  ck_assert_double_eq(t.size.v[2], 3.0);
  ck_assert_int_eq(teal_shape_copy(NULL, &s), TEAL_EINVAL);
  ck_assert_int_eq(teal_shape_copy(&t, NULL), TEAL_EINVAL);
  ts_alloc_uninstall();
}
END_TEST

START_TEST(out_of_memory_is_reported) {
  ts_alloc_install();
  teal_vec3 v[4];
  tetrahedron(v);
  teal_shape s, t;
  teal_error err;
  ts_alloc_fail_after(0, 1);
  ck_assert_int_eq(teal_shape_convex(v, 4, &s, &err), TEAL_ENOMEM);
  ck_assert_int_eq(teal_shape_mesh("m.obj", 1, &s, &err), TEAL_ENOMEM);
  ts_alloc_fail_after(-1, 0);
  ck_assert_int_eq(teal_shape_convex(v, 4, &s, NULL), TEAL_OK);
  ts_alloc_fail_after(0, 1);
  ck_assert_int_eq(teal_shape_copy(&t, &s), TEAL_ENOMEM);
  ts_alloc_fail_after(-1, 0);
  teal_shape_release(&s);
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  ts_alloc_uninstall();
}
END_TEST

START_TEST(kind_names_and_bounds) {
  ck_assert_str_eq(teal_shape_kind_name(TEAL_SHAPE_SPHERE), "sphere");
  ck_assert_str_eq(teal_shape_kind_name(TEAL_SHAPE_HALF_SPACE), "half_space");
  ck_assert_str_eq(teal_shape_kind_name(TEAL_SHAPE_MESH), "mesh");
  ck_assert_str_eq(teal_shape_kind_name(TEAL_SHAPE_KIND_COUNT), "unknown");
  ck_assert_str_eq(teal_shape_kind_name((teal_shape_kind)-1), "unknown");
  teal_shape s;
  teal_shape_sphere(0.5, &s, NULL);
  ck_assert_double_eq(teal_shape_bounding_radius(&s), 0.5);
  teal_shape_box(2, 4, 4, &s, NULL);
  ck_assert_double_eq_tol(teal_shape_bounding_radius(&s), 3.0, 1e-15);
  teal_shape_cylinder(3, 8, &s, NULL);
  ck_assert_double_eq_tol(teal_shape_bounding_radius(&s), 5.0, 1e-15);
  teal_shape_capsule(1, 2, &s, NULL);
  ck_assert_double_eq(teal_shape_bounding_radius(&s), 2.0);
  teal_shape_ellipsoid(1, 3, 2, &s, NULL);
  ck_assert_double_eq(teal_shape_bounding_radius(&s), 3.0);
  teal_shape_half_space(&s);
  ck_assert(isinf(teal_shape_bounding_radius(&s)));
  teal_vec3 v[4];
  tetrahedron(v);
  v[3] = teal_vec3_make(0, 0, -2);
  teal_shape_convex(v, 4, &s, NULL);
  ck_assert_double_eq(teal_shape_bounding_radius(&s), 2.0);
  teal_shape_release(&s);
  ck_assert_double_eq(teal_shape_bounding_radius(NULL), -1.0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("shape");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, constructors_store_dimensions);
  tcase_add_test(tc, bad_dimensions_are_rejected);
  tcase_add_test(tc, convex_validates_and_copies);
  tcase_add_test(tc, copy_is_deep_and_release_frees);
  tcase_add_test(tc, out_of_memory_is_reported);
  tcase_add_test(tc, kind_names_and_bounds);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
