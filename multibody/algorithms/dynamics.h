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

/** Inverse dynamics (RNEA, O(n)): tau (nv) such that
 *  M(q) vdot + C(q, v) v = tau_g(q) + tau_applied + J' F_app + tau, i.e.
 *  tau = M vdot + C v - tau_g - tau_applied - J' F_app. tau_applied (nv) and
 *  F_app_Bo_W (num_bodies, see the file comment) may be NULL (zero). q has nq
 *  values (quaternions are used as given; normalize them first), v and vdot
 *  nv values. tau may not alias the inputs. */
int teal_mb_inverse_dynamics_ex(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                                const double *v, const double *vdot, const double *tau_applied,
                                const teal_spatial_vector *F_app_Bo_W, double *tau);

/** teal_mb_inverse_dynamics_ex without applied spatial forces. */
int teal_mb_inverse_dynamics(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                             const double *v, const double *vdot, const double *tau_applied,
                             double *tau);

/** The bias term C(q, v) v (nv): RNEA with vdot = 0 and no gravity. */
int teal_mb_bias_term(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                      const double *v, double *Cv);

/** The generalized gravity forces tau_g(q) (nv), the right-hand-side sign:
 *  tau_g = -RNEA(q, v = 0, vdot = 0) with gravity; for a pendulum hanging
 *  from a hinge tau_g = -m g l sin(theta). */
int teal_mb_gravity_forces(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                           double *tau_g);

/** Joint reaction forces (Drake's reaction_forces output): for every joint j
 *  (num_joints entries, indexed by joint index, floating joints added at
 *  finalize included), F_CJc_Jc[j] = [torque; force] is the spatial force
 *  exerted on the joint's child body C by its parent body through the joint,
 *  applied at the origin of the joint's child frame Jc (frame M) and
 *  expressed in Jc. It is everything the joint transmits: the constraint
 *  force plus the joint's own generalized force (actuation, damping) along
 *  its motion subspace. It follows from the motion (q, v, vdot), gravity and
 *  F_app_Bo_W (may be NULL) alone, by the RNEA backward pass, so pass the
 *  vdot of the actual motion (e.g. from teal_mb_forward_dynamics_ex with the
 *  same applied forces). */
int teal_mb_reaction_forces(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                            const double *v, const double *vdot,
                            const teal_spatial_vector *F_app_Bo_W, teal_spatial_vector *F_CJc_Jc);

/* ---- mass matrix and its operators ------------------------------------------ */

/** The mass matrix M(q) (nv x nv, row-major, symmetric) by the
 *  composite-rigid-body algorithm. */
int teal_mb_mass_matrix(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                        double *M);

/** Mv = M(q) v (nv) in O(n) without forming M (RNEA with the accelerations v,
 *  no velocity terms and no gravity). Mv may not alias v. */
int teal_mb_mass_matrix_times(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                              const double *v, double *Mv);

/** Factorizes M(q) by the articulated-body inertias (one inward pass), kept
 *  in ws for teal_mb_articulated_solve. The factorization stays valid until
 *  a call on ws brings in a different q (teal_mb_forward_dynamics also
 *  leaves a valid factorization of its q). TEAL_ESINGULAR if some articulated
 *  joint inertia is not positive definite (e.g. a point mass on its own
 *  revolute axis). */
int teal_mb_articulated_factor(const teal_plant *plant, teal_mb_workspace *ws, const double *q);

/** x = M(q)^-1 (rhs + J(q)' F_Bo_W) in O(n) with the factorization of the
 *  latest teal_mb_articulated_factor or teal_mb_forward_dynamics call (two
 *  passes, no kinematics). rhs has nv values; F_Bo_W (num_bodies, by body
 *  index, as F_app_Bo_W in the file comment) may be NULL. x may alias rhs.
 *  TEAL_ESTATE if there is no valid factorization (none yet, the latest
 *  failed, or ws has since seen another q).
 *  As M^-1 is linear, forward dynamics for a new actuation tau2 follows from
 *  an earlier result: vdot(tau2) = vdot(tau1) + M^-1 (tau2 - tau1). */
int teal_mb_articulated_solve(const teal_plant *plant, teal_mb_workspace *ws, const double *rhs,
                              const teal_spatial_vector *F_Bo_W, double *x);

/* ---- forward dynamics (ABA) ------------------------------------------------- */

/** Forward dynamics (articulated-body algorithm, three O(n) passes):
 *  vdot = M^-1 (tau_g + tau + J' F_app - C v), gravity included, tau (nv) the
 *  generalized forces (actuation plus applied; NULL: zero), F_app_Bo_W
 *  (num_bodies, see the file comment) the applied spatial forces (NULL:
 *  none). Leaves the factorization of M(q) in ws for
 *  teal_mb_articulated_solve. TEAL_ESINGULAR if some articulated joint
 *  inertia is not positive definite. */
int teal_mb_forward_dynamics_ex(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                                const double *v, const double *tau,
                                const teal_spatial_vector *F_app_Bo_W, double *vdot);

/** teal_mb_forward_dynamics_ex without applied spatial forces. */
int teal_mb_forward_dynamics(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                             const double *v, const double *tau, double *vdot);

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
