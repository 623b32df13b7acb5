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

#include "framework/error.h"

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

/* ---- queries by body and role ------------------------------------------------
 * The list queries below write geometry or body indices in increasing order
 * into out and return how many there are, or a negative status with the
 * cause in err (NULL allowed). out may be NULL with cap 0 to ask for the
 * count only; otherwise cap must be at least the count (TEAL_ESIZE). A bad
 * plant or out gives TEAL_EINVAL, an unknown body TEAL_ENOTFOUND. They may
 * be called before and after finalize and allocate only scratch memory. */

/** Number of collision (proximity) geometries on all bodies (Drake's
 *  num_collision_geometries); 0 for NULL. */
TEAL_API int teal_plant_num_collision_geometries(const teal_plant *plant);

/** Number of visual (illustration) geometries on all bodies (Drake's
 *  num_visual_geometries); 0 for NULL. */
TEAL_API int teal_plant_num_visual_geometries(const teal_plant *plant);

/** The collision geometries registered on body (Drake's
 *  GetCollisionGeometriesForBody); see the list rules above. */
TEAL_API int teal_plant_get_collision_geometries_for_body(const teal_plant *plant, int body,
                                                          int *out, int cap, teal_error *err);

/** The visual geometries registered on body (Drake's
 *  GetVisualGeometriesForBody); see the list rules above. */
TEAL_API int teal_plant_get_visual_geometries_for_body(const teal_plant *plant, int body, int *out,
                                                       int cap, teal_error *err);

/** Every geometry (both roles) registered on any of the num_bodies bodies
 *  (Drake's CollectRegisteredGeometries; a body listed twice counts once);
 *  see the list rules above. */
TEAL_API int teal_plant_collect_registered_geometries(const teal_plant *plant, const int *bodies,
                                                      int num_bodies, int *out, int cap,
                                                      teal_error *err);

/** The bodies welded to body through weld joints, transitively, body itself
 *  included (Drake's GetBodiesWeldedTo): for the world, the world and every
 *  body welded to it. Before finalize, a body without a joint is not welded
 *  to anything (finalize gives it a floating joint). See the list rules
 *  above. */
TEAL_API int teal_plant_get_bodies_welded_to(const teal_plant *plant, int body, int *out, int cap,
                                             teal_error *err);

/** 1 when body is the world or is welded to it, directly or through a chain
 *  of weld joints (Drake's Body::is_anchored), 0 otherwise, or a negative
 *  code (message in err; TEAL_ENOTFOUND for a bad body). Before finalize,
 *  as for teal_plant_get_bodies_welded_to, a body without a joint is not
 *  anchored. */
TEAL_API int teal_plant_is_anchored(const teal_plant *plant, int body, teal_error *err);

/* ---- collision filters ----------------------------------------------------------- */

/** A collision filter group (Drake's pair of a name and a GeometrySet): in
 *  Teal the set is a list of bodies and stands for every geometry on them. */
typedef struct teal_collision_filter_group {
  const char *name;  /**< a label used in error messages (NULL allowed) */
  const int *bodies; /**< the bodies of the group (num_bodies entries) */
  int num_bodies;    /**< number of bodies (>= 0) */
} teal_collision_filter_group;

/** Excludes collisions between every geometry of group_a and every
 *  geometry of group_b (Drake's
 *  ExcludeCollisionGeometriesWithCollisionFilterGroupPair; the same group
 *  twice filters all pairs inside it). The plant records the exclusion and
 *  teal_add_plant_and_scene_graph applies it, with Drake's default filters,
 *  before it finalizes the scene graph: call it before or after
 *  teal_plant_finalize, but before the wiring (TEAL_ESTATE after). A bad
 *  group (NULL, negative count, NULL bodies) gives TEAL_EINVAL, an unknown
 *  body TEAL_ENOTFOUND; errors are sticky in the plant's record. */
TEAL_API int teal_plant_exclude_collision_geometries_with_collision_filter_group_pair(
    teal_plant *plant, const teal_collision_filter_group *group_a,
    const teal_collision_filter_group *group_b);

/** Excludes collisions between the geometries of two bodies (the group pair
 *  call with one body in each group; same rules). */
TEAL_API int teal_plant_exclude_collisions_between_bodies(teal_plant *plant, int body_a,
                                                          int body_b);

/** Excludes collisions between two collision geometries (plant geometry
 *  indices, either order) and no other pair of their bodies: the filter
 *  MJCF's contype and conaffinity bits need. Recorded and applied like the
 *  body exclusions (same timing, TEAL_ESTATE once wired). An unknown
 *  geometry gives TEAL_ENOTFOUND; the same geometry twice or a visual
 *  geometry gives TEAL_EINVAL; errors are sticky in the plant's record. */
TEAL_API int teal_plant_exclude_collision_geometry_pair(teal_plant *plant, int geometry_a,
                                                        int geometry_b);

/* ---- scene graph source and frame ids ------------------------------------------------
 * The plant becomes a source of a scene graph in
 * teal_add_plant_and_scene_graph, or by hand through
 * teal_plant_register_as_source_for_scene_graph (scene_graph_source.h):
 * either registers a frame per body, in body order, and the plant's
 * geometries, in index order. The ids start where the scene graph's count
 * stood (0 for the plant's own scene graph, where the frame id then equals
 * the body index and the geometry id the geometry index); the calls below
 * and teal_plant_get_geometry_id map them. */

/** Nonzero once the plant is registered as a source of a scene graph
 *  (Drake's geometry_source_is_registered); 0 for NULL. */
TEAL_API int teal_plant_geometry_source_is_registered(const teal_plant *plant);

/** The plant's source id in its scene graph, or -1 before it is registered
 *  or for NULL (Drake's get_source_id). */
TEAL_API int teal_plant_get_source_id(const teal_plant *plant);

/** The scene graph frame id of body, or -1 if the plant is not registered
 *  yet, body is unknown or plant is NULL (Drake's GetBodyFrameIdIfExists). */
TEAL_API int teal_plant_get_body_frame_id_if_exists(const teal_plant *plant, int body);

/** The scene graph frame id of body, or TEAL_EINVAL (NULL plant),
 *  TEAL_ENOTFOUND (unknown body) or TEAL_ESTATE (not registered yet) with
 *  the cause in err (Drake's GetBodyFrameIdOrThrow). */
TEAL_API int teal_plant_get_body_frame_id(const teal_plant *plant, int body, teal_error *err);

/** The body whose scene graph frame is frame_id, or -1 if there is none
 *  (Drake's GetBodyFromFrameId). */
TEAL_API int teal_plant_get_body_from_frame_id(const teal_plant *plant, int frame_id);

#ifdef __cplusplus
}
#endif
#endif
