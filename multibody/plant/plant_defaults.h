/** @file
 * Default and random states of a plant (Drake's SetDefaultState,
 * SetRandomState and the calls that configure them): per-joint default
 * positions, default free-body poses, a free body's pose in a frame anchored
 * to the world, uniform random free-body poses, and the floating-base
 * queries.
 *
 * The defaults are part of the model: teal_plant_finalize builds the
 * plant's default state from them, so that teal_context_set_to_defaults
 * (Drake's SetDefaultState) and every new context start from them. Joint
 * default positions are set before finalize (TEAL_ESTATE after); a default
 * free-body pose may also be set after finalize, as in Drake: it then
 * updates the system's default state (teal_leaf_set_default_continuous_state
 * or its discrete counterpart), so contexts made afterwards and
 * teal_context_set_to_defaults use it, while existing contexts keep their
 * state. Model setters record a sticky error in the plant
 * (teal_plant_error), as the other model calls do; context calls record
 * theirs in the context. */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_DEFAULTS_H
#define TEAL_MULTIBODY_PLANT_PLANT_DEFAULTS_H

#include "teal_export.h"

#include "framework/context.h"
#include "math/transform.h"
#include "multibody/tree/plant_model.h"
#include "systems/primitives/random_source.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Sets the default positions of a joint (Drake's per-joint defaults such
 *  as RevoluteJoint::set_default_angle): n must be the joint's nq
 *  (TEAL_ESIZE). Before finalize only (TEAL_ESTATE). Values must be finite
 *  (TEAL_ENONFINITE); a ball or floating joint's quaternion, q[0..3] as
 *  (w, x, y, z), must have a normal nonzero norm (TEAL_EINVAL) and is stored
 *  normalized. An unknown joint is TEAL_ENOTFOUND. */
TEAL_API int teal_plant_set_joint_default_positions(teal_plant *plant, int joint, const double *q,
                                                    int n);

/** Copies the default positions of a joint into q (n must be its nq,
 *  TEAL_ESIZE): the values set with teal_plant_set_joint_default_positions,
 *  else zero angles and translations and the identity quaternion. A free
 *  body's default pose (teal_plant_set_default_free_body_pose) is not
 *  included: read it with teal_plant_get_default_free_body_pose. TEAL_EINVAL
 *  for a NULL plant or q, TEAL_ENOTFOUND for an unknown joint. */
TEAL_API int teal_plant_get_joint_default_positions(const teal_plant *plant, int joint, double *q,
                                                    int n);

/** Sets the default pose X_WB of a body (Drake's SetDefaultFreeBodyPose),
 *  before or after finalize (see the file comment). It is used when the
 *  body is free after finalize (its inboard joint a quaternion-floating
 *  joint from the world, as finalize adds to a body without one) and
 *  ignored otherwise, as in Drake; it takes precedence over default
 *  positions set for that floating joint. TEAL_ENOTFOUND for the world or
 *  an unknown body, TEAL_ENONFINITE when X_WB is not finite, TEAL_EINVAL
 *  when X_WB.R is not a rotation (orthonormal to 1e-9 with determinant +1). */
TEAL_API int teal_plant_set_default_free_body_pose(teal_plant *plant, int body,
                                                   teal_transform X_WB);

/** Writes the default pose of a body into *X_WB (Drake's
 *  GetDefaultFreeBodyPose): the one set with
 *  teal_plant_set_default_free_body_pose, else the identity. TEAL_EINVAL for
 *  a NULL argument, TEAL_ENOTFOUND for the world or an unknown body. */
TEAL_API int teal_plant_get_default_free_body_pose(const teal_plant *plant, int body,
                                                   teal_transform *X_WB);

