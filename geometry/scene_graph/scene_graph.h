/** @file
 * The scene graph (Drake's SceneGraph) as a leaf system.
 *
 * Sources (e.g. a plant) register themselves, their frames and the
 * geometries fixed to those frames (pose X_FG in the frame, a shape, a name,
 * a role and properties). A source's frames are numbered 0, 1, ... in
 * registration order, and its pose input port "<source>_pose" takes a
 * teal_transform_list with X_WF of each of them at that index. Frames whose
 * pose never changes (e.g. the world) are simply frames whose pose the
 * source reports as constant.
 *
 * The output port "geometry_poses" holds X_WG of every geometry, indexed by
 * geometry id (a teal_transform_list; what a visualizer reads). The output
 * port "query" holds the point-pair penetrations of all
 * proximity geometries (teal_point_pair_list), evaluated lazily from the
 * current poses. Pairs are filtered: never two geometries on one frame,
 * never two frames declared excluded (e.g. welded bodies), never two
 * geometries declared excluded, and collision groups (teal_scene_graph_set_collision_group).
 *
 * Registration is allowed until teal_scene_graph_finalize, which builds the
 * system; from then the system owns the scene graph, as with the plant
 * (teal_scene_graph_free frees the system unless a builder or diagram owns
 * it). Errors are sticky as in the plant. */
#ifndef TEAL_GEOMETRY_SCENE_GRAPH_SCENE_GRAPH_H
#define TEAL_GEOMETRY_SCENE_GRAPH_SCENE_GRAPH_H

#include "teal_export.h"
#include <stdint.h>

#include "framework/context.h"
#include "framework/system.h"
#include "geometry/proximity/broadphase.h"
#include "geometry/shapes/geometry_properties.h"
#include "geometry/scene_graph/pose_list.h"
#include "geometry/proximity/query_result.h"
#include "geometry/shapes/shape.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The scene graph (model part until finalize). */
typedef struct teal_scene_graph teal_scene_graph;

/** A new empty scene graph named name (NULL: "scene_graph"); NULL with err
 *  filled when out of memory. */
TEAL_API teal_scene_graph *teal_scene_graph_new(const char *name, teal_error *err);

/** Frees the scene graph (and its system unless a builder or diagram owns
 *  it). NULL is allowed. */
TEAL_API void teal_scene_graph_free(teal_scene_graph *sg);

/** The sticky error record. */
TEAL_API const teal_error *teal_scene_graph_error(const teal_scene_graph *sg);

/** Registers a source; returns its id. */
TEAL_API int teal_scene_graph_register_source(teal_scene_graph *sg, const char *name);

/** Registers a frame of source; returns its frame id (global). Its index in
 *  the source's pose list is the number of frames the source had before. */
TEAL_API int teal_scene_graph_register_frame(teal_scene_graph *sg, int source, const char *name);

/** Registers a geometry on frame (pose X_FG); returns its geometry id.
 *  Proximity geometry needs valid props (TEAL_EINVAL otherwise) and may
 *  not be a mesh; illustration geometry takes rgba (NULL: grey). */
TEAL_API int teal_scene_graph_register_geometry(teal_scene_graph *sg, int frame,
                                                teal_transform X_FG, const teal_shape *shape,
                                                const char *name, teal_geometry_role role,
                                                const teal_proximity_properties *props,
                                                const double rgba[4]);

/** Sets the collision group bits of a geometry and the mask of groups it
 *  collides with (default group 1, mask all ones): a pair is a candidate
 *  only when (group_a & mask_b) and (group_b & mask_a) are both nonzero. */
TEAL_API int teal_scene_graph_set_collision_group(teal_scene_graph *sg, int geometry,
                                                  uint32_t group, uint32_t mask);

/** Excludes collisions between the geometries of two frames. */
TEAL_API int teal_scene_graph_exclude_frame_pair(teal_scene_graph *sg, int frame_a, int frame_b);

