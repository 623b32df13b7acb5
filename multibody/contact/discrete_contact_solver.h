/** @file
 * The discrete contact solver of a discrete plant (Drake's
 * set_discrete_contact_solver and get_discrete_contact_solver).
 *
 * Both solvers find the next velocities of the time step with the contact
 * forces evaluated at them, island by island of kinematic trees coupled by
 * contact (plant_contact.h); they differ in the contact law and the
 * iteration:
 *   - TAMSI (the default) is Teal's own TAMSI-like implicit step: Newton's
 *     method with a backtracking line search on the momentum residual, the
 *     normal force k x (1 + d xdot)_+ with the Hunt-Crossley dissipation d
 *     at the predicted depth x, and friction regularized at a hundredth of
 *     the stiction tolerance. It is not Drake's TAMSI algorithm line for
 *     line (Drake's solves for the tangential velocities only, with a
 *     limited angle change per iteration).
 *   - SAP is the convex formulation of Castro, Permenter and Han (2022):
 *     the next velocities minimize 1/2 |v - v*|^2_A + l_R(J v), whose
 *     gradient A (v - v*) - J' gamma is the momentum balance, with each
 *     contact impulse gamma the projection of the unconstrained impulse
 *     -R^-1 (J v - v_hat) onto the friction cone in the norm of R. The
 *     normal regularization follows from the linear Kelvin-Voigt law
 *     gamma_n / h = k (x + tau_d xdot)_+ (tau_d the relaxation time):
 *     R_n = 1 / (h k (h + tau_d)) and v_hat_n = x0 / (h + tau_d), bounded
 *     below by the near-rigid value beta^2 w / (4 pi^2) (beta = 1, w the
 *     rms norm of the contact's block of the Delassus operator), and
 *     friction is regularized with R_t = sigma w (sigma = 1e-3). Newton's
 *     method with an exact line search minimizes the cost; the constraint
 *     rows of the step (discrete_constraints.h), quadratic terms of the
 *     same cost, are solved in the same problem.
 * Per-geometry relaxation times (teal_proximity_properties) add up per
 * pair, as in Drake; a geometry without one gets the plant's time step (the
 * default of Drake's first SAP releases; later ones use 0.1 s). Keep them
 * short: SAP's convex formulation acts on a sliding contact as if its
 * separation speed were lowered by mu |v_t| (the Anitescu relaxation), so a
 * sliding body rides up by about (h + tau_d) mu |v_t|, and with tau_d near
 * 0.1 s a block sliding at decimetres per second hops off the ground. SAP
 * ignores the Hunt-Crossley dissipation and TAMSI the relaxation time. A
 * continuous plant uses neither solver. */
#ifndef TEAL_MULTIBODY_CONTACT_DISCRETE_CONTACT_SOLVER_H
#define TEAL_MULTIBODY_CONTACT_DISCRETE_CONTACT_SOLVER_H

#include "teal_export.h"

#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The discrete contact solvers (Drake's DiscreteContactSolver). */
typedef enum teal_discrete_contact_solver {
  TEAL_DISCRETE_CONTACT_SOLVER_TAMSI = 0, /**< the built-in TAMSI-like Newton step (default) */
  TEAL_DISCRETE_CONTACT_SOLVER_SAP = 1    /**< the SAP convex formulation */
} teal_discrete_contact_solver;

/** Selects the discrete contact solver (before finalize, as in Drake:
 *  TEAL_ESTATE after). An unknown value gives TEAL_EINVAL; errors are
 *  sticky in the plant's record, as for every declaration. A continuous
 *  plant accepts the setting and ignores it. */
TEAL_API int teal_plant_set_discrete_contact_solver(teal_plant *plant,
                                                    teal_discrete_contact_solver solver);

/** The plant's discrete contact solver (TAMSI unless set, and for NULL). */
TEAL_API teal_discrete_contact_solver
teal_plant_get_discrete_contact_solver(const teal_plant *plant);

#ifdef __cplusplus
}
#endif
#endif
