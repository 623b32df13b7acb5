/* Explicit Runge-Kutta methods from Butcher tableaux (Euler, Heun RK2,
 * Bogacki-Shampine RK3, classic RK4, Dormand-Prince RK45 with dense
 * output) and semi-explicit (symplectic) Euler. */
#include <string.h>

#include "framework/alloc.h"
#include "systems/analysis/integrator_internal.h"
#include "systems/analysis/integrators_explicit.h"

enum { RK_MAX_STAGES = 7 };

typedef struct rk_tableau {
  int stages;
  const double *c; /* stage times */
  const double *a; /* stages x stages, strictly lower triangular, row-major */
  const double *b; /* solution weights */
  const double *e; /* error weights (b - embedded b), NULL when none */
} rk_tableau;

/* Workspace: stage derivatives, stage state, and the last step for dense
 * output. */
typedef struct rk_work {
  int n;
  double *k[RK_MAX_STAGES];
  double *xs, *x0, *x1;
  double h;
} rk_work;

static void *rk_alloc(int nq, int nv, int nz) {
  int n = nq + nv + nz;
  rk_work *w = teal_calloc(1, sizeof *w);
  double *mem = teal_calloc((size_t)(RK_MAX_STAGES + 3) * (size_t)(n + 1), sizeof(double));
  if (!w || !mem) {
    teal_free(w);
    teal_free(mem);
    return NULL;
  }
  w->n = n;
  for (int s = 0; s < RK_MAX_STAGES; s++) {
    w->k[s] = mem + (size_t)s * (size_t)(n + 1);
  }
  w->xs = mem + (size_t)RK_MAX_STAGES * (size_t)(n + 1);
  w->x0 = w->xs + n + 1;
  w->x1 = w->x0 + n + 1;
  return w;
}

static void rk_free(void *work) {
  rk_work *w = work;
  if (w) {
    teal_free(w->k[0]);
    teal_free(w);
  }
}

/* xs = x0 + h * sum_j a[s][j] k[j] */
static void stage_state(const rk_tableau *tab, const rk_work *w, int s, double h,
                        const double *x0) {
  memcpy(w->xs, x0, (size_t)w->n * sizeof(double));
  for (int j = 0; j < s; j++) {
    double ha = h * tab->a[s * tab->stages + j];
    if (ha == 0.0) {
      continue;
    }
    const double *kj = w->k[j];
    for (int i = 0; i < w->n; i++) {
      w->xs[i] += ha * kj[i];
    }
  }
}

static int rk_step(teal_integrator *integ, const rk_tableau *tab, const teal_ode *ode, double t,
                   double h, const double *x0, double *x1, double *xerr) {
  rk_work *w = integ->work;
  int n = w->n;
  for (int s = 0; s < tab->stages; s++) {
    stage_state(tab, w, s, h, x0);
    int rc = teal_integrator_eval(integ, ode, t + tab->c[s] * h, w->xs, w->k[s]);
    if (rc) {
      return rc;
    }
  }
  for (int i = 0; i < n; i++) {
    double sum = 0.0, err = 0.0;
    for (int s = 0; s < tab->stages; s++) {
      sum += tab->b[s] * w->k[s][i];
      err += tab->e ? tab->e[s] * w->k[s][i] : 0.0;
    }
    x1[i] = x0[i] + h * sum;
    if (xerr) {
      xerr[i] = h * err;
    }
  }
  memcpy(w->x0, x0, (size_t)n * sizeof(double));
  memcpy(w->x1, x1, (size_t)n * sizeof(double));
  w->h = h;
  return TEAL_OK;
}

/* ---- tableaux ----------------------------------------------------------- */

static const double euler_c[] = {0.0};
static const double euler_a[] = {0.0};
static const double euler_b[] = {1.0};
static const rk_tableau euler_tab = {1, euler_c, euler_a, euler_b, NULL};

