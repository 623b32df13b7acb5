/** @file
 * Mass properties, momentum and power of a finalized plant (see
 * plant_model.h), all O(n).
 *
 * Selections. The center-of-mass and momentum functions act on a system S of
 * bodies chosen by model instance, as Drake's overloads taking a
 * std::vector<ModelInstanceIndex>: instances (num_instances entries) lists the
 * model instances whose bodies belong to S (a repeated instance counts once;
 * the world body never belongs to S), and instances = NULL (num_instances
 * ignored) selects every body but the world. A selection whose total mass is
 * zero (no bodies) gives TEAL_EINVAL, as Drake throws.
 *
 * Quantities are measured and expressed in W: p_WScm (center of mass of S
 * from Wo), v_WScm, Jv_v_WScm (3 x nv, row-major, with v_WScm = J v) and the
 * spatial momentum L_WSP_W = [angular momentum about P; linear momentum] of S
 * in W about a point P given by p_WoP_W (Drake's
 * CalcSpatialMomentumInWorldAboutPoint).
 *
 * Power (Drake's CalcConservativePower / CalcNonConservativePower): the
 * power of gravity (teal_plant_gravity) on every body, equal to -d(PE)/dt
 * with PE from teal_mb_potential_energy and to tau_g . v; and the power of
 * given generalized forces tau and body spatial forces F_Bo_W. Joint damping
 * is not included (as in data.h; add -d v to tau to account for it).
 * Along a motion from teal_mb_forward_dynamics with actuation tau,
 * d(KE)/dt = conservative + non-conservative power.
 *
 * Errors: TEAL_EINVAL for a NULL pointer, a bad instance index, an empty
 * selection or data made for another plant, TEAL_ESTATE for a plant
 * that is not finalized, TEAL_ENONFINITE for a NaN/Inf input (the message in
 * data's error record names it). No function allocates once data
 * exists; they are not thread-safe on shared data. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_MOMENTUM_H
#define TEAL_MULTIBODY_ALGORITHMS_MOMENTUM_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/algorithms/data.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The total mass of the selection (> 0). */
TEAL_API int teal_mb_total_mass(const teal_plant *plant, teal_mb_data *data, const int *instances,
                                int num_instances, double *mass);

/** p_WScm: the center of mass of the selection, from Wo, in W. */
TEAL_API int teal_mb_center_of_mass_position(const teal_plant *plant, teal_mb_data *data,
                                             const double *q, const int *instances,
                                             int num_instances, teal_vec3 *p_WScm);

/** v_WScm: the velocity in W of the center of mass of the selection, in W. */
TEAL_API int teal_mb_center_of_mass_velocity(const teal_plant *plant, teal_mb_data *data,
                                             const double *q, const double *v, const int *instances,
                                             int num_instances, teal_vec3 *v_WScm);

/** Jv_v_WScm (3 x nv, row-major): v_WScm = J v. One inward pass collects each
 *  subtree's selected mass and first moment; a joint's column is then the
 *  motion of that subtree's selected center of mass, scaled by its share of
 *  the mass. */
TEAL_API int teal_mb_center_of_mass_jacobian(const teal_plant *plant, teal_mb_data *data,
                                             const double *q, const int *instances,
                                             int num_instances, double *Jv_v_WScm);

/** L_WSP_W: the spatial momentum [angular about P; linear] of the selection
 *  in W about the point P at p_WoP_W, expressed in W. */
TEAL_API int teal_mb_spatial_momentum(const teal_plant *plant, teal_mb_data *data, const double *q,
                                      const double *v, const int *instances, int num_instances,
                                      teal_vec3 p_WoP_W, teal_spatial_vector *L_WSP_W);

/** The power of gravity on all bodies. It is sum_B m_B g . v_WBcm = -d(PE)/dt,
 *  with data's gravity and inertias (teal_mb_data_set_gravity), as
 *  teal_mb_potential_energy. */
TEAL_API int teal_mb_conservative_power(const teal_plant *plant, teal_mb_data *data,
                                        const double *q, const double *v, double *power);

/** The power of generalized forces tau (nv; NULL: none) and per-body spatial
 *  forces F_Bo_W (num_bodies entries indexed by body, about each body origin,
 *  in W; the world entry is ignored; NULL: none). It is
 *  tau . v + sum_B F_Bo_W[B] . V_WB. */
TEAL_API int teal_mb_nonconservative_power(const teal_plant *plant, teal_mb_data *data,
                                           const double *q, const double *v, const double *tau,
                                           const teal_spatial_vector *F_Bo_W, double *power);

#ifdef __cplusplus
}
#endif
#endif
