/** @file
 * The free and known coordinates of a context (Simbody's getFreeQIndex,
 * getFreeUIndex, getFreeUDotIndex, getKnownUDotIndex, packFreeQ,
 * unpackFreeQ, packFreeU, unpackFreeU).
 *
 * A coordinate is free unless its joint is locked in the context
 * (teal_plant_lock_joint) or has a prescribed motion
 * (teal_plant_prescribe_joint_motion): those are held, their q and v
 * given rather than computed. Both hold a dof at the position level, so
 * the free udots are the free u and the known udots their complement.
 * Index lists are ascending. Errors are reported on ctx: TEAL_EINVAL for
 * NULL arguments or a context not of the plant. */
#ifndef TEAL_MULTIBODY_PLANT_FREE_INDICES_H
#define TEAL_MULTIBODY_PLANT_FREE_INDICES_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The free q indices of ctx into index (room for nq values) and their
 *  number into *count. */
TEAL_API int teal_plant_get_free_q_index(const teal_plant *plant, const teal_context *ctx,
                                         int *index, int *count);

/** The free u (v) indices of ctx into index (room for nv values) and their
 *  number into *count. */
TEAL_API int teal_plant_get_free_u_index(const teal_plant *plant, const teal_context *ctx,
                                         int *index, int *count);

/** The u indices whose udot is unknown (computed by the dynamics): the
 *  free u, into index (room for nv values), their number into *count. */
TEAL_API int teal_plant_get_free_udot_index(const teal_plant *plant, const teal_context *ctx,
                                            int *index, int *count);

/** The u indices whose udot is known (locked: 0; prescribed: the motion's
 *  second derivative), the complement of the free udots, into index (room
 *  for nv values), their number into *count. */
TEAL_API int teal_plant_get_known_udot_index(const teal_plant *plant, const teal_context *ctx,
                                             int *index, int *count);

/** packed = the free entries of all_q (nq values), in order; packed has
 *  room for the free count (at most nq). */
TEAL_API int teal_plant_pack_free_q(const teal_plant *plant, const teal_context *ctx,
                                    const double *all_q, double *packed);

/** Writes the free count of values of packed into the free entries of
 *  q (nq values); the held entries of q are left untouched. */
TEAL_API int teal_plant_unpack_free_q(const teal_plant *plant, const teal_context *ctx,
                                      const double *packed, double *q);

/** packed = the free entries of all_u (nv values), in order. */
TEAL_API int teal_plant_pack_free_u(const teal_plant *plant, const teal_context *ctx,
                                    const double *all_u, double *packed);

/** Writes packed into the free entries of u (nv values); the held entries
 *  of u are left untouched. */
TEAL_API int teal_plant_unpack_free_u(const teal_plant *plant, const teal_context *ctx,
                                      const double *packed, double *u);

#ifdef __cplusplus
}
#endif
#endif
