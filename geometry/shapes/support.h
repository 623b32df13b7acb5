/** @file
 * Support mappings of the convex shapes, the input of GJK and EPA.
 *
 * The support point of a convex set S along a direction d is a point of S
 * that maximizes d . x. Every bounded convex shape (sphere, box, cylinder,
 * capsule, ellipsoid, convex) has one here. Sphere and capsule are also
 * split into a core (the centre point, the axis segment) and a margin (the
 * radius): the shape is the core swept by a ball of that radius, which lets
 * GJK work on the core exactly (points and segments are polytopes) and add
 * the radii afterwards. For the other shapes the core is the shape itself
 * and the margin is 0.
 *
 * Ties are broken towards the middle: a component of d below 1e-12 of its
 * largest (zero up to a rotation's rounding) picks the middle of the shape
 * along that axis (a box face centre, a cylinder cap centre), so the
 * support of a face-on box is the centre of that face. */
#ifndef TEAL_GEOMETRY_SHAPES_SUPPORT_H
#define TEAL_GEOMETRY_SHAPES_SUPPORT_H

#include "teal_export.h"

#include "geometry/shapes/shape.h"
#include "math/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Nonzero when the shape is bounded and convex (it has a support
 *  mapping): sphere, box, cylinder, capsule, ellipsoid, convex with
 *  vertices. Half-spaces and meshes have none. */
TEAL_API int teal_shape_has_support(const teal_shape *shape);

/** Support point of the shape in its own frame G along d_G (need not be
 *  unit; a zero d_G gives a point of the shape). The shape must have a
 *  support mapping (teal_shape_has_support); otherwise Go is returned. */
TEAL_API teal_vec3 teal_shape_support(const teal_shape *shape, teal_vec3 d_G);

/** Support point of the shape's core in G along d_G (the centre of a
 *  sphere, the axis segment of a capsule, the shape itself otherwise). */
TEAL_API teal_vec3 teal_shape_core_support(const teal_shape *shape, teal_vec3 d_G);

/** The margin: the radius of a sphere or capsule, 0 for the other shapes. */
TEAL_API double teal_shape_margin(const teal_shape *shape);

/** Nonzero when the core has no volume (a sphere's point, a capsule's
 *  segment), so a Minkowski difference of two such cores is flat. */
TEAL_API int teal_shape_core_is_thin(const teal_shape *shape);

/** A shape posed in the world, seen through its support mapping: with
 *  use_core set the core's support is returned, else the whole shape's. */
typedef struct teal_support_map {
  const teal_shape *shape; /**< borrowed, must have a support mapping */
  teal_transform X_WG;     /**< pose of the shape frame G in the world */
  int use_core;            /**< 1: the core, 0: the whole shape */
} teal_support_map;

/** Nonzero when every direction has a single support point: a point (a
 *  sphere's core) or a strictly convex set (a whole sphere, an ellipsoid). */
TEAL_API int teal_support_map_is_strict(const teal_support_map *m);

/** Support point in the world along d_W of the mapped shape (or core). */
TEAL_API teal_vec3 teal_support_map_point(const teal_support_map *m, teal_vec3 d_W);

#ifdef __cplusplus
}
#endif
#endif
