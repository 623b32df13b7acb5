/* The dynamics f(x, u) and its Jacobians A = df/dx, B = df/du at the knots
 * and the Hermite midpoints of a decision vector: from the leaf's analytic
 * Jacobian hook when it has one, else by central differences. */
#include <string.h>

#include "framework/system_dynamics.h"
#include "systems/analysis/finite_difference.h"
#include "systems/trajectory_optimization/direct_collocation_internal.h"

/* Records a failed evaluation, with the private context's message. */
static int eval_failure(teal_direct_collocation *dc, int rc, const char *what) {
  const teal_error *e = teal_context_error(teal_state_space_evaluator_context(dc->ev));
  return teal_error_set(&dc->err, rc, "direct collocation '%s': %s failed: %s",
                        teal_system_name(dc->sys), what,
                        e && e->code ? e->message : teal_strerror(rc));
}

/* f with the differenced argument: by_u picks u (else x). */
typedef struct fd_arg {
  teal_direct_collocation *dc;
  int by_u;
} fd_arg;

static int fd_eval(const double *v, double *out, void *user) {
  fd_arg *a = user;
  dc_dynamics *d = &a->dc->dyn;
  return teal_state_space_evaluator_eval(a->dc->ev, a->by_u ? d->xs : v, a->by_u ? v : d->us, out,
                                         NULL);
}

/* A and B at (x, u) by central differences. */
static int jacobian_fd(teal_direct_collocation *dc, const double *x, const double *u, double *A,
                       double *B) {
  dc_dynamics *d = &dc->dyn;
  memcpy(d->xs, x, (size_t)dc->nx * sizeof(double));
  memcpy(d->us, u, (size_t)dc->nu * sizeof(double));
  fd_arg ax = {dc, 0}, au = {dc, 1};
  int rc = teal_fd_jacobian(TEAL_FD_CENTRAL, fd_eval, &ax, d->xs, dc->nx, dc->nx, dc->fd_step, NULL,
                            d->fp, d->fm, A);
  if (rc == TEAL_OK) {
    rc = teal_fd_jacobian(TEAL_FD_CENTRAL, fd_eval, &au, d->us, dc->nu, dc->nx, dc->fd_step, NULL,
                          d->fp, d->fm, B);
  }
  return rc;
}

/* f at (x, u), and A, B when asked (NULL otherwise). */
static int point(teal_direct_collocation *dc, const double *x, const double *u, double *f,
                 double *A, double *B) {
  int rc = teal_state_space_evaluator_eval(dc->ev, x, u, f, NULL);
  if (rc != TEAL_OK) {
    return eval_failure(dc, rc, "evaluating the dynamics");
  }
  if (!A) {
    return TEAL_OK;
  }
  if (dc->use_analytic) {
    /* the evaluator's context now holds (x, u) */
    teal_jacobian jac = {dc->nx, dc->nu, 0, A, B, NULL, NULL};
    rc = teal_calc_jacobian(dc->sys, teal_state_space_evaluator_context(dc->ev), dc->input_port, -1,
                            &jac);
    return rc == TEAL_OK ? rc : eval_failure(dc, rc, "the analytic Jacobian");
  }
  rc = jacobian_fd(dc, x, u, A, B);
  return rc == TEAL_OK ? rc : eval_failure(dc, rc, "differencing the dynamics");
}

/* x_c and u_c of segment k (needs f at both knots). */
static void midpoint(teal_direct_collocation *dc, const double *z, int k) {
  int nx = dc->nx, nu = dc->nu;
  double h = z[0];
  const double *x0 = z + dc_x_index(dc, k), *x1 = x0 + nx;
  const double *u0 = z + dc_u_index(dc, k), *u1 = u0 + nu;
  const double *f0 = dc->dyn.f + (size_t)k * nx, *f1 = f0 + nx;
  double *xc = dc->dyn.xc + (size_t)k * nx, *uc = dc->dyn.uc + (size_t)k * nu;
  for (int i = 0; i < nx; i++) {
    xc[i] = 0.5 * (x0[i] + x1[i]) + 0.125 * h * (f0[i] - f1[i]);
  }
  for (int i = 0; i < nu; i++) {
    uc[i] = 0.5 * (u0[i] + u1[i]);
  }
}

int dc_evaluate(teal_direct_collocation *dc, const double *z, int jacobians) {
  dc_dynamics *d = &dc->dyn;
  int want = jacobians ? 2 : 1;
  size_t nvar = (size_t)dc->nvar;
  if (d->level >= want && memcmp(d->at, z, nvar * sizeof(double)) == 0) {
    return TEAL_OK;
  }
  d->level = 0;
  size_t nx = (size_t)dc->nx, nu = (size_t)dc->nu;
  int rc = TEAL_OK;
  for (int k = 0; rc == TEAL_OK && k < dc->N; k++) {
    rc = point(dc, z + dc_x_index(dc, k), z + dc_u_index(dc, k), d->f + k * nx,
               jacobians ? d->A + k * nx * nx : NULL, jacobians ? d->B + k * nx * nu : NULL);
  }
  for (int k = 0; rc == TEAL_OK && k + 1 < dc->N; k++) {
    midpoint(dc, z, k);
    rc = point(dc, d->xc + k * nx, d->uc + k * nu, d->fc + k * nx,
               jacobians ? d->Ac + k * nx * nx : NULL, jacobians ? d->Bc + k * nx * nu : NULL);
  }
  if (rc == TEAL_OK) {
    memcpy(d->at, z, nvar * sizeof(double));
    d->level = want;
  }
  return rc;
}
