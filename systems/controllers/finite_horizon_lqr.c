/* Finite-horizon LQR: argument checks, the nominal, the linearization along
 * it, and the dispatch to the continuous or discrete Riccati solve. */
#include "systems/controllers/finite_horizon_lqr.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/ports.h"
#include "solvers/dense_basic.h"
#include "solvers/dense_eigen.h"
#include "solvers/dense_factor.h"
#include "systems/controllers/finite_horizon_lqr_internal.h"

#define FH "finite_horizon_lqr"

void teal_finite_horizon_lqr_options_init(teal_finite_horizon_lqr_options *opts) {
  if (opts) {
    memset(opts, 0, sizeof *opts);
    opts->rtol = 1e-10;
    opts->atol = 1e-12;
    opts->max_steps = 100000;
  }
}

void teal_finite_horizon_lqr_result_free(teal_finite_horizon_lqr_result *result) {
  if (result) {
    teal_piecewise_polynomial_free(result->x0);
    teal_piecewise_polynomial_free(result->u0);
    teal_piecewise_polynomial_free(result->K);
    teal_piecewise_polynomial_free(result->S);
    teal_piecewise_polynomial_free(result->k0);
    teal_piecewise_polynomial_free(result->sx);
    teal_piecewise_polynomial_free(result->s0);
    memset(result, 0, sizeof *result);
  }
}

/* ---- checks --------------------------------------------------------------- */

/* M symmetric positive semidefinite (eigenvalues >= -tol max(1, |M|)). */
static int check_psd(const double *M, int n, const char *what, teal_error *err) {
  if (!teal_dense_all_finite(M, n, n)) {
    return teal_error_set(err, TEAL_ENONFINITE, FH ": %s has a NaN or infinite entry", what);
  }
  if (!teal_dense_is_symmetric(M, n, 1e-10)) {
    return teal_error_set(err, TEAL_EINVAL, FH ": %s is not symmetric", what);
  }
  double *w = teal_calloc((size_t)n + 1, sizeof(double));
  if (!w) {
    return teal_error_set(err, TEAL_ENOMEM, FH ": out of memory");
  }
  int rc = teal_dense_sym_eigen(M, n, w, NULL, err);
  double tol = 1e-10 * fmax(1.0, teal_dense_norm_fro(M, n, n));
  if (rc == TEAL_OK && w[0] < -tol) {
    rc = teal_error_set(err, TEAL_EINVAL, FH ": %s is not positive semidefinite (eigenvalue %g)",
                        what, w[0]);
  }
  teal_free(w);
  return rc;
}

/* R symmetric positive definite (a Cholesky factor exists). */
static int check_r(const double *R, int m, teal_error *err) {
  if (!teal_dense_all_finite(R, m, m)) {
    return teal_error_set(err, TEAL_ENONFINITE, FH ": R has a NaN or infinite entry");
  }
  if (!teal_dense_is_symmetric(R, m, 1e-10)) {
    return teal_error_set(err, TEAL_EINVAL, FH ": R is not symmetric");
  }
  double *L = teal_calloc((size_t)m * (size_t)m, sizeof(double));
  if (!L) {
    return teal_error_set(err, TEAL_ENOMEM, FH ": out of memory");
  }
  memcpy(L, R, (size_t)m * (size_t)m * sizeof(double));
  int rc = teal_dense_cholesky_factor(L, m, err);
  teal_free(L);
  if (rc == TEAL_ESINGULAR) {
    rc = teal_error_set(err, rc, FH ": R is not positive definite (singular or indefinite)");
  }
  return rc;
}

static int check_costs(const fhlqr_problem *p, teal_error *err) {
  int rc = check_psd(p->Q, p->n, "Q", err);
  if (rc == TEAL_OK && p->Qf) {
    rc = check_psd(p->Qf, p->n, "Qf", err);
  }
  if (rc == TEAL_OK && p->N && !teal_dense_all_finite(p->N, p->n, p->m)) {
    rc = teal_error_set(err, TEAL_ENONFINITE, FH ": N has a NaN or infinite entry");
  }
  return rc ? rc : check_r(p->R, p->m, err);
}

