/* Rotor inertia and gear ratio from the model formats: URDF's
 * <transmission><actuator> with Drake's <drake:rotor_inertia value> and
 * <drake:gear_ratio value>, SDFormat's <drake:rotor_inertia> and
 * <drake:gear_ratio> joint children, MJCF's joint armature (the joint's
 * armature on every dof, motor or not; the motors' rotor inertia stays 0);
 * the mass matrix of each loaded plant against m l^2 + rho^2 I_r (+
 * armature); bad values with their messages. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/parsing/parser.h"
#include "multibody/tree/actuator_rotor.h"
#include "multibody/tree/joint_armature.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/test_support.h"

/* Loads text into a new plant and finalizes it; NULL with err filled and
 * the load's code in *rc when the load fails. */
static teal_plant *load(const char *text, teal_parser_report *report, teal_error *err, int *rc) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  int inst, count;
  memset(report, 0, sizeof(*report));
  *rc = teal_parser_add_models_string(p, text, NULL, NULL, &inst, 1, &count, report, err);
  if (*rc) {
    teal_plant_free(p);
    return NULL;
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* M(0) of a one-hinge plant: m l^2 + I_yy + rho^2 I_r. */
static double hinge_mass(const teal_plant *p) {
  teal_mb_data *d = teal_mb_data_new(p, NULL);
  double q = 0.0, M;
  ck_assert_int_eq(teal_plant_nv(p), 1);
  ck_assert_int_eq(teal_mb_mass_matrix(p, d, &q, &M), TEAL_OK);
  teal_mb_data_free(d);
  return M;
}

/* A 2 kg point at 0.5 m below a y hinge, with an actuator "motor". */
#define URDF_HEAD                                                                  \
  "<robot name='r' xmlns:drake='http://drake.mit.edu'><link name='base'/>"         \
  "<link name='arm'><inertial><origin xyz='0 0 -0.5'/><mass value='2'/>"           \
  "<inertia ixx='0' iyy='0' izz='0' ixy='0' ixz='0' iyz='0'/></inertial></link>"   \
  "<joint name='hinge' type='continuous'><parent link='base'/><child link='arm'/>" \
  "<axis xyz='0 1 0'/><limit effort='10'/></joint>"                                \
  "<transmission name='t'><type>transmission_interface/SimpleTransmission</type>"  \
  "<joint name='hinge'/><actuator name='motor'>"

START_TEST(urdf_transmission_carries_rotor_inertia_and_gear_ratio) {
  teal_parser_report r;
  teal_error e = {0};
  int rc;
  teal_plant *p = load(URDF_HEAD
                       "<drake:rotor_inertia value='0.02'/>"
                       "<drake:gear_ratio value='5'/></actuator></transmission></robot>",
                       &r, &e, &rc);
  ck_assert_msg(p != NULL, "%s", e.message);
  int a = teal_plant_get_actuator_by_name(p, "motor", -1, NULL);
  ck_assert_int_ge(a, 0);
  ck_assert_double_eq(teal_plant_actuator_default_rotor_inertia(p, a), 0.02);
  ck_assert_double_eq(teal_plant_actuator_default_gear_ratio(p, a), 5.0);
  ck_assert_double_eq_tol(hinge_mass(p), 2.0 * 0.25 + 25.0 * 0.02, 1e-14);
  teal_plant_free(p);
  /* without the tags: Drake's defaults, 0 and 1 */
  p = load(URDF_HEAD "</actuator></transmission></robot>", &r, &e, &rc);
  ck_assert_ptr_nonnull(p);
  ck_assert_double_eq(teal_plant_actuator_default_rotor_inertia(p, 0), 0.0);
  ck_assert_double_eq(teal_plant_actuator_default_gear_ratio(p, 0), 1.0);
  ck_assert_double_eq_tol(hinge_mass(p), 0.5, 1e-14);
  teal_plant_free(p);
}
END_TEST

START_TEST(urdf_bad_values_are_refused) {
  static const struct {
    const char *tags, *needle;
  } cases[] = {
      {"<drake:rotor_inertia value='-1'/>", "<drake:rotor_inertia> value -1 must be >= 0"},
      {"<drake:gear_ratio value='0'/>", "<drake:gear_ratio> value 0 must be nonzero"},
      {"<drake:gear_ratio value='nan'/>", "gear_ratio"},
      {"<drake:rotor_inertia/>", "value"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char text[2048];
    snprintf(text, sizeof text, "%s%s</actuator></transmission></robot>", URDF_HEAD, cases[i].tags);
    teal_parser_report r;
    teal_error e = {0};
    int rc;
    ck_assert_ptr_null(load(text, &r, &e, &rc));
    ck_assert_int_lt(rc, 0);
    ck_assert_msg(strstr(e.message, cases[i].needle), "case %zu: %s", i, e.message);
  }
}
END_TEST

/* The same pendulum in SDFormat; tags go inside the joint. */
static void sdf_text(char *out, size_t n, const char *tags) {
  snprintf(out, n,
           "<sdf version='1.9' xmlns:drake='http://drake.mit.edu'><model name='m'>"
           "<link name='arm'><inertial><pose>0 0 -0.5 0 0 0</pose><mass>2</mass><inertia>"
           "<ixx>0</ixx><iyy>0</iyy><izz>0</izz></inertia></inertial></link>"
           "<joint name='hinge' type='revolute'><parent>world</parent><child>arm</child>"
           "<axis><xyz>0 1 0</xyz><limit><effort>10</effort></limit></axis>%s</joint>"
           "</model></sdf>",
           tags);
}

START_TEST(sdf_joint_carries_rotor_inertia_and_gear_ratio) {
  char text[2048];
  sdf_text(
      text, sizeof text,
      "<drake:rotor_inertia>0.03</drake:rotor_inertia><drake:gear_ratio>-4</drake:gear_ratio>");
  teal_parser_report r;
  teal_error e = {0};
  int rc;
  teal_plant *p = load(text, &r, &e, &rc);
  ck_assert_msg(p != NULL, "%s", e.message);
  ck_assert_int_eq(teal_plant_num_actuators(p), 1);
  ck_assert_double_eq(teal_plant_actuator_default_rotor_inertia(p, 0), 0.03);
  ck_assert_double_eq(teal_plant_actuator_default_gear_ratio(p, 0), -4.0);
  ck_assert_double_eq_tol(hinge_mass(p), 0.5 + 16.0 * 0.03, 1e-14);
  teal_plant_free(p);
  const char *bad[] = {"<drake:rotor_inertia>-0.1</drake:rotor_inertia>",
                       "<drake:gear_ratio>0</drake:gear_ratio>"};
  const char *needle[] = {"negative <drake:rotor_inertia>", "zero <drake:gear_ratio>"};
  for (int i = 0; i < 2; i++) {
    sdf_text(text, sizeof text, bad[i]);
    ck_assert_ptr_null(load(text, &r, &e, &rc));
    ck_assert_int_eq(rc, TEAL_EINVAL);
    ck_assert_msg(strstr(e.message, needle[i]), "%s", e.message);
  }
}
END_TEST

START_TEST(mjcf_armature_is_the_joint_armature) {
  static const char *text =
      "<mujoco><default><joint armature='0.07'/></default><worldbody>"
      "<body name='arm'><joint name='hinge' axis='0 1 0'/>"
      "<inertial pos='0 0 -0.5' mass='2' diaginertia='1e-9 1e-9 1e-9'/>"
      "<body name='tip' pos='0 0 -1'><joint name='free_hinge' axis='0 1 0' armature='0.3'/>"
      "<inertial pos='0 0 0' mass='1' diaginertia='0.1 0.1 0.1'/></body></body>"
      "<body name='ball' pos='2 0 0'><joint name='swivel' type='ball'/>"
      "<geom size='0.1'/></body></worldbody>"
      "<actuator><motor name='m1' joint='hinge'/><motor name='m2' joint='hinge'/></actuator>"
      "</mujoco>";
  teal_parser_report r;
  teal_error e = {0};
  int rc;
  teal_plant *p = load(text, &r, &e, &rc);
  ck_assert_msg(p != NULL, "%s", e.message);
  /* every joint carries its armature, actuated or not; the motors none */
  for (int a = 0; a < 2; a++) {
    ck_assert_double_eq(teal_plant_actuator_default_rotor_inertia(p, a), 0.0);
  }
  int hinge = teal_plant_get_joint_by_name(p, "hinge", -1, NULL);
  int h2 = teal_plant_joint_v_start(p, teal_plant_get_joint_by_name(p, "free_hinge", -1, NULL));
  int ball = teal_plant_joint_v_start(p, teal_plant_get_joint_by_name(p, "swivel", -1, NULL));
  ck_assert_double_eq(teal_plant_joint_default_armature(p, hinge), 0.07);
  ck_assert_int_eq(r.num_warnings, 0);
  ck_assert_int_eq(teal_plant_nv(p), 5);
  hinge = teal_plant_joint_v_start(p, hinge);
  teal_mb_data *d = teal_mb_data_new(p, NULL);
  double q[6], M[25];
  ck_assert_int_eq(teal_plant_default_q(p, q), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_matrix(p, d, q, M), TEAL_OK);
  /* M00 = 2 (0.5)^2 + 1 (1)^2 + 0.1 + 1e-9 + 0.07; M11 = 0.1 + 0.3; the
   * ball: its solid sphere's inertia 2/5 m r^2 + 0.07 on each of 3 dofs */
  ck_assert_double_eq_tol(M[hinge * 6], 0.5 + 1.0 + 0.1 + 1e-9 + 0.07, 1e-12);
  ck_assert_double_eq_tol(M[h2 * 6], 0.1 + 0.3, 1e-12);
  double m = 1000.0 * 4.0 / 3.0 * acos(-1.0) * 1e-3; /* MuJoCo's default density */
  for (int i = ball; i < ball + 3; i++) {
    ck_assert_double_eq_tol(M[i * 6], 0.4 * m * 0.01 + 0.07, 1e-12);
  }
  teal_mb_data_free(d);
  teal_plant_free(p);
  p = load(
      "<mujoco><worldbody><body><joint armature='-1'/><geom size='1'/></body>"
      "</worldbody></mujoco>",
      &r, &e, &rc);
  ck_assert_ptr_null(p);
  ck_assert_int_eq(rc, TEAL_EINVAL);
  ck_assert_msg(strstr(e.message, "negative armature -1"), "%s", e.message);
}
END_TEST

int main(void) {
  Suite *s = suite_create("rotor_parsing");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, urdf_transmission_carries_rotor_inertia_and_gear_ratio);
  tcase_add_test(tc, urdf_bad_values_are_refused);
  tcase_add_test(tc, sdf_joint_carries_rotor_inertia_and_gear_ratio);
  tcase_add_test(tc, mjcf_armature_is_the_joint_armature);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