static const double heun_c[] = {0.0, 1.0};
static const double heun_a[] = {0.0, 0.0, 1.0, 0.0};
static const double heun_b[] = {0.5, 0.5};
static const double heun_e[] = {-0.5, 0.5}; /* Heun minus Euler */
static const rk_tableau heun_tab = {2, heun_c, heun_a, heun_b, heun_e};

/* Bogacki-Shampine: the fourth stage f(t + h, x1) serves only the estimate */
static const double bs_c[] = {0.0, 0.5, 0.75, 1.0};
static const double bs_a[] = {0.0,       0.0,       0.0,       0.0,  /**/
                              0.5,       0.0,       0.0,       0.0,  /**/
                              0.0,       0.75,      0.0,       0.0,  /**/
                              2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0, 0.0};
static const double bs_b[] = {2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0, 0.0};
static const double bs_e[] = {2.0 / 9.0 - 7.0 / 24.0, 1.0 / 3.0 - 0.25, 4.0 / 9.0 - 1.0 / 3.0,
                              -0.125};
static const rk_tableau bs_tab = {4, bs_c, bs_a, bs_b, bs_e};

static const double rk4_c[] = {0.0, 0.5, 0.5, 1.0};
static const double rk4_a[] = {0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0,
                               0.0, 0.5, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0};
static const double rk4_b[] = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};
static const rk_tableau rk4_tab = {4, rk4_c, rk4_a, rk4_b, NULL};

static const double dp_c[] = {0.0, 0.2, 0.3, 0.8, 8.0 / 9.0, 1.0, 1.0};
static const double dp_a[] = {
    0.0,           0.0,            0.0,           0.0,         0.0,            0.0,     0.0,
    0.2,           0.0,            0.0,           0.0,         0.0,            0.0,     0.0,
    3.0 / 40,      9.0 / 40,       0.0,           0.0,         0.0,            0.0,     0.0,
    44.0 / 45,     -56.0 / 15,     32.0 / 9,      0.0,         0.0,            0.0,     0.0,
    19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729, 0.0,          0.0,     0.0,
    9017.0 / 3168, -355.0 / 33,    46732.0 / 5247, 49.0 / 176,  -5103.0 / 18656, 0.0,     0.0,
    35.0 / 384,    0.0,            500.0 / 1113,  125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0.0};
static const double dp_b[] = {35.0 / 384, 0.0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784,
                              11.0 / 84,  0.0};
static const double dp_e[] = {71.0 / 57600,     0.0,         -71.0 / 16695, 71.0 / 1920,
                              -17253.0 / 339200, 22.0 / 525, -1.0 / 40};
static const rk_tableau dp_tab = {7, dp_c, dp_a, dp_b, dp_e};

static int euler_step(teal_integrator *i, const teal_ode *o, double t, double h, const double *x0,
                      double *x1, double *e) {
  return rk_step(i, &euler_tab, o, t, h, x0, x1, e);
}
static int heun_step(teal_integrator *i, const teal_ode *o, double t, double h, const double *x0,
                     double *x1, double *e) {
  return rk_step(i, &heun_tab, o, t, h, x0, x1, e);
}
static int bs_step(teal_integrator *i, const teal_ode *o, double t, double h, const double *x0,
                   double *x1, double *e) {
  return rk_step(i, &bs_tab, o, t, h, x0, x1, e);
}
static int rk4_step(teal_integrator *i, const teal_ode *o, double t, double h, const double *x0,
                    double *x1, double *e) {
  return rk_step(i, &rk4_tab, o, t, h, x0, x1, e);
}
static int dp_step(teal_integrator *i, const teal_ode *o, double t, double h, const double *x0,
                   double *x1, double *e) {
  return rk_step(i, &dp_tab, o, t, h, x0, x1, e);
}

/* Dormand-Prince continuous extension (Hairer, Norsett & Wanner's dense
 * output of order 4): x(theta) = r1 + theta (r2 + (1 - theta) (r3 + theta
 * (r4 + (1 - theta) r5))). */
