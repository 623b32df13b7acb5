/* Acceleration limits (multibody/tree/acceleration_limits.h): per-joint
 * values round-trip, the plant-wide vectors place them at each joint's
 * velocities with infinities elsewhere (free bodies included), they leave
 * the dynamics untouched, and bad values, indices, sizes and call order
 * fail with their codes and messages. */
#include <check.h>
#include <math.h>

#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/acceleration_limits.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

typedef struct model {
  teal_plant *p;
  int hinge, ball, free_body;
} model;

/* A hinge from the world, a ball joint below it, and a free body. */
static model make_model(void) {
  model m;
  m.p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(1.0, teal_vec3_make(0.5, 0, 0),
                                                             teal_mat3_diag(0.01, 0.01, 0.01));
  int b1 = teal_plant_add_rigid_body(m.p, "b1", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int b2 = teal_plant_add_rigid_body(m.p, "b2", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  m.free_body = teal_plant_add_rigid_body(m.p, "b3", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  m.hinge = teal_plant_add_joint(m.p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                 teal_plant_body_frame(m.p, b1), &z, 0.0);
  m.ball = teal_plant_add_joint(m.p, "ball", TEAL_JOINT_BALL, teal_plant_body_frame(m.p, b1),
                                teal_plant_body_frame(m.p, b2), NULL, 0.0);
  ck_assert_int_ge(m.hinge, 0);
  ck_assert_int_ge(m.ball, 0);
  return m;
}

START_TEST(test_round_trip_and_vectors) {
  model m = make_model();
  double lo1[1], hi1[1], lo3[3], hi3[3];
  ck_assert_int_eq(teal_plant_get_joint_acceleration_limits(m.p, m.ball, lo3, hi3, 3, NULL),
                   TEAL_OK);
  for (int i = 0; i < 3; i++) {
    ck_assert(lo3[i] == -INFINITY && hi3[i] == INFINITY);
  }
  const double hl[1] = {-2.0}, hh[1] = {3.0};
  const double bl[3] = {-1.0, -INFINITY, 0.5}, bh[3] = {1.0, 4.0, 0.5};
  ck_assert_int_eq(teal_plant_set_joint_acceleration_limits(m.p, m.hinge, hl, hh), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_joint_acceleration_limits(m.p, m.ball, bl, bh), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_joint_acceleration_limits(m.p, m.hinge, lo1, hi1, 1, NULL),
                   TEAL_OK);
  ck_assert(lo1[0] == -2.0 && hi1[0] == 3.0);
  ck_assert_int_eq(teal_plant_finalize(m.p), TEAL_OK);
  int nv = teal_plant_nv(m.p);
  ck_assert_int_eq(nv, 1 + 3 + 6);
  double lo[10], hi[10];
  ck_assert_int_eq(teal_plant_get_acceleration_lower_limits(m.p, lo, nv, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_acceleration_upper_limits(m.p, hi, nv, NULL), TEAL_OK);
  int vh = teal_plant_joint_v_start(m.p, m.hinge), vb = teal_plant_joint_v_start(m.p, m.ball);
  int set = 0;
  for (int i = 0; i < nv; i++) {
    if (i == vh) {
      ck_assert(lo[i] == -2.0 && hi[i] == 3.0);
    } else if (i >= vb && i < vb + 3) {
      ck_assert(lo[i] == bl[i - vb] && hi[i] == bh[i - vb]);
    } else {
      ck_assert(lo[i] == -INFINITY && hi[i] == INFINITY); /* the free body */
      set++;
    }
  }
  ck_assert_int_eq(set, 6);
  teal_plant_free(m.p);
}
END_TEST

/* Not enforced: the accelerations of a plant with tight limits equal those
 * of the same plant without them (gravity drives the hinge well past 1e-3). */
START_TEST(test_not_enforced) {
  double vd[2][10];
  for (int limited = 0; limited < 2; limited++) {
    model m = make_model();
    ck_assert_int_eq(teal_plant_set_gravity(m.p, teal_vec3_make(0, -9.81, 0)), TEAL_OK);
    if (limited) {
      const double l[1] = {-1e-3}, h[1] = {1e-3}, bl[3] = {0, 0, 0}, bh[3] = {0, 0, 0};
      ck_assert_int_eq(teal_plant_set_joint_acceleration_limits(m.p, m.hinge, l, h), TEAL_OK);
      ck_assert_int_eq(teal_plant_set_joint_acceleration_limits(m.p, m.ball, bl, bh), TEAL_OK);
    }
    ck_assert_int_eq(teal_plant_finalize(m.p), TEAL_OK);
    teal_context *ctx = teal_context_new(teal_plant_system(m.p), NULL);
    double q[4] = {0.3, 0.9, 0.1, 0.3}; /* a unit quaternion */
    teal_transform X = teal_transform_make(teal_rotation_identity(), teal_vec3_make(1, 0, 0));
    ck_assert_int_eq(teal_plant_set_free_body_pose(m.p, ctx, m.free_body, X), TEAL_OK);
    /* hinge angle and a tilted ball */
    int qh = teal_plant_joint_q_start(m.p, m.hinge), qbs = teal_plant_joint_q_start(m.p, m.ball);
    double all[12];
    ck_assert_int_eq(teal_plant_get_positions(m.p, ctx, all, 12), TEAL_OK);
    all[qh] = 0.4;
    for (int i = 0; i < 4; i++) {
      all[qbs + i] = q[i];
    }
    ck_assert_int_eq(teal_plant_set_positions(m.p, ctx, all, 12), TEAL_OK);
    const double *vdot;
    ck_assert_int_eq(teal_plant_eval_generalized_acceleration(m.p, ctx, &vdot), TEAL_OK);
    for (int i = 0; i < 10; i++) {
      vd[limited][i] = vdot[i];
    }
    ck_assert_double_gt(fabs(vdot[teal_plant_joint_v_start(m.p, m.hinge)]), 1e-2);
    teal_context_free(ctx);
    teal_plant_free(m.p);
  }
  for (int i = 0; i < 10; i++) {
    ck_assert_double_eq(vd[0][i], vd[1][i]);
  }
}
END_TEST

START_TEST(test_setter_errors) {
  const double ok[3] = {-1, -1, -1}, hi[3] = {1, 1, 1}, nan3[3] = {0, NAN, 0}, low3[3] = {1, 1, 2};
  for (int which = 0; which < 5; which++) {
    model m = make_model();
    int rc;
    if (which == 0) {
      rc = teal_plant_set_joint_acceleration_limits(m.p, 17, ok, hi);
    } else if (which == 1) {
      rc = teal_plant_set_joint_acceleration_limits(m.p, m.ball, NULL, hi);
    } else if (which == 2) {
      rc = teal_plant_set_joint_acceleration_limits(m.p, m.ball, nan3, hi);
    } else if (which == 3) {
      rc = teal_plant_set_joint_acceleration_limits(m.p, m.ball, low3, hi);
    } else {
      ck_assert_int_eq(teal_plant_finalize(m.p), TEAL_OK);
      rc = teal_plant_set_joint_acceleration_limits(m.p, m.ball, ok, hi);
    }
    static const int codes[] = {TEAL_ENOTFOUND, TEAL_EINVAL, TEAL_EINVAL, TEAL_EINVAL, TEAL_ESTATE};
    static const char *const needles[] = {
        "unknown joint 17", "joint 'ball': acceleration limits: NULL array",
        "acceleration limits of velocity 1: lower nan",
        "acceleration limits of velocity 2: lower 2 and upper 1", "after finalize"};
    ts_expect_error_at(__FILE__, __LINE__, rc, codes[which], teal_plant_error(m.p), needles[which]);
    teal_plant_free(m.p);
  }
}
END_TEST

START_TEST(test_getter_errors) {
  model m = make_model();
  double a[10], b[10];
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_acceleration_lower_limits(m.p, a, 10, &err), TEAL_ESTATE, &err,
                  "not finalized");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_joint_acceleration_limits(m.p, m.ball, a, b, 1, &err), TEAL_ESIZE,
                  &err, "joint 'ball' has 3 velocities, got room for 1");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_joint_acceleration_limits(m.p, -1, a, b, 1, &err), TEAL_ENOTFOUND,
                  &err, "unknown joint -1");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_joint_acceleration_limits(m.p, m.ball, a, NULL, 3, &err),
                  TEAL_EINVAL, &err, "NULL output array");
  ck_assert_int_eq(teal_plant_finalize(m.p), TEAL_OK);
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_acceleration_upper_limits(m.p, a, 9, &err), TEAL_ESIZE, &err,
                  "the plant has 10 velocities, got room for 9");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_get_acceleration_upper_limits(NULL, a, 10, &err), TEAL_EINVAL, &err,
                  "NULL plant");
  ck_assert_int_eq(teal_plant_get_acceleration_lower_limits(m.p, NULL, 10, NULL), TEAL_EINVAL);
  teal_plant_free(m.p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("acceleration_limits");
  TCase *tc = tcase_create("acceleration_limits");
  tcase_add_test(tc, test_round_trip_and_vectors);
  tcase_add_test(tc, test_not_enforced);
  tcase_add_test(tc, test_setter_errors);
  tcase_add_test(tc, test_getter_errors);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
