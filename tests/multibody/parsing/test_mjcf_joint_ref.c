/* MJCF joint ref (multibody/parsing/mjcf_build.c, mjcf_body.c): MuJoCo's
 * qpos0 of hinges and slides. The default positions are the refs (degrees
 * converted, class defaults applied); at q = ref every body has its pose in
 * the model, and at q = 0 the pose moved back by the ref about the joint's
 * anchor, both worked out here by hand; joint and tendon equalities get the
 * offsets their qpos0 shift implies; a spatial tendon's default spring
 * length is MuJoCo 2.2's, with the hinges and slides at 0; a ball joint's
 * ref is ignored as MuJoCo does; bad refs fail with a message.
 * bench_mjcf_mujoco compares models/mjcf/joint_ref.xml with MuJoCo. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "multibody/algorithms/kinematics.h"
#include "multibody/constraints/constraint_access.h"
#include "multibody/forces/tendons.h"
#include "multibody/parsing/mjcf.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

#define DEG (3.14159265358979323846 / 180.0)

/* A hinge about y at the anchor (0.1, 0, 0) of body a (at (0, 0, 1)) with
 * ref 30 degrees from the class; a slide along x in body b (at (0.5, 0, 0)
 * in a) with ref 0.2; a site on b; extra: more elements. */
#define REF_MODEL(extra)                                                                  \
  "<mujoco><default><default class='r'><joint ref='30'/></default></default>"             \
  "<worldbody><site name='w' pos='0 0 0'/>"                                               \
  "<body name='a' pos='0 0 1'><joint name='h' class='r' axis='0 1 0' pos='0.1 0 0'/>"     \
  "<geom size='0.1'/><body name='b' pos='0.5 0 0'><joint name='s' type='slide' axis='1 "  \
  "0 0' ref='0.2'/><geom size='0.1'/><site name='sb'/></body></body>"                     \
  "<body name='c' pos='2 0 0'><joint name='ball' type='ball' ref='1'/><geom size='0.1'/>" \
  "</body></worldbody>" extra "</mujoco>"

static teal_plant *load(const char *xml) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {TEAL_OK, ""};
  ck_assert_msg(teal_mjcf_load_string(p, xml, NULL, NULL, NULL, &e) >= 0, "%s", e.message);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

static int q_of(const teal_plant *p, const char *joint) {
  return teal_plant_joint_q_start(p, teal_plant_get_joint_by_name(p, joint, -1, NULL));
}

static teal_transform pose_of(const teal_plant *p, const double *q, const char *body) {
  teal_transform X[8];
  ck_assert_int_le(teal_plant_num_bodies(p), 8);
  ck_assert_int_eq(teal_mb_body_poses(p, q, X), TEAL_OK);
  return X[teal_plant_get_body_by_name(p, body, -1, NULL)];
}

static void expect_point(teal_vec3 got, double x, double y, double z) {
  ck_assert_double_eq_tol(got.v[0], x, 1e-14);
  ck_assert_double_eq_tol(got.v[1], y, 1e-14);
  ck_assert_double_eq_tol(got.v[2], z, 1e-14);
}

START_TEST(test_default_positions_are_the_refs) {
  teal_plant *p = load(REF_MODEL(""));
  double q[16];
  ck_assert_int_le(teal_plant_nq(p), 16);
  ck_assert_int_eq(teal_plant_default_q(p, q), TEAL_OK);
  ck_assert_double_eq_tol(q[q_of(p, "h")], 30 * DEG, 1e-15);
  ck_assert_double_eq(q[q_of(p, "s")], 0.2);
  /* the ball joint ignores ref: the identity quaternion */
  int qb = q_of(p, "ball");
  ck_assert(q[qb] == 1.0 && q[qb + 1] == 0.0 && q[qb + 2] == 0.0 && q[qb + 3] == 0.0);
  /* at q = ref the bodies are where the model puts them */
  expect_point(pose_of(p, q, "a").p, 0, 0, 1);
  expect_point(pose_of(p, q, "b").p, 0.5, 0, 1);
  ck_assert_double_eq_tol(pose_of(p, q, "b").R.m[0], 1.0, 1e-15);
  /* at q = 0: b slides back by 0.2 along x (to 0.3 from a) and a turns by
   * -30 degrees about y through its anchor (0.1, 0, 1): the offset (0.2, 0,
   * 0) from the anchor turns to (0.2 cos 30, 0, 0.2 sin 30) */
  q[q_of(p, "h")] = 0.0;
  q[q_of(p, "s")] = 0.0;
  teal_vec3 b0 = pose_of(p, q, "b").p;
  expect_point(b0, 0.1 + 0.2 * cos(30 * DEG), 0, 1 + 0.2 * sin(30 * DEG));
  expect_point(pose_of(p, q, "a").p, 0.1 - 0.1 * cos(30 * DEG), 0, 1 - 0.1 * sin(30 * DEG));
  teal_plant_free(p);
}
END_TEST

