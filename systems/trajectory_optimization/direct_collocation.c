/* A direct collocation problem: creation, its workspace, the constraint
 * and cost setters and the accessors of the last solution. */
#include "systems/trajectory_optimization/direct_collocation.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "systems/trajectory_optimization/direct_collocation_internal.h"

void teal_direct_collocation_options_init(teal_direct_collocation_options *opts) {
  if (opts) {
    opts->tol = 1e-8;
    opts->constr_viol_tol = 1e-10;
    opts->max_iter = 3000;
    opts->print_level = 0;
    opts->use_analytic = 1;
    opts->fd_step = 1e-6;
  }
}

/* The arguments of _new that do not need the evaluator. */
static int check_new_args(const teal_system *sys, const teal_context *ctx, int input_port, int N,
                          double hmin, double hmax, teal_error *err) {
  if (!sys || !ctx) {
    return teal_error_set(err, TEAL_EINVAL, "direct collocation: NULL %s",
                          sys ? "context" : "system");
  }
  int ni = teal_system_num_input_ports(sys);
  if (ni == 0) {
    return teal_error_set(err, TEAL_EINVAL, "direct collocation '%s': the system has no input",
                          teal_system_name(sys));
  }
  if (input_port < 0 || input_port >= ni) {
    return teal_error_set(err, TEAL_ENOTFOUND,
                          "direct collocation '%s': no input port %d (the system has %d)",
                          teal_system_name(sys), input_port, ni);
  }
  if (N < 2) {
    return teal_error_set(err, TEAL_ESIZE,
                          "direct collocation '%s': %d time samples, at least 2 are needed",
                          teal_system_name(sys), N);
  }
  if (!isfinite(hmin) || !isfinite(hmax) || hmin <= 0.0 || hmin > hmax) {
    return teal_error_set(err, TEAL_EINVAL,
                          "direct collocation '%s': time step bounds [%g, %g] must be finite with "
                          "0 < min <= max",
                          teal_system_name(sys), hmin, hmax);
  }
  return TEAL_OK;
}

/* The evaluator of xdot = f(x, u); continuous state only. */
static int make_evaluator(teal_direct_collocation *dc, const teal_context *ctx, teal_error *err) {
  teal_error local;
  teal_error_clear(&local);
  dc->ev = teal_state_space_evaluator_new(dc->sys, ctx, dc->input_port, -1, &local);
  if (!dc->ev) {
    return teal_error_set(err, local.code ? local.code : TEAL_ENOMEM, "direct collocation: %s",
                          local.message);
  }
  teal_state_space_shape shape = teal_state_space_evaluator_shape(dc->ev);
  if (shape.discrete || shape.nx == 0 || shape.nu == 0) {
    return teal_error_set(err, TEAL_EINVAL,
                          "direct collocation '%s': needs continuous state and a nonempty input "
                          "(%s state of size %d, input size %d)",
                          dc_name(dc), shape.discrete ? "discrete" : "continuous", shape.nx,
                          shape.nu);
  }
  dc->nx = shape.nx;
  dc->nu = shape.nu;
  dc->has_hook = !teal_system_is_diagram(dc->sys) && teal_system_has_jacobian(dc->sys);
  return TEAL_OK;
}

/* Carves every array out of one zeroed block. */
static int allocate(teal_direct_collocation *dc, teal_error *err) {
  size_t nx = (size_t)dc->nx, nu = (size_t)dc->nu, N = (size_t)dc->N, S = N - 1;
  size_t nvar = (size_t)dc->nvar;
  size_t knot = nx + nx * nx + nx * nu;
  size_t total = 4 * nx + 2 * nu + nu * nu + 3 * nvar + N * nx + 5 * (nx + nu) + N * knot +
                 S * (2 * nx + nu + nx * nx + nx * nu) + 3 * nx + nu;
  double *at = teal_calloc(total, sizeof(double));
  if (!at) {
    return teal_error_set(err, TEAL_ENOMEM, "direct collocation: out of memory");
  }
  dc->x_lo = at, at += nx;
  dc->x_hi = at, at += nx;
  dc->x0 = at, at += nx;
  dc->xf = at, at += nx;
  dc->u_lo = at, at += nu;
  dc->u_hi = at, at += nu;
  dc->R = at, at += nu * nu;
  dc->guess = at, at += nvar;
  dc->z = at, at += nvar;
  dc->dyn.at = at, at += nvar;
  dc->f_sol = at, at += N * nx;
  dc->grad_scratch = at, at += 5 * (nx + nu);
  dc->dyn.f = at, at += N * nx;
  dc->dyn.A = at, at += N * nx * nx;
  dc->dyn.B = at, at += N * nx * nu;
  dc->dyn.xc = at, at += S * nx;
  dc->dyn.fc = at, at += S * nx;
  dc->dyn.uc = at, at += S * nu;
  dc->dyn.Ac = at, at += S * nx * nx;
  dc->dyn.Bc = at, at += S * nx * nu;
  dc->dyn.fp = at, at += nx;
  dc->dyn.fm = at, at += nx;
  dc->dyn.xs = at, at += nx;
  dc->dyn.us = at;
  return TEAL_OK;
}

