/** @file
 * Locking a joint in a context (Drake's Joint::Lock, Unlock, is_locked).
 *
 * A locked joint keeps its q and has v = 0: locking sets the joint's
 * velocities to zero, and in a continuous plant its dofs leave the dynamics
 * as rows vdot_i = 0 solved with the other dofs (the same accelerations as
 * removing the dofs, plus the forces that hold them, which
 * teal_plant_calc_motion_forces reports); the projection after every step
 * keeps v_i = 0 exactly. In a discrete plant the step ends with v_i = 0
 * for the locked dofs, by an impulse through (M + h D)^-1 on those dofs
 * applied before the contact solve and again after the contact and limit
 * impulses, so the locked q does not move and the rest of the system feels
 * the lock. The lock is a context parameter: contexts of the same plant
 * lock independently, and unlocking lets the joint move again from rest.
 * Errors are reported on ctx: TEAL_EINVAL (NULL arguments, a context
 * without the plant, an unknown joint, a prescribed joint, whose motion is
 * already given), TEAL_ENOMEM. */
#ifndef TEAL_MULTIBODY_PLANT_JOINT_LOCKING_H
#define TEAL_MULTIBODY_PLANT_JOINT_LOCKING_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Locks joint in ctx: its velocities become 0 and stay 0 (a joint
 *  without dofs, e.g. a weld, is accepted and changes nothing). */
TEAL_API int teal_plant_lock_joint(const teal_plant *plant, teal_context *ctx, int joint);

/** Unlocks joint in ctx; its velocities stay 0 until the dynamics move it. */
TEAL_API int teal_plant_unlock_joint(const teal_plant *plant, teal_context *ctx, int joint);

/** *locked = 1 when joint is locked in ctx, else 0. */
TEAL_API int teal_plant_joint_is_locked(const teal_plant *plant, const teal_context *ctx, int joint,
                                        int *locked);

#ifdef __cplusplus
}
#endif
#endif
