/** @file
 * Body and joint parameters in a context (Drake's post-context parameters):
 * the spatial inertia of every body (mass, center of mass, rotational
 * inertia) and the viscous damping of every joint velocity, so Monte Carlo
 * runs and system identification vary them without rebuilding the plant.
 *
 * A context starts with the model's values (teal_plant_add_rigid_body,
 * teal_plant_set_joint_damping) and teal_context_set_to_defaults restores
 * them. Every computation of the plant on that context reads the context's
 * values: kinematics-dependent caches, the mass matrix, forward dynamics,
 * the discrete step, the energies, contact results and the mass-property
 * queries below. Setting a value is an O(1) write that invalidates the
 * cache entries depending on it; it allocates nothing.
 *
 * Not per context: the teal_mb_* algorithms called with a teal_mb_data of
 * the caller's use the model's values, as do the model-based controllers
 * (inverse dynamics, joint stiffness), which hold a plant of their own; and
 * the default point-contact stiffness is derived once, at finalize, from the
 * model's masses. */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_PARAMETERS_H
#define TEAL_MULTIBODY_PLANT_PLANT_PARAMETERS_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/math/spatial_inertia.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Copies the spatial inertia M_BBo_B of body (about its origin Bo, in its
 *  frame B) held in the context. TEAL_EINVAL for the world body, an unknown
 *  body, a NULL result or a context that holds no context of the plant. */
TEAL_API int teal_plant_get_body_spatial_inertia_in_context(const teal_plant *plant,
                                                            const teal_context *ctx, int body,
                                                            teal_spatial_inertia *M_BBo_B);

/** Sets body's spatial inertia M_BBo_B in the context (Drake's
 *  SetSpatialInertiaInBodyFrame). It must pass teal_spatial_inertia_check:
 *  finite (TEAL_ENONFINITE), mass at least TEAL_SPATIAL_INERTIA_MIN_MASS,
 *  central inertia positive semidefinite with the triangle inequality
 *  (TEAL_EINVAL). For an inertia about the center of mass use
 *  teal_spatial_inertia_from_central. On failure the context is unchanged. */
TEAL_API int teal_plant_set_body_spatial_inertia_in_context(const teal_plant *plant,
                                                            teal_context *ctx, int body,
                                                            const teal_spatial_inertia *M_BBo_B);

/** Copies body's mass held in the context into *mass. */
TEAL_API int teal_plant_get_body_mass_in_context(const teal_plant *plant, const teal_context *ctx,
                                                 int body, double *mass);

/** Sets body's mass in the context, keeping its center of mass and its unit
 *  inertia (Drake's SetMass): the rotational inertia scales with the mass.
 *  The mass must be finite (TEAL_ENONFINITE) and at least
 *  TEAL_SPATIAL_INERTIA_MIN_MASS (TEAL_EINVAL). */
TEAL_API int teal_plant_set_body_mass_in_context(const teal_plant *plant, teal_context *ctx,
                                                 int body, double mass);

/** Copies body's center of mass p_BoBcm_B held in the context. */
TEAL_API int teal_plant_get_body_center_of_mass_in_context(const teal_plant *plant,
                                                           const teal_context *ctx, int body,
                                                           teal_vec3 *p_BoBcm_B);

/** Sets body's center of mass p_BoBcm_B in the context, keeping its mass and
 *  its rotational inertia about the center of mass (so the inertia stays
 *  physical; Drake's SetCenterOfMassInBodyFrame keeps the unit inertia about
 *  Bo instead). TEAL_ENONFINITE for a NaN or infinite position. */
TEAL_API int teal_plant_set_body_center_of_mass_in_context(const teal_plant *plant,
                                                           teal_context *ctx, int body,
                                                           teal_vec3 p_BoBcm_B);

/** Copies the n damping coefficients of joint's velocities held in the
 *  context (Drake's Joint::GetDampingVector). n must be the joint's number
 *  of velocities (TEAL_ESIZE); TEAL_EINVAL for an unknown joint or a NULL
 *  array with n > 0. */
TEAL_API int teal_plant_get_joint_damping_in_context(const teal_plant *plant,
                                                     const teal_context *ctx, int joint,
                                                     double *damping, int n);

/** Sets the n damping coefficients of joint's velocities in the context
 *  (Drake's Joint::SetDampingVector): the generalized force -damping v joins
 *  the plant's applied forces. Each must be finite (TEAL_ENONFINITE) and
 *  >= 0 (TEAL_EINVAL); n as for the getter. */
TEAL_API int teal_plant_set_joint_damping_in_context(const teal_plant *plant, teal_context *ctx,
                                                     int joint, const double *damping, int n);

/** The total mass of the bodies of the num_instances model instances listed
 *  (every body when instances is NULL) with the context's masses (Drake's
 *  CalcTotalMass). TEAL_EINVAL for an unknown instance or a selection
 *  without bodies. */
TEAL_API int teal_plant_calc_total_mass(const teal_plant *plant, const teal_context *ctx,
                                        const int *instances, int num_instances, double *mass);

/** p_WScm: the center of mass of the selection (as teal_plant_calc_total_mass)
 *  at the context's positions and body parameters, from Wo, in W (Drake's
 *  CalcCenterOfMassPositionInWorld). */
TEAL_API int teal_plant_calc_center_of_mass_position(const teal_plant *plant,
                                                     const teal_context *ctx,
                                                     const int *instances, int num_instances,
                                                     teal_vec3 *p_WScm);

#ifdef __cplusplus
}
#endif
#endif
