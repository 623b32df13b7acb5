/* The narrowphase pair functions behind the dispatch table (private to
 * geometry/). */
#ifndef TEAL_GEOMETRY_PROXIMITY_NARROWPHASE_INTERNAL_H
#define TEAL_GEOMETRY_PROXIMITY_NARROWPHASE_INTERNAL_H

#include "geometry/proximity/narrowphase.h"

/** A pair function: the signed distance of a (at X_WA) and b (at X_WB),
 *  whose kinds are the function's, in the conventions of narrowphase.h.
 *  Without need_distance a function may stop once it knows the shapes are
 *  apart and return any positive distance (the other fields unset).
 *  Arguments are valid (checked by the dispatcher). */
typedef int (*teal_pair_fn)(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                            const teal_transform *X_WB, int need_distance,
                            teal_signed_distance *out);

/** Closed forms (collide_sphere.c, collide_capsule.c, collide_box.c,
 *  collide_half_space.c); the kinds are those of the name, in order. */
int teal_np_sphere_sphere(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                          const teal_transform *X_WB, int need_distance,
                          teal_signed_distance *out);
int teal_np_sphere_box(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                       const teal_transform *X_WB, int need_distance, teal_signed_distance *out);
int teal_np_sphere_cylinder(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                            const teal_transform *X_WB, int need_distance,
                            teal_signed_distance *out);
int teal_np_sphere_capsule(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                           const teal_transform *X_WB, int need_distance,
                           teal_signed_distance *out);
int teal_np_capsule_capsule(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                            const teal_transform *X_WB, int need_distance,
                            teal_signed_distance *out);
int teal_np_box_box(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                    const teal_transform *X_WB, int need_distance, teal_signed_distance *out);
/** Any bounded convex a against the half-space b. */
int teal_np_convex_half_space(const teal_shape *a, const teal_transform *X_WA,
                              const teal_shape *b, const teal_transform *X_WB, int need_distance,
                              teal_signed_distance *out);

/** GJK/EPA on any two bounded convex shapes (narrowphase_convex.c). */
int teal_np_gjk_epa(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                    const teal_transform *X_WB, int need_distance, teal_signed_distance *out);

/** Settles an overlapping answer out of a pair function that may be
 *  ambiguous (narrowphase_degenerate.c): a, b bounded and convex; near is
 *  set when their origins (nearly) coincide. Ties between directions go to
 *  a fixed candidate order, and an EPA best estimate is replaced by the
 *  least support height over fixed directions, polished; flags are kept. */
void teal_np_settle(const teal_shape *a, const teal_transform *X_WA, const teal_shape *b,
                    const teal_transform *X_WB, int near, teal_signed_distance *out);

/* ---- helpers shared by the pair functions ------------------------------ */

/** Fills out for cores at c_A (of A) and c_B (of B) a distance d apart
 *  along the unit nhat_BA_W (from B towards A; d < 0 when the cores
 *  overlap), swollen by the margins r_A and r_B: distance d - r_A - r_B,
 *  p_WCa = c_A - r_A nhat, p_WCb = c_B + r_B nhat. */
void teal_np_swept_result(teal_vec3 c_A, teal_vec3 c_B, teal_vec3 nhat_BA_W, double d, double r_A,
                          double r_B, teal_signed_distance *out);

/** A unit vector perpendicular to u (u nonzero). */
teal_vec3 teal_np_perpendicular(teal_vec3 u);

/** Closest points of segments p0 + s d1 and q0 + t d2 (s, t in [0, 1],
 *  d1 and d2 nonzero) in *c1 and *c2. Parallel overlapping segments give
 *  the middle of their overlap. */
void teal_np_segment_closest(teal_vec3 p0, teal_vec3 d1, teal_vec3 q0, teal_vec3 d2,
                             teal_vec3 *c1, teal_vec3 *c2);

#endif
