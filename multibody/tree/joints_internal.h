/* Private to multibody/tree/: the joint tables defined outside joints.c,
 * which teal_joint_type_get (joints.c) returns. */
#ifndef TEAL_MULTIBODY_TREE_JOINTS_INTERNAL_H
#define TEAL_MULTIBODY_TREE_JOINTS_INTERNAL_H

#include "multibody/tree/joints.h"

/* The roll-pitch-yaw ball joint (joints_rpy.c). */
extern const teal_joint_type teal_joint_ball_rpy_type;
/* The roll-pitch-yaw floating joint (joints_rpy.c). */
extern const teal_joint_type teal_joint_rpy_floating_type;

#endif
