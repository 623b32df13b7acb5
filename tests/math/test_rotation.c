/* math/rotation: orthonormality, axis-angle composition and round trips,
 * rotation <-> quaternion round trips (half turns and every Shepperd branch
 * included) and the roll-pitch-yaw convention and its round trip at and near
 * gimbal lock. */
#include <check.h>
#include <math.h>

#include "math/rotation.h"
#include "support/mb_math_fixtures.h"
#include "support/test_support.h"

static const double kPi = 3.14159265358979323846;
static const double kTol = 1e-14;

START_TEST(test_rotation_orthonormal) {
  unsigned s = 12345u;
  for (int k = 0; k < 200; k++) {
    teal_rotation R = ts_mb_rand_rotation(&s);
    teal_mat3 RRt = teal_rotation_mul(R, teal_rotation_inverse(R));
    ck_assert_double_le(teal_mat3_max_abs_diff(RRt, teal_mat3_identity()), kTol);
    ck_assert_double_eq_tol(teal_mat3_det(R), 1.0, kTol);
    ck_assert(teal_rotation_is_orthonormal(R, 1e-13));
    /* R_AB' v_A undoes R_AB v_B */
    teal_vec3 v = ts_mb_rand_vec3(&s, -1, 1);
    ck_assert_double_le(
        ts_mb_vec3_diff(teal_rotation_apply_inverse(R, teal_rotation_apply(R, v)), v), kTol);
  }
  teal_rotation bad = teal_mat3_scale(teal_rotation_identity(), 1.001);
  ck_assert(!teal_rotation_is_orthonormal(bad, 1e-6));
  teal_rotation reflect = teal_mat3_diag(1, 1, -1);
  ck_assert(!teal_rotation_is_orthonormal(reflect, 1e-6));
  teal_rotation nan = teal_rotation_identity();
  nan.m[4] = NAN;
  ck_assert(!teal_rotation_is_orthonormal(nan, 1e-6));
}
END_TEST

START_TEST(test_axis_angle) {
  /* a quarter turn about z maps x to y */
  teal_rotation Rz = teal_rotation_from_axis_angle(teal_vec3_make(0, 0, 2), kPi / 2);
  ck_assert_double_le(ts_mb_vec3_diff(teal_rotation_apply(Rz, teal_vec3_make(1, 0, 0)),
                                teal_vec3_make(0, 1, 0)), kTol);
  unsigned s = 777u;
  for (int k = 0; k < 100; k++) {
    teal_vec3 axis = ts_mb_rand_vec3(&s, -1, 1);
    double a = ts_rand_uniform(&s, -3, 3), b = ts_rand_uniform(&s, -3, 3);
    /* rotations about one axis compose by adding angles */
    teal_rotation Rab = teal_rotation_mul(teal_rotation_from_axis_angle(axis, a),
                                          teal_rotation_from_axis_angle(axis, b));
    teal_rotation Rsum = teal_rotation_from_axis_angle(axis, a + b);
    ck_assert_double_le(teal_mat3_max_abs_diff(Rab, Rsum), 4 * kTol);
    /* the axis is fixed; round trip through to_axis_angle */
    ck_assert_double_le(ts_mb_vec3_diff(teal_rotation_apply(Rsum, axis), axis), 4 * kTol);
    teal_vec3 k2;
    double t2;
    teal_rotation_to_axis_angle(Rsum, &k2, &t2);
    teal_rotation R2 = teal_rotation_from_axis_angle(k2, t2);
    ck_assert_double_le(teal_mat3_max_abs_diff(R2, Rsum), 4 * kTol);
    ck_assert(t2 >= 0.0 && t2 <= kPi);
  }
  /* a zero axis gives the identity */
  teal_rotation I = teal_rotation_from_axis_angle(teal_vec3_zero(), 1.0);
  ck_assert_double_eq(teal_mat3_max_abs_diff(I, teal_mat3_identity()), 0.0);
}
END_TEST

