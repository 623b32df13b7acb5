/* Tests of finalize (multibody/tree/topology.c): under allocation failure
 * every failure is TEAL_ENOMEM with a message, leaves a plant that is not
 * finalized (so teal_mb_data_new refuses it with TEAL_ESTATE), and leaks
 * nothing (the sanitizer build checks); the effort-limit vectors; the
 * warning of a continuous plant with position limits. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "multibody/algorithms/data.h"
#include "multibody/contact/plant_contact.h"
#include "multibody/plant/plant_system.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/forest.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* A chain of three revolute bodies and one free body, not finalized. */
static teal_plant *three_links_and_a_ball(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(1.0, 0.1, 0.2, 0.3);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int parent = TEAL_WORLD_FRAME;
  const char *names[3] = {"a", "b", "c"}, *joints[3] = {"ja", "jb", "jc"};
  for (int i = 0; i < 3; i++) {
    int b = teal_plant_add_rigid_body(p, names[i], TEAL_DEFAULT_MODEL_INSTANCE, &M);
    ck_assert_int_ge(teal_plant_add_joint(p, joints[i], TEAL_JOINT_REVOLUTE, parent,
                                          teal_plant_body_frame(p, b), &y, 0.0),
                     0);
    parent = teal_plant_body_frame(p, b);
  }
  ck_assert_int_ge(teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M), 0);
  return p;
}

START_TEST(finalize_out_of_memory_is_clean) {
  ts_alloc_install();
  int failures = 0;
  for (long k = 0; k < 400; k++) {
    teal_plant *p = three_links_and_a_ball();
    ts_alloc_fail_after(k, 0);
    int rc = teal_plant_finalize(p);
    ts_alloc_fail_after(-1, 0);
    if (rc == TEAL_OK) {
      ck_assert_int_eq(teal_plant_is_finalized(p), 1);
      ck_assert_ptr_nonnull(teal_plant_forest(p));
      teal_plant_free(p);
      break;
    }
    failures++;
    ck_assert_int_eq(rc, TEAL_ENOMEM);
    ck_assert_ptr_nonnull(strstr(teal_plant_error(p)->message, "memory"));
    ck_assert_int_eq(teal_plant_is_finalized(p), 0);
    teal_error err = {0, ""};
    ck_assert_ptr_null(teal_mb_data_new(p, &err));
    ck_assert_int_eq(err.code, TEAL_ESTATE);
    teal_plant_free(p);
  }
  ts_alloc_uninstall();
  ck_assert_int_gt(failures, 2); /* the forest, the system and its parts all allocate */
}
END_TEST

/* Drake's GetEffortLowerLimits / GetEffortUpperLimits: -limit and +limit
 * of each actuator, the joint's own effort limit included. */
START_TEST(effort_limit_vectors) {
  teal_plant *p = three_links_and_a_ball();
  double two = 2.0, seven = 7.0;
  ck_assert_int_ge(teal_plant_add_joint_actuator(p, "m0", 0, 5.0), 0);
  ck_assert_int_ge(teal_plant_add_joint_actuator(p, "m1", 1, INFINITY), 0);
  ck_assert_int_ge(teal_plant_add_joint_actuator(p, "m2", 2, 3.0), 0);
  ck_assert_int_eq(teal_plant_set_joint_effort_limits(p, 1, &two), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_joint_effort_limits(p, 2, &seven), TEAL_OK);
  double lo[3], hi[3];
  teal_error e = {0, ""};
  TS_EXPECT_ERROR(teal_plant_get_effort_upper_limits(p, hi, 3, &e), TEAL_ESTATE, &e,
                  "not finalized");
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_effort_lower_limits(p, lo, 3, &e), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_effort_upper_limits(p, hi, 3, NULL), TEAL_OK);
  const double want[3] = {5.0, 2.0, 3.0};
  for (int a = 0; a < 3; a++) {
    ck_assert_double_eq(hi[a], want[a]);
    ck_assert_double_eq(lo[a], -want[a]);
  }
  TS_EXPECT_ERROR(teal_plant_get_effort_lower_limits(p, lo, 2, &e), TEAL_ESIZE, &e, "3 actuators");
  TS_EXPECT_ERROR(teal_plant_get_effort_upper_limits(p, NULL, 3, &e), TEAL_EINVAL, &e,
                  "the output array is NULL");
  TS_EXPECT_ERROR(teal_plant_get_effort_upper_limits(NULL, hi, 3, &e), TEAL_EINVAL, &e,
                  "the plant is NULL");
  teal_plant_free(p);
  /* unlimited actuators give -inf and +inf */
  p = three_links_and_a_ball();
  ck_assert_int_ge(teal_plant_add_joint_actuator(p, "free", 0, INFINITY), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_effort_lower_limits(p, lo, 1, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_effort_upper_limits(p, hi, 1, NULL), TEAL_OK);
  ck_assert(isinf(lo[0]) && lo[0] < 0 && isinf(hi[0]) && hi[0] > 0);
  teal_plant_free(p);
}
END_TEST

/* A continuous plant warns once at finalize that it ignores position
 * limits (Drake prints a warning then); a discrete one, or one without
 * finite limits, does not. */
static long finalize_and_count(teal_plant *p, const char **message) {
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  long n = teal_plant_warning_count(p, ctx);
  teal_context_free(ctx);
  *message = teal_plant_warning_message(p);
  return n;
}

START_TEST(continuous_plant_warns_once_about_joint_limits) {
  const double lo[1] = {-1.0}, hi[1] = {INFINITY}, none_lo[1] = {-INFINITY};
  const char *m;
  teal_plant *p = three_links_and_a_ball();
  ck_assert_int_eq(teal_plant_set_joint_position_limits(p, 1, lo, hi), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_joint_position_limits(p, 2, lo, hi), TEAL_OK);
  ck_assert_int_eq(finalize_and_count(p, &m), 1);
  ck_assert_ptr_nonnull(strstr(m, "continuous (time_step = 0)"));
  ck_assert_ptr_nonnull(strstr(m, "position limits of 2 joints (the first 'jb') are ignored"));
  teal_plant_free(p);
  p = three_links_and_a_ball(); /* infinite limits: nothing to ignore */
  ck_assert_int_eq(teal_plant_set_joint_position_limits(p, 1, none_lo, hi), TEAL_OK);
  ck_assert_int_eq(finalize_and_count(p, &m), 0);
  ck_assert_str_eq(m, "");
  teal_plant_free(p);
  p = teal_plant_new(1e-3, NULL); /* discrete: limits are enforced */
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(1.0, 0.1, 0.2, 0.3);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int b = teal_plant_add_rigid_body(p, "a", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int j = teal_plant_add_joint(p, "ja", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                               teal_plant_body_frame(p, b), &y, 0.0);
  ck_assert_int_eq(teal_plant_set_joint_position_limits(p, j, lo, hi), TEAL_OK);
  ck_assert_int_eq(finalize_and_count(p, &m), 0);
  teal_plant_free(p);
  ck_assert_str_eq(teal_plant_warning_message(NULL), "");
}
END_TEST

int main(void) {
  Suite *s = suite_create("topology");
  TCase *tc = tcase_create("finalize");
  tcase_add_test(tc, finalize_out_of_memory_is_clean);
  tcase_add_test(tc, effort_limit_vectors);
  tcase_add_test(tc, continuous_plant_warns_once_about_joint_limits);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
