/** @file
 * State-limited friction of a discrete plant (Simbody's
 * SimbodyMatterSubsystem::adoptStateLimitedFriction,
 * getNumStateLimitedFrictions, getStateLimitedFriction,
 * updStateLimitedFriction): a friction force on a single-dof joint whose
 * limit depends on the state, here
 * @code{.unparsed}
 *   limit = max_force + mu |N|
 * @endcode
 * with N the normal force that unilateral contact `contact` transmits in
 * the same step (unilateral_contacts.h; no contact: N = 0, a constant
 * limit). In each step the friction is a bounded row of the unilateral
 * impulse problem: it holds the joint (its next velocity 0) while the
 * force that takes stays within [-limit, limit], and slides with the force
 * at the bound otherwise, so a joint held below its limit does not creep.
 * Adopted before teal_plant_finalize (indices 0, 1, ...); read back with
 * get and written back with set, before or after finalize. */
#ifndef TEAL_MULTIBODY_CONSTRAINTS_STATE_LIMITED_FRICTION_H
#define TEAL_MULTIBODY_CONSTRAINTS_STATE_LIMITED_FRICTION_H

#include "teal_export.h"

#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A state-limited friction element on a joint. */
typedef struct teal_state_limited_friction_spec {
  int joint;        /**< the single-dof joint it acts on */
  int contact;      /**< the unilateral contact whose normal force N scales mu; -1: none */
  double mu;        /**< coefficient of |N| (>= 0; 0 without a contact) */
  double max_force; /**< the constant part of the limit (>= 0, in the joint's force units) */
  int enabled;      /**< 0: the element is ignored */
} teal_state_limited_friction_spec;

/** Adopts a state-limited friction element (before finalize, discrete
 *  plant only); returns its index or a negative status with the plant's
 *  sticky error set: TEAL_ESTATE after finalize or on a continuous plant,
 *  TEAL_EINVAL for a NULL spec, a joint that is not single-dof, a negative
 *  mu or max_force, or mu > 0 without a contact, TEAL_ENOTFOUND for an
 *  unknown joint or contact (the contact must be adopted first),
 *  TEAL_ENONFINITE for a NaN or infinite value. */
TEAL_API int teal_plant_adopt_state_limited_friction(teal_plant *plant,
                                                     const teal_state_limited_friction_spec *spec);

/** The number of state-limited friction elements adopted (0 for NULL). */
TEAL_API int teal_plant_num_state_limited_frictions(const teal_plant *plant);

/** Copies element index's spec into out. TEAL_EINVAL for NULL pointers,
 *  TEAL_ENOTFOUND for an unknown index (message in the plant's error
 *  record, not sticky). */
TEAL_API int teal_plant_get_state_limited_friction(const teal_plant *plant, int index,
                                                   teal_state_limited_friction_spec *out);

/** Replaces element index's spec (Simbody's updStateLimitedFriction) with
 *  the checks of adopt, before or after finalize. After finalize contexts
 *  drop the steps they computed with the old spec, and a failure leaves the
 *  spec unchanged with a message in the plant's error record. */
TEAL_API int teal_plant_set_state_limited_friction(teal_plant *plant, int index,
                                                   const teal_state_limited_friction_spec *spec);

#ifdef __cplusplus
}
#endif
#endif
