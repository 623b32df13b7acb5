/** @file
 * A recording of a scene's geometry poses over time (the data behind
 * Drake's MeshcatVisualizer recording), filled by the visualizer system
 * (visualizer.h) and written as a browser replay (replay_html.h).
 *
 * A recording lists the scene graph geometries it follows (their ids; the
 * scene graph holds their names, shapes, colours and frames) and one row
 * per recorded instant: the time and, for each followed geometry, its pose
 * X_WG as seven numbers, the position p_WoGo_W (x, y, z) and then the
 * rotation R_WG as a unit quaternion (w, x, y, z).
 *
 * Memory: rows are stored in arrays that grow by doubling through
 * teal_alloc (amortized; a run that records n frames allocates about
 * log2(n) times). teal_visualizer_reserve sizes them up front so that
 * recording allocates nothing. */
#ifndef TEAL_GEOMETRY_VISUALIZATION_SCENE_RECORDING_H
#define TEAL_GEOMETRY_VISUALIZATION_SCENE_RECORDING_H

#include "teal_export.h"

#include "geometry/scene_graph/scene_graph.h"

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