static int check_options(const teal_finite_horizon_lqr_options *o, teal_error *err) {
  if (!(o->rtol > 0.0) || !isfinite(o->rtol) || !(o->atol >= 0.0) || !isfinite(o->atol)) {
    return teal_error_set(err, TEAL_EINVAL, FH ": rtol = %g must be > 0 and atol = %g >= 0",
                          o->rtol, o->atol);
  }
  if (o->max_steps < 1) {
    return teal_error_set(err, TEAL_EINVAL, FH ": max_steps = %d must be >= 1", o->max_steps);
  }
  return TEAL_OK;
}

static int check_times(double t0, double tf, teal_error *err) {
  if (!isfinite(t0) || !isfinite(tf)) {
    return teal_error_set(err, TEAL_ENONFINITE, FH ": t0 = %g and tf = %g must be finite", t0, tf);
  }
  return t0 < tf ? TEAL_OK
                 : teal_error_set(err, TEAL_EINVAL, FH ": t0 = %g must be < tf = %g", t0, tf);
}

/* A nominal trajectory of rows components that covers [t0, tf]. */
static int check_nominal(const teal_piecewise_polynomial *pp, const char *what, int rows, double t0,
                         double tf, teal_error *err) {
  if (teal_piecewise_polynomial_rows(pp) != rows) {
    return teal_error_set(err, TEAL_EINVAL, FH ": %s has %d rows, the plant needs %d", what,
                          teal_piecewise_polynomial_rows(pp), rows);
  }
  double a = teal_piecewise_polynomial_start_time(pp);
  double b = teal_piecewise_polynomial_end_time(pp);
  double tol = 1e-12 * fmax(1.0, fmax(fabs(t0), fabs(tf)));
  if (a > t0 + tol || b < tf - tol) {
    return teal_error_set(err, TEAL_EINVAL,
                          FH ": %s covers [%g, %g], shorter than the horizon [%g, %g]", what, a, b,
                          t0, tf);
  }
  return TEAL_OK;
}

/* A discrete horizon is a whole number of periods. */
static int check_periods(const fhlqr_problem *p, teal_error *err) {
  double k = (p->tf - p->t0) / p->period;
  if (fabs(k - round(k)) > 1e-9 * fmax(1.0, k) || round(k) < 1.0) {
    return teal_error_set(err, TEAL_EINVAL,
                          FH ": the horizon [%g, %g] is not a whole number of periods %g", p->t0,
                          p->tf, p->period);
  }
  return TEAL_OK;
}

/* ---- the nominal -------------------------------------------------------- */

/* v held constant over [t0, tf]. */
static teal_piecewise_polynomial *constant(const double *v, int rows, double t0, double tf,
                                           teal_error *err) {
  double *samples = teal_calloc(2 * (size_t)rows, sizeof(double));
  if (!samples) {
    teal_error_set(err, TEAL_ENOMEM, FH ": out of memory");
    return NULL;
  }
  memcpy(samples, v, (size_t)rows * sizeof(double));
  memcpy(samples + rows, v, (size_t)rows * sizeof(double));
  double breaks[2] = {t0, tf};
  teal_piecewise_polynomial *pp =
      teal_piecewise_polynomial_zero_order_hold(breaks, samples, 2, rows, err);
  teal_free(samples);
  return pp;
}

/* The context's state, for a nominal x0 that opts leave out. */
static teal_piecewise_polynomial *state_of(const fhlqr_problem *p, const teal_context *ctx,
                                           teal_error *err) {
  double *x = teal_calloc((size_t)p->n, sizeof(double));
  if (!x) {
    teal_error_set(err, TEAL_ENOMEM, FH ": out of memory");
    return NULL;
  }
  if (p->period > 0) {
    memcpy(x, teal_context_discrete_state(ctx), (size_t)p->n * sizeof(double));
  } else {
    teal_context_get_continuous_state(ctx, x, p->n);
  }
  teal_piecewise_polynomial *pp = constant(x, p->n, p->t0, p->tf, err);
  teal_free(x);
  return pp;
}

