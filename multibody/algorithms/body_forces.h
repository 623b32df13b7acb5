/** @file
 * Building applied forces, after Simbody's addInStationForce,
 * addInBodyTorque, addInMobilityForce and calcTreeEquivalentMobilityForces.
 *
 * Body forces are the per-body array F_Bo_W that the dynamics take
 * (teal_mb_inverse_dynamics_ex, teal_mb_forward_dynamics_ex, the plant's
 * applied forces): num_bodies spatial vectors indexed by body, each the
 * moment about the body origin Bo and the force, both expressed in W (the
 * world entry is ignored). Mobility forces are nv generalized forces. The
 * add-in helpers accumulate into the arrays the caller owns, so a force law
 * can add its terms one by one; they neither clear nor allocate. Each
 * checks its arguments: TEAL_EINVAL for a NULL pointer, a bad body, joint
 * or dof index, or a plant that is not finalized; TEAL_ENONFINITE for a
 * NaN/Inf vector. On failure nothing is added and err (may be NULL) holds
 * the message. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_BODY_FORCES_H
#define TEAL_MULTIBODY_ALGORITHMS_BODY_FORCES_H

#include "teal_export.h"

#include "framework/error.h"
#include "math/vec3.h"
#include "multibody/algorithms/data.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Adds the force f_S_W (in W) applied at the station S of body, fixed at
 *  p_BS_B from Bo in B, to F_Bo_W[body]: the force itself and its moment
 *  about Bo, p_BoS_W x f_S_W (Simbody's addInStationForce). X_WB is the
 *  pose of every body (num_bodies entries, as teal_mb_body_poses or
 *  teal_plant_eval_body_poses give them). The world body takes nothing. */
TEAL_API int teal_mb_add_in_station_force(const teal_plant *plant, const teal_transform *X_WB,
                                          int body, teal_vec3 p_BS_B, teal_vec3 f_S_W,
                                          teal_spatial_vector *F_Bo_W, teal_error *err);

/** Adds the pure torque t_W (in W) on body to F_Bo_W[body] (Simbody's
 *  addInBodyTorque). The world body takes nothing. */
TEAL_API int teal_mb_add_in_body_torque(const teal_plant *plant, int body, teal_vec3 t_W,
                                        teal_spatial_vector *F_Bo_W, teal_error *err);

/** Adds f to dof `which` (0 .. nv of the joint - 1) of joint's generalized
 *  force in tau (nv values) (Simbody's addInMobilityForce, by joint rather
 *  than by mobilized body). A weld has no dof to take it. */
TEAL_API int teal_mb_add_in_mobility_force(const teal_plant *plant, int joint, int which, double f,
                                           double *tau, teal_error *err);

/** tau (nv) = J(q)' F_Bo_W: the mobility forces that do the same work as
 *  the body forces F_Bo_W on every motion, tau . u = sum_B F_Bo_W[B] .
 *  V_WB(u) (Simbody's calcTreeEquivalentMobilityForces). It equals minus
 *  the inverse dynamics at v = vdot = 0 without gravity, with F_Bo_W
 *  applied, but costs one inward pass, O(n). Errors as
 *  teal_mb_jacobian_apply_transpose (message in data's record). */
TEAL_API int teal_mb_calc_tree_equivalent_mobility_forces(const teal_plant *plant,
                                                          teal_mb_data *data, const double *q,
                                                          const teal_spatial_vector *F_Bo_W,
                                                          double *tau);

#ifdef __cplusplus
}
#endif
#endif
