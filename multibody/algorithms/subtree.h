/** @file
 * Subtrees of a finalized plant (Simbody's SimbodyMatterSubtree): the
 * kinematics of a connected part of the tree measured from one of its
 * bodies instead of from the world.
 *
 * A subtree is given by a set of terminal bodies T and an ancestor body A:
 * by default the outermost body that lies on the inboard path of every
 * terminal body (their deepest common ancestor), or any body on all those
 * paths given by the caller. It holds A, every Ti, and every body on a path
 * from a Ti down to A. Terminal bodies need not be leaves of the plant's
 * tree, and A may itself be a terminal body. A's own inboard joint is not
 * part of the subtree: A plays the role of the world.
 *
 * Numbering. Subtree body 0 is A; the others are numbered depth first, so
 * every body comes after its parent and the bodies outboard of subtree body
 * i (i included) are the contiguous range i .. end-1 (this is what keeps the
 * perturbation functions to the outboard part). The subtree's positions
 * (sub_q, teal_mb_subtree_nq values) and velocities (sub_u,
 * teal_mb_subtree_nv values) are the q and v of the joints of bodies 1 ..
 * n-1 in that order; teal_mb_subtree_q_index and teal_mb_subtree_v_index
 * map them to the plant's q and v.
 *
 * Results. A teal_mb_subtree_results (Simbody's SimbodyMatterSubtreeResults)
 * holds, by subtree body, for the latest sub_q, sub_u and sub_udot:
 * @code{.unparsed}
 *   X_AB  the pose of body B in A;
 *   V_AB  B's spatial velocity [w_AB; v_ABo], measured in A, expressed in A;
 *   A_AB  B's (classical) spatial acceleration [alpha_AB; a_ABo], the time
 *         derivative in A of V_AB, expressed in A;
 * @endcode
 * and the perturbed versions written by the perturbation functions. These
 * are Simbody's operators, not stored state: positions must be computed
 * before velocities, and velocities before accelerations (TEAL_ESTATE
 * otherwise); a new position computation invalidates the velocities and
 * accelerations, a new velocity computation the accelerations.
 *
 * Cost. With n the number of subtree bodies, every calc and copy function
 * is O(n) (one outward pass over the subtree only, independent of the
 * plant's size; the copy functions read, check and gather only the
 * subtree's entries of the plant's vectors, by the precomputed maps, so a
 * NaN elsewhere in q, v or vdot is not an error). A perturbation function changes
 * one coordinate of one joint, so only the bodies outboard of that joint
 * change; it is O(n) for copying the nominal results into the perturbed
 * ones plus O(m) for the m outboard bodies it recomputes. Construction is
 * not meant for loops: it walks the plant's tree and allocates, at most
 * O(plant x subtree) work.
 *
 * Errors. The construction and results functions report in err (may be
 * NULL); the calc functions take (plant, data, subtree, ...) and report in
 * data's error record (teal_mb_data_error): TEAL_EINVAL for NULL
 * arguments, unknown bodies or indices, bodies that do not share the
 * ancestor, wrong vector sizes, a subtree or results made for another plant
 * or subtree, or a zero quaternion; TEAL_ESTATE for an unfinalized plant
 * or results missing the stage a call needs; TEAL_ENONFINITE for NaN/Inf
 * inputs. No calc function allocates. A subtree is immutable after
 * construction and may be shared; results are not thread-safe. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_SUBTREE_H
#define TEAL_MULTIBODY_ALGORITHMS_SUBTREE_H

#include "teal_export.h"

#include "framework/error.h"
#include "multibody/algorithms/data.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A subtree of a finalized plant (topology only). */
typedef struct teal_mb_subtree teal_mb_subtree;

/** The kinematic results of one subtree. */
typedef struct teal_mb_subtree_results teal_mb_subtree_results;

/** A subtree of plant (finalized, must outlive it) with num_terminal
 *  terminal bodies (num_terminal >= 0; terminal_bodies may be NULL when it
 *  is 0). ancestor < 0 selects the terminal bodies' deepest common ancestor
 *  (then num_terminal must be >= 1); otherwise ancestor must lie on the
 *  inboard path of every terminal body (or be one of them). Construction
 *  allocates. NULL on failure with the reason in err
 *  (may be NULL): TEAL_EINVAL for a NULL plant or terminal list, an unknown
 *  body, an ancestor not shared by every terminal body, TEAL_ESTATE for an
 *  unfinalized plant, TEAL_ENOMEM. */
TEAL_API teal_mb_subtree *teal_mb_subtree_new(const teal_plant *plant, const int *terminal_bodies,
                                              int num_terminal, int ancestor, teal_error *err);

/** Frees a subtree (NULL is allowed). */
TEAL_API void teal_mb_subtree_free(teal_mb_subtree *subtree);

/** The plant of the subtree (NULL for a NULL subtree). */
TEAL_API const teal_plant *teal_mb_subtree_plant(const teal_mb_subtree *subtree);

