/** @file
 * Dense linear algebra for Teal: thin, checked wrappers over LAPACKE, CBLAS
 * and GSL. This umbrella header includes one header per source file:
 *
 * @code{.unparsed}
 *   dense_basic.h   gemm, finiteness, Frobenius norm, symmetry test
 *   dense_factor.h  Cholesky, general solve, QR
 *   dense_lu.h      LU factorization and solve with kept pivots
 *   dense_svd.h     SVD, rank, pseudo-inverse
 *   dense_eigen.h   symmetric and general eigenvalues
 *   schur.h         ordered Schur and QZ forms
 *   expm.h          matrix exponential
 *   lyapunov.h      continuous and discrete Lyapunov equations
 *   control.h       controllability, observability, PBH tests
 * @endcode
 *
 * The dense family (the first five) shares the prefix teal_dense_.
 * Matrices are row-major and never aliased unless stated. Every function
 * checks its sizes and the library's return code; non-finite input gives
 * TEAL_ENONFINITE, a singular or rank-deficient matrix where a full one is
 * needed gives TEAL_ESINGULAR, failure of an iterative routine TEAL_ENOCONV,
 * each with a message in err (which may be NULL). Workspace is allocated per
 * call through teal_alloc unless a function says otherwise. */
#ifndef TEAL_SOLVERS_DENSE_H
#define TEAL_SOLVERS_DENSE_H

#include "framework/error.h"
#include "solvers/control.h"
#include "solvers/dense_basic.h"
#include "solvers/dense_eigen.h"
#include "solvers/dense_factor.h"
#include "solvers/dense_lu.h"
#include "solvers/dense_svd.h"
#include "solvers/expm.h"
#include "solvers/lyapunov.h"
#include "solvers/schur.h"

#endif
