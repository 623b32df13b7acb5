/* Constraints in URDF (multibody/parsing/urdf_constraints.c): a four-bar
 * closed by <teal:ball_constraint> and by Drake's <drake:ball_constraint>
 * loads with the closure's points on the right bodies (the position errors
 * vanish at an assembled configuration, also through a massless link), a
 * <mimic> becomes a coupler with the URDF's multiplier and offset,
 * distance and weld elements make their constraints, and bad documents and
 * undeclared loops get messages naming the element, line and joints. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "multibody/constraints/constraint_operators.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/mb_urdf_fixtures.h"
#include "support/test_support.h"

#define R(body) "<robot name=\"r\" xmlns:drake=\"http://drake.mit.edu\">" body "</robot>"
/* a bar of mass 1 along x */
#define BAR(n, l)                                                                  \
  "<link name=\"" n "\"><inertial><origin xyz=\"" l                                \
  " 0 0\"/><mass value=\"1\"/>"                                                    \
  "<inertia ixx=\"0.001\" iyy=\"0.1\" izz=\"0.1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>" \
  "</inertial></link>"
#define HINGE(n, p, c, xyz)                                                            \
  "<joint name=\"" n "\" type=\"continuous\"><parent link=\"" p "\"/><child link=\"" c \
  "\"/><origin xyz=\"" xyz "\"/><axis xyz=\"0 -1 0\"/></joint>"
/* crank 1, coupler 3 (its far end a massless link), rocker 2.5, ground 3 */
#define FOUR_BAR(closure) \
  R(BAR("crank", "0.5") BAR("coupler", "1.5") BAR("rocker", "1.25")               \
        "<link name=\"coupler_end\"/>" HINGE("j_crank", "world", "crank", "0 0 0") \
            HINGE("j_coupler", "crank", "coupler", "1 0 0")                         \
                HINGE("j_rocker", "world", "rocker", "3 0 0")                       \
                    "<joint name=\"end\" type=\"fixed\"><parent link=\"coupler\"/>" \
                    "<child link=\"coupler_end\"/><origin xyz=\"3 0 0\"/></joint>" closure)

/* Sets the joints' angles (crank, coupler, rocker) of the assembled
 * four-bar at crank angle 1.2 and returns the largest position error. */
static double assembled_error(teal_plant *p) {
  const char *names[3] = {"j_crank", "j_coupler", "j_rocker"};
  /* the closed-form assembly at crank angle 1.2 (see test_plant_projection.c) */
  double t2 = 1.2, bx = cos(t2), bz = sin(t2), dx = 3 - bx, dz = -bz, e = hypot(dx, dz);
  double along = (9 - 6.25 + e * e) / (2 * e), h = sqrt(9 - along * along);
  double cx = bx + (along * dx - h * dz) / e, cz = bz + (along * dz + h * dx) / e;
  double by_joint[3] = {t2, atan2(cz - bz, cx - bx) - t2, atan2(cz, cx - 3)}, q[3], perr[6];
  for (int j = 0; j < 3; j++) {
    int ji = teal_plant_get_joint_by_name(p, names[j], -1, NULL);
    ck_assert_int_ge(ji, 0);
    q[teal_plant_joint_q_start(p, ji)] = by_joint[j];
  }
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 3), TEAL_OK);
  int m = teal_plant_num_constraint_rows(p);
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, perr), TEAL_OK);
  double worst = 0.0;
  for (int i = 0; i < m; i++) {
    worst = fmax(worst, fabs(perr[i]));
  }
  teal_context_free(ctx);
  return worst;
}

