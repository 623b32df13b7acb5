/** @file
 * Broadphase: sweep and prune over axis-aligned bounding boxes.
 *
 * Each call sorts the boxes by their lower end along the sweep axis (the
 * world axis along which the box centres vary most, switched only when
 * another axis varies 20% more) with an insertion sort that starts from the
 * previous call's order, so coherent motion costs about O(n) moves (the
 * first call, and a call that switches the axis, heapsort instead). Then
 * one sweep reports every pair whose closed boxes intersect on all three
 * axes and that the collision filter allows. Unbounded boxes (half-spaces)
 * sort first and pair with every box. The broadphase allocates only in
 * _new; pairs go into a caller buffer and those that do not fit are
 * counted, not stored. */
#ifndef TEAL_GEOMETRY_PROXIMITY_BROADPHASE_H
#define TEAL_GEOMETRY_PROXIMITY_BROADPHASE_H

#include "teal_export.h"

#include "geometry/proximity/aabb.h"
#include "geometry/proximity/collision_filter.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A candidate pair of geometry indices, a < b. */
typedef struct teal_geometry_pair {
  /** The two geometry indices, a < b. @{ */
  int a, b;
  /** @} */
} teal_geometry_pair;

/** Work counters of the last teal_broadphase_find_pairs call, plus the
 *  total of overflows (a warning counter). */
typedef struct teal_broadphase_stats {
  int axis;                  /**< sweep axis (0, 1, 2) */
  long sort_moves;           /**< element moves (or swaps) of the sort */
  long box_tests;            /**< box pairs compared in the sweep */
  int num_pairs;             /**< candidate pairs found (stored or not) */
  int overflow;              /**< pairs that did not fit the buffer */
  unsigned long overflow_total; /**< sum of overflow over all calls */
} teal_broadphase_stats;

/** The broadphase state for n >= 0 geometries. */
typedef struct teal_broadphase teal_broadphase;

/** A broadphase for n geometries; NULL with err filled on n < 0 or no
 *  memory. */
TEAL_API teal_broadphase *teal_broadphase_new(int n, teal_error *err);

/** Frees the broadphase (NULL is allowed). */
TEAL_API void teal_broadphase_free(teal_broadphase *bp);

/** Finds the candidate pairs of the n boxes (boxes[g] of geometry g): pairs
 *  whose boxes intersect and that filter allows (filter NULL: all pairs; else
 *  its size must be n). Stores up to capacity pairs in pairs (may be NULL
 *  when capacity is 0) and their count in *num_stored; the rest are counted
 *  in the stats' overflow. Returns TEAL_OK (also on overflow), TEAL_EINVAL,
 *  TEAL_ESIZE (filter size) or TEAL_ENONFINITE (a NaN in a box). */
TEAL_API int teal_broadphase_find_pairs(teal_broadphase *bp, const teal_aabb *boxes,
                                        const teal_collision_filter *filter,
                                        teal_geometry_pair *pairs, int capacity, int *num_stored);

/** The counters (valid until the broadphase is freed). */
TEAL_API const teal_broadphase_stats *teal_broadphase_get_stats(const teal_broadphase *bp);

#ifdef __cplusplus
}
#endif
#endif