/* The value on the input port, for a nominal u0 that opts leave out. */
static teal_piecewise_polynomial *input_of(const fhlqr_problem *p, const teal_context *ctx,
                                           int port, teal_error *err) {
  const double *u = NULL;
  if (teal_eval_vector_input(p->sys, ctx, port, &u) != TEAL_OK) {
    teal_error_set(err, TEAL_EINVAL, FH ": no u0 given and input port %d has no value (%s)", port,
                   teal_context_error(ctx)->message);
    return NULL;
  }
  return constant(u, p->m, p->t0, p->tf, err);
}

/* Copies (or makes constant) the nominal into r and checks it. */
static int nominal(fhlqr_problem *p, const teal_context *ctx,
                   const teal_finite_horizon_lqr_options *o, teal_finite_horizon_lqr_result *r,
                   teal_error *err) {
  r->x0 = o->x0 ? teal_piecewise_polynomial_copy(o->x0, err) : state_of(p, ctx, err);
  if (!r->x0) {
    return err ? err->code : TEAL_ENOMEM;
  }
  r->u0 = o->u0 ? teal_piecewise_polynomial_copy(o->u0, err) : input_of(p, ctx, o->input_port, err);
  if (!r->u0) {
    return err ? err->code : TEAL_EINVAL;
  }
  int rc = check_nominal(r->x0, "x0", p->n, p->t0, p->tf, err);
  rc = rc ? rc : check_nominal(r->u0, "u0", p->m, p->t0, p->tf, err);
  p->x0 = r->x0;
  p->u0 = r->u0;
  return rc;
}

/* ---- the linearization -------------------------------------------------- */

/* c = f(x0(t), u0(t)) - x0'(t), or - x0(t + h) for a discrete plant: zero
 * when the nominal satisfies the dynamics. p->f holds f. */
static int defect(fhlqr_problem *p, double t) {
  int rc = p->period > 0 ? teal_piecewise_polynomial_value(p->x0, t + p->period, p->c)
                         : teal_piecewise_polynomial_derivative(p->x0, t, 1, p->c);
  for (int i = 0; i < p->n; i++) {
    p->c[i] = p->f[i] - p->c[i];
  }
  return rc;
}

int fhlqr_linearize(fhlqr_problem *p, double t) {
  int n = p->n, m = p->m;
  teal_piecewise_polynomial_value(p->x0, t, p->point);
  teal_piecewise_polynomial_value(p->u0, t, p->point + n);
  teal_context *c = teal_state_space_evaluator_context(p->ev);
  int rc = teal_context_set_time(c, t);
  /* evaluating the map puts x0(t), u0(t) into its context */
  rc = rc ? rc : teal_state_space_evaluator_eval(p->ev, p->point, p->point + n, p->f, NULL);
  if (rc != TEAL_OK) {
    return teal_error_set(p->err, rc, FH ": the plant fails at the nominal at t = %g: %s", t,
                          teal_context_error(c)->message);
  }
  teal_linear_system_matrices lm;
  rc = teal_linearize_matrices(p->sys, c, &p->lin, &lm, p->err);
  if (rc == TEAL_OK) {
    memcpy(p->A, lm.A, (size_t)n * (size_t)n * sizeof(double));
    memcpy(p->B, lm.B, (size_t)n * (size_t)m * sizeof(double));
    teal_linear_system_matrices_free(&lm);
    rc = defect(p, t);
  }
  return rc;
}

/* ---- setup and the entry point ------------------------------------------ */

