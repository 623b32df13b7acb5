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
} teal_proximity_properties;

/** Properties with the given friction and default stiffness, dissipation
 *  and relaxation time (NaN each). */
TEAL_API teal_proximity_properties
teal_proximity_properties_make(double static_friction, double dynamic_friction);

/** 1 when the properties are valid (static >= dynamic >= 0 finite,
 *  stiffness > 0 or NaN, dissipation and relaxation time >= 0 or NaN),
 *  else 0. */
TEAL_API int teal_proximity_properties_valid(const teal_proximity_properties *p);

#ifdef __cplusplus
}
#endif
#endif
