/** @file
 * Structural tests of linear systems (control.c): controllability and
 * observability matrices, their rank tests, and the PBH stabilizability and
 * detectability tests.
 *
 * Matrices are row-major and never aliased unless stated. Every function
 * checks its sizes and the library's return code; non-finite input gives
 * TEAL_ENONFINITE, a singular or rank-deficient matrix where a full one is
 * needed gives TEAL_ESINGULAR, failure of an iterative routine TEAL_ENOCONV,
 * each with a message in err (which may be NULL). Workspace is allocated per
 * call through teal_alloc unless a function says otherwise. */
#ifndef TEAL_SOLVERS_CONTROL_H
#define TEAL_SOLVERS_CONTROL_H

#include "teal_export.h"

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Controllability matrix [B, AB, ..., A^(n-1) B] (n x n m). */
TEAL_API int teal_controllability_matrix(const double *A, const double *B, int n, int m, double *Cm,
                                         teal_error *err);

/** Observability matrix [C; CA; ...; C A^(n-1)] (n p x n). */
TEAL_API int teal_observability_matrix(const double *A, const double *C, int n, int p, double *Om,
                                       teal_error *err);

/** Rank test of the controllability matrix (tol as for teal_dense_rank):
 *  *result is 1 when (A, B) is controllable, else 0. */
TEAL_API int teal_is_controllable(const double *A, const double *B, int n, int m, double tol,
                                  int *result, teal_error *err);
/** Rank test of the observability matrix (tol as for teal_dense_rank):
 *  *result is 1 when (A, C) is observable, else 0. */
TEAL_API int teal_is_observable(const double *A, const double *C, int n, int p, double tol,
                                int *result, teal_error *err);

/** PBH tests: (A, B) is stabilizable when rank [A - lambda I, B] = n for
 *  every eigenvalue lambda of A outside the stable region (Re >= 0 for
 *  continuous, |lambda| >= 1 for discrete); detectable is the dual with C.
 *  margin (may be NULL) receives the smallest singular value found in
 *  those tests, normalized by max(1, |[A B]|). Here *result is 1 when
 *  (A, B) is stabilizable, else 0. */
TEAL_API int teal_is_stabilizable(const double *A, const double *B, int n, int m, int discrete,
                                  double tol, int *result, double *margin, teal_error *err);
/** The dual PBH test: *result is 1 when (A, C) is detectable, else 0 (margin
 *  as for teal_is_stabilizable). */
TEAL_API int teal_is_detectable(const double *A, const double *C, int n, int p, int discrete,
                                double tol, int *result, double *margin, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
