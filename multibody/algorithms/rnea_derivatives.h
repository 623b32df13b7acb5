/** @file
 * Analytic derivatives of inverse dynamics (the recursive Newton-Euler
 * algorithm, rnea.h): d tau / dq, d tau / dv and d tau / dvdot = M(q), in
 * the manner of Carpentier and Mansard's derivatives of RNEA: one inward
 * pass of subtree composites, then per velocity direction O(1) work per
 * outboard body and a projection per ancestor, O(n^2) in all, with no
 * finite differences.
 *
 * Derivatives with respect to q are taken in the tangent space, one column
 * per velocity index: column j is d/de tau(q (+) e e_j), where q (+) e e_j
 * moves q along N(q) e_j, so that the bodies outboard of the dof's joint
 * move rigidly by the joint's motion-subspace column j. For joints with
 * nq == nv and v = qdot (revolute, prismatic, screw, universal, planar)
 * this is d/dq itself. For the others chain with the joint's N+(q): the
 * derivative with respect to the coordinates q is (d/d tangent) N+(q) for
 * ball_rpy and rpy_floating (N+ = N^-1), and for the quaternion joints too,
 * the rotation of a quaternion being independent of its norm (the radial
 * direction, which N+ annihilates, changes nothing). */
#ifndef TEAL_MULTIBODY_ALGORITHMS_RNEA_DERIVATIVES_H
#define TEAL_MULTIBODY_ALGORITHMS_RNEA_DERIVATIVES_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/algorithms/data.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The working memory of the derivative algorithms (rnea_derivatives.h,
 *  aba_derivatives.h) for one plant: allocated once by
 *  teal_mb_derivatives_new, so that the derivative calls allocate nothing. */
typedef struct teal_mb_derivatives teal_mb_derivatives;

/** A derivative workspace for the finalized plant (O(nv^2) doubles). NULL
 *  with err set (if not NULL) for a NULL or unfinalized plant or when out of
 *  memory. */
TEAL_API teal_mb_derivatives *teal_mb_derivatives_new(const teal_plant *plant, teal_error *err);

/** Frees a workspace (NULL is a no-op). */
TEAL_API void teal_mb_derivatives_free(teal_mb_derivatives *ws);

/** The derivatives of teal_mb_inverse_dynamics_ex (gravity included, as
 *  there: tau = M vdot + C v - tau_g - tau_applied - J' F_app) at (q, v,
 *  vdot), with tau_applied and the spatial forces F_app_Bo_W (applied at
 *  the body origins, in W) held fixed: dtau_dq (tangent form, see the file
 *  comment), dtau_dv and dtau_dvdot = M(q), each nv x nv row-major, entry
 *  (i, j) = d tau_i / d x_j. tau (nv), dtau_dvdot, tau_applied and
 *  F_app_Bo_W may be NULL. ws must be made for plant. Errors as
 *  teal_mb_inverse_dynamics_ex, and TEAL_EINVAL for a NULL or foreign
 *  workspace or a NULL dtau_dq or dtau_dv (message in
 *  teal_mb_data_error(data)). Allocates nothing. */
TEAL_API int teal_mb_inverse_dynamics_derivatives(const teal_plant *plant, teal_mb_data *data,
                                                  teal_mb_derivatives *ws, const double *q,
                                                  const double *v, const double *vdot,
                                                  const double *tau_applied,
                                                  const teal_spatial_vector *F_app_Bo_W,
                                                  double *tau, double *dtau_dq, double *dtau_dv,
                                                  double *dtau_dvdot);

#ifdef __cplusplus
}
#endif
#endif
