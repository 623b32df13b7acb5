/** @file
 * The topology of a plant as a Graphviz dot graph (Drake's
 * MultibodyPlant::GetTopologyGraphvizString): one node per body, labelled
 * with its name, inside one cluster per model instance (labelled with the
 * instance's name); one edge per joint from its parent body to its child
 * body, labelled with the joint's name and kind; weld joints drawn bold, and
 * the bodies of each welded group (bodies joined by weld joints, two or
 * more) marked "welded group k" with k the group's lowest body index.
 *
 * Like Drake's it can be called before or after finalize; after finalize
 * the floating joints that finalize adds to free bodies appear as joints
 * too. Render it with `dot -Tsvg`. */
#ifndef TEAL_MULTIBODY_TREE_PLANT_GRAPHVIZ_H
#define TEAL_MULTIBODY_TREE_PLANT_GRAPHVIZ_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Returns the dot text of the plant's topology in a buffer from teal_alloc
 *  (free it with teal_free), or NULL with TEAL_EINVAL for a NULL plant or
 *  TEAL_ENOMEM in err (may be NULL). Body node ids are "body<index>"; names
 *  are escaped for dot's quoted strings. */
TEAL_API char *teal_plant_topology_graphviz_string(const teal_plant *plant, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