/** Number of subtree bodies, the ancestor included (Simbody's
 *  getNumSubtreeBodies); 0 for NULL. */
TEAL_API int teal_mb_subtree_num_bodies(const teal_mb_subtree *subtree);

/** The ancestor body A (plant body index; Simbody's
 *  getAncestorMobilizedBodyIndex); -1 for NULL. */
TEAL_API int teal_mb_subtree_ancestor(const teal_mb_subtree *subtree);

/** Number of terminal bodies, as given at construction; 0 for NULL. */
TEAL_API int teal_mb_subtree_num_terminal_bodies(const teal_mb_subtree *subtree);

/** Terminal body i (plant body index, in the order given; Simbody's
 *  getTerminalBodies); -1 for a bad i or NULL. */
TEAL_API int teal_mb_subtree_terminal_body(const teal_mb_subtree *subtree, int i);

/** The plant body of subtree body i (Simbody's getAllBodies); -1 for a
 *  bad i or NULL. */
TEAL_API int teal_mb_subtree_body(const teal_mb_subtree *subtree, int i);

/** The subtree index of a plant body, or -1 when it is not in the subtree
 *  (or on a bad argument). */
TEAL_API int teal_mb_subtree_index_of_body(const teal_mb_subtree *subtree, int body);

/** The parent of subtree body i as a subtree index (Simbody's
 *  getParentSubtreeBodyIndex): -1 for the ancestor (i = 0), a bad i or
 *  NULL. */
TEAL_API int teal_mb_subtree_parent(const teal_mb_subtree *subtree, int i);

/** Number of children of subtree body i within the subtree (0 for a bad i
 *  or NULL). */
TEAL_API int teal_mb_subtree_num_children(const teal_mb_subtree *subtree, int i);

/** Child j of subtree body i as a subtree index, in increasing order
 *  (Simbody's getChildSubtreeBodyIndices); -1 for a bad i, j or NULL. */
TEAL_API int teal_mb_subtree_child(const teal_mb_subtree *subtree, int i, int j);

/** Number of subtree positions sub_q (the q of the joints of subtree bodies
 *  1 .. n-1); 0 for NULL. */
TEAL_API int teal_mb_subtree_nq(const teal_mb_subtree *subtree);

/** Number of subtree velocities sub_u; 0 for NULL. */
TEAL_API int teal_mb_subtree_nv(const teal_mb_subtree *subtree);

/** The plant q index of subtree position i (-1 for a bad i or NULL). */
TEAL_API int teal_mb_subtree_q_index(const teal_mb_subtree *subtree, int i);

/** The plant v index of subtree velocity i (-1 for a bad i or NULL). */
TEAL_API int teal_mb_subtree_v_index(const teal_mb_subtree *subtree, int i);

/** Results sized for subtree (Simbody's initializeSubtreeResults), with no
 *  stage computed yet. NULL on failure (TEAL_EINVAL for a NULL subtree,
 *  TEAL_ENOMEM) with the reason in err (may be NULL). */
TEAL_API teal_mb_subtree_results *teal_mb_subtree_results_new(const teal_mb_subtree *subtree,
                                                              teal_error *err);

/** Frees results (NULL is allowed). */
TEAL_API void teal_mb_subtree_results_free(teal_mb_subtree_results *results);

/** 1 when results were made for subtree (Simbody's
 *  isCompatibleSubtreeResults), 0 otherwise or on NULL. */
TEAL_API int teal_mb_subtree_results_compatible(const teal_mb_subtree *subtree,
                                                const teal_mb_subtree_results *results);

/** The stage results hold: 0 none, 1 positions, 2 velocities, 3
 *  accelerations (0 for NULL). */
TEAL_API int teal_mb_subtree_results_stage(const teal_mb_subtree_results *results);

/** X_AB by subtree body (num_bodies entries; entry 0 is the identity).
 *  Valid from stage 1; NULL for NULL results. */
TEAL_API const teal_transform *teal_mb_subtree_results_poses(
    const teal_mb_subtree_results *results);

/** V_AB by subtree body, in A. Valid from stage 2; NULL for NULL results. */
TEAL_API const teal_spatial_vector *teal_mb_subtree_results_velocities(
    const teal_mb_subtree_results *results);

/** A_AB by subtree body, in A. Valid at stage 3; NULL for NULL results. */
TEAL_API const teal_spatial_vector *teal_mb_subtree_results_accelerations(
    const teal_mb_subtree_results *results);

/** The poses written by the latest teal_mb_subtree_perturb_positions. */
TEAL_API const teal_transform *teal_mb_subtree_results_perturbed_poses(
    const teal_mb_subtree_results *results);

/** The velocities written by the latest teal_mb_subtree_perturb_velocities. */
TEAL_API const teal_spatial_vector *teal_mb_subtree_results_perturbed_velocities(
    const teal_mb_subtree_results *results);

/** The accelerations written by the latest
 *  teal_mb_subtree_perturb_accelerations. */
