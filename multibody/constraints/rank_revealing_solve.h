/** @file
 * The m x m symmetric positive semidefinite solve that constraint
 * projection and constrained dynamics share: S x = b for S = A W A', which
 * is singular when constraints are redundant (a planar four-bar closed by a
 * 3-D ball constraint has one row too many). A Cholesky factorization that
 * drops a pivot once it falls below tol times the largest diagonal treats
 * that row as redundant: its unknown is set to zero, and the remaining rows
 * are solved exactly. For a consistent redundant set that is a solution of
 * the full system; allocates nothing. */
#ifndef TEAL_MULTIBODY_CONSTRAINTS_RANK_REVEALING_SOLVE_H
#define TEAL_MULTIBODY_CONSTRAINTS_RANK_REVEALING_SOLVE_H

#include "teal_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The relative pivot tolerance teal_rr_cholesky_solve uses when given
 *  tol <= 0: pivots below 1e-12 times the largest diagonal are dropped. */
#define TEAL_RR_CHOLESKY_DEFAULT_TOL 1e-12

/** Solves S x = b in place (S: m x m row-major, symmetric positive
 *  semidefinite, overwritten by its factor; b: m values, overwritten by x).
 *  Pivots below tol (relative to the largest diagonal of S) mark redundant
 *  rows, whose x entries are 0; *rank (may be NULL) receives the number
 *  kept. TEAL_EINVAL for NULL S or b or m < 0, TEAL_ENONFINITE for a NaN or
 *  infinite entry of S or b. */
TEAL_API int teal_rr_cholesky_solve(double *S, int m, double *b, double tol, int *rank);

#ifdef __cplusplus
}
#endif
#endif
