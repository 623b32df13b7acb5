/** @file
 * Continuous and discrete Lyapunov equations (lyapunov.c).
 *
 * Matrices are row-major and never aliased unless stated. Every function
 * checks its sizes and the library's return code; non-finite input gives
 * TEAL_ENONFINITE, a singular or rank-deficient matrix where a full one is
 * needed gives TEAL_ESINGULAR, failure of an iterative routine TEAL_ENOCONV,
 * each with a message in err (which may be NULL). Workspace is allocated per
 * call through teal_alloc unless a function says otherwise. */
#ifndef TEAL_SOLVERS_LYAPUNOV_H
#define TEAL_SOLVERS_LYAPUNOV_H

#include "teal_export.h"

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Continuous Lyapunov equation A X + X A' + Q = 0 (Q symmetric) by
 *  Bartels-Stewart on the Schur form; TEAL_ESINGULAR when A and -A' share
 *  an eigenvalue. X is n x n symmetric. */
TEAL_API int teal_lyapunov_continuous(const double *A, const double *Q, int n, double *X,
                                      teal_error *err);

/** Discrete Lyapunov equation A X A' - X + Q = 0; TEAL_ESINGULAR when some
 *  eigenvalue pair of A has lambda_i lambda_j = 1. */
TEAL_API int teal_lyapunov_discrete(const double *A, const double *Q, int n, double *X,
                                    teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
