/* MJCF <equality> (multibody/parsing/mjcf_equality.c): connect, weld (with
 * and without relpose) and joint each give the same constraint rows as the
 * constraint added by hand to the same model loaded without it (G and the
 * position errors at random states to 1e-12; the hand-made points come
 * from the model's poses worked out here, not from the parser); an MJCF
 * parallelogram four-bar closed by connect is satisfied along its analytic
 * motion; active="false", ignored attributes and bad equalities. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "math/quaternion.h"
#include "mjcf_compare.h"
#include "multibody/constraints/constraint_operators.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "math/rotation.h"
#include "multibody/tree/plant_model.h"
#include "support/error_messages.h"

#define PI 3.14159265358979323846

/* Two hinged links a and b (with a massless frame "tip" at b's end), a
 * free box c; eq is the <equality> content. */
#define CHAIN(eq)                                                                         \
  "<mujoco><worldbody>"                                                                   \
  "<body name='a' pos='0 0 1' euler='0 0 20'><joint name='ja' axis='0 1 0'/>"             \
  "<geom type='capsule' fromto='0 0 0 1 0 0' size='0.05'/>"                               \
  "<body name='b' pos='1 0 0'><joint name='jb' axis='0 1 0'/>"                            \
  "<geom type='capsule' fromto='0 0 0 1 0 0' size='0.05'/><body name='tip' pos='1 0 0'/>" \
  "</body></body>"                                                                        \
  "<body name='c' pos='2 0.5 1'><freejoint name='fc'/><geom type='box' size='.1 .1 .1'/>" \
  "</body></worldbody><equality>" eq "</equality></mujoco>"