static int allocate(fhlqr_problem *p, teal_error *err) {
  size_t n = (size_t)p->n, m = (size_t)p->m;
  p->work = teal_calloc(3 * n * n + 5 * n * m + m * m + 4 * n + 3 * m + 1, sizeof(double));
  if (!p->work) {
    return teal_error_set(err, TEAL_ENOMEM, FH ": out of memory");
  }
  p->A = p->work;
  p->SA = p->A + n * n;
  p->B = p->SA + n * n;
  p->SB = p->B + n * m;
  p->P = p->SB + n * m;
  p->Kt = p->P + n * m;
  p->Fm = p->Kt + n * m;
  p->point = p->Fm + m * m;
  p->f = p->point + n + m;
  p->c = p->f + n;
  p->v = p->c + n;
  p->w = p->v + n;
  p->k0 = p->w + m;
  return TEAL_OK;
}

/* The plant's map (sizes, kind) and the problem's fields. */
static int setup(fhlqr_problem *p, const teal_system *sys, const teal_context *ctx,
                 const teal_finite_horizon_lqr_options *o, teal_error *err) {
  p->sys = sys;
  p->err = err;
  p->ev = teal_state_space_evaluator_new(sys, ctx, o->input_port, -1, err);
  if (!p->ev) {
    return err ? err->code : TEAL_EINVAL;
  }
  teal_state_space_shape s = teal_state_space_evaluator_shape(p->ev);
  if (s.nx < 1 || s.nu < 1) {
    return teal_error_set(err, TEAL_EINVAL,
                          FH
                          ": the plant needs state and an input "
                          "(nx = %d, nu = %d)",
                          s.nx, s.nu);
  }
  p->n = s.nx;
  p->m = s.nu;
  p->period = s.discrete ? s.period : 0.0;
  p->Qf = o->Qf;
  p->N = o->N;
  p->rtol = o->rtol;
  p->atol = o->atol;
  p->max_steps = o->max_steps;
  teal_linearize_options_init(&p->lin);
  p->lin.input_port = o->input_port;
  p->lin.output_port = -1;
  return allocate(p, err);
}

static int solve(fhlqr_problem *p, const teal_context *ctx,
                 const teal_finite_horizon_lqr_options *o, teal_finite_horizon_lqr_result *r,
                 teal_error *err) {
  int rc = setup(p, p->sys, ctx, o, err);
  rc = rc ? rc : check_costs(p, err);
  rc = rc ? rc : (p->period > 0 ? check_periods(p, err) : TEAL_OK);
  rc = rc ? rc : nominal(p, ctx, o, r, err);
  if (rc == TEAL_OK) {
    r->nx = p->n;
    r->nu = p->m;
    r->period = p->period;
    r->t0 = p->t0;
    r->tf = p->tf;
    rc = p->period > 0 ? fhlqr_solve_discrete(p, r) : fhlqr_solve_continuous(p, r);
  }
  return rc;
}

int teal_finite_horizon_lqr(const teal_system *sys, const teal_context *ctx, double t0, double tf,
                            const double *Q, const double *R,
                            const teal_finite_horizon_lqr_options *opts,
                            teal_finite_horizon_lqr_result *result, teal_error *err) {
  if (!result) {
    return teal_error_set(err, TEAL_EINVAL, FH ": NULL result");
  }
  memset(result, 0, sizeof *result);
  if (!sys || !ctx || !Q || !R) {
    return teal_error_set(err, TEAL_EINVAL, FH ": needs a system, a context, Q and R");
  }
  teal_finite_horizon_lqr_options defaults;
  teal_finite_horizon_lqr_options_init(&defaults);
  const teal_finite_horizon_lqr_options *o = opts ? opts : &defaults;
  int rc = check_times(t0, tf, err);
  rc = rc ? rc : check_options(o, err);
  if (rc != TEAL_OK) {
    return rc;
  }
  fhlqr_problem p = {.sys = sys, .t0 = t0, .tf = tf, .Q = Q, .R = R};
  rc = solve(&p, ctx, o, result, err);
  teal_state_space_evaluator_free(p.ev);
  teal_free(p.work);
  if (rc != TEAL_OK) {
    teal_finite_horizon_lqr_result_free(result);
  }
  return rc;
}
