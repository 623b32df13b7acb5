/** @file
 * The articulated-body algorithm (Featherstone's ABA): the articulated
 * factorization of M, solves with M^-1 and forward dynamics in O(n) (see
 * data.h for the conventions and the stages). */
#ifndef TEAL_MULTIBODY_ALGORITHMS_ABA_H
#define TEAL_MULTIBODY_ALGORITHMS_ABA_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/tree/plant_model.h"
#include "multibody/algorithms/data.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Factorizes M(q) by the articulated-body inertias (one inward pass), kept
 *  in data for teal_mb_articulated_solve. The factorization stays valid until
 *  a call on data brings in a different q (teal_mb_forward_dynamics also
 *  leaves a valid factorization of its q). TEAL_ESINGULAR if some articulated
 *  joint inertia is not positive definite (e.g. a point mass on its own
 *  revolute axis). */
TEAL_API int teal_mb_articulated_factor(const teal_plant *plant, teal_mb_data *data,
                                        const double *q);

/** x = M(q)^-1 (rhs + J(q)' F_Bo_W) in O(n) with the factorization of the
 *  latest teal_mb_articulated_factor or teal_mb_forward_dynamics call (two
 *  passes, no kinematics). rhs has nv values; F_Bo_W (num_bodies, by body
 *  index, as F_app_Bo_W in the file comment) may be NULL. x may alias rhs.
 *  TEAL_ESTATE if there is no valid factorization (none yet, the latest
 *  failed, or data has since seen another q).
 *  As M^-1 is linear, forward dynamics for a new actuation tau2 follows from
 *  an earlier result: vdot(tau2) = vdot(tau1) + M^-1 (tau2 - tau1). */
TEAL_API int teal_mb_articulated_solve(const teal_plant *plant, teal_mb_data *data,
                                       const double *rhs, const teal_spatial_vector *F_Bo_W,
                                       double *x);

/** Forward dynamics (articulated-body algorithm, three O(n) passes):
 *  vdot = M^-1 (tau_g + tau + J' F_app - C v), gravity included: the data's
 *  (teal_mb_data_gravity; teal_mb_data_set_gravity(data, zero vector) leaves
 *  it out, as Simbody's calcAccelerationIgnoringConstraints, which takes
 *  gravity among the applied body forces), tau (nv) the
 *  generalized forces (actuation plus applied; NULL: zero), F_app_Bo_W
 *  (num_bodies, see the file comment) the applied spatial forces (NULL:
 *  none). Leaves the factorization of M(q) in data for
 *  teal_mb_articulated_solve. TEAL_ESINGULAR if some articulated joint
 *  inertia is not positive definite. */
TEAL_API int teal_mb_forward_dynamics_ex(const teal_plant *plant, teal_mb_data *data,
                                         const double *q, const double *v, const double *tau,
                                         const teal_spatial_vector *F_app_Bo_W, double *vdot);

/** teal_mb_forward_dynamics_ex without applied spatial forces. */
TEAL_API int teal_mb_forward_dynamics(const teal_plant *plant, teal_mb_data *data, const double *q,
                                      const double *v, const double *tau, double *vdot);

#ifdef __cplusplus
}
#endif
#endif
