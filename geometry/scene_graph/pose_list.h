/** @file
 * A list of poses (Drake's FramePoseVector): the value of the plant's
 * body_poses output and of the scene graph's pose inputs, X_WF by index.
 *
 * The list owns a heap array of capacity cap holding n poses; the copy hook
 * grows the destination only when it lacks room, so copies inside a step do
 * not allocate once the list has its size. */
#ifndef TEAL_GEOMETRY_SCENE_GRAPH_POSE_LIST_H
#define TEAL_GEOMETRY_SCENE_GRAPH_POSE_LIST_H

#include "teal_export.h"

#include "framework/value.h"
#include "math/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A list of poses. */
typedef struct teal_transform_list {
  /** Number of poses and capacity of the array. @{ */
  int n, cap;
  /** @} */
  teal_transform *X; /**< X[i] is the pose X_WF of entry i (heap, cap entries) */
} teal_transform_list;

/** Its value type ("teal_transform_list"). */
TEAL_API extern const teal_value_type teal_transform_list_type;

/** Makes room for n poses (allocates only when cap < n) and sets n.
 *  TEAL_ENOMEM, or TEAL_EINVAL for n < 0 or a NULL list. */
TEAL_API int teal_transform_list_resize(teal_transform_list *l, int n);

#ifdef __cplusplus
}
#endif
#endif
