/** @file
 * One model instance's part of the plant's state and arrays: get and set
 * an instance's positions, velocities and state in a context (Drake's
 * GetPositions(context, instance) and its siblings), writable views of the
 * whole state (Drake's GetMutablePositions and siblings), and gathering or
 * scattering an instance's entries of whole-plant q, v and u arrays
 * (Drake's GetPositionsFromArray, SetPositionsInArray,
 * GetVelocitiesFromArray, SetVelocitiesInArray, GetActuationFromArray and
 * SetActuationInArray).
 *
 * An instance's q (v) is the positions (velocities) of its joints, taken
 * at their indices in the plant's q (v) in increasing order: the layout of
 * the "<instance>_state" output port. Its u is the actuation of its
 * actuators in increasing actuator index (teal_plant_get_actuator_indices
 * in model_instances.h): the layout of the "<instance>_actuation" input
 * port. teal_plant_instance_nq, _nv and _nu give the lengths.
 *
 * None of these functions allocates. The context functions report errors
 * on the context, the array functions in err (may be NULL); both return
 * TEAL_EINVAL for a NULL plant, context or array, TEAL_ESTATE for a plant
 * that is not finalized, TEAL_ENOTFOUND for an unknown instance,
 * TEAL_ESIZE for a length that does not match and TEAL_ENONFINITE for a
 * NaN or infinite value to be copied. On failure nothing is written. */
#ifndef TEAL_MULTIBODY_PLANT_PLANT_INSTANCES_H
#define TEAL_MULTIBODY_PLANT_PLANT_INSTANCES_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/error.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Copies instance's positions q_i out of the context (n must be
 *  teal_plant_instance_nq). */
TEAL_API int teal_plant_get_instance_positions(const teal_plant *plant, const teal_context *ctx,
                                               int instance, double *q_i, int n);

/** Writes instance's positions q_i into the context (n must be
 *  teal_plant_instance_nq), leaving the other instances' positions as they
 *  are. A quaternion of a ball or floating joint that is zero or cannot be
 *  normalized is refused (TEAL_EINVAL), as in teal_plant_set_positions. */
TEAL_API int teal_plant_set_instance_positions(const teal_plant *plant, teal_context *ctx,
                                               int instance, const double *q_i, int n);

/** Copies instance's velocities v_i out of the context (n must be
 *  teal_plant_instance_nv). */
TEAL_API int teal_plant_get_instance_velocities(const teal_plant *plant, const teal_context *ctx,
                                                int instance, double *v_i, int n);

/** Writes instance's velocities v_i into the context (n must be
 *  teal_plant_instance_nv). */
TEAL_API int teal_plant_set_instance_velocities(const teal_plant *plant, teal_context *ctx,
                                                int instance, const double *v_i, int n);

/** Copies instance's state x_i = [q_i; v_i] out of the context (n must be
 *  teal_plant_instance_num_multibody_states); the value of the
 *  "<instance>_state" output port. */
TEAL_API int teal_plant_get_instance_state(const teal_plant *plant, const teal_context *ctx,
                                           int instance, double *x_i, int n);

/** Writes instance's state x_i = [q_i; v_i] into the context (n must be
 *  teal_plant_instance_num_multibody_states); quaternions as in
 *  teal_plant_set_instance_positions. */
TEAL_API int teal_plant_set_instance_state(const teal_plant *plant, teal_context *ctx, int instance,
                                           const double *x_i, int n);

/** Points *q at the plant's nq positions inside the context, to be written
 *  in place (Drake's GetMutablePositions), and marks them changed, so the
 *  cached results that depend on q are recomputed at their next
 *  evaluation. The mark is made by this call: write before evaluating
 *  anything, and call again for writes after an evaluation. The values
 *  written are not checked (teal_plant_set_positions checks them). */
TEAL_API int teal_plant_get_mutable_positions(const teal_plant *plant, teal_context *ctx,
                                              double **q);

/** As teal_plant_get_mutable_positions for the nv velocities. */
TEAL_API int teal_plant_get_mutable_velocities(const teal_plant *plant, teal_context *ctx,
                                               double **v);

/** As teal_plant_get_mutable_positions for the whole state [q; v] (nq + nv
 *  contiguous values; Drake's GetMutablePositionsAndVelocities). */
TEAL_API int teal_plant_get_mutable_state(const teal_plant *plant, teal_context *ctx, double **x);

/** Copies instance's entries of the whole-plant positions q (nq values)
 *  into q_i (n_i = teal_plant_instance_nq values). */
TEAL_API int teal_plant_get_positions_from_array(const teal_plant *plant, int instance,
                                                 const double *q, int nq, double *q_i, int n_i,
                                                 teal_error *err);

/** Writes q_i (n_i = teal_plant_instance_nq values) to instance's entries
 *  of the whole-plant positions q (nq values); the other entries of q are
 *  left as they are. */
TEAL_API int teal_plant_set_positions_in_array(const teal_plant *plant, int instance,
                                               const double *q_i, int n_i, double *q, int nq,
                                               teal_error *err);

/** Copies instance's entries of the whole-plant velocities v (nv values)
 *  into v_i (n_i = teal_plant_instance_nv values). */
TEAL_API int teal_plant_get_velocities_from_array(const teal_plant *plant, int instance,
                                                  const double *v, int nv, double *v_i, int n_i,
                                                  teal_error *err);

/** Writes v_i (n_i = teal_plant_instance_nv values) to instance's entries
 *  of the whole-plant velocities v (nv values). */
TEAL_API int teal_plant_set_velocities_in_array(const teal_plant *plant, int instance,
                                                const double *v_i, int n_i, double *v, int nv,
                                                teal_error *err);

/** Copies instance's entries of the whole-plant actuation u (nu values, by
 *  actuator index) into u_i (n_i = teal_plant_instance_nu values). */
TEAL_API int teal_plant_get_actuation_from_array(const teal_plant *plant, int instance,
                                                 const double *u, int nu, double *u_i, int n_i,
                                                 teal_error *err);

/** Writes u_i (n_i = teal_plant_instance_nu values) to instance's entries
 *  of the whole-plant actuation u (nu values). */
TEAL_API int teal_plant_set_actuation_in_array(const teal_plant *plant, int instance,
                                               const double *u_i, int n_i, double *u, int nu,
                                               teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
