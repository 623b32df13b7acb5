/** @file
 * Rigid transforms. X_AB = {R_AB, p_AoBo_A} is the pose of frame B in frame
 * A, so p_AoQ_A = X_AB p_BoQ_B; every function is static inline. */
#ifndef TEAL_MATH_TRANSFORM_H
#define TEAL_MATH_TRANSFORM_H

#include "math/rotation.h"
#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A rigid transform X_AB: the pose of frame B in frame A. */
typedef struct teal_transform {
  teal_rotation R; /**< R_AB */
  teal_vec3 p;     /**< p_AoBo_A: position of B's origin from A's, in A */
} teal_transform;

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
