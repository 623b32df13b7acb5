/* Math and spatial-algebra test fixtures: random vectors, unit quaternions,
 * rotations, transforms, spatial vectors and valid central inertias drawn
 * from a ts_rand_uniform state, and distances that compare them. Shared by
 * tests/math and tests/multibody/math. */
#ifndef TEAL_TESTS_SUPPORT_MB_MATH_FIXTURES_H
#define TEAL_TESTS_SUPPORT_MB_MATH_FIXTURES_H

#include "multibody/math/spatial.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A vector with components uniform in [lo, hi). */
teal_vec3 ts_mb_rand_vec3(unsigned *state, double lo, double hi);

/** A uniformly drawn unit quaternion (asserts that it normalizes). */
teal_quaternion ts_mb_rand_quaternion(unsigned *state);

/** The rotation of ts_mb_rand_quaternion. */
teal_rotation ts_mb_rand_rotation(unsigned *state);

/** A random rotation with a translation in [-2, 2)^3. */
teal_transform ts_mb_rand_transform(unsigned *state);

/** A spatial vector with components in [-1, 1). */
teal_spatial_vector ts_mb_rand_spatial(unsigned *state);

/** A random valid central inertia: R diag(a, b, c) R' with a triangle. */
teal_mat3 ts_mb_rand_central_inertia(unsigned *state);

/** |a - b|. */
double ts_mb_vec3_diff(teal_vec3 a, teal_vec3 b);

/** Distance between unit quaternions up to sign (q and -q are one rotation):
 *  the smaller 1-norm of a - b and a + b. */
double ts_mb_quat_diff(teal_quaternion a, teal_quaternion b);

#ifdef __cplusplus
}
#endif
#endif
