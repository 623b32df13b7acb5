/** @file
 * Finite-horizon (time-varying) linear quadratic regulators (Drake's
 * FiniteHorizonLinearQuadraticRegulator).
 *
 * About a nominal trajectory x0(t), u0(t) on [t0, tf], with the plant
 * linearized along it, dx' = A(t) dx + B(t) du (dx = x - x0(t),
 * du = u - u0(t)), the controller minimizes
 * @code{.unparsed}
 *   dx(tf)' Qf dx(tf) + integral_t0^tf dx'Q dx + du'R du + 2 dx'N du dt.
 * @endcode
 * The plant linearized along the nominal is affine in the deviations,
 * dx' = A dx + B du + c, where the defect c(t) = f(x0, u0) - x0'(t) is zero
 * when the nominal satisfies the dynamics (for a discrete plant,
 * dx[k+1] = A dx + B du + c with c = f(x0(t_k), u0(t_k)) - x0(t_k + h)).
 * The cost-to-go is dx'S dx + 2 dx'sx + s0, solved backward from
 * S(tf) = Qf, sx(tf) = 0, s0(tf) = 0:
 * @code{.unparsed}
 *   -S'  = Q + S A + A'S - (S B + N) R^-1 (B'S + N'),   K  = R^-1 (B'S + N'),
 *   -sx' = (A - B K)'sx + S c,                           k0 = R^-1 B'sx,
 *   -s0' = 2 sx'c - k0'R k0,
 * @endcode
 * and the optimal input is u = u0(t) - K(t) (x - x0(t)) - k0(t). A discrete
 * plant (periodic updates of period h) gives the difference equations
 * @code{.unparsed}
 *   F = R + B'S1 B,   K[k] = F^-1 (B'S1 A + N'),   v = S1 c + sx1,   k0[k] = F^-1 B'v,
 *   S[k] = Q + A'S1 A - (A'S1 B + N) K[k],   sx[k] = (A - B K[k])'v,
 *   s0[k] = s01 + c'S1 c + 2 c'sx1 - k0[k]'F k0[k]
 * @endcode
 * (S1, sx1, s01 at k + 1) at t_k = t0 + k h, with A, B the one-period map's
 * Jacobians at (x0(t_k), u0(t_k)).
 *
 * A(t) and B(t) come from teal_linearize_matrices at each time (the
 * system's analytic Jacobian when it has one, central differences
 * otherwise). With a constant nominal at an equilibrium and a long horizon,
 * S(t0) and K(t0) approach the LQR solution (teal_lqr) and k0 is zero. */
#ifndef TEAL_SYSTEMS_CONTROLLERS_FINITE_HORIZON_LQR_H
#define TEAL_SYSTEMS_CONTROLLERS_FINITE_HORIZON_LQR_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/system.h"
#include "systems/primitives/piecewise_polynomial.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Options of teal_finite_horizon_lqr; teal_finite_horizon_lqr_options_init
 *  gives the defaults. Matrices are row-major and borrowed for the call. */
typedef struct teal_finite_horizon_lqr_options {
  const double *Qf; /**< final cost, n x n symmetric PSD (default NULL: zero) */
  const double *N;  /**< cross term, n x m (default NULL: none) */
  int input_port;   /**< the vector input u (default 0) */
  /** Nominal state trajectory, n rows, covering [t0, tf] (default NULL: the
   *  context's state, held constant). */
  const teal_piecewise_polynomial *x0;
  /** Nominal input trajectory, m rows, covering [t0, tf] (default NULL:
   *  the value fixed on input_port in the context, held constant). */
  const teal_piecewise_polynomial *u0;
  double rtol;   /**< relative tolerance on S per step (default 1e-10) */
  double atol;   /**< absolute tolerance on S per step (default 1e-12) */
  int max_steps; /**< bound on the backward integration's steps (default 100000) */
} teal_finite_horizon_lqr_options;

