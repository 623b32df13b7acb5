/* Three-stage Radau IIA (order 5, stiffly accurate, L-stable).
 *
 * Stage equations in increment form, z_i = X_i - x0:
 *   z_i = h sum_j a_ij f(t + c_j h, x0 + z_j),   i = 1..3,
 * with the Radau IIA nodes c = ((4 - sqrt6)/10, (4 + sqrt6)/10, 1) and
 * x1 = x0 + z_3 (c_3 = 1 and b = the last row of A).
 *
 * Solver: simplified Newton on the 3n unknowns with J = df/dx formed once
 * per step at (t, x0) (the ODE's analytic Jacobian, else forward
 * differences) and the real 3n x 3n iteration matrix I - h (A (x) J)
 * factored once per step. Production codes diagonalize A^-1 into one real
 * and one complex n x n system, which is about 5x cheaper to factor for
 * large n; the plain real system is chosen here for simplicity (Teal's
 * continuous states are small) and solves the same iteration.
 * The iteration starts from the previous step's collocation polynomial
 * when the step continues the last one, else from z = 0. It stops when the
 * weighted increment max |dz_ik| / (1 + |x0_k|), or its extrapolation
 * rate / (1 - rate) * |dz| over the observed contraction rate, is below
 * the tolerance 1e-12 (the integrator does not know the simulator's
 * accuracy; 1e-10 let the iteration error show above the O(h^6) local
 * error at small steps, and on Robertson's problem 1e-12 costs about 4.4
 * instead of 3.2 iterations per step). It fails with TEAL_ENOCONV after
 * NEWTON_MAX_ITERATIONS, on a contraction rate near 1, when the rate cannot
 * reach the tolerance in the iterations left, or on a non-finite iterate
 * (all of which a smaller step may cure; the simulator retries).
 *
 * Error estimate (error order 3): the embedded third-order solution of
 * Hairer & Wanner (Solving ODEs II, IV.8), which adds the node 0 with
 * weight gamma0 (the real eigenvalue of A). Its difference to x1,
 *   gamma0 h f(x0) + e1 z1 + e2 z2 + e3 z3,  e = gamma0 (-(13 + 7 sqrt6)/3,
 *   (-13 + 7 sqrt6)/3, -1/3),
 * is O(h^4); it is returned filtered by (I - h gamma0 J)^-1 (another n x n
 * factorization when xerr is requested), which keeps it bounded on stiff
 * components while leaving it unchanged to leading order for small h J.
 *
 * Dense output: the collocation polynomial through x0 and the three stage
 * values (degree 3; exact at theta = 0 and 1). */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense_lu.h"
#include "systems/analysis/integrator_internal.h"
#include "systems/analysis/integrator_radau.h"

enum { NEWTON_MAX_ITERATIONS = 10, STAGES = 3 };
static const double newton_tolerance = 1e-12;
static const double divergence_rate = 0.99;

/* sqrt(6) and the derived coefficients, to double precision */
#define SQ6 2.449489742783178098197284
static const double cnode[STAGES] = {(4.0 - SQ6) / 10.0, (4.0 + SQ6) / 10.0, 1.0};
static const double ra[STAGES][STAGES] = {
    {(88.0 - 7.0 * SQ6) / 360.0, (296.0 - 169.0 * SQ6) / 1800.0, (-2.0 + 3.0 * SQ6) / 225.0},
    {(296.0 + 169.0 * SQ6) / 1800.0, (88.0 + 7.0 * SQ6) / 360.0, (-2.0 - 3.0 * SQ6) / 225.0},
    {(16.0 - SQ6) / 36.0, (16.0 + SQ6) / 36.0, 1.0 / 9.0}};
/* gamma0 = (6 + 81^(1/3) - 9^(1/3)) / 30, the real eigenvalue of A */
static const double gamma0 = 0.2748888295956773;
static const double rd[STAGES] = {-(13.0 + 7.0 * SQ6) / 3.0, (-13.0 + 7.0 * SQ6) / 3.0,
                                  -1.0 / 3.0};

typedef struct radau_work {
  int n;
  double *J;  /* n x n: df/dx at (t, x0) */
  double *M;  /* 3n x 3n: I - h (A (x) J), LU-factored */
  double *E;  /* n x n: I - h gamma0 J, LU-factored (error estimate) */
  int *piv_m, *piv_e;
  double *f0, *xs, *fp; /* f(t, x0), a stage state, a differenced f */
  double *F, *z, *dz;   /* 3n each: stage derivatives, increments, correction */
  /* the last successful step (dense output, starting values) */
  double *d_x0, *d_x1, *d_z;
  double d_t, d_h;
} radau_work;

