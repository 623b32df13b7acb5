/** @file
 * Simbody's per-state accessors of an exponential spring
 * (exponential_spring.h): the friction coefficients with Simbody's setter
 * rules, and the quantities of one evaluation as vectors in the contact
 * plane's frame F or in the world (Ground) frame W.
 *
 * Every getter takes in_ground: 0 for F, 1 for W (any other value is
 * refused). Points are mapped by the plane pose X_WF (p_W = X_WF p_F),
 * vectors by its rotation (f_W = R_WF f_F); the plane is fixed to the world,
 * so a velocity in F expressed in W is R_WF v_F. The getters evaluate the
 * spring's inputs, as teal_exponential_spring_eval does, and accept the
 * spring's own context or any context above it. A disabled spring reports
 * zero forces; its station, velocity and anchor are still given. */
#ifndef TEAL_MULTIBODY_FORCES_EXPONENTIAL_SPRING_ACCESS_H
#define TEAL_MULTIBODY_FORCES_EXPONENTIAL_SPRING_ACCESS_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/system.h"
#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Sets mu_s in ctx (finite, >= 0; no upper bound). When mu_s < mu_k, mu_k
 *  is lowered to mu_s (Simbody's setMuStatic). */
TEAL_API int teal_exponential_spring_set_mu_static(const teal_system *spring, teal_context *ctx,
                                                   double mu_s);

/** Sets mu_k in ctx (finite, >= 0). When mu_k > mu_s, mu_s is raised to
 *  mu_k (Simbody's setMuKinetic). */
TEAL_API int teal_exponential_spring_set_mu_kinetic(const teal_system *spring, teal_context *ctx,
                                                    double mu_k);

/** mu_s held by ctx into *mu_s. */
TEAL_API int teal_exponential_spring_get_mu_static(const teal_system *spring,
                                                   const teal_context *ctx, double *mu_s);

/** mu_k held by ctx into *mu_k. */
TEAL_API int teal_exponential_spring_get_mu_kinetic(const teal_system *spring,
                                                    const teal_context *ctx, double *mu_k);

/** Position of the body station S (p_FS, or p_WS in W). */
TEAL_API int teal_exponential_spring_get_station_position(const teal_system *spring,
                                                          const teal_context *ctx, int in_ground,
                                                          teal_vec3 *p);

/** Velocity of the body station (v_FS expressed in F, or in W). */
TEAL_API int teal_exponential_spring_get_station_velocity(const teal_system *spring,
                                                          const teal_context *ctx, int in_ground,
                                                          teal_vec3 *v);

/** The anchor point p0 the force uses (the stored state), a point of the
 *  plane ([p0x, p0y, 0] in F, or its position in W). The anchor the next
 *  update will set is teal_exponential_spring_data's p0_next. */
TEAL_API int teal_exponential_spring_get_anchor_point(const teal_system *spring,
                                                      const teal_context *ctx, int in_ground,
                                                      teal_vec3 *p0);

/** Elastic part of the normal force, [0, 0, fz_elastic] in F. */
TEAL_API int teal_exponential_spring_get_normal_force_elastic_part(const teal_system *spring,
                                                                   const teal_context *ctx,
                                                                   int in_ground, teal_vec3 *f);

/** Damping part of the normal force as applied, [0, 0, fz_damping] in F
 *  (at least -fz_elastic, so the two parts sum to the normal force). */
TEAL_API int teal_exponential_spring_get_normal_force_damping_part(const teal_system *spring,
                                                                   const teal_context *ctx,
                                                                   int in_ground, teal_vec3 *f);

/** The normal force, [0, 0, fz] in F, fz >= 0. */
TEAL_API int teal_exponential_spring_get_normal_force(const teal_system *spring,
                                                      const teal_context *ctx, int in_ground,
                                                      teal_vec3 *f);

/** Elastic part of the friction force (blended), [fx, fy, 0] in F. */
TEAL_API int teal_exponential_spring_get_friction_force_elastic_part(const teal_system *spring,
                                                                     const teal_context *ctx,
                                                                     int in_ground, teal_vec3 *f);

/** Damping part of the friction force (blended), [fx, fy, 0] in F. */
TEAL_API int teal_exponential_spring_get_friction_force_damping_part(const teal_system *spring,
                                                                     const teal_context *ctx,
                                                                     int in_ground, teal_vec3 *f);

/** The friction force: the sum of its elastic and damping parts. */
TEAL_API int teal_exponential_spring_get_friction_force(const teal_system *spring,
                                                        const teal_context *ctx, int in_ground,
                                                        teal_vec3 *f);

/** The total force on the body at the station: normal plus friction. */
TEAL_API int teal_exponential_spring_get_force(const teal_system *spring, const teal_context *ctx,
                                               int in_ground, teal_vec3 *f);

#ifdef __cplusplus
}
#endif
#endif
