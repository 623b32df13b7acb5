/** @file
 * Wiring a plant to a scene graph in a builder (Drake's
 * AddMultibodyPlantSceneGraph). */
#ifndef TEAL_MULTIBODY_CONTACT_PLANT_SCENE_GRAPH_H
#define TEAL_MULTIBODY_CONTACT_PLANT_SCENE_GRAPH_H

#include "teal_export.h"

#include "framework/diagram.h"
#include "geometry/scene_graph/scene_graph.h"
#include "multibody/tree/plant_model.h"
#include "multibody/contact/plant_contact.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Adds the finalized plant to builder, makes the plant's scene graph
 *  (registering the plant as its source, a frame per body and every
 *  geometry of the plant's bodies, with Drake's default collision filters
 *  and the exclusions declared through
 *  teal_plant_exclude_collision_geometries_with_collision_filter_group_pair),
 *  finalizes it, adds it and connects the plant's geometry poses to it and
 *  its query to the plant. This is also Teal's RegisterAsSourceForSceneGraph
 *  (see plant_geometry.h for the source and frame id queries). Returns the
 *  scene graph (owned by the builder) or NULL with err filled. Ownership:
 *  the builder takes a finalized plant in every case, failure included (as
 *  teal_builder_add does); a plant that is not finalized or is already
 *  wired (TEAL_ESTATE) or a NULL argument (TEAL_EINVAL) leaves the plant
 *  with the caller. */
TEAL_API teal_scene_graph *teal_add_plant_and_scene_graph(teal_builder *builder, teal_plant *plant,
                                                          teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
