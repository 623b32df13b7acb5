/* MJCF <equality> (multibody/parsing/mjcf_equality.c): connect, weld (with
 * and without relpose) and joint each give the same constraint rows as the
 * constraint added by hand to the same model loaded without it (G and the
 * position errors at random states to 1e-12; the hand-made points come
 * from the model's poses worked out here, not from the parser); an MJCF
 * parallelogram four-bar closed by connect is satisfied along its analytic
 * motion, and examples/four_bar_linkage.c's crank-rocker written in MJCF
 * falls under gravity as the hand-built one does (1e-6 after 1 s); active="false", ignored
 * attributes and bad equalities; active, solref and solimp from default
 * classes (the class attribute, else main, never a body's childclass: the
 * expected enabled flags are what MuJoCo 2.2.2 compiles for the same
 * documents), and what a default <equality> may not hold. */
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
#include "teal.h"

#define PI 3.14159265358979323846

/* Two hinged links a and b (with a massless frame "tip" at b's end), a
 * free box c; def is the <default> element (or ""), eq the <equality>
 * content. */
#define CHAIN_D(def, eq)                                                                  \
  "<mujoco>" def                                                                          \
  "<worldbody>"                                                                           \
  "<body name='a' pos='0 0 1' euler='0 0 20'><joint name='ja' axis='0 1 0'/>"             \
  "<geom type='capsule' fromto='0 0 0 1 0 0' size='0.05'/>"                               \
  "<body name='b' pos='1 0 0'><joint name='jb' axis='0 1 0'/>"                            \
  "<geom type='capsule' fromto='0 0 0 1 0 0' size='0.05'/><body name='tip' pos='1 0 0'/>" \
  "</body></body>"                                                                        \
  "<body name='c' pos='2 0.5 1'><freejoint name='fc'/><geom type='box' size='.1 .1 .1'/>" \
  "</body></worldbody><equality>" eq "</equality></mujoco>"
#define CHAIN(eq) CHAIN_D("", eq)

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

/* ---- the four-bar of examples/four_bar_linkage.c, simulated ---------------- */

/* Crank 1, coupler 3, rocker 2.5, ground 3; crank at 1.2 rad. */
#define FB_T2 1.2

/* The assembled angles from the ground line (crank, coupler, rocker). */
static void four_bar_assembled(double *t) {
  double bx = cos(FB_T2), bz = sin(FB_T2), dx = 3 - bx, dz = -bz, e = hypot(dx, dz);
  double along = (9 - 6.25 + e * e) / (2 * e), h = sqrt(9 - along * along);
  double cx = bx + (along * dx - h * dz) / e, cz = bz + (along * dz + h * dx) / e;
  t[0] = FB_T2;
  t[1] = atan2(cz - bz, cx - bx);
  t[2] = atan2(cz, cx - 3);
}

static teal_spatial_inertia bar(double m, double l) {
  return teal_spatial_inertia_from_central(m, teal_vec3_make(0.5 * l, 0, 0),
                                           teal_mat3_diag(1e-4, m * l * l / 12, m * l * l / 12));
}