static teal_plant *load(const char *xml, int finalize) {
  teal_error e = {TEAL_OK, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  ck_assert_msg(teal_mjcf_load_string(p, xml, NULL, NULL, NULL, &e) >= 2, "%s", e.message);
  ck_assert_int_eq(finalize ? teal_plant_finalize(p) : TEAL_OK, TEAL_OK);
  return p;
}

static int body(const teal_plant *p, const char *name) {
  int b = teal_plant_get_body_by_name(p, name, -1, NULL);
  ck_assert_int_ge(b, 0);
  return b;
}

static int joint(const teal_plant *p, const char *name) {
  int j = teal_plant_get_joint_by_name(p, name, -1, NULL);
  ck_assert_int_ge(j, 0);
  return j;
}

/* G and the position errors of both plants (same joints in the same
 * order, one loaded) at random states agree to 1e-12. */
static void expect_same_rows(teal_plant *a, teal_plant *b) {
  int m = teal_plant_num_constraint_rows(a), nq = teal_plant_nq(a), nv = teal_plant_nv(a);
  ck_assert_int_eq(m, teal_plant_num_constraint_rows(b));
  ck_assert_int_gt(m, 0);
  teal_context *ca = teal_context_new(teal_plant_system(a), NULL);
  teal_context *cb = teal_context_new(teal_plant_system(b), NULL);
  double q[16], Ga[6 * 16], Gb[6 * 16], ea[6], eb[6];
  srand(7);
  int qc = teal_plant_joint_q_start(a, joint(a, "fc"));
  for (int trial = 0; trial < 5; trial++) {
    for (int i = 0; i < nq; i++) {
      q[i] = 2.0 * rand() / RAND_MAX - 1.0;
    }
    teal_quaternion quat = teal_quaternion_make(q[qc], q[qc + 1], q[qc + 2], q[qc + 3]);
    ck_assert_int_eq(teal_quaternion_normalize(&quat), TEAL_OK);
    q[qc] = quat.w, q[qc + 1] = quat.x, q[qc + 2] = quat.y, q[qc + 3] = quat.z;
    ck_assert_int_eq(teal_plant_set_positions(a, ca, q, nq), TEAL_OK);
    ck_assert_int_eq(teal_plant_set_positions(b, cb, q, nq), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_constraint_jacobian(a, ca, Ga), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_constraint_jacobian(b, cb, Gb), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_constraint_position_errors(a, ca, ea), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_constraint_position_errors(b, cb, eb), TEAL_OK);
    for (int i = 0; i < m * nv; i++) {
      ck_assert_double_eq_tol(Ga[i], Gb[i], 1e-12);
    }
    for (int i = 0; i < m; i++) {
      ck_assert_double_eq_tol(ea[i], eb[i], 1e-12);
    }
  }
  teal_context_free(ca);
  teal_context_free(cb);
}

/* a's frame in the world at the reference configuration */
static teal_transform X_Wa(void) {
  double t = 20.0 * PI / 180.0;
  return teal_transform_make(teal_rotation_from_axis_angle(teal_vec3_make(0, 0, 1), t),
                             teal_vec3_make(0, 0, 1));
}

START_TEST(connect_is_a_ball_constraint) {
  teal_plant *loaded = load(CHAIN("<connect body1='tip' body2='c' anchor='0.1 0.2 0'/>"), 1);
  teal_plant *hand = load(CHAIN(""), 0);
  /* the anchor in b (tip is 1 along b's x); c's point: the same world
   * point at the reference, b is 1 along a's x with a's orientation */
  teal_vec3 p_b = teal_vec3_make(1.1, 0.2, 0.0);
  teal_vec3 p_W = teal_transform_apply(X_Wa(), teal_vec3_make(2.1, 0.2, 0.0));
  teal_vec3 p_c = teal_vec3_sub(p_W, teal_vec3_make(2, 0.5, 1));
  ck_assert_int_eq(teal_plant_add_ball_constraint(hand, body(hand, "b"), p_b, body(hand, "c"), p_c),
                   0);
  ck_assert_int_eq(teal_plant_finalize(hand), TEAL_OK);
  ck_assert_int_eq(teal_plant_constraint_kind(loaded, 0), TEAL_CONSTRAINT_BALL);
  expect_same_rows(loaded, hand);
  teal_plant_free(loaded);
  teal_plant_free(hand);
}
END_TEST

START_TEST(weld_with_relpose) {
  teal_plant *loaded =
      load(CHAIN("<weld body1='a' body2='c' relpose='0.5 0 0.2 0.9 0 0.1 0.3'/>"), 1);
  teal_plant *hand = load(CHAIN(""), 0);
  teal_quaternion qr = teal_quaternion_make(0.9, 0, 0.1, 0.3);
  teal_quaternion_normalize(&qr);
  teal_transform X_aP =
      teal_transform_make(teal_rotation_from_quaternion(qr), teal_vec3_make(0.5, 0, 0.2));
  int a = body(hand, "a"), c = body(hand, "c");
  ck_assert_int_eq(teal_plant_add_weld_constraint(hand, a, X_aP, c, teal_transform_identity()), 0);
  ck_assert_int_eq(teal_plant_finalize(hand), TEAL_OK);
  ck_assert_int_eq(teal_plant_constraint_kind(loaded, 0), TEAL_CONSTRAINT_WELD);
  expect_same_rows(loaded, hand);
  teal_plant_free(loaded);
  teal_plant_free(hand);
}
END_TEST

/* No relpose (or MuJoCo's default, a zero quaternion): the pose at the
 * reference configuration; c to the world, and tip (a frame on b) to c. */
START_TEST(weld_without_relpose) {
  const char *docs[2] = {CHAIN("<weld body1='c'/>"),
                         CHAIN("<weld body1='tip' body2='c' relpose='1 2 3 0 0 0 0'/>")};
  for (int d = 0; d < 2; d++) {
    teal_plant *loaded = load(docs[d], 1);
    teal_plant *hand = load(CHAIN(""), 0);
    int c = body(hand, "c");
    teal_transform X_Wc = teal_transform_make(teal_rotation_identity(), teal_vec3_make(2, .5, 1));
    teal_transform X_WA = teal_transform_identity(), X_AB = teal_transform_identity();
    int A = c, B = TEAL_WORLD_BODY;
    if (d == 1) { /* A = b, its frame at a's end with a's orientation */
      A = body(hand, "b"), B = c;
      X_WA = teal_transform_compose(
          X_Wa(), teal_transform_make(teal_rotation_identity(), teal_vec3_make(1, 0, 0)));
      X_AB = X_Wc;
    }
    /* frame P on A at A's pose of B: X_AP = X_WA^-1 X_WB */
    teal_transform X_AP = d == 0 ? teal_transform_inverse(X_Wc)
                                 : teal_transform_compose(teal_transform_inverse(X_WA), X_AB);
    ck_assert_int_eq(teal_plant_add_weld_constraint(hand, A, X_AP, B, teal_transform_identity()),
                     0);
    ck_assert_int_eq(teal_plant_finalize(hand), TEAL_OK);
    expect_same_rows(loaded, hand);
    teal_plant_free(loaded);
    teal_plant_free(hand);
  }
}
END_TEST

START_TEST(joint_is_a_coupler_and_active_false_disables) {
  teal_plant *loaded = load(CHAIN("<joint joint1='jb' joint2='ja' polycoef='0.1 -2 0 0 0'/>"), 1);
  teal_plant *hand = load(CHAIN(""), 0);
  ck_assert_int_eq(
      teal_plant_add_coupler_constraint(hand, joint(hand, "jb"), joint(hand, "ja"), -2.0, 0.1), 0);
  ck_assert_int_eq(teal_plant_finalize(hand), TEAL_OK);
  ck_assert_int_eq(teal_plant_constraint_kind(loaded, 0), TEAL_CONSTRAINT_COUPLER);
  ck_assert_int_eq(teal_plant_constraint_default_enabled(loaded, 0), 1);
  expect_same_rows(loaded, hand);
  teal_plant_free(loaded);
  loaded = load(CHAIN("<joint joint1='jb' joint2='ja' active='false'/>"), 1);
  ck_assert_int_eq(teal_plant_constraint_default_enabled(loaded, 0), 0);
  teal_plant_free(loaded);
  teal_plant_free(hand);
}
END_TEST

/* A parallelogram: crank and rocker (length 1, pivots 2 apart) joined by
 * a coupler of length 2; the loop holds at (t, -t, t) for every t. */
START_TEST(four_bar_closed_by_connect) {
  teal_plant *p = load(
      "<mujoco><worldbody>"
      "<body name='crank'><joint name='j1' axis='0 1 0'/>"
      "<geom type='capsule' fromto='0 0 0 0 0 1' size='0.05'/>"
      "<body name='coupler' pos='0 0 1'><joint name='j2' axis='0 1 0'/>"
      "<geom type='capsule' fromto='0 0 0 2 0 0' size='0.05'/></body></body>"
      "<body name='rocker' pos='2 0 0'><joint name='j3' axis='0 1 0'/>"
      "<geom type='capsule' fromto='0 0 0 0 0 1' size='0.05'/></body></worldbody>"
      "<equality><connect body1='coupler' body2='rocker' anchor='2 0 0'/></equality></mujoco>",
      1);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  int s1 = teal_plant_joint_q_start(p, joint(p, "j1"));
  int s2 = teal_plant_joint_q_start(p, joint(p, "j2"));
  int s3 = teal_plant_joint_q_start(p, joint(p, "j3"));
  double q[3], e[3];
  for (double t = -1.0; t <= 1.0; t += 0.25) {
    q[s1] = t, q[s2] = -t, q[s3] = t;
    ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 3), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, e), TEAL_OK);
    ck_assert_double_lt(fabs(e[0]) + fabs(e[1]) + fabs(e[2]), 1e-12);
  }
  /* the rocker off by 0.3: its end is 2 sin(0.15) from the coupler's */
  q[s1] = 0.0, q[s2] = 0.0, q[s3] = 0.3;
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 3), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, e), TEAL_OK);
  ck_assert_double_eq_tol(sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]), 2 * sin(0.15), 1e-12);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(ignored_attributes_are_warned) {
  teal_mjcf_report r;
  teal_error e = {TEAL_OK, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_int_ge(teal_mjcf_load_string(p,
                                         CHAIN("<connect body1='b' anchor='1 0 0' solref='0.02 1' "
                                               "solimp='0.9 0.95 0.001'/><tendon/>"),
                                         NULL, NULL, &r, &e),
                   2);
  ck_assert_int_eq(r.ignored_attributes, 2);
  ck_assert_int_eq(r.ignored_elements, 1);
  ck_assert_msg(strstr(r.first_warning, "solref ignored"), "%s", r.first_warning);
  ck_assert_int_eq(teal_plant_num_constraints(p), 1);
  teal_plant_free(p);
}
END_TEST

static void expect_failure(const char *eq, int code, const char *needle) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {TEAL_OK, ""};
  TS_EXPECT_ERROR(teal_mjcf_load_string(p, eq, NULL, NULL, NULL, &e), code, &e, needle);
  ck_assert_int_eq(teal_plant_num_bodies(p), 1); /* untouched */
  teal_plant_free(p);
}

