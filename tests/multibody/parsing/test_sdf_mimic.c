/* SDFormat mimic joints (multibody/parsing/sdf_mimic.c): SDFormat 1.11's
 * <axis><mimic> (multiplier, offset, reference) and Drake's <drake:mimic>
 * become a coupler with the analytic ratio and offset (position error 0 on
 * the mimic relation, the offset's size off it), the same rows as the
 * coupler added by hand, and as URDF's <mimic> of the same robot; bad
 * mimics fail with the element and a message naming the problem. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "multibody/constraints/constraint_operators.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/parsing/sdf.h"
#include "multibody/parsing/urdf.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

#define INERTIAL "<inertial><mass>1</mass></inertial>"
/* Links a, b, c; j1 (world-a), j2 (a-b) revolute about z, j3 (b-c) ball;
 * m1 inside j2's <axis>, m2 inside j2. */
#define SDF2(m1, m2)                                                        \
  "<sdf version='1.11' xmlns:drake='http://drake.mit.edu'><model name='r'>" \
  "<link name='a'>" INERTIAL "</link><link name='b'>" INERTIAL              \
  "</link>"                                                                 \
  "<link name='c'>" INERTIAL                                                \
  "</link>"                                                                 \
  "<joint name='j1' type='revolute'><parent>world</parent><child>a</child>" \
  "<axis><xyz>0 0 1</xyz></axis></joint>"                                   \
  "<joint name='j2' type='revolute'><parent>a</parent><child>b</child>" m2  \
  "<axis><xyz>0 0 1"                                                        \
  "</xyz>" m1                                                               \
  "</axis></joint>"                                                         \
  "<joint name='j3' type='ball'><parent>b</parent><child>c</child></joint></model></sdf>"
#define SDF(m1) SDF2(m1, "")

static teal_plant *load(const char *xml, int finalize) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {TEAL_OK, ""};
  ck_assert_msg(teal_sdf_load_string(p, xml, &e) >= 2, "%s", e.message);
  ck_assert_int_eq(finalize ? teal_plant_finalize(p) : TEAL_OK, TEAL_OK);
  return p;
}

static int joint(const teal_plant *p, const char *name) {
  int j = teal_plant_get_joint_by_name(p, name, -1, NULL);
  ck_assert_int_ge(j, 0);
  return j;
}

/* The coupler's error at q_j1 = x, q_j2 = y (j3 at identity). */
static double error_at(teal_plant *p, double x, double y) {
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  int nq = teal_plant_nq(p);
  double q[9], perr = NAN;
  ck_assert_int_le(nq, 9);
  int s3 = teal_plant_joint_q_start(p, joint(p, "j3"));
  memset(q, 0, sizeof q);
  q[s3] = 1.0;
  q[teal_plant_joint_q_start(p, joint(p, "j1"))] = x;
  q[teal_plant_joint_q_start(p, joint(p, "j2"))] = y;
  ck_assert_int_eq(teal_plant_num_constraint_rows(p), 1);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, nq), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, &perr), TEAL_OK);
  teal_context_free(ctx);
  return perr;
}

/* q_j2 = ratio q_j1 + offset holds on the relation, and is off by 0.25
 * when q_j2 is moved by 0.25 off it; same errors as the hand-made one. */
static void expect_coupler(teal_plant *p, double ratio, double offset) {
  teal_plant *hand = load(SDF(""), 0);
  ck_assert_int_eq(
      teal_plant_add_coupler_constraint(hand, joint(hand, "j2"), joint(hand, "j1"), ratio, offset),
      0);
  ck_assert_int_eq(teal_plant_finalize(hand), TEAL_OK);
  ck_assert_int_eq(teal_plant_num_constraints(p), 1);
  ck_assert_int_eq(teal_plant_constraint_kind(p, 0), TEAL_CONSTRAINT_COUPLER);
  for (double x = -1.0; x <= 1.0; x += 0.5) {
    double y = ratio * x + offset;
    ck_assert_double_eq_tol(error_at(p, x, y), 0.0, 1e-15);
    ck_assert_double_eq_tol(fabs(error_at(p, x, y + 0.25)), 0.25, 1e-15);
    ck_assert_double_eq_tol(error_at(p, x, 0.3 * y), error_at(hand, x, 0.3 * y), 1e-15);
  }
  teal_plant_free(hand);
}

