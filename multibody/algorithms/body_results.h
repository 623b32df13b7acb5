/** @file
 * Per-body results of the tree recursions, as Simbody's matter subsystem
 * exposes them (calcCompositeBodyInertias, getArticulatedBodyInertia,
 * realizeArticulatedBodyVelocity, getGyroscopicForce, getMobilizerCoriolisAcceleration,
 * getTotalCoriolisAcceleration, getTotalCentrifugalForces and
 * calcMobilizerReactionForcesUsingFreebodyMethod), all O(n).
 *
 * Convention. Every output array has num_bodies entries indexed by body
 * index (the world first). Each entry is taken about the origin Bo of its
 * body B and expressed in the world frame W: inertias are about Bo,
 * spatial vectors are [angular; linear] with the linear part at Bo
 * (accelerations are Drake's classical ones: the time derivative in W of
 * the spatial velocity V_WB = [w_WB; v_WBo]). The one exception is the
 * reaction force, applied at the origin Mo of the inboard joint's child
 * frame M, as Simbody's forcesAtMInG. The world's entries are zero.
 *
 * Velocity-dependent terms are those of the motion with vdot = 0 (no
 * gravity): with A_WB = J vdot + A_cor and the body's Newton-Euler equation
 * F_Bo_W = M_Bo_W A_WB + F_gyro, the total centrifugal force is
 * M_Bo_W A_cor + F_gyro, and sum_B J_B' (total centrifugal force of B) =
 * C(q, v) v.
 *
 * Quaternions in q are used as given (normalize them first). Errors:
 * TEAL_EINVAL for a NULL pointer or data made for another plant, TEAL_ESTATE
 * for a plant that is not finalized, TEAL_ENONFINITE for a NaN/Inf input,
 * TEAL_ESINGULAR for a singular articulated joint inertia; the message in
 * data's error record names the function and the cause. None allocates once
 * data exists; they are not thread-safe on shared data. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_BODY_RESULTS_H
#define TEAL_MULTIBODY_ALGORITHMS_BODY_RESULTS_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/algorithms/data.h"
#include "multibody/math/spatial_inertia.h"
#include "multibody/math/spatial_mat6.h"
#include "multibody/math/spatial_vector.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Composite-body inertias (Simbody's calcCompositeBodyInertias and
 *  getCompositeBodyInertia): R_Bo_W[B] is the spatial inertia, about Bo and
 *  in W, of B and every body outboard of it, welded together in the
 *  configuration q (nq values). */
TEAL_API int teal_mb_calc_composite_body_inertias(const teal_plant *plant, teal_mb_data *data,
                                                  const double *q, teal_spatial_inertia *R_Bo_W);

/** Articulated-body inertias (Simbody's getArticulatedBodyInertia): P_Bo_W[B]
 *  is the 6x6 inertia ([angular; linear] order) about Bo in W of the
 *  articulated subtree of B with every outboard joint free and unactuated:
 *  P_B = M_B + sum over the children C of (P_C - P_C S_C D_C^-1 S_C' P_C),
 *  D_C = S_C' P_C S_C, S_C the child's joint motion subspace. A terminal
 *  body's P is its spatial inertia. Leaves the factorization of M(q) in
 *  data, as teal_mb_articulated_factor. */
TEAL_API int teal_mb_calc_articulated_body_inertias(const teal_plant *plant, teal_mb_data *data,
                                                    const double *q, teal_mat6 *P_Bo_W);

/** Articulated-body bias forces, the velocity-dependent articulated terms
 *  (Simbody's realizeArticulatedBodyVelocity): Z_Bo_W[B] is the spatial
 *  force, about Bo in W, that B's inboard joint transmits to the
 *  articulated subtree of B beyond P_Bo_W A_WB when every joint outboard of
 *  B is unactuated, with no gravity and no applied forces: the transmitted
 *  force is P_Bo_W[B] A_WB[B] + Z_Bo_W[B] for any acceleration A_WB[B]
 *  (classical, at Bo) of B. Leaves the factorization of M(q) in data. */
TEAL_API int teal_mb_calc_articulated_body_bias_forces(const teal_plant *plant, teal_mb_data *data,
                                                       const double *q, const double *v,
                                                       teal_spatial_vector *Z_Bo_W);

/** Gyroscopic forces (Simbody's getGyroscopicForce): F_Bo_W[B] =
 *  [w x (I_Bo w); m w x (w x p_BoBcm)] with w = w_WB, I_Bo the body's
 *  rotational inertia about Bo and p_BoBcm its center of mass, all in W. */
TEAL_API int teal_mb_calc_gyroscopic_forces(const teal_plant *plant, teal_mb_data *data,
                                            const double *q, const double *v,
                                            teal_spatial_vector *F_Bo_W);

/** Total Coriolis accelerations (Simbody's getTotalCoriolisAcceleration):
 *  A_WB[B] is B's spatial acceleration (classical, at Bo, in W) for vdot = 0,
 *  that is Jdot v for the body origin (Drake's bias spatial acceleration). */
TEAL_API int teal_mb_calc_total_coriolis_accelerations(const teal_plant *plant, teal_mb_data *data,
                                                       const double *q, const double *v,
                                                       teal_spatial_vector *A_WB);

/** Mobilizer Coriolis accelerations (Simbody's
 *  getMobilizerCoriolisAcceleration): the part of B's total Coriolis
 *  acceleration its inboard joint adds to the rigid shift of the parent's:
 *  A_WB[B] = A_cor(B) - [alpha_P; a_Po + alpha_P x p_PoBo] with [alpha_P;
 *  a_Po] = A_cor(P) for the parent body P (zero for the world). */
TEAL_API int teal_mb_calc_mobilizer_coriolis_accelerations(const teal_plant *plant,
                                                           teal_mb_data *data, const double *q,
                                                           const double *v,
                                                           teal_spatial_vector *A_WB);

/** Total centrifugal forces (Simbody's getTotalCentrifugalForces): F_Bo_W[B]
 *  = M_Bo_W A_cor(B) + F_gyro(B), the spatial force B needs to follow the
 *  motion with vdot = 0 and no gravity. */
TEAL_API int teal_mb_calc_total_centrifugal_forces(const teal_plant *plant, teal_mb_data *data,
                                                   const double *q, const double *v,
                                                   teal_spatial_vector *F_Bo_W);

/** Mobilizer reaction forces by the free-body method (Simbody's
 *  calcMobilizerReactionForcesUsingFreebodyMethod): F_Mo_W[B] is the spatial
 *  force the parent exerts on B through B's inboard joint, at the origin Mo
 *  of the joint's child frame M, expressed in W. Each body is treated as a
 *  free body: its reaction is M A + F_gyro - F_app - (gravity at Bcm) plus
 *  the reactions of its children, with A from (q, v, vdot). F_app_Bo_W
 *  (num_bodies, at Bo in W) may be NULL. As Drake's reaction forces
 *  (teal_mb_reaction_forces, which express them in M instead), it includes
 *  the joint's own generalized force: pass the vdot of the actual motion. */
TEAL_API int teal_mb_calc_mobilizer_reaction_forces_using_freebody_method(
    const teal_plant *plant, teal_mb_data *data, const double *q, const double *v,
    const double *vdot, const teal_spatial_vector *F_app_Bo_W, teal_spatial_vector *F_Mo_W);

#ifdef __cplusplus
}
#endif
#endif
