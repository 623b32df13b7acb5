/* The Hermite-Simpson transcription: the defects, their exact Jacobian
 * (the chain rule through the midpoint state x_c) and the Simpson
 * quadrature of the running cost with its gradient. */
#include <math.h>
#include <string.h>

#include "systems/trajectory_optimization/direct_collocation_internal.h"

int dc_num_constraints(const teal_direct_collocation *dc) {
  return (dc->N - 1) * dc->nx;
}

/* Nonzeros of one defect row: h, x_k, x_{k+1}, u_k, u_{k+1}. */
static int row_width(const teal_direct_collocation *dc) {
  return 1 + 2 * dc->nx + 2 * dc->nu;
}

int dc_jacobian_nonzeros(const teal_direct_collocation *dc) {
  return dc_num_constraints(dc) * row_width(dc);
}

int dc_defects(teal_direct_collocation *dc, const double *z, double *g) {
  int rc = dc_evaluate(dc, z, 0);
  if (rc != TEAL_OK) {
    return rc;
  }
  int nx = dc->nx;
  double h = z[0];
  for (int k = 0; k + 1 < dc->N; k++) {
    const double *x0 = z + dc_x_index(dc, k), *x1 = x0 + nx;
    const double *f0 = dc->dyn.f + (size_t)k * nx, *f1 = f0 + nx;
    const double *fc = dc->dyn.fc + (size_t)k * nx;
    for (int i = 0; i < nx; i++) {
      double xdot_c = 1.5 * (x1[i] - x0[i]) / h - 0.25 * (f0[i] + f1[i]);
      g[k * nx + i] = xdot_c - fc[i];
    }
  }
  return TEAL_OK;
}

void dc_jacobian_structure(const teal_direct_collocation *dc, int *rows, int *cols) {
  int nx = dc->nx, nu = dc->nu, at = 0;
  for (int k = 0; k + 1 < dc->N; k++) {
    for (int i = 0; i < nx; i++) {
      int row = k * nx + i;
      rows[at] = row, cols[at++] = 0;
      for (int j = 0; j < 2 * nx; j++) {
        rows[at] = row, cols[at++] = dc_x_index(dc, k) + j;
      }
      for (int j = 0; j < 2 * nu; j++) {
        rows[at] = row, cols[at++] = dc_u_index(dc, k) + j;
      }
    }
  }
}

/* Row i of (M N) for nx x nx M and nx x m N, entry j. */
static double product(const double *M, const double *Nm, int nx, int m, int i, int j) {
  double s = 0.0;
  for (int l = 0; l < nx; l++) {
    s += M[(size_t)i * nx + l] * Nm[(size_t)l * m + j];
  }
  return s;
}

/* The nonzeros of the rows of segment k into v (in structure order). */
static void segment_jacobian(const teal_direct_collocation *dc, const double *z, int k, double *v) {
  int nx = dc->nx, nu = dc->nu;
  double h = z[0];
  size_t sx = (size_t)nx * nx, su = (size_t)nx * nu;
  const dc_dynamics *d = &dc->dyn;
  const double *x0 = z + dc_x_index(dc, k), *x1 = x0 + nx;
  const double *f0 = d->f + (size_t)k * nx, *f1 = f0 + nx;
  const double *A0 = d->A + k * sx, *A1 = A0 + sx, *Ac = d->Ac + k * sx;
  const double *B0 = d->B + k * su, *B1 = B0 + su, *Bc = d->Bc + k * su;
  for (int i = 0; i < nx; i++) {
    double dh = -1.5 * (x1[i] - x0[i]) / (h * h);
    for (int l = 0; l < nx; l++) {
      dh -= 0.125 * Ac[(size_t)i * nx + l] * (f0[l] - f1[l]);
    }
    *v++ = dh;
    for (int j = 0; j < nx; j++) {
      double a = (i == j ? -1.5 / h : 0.0) - 0.25 * A0[(size_t)i * nx + j];
      *v++ = a - 0.5 * Ac[(size_t)i * nx + j] - 0.125 * h * product(Ac, A0, nx, nx, i, j);
    }
    for (int j = 0; j < nx; j++) {
      double a = (i == j ? 1.5 / h : 0.0) - 0.25 * A1[(size_t)i * nx + j];
      *v++ = a - 0.5 * Ac[(size_t)i * nx + j] + 0.125 * h * product(Ac, A1, nx, nx, i, j);
    }
    for (int j = 0; j < nu; j++) {
      double b = -0.25 * B0[(size_t)i * nu + j] - 0.5 * Bc[(size_t)i * nu + j];
      *v++ = b - 0.125 * h * product(Ac, B0, nx, nu, i, j);
    }
    for (int j = 0; j < nu; j++) {
      double b = -0.25 * B1[(size_t)i * nu + j] - 0.5 * Bc[(size_t)i * nu + j];
      *v++ = b + 0.125 * h * product(Ac, B1, nx, nu, i, j);
    }
  }
}

