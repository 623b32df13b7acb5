/** @file
 * Model instances of a plant: their names, their counts (positions,
 * velocities, actuated dofs, bodies, joints) and the indices of their
 * elements (Drake's GetModelInstanceName, num_positions(instance),
 * num_velocities(instance), num_multibody_states(instance),
 * num_actuated_dofs(instance), GetBodyIndices, GetJointIndices,
 * GetFrameIndices and GetJointActuatorIndices).
 *
 * An instance's positions and velocities are those of the joints that
 * belong to it (a joint belongs to its child frame's instance, normally
 * the child body's (teal_plant_add_joint); the floating
 * joint finalize gives a free body belongs to that body's instance). Its
 * actuators are those on its joints. The counts of positions, velocities
 * and actuated dofs need a finalized plant; names, body, joint and frame
 * counts and index lists are valid at any time (before finalize the joint
 * lists lack the floating joints finalize adds).
 *
 * Every function takes err (may be NULL) and on failure returns a negative
 * status with a message naming the function and the cause in it:
 * TEAL_EINVAL for a NULL plant (or a NULL result where one is required),
 * TEAL_ENOTFOUND for an instance that is not in the plant, TEAL_ESTATE for
 * a count that needs finalize, TEAL_ESIZE for a list that does not fit. */
#ifndef TEAL_MULTIBODY_TREE_MODEL_INSTANCES_H
#define TEAL_MULTIBODY_TREE_MODEL_INSTANCES_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The name of model instance (Drake's GetModelInstanceName), owned by the
 *  plant; NULL on failure (message in err). */
TEAL_API const char *teal_plant_get_model_instance_name(const teal_plant *plant, int instance,
                                                        teal_error *err);

/** Number of generalized positions of instance (finalized plant). */
TEAL_API int teal_plant_instance_nq(const teal_plant *plant, int instance, teal_error *err);

/** Number of generalized velocities of instance (finalized plant). */
TEAL_API int teal_plant_instance_nv(const teal_plant *plant, int instance, teal_error *err);

/** Number of multibody states nq + nv of instance (finalized plant; Drake's
 *  num_multibody_states(instance)). */
TEAL_API int teal_plant_instance_num_multibody_states(const teal_plant *plant, int instance,
                                                      teal_error *err);

/** Number of actuated dofs of instance, one per actuator (finalized plant;
 *  Drake's num_actuated_dofs(instance)): the length of its actuation. */
TEAL_API int teal_plant_instance_nu(const teal_plant *plant, int instance, teal_error *err);

/** Number of bodies of instance (the world instance holds the world body). */
TEAL_API int teal_plant_instance_num_bodies(const teal_plant *plant, int instance, teal_error *err);

/** Number of joints of instance. */
TEAL_API int teal_plant_instance_num_joints(const teal_plant *plant, int instance, teal_error *err);

/** The body indices of instance in increasing order (Drake's
 *  GetBodyIndices). Returns their number; writes them to indices unless it
 *  is NULL (a size query), in which case capacity is ignored; TEAL_ESIZE
 *  when capacity is smaller than their number. */
TEAL_API int teal_plant_get_body_indices(const teal_plant *plant, int instance, int *indices,
                                         int capacity, teal_error *err);

/** The joint indices of instance in increasing order (Drake's
 *  GetJointIndices), as teal_plant_get_body_indices. */
TEAL_API int teal_plant_get_joint_indices(const teal_plant *plant, int instance, int *indices,
                                          int capacity, teal_error *err);

/** The frame indices of instance in increasing order, body frames included
 *  (Drake's GetFrameIndices), as teal_plant_get_body_indices. */
TEAL_API int teal_plant_get_frame_indices(const teal_plant *plant, int instance, int *indices,
                                          int capacity, teal_error *err);

/** The actuator indices of instance in increasing order (Drake's
 *  GetJointActuatorIndices), as teal_plant_get_body_indices; entry r is
 *  the actuator of entry r of the instance's actuation. */
TEAL_API int teal_plant_get_actuator_indices(const teal_plant *plant, int instance, int *indices,
                                             int capacity, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
