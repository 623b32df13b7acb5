/* Math and spatial-algebra test fixtures (see mb_math_fixtures.h). */
#include "support/mb_math_fixtures.h"

#include <check.h>
#include <math.h>

#include "support/test_support.h"

teal_vec3 ts_mb_rand_vec3(unsigned *s, double lo, double hi) {
  return teal_vec3_make(ts_rand_uniform(s, lo, hi), ts_rand_uniform(s, lo, hi),
                        ts_rand_uniform(s, lo, hi));
}

teal_quaternion ts_mb_rand_quaternion(unsigned *s) {
  teal_quaternion q;
  do {
    q = teal_quaternion_make(ts_rand_uniform(s, -1, 1), ts_rand_uniform(s, -1, 1),
                             ts_rand_uniform(s, -1, 1), ts_rand_uniform(s, -1, 1));
  } while (teal_quaternion_norm(q) < 0.1);
  ck_assert_int_eq(teal_quaternion_normalize(&q), TEAL_OK);
  return q;
}

teal_rotation ts_mb_rand_rotation(unsigned *s) {
  return teal_rotation_from_quaternion(ts_mb_rand_quaternion(s));
}

teal_transform ts_mb_rand_transform(unsigned *s) {
  return teal_transform_make(ts_mb_rand_rotation(s), ts_mb_rand_vec3(s, -2, 2));
}

teal_spatial_vector ts_mb_rand_spatial(unsigned *s) {
  return teal_spatial_vector_make(ts_mb_rand_vec3(s, -1, 1), ts_mb_rand_vec3(s, -1, 1));
}

teal_mat3 ts_mb_rand_central_inertia(unsigned *s) {
  double a = ts_rand_uniform(s, 0.5, 1.5), b = ts_rand_uniform(s, 0.5, 1.5);
  double c = ts_rand_uniform(s, fabs(a - b), a + b);
  teal_rotation R = ts_mb_rand_rotation(s);
  return teal_mat3_mul(teal_mat3_mul(R, teal_mat3_diag(a, b, c)), teal_mat3_transpose(R));
}

double ts_mb_vec3_diff(teal_vec3 a, teal_vec3 b) {
  return teal_vec3_norm(teal_vec3_sub(a, b));
}

double ts_mb_quat_diff(teal_quaternion a, teal_quaternion b) {
  double dp = fabs(a.w - b.w) + fabs(a.x - b.x) + fabs(a.y - b.y) + fabs(a.z - b.z);
  double dm = fabs(a.w + b.w) + fabs(a.x + b.x) + fabs(a.y + b.y) + fabs(a.z + b.z);
  return dp < dm ? dp : dm;
}
