/** @file
 * Abstract values carried by the plant's ports (poses: geometry/scene_graph/pose_list.h):
 * lists of spatial vectors (velocities, accelerations, forces) and of externally applied
 * spatial forces (Drake's ExternallyAppliedSpatialForce).
 *
 * Each list owns a heap array of capacity cap holding n entries. The copy
 * hooks grow the destination only when it lacks room, so copies inside a
 * simulation step do not allocate once the lists have their size. */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_VALUES_H
#define TEAL_MULTIBODY_PLANT_PLANT_VALUES_H

#include "teal_export.h"

#include "framework/value.h"
#include "geometry/scene_graph/pose_list.h"
#include "multibody/math/spatial.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A list of spatial vectors, such as V_WB by body index. */
typedef struct teal_spatial_vector_list {
  /** Number of entries and capacity of the array. @{ */
  int n, cap;
  /** @} */
  teal_spatial_vector *V; /**< the entries (heap, cap of them) */
} teal_spatial_vector_list;

/** A spatial force F_Bq_W ([torque; force] in W) applied to body at point
 *  Bq, given by its offset p_BoBq_B from the body origin in the body frame. */
typedef struct teal_applied_spatial_force {
  int body;                   /**< index of the body B the force acts on */
  teal_vec3 p_BoBq_B;         /**< the point Bq: its offset from Bo, in B */
  teal_spatial_vector F_Bq_W; /**< the force at Bq: [torque; force] in W */
} teal_applied_spatial_force;

/** A list of applied spatial forces (port applied_spatial_force). */
typedef struct teal_applied_spatial_force_list {
  /** Number of entries and capacity of the array. @{ */
  int n, cap;
  /** @} */
  teal_applied_spatial_force *f; /**< the forces (heap, cap of them) */
} teal_applied_spatial_force_list;

/** Value type "teal_spatial_vector_list". */
TEAL_API extern const teal_value_type teal_spatial_vector_list_type;
/** Value type "teal_applied_spatial_force_list". */
TEAL_API extern const teal_value_type teal_applied_spatial_force_list_type;

/** Makes room for n entries (allocates only when cap < n) and sets the
 *  count to n. TEAL_ENOMEM or TEAL_EINVAL (n < 0) on failure. */
TEAL_API int teal_spatial_vector_list_resize(teal_spatial_vector_list *l, int n);
/** Makes room for n forces (allocates only when cap < n) and sets the count
 *  to n. TEAL_ENOMEM or TEAL_EINVAL (n < 0) on failure. */
TEAL_API int teal_applied_spatial_force_list_resize(teal_applied_spatial_force_list *l, int n);

/** Appends one applied force (grows the list as needed). */
TEAL_API int teal_applied_spatial_force_list_push(teal_applied_spatial_force_list *l, int body,
                                                  teal_vec3 p_BoBq_B, teal_spatial_vector F_Bq_W);

#ifdef __cplusplus
}
#endif
#endif