TEAL_API const teal_spatial_vector *teal_mb_subtree_results_perturbed_accelerations(
    const teal_mb_subtree_results *results);

/** Positions from the plant's q (nq values; Simbody's
 *  copyPositionsFromState): gathers sub_q, then computes X_AB. O(subtree).
 *  Leaves results at stage 1. Errors as in the file comment. */
TEAL_API int teal_mb_subtree_copy_positions_from_state(const teal_plant *plant, teal_mb_data *data,
                                                       const teal_mb_subtree *subtree,
                                                       const double *q,
                                                       teal_mb_subtree_results *results);

/** Positions from sub_q (n values, n must equal teal_mb_subtree_nq;
 *  Simbody's calcPositionsFromSubtreeQ). O(subtree). Stage 1. */
TEAL_API int teal_mb_subtree_calc_positions_from_subtree_q(const teal_plant *plant,
                                                           teal_mb_data *data,
                                                           const teal_mb_subtree *subtree,
                                                           const double *sub_q, int n,
                                                           teal_mb_subtree_results *results);

/** The poses after adding delta to sub_q[index] (Simbody's
 *  perturbPositions), written to the perturbed poses; the nominal results
 *  are unchanged. Needs stage >= 1. O(subtree) to copy plus O(outboard):
 *  only the bodies outboard of the joint owning sub_q[index] are recomputed.
 *  A quaternion coordinate is perturbed as is, without normalization. */
TEAL_API int teal_mb_subtree_perturb_positions(const teal_plant *plant, teal_mb_data *data,
                                               const teal_mb_subtree *subtree, int index,
                                               double delta, teal_mb_subtree_results *results);

/** Velocities from the plant's v (nv values; Simbody's
 *  copyVelocitiesFromState) at the positions held. Needs stage >= 1.
 *  O(subtree). Leaves results at stage 2. */
TEAL_API int teal_mb_subtree_copy_velocities_from_state(const teal_plant *plant, teal_mb_data *data,
                                                        const teal_mb_subtree *subtree,
                                                        const double *v,
                                                        teal_mb_subtree_results *results);

/** Velocities from sub_u (n values, n = teal_mb_subtree_nv; Simbody's
 *  calcVelocitiesFromSubtreeU), or from zero when sub_u is NULL (then n is
 *  ignored; Simbody's calcVelocitiesFromZeroU). Needs stage >= 1.
 *  O(subtree). Stage 2. */
TEAL_API int teal_mb_subtree_calc_velocities_from_subtree_u(const teal_plant *plant,
                                                            teal_mb_data *data,
                                                            const teal_mb_subtree *subtree,
                                                            const double *sub_u, int n,
                                                            teal_mb_subtree_results *results);

/** The velocities after adding delta to sub_u[index] (Simbody's
 *  perturbVelocities), written to the perturbed velocities. Velocities are
 *  linear in u and the change of one joint's velocity moves the bodies
 *  outboard of it rigidly, so this adds one shifted term to each outboard
 *  body: O(subtree) to copy plus O(outboard). Needs stage >= 2. */
TEAL_API int teal_mb_subtree_perturb_velocities(const teal_plant *plant, teal_mb_data *data,
                                                const teal_mb_subtree *subtree, int index,
                                                double delta, teal_mb_subtree_results *results);

/** Accelerations from the plant's vdot (nv values; Simbody's
 *  copyAccelerationsFromState) at the positions and velocities held. Needs
 *  stage >= 2. O(subtree). Leaves results at stage 3. */
TEAL_API int teal_mb_subtree_copy_accelerations_from_state(const teal_plant *plant,
                                                           teal_mb_data *data,
                                                           const teal_mb_subtree *subtree,
                                                           const double *vdot,
                                                           teal_mb_subtree_results *results);

/** Accelerations from sub_udot (n values, n = teal_mb_subtree_nv;
 *  Simbody's calcAccelerationsFromSubtreeUDot), or from zero when sub_udot
 *  is NULL (the velocity-product accelerations alone; Simbody's
 *  calcAccelerationsFromZeroUDot). Needs stage >= 2. O(subtree). Stage 3. */
TEAL_API int teal_mb_subtree_calc_accelerations_from_subtree_udot(const teal_plant *plant,
                                                                  teal_mb_data *data,
                                                                  const teal_mb_subtree *subtree,
                                                                  const double *sub_udot, int n,
                                                                  teal_mb_subtree_results *results);

/** The accelerations after adding delta to sub_udot[index] (Simbody's
 *  perturbAccelerations), written to the perturbed accelerations. Linear in
 *  udot, like teal_mb_subtree_perturb_velocities: O(subtree) to copy plus
 *  O(outboard). Needs stage 3. */
TEAL_API int teal_mb_subtree_perturb_accelerations(const teal_plant *plant, teal_mb_data *data,
                                                   const teal_mb_subtree *subtree, int index,
                                                   double delta, teal_mb_subtree_results *results);

#ifdef __cplusplus
}
#endif
#endif