START_TEST(four_bar_closes_with_either_ball_element) {
  const char *docs[2] = {FOUR_BAR("<teal:ball_constraint body_A=\"coupler_end\" p_AP=\"0 0 0\" "
                                  "body_B=\"rocker\" p_BQ=\"2.5 0 0\"/>"),
                         FOUR_BAR("<drake:ball_constraint>"
                                  "<drake:ball_constraint_body_A name=\"coupler\"/>"
                                  "<drake:ball_constraint_p_AP value=\"3 0 0\"/>"
                                  "<drake:ball_constraint_body_B name=\"rocker\"/>"
                                  "<drake:ball_constraint_p_BQ value=\"2.5 0 0\"/>"
                                  "</drake:ball_constraint>")};
  for (int d = 0; d < 2; d++) {
    teal_plant *p = ts_urdf_load_xml(docs[d], NULL, 1);
    ck_assert_int_eq(teal_plant_num_constraints(p), 1);
    ck_assert_int_eq(teal_plant_constraint_kind(p, 0), TEAL_CONSTRAINT_BALL);
    ck_assert_double_lt(assembled_error(p), 1e-12);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(mimic_makes_a_coupler) {
  const char *xml = R(XLINK("a") XLINK("b") XJOINT(
      "j1", "revolute", "world", "a", "<axis xyz=\"0 0 1\"/><limit effort=\"1\" velocity=\"1\"/>")
                          XJOINT("j2", "revolute", "a", "b",
                                 "<axis xyz=\"0 0 1\"/><limit effort=\"1\" velocity=\"1\"/>"
                                 "<mimic joint=\"j1\" multiplier=\"-2\" offset=\"0.1\"/>"));
  teal_urdf_report rep;
  teal_plant *p = ts_urdf_load_xml(xml, &rep, 1);
  ck_assert_int_eq(rep.ignored_elements, 0);
  ck_assert_int_eq(teal_plant_num_constraints(p), 1);
  ck_assert_int_eq(teal_plant_constraint_kind(p, 0), TEAL_CONSTRAINT_COUPLER);
  int j1 = teal_plant_get_joint_by_name(p, "j1", -1, NULL);
  int j2 = teal_plant_get_joint_by_name(p, "j2", -1, NULL);
  ck_assert(j1 >= 0 && j2 >= 0);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double q[2], perr;
  /* q_j2 = -2 q_j1 + 0.1 holds at (0.3, -0.5); at (0.3, 0) it is off by 0.5 */
  q[teal_plant_joint_q_start(p, j1)] = 0.3;
  q[teal_plant_joint_q_start(p, j2)] = -0.5;
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, &perr), TEAL_OK);
  ck_assert_double_eq_tol(perr, 0.0, 1e-15);
  q[teal_plant_joint_q_start(p, j2)] = 0.0;
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, &perr), TEAL_OK);
  ck_assert_double_eq_tol(fabs(perr), 0.5, 1e-15);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(distance_and_weld_elements) {
  const char *xml = R(XLINK("a") XLINK("b") XLINK("c") XJOINT("ja", "floating", "world", "a", "")
                          XJOINT("jb", "floating", "world", "b", "")
                              XJOINT("jc", "floating", "world", "c", "")
      "<teal:distance_constraint body_A=\"a\" p_AP=\"0.1 0 0\" body_B=\"b\" p_BQ=\"0 0 0\" "
      "distance=\"0.5\"/>"
      "<teal:distance_constraint body_A=\"b\" body_B=\"c\" distance=\"1\" stiffness=\"100\" "
      "damping=\"2\"/>"
      "<teal:weld_constraint body_A=\"a\" xyz_AP=\"0 0 1\" rpy_AP=\"0 0 0.5\" body_B=\"c\"/>");
  teal_plant *p = ts_urdf_load_xml(xml, NULL, 1);
  ck_assert_int_eq(teal_plant_num_constraints(p), 3);
  ck_assert_int_eq(teal_plant_constraint_kind(p, 0), TEAL_CONSTRAINT_DISTANCE);
  ck_assert_int_eq(teal_plant_constraint_num_rows(p, 0), 1);
  ck_assert_int_eq(teal_plant_constraint_num_rows(p, 1), 0); /* compliant */
  ck_assert_int_ge(teal_plant_constraint_force_element(p, 1), 0);
  ck_assert_int_eq(teal_plant_constraint_kind(p, 2), TEAL_CONSTRAINT_WELD);
  ck_assert_int_eq(teal_plant_constraint_num_rows(p, 2), 6);
  teal_plant_free(p);
}
END_TEST