/* No bounds, R = I, and the guess: zero states and inputs, mid time step. */
static void set_defaults(teal_direct_collocation *dc) {
  for (int i = 0; i < dc->nx; i++) {
    dc->x_lo[i] = -INFINITY;
    dc->x_hi[i] = INFINITY;
  }
  for (int i = 0; i < dc->nu; i++) {
    dc->u_lo[i] = -INFINITY;
    dc->u_hi[i] = INFINITY;
    dc->R[(size_t)i * dc->nu + i] = 1.0;
  }
  dc->guess[0] = 0.5 * (dc->hmin + dc->hmax);
  dc->fd_step = 1e-6;
}

teal_direct_collocation *teal_direct_collocation_new(const teal_system *sys,
                                                     const teal_context *ctx, int input_port,
                                                     int num_time_samples, double min_time_step,
                                                     double max_time_step, teal_error *err) {
  if (check_new_args(sys, ctx, input_port, num_time_samples, min_time_step, max_time_step, err)) {
    return NULL;
  }
  teal_direct_collocation *dc = teal_calloc(1, sizeof(*dc));
  if (!dc) {
    teal_error_set(err, TEAL_ENOMEM, "direct collocation: out of memory");
    return NULL;
  }
  dc->sys = sys;
  dc->input_port = input_port;
  dc->N = num_time_samples;
  dc->hmin = min_time_step;
  dc->hmax = max_time_step;
  if (make_evaluator(dc, ctx, err) != TEAL_OK) {
    teal_direct_collocation_free(dc);
    return NULL;
  }
  dc->nvar = 1 + dc->N * (dc->nx + dc->nu);
  if (allocate(dc, err) != TEAL_OK) {
    teal_direct_collocation_free(dc);
    return NULL;
  }
  set_defaults(dc);
  teal_error_clear(&dc->err);
  return dc;
}

void teal_direct_collocation_free(teal_direct_collocation *dc) {
  if (dc) {
    teal_state_space_evaluator_free(dc->ev);
    teal_free(dc->x_lo);
    teal_free(dc);
  }
}

const teal_error *teal_direct_collocation_error(const teal_direct_collocation *dc) {
  return dc ? &dc->err : NULL;
}

int teal_direct_collocation_num_states(const teal_direct_collocation *dc) {
  return dc ? dc->nx : -1;
}

int teal_direct_collocation_num_inputs(const teal_direct_collocation *dc) {
  return dc ? dc->nu : -1;
}

/* ---- setters ----------------------------------------------------------------- */

/* NaN-free lower <= upper (n entries each); what names them in messages. */
static int check_bounds(teal_direct_collocation *dc, const char *what, const double *lo,
                        const double *hi, int n) {
  if (!lo || !hi) {
    return teal_error_set(&dc->err, TEAL_EINVAL, "direct collocation '%s': NULL %s bound",
                          dc_name(dc), what);
  }
  for (int i = 0; i < n; i++) {
    if (isnan(lo[i]) || isnan(hi[i])) {
      return teal_error_set(&dc->err, TEAL_ENONFINITE,
                            "direct collocation '%s': %s bound %d is NaN", dc_name(dc), what, i);
    }
    if (lo[i] > hi[i]) {
      return teal_error_set(&dc->err, TEAL_EINVAL,
                            "direct collocation '%s': infeasible %s bounds: lower[%d] = %g > "
                            "upper[%d] = %g",
                            dc_name(dc), what, i, lo[i], i, hi[i]);
    }
  }
  return TEAL_OK;
}

