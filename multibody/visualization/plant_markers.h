/** @file
 * The plant's markers for the replay (geometry/visualization/markers.h):
 * each contact point with the contact force, and the plant's centre of
 * mass, computed by a small leaf system from the plant's outputs and fed
 * to a visualizer's "markers" input (Drake's ContactVisualizer, reduced to
 * point contact, beside the centre of mass). */
#ifndef TEAL_MULTIBODY_VISUALIZATION_PLANT_MARKERS_H
#define TEAL_MULTIBODY_VISUALIZATION_PLANT_MARKERS_H

#include "teal_export.h"

#include "framework/diagram_builder.h"
#include "framework/system.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A leaf with the abstract inputs "body_poses" (port 0, the plant's
 *  output of that name) and "contact_results" (port 1, the plant's output
 *  of that name; optional) and the output "markers" (a teal_marker_list):
 *  one TEAL_MARKER_CONTACT per contact at p_WC with the force on body B,
 *  f_Bc_W, then one TEAL_MARKER_CENTER_OF_MASS at the centre of mass of
 *  the plant's bodies. The masses and centres of mass are the plant's
 *  defaults, read now (later changes to a context's body parameters are
 *  not seen). NULL with err set: a NULL or unfinalized plant (TEAL_EINVAL,
 *  TEAL_ESTATE), a plant without mass (TEAL_EINVAL), out of memory. */
TEAL_API teal_system *teal_plant_markers_new(const teal_plant *plant, const char *name,
                                             teal_error *err);

/** Adds a plant_markers system named "plant_markers" to b and connects
 *  the plant's "body_poses" and "contact_results" outputs to it and its
 *  output to the "markers" input of visualizer (teal_add_visualizer). The
 *  plant must be finalized and in b. Returns the system (owned by b) or
 *  NULL with err set (the errors of teal_plant_markers_new, a NULL
 *  builder or visualizer, the builder's errors). */
TEAL_API teal_system *teal_add_plant_markers(teal_builder *b, const teal_plant *plant,
                                             teal_system *visualizer, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
