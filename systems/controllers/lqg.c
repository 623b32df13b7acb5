/* The LQG compensator: a steady-state Kalman filter feeding an LQR, wired
 * into one diagram (see lqg.h). */
#include "systems/controllers/lqg.h"

#include <string.h>

#include "framework/alloc.h"
#include "framework/context_access.h"
#include "framework/ports.h"
#include "framework/diagram_builder.h"
#include "solvers/dense_basic.h"
#include "systems/analysis/linearize.h"
#include "systems/controllers/lqr.h"
#include "systems/controllers/operating_point_internal.h"
#include "systems/estimators/kalman_filter.h"

static int check_arguments(const char *name, const teal_linear_system_matrices *m, const double *x0,
                           const double *u0, const double *const mats[4], teal_error *err) {
  static const char *const names[4] = {"Q", "R", "W", "V"};
  if (!m) {
    return teal_error_set(err, TEAL_EINVAL, "lqg_controller '%s': the model is NULL", name);
  }
  if (m->nx < 1 || m->nu < 1 || m->ny < 1) {
    return teal_error_set(err, TEAL_ESIZE,
                          "lqg_controller '%s': the model needs states, inputs and outputs "
                          "(nx %d, nu %d, ny %d)",
                          name, m->nx, m->nu, m->ny);
  }
  for (int k = 0; k < 4; k++) {
    if (!mats[k]) {
      return teal_error_set(err, TEAL_EINVAL, "lqg_controller '%s': %s is NULL", name, names[k]);
    }
  }
  if ((x0 && !teal_dense_all_finite(x0, m->nx, 1)) ||
      (u0 && !teal_dense_all_finite(u0, m->nu, 1))) {
    return teal_error_set(err, TEAL_ENONFINITE,
                          "lqg_controller '%s': the operating point (x0, u0) is not finite", name);
  }
  return TEAL_OK;
}

/* u = u0 - K (xhat - x0): an affine system without state, D = -K and
 * y0 = u0 + K x0; work holds nu nx + nu doubles. */
static teal_system *regulator(const teal_linear_system_matrices *m, const double *K,
                              const double *x0, const double *u0, double *work, teal_error *err) {
  int nx = m->nx, nu = m->nu;
  double *D = work, *y0 = work + (size_t)nu * nx;
  for (int i = 0; i < nu; i++) {
    y0[i] = u0 ? u0[i] : 0.0;
    for (int j = 0; j < nx; j++) {
      D[i * nx + j] = -K[i * nx + j];
      y0[i] += x0 ? K[i * nx + j] * x0[j] : 0.0;
    }
  }
  return teal_affine_system_new("lqr", NULL, NULL, NULL, NULL, D, y0, 0, nx, nu, 0.0, err);
}

/* The diagram: kalman -> lqr -> kalman's input, measurement in, control
 * and estimate out. */
static teal_system *wire(const char *name, teal_system *kalman, teal_system *lqr, teal_error *err) {
  teal_builder *b = teal_builder_new(name);
  teal_builder_add(b, kalman);
  teal_builder_add(b, lqr);
  teal_builder_connect_by_name(b, "kalman", "estimated_state", "lqr", "u");
  teal_builder_connect_by_name(b, "lqr", "y", "kalman", "observed_system_input");
  teal_builder_export_input(b, teal_system_input_port_by_name(kalman, "observed_system_output"),
                            "measurement");
  teal_builder_export_output(b, teal_system_output_port_by_name(lqr, "y"), "control");
  teal_builder_export_output(b, teal_system_output_port_by_name(kalman, "estimated_state"),
                             "estimated_state");
  return teal_builder_build(b, err);
}

teal_system *teal_lqg_controller_new(const char *name, const teal_linear_system_matrices *m,
                                     const double *x0, const double *u0, const double *Q,
                                     const double *R, const double *W, const double *V, double *K,
                                     double *L, teal_error *err) {
  const double *const mats[4] = {Q, R, W, V};
  name = name ? name : "lqg";
  if (check_arguments(name, m, x0, u0, mats, err)) {
    return NULL;
  }
  size_t nx = (size_t)m->nx, nu = (size_t)m->nu;
  double *work = teal_calloc(2 * nx * nu + nu + 1, sizeof(double));
  if (!work) {
    teal_error_set(err, TEAL_ENOMEM, "lqg_controller '%s': out of memory", name);
    return NULL;
  }
  teal_system *result = NULL;
  int discrete = m->time_period > 0;
  if (teal_lqr(m->A, m->B, Q, R, NULL, m->nx, m->nu, discrete, work, NULL, err) == TEAL_OK &&
      (!L || teal_steady_state_kalman_gain(m->A, m->C, W, V, m->nx, m->ny, discrete, L, NULL,
                                           err) == TEAL_OK)) {
    teal_system *kalman = teal_steady_state_kalman_filter_from_matrices("kalman", m, W, V, err);
    teal_system *lqr = kalman ? regulator(m, work, x0, u0, work + nx * nu, err) : NULL;
    if (lqr) {
      result = wire(name, kalman, lqr, err);
    } else {
      teal_system_free(kalman);
    }
  }
  if (result && K) {
    memcpy(K, work, nx * nu * sizeof(double));
  }
  teal_free(work);
  return result;
}

teal_system *teal_lqg_controller_from_system(const char *name, const teal_system *sys,
                                             const teal_context *ctx, int input_port,
                                             int output_port, const double *Q, const double *R,
                                             const double *W, const double *V, double *K, double *L,
                                             teal_error *err) {
  teal_linearize_options o;
  teal_linearize_options_init(&o);
  o.input_port = input_port;
  o.output_port = output_port;
  teal_linear_system_matrices m;
  memset(&m, 0, sizeof m);
  if (teal_linearize_matrices(sys, ctx, &o, &m, err) != TEAL_OK) {
    return NULL;
  }
  teal_system *result = NULL;
  double *point = teal_calloc((size_t)(m.nx + m.nu) + 1, sizeof(double));
  if (!point) {
    teal_error_set(err, TEAL_ENOMEM, "lqg_controller: out of memory");
  } else if (m.nu < 1 || teal_controller_operating_point(sys, ctx, input_port, &m, point,
                                                         "lqg_controller", err) == TEAL_OK) {
    result = teal_lqg_controller_new(name, &m, point, point + m.nx, Q, R, W, V, K, L, err);
  }
  teal_free(point);
  teal_linear_system_matrices_free(&m);
  return result;
}
