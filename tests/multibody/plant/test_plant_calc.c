/* The plant's stages (multibody/plant/plant_calc.c): actuation is clamped
 * to each actuator's effort limits in both continuous and discrete mode.
 * An input beyond the limit accelerates the plant exactly as the limit
 * itself does, and unlike the same generalized force given through
 * applied_generalized_force (never clamped); a joint's own effort limit
 * applies through its actuator. */
#include <check.h>
#include <math.h>

#include "framework/context.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/test_support.h"

/* A pendulum (1 kg box, hinge about y) driven by "motor" with effort limit
 * 2 N m; joint_limit > 0 also sets the joint's effort limit. */
static teal_plant *motor_pendulum(double time_step, double joint_limit) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(1.0, 0.1, 0.1, 0.5);
  int b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int j = teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                               teal_plant_body_frame(p, b), &y, 0.0);
  ck_assert_int_ge(teal_plant_add_joint_actuator(p, "motor", j, 2.0), 0);
  if (joint_limit > 0) {
    ck_assert_int_eq(teal_plant_set_joint_effort_limits(p, j, &joint_limit), TEAL_OK);
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* vdot of the plant at q = 0.3, v = 0.1 with actuation u and
 * applied_generalized_force tau. */
static double vdot_with(const teal_plant *p, double u, double tau) {
  teal_context *ctx = teal_context_new(teal_plant_system((teal_plant *)p), NULL);
  double x[2] = {0.3, 0.1};
  const double *vdot;
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x, 2), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_input(ctx, teal_plant_actuation_input_port(p), &u, 1), TEAL_OK);
  ck_assert_int_eq(
      teal_context_fix_input(ctx, teal_plant_applied_generalized_force_input_port(p), &tau, 1),
      TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  double out = vdot[0];
  teal_context_free(ctx);
  return out;
}

START_TEST(actuation_is_clamped_in_both_modes) {
  for (int discrete = 0; discrete < 2; discrete++) {
    teal_plant *p = motor_pendulum(discrete ? 1e-3 : 0.0, 0.0);
    /* beyond the limit: the limit's acceleration, both signs */
    ck_assert_double_eq(vdot_with(p, 5.0, 0.0), vdot_with(p, 2.0, 0.0));
    ck_assert_double_eq(vdot_with(p, -50.0, 0.0), vdot_with(p, -2.0, 0.0));
    /* the unclamped torque, through applied_generalized_force, differs by
     * 3 N m over the hinge inertia (1/12 (0.01 + 0.25) kg m^2: the box is
     * centered on the hinge) */
    double dv = vdot_with(p, 0.0, 5.0) - vdot_with(p, 5.0, 0.0);
    ck_assert_double_gt(dv, 3.0 / 0.1);
    /* within the limit actuation and applied force are the same torque */
    ck_assert_double_eq_tol(vdot_with(p, 1.5, 0.0), vdot_with(p, 0.0, 1.5), 1e-12);
    ck_assert_double_eq_tol(vdot_with(p, 1.5, 0.0) - vdot_with(p, 0.0, 0.0),
                            vdot_with(p, 0.0, 1.5) - vdot_with(p, 0.0, 0.0), 1e-12);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(joint_effort_limit_applies_through_the_actuator) {
  for (int discrete = 0; discrete < 2; discrete++) {
    teal_plant *p = motor_pendulum(discrete ? 1e-3 : 0.0, 1.25);
    ck_assert_double_eq(teal_plant_actuator_effort_limit(p, 0), 1.25);
    ck_assert_double_eq(vdot_with(p, 2.0, 0.0), vdot_with(p, 0.0, 1.25));
    ck_assert_double_eq(vdot_with(p, 2.0, 0.0), vdot_with(p, 1.25, 0.0));
    teal_plant_free(p);
    p = motor_pendulum(0.0, 10.0); /* the actuator's own 2 N m is smaller */
    ck_assert_double_eq(teal_plant_actuator_effort_limit(p, 0), 2.0);
    ck_assert_double_eq(vdot_with(p, 9.0, 0.0), vdot_with(p, 2.0, 0.0));
    teal_plant_free(p);
  }
}
END_TEST

static Suite *plant_calc_suite(void) {
  Suite *s = suite_create("plant_calc");
  TCase *tc = tcase_create("effort_limits");
  tcase_add_test(tc, actuation_is_clamped_in_both_modes);
  tcase_add_test(tc, joint_effort_limit_applies_through_the_actuator);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(plant_calc_suite());
}
