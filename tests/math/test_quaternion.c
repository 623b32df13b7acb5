/* math/quaternion: the Hamilton product against the rotation matrices,
 * rotation of vectors, normalization and its failures, the rate maps
 * (parent and body) and their inverses, and RK4 integration of the rate
 * against the exact rotation. */
#include <check.h>
#include <math.h>

#include "math/quaternion.h"
#include "math/rotation.h"
#include "support/mb_math_fixtures.h"
#include "support/test_support.h"

static const double kTol = 1e-14;

START_TEST(test_quaternion_algebra) {
  unsigned s = 99u;
  for (int k = 0; k < 100; k++) {
    teal_quaternion a = ts_mb_rand_quaternion(&s), b = ts_mb_rand_quaternion(&s);
    /* the Hamilton product matches the matrix product: R(a b) = R(a) R(b) */
    teal_rotation Rab = teal_rotation_from_quaternion(teal_quaternion_mul(a, b));
    teal_rotation RaRb = teal_rotation_mul(teal_rotation_from_quaternion(a),
                                           teal_rotation_from_quaternion(b));
    ck_assert_double_le(teal_mat3_max_abs_diff(Rab, RaRb), 4 * kTol);
    /* rotating a vector agrees with the matrix; the conjugate undoes it */
    teal_vec3 v = ts_mb_rand_vec3(&s, -1, 1);
    teal_vec3 va = teal_quaternion_rotate(a, v);
    ck_assert_double_le(
        ts_mb_vec3_diff(va, teal_rotation_apply(teal_rotation_from_quaternion(a), v)), 4 * kTol);
    ck_assert_double_le(
        ts_mb_vec3_diff(teal_quaternion_rotate(teal_quaternion_conjugate(a), va), v), 4 * kTol);
    /* a non-unit quaternion gives the same rotation as its normalization */
    teal_quaternion a3 = teal_quaternion_make(3 * a.w, 3 * a.x, 3 * a.y, 3 * a.z);
    ck_assert_double_le(teal_mat3_max_abs_diff(teal_rotation_from_quaternion(a3),
                                               teal_rotation_from_quaternion(a)), 4 * kTol);
  }
  teal_quaternion z = teal_quaternion_make(0, 0, 0, 0);
  ck_assert_int_eq(teal_quaternion_normalize(&z), TEAL_EINVAL);
  teal_quaternion n = teal_quaternion_make(1, NAN, 0, 0);
  ck_assert_int_eq(teal_quaternion_normalize(&n), TEAL_ENONFINITE);
  ck_assert_double_eq(n.w, 1.0); /* unchanged on failure */
  teal_quaternion q = teal_quaternion_make(0, 3, 0, 4);
  ck_assert_int_eq(teal_quaternion_normalize(&q), TEAL_OK);
  ck_assert_double_eq_tol(q.x, 0.6, kTol);
  ck_assert_double_eq_tol(q.z, 0.8, kTol);
}
END_TEST

/* Normalizable means |q|^2 is a normal number: not zero, subnormal,
 * infinite or NaN. */
START_TEST(test_quaternion_is_normalizable) {
  const double ok[][4] = {{1, 0, 0, 0}, {0, 0, 0, -2}, {1e-150, 0, 0, 0}, {1e150, 1e150, 0, 0}};
  const double bad[][4] = {{0, 0, 0, 0},     {1e-160, 0, 0, 0}, {1e-200, 1e-200, 0, 0},
                           {1e200, 0, 0, 0}, {NAN, 1, 0, 0},    {INFINITY, 0, 0, 0}};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    ck_assert_int_eq(teal_quaternion_is_normalizable(ok[i]), 1);
  }
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ck_assert_int_eq(teal_quaternion_is_normalizable(bad[i]), 0);
  }
}
END_TEST

