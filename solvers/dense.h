/* Dense linear algebra for Teal: thin, checked wrappers over LAPACKE, CBLAS
 * and GSL. Matrices are row-major and never aliased unless stated. Every
 * function checks its sizes and the library's return code; non-finite input
 * gives TEAL_ENONFINITE, a singular or rank-deficient matrix where a full
 * one is needed gives TEAL_ESINGULAR, failure of an iterative routine
 * TEAL_ENOCONV, each with a message in err (which may be NULL). Workspace
 * is allocated per call through teal_alloc unless a function says
 * otherwise. */
#ifndef TEAL_SOLVERS_DENSE_H
#define TEAL_SOLVERS_DENSE_H

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Eigenvalue regions used to order Schur forms. */
typedef enum teal_eig_region {
  TEAL_EIG_LEFT_HALF_PLANE = 0, /**< Re(lambda) < 0 (continuous-time stable) */
  TEAL_EIG_UNIT_DISK = 1        /**< |lambda| < 1 (discrete-time stable) */
} teal_eig_region;

/* ---- basic ---------------------------------------------------------------- */

/** C = alpha op(A) op(B) + beta C with op = transpose when the flag is set;
 *  op(A) is m x k, op(B) is k x n (CBLAS dgemm). */
int teal_gemm(int trans_a, int trans_b, int m, int n, int k, double alpha, const double *A,
              const double *B, double beta, double *C, teal_error *err);

/** Nonzero when every entry of the m x n matrix is finite. */
int teal_all_finite(const double *A, int m, int n);

/** Frobenius norm of an m x n matrix. */
double teal_norm_fro(const double *A, int m, int n);

/** Nonzero when A (n x n) is symmetric to |A - A'| <= tol max(1, |A|) entrywise. */
int teal_is_symmetric(const double *A, int n, double tol);

/* ---- factorizations ------------------------------------------------------- */

/** Cholesky A = L L' in place (lower triangle becomes L, upper zeroed);
 *  TEAL_ESINGULAR when A is not symmetric positive definite. */
int teal_cholesky_factor(double *A, int n, teal_error *err);

/** Solves A X = B with the factor from teal_cholesky_factor; B is n x nrhs
 *  and becomes X. */
int teal_cholesky_solve(const double *L, int n, double *B, int nrhs, teal_error *err);

/** Solves A X = B for a general square A (n x n, LU with pivoting); B is
 *  n x nrhs and becomes X; A is not modified. TEAL_ESINGULAR when singular. */
int teal_solve(const double *A, int n, double *B, int nrhs, teal_error *err);

/** Thin QR of an m x n matrix (m >= n): Q is m x n with orthonormal
 *  columns, R is n x n upper triangular. */
int teal_qr(const double *A, int m, int n, double *Q, double *R, teal_error *err);

/** SVD A = U diag(s) Vt of an m x n matrix: U m x m, s min(m,n)
 *  (descending), Vt n x n. U or Vt may be NULL when not wanted. */
int teal_svd(const double *A, int m, int n, double *U, double *s, double *Vt, teal_error *err);

/** Numerical rank: singular values above tol (tol < 0: max(m,n) eps s_max). */
int teal_rank(const double *A, int m, int n, double tol, int *rank, teal_error *err);

/** Moore-Penrose pseudo-inverse (n x m) dropping singular values <= tol
 *  (tol < 0 as for teal_rank); rank may be NULL. */
int teal_pinv(const double *A, int m, int n, double tol, double *Ainv, int *rank,
              teal_error *err);

/** Eigen-decomposition of a symmetric matrix: w ascending, V (may be NULL)
 *  holds the eigenvectors in its columns. A is not modified. */
int teal_sym_eigen(const double *A, int n, double *w, double *V, teal_error *err);

/** Eigenvalues of a general square matrix (wr + i wi), unordered. */
int teal_eigenvalues(const double *A, int n, double *wr, double *wi, teal_error *err);

/* ---- Schur forms ----------------------------------------------------------- */

/** Real Schur form A = Z T Z' with the eigenvalues in region first: T (in
 *  place of A) is quasi-upper-triangular, Z orthogonal (n x n), *nsel the
 *  number of eigenvalues in region (wr/wi may be NULL). */
int teal_schur_ordered(double *A, int n, double *Z, teal_eig_region region, int *nsel,
                       double *wr, double *wi, teal_error *err);

/** Generalized real Schur form (QZ) of the pencil (A, B): A = Q S Z',
 *  B = Q T Z' with the generalized eigenvalues alpha/beta in region first
 *  (an infinite eigenvalue, beta = 0, is never selected); S and T replace A
 *  and B; Q, Z orthogonal n x n; *nsel as above. Q may be NULL when only the
 *  right deflating vectors Z are wanted (it is then not computed). */
int teal_qz_ordered(double *A, double *B, int n, double *Q, double *Z, teal_eig_region region,
                    int *nsel, teal_error *err);

/* ---- matrix functions and equations --------------------------------------- */

/** Matrix exponential E = exp(A) of an n x n matrix: A is scaled by a
 *  power of two, GSL's truncated Taylor series (Moler-Van Loan) runs at
 *  double precision, and the result is squared back. */
int teal_expm(const double *A, int n, double *E, teal_error *err);

/** Continuous Lyapunov equation A X + X A' + Q = 0 (Q symmetric) by
 *  Bartels-Stewart on the Schur form; TEAL_ESINGULAR when A and -A' share
 *  an eigenvalue. X is n x n symmetric. */
int teal_lyapunov_continuous(const double *A, const double *Q, int n, double *X,
                             teal_error *err);

/** Discrete Lyapunov equation A X A' - X + Q = 0; TEAL_ESINGULAR when some
 *  eigenvalue pair of A has lambda_i lambda_j = 1. */
int teal_lyapunov_discrete(const double *A, const double *Q, int n, double *X,
                           teal_error *err);

/* ---- control structure ----------------------------------------------------- */

/** Controllability matrix [B, AB, ..., A^(n-1) B] (n x n m). */
int teal_controllability_matrix(const double *A, const double *B, int n, int m, double *Cm,
                                teal_error *err);

/** Observability matrix [C; CA; ...; C A^(n-1)] (n p x n). */
int teal_observability_matrix(const double *A, const double *C, int n, int p, double *Om,
                              teal_error *err);

/** Rank tests of the two matrices above (tol as for teal_rank); *result 1/0. */
int teal_is_controllable(const double *A, const double *B, int n, int m, double tol,
                         int *result, teal_error *err);
int teal_is_observable(const double *A, const double *C, int n, int p, double tol,
                       int *result, teal_error *err);

/** PBH tests: (A, B) is stabilizable when rank [A - lambda I, B] = n for
 *  every eigenvalue lambda of A outside the stable region (Re >= 0 for
 *  continuous, |lambda| >= 1 for discrete); detectable is the dual with C.
 *  margin (may be NULL) receives the smallest singular value found in
 *  those tests, normalized by max(1, |[A B]|). */
int teal_is_stabilizable(const double *A, const double *B, int n, int m, int discrete,
                         double tol, int *result, double *margin, teal_error *err);
int teal_is_detectable(const double *A, const double *C, int n, int p, int discrete,
                       double tol, int *result, double *margin, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
