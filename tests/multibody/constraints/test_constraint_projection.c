/* Coordinate projection (multibody/constraints/constraint_projection.c),
 * checked on rows whose projections are known in closed form: a point
 * pulled back onto the unit circle lands on the radial closest point, a
 * zero weight keeps its coordinate, a redundant copy of a row changes
 * nothing, velocities lose exactly their normal component, inconsistent
 * rows and bad arguments are reported. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/constraints/constraint_projection.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* The unit circle x^2 + y^2 = 1 in the plane, its row repeated copies
 * times (copies - 1 redundant rows). */
typedef struct circle {
  int copies;
  int fail; /* the errors callback fails */
} circle;

static int circle_errors(const double *q, double *perr, void *user) {
  const circle *c = user;
  for (int i = 0; i < c->copies; i++) {
    perr[i] = q[0] * q[0] + q[1] * q[1] - 1.0;
  }
  return c->fail ? TEAL_EIO : TEAL_OK;
}

static int circle_jacobian(const double *q, double *P, void *user) {
  const circle *c = user;
  for (int i = 0; i < c->copies; i++) {
    P[2 * i] = 2.0 * q[0];
    P[2 * i + 1] = 2.0 * q[1];
  }
  return TEAL_OK;
}

static int add_dv(double *q, const double *dv, void *user) {
  (void)user;
  q[0] += dv[0];
  q[1] += dv[1];
  return TEAL_OK;
}

static teal_projection_rows circle_rows(circle *c) {
  teal_projection_rows r = {c->copies, 2, 2, circle_errors, circle_jacobian, add_dv, c};
  return r;
}

START_TEST(point_lands_on_the_closest_point_of_the_circle) {
  for (int copies = 1; copies <= 3; copies++) {
    circle c = {copies, 0};
    teal_projection_rows rows = circle_rows(&c);
    teal_projection_options opt = {1e-13, 0, NULL};
    double q[2] = {1.1, 0.3}, work[64];
    ck_assert_uint_le(teal_projection_work_doubles(copies, 2), 64);
    int it = 0;
    ck_assert_int_eq(teal_project_positions(&rows, &opt, q, work, &it, NULL), TEAL_OK);
    double r = hypot(1.1, 0.3);
    ck_assert_double_eq_tol(q[0], 1.1 / r, 1e-13);
    ck_assert_double_eq_tol(q[1], 0.3 / r, 1e-13);
    ck_assert_int_ge(it, 2); /* Newton: a few steps */
    ck_assert_int_le(it, 6);
  }
}
END_TEST

START_TEST(zero_weight_keeps_its_coordinate) {
  circle c = {1, 0};
  teal_projection_rows rows = circle_rows(&c);
  double w[2] = {1.0, 0.0};
  teal_projection_options opt = {1e-14, 0, w};
  double q[2] = {0.7, 0.6}, work[16];
  ck_assert_int_eq(teal_project_positions(&rows, &opt, q, work, NULL, NULL), TEAL_OK);
  ck_assert_double_eq(q[1], 0.6);
  ck_assert_double_eq_tol(q[0], sqrt(1.0 - 0.36), 1e-14);
}
END_TEST

START_TEST(velocity_loses_its_normal_component) {
  circle c = {2, 0};
  teal_projection_rows rows = circle_rows(&c);
  teal_projection_options opt = {1e-14, 0, NULL};
  double q[2] = {0.6, 0.8}, v[2] = {1.0, 2.0}, work[32];
  ck_assert_int_eq(teal_project_velocities(&rows, &opt, q, NULL, v, work, NULL), TEAL_OK);
  /* tangent (-0.8, 0.6): v . t = 0.4 */
  ck_assert_double_eq_tol(v[0], -0.32, 1e-15);
  ck_assert_double_eq_tol(v[1], 0.24, 1e-15);
  /* a target rate c: P v = c, i.e. 2 (q . v) = 1 for both copies */
  double target[2] = {1.0, 1.0};
  ck_assert_int_eq(teal_project_velocities(&rows, &opt, q, target, v, work, NULL), TEAL_OK);
  ck_assert_double_eq_tol(2.0 * (q[0] * v[0] + q[1] * v[1]), 1.0, 1e-14);
  ck_assert_double_eq_tol(-0.8 * v[0] + 0.6 * v[1], 0.4, 1e-14); /* tangent part kept */
}
END_TEST

START_TEST(inconsistent_and_failing_rows_are_reported) {
  circle c = {2, 0};
  teal_projection_rows rows = circle_rows(&c);
  teal_projection_options opt = {1e-12, 3, NULL};
  double q[2] = {0.6, 0.8}, v[2] = {1.0, 2.0}, work[32], target[2] = {0.0, 1.0};
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_project_velocities(&rows, &opt, q, target, v, work, &err), TEAL_ENOCONV,
                  &err, "the rows are inconsistent");
  /* far from the circle's center but at its center the rows vanish */
  double center[2] = {0.0, 0.0};
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_project_positions(&rows, &opt, center, work, NULL, &err), TEAL_ENOCONV, &err,
                  "the constraint error is still 1 after 3 iterations");
  c.fail = 1;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_project_positions(&rows, &opt, q, work, NULL, &err), TEAL_EIO, &err,
                  "a constraint callback failed");
}
END_TEST

START_TEST(bad_arguments_are_reported) {
  circle c = {1, 0};
  teal_projection_rows rows = circle_rows(&c);
  double q[2] = {1.0, 0.0}, work[16], w[2] = {1.0, -1.0};
  teal_error err;
  teal_projection_options opt = {0.0, 0, NULL};
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_project_positions(&rows, &opt, q, work, NULL, &err), TEAL_EINVAL, &err,
                  "tolerance 0 must be positive and finite");
  opt.tolerance = 1e-10;
  opt.inv_weight2 = w;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_project_velocities(&rows, &opt, q, NULL, q, work, &err), TEAL_EINVAL, &err,
                  "weight 1 is -1");
  opt.inv_weight2 = NULL;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_project_positions(&rows, &opt, NULL, work, NULL, &err), TEAL_EINVAL, &err,
                  "rows, options, state or work is NULL");
  rows.advance = NULL;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_project_positions(&rows, &opt, q, work, NULL, &err), TEAL_EINVAL, &err,
                  "all three callbacks");
  rows.advance = add_dv;
  double bad[2] = {NAN, 0.0};
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_project_positions(&rows, &opt, bad, work, NULL, &err), TEAL_ENONFINITE, &err,
                  "a constraint error is not finite");
  ck_assert_uint_eq(teal_projection_work_doubles(-1, 2), 0);
  ck_assert_uint_eq(teal_projection_work_doubles(3, 5), 15 + 9 + 12 + 10);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("constraint_projection");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, point_lands_on_the_closest_point_of_the_circle);
  tcase_add_test(tc, zero_weight_keeps_its_coordinate);
  tcase_add_test(tc, velocity_loses_its_normal_component);
  tcase_add_test(tc, inconsistent_and_failing_rows_are_reported);
  tcase_add_test(tc, bad_arguments_are_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