static void *radau_alloc(int nq, int nv, int nz) {
  size_t n = (size_t)nq + (size_t)nv + (size_t)nz;
  radau_work *w = teal_calloc(1, sizeof *w);
  double *mem = teal_calloc(11 * n * n + 17 * n + 1, sizeof(double));
  int *piv = teal_calloc(4 * n + 1, sizeof(int));
  if (!w || !mem || !piv) {
    teal_free(w);
    teal_free(mem);
    teal_free(piv);
    return NULL;
  }
  w->n = (int)n;
  w->J = mem;
  w->M = w->J + n * n;
  w->E = w->M + 9 * n * n;
  w->f0 = w->E + n * n;
  w->xs = w->f0 + n;
  w->fp = w->xs + n;
  w->F = w->fp + n;
  w->z = w->F + 3 * n;
  w->dz = w->z + 3 * n;
  w->d_x0 = w->dz + 3 * n;
  w->d_x1 = w->d_x0 + n;
  w->d_z = w->d_x1 + n;
  w->piv_m = piv;
  w->piv_e = piv + 3 * n;
  return w;
}

static void radau_free(void *work) {
  radau_work *w = work;
  if (w) {
    teal_free(w->J);
    teal_free(w->piv_m);
    teal_free(w);
  }
}

/* J = df/dx at (t, x) with f(t, x) = fx given: analytic, or forward
 * differences column by column. */
static int form_jacobian(teal_integrator *integ, radau_work *w, const teal_ode *ode, double t,
                         const double *x, const double *fx) {
  return teal_integrator_jacobian(integ, ode, t, x, fx, w->xs, w->fp, w->J);
}

/* M = I - h (A (x) J): block (i, j) is delta_ij I - h a_ij J. */
static int factor_iteration_matrix(teal_integrator *integ, radau_work *w, double h) {
  int n = w->n;
  size_t N = 3 * (size_t)n;
  for (int bi = 0; bi < STAGES; bi++) {
    for (int bj = 0; bj < STAGES; bj++) {
      double ha = h * ra[bi][bj];
      for (int r = 0; r < n; r++) {
        double *row = w->M + ((size_t)bi * n + r) * N + (size_t)bj * n;
        const double *jrow = w->J + (size_t)r * n;
        for (int c = 0; c < n; c++) {
          row[c] = (bi == bj && r == c ? 1.0 : 0.0) - ha * jrow[c];
        }
      }
    }
  }
  integ->counts.factorizations++;
  return teal_dense_lu_factor(w->M, (int)N, w->piv_m, &integ->err);
}

/* Lagrange basis of the collocation polynomial at theta (nodes 0, c1, c2,
 * c3; the node-0 term multiplies a zero increment and is left out). */
static void collocation_basis(double theta, double L[STAGES]) {
  for (int i = 0; i < STAGES; i++) {
    double num = theta, den = cnode[i];
    for (int j = 0; j < STAGES; j++) {
      if (j != i) {
        num *= theta - cnode[j];
        den *= cnode[i] - cnode[j];
      }
    }
    L[i] = num / den;
  }
}

/* Starting values: the last step's collocation polynomial extrapolated to
 * the new stage times when this step continues it, else zero. */
static void starting_values(const teal_integrator *integ, radau_work *w, double t, double h,
                            const double *x0) {
  int n = w->n;
  size_t N = 3 * (size_t)n;
  int continues = integ->have_step && fabs(t - (w->d_t + w->d_h)) <= 1e-12 * (fabs(t) + w->d_h);
  for (int k = 0; continues && k < n; k++) {
    continues = x0[k] == w->d_x1[k];
  }
  if (!continues) {
    memset(w->z, 0, N * sizeof(double));
    return;
  }
  for (int i = 0; i < STAGES; i++) {
    double L[STAGES];
    collocation_basis(1.0 + cnode[i] * h / w->d_h, L);
    double *zi = w->z + (size_t)i * n;
    for (int k = 0; k < n; k++) {
      /* u_old(t + c_i h) - x1_old with x1_old = x0_old + z3_old */
      zi[k] = L[0] * w->d_z[k] + L[1] * w->d_z[n + k] + L[2] * w->d_z[2 * (size_t)n + k] -
              w->d_z[2 * (size_t)n + k];
    }
  }
}

static int diverged(teal_integrator *integ, double t, double h, int it, const char *why) {
  return teal_error_set(&integ->err, TEAL_ENOCONV, "radau3: simplified Newton iterations %s "
                        "(iteration %d) at t = %g, h = %g", why, it + 1, t, h);
}

/* Simplified Newton iterations on the stage equations from the starting
 * values in z. */