int teal_direct_collocation_set_input_bounds(teal_direct_collocation *dc, const double *lower,
                                             const double *upper) {
  if (!dc) {
    return TEAL_EINVAL;
  }
  int rc = check_bounds(dc, "input", lower, upper, dc->nu);
  if (rc == TEAL_OK) {
    memcpy(dc->u_lo, lower, (size_t)dc->nu * sizeof(double));
    memcpy(dc->u_hi, upper, (size_t)dc->nu * sizeof(double));
  }
  return rc;
}

int teal_direct_collocation_set_state_bounds(teal_direct_collocation *dc, const double *lower,
                                             const double *upper) {
  if (!dc) {
    return TEAL_EINVAL;
  }
  int rc = check_bounds(dc, "state", lower, upper, dc->nx);
  if (rc == TEAL_OK) {
    memcpy(dc->x_lo, lower, (size_t)dc->nx * sizeof(double));
    memcpy(dc->x_hi, upper, (size_t)dc->nx * sizeof(double));
  }
  return rc;
}

/* The first non-finite of v (n entries) as an error naming what, or TEAL_OK. */
static int check_finite(teal_direct_collocation *dc, const char *what, const double *v, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(v[i])) {
      return teal_error_set(&dc->err, TEAL_ENONFINITE,
                            "direct collocation '%s': %s[%d] = %g is not finite", dc_name(dc), what,
                            i, v[i]);
    }
  }
  return TEAL_OK;
}

/* Sets or clears one end-state equality. */
static int set_end_state(teal_direct_collocation *dc, const char *what, const double *x,
                         double *dst, int *has) {
  if (!dc) {
    return TEAL_EINVAL;
  }
  if (!x) {
    *has = 0;
    return TEAL_OK;
  }
  int rc = check_finite(dc, what, x, dc->nx);
  if (rc == TEAL_OK) {
    memcpy(dst, x, (size_t)dc->nx * sizeof(double));
    *has = 1;
  }
  return rc;
}

int teal_direct_collocation_set_initial_state(teal_direct_collocation *dc, const double *x0) {
  return set_end_state(dc, "initial state", x0, dc ? dc->x0 : NULL, dc ? &dc->has_x0 : NULL);
}

int teal_direct_collocation_set_final_state(teal_direct_collocation *dc, const double *xf) {
  return set_end_state(dc, "final state", xf, dc ? dc->xf : NULL, dc ? &dc->has_xf : NULL);
}

int teal_direct_collocation_set_input_cost(teal_direct_collocation *dc, const double *R) {
  if (!dc) {
    return TEAL_EINVAL;
  }
  int nu = dc->nu;
  if (!R) {
    memset(dc->R, 0, (size_t)nu * nu * sizeof(double));
    return TEAL_OK;
  }
  int rc = check_finite(dc, "R", R, nu * nu);
  for (int i = 0; rc == TEAL_OK && i < nu; i++) {
    for (int j = 0; j < i; j++) {
      double a = R[(size_t)i * nu + j], b = R[(size_t)j * nu + i];
      if (fabs(a - b) > 1e-12 * (1.0 + fabs(a) + fabs(b))) {
        return teal_error_set(&dc->err, TEAL_EINVAL,
                              "direct collocation '%s': R is not symmetric (R[%d][%d] = %g, "
                              "R[%d][%d] = %g)",
                              dc_name(dc), i, j, a, j, i, b);
      }
    }
  }
  if (rc == TEAL_OK) {
    memcpy(dc->R, R, (size_t)nu * nu * sizeof(double));
  }
  return rc;
}

int teal_direct_collocation_set_running_cost(teal_direct_collocation *dc,
                                             teal_dircol_running_cost_fn fn, void *user) {
  if (!dc) {
    return TEAL_EINVAL;
  }
  dc->run_fn = fn;
  dc->run_user = user;
  dc->dyn.level = 0;
  return TEAL_OK;
}

int teal_direct_collocation_set_final_cost(teal_direct_collocation *dc,
                                           teal_dircol_final_cost_fn fn, void *user) {
  if (!dc) {
    return TEAL_EINVAL;
  }
  dc->fin_fn = fn;
  dc->fin_user = user;
  return TEAL_OK;
}

int teal_direct_collocation_set_duration(teal_direct_collocation *dc, double duration) {
  if (!dc) {
    return TEAL_EINVAL;
  }
  if (isnan(duration) || isinf(duration)) {
    return teal_error_set(&dc->err, TEAL_ENONFINITE,
                          "direct collocation '%s': duration %g is not finite", dc_name(dc),
                          duration);
  }
  dc->duration = duration > 0.0 ? duration : 0.0;
  return TEAL_OK;
}
