/* Private to multibody/plant/: the held dofs of a continuous plant, those
 * whose motion is given rather than computed: a locked joint's (v = 0) and
 * a prescribed joint's (q = q_p(t)). They enter the dynamics as rows
 * E vdot = a of unit vectors E (Drake removes a locked joint's dofs; the
 * rows give the same accelerations and, as their multipliers, the forces
 * that hold them), and the projection as prescribeQ and prescribeU
 * (held_dofs.c, held_projection.c). */
#ifndef TEAL_MULTIBODY_PLANT_HELD_DOFS_INTERNAL_H
#define TEAL_MULTIBODY_PLANT_HELD_DOFS_INTERNAL_H

#include "multibody/plant/plant_calc_internal.h"

/* Prescribed joints of p (1 dof each). */
int teal_plant_num_prescribed(const teal_plant *p);

/* Makes s's held-dof work hold k held dofs (TEAL_ENOMEM reported by the
 * caller); a no-op when it does already, or k == 0. */
int teal_plant_held_reserve(teal_plant_scratch *s, const teal_plant *p, int k);

/* nv doubles of s's held work that teal_plant_hold_dofs does not use, the
 * work first made for ctx's k > 0 held dofs (locking makes it; a context
 * copied from a locked one gets it here, once); NULL, with TEAL_ENOMEM
 * reported on ctx, when there is no memory for it. */
double *teal_plant_held_vdot_scratch(const teal_plant *p, const teal_context *ctx,
                                     teal_plant_scratch *s, int k);

/* Number of held dofs in ctx (the plant's own context). */
int teal_plant_num_held(const teal_plant *p, const teal_context *ctx);

/* Turns the unconstrained accelerations vdot (the articulated-body
 * factorization of M(q) still in s->data) into those with every held dof
 * following its target; lambda (nv, may be NULL) receives the generalized
 * force each held dof needs (0 elsewhere). Reports on ctx. */
int teal_plant_hold_dofs(const teal_plant *p, const teal_context *ctx, teal_plant_scratch *s,
                         double *vdot, double *lambda);

/* The constraint rows' multipliers (nc_rows values) of the latest
 * teal_plant_hold_dofs in s's work (same state): 0 when that solve had no
 * constraint rows (a discrete plant). */
void teal_plant_held_constraint_multipliers(const teal_plant *p, const teal_context *ctx,
                                            const teal_plant_scratch *s, double *lambda);

/* sum_i tau_i v_i over the held dofs of ctx, from the multipliers the
 * latest teal_plant_hold_dofs left in s's work (same state). */
double teal_plant_held_power(const teal_plant *p, const teal_context *ctx,
                             const teal_plant_scratch *s);

/* prescribeQ and prescribeU: the held dofs' q and v set to their targets
 * at ctx's time (q and v are the state being projected). */
int teal_plant_prescribe_held(const teal_plant *p, const teal_context *ctx, double *q, double *v);

/* The target q, qdot, qddot of prescribed joint j at time t, reported on
 * ctx when its motion fails or is not finite. */
int teal_plant_motion_at(const teal_plant *p, const teal_context *ctx, int j, double t,
                         double out[3]);

#endif