int dc_jacobian_values(teal_direct_collocation *dc, const double *z, double *values) {
  int rc = dc_evaluate(dc, z, 1);
  if (rc != TEAL_OK) {
    return rc;
  }
  int per_segment = dc->nx * row_width(dc);
  for (int k = 0; k + 1 < dc->N; k++) {
    segment_jacobian(dc, z, k, values + (size_t)k * per_segment);
  }
  return TEAL_OK;
}

/* ---- cost ------------------------------------------------------------------ */

/* L(x, u) = u'Ru + user L, with its gradient [gx; gu] into g when set. */
static int point_cost(teal_direct_collocation *dc, const double *x, const double *u, double *L,
                      double *g) {
  int nx = dc->nx, nu = dc->nu;
  double s = 0.0;
  for (int i = 0; i < nu; i++) {
    double ru = 0.0;
    for (int j = 0; j < nu; j++) {
      ru += dc->R[(size_t)i * nu + j] * u[j];
    }
    s += u[i] * ru;
    if (g) {
      g[nx + i] = 2.0 * ru; /* R is symmetric */
    }
  }
  if (g) {
    memset(g, 0, (size_t)nx * sizeof(double));
  }
  *L = s;
  if (!dc->run_fn) {
    return TEAL_OK;
  }
  double user_L = 0.0, *ug = dc->grad_scratch;
  int rc = dc->run_fn(x, u, &user_L, g ? ug : NULL, dc->run_user);
  if (rc != TEAL_OK || !isfinite(user_L)) {
    return teal_error_set(&dc->err, rc != TEAL_OK ? rc : TEAL_ENONFINITE,
                          "direct collocation '%s': the running cost %s", teal_system_name(dc->sys),
                          rc != TEAL_OK ? "failed" : "is not finite");
  }
  *L += user_L;
  for (int i = 0; g && i < nx + nu; i++) {
    g[i] += ug[i];
  }
  return TEAL_OK;
}

/* Adds the gradient of segment k's Simpson term w (L_0 + 4 L_c + L_1),
 * w = h / 6, given the point gradients g0, gc, g1 ([gx; gu] each). */
static void segment_gradient(const teal_direct_collocation *dc, const double *z, int k,
                             const double *g0, const double *gc, const double *g1, double *grad) {
  int nx = dc->nx, nu = dc->nu;
  double h = z[0], w = h / 6.0;
  size_t sx = (size_t)nx * nx, su = (size_t)nx * nu;
  const dc_dynamics *d = &dc->dyn;
  const double *f0 = d->f + (size_t)k * nx, *f1 = f0 + nx;
  const double *A0 = d->A + k * sx, *A1 = A0 + sx, *B0 = d->B + k * su, *B1 = B0 + su;
  double *gx0 = grad + dc_x_index(dc, k), *gx1 = gx0 + nx;
  double *gu0 = grad + dc_u_index(dc, k), *gu1 = gu0 + nu;
  /* x_c = (x0 + x1)/2 + h (f0 - f1)/8 carries L_c's state gradient to
   * h, both knots' states and both knots' inputs; without a user cost
   * that gradient is zero and the dynamics were not evaluated */
  int chain = dc->run_fn != NULL;
  for (int j = 0; j < nx; j++) {
    double a0 = 0.0, a1 = 0.0;
    for (int l = 0; chain && l < nx; l++) {
      a0 += gc[l] * A0[(size_t)l * nx + j];
      a1 += gc[l] * A1[(size_t)l * nx + j];
    }
    gx0[j] += w * (g0[j] + 2.0 * gc[j] + 0.5 * h * a0);
    gx1[j] += w * (g1[j] + 2.0 * gc[j] - 0.5 * h * a1);
    grad[0] += chain ? w * 0.5 * gc[j] * (f0[j] - f1[j]) : 0.0;
  }
  for (int j = 0; j < nu; j++) {
    double b0 = 0.0, b1 = 0.0;
    for (int l = 0; chain && l < nx; l++) {
      b0 += gc[l] * B0[(size_t)l * nu + j];
      b1 += gc[l] * B1[(size_t)l * nu + j];
    }
    gu0[j] += w * (g0[nx + j] + 2.0 * gc[nx + j] + 0.5 * h * b0);
    gu1[j] += w * (g1[nx + j] + 2.0 * gc[nx + j] - 0.5 * h * b1);
  }
}

