/** @file
 * A recording of a scene's geometry poses over time (the data behind
 * Drake's MeshcatVisualizer recording), filled by the visualizer system
 * (visualizer.h) and written as a browser replay (replay_html.h).
 *
 * A recording lists the scene graph geometries it follows (their ids; the
 * scene graph holds their names, shapes, colours and frames) and one row
 * per recorded instant: the time and, for each followed geometry, its pose
 * X_WG as seven numbers, the position p_WoGo_W (x, y, z) and then the
 * rotation R_WG as a unit quaternion (w, x, y, z), and the frame's markers
 * (markers.h) when the visualizer's "markers" input is connected.
 *
 * Memory: rows are stored in arrays that grow by doubling through
 * teal_alloc (amortized; a run that records n frames allocates about
 * log2(n) times). teal_visualizer_reserve sizes the frames up front so
 * that recording them allocates nothing; markers, whose number varies from
 * frame to frame, grow the same amortized way. */
#ifndef TEAL_GEOMETRY_VISUALIZATION_SCENE_RECORDING_H
#define TEAL_GEOMETRY_VISUALIZATION_SCENE_RECORDING_H

#include "teal_export.h"

#include "geometry/scene_graph/scene_graph.h"
#include "geometry/visualization/markers.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Numbers per recorded pose: position (3) then quaternion w, x, y, z (4). */
#define TEAL_RECORDING_POSE_SIZE 7

/** A recording: read it, don't write it. */
typedef struct teal_scene_recording {
  const teal_scene_graph *scene_graph; /**< describes the geometries (borrowed) */
  int num_geometries;                  /**< geometries followed */
  const int *geometries;               /**< their scene graph ids (borrowed) */
  int count;                           /**< frames (instants) recorded */
  int capacity;                        /**< frames that fit without allocating */
  double *times;                       /**< count frame times, increasing */
  /** count x num_geometries x TEAL_RECORDING_POSE_SIZE numbers: the pose of
   *  followed geometry i at frame k starts at poses + (k * num_geometries +
   *  i) * TEAL_RECORDING_POSE_SIZE. */
  double *poses;
  int num_markers;      /**< markers recorded, all frames together */
  int marker_capacity;  /**< markers that fit without allocating */
  teal_marker *markers; /**< the markers, frame after frame */
  /** capacity + 1 entries: frame k's markers are markers[marker_start[k]]
   *  up to markers[marker_start[k + 1] - 1]. */
  int *marker_start;
  long skipped_markers; /**< markers left out because they were not finite */
  long skipped;         /**< frames not recorded because a pose was not finite */
  double skipped_time;  /**< time of the first skipped frame (NaN if none) */
  int skipped_geometry; /**< scene graph id of its first non-finite pose (-1 if none) */
} teal_scene_recording;

/** The pose of followed geometry i (0 <= i < num_geometries) at frame k as
 *  a transform X_WG. TEAL_EINVAL for a NULL argument or an index out of
 *  range. */
TEAL_API int teal_scene_recording_pose(const teal_scene_recording *rec, int frame, int i,
                                       teal_transform *X_WG);

#ifdef __cplusplus
}
#endif
#endif
