/* O(n) dynamics of a finalized plant (see plant_model.h): recursive
 * Newton-Euler inverse dynamics, the composite-rigid-body mass matrix, the
 * articulated-body forward dynamics, and kinetic / potential energy.
 *
 * Formulation. Every per-body quantity is expressed in the world frame W and
 * taken about the body origin Bo: V_WB and the classical acceleration A_WB =
 * [alpha; a_Bo] (Drake's convention), spatial inertias M_Bo_W and forces
 * F_Bo_W. A body's acceleration is A_WB = Phi' A_WP + S vdot_B + Ab_B, where
 * Phi' is the rigid shift from Po to Bo, S (6 x nv_B) maps the joint's v to
 * the velocity of B in P at Bo (the hinge matrix H of joints.h re-expressed
 * and shifted) and Ab_B collects every velocity-dependent term (Hdot v,
 * centripetal and Coriolis terms of the moving-frame composition).
 *
 * Sign convention (Drake's): the equations of motion are
 *     M(q) vdot + C(q, v) v = tau_g(q) + tau_applied + tau,
 * where tau_g is the generalized gravity force (from teal_plant_gravity) and
 * tau the generalized actuation. Joint damping, joint limits and force
 * elements are NOT included by any function here (callers add them to
 * tau_applied / tau).
 *
 * Every function validates its arguments: TEAL_EINVAL for a NULL pointer or
 * a workspace made for another plant, TEAL_ESTATE for a plant that is not
 * finalized, TEAL_ENONFINITE for a NaN/Inf input (the message in the
 * workspace's error record names the array and index), TEAL_ESINGULAR when
 * an articulated joint inertia is not positive definite (ABA). After the
 * workspace exists, none of them allocates. They are not thread-safe on a
 * shared workspace. */
#ifndef TEAL_MULTIBODY_DYNAMICS_H
#define TEAL_MULTIBODY_DYNAMICS_H

#include "framework/error.h"
#include "multibody/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Per-body scratch for the dynamics algorithms of one finalized plant. */
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

/** Inverse dynamics (RNEA, O(n)): tau (nv) such that
 *  M(q) vdot + C(q, v) v = tau_g(q) + tau_applied + tau, i.e.
 *  tau = M vdot + C v - tau_g - tau_applied. tau_applied (nv) may be NULL
 *  (zero). q has nq values (quaternions are used as given; normalize them
 *  first), v and vdot nv values. tau may not alias the inputs. */
int teal_mb_inverse_dynamics(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                             const double *v, const double *vdot, const double *tau_applied,
                             double *tau);

/** The mass matrix M(q) (nv x nv, row-major, symmetric) by the
 *  composite-rigid-body algorithm. */
int teal_mb_mass_matrix(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                        double *M);

/** The bias term C(q, v) v (nv): RNEA with vdot = 0 and no gravity. */
int teal_mb_bias_term(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                      const double *v, double *Cv);

/** The generalized gravity forces tau_g(q) (nv), the right-hand-side sign:
 *  tau_g = -RNEA(q, v = 0, vdot = 0) with gravity; for a pendulum hanging
 *  from a hinge tau_g = -m g l sin(theta). */
int teal_mb_gravity_forces(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                           double *tau_g);

/** Forward dynamics (articulated-body algorithm, three O(n) passes):
 *  vdot = M^-1 (tau_g + tau - C v), gravity included, tau (nv) the
 *  generalized actuation (NULL: zero). TEAL_ESINGULAR if some articulated
 *  joint inertia S' P S is not positive definite (e.g. a massless subtree). */
int teal_mb_forward_dynamics(const teal_plant *plant, teal_mb_workspace *ws, const double *q,
                             const double *v, const double *tau, double *vdot);

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
