/** @file
 * The constraint operators of a plant at a context's state, with Simbody's
 * SimbodyMatterSubsystem names (see constraint_specs.h for the equations).
 *
 * Every constraint is holonomic, so G = P (Simbody's G = [P; V; A] with
 * no velocity or acceleration-only rows), and
 * @code{.unparsed}
 *   perr(q)            position errors      (Simbody's getQErr)
 *   pverr = G v        velocity errors      (getUErr): d perr / dt
 *   paerr = G vdot - b acceleration errors  (calcConstraintAccelerationErrors)
 * @endcode
 * Sign of the bias: b is the right-hand side of G vdot = b, that is
 * b = -(G-dot v), the velocity-product part of d^2 perr / dt^2 negated.
 * Simbody's calcBiasForAccelerationConstraints returns -b; here
 * teal_plant_calc_constraint_bias returns b itself.
 *
 * G is m x nv (m = teal_plant_num_constraint_rows, row-major); rows of a
 * disabled constraint are zero. Pq = P N+ (m x nq) is d perr / dq: for a
 * quaternion joint it acts on the quaternion's tangent, Pq N v = P v.
 * The products with G and G' take O(n + m) (one pass over the tree); the
 * explicit matrices O(m n).
 *
 * All operators use the context's q and v (the plant's state), report
 * errors on the context (TEAL_EINVAL for NULL arguments or a context not
 * of the plant, TEAL_ENONFINITE for a NaN/Inf input vector) and allocate
 * nothing: their working memory is made with the context. */
#ifndef TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINT_OPERATORS_H
#define TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINT_OPERATORS_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** perr (m values): the position errors at ctx's q (Simbody's getQErr). */
TEAL_API int teal_plant_calc_constraint_position_errors(const teal_plant *plant,
                                                        const teal_context *ctx, double *perr);

/** pverr = G v (m values): the velocity errors at ctx's q and v, the time
 *  derivative of perr (Simbody's getUErr). */
TEAL_API int teal_plant_calc_constraint_velocity_errors(const teal_plant *plant,
                                                        const teal_context *ctx, double *pverr);

/** paerr = G vdot - b (m values) for the accelerations vdot (nv)
 *  (Simbody's calcConstraintAccelerationErrors). */
TEAL_API int teal_plant_calc_constraint_acceleration_errors(const teal_plant *plant,
                                                            const teal_context *ctx,
                                                            const double *vdot, double *paerr);

/** b (m values) of G vdot = b: minus the velocity-product terms of the
 *  constraints' second time derivatives (Simbody's
 *  calcBiasForAccelerationConstraints gives -b). */
TEAL_API int teal_plant_calc_constraint_bias(const teal_plant *plant, const teal_context *ctx,
                                             double *b);

/** Gu = G u (m values) for a velocity-like u (nv) (Simbody's multiplyByG):
 *  one pass over the tree. */
TEAL_API int teal_plant_multiply_by_constraint_jacobian(const teal_plant *plant,
                                                        const teal_context *ctx, const double *u,
                                                        double *Gu);

/** f = G' lambda (nv values) for a multiplier-like lambda (m) (Simbody's
 *  multiplyByGTranspose): one pass over the tree. */
TEAL_API int teal_plant_multiply_by_constraint_jacobian_transpose(const teal_plant *plant,
                                                                  const teal_context *ctx,
                                                                  const double *lambda, double *f);

/** G explicitly (m x nv, row-major) (Simbody's calcG). */
TEAL_API int teal_plant_calc_constraint_jacobian(const teal_plant *plant, const teal_context *ctx,
                                                 double *G);

/** Pq = P N+ explicitly (m x nq, row-major): d perr / dq (Simbody's
 *  calcPq). */
TEAL_API int teal_plant_calc_constraint_jacobian_q(const teal_plant *plant, const teal_context *ctx,
                                                   double *Pq);

/** Pq qlike (m values) for a q-like qlike (nq) (Simbody's multiplyByPq):
 *  G (N+ qlike), two passes over the tree. */
TEAL_API int teal_plant_multiply_by_constraint_jacobian_q(const teal_plant *plant,
                                                          const teal_context *ctx,
                                                          const double *qlike, double *Pq_qlike);

/** Pq' lambda (nq values) for a multiplier-like lambda (m) (Simbody's
 *  multiplyByPqTranspose): N+' (G' lambda). */
TEAL_API int teal_plant_multiply_by_constraint_jacobian_q_transpose(const teal_plant *plant,
                                                                    const teal_context *ctx,
                                                                    const double *lambda,
                                                                    double *f_q);

#ifdef __cplusplus
}
#endif
#endif
