/** @file
 * The inertial-parameter regressor of inverse dynamics and the derivatives
 * of the dynamics with respect to the bodies' masses and inertias, the
 * exact, analytic counterpart of differentiating with respect to a mass by
 * scalar conversion (Drake's AutoDiff): inverse dynamics is linear in each
 * body's ten inertial parameters (Atkeson, An and Hollerbach 1986;
 * Featherstone's RBDA), so
 * @code{.unparsed}
 *     tau_ID(q, v, vdot) = Y(q, v, vdot) pi + diag(reflected) vdot,
 * @endcode
 * with tau_ID the inverse dynamics of teal_mb_inverse_dynamics (gravity
 * included, the data's) and pi the parameters of every body stacked in body
 * order. What is not in pi: the joints' armatures and the actuators'
 * reflected inertias (diag(reflected), the term on the right, which does
 * not depend on pi), and, as for the dynamics themselves, joint damping,
 * force elements, contact and constraints, none of which the algorithms
 * include (see data.h).
 *
 * The parameters of body B (TEAL_MB_NUM_INERTIAL_PARAMETERS of them), all
 * in B's frame and about its origin Bo, as teal_spatial_inertia M_BBo_B:
 * @code{.unparsed}
 *     pi_B = [m, m px, m py, m pz, Ixx, Iyy, Izz, Ixy, Ixz, Iyz]
 * @endcode
 * with p = p_BoBcm_B the center of mass and Ixx ... Iyz the entries (0,0),
 * (1,1), (2,2), (0,1), (0,2), (1,2) of the rotational inertia matrix
 * I_BBo_B about Bo (the tensor's entries: a product of inertia Ixy is
 * -sum m x y). They are linear in the mass distribution, which makes tau
 * linear in them; the center of mass and the central inertia are not.
 *
 * Y is nv x (10 num_bodies), row-major, one block of ten columns per body
 * in body-index order, the world's block (body 0) included and zero, so
 * body b's columns start at 10 b as F_app_Bo_W is indexed by body. Row i
 * depends only on the bodies outboard of dof i. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_REGRESSOR_H
#define TEAL_MULTIBODY_ALGORITHMS_REGRESSOR_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/algorithms/data.h"
#include "multibody/math/spatial_inertia.h"
#include "multibody/math/spatial_vector.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The number of inertial parameters of one body. */
#define TEAL_MB_NUM_INERTIAL_PARAMETERS 10

/** The body argument that selects every body (teal_mb_forward_dynamics_parameter_derivatives). */
#define TEAL_MB_ALL_BODIES (-1)

/** pi (10 values, see the file comment) of the spatial inertia M_BBo_B.
 *  TEAL_EINVAL for a NULL argument (nothing to report it on). */
TEAL_API int teal_mb_inertial_parameters(const teal_spatial_inertia *M_BBo_B, double *pi);

/** The spatial inertia M_BBo_B with the parameters pi (10 values), the
 *  inverse of teal_mb_inertial_parameters, for a parameter vector a user
 *  estimated: p = (m px, m py, m pz) / m. The result is checked as
 *  teal_spatial_inertia_check does (finite, mass at least
 *  TEAL_SPATIAL_INERTIA_MIN_MASS, a physical central inertia): an
 *  identified pi need not be physical. Errors (TEAL_EINVAL, TEAL_ENONFINITE)
 *  are recorded in err (may be NULL). */
TEAL_API int teal_mb_spatial_inertia_from_parameters(const double *pi,
                                                     teal_spatial_inertia *M_BBo_B,
                                                     teal_error *err);

/** pi (10 values) of body as data holds it: the model's inertia for data
 *  of one's own, the context's for the plant's own data, so exactly the
 *  parameters that Y multiplies. TEAL_EINVAL for the world (it has no
 *  parameters), an unknown body or a NULL pi. */
TEAL_API int teal_mb_body_inertial_parameters(const teal_plant *plant, teal_mb_data *data, int body,
                                              double *pi);

/** The regressor Y (nv x 10 num_bodies, row-major, see the file comment) at
 *  (q, v, vdot): Y pi + diag(reflected) vdot = teal_mb_inverse_dynamics(q,
 *  v, vdot) with gravity (the data's), and Y itself is the derivative of
 *  the inverse dynamics with respect to pi. One outward pass, then per body
 *  ten spatial forces projected on the motion subspaces of its ancestors:
 *  O(nv depth). Errors as teal_mb_inverse_dynamics; allocates nothing. */
TEAL_API int teal_mb_inverse_dynamics_regressor(const teal_plant *plant, teal_mb_data *data,
                                                const double *q, const double *v,
                                                const double *vdot, double *Y);

/** The forward dynamics vdot (nv) of teal_mb_forward_dynamics_ex at (q, v,
 *  tau, F_app_Bo_W) and its exact derivative with respect to the inertial
 *  parameters with tau and F_app_Bo_W held fixed: since ID(q, v, vdot(pi);
 *  pi) = tau + J' F for every pi,
 *  @code{.unparsed}
 *      d vdot / d pi = -M(q)^-1 Y(q, v, vdot).
 *  @endcode
 *  body is a body index (not the world): dvdot_dpi is nv x 10, the columns
 *  of that body's pi; or TEAL_MB_ALL_BODIES: nv x 10 num_bodies, laid out
 *  as Y. Row-major, entry (i, j) = d vdot_i / d pi_j. tau and F_app_Bo_W may
 *  be NULL (zero). One articulated solve per column, O(n) each; allocates
 *  nothing. Errors as teal_mb_forward_dynamics_ex, and TEAL_EINVAL for an
 *  unknown body or a NULL output. */
TEAL_API int teal_mb_forward_dynamics_parameter_derivatives(const teal_plant *plant,
                                                            teal_mb_data *data, const double *q,
                                                            const double *v, const double *tau,
                                                            const teal_spatial_vector *F_app_Bo_W,
                                                            int body, double *vdot,
                                                            double *dvdot_dpi);

#ifdef __cplusplus
}
#endif
#endif
