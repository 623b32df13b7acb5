/** @file
 * Queries on a scene graph's context: geometry poses, penetrating point pairs,
 * signed distance, broadphase statistics and the warning counter. */
#ifndef TEAL_GEOMETRY_SCENE_GRAPH_SCENE_GRAPH_QUERY_H
#define TEAL_GEOMETRY_SCENE_GRAPH_SCENE_GRAPH_QUERY_H

#include "teal_export.h"
#include <stdint.h>
#include "framework/context.h"
#include "framework/system.h"
#include "geometry/proximity/broadphase.h"
#include "geometry/shapes/geometry_properties.h"
#include "geometry/scene_graph/pose_list.h"
#include "geometry/proximity/query_result.h"
#include "geometry/shapes/shape.h"
#include "geometry/scene_graph/scene_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/** X_WG of every geometry (num_geometries entries), cached. ctx is the
 *  scene graph's context or one above it. */
TEAL_API int teal_scene_graph_eval_geometry_poses(const teal_scene_graph *sg,
                                                  const teal_context *ctx,
                                                  const teal_transform **X_WG);

/** The cached point-pair penetrations (same list as the query port). */
TEAL_API int teal_scene_graph_eval_point_pair_penetrations(const teal_scene_graph *sg,
                                                           const teal_context *ctx,
                                                           const teal_point_pair_list **pairs);

/** The work counters of the broadphase in ctx's latest point-pair query
 *  (zeros before the first): candidate pairs (proximity pairs whose boxes
 *  overlap and that the filters allow: what the narrowphase tests), box
 *  tests of the sweep, sort moves, the sweep axis and the overflow total.
 *  TEAL_EINVAL for a NULL argument or a context that does not hold the
 *  scene graph, TEAL_ESTATE before finalize. */
TEAL_API int teal_scene_graph_broadphase_stats(const teal_scene_graph *sg, const teal_context *ctx,
                                               teal_broadphase_stats *stats);

/** Warning counter of ctx's queries: narrowphase answers returned as best
 *  estimates (GJK/EPA limits) plus times the pair buffer had to grow. */
TEAL_API long teal_scene_graph_warning_count(const teal_scene_graph *sg, const teal_context *ctx);

/** Signed distance between geometries a and b (both proximity) with the
 *  witness points p_WCa, p_WCb (may be NULL): negative when they overlap. */
TEAL_API int teal_scene_graph_signed_distance(const teal_scene_graph *sg, const teal_context *ctx,
                                              int a, int b, double *distance, teal_vec3 *p_WCa,
                                              teal_vec3 *p_WCb);

#ifdef __cplusplus
}
#endif
#endif
