/** @file
 * O(n) task-space and kinematic operators that never form a Jacobian, N(q)
 * or M(q), after Simbody's SimbodyMatterSubsystem operators
 * (multiplyByStationJacobian, multiplyByFrameJacobian and their transposes,
 * calcMInv, multiplyByN, multiplyByNInv, multiplyByNDot, calcQDotDot).
 *
 * Tasks. A station task is a point P fixed on a body B, given by p_BP (from
 * Bo, expressed in B); a frame task is a frame A fixed on B, of which only
 * the origin Ao matters (p_BAo), since every frame of B has B's angular
 * velocity. Velocities are measured and expressed in the world W, forces
 * are expressed in W and applied at P (or at Ao, with the moment about Ao).
 * The same body may appear in several tasks; the world body (index 0) is
 * allowed and contributes nothing. Each call costs one or two O(n) passes
 * over the tree plus O(nt), against O(nt n) to form the 3 nt x n or
 * 6 nt x n Jacobian (teal_mb_jacobian_translational_velocity and
 * teal_mb_jacobian_spatial_velocity in jacobians.h give those explicitly,
 * with frame_F = teal_plant_body_frame(plant, B), frame_A = frame_E =
 * TEAL_WORLD_FRAME).
 *
 * Kinematic maps. qdot = N(q) v, v = N+(q) qdot (N+ N = I, see joints.h) and
 * qddot = N(q) vdot + Ndot(q, v) v. All three are block diagonal by joint.
 * For every joint kind N is constant but for the quaternion block of the
 * ball and quaternion-floating joints, qdot_quat = 0.5 E_P(q_quat) w_FM_F,
 * which is linear in the quaternion; so Ndot's only nonzero block is
 * 0.5 E_P(qdot_quat) with qdot = N(q) v. The transposed products (transpose
 * nonzero) map the other way: N' takes nq values to nv, N+' nv values to nq
 * and Ndot' nq values to nv.
 *
 * Quaternions in q are used as given (normalize them first); a zero
 * quaternion is TEAL_EINVAL. Every function validates its arguments:
 * TEAL_EINVAL for a NULL pointer, a negative task count, a bad body index,
 * or data made for another plant; TEAL_ESTATE for a plant that is not
 * finalized; TEAL_ENONFINITE for a NaN/Inf input (data's error record names
 * the argument and index). Inputs and outputs must not overlap. None
 * allocates: the task operators use data's per-body arrays. They are not
 * thread-safe on shared data. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_OPERATORS_H
#define TEAL_MULTIBODY_ALGORITHMS_OPERATORS_H

#include "teal_export.h"

#include "framework/error.h"
#include "math/vec3.h"
#include "multibody/algorithms/data.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** JS u (Simbody's multiplyByStationJacobian): v_WP[i], the velocity in W of
 *  the station p_BP[i] fixed on body bodies[i], for the generalized velocity
 *  u (nv), i = 0..nt-1. One outward pass, O(n + nt). bodies, p_BP and v_WP
 *  may be NULL when nt is 0. */
TEAL_API int teal_mb_multiply_by_station_jacobian(const teal_plant *plant, teal_mb_data *data,
                                                  const double *q, int nt, const int *bodies,
                                                  const teal_vec3 *p_BP, const double *u,
                                                  teal_vec3 *v_WP);

/** JS' f (Simbody's multiplyByStationJacobianTranspose): the generalized
 *  force tau (nv) of the forces f_WP[i] (in W) applied at the stations
 *  p_BP[i] of bodies[i], so that tau . u = sum_i f_WP[i] . v_WP[i](u) for
 *  every u. The forces are moved to the body origins in data's per-body
 *  array, then teal_mb_jacobian_apply_transpose makes one inward pass:
 *  O(n + nt). */
TEAL_API int teal_mb_multiply_by_station_jacobian_transpose(const teal_plant *plant,
                                                            teal_mb_data *data, const double *q,
                                                            int nt, const int *bodies,
                                                            const teal_vec3 *p_BP,
                                                            const teal_vec3 *f_WP, double *tau);

/** JF u (Simbody's multiplyByFrameJacobian): V_WA[i] = [w_WB; v_WAo], the
 *  spatial velocity in W of a frame fixed on bodies[i] with origin p_BAo[i],
 *  for the generalized velocity u (nv). O(n + nt). */
TEAL_API int teal_mb_multiply_by_frame_jacobian(const teal_plant *plant, teal_mb_data *data,
                                                const double *q, int nt, const int *bodies,
                                                const teal_vec3 *p_BAo, const double *u,
                                                teal_spatial_vector *V_WA);

/** JF' F (Simbody's multiplyByFrameJacobianTranspose): the generalized force
 *  tau (nv) of the spatial forces F_WAo[i] = [moment about Ao; force], in W,
 *  applied at the frame origins p_BAo[i] of bodies[i], so that tau . u =
 *  sum_i F_WAo[i] . V_WA[i](u). O(n + nt). */
TEAL_API int teal_mb_multiply_by_frame_jacobian_transpose(
    const teal_plant *plant, teal_mb_data *data, const double *q, int nt, const int *bodies,
    const teal_vec3 *p_BAo, const teal_spatial_vector *F_WAo, double *tau);

/** M(q)^-1 explicitly (Simbody's calcMInv): Minv (nv x nv, row-major,
 *  symmetric) without forming M, by one articulated-body factorization
 *  (teal_mb_articulated_factor, aba.h, which stays in data) and nv O(n)
 *  solves against the unit vectors: O(n^2), the size of the result. Use
 *  teal_mb_articulated_solve or teal_mb_mass_inverse for products M^-1 b in
 *  a simulation loop instead. TEAL_ESINGULAR as teal_mb_articulated_factor. */
TEAL_API int teal_mb_mass_matrix_inverse(const teal_plant *plant, teal_mb_data *data,
                                         const double *q, double *Minv);

/** out = N(q) in (in: nv values, out: nq), or with transpose nonzero out =
 *  N(q)' in (in: nq values, out: nv) (Simbody's multiplyByN). O(n). */
TEAL_API int teal_mb_multiply_by_n(const teal_plant *plant, teal_mb_data *data, const double *q,
                                   int transpose, const double *in, double *out);

/** out = N+(q) in (in: nq values, out: nv), or with transpose nonzero out =
 *  N+(q)' in (in: nv values, out: nq) (Simbody's multiplyByNInv; N+ is the
 *  left inverse of joints.h). O(n). */
TEAL_API int teal_mb_multiply_by_n_inv(const teal_plant *plant, teal_mb_data *data, const double *q,
                                       int transpose, const double *in, double *out);

/** out = Ndot(q, v) in (in: nv values, out: nq), or with transpose nonzero
 *  out = Ndot(q, v)' in (in: nq values, out: nv) (Simbody's
 *  multiplyByNDot), Ndot the time derivative of N(q) along qdot = N(q) v.
 *  O(n). */
TEAL_API int teal_mb_multiply_by_n_dot(const teal_plant *plant, teal_mb_data *data, const double *q,
                                       const double *v, int transpose, const double *in,
                                       double *out);

/** qddot (nq) = N(q) vdot + Ndot(q, v) v (Simbody's calcQDotDot): the
 *  second time derivative of q for the velocities v and accelerations vdot
 *  (nv each). O(n). */
TEAL_API int teal_mb_calc_qddot(const teal_plant *plant, teal_mb_data *data, const double *q,
                                const double *v, const double *vdot, double *qddot);

#ifdef __cplusplus
}
#endif
#endif
