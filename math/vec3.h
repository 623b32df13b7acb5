/** @file
 * 3-vectors: value structs passed and returned by value so the compiler can
 * keep them in registers; every function is static inline. */
#ifndef TEAL_MATH_VEC3_H
#define TEAL_MATH_VEC3_H

#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A 3-vector (position, velocity, force, axis, ...). */
typedef struct teal_vec3 {
  double v[3]; /**< the components x, y, z */
} teal_vec3;

/* ---- 3-vectors ---------------------------------------------------------- */

/** The vector (x, y, z). */
static inline teal_vec3 teal_vec3_make(double x, double y, double z) {
  teal_vec3 r = {{x, y, z}};
  return r;
}

/** The zero vector. */
static inline teal_vec3 teal_vec3_zero(void) {
  return teal_vec3_make(0.0, 0.0, 0.0);
}

/** a + b. */
static inline teal_vec3 teal_vec3_add(teal_vec3 a, teal_vec3 b) {
  return teal_vec3_make(a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2]);
}

/** a - b. */
static inline teal_vec3 teal_vec3_sub(teal_vec3 a, teal_vec3 b) {
  return teal_vec3_make(a.v[0] - b.v[0], a.v[1] - b.v[1], a.v[2] - b.v[2]);
}

/** s * a. */
static inline teal_vec3 teal_vec3_scale(teal_vec3 a, double s) {
  return teal_vec3_make(s * a.v[0], s * a.v[1], s * a.v[2]);
}

/** -a. */
static inline teal_vec3 teal_vec3_neg(teal_vec3 a) {
  return teal_vec3_make(-a.v[0], -a.v[1], -a.v[2]);
}

/** Dot product of a and b. */
static inline double teal_vec3_dot(teal_vec3 a, teal_vec3 b) {
  return a.v[0] * b.v[0] + a.v[1] * b.v[1] + a.v[2] * b.v[2];
}

/** a x b. */
static inline teal_vec3 teal_vec3_cross(teal_vec3 a, teal_vec3 b) {
  return teal_vec3_make(a.v[1] * b.v[2] - a.v[2] * b.v[1],
                        a.v[2] * b.v[0] - a.v[0] * b.v[2],
                        a.v[0] * b.v[1] - a.v[1] * b.v[0]);
}

/** Euclidean norm |a|. */
static inline double teal_vec3_norm(teal_vec3 a) {
  return sqrt(teal_vec3_dot(a, a));
}

/** 1 if all three components are finite, else 0. */
static inline int teal_vec3_is_finite(teal_vec3 a) {
  return isfinite(a.v[0]) && isfinite(a.v[1]) && isfinite(a.v[2]);
}

#ifdef __cplusplus
}
#endif
#endif
