/** @file
 * Selector matrices (Drake's MakeStateSelectorMatrix and
 * MakeActuatorSelectorMatrix): constant 0/1 matrices that pick part of a
 * finalized plant's state, or spread a smaller actuation vector over the
 * plant's actuators, so a controller written for a few joints (a PID, an
 * LQR) can be wired to part of a plant through two teal_matrix_gain blocks:
 * @code{.unparsed}
 *     plant "state" --[Sx]--> controller "estimated_state"
 *     controller "control" --[Su]--> plant "actuation"
 * @endcode
 *
 * Matrices are row-major and written into caller memory; the caller passes
 * the shape it allocated, which must be the shape documented for each
 * function (else TEAL_ESIZE, with the expected shape in the message). The
 * functions do not allocate; they are meant to be called while building a
 * diagram, and cost O(n^2) in the number of listed joints or actuators (the
 * check for repeats) plus the size of the matrix.
 *
 * Errors are reported through err (may be NULL) with a message naming the
 * function and the cause; the plant's own record is not touched, and on
 * failure the output matrix is left unchanged. Common errors: TEAL_EINVAL
 * (NULL plant, NULL list with a positive count, NULL matrix with a nonzero
 * size, a repeated entry), TEAL_ESTATE (plant not finalized), TEAL_ESIZE
 * (negative count, wrong shape), TEAL_ENOTFOUND (an index that names no
 * joint or actuator). */
#ifndef TEAL_MULTIBODY_PLANT_SELECTORS_H
#define TEAL_MULTIBODY_PLANT_SELECTORS_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The size of the state selected by joints[0 .. n_joints-1] (joint
 *  indices, as teal_plant_get_joint_by_name returns; the floating joints
 *  finalize adds count too): *num_positions is the sum of the joints' nq
 *  and *num_velocities the sum of their nv (either pointer may be NULL). A
 *  weld joint contributes nothing; a ball joint contributes 4 positions and
 *  3 velocities, a quaternion-floating joint 7 and 6. The state selector
 *  matrix then has *num_positions + *num_velocities rows. Errors as
 *  teal_plant_make_state_selector_matrix. */
TEAL_API int teal_plant_state_selector_size(const teal_plant *plant, const int *joints,
                                            int n_joints, int *num_positions, int *num_velocities,
                                            teal_error *err);

/** Drake's MakeStateSelectorMatrix: writes Sx (rows x cols, row-major) with
 *  x_s = Sx x, where x = [q; v] is the plant's full state (cols must be
 *  nq + nv) and x_s = [q_s; v_s] the selected state (rows must be the sum
 *  of the listed joints' nq and nv, see teal_plant_state_selector_size).
 *  q_s is the concatenation of each listed joint's positions in the order
 *  of the list (all nq of a joint with several, in the joint's own order),
 *  and v_s likewise of their velocities. Every row of Sx holds one 1. An
 *  empty list (n_joints = 0, joints may be NULL) gives a 0-row matrix.
 *  Errors: a joint listed twice is TEAL_EINVAL (as Drake), naming the joint
 *  and both places; an index outside 0 .. num_joints-1 is TEAL_ENOTFOUND;
 *  the common errors of this header. */
TEAL_API int teal_plant_make_state_selector_matrix(const teal_plant *plant, const int *joints,
                                                   int n_joints, double *Sx, int rows, int cols,
                                                   teal_error *err);

/** Drake's MakeActuatorSelectorMatrix by actuator: writes Su (rows x cols,
 *  row-major) with u = Su u_s, where u is the plant's full actuation vector
 *  ordered by actuator index (rows must be nu) and u_s holds the actuation
 *  of actuators[0 .. n_actuators-1] in that order (cols must be
 *  n_actuators): Su[actuators[i]][i] = 1, every other entry 0, so the
 *  actuators not listed get zero. Errors: an index outside 0 .. nu-1 is
 *  TEAL_ENOTFOUND; an actuator listed twice is TEAL_EINVAL (Drake's
 *  documentation states no rule for this; Teal refuses it, since u would
 *  get the sum of two entries of u_s); the common errors of this header. */
TEAL_API int teal_plant_make_actuator_selector_matrix(const teal_plant *plant, const int *actuators,
                                                      int n_actuators, double *Su, int rows,
                                                      int cols, teal_error *err);

/** Drake's MakeActuatorSelectorMatrix by joint: as
 *  teal_plant_make_actuator_selector_matrix with each listed joint replaced
 *  by the actuator that drives it (rows must be nu, cols n_joints). Every
 *  listed joint must be driven by exactly one joint actuator (tendon
 *  actuators drive several joints and are not counted: list them by
 *  actuator with teal_plant_make_actuator_selector_matrix): a joint without one
 *  (as Drake) or with several (ambiguous; list the actuators instead) is
 *  TEAL_EINVAL naming the joint. A joint listed twice is TEAL_EINVAL; an
 *  index outside 0 .. num_joints-1 is TEAL_ENOTFOUND. */
TEAL_API int teal_plant_make_actuator_selector_matrix_for_joints(const teal_plant *plant,
                                                                 const int *joints, int n_joints,
                                                                 double *Su, int rows, int cols,
                                                                 teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
