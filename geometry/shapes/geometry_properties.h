/** @file
 * Geometry roles and contact properties (Drake's ProximityProperties and
 * IllustrationProperties, reduced to the values Teal uses). */
#ifndef TEAL_GEOMETRY_SHAPES_GEOMETRY_PROPERTIES_H
#define TEAL_GEOMETRY_SHAPES_GEOMETRY_PROPERTIES_H

#include "teal_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Geometry roles. */
typedef enum teal_geometry_role {
  TEAL_ROLE_PROXIMITY = 1,   /**< collision */
  TEAL_ROLE_ILLUSTRATION = 2 /**< visual */
} teal_geometry_role;

/** Hydroelastic compliance of a collision geometry (Drake's
 *  compliant_hydroelastic / rigid_hydroelastic properties). */
typedef enum teal_hydroelastic_compliance {
  TEAL_HYDROELASTIC_NONE = 0,  /**< no hydroelastic representation (point contact only) */
  TEAL_HYDROELASTIC_RIGID = 1, /**< rigid: its surface meets soft geometries */
  TEAL_HYDROELASTIC_SOFT = 2   /**< soft (compliant): a pressure field, needs a modulus */
} teal_hydroelastic_compliance;

/** Contact properties of collision geometry. Stiffness and dissipation may
 *  be NaN for the plant's defaults (penetration-allowance heuristic); the
 *  relaxation time may be NaN for the plant's default (its time step). */
typedef struct teal_proximity_properties {
  /** Coulomb friction coefficients, static then dynamic. @{ */
  double static_friction, dynamic_friction;
  /** @} */
  double point_contact_stiffness;   /**< N/m, > 0, or NaN */
  double hunt_crossley_dissipation; /**< s/m, >= 0, or NaN */
  /** s, >= 0, or NaN: the linear Kelvin-Voigt dissipation time constant
   *  tau_d of Drake's ("material", "relaxation_time"), used by the SAP
   *  discrete contact solver (Hunt-Crossley dissipation by the others) */
  double relaxation_time;
  /** Hydroelastic compliance; 0 (none) in zero-initialized properties. */
  teal_hydroelastic_compliance compliance;
  double hydroelastic_modulus; /**< Pa, > 0 for soft; NaN or 0 when unset */
  double resolution_hint;      /**< soft mesh cell size (m, > 0); NaN or 0: default */
} teal_proximity_properties;

/** Properties with the given friction and default stiffness, dissipation
 *  and relaxation time (NaN each). */
TEAL_API teal_proximity_properties
teal_proximity_properties_make(double static_friction, double dynamic_friction);

/** 1 when the properties are valid (static >= dynamic >= 0 finite,
 *  stiffness > 0 or NaN, dissipation and relaxation time >= 0 or NaN, a
 *  known compliance, a modulus that is NaN, 0 or finite > 0, and finite > 0
 *  for a soft geometry, a resolution hint NaN or finite >= 0), else 0. */
TEAL_API int teal_proximity_properties_valid(const teal_proximity_properties *p);

#ifdef __cplusplus
}
#endif
#endif
