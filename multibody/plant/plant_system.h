/** @file
 * The plant as a leaf system (Drake's MultibodyPlant as a System).
 *
 * teal_plant_finalize builds the system; teal_plant_system returns it. The
 * system owns the plant from then on: add the system to a builder and the
 * diagram frees both; a plant whose system no builder owns is freed by
 * teal_plant_free as before.
 *
 * State. With time_step == 0 the state is continuous, x = [q; v], with
 * qdot = N(q) v and vdot from the articulated-body algorithm; quaternions
 * are normalized by the simulator's projection step, which also holds
 * locked and prescribed joints to their motion and projects q and v onto
 * the constraints (joint_locking.h, prescribed_motion.h,
 * docs/constraint_projection.md). With time_step > 0 it
 * is one discrete group [q; v] updated every time_step by semi-implicit
 * Euler with the joint damping D implicit, as in Drake's discrete solvers:
 * (M + h D)(v+ - v) = h (tau - D v - C v + tau_g), then joint position
 * limits are enforced as hard unilateral constraints on v+ (one small
 * complementarity problem over the violated limits, solved with
 * (M + h D)^-1 through the articulated-body factorization, so the limit
 * impulse moves the whole tree consistently),
 * then q+ = q + h N(q) v+ with quaternions normalized. Continuous mode
 * ignores position limits, as Drake does, and says so once: finalize counts
 * a warning (teal_plant_warning_count, teal_plant_warning_message in
 * plant_contact.h) when some joint has finite position limits.
 *
 * Effort limits. In both modes each actuator's joint effort gain * u
 * (the input gain, actuator_gain.h, is 1 by default) is clamped to
 * [-limit, limit] (teal_plant_actuator_effort_limit, Drake's
 * GetEffortLowerLimits / GetEffortUpperLimits) before it enters tau; the
 * seed calls effort_limit "the maximum effort" and documents no mode
 * without it. applied_generalized_force is never clamped.
 *
 * Generalized forces. tau = B u + applied_generalized_force - damping v +
 * revolute springs, plus J' F for the applied spatial forces and the
 * force elements, plus gravity. Gravity lives in the context as numeric
 * parameter "gravity" (3 values, default teal_plant_gravity at finalize),
 * so changing it invalidates the cached results. Numeric parameters 1 and
 * 2 hold the body inertias and the joint damping (plant_parameters.h);
 * parameter 3 holds the version of the contact settings a context's cached
 * values were computed with (see teal_plant_set_penetration_allowance),
 * which the plant keeps up to date.
 *
 * Ports (Drake's names, indices from the getters below):
 * @code{.unparsed}
 *   inputs  actuation (nu, whole plant), <instance>_actuation (per model
 *           instance, its actuators in index order), applied_generalized_force
 *           (nv), applied_spatial_force (teal_applied_spatial_force_list).
 *           Unconnected inputs count as zero; connecting both the whole-plant
 *           actuation and an instance's is an error (TEAL_EINVAL) at
 *           evaluation.
 *   outputs state ([q; v]), <instance>_state ([q_i; v_i]),
 *           generalized_acceleration (nv), <instance>_generalized_acceleration
 *           (its v entries), body_poses (teal_transform_list,
 *           X_WB by body index), body_spatial_velocities,
 *           body_spatial_accelerations (teal_spatial_vector_list, by body),
 *           reaction_forces (teal_spatial_vector_list, F_CJc_Jc by joint).
 *   The geometry and contact ports come with the scene graph.
 * @endcode
 *
 * Functions taking a context accept the plant's own context or any
 * context above it (the plant's subcontext is then looked up). */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_SYSTEM_H
#define TEAL_MULTIBODY_PLANT_PLANT_SYSTEM_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/system.h"
#include "multibody/tree/plant_model.h"
#include "multibody/plant/plant_values.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The plant's system (NULL before finalize). */
TEAL_API teal_system *teal_plant_system(teal_plant *plant);

/** The plant of a system made by teal_plant_finalize, or NULL for any other
 *  system. */
TEAL_API teal_plant *teal_plant_from_system(const teal_system *sys);

/* ---- port indices (negative status before finalize or on a bad instance) */

/** Index of the input port "actuation" (nu, whole plant). Like every port
 *  getter here, it returns a negative status before finalize (or on a bad
 *  instance). */
TEAL_API int teal_plant_actuation_input_port(const teal_plant *plant);
/** Index of the input port "<instance>_actuation" of a model instance. */
TEAL_API int teal_plant_instance_actuation_input_port(const teal_plant *plant, int instance);
/** Index of the input port "applied_generalized_force" (nv). */
TEAL_API int teal_plant_applied_generalized_force_input_port(const teal_plant *plant);
/** Index of the input port "applied_spatial_force" (teal_applied_spatial_force_list). */
TEAL_API int teal_plant_applied_spatial_force_input_port(const teal_plant *plant);
/** Index of the output port "state" ([q; v]). */
TEAL_API int teal_plant_state_output_port(const teal_plant *plant);
/** Index of the output port "<instance>_state" ([q_i; v_i]) of a model instance. */
TEAL_API int teal_plant_instance_state_output_port(const teal_plant *plant, int instance);
/** Index of the output port "<instance>_generalized_acceleration" of a model
 *  instance: the entries of "generalized_acceleration" at the instance's v
 *  indices, in increasing order (zero-length for an instance without
 *  velocities). TEAL_ENOTFOUND for an unknown instance, TEAL_ESTATE before
 *  finalize, TEAL_EINVAL for a NULL plant. */
TEAL_API int teal_plant_instance_generalized_acceleration_output_port(const teal_plant *plant,
                                                                      int instance);
/** Index of the output port "generalized_acceleration" (nv). */
TEAL_API int teal_plant_generalized_acceleration_output_port(const teal_plant *plant);
/** Index of the output port "body_poses" (teal_transform_list). */
TEAL_API int teal_plant_body_poses_output_port(const teal_plant *plant);
/** Index of the output port "body_spatial_velocities" (teal_spatial_vector_list). */
TEAL_API int teal_plant_body_spatial_velocities_output_port(const teal_plant *plant);
/** Index of the output port "body_spatial_accelerations" (teal_spatial_vector_list). */
TEAL_API int teal_plant_body_spatial_accelerations_output_port(const teal_plant *plant);
/** Index of the output port "reaction_forces" (teal_spatial_vector_list, by joint). */
TEAL_API int teal_plant_reaction_forces_output_port(const teal_plant *plant);

/* ---- state in a context ------------------------------------------------ */

/* ---- cached results (borrowed, valid until the context changes) ---------- */

/** Index of the input port "geometry_query" (teal_point_pair_list). Like
 *  every port getter here, it returns a negative status before finalize (or
 *  on a bad instance). */
TEAL_API int teal_plant_geometry_query_input_port(const teal_plant *plant);

/** Index of the output port "geometry_pose" (teal_transform_list). */
TEAL_API int teal_plant_geometry_pose_output_port(const teal_plant *plant);

/** Index of the output port "contact_results" (teal_contact_results). */
TEAL_API int teal_plant_contact_results_output_port(const teal_plant *plant);

/** Index of the output port "generalized_contact_forces" (nv). */
TEAL_API int teal_plant_generalized_contact_forces_output_port(const teal_plant *plant);

/** Index of the output port "<instance>_generalized_contact_forces" of a
 *  model instance. */
TEAL_API int
teal_plant_instance_generalized_contact_forces_output_port(const teal_plant *plant, int instance);

#ifdef __cplusplus
}
#endif
#endif
