/** @file
 * Analytic derivatives of forward dynamics (the articulated-body algorithm,
 * aba.h): dvdot/dq, dvdot/dv and dvdot/dtau = M(q)^-1, from the derivatives
 * of inverse dynamics (rnea_derivatives.h): at vdot = ABA(q, v, tau),
 * ID(q, v, vdot) = tau, so dvdot/dx = -M^-1 dID/dx for x = q, v. dvdot/dq
 * is in the tangent form described in rnea_derivatives.h. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_ABA_DERIVATIVES_H
#define TEAL_MULTIBODY_ALGORITHMS_ABA_DERIVATIVES_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/rnea_derivatives.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The derivatives of teal_mb_forward_dynamics_ex (gravity included, the
 *  data's) at (q, v, tau), the spatial forces F_app_Bo_W (may be NULL) held
 *  fixed at the body origins: vdot (nv), dvdot_dq (tangent form), dvdot_dv
 *  and dvdot_dtau = M^-1 (each nv x nv row-major, entry (i, j) =
 *  d vdot_i / d x_j). tau and dvdot_dtau may be NULL (zero torques; M^-1 not
 *  wanted). O(n^2) plus the nv^3 products with M^-1; allocates nothing.
 *  Errors as teal_mb_forward_dynamics_ex and
 *  teal_mb_inverse_dynamics_derivatives. */
TEAL_API int teal_mb_forward_dynamics_derivatives(const teal_plant *plant, teal_mb_data *data,
                                                  teal_mb_derivatives *ws, const double *q,
                                                  const double *v, const double *tau,
                                                  const teal_spatial_vector *F_app_Bo_W,
                                                  double *vdot, double *dvdot_dq, double *dvdot_dv,
                                                  double *dvdot_dtau);

#ifdef __cplusplus
}
#endif
#endif
