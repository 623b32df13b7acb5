/** @file
 * Quaternions q = (w, x, y, z), scalar first. A unit quaternion q_AB
 * represents the same rotation as R_AB, and q_AC = q_AB * q_BC with the
 * Hamilton product. The rate maps relate qdot to angular velocity. */
#ifndef TEAL_MATH_QUATERNION_H
#define TEAL_MATH_QUATERNION_H

#include "teal_export.h"
#include <math.h>

#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A quaternion (w, x, y, z), scalar first. Unit length when it represents a
 *  rotation; the same struct holds quaternion rates qdot. */
typedef struct teal_quaternion {
  /** Scalar part w, then vector part (x, y, z). @{ */
  double w, x, y, z;
  /** @} */
} teal_quaternion;

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

/** 1 when the four values q[0..3] (w, x, y, z, as a joint stores them in
 *  its positions) can be normalized into a rotation: |q|^2 is a normal
 *  number, so it is not zero, NaN or Inf, and 2 / |q|^2 (the scale of the
 *  rotation matrix) neither overflows nor underflows. */
static inline int teal_quaternion_is_normalizable(const double q[4]) {
  return isnormal(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
}

/** Scales *q to unit length. Returns TEAL_ENONFINITE if q has a NaN or Inf
 *  component, TEAL_EINVAL if it is zero (q is left unchanged on failure). */
TEAL_API int teal_quaternion_normalize(teal_quaternion *q);

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
TEAL_API void teal_quaternion_rate_matrix_parent(teal_quaternion q, double E[12]);

/** E_B(q) as a 4x3 row-major array: qdot = 0.5 E_B(q) w_PB_B. Rows are
 *  (-x -y -z), (w -z y), (z w -x), (-y x w). */
TEAL_API void teal_quaternion_rate_matrix_body(teal_quaternion q, double E[12]);

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

#ifdef __cplusplus
}
#endif
#endif
