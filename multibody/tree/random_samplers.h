/** @file
 * Callback types of user-defined random distributions (Drake's general
 * symbolic distributions of SetFreeBodyRandomPositionDistribution,
 * SetFreeBodyRandomRotationDistribution and the joints' set_random_*
 * calls). teal_plant_set_random_state hands each sampler the generator it
 * was given, so the same seed reproduces the same state. The calls that
 * install them are in multibody/plant/plant_random.h; this header holds the
 * types only, so that the model's records can store them.
 *
 * A sampler writes its sample and returns TEAL_OK, or returns a negative
 * TEAL_E* code with a message in err; teal_plant_set_random_state then fails
 * with that code and a message naming the body or joint, and leaves the
 * context's state unchanged. */
#ifndef TEAL_MULTIBODY_TREE_RANDOM_SAMPLERS_H
#define TEAL_MULTIBODY_TREE_RANDOM_SAMPLERS_H

#include "framework/error.h"
#include "math/rotation.h"
#include "systems/primitives/random_source.h"

#ifdef __cplusplus
extern "C" {
#endif

struct teal_plant;

/** Draws the position p_WB of free body `body` from rng. */
typedef int (*teal_position_sampler_fn)(const struct teal_plant *plant, int body, teal_rng *rng,
                                        teal_vec3 *p_WB, teal_error *err, void *user);

/** Draws the rotation R_WB of free body `body` from rng (a proper rotation:
 *  orthonormal to 1e-9 with determinant +1). */
typedef int (*teal_rotation_sampler_fn)(const struct teal_plant *plant, int body, teal_rng *rng,
                                        teal_rotation *R_WB, teal_error *err, void *user);

/** Draws the nq positions q of joint `joint` from rng (a ball or floating
 *  joint's quaternion, q[0..3], is normalized afterwards). */
typedef int (*teal_joint_positions_sampler_fn)(const struct teal_plant *plant, int joint,
                                               teal_rng *rng, double *q, int nq, teal_error *err,
                                               void *user);

#ifdef __cplusplus
}
#endif
#endif
