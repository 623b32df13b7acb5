/** @file
 * Quaternions or roll-pitch-yaw angles for the joints with unrestricted
 * rotation (Simbody's setUseEulerAngles, getNumQuaternionsInUse,
 * isUsingQuaternion, getQuaternionPoolIndex, convertToEulerAngles and
 * convertToQuaternions).
 *
 * By default a ball joint and a floating joint (also the floating joint
 * finalize gives a free body) hold their rotation as a quaternion: nq = 4
 * (7), nv = 3 (6); best for dynamics, singularity free. With
 * teal_plant_set_use_euler_angles(plant, 1) before finalize, finalize turns
 * every one of them into its roll-pitch-yaw kind (TEAL_JOINT_BALL_RPY,
 * TEAL_JOINT_RPY_FLOATING: nq = nv = 3 (6)), minimal coordinates that are
 * convenient for optimization and limits but whose rates are singular at
 * pitch = +-pi/2 (teal_joint_qdot and the plant's derivatives then report
 * TEAL_ESINGULAR). A default position set on such a joint before finalize
 * is converted; position limits set on a quaternion are dropped (they have
 * no meaning for the angles). Joints added with an rpy kind explicitly stay
 * as they are under either setting. The velocities are the same in both
 * forms (the angular velocity in F, then the translational one), so only
 * the q layout differs.
 *
 * Simbody keeps the setting in the State; in Teal it is a model option
 * fixed at finalize, so a model's two forms are two plants: the plant and
 * its twin built the same way with the other setting. The conversions map
 * a state x = [q; v] of one to the state of the other, node by node (their
 * trees must match: same bodies in the same tree order, each joint of the
 * same kind or its counterpart); Simbody's convertToEulerAngles likewise
 * copies a state that already uses angles unchanged.
 *
 * The queries that take err (may be NULL) record a message naming the
 * function and the cause there on failure and return a negative status:
 * TEAL_EINVAL (NULL argument, trees that do not match, a quaternion that
 * cannot be normalized), TEAL_ESTATE (not finalized), TEAL_ENOTFOUND
 * (unknown body), TEAL_ESIZE (wrong length), TEAL_ENONFINITE. */
#ifndef TEAL_MULTIBODY_TREE_EULER_ANGLES_H
#define TEAL_MULTIBODY_TREE_EULER_ANGLES_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Chooses roll-pitch-yaw angles (use != 0) or quaternions (0, the default)
 *  for every ball and floating joint, applied at finalize. Only before
 *  finalize: afterwards it fails with a sticky TEAL_ESTATE
 *  (teal_plant_error). */
TEAL_API int teal_plant_set_use_euler_angles(teal_plant *plant, int use);

/** The setting of teal_plant_set_use_euler_angles (0 or 1), or TEAL_EINVAL
 *  for a NULL plant. */
TEAL_API int teal_plant_get_use_euler_angles(const teal_plant *plant);

/** Number of joints of the finalized plant whose q holds a quaternion
 *  (Simbody's getNumQuaternionsInUse). */
TEAL_API int teal_plant_num_quaternions_in_use(const teal_plant *plant, teal_error *err);

/** 1 if the inboard joint of body (its mobilizer; a free body's floating
 *  joint) holds a quaternion, 0 if not (also for the world), or a negative
 *  status (Simbody's isUsingQuaternion). Finalized plant. */
TEAL_API int teal_plant_is_using_quaternion(const teal_plant *plant, int body, teal_error *err);

/** Writes into *index the quaternion pool index of body's inboard joint: the
 *  rank of its quaternion among those in use, in tree (q) order, from 0;
 *  -1 when the joint has none (Simbody's getQuaternionPoolIndex). Returns
 *  TEAL_OK or a negative status. Finalized plant. */
TEAL_API int teal_plant_quaternion_pool_index(const teal_plant *plant, int body, int *index,
                                              teal_error *err);

/** Maps the state x_from = [q; v] (n_from = nq + nv values) of plant from to
 *  the state x_to (n_to values) of its twin to that represents the same
 *  configuration and motion with roll-pitch-yaw angles wherever to has them
 *  (Simbody's convertToEulerAngles). A joint of the same kind in both is
 *  copied; a quaternion (normalized first) becomes roll-pitch-yaw angles
 *  with roll and yaw in [-pi, pi] and pitch in [-pi/2, pi/2]. A joint with
 *  angles in from but a quaternion in to is refused (TEAL_EINVAL: that is
 *  teal_plant_convert_to_quaternions). x_from and x_to must not overlap. */
TEAL_API int teal_plant_convert_to_euler_angles(const teal_plant *from, const double *x_from,
                                                int n_from, const teal_plant *to, double *x_to,
                                                int n_to, teal_error *err);

/** The reverse of teal_plant_convert_to_euler_angles (Simbody's
 *  convertToQuaternions): roll-pitch-yaw angles in from become the unit
 *  quaternion (w >= 0) of the same rotation wherever to has one. */
TEAL_API int teal_plant_convert_to_quaternions(const teal_plant *from, const double *x_from,
                                               int n_from, const teal_plant *to, double *x_to,
                                               int n_to, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
