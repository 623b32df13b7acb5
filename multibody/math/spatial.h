/** @file
 * Spatial algebra for the multibody module (umbrella header).
 *
 * @code{.unparsed}
 *   math/vec3.h, math/mat3.h          teal_vec3, teal_mat3 (the math layer)
 *   math/rotation.h, math/transform.h teal_rotation (R_AB), teal_quaternion,
 *                                     teal_transform (X_AB)
 *   spatial_vector.h    teal_spatial_vector [angular; linear]: V, A, F; cross
 *                       products, shifts, re-expression
 *   spatial_mat6.h      teal_mat6 and Featherstone's motion/force transforms
 *   spatial_inertia.h   teal_spatial_inertia M_SP_E: shapes, check, shift
 * @endcode
 *
 * Notation follows Drake (X_WB, p_WoBo_W, V_WB, R_AB); see each header. */
#ifndef TEAL_MULTIBODY_MATH_SPATIAL_H
#define TEAL_MULTIBODY_MATH_SPATIAL_H

#include "multibody/math/spatial_inertia.h"
#include "multibody/math/spatial_mat6.h"
#include "math/transform.h"
#include "math/vec3.h"
#include "multibody/math/spatial_vector.h"

#endif
