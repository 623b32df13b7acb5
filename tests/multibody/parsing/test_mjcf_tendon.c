/* MJCF <tendon> (multibody/parsing/mjcf_tendon.c): models/mjcf/tendons.xml
 * gives the plant's fixed and spatial tendons with their stiffness and
 * damping from default classes, the spring lengths written, and MuJoCo's
 * length at qpos0 where none is (the cable's 0.35 and the flexor's length
 * worked out here from the model's poses; bench_mjcf_mujoco compares the
 * forces with MuJoCo's); the fixed tendons' coefficients on the right
 * joints; <equality tendon> as the coupler it amounts to (the ratio and
 * offset worked out here; bench_mjcf_mujoco checks MuJoCo's residuals vanish
 * on it); the warnings for what is not modelled (range, frictionloss,
 * wrapping, motors on spatial tendons, <equality tendon>); motors on fixed
 * tendons as tendon actuators (B's column gear * the coefficients); and bad
 * tendons and tendon motors with their messages, the plant left unchanged. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "multibody/algorithms/kinematics.h"
#include "multibody/constraints/constraint_access.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/forces/tendon_actuator.h"
#include "multibody/forces/tendons.h"
#include "multibody/tree/actuator_gain.h"
#include "multibody/parsing/mjcf.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

static teal_plant *load_file(const char *file) {
  char path[512];
  snprintf(path, sizeof path, "%s/mjcf/%s", TEAL_MODELS_DIR, file);
  teal_error e = {TEAL_OK, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_msg(teal_mjcf_load_file(p, path, NULL, NULL, NULL, &e) >= 0, "%s", e.message);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

static int tendon(const teal_plant *p, const char *name, int kind, double k, double d) {
  int i = teal_plant_find_tendon(p, name, -1);
  ck_assert_msg(i >= 0, "no tendon %s", name);
  ck_assert_int_eq(teal_plant_tendon_kind(p, i), kind);
  teal_tendon_spring s;
  ck_assert_int_eq(teal_plant_get_tendon_spring(p, i, &s, NULL), TEAL_OK);
  ck_assert_double_eq(s.stiffness, k);
  ck_assert_double_eq(s.damping, d);
  ck_assert(s.lower == -INFINITY && s.upper == INFINITY);
  return i;
}

static double spring_length(const teal_plant *p, int i) {
  teal_tendon_spring s;
  ck_assert_int_eq(teal_plant_get_tendon_spring(p, i, &s, NULL), TEAL_OK);
  return s.spring_length;
}

static double length_at_default(const teal_plant *p, int i) {
  double q[64], L;
  teal_transform X[16];
  ck_assert_int_le(teal_plant_nq(p), 64);
  ck_assert_int_le(teal_plant_num_bodies(p), 16);
  ck_assert_int_eq(teal_plant_default_q(p, q), TEAL_OK);
  ck_assert_int_eq(teal_mb_body_poses(p, q, X), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_tendon_length(p, i, q, NULL, X, NULL, &L, NULL, NULL), TEAL_OK);
  return L;
}

/* The motors "pull2" on couple2 (gear 1.5, ctrlrange +-2) and "couple1"
 * (unnamed: the tendon's name; gear -0.8) are tendon actuators whose
 * columns of B are the gear times the tendons' coefficients. */
