/** @file
 * Finalize and the finalized model's topology: the tree order of bodies
 * (nodes), the q and v layout of joints and actuators, the actuation matrix
 * and the default configuration. */
#ifndef TEAL_MULTIBODY_TREE_TOPOLOGY_H
#define TEAL_MULTIBODY_TREE_TOPOLOGY_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/tree/joints.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Finalizes: gives every body without an inboard joint a quaternion-floating
 *  joint to the world (named "$world_<body>"), rejects kinematic loops
 *  (TEAL_EINVAL naming the joints), orders the tree, and builds the arrays
 *  below. Returns TEAL_OK or the (sticky) error; TEAL_ESTATE if called twice. */
TEAL_API int teal_plant_finalize(teal_plant *plant);

/** 1 once finalized. */
TEAL_API int teal_plant_is_finalized(const teal_plant *plant);

/** Number of generalized positions (0 before finalize). */
TEAL_API int teal_plant_nq(const teal_plant *plant);

/** Number of generalized velocities (0 before finalize). */
TEAL_API int teal_plant_nv(const teal_plant *plant);

/** Number of actuation inputs, one per actuator (0 before finalize). */
TEAL_API int teal_plant_nu(const teal_plant *plant);

/** Number of tree nodes (= number of bodies, world included). */
TEAL_API int teal_plant_num_nodes(const teal_plant *plant);

/** Body of node k (-1 on a bad index or before finalize). */
TEAL_API int teal_plant_node_body(const teal_plant *plant, int k);

/** Node of a body (-1 on a bad index or before finalize). */
TEAL_API int teal_plant_body_node(const teal_plant *plant, int body);

/** Joint (index) of a body's inboard mobilizer after finalize (-1 for world). */
TEAL_API int teal_plant_body_joint(const teal_plant *plant, int body);

/** q offset of a joint after finalize (-1 on a bad index). */
TEAL_API int teal_plant_joint_q_start(const teal_plant *plant, int joint);

/** v offset of a joint after finalize (-1 on a bad index). */
TEAL_API int teal_plant_joint_v_start(const teal_plant *plant, int joint);

/** Effort limit of actuator a (> 0, may be inf), or NAN on a bad index: the
 *  smaller of the limit given to teal_plant_add_joint_actuator and the
 *  effort limit of the actuated joint's dof (teal_plant_set_joint_effort_limits)
 *  divided by |gain| (a tendon actuator: its own limit only). It limits the actuator's input u, as
 * Drake's limits and MuJoCo's ctrlrange do: the plant clamps u to [-limit, limit] and applies gain
 * * u (teal_plant_actuator_input_gain, 1 by default) in both continuous and discrete mode (see
 * plant_system.h). */
TEAL_API double teal_plant_actuator_effort_limit(const teal_plant *plant, int actuator);

/** The lower effort limit of every actuator, -teal_plant_actuator_effort_limit
 *  (-inf when unlimited; a bound on u), into lower (n = nu)
 *  (Drake's GetEffortLowerLimits).
 *  TEAL_EINVAL (NULL plant or array), TEAL_ESTATE before finalize, TEAL_ESIZE
 *  when n != nu, with a message in err (may be NULL). */
TEAL_API int teal_plant_get_effort_lower_limits(const teal_plant *plant, double *lower, int n,
                                                teal_error *err);

/** The upper effort limit of every actuator, teal_plant_actuator_effort_limit
 *  (+inf when unlimited), into upper (n = nu) (Drake's GetEffortUpperLimits);
 *  errors as teal_plant_get_effort_lower_limits. */
TEAL_API int teal_plant_get_effort_upper_limits(const teal_plant *plant, double *upper, int n,
                                                teal_error *err);

/** v index driven by actuator a after finalize; -1 before finalize, for a
 *  bad index and for a tendon actuator, which drives several dofs (its
 *  column of B: teal_plant_make_actuation_matrix). */
TEAL_API int teal_plant_actuator_v_index(const teal_plant *plant, int actuator);

/** The actuation matrix B (nv x nu, row-major) with tau_u = B u (Drake's
 *  MakeActuationMatrix): B[v_index(a)][a] = the actuator's input gain (1
 *  unless set, actuator_gain.h) for a joint actuator; a tendon actuator's
 *  column is gain * J_L^T, its fixed tendon's coefficients at their joints'
 *  dofs (multibody/forces/tendon_actuator.h). TEAL_ESTATE before finalize. */
TEAL_API int teal_plant_make_actuation_matrix(const teal_plant *plant, double *B);

/** Writes the default q (nq values) of the finalized plant. */
TEAL_API int teal_plant_default_q(const teal_plant *plant, double *q);

/** Normalizes every quaternion in q (nq values) in place. */
TEAL_API int teal_plant_normalize_q(const teal_plant *plant, double *q);

/** The finalized arrays (NULL before finalize). */
TEAL_API const teal_plant_tree *teal_plant_get_tree(const teal_plant *plant);

#ifdef __cplusplus
}
#endif
#endif