/** What teal_finite_horizon_lqr computes (Drake's
 *  FiniteHorizonLinearQuadraticRegulatorResult); every trajectory is owned
 *  by the result and released by teal_finite_horizon_lqr_result_free.
 *
 *  Continuous: S, sx, s0, K and k0 are piecewise cubics with one segment
 *  per accepted step of the backward integration (Dormand-Prince 5(4) with
 *  error control), each the cubic through the step's dense output at four
 *  equally spaced times: exact to the integration's accuracy at the breaks,
 *  and to the fourth-order dense output plus an O(h^4) interpolation error
 *  inside. Discrete: K and k0 are piecewise constant, K(t) = K[k] on
 *  [t_k, t_k+1), and S, sx and s0 are piecewise linear through their
 *  samples at t_0 .. t_N. */
typedef struct teal_finite_horizon_lqr_result {
  int nx;                        /**< state size n */
  int nu;                        /**< input size m */
  double period;                 /**< 0: continuous; > 0: the plant's update period h */
  double t0;                     /**< start of the horizon */
  double tf;                     /**< end of the horizon */
  teal_piecewise_polynomial *x0; /**< nominal state (n rows) */
  teal_piecewise_polynomial *u0; /**< nominal input (m rows) */
  teal_piecewise_polynomial *K;  /**< gain, m x n row-major per time (m n rows) */
  teal_piecewise_polynomial *k0; /**< affine gain (m rows) */
  teal_piecewise_polynomial *S;  /**< quadratic cost-to-go, n x n row-major (n n rows) */
  teal_piecewise_polynomial *sx; /**< linear cost-to-go term (n rows) */
  teal_piecewise_polynomial *s0; /**< constant cost-to-go term (1 row) */
} teal_finite_horizon_lqr_result;

/** Fills the defaults. */
TEAL_API void teal_finite_horizon_lqr_options_init(teal_finite_horizon_lqr_options *opts);

/** Solves the finite-horizon LQR of sys about the nominal in opts (or the
 *  operating point in ctx, a root context of sys whose other inputs have
 *  values) on [t0, tf], with running costs Q (n x n, symmetric PSD) and R
 *  (m x m, symmetric positive definite). opts may be NULL for the defaults.
 *  On success fills result (free it with
 *  teal_finite_horizon_lqr_result_free); on failure result holds nothing
 *  and err (may be NULL) says why: TEAL_EINVAL (NULL arguments, t0 >= tf, Q
 *  or Qf not symmetric PSD, R not symmetric, a nominal of the wrong size or
 *  shorter than the horizon, a discrete horizon that is not a whole number
 *  of periods), TEAL_ENONFINITE (NaN or Inf in the costs or times, or a
 *  diverging cost-to-go), TEAL_ESINGULAR (R, or R + B'SB, not positive definite),
 *  TEAL_ENOCONV (more than max_steps steps), and the linearization's
 *  errors. */
TEAL_API int teal_finite_horizon_lqr(const teal_system *sys, const teal_context *ctx, double t0,
                                     double tf, const double *Q, const double *R,
                                     const teal_finite_horizon_lqr_options *opts,
                                     teal_finite_horizon_lqr_result *result, teal_error *err);

/** Releases the trajectories of a result and zeroes it (NULL is ignored). */
TEAL_API void teal_finite_horizon_lqr_result_free(teal_finite_horizon_lqr_result *result);

/** The time-varying affine controller u = u0(t) - K(t) (x - x0(t)) - k0(t)
 *  of a result (its trajectories are copied): a stateless leaf named name whose
 *  input "u" (index 0, nx values) takes the plant's state and whose output
 *  "y" (index 0, nu values) is the plant's input, as for
 *  teal_lqr_controller_new. Outside [t0, tf] the trajectories hold their end
 *  values. x0(t), u0(t), K(t) and k0(t) are a time-only cache entry, so an
 *  evaluation allocates nothing. NULL with err set for a NULL or
 *  inconsistent result, or out of memory. */
TEAL_API teal_system *teal_finite_horizon_lqr_controller_new(
    const char *name, const teal_finite_horizon_lqr_result *result, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
