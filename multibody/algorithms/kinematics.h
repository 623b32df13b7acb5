/** @file
 * Forward kinematics of a finalized plant (see plant_model.h).
 *
 * Outputs are indexed by body index (not tree node). V_WB[b] is the spatial
 * velocity of body b's origin Bo measured in W, expressed in W ([angular;
 * linear]). All functions return TEAL_EINVAL / TEAL_ESTATE on a bad plant or
 * index and allocate nothing. */
#ifndef TEAL_MULTIBODY_ALGORITHMS_KINEMATICS_H
#define TEAL_MULTIBODY_ALGORITHMS_KINEMATICS_H

#include "teal_export.h"

#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** X_WB for every body (num_bodies entries) from q (nq values), one outward
 *  pass: X_WB = X_WP X_PF X_FM(q) X_BM^-1. */
TEAL_API int teal_mb_body_poses(const teal_plant *plant, const double *q,
                                        teal_transform *X_WB);

/** X_WB and V_WB for every body from q and v in one outward pass. X_WB may be
 *  given as scratch for the poses; both arrays have num_bodies entries. */
TEAL_API int teal_mb_body_velocities(const teal_plant *plant, const double *q,
                                             const double *v, teal_transform *X_WB,
                                             teal_spatial_vector *V_WB);

/** X_WB, V_WB and A_WB for every body from q, v and vdot in one outward pass
 *  (num_bodies entries each; X_WB and V_WB serve as scratch for the poses
 *  and velocities). A_WB[b] = [alpha_WB; a_WBo] is Drake's (classical)
 *  spatial acceleration of body b's origin Bo measured in W, expressed in W:
 *  the time derivative in W of V_WB[b] along the motion. TEAL_EINVAL for a
 *  NULL argument, TEAL_ESTATE for a plant that is not finalized. */
TEAL_API int teal_mb_body_accelerations(const teal_plant *plant, const double *q,
                                                const double *v, const double *vdot,
                                                teal_transform *X_WB, teal_spatial_vector *V_WB,
                                                teal_spatial_vector *A_WB);

/** X_AB between two frames, given the body poses X_WB from
 *  teal_mb_body_poses. */
TEAL_API int teal_plant_calc_relative_transform(const teal_plant *plant, const teal_transform *X_WB,
                                                int frame_A, int frame_B, teal_transform *X_AB);

/** p_WQ: the world position of point Q given by p_FQ in frame F. */
TEAL_API int teal_plant_calc_point_in_world(const teal_plant *plant, const teal_transform *X_WB,
                                            int frame_F, teal_vec3 p_FQ, teal_vec3 *p_WQ);

#ifdef __cplusplus
}
#endif
#endif