START_TEST(sdformat_mimic_with_reference) {
  teal_plant *p = load(SDF("<mimic joint='j1' axis='axis'><multiplier>-2</multiplier>"
                           "<offset>0.3</offset><reference>0.1</reference></mimic>"),
                       1);
  /* q_j2 = -2 (q_j1 - 0.1) + 0.3 = -2 q_j1 + 0.5 */
  expect_coupler(p, -2.0, 0.5);
  teal_plant_free(p);
  p = load(SDF("<mimic joint='j1'/>"), 1); /* defaults: q_j2 = q_j1 */
  expect_coupler(p, 1.0, 0.0);
  teal_plant_free(p);
}
END_TEST

START_TEST(drake_mimic) {
  teal_plant *p = load(SDF2("", "<drake:mimic joint='j1' multiplier='1.5' offset='-0.2'/>"), 1);
  expect_coupler(p, 1.5, -0.2);
  teal_plant_free(p);
}
END_TEST

/* The same robot in URDF with <mimic> gives the same constraint. */
START_TEST(same_as_urdf_mimic) {
  teal_plant *s = load(SDF2("", "<drake:mimic joint='j1' multiplier='-0.5' offset='0.7'/>"), 1);
  teal_plant *u = teal_plant_new(0.0, NULL);
  teal_error e = {TEAL_OK, ""};
#define ULINK(n)   \
  "<link name='" n \
  "'><inertial><mass value='1'/><inertia ixx='1' iyy='1' izz='1'/></inertial></link>"
  ck_assert_msg(
      teal_urdf_load_string(
          u,
          "<robot name='r'>" ULINK("a") ULINK("b") ULINK(
              "c") "<joint name='j1' type='continuous'><parent link='world'/><child link='a'/>"
                   "<axis xyz='0 0 1'/></joint>"
                   "<joint name='j2' type='continuous'><parent link='a'/><child link='b'/>"
                   "<axis xyz='0 0 1'/><mimic joint='j1' multiplier='-0.5' offset='0.7'/></joint>"
                   "<joint name='j3' type='floating'><parent link='b'/><child "
                   "link='c'/></joint></robot>",
          NULL, &e) >= 2,
      "%s", e.message);
#undef ULINK
  ck_assert_int_eq(teal_plant_finalize(u), TEAL_OK);
  for (double x = -1.0; x <= 1.0; x += 0.5) {
    ck_assert_double_eq_tol(error_at(s, x, 0.2 - x), error_at(u, x, 0.2 - x), 1e-15);
  }
  teal_plant_free(s);
  teal_plant_free(u);
}
END_TEST

static void expect_failure(const char *xml, int code, const char *needle) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {TEAL_OK, ""};
  TS_EXPECT_ERROR(teal_sdf_load_string(p, xml, &e), code, &e, needle);
  ck_assert_int_eq(teal_plant_num_bodies(p), 1); /* untouched */
  teal_plant_free(p);
}

START_TEST(bad_mimics) {
  expect_failure(SDF("<mimic joint='nope'/>"), TEAL_ENOTFOUND, "mimic joint frame 'nope'");
  expect_failure(SDF("<mimic joint='a'/>"), TEAL_EINVAL, "'a' is not a joint of this model");
  expect_failure(SDF("<mimic joint='j3'/>"), TEAL_EINVAL, "must be single-dof joints");
  expect_failure(SDF("<mimic joint='j2'/>"), TEAL_EINVAL, "cannot mimic itself");
  expect_failure(SDF("<mimic joint='j1' axis='axis2'/>"), TEAL_EINVAL, "single-dof joint's");
  expect_failure(SDF("<mimic/>"), TEAL_EPARSE, "joint");
  expect_failure(SDF("<mimic joint='j1'><multiplier>x</multiplier></mimic>"), TEAL_EPARSE,
                 "multiplier");
  expect_failure(SDF2("<mimic joint='j1'/>", "<drake:mimic joint='j1'/>"), TEAL_EPARSE,
                 "both <mimic> and <drake:mimic>");
  expect_failure(SDF2("", "<drake:mimic joint='j1' offset='inf'/>"), TEAL_ENONFINITE, "offset");
}
END_TEST

int main(void) {
  Suite *s = suite_create("sdf_mimic");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, sdformat_mimic_with_reference);
  tcase_add_test(tc, drake_mimic);
  tcase_add_test(tc, same_as_urdf_mimic);
  tcase_add_test(tc, bad_mimics);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
