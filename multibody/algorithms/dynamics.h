/* O(n) dynamics of a finalized plant (see plant_model.h): recursive
 * Newton-Euler inverse dynamics, the composite-rigid-body mass matrix, the
 * operators M v and M^-1 v, the articulated-body forward dynamics, joint
 * reaction forces, and kinetic / potential energy.
 *
 * Sign convention (Drake's): the equations of motion are
 *     M(q) vdot + C(q, v) v = tau_g(q) + tau_applied + J(q)' F_app + tau,
 * where tau_g is the generalized gravity force (from teal_plant_gravity, or
 * the workspace's own gravity, see teal_mb_workspace_set_gravity),
 * tau_applied a generalized applied force, F_app the applied spatial forces
 * and tau the generalized actuation. Joint damping, joint limits and force
 * elements are NOT included by any function here (callers add them to
 * tau_applied / tau).
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
 * Caching. The workspace keeps the position-dependent terms (poses, motion
 * subspaces, inertias) of the latest q it was given, and recomputes them only
 * when q changes (compared bit for bit). teal_mb_articulated_factor and
 * teal_mb_forward_dynamics also keep the articulated-body factorization of
 * M(q), which teal_mb_articulated_solve reuses: it stays valid until a call
 * on the workspace brings in a different q.
 *
 * Every function validates its arguments: TEAL_EINVAL for a NULL pointer, a
 * zero quaternion in q or a workspace made for another plant, TEAL_ESTATE for
 * a plant that is not finalized, TEAL_ENONFINITE for a NaN/Inf input (the
 * message in the workspace's error record names the array and index),
 * TEAL_ESINGULAR when an articulated joint inertia is not positive definite.
 * After the workspace exists, none of them allocates. They are not
 * thread-safe on a shared workspace. */
#ifndef TEAL_MULTIBODY_DYNAMICS_H
#define TEAL_MULTIBODY_DYNAMICS_H

#include "framework/error.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Per-body scratch and caches for the dynamics algorithms of one finalized
 *  plant. */
typedef struct teal_mb_workspace teal_mb_workspace;

/** A workspace for plant (finalized, must outlive the workspace); NULL on
 *  failure (TEAL_EINVAL, TEAL_ESTATE, TEAL_ENOMEM) with the reason in err
 *  (may be NULL). All scratch is allocated here, once. */
teal_mb_workspace *teal_mb_workspace_new(const teal_plant *plant, teal_error *err);

/** Frees a workspace (NULL is allowed). */
void teal_mb_workspace_free(teal_mb_workspace *ws);

/** The error record of the latest failed call on ws (code TEAL_OK if the
 *  latest call succeeded). */
const teal_error *teal_mb_workspace_error(const teal_mb_workspace *ws);

/** Makes every later call on ws use gravity g_W (finite) instead of
 *  teal_plant_gravity(plant), which is read at each call until then (the
 *  plant system keeps gravity as a context parameter). TEAL_EINVAL for a NULL
 *  ws, TEAL_ENONFINITE for a NaN/Inf g_W (nothing is changed). */
int teal_mb_workspace_set_gravity(teal_mb_workspace *ws, teal_vec3 g_W);

/* ---- inverse dynamics (RNEA) ------------------------------------------------ */

/* ---- mass matrix and its operators ------------------------------------------ */

/* ---- forward dynamics (ABA) ------------------------------------------------- */

/* ---- energies --------------------------------------------------------------- */

/** Kinetic energy 0.5 v' M(q) v (computed body by body, O(n)). */
int teal_mb_kinetic_energy(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                           const double *v, double *ke);

/** Gravitational potential energy -sum_B m_B g . p_WBcm (zero with every
 *  center of mass at the world origin). */
int teal_mb_potential_energy(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                             double *pe);

#ifdef __cplusplus
}
#endif
#endif