static void expect_tendon_motors(const teal_plant *p, int c1, int c2) {
  ck_assert_int_eq(teal_plant_nu(p), 3);
  int pull = teal_plant_get_actuator_by_name(p, "pull2", -1, NULL);
  int other = teal_plant_get_actuator_by_name(p, "couple1", -1, NULL);
  ck_assert_int_eq(teal_plant_actuator_tendon(p, pull), c2);
  ck_assert_int_eq(teal_plant_actuator_tendon(p, other), c1);
  ck_assert_double_eq(teal_plant_actuator_effort_limit(p, pull), 2.0);
  ck_assert_double_eq(teal_plant_actuator_effort_limit(p, other), INFINITY);
  double B[64 * 3];
  ck_assert_int_le(teal_plant_nv(p), 64);
  ck_assert_int_eq(teal_plant_make_actuation_matrix(p, B), TEAL_OK);
  const char *joints[5] = {"f2a", "f2s", "wrist", "f1a", "f1b"};
  const double want[5][2] = {{1.05, 0}, {3.0, 0}, {0.45, 0}, {0, -0.8}, {0, 0.4}};
  double sum = 0.0;
  for (int k = 0; k < 5; k++) {
    int v = teal_plant_joint_v_start(p, teal_plant_get_joint_by_name(p, joints[k], -1, NULL));
    ck_assert_double_eq_tol(B[v * 3 + pull], want[k][0], 1e-15);
    ck_assert_double_eq_tol(B[v * 3 + other], want[k][1], 1e-15);
    sum += fabs(want[k][0]) + fabs(want[k][1]);
  }
  for (int v = 0; v < teal_plant_nv(p); v++) {
    sum -= fabs(B[v * 3 + pull]) + fabs(B[v * 3 + other]);
  }
  ck_assert_double_lt(fabs(sum), 1e-14); /* nothing elsewhere */
}

START_TEST(test_tendons_model) {
  teal_plant *p = load_file("tendons.xml");
  ck_assert_int_eq(teal_plant_num_tendons(p), 6);
  int c1 = tendon(p, "couple1", TEAL_TENDON_FIXED, 40.0, 0.5);
  int c2 = tendon(p, "couple2", TEAL_TENDON_FIXED, 2.0, 0.1);
  int fl = tendon(p, "flexor", TEAL_TENDON_SPATIAL, 10.0, 0.1);
  int ca = tendon(p, "cable", TEAL_TENDON_SPATIAL, 40.0, 0.5);
  ck_assert_double_eq(spring_length(p, c1), 0.1);
  ck_assert_double_eq(spring_length(p, c2), 0.0); /* the joints at qpos0 */
  ck_assert_double_eq(spring_length(p, fl), 0.2);
  /* the cable from the anchor (0.3 0.1 1.2) to the hook (0.3 0.1 0.85) */
  ck_assert_double_eq_tol(spring_length(p, ca), 0.35, 1e-15);
  ck_assert_double_eq_tol(length_at_default(p, ca), 0.35, 1e-15);
  /* the flexor through (0.05 0.03 1), (0.14 0.05 1.02), (0.23 0.05 1.015) */
  double flexor = sqrt(0.09 * 0.09 + 2 * 0.02 * 0.02) + sqrt(0.09 * 0.09 + 0.005 * 0.005);
  ck_assert_double_eq_tol(length_at_default(p, fl), flexor, 1e-15);
  /* couple2 = 0.7 f2a + 2 f2s + 0.3 wrist */
  teal_mb_data *data = teal_mb_data_new(p, NULL);
  double q[64], J[64];
  ck_assert_int_eq(teal_plant_default_q(p, q), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_tendon_jacobian(p, data, c2, q, J, NULL), TEAL_OK);
  const char *joints[3] = {"f2a", "f2s", "wrist"};
  const double coefs[3] = {0.7, 2.0, 0.3};
  double sum = 0.0;
  for (int k = 0; k < 3; k++) {
    int j = teal_plant_get_joint_by_name(p, joints[k], -1, NULL);
    ck_assert_double_eq(J[teal_plant_joint_v_start(p, j)], coefs[k]);
    sum += fabs(J[teal_plant_joint_v_start(p, j)]);
  }
  for (int c = 0; c < teal_plant_nv(p); c++) {
    sum -= fabs(J[c]);
  }
  ck_assert_double_eq(sum, 0.0); /* nothing elsewhere */
  expect_tendon_motors(p, c1, c2);
  teal_mb_data_free(data);
  teal_plant_free(p);
}
END_TEST

/* The coupler c of the plant: joint0 = ratio joint1 + offset, by name. */
static void expect_coupler(const teal_plant *p, int c, const char *j0, const char *j1, double ratio,
                           double offset) {
  teal_constraint_info info;
  ck_assert_int_eq(teal_plant_get_constraint(p, c, &info, NULL), TEAL_OK);
  ck_assert_str_eq(teal_plant_joint_name(p, info.joint0), j0);
  ck_assert_str_eq(teal_plant_joint_name(p, info.joint1), j1);
  ck_assert_double_eq_tol(info.gear_ratio, ratio, 1e-15);
  ck_assert_double_eq_tol(info.offset, offset, 1e-15);
}

