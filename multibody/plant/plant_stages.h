/** @file
 * Simbody's stage queries on the plant's cached computations, and q̈.
 *
 * Teal realizes a stage when something evaluates it (teal_plant_eval_*),
 * and knows it is stale when the state, a parameter or an input it depends
 * on changed since (framework/ticket.h). These functions expose that
 * bookkeeping under Simbody's names: position kinematics is the body
 * poses (the position_kinematics cache entry), velocity kinematics the body
 * spatial velocities. Invalidating a stage also invalidates every
 * later stage computed from it, as in Simbody, so the next evaluation of
 * any of them recomputes; the values come back the same, since nothing
 * they read changed. Simbody's composite-body inertias, articulated-body
 * inertias and articulated-body velocity are not stages in Teal: the
 * teal_mb_calc_* functions of multibody/algorithms/body_results.h compute
 * them on request, in O(n), and keep nothing to invalidate. */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_STAGES_H
#define TEAL_MULTIBODY_PLANT_PLANT_STAGES_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** 1 when ctx holds the plant's position kinematics for its current q
 *  (Simbody's isPositionKinematicsRealized), 0 when it would be computed
 *  on the next evaluation. Negative (with a message on ctx) for a plant that
 *  is not finalized or a context that holds none of it. */
TEAL_API int teal_plant_is_position_kinematics_realized(const teal_plant *plant,
                                                        const teal_context *ctx);

/** 1 when ctx holds the plant's velocity kinematics for its current q and
 *  v (Simbody's isVelocityKinematicsRealized); see above. */
TEAL_API int teal_plant_is_velocity_kinematics_realized(const teal_plant *plant,
                                                        const teal_context *ctx);

/** Marks the position kinematics, the multibody data's position stage and
 *  every stage computed from them (velocity
 *  kinematics, mass matrix, forces, contact, the discrete step,
 *  accelerations) out of date in ctx (Simbody's
 *  invalidatePositionKinematics). */
TEAL_API int teal_plant_invalidate_position_kinematics(const teal_plant *plant, teal_context *ctx);

/** Marks the velocity kinematics and every stage computed from it (forces,
 *  contact, the discrete step, accelerations) out of date in ctx (Simbody's
 *  invalidateVelocityKinematics); the position kinematics stays. */
TEAL_API int teal_plant_invalidate_velocity_kinematics(const teal_plant *plant, teal_context *ctx);

/** q̈ (nq values, n must be nq) = N(q) v̇ + Ṅ(q, v) v with v̇ the plant's
 *  generalized acceleration in ctx (Simbody's getQDotDot; for a discrete
 *  plant v̇ is the acceleration of its step, as the generalized_acceleration
 *  port gives it). TEAL_ESIZE for a wrong n, TEAL_EINVAL for a NULL array;
 *  the acceleration's own errors pass through. */
TEAL_API int teal_plant_calc_qddot(const teal_plant *plant, const teal_context *ctx, double *qddot,
                                   int n);

#ifdef __cplusplus
}
#endif
#endif
