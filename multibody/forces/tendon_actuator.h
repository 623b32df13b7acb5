/** @file
 * Tendon actuators (MuJoCo's `<motor tendon="...">` on a fixed tendon): an
 * actuator whose input u pulls on a fixed tendon (tendons.h), applying the
 * generalized force tau = J_L^T gain clamp(u) with J_L the tendon's constant
 * coefficients at its joints' velocities, so its column of the actuation
 * matrix B is gain * J_L^T (teal_plant_make_actuation_matrix). It is an
 * actuator like a joint actuator in every other way: an entry of the
 * actuation ports (whole plant and per model instance, the tendon's), an
 * input gain (actuator_gain.h, MuJoCo's gear), an effort limit on u, a
 * column of the linearization's B while u is inside its limits, and a name
 * the selectors find.
 *
 * What differs: it has no single dof, so teal_plant_actuator_v_index
 * returns -1 for it and the joint-based actuator selector
 * (teal_plant_make_actuator_selector_matrix_for_joints) does not find it;
 * the joints' effort limits do not bound it; and it has no rotor inertia
 * (actuator_rotor.h refuses a nonzero one with TEAL_EUNSUPPORTED: its
 * reflected inertia rho^2 I_r J_L^T J_L would couple the tendon's dofs
 * rather than add to M's diagonal). Spatial tendons, whose J_L depends on
 * q, are refused (TEAL_EUNSUPPORTED). */
#ifndef TEAL_MULTIBODY_FORCES_TENDON_ACTUATOR_H
#define TEAL_MULTIBODY_FORCES_TENDON_ACTUATOR_H

#include "teal_export.h"

#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Adds an actuator named name (nonempty, new among the actuators of the
 *  tendon's model instance) on the fixed tendon whose force element index
 *  is tendon (teal_plant_add_fixed_tendon, teal_plant_find_tendon), with
 *  effort_limit > 0 (may be inf) on its input u. Returns the actuator index
 *  (also its index in u). Before finalize only (TEAL_ESTATE); TEAL_ENOTFOUND
 *  when tendon is not a tendon, TEAL_EUNSUPPORTED for a spatial tendon,
 *  TEAL_EINVAL for a bad limit or name, TEAL_EDUPLICATE for a used name.
 *  Errors are sticky, as for every model call. */
TEAL_API int teal_plant_add_tendon_actuator(teal_plant *plant, const char *name, int tendon,
                                            double effort_limit);

/** The tendon's force element index driven by actuator, or -1 for a joint
 *  actuator, a bad plant or a bad index. */
TEAL_API int teal_plant_actuator_tendon(const teal_plant *plant, int actuator);

#ifdef __cplusplus
}
#endif
#endif
