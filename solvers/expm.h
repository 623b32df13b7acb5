/** @file
 * Matrix exponential (expm.c).
 *
 * Matrices are row-major and never aliased unless stated. Every function
 * checks its sizes and the library's return code; non-finite input gives
 * TEAL_ENONFINITE, a singular or rank-deficient matrix where a full one is
 * needed gives TEAL_ESINGULAR, failure of an iterative routine TEAL_ENOCONV,
 * each with a message in err (which may be NULL). Workspace is allocated per
 * call through teal_alloc unless a function says otherwise. */
#ifndef TEAL_SOLVERS_EXPM_H
#define TEAL_SOLVERS_EXPM_H

#include "teal_export.h"

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Matrix exponential E = exp(A) of an n x n matrix: A is scaled by a
 *  power of two, GSL's truncated Taylor series (Moler-Van Loan) runs at
 *  double precision, and the result is squared back. */
TEAL_API int teal_expm(const double *A, int n, double *E, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
