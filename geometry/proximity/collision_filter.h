/** @file
 * Which pairs of geometries may collide.
 *
 * Geometries are numbered 0..n-1 and each sits on a frame (an id given at
 * creation). Two geometries a != b are a candidate pair iff
 *  - they are on different frames,
 *  - the pair was not excluded (teal_collision_filter_exclude_pair or
 *    _exclude_frame_pair), and
 *  - their groups accept each other: (group_a & mask_b) != 0 and
 *    (group_b & mask_a) != 0 (both sides must agree; the default is group 1,
 *    mask all ones, so everything collides; group 0 disables a geometry).
 * Exclusions are kept in a symmetric bitset of n (n - 1) / 2 bits allocated
 * at creation (n = 1000 takes 62 KB); nothing is allocated afterwards. */
#ifndef TEAL_GEOMETRY_PROXIMITY_COLLISION_FILTER_H
#define TEAL_GEOMETRY_PROXIMITY_COLLISION_FILTER_H

#include "teal_export.h"
#include <stdint.h>

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A collision filter over a fixed number of geometries. */
typedef struct teal_collision_filter teal_collision_filter;

/** A filter for n >= 0 geometries, geometry g on frame frame_ids[g] (copied;
 *  NULL when n is 0). NULL with err filled on bad arguments or no memory. */
TEAL_API teal_collision_filter *teal_collision_filter_new(int n, const int *frame_ids,
                                                          teal_error *err);

/** Frees the filter (NULL is allowed). */
TEAL_API void teal_collision_filter_free(teal_collision_filter *f);

/** The number of geometries. */
TEAL_API int teal_collision_filter_size(const teal_collision_filter *f);

/** The frame of geometry g (-1 on a bad index). */
TEAL_API int teal_collision_filter_frame(const teal_collision_filter *f, int g);

/** Excludes (exclude != 0) or re-admits (exclude == 0) the pair a, b
 *  (either order). TEAL_EINVAL on bad indices or a == b. */
TEAL_API int teal_collision_filter_exclude_pair(teal_collision_filter *f, int a, int b,
                                                int exclude);

/** Excludes every pair of one geometry on frame_a and one on frame_b (for
 *  instance two welded bodies); a frame with no geometries is fine. */
TEAL_API int teal_collision_filter_exclude_frame_pair(teal_collision_filter *f, int frame_a,
                                                      int frame_b);

/** Sets the group bits and the mask of groups geometry g collides with. */
TEAL_API int teal_collision_filter_set_group(teal_collision_filter *f, int g, uint32_t group,
                                             uint32_t mask);

/** Nonzero when geometries a and b form a candidate pair (see above); 0
 *  also for bad indices. */
TEAL_API int teal_collision_filter_allows(const teal_collision_filter *f, int a, int b);

#ifdef __cplusplus
}
#endif
#endif
