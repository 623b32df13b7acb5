/** @file
 * The recursive Newton-Euler algorithm (RNEA): inverse dynamics, the bias
 * term, gravity forces, M v without forming M, and joint reaction forces (see
 * data.h for the conventions). */
#ifndef TEAL_MULTIBODY_ALGORITHMS_RNEA_H
#define TEAL_MULTIBODY_ALGORITHMS_RNEA_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/tree/plant_model.h"
#include "multibody/algorithms/data.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Inverse dynamics (RNEA, O(n)): tau (nv) such that
 *  M(q) vdot + C(q, v) v = tau_g(q) + tau_applied + J' F_app + tau, that is
 *  tau = M vdot + C v - tau_g - tau_applied - J' F_app. This low-level
 *  function keeps its own convention: it INCLUDES gravity, the data's
 *  (teal_mb_data_gravity; teal_mb_data_set_gravity(data, zero vector)
 *  leaves it out), whereas Drake's CalcInverseDynamics, and the plant's
 *  teal_plant_calc_inverse_dynamics, see gravity only through the applied
 *  forces. tau_applied (nv) and
 *  F_app_Bo_W (num_bodies, see the file comment) may be NULL (zero). q has nq
 *  values (quaternions are used as given; normalize them first), v and vdot
 *  nv values. tau may not alias the inputs. */
TEAL_API int teal_mb_inverse_dynamics_ex(const teal_plant *plant, teal_mb_data *data,
                                         const double *q, const double *v, const double *vdot,
                                         const double *tau_applied,
                                         const teal_spatial_vector *F_app_Bo_W, double *tau);

/** teal_mb_inverse_dynamics_ex without applied spatial forces. */
TEAL_API int teal_mb_inverse_dynamics(const teal_plant *plant, teal_mb_data *data, const double *q,
                                      const double *v, const double *vdot,
                                      const double *tau_applied, double *tau);

/** The bias term C(q, v) v (nv): RNEA with vdot = 0 and no gravity. */
TEAL_API int teal_mb_bias_term(const teal_plant *plant, teal_mb_data *data, const double *q,
                               const double *v, double *Cv);

/** The generalized gravity forces tau_g(q) (nv), the right-hand-side sign:
 *  tau_g = -RNEA(q, v = 0, vdot = 0) with gravity; for a pendulum hanging
 *  from a hinge tau_g = -m g l sin(theta). */
TEAL_API int teal_mb_gravity_forces(const teal_plant *plant, teal_mb_data *data, const double *q,
                                    double *tau_g);

/** Joint reaction forces (Drake's reaction_forces output): for every joint j
 *  (num_joints entries, indexed by joint index, floating joints added at
 *  finalize included), F_CJc_Jc[j] = [torque; force] is the spatial force
 *  exerted on the joint's child body C by its parent body through the joint,
 *  applied at the origin of the joint's child frame Jc (frame M) and
 *  expressed in Jc. It is everything the joint transmits: the constraint
 *  force plus the joint's own generalized force (actuation, damping) along
 *  its motion subspace. It follows from the motion (q, v, vdot), gravity and
 *  F_app_Bo_W (may be NULL) alone, by the RNEA backward pass, so pass the
 *  vdot of the actual motion (e.g. from teal_mb_forward_dynamics_ex with the
 *  same applied forces). */
TEAL_API int teal_mb_reaction_forces(const teal_plant *plant, teal_mb_data *data, const double *q,
                                     const double *v, const double *vdot,
                                     const teal_spatial_vector *F_app_Bo_W,
                                     teal_spatial_vector *F_CJc_Jc);

/** Mv = M(q) v (nv) in O(n) without forming M (RNEA with the accelerations v,
 *  no velocity terms and no gravity). Mv may not alias v. */
TEAL_API int teal_mb_mass_matrix_times(const teal_plant *plant, teal_mb_data *data, const double *q,
                                       const double *v, double *Mv);

#ifdef __cplusplus
}
#endif
#endif