/* The example's linkage, built as it builds it (angles from the ground). */
static teal_plant *four_bar_by_hand(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_vec3 axis = teal_vec3_make(0, -1, 0);
  teal_spatial_inertia Ma = bar(1.0, 1), Mb = bar(2.0, 3), Mc = bar(1.5, 2.5);
  int crank = teal_plant_add_rigid_body(p, "crank", TEAL_DEFAULT_MODEL_INSTANCE, &Ma);
  int coupler = teal_plant_add_rigid_body(p, "coupler", TEAL_DEFAULT_MODEL_INSTANCE, &Mb);
  int rocker = teal_plant_add_rigid_body(p, "rocker", TEAL_DEFAULT_MODEL_INSTANCE, &Mc);
  teal_rotation I = teal_rotation_identity();
  int tip = teal_plant_add_frame(p, "crank_tip", teal_plant_body_frame(p, crank),
                                 teal_transform_make(I, teal_vec3_make(1, 0, 0)));
  int pivot = teal_plant_add_frame(p, "rocker_pivot", TEAL_WORLD_FRAME,
                                   teal_transform_make(I, teal_vec3_make(3, 0, 0)));
  teal_plant_add_joint(p, "crank", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                       teal_plant_body_frame(p, crank), &axis, 0);
  teal_plant_add_joint(p, "coupler", TEAL_JOINT_REVOLUTE, tip, teal_plant_body_frame(p, coupler),
                       &axis, 0);
  teal_plant_add_joint(p, "rocker", TEAL_JOINT_REVOLUTE, pivot, teal_plant_body_frame(p, rocker),
                       &axis, 0);
  teal_plant_add_ball_constraint(p, coupler, teal_vec3_make(3, 0, 0), rocker,
                                 teal_vec3_make(2.5, 0, 0));
  teal_plant_set_gravity(p, teal_vec3_make(0, 0, -9.81));
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* The same linkage in MJCF, written assembled (MuJoCo's connect takes the
 * rocker's point from the written pose): its angles are from there. */
static teal_plant *four_bar_mjcf(const double *t) {
  static const char fmt[] =
      "<mujoco><compiler angle='radian'/><worldbody>"
      "<body name='crank' euler='0 %.17g 0'><joint name='crank' axis='0 -1 0'/>"
      "<inertial pos='0.5 0 0' mass='1' diaginertia='1e-4 %.17g %.17g'/>"
      "<body name='coupler' pos='1 0 0' euler='0 %.17g 0'><joint name='coupler' axis='0 -1 0'/>"
      "<inertial pos='1.5 0 0' mass='2' diaginertia='1e-4 1.5 1.5'/></body></body>"
      "<body name='rocker' pos='3 0 0' euler='0 %.17g 0'><joint name='rocker' axis='0 -1 0'/>"
      "<inertial pos='1.25 0 0' mass='1.5' diaginertia='1e-4 %.17g %.17g'/></body>"
      "</worldbody><equality><connect body1='coupler' body2='rocker' anchor='3 0 0'/>"
      "</equality></mujoco>";
  char xml[2048];
  double ic = 1.0 / 12, ir = 1.5 * 6.25 / 12;
  snprintf(xml, sizeof xml, fmt, -t[0], ic, ic, -(t[1] - t[0]), -t[2], ir, ir);
  return load(xml, 1);
}

/* The crank angle after 1 s from rest, from the ground line; the
 * constraint error stays below 1e-8 all along. */
static double crank_after_1s(teal_plant *p, const double *q0, double offset) {
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  ck_assert_ptr_nonnull(sim);
  teal_simulator_set_integrator(sim, teal_integrator_rk45);
  teal_simulator_set_accuracy(sim, 1e-8);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q0, 3), TEAL_OK);
  teal_sim_status status;
  double q[3], perr[3];
  for (int k = 1; k <= 10; k++) {
    ck_assert_int_eq(teal_simulator_advance_to(sim, 0.1 * k, &status), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, perr), TEAL_OK);
    ck_assert_double_lt(fabs(perr[0]) + fabs(perr[1]) + fabs(perr[2]), 1e-8);
  }
  ck_assert_int_eq(teal_plant_get_positions(p, ctx, q, 3), TEAL_OK);
  double crank = q[teal_plant_joint_q_start(p, joint(p, "crank"))] + offset;
  teal_simulator_free(sim);
  return crank;
}

START_TEST(four_bar_simulates_like_the_example) {
  double t[3];
  four_bar_assembled(t);
  teal_plant *h = four_bar_by_hand(), *m = four_bar_mjcf(t);
  double qh[3], qm[3] = {0, 0, 0};
  const char *names[3] = {"crank", "coupler", "rocker"};
  double rel[3] = {t[0], t[1] - t[0], t[2]};
  for (int j = 0; j < 3; j++) {
    qh[teal_plant_joint_q_start(h, joint(h, names[j]))] = rel[j];
  }
  double ch = crank_after_1s(h, qh, 0.0), cm = crank_after_1s(m, qm, t[0]);
  ck_assert_double_gt(fabs(ch - t[0]), 0.1); /* it moved */
  ck_assert_double_eq_tol(cm, ch, 1e-6);
  teal_plant_free(h);
  teal_plant_free(m);
}
END_TEST