static int solve_stages(teal_integrator *integ, radau_work *w, const teal_ode *ode, double t,
                        double h, const double *x0) {
  int n = w->n;
  size_t N = 3 * (size_t)n;
  double previous = 0.0;
  for (int it = 0; it < NEWTON_MAX_ITERATIONS; it++) {
    integ->counts.newton_iterations++;
    for (int i = 0; i < STAGES; i++) {
      const double *zi = w->z + (size_t)i * n;
      for (int k = 0; k < n; k++) {
        w->xs[k] = x0[k] + zi[k];
      }
      double ti = t + cnode[i] * h;
      int rc_eval = teal_integrator_eval(integ, ode, ti, w->xs, w->F + (size_t)i * n);
      if (rc_eval) {
        return rc_eval;
      }
    }
    /* dz = -(z - h (A (x) I) F) */
    for (int i = 0; i < STAGES; i++) {
      for (int k = 0; k < n; k++) {
        double s = 0.0;
        for (int j = 0; j < STAGES; j++) {
          s += ra[i][j] * w->F[(size_t)j * n + k];
        }
        w->dz[(size_t)i * n + k] = h * s - w->z[(size_t)i * n + k];
      }
    }
    int rc_solve = teal_dense_lu_solve(w->M, (int)N, w->piv_m, w->dz, &integ->err);
    if (rc_solve == TEAL_ENONFINITE) {
      return diverged(integ, t, h, it, "gave a non-finite iterate");
    }
    if (rc_solve) {
      return rc_solve;
    }
    double norm = 0.0;
    for (size_t m = 0; m < N; m++) {
      w->z[m] += w->dz[m];
      norm = fmax(norm, fabs(w->dz[m]) / (1.0 + fabs(x0[m % (size_t)n])));
    }
    if (!isfinite(norm)) {
      return diverged(integ, t, h, it, "gave a non-finite iterate");
    }
    if (norm <= newton_tolerance) {
      return TEAL_OK;
    }
    if (it > 0) {
      double rate = norm / previous;
      if (rate >= divergence_rate) {
        return diverged(integ, t, h, it, "diverge");
      }
      if (rate / (1.0 - rate) * norm <= newton_tolerance) {
        return TEAL_OK;
      }
      /* the rate cannot reach the tolerance in the iterations left */
      if (pow(rate, NEWTON_MAX_ITERATIONS - 1 - it) / (1.0 - rate) * norm > newton_tolerance) {
        return diverged(integ, t, h, it, "converge too slowly");
      }
    }
    previous = norm;
  }
  return diverged(integ, t, h, NEWTON_MAX_ITERATIONS - 1, "did not converge");
}

/* xerr = (I - h gamma0 J)^-1 (gamma0 h f0 + sum_i gamma0 d_i z_i). */
static int error_estimate(teal_integrator *integ, radau_work *w, double h, double *xerr) {
  int n = w->n;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      w->E[(size_t)i * n + j] = (i == j ? 1.0 : 0.0) - h * gamma0 * w->J[(size_t)i * n + j];
    }
  }
  integ->counts.factorizations++;
  int rc_f = teal_dense_lu_factor(w->E, n, w->piv_e, &integ->err);
  if (rc_f) {
    return rc_f;
  }
  for (int k = 0; k < n; k++) {
    double s = h * w->f0[k];
    for (int i = 0; i < STAGES; i++) {
      s += rd[i] * w->z[(size_t)i * n + k];
    }
    xerr[k] = gamma0 * s;
  }
  return teal_dense_lu_solve(w->E, n, w->piv_e, xerr, &integ->err);
}

static int radau_step(teal_integrator *integ, const teal_ode *ode, double t, double h,
                      const double *x0, double *x1, double *xerr) {
  radau_work *w = integ->work;
  int n = w->n;
  int rc_s = teal_integrator_eval(integ, ode, t, x0, w->f0);
  if (rc_s) {
    return rc_s;
  }
  for (int k = 0; k < n; k++) {
    if (!isfinite(w->f0[k])) {
      return teal_error_set(&integ->err, TEAL_ENONFINITE, "radau3: derivative %d is not "
                            "finite at t = %g", k, t);
    }
  }
  rc_s = form_jacobian(integ, w, ode, t, x0, w->f0);
  if (rc_s == TEAL_OK) {
    rc_s = factor_iteration_matrix(integ, w, h);
  }
  if (rc_s == TEAL_OK) {
    starting_values(integ, w, t, h, x0);
    rc_s = solve_stages(integ, w, ode, t, h, x0);
  }
  if (rc_s == TEAL_OK && xerr) {
    rc_s = error_estimate(integ, w, h, xerr);
  }
  if (rc_s) {
    return rc_s;
  }
  for (int k = 0; k < n; k++) {
    x1[k] = x0[k] + w->z[2 * (size_t)n + k];
  }
  memcpy(w->d_x0, x0, (size_t)n * sizeof(double));
  memcpy(w->d_x1, x1, (size_t)n * sizeof(double));
  memcpy(w->d_z, w->z, 3 * (size_t)n * sizeof(double));
  w->d_t = t;
  w->d_h = h;
  return TEAL_OK;
}

/* x(t + theta h) = x0 + sum_i L_i(theta) z_i */
static int radau_interpolate(const teal_integrator *integ, double theta, double *x) {
  const radau_work *w = integ->work;
  int n = w->n;
  double L[STAGES];
  collocation_basis(theta, L);
  for (int k = 0; k < n; k++) {
    x[k] = w->d_x0[k] + (L[0] * w->d_z[k] + L[1] * w->d_z[n + k] +
                         L[2] * w->d_z[2 * (size_t)n + k]);
  }
  return TEAL_OK;
}

static const teal_integrator_type radau_type = {
    "radau3", 5, 3, 1, radau_alloc, radau_step, radau_interpolate, radau_free};

const teal_integrator_type *const teal_integrator_radau3 = &radau_type;
