/** @file
 * The scene graph's query output: point-pair penetrations (Drake's
 * PenetrationAsPointPair) between proximity geometries. */
#ifndef TEAL_GEOMETRY_PROXIMITY_QUERY_RESULT_H
#define TEAL_GEOMETRY_PROXIMITY_QUERY_RESULT_H

#include "teal_export.h"

#include "framework/value.h"
#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One penetrating pair of geometries A and B (scene graph geometry ids,
 *  id_A < id_B). p_WCa is the point of A deepest inside B, p_WCb the point
 *  of B deepest inside A, nhat_BA_W the unit normal pointing from B into A
 *  (B pushes A along +nhat), depth = (p_WCa - p_WCb) . -nhat_BA_W > 0. */
typedef struct teal_point_pair {
  /** Scene graph geometry ids of A and B, id_A < id_B. @{ */
  int id_A, id_B;
  /** @} */
  /** Scene graph frame ids of A and B. @{ */
  int frame_A, frame_B;
  /** @} */
  /** The point of A deepest inside B and of B deepest inside A (world). @{ */
  teal_vec3 p_WCa, p_WCb;
  /** @} */
  teal_vec3 nhat_BA_W; /**< unit normal from B into A, in world */
  double depth;        /**< penetration depth, > 0 */
} teal_point_pair;

/** A list of point pairs; grows only when it lacks room. */
typedef struct teal_point_pair_list {
  /** Number of pairs and capacity of the array. @{ */
  int n, cap;
  /** @} */
  teal_point_pair *pairs; /**< the pairs (heap, cap entries) */
} teal_point_pair_list;

/** Value type "teal_point_pair_list". */
TEAL_API extern const teal_value_type teal_point_pair_list_type;

/** Makes room for at least cap pairs (keeps the entries). */
TEAL_API int teal_point_pair_list_reserve(teal_point_pair_list *l, int cap);

/** Appends one pair, doubling the capacity when full. */
TEAL_API int teal_point_pair_list_push(teal_point_pair_list *l, const teal_point_pair *pair);

#ifdef __cplusplus
}
#endif
#endif
