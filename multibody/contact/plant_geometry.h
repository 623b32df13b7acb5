/** @file
 * Geometry registered on a plant's bodies (Drake's RegisterCollisionGeometry
 * and RegisterVisualGeometry).
 *
 * The plant keeps each registration (body, pose X_BG of the geometry frame
 * G in the body frame, shape, name, role and properties) so that a scene
 * graph connected later can take them over. Registration is allowed before
 * finalize only; names must be unique per body and role. Collision geometry
 * requires Coulomb friction (static >= dynamic >= 0), as in Drake. */
#ifndef TEAL_MULTIBODY_CONTACT_PLANT_GEOMETRY_H
#define TEAL_MULTIBODY_CONTACT_PLANT_GEOMETRY_H

#include "teal_export.h"

#include "geometry/shapes/geometry_properties.h"
#include "geometry/shapes/shape.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A registered geometry (read-only view). */
typedef struct teal_plant_geometry {
  int body;                            /**< the body it is attached to */
  teal_transform X_BG;                 /**< its pose in the body frame */
  teal_shape shape;                    /**< its shape (in frame G) */
  const char *name;                    /**< its name */
  teal_geometry_role role;             /**< proximity (collision) or illustration */
  teal_proximity_properties proximity; /**< collision only */
  double rgba[4];                      /**< visual only */
} teal_plant_geometry;

/** Registers collision geometry on body; returns its index (>= 0) or a
 *  negative status (sticky plant error, as for the other adds). */
TEAL_API int teal_plant_register_collision_geometry(teal_plant *plant, int body,
                                                    teal_transform X_BG, const teal_shape *shape,
                                                    const char *name,
                                                    const teal_proximity_properties *props);

/** Registers visual geometry with a color (rgba in [0, 1]; NULL: grey). */
TEAL_API int teal_plant_register_visual_geometry(teal_plant *plant, int body, teal_transform X_BG,
                                                 const teal_shape *shape, const char *name,
                                                 const double rgba[4]);

/** Number of registered geometries (both roles). */
TEAL_API int teal_plant_num_geometries(const teal_plant *plant);

/** Geometry i, or NULL on a bad index. */
TEAL_API const teal_plant_geometry *teal_plant_get_geometry(const teal_plant *plant, int i);

#ifdef __cplusplus
}
#endif
#endif
