/** @file
 * Trajectory optimization by direct collocation (Drake's DirectCollocation):
 * Hermite-Simpson collocation of xdot = f(x, u) over N time samples, solved
 * as a sparse nonlinear program by Ipopt.
 *
 * The decision variables are one time step h shared by all N - 1 segments
 * (bounded by the minimum and maximum time step, or fixed by a duration),
 * the states x_0 .. x_{N-1} and the inputs u_0 .. u_{N-1}; the input is a
 * first-order hold between the samples. On each segment [t_k, t_k + h]
 * the state is the cubic Hermite polynomial through (x_k, f_k) and
 * (x_{k+1}, f_{k+1}), f_k = f(x_k, u_k), and its derivative must equal the
 * dynamics at the segment's midpoint: the defect
 * @code{.unparsed}
 *   x_c = (x_k + x_{k+1}) / 2 + h (f_k - f_{k+1}) / 8,   u_c = (u_k + u_{k+1}) / 2,
 *   d_k = -3 (x_k - x_{k+1}) / (2 h) - (f_k + f_{k+1}) / 4 - f(x_c, u_c)
 * @endcode
 * is constrained to zero. The running cost L(x, u) is integrated with
 * Simpson's rule on every segment, h (L_k + 4 L_c + L_{k+1}) / 6, which is
 * exact for a quadratic cost in a first-order-hold input; the final cost is
 * Phi(x_{N-1}). Bounds on the states and inputs, and the initial and final
 * state equalities, are bounds on the decision variables.
 *
 * Derivatives: the constraint Jacobian is exact (the chain rule through
 * x_c above) given df/dx and df/du; these come from the system's analytic
 * Jacobian hook when the system is a leaf that has one (teal_calc_jacobian),
 * else from central differences of teal_state_space_evaluator_eval. The
 * Hessian of the Lagrangian is Ipopt's limited-memory quasi-Newton
 * (L-BFGS) approximation, so no second derivatives are needed.
 *
 * The system must have continuous state only and a vector input port; its
 * other inputs, time and parameters are read from the context given at
 * creation. A solve allocates its Ipopt problem and workspace; the
 * dynamics evaluations inside it allocate nothing.
 *
 * Errors are returned as negative TEAL_E* codes with the message in
 * teal_direct_collocation_error. A library built without Ipopt
 * (TEAL_WITH_IPOPT off) keeps the API, and teal_direct_collocation_solve
 * returns TEAL_EUNSUPPORTED. */
#ifndef TEAL_SYSTEMS_TRAJECTORY_OPTIMIZATION_DIRECT_COLLOCATION_H
#define TEAL_SYSTEMS_TRAJECTORY_OPTIMIZATION_DIRECT_COLLOCATION_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"
#include "systems/primitives/piecewise_polynomial.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A direct collocation problem over one system. */
typedef struct teal_direct_collocation teal_direct_collocation;

/** A running cost L(x, u) (nx and nu entries): writes its value into
 *  *value and, when grad is not NULL, its gradient [dL/dx; dL/du] (nx + nu
 *  entries). Returns TEAL_OK or a negative status. */
typedef int (*teal_dircol_running_cost_fn)(const double *x, const double *u, double *value,
                                           double *grad, void *user);

/** A final cost Phi(x) of the last state (nx entries): its value into
 *  *value and, when grad is not NULL, its gradient (nx entries). */
typedef int (*teal_dircol_final_cost_fn)(const double *x, double *value, double *grad, void *user);

/** Options of a solve; teal_direct_collocation_options_init gives the
 *  defaults. */
typedef struct teal_direct_collocation_options {
  double tol;             /**< Ipopt's tol, the overall optimality tolerance (1e-8) */
  double constr_viol_tol; /**< Ipopt's constr_viol_tol on the defects (1e-10) */
  int max_iter;           /**< Ipopt's max_iter (3000) */
  int print_level;        /**< Ipopt's print_level, 0 silent to 12 (0) */
  int use_analytic;       /**< use the leaf's Jacobian hook when it has one (1) */
  double fd_step;         /**< relative central-difference step otherwise (1e-6) */
} teal_direct_collocation_options;

/** Summary of the last solve. */
typedef struct teal_direct_collocation_result {
  int success;             /**< 1 when Ipopt reported an (acceptable) optimum */
  int ipopt_status;        /**< Ipopt's ApplicationReturnStatus */
  const char *status_name; /**< that status's name, e.g. "Solve_Succeeded" (static) */
  int iterations;          /**< Ipopt iterations */
  int analytic;            /**< 1 when df/dx, df/du came from the Jacobian hook */
  double cost;             /**< total cost at the solution */
  double max_defect;       /**< largest |d_k| entry at the solution */
  double duration;         /**< (N - 1) h */
  double solve_seconds;    /**< wall-clock time of the solve */
} teal_direct_collocation_result;

/** Fills the default options. */
TEAL_API void teal_direct_collocation_options_init(teal_direct_collocation_options *opts);

/** A problem for sys (continuous state only) with its input u on vector
 *  input port input_port, num_time_samples >= 2 samples and a time step
 *  in [min_time_step, max_time_step] (0 < min <= max, finite). ctx is a
 *  context of sys (cloned; it supplies time, parameters and other inputs).
 *  The default running cost is u'u (R = I), no bounds, no initial or final
 *  state. NULL with the reason in err on failure. */
