/** @file
 * Markers: points with an optional vector drawn over a replay, such as
 * contact points with their forces or a centre of mass. A system that
 * knows them (e.g. multibody/visualization/plant_markers.h) outputs a
 * teal_marker_list, and the visualizer records it with each frame when its
 * "markers" input is connected. */
#ifndef TEAL_GEOMETRY_VISUALIZATION_MARKERS_H
#define TEAL_GEOMETRY_VISUALIZATION_MARKERS_H

#include "teal_export.h"

#include "framework/value.h"
#include "math/vec3.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a marker shows (the page draws and toggles each kind its own way). */
typedef enum teal_marker_kind {
  TEAL_MARKER_CONTACT = 0,        /**< a contact point and the force there (N) */
  TEAL_MARKER_CENTER_OF_MASS = 1, /**< a centre of mass (its vector is unused) */
  TEAL_MARKER_KIND_COUNT          /**< number of kinds (not a kind) */
} teal_marker_kind;

/** One marker: a point and a vector, both in the world frame. */
typedef struct teal_marker {
  teal_marker_kind kind; /**< what it shows */
  teal_vec3 p_W;         /**< the point */
  teal_vec3 v_W;         /**< the vector at the point (a force for contacts) */
} teal_marker;

/** A list of markers (heap array of capacity cap holding n). */
typedef struct teal_marker_list {
  /** Number of markers and capacity of the array. @{ */
  int n, cap;
  /** @} */
  teal_marker *m; /**< the markers */
} teal_marker_list;

/** Its value type ("teal_marker_list"); copies grow the destination only
 *  when it lacks room. */
TEAL_API extern const teal_value_type teal_marker_list_type;

/** Makes room for n markers (allocates only when cap < n) and sets n.
 *  TEAL_EINVAL for a NULL list or n < 0, TEAL_ENOMEM. */
TEAL_API int teal_marker_list_resize(teal_marker_list *l, int n);

#ifdef __cplusplus
}
#endif
#endif
