/** @file
 * Acceleration limits of joints (Drake's Joint::set_acceleration_limits,
 * Joint::acceleration_lower_limits / _upper_limits and
 * MultibodyPlant::GetAccelerationLowerLimits / GetAccelerationUpperLimits).
 *
 * Each of a joint's nv velocities has a lower and an upper acceleration
 * limit, -inf and +inf unless set. As in Drake they are stored and reported
 * only: no dynamics computation enforces them (the discrete step enforces
 * position limits, the actuation input effort limits; acceleration limits
 * are for the user's planners and controllers). */
#ifndef TEAL_MULTIBODY_TREE_ACCELERATION_LIMITS_H
#define TEAL_MULTIBODY_TREE_ACCELERATION_LIMITS_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Sets the acceleration limits of each of the joint's nv velocities
 *  (lower[i] <= upper[i]; infinities allowed). Before finalize only; errors
 *  are sticky in the plant as for the other joint setters: TEAL_ENOTFOUND
 *  for an unknown joint, TEAL_EINVAL for a NULL array, a NaN or lower >
 *  upper (the message names the joint and the index), TEAL_ESTATE after
 *  finalize. */
TEAL_API int teal_plant_set_joint_acceleration_limits(teal_plant *plant, int joint,
                                                      const double *lower, const double *upper);

/** Copies the joint's acceleration limits into lower and upper (n must be
 *  its nv, TEAL_ESIZE). TEAL_EINVAL for a NULL argument, TEAL_ENOTFOUND for
 *  an unknown joint; the message in err (may be NULL). Before or after
 *  finalize. */
TEAL_API int teal_plant_get_joint_acceleration_limits(const teal_plant *plant, int joint,
                                                      double *lower, double *upper, int n,
                                                      teal_error *err);

/** Writes the lower acceleration limit of every generalized velocity into
 *  lower (n must be nv, TEAL_ESIZE), -inf where none is set, including the
 *  coordinates of free bodies. After finalize only (TEAL_ESTATE);
 *  TEAL_EINVAL for a NULL argument; the message in err (may be NULL). */
TEAL_API int teal_plant_get_acceleration_lower_limits(const teal_plant *plant, double *lower, int n,
                                                      teal_error *err);

/** The upper counterpart of teal_plant_get_acceleration_lower_limits
 *  (+inf where none is set). */
TEAL_API int teal_plant_get_acceleration_upper_limits(const teal_plant *plant, double *upper, int n,
                                                      teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
