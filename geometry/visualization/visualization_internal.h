/* Private to geometry/visualization: the recording as a context value
 * (scene_recording.c), shared with the visualizer system (visualizer.c),
 * and the viewer script embedded at build time (generated from
 * replay_viewer.js by cmake/embed_file.cmake). */
#ifndef TEAL_GEOMETRY_VISUALIZATION_VISUALIZATION_INTERNAL_H
#define TEAL_GEOMETRY_VISUALIZATION_VISUALIZATION_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "framework/value.h"
#include "geometry/visualization/replay_html.h"
#include "geometry/visualization/scene_recording.h"

/* The recording as a per-context scratch value: a context's recording is
 * a copy of the model {scene_graph, num_geometries, geometries} with no
 * frames; copies keep the destination's buffers when they have room. */
extern const teal_value_type teal_viz_recording_type;

/* Appends a frame at time t from the scene's X_WG (indexed by geometry id)
 * and markers (may be NULL), or overwrites the last frame when it has time
 * t. A frame with a non-finite pose is skipped and counted (TEAL_OK), a
 * non-finite marker left out and counted. TEAL_ENOMEM or TEAL_ESIZE when
 * the recording cannot grow. */
int teal_viz_recording_record(teal_scene_recording *rec, double t, const teal_transform *X_WG,
                              const teal_marker_list *markers);

/* Makes room for capacity frames in total (never shrinks). */
int teal_viz_recording_reserve(teal_scene_recording *rec, int capacity);

/* Writes the replay's data as a JavaScript object literal (JSON): title,
 * geometries (name, frame, role, shape, dimensions, colour, X_FG, mesh
 * contents) and frames (times, poses). Nonzero when every write succeeded
 * (replay_scene.c). */
int teal_viz_write_scene_json(FILE *f, const teal_scene_recording *rec, const char *title);

/* The plots as a JSON array of {title, labels, rows} (replay_scene.c). */
int teal_viz_write_plots_json(FILE *f, const teal_replay_plot *plots, int n);

/* The whole file at path through teal_alloc, its size in *n (NULL when
 * it cannot be read). */
unsigned char *teal_viz_read_file(const char *path, size_t *n);

/* The viewer script (replay_viewer.js), NUL-terminated, and its length. */
extern const unsigned char teal_viz_viewer_js[];
extern const size_t teal_viz_viewer_js_size;

#endif