/* MuJoCo: q1 - ref1 = a0 + a1 (q2 - ref2), a tendon's lengths from qpos0. */
START_TEST(test_equalities_measure_from_qpos0) {
  teal_plant *p = load(REF_MODEL(
      "<tendon><fixed name='ts'><joint joint='s' coef='2'/></fixed><fixed name='th'><joint "
      "joint='h' coef='0.5'/></fixed></tendon><equality><joint joint1='s' joint2='h' "
      "polycoef='0.1 0.3 0 0 0'/><tendon tendon1='ts' tendon2='th' polycoef='0.01 0.4 0 0 0'/>"
      "</equality>"));
  teal_constraint_info info;
  ck_assert_int_eq(teal_plant_get_constraint(p, 0, &info, NULL), TEAL_OK);
  ck_assert_double_eq(info.gear_ratio, 0.3);
  ck_assert_double_eq_tol(info.offset, 0.1 + 0.2 - 0.3 * 30 * DEG, 1e-15);
  /* 2 (s - 0.2) = 0.01 + 0.4 * 0.5 (h - ref): s = 0.1 h + 0.005 + 0.2 - 0.1 ref */
  ck_assert_int_eq(teal_plant_get_constraint(p, 1, &info, NULL), TEAL_OK);
  ck_assert_double_eq_tol(info.gear_ratio, 0.1, 1e-15);
  ck_assert_double_eq_tol(info.offset, 0.005 + 0.2 - 0.1 * 30 * DEG, 1e-15);
  teal_plant_free(p);
}
END_TEST

/* MuJoCo 2.2 takes a missing spring length with the hinges and slides at 0:
 * for the spatial tendon from the world origin to b's site, |b at q = 0|. */
START_TEST(test_spring_length_with_joints_at_zero) {
  teal_plant *p = load(REF_MODEL(
      "<tendon><spatial name='sp' stiffness='1'><site site='w'/><site site='sb'/></spatial>"
      "<fixed name='fx' stiffness='1'><joint joint='h'/></fixed></tendon>"));
  teal_tendon_spring s;
  int sp = teal_plant_find_tendon(p, "sp", -1), fx = teal_plant_find_tendon(p, "fx", -1);
  ck_assert_int_eq(teal_plant_get_tendon_spring(p, sp, &s, NULL), TEAL_OK);
  double x = 0.1 + 0.2 * cos(30 * DEG), z = 1 + 0.2 * sin(30 * DEG);
  ck_assert_double_eq_tol(s.spring_length, sqrt(x * x + z * z), 1e-14);
  ck_assert_int_eq(teal_plant_get_tendon_spring(p, fx, &s, NULL), TEAL_OK);
  ck_assert_double_eq(s.spring_length, 0.0);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_bad_refs_fail) {
  const char *bad[] = {"ref='x'", "ref='nan'", "ref='1 2'"};
  for (int k = 0; k < 3; k++) {
    char xml[512];
    snprintf(xml, sizeof xml,
             "<mujoco><worldbody><body name='a'><joint name='h' %s/><geom size='0.1'/></body>"
             "</worldbody></mujoco>",
             bad[k]);
    teal_plant *p = teal_plant_new(0.0, NULL);
    teal_error e = {TEAL_OK, ""};
    int rc = teal_mjcf_load_string(p, xml, NULL, NULL, NULL, &e);
    ck_assert_msg(rc < 0, "%s loaded", bad[k]);
    ck_assert_int_eq(e.code, rc);
    ck_assert_msg(strstr(e.message, "ref"), "%s: %s", bad[k], e.message);
    ck_assert_int_eq(teal_plant_num_bodies(p), 1); /* the plant untouched */
    teal_plant_free(p);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("mjcf_joint_ref");
  TCase *tc = tcase_create("mjcf_joint_ref");
  tcase_add_test(tc, test_default_positions_are_the_refs);
  tcase_add_test(tc, test_equalities_measure_from_qpos0);
  tcase_add_test(tc, test_spring_length_with_joints_at_zero);
  tcase_add_test(tc, test_bad_refs_fail);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
