/* The solution as piecewise polynomials: the state as the cubic Hermite
 * interpolant the collocation constrains, the input as a first-order
 * hold. */
#include <string.h>

#include "framework/alloc.h"
#include "systems/trajectory_optimization/direct_collocation_internal.h"

/* The sample times into a new array (NULL with err on failure). */
static double *sample_times(const teal_direct_collocation *dc, teal_error *err) {
  if (!dc) {
    teal_error_set(err, TEAL_EINVAL, "direct collocation: NULL problem");
    return NULL;
  }
  if (!dc->solved) {
    teal_error_set(err, TEAL_ESTATE,
                   "direct collocation '%s': no solution yet (call "
                   "teal_direct_collocation_solve first)",
                   teal_system_name(dc->sys));
    return NULL;
  }
  double *t = teal_alloc((size_t)dc->N * sizeof(double));
  if (!t) {
    teal_error_set(err, TEAL_ENOMEM, "direct collocation: out of memory");
    return NULL;
  }
  for (int k = 0; k < dc->N; k++) {
    t[k] = k * dc->z[0];
  }
  return t;
}

/* Coefficients of the cubic with p(0) = x0, p'(0) = f0, p(h) = x1, p'(h) = f1. */
static void hermite(double x0, double f0, double x1, double f1, double h, double *c) {
  double s = (x1 - x0) / h;
  c[0] = x0;
  c[1] = f0;
  c[2] = (3.0 * s - 2.0 * f0 - f1) / h;
  c[3] = (f0 + f1 - 2.0 * s) / (h * h);
}

teal_piecewise_polynomial *teal_direct_collocation_state_trajectory(
    const teal_direct_collocation *dc, teal_error *err) {
  double *t = sample_times(dc, err);
  if (!t) {
    return NULL;
  }
  int nx = dc->nx;
  size_t n = (size_t)(dc->N - 1) * nx * 4;
  double *c = teal_alloc(n * sizeof(double));
  teal_piecewise_polynomial *pp = NULL;
  if (!c) {
    teal_error_set(err, TEAL_ENOMEM, "direct collocation: out of memory");
  } else {
    double h = dc->z[0];
    for (int k = 0; k + 1 < dc->N; k++) {
      const double *x = dc->z + dc_x_index(dc, k), *f = dc->f_sol + (size_t)k * nx;
      for (int r = 0; r < nx; r++) {
        hermite(x[r], f[r], x[nx + r], f[nx + r], h, c + ((size_t)k * nx + r) * 4);
      }
    }
    pp = teal_piecewise_polynomial_new(t, dc->N, nx, 3, c, err);
  }
  teal_free(c);
  teal_free(t);
  return pp;
}

teal_piecewise_polynomial *teal_direct_collocation_input_trajectory(
    const teal_direct_collocation *dc, teal_error *err) {
  double *t = sample_times(dc, err);
  if (!t) {
    return NULL;
  }
  teal_piecewise_polynomial *pp =
      teal_piecewise_polynomial_first_order_hold(t, dc->z + dc_u_index(dc, 0), dc->N, dc->nu, err);
  teal_free(t);
  return pp;
}