static int dp_interpolate(const teal_integrator *integ, double theta, double *x) {
  static const double d[7] = {-12715105075.0 / 11282082432.0, 0.0,
                              87487479700.0 / 32700410799.0,  -10690763975.0 / 1880347072.0,
                              701980252875.0 / 199316789632.0, -1453857185.0 / 822651844.0,
                              69997945.0 / 29380423.0};
  const rk_work *w = integ->work;
  double t1 = 1.0 - theta;
  for (int i = 0; i < w->n; i++) {
    double r2 = w->x1[i] - w->x0[i];
    double r3 = w->h * w->k[0][i] - r2;
    double r4 = r2 - w->h * w->k[6][i] - r3;
    double r5 = 0.0;
    for (int s = 0; s < 7; s++) {
      r5 += d[s] * w->k[s][i];
    }
    r5 *= w->h;
    x[i] = w->x0[i] + theta * (r2 + t1 * (r3 + theta * (r4 + t1 * r5)));
  }
  return TEAL_OK;
}

/* Linear interpolation between the step's ends (for the lower orders). */
static int linear_interpolate(const teal_integrator *integ, double theta, double *x) {
  const rk_work *w = integ->work;
  teal_integrator_lerp(w->n, w->x0, w->x1, theta, x);
  return TEAL_OK;
}

/* Semi-explicit Euler: v1 = v0 + h vdot, z1 = z0 + h zdot, q1 = q0 + h N(q0) v1. */
static int semi_explicit_step(teal_integrator *integ, const teal_ode *ode, double t, double h,
                              const double *x0, double *x1, double *xerr) {
  (void)xerr;
  rk_work *w = integ->work;
  int nq = ode->nq, nv = ode->nv, n = w->n;
  double *xdot = w->k[0], *qdot = w->k[1];
  int rc = teal_integrator_eval(integ, ode, t, x0, xdot);
  if (rc) {
    return rc;
  }
  for (int i = nq; i < n; i++) {
    x1[i] = x0[i] + h * xdot[i];
  }
  if (ode->v_to_qdot) {
    rc = ode->v_to_qdot(t, x0, x1 + nq, qdot, ode->user);
  } else {
    memcpy(qdot, x1 + nq, (size_t)nv * sizeof(double));
  }
  for (int i = 0; rc == TEAL_OK && i < nq; i++) {
    x1[i] = x0[i] + h * qdot[i];
  }
  memcpy(w->x0, x0, (size_t)n * sizeof(double));
  memcpy(w->x1, x1, (size_t)n * sizeof(double));
  w->h = h;
  return rc;
}

static const teal_integrator_type euler_type = {
    "explicit_euler", 1, 0, 0, rk_alloc, euler_step, linear_interpolate, rk_free};
static const teal_integrator_type semi_explicit_type = {
    "semi_explicit_euler", 1, 0, 0, rk_alloc, semi_explicit_step, linear_interpolate, rk_free};
static const teal_integrator_type heun_type = {
    "rk2", 2, 1, 0, rk_alloc, heun_step, linear_interpolate, rk_free};
static const teal_integrator_type bs_type = {
    "rk3", 3, 2, 0, rk_alloc, bs_step, linear_interpolate, rk_free};
static const teal_integrator_type rk4_type = {
    "rk4", 4, 0, 0, rk_alloc, rk4_step, linear_interpolate, rk_free};
static const teal_integrator_type dp_type = {
    "rk45", 5, 4, 0, rk_alloc, dp_step, dp_interpolate, rk_free};

const teal_integrator_type *const teal_integrator_explicit_euler = &euler_type;
const teal_integrator_type *const teal_integrator_semi_explicit_euler = &semi_explicit_type;
const teal_integrator_type *const teal_integrator_rk2 = &heun_type;
const teal_integrator_type *const teal_integrator_rk3 = &bs_type;
const teal_integrator_type *const teal_integrator_rk4 = &rk4_type;
const teal_integrator_type *const teal_integrator_rk45 = &dp_type;
