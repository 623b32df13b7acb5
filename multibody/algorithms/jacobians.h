/** @file
 * Jacobians of a finalized plant (see plant_model.h) and the O(n) operators
 * J u and J' F.
 *
 * Point Jacobians. For a point Q fixed on frame F (given by p_FQ, measured
 * from Fo and expressed in F), the spatial velocity of Q measured in frame A
 * and expressed in frame E is linear in the speeds s:
 * @code{.unparsed}
 *     V_AFq_E = [w_AF_E; v_AFq_E] = Js_V_AFq_E s,
 * @endcode
 * where s is either v (nv columns) or qdot (nq columns), as Drake's
 * CalcJacobianSpatialVelocity(context, wrt, frame_F, p_FQ, frame_A, frame_E).
 * v_AFq is the derivative in A of Q's position from any point fixed in A, so
 * v_AFq = v_WFq - v_WAq with Aq the point of A coincident with Q, and
 * w_AF = w_WF - w_WA. The Jacobian with respect to qdot is Jq = Jv N+(q)
 * (N+ from the joint tables), so that Jq qdot = Jv v for every qdot = N(q) v.
 * Matrices are row-major, rows [angular (3); linear (3)] for the spatial
 * Jacobian; columns are in v (or q) order. The world frame is
 * TEAL_WORLD_FRAME.
 *
 * Bias accelerations. With vdot the generalized accelerations, the spatial
 * acceleration of Q in A is A_AFq = Jv_V_AFq vdot + AvBias_AFq, where the bias
 * AvBias_AFq = Jvdot v is A_AFq evaluated at vdot = 0 (Drake's
 * CalcBiasSpatialAcceleration with wrt = kV; here frame A may be any frame).
 * Both derivatives are taken in A, then the result is expressed in E.
 *
 * Operators. teal_mb_jacobian_apply is J u for the spatial velocities of all
 * bodies at their origins, in W (a velocity pass with v = u), and
 * teal_mb_jacobian_apply_transpose is J' F for per-body spatial forces F_Bo_W
 * at the body origins, in W (one inward pass): the generalized force whose
 * power with any u equals sum_B F_Bo_W[B] . V_WB(u). Neither forms J.
 *
 * Quaternions in q are used as given (normalize them first). Every function
 * validates its arguments: TEAL_EINVAL for a NULL pointer, a bad frame index,
 * a bad wrt or data made for another plant, TEAL_ESTATE for a plant
 * that is not finalized, TEAL_ENONFINITE for a NaN/Inf input (the message in
 * data's error record names the argument). None allocates once data
 * exists; they are not thread-safe on shared data. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_JACOBIANS_H
#define TEAL_MULTIBODY_ALGORITHMS_JACOBIANS_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/algorithms/data.h"
#include "multibody/tree/forest.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Which speeds a Jacobian multiplies (Drake's JacobianWrtVariable). */
typedef enum teal_jacobian_wrt {
  TEAL_JACOBIAN_WRT_V = 0, /**< generalized velocities v: nv columns */
  TEAL_JACOBIAN_WRT_QDOT   /**< time derivatives of q: nq columns */
} teal_jacobian_wrt;

/** Js_V_AFq_E (6 x n, row-major, n = nv or nq by wrt): the spatial velocity
 *  Jacobian of the point Q at p_FQ fixed on frame_F, measured in frame_A and
 *  expressed in frame_E. Columns of joints outside the paths from F and A to
 *  their common ancestor are zero. */
TEAL_API int teal_mb_jacobian_spatial_velocity(const teal_plant *plant, teal_mb_data *data,
                                               const double *q, teal_jacobian_wrt wrt, int frame_F,
                                               teal_vec3 p_FQ, int frame_A, int frame_E, double *J);

/** Js_w_AF_E (3 x n, row-major): the angular velocity Jacobian of frame_F
 *  measured in frame_A, expressed in frame_E (rows 0..2 of the spatial one). */
TEAL_API int teal_mb_jacobian_angular_velocity(const teal_plant *plant, teal_mb_data *data,
                                               const double *q, teal_jacobian_wrt wrt, int frame_F,
                                               int frame_A, int frame_E, double *J);

/** Js_v_AFq_E (3 x n, row-major): the translational velocity Jacobian of Q
 *  (rows 3..5 of the spatial one). */
TEAL_API int teal_mb_jacobian_translational_velocity(const teal_plant *plant, teal_mb_data *data,
                                                     const double *q, teal_jacobian_wrt wrt,
                                                     int frame_F, teal_vec3 p_FQ, int frame_A,
                                                     int frame_E, double *J);

/** AvBias_AFq_E = Jvdot v: the spatial acceleration of Q (at p_FQ on frame_F)
 *  measured in frame_A, expressed in frame_E, at vdot = 0. O(n). */
TEAL_API int teal_mb_bias_spatial_acceleration(const teal_plant *plant, teal_mb_data *data,
                                               const double *q, const double *v, int frame_F,
                                               teal_vec3 p_FQ, int frame_A, int frame_E,
                                               teal_spatial_vector *AsBias_AFq_E);

/** avBias_AFq_E: the translational part of the bias spatial acceleration. */
TEAL_API int teal_mb_bias_translational_acceleration(const teal_plant *plant, teal_mb_data *data,
                                                     const double *q, const double *v, int frame_F,
                                                     teal_vec3 p_FQ, int frame_A, int frame_E,
                                                     teal_vec3 *aBias_AFq_E);

/** J u: V_WB for every body (num_bodies entries, indexed by body, world
 *  first and zero), the spatial velocities at the body origins in W produced
 *  by the generalized velocity u (nv). O(n). */
TEAL_API int teal_mb_jacobian_apply(const teal_plant *plant, teal_mb_data *data, const double *q,
                                    const double *u, teal_spatial_vector *V_WB);

/** J' F: the generalized force tau (nv) of the per-body spatial forces
 *  F_Bo_W (num_bodies entries, indexed by body; moments about each body
 *  origin, in W; the world entry is ignored). For any u, tau . u =
 *  sum_B F_Bo_W[B] . V_WB(u). One inward pass, O(n). */
TEAL_API int teal_mb_jacobian_apply_transpose(const teal_plant *plant, teal_mb_data *data,
                                              const double *q, const teal_spatial_vector *F_Bo_W,
                                              double *tau);

/** Adds sign times the translational velocity Jacobian of the point of
 *  body fixed at p_WQ (in W), restricted to the dofs of body's tree, into J
 *  (3 x m_t, row-major, local order; nothing for an anchored body). It
 *  reads the position stage that data holds (the kinematics of the latest q
 *  a call on data took, e.g. teal_mb_mass_matrix_blocks or forward dynamics):
 *  O(depth of body), no kinematics pass, so many contact points cost one
 *  pass in all. TEAL_ESTATE when data holds no position stage, TEAL_EINVAL
 *  for a bad body, a NULL pointer or trees of another plant,
 *  TEAL_ENONFINITE for a NaN/Inf p_WQ. */
TEAL_API int teal_mb_tree_point_jacobian(const teal_plant *plant, teal_mb_data *data,
                                         const teal_mb_trees *trees, int body, teal_vec3 p_WQ,
                                         double sign, double *J);

#ifdef __cplusplus
}
#endif
#endif
