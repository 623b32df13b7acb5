/** @file
 * The combined force contribution of a plant's force elements at a context
 * (Drake's MultibodyPlant::CalcForceElementsContribution), with what Drake
 * counts among them: its UniformGravityFieldElement (always present) and the
 * joint damping it adds with them.
 *
 * The result is what stands on the right-hand side of the equations of
 * motion beside the actuation and the externally applied forces:
 *   M(q) vdot + C(q, v) v = tau + sum_B J_B^T F_Bo_W[B] + B u + (applied),
 * with J_B the spatial velocity Jacobian of body B's origin, so it can be
 * handed to inverse dynamics as an applied force. Gravity is applied as the
 * spatial force m_B g at each body's center of mass, g read from the
 * context's gravity parameter (teal_plant_set_gravity_in_context), joint
 * damping as the generalized force -d_i v_i, and the elements (built-in and
 * user, force_elements.h) as teal_plant_calc_force_elements adds them.
 * teal_plant_calc_force_elements remains the low-level call that adds the
 * elements only, from explicit q, v, poses and velocities. */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_FORCE_CONTRIBUTION_H
#define TEAL_MULTIBODY_PLANT_PLANT_FORCE_CONTRIBUTION_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Writes the force contribution of gravity, joint damping and the force
 *  elements at the state of ctx (the plant's context or a diagram context
 *  holding it) into tau (nv values, n_tau must be nv) and F_Bo_W (spatial
 *  forces at the body origins in W, by body index, n_F must be the number
 *  of bodies, the world's entry left zero). Both are overwritten, not
 *  accumulated. Allocates nothing. Errors are recorded in the context:
 *  TEAL_EINVAL for a NULL argument or a context without the plant,
 *  TEAL_ESTATE before finalize, TEAL_ESIZE for wrong sizes, and the code of
 *  a failing element (a zero-length spring, a bushing at gimbal lock, a user
 *  callback) with a message naming it. */
TEAL_API int teal_plant_calc_force_elements_contribution(const teal_plant *plant,
                                                         const teal_context *ctx, double *tau,
                                                         int n_tau, teal_spatial_vector *F_Bo_W,
                                                         int n_F);

#ifdef __cplusplus
}
#endif
#endif
