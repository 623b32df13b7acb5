/** @file
 * Hydroelastic contact (Elandt et al. 2019; Drake's set_contact_model and
 * HydroelasticContactInfo), beside the point contact of plant_contact.h.
 *
 * Model. A soft collision geometry (proximity compliance
 * TEAL_HYDROELASTIC_SOFT with a hydroelastic_modulus E) carries the
 * pressure field p = E e(x) of its volume mesh (geometry/hydroelastic/
 * volume_mesh.h: spheres and boxes). Against a rigid half-space
 * (compliance TEAL_HYDROELASTIC_RIGID) the contact surface is the part of
 * the half-space's plane inside the soft mesh. On each face of it, with
 * area A, centroid C, pressure p_C at C and normal n (from the rigid B into
 * the soft A), v the velocity of B's point at C relative to A's, xdot = v.n
 * and v_t its tangential part, the force on B at C is
 * @code{.unparsed}
 *     f = -f_n n - mu(|v_t|) f_n v_t / |v_t|,   f_n = p_C A (1 + d xdot)_+
 * @endcode
 * with d the soft geometry's hunt_crossley_dissipation (NaN: the plant's
 * default) and mu the plant's regularized Stribeck law with the pair's
 * combined friction (as for point contact). The faces' forces sum to the
 * surface's force on B, reported at the surface's centroid with the moment
 * about it.
 *
 * Pairs. teal_plant_set_contact_model chooses per plant:
 *   - POINT (the default): every pair is point contact;
 *   - HYDROELASTIC: every pair the scene graph reports must be soft against
 *     a rigid half-space; any other pair is an error of the evaluation
 *     (TEAL_EUNSUPPORTED, the message names the geometries and why);
 *   - HYDROELASTIC_WITH_FALLBACK: soft against rigid half-space pairs are
 *     hydroelastic, every other pair (rigid-rigid, soft-soft, soft against
 *     another rigid shape, geometry without compliance) is point contact.
 * Soft-soft contact (the equal-pressure surface) and rigid shapes other
 * than the half-space are not supported yet. In a discrete plant each face
 * of a surface is a point contact of the discrete step (either solver),
 * of stiffness A g (g the pressure gradient along the normal) at depth
 * p / g, whose force at the configuration is the face's p A. */
#ifndef TEAL_MULTIBODY_CONTACT_HYDROELASTIC_H
#define TEAL_MULTIBODY_CONTACT_HYDROELASTIC_H

#include "teal_export.h"

#include "geometry/hydroelastic/contact_surface.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The plant's contact model (Drake's ContactModel). */
typedef enum teal_contact_model {
  TEAL_CONTACT_MODEL_POINT = 0,                     /**< point contact only */
  TEAL_CONTACT_MODEL_HYDROELASTIC = 1,              /**< hydroelastic only */
  TEAL_CONTACT_MODEL_HYDROELASTIC_WITH_FALLBACK = 2 /**< hydroelastic, else point */
} teal_contact_model;

/** One hydroelastic contact (Drake's HydroelasticContactInfo): A is the
 *  soft geometry, B the rigid one. */
typedef struct teal_hydroelastic_contact_info {
  /** Plant body indices of A (soft) and B (rigid). @{ */
  int body_A, body_B;
  /** @} */
  /** Plant geometry indices of A and B. @{ */
  int geometry_A, geometry_B;
  /** @} */
  teal_contact_surface surface; /**< the surface, W (area, centroid, faces) */
  teal_vec3 f_Bc_W;             /**< total force on B (the opposite acts on A) */
  teal_vec3 tau_Bc_W;           /**< moment on B about the surface centroid */
} teal_hydroelastic_contact_info;

/** Sets the contact model (before finalize; a bad value gives TEAL_EINVAL,
 *  after finalize TEAL_ESTATE; errors are sticky as for every
 *  declaration). */
TEAL_API int teal_plant_set_contact_model(teal_plant *plant, teal_contact_model model);

/** The contact model (TEAL_CONTACT_MODEL_POINT for NULL). */
TEAL_API teal_contact_model teal_plant_get_contact_model(const teal_plant *plant);

/** Sets how contact surfaces are made (Drake's
 *  set_contact_surface_representation; default triangles), before
 *  finalize (errors as for teal_plant_set_contact_model). */
TEAL_API int teal_plant_set_contact_surface_representation(teal_plant *plant,
                                                           teal_contact_surface_representation rep);

/** The contact surface representation (triangles for NULL). */
TEAL_API teal_contact_surface_representation
teal_plant_get_contact_surface_representation(const teal_plant *plant);

#ifdef __cplusplus
}
#endif
#endif
