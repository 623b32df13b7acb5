/* Error messages of the plant model: NULL arrays given to the joint setters
 * and a NULL plant given to the lookups fail with TEAL_EINVAL and a message
 * (they dereferenced them), and finalizing twice says so. */
#include <check.h>
#include <stdlib.h>

#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* A plant with a body on a revolute joint (joint 0), not finalized. */
static teal_plant *pendulum(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(p, "link", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 z = teal_vec3_make(0.0, 0.0, 1.0);
  ck_assert_int_eq(teal_plant_add_joint(p, "pin", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(p, b), &z, 0.0),
                   0);
  return p;
}

/* Runs one setter on a fresh plant (errors are sticky) and checks it. */
#define EXPECT_SETTER(call, needle)                                     \
  do {                                                                  \
    teal_plant *p = pendulum();                                         \
    TS_EXPECT_ERROR(call, TEAL_EINVAL, teal_plant_error(p), needle);    \
    ck_assert_ptr_null(strstr(teal_plant_error(p)->message, "(null)")); \
    teal_plant_free(p);                                                 \
  } while (0)

START_TEST(joint_setters_null_arrays) {
  double one[1] = {1.0};
  EXPECT_SETTER(teal_plant_set_joint_damping(p, 0, NULL), "joint 'pin': invalid damping");
  EXPECT_SETTER(teal_plant_set_joint_position_limits(p, 0, NULL, one), "NULL array");
  EXPECT_SETTER(teal_plant_set_joint_position_limits(p, 0, one, NULL), "position limits");
  EXPECT_SETTER(teal_plant_set_joint_velocity_limits(p, 0, NULL, NULL), "velocity limits");
  EXPECT_SETTER(teal_plant_set_joint_effort_limits(p, 0, NULL), "effort limits (NULL array)");
}
END_TEST

START_TEST(lookups_null_plant) {
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_body_by_name(NULL, "link", -1, &err), TEAL_EINVAL, &err,
                  "body 'link': NULL plant");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_joint_by_name(NULL, "pin", -1, &err), TEAL_EINVAL, &err,
                  "NULL plant");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_model_instance_by_name(NULL, "m", &err), TEAL_EINVAL, &err,
                  "NULL plant");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_frame_by_name(NULL, "f", -1, &err), TEAL_EINVAL, &err,
                  "NULL plant");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_actuator_by_name(NULL, "a", -1, &err), TEAL_EINVAL, &err,
                  "NULL plant");
  ck_assert_ptr_null(teal_plant_error(NULL));
  ck_assert_int_eq(teal_plant_set_gravity(NULL, teal_vec3_make(0, 0, -1)), TEAL_EINVAL);
}
END_TEST

/* The inertia check teal_plant_add_rigid_body relies on, given NULL. */
START_TEST(spatial_inertia_check_null) {
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_spatial_inertia_check(NULL, &err), TEAL_EINVAL, &err, "NULL inertia");
}
END_TEST

START_TEST(finalize_twice) {
  teal_plant *p = pendulum();
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  TS_EXPECT_ERROR(teal_plant_finalize(p), TEAL_ESTATE, teal_plant_error(p),
                  "finalize: the plant is already finalized");
  ck_assert_ptr_null(strstr(teal_plant_error(p)->message, "(null)"));
  teal_plant_free(p);
}
END_TEST

static Suite *plant_model_error_messages_suite(void) {
  Suite *s = suite_create("plant_model_error_messages");
  TCase *tc = tcase_create("messages");
  tcase_add_test(tc, joint_setters_null_arrays);
  tcase_add_test(tc, lookups_null_plant);
  tcase_add_test(tc, spatial_inertia_check_null);
  tcase_add_test(tc, finalize_twice);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(plant_model_error_messages_suite());
}
