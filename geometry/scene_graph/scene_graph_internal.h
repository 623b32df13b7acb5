/* Private to geometry/: the scene graph's records, shared by scene_graph.c
 * (registration, system) and scene_graph_query.c (queries). */
#ifndef TEAL_GEOMETRY_SCENE_GRAPH_SCENE_GRAPH_INTERNAL_H
#define TEAL_GEOMETRY_SCENE_GRAPH_SCENE_GRAPH_INTERNAL_H

#include <stdint.h>

#include "geometry/proximity/broadphase.h"
#include "geometry/scene_graph/scene_graph.h"

typedef struct sg_source {
  char *name;
  int num_frames;
  int port;
} sg_source;

typedef struct sg_frame {
  char *name;
  int source, index;
} sg_frame;

typedef struct sg_geometry {
  char *name;
  int frame;
  teal_transform X_FG;
  teal_shape shape;
  teal_geometry_role role;
  teal_proximity_properties props;
  double rgba[4];
  uint32_t group, mask; /* collision groups: default 1, all ones */
} sg_geometry;

struct teal_scene_graph {
  char *name;
  teal_error err;
  int finalized, ready;
  teal_system *system;
  sg_source *sources;
  sg_frame *frames;
  sg_geometry *geoms;
  int nsources, nframes, ngeoms;
  int cap_sources, cap_frames, cap_geoms;
  int *excluded; /* frame pairs (a, b), a < b, 2 per pair */
  int nexcluded, cap_excluded;
  int *excluded_geoms; /* geometry pairs (a, b), a < b, 2 per pair */
  int nexcluded_geoms, cap_excluded_geoms;
  int excluded_sorted; /* both lists sorted by (a, b) for binary search (set at finalize) */
  /* finalized: the proximity geometries and their collision filter (over
   * indices into prox, frame ids as given) */
  int *prox;
  int nprox;
  teal_collision_filter *filter;
  /* system */
  int out_query, out_poses, ce_poses, ce_pairs, scratch;
  teal_value_type poses_type;
};

/* Per-context broadphase state and buffers (a scratch value made from the
 * model {sg, NULL...} when a context is created). */
typedef struct sg_scratch {
  const teal_scene_graph *sg;
  teal_broadphase *bp;
  teal_aabb *boxes;          /* [nprox] */
  teal_geometry_pair *pairs; /* [cap] */
  int cap;
  long growths;  /* times the pair buffer grew during a query */
  long warnings; /* narrowphase results returned as best estimates (flags) */
} sg_scratch;

extern const teal_value_type teal_sg_scratch_type;

/* The cache callbacks (scene_graph_query.c). */
int teal_sg_calc_geometry_poses(const teal_system *sys, const teal_context *ctx, void *out,
                                void *user);
int teal_sg_calc_point_pairs(const teal_system *sys, const teal_context *ctx, void *out,
                             void *user);
int teal_sg_output_geometry_poses(const teal_system *sys, const teal_context *ctx, void *out,
                                  void *user);
int teal_sg_output_query(const teal_system *sys, const teal_context *ctx, void *out, void *user);
/* Initialization publish: evaluates the query once (when its pose inputs
 * are wired) so that its lists get their room before the first step. */
int teal_sg_size_outputs(const teal_system *sys, const teal_context *ctx, void *user);

/* The scene graph's own context within ctx (teal_leaf_util_own_context
 * with its tag; NULL if none). */
const teal_context *teal_sg_own_context(const teal_scene_graph *sg, const teal_context *ctx);

#endif
