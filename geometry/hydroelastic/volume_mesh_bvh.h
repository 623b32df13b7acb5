/** @file
 * A bounding volume hierarchy over a soft mesh's tetrahedra: a binary tree
 * of axis-aligned boxes in the mesh's frame, built once with the mesh
 * (Drake's Bvh<Obb, VolumeMesh> plays this part), so that a contact query
 * visits only the tetrahedra near the rigid geometry instead of all of
 * them.
 *
 * The tree splits the tetrahedra at the median of their centroids along
 * the longest side of each box until a leaf holds at most
 * TEAL_VOLUME_MESH_BVH_LEAF of them. The mesh's tetrahedra are reordered
 * so that each leaf's are consecutive. Node 0 is the root; the tree is
 * stored depth first, so a node's left child follows it. */
#ifndef TEAL_GEOMETRY_HYDROELASTIC_VOLUME_MESH_BVH_H
#define TEAL_GEOMETRY_HYDROELASTIC_VOLUME_MESH_BVH_H

#include "teal_export.h"

#include "framework/error.h"
#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

struct teal_volume_mesh;

/** Most tetrahedra in a leaf of the hierarchy. */
#define TEAL_VOLUME_MESH_BVH_LEAF 4

/** Deepest hierarchy a query walks (a median split of up to 2^40
 *  tetrahedra). */
#define TEAL_VOLUME_MESH_BVH_MAX_DEPTH 48

/** One node of the hierarchy: the box holding its tetrahedra's vertices. */
typedef struct teal_bvh_node {
  teal_vec3 lo; /**< the box's lower corner, in the mesh frame */
  teal_vec3 hi; /**< the box's upper corner, in the mesh frame */
  int right;    /**< index of the right child; -1 for a leaf */
  int first;    /**< a leaf's first tetrahedron */
  int count;    /**< a leaf's tetrahedra (0 for an inner node) */
} teal_bvh_node;

/** Decides whether a query can skip a box: nonzero when nothing in the box
 *  [lo, hi] (mesh frame) can touch the query's geometry. */
typedef int (*teal_bvh_box_misses)(const void *query, teal_vec3 lo, teal_vec3 hi);

/** Calls visit(query, t) for each tetrahedron t of the leaves whose boxes
 *  misses does not reject (every tetrahedron when the mesh has no
 *  hierarchy), stopping at and returning the first nonzero value visit
 *  returns; 0 when all were visited. Allocates nothing. TEAL_EINVAL with
 *  the cause in err (NULL allowed) for a NULL mesh or callback or a
 *  hierarchy deeper than TEAL_VOLUME_MESH_BVH_MAX_DEPTH. */
TEAL_API int teal_volume_mesh_bvh_visit(const struct teal_volume_mesh *mesh,
                                        teal_bvh_box_misses misses,
                                        int (*visit)(void *query, int tet), void *query,
                                        teal_error *err);

/** Nonzero when the plane through o with normal n (mesh frame) misses the
 *  box [lo, hi]: the box's corners all lie strictly on one side. */
TEAL_API int teal_bvh_box_misses_plane(teal_vec3 n, teal_vec3 o, teal_vec3 lo, teal_vec3 hi);

#ifdef __cplusplus
}
#endif
#endif
