/** @file
 * The allocation-free solve of a symmetric positive semidefinite system
 * S x = b (dense_psd.c), for systems that are singular when some rows are
 * redundant: the projected inverse mass G M^-1 G' of a constraint set with a
 * redundant row (a planar four-bar closed by a 3-D ball constraint) and the
 * projection and held-dof systems built the same way.
 *
 * The method is Cholesky with diagonal (symmetric) pivoting: each step
 * takes the largest remaining diagonal as its pivot and stops once that
 * pivot falls below tol times S's largest diagonal. The rows factored are
 * independent; the others are treated as redundant and their unknowns set
 * to zero. For a consistent system that x solves all of S x = b; whether
 * the system was consistent is a separate question, answered by
 * teal_dense_psd_residual for the callers that need it (a conflicting
 * redundant constraint set). Pivoting makes the rank decision independent
 * of the rows' order, which an unpivoted factorization does not.
 *
 * Matrices are row-major. Nothing is allocated, so the functions can run
 * inside simulation steps; the caller provides the working memory. */
#ifndef TEAL_SOLVERS_DENSE_PSD_H
#define TEAL_SOLVERS_DENSE_PSD_H

#include "teal_export.h"

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The relative pivot tolerance used when a function is given tol <= 0:
 *  pivots below 1e-10 times the largest diagonal mark redundant rows. */
#define TEAL_DENSE_PSD_DEFAULT_TOL 1e-10

/** Factors the symmetric positive semidefinite S (n x n, both triangles
 *  read and overwritten) in place as P S P' = L L' over its first *rank
 *  columns, L in the lower triangle, pivoting on the largest remaining
 *  diagonal. work (2 n doubles) receives the pivot order P in its first n
 *  entries (row i of the factor is row work[i] of S), which
 *  teal_dense_psd_solve reads back; keeping it in doubles lets callers hand
 *  over one double array. tol is the relative pivot tolerance (<= 0: the
 *  default).
 *  TEAL_EINVAL for a NULL pointer or n < 0, TEAL_ENONFINITE for a NaN or
 *  infinite entry of S, each with a message in err (which may be NULL). */
TEAL_API int teal_dense_psd_factor(double *S, int n, double tol, double *work, int *rank,
                                   teal_error *err);

/** Solves S x = b with the factor L, work and rank from
 *  teal_dense_psd_factor (work's second half is overwritten): b (n values)
 *  becomes x, zero on the rows left out of the factor. TEAL_EINVAL for a
 *  NULL pointer or a rank outside [0, n], TEAL_ENONFINITE for a NaN or
 *  infinite entry of b. */
TEAL_API int teal_dense_psd_solve(const double *L, int n, int rank, double *work, double *b,
                                  teal_error *err);

/** Factors S and solves S x = b in one call (teal_dense_psd_factor then
 *  teal_dense_psd_solve), with the same arguments and codes; *rank may be
 *  NULL. */
TEAL_API int teal_dense_psd_factor_solve(double *S, int n, double *b, double tol, double *work,
                                         int *rank, teal_error *err);

/** How far x is from solving S x = b: the largest |(S x - b)_i|, divided by
 *  the problem's scale max|b| + max|S_ii| max|x| when that is positive.
 *  Used after teal_dense_psd_solve to tell a consistent singular system
 *  (round-off residual) from an inconsistent one. Rows with mask[i] == 0
 *  are skipped (mask may be NULL: every row). *worst_row (may be NULL)
 *  receives the row of the largest residual, -1 when none. Returns NaN for
 *  non-finite data, and for a NULL S, b or x or n < 0. */
TEAL_API double teal_dense_psd_residual(const double *S, int n, const double *b, const double *x,
                                        const double *mask, int *worst_row);

#ifdef __cplusplus
}
#endif
#endif