START_TEST(ignored_attributes_are_warned) {
  teal_mjcf_report r;
  teal_error e = {TEAL_OK, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_int_ge(teal_mjcf_load_string(p,
                                         CHAIN("<connect body1='b' anchor='1 0 0' solref='0.02 1' "
                                               "solimp='0.9 0.95 0.001'/><distance/>"),
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

/* main: inactive with a solref; 'on' (in main): active; 'inner' (in
 * 'on'): nothing of its own. */
#define EQ_DEFAULTS                                                                 \
  "<default><equality active='false' solref='0.05 1'/>"                             \
  "<default class='on'><equality active='true'/><default class='inner'/></default>" \
  "</default>"

START_TEST(equality_defaults_through_classes) {
  teal_mjcf_report r;
  teal_error e = {TEAL_OK, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_msg(teal_mjcf_load_string(p,
                                      CHAIN_D(EQ_DEFAULTS,
                                              "<joint joint1='ja' joint2='jb'/>"
                                              "<joint class='on' joint1='jb' joint2='ja'/>"
                                              "<connect class='inner' body1='c' anchor='0 0 0'/>"
                                              "<weld body1='c' active='true'/>"
                                              "<connect body1='c' anchor='0 0 0'/>"),
                                      NULL, NULL, &r, &e) >= 2,
                "%s", e.message);
  ck_assert_int_eq(teal_plant_num_constraints(p), 5);
  static const int enabled[5] = {0, 1, 1, 1, 0};
  for (int c = 0; c < 5; c++) {
    ck_assert_msg(teal_plant_constraint_default_enabled(p, c) == enabled[c], "constraint %d", c);
  }
  /* every one inherits main's solref, ignored with a warning each */
  ck_assert_int_eq(r.ignored_attributes, 5);
  ck_assert_msg(strstr(r.first_warning, "solref (from its default class) ignored"), "%s",
                r.first_warning);
  teal_plant_free(p);
}
END_TEST

/* A body's childclass does not reach the equalities (they sit outside the
 * bodies): 'off' would disable the connect, but it stays active. */
START_TEST(childclass_does_not_reach_equalities) {
  teal_plant *p = load(
      "<mujoco><default><default class='off'><equality active='false'/></default></default>"
      "<worldbody><body name='k' childclass='off'><joint axis='0 1 0'/>"
      "<geom type='sphere' size='0.1'/></body></worldbody>"
      "<equality><connect body1='k' anchor='0 0 1'/></equality></mujoco>",
      0);
  ck_assert_int_eq(teal_plant_num_constraints(p), 1);
  ck_assert_int_eq(teal_plant_constraint_default_enabled(p, 0), 1);
  teal_plant_free(p);
}
END_TEST

START_TEST(bad_equality_defaults) {
  expect_failure(CHAIN_D("<default><equality polycoef='0 2 0 0 0'/></default>",
                         "<joint joint1='ja' joint2='jb'/>"),
                 TEAL_EPARSE, "attribute 'polycoef' cannot be a default");
  expect_failure(
      CHAIN_D("<default><equality active='maybe'/></default>", "<joint joint1='ja' joint2='jb'/>"),
      TEAL_EPARSE, "active must be");
  expect_failure(CHAIN("<joint class='nope' joint1='ja' joint2='jb'/>"), TEAL_ENOTFOUND,
                 "unknown class 'nope'");
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
  tcase_add_test(tc, four_bar_simulates_like_the_example);
  tcase_add_test(tc, ignored_attributes_are_warned);
  tcase_add_test(tc, bad_equalities);
  tcase_add_test(tc, equality_defaults_through_classes);
  tcase_add_test(tc, childclass_does_not_reach_equalities);
  tcase_add_test(tc, bad_equality_defaults);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