START_TEST(test_quaternion_round_trip) {
  unsigned s = 4242u;
  for (int k = 0; k < 500; k++) {
    teal_quaternion q = ts_mb_rand_quaternion(&s);
    teal_quaternion q2 = teal_rotation_to_quaternion(teal_rotation_from_quaternion(q));
    ck_assert_double_le(ts_mb_quat_diff(q, q2), 4 * kTol);
    ck_assert_double_ge(q2.w, 0.0);
  }
  /* near and at a half turn (w ~ 0, where a trace-only method fails) */
  const double eps[] = {0.0, 1e-15, 1e-12, 1e-9, 1e-6, 1e-3};
  for (int k = 0; k < 60; k++) {
    teal_vec3 axis = ts_mb_rand_vec3(&s, -1, 1);
    axis = teal_vec3_scale(axis, 1.0 / teal_vec3_norm(axis));
    double angle = kPi - eps[k % 6];
    teal_rotation R = teal_rotation_from_axis_angle(axis, angle);
    teal_quaternion q = teal_rotation_to_quaternion(R);
    teal_vec3 u = teal_vec3_scale(axis, sin(0.5 * angle));
    teal_quaternion expect = teal_quaternion_make(cos(0.5 * angle), u.v[0], u.v[1], u.v[2]);
    ck_assert_double_le(ts_mb_quat_diff(q, expect), 4 * kTol);
    ck_assert_double_le(teal_mat3_max_abs_diff(teal_rotation_from_quaternion(q), R), 4 * kTol);
  }
  /* the principal half turns hit each Shepperd branch */
  const teal_vec3 axes[3] = {{{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}};
  for (int i = 0; i < 3; i++) {
    teal_quaternion q = teal_rotation_to_quaternion(teal_rotation_from_axis_angle(axes[i], kPi));
    teal_quaternion expect = teal_quaternion_make(0, axes[i].v[0], axes[i].v[1], axes[i].v[2]);
    ck_assert_double_le(ts_mb_quat_diff(q, expect), kTol);
  }
}
END_TEST

START_TEST(test_rpy) {
  /* the convention: R = Rz(y) Ry(p) Rx(r), extrinsic X-Y-Z */
  teal_vec3 rpy = teal_vec3_make(0.3, -0.7, 2.1);
  teal_rotation R = teal_rotation_from_rpy(rpy);
  teal_rotation Rx = teal_rotation_from_axis_angle(teal_vec3_make(1, 0, 0), 0.3);
  teal_rotation Ry = teal_rotation_from_axis_angle(teal_vec3_make(0, 1, 0), -0.7);
  teal_rotation Rz = teal_rotation_from_axis_angle(teal_vec3_make(0, 0, 1), 2.1);
  teal_rotation expect = teal_rotation_mul(Rz, teal_rotation_mul(Ry, Rx));
  ck_assert_double_le(teal_mat3_max_abs_diff(R, expect), 4 * kTol);
  unsigned s = 31337u;
  for (int k = 0; k < 300; k++) {
    teal_vec3 a = teal_vec3_make(ts_rand_uniform(&s, -kPi, kPi),
                                 ts_rand_uniform(&s, -0.5 * kPi, 0.5 * kPi),
                                 ts_rand_uniform(&s, -kPi, kPi));
    teal_vec3 b = teal_rotation_to_rpy(teal_rotation_from_rpy(a));
    /* angles away from gimbal lock come back; the matrix always does */
    if (fabs(fabs(a.v[1]) - 0.5 * kPi) > 0.1) {
      ck_assert_double_le(ts_mb_vec3_diff(a, b), 1e-13);
    }
    teal_rotation Ra = teal_rotation_from_rpy(a);
    ck_assert_double_le(teal_mat3_max_abs_diff(teal_rotation_from_rpy(b), Ra), 4 * kTol);
  }
  /* at and near gimbal lock the matrix still round trips to rounding */
  const double off[] = {0.0, 1e-12, 1e-8, -1e-10};
  for (int k = 0; k < 8; k++) {
    double p = (k % 2 ? -1 : 1) * (0.5 * kPi - off[k / 2]);
    teal_rotation Ra = teal_rotation_from_rpy(teal_vec3_make(0.4, p, -1.3));
    teal_vec3 b = teal_rotation_to_rpy(Ra);
    ck_assert_double_le(teal_mat3_max_abs_diff(teal_rotation_from_rpy(b), Ra), 4 * kTol);
    ck_assert(fabs(b.v[1]) <= 0.5 * kPi + kTol);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("rotation");
  TCase *tc = tcase_create("rotation");
  tcase_add_test(tc, test_rotation_orthonormal);
  tcase_add_test(tc, test_axis_angle);
  tcase_add_test(tc, test_quaternion_round_trip);
  tcase_add_test(tc, test_rpy);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
