/* Wiring a plant to a scene graph in a builder (Drake's
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

/** Makes the plant's scene graph, adds plant and scene graph to builder
 *  (which then owns both) and connects them; see the file comment. Returns
 *  the scene graph (owned by the builder) or NULL with err filled (the
 *  builder's sticky error is set too). */
TEAL_API teal_scene_graph *teal_add_plant_and_scene_graph(teal_builder *builder, teal_plant *plant,
                                                          teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
