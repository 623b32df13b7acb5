/* Fixtures shared by the Riccati tests (test_riccati*.c): small matrix
 * helpers, random stabilizable systems and residual checks. */
#ifndef TEAL_TESTS_SUPPORT_RICCATI_FIXTURES_H
#define TEAL_TESTS_SUPPORT_RICCATI_FIXTURES_H

#include "framework/alloc.h"
#include "framework/error.h"
#include "solvers/dense.h"
#include "solvers/riccati.h"
#include "solvers/riccati_internal.h"
#include "support/test_support.h"

double *ts_ric_mat_new(int r, int c);

void ts_ric_mat_random(unsigned *seed, double *M, int r, int c, double lo, double hi);

/* C = op(A) op(B) (overwrites C). */
void ts_ric_mul(int ta, int tb, int m, int n, int k, const double *A, const double *B, double *C);

void ts_ric_transpose(const double *A, int r, int c, double *T);

double ts_ric_rel_diff(const double *X, const double *Y, int n);

double ts_ric_max_real_eig(const double *A, int n);

double ts_ric_spectral_radius(const double *A, int n);

/* CARE gain K = R^-1 (B'X + N') (m x n). */
void ts_ric_care_gain(const double *B, const double *R, const double *N, int n, int m,
                      const double *X, double *K);

/* DARE gain K = (R + B'XB)^-1 (B'XA + N') (m x n). */
void ts_ric_dare_gain(const double *A, const double *B, const double *R, const double *N, int n,
                      int m, const double *X, double *K);

/* Acl = A - B K */
void ts_ric_closed_loop(const double *A, const double *B, const double *K, int n, int m,
                        double *Acl);

/* ---- random stabilizable systems ------------------------------------------ */

/* A random stabilizable problem: B, K0 uniform in [-1, 1), A = Acl + B K0
 * with Acl a random matrix shifted (continuous: max Re = -0.5) or scaled
 * (discrete: spectral radius 0.9) to be stable, so that K0 is a known
 * stabilizing gain while A itself is (typically) unstable; Q = C'C with C
 * random p x n (p = max(1, n/2)); R = D'D + I with D random m x m. */
typedef struct ts_ric_problem {
  int n, m;
  double *A, *B, *Q, *R, *K0;
} ts_ric_problem;

ts_ric_problem ts_ric_problem_random(unsigned seed, int n, int m, int discrete);

void ts_ric_problem_free(ts_ric_problem *p);

/* Hewer: X_k solves (A - BK)'X(A - BK) - X + Q + K'RK = 0 and
 * K = (R + B'X_k B)^-1 B'X_k A. */
void ts_ric_hewer(const ts_ric_problem *p, double *X);

/* ---- failures -------------------------------------------------------------- */

typedef int (*ts_ric_ric_fn)(const double *, const double *, const double *, const double *,
                             const double *, int, int, double *, double *, teal_error *);

#endif
