/** @file
 * The bias-reuse forms of the constraint Jacobian products and the explicit
 * transposes (Simbody's calcBiasForMultiplyByG, multiplyByG with a bias,
 * calcBiasForMultiplyByPq, multiplyByPq with a bias, calcGTranspose,
 * calcPqTranspose); constraint_operators.h has the plain forms.
 *
 * Simbody evaluates the products through the constraints' velocity error
 * functions: pverr(q; u) = G u - c(t, q) and, for a q-like x,
 * pverr(q; N+ x) = Pq x + Pt. The bias is that function at a zero input,
 * bias = pverr(q; 0) = -c(t, q), and the with-bias forms return
 * pverr(q; u) - bias, which is G u (Pq x) when the bias is the state's. The
 * bias depends on q only, so it is computed once for repeated products at
 * one configuration; the with-bias forms then stage only the body poses,
 * not the velocity kinematics the plain forms stage. Teal's constraints do
 * not depend on time, so their bias is zero today; a given bias that
 * differs from the state's shifts the result by the difference.
 *
 * Errors as constraint_operators.h: reported on the context, TEAL_EINVAL
 * for NULL arguments or a context not of the plant, TEAL_ENONFINITE for a
 * NaN/Inf input vector; nothing is allocated. */
#ifndef TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINT_OPERATORS_BIAS_H
#define TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINT_OPERATORS_BIAS_H

#include "teal_export.h"

#include "framework/context.h"
#include "multibody/tree/plant_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** bias = pverr(q; 0) (m values), for
 *  teal_plant_multiply_by_constraint_jacobian_with_bias (Simbody's
 *  calcBiasForMultiplyByG). */
TEAL_API int teal_plant_calc_bias_for_multiply_by_constraint_jacobian(const teal_plant *plant,
                                                                      const teal_context *ctx,
                                                                      double *bias);

/** Gu = pverr(q; u) - bias (m values) for a velocity-like u (nv) and the
 *  precomputed bias (m) (Simbody's multiplyByG with a bias): G u when bias
 *  is the state's; stages the body poses only. */
TEAL_API int teal_plant_multiply_by_constraint_jacobian_with_bias(const teal_plant *plant,
                                                                  const teal_context *ctx,
                                                                  const double *u,
                                                                  const double *bias, double *Gu);

/** biasp = pverr(q; 0) (m values), for
 *  teal_plant_multiply_by_constraint_jacobian_q_with_bias (Simbody's
 *  calcBiasForMultiplyByPq: -Pt). */
TEAL_API int teal_plant_calc_bias_for_multiply_by_constraint_jacobian_q(const teal_plant *plant,
                                                                        const teal_context *ctx,
                                                                        double *biasp);

/** Pq_qlike = pverr(q; N+ qlike) - biasp (m values) for a q-like qlike
 *  (nq) and the precomputed biasp (m) (Simbody's multiplyByPq with a bias):
 *  Pq qlike when biasp is the state's; stages the body poses only. */
TEAL_API int teal_plant_multiply_by_constraint_jacobian_q_with_bias(const teal_plant *plant,
                                                                    const teal_context *ctx,
                                                                    const double *qlike,
                                                                    const double *biasp,
                                                                    double *Pq_qlike);

/** G' explicitly (nv x m, row-major) (Simbody's calcGTranspose): built
 *  columnwise from the constraint force products G' e_i. */
TEAL_API int teal_plant_calc_constraint_jacobian_transpose(const teal_plant *plant,
                                                           const teal_context *ctx, double *Gt);

/** Pq' explicitly (nq x m, row-major) (Simbody's calcPqTranspose): column
 *  i is N+' G' e_i. */
TEAL_API int teal_plant_calc_constraint_jacobian_q_transpose(const teal_plant *plant,
                                                             const teal_context *ctx, double *Pqt);

#ifdef __cplusplus
}
#endif
#endif
