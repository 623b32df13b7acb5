/* Constraint test fixtures: random trees left open for constraints, a
 * random constraint of each kind between random bodies, and contexts at a
 * random state. Failures return NULL or a negative status and print the
 * reason to stderr. */
#ifndef TEAL_TESTS_SUPPORT_MB_CONSTRAINT_FIXTURES_H
#define TEAL_TESTS_SUPPORT_MB_CONSTRAINT_FIXTURES_H

#include "framework/context.h"
#include "multibody/tree/plant_model.h"
#include "support/mb_fixtures.h"

/** The number of constraint kinds (teal_constraint_kind). */
#define TS_MBC_NUM_KINDS 7

/** A plant with the bodies and joints of topology t (random frames, axes
 *  and inertias from seed, as ts_mb_random_tree), not finalized, so that
 *  constraints can be added. Bodies are 1..t->n. */
teal_plant *ts_mbc_open_tree(const ts_mb_topology *t, unsigned seed);

/** Adds a constraint of kind between random distinct bodies (the world
 *  among them) with random points, frames and axes; a coupler between two
 *  random single-dof joints. Returns the constraint index, TEAL_ENOTFOUND
 *  when the plant has no two single-dof joints for a coupler, or the add's
 *  error. */
int ts_mbc_add_random_constraint(teal_plant *p, int kind, unsigned *state);

/** A new context of the finalized p at a random state (q, v components in
 *  [-a, a), quaternions normalized), or NULL. */
teal_context *ts_mbc_random_context(const teal_plant *p, unsigned *state, double a);

/** A finalized continuous plant whose one redundant row can conflict: a
 *  1 kg slider on x (joint "slide") at the foot of a rigid unit distance
 *  from (0, 1, 0). At x = 0 the distance's row of G vanishes, yet moving
 *  at v = 1 it asks an acceleration no force gives; at rest it is
 *  consistent. With baumgarte, Baumgarte's feedback (alpha 2, beta 3) is
 *  set, which routes the dynamics through the combined held-dof solve. */
teal_plant *ts_mbc_conflicting_slider(int baumgarte);

/** The four-bar's link lengths: crank a, coupler b, rocker c, ground d
 *  (a Grashof crank-rocker, the crank the shortest), and its gravity. @{ */
#define TS_MBC_LA 1.0
#define TS_MBC_LB 3.0
#define TS_MBC_LC 2.5
#define TS_MBC_LD 3.0
#define TS_MBC_GRAV 9.81
/** @} */

/** A continuous crank-rocker four-bar, not finalized: slender bars (crank
 *  1 kg, coupler 2 kg, rocker 1.5 kg) on revolute joints about -y, so a
 *  joint angle is its bar's angle in the (x, z) plane; the crank on the
 *  world at the origin, the coupler on the crank's tip, the rocker on the
 *  world at (d, 0, 0), the coupler's far end and the rocker's tip joined by
 *  a ball constraint (three rows, the out-of-plane one redundant); gravity
 *  along -z. Joints 0, 1, 2 are crank, coupler, rocker. NULL on failure. */
teal_plant *ts_mbc_four_bar(void);

/** The four-bar's rocker angle for crank angle t2 on the branch of sign s
 *  (+1: the coupler-rocker joint above the line from the crank tip to the
 *  rocker pivot), by intersecting two circles. */
double ts_mbc_four_bar_rocker(double t2, double s);

/** An assembled four-bar configuration at crank angle t2 (branch +1), by
 *  joint (crank, coupler, rocker): q = (t2, t3 - t2, t4). */
void ts_mbc_four_bar_assemble(double t2, double *q_by_joint);

#endif
