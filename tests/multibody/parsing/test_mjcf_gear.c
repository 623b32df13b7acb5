/* MJCF motor gears (mjcf_check.c, mjcf_build.c): the gear is the actuator's
 * input gain, so the actuation input is MuJoCo's ctrl. models/mjcf/
 * geared_motors.xml loads without warnings with the gains in B and the
 * joint-effort limits |gear| min(ranges); the plant's acceleration for a
 * ctrl equals the one for the joint forces clamp(gear * ctrl) computed by
 * hand; the limits for forcerange, ctrlrange and both, the warning for an
 * asymmetric range and the error for a zero gear. bench/mjcf_mujoco.c
 * checks the joint forces against MuJoCo's qfrc_actuator. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "mjcf_compare.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/actuator_gain.h"
#include "support/error_messages.h"
#include "support/mb_urdf_fixtures.h"

enum { NU = 3 };

static int actuator(const teal_plant *p, const char *name) {
  int a = teal_plant_get_actuator_by_name(p, name, -1, NULL);
  ck_assert_int_ge(a, 0);
  return a;
}

START_TEST(geared_model_loads_with_the_gains) {
  teal_mjcf_report r;
  teal_plant *p = mjcf_test_load("geared_motors.xml", &r);
  ck_assert_int_eq(r.num_warnings, 0);
  ck_assert_int_eq(teal_plant_nu(p), NU);
  const char *names[NU] = {"shoulder_motor", "extend_motor", "wrist_motor"};
  const double gain[NU] = {2.5, -0.5, 1.0}, limit[NU] = {5.0, 1.5, INFINITY};
  double B[NU * NU];
  ck_assert_int_eq(teal_plant_make_actuation_matrix(p, B), TEAL_OK);
  for (int i = 0; i < NU; i++) {
    int a = actuator(p, names[i]);
    ck_assert_double_eq(teal_plant_actuator_input_gain(p, a), gain[i]);
    ck_assert_double_eq(B[teal_plant_actuator_v_index(p, a) * NU + a], gain[i]);
    ck_assert_double_eq(teal_plant_actuator_effort_limit(p, a), limit[i]);
  }
  teal_plant_free(p);
}
END_TEST

/* The plant's acceleration at a fixed state for ctrl on actuation and tau
 * on applied_generalized_force. */
static void acceleration(const teal_plant *p, const double *ctrl, const double *tau, double *vd) {
  teal_context *ctx = teal_context_new(teal_plant_system((teal_plant *)p), NULL);
  ck_assert_ptr_nonnull(ctx);
  const double q[NU] = {0.3, 0.05, -0.6}, v[NU] = {0.2, -0.1, 0.4};
  ck_assert_int_eq(teal_context_fix_input(ctx, teal_plant_actuation_input_port(p), ctrl, NU),
                   TEAL_OK);
  ck_assert_int_eq(
      teal_context_fix_input(ctx, teal_plant_applied_generalized_force_input_port(p), tau, NU),
      TEAL_OK);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, NU), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, NU), TEAL_OK);
  const double *a;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &a), TEAL_OK);
  memcpy(vd, a, sizeof(double) * NU);
  teal_context_free(ctx);
}

START_TEST(ctrl_drives_the_joints_through_the_gear) {
  teal_plant *p = mjcf_test_load("geared_motors.xml", NULL);
  /* MuJoCo's joint forces by hand: gear * clamp(clamp(ctrl, ctrlrange),
   * forcerange): 2.5 * 1.5, -0.5 * clamp(8, +-3), 1 * 0.3 */
  const double ctrl[NU] = {1.5, 8.0, 0.3}, zero[NU] = {0, 0, 0};
  double tau[NU] = {0, 0, 0}, va[NU], vb[NU];
  const char *names[NU] = {"shoulder_motor", "extend_motor", "wrist_motor"};
  const double force[NU] = {3.75, -1.5, 0.3};
  double u[NU];
  for (int i = 0; i < NU; i++) {
    int a = actuator(p, names[i]);
    u[a] = ctrl[i];
    tau[teal_plant_actuator_v_index(p, a)] = force[i];
  }
  acceleration(p, u, zero, va);
  acceleration(p, zero, tau, vb);
  for (int i = 0; i < NU; i++) {
    ck_assert_double_eq_tol(va[i], vb[i], 1e-12);
  }
  teal_plant_free(p);
}
END_TEST

/* The effort limit of the one motor of a hinge model with the given motor
 * attributes; the number of warnings into *warnings. */
static double limit_of(const char *motor, int *warnings, char *first_warning, size_t size) {
  char xml[512];
  snprintf(xml, sizeof xml,
           "<mujoco><compiler autolimits='true'/><worldbody><body name='b'><joint name='j'/>"
           "<geom size='0.1'/></body></worldbody><actuator><motor joint='j' %s/></actuator>"
           "</mujoco>",
           motor);
  teal_mjcf_report r;
  teal_plant *p = mjcf_test_load_string(xml, &r);
  double limit = teal_plant_actuator_effort_limit(p, 0);
  *warnings = r.num_warnings;
  snprintf(first_warning, size, "%s", r.first_warning);
  teal_plant_free(p);
  return limit;
}

START_TEST(limits_are_gear_times_the_smaller_range) {
  struct {
    const char *motor;
    double limit;
    int warnings;
    const char *needle;
  } cases[] = {
      {"gear='2' forcerange='-3 3'", 6.0, 0, ""},
      {"gear='-2' ctrlrange='-4 4'", 8.0, 0, ""},
      {"gear='2' ctrlrange='-4 4' forcerange='-3 3'", 6.0, 0, ""},
      {"gear='2' ctrlrange='-1 1' forcerange='-3 3'", 2.0, 0, ""},
      {"gear='0.5' ctrlrange='-1 3'", 1.5, 1, "asymmetric ctrlrange [-1, 3] approximated by +-3"},
      {"gear='3' forcerange='-3 3' forcelimited='false'", INFINITY, 0, ""},
      {"gear='3'", INFINITY, 0, ""},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    int warnings;
    char first[TEAL_MJCF_WARNING_MAX];
    double limit = limit_of(cases[i].motor, &warnings, first, sizeof first);
    ck_assert_msg(limit == cases[i].limit, "%s: %g", cases[i].motor, limit);
    ck_assert_int_eq(warnings, cases[i].warnings);
    ck_assert_msg(strstr(first, cases[i].needle), "%s: %s", cases[i].motor, first);
  }
}
END_TEST

START_TEST(zero_gear_is_refused) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e;
  ts_stale_error(&e);
  int rc = teal_mjcf_load_string(p,
                                 "<mujoco><worldbody><body><joint name='j'/><geom size='0.1'/>"
                                 "</body></worldbody><actuator><motor joint='j' gear='0'/>"
                                 "</actuator></mujoco>",
                                 NULL, NULL, NULL, &e);
  ts_expect_error_at(__FILE__, __LINE__, rc, TEAL_EINVAL, &e,
                     "<string>:1: <motor>: a motor's gear must be nonzero");
  ck_assert_int_eq(teal_plant_num_actuators(p), 0);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mjcf_gear");
  TCase *tc = tcase_create("gear");
  tcase_add_test(tc, geared_model_loads_with_the_gains);
  tcase_add_test(tc, ctrl_drives_the_joints_through_the_gear);
  tcase_add_test(tc, limits_are_gear_times_the_smaller_range);
  tcase_add_test(tc, zero_gear_is_refused);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