START_TEST(test_quaternion_rate_maps) {
  unsigned s = 3030u;
  for (int k = 0; k < 100; k++) {
    teal_quaternion q = ts_mb_rand_quaternion(&s);
    teal_vec3 w_B = ts_mb_rand_vec3(&s, -2, 2);
    teal_vec3 w_P = teal_quaternion_rotate(q, w_B);
    /* both forms give the same qdot for the same physical angular velocity */
    teal_quaternion d1 = teal_quaternion_rate_from_w_parent(q, w_P);
    teal_quaternion d2 = teal_quaternion_rate_from_w_body(q, w_B);
    double dd = fabs(d1.w - d2.w) + fabs(d1.x - d2.x) + fabs(d1.y - d2.y) + fabs(d1.z - d2.z);
    ck_assert_double_le(dd, 8 * kTol);
    /* the explicit E matrices agree, and qdot is orthogonal to q */
    double EP[12], EB[12];
    teal_quaternion_rate_matrix_parent(q, EP);
    teal_quaternion_rate_matrix_body(q, EB);
    double qd[4] = {d1.w, d1.x, d1.y, d1.z};
    for (int i = 0; i < 4; i++) {
      double a = 0.5 * (EP[3 * i] * w_P.v[0] + EP[3 * i + 1] * w_P.v[1] + EP[3 * i + 2] * w_P.v[2]);
      double b = 0.5 * (EB[3 * i] * w_B.v[0] + EB[3 * i + 1] * w_B.v[1] + EB[3 * i + 2] * w_B.v[2]);
      ck_assert_double_eq_tol(a, qd[i], 8 * kTol);
      ck_assert_double_eq_tol(b, qd[i], 8 * kTol);
    }
    ck_assert_double_le(fabs(q.w * d1.w + q.x * d1.x + q.y * d1.y + q.z * d1.z), 8 * kTol);
    /* the inverse maps recover w */
    ck_assert_double_le(ts_mb_vec3_diff(teal_quaternion_w_parent_from_rate(q, d1), w_P), 8 * kTol);
    ck_assert_double_le(ts_mb_vec3_diff(teal_quaternion_w_body_from_rate(q, d1), w_B), 8 * kTol);
    /* d/dt R(q) = [w_P]x R, checked by central differences */
    double h = 1e-6;
    teal_quaternion qp = {q.w + h * d1.w, q.x + h * d1.x, q.y + h * d1.y, q.z + h * d1.z};
    teal_quaternion qm = {q.w - h * d1.w, q.x - h * d1.x, q.y - h * d1.y, q.z - h * d1.z};
    teal_mat3 Rdot = teal_mat3_scale(teal_mat3_sub(teal_rotation_from_quaternion(qp),
                                                   teal_rotation_from_quaternion(qm)), 0.5 / h);
    teal_mat3 want = teal_mat3_mul(teal_mat3_skew(w_P), teal_rotation_from_quaternion(q));
    ck_assert_double_le(teal_mat3_max_abs_diff(Rdot, want), 1e-8);
  }
}
END_TEST

/* One classic RK4 step of qdot = f(q) for a constant angular velocity. */
static teal_quaternion rk4_step(teal_quaternion q, teal_vec3 w, int body, double h) {
  teal_quaternion k[4], y = q;
  const double c[4] = {0.0, 0.5, 0.5, 1.0};
  for (int i = 0; i < 4; i++) {
    if (i > 0) {
      y = teal_quaternion_make(q.w + c[i] * h * k[i - 1].w, q.x + c[i] * h * k[i - 1].x,
                               q.y + c[i] * h * k[i - 1].y, q.z + c[i] * h * k[i - 1].z);
    }
    k[i] = body ? teal_quaternion_rate_from_w_body(y, w) : teal_quaternion_rate_from_w_parent(y, w);
  }
  double g = h / 6.0;
  return teal_quaternion_make(q.w + g * (k[0].w + 2 * k[1].w + 2 * k[2].w + k[3].w),
                              q.x + g * (k[0].x + 2 * k[1].x + 2 * k[2].x + k[3].x),
                              q.y + g * (k[0].y + 2 * k[1].y + 2 * k[2].y + k[3].y),
                              q.z + g * (k[0].z + 2 * k[1].z + 2 * k[2].z + k[3].z));
}

START_TEST(test_quaternion_integration) {
  unsigned s = 4711u;
  for (int body = 0; body < 2; body++) {
    for (int k = 0; k < 5; k++) {
      teal_quaternion q0 = ts_mb_rand_quaternion(&s), q = q0;
      teal_vec3 w = ts_mb_rand_vec3(&s, -1, 1);
      const int n = 1000;
      const double T = 1.0, h = T / n;
      for (int i = 0; i < n; i++) {
        q = rk4_step(q, w, body, h);
        ck_assert_int_eq(teal_quaternion_normalize(&q), TEAL_OK);
      }
      /* constant w: R(T) = exp([w] T) R0 for w in the parent, R0 exp([w] T) in
       * the body */
      teal_rotation E = teal_rotation_from_axis_angle(w, teal_vec3_norm(w) * T);
      teal_rotation R0 = teal_rotation_from_quaternion(q0);
      teal_rotation want = body ? teal_rotation_mul(R0, E) : teal_rotation_mul(E, R0);
      ck_assert_double_le(teal_mat3_max_abs_diff(teal_rotation_from_quaternion(q), want), 1e-12);
    }
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("quaternion");
  TCase *tc = tcase_create("quaternion");
  tcase_add_test(tc, test_quaternion_algebra);
  tcase_add_test(tc, test_quaternion_rate_maps);
  tcase_add_test(tc, test_quaternion_is_normalizable);
  tcase_add_test(tc, test_quaternion_integration);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
