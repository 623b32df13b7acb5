/** @file
 * The visualizer (Drake's MeshcatVisualizer with its recording): a leaf
 * system fed by a scene graph's "geometry_poses" output that records, at a
 * settable period of simulated time, the pose of every illustration
 * geometry (and of every proximity geometry when asked) into a
 * teal_scene_recording kept in the context, with the markers (contact
 * forces, centre of mass; markers.h) of its optional input "markers".
 * replay_html.h writes the recording as a page that replays it in a
 * browser.
 *
 * When a frame is recorded: a periodic publish every publish_period
 * seconds from t = 0, a forced publish and the initialization publish.
 * Several of them at one instant give one frame (the latest). A frame in
 * which a followed geometry's pose is not finite is not recorded: it is
 * counted in the recording's skipped field with the time and geometry of
 * the first one (teal_visualizer_check_skipped turns that into an error
 * message), and the simulation goes on.
 *
 * Memory: see scene_recording.h (amortized growth, or none after
 * teal_visualizer_reserve). */
#ifndef TEAL_GEOMETRY_VISUALIZATION_VISUALIZER_H
#define TEAL_GEOMETRY_VISUALIZATION_VISUALIZER_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/diagram_builder.h"
#include "framework/system.h"
#include "geometry/scene_graph/scene_graph.h"
#include "geometry/visualization/replay_html.h"
#include "geometry/visualization/scene_recording.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Visualizer settings. */
typedef struct teal_visualizer_options {
  double publish_period; /**< seconds of simulated time between frames, > 0 */
  int include_proximity; /**< nonzero: record proximity geometry too */
  const char *name;      /**< the system's name (NULL: "visualizer") */
  /** 0 (the default): a frame is taken at the end of the first simulator
   *  step that reaches each multiple of publish_period, at that step's
   *  time, so recording never shortens the integrator's steps (at most one
   *  frame per step: steps longer than the period give fewer frames).
   *  Nonzero: a periodic publish stops the integrator at every multiple of
   *  the period, so frames fall exactly on k publish_period, as Drake's
   *  MeshcatVisualizer publishes; each stop costs an integrator restart. */
  int exact_times;
} teal_visualizer_options;

/** The defaults: a frame every 1/60 s taken at step ends, illustration
 *  geometry only, named "visualizer". */
TEAL_API teal_visualizer_options teal_visualizer_options_default(void);

/** A visualizer of finalized scene graph sg, with the abstract inputs
 *  "geometry_poses" (port 0; connect sg's output of that name) and
 *  "markers" (port 1, a teal_marker_list; optional). opts NULL: the
 *  defaults. NULL with err (may be NULL) set on a NULL or unfinalized scene
 *  graph (TEAL_EINVAL, TEAL_ESTATE), a period that is not finite and > 0
 *  (TEAL_EINVAL) or out of memory. */
TEAL_API teal_system *teal_visualizer_new(const teal_scene_graph *sg,
                                          const teal_visualizer_options *opts, teal_error *err);

/** Adds a visualizer of sg to builder b and connects sg's "geometry_poses"
 *  output to it; sg must already be in b (after teal_plant_finalize when sg
 *  came from teal_add_plant_and_scene_graph). Returns the visualizer
 *  (owned by b) or NULL with err set: the errors of teal_visualizer_new, a
 *  NULL builder, a builder that failed before or a scene graph it does not
 *  hold (TEAL_EINVAL, with the builder's message). */
TEAL_API teal_system *teal_add_visualizer(teal_builder *b, teal_scene_graph *sg,
                                          const teal_visualizer_options *opts, teal_error *err);

/** The recording of visualizer sys in ctx (its own context or a diagram
 *  context holding it); NULL when sys is no visualizer or not in ctx.
 *  Borrowed: valid as long as the context; its arrays until it next grows. */
TEAL_API const teal_scene_recording *teal_visualizer_recording(const teal_system *sys,
                                                               const teal_context *ctx);

/** Makes room for frames frames in total (>= 0) so that recording that
 *  many allocates nothing. TEAL_EINVAL (NULL, not a visualizer, frames <
 *  0), TEAL_ENOTFOUND (sys not in ctx), TEAL_ESIZE, TEAL_ENOMEM. */
TEAL_API int teal_visualizer_reserve(const teal_system *sys, teal_context *ctx, int frames);

/** Empties the recording, keeping its capacity (errors as for reserve). */
TEAL_API int teal_visualizer_clear(const teal_system *sys, teal_context *ctx);

/** TEAL_OK when no frame was skipped; otherwise TEAL_ENONFINITE with err
 *  naming how many frames were skipped, the first one's time and the
 *  geometry whose pose was not finite. TEAL_EINVAL for NULL rec. */
TEAL_API int teal_visualizer_check_skipped(const teal_scene_recording *rec, teal_error *err);

/** Writes the recording of visualizer sys in ctx as a replay page to path
 *  (teal_scene_recording_write_html; opts may be NULL). TEAL_EINVAL with a
 *  message when sys is no visualizer or not in ctx, else the writer's
 *  errors. */
TEAL_API int teal_visualizer_write_html(const teal_system *sys, const teal_context *ctx,
                                        const char *path, const teal_replay_options *opts,
                                        teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
