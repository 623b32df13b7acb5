/** @file
 * The plant's sensitivities to its bodies' inertial parameters in a
 * context: the parameters pi of a body as the context holds them, and the
 * exact derivative of the accelerations with respect to them, the
 * analytic stand-in for differentiating a Drake plant converted to
 * AutoDiff with respect to a mass (see multibody/algorithms/regressor.h
 * for pi's layout and the formula d vdot / d pi = -M^-1 Y).
 *
 * Both read the context's body inertia parameters (plant_parameters.h),
 * so after teal_plant_set_body_mass_in_context they differentiate at the
 * new mass. Errors are reported on ctx with a message: TEAL_EINVAL (NULL
 * plant, context or array, a context without the plant, the world or an
 * unknown body), TEAL_ESTATE (plant not finalized), TEAL_ENONFINITE (a NaN
 * or Inf state or input), TEAL_EUNSUPPORTED (see below). */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_PARAMETER_DERIVATIVES_H
#define TEAL_MULTIBODY_PLANT_PLANT_PARAMETER_DERIVATIVES_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The ten inertial parameters pi of body held in the context (mass,
 *  first moment m p_BoBcm_B, rotational inertia about Bo in B; layout in
 *  regressor.h), the values teal_plant_calc_forward_dynamics_parameter_derivatives
 *  differentiates with respect to. */
TEAL_API int teal_plant_get_body_inertial_parameters_in_context(const teal_plant *plant,
                                                                const teal_context *ctx, int body,
                                                                double *pi);

/** The continuous plant's accelerations vdot (nv) at the context's state,
 *  inputs and parameters, and their derivative dvdot_dpi (nv x 10,
 *  row-major, entry (i, j) = d vdot_i / d pi_j) with respect to the ten
 *  inertial parameters of body, everything else held fixed: the actuation,
 *  the joint damping, the force elements and contact forces depend on q, v
 *  and the inputs only, so they are part of the fixed generalized forces,
 *  and d vdot / d pi = -M^-1 Y(q, v, vdot) exactly. Column 0 is d vdot /
 *  d m at a fixed first moment and inertia about Bo; the derivative along a
 *  body scaled in mass with its shape kept is dvdot_dpi pi / m.
 *  TEAL_EUNSUPPORTED, naming the reason, for a discrete plant (its step is
 *  not a function of vdot; use teal_mb_forward_dynamics_parameter_derivatives
 *  with its forces), with rigid constraints enabled, or with joints locked
 *  or prescribed, whose forces would depend on pi too; TEAL_EINVAL for a
 *  body that is not a body index other than the world's (a negative one
 *  included: there is no all-bodies form here). O(n) per column;
 *  allocates nothing. */
TEAL_API int teal_plant_calc_forward_dynamics_parameter_derivatives(const teal_plant *plant,
                                                                    const teal_context *ctx,
                                                                    int body, double *vdot,
                                                                    double *dvdot_dpi);

#ifdef __cplusplus
}
#endif
#endif
