/** @file
 * Linearization of a system about an operating point (Drake's Linearize and
 * FirstOrderTaylorApproximation).
 *
 * The operating point is a context: time, state and the value fixed on the
 * chosen input port (other inputs must be fixed or unused). A system with
 * continuous state gives continuous matrices (x = [q; v; z]); a system with
 * only discrete state updated by periodic discrete updates of one period
 * gives discrete matrices with that period (x = all discrete state). The
 * matrices come from a leaf's analytic Jacobian hook when it has one, else
 * from central differences with per-variable steps eps max(1, |x_j|). */
#ifndef TEAL_SYSTEMS_ANALYSIS_LINEARIZE_H
#define TEAL_SYSTEMS_ANALYSIS_LINEARIZE_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/system.h"
#include "systems/primitives/linear_system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Port choice meaning "the first port if there is one, else none". */
#define TEAL_LINEARIZE_FIRST_PORT (-2)

/** Linearization options; teal_linearize_options_init gives the defaults. */
typedef struct teal_linearize_options {
  int input_port;  /**< vector input u (index, -1 none, default first) */
  int output_port; /**< vector output y (index, -1 none, default first) */
  double eps;      /**< relative difference step (default 1e-6) */
  int use_analytic; /**< use a leaf's Jacobian hook when present (default 1); a hook that
                       declines with TEAL_EUNSUPPORTED falls back to central differences */
  /** teal_linearize requires |xdot| (continuous) or |x_next - x| (discrete)
   *  below this at the operating point (default 1e-6; <= 0 skips it). */
  double equilibrium_tolerance;
} teal_linearize_options;

/** Fills the defaults. */
TEAL_API void teal_linearize_options_init(teal_linearize_options *opts);

/** The matrices of the first-order approximation about ctx, written into
 *  arrays from teal_alloc that the caller releases with
 *  teal_linear_system_matrices_free: x' (or x[k+1]) = A x + B u + f0,
 *  y = C x + D u + y0 in deviation-free form (f0, y0 make it exact at the
 *  operating point). opts may be NULL for the defaults. */
TEAL_API int teal_linearize_matrices(const teal_system *sys, const teal_context *ctx,
                                     const teal_linearize_options *opts,
                                     teal_linear_system_matrices *out, teal_error *err);

/** Releases the arrays of teal_linearize_matrices. */
TEAL_API void teal_linear_system_matrices_free(teal_linear_system_matrices *m);

/** A LinearSystem (A, B, C, D) about an equilibrium (see
 *  equilibrium_tolerance); NULL with err filled on failure. The model is
 *  in deviation coordinates x - x0, u - u0, y - y0 as in Drake. */
TEAL_API teal_system *teal_linearize(const teal_system *sys, const teal_context *ctx,
                                     const teal_linearize_options *opts, teal_error *err);

/** An AffineSystem valid about any operating point (no equilibrium
 *  required): x' = A x + B u + f0, y = C x + D u + y0 in absolute
 *  coordinates. */
TEAL_API teal_system *teal_first_order_taylor_approximation(const teal_system *sys,
                                                            const teal_context *ctx,
                                                            const teal_linearize_options *opts,
                                                            teal_error *err);

/** Zero-order-hold discretization of x' = A x + B u with step h:
 *  Ad = exp(A h), Bd = integral_0^h exp(A s) ds B (both from one matrix
 *  exponential of [[A, B], [0, 0]] h). */
TEAL_API int teal_discretize_zoh(const double *A, const double *B, int n, int m, double h,
                                 double *Ad, double *Bd, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
