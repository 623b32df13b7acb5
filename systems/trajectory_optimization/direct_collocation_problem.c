/* The problem as the solver sees it: the initial guess, the consistency
 * checks before a solve, the variable bounds, and the solution read back
 * as samples and piecewise polynomials. */
#include <math.h>
#include <string.h>

#include "systems/trajectory_optimization/direct_collocation_internal.h"

int teal_direct_collocation_set_initial_guess(teal_direct_collocation *dc, const double *x_start,
                                              const double *x_end, const double *u_guess,
                                              double duration) {
  if (!dc) {
    return TEAL_EINVAL;
  }
  if (!x_start || !x_end) {
    return teal_error_set(&dc->err, TEAL_EINVAL, "direct collocation '%s': NULL guess state",
                          dc_name(dc));
  }
  int nx = dc->nx, nu = dc->nu, N = dc->N;
  for (int i = 0; i < nx; i++) {
    if (!isfinite(x_start[i]) || !isfinite(x_end[i])) {
      return teal_error_set(&dc->err, TEAL_ENONFINITE,
                            "direct collocation '%s': guess state entry %d is not finite",
                            dc_name(dc), i);
    }
  }
  for (int i = 0; u_guess && i < nu; i++) {
    if (!isfinite(u_guess[i])) {
      return teal_error_set(&dc->err, TEAL_ENONFINITE,
                            "direct collocation '%s': guess input entry %d is not finite",
                            dc_name(dc), i);
    }
  }
  if (!isfinite(duration) || duration <= 0.0) {
    return teal_error_set(&dc->err, TEAL_EINVAL,
                          "direct collocation '%s': guess duration %g must be positive and finite",
                          dc_name(dc), duration);
  }
  double h = duration / (N - 1);
  dc->guess[0] = h < dc->hmin ? dc->hmin : (h > dc->hmax ? dc->hmax : h);
  for (int k = 0; k < N; k++) {
    double s = (double)k / (N - 1);
    double *x = dc->guess + dc_x_index(dc, k), *u = dc->guess + dc_u_index(dc, k);
    for (int i = 0; i < nx; i++) {
      x[i] = (1.0 - s) * x_start[i] + s * x_end[i];
    }
    for (int i = 0; i < nu; i++) {
      u[i] = u_guess ? u_guess[i] : 0.0;
    }
  }
  return TEAL_OK;
}

/* An end state must lie inside the state bounds. */
static int check_end_state(teal_direct_collocation *dc, const char *what, const double *x) {
  for (int i = 0; i < dc->nx; i++) {
    if (x[i] < dc->x_lo[i] || x[i] > dc->x_hi[i]) {
      return teal_error_set(&dc->err, TEAL_EINVAL,
                            "direct collocation '%s': infeasible bounds: %s[%d] = %g is outside "
                            "the state bounds [%g, %g]",
                            dc_name(dc), what, i, x[i], dc->x_lo[i], dc->x_hi[i]);
    }
  }
  return TEAL_OK;
}

int dc_check_problem(teal_direct_collocation *dc) {
  int rc = dc->has_x0 ? check_end_state(dc, "initial state", dc->x0) : TEAL_OK;
  if (rc == TEAL_OK && dc->has_xf) {
    rc = check_end_state(dc, "final state", dc->xf);
  }
  if (rc == TEAL_OK && dc->duration > 0.0) {
    double h = dc->duration / (dc->N - 1);
    if (h < dc->hmin * (1.0 - 1e-12) || h > dc->hmax * (1.0 + 1e-12)) {
      rc = teal_error_set(&dc->err, TEAL_EINVAL,
                          "direct collocation '%s': infeasible duration %g: its time step %g is "
                          "outside the time-step bounds [%g, %g]",
                          dc_name(dc), dc->duration, h, dc->hmin, dc->hmax);
    }
  }
  return rc;
}

void dc_variable_bounds(const teal_direct_collocation *dc, double *lo, double *hi) {
  int nx = dc->nx, nu = dc->nu;
  double h = dc->duration / (dc->N - 1);
  lo[0] = dc->duration > 0.0 ? h : dc->hmin;
  hi[0] = dc->duration > 0.0 ? h : dc->hmax;
  for (int k = 0; k < dc->N; k++) {
    const double *xl = dc->x_lo, *xh = dc->x_hi;
    if (k == 0 && dc->has_x0) {
      xl = xh = dc->x0;
    } else if (k == dc->N - 1 && dc->has_xf) {
      xl = xh = dc->xf;
    }
    memcpy(lo + dc_x_index(dc, k), xl, (size_t)nx * sizeof(double));
    memcpy(hi + dc_x_index(dc, k), xh, (size_t)nx * sizeof(double));
    memcpy(lo + dc_u_index(dc, k), dc->u_lo, (size_t)nu * sizeof(double));
    memcpy(hi + dc_u_index(dc, k), dc->u_hi, (size_t)nu * sizeof(double));
  }
}

/* ---- the solution ------------------------------------------------------------ */

/* TEAL_OK after a solve, else TEAL_ESTATE with a message in err. */
static int check_solved(const teal_direct_collocation *dc, const void *out, teal_error *err) {
  if (!dc || !out) {
    return teal_error_set(err, TEAL_EINVAL, "direct collocation: NULL argument");
  }
  if (!dc->solved) {
    return teal_error_set(err, TEAL_ESTATE,
                          "direct collocation '%s': no solution yet (call "
                          "teal_direct_collocation_solve first)",
                          dc_name(dc));
  }
  return TEAL_OK;
}

int teal_direct_collocation_sample_times(const teal_direct_collocation *dc, double *t) {
  int rc = check_solved(dc, t, dc ? (teal_error *)&dc->err : NULL);
  for (int k = 0; rc == TEAL_OK && k < dc->N; k++) {
    t[k] = k * dc->z[0];
  }
  return rc;
}

int teal_direct_collocation_states(const teal_direct_collocation *dc, double *x) {
  int rc = check_solved(dc, x, dc ? (teal_error *)&dc->err : NULL);
  if (rc == TEAL_OK) {
    memcpy(x, dc->z + dc_x_index(dc, 0), (size_t)dc->N * dc->nx * sizeof(double));
  }
  return rc;
}

int teal_direct_collocation_inputs(const teal_direct_collocation *dc, double *u) {
  int rc = check_solved(dc, u, dc ? (teal_error *)&dc->err : NULL);
  if (rc == TEAL_OK) {
    memcpy(u, dc->z + dc_u_index(dc, 0), (size_t)dc->N * dc->nu * sizeof(double));
  }
  return rc;
}
