/* Constraint objects (multibody/constraints/constraint_access.c): every
 * kind's info read back as added (axes normalized, the angle from its
 * cosine, the compliant distance's spring), the row layout after finalize,
 * updates before finalize changing the position errors to the hand values
 * of the new parameters, and the refusals (after finalize, wrong kind,
 * unknown index, bad values) with their messages. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "math/rotation.h"
#include "multibody/constraints/constraint_access.h"
#include "multibody/constraints/constraint_operators.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

static int add_body(teal_plant *p, const char *name, teal_joint_kind kind) {
  teal_spatial_inertia M = teal_spatial_inertia_from_central(1.0, teal_vec3_make(0, 0, -0.5),
                                                             teal_mat3_diag(0.1, 0.1, 0.02));
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int b = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_ge(
      teal_plant_add_joint(p, name, kind, TEAL_WORLD_FRAME, teal_plant_body_frame(p, b), &y, 0), 0);
  return b;
}

static void expect_vec(teal_vec3 a, double x, double y, double z) {
  ck_assert_double_eq_tol(a.v[0], x, 1e-15);
  ck_assert_double_eq_tol(a.v[1], y, 1e-15);
  ck_assert_double_eq_tol(a.v[2], z, 1e-15);
}

START_TEST(info_reads_back_every_kind) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int a = add_body(p, "a", TEAL_JOINT_QUATERNION_FLOATING);
  int b = add_body(p, "b", TEAL_JOINT_QUATERNION_FLOATING);
  add_body(p, "h0", TEAL_JOINT_REVOLUTE);
  add_body(p, "h1", TEAL_JOINT_REVOLUTE);
  teal_vec3 pa = teal_vec3_make(0.1, 0.2, 0.3), pb = teal_vec3_make(-0.1, 0, 0.4);
  teal_transform X = teal_transform_make(
      teal_rotation_from_axis_angle(teal_vec3_make(0, 0, 1), 0.3), teal_vec3_make(1, 2, 3));
  ck_assert_int_eq(teal_plant_add_coupler_constraint(p, 2, 3, 1.5, 0.2), 0);
  ck_assert_int_eq(teal_plant_add_distance_constraint(p, a, pa, b, pb, 0.7, INFINITY, 0.0), 1);
  ck_assert_int_eq(teal_plant_add_distance_constraint(p, a, pa, b, pb, 0.9, 100.0, 2.0), 2);
  ck_assert_int_eq(teal_plant_add_weld_constraint(p, a, X, b, teal_transform_identity()), 3);
  ck_assert_int_eq(
      teal_plant_add_point_in_plane_constraint(p, a, teal_vec3_make(0, 0, 2), 0.5, b, pb), 4);
  ck_assert_int_eq(teal_plant_add_constant_angle_constraint(p, a, teal_vec3_make(3, 0, 0), b,
                                                            teal_vec3_make(0, 4, 0), 1.2),
                   5);
  teal_constraint_info info;
  ck_assert_int_eq(teal_plant_get_constraint(p, 0, &info, NULL), TEAL_OK);
  ck_assert_int_eq(info.kind, TEAL_CONSTRAINT_COUPLER);
  ck_assert_int_eq(info.joint0, 2);
  ck_assert_int_eq(info.joint1, 3);
  ck_assert_int_eq(info.body_a, -1);
  ck_assert_double_eq(info.gear_ratio, 1.5);
  ck_assert_double_eq(info.offset, 0.2);
  ck_assert_int_eq(info.row_start, -1); /* not finalized */
  ck_assert_int_eq(teal_plant_get_constraint(p, 1, &info, NULL), TEAL_OK);
  ck_assert_int_eq(info.rows, 1);
  ck_assert_double_eq(info.distance, 0.7);
  ck_assert(isinf(info.stiffness));
  expect_vec(info.X_AP.p, 0.1, 0.2, 0.3);
  expect_vec(info.X_BQ.p, -0.1, 0, 0.4);
  ck_assert_int_eq(teal_plant_get_constraint(p, 2, &info, NULL), TEAL_OK);
  ck_assert_int_eq(info.rows, 0);
  ck_assert_double_eq(info.stiffness, 100.0);
  ck_assert_double_eq(info.damping, 2.0);
  ck_assert_int_ge(info.force_element, 0);
  ck_assert_int_eq(teal_plant_get_constraint(p, 3, &info, NULL), TEAL_OK);
  ck_assert_int_eq(info.rows, 6);
  ck_assert_double_eq(info.X_AP.R.m[1], X.R.m[1]);
  expect_vec(info.X_AP.p, 1, 2, 3);
  ck_assert_int_eq(teal_plant_get_constraint(p, 4, &info, NULL), TEAL_OK);
  expect_vec(info.axis_a, 0, 0, 1);
  ck_assert_double_eq(info.height, 0.5);
  ck_assert_int_eq(teal_plant_get_constraint(p, 5, &info, NULL), TEAL_OK);
  expect_vec(info.axis_a, 1, 0, 0);
  expect_vec(info.axis_b, 0, 1, 0);
  ck_assert_double_eq_tol(info.angle, 1.2, 1e-14);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_constraint(p, 5, &info, NULL), TEAL_OK);
  ck_assert_int_eq(info.row_start, 1 + 1 + 6 + 1);
  teal_plant_free(p);
}
END_TEST

