/** @file
 * The plant's state in a context: positions, velocities, free-body poses and
 * velocities, gravity, and the cached kinematics, mass matrix and
 * accelerations. */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_STATE_H
#define TEAL_MULTIBODY_PLANT_PLANT_STATE_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/system.h"
#include "multibody/tree/plant_model.h"
#include "multibody/plant/plant_values.h"
#include "multibody/plant/plant_system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Copies q out of the context (n must be nq, else TEAL_ESIZE). */
TEAL_API int teal_plant_get_positions(const teal_plant *plant, const teal_context *ctx, double *q,
                                      int n);

/** Copies q into the context (n must be nq, else TEAL_ESIZE); rejects NaN/Inf
 *  (TEAL_ENONFINITE) and a ball or floating joint's quaternion that is zero
 *  or cannot be normalized, |q|^2 not a normal number (TEAL_EINVAL). On
 *  failure the context keeps its state. */
TEAL_API int teal_plant_set_positions(const teal_plant *plant, teal_context *ctx, const double *q,
                                      int n);

/** Copies v out of the context (n must be nv, else TEAL_ESIZE). */
TEAL_API int teal_plant_get_velocities(const teal_plant *plant, const teal_context *ctx, double *v,
                                       int n);

/** Copies v into the context (n must be nv, else TEAL_ESIZE); rejects NaN/Inf
 *  (TEAL_ENONFINITE). */
TEAL_API int teal_plant_set_velocities(const teal_plant *plant, teal_context *ctx, const double *v,
                                       int n);

/** Copies x = [q; v] out of the context (n must be nq + nv, else TEAL_ESIZE). */
TEAL_API int teal_plant_get_state(const teal_plant *plant, const teal_context *ctx, double *x,
                                  int n);

/** Copies x = [q; v] into the context (n must be nq + nv, else TEAL_ESIZE);
 *  rejects NaN/Inf (TEAL_ENONFINITE) and quaternions as
 *  teal_plant_set_positions does (TEAL_EINVAL). */
TEAL_API int teal_plant_set_state(const teal_plant *plant, teal_context *ctx, const double *x,
                                  int n);

/** Sets gravity in the context (finite). */
TEAL_API int teal_plant_set_gravity_in_context(const teal_plant *plant, teal_context *ctx,
                                               teal_vec3 g_W);

/** Sets the pose X_WB of a free body in the context: one with a
 *  quaternion-floating inboard joint from the world, as finalize adds to
 *  bodies without a joint. TEAL_EINVAL when body is not free or X_WB.R is
 *  not a rotation (orthonormal to 1e-9 with determinant +1: a zero matrix or
 *  a reflection is refused, not replaced), TEAL_ENONFINITE when X_WB is not
 *  finite. */
TEAL_API int teal_plant_set_free_body_pose(const teal_plant *plant, teal_context *ctx, int body,
                                           teal_transform X_WB);

/** Sets the spatial velocity V_WB ([w; v_Bo] in W) of a free body in the
 *  context (TEAL_EINVAL when body is not free). */
TEAL_API int teal_plant_set_free_body_spatial_velocity(const teal_plant *plant, teal_context *ctx,
                                                       int body, teal_spatial_vector V_WB);

/** X_WB of every body (num_bodies entries, by body index). */
TEAL_API int teal_plant_eval_body_poses(const teal_plant *plant, const teal_context *ctx,
                                        const teal_transform **X_WB);

/** V_WB of every body. */
TEAL_API int teal_plant_eval_body_velocities(const teal_plant *plant, const teal_context *ctx,
                                             const teal_spatial_vector **V_WB);

/** The mass matrix (nv x nv, row-major). A context keeps it only up to
 *  256 MiB (nv <= 5792): beyond that, TEAL_ESIZE with a message naming nv and
 *  the size (teal_mb_mass_matrix fills a buffer of the caller's). */
TEAL_API int teal_plant_eval_mass_matrix(const teal_plant *plant, const teal_context *ctx,
                                         const double **M);

/** Generalized accelerations (nv): ABA in continuous mode, (v+ - v) / h in
 *  discrete mode. */
TEAL_API int teal_plant_eval_generalized_acceleration(const teal_plant *plant,
                                                      const teal_context *ctx, const double **vdot);

#ifdef __cplusplus
}
#endif
#endif
