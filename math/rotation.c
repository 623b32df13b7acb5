/* Rotation conversions with branches (Shepperd's method, roll-pitch-yaw,
 * axis-angle) and the orthonormality check (see rotation.h). */
#include "math/rotation.h"

#include <math.h>

teal_rotation teal_rotation_from_axis_angle(teal_vec3 axis, double angle) {
  double n = teal_vec3_norm(axis);
  if (!(n > 0.0) || !isfinite(n)) {
    return teal_rotation_identity();
  }
  /* R = 1 + sin(t) K + (1 - cos(t)) K^2 with K = [k]x, k the unit axis */
  teal_mat3 K = teal_mat3_skew(teal_vec3_scale(axis, 1.0 / n));
  teal_mat3 R = teal_mat3_add(teal_mat3_identity(), teal_mat3_scale(K, sin(angle)));
  return teal_mat3_add(R, teal_mat3_scale(teal_mat3_mul(K, K), 1.0 - cos(angle)));
}

void teal_rotation_to_axis_angle(teal_rotation R, teal_vec3 *axis, double *angle) {
  /* through the quaternion: (w, u) = (cos(t/2), sin(t/2) k) with w >= 0 */
  teal_quaternion q = teal_rotation_to_quaternion(R);
  teal_vec3 u = teal_quaternion_vec(q);
  double s = teal_vec3_norm(u);
  *angle = 2.0 * atan2(s, q.w);
  *axis = s > 0.0 ? teal_vec3_scale(u, 1.0 / s) : teal_vec3_make(0.0, 0.0, 1.0);
}

teal_quaternion teal_rotation_to_quaternion(teal_rotation R) {
  const double *m = R.m;
  double tr = m[0] + m[4] + m[8];
  teal_quaternion q;
  /* pivot on the largest of 4w^2-1 = tr, 4x^2-1, 4y^2-1, 4z^2-1 (up to a shift) */
  if (tr >= m[0] && tr >= m[4] && tr >= m[8]) {
    double w4 = 2.0 * sqrt(1.0 + tr);
    q = teal_quaternion_make(0.25 * w4, (m[7] - m[5]) / w4, (m[2] - m[6]) / w4,
                             (m[3] - m[1]) / w4);
  } else if (m[0] >= m[4] && m[0] >= m[8]) {
    double x4 = 2.0 * sqrt(1.0 + m[0] - m[4] - m[8]);
    q = teal_quaternion_make((m[7] - m[5]) / x4, 0.25 * x4, (m[1] + m[3]) / x4,
                             (m[2] + m[6]) / x4);
  } else if (m[4] >= m[8]) {
    double y4 = 2.0 * sqrt(1.0 - m[0] + m[4] - m[8]);
    q = teal_quaternion_make((m[2] - m[6]) / y4, (m[1] + m[3]) / y4, 0.25 * y4,
                             (m[5] + m[7]) / y4);
  } else {
    double z4 = 2.0 * sqrt(1.0 - m[0] - m[4] + m[8]);
    q = teal_quaternion_make((m[3] - m[1]) / z4, (m[2] + m[6]) / z4, (m[5] + m[7]) / z4,
                             0.25 * z4);
  }
  /* canonical sign, and unit length even if R was slightly off orthonormal */
  double s = (q.w < 0.0 ? -1.0 : 1.0) / teal_quaternion_norm(q);
  return teal_quaternion_make(s * q.w, s * q.x, s * q.y, s * q.z);
}

teal_rotation teal_rotation_from_rpy(teal_vec3 rpy) {
  double cr = cos(rpy.v[0]), sr = sin(rpy.v[0]);
  double cp = cos(rpy.v[1]), sp = sin(rpy.v[1]);
  double cy = cos(rpy.v[2]), sy = sin(rpy.v[2]);
  /* R = Rz(y) Ry(p) Rx(r) */
  teal_rotation R = {{cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,
                      sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,
                      -sp, cp * sr, cp * cr}};
  return R;
}

teal_vec3 teal_rotation_to_rpy(teal_rotation R) {
  const double *m = R.m;
  /* roll from the last row (cp sr, cp cr); exactly 0 at an exact gimbal lock */
  double r = atan2(m[7], m[8]);
  double cr = cos(r), sr = sin(r);
  /* R Rx(r)' = Rz(y) Ry(p): its column 1 is (-sy, cy, 0), so yaw is consistent
   * with whatever roll was chosen, which keeps the round trip accurate near lock */
  double y = atan2(sr * m[2] - cr * m[1], cr * m[4] - sr * m[5]);
  /* its column 0 is (cy cp, sy cp, -sp) */
  double cp = cos(y) * m[0] + sin(y) * m[3];
  double p = atan2(-m[6], cp > 0.0 ? cp : 0.0);
  return teal_vec3_make(r, p, y);
}

int teal_rotation_is_orthonormal(teal_rotation R, double tol) {
  for (int i = 0; i < 9; i++) {
    if (!isfinite(R.m[i])) {
      return 0;
    }
  }
  teal_mat3 RRt = teal_mat3_mul(R, teal_mat3_transpose(R));
  return teal_mat3_max_abs_diff(RRt, teal_mat3_identity()) <= tol && teal_mat3_det(R) > 0.0;
}