/* couple1 = f1a - 0.5 f1b = 0.05, and -2 f2s = 0.01 + 0.4 (1.5 wrist). */
START_TEST(test_tendon_equalities) {
  teal_plant *p = load_file("tendons.xml");
  ck_assert_int_eq(teal_plant_num_constraints(p), 2);
  expect_coupler(p, 0, "f1a", "f1b", 0.5, 0.05);
  expect_coupler(p, 1, "f2s", "wrist", -0.3, -0.005);
  teal_plant_free(p);
}
END_TEST

#define HAND(tendons, extra)                                                      \
  "<mujoco><default><tendon stiffness='3'/></default><worldbody>"                 \
  "<site name='w' pos='0 0 2'/>"                                                  \
  "<body name='a' pos='0 0 1'><joint name='ja' axis='0 1 0'/><geom size='0.1'/>"  \
  "<site name='sa' pos='0.1 0 0'/>"                                               \
  "<body name='b' pos='0.5 0 0'><joint name='jb' type='ball'/><geom size='0.1'/>" \
  "<site name='sb'/></body></body></worldbody><tendon>" tendons "</tendon>" extra "</mujoco>"

/* What is not modelled is warned about and left out. */
START_TEST(test_tendon_warnings) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_mjcf_report r;
  teal_error e;
  const char *xml = HAND(
      "<fixed name='lim' range='0 1'><joint joint='ja'/></fixed>"
      "<fixed name='fr' frictionloss='0.1'><joint joint='ja' coef='2'/></fixed>"
      "<spatial name='wrap'><site site='w'/><geom geom='g'/><site site='sa'/></spatial>"
      "<pulley divisor='2'/><spatial name='sp'><site site='w'/><site site='sa'/></spatial>",
      "<actuator><motor tendon='lim' gear='2'/><motor tendon='sp'/></actuator>"
      "<equality><tendon tendon1='lim'/></equality>");
  ck_assert_int_ge(teal_mjcf_load_string(p, xml, NULL, NULL, &r, &e), 0);
  ck_assert_int_eq(r.ignored_attributes, 2); /* range, frictionloss */
  ck_assert_int_eq(r.ignored_elements, 4);   /* wrap, pulley, motor on sp, equality tendon */
  ck_assert_msg(strstr(r.first_warning, "tendon range ignored"), "%s", r.first_warning);
  ck_assert_int_eq(teal_plant_num_tendons(p), 3);
  /* the motor on the fixed tendon is its actuator, the spatial one's is not */
  ck_assert_int_eq(teal_plant_num_actuators(p), 1);
  ck_assert_int_eq(teal_plant_actuator_tendon(p, 0), teal_plant_find_tendon(p, "lim", -1));
  ck_assert_double_eq(teal_plant_actuator_input_gain(p, 0), 2.0);
  ck_assert_int_lt(teal_plant_find_tendon(p, "wrap", -1), 0);
  teal_tendon_spring s;
  ck_assert_int_eq(teal_plant_get_tendon_spring(p, teal_plant_find_tendon(p, "fr", -1), &s, NULL),
                   TEAL_OK);
  ck_assert_double_eq(s.stiffness, 3.0); /* from main */
  teal_plant_free(p);
}
END_TEST

