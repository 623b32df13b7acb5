/* Error messages of the shape constructors: a NULL output is named as
 * such (not as bad dimensions), and bad dimensions name the shape and the
 * dimension; each replaces what err held before. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "geometry/shapes/shape.h"
#include "support/error_messages.h"
#include "support/test_support.h"

START_TEST(null_output) {
  teal_error err;
  teal_vec3 v[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}};
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_shape_sphere(1.0, NULL, &err), TEAL_EINVAL, &err, "sphere: out is NULL");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_shape_box(1, 1, 1, NULL, &err), TEAL_EINVAL, &err, "box: out is NULL");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_shape_cylinder(1, 1, NULL, &err), TEAL_EINVAL, &err,
                  "cylinder: out is NULL");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_shape_capsule(1, 1, NULL, &err), TEAL_EINVAL, &err, "capsule: out is NULL");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_shape_ellipsoid(1, 1, 1, NULL, &err), TEAL_EINVAL, &err,
                  "ellipsoid: out is NULL");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_shape_convex(v, 4, NULL, &err), TEAL_EINVAL, &err, "convex: out is NULL");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_shape_mesh("m.obj", 1.0, NULL, &err), TEAL_EINVAL, &err,
                  "mesh: out is NULL");
}
END_TEST

START_TEST(bad_dimensions) {
  teal_error err;
  teal_shape s;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_shape_sphere(-1.0, &s, &err), TEAL_EINVAL, &err,
                  "sphere radius must be finite and > 0");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_shape_box(1, NAN, 1, &s, &err), TEAL_EINVAL, &err, "box sides");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_shape_convex(NULL, 4, &s, &err), TEAL_EINVAL, &err,
                  "convex: vertices is NULL");
  teal_vec3 v[3] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}};
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_shape_convex(v, 3, &s, &err), TEAL_EINVAL, &err, "needs >= 4 vertices");
}
END_TEST

int main(void) {
  Suite *s = suite_create("shape_error_messages");
  TCase *tc = tcase_create("messages");
  tcase_add_test(tc, null_output);
  tcase_add_test(tc, bad_dimensions);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
