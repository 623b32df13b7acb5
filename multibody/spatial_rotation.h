/* Rotations, quaternions and rigid transforms.
 *
 * Frame notation follows Drake: R_AB is the rotation matrix whose columns are
 * B's unit axes expressed in A, so v_A = R_AB v_B re-expresses a vector from B
 * to A, and R_AC = R_AB R_BC. X_AB = {R_AB, p_AoBo_A} is the pose of frame B in
 * frame A, so p_AoQ_A = X_AB p_BoQ_B. A unit quaternion q_AB = (w, x, y, z),
 * scalar first, represents the same rotation as R_AB; q_AC = q_AB * q_BC with
 * the Hamilton product.
 *
 * Functions are static inline except the few with branches or loops that live
 * in spatial_rotation.c. */
#ifndef TEAL_MULTIBODY_SPATIAL_ROTATION_H
#define TEAL_MULTIBODY_SPATIAL_ROTATION_H

#include <math.h>

#include "framework/error.h"
#include "multibody/spatial_vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A rotation matrix R_AB (row-major teal_mat3; orthonormal, det +1). The
 *  alias keeps the teal_mat3 helpers usable on rotations. */
typedef teal_mat3 teal_rotation;

/** A quaternion (w, x, y, z), scalar first. Unit length when it represents a
 *  rotation; the same struct holds quaternion rates qdot. */
typedef struct teal_quaternion {
  double w, x, y, z;
} teal_quaternion;

/** A rigid transform X_AB: the pose of frame B in frame A. */
typedef struct teal_transform {
  teal_rotation R; /**< R_AB */
  teal_vec3 p;     /**< p_AoBo_A: position of B's origin from A's, in A */
} teal_transform;

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
teal_rotation teal_rotation_from_axis_angle(teal_vec3 axis, double angle);

/** The axis (unit) and angle in [0, pi] of R; for angle 0 the axis is +z. */
void teal_rotation_to_axis_angle(teal_rotation R, teal_vec3 *axis, double *angle);

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
teal_quaternion teal_rotation_to_quaternion(teal_rotation R);

/** R from roll-pitch-yaw angles rpy = (r, p, y), Drake's convention: extrinsic
 *  X-Y-Z (rotate by r about the fixed x axis, then p about the fixed y, then y
 *  about the fixed z), i.e. R = Rz(y) Ry(p) Rx(r). */
teal_rotation teal_rotation_from_rpy(teal_vec3 rpy);

/** Roll-pitch-yaw of R (convention as teal_rotation_from_rpy) with roll and
 *  yaw in [-pi, pi] and pitch in [-pi/2, pi/2]. Yaw and pitch are computed
 *  consistently with the chosen roll, so from_rpy(to_rpy(R)) reproduces R to
 *  rounding even near gimbal lock (|pitch| = pi/2), where roll and yaw are not
 *  unique (an exact lock gives roll 0). */
teal_vec3 teal_rotation_to_rpy(teal_rotation R);

/** 1 if every entry of R R' - 1 is within tol in magnitude, all entries are
 *  finite and det R > 0 (a proper rotation); else 0. */
int teal_rotation_is_orthonormal(teal_rotation R, double tol);

/* ---- quaternions -------------------------------------------------------- */

/** The quaternion (w, x, y, z). */
static inline teal_quaternion teal_quaternion_make(double w, double x, double y, double z) {
  teal_quaternion q = {w, x, y, z};
  return q;
}

/** The identity rotation (1, 0, 0, 0). */
static inline teal_quaternion teal_quaternion_identity(void) {
  return teal_quaternion_make(1.0, 0.0, 0.0, 0.0);
}

/** The vector part (x, y, z). */
static inline teal_vec3 teal_quaternion_vec(teal_quaternion q) {
  return teal_vec3_make(q.x, q.y, q.z);
}

/** |q|. */
static inline double teal_quaternion_norm(teal_quaternion q) {
  return sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
}

/** Scales *q to unit length. Returns TEAL_ENONFINITE if q has a NaN or Inf
 *  component, TEAL_EINVAL if it is zero (q is left unchanged on failure). */
int teal_quaternion_normalize(teal_quaternion *q);

/** The Hamilton product a * b; for unit quaternions q_AC = q_AB * q_BC. */
static inline teal_quaternion teal_quaternion_mul(teal_quaternion a, teal_quaternion b) {
  return teal_quaternion_make(a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                              a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                              a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                              a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w);
}

/** The conjugate (w, -x, -y, -z); for a unit q_AB this is q_BA. */
static inline teal_quaternion teal_quaternion_conjugate(teal_quaternion q) {
  return teal_quaternion_make(q.w, -q.x, -q.y, -q.z);
}

/** v_A = q_AB v_B q_AB* for unit q (v + 2w (u x v) + 2 u x (u x v), u the
 *  vector part), without forming the matrix. */
static inline teal_vec3 teal_quaternion_rotate(teal_quaternion q, teal_vec3 v) {
  teal_vec3 u = teal_quaternion_vec(q);
  teal_vec3 t = teal_vec3_scale(teal_vec3_cross(u, v), 2.0);
  return teal_vec3_add(teal_vec3_add(v, teal_vec3_scale(t, q.w)), teal_vec3_cross(u, t));
}