/* The final cost Phi(x_{N-1}) added to *cost (and its gradient). */
static int final_cost(teal_direct_collocation *dc, const double *z, double *cost, double *grad) {
  if (!dc->fin_fn) {
    return TEAL_OK;
  }
  double v = 0.0;
  int k = dc_x_index(dc, dc->N - 1);
  double *g = dc->grad_scratch;
  int rc = dc->fin_fn(z + k, &v, grad ? g : NULL, dc->fin_user);
  if (rc != TEAL_OK || !isfinite(v)) {
    return teal_error_set(&dc->err, rc != TEAL_OK ? rc : TEAL_ENONFINITE,
                          "direct collocation '%s': the final cost %s", teal_system_name(dc->sys),
                          rc != TEAL_OK ? "failed" : "is not finite");
  }
  *cost += v;
  for (int i = 0; grad && i < dc->nx; i++) {
    grad[k + i] += g[i];
  }
  return TEAL_OK;
}

/* The three Simpson points of segment k: costs into L[3] and gradients
 * into g0, gc, g1 when grad is wanted. */
static int segment_costs(teal_direct_collocation *dc, const double *z, int k, double *L, double *g0,
                         double *gc, double *g1) {
  int nx = dc->nx, nu = dc->nu;
  const double *x0 = z + dc_x_index(dc, k), *u0 = z + dc_u_index(dc, k);
  /* without a user cost, L depends on u only and x_c is not needed */
  const double *xc = dc->run_fn ? dc->dyn.xc + (size_t)k * nx : x0;
  double *uc = dc->grad_scratch + 4 * (nx + nu);
  for (int i = 0; i < nu; i++) {
    uc[i] = 0.5 * (u0[i] + u0[nu + i]);
  }
  int rc = point_cost(dc, x0, u0, &L[0], g0);
  if (rc == TEAL_OK) {
    rc = point_cost(dc, xc, uc, &L[1], gc);
  }
  if (rc == TEAL_OK) {
    rc = point_cost(dc, x0 + nx, u0 + nu, &L[2], g1);
  }
  return rc;
}

int dc_cost(teal_direct_collocation *dc, const double *z, double *cost, double *grad) {
  /* only a (state-dependent) user running cost needs x_c and its Jacobians */
  int rc = dc->run_fn ? dc_evaluate(dc, z, grad != NULL) : TEAL_OK;
  int n = dc->nx + dc->nu;
  double *g0 = grad ? dc->grad_scratch + n : NULL;
  double *gc = grad ? g0 + n : NULL, *g1 = grad ? gc + n : NULL;
  double h = z[0], total = 0.0;
  if (grad) {
    memset(grad, 0, (size_t)dc->nvar * sizeof(double));
  }
  for (int k = 0; rc == TEAL_OK && k + 1 < dc->N; k++) {
    double L[3];
    rc = segment_costs(dc, z, k, L, g0, gc, g1);
    double simpson = (L[0] + 4.0 * L[1] + L[2]) / 6.0;
    total += h * simpson;
    if (rc == TEAL_OK && grad) {
      grad[0] += simpson;
      segment_gradient(dc, z, k, g0, gc, g1, grad);
    }
  }
  if (rc == TEAL_OK) {
    *cost = total;
    rc = final_cost(dc, z, cost, grad);
  }
  return rc;
}