TEAL_API teal_direct_collocation *teal_direct_collocation_new(
    const teal_system *sys, const teal_context *ctx, int input_port, int num_time_samples,
    double min_time_step, double max_time_step, teal_error *err);

/** Frees dc (NULL is allowed). */
TEAL_API void teal_direct_collocation_free(teal_direct_collocation *dc);

/** The last error of dc (never NULL for a non-NULL dc). */
TEAL_API const teal_error *teal_direct_collocation_error(const teal_direct_collocation *dc);

/** State size nx (-1 for NULL). */
TEAL_API int teal_direct_collocation_num_states(const teal_direct_collocation *dc);

/** Input size nu (-1 for NULL). */
TEAL_API int teal_direct_collocation_num_inputs(const teal_direct_collocation *dc);

/** Bounds lower <= u(t_k) <= upper at every sample (nu entries each; use
 *  -INFINITY / INFINITY for none). TEAL_EINVAL when lower > upper or NaN. */
TEAL_API int teal_direct_collocation_set_input_bounds(teal_direct_collocation *dc,
                                                      const double *lower, const double *upper);

/** Bounds lower <= x(t_k) <= upper at every sample (nx entries each). */
TEAL_API int teal_direct_collocation_set_state_bounds(teal_direct_collocation *dc,
                                                      const double *lower, const double *upper);

/** The equality x(t_0) = x0 (nx finite entries; NULL removes it). It must
 *  lie inside the state bounds when solving. */
TEAL_API int teal_direct_collocation_set_initial_state(teal_direct_collocation *dc,
                                                       const double *x0);

/** The equality x(t_{N-1}) = xf (nx finite entries; NULL removes it). */
TEAL_API int teal_direct_collocation_set_final_state(teal_direct_collocation *dc, const double *xf);

/** The quadratic running cost u'Ru with R (nu x nu, row-major, symmetric,
 *  finite; NULL for R = 0). TEAL_EINVAL for a non-symmetric R. */
TEAL_API int teal_direct_collocation_set_input_cost(teal_direct_collocation *dc, const double *R);

/** Adds a user running cost L(x, u) with gradient to the quadratic one
 *  (fn NULL removes it). */
TEAL_API int teal_direct_collocation_set_running_cost(teal_direct_collocation *dc,
                                                      teal_dircol_running_cost_fn fn, void *user);

/** A final cost Phi(x_{N-1}) with gradient (fn NULL removes it). */
TEAL_API int teal_direct_collocation_set_final_cost(teal_direct_collocation *dc,
                                                    teal_dircol_final_cost_fn fn, void *user);

/** Fixes the duration: h = duration / (N - 1), which must lie within the
 *  time-step bounds. duration <= 0 frees it again. */
TEAL_API int teal_direct_collocation_set_duration(teal_direct_collocation *dc, double duration);

/** The initial guess: states interpolated linearly from x_start to x_end
 *  (nx entries each), inputs u_guess at every sample (nu entries; NULL for
 *  zeros) and the time step duration / (N - 1) clamped into its bounds.
 *  Without a call, the guess is zero states and inputs and the middle of
 *  the time-step bounds. */
TEAL_API int teal_direct_collocation_set_initial_guess(teal_direct_collocation *dc,
                                                       const double *x_start, const double *x_end,
                                                       const double *u_guess, double duration);

/** Checks the problem, solves it with Ipopt and fills result (may be NULL).
 *  TEAL_OK on success; TEAL_EINVAL for inconsistent bounds (lower > upper,
 *  an initial or final state outside the state bounds, a duration outside
 *  the time-step bounds); TEAL_ENOCONV when Ipopt stops without an optimum
 *  (the message names Ipopt's status, and result and the trajectories hold
 *  the last iterate); the status of a failing dynamics or cost evaluation;
 *  TEAL_EUNSUPPORTED without Ipopt. opts may be NULL. */
TEAL_API int teal_direct_collocation_solve(teal_direct_collocation *dc,
                                           const teal_direct_collocation_options *opts,
                                           teal_direct_collocation_result *result);

/** The sample times (N entries) of the last solve into t. */
TEAL_API int teal_direct_collocation_sample_times(const teal_direct_collocation *dc, double *t);

/** The states of the last solve, N x nx row-major, into x. */
TEAL_API int teal_direct_collocation_states(const teal_direct_collocation *dc, double *x);

/** The inputs of the last solve, N x nu row-major, into u. */
TEAL_API int teal_direct_collocation_inputs(const teal_direct_collocation *dc, double *u);

/** The state trajectory of the last solve as a cubic Hermite piecewise
 *  polynomial through (x_k, f(x_k, u_k)); the caller frees it. NULL with
 *  err filled before a solve. */
TEAL_API teal_piecewise_polynomial *teal_direct_collocation_state_trajectory(
    const teal_direct_collocation *dc, teal_error *err);

/** The input trajectory of the last solve as a first-order hold through
 *  the samples; the caller frees it. */
TEAL_API teal_piecewise_polynomial *teal_direct_collocation_input_trajectory(
    const teal_direct_collocation *dc, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
