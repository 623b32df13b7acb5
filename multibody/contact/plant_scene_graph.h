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

/** Adds plant and a scene graph to builder and connects the plant's
 *  "geometry_pose" output to the scene graph's pose input of the plant's
 *  source and the scene graph's "query" output to the plant's
 *  "geometry_query" input (Drake's AddMultibodyPlantSceneGraph). The plant
 *  becomes a source of the scene graph named "plant" (Drake's
 *  RegisterAsSourceForSceneGraph; see scene_graph_source.h): a frame per
 *  body and every geometry of the plant's bodies, with Drake's default
 *  collision filters and the exclusions declared through
 *  teal_plant_exclude_collision_geometries_with_collision_filter_group_pair;
 *  the scene graph is then finalized. Returns the scene graph (owned by the
 *  builder) or NULL with err filled.
 *
 *  Two orders work, and give the same diagram:
 *  - Drake's: call it on a plant that is not finalized yet. The builder
 *    owns the plant from then on (teal_plant_free leaves it alone; the
 *    plant lives until the builder is freed, or as long as the diagram).
 *    Keep adding bodies, joints, geometries and collision filters, or load
 *    models, then call teal_plant_finalize: it registers the plant with the
 *    scene graph, adds both systems to the builder and connects them, so
 *    the plant's and the scene graph's ports can be connected from there
 *    on. Until then the scene graph returned has no system; other sources
 *    may register on it (the plant's ids then start after theirs) and have
 *    their pose inputs fed once it has one. If finalize fails (it names the
 *    cause in the plant's error: a builder that already failed or holds a
 *    "plant" or "scene_graph", a scene graph that refuses the plant), or
 *    is never called, teal_builder_build fails with TEAL_ESTATE naming the
 *    cause, and the builder frees the plant.
 *  - A finalized plant: everything happens in this call. The builder takes
 *    the plant's system in every case, failure included (as
 *    teal_builder_add does).
 *
 *  Errors: a NULL argument (TEAL_EINVAL), a plant whose finalize failed or
 *  that is already a source of a scene graph (TEAL_ESTATE), or a builder
 *  holding an error, leave the plant with the caller. */
TEAL_API teal_scene_graph *teal_add_plant_and_scene_graph(teal_builder *builder, teal_plant *plant,
                                                          teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
