/** @file
 * Axis-aligned bounding boxes of posed shapes, for the broadphase. */
#ifndef TEAL_GEOMETRY_PROXIMITY_AABB_H
#define TEAL_GEOMETRY_PROXIMITY_AABB_H

#include "teal_export.h"

#include "geometry/shapes/shape.h"
#include "math/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A world-aligned box [lo, hi] (closed). An unbounded shape (half-space)
 *  has lo = -INFINITY and hi = +INFINITY on every axis. */
typedef struct teal_aabb {
  /** The lower and upper corners. @{ */
  teal_vec3 lo, hi;
  /** @} */
} teal_aabb;

/** The tight AABB of the shape at pose X_WG (exact for every kind: the
 *  extent along each world axis is the support in that direction);
 *  half-spaces get the infinite box. Returns TEAL_EINVAL (NULL, bad kind,
 *  convex without vertices), TEAL_ENONFINITE (pose) or TEAL_EUNSUPPORTED
 *  (mesh). */
TEAL_API int teal_shape_aabb(const teal_shape *shape, teal_transform X_WG, teal_aabb *out);

/** The box grown by margin >= 0 on every side. */
TEAL_API teal_aabb teal_aabb_inflate(teal_aabb box, double margin);

/** Nonzero when the closed boxes a and b intersect (touching counts). */
TEAL_API int teal_aabb_overlap(const teal_aabb *a, const teal_aabb *b);

/** Nonzero when the box extends to infinity along some axis. */
TEAL_API int teal_aabb_is_unbounded(const teal_aabb *box);

#ifdef __cplusplus
}
#endif
#endif
