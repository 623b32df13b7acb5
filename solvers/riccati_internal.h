/* Internals shared by the Riccati sources (riccati.c and
 * riccati_residual.c). Not installed. All matrices are row-major. */
#ifndef TEAL_SOLVERS_RICCATI_INTERNAL_H
#define TEAL_SOLVERS_RICCATI_INTERNAL_H

#include "framework/error.h"

/** Which Riccati equation. */
typedef enum teal_ric_kind { TEAL_RIC_CARE = 0, TEAL_RIC_DARE = 1 } teal_ric_kind;

/** Residuals above this are refined by one Newton step (kept only when it
 *  lowers the residual). 0: always refine, which lowers the residual about
 *  tenfold on well-scaled problems for about 10% more time at n = 200. */
#define TEAL_RIC_REFINE_ABOVE 0.0

/** Argument checks shared by teal_care and teal_dare (who names the caller
 *  in messages): sizes (TEAL_ESIZE, also when (2n+m)^2 exceeds INT_MAX),
 *  pointers (TEAL_EINVAL), finite entries (TEAL_ENONFINITE), Q and R
 *  symmetric (TEAL_EINVAL). */
int teal_ric_check(const char *who, const double *A, const double *B, const double *Q,
                   const double *R, const double *N, int n, int m, const double *X,
                   teal_error *err);

/** teal_care (kind TEAL_RIC_CARE) and teal_dare (TEAL_RIC_DARE), who naming
 *  the caller in messages: checks, factors R, takes X from
 *  teal_ric_schur_solution and refines it by one Newton step when its
 *  relative residual exceeds TEAL_RIC_REFINE_ABOVE (kept only when it
 *  lowers the residual). */
int teal_ric_solve(teal_ric_kind kind, const char *who, const double *A, const double *B,
                   const double *Q, const double *R, const double *N, int n, int m, double *X,
                   double *residual, teal_error *err);

/** Rchol (m x m) = the Cholesky factor of the symmetric part of R;
 *  TEAL_ESINGULAR when R is not positive definite. */
int teal_ric_factor_r(const char *who, const double *R, int m, double *Rchol, teal_error *err);

/** X (n x n, symmetric) from the stable deflating subspace of the extended
 *  2n+m pencil, balanced, compressed to 2n x 2n and ordered by QZ (no
 *  refinement). Arguments must have passed teal_ric_check and R must be
 *  positive definite; n > 0. TEAL_ENOCONV when there is no stabilizing
 *  solution; X is written only on success. */
int teal_ric_schur_solution(teal_ric_kind kind, const char *who, const double *A,
                            const double *B, const double *Q, const double *R,
                            const double *N, int n, int m, double *X, teal_error *err);

/** CARE left-hand side F = A'X + XA - (XB + N) K + Q (n x n) at X with the
 *  gain K = R^-1 (B'X + N') (m x n; may be NULL when not wanted), Rchol the
 *  Cholesky factor of R. N may be NULL. */
int teal_ric_care_lhs(const double *A, const double *B, const double *Q, const double *Rchol,
                      const double *N, int n, int m, const double *X, double *F, double *K,
                      teal_error *err);

/** DARE left-hand side F = A'XA - X - (A'XB + N) K + Q (n x n) with
 *  K = (R + B'XB)^-1 (B'XA + N') (m x n; may be NULL); TEAL_ESINGULAR when
 *  R + B'XB is singular. */
int teal_ric_dare_lhs(const double *A, const double *B, const double *Q, const double *R,
                      const double *N, int n, int m, const double *X, double *F, double *K,
                      teal_error *err);

/** Akt = (A - B K)' (n x n) for the gain K (m x n), with T (n x n) as scratch. */
int teal_ric_closed_loop_t(const double *A, const double *B, const double *K, int n, int m,
                           double *T, double *Akt, teal_error *err);

/** ||F||_F / max(1, ||X||_F) for n x n matrices. */
double teal_ric_relative(const double *F, const double *X, int n);

/** Copies the symmetric part (S + S')/2 of the n x n matrix S into D (D may be S). */
void teal_ric_symmetrize(const double *S, int n, double *D);

#endif
