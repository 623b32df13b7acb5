/** @file
 * General random distributions for teal_plant_set_random_state (Drake's
 * SetFreeBodyRandomPositionDistribution and
 * SetFreeBodyRandomRotationDistribution with arbitrary symbolic
 * expressions, and the joints' set_random_*_distribution calls), beside the
 * uniform ones of plant_defaults.h: a per-axis Gaussian position, and user
 * samplers (multibody/tree/random_samplers.h) that draw from the generator
 * teal_plant_set_random_state is given, so a seed reproduces the state.
 *
 * teal_plant_set_random_state starts from the default positions, runs the
 * joints' samplers in joint index order, then draws each free body's
 * position and then rotation in body index order; a free body's
 * distribution overrides a sampler on its floating joint. The latest call
 * for a body's position (or rotation) replaces the earlier distribution.
 * Setters record a sticky error in the plant (teal_plant_error), like the
 * uniform ones. The user pointer is borrowed: it must outlive the plant. */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_RANDOM_H
#define TEAL_MULTIBODY_PLANT_PLANT_RANDOM_H

#include "teal_export.h"

#include "multibody/tree/plant_model.h"
#include "multibody/tree/random_samplers.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Makes teal_plant_set_random_state draw the free body's position p_WB
 *  with p_WB[i] = mean[i] + stddev[i] N(0, 1), independent per axis.
 *  After finalize only (TEAL_ESTATE); TEAL_EINVAL when the body is not free
 *  or a stddev is negative, TEAL_ENONFINITE for a value that is not finite. */
TEAL_API int teal_plant_set_free_body_random_position_distribution_gaussian(teal_plant *plant,
                                                                            int body,
                                                                            teal_vec3 mean,
                                                                            teal_vec3 stddev);

/** Makes teal_plant_set_random_state draw the free body's position with
 *  sampler (user passed through). After finalize only (TEAL_ESTATE);
 *  TEAL_EINVAL when the body is not free or sampler is NULL. A sample that
 *  is not finite fails the random state with TEAL_ENONFINITE. */
TEAL_API int teal_plant_set_free_body_random_position_sampler(teal_plant *plant, int body,
                                                              teal_position_sampler_fn sampler,
                                                              void *user);

/** Makes teal_plant_set_random_state draw the free body's rotation with
 *  sampler. After finalize only (TEAL_ESTATE); TEAL_EINVAL when the body is
 *  not free or sampler is NULL. A sample that is not a rotation fails the
 *  random state with TEAL_EINVAL. */
TEAL_API int teal_plant_set_free_body_random_rotation_sampler(teal_plant *plant, int body,
                                                              teal_rotation_sampler_fn sampler,
                                                              void *user);

/** Makes teal_plant_set_random_state draw the joint's positions with
 *  sampler (NULL: back to the default positions). Before or after finalize;
 *  TEAL_ENOTFOUND for an unknown joint. A sample that is not finite fails
 *  the random state with TEAL_ENONFINITE. */
TEAL_API int teal_plant_set_joint_random_positions_sampler(teal_plant *plant, int joint,
                                                           teal_joint_positions_sampler_fn sampler,
                                                           void *user);

#ifdef __cplusplus
}
#endif
#endif