/** Sets the pose X_FB of a free body B in a frame F in the context (Drake's
 *  SetFreeBodyPoseInAnchoredFrame). F must be anchored: on the world body,
 *  or on a body joined to the world by a path of weld joints only; its pose
 *  in the world then does not depend on q. Sets the body's pose to
 *  X_WB = X_WF X_FB as teal_plant_set_free_body_pose does, with its checks.
 *  TEAL_ENOTFOUND for an unknown frame, TEAL_EINVAL when F is not anchored
 *  or B is not free, TEAL_ENONFINITE when X_FB is not finite. */
TEAL_API int teal_plant_set_free_body_pose_in_anchored_frame(const teal_plant *plant,
                                                             teal_context *ctx, int frame_F,
                                                             int body, teal_transform X_FB);

/** Makes teal_plant_set_random_state draw the free body's position p_WB
 *  uniformly in the box lower <= p_WB <= upper, per axis (Drake's
 *  SetFreeBodyRandomPositionDistribution with uniform expressions). After
 *  finalize only (TEAL_ESTATE). TEAL_EINVAL when the body is not free or
 *  lower > upper on an axis, TEAL_ENONFINITE for a bound that is not finite.
 *  A body without a position distribution keeps its default position. */
TEAL_API int teal_plant_set_free_body_random_position_distribution(teal_plant *plant, int body,
                                                                   teal_vec3 lower,
                                                                   teal_vec3 upper);

/** Makes teal_plant_set_random_state draw the free body's rotation R_WB
 *  uniformly over all rotations (Drake's
 *  SetFreeBodyRandomRotationDistributionToUniform). After finalize only
 *  (TEAL_ESTATE); TEAL_EINVAL when the body is not free. A body without a
 *  rotation distribution keeps its default rotation. Drake's general
 *  rotation distribution of symbolic expressions is served by user
 *  samplers (plant_random.h). */
TEAL_API int teal_plant_set_free_body_random_rotation_distribution_to_uniform(teal_plant *plant,
                                                                              int body);

/** Sets the plant's state in the context to a random one drawn from rng
 *  (Drake's SetRandomState): every joint takes its default positions, or
 *  its sampler's draw (plant_random.h), every velocity is zero, and each
 *  free body with a random distribution gets its position and/or rotation
 *  drawn from it (a uniform rotation by Shoemake's method, from three
 *  uniform samples). The same seed gives the same state. Allocates nq + nv
 *  doubles for the call: not meant for simulation loops. TEAL_EINVAL for a
 *  NULL rng or a context without the plant, TEAL_ENOMEM, and a failing
 *  sampler's code with a message naming the body or joint (the state is
 *  then unchanged). */
TEAL_API int teal_plant_set_random_state(const teal_plant *plant, teal_context *ctx, teal_rng *rng);

/** Writes the free (floating) bodies of the finalized plant, in increasing
 *  index order, into bodies[0..capacity) and their number into *count
 *  (Drake's GetFloatingBaseBodies). bodies may be NULL when capacity is 0;
 *  TEAL_ESIZE when capacity is smaller than the number (*count still holds
 *  it). TEAL_ESTATE before finalize, TEAL_EINVAL for NULL arguments. */
TEAL_API int teal_plant_get_floating_base_bodies(const teal_plant *plant, int *bodies, int capacity,
                                                 int *count);

/** 1 when the model instance has exactly one base body (a body of the
 *  instance whose inboard joint's parent is the world) and that body is
 *  free, else 0 (Drake's HasUniqueFreeBaseBody). TEAL_ESTATE before
 *  finalize, TEAL_EINVAL for a NULL plant, TEAL_ENOTFOUND for an unknown
 *  instance. */
TEAL_API int teal_plant_has_unique_free_base_body(const teal_plant *plant, int instance);

/** Writes that unique free base body of the instance into *body (Drake's
 *  GetUniqueFreeBaseBodyOrThrow). The codes of
 *  teal_plant_has_unique_free_base_body, and TEAL_ENOTFOUND when it would
 *  answer 0. */
TEAL_API int teal_plant_get_unique_free_base_body(const teal_plant *plant, int instance, int *body);

#ifdef __cplusplus
}
#endif
#endif
