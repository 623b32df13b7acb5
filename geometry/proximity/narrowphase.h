/** @file
 * Narrowphase: penetration and signed distance between two posed shapes.
 *
 * Conventions (Drake's PenetrationAsPointPair and SignedDistancePair):
 *  - nhat_BA_W is a unit vector in the world pointing from B into A: the
 *    outward normal of B at its witness point, the direction in which A
 *    must move (or B move against) to increase the distance fastest. It is
 *    the same direction whether the shapes overlap or not.
 *  - p_WCa is a point of A, p_WCb a point of B. Separated: the closest
 *    points. Overlapping: p_WCa is the point of A deepest inside B and p_WCb
 *    the point of B deepest inside A.
 *  - The signed distance phi is the distance when separated and minus the
 *    penetration depth (the length of the shortest translation that
 *    separates them) when overlapping; always p_WCa - p_WCb = phi nhat_BA_W
 *    (up to rounding; exactly for the closed forms). For a penetration
 *    depth = -phi > 0, so p_WCb = p_WCa + depth nhat_BA_W.
 *
 * Pairs are dispatched through a table indexed by the two shape kinds
 * (MuJoCo style). Closed forms: sphere-sphere, sphere-box, sphere-capsule,
 * sphere-cylinder, capsule-capsule, box-box (separating axes; separated
 * boxes fall back to GJK for the distance) and every bounded convex shape
 * against a half-space (through its support point; for an ellipsoid that
 * is D^2 n / |D n|). All other pairs of bounded convex shapes (every pair
 * with an ellipsoid, a cylinder other than with a sphere, or a convex
 * polytope) use GJK for the distance and EPA for the depth on the shapes'
 * support mappings; spheres and capsules enter them as a core (point,
 * segment) plus a radius. Half-space against half-space, and anything
 * against a mesh, give TEAL_EUNSUPPORTED.
 *
 * Accuracy of the GJK/EPA path: exact to rounding (~1e-12) where the
 * Minkowski difference is a polytope (boxes, convex hulls, sphere and
 * capsule cores); on curved differences the polytope answer is polished by
 * Newton steps on the support height, giving depth/distance to ~1e-9 and
 * the normal to ~1e-7 on smooth contacts, ~1e-5 where a curved shape meets
 * an edge of a polytope. When GJK or EPA stop short (iteration limit, a full
 * polytope of 256 faces, a degenerate face) the best estimate
 * is returned and flags says so (a warning to count, not an error); an
 * overlap's best estimate is the least support height found from a fixed
 * set of directions, so moving A by its depth along its normal separates.
 *
 * Coincident and nearly coincident shapes (origins closer than 1e-3 of the
 * depth), where many directions are equally deep, get a deterministic
 * answer that a 1e-9 change of the poses does not turn: among directions
 * deep to within 1e-7 of the sizes, the first of the normal along +z, -z,
 * +x, -x, +y, -y of A's frame, then of B's (so two concentric spheres give
 * +z, and such a pair is not mirrored when swapped).
 *
 * Queries allocate nothing and keep no state (the EPA polytope lives on the
 * stack, about 25 KB); they are safe to call from several threads. The
 * rotations in the poses must be proper rotations (not checked). */
#ifndef TEAL_GEOMETRY_PROXIMITY_NARROWPHASE_H
#define TEAL_GEOMETRY_PROXIMITY_NARROWPHASE_H

#include "teal_export.h"

#include "geometry/shapes/shape.h"
#include "math/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bits of the flags field: the iterative path returned its best estimate
 *  instead of a converged answer. Count them as warnings. */
enum teal_query_flag {
  TEAL_QUERY_GJK_ITERATIONS = 1, /**< GJK reached its iteration limit */
  TEAL_QUERY_EPA_CAPACITY = 2,   /**< EPA's polytope (or iterations) ran out */
  TEAL_QUERY_EPA_DEGENERATE = 4  /**< EPA met a flat start or a flat face */
};

/** Penetration of two overlapping shapes A and B (see the conventions
 *  above): depth > 0, nhat_BA_W from B into A, p_WCa of A deepest in B,
 *  p_WCb of B deepest in A, p_WCb = p_WCa + depth nhat_BA_W. */
typedef struct teal_penetration {
  double depth;        /**< > 0 when overlapping */
  teal_vec3 nhat_BA_W; /**< unit, from B into A */
  teal_vec3 p_WCa;     /**< point of A deepest inside B */
  teal_vec3 p_WCb;     /**< point of B deepest inside A */
  unsigned flags;      /**< teal_query_flag bits, 0 when exact */
} teal_penetration;

/** Signed distance of A and B (see the conventions above):
 *  p_WCa - p_WCb = distance nhat_BA_W. */
typedef struct teal_signed_distance {
  double distance;     /**< < 0 when overlapping (minus the depth) */
  teal_vec3 nhat_BA_W; /**< unit, from B towards A */
  teal_vec3 p_WCa;     /**< witness point on A */
  teal_vec3 p_WCb;     /**< witness point on B */
  unsigned flags;      /**< teal_query_flag bits, 0 when exact */
} teal_signed_distance;

/** Penetration of shape a at X_WA and shape b at X_WB. *overlapping is 1
 *  and out filled when they overlap (depth > 0); otherwise *overlapping is 0
 *  and out is zeroed but for flags (touching shapes do not overlap; apart
 *  shapes may be told apart early, without their distance). Returns TEAL_OK,
 *  TEAL_EINVAL (NULL argument, bad kind, convex without vertices),
 *  TEAL_ENONFINITE (non-finite pose) or TEAL_EUNSUPPORTED (half-space pair,
 *  mesh). */
TEAL_API int teal_shape_pair_penetration(const teal_shape *a, teal_transform X_WA,
                                         const teal_shape *b, teal_transform X_WB,
                                         teal_penetration *out, int *overlapping);

/** Signed distance of shape a at X_WA and shape b at X_WB (errors as
 *  teal_shape_pair_penetration). A half-space pair is measured from the
 *  boundary plane: negative for the part of the shape below it. */
TEAL_API int teal_shape_pair_signed_distance(const teal_shape *a, teal_transform X_WA,
                                             const teal_shape *b, teal_transform X_WB,
                                             teal_signed_distance *out);

/** Penetration by GJK and EPA whatever the kinds (both must be bounded and
 *  convex, otherwise TEAL_EUNSUPPORTED): the general path, also used to
 *  cross-check the closed forms. Same contract as
 *  teal_shape_pair_penetration. */
TEAL_API int teal_convex_pair_penetration(const teal_shape *a, teal_transform X_WA,
                                          const teal_shape *b, teal_transform X_WB,
                                          teal_penetration *out, int *overlapping);

/** Signed distance by GJK (separated) and EPA (overlapping) whatever the
 *  kinds (both bounded and convex). */
TEAL_API int teal_convex_pair_signed_distance(const teal_shape *a, teal_transform X_WA,
                                              const teal_shape *b, teal_transform X_WB,
                                              teal_signed_distance *out);

/** Nonzero when the pair of kinds (in either order) has a closed form for
 *  penetration in the dispatch table (0 for GJK/EPA pairs and unsupported
 *  ones). */
TEAL_API int teal_narrowphase_is_analytic(teal_shape_kind a, teal_shape_kind b);

/** Nonzero when the pair of kinds (in either order) is supported at all. */
TEAL_API int teal_narrowphase_is_supported(teal_shape_kind a, teal_shape_kind b);

#ifdef __cplusplus
}
#endif
#endif
