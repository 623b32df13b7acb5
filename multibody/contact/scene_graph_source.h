/** @file
 * The plant as a source of a scene graph the caller builds and wires
 * (Drake's RegisterAsSourceForSceneGraph, for the "extraordinary
 * circumstances" in which AddMultibodyPlantSceneGraph does not fit).
 *
 * teal_add_plant_and_scene_graph (plant_scene_graph.h) does all of this
 * itself. By hand: make a scene graph, register other sources if any,
 * register the finalized plant with the call below, finalize the scene
 * graph, add both systems to a builder and connect the plant's
 * "geometry_pose" output to the scene graph's "<source>_pose" input of the
 * plant's source (teal_plant_get_source_id) and the scene graph's "query"
 * output to the plant's "geometry_query" input.
 *
 * The numbering need not be reproduced: the plant registers a frame per
 * body in body order (its geometry_pose list is by body index, so the
 * source's pose list must be in that order) and its geometries in index
 * order, and keeps where each run starts. Frame ids come from
 * teal_plant_get_body_frame_id (plant_geometry.h); the scene graph id of
 * plant geometry g is teal_plant_get_geometry_id. Contact results name
 * plant geometry indices. A point pair between a plant geometry and
 * another source's geometry makes the plant's contact evaluation fail
 * (TEAL_EINVAL, as Drake's plant throws on a geometry it does not know);
 * filter such pairs with teal_scene_graph_set_collision_group. */
#ifndef TEAL_MULTIBODY_CONTACT_SCENE_GRAPH_SOURCE_H
#define TEAL_MULTIBODY_CONTACT_SCENE_GRAPH_SOURCE_H

#include "teal_export.h"

#include "framework/error.h"
#include "geometry/scene_graph/scene_graph.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Registers the finalized plant as a source named "plant" of the open
 *  scene graph sg: a frame per body, every geometry, Drake's default
 *  collision filters and the exclusions declared through the plant
 *  (declare them before this call). Returns the source id (>= 0), or
 *  TEAL_EINVAL (NULL argument) or TEAL_ESTATE (plant not finalized or
 *  failed, already a source of a scene graph, or sg finalized), or the
 *  scene graph's error, with the cause in err (NULL allowed). */
TEAL_API int teal_plant_register_as_source_for_scene_graph(teal_plant *plant, teal_scene_graph *sg,
                                                           teal_error *err);

/** The scene graph geometry id of plant geometry g, or -1 before the plant
 *  is registered, for an unknown g or a NULL plant. */
TEAL_API int teal_plant_get_geometry_id(const teal_plant *plant, int g);

/** The plant geometry index of scene graph geometry id, or -1 if it is
 *  none of the plant's (or the plant is not registered, or NULL). */
TEAL_API int teal_plant_get_geometry_from_id(const teal_plant *plant, int id);

#ifdef __cplusplus
}
#endif
#endif