/* Two hinges with a coupler and a constant angle between their bodies. */
static teal_plant *hinges(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int b0 = add_body(p, "h0", TEAL_JOINT_REVOLUTE);
  int b1 = add_body(p, "h1", TEAL_JOINT_REVOLUTE);
  ck_assert_int_eq(teal_plant_add_coupler_constraint(p, 0, 1, 1.0, 0.0), 0);
  teal_vec3 x = teal_vec3_make(1, 0, 0);
  ck_assert_int_eq(teal_plant_add_constant_angle_constraint(p, b0, x, b1, x, 0.0), 1);
  return p;
}

START_TEST(updates_before_finalize_change_the_errors) {
  teal_plant *p = hinges();
  ck_assert_int_eq(teal_plant_set_coupler_constraint_parameters(p, 0, 2.0, 0.1), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_constant_angle_constraint_angle(p, 1, 0.4), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double q[2] = {0.7, 0.1}, perr[2];
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, perr), TEAL_OK);
  ck_assert_double_eq_tol(perr[0], 0.7 - 2.0 * 0.1 - 0.1, 1e-15);
  /* both x axes turn about y: a . b = cos(q0 - q1) */
  ck_assert_double_eq_tol(perr[1], cos(0.6) - cos(0.4), 1e-15);
  teal_constraint_info info;
  ck_assert_int_eq(teal_plant_get_constraint(p, 0, &info, NULL), TEAL_OK);
  ck_assert_double_eq(info.gear_ratio, 2.0);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(bad_updates_and_queries_are_reported) {
  teal_error err = {TEAL_OK, ""};
  teal_constraint_info info;
  teal_plant *p = hinges();
  TS_EXPECT_ERROR(teal_plant_get_constraint(p, 7, &info, &err), TEAL_ENOTFOUND, &err,
                  "unknown constraint 7");
  TS_EXPECT_ERROR(teal_plant_get_constraint(p, 0, NULL, &err), TEAL_EINVAL, &err, "info is NULL");
  TS_EXPECT_ERROR(teal_plant_set_distance_constraint_length(p, 0, 1.0), TEAL_EINVAL,
                  teal_plant_error(p), "constraint 0 is a coupler constraint, not a distance");
  teal_plant_free(p);
  p = hinges();
  TS_EXPECT_ERROR(teal_plant_set_constant_angle_constraint_angle(p, 1, 4.0), TEAL_EINVAL,
                  teal_plant_error(p), "angle (must be in [0, pi]) 4");
  teal_plant_free(p);
  p = hinges();
  TS_EXPECT_ERROR(teal_plant_set_coupler_constraint_parameters(p, 0, NAN, 0.0), TEAL_ENONFINITE,
                  teal_plant_error(p), "gear ratio nan is not finite");
  teal_plant_free(p);
  p = hinges();
  TS_EXPECT_ERROR(teal_plant_set_point_in_plane_constraint_height(p, 9, 0.0), TEAL_ENOTFOUND,
                  teal_plant_error(p), "unknown constraint 9");
  teal_plant_free(p);
  p = hinges();
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  TS_EXPECT_ERROR(teal_plant_set_coupler_constraint_parameters(p, 0, 2.0, 0.0), TEAL_ESTATE,
                  teal_plant_error(p), "after finalize");
  ck_assert_int_eq(teal_plant_get_constraint(p, 0, &info, NULL), TEAL_OK);
  ck_assert_double_eq(info.gear_ratio, 1.0); /* unchanged */
  teal_plant_free(p);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("constraint_access");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, info_reads_back_every_kind);
  tcase_add_test(tc, updates_before_finalize_change_the_errors);
  tcase_add_test(tc, bad_updates_and_queries_are_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