/** Excludes collisions between two geometries (either order), leaving
 *  every other pair of their frames alone (e.g. MJCF's contype and
 *  conaffinity bits). Before finalize only (TEAL_ESTATE after); an unknown
 *  id gives TEAL_ENOTFOUND and a == b TEAL_EINVAL, with the message in the
 *  sticky error record. */
TEAL_API int teal_scene_graph_exclude_geometry_pair(teal_scene_graph *sg, int geometry_a,
                                                    int geometry_b);

/** Ends registration and builds the system. */
TEAL_API int teal_scene_graph_finalize(teal_scene_graph *sg);

/** The scene graph's system (NULL before finalize). */
TEAL_API teal_system *teal_scene_graph_system(teal_scene_graph *sg);
/** The scene graph of a system made by teal_scene_graph_finalize (NULL for
 *  any other system). */
TEAL_API teal_scene_graph *teal_scene_graph_from_system(const teal_system *sys);

/** Index of a source's pose input port (negative status on a bad source or
 *  before finalize). */
TEAL_API int teal_scene_graph_source_pose_port(const teal_scene_graph *sg, int source);
/** Index of the query output port (negative status before finalize). */
TEAL_API int teal_scene_graph_query_output_port(const teal_scene_graph *sg);
/** Index of the "geometry_poses" output port: X_WG of every geometry by id
 *  (negative status before finalize). */
TEAL_API int teal_scene_graph_geometry_poses_output_port(const teal_scene_graph *sg);

/* ---- model queries ------------------------------------------------------ */

/** Number of registered sources (0 for NULL). */
TEAL_API int teal_scene_graph_num_sources(const teal_scene_graph *sg);
/** Number of registered frames (0 for NULL). */
TEAL_API int teal_scene_graph_num_frames(const teal_scene_graph *sg);
/** Number of registered geometries (0 for NULL). */
TEAL_API int teal_scene_graph_num_geometries(const teal_scene_graph *sg);
/** The frame a geometry is attached to (-1 on a bad id). */
TEAL_API int teal_scene_graph_geometry_frame(const teal_scene_graph *sg, int geometry);
/** The source a frame belongs to (-1 on a bad id). */
TEAL_API int teal_scene_graph_frame_source(const teal_scene_graph *sg, int frame);
/** Index of a frame in its source's pose list (-1 on a bad id). */
TEAL_API int teal_scene_graph_frame_index(const teal_scene_graph *sg, int frame);
/** A geometry's name (NULL on a bad id). */
TEAL_API const char *teal_scene_graph_geometry_name(const teal_scene_graph *sg, int geometry);
/** A geometry's role (0 on a bad id). */
TEAL_API teal_geometry_role teal_scene_graph_geometry_role(const teal_scene_graph *sg,
                                                           int geometry);
/** A geometry's colour, red, green, blue and alpha in [0, 1] (NULL on a bad
 *  id); grey when it was registered without one. */
TEAL_API const double *teal_scene_graph_geometry_rgba(const teal_scene_graph *sg, int geometry);
/** A frame's name (NULL on a bad id). */
TEAL_API const char *teal_scene_graph_frame_name(const teal_scene_graph *sg, int frame);
/** A geometry's shape (NULL on a bad id). */
TEAL_API const teal_shape *teal_scene_graph_geometry_shape(const teal_scene_graph *sg,
                                                           int geometry);
/** A geometry's pose in its frame (NULL on a bad id). */
TEAL_API const teal_transform *
teal_scene_graph_geometry_pose_in_frame(const teal_scene_graph *sg, int geometry);
/** A proximity geometry's properties (NULL on a bad id or another role). */
TEAL_API const teal_proximity_properties *
teal_scene_graph_geometry_proximity(const teal_scene_graph *sg, int geometry);
/** Nonzero when geometries a and b may collide (both proximity, not on
 *  one frame, not excluded). */
TEAL_API int teal_scene_graph_pair_is_candidate(const teal_scene_graph *sg, int a, int b);

/* ---- queries in a context ---------------------------------------------------- */

#ifdef __cplusplus
}
#endif
#endif
