/* A solve: checks the options and the problem, runs the back end from the
 * initial guess, then measures the solution (cost, defects, duration) and
 * turns a solver failure into an error naming its status. */
#include <math.h>
#include <string.h>
#include <time.h>

#include "framework/alloc.h"
#include "systems/trajectory_optimization/direct_collocation_internal.h"

static int check_options(teal_direct_collocation *dc, const teal_direct_collocation_options *o) {
  if (!(o->tol > 0.0) || !isfinite(o->tol) || !(o->constr_viol_tol > 0.0) ||
      !isfinite(o->constr_viol_tol) || !(o->fd_step > 0.0) || !isfinite(o->fd_step) ||
      o->max_iter < 0 || o->print_level < 0 || o->print_level > 12) {
    return teal_error_set(&dc->err, TEAL_EINVAL,
                          "direct collocation '%s': bad options (tol %g, constr_viol_tol %g and "
                          "fd_step %g must be positive and finite, max_iter %d >= 0, print_level "
                          "%d in 0..12)",
                          dc_name(dc), o->tol, o->constr_viol_tol, o->fd_step, o->max_iter,
                          o->print_level);
  }
  return TEAL_OK;
}

static double seconds_now(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Cost, largest defect, duration and f at the knots of the solution. */
static int measure(teal_direct_collocation *dc) {
  int m = dc_num_constraints(dc);
  double *g = teal_alloc((size_t)m * sizeof(double));
  if (!g) {
    return teal_error_set(&dc->err, TEAL_ENOMEM, "direct collocation: out of memory");
  }
  int rc = dc_defects(dc, dc->z, g);
  double worst = 0.0;
  for (int i = 0; rc == TEAL_OK && i < m; i++) {
    worst = fabs(g[i]) > worst || isnan(g[i]) ? fabs(g[i]) : worst;
  }
  teal_free(g);
  if (rc == TEAL_OK) {
    memcpy(dc->f_sol, dc->dyn.f, (size_t)dc->N * dc->nx * sizeof(double));
    rc = dc_cost(dc, dc->z, &dc->result.cost, NULL);
  }
  dc->result.max_defect = worst;
  dc->result.duration = (dc->N - 1) * dc->z[0];
  return rc;
}

/* The error of a solve that ended without an optimum. */
static int solver_failure(teal_direct_collocation *dc) {
  const teal_direct_collocation_result *r = &dc->result;
  if (dc->err.code != TEAL_OK) {
    /* an evaluation failed and Ipopt could not recover: that is the cause */
    teal_error cause = dc->err;
    return teal_error_set(&dc->err, cause.code, "%s (Ipopt status %s)", cause.message,
                          r->status_name);
  }
  return teal_error_set(&dc->err, TEAL_ENOCONV,
                        "direct collocation '%s': Ipopt stopped with status %s (%d) after %d "
                        "iterations; largest defect %g",
                        dc_name(dc), r->status_name, r->ipopt_status, r->iterations, r->max_defect);
}

int teal_direct_collocation_solve(teal_direct_collocation *dc,
                                  const teal_direct_collocation_options *opts,
                                  teal_direct_collocation_result *result) {
  if (!dc) {
    return TEAL_EINVAL;
  }
  teal_direct_collocation_options defaults;
  teal_direct_collocation_options_init(&defaults);
  const teal_direct_collocation_options *o = opts ? opts : &defaults;
  teal_error_clear(&dc->err);
  int rc = check_options(dc, o);
  rc = rc == TEAL_OK ? dc_check_problem(dc) : rc;
  if (rc != TEAL_OK) {
    return rc;
  }
  memset(&dc->result, 0, sizeof(dc->result));
  dc->solved = 0;
  dc->use_analytic = o->use_analytic && dc->has_hook;
  dc->fd_step = o->fd_step;
  dc->dyn.level = 0;
  dc->result.analytic = dc->use_analytic;
  memcpy(dc->z, dc->guess, (size_t)dc->nvar * sizeof(double));
  double start = seconds_now();
  rc = dc_backend_solve(dc, o);
  dc->result.solve_seconds = seconds_now() - start;
  dc->result.status_name = dc_backend_status_name(dc->result.ipopt_status);
  if (rc != TEAL_OK) {
    return rc;
  }
  if (dc->result.success) {
    teal_error_clear(&dc->err); /* failed trial points Ipopt recovered from */
  }
  teal_error saved = dc->err; /* an evaluation failure Ipopt gave up on, if any */
  rc = measure(dc);
  dc->solved = rc == TEAL_OK;
  if (result) {
    *result = dc->result;
  }
  if (rc != TEAL_OK) {
    return rc;
  }
  dc->err = saved;
  return dc->result.success ? TEAL_OK : solver_failure(dc);
}
