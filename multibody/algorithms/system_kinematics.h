/** @file
 * Whole-system kinematics and mass properties of a finalized plant (see
 * plant_model.h): many points expressed in another frame, the mass matrix by
 * inverse dynamics, the center-of-mass Jacobian and bias acceleration in any
 * frame, the system inertia, the center-of-mass acceleration, and the
 * explicit system Jacobian with its bias (Drake's and Simbody's names).
 *
 * Selections. The center-of-mass and inertia functions act on a system S of
 * bodies chosen by model instance, as in momentum.h: instances
 * (num_instances entries) lists the selected model instances (a repeated one
 * counts once; the world body never belongs to S), and instances = NULL
 * selects every body but the world. A selection without mass gives
 * TEAL_EINVAL.
 *
 * Frames. For a frame A (any frame index, TEAL_WORLD_FRAME for W), v_ACcm and
 * a_ACcm are the velocity and acceleration of the center of mass Ccm of S
 * measured in A: the first and second time derivatives in A of Ccm's
 * position from any point fixed in A. A result "expressed in E" has its
 * components in frame E. The Jacobian with respect to qdot is Jv N+(q), as
 * in jacobians.h.
 *
 * System Jacobian. J_G (Simbody's calcSystemJacobian) maps the generalized
 * velocities v to the spatial velocities V_WB = [w_WB; v_WBo] of all bodies
 * at their origins, in W: row block b (rows 6b .. 6b + 5) belongs to body b
 * (world first, always zero). J_G v equals teal_mb_jacobian_apply, which is
 * O(n) and should be preferred to forming J_G (O(nb n) memory and work).
 *
 * Quaternions in q are used as given (normalize them first). Every function
 * validates its arguments: TEAL_EINVAL for a NULL pointer, a bad frame or
 * instance index, a negative count, a bad wrt, an empty selection or data
 * made for another plant, TEAL_ESTATE for a plant that is not finalized,
 * TEAL_ENONFINITE for a NaN/Inf input; the message in data's error record
 * names the function and the argument. None allocates once data exists; they
 * are not thread-safe on shared data. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_SYSTEM_KINEMATICS_H
#define TEAL_MULTIBODY_ALGORITHMS_SYSTEM_KINEMATICS_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Drake's CalcPointsPositions: p_AQi (num_points entries), the positions of
 *  the points Qi given by p_BQi (measured from Bo, expressed in frame_B),
 *  measured from Ao and expressed in frame_A. num_points >= 0 (the arrays
 *  may be NULL when it is 0); p_AQi may be p_BQi (in place). */
TEAL_API int teal_mb_calc_points_positions(const teal_plant *plant, teal_mb_data *data,
                                           const double *q, int frame_B, const teal_vec3 *p_BQi,
                                           int num_points, int frame_A, teal_vec3 *p_AQi);

/** Drake's CalcMassMatrixViaInverseDynamics: M(q) (nv x nv, row-major), one
 *  column per inverse-dynamics pass with vdot = e_i, v = 0 and no gravity
 *  (nv passes, O(n^2)). The same matrix as teal_mb_mass_matrix (crba.h),
 *  which is faster; this one is a cross-check. */
TEAL_API int teal_mb_calc_mass_matrix_via_inverse_dynamics(const teal_plant *plant,
                                                           teal_mb_data *data, const double *q,
                                                           double *M);

/** Drake's CalcJacobianCenterOfMassTranslationalVelocity: Js_v_ACcm_E (3 x
 *  n, row-major, n = nv or nq by wrt), with v_ACcm_E = Js_v_ACcm_E s, for the
 *  center of mass of the selection measured in frame_A, expressed in
 *  frame_E. Unlike Drake's, frame_A may be any frame. */
TEAL_API int teal_mb_calc_jacobian_center_of_mass_translational_velocity(
    const teal_plant *plant, teal_mb_data *data, const double *q, const int *instances,
    int num_instances, teal_jacobian_wrt wrt, int frame_A, int frame_E, double *Js_v_ACcm_E);

/** Drake's CalcBiasCenterOfMassTranslationalAcceleration: abias_ACcm_E =
 *  Jvdot_v_ACcm v, the acceleration of the selection's center of mass
 *  measured in frame_A at vdot = 0, expressed in frame_E, so that a_ACcm =
 *  Jv_v_ACcm vdot + abias_ACcm. wrt must be TEAL_JACOBIAN_WRT_V (as Drake,
 *  TEAL_EINVAL otherwise); frame_A may be any frame (Drake's must be W).
 *  O(n). */
TEAL_API int teal_mb_calc_bias_center_of_mass_translational_acceleration(
    const teal_plant *plant, teal_mb_data *data, const double *q, const double *v,
    const int *instances, int num_instances, teal_jacobian_wrt wrt, int frame_A, int frame_E,
    teal_vec3 *abias_ACcm_E);

/** Simbody's calcSystemMassPropertiesInGround: M_SWo_W = {total mass,
 *  p_WoScm_W (center of mass from Wo), I_SWo_W (rotational inertia of the
 *  selection about Wo, in W)}. O(n). */
TEAL_API int teal_mb_calc_system_mass_properties_in_ground(const teal_plant *plant,
                                                           teal_mb_data *data, const double *q,
                                                           const int *instances, int num_instances,
                                                           teal_spatial_inertia *M_SWo_W);

/** Simbody's calcSystemCentralInertiaInGround: I_SScm_W, the rotational
 *  inertia of the selection about its center of mass, in W. O(n). */
TEAL_API int teal_mb_calc_system_central_inertia_in_ground(const teal_plant *plant,
                                                           teal_mb_data *data, const double *q,
                                                           const int *instances, int num_instances,
                                                           teal_mat3 *I_SScm_W);

/** Simbody's calcSystemMassCenterAccelerationInGround: a_WScm, the
 *  acceleration in W of the selection's center of mass, in W, for the motion
 *  (q, v, vdot) (vdot, nv values, e.g. from forward dynamics). O(n). */
TEAL_API int teal_mb_calc_system_mass_center_acceleration_in_ground(
    const teal_plant *plant, teal_mb_data *data, const double *q, const double *v,
    const double *vdot, const int *instances, int num_instances, teal_vec3 *a_WScm);

/** Simbody's calcSystemJacobian: J_G (6 num_bodies x nv, row-major; see the
 *  file comment), with respect to v. O(nb n). */
TEAL_API int teal_mb_calc_system_jacobian(const teal_plant *plant, teal_mb_data *data,
                                          const double *q, double *J_G);

/** Simbody's calcBiasForSystemJacobian: JDotu (num_bodies entries, world
 *  first and zero) = Jdot_G v, the spatial accelerations A_WB = [alpha_WB;
 *  a_WBo] of the bodies at their origins, in W, at vdot = 0 (Drake's
 *  classical accelerations, as teal_mb_body_accelerations). O(n). */
TEAL_API int teal_mb_calc_bias_for_system_jacobian(const teal_plant *plant, teal_mb_data *data,
                                                   const double *q, const double *v,
                                                   teal_spatial_vector *JDotu);

#ifdef __cplusplus
}
#endif
#endif
