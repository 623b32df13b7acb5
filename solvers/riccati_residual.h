/** @file
 * Relative residuals of candidate Riccati solutions (riccati_residual.c):
 * ||lhs||_F / max(1, ||X||_F) of the CARE or the DARE (see riccati.h). */
#ifndef TEAL_SOLVERS_RICCATI_RESIDUAL_H
#define TEAL_SOLVERS_RICCATI_RESIDUAL_H

#include "teal_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Relative residual of a candidate X of the CARE (for tests and refinement);
 *  NaN on bad arguments or when out of memory. */
TEAL_API double teal_care_residual(const double *A, const double *B, const double *Q,
                                   const double *R, const double *N, int n, int m, const double *X);
/** Relative residual of a candidate X of the DARE (as teal_care_residual). */
TEAL_API double teal_dare_residual(const double *A, const double *B, const double *Q,
                                   const double *R, const double *N, int n, int m, const double *X);

#ifdef __cplusplus
}
#endif
#endif
