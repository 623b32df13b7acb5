/** @file
 * 6x6 spatial matrices and spatial transforms, for ABA/CRBA-style code.
 *
 * A teal_mat6 is row-major (element (i, j) is m[6 * i + j]) in the same
 * [angular; linear] block order as teal_spatial_vector, so a matrix is the
 * 2x2 block matrix [M00 M01; M10 M11] of 3x3 blocks.
 *
 * Spatial transforms follow Featherstone (Rigid Body Dynamics Algorithms,
 * 2008) with Drake's frame names. For X_AB = {R, p} (R = R_AB, p = p_AoBo_A):
 * @code{.unparsed}
 *   motion:  A_X_B  = [R 0; [p]x R  R]  maps a motion vector of a body taken
 *            at Bo and expressed in B to the same motion taken at Ao and
 *            expressed in A: V_Ao_A = A_X_B V_Bo_B, i.e. w_A = R w_B and
 *            v_Ao = R v_Bo + p x (R w_B) (= v_Bo + w x p_BoAo).
 *   force:   A_X*_B = [R [p]x R; 0 R] = (A_X_B)^-T maps a force about Bo in B
 *            to the same force about Ao in A: tau_Ao = R tau_Bo + p x (R f).
 * @endcode
 * These are Simbody's (3.10) and (3.12). Featherstone's B_X_A is the inverse
 * (teal_transform_inverse), and (A_X*_B F) . (A_X_B V) = F . V. */
#ifndef TEAL_MULTIBODY_MATH_SPATIAL_MAT6_H
#define TEAL_MULTIBODY_MATH_SPATIAL_MAT6_H

#include "teal_export.h"

#include "math/transform.h"
#include "math/vec3.h"
#include "multibody/math/spatial_vector.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A 6x6 matrix, row-major: element (i, j) is m[6 * i + j]. */
typedef struct teal_mat6 {
  double m[36]; /**< the elements, row by row */
} teal_mat6;

/** The zero matrix. */
static inline teal_mat6 teal_mat6_zero(void) {
  teal_mat6 r = {{0}};
  return r;
}

/** The identity matrix. */
TEAL_API teal_mat6 teal_mat6_identity(void);

/** The block matrix [a b; c d]. */
TEAL_API teal_mat6 teal_mat6_from_blocks(teal_mat3 a, teal_mat3 b, teal_mat3 c, teal_mat3 d);

/** Block (bi, bj) of M, bi and bj in {0, 1} (0: angular, 1: linear). */
TEAL_API teal_mat3 teal_mat6_block(const teal_mat6 *M, int bi, int bj);

/** A + B. */
TEAL_API teal_mat6 teal_mat6_add(const teal_mat6 *A, const teal_mat6 *B);

/** s * A. */
TEAL_API teal_mat6 teal_mat6_scale(const teal_mat6 *A, double s);

/** A B. */
TEAL_API teal_mat6 teal_mat6_mul(const teal_mat6 *A, const teal_mat6 *B);

/** A'. */
TEAL_API teal_mat6 teal_mat6_transpose(const teal_mat6 *A);

/** M s. */
TEAL_API teal_spatial_vector teal_mat6_apply(const teal_mat6 *M, teal_spatial_vector s);

/** Largest absolute entry of A - B. */
TEAL_API double teal_mat6_max_abs_diff(const teal_mat6 *A, const teal_mat6 *B);

/** The motion transform A_X_B of X_AB (see the file comment). */
TEAL_API teal_mat6 teal_mat6_motion_transform(teal_transform X_AB);

/** The force transform A_X*_B = (A_X_B)^-T of X_AB (see the file comment). */
TEAL_API teal_mat6 teal_mat6_force_transform(teal_transform X_AB);

/** crm(V) = [[w]x 0; [v]x [w]x]: crm(V) m = teal_spatial_cross_motion(V, m). */
TEAL_API teal_mat6 teal_mat6_cross_motion(teal_spatial_vector V);

/** crf(V) = -crm(V)' = [[w]x [v]x; 0 [w]x]: crf(V) f = teal_spatial_cross_force(V, f). */
TEAL_API teal_mat6 teal_mat6_cross_force(teal_spatial_vector V);

/** A_X_B m_B without forming the matrix: a motion vector taken at Bo and
 *  expressed in B, returned taken at Ao and expressed in A. */
static inline teal_spatial_vector teal_transform_apply_motion(teal_transform X_AB,
                                                              teal_spatial_vector m_B) {
  teal_spatial_vector m = teal_spatial_vector_reexpress(X_AB.R, m_B);
  teal_vec3 w = teal_spatial_vector_angular(m);
  teal_vec3 v = teal_vec3_add(teal_spatial_vector_linear(m), teal_vec3_cross(X_AB.p, w));
  return teal_spatial_vector_make(w, v);
}

/** A_X*_B f_B without forming the matrix: a force about Bo expressed in B,
 *  returned about Ao expressed in A. */
static inline teal_spatial_vector teal_transform_apply_force(teal_transform X_AB,
                                                             teal_spatial_vector f_B) {
  teal_spatial_vector f = teal_spatial_vector_reexpress(X_AB.R, f_B);
  teal_vec3 fl = teal_spatial_vector_linear(f);
  teal_vec3 t = teal_vec3_add(teal_spatial_vector_angular(f), teal_vec3_cross(X_AB.p, fl));
  return teal_spatial_vector_make(t, fl);
}

#ifdef __cplusplus
}
#endif
#endif
