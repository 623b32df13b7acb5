/** @file
 * The multibody data object: everything the algorithms of one finalized
 * plant (see plant_model.h) compute and keep, in one allocation, as MuJoCo's
 * mjData and Pinocchio's Data. The plant is the immutable model; every
 * algorithm takes (plant, data, ...) and writes its results into caller
 * memory, keeping its intermediate terms in data.
 *
 * Sign convention (Drake's): the equations of motion are
 * @code{.unparsed}
 *     M(q) vdot + C(q, v) v = tau_g(q) + tau_applied + J(q)' F_app + tau,
 * @endcode
 * where tau_g is the generalized gravity force (data's gravity, see
 * teal_mb_data_set_gravity), tau_applied a generalized applied force, F_app
 * the applied spatial forces and tau the generalized actuation. Joint
 * damping, joint limits and force elements are NOT included by any
 * algorithm (callers add them to tau_applied / tau). M includes the joints'
 * armatures (multibody/tree/joint_armature.h) and the actuators' default
 * reflected inertias rho^2 I_r (multibody/tree/actuator_rotor.h) on its
 * diagonal in every algorithm: the mass matrix,
 * forward and inverse dynamics, M v, the kinetic energy and the
 * derivatives.
 *
 * Applied spatial forces. F_app_Bo_W is an array of num_bodies spatial forces
 * indexed by BODY index (not tree node): F_app_Bo_W[b] = [torque; force] acts
 * on body b with its moment taken about the body origin Bo, expressed in W.
 * Entry 0 (the world) is ignored. NULL means no applied forces. J' F_app is
 * the generalized force whose power with any v equals
 * sum_b F_app_Bo_W[b] . V_WB[b](v).
 *
 * Internal formulation (not visible in the results). Each tree hanging from
 * the world (a chain of bodies whose root is a child of the world) gets a
 * reference point O: the world position of its root body's origin at the
 * current q. Motion subspaces, inertias, spatial accelerations and forces are
 * expressed in W and taken about O (Featherstone's spatial, not classical,
 * accelerations), so that moving a quantity from a body to its parent needs
 * no shift at all; outputs are converted to the conventions stated below.
 *
 * Stages. Data holds three stages, each computed from the one before:
 * @code{.unparsed}
 *   position      poses, reference points, motion subspaces and inertias at q
 *                 (teal_mb_position_stage);
 *   velocity      spatial velocities and velocity-product terms at (q, v)
 *                 (teal_mb_velocity_stage);
 *   factorization the articulated-body factorization of M(q)
 *                 (teal_mb_articulated_factor in aba.h).
 * @endcode
 * An algorithm brings in the stages it needs. For stand-alone data the
 * position stage is kept for the latest q and recomputed only when q changes
 * (compared bit for bit), so a caller never computes it twice. The plant
 * system's data is staged by the plant instead: a cache entry that depends
 * on q marks the stage, and the algorithms reuse it without comparing q.
 * The factorization stays valid until the position stage changes, and
 * teal_mb_mass_inverse (mass_inverse.h) reuses it.
 *
 * Every function validates its arguments: TEAL_EINVAL for a NULL pointer, a
 * zero quaternion in q or data made for another plant, TEAL_ESTATE for a
 * plant that is not finalized, TEAL_ENONFINITE for a NaN/Inf input (the
 * message in data's error record names the array and index), TEAL_ESINGULAR
 * when an articulated joint inertia is not positive definite. Once data
 * exists, no algorithm allocates. They are not thread-safe on shared data. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_DATA_H
#define TEAL_MULTIBODY_ALGORITHMS_DATA_H

#include "teal_export.h"

#include "framework/error.h"
#include "math/vec3.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The working data of the multibody algorithms for one finalized plant. */
typedef struct teal_mb_data teal_mb_data;

/** Data for plant (finalized, must outlive the data); NULL on failure
 *  (TEAL_EINVAL, TEAL_ESTATE, TEAL_ENOMEM) with the reason in err (may be
 *  NULL). Everything the algorithms need is allocated here, once. Gravity
 *  starts as teal_plant_gravity(plant); the body inertias are the model's
 *  (a plant context's own values, plant_parameters.h, reach only the data
 *  the plant keeps in that context). */
TEAL_API teal_mb_data *teal_mb_data_new(const teal_plant *plant, teal_error *err);

/** Frees data (NULL is allowed). */
TEAL_API void teal_mb_data_free(teal_mb_data *data);

/** The error record of the latest call on data (code TEAL_OK if the latest
 *  call succeeded). */
TEAL_API const teal_error *teal_mb_data_error(const teal_mb_data *data);

/** Sets the gravity every later call on data uses (finite), in place of the
 *  model's, which data reads until then (the plant system instead points
 *  data at its context's gravity parameter). TEAL_EINVAL for a NULL data,
 *  TEAL_ENONFINITE for a NaN/Inf g_W (nothing is changed). */
TEAL_API int teal_mb_data_set_gravity(teal_mb_data *data, teal_vec3 g_W);

/** The gravity data uses (zero for a NULL data). */
TEAL_API teal_vec3 teal_mb_data_gravity(const teal_mb_data *data);

#ifdef __cplusplus
}
#endif
#endif
