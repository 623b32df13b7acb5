/* Constraint specs (multibody/constraints/constraint_specs.h): indices,
 * kinds, rows and their layout, default flags, the compliant distance as a
 * spring-damper force element, and every bad input with its code and
 * message. */
#include <check.h>
#include <math.h>

#include "multibody/constraints/constraint_specs.h"
#include "multibody/forces/force_element_params.h"
#include "multibody/forces/force_elements.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* Two free bodies, a revolute and a prismatic body on the world and a
 * ball-jointed body: joints 0 (revolute), 1 (prismatic), 2 (ball). */
typedef struct model {
  teal_plant *p;
  int a, b, r, s, ball;
  int j_rev, j_pri, j_ball;
} model;

static model make_model(void) {
  model m;
  m.p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  m.a = teal_plant_add_rigid_body(m.p, "a", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  m.b = teal_plant_add_rigid_body(m.p, "b", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  m.r = teal_plant_add_rigid_body(m.p, "r", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  m.s = teal_plant_add_rigid_body(m.p, "s", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  m.ball = teal_plant_add_rigid_body(m.p, "k", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  m.j_rev = teal_plant_add_joint(m.p, "rev", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                 teal_plant_body_frame(m.p, m.r), &z, 0.0);
  m.j_pri = teal_plant_add_joint(m.p, "pri", TEAL_JOINT_PRISMATIC, TEAL_WORLD_FRAME,
                                 teal_plant_body_frame(m.p, m.s), &z, 0.0);
  m.j_ball = teal_plant_add_joint(m.p, "ball", TEAL_JOINT_BALL, TEAL_WORLD_FRAME,
                                  teal_plant_body_frame(m.p, m.ball), NULL, 0.0);
  ck_assert_int_eq(m.j_ball, 2);
  return m;
}

START_TEST(adds_return_indices_kinds_and_rows) {
  model m = make_model();
  teal_plant *p = m.p;
  teal_vec3 o = teal_vec3_zero(), x = teal_vec3_make(1, 0, 0);
  teal_transform I = teal_transform_identity();
  ck_assert_int_eq(teal_plant_num_constraints(p), 0);
  ck_assert_int_eq(teal_plant_add_coupler_constraint(p, m.j_rev, m.j_pri, 2.0, 0.1), 0);
  ck_assert_int_eq(teal_plant_add_distance_constraint(p, m.a, o, m.b, o, 1.0, INFINITY, 0.0), 1);
  ck_assert_int_eq(teal_plant_add_ball_constraint(p, m.a, o, m.b, x), 2);
  ck_assert_int_eq(teal_plant_add_weld_constraint(p, m.a, I, m.b, I), 3);
  ck_assert_int_eq(teal_plant_add_point_in_plane_constraint(p, 0, x, 0.5, m.a, o), 4);
  ck_assert_int_eq(teal_plant_add_point_on_line_constraint(p, m.b, x, o, m.a, o), 5);
  ck_assert_int_eq(teal_plant_add_constant_angle_constraint(p, m.a, x, m.b, x, 0.5), 6);
  ck_assert_int_eq(teal_plant_add_distance_constraint(p, m.a, o, m.b, x, 1.0, 100.0, 2.0), 7);
  ck_assert_int_eq(teal_plant_num_constraints(p), 8);
  int rows[8] = {1, 1, 3, 6, 1, 2, 1, 0};
  for (int c = 0; c < 8; c++) {
    ck_assert_int_eq(teal_plant_constraint_kind(p, c), c < 7 ? c : TEAL_CONSTRAINT_DISTANCE);
    ck_assert_int_eq(teal_plant_constraint_num_rows(p, c), rows[c]);
    ck_assert_int_eq(teal_plant_constraint_default_enabled(p, c), 1);
  }
  /* the compliant distance is a spring-damper of the same numbers */
  int fe = teal_plant_constraint_force_element(p, 7);
  ck_assert_int_ge(fe, 0);
  ck_assert_int_eq(teal_plant_constraint_force_element(p, 1), -1);
  teal_linear_spring_damper_params sd;
  ck_assert_int_eq(teal_plant_get_linear_spring_damper(p, fe, &sd, NULL), TEAL_OK);
  ck_assert_double_eq(sd.free_length, 1.0);
  ck_assert_double_eq(sd.stiffness, 100.0);
  ck_assert_double_eq(sd.damping, 2.0);
  ck_assert_int_eq(teal_plant_num_constraint_rows(p), TEAL_ESTATE);
  ck_assert_int_eq(teal_plant_constraint_row_start(p, 0), TEAL_ESTATE);
  ck_assert_int_eq(teal_plant_set_constraint_default_enabled(p, 3, 0), TEAL_OK);
  ck_assert_int_eq(teal_plant_constraint_default_enabled(p, 3), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_num_constraint_rows(p), 15);
  int start = 0;
  for (int c = 0; c < 8; c++) {
    ck_assert_int_eq(teal_plant_constraint_row_start(p, c), start);
    start += rows[c];
  }
  ck_assert_int_eq(teal_plant_constraint_kind(p, 8), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_constraint_kind(NULL, 0), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_num_constraints(NULL), TEAL_EINVAL);
  teal_plant_free(p);
}
END_TEST

/* A fresh model for each failing add (errors are sticky). */
#define EXPECT_ADD_ERROR(call, code, needle)                        \
  do {                                                              \
    model m = make_model();                                         \
    teal_plant *p = m.p;                                            \
    TS_EXPECT_ERROR((call), (code), teal_plant_error(p), (needle)); \
    ck_assert_int_eq(teal_plant_num_constraints(p), 0);             \
    teal_plant_free(p);                                             \
  } while (0)

START_TEST(bad_inputs_get_codes_and_messages) {
  teal_vec3 o = teal_vec3_zero(), x = teal_vec3_make(1, 0, 0);
  teal_vec3 nan3 = teal_vec3_make(NAN, 0, 0);
  teal_transform I = teal_transform_identity(), bad = I;
  bad.R.m[0] = 2.0;
  EXPECT_ADD_ERROR(teal_plant_add_ball_constraint(p, m.a, o, m.a, x), TEAL_EINVAL, "and itself");
  EXPECT_ADD_ERROR(teal_plant_add_weld_constraint(p, m.b, I, m.b, I), TEAL_EINVAL, "and itself");
  EXPECT_ADD_ERROR(teal_plant_add_ball_constraint(p, m.a, o, 42, x), TEAL_ENOTFOUND,
                   "unknown body 42");
  EXPECT_ADD_ERROR(teal_plant_add_distance_constraint(p, -1, o, m.a, x, 1.0, INFINITY, 0.0),
                   TEAL_ENOTFOUND, "unknown body -1");
  EXPECT_ADD_ERROR(teal_plant_add_point_in_plane_constraint(p, 0, o, 0.0, m.a, o), TEAL_EINVAL,
                   "the normal has zero length");
  EXPECT_ADD_ERROR(teal_plant_add_point_on_line_constraint(p, 0, o, o, m.a, o), TEAL_EINVAL,
                   "the direction has zero length");
  EXPECT_ADD_ERROR(teal_plant_add_constant_angle_constraint(p, m.a, x, m.b, o, 1.0), TEAL_EINVAL,
                   "axis b has zero length");
  EXPECT_ADD_ERROR(teal_plant_add_constant_angle_constraint(p, m.a, x, m.b, x, 4.0), TEAL_EINVAL,
                   "outside [0, pi]");
  EXPECT_ADD_ERROR(teal_plant_add_coupler_constraint(p, m.j_rev, 9, 1.0, 0.0), TEAL_ENOTFOUND,
                   "unknown joint1 9");
  EXPECT_ADD_ERROR(teal_plant_add_coupler_constraint(p, m.j_rev, m.j_ball, 1.0, 0.0), TEAL_EINVAL,
                   "'ball' is not a single-dof joint");
  EXPECT_ADD_ERROR(teal_plant_add_coupler_constraint(p, m.j_rev, m.j_rev, 1.0, 0.0), TEAL_EINVAL,
                   "joint 'rev' and itself");
  EXPECT_ADD_ERROR(teal_plant_add_coupler_constraint(p, m.j_rev, m.j_pri, NAN, 0.0),
                   TEAL_ENONFINITE, "not finite");
  EXPECT_ADD_ERROR(teal_plant_add_coupler_constraint(p, m.j_rev, m.j_pri, 1.0, INFINITY),
                   TEAL_ENONFINITE, "not finite");
  EXPECT_ADD_ERROR(teal_plant_add_ball_constraint(p, m.a, nan3, m.b, o), TEAL_ENONFINITE,
                   "a point is not finite");
  EXPECT_ADD_ERROR(teal_plant_add_distance_constraint(p, m.a, o, m.b, o, NAN, INFINITY, 0.0),
                   TEAL_ENONFINITE, "not finite");
  EXPECT_ADD_ERROR(teal_plant_add_distance_constraint(p, m.a, o, m.b, o, -1.0, INFINITY, 0.0),
                   TEAL_EINVAL, "distance > 0");
  EXPECT_ADD_ERROR(teal_plant_add_distance_constraint(p, m.a, o, m.b, o, 1.0, INFINITY, 1.0),
                   TEAL_EINVAL, "0 when rigid");
  EXPECT_ADD_ERROR(teal_plant_add_point_in_plane_constraint(p, 0, x, INFINITY, m.a, o),
                   TEAL_ENONFINITE, "height inf is not finite");
  EXPECT_ADD_ERROR(teal_plant_add_point_on_line_constraint(p, 0, nan3, o, m.a, o), TEAL_ENONFINITE,
                   "the direction is not finite");
  EXPECT_ADD_ERROR(teal_plant_add_weld_constraint(p, m.a, bad, m.b, I), TEAL_EINVAL,
                   "rotation of X_AP is not proper");
  EXPECT_ADD_ERROR(teal_plant_set_constraint_default_enabled(p, 3, 0), TEAL_ENOTFOUND,
                   "unknown constraint 3");
}
END_TEST

START_TEST(bad_calls_around_finalize) {
  teal_vec3 o = teal_vec3_zero();
  /* a compliant distance may be disabled by default */
  model m = make_model();
  int c = teal_plant_add_distance_constraint(m.p, m.a, o, m.b, o, 1.0, 10.0, 0.0);
  ck_assert_int_eq(teal_plant_set_constraint_default_enabled(m.p, c, 0), TEAL_OK);
  ck_assert_int_eq(teal_plant_constraint_default_enabled(m.p, c), 0);
  teal_plant_free(m.p);
  /* adding after finalize */
  m = make_model();
  ck_assert_int_eq(teal_plant_finalize(m.p), TEAL_OK);
  TS_EXPECT_ERROR(teal_plant_add_ball_constraint(m.p, m.a, o, m.b, o), TEAL_ESTATE,
                  teal_plant_error(m.p), "after finalize");
  teal_plant_free(m.p);
  /* more rows than velocities: a weld (6 rows) on a lone revolute body */
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(p, "b", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  teal_plant_add_joint(p, "j", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME, teal_plant_body_frame(p, b),
                       &z, 0.0);
  ck_assert_int_eq(
      teal_plant_add_weld_constraint(p, 0, teal_transform_identity(), b, teal_transform_identity()),
      0);
  TS_EXPECT_ERROR(teal_plant_finalize(p), TEAL_EINVAL, teal_plant_error(p),
                  "6 rows, more than the 1 velocities");
  teal_plant_free(p);
}
END_TEST

static Suite *constraint_specs_suite(void) {
  Suite *s = suite_create("constraint_specs");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, adds_return_indices_kinds_and_rows);
  tcase_add_test(tc, bad_inputs_get_codes_and_messages);
  tcase_add_test(tc, bad_calls_around_finalize);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(constraint_specs_suite());
}