/* Quaternion kinematics. For q = q_PB (B's orientation in its parent P):
 *   qdot = 0.5 (0, w_PB_P) * q = 0.5 E_P(q) w_PB_P   (angular velocity in P)
 *   qdot = 0.5 q * (0, w_PB_B) = 0.5 E_B(q) w_PB_B   (angular velocity in B)
 * E_P and E_B are 4x3 with orthogonal columns of length |q|, so for any
 * nonzero q the inverse maps are w = 2 E' qdot / |q|^2 (exact for unit q and
 * qdot orthogonal to q; the least-squares solution otherwise). Drake's
 * QuaternionFloatingJoint uses w_FM expressed in F: the parent form. */

/** E_P(q) as a 4x3 row-major array: qdot = 0.5 E_P(q) w_PB_P. Rows are
 *  (-x -y -z), (w z -y), (-z w x), (y -x w). */
void teal_quaternion_rate_matrix_parent(teal_quaternion q, double E[12]);

/** E_B(q) as a 4x3 row-major array: qdot = 0.5 E_B(q) w_PB_B. Rows are
 *  (-x -y -z), (w -z y), (z w -x), (-y x w). */
void teal_quaternion_rate_matrix_body(teal_quaternion q, double E[12]);

/** qdot = 0.5 (0, w_PB_P) * q_PB: angular velocity expressed in the parent. */
static inline teal_quaternion teal_quaternion_rate_from_w_parent(teal_quaternion q,
                                                                 teal_vec3 w_PB_P) {
  teal_quaternion p = teal_quaternion_mul(
      teal_quaternion_make(0.0, w_PB_P.v[0], w_PB_P.v[1], w_PB_P.v[2]), q);
  return teal_quaternion_make(0.5 * p.w, 0.5 * p.x, 0.5 * p.y, 0.5 * p.z);
}

/** qdot = 0.5 q_PB * (0, w_PB_B): angular velocity expressed in the body. */
static inline teal_quaternion teal_quaternion_rate_from_w_body(teal_quaternion q,
                                                               teal_vec3 w_PB_B) {
  teal_quaternion p = teal_quaternion_mul(
      q, teal_quaternion_make(0.0, w_PB_B.v[0], w_PB_B.v[1], w_PB_B.v[2]));
  return teal_quaternion_make(0.5 * p.w, 0.5 * p.x, 0.5 * p.y, 0.5 * p.z);
}

/** w_PB_P = 2 E_P(q)' qdot / |q|^2 = 2 vec(qdot * q*) / |q|^2: the inverse of
 *  teal_quaternion_rate_from_w_parent. q must be nonzero. */
static inline teal_vec3 teal_quaternion_w_parent_from_rate(teal_quaternion q,
                                                           teal_quaternion qdot) {
  double s = 2.0 / (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  teal_quaternion p = teal_quaternion_mul(qdot, teal_quaternion_conjugate(q));
  return teal_vec3_make(s * p.x, s * p.y, s * p.z);
}

/** w_PB_B = 2 E_B(q)' qdot / |q|^2 = 2 vec(q* * qdot) / |q|^2: the inverse of
 *  teal_quaternion_rate_from_w_body. q must be nonzero. */
static inline teal_vec3 teal_quaternion_w_body_from_rate(teal_quaternion q,
                                                         teal_quaternion qdot) {
  double s = 2.0 / (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  teal_quaternion p = teal_quaternion_mul(teal_quaternion_conjugate(q), qdot);
  return teal_vec3_make(s * p.x, s * p.y, s * p.z);
}

/* ---- rigid transforms --------------------------------------------------- */

/** X_AB from R_AB and p_AoBo_A. */
static inline teal_transform teal_transform_make(teal_rotation R_AB, teal_vec3 p_AoBo_A) {
  teal_transform X = {R_AB, p_AoBo_A};
  return X;
}

/** The identity transform. */
static inline teal_transform teal_transform_identity(void) {
  return teal_transform_make(teal_rotation_identity(), teal_vec3_zero());
}

/** X_AC = X_AB X_BC: R_AC = R_AB R_BC, p_AoCo_A = p_AoBo_A + R_AB p_BoCo_B. */
static inline teal_transform teal_transform_compose(teal_transform X_AB, teal_transform X_BC) {
  return teal_transform_make(teal_rotation_mul(X_AB.R, X_BC.R),
                             teal_vec3_add(X_AB.p, teal_rotation_apply(X_AB.R, X_BC.p)));
}

/** X_BA = X_AB^-1: R_BA = R_AB', p_BoAo_B = -R_AB' p_AoBo_A. */
static inline teal_transform teal_transform_inverse(teal_transform X_AB) {
  return teal_transform_make(teal_rotation_inverse(X_AB.R),
                             teal_vec3_neg(teal_rotation_apply_inverse(X_AB.R, X_AB.p)));
}

/** p_AoQ_A = X_AB p_BoQ_B = p_AoBo_A + R_AB p_BoQ_B (a point, not a vector). */
static inline teal_vec3 teal_transform_apply(teal_transform X_AB, teal_vec3 p_BoQ_B) {
  return teal_vec3_add(X_AB.p, teal_rotation_apply(X_AB.R, p_BoQ_B));
}

#ifdef __cplusplus
}
#endif
#endif
