/** @file
 * Prescribed joint motion (Simbody's Motion) and the stabilization settings
 * of a continuous plant's held dofs.
 *
 * A prescribed 1-dof joint (revolute or prismatic) follows q_p(t) given by
 * a callback or a one-row piecewise polynomial instead of its dynamics: the
 * plant's accelerations solve M vdot + E' lambda = f with E vdot = qddot_p
 * (E selects the joint's dof), so the rest of the system feels the motion,
 * and the simulator's projection step sets q = q_p(t), v = qdot_p(t) after
 * every step (Simbody's prescribeQ and prescribeU). The generalized force
 * that produces the motion (Simbody's motion multipliers, with the sign of
 * an applied force) comes from teal_plant_calc_motion_forces, which also
 * reports the forces holding locked joints (joint_locking.h).
 *
 * Prescribing is a model declaration (before finalize) of a continuous
 * plant (time_step 0). */
#ifndef TEAL_MULTIBODY_PLANT_PRESCRIBED_MOTION_H
#define TEAL_MULTIBODY_PLANT_PRESCRIBED_MOTION_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/tree/plant_model.h"
#include "systems/primitives/piecewise_polynomial.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A prescribed motion: writes q_p(t), its rate and its second derivative.
 *  Returns TEAL_OK or a negative status (which stops the evaluation). */
typedef int (*teal_joint_motion_fn)(double t, double *q, double *qdot, double *qddot, void *user);

/** Prescribes the motion of 1-dof joint (revolute or prismatic) by fn
 *  (user is passed on and must outlive the plant). Sticky plant errors:
 *  TEAL_EINVAL for a NULL fn, an unknown joint, a joint of another kind or
 *  one already prescribed; TEAL_ESTATE after finalize. In a discrete plant
 *  each step sets the joint's next velocity to qdot_p(t + h) (held like a
 *  locked joint's), so q follows q_p to first order in h. */
TEAL_API int teal_plant_prescribe_joint_motion(teal_plant *plant, int joint,
                                               teal_joint_motion_fn fn, void *user);

/** teal_plant_prescribe_joint_motion with q_p(t) the one-row trajectory pp
 *  (borrowed: it must outlive the plant; held outside its breaks as the
 *  polynomial's evaluation defines). TEAL_ESIZE when pp has several rows;
 *  otherwise as teal_plant_prescribe_joint_motion. */
TEAL_API int teal_plant_prescribe_joint_trajectory(teal_plant *plant, int joint,
                                                   const teal_piecewise_polynomial *pp);

/** Nonzero when joint has a prescribed motion. */
TEAL_API int teal_plant_joint_is_prescribed(const teal_plant *plant, int joint);

/** The generalized forces tau (n = nv values) that make the held dofs
 *  (prescribed joints, locked joints) follow their motion in ctx: the force
 *  on each held dof that, applied with everything else, gives its
 *  prescribed acceleration; 0 on the other dofs. For a plant whose only
 *  held dof is prescribed this equals the inverse dynamics' tau at the
 *  plant's accelerations minus the applied forces on that dof. In a
 *  discrete plant: the impulses of the step from ctx's state on the held
 *  dofs, divided by h (the step's cache value, as for the discrete
 *  constraint multipliers). Reported on ctx: TEAL_EINVAL (NULL, a context
 *  without the plant), TEAL_ESIZE (n != nv), evaluation errors. */
TEAL_API int teal_plant_calc_motion_forces(const teal_plant *plant, const teal_context *ctx,
                                           double *tau, int n);

/** The held dofs' motion errors at level 0 (positions: q - q_p(t) on
 *  prescribed dofs), 1 (velocities: v - qdot_p on prescribed dofs, v on
 *  locked ones) or 2 (accelerations, with the plant's vdot: vdot - qddot_p,
 *  vdot) into err (n = nv values, 0 on free dofs) (Simbody's
 *  calcMotionErrors), all at ctx's time t. In a discrete plant the
 *  acceleration is the step's from ctx's state, (v+ - v) / h, so level 2 is
 *  first order in h; levels 0 and 1 read the state as they do when
 *  continuous. Reported on ctx: TEAL_EINVAL (NULL, a bad level),
 *  TEAL_ESIZE (n != nv), evaluation errors. */
TEAL_API int teal_plant_calc_motion_errors(const teal_plant *plant, const teal_context *ctx,
                                           int level, double *err, int n);

/** The power the held dofs' motion forces deliver, sum_i tau_i v_i
 *  (Simbody's calcMotionPower). In a discrete plant tau is the step's
 *  (impulses / h, teal_plant_calc_motion_forces) and v the velocity the
 *  step ends with, v+, the one its impulses work against. Errors as
 *  teal_plant_calc_motion_forces. */
TEAL_API int teal_plant_calc_motion_power(const teal_plant *plant, const teal_context *ctx,
                                          double *power);

/** Baumgarte stabilization of the held dofs' rows (and of the plant's
 *  constraint rows where it solves them): each row's acceleration target
 *  becomes a - 2 alpha e_dot - beta^2 e for its position error e, so drift
 *  decays instead of growing. Use it when the state is not projected after
 *  every step (a fixed-step integrator, teal_plant_set_constraint_projection
 *  off); with projection at a tight accuracy it is not needed. alpha and
 *  beta (1/s) must be finite and >= 0 (TEAL_EINVAL); 0, 0 (the default)
 *  turns it off. Before finalize (TEAL_ESTATE). */
TEAL_API int teal_plant_set_baumgarte_stabilization(teal_plant *plant, double alpha, double beta);

/** Turns the projection of the held dofs (and of the plant's constraints)
 *  onto their manifold after every step on (enabled != 0, the default) or
 *  off. Quaternions are normalized either way. Before finalize
 *  (TEAL_ESTATE). */
TEAL_API int teal_plant_set_constraint_projection(teal_plant *plant, int enabled);

#ifdef __cplusplus
}
#endif
#endif
