/** @file
 * 3x3 matrices, row-major (element (i, j) is m[3 * i + j]), as value structs;
 * every function is static inline. */
#ifndef TEAL_MATH_MAT3_H
#define TEAL_MATH_MAT3_H

#include <math.h>

#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A 3x3 matrix, row-major: element (i, j) is m[3 * i + j]. */
typedef struct teal_mat3 {
  double m[9]; /**< the elements, row by row */
} teal_mat3;

/* ---- 3x3 matrices ------------------------------------------------------- */

/** The identity matrix. */
static inline teal_mat3 teal_mat3_identity(void) {
  teal_mat3 r = {{1, 0, 0, 0, 1, 0, 0, 0, 1}};
  return r;
}

/** The zero matrix. */
static inline teal_mat3 teal_mat3_zero(void) {
  teal_mat3 r = {{0}};
  return r;
}

/** diag(a, b, c). */
static inline teal_mat3 teal_mat3_diag(double a, double b, double c) {
  teal_mat3 r = {{a, 0, 0, 0, b, 0, 0, 0, c}};
  return r;
}

/** The cross-product matrix [a]x, with [a]x b = a x b (skew-symmetric). */
static inline teal_mat3 teal_mat3_skew(teal_vec3 a) {
  teal_mat3 r = {{0, -a.v[2], a.v[1], a.v[2], 0, -a.v[0], -a.v[1], a.v[0], 0}};
  return r;
}

/** A + B. */
static inline teal_mat3 teal_mat3_add(teal_mat3 a, teal_mat3 b) {
  teal_mat3 r;
  for (int i = 0; i < 9; i++) {
    r.m[i] = a.m[i] + b.m[i];
  }
  return r;
}

/** A - B. */
static inline teal_mat3 teal_mat3_sub(teal_mat3 a, teal_mat3 b) {
  teal_mat3 r;
  for (int i = 0; i < 9; i++) {
    r.m[i] = a.m[i] - b.m[i];
  }
  return r;
}

/** s * A. */
static inline teal_mat3 teal_mat3_scale(teal_mat3 a, double s) {
  teal_mat3 r;
  for (int i = 0; i < 9; i++) {
    r.m[i] = s * a.m[i];
  }
  return r;
}

/** A'. */
static inline teal_mat3 teal_mat3_transpose(teal_mat3 a) {
  teal_mat3 r;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      r.m[3 * i + j] = a.m[3 * j + i];
    }
  }
  return r;
}

/** A B. */
static inline teal_mat3 teal_mat3_mul(teal_mat3 a, teal_mat3 b) {
  teal_mat3 r;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      r.m[3 * i + j] = a.m[3 * i] * b.m[j] + a.m[3 * i + 1] * b.m[3 + j] +
                       a.m[3 * i + 2] * b.m[6 + j];
    }
  }
  return r;
}

/** A x. */
static inline teal_vec3 teal_mat3_apply(teal_mat3 a, teal_vec3 x) {
  return teal_vec3_make(a.m[0] * x.v[0] + a.m[1] * x.v[1] + a.m[2] * x.v[2],
                        a.m[3] * x.v[0] + a.m[4] * x.v[1] + a.m[5] * x.v[2],
                        a.m[6] * x.v[0] + a.m[7] * x.v[1] + a.m[8] * x.v[2]);
}

/** A' x. */
static inline teal_vec3 teal_mat3_apply_transpose(teal_mat3 a, teal_vec3 x) {
  return teal_vec3_make(a.m[0] * x.v[0] + a.m[3] * x.v[1] + a.m[6] * x.v[2],
                        a.m[1] * x.v[0] + a.m[4] * x.v[1] + a.m[7] * x.v[2],
                        a.m[2] * x.v[0] + a.m[5] * x.v[1] + a.m[8] * x.v[2]);
}

/** det(A). */
static inline double teal_mat3_det(teal_mat3 a) {
  return a.m[0] * (a.m[4] * a.m[8] - a.m[5] * a.m[7]) -
         a.m[1] * (a.m[3] * a.m[8] - a.m[5] * a.m[6]) +
         a.m[2] * (a.m[3] * a.m[7] - a.m[4] * a.m[6]);
}

/** trace(A). */
static inline double teal_mat3_trace(teal_mat3 a) {
  return a.m[0] + a.m[4] + a.m[8];
}

/** |p|^2 1 - p p': the inertia of a unit point mass at p about the origin
 *  (equal to [p]x' [p]x). Used by the parallel axis theorem. */
static inline teal_mat3 teal_mat3_point_inertia(teal_vec3 p) {
  double xx = p.v[0] * p.v[0], yy = p.v[1] * p.v[1], zz = p.v[2] * p.v[2];
  double xy = p.v[0] * p.v[1], xz = p.v[0] * p.v[2], yz = p.v[1] * p.v[2];
  teal_mat3 r = {{yy + zz, -xy, -xz, -xy, xx + zz, -yz, -xz, -yz, xx + yy}};
  return r;
}

/** Largest absolute entry of A - B (a cheap comparison norm for tests). */
static inline double teal_mat3_max_abs_diff(teal_mat3 a, teal_mat3 b) {
  double d = 0.0;
  for (int i = 0; i < 9; i++) {
    double e = fabs(a.m[i] - b.m[i]);
    d = e > d ? e : d;
  }
  return d;
}

#ifdef __cplusplus
}
#endif
#endif
