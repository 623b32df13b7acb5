/** @file
 * The plant's inverse dynamics and gravity forces in a context, with
 * Drake's semantics (MultibodyPlant::CalcInverseDynamics and
 * CalcGravityGeneralizedForces).
 *
 * The equations of motion are M(q) vdot + C(q, v) v = tau_g(q) + tau_app +
 * sum_B J_WB' Fapp_Bo_W. teal_plant_calc_inverse_dynamics returns
 * @code{.unparsed}
 *   tau = M(q) vdot + C(q, v) v - tau_app - sum_B J_WB(q)' Fapp_Bo_W,
 * @endcode
 * and nothing else: gravity, joint damping, force elements, actuation and
 * the plant's input ports are NOT included. Gravity enters only when the
 * caller passes it among the applied forces, e.g. tau_app = tau_g from
 * teal_plant_calc_gravity_generalized_forces, as Drake's caller passes the
 * forces of CalcForceElementsContribution. The low-level
 * teal_mb_inverse_dynamics_ex (rnea.h) keeps its own convention and
 * includes its data's gravity.
 *
 * Gravity is the context's (the plant system's "gravity" parameter,
 * teal_plant_set_gravity_in_context), as for the plant's dynamics. Both
 * functions take the plant's context or one above it, read q and v from
 * it, allocate nothing and write into caller memory. Errors are reported
 * on ctx with a message: TEAL_EINVAL (NULL plant, context or array, a
 * context without the plant), TEAL_ESTATE (plant not finalized),
 * TEAL_ENONFINITE (a NaN or Inf input, naming the array and entry). */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_INVERSE_DYNAMICS_H
#define TEAL_MULTIBODY_PLANT_PLANT_INVERSE_DYNAMICS_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Drake's CalcInverseDynamics: tau (nv) = M vdot + C v - tau_applied -
 *  sum_B J_WB' F_applied_Bo_W[B] at the q and v of ctx (see the file
 *  comment; gravity only through the applied forces). vdot has nv values;
 *  tau_applied (nv) and F_applied_Bo_W (num_bodies, by body index, each
 *  [torque; force] about the body origin, in W; entry 0 ignored) may be NULL
 *  (zero). tau_out may not alias the inputs. */
TEAL_API int teal_plant_calc_inverse_dynamics(const teal_plant *plant, const teal_context *ctx,
                                              const double *vdot, const double *tau_applied,
                                              const teal_spatial_vector *F_applied_Bo_W,
                                              double *tau_out);

/** Drake's CalcGravityGeneralizedForces: tau_g(q) (nv) at the q of ctx with
 *  the context's gravity, on the right-hand side of the equations of motion
 *  (v . tau_g is the power of gravity; a 1 kg pendulum of length l hanging
 *  at angle theta gets -m g l sin(theta)). */
TEAL_API int teal_plant_calc_gravity_generalized_forces(const teal_plant *plant,
                                                        const teal_context *ctx, double *tau_g);

#ifdef __cplusplus
}
#endif
#endif