/* Bad tendons fail at the element with a message; nothing is added. */
START_TEST(test_tendon_errors) {
  static const struct {
    const char *tendons;
    int code;
    const char *needle;
  } cases[] = {
      {"<fixed><joint joint='nope'/></fixed>", TEAL_ENOTFOUND, "unknown joint 'nope'"},
      {"<spatial><site site='w'/><site site='nope'/></spatial>", TEAL_ENOTFOUND,
       "unknown site 'nope'"},
      {"<fixed><joint joint='jb'/></fixed>", TEAL_EINVAL, "must be a hinge or a slide"},
      {"<fixed name='f'/>", TEAL_EPARSE, "at least 1 <joint>"},
      {"<spatial><site site='w'/></spatial>", TEAL_EPARSE, "at least 2 <site>"},
      {"<spatial><site site='w'/><site site='w'/></spatial>", TEAL_EINVAL, "follows itself"},
      {"<fixed name='t'><joint joint='ja'/></fixed><fixed name='t'><joint joint='ja'/></fixed>",
       TEAL_EDUPLICATE, "duplicate tendon name 't'"},
      {"<fixed name='tendon1'><joint joint='ja'/></fixed><fixed><joint joint='ja'/></fixed>",
       TEAL_EDUPLICATE, "duplicate tendon name 'tendon1'"},
      {"<fixed name='a/b'><joint joint='ja'/></fixed>", TEAL_EINVAL, "has a '/'"},
      {"<fixed stiffness='-1'><joint joint='ja'/></fixed>", TEAL_EINVAL, "must be >= 0"},
      {"<fixed><joint/></fixed>", TEAL_EPARSE, "joint"},
      {"<fixed class='none'><joint joint='ja'/></fixed>", TEAL_ENOTFOUND, "none"},
      {"<fixed><joint joint='ja' coef='x'/></fixed>", TEAL_EPARSE, "coef"},
      {"<fixed name='t'><joint joint='ja'/></fixed></tendon><equality><tendon tendon1='u'/>"
       "</equality><tendon>",
       TEAL_ENOTFOUND, "unknown tendon 'u'"},
      {"<fixed name='t'><joint joint='ja'/><joint joint='ja'/></fixed></tendon><equality>"
       "<tendon tendon1='t'/></equality><tendon>",
       TEAL_EINVAL, "give no coupler"},
      {"<fixed name='t'><joint joint='ja' coef='0'/></fixed><fixed name='u'><joint "
       "joint='ja'/></fixed></tendon><equality><tendon tendon1='t' tendon2='u'/></equality>"
       "<tendon>",
       TEAL_EINVAL, "give no coupler"},
      {"</tendon><equality><tendon tendon1='t' polycoef='0 1 0.5 0 0'/></equality><tendon>",
       TEAL_EINVAL, "quadratic"},
      {"</tendon><actuator><motor tendon='nope'/></actuator><tendon>", TEAL_ENOTFOUND,
       "unknown tendon 'nope'"},
      {"<fixed name='t'><joint joint='ja'/></fixed></tendon><actuator><motor joint='ja' "
       "tendon='t'/></actuator><tendon>",
       TEAL_EINVAL, "one transmission: joint or tendon"},
  };
  for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
    char xml[2048];
    snprintf(xml, sizeof xml, HAND("%s", ""), cases[k].tendons);
    teal_plant *p = teal_plant_new(0.0, NULL);
    teal_error e;
    TS_EXPECT_ERROR(teal_mjcf_load_string(p, xml, NULL, NULL, NULL, &e), cases[k].code, &e,
                    cases[k].needle);
    ck_assert_int_eq(teal_plant_num_bodies(p), 1);
    ck_assert_int_eq(teal_plant_num_tendons(p), 0);
    ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
    teal_plant_free(p);
  }
}
END_TEST

/* A motor or an equality on a wrapping spatial tendon (left out) is left
 * out with it, warned, not an unknown tendon. */
START_TEST(test_motor_on_a_wrapping_tendon_is_left_out) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_mjcf_report r;
  teal_error e;
  const char *xml = HAND(
      "<spatial name='wrap'><site site='w'/><geom geom='g'/><site site='sa'/></spatial>",
      "<actuator><motor tendon='wrap'/></actuator><equality><tendon tendon1='wrap'/></equality>");
  ck_assert_int_ge(teal_mjcf_load_string(p, xml, NULL, NULL, &r, &e), 0);
  ck_assert_int_eq(r.ignored_elements, 3); /* the tendon, its motor, its equality */
  ck_assert_int_eq(teal_plant_num_actuators(p), 0);
  ck_assert_int_eq(teal_plant_num_tendons(p), 0);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mjcf_tendon");
  TCase *tc = tcase_create("mjcf_tendon");
  tcase_add_test(tc, test_tendons_model);
  tcase_add_test(tc, test_tendon_equalities);
  tcase_add_test(tc, test_tendon_warnings);
  tcase_add_test(tc, test_motor_on_a_wrapping_tendon_is_left_out);
  tcase_add_test(tc, test_tendon_errors);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
