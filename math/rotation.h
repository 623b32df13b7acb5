/** @file
 * Rotation matrices. Frame notation follows Drake: R_AB has B's unit axes
 * expressed in A as its columns, so v_A = R_AB v_B and R_AC = R_AB R_BC.
 * Conversions to and from axis-angle, quaternions and roll-pitch-yaw. */
#ifndef TEAL_MATH_ROTATION_H
#define TEAL_MATH_ROTATION_H

#include "teal_export.h"
#include <math.h>

#include "math/mat3.h"
#include "math/quaternion.h"
#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A rotation matrix R_AB (row-major teal_mat3; orthonormal, det +1). The
 *  alias keeps the teal_mat3 helpers usable on rotations. */
typedef teal_mat3 teal_rotation;

/* ---- rotations ---------------------------------------------------------- */

/** The identity rotation. */
static inline teal_rotation teal_rotation_identity(void) {
  return teal_mat3_identity();
}

/** R_AC = R_AB R_BC. */
static inline teal_rotation teal_rotation_mul(teal_rotation R_AB, teal_rotation R_BC) {
  return teal_mat3_mul(R_AB, R_BC);
}

/** R_BA = R_AB' (the inverse of a rotation is its transpose). */
static inline teal_rotation teal_rotation_inverse(teal_rotation R_AB) {
  return teal_mat3_transpose(R_AB);
}

/** v_A = R_AB v_B. */
static inline teal_vec3 teal_rotation_apply(teal_rotation R_AB, teal_vec3 v_B) {
  return teal_mat3_apply(R_AB, v_B);
}

/** v_B = R_AB' v_A (applies the inverse without forming it). */
static inline teal_vec3 teal_rotation_apply_inverse(teal_rotation R_AB, teal_vec3 v_A) {
  return teal_mat3_apply_transpose(R_AB, v_A);
}

/** Rodrigues' formula: the rotation by angle (radians, right-handed) about
 *  axis, R = 1 + sin(t) [k]x + (1 - cos(t)) [k]x^2 with k = axis / |axis|.
 *  The axis is normalized here; a zero (or non-finite) axis gives identity. */
TEAL_API teal_rotation teal_rotation_from_axis_angle(teal_vec3 axis, double angle);

/** The axis (unit) and angle in [0, pi] of R; for angle 0 the axis is +z. */
TEAL_API void teal_rotation_to_axis_angle(teal_rotation R, teal_vec3 *axis, double *angle);

/** The rotation of quaternion q. q need not be unit (it is scaled by 1/|q|^2);
 *  it must be nonzero. */
static inline teal_rotation teal_rotation_from_quaternion(teal_quaternion q) {
  double s = 2.0 / (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  double wx = s * q.w * q.x, wy = s * q.w * q.y, wz = s * q.w * q.z;
  double xx = s * q.x * q.x, xy = s * q.x * q.y, xz = s * q.x * q.z;
  double yy = s * q.y * q.y, yz = s * q.y * q.z, zz = s * q.z * q.z;
  teal_rotation R = {{1.0 - yy - zz, xy - wz, xz + wy,
                      xy + wz, 1.0 - xx - zz, yz - wx,
                      xz - wy, yz + wx, 1.0 - xx - yy}};
  return R;
}

/** The unit quaternion of R by Shepperd's method (pivot on the largest of the
 *  trace and the diagonal, so no division by a small number), with w >= 0. */
TEAL_API teal_quaternion teal_rotation_to_quaternion(teal_rotation R);

/** R from roll-pitch-yaw angles rpy = (r, p, y), Drake's convention: extrinsic
 *  X-Y-Z (rotate by r about the fixed x axis, then p about the fixed y, then y
 *  about the fixed z), that is R = Rz(y) Ry(p) Rx(r). */
TEAL_API teal_rotation teal_rotation_from_rpy(teal_vec3 rpy);

/** Roll-pitch-yaw of R (convention as teal_rotation_from_rpy) with roll and
 *  yaw in [-pi, pi] and pitch in [-pi/2, pi/2]. Yaw and pitch are computed
 *  consistently with the chosen roll, so from_rpy(to_rpy(R)) reproduces R to
 *  rounding even near gimbal lock (|pitch| = pi/2), where roll and yaw are not
 *  unique (an exact lock gives roll 0). */
TEAL_API teal_vec3 teal_rotation_to_rpy(teal_rotation R);

/** 1 if every entry of R R' - 1 is within tol in magnitude, all entries are
 *  finite and det R > 0 (a proper rotation); else 0. */
TEAL_API int teal_rotation_is_orthonormal(teal_rotation R, double tol);

#ifdef __cplusplus
}
#endif
#endif
