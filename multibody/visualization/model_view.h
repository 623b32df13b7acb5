/** @file
 * The model viewer (MuJoCo's `simulate`, Drake's model visualizer, without
 * the simulation): a model file of any format the parser reads
 * (multibody/parsing/parser.h) written as a replay page at its default
 * pose, with a slider per revolute or prismatic joint to pose it in the
 * browser. The `teal-view` program (tools/teal_view.c) calls it. */
#ifndef TEAL_MULTIBODY_VISUALIZATION_MODEL_VIEW_H
#define TEAL_MULTIBODY_VISUALIZATION_MODEL_VIEW_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/error.h"
#include "geometry/visualization/replay_html.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The posing panel of finalized plant (replay_html.h, pose_panel_json)
 *  for the geometries of a scene graph the plant is the only source of:
 *  a heap string (free with teal_free) or NULL with err set (TEAL_EINVAL
 *  for a NULL or unfinalized plant or a context without the plant,
 *  TEAL_ENOMEM, or the plant's error when its kinematics fail). Each
 *  body's pose in its parent and its joint's axis are measured from the
 *  plant's own kinematics at the positions in context (its own or a
 *  diagram's; NULL: the defaults) and a quarter turn (or 1 m) away; the
 *  context's positions are restored. The sliders span q0 -/+ pi (revolute)
 *  or 1 m (prismatic). */
TEAL_API char *teal_plant_pose_panel_json(teal_plant *plant, teal_context *context,
                                          teal_error *err);

/** Loads the model file at model_path through teal_parser_add_models (any
 *  format it reads, found as it finds files) and writes its visual geometry
 *  at the default pose to html_path, with the posing panel (opts may be
 *  NULL; its pose_panel_json is ignored). Errors: those of loading the
 *  model and of teal_scene_recording_write_html, with the message in err. */
TEAL_API int teal_model_write_html(const char *model_path, const char *html_path,
                                   const teal_replay_options *opts, teal_error *err);

/** teal_model_write_html, under its earlier name (any format, not only
 *  URDF). */
TEAL_API int teal_urdf_write_model_html(const char *urdf_path, const char *html_path,
                                        const teal_replay_options *opts, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