/* Loading xml fails with code and a message containing every needle. */
static void expect_failure(const char *xml, int code, const char *needle1, const char *needle2) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error err;
  int rc = teal_urdf_load_string(p, xml, NULL, &err);
  ck_assert_int_eq(rc, code);
  ck_assert_msg(strstr(err.message, needle1), "'%s' lacks '%s'", err.message, needle1);
  ck_assert_msg(!needle2 || strstr(err.message, needle2), "'%s' lacks '%s'", err.message, needle2);
  ck_assert_int_eq(teal_plant_num_bodies(p), 1); /* the plant is untouched */
  teal_plant_free(p);
}

START_TEST(bad_constraints_are_reported) {
  expect_failure(FOUR_BAR("<teal:ball_constraint body_A=\"nope\" body_B=\"rocker\"/>"), TEAL_EINVAL,
                 "<teal:ball_constraint>: unknown link 'nope'", NULL);
  expect_failure(FOUR_BAR("<teal:ball_constraint body_B=\"rocker\"/>"), TEAL_EPARSE, "body_A",
                 NULL);
  expect_failure(FOUR_BAR("<drake:ball_constraint><drake:ball_constraint_body_A "
                          "name=\"coupler\"/></drake:ball_constraint>"),
                 TEAL_EPARSE, "missing <drake:ball_constraint_body_B>", NULL);
  expect_failure(FOUR_BAR("<teal:distance_constraint body_A=\"crank\" body_B=\"rocker\"/>"),
                 TEAL_EPARSE, "distance", NULL);
  expect_failure(R(XLINK("a") XJOINT("j1", "continuous", "world", "a", "<mimic joint=\"ghost\"/>")),
                 TEAL_EINVAL, "<mimic>: mimic of unknown joint 'ghost'", NULL);
  expect_failure(R(XLINK("a") XJOINT("j1", "continuous", "world", "a", "<mimic joint=\"j1\"/>")),
                 TEAL_EINVAL, "joint 'j1' cannot mimic itself", NULL);
  expect_failure(R(XLINK("a") XLINK("b") XJOINT("j1", "continuous", "world", "a", "")
                       XJOINT("j2", "floating", "world", "b", "<mimic joint=\"j1\"/>")),
                 TEAL_EINVAL, "<mimic>: mimic between 'j2' (floating) and 'j1' (continuous)",
                 "single-dof");
  expect_failure(FOUR_BAR("<teal:ball_constraint body_A=\"coupler\" body_B=\"coupler_end\"/>"),
                 TEAL_EINVAL, "links 'coupler' and 'coupler_end' are on the same body", NULL);
  expect_failure(FOUR_BAR("<teal:distance_constraint body_A=\"crank\" body_B=\"rocker\" "
                          "distance=\"1\" damping=\"1\"/>"),
                 TEAL_EINVAL, "damping 1 >= 0 (0 when rigid)", NULL);
  /* a loop closed by a second parent joint instead of a constraint */
  expect_failure(FOUR_BAR(HINGE("j_close", "coupler", "rocker", "3 0 0")), TEAL_EINVAL,
                 "link 'rocker' has two parent joints, 'j_rocker' and 'j_close'",
                 "declare the closure as a constraint");
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("urdf_constraints");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, four_bar_closes_with_either_ball_element);
  tcase_add_test(tc, mimic_makes_a_coupler);
  tcase_add_test(tc, distance_and_weld_elements);
  tcase_add_test(tc, bad_constraints_are_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
