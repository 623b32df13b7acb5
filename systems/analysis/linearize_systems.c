/* Linear and affine systems from linearization, and ZOH discretization. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense.h"
#include "systems/analysis/linearize.h"

/* Largest |f(x0, u0)| (continuous) or |x_next - x0| (discrete). */
static double equilibrium_defect(const teal_linear_system_matrices *m, const double *x0,
                                 const double *u0) {
  double worst = 0.0;
  for (int i = 0; i < m->nx; i++) {
    double f = m->f0[i];
    for (int j = 0; j < m->nx; j++) {
      f += m->A[(size_t)i * m->nx + j] * x0[j];
    }
    for (int j = 0; j < m->nu; j++) {
      f += m->B[(size_t)i * m->nu + j] * u0[j];
    }
    worst = fmax(worst, fabs(m->time_period > 0 ? f - x0[i] : f));
  }
  return worst;
}

/* Name "<system>_linearized" into buf. */
static const char *result_name(const teal_system *sys, char *buf, size_t n) {
  snprintf(buf, n, "%s_linearized", teal_system_name(sys));
  return buf;
}

/* The operating point (x0, u0) read from ctx into one allocation. */
static double *operating_point(const teal_system *sys, const teal_context *ctx,
                               const teal_linear_system_matrices *m, int in) {
  double *p = teal_calloc((size_t)(m->nx + m->nu) + 1, sizeof(double));
  if (!p) {
    return NULL;
  }
  if (m->time_period > 0) {
    memcpy(p, teal_context_discrete_state(ctx), (size_t)m->nx * sizeof(double));
  } else if (m->nx) {
    teal_context_get_continuous_state(ctx, p, m->nx);
  }
  const double *u;
  if (m->nu && teal_eval_vector_input(sys, ctx, in, &u) == TEAL_OK) {
    memcpy(p + m->nx, u, (size_t)m->nu * sizeof(double));
  }
  return p;
}

static int input_of(const teal_system *sys, const teal_linearize_options *o) {
  int in = o ? o->input_port : TEAL_LINEARIZE_FIRST_PORT;
  return in == TEAL_LINEARIZE_FIRST_PORT ? (teal_system_num_input_ports(sys) ? 0 : -1) : in;
}

teal_system *teal_linearize(const teal_system *sys, const teal_context *ctx,
                            const teal_linearize_options *opts, teal_error *err) {
  teal_linearize_options defaults;
  teal_linearize_options_init(&defaults);
  const teal_linearize_options *o = opts ? opts : &defaults;
  teal_linear_system_matrices m;
  if (teal_linearize_matrices(sys, ctx, o, &m, err) != TEAL_OK) {
    return NULL;
  }
  double *point = operating_point(sys, ctx, &m, input_of(sys, o));
  teal_system *result = NULL;
  if (!point) {
    teal_error_set(err, TEAL_ENOMEM, "linearize: out of memory");
  } else if (o->equilibrium_tolerance > 0 &&
             equilibrium_defect(&m, point, point + m.nx) > o->equilibrium_tolerance) {
    teal_error_set(err, TEAL_EINVAL, "linearize '%s': the context is not an equilibrium "
                   "(defect %.3g > tolerance %.3g); use teal_first_order_taylor_approximation",
                   teal_system_name(sys), equilibrium_defect(&m, point, point + m.nx),
                   o->equilibrium_tolerance);
  } else {
    char name[256];
    result = teal_linear_system_new(result_name(sys, name, sizeof name), m.A, m.B, m.C, m.D,
                                    m.nx, m.nu, m.ny, m.time_period, err);
  }
  teal_free(point);
  teal_linear_system_matrices_free(&m);
  return result;
}

teal_system *teal_first_order_taylor_approximation(const teal_system *sys,
                                                   const teal_context *ctx,
                                                   const teal_linearize_options *opts,
                                                   teal_error *err) {
  teal_linear_system_matrices m;
  if (teal_linearize_matrices(sys, ctx, opts, &m, err) != TEAL_OK) {
    return NULL;
  }
  char name[256];
  teal_system *result = teal_affine_system_from(result_name(sys, name, sizeof name), &m, err);
  teal_linear_system_matrices_free(&m);
  return result;
}

int teal_discretize_zoh(const double *A, const double *B, int n, int m, double h, double *Ad,
                        double *Bd, teal_error *err) {
  if (n < 0 || m < 0 || (n > 0 && (!A || !Ad)) || (n > 0 && m > 0 && (!B || !Bd))) {
    return teal_error_set(err, TEAL_EINVAL, "discretize_zoh: bad arguments (n %d, m %d)", n, m);
  }
  if (!(isfinite(h) && h > 0)) {
    return teal_error_set(err, TEAL_EINVAL, "discretize_zoh: step %g must be positive", h);
  }
  int k = n + m;
  double *M = teal_calloc((size_t)k * (size_t)k * 2 + 1, sizeof(double));
  if (!M) {
    return teal_error_set(err, TEAL_ENOMEM, "discretize_zoh: out of memory");
  }
  double *E = M + (size_t)k * (size_t)k;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      M[(size_t)i * k + j] = A[(size_t)i * n + j] * h;
    }
    for (int j = 0; j < m; j++) {
      M[(size_t)i * k + n + j] = B[(size_t)i * m + j] * h;
    }
  }
  int rc = teal_expm(M, k, E, err);
  for (int i = 0; rc == TEAL_OK && i < n; i++) {
    memcpy(Ad + (size_t)i * n, E + (size_t)i * k, (size_t)n * sizeof(double));
    if (m > 0) {
      memcpy(Bd + (size_t)i * m, E + (size_t)i * k + n, (size_t)m * sizeof(double));
    }
  }
  teal_free(M);
  return rc;
}