START_TEST(bad_equalities) {
  expect_failure(CHAIN("<connect body1='zz' anchor='0 0 0'/>"), TEAL_ENOTFOUND,
                 "unknown body 'zz'");
  expect_failure(CHAIN("<connect body1='a'/>"), TEAL_EPARSE, "anchor");
  expect_failure(CHAIN("<connect body1='b' body2='tip' anchor='0 0 0'/>"), TEAL_EINVAL,
                 "move as one");
  expect_failure(CHAIN("<weld body1='a' relpose='1 2'/>"), TEAL_EPARSE, "relpose");
  expect_failure(CHAIN("<weld site1='s' site2='t'/>"), TEAL_EPARSE, "site1/site2");
  expect_failure(CHAIN("<joint joint1='ja' joint2='jb' polycoef='0 1 0.5 0 0'/>"), TEAL_EINVAL,
                 "quadratic or higher");
  expect_failure(CHAIN("<joint joint1='ja'/>"), TEAL_EINVAL, "without joint2");
  expect_failure(CHAIN("<joint joint1='ja' joint2='fc'/>"), TEAL_EINVAL, "hinge or slide");
  expect_failure(CHAIN("<joint joint1='ja' joint2='ja'/>"), TEAL_EINVAL, "the same joint");
  expect_failure(CHAIN("<joint joint1='ja' joint2='nope'/>"), TEAL_ENOTFOUND, "unknown joint");
  expect_failure(CHAIN("<weld body1='a' active='maybe'/>"), TEAL_EPARSE, "active");
}
END_TEST

int main(void) {
  Suite *s = suite_create("mjcf_equality");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, connect_is_a_ball_constraint);
  tcase_add_test(tc, weld_with_relpose);
  tcase_add_test(tc, weld_without_relpose);
  tcase_add_test(tc, joint_is_a_coupler_and_active_false_disables);
  tcase_add_test(tc, four_bar_closed_by_connect);
  tcase_add_test(tc, ignored_attributes_are_warned);
  tcase_add_test(tc, bad_equalities);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
