/* Direct collocation (systems/trajectory_optimization): the double
 * integrator's minimum-effort transfer against its closed form, the exact
 * constraint Jacobian and cost gradient against central differences,
 * bounds, pendulum and acrobot swing-ups checked by forward integration,
 * and bad input. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support/error_messages.h"
#include "support/test_support.h"
#include "systems/trajectory_optimization/direct_collocation_internal.h"
#include "teal.h"

/* ---- systems ------------------------------------------------------------------ */

/* x = [p; v], p' = v, v' = u (LinearSystem: it has an analytic Jacobian). */
static teal_system *double_integrator(void) {
  const double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, C[2] = {1, 0}, D[1] = {0};
  teal_error err;
  teal_system *s = teal_linear_system_new("double_integrator", A, B, C, D, 2, 1, 1, 0.0, &err);
  ck_assert_msg(s != NULL, "%s", err.message);
  return s;
}

/* A pendulum hanging at theta = 0: m l^2 theta'' = u - b theta' - m g l sin(theta). */
static const double pm = 1.0, pl = 0.5, pg = 9.81, pb = 0.1;

static int pend_derivs(const teal_system *s, const teal_context *c, teal_continuous_view *xd,
                       void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(s, c, 0, &u);
  if (rc) {
    return rc;
  }
  double th = teal_context_q(c)[0], w = teal_context_v(c)[0];
  xd->q[0] = w;
  xd->v[0] = (u[0] - pb * w - pm * pg * pl * sin(th)) / (pm * pl * pl);
  return TEAL_OK;
}

static int pend_jacobian(const teal_system *s, const teal_context *c, int in, int out,
                         teal_jacobian *j, void *user) {
  (void)s, (void)out, (void)user;
  double th = teal_context_q(c)[0], ml2 = pm * pl * pl;
  j->A[0] = 0, j->A[1] = 1;
  j->A[2] = -pm * pg * pl * cos(th) / ml2, j->A[3] = -pb / ml2;
  if (in == 0) {
    j->B[0] = 0, j->B[1] = 1.0 / ml2;
  }
  return TEAL_OK;
}

static teal_system *pendulum_leaf(int with_hook) {
  teal_system *s = teal_leaf_new("pendulum", NULL, NULL);
  teal_leaf_declare_vector_input(s, "tau", 1);
  teal_leaf_declare_continuous_state(s, 1, 1, 0, NULL);
  teal_leaf_set_time_derivatives(s, pend_derivs, NULL);
  if (with_hook) {
    teal_leaf_set_jacobian(s, pend_jacobian, NULL);
  }
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

static teal_plant *load_plant(const char *file) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", TEAL_MODELS_DIR, file);
  teal_error err;
  teal_plant *p = teal_plant_new(0.0, &err);
  ck_assert(p != NULL);
  ck_assert_int_ge(teal_urdf_load_file(p, path, NULL, &err), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* ---- helpers ------------------------------------------------------------------ */

/* A problem on sys (input port 0 unless given) over N samples. */
static teal_direct_collocation *problem(const teal_system *sys, teal_context **ctx, int port, int N,
                                        double hmin, double hmax) {
  teal_error err;
  *ctx = teal_context_new(sys, &err);
  ck_assert(*ctx != NULL);
  teal_direct_collocation *dc = teal_direct_collocation_new(sys, *ctx, port, N, hmin, hmax, &err);
  ck_assert_msg(dc != NULL, "%s", err.message);
  return dc;
}

/* The transfer (0, 0) -> (1, 0) in T = 1 minimizing the integral of u^2. */
static teal_direct_collocation *transfer(const teal_system *sys, teal_context **ctx, int N) {
  teal_direct_collocation *dc = problem(sys, ctx, 0, N, 0.01, 0.5);
  const double x0[2] = {0, 0}, xf[2] = {1, 0}, R = 1.0;
  ck_assert_int_eq(teal_direct_collocation_set_initial_state(dc, x0), TEAL_OK);
  ck_assert_int_eq(teal_direct_collocation_set_final_state(dc, xf), TEAL_OK);
  ck_assert_int_eq(teal_direct_collocation_set_input_cost(dc, &R), TEAL_OK);
  ck_assert_int_eq(teal_direct_collocation_set_duration(dc, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_direct_collocation_set_initial_guess(dc, x0, xf, NULL, 1.0), TEAL_OK);
  return dc;
}

/* The samples and both trajectories against u = 6 - 12 t, p = 3t^2 - 2t^3,
 * v = 6t - 6t^2 (the stationarity of the integral of u^2: u is linear). */
static void check_transfer(const teal_direct_collocation *dc, int N) {
  double t[64], x[128], u[64];
  ck_assert_int_eq(teal_direct_collocation_sample_times(dc, t), TEAL_OK);
  ck_assert_int_eq(teal_direct_collocation_states(dc, x), TEAL_OK);
  ck_assert_int_eq(teal_direct_collocation_inputs(dc, u), TEAL_OK);
  for (int k = 0; k < N; k++) {
    double s = t[k];
    ck_assert_double_eq_tol(t[k], (double)k / (N - 1), 1e-12);
    ck_assert_double_eq_tol(u[k], 6 - 12 * s, 1e-6);
    ck_assert_double_eq_tol(x[2 * k], 3 * s * s - 2 * s * s * s, 1e-6);
    ck_assert_double_eq_tol(x[2 * k + 1], 6 * s - 6 * s * s, 1e-6);
  }
  teal_error err;
  teal_piecewise_polynomial *xp = teal_direct_collocation_state_trajectory(dc, &err);
  teal_piecewise_polynomial *up = teal_direct_collocation_input_trajectory(dc, &err);
  ck_assert(xp && up);
  ck_assert_int_eq(teal_piecewise_polynomial_degree(xp), 3);
  for (double s = 0.0; s <= 1.0; s += 0.0371) { /* between the samples too */
    double xv[2], xd[2], uv;
    teal_piecewise_polynomial_value(xp, s, xv);
    teal_piecewise_polynomial_derivative(xp, s, 1, xd);
    teal_piecewise_polynomial_value(up, s, &uv);
    ck_assert_double_eq_tol(xv[0], 3 * s * s - 2 * s * s * s, 1e-6);
    ck_assert_double_eq_tol(xv[1], 6 * s - 6 * s * s, 1e-6);
    ck_assert_double_eq_tol(xd[0], xv[1], 1e-6);
    ck_assert_double_eq_tol(uv, 6 - 12 * s, 1e-6);
  }
  teal_piecewise_polynomial_free(xp);
  teal_piecewise_polynomial_free(up);
}

/* The transfer by both derivative paths. */
static void run_transfer(int use_analytic) {
  teal_system *sys = double_integrator();
  teal_context *ctx;
  int N = 21;
  teal_direct_collocation *dc = transfer(sys, &ctx, N);
  teal_direct_collocation_options o;
  teal_direct_collocation_options_init(&o);
  o.use_analytic = use_analytic;
  o.tol = 1e-10; /* margin under the 1e-6 of the comparison */
  teal_direct_collocation_result r;
  int rc = teal_direct_collocation_solve(dc, &o, &r);
  ck_assert_msg(rc == TEAL_OK, "%s", teal_direct_collocation_error(dc)->message);
  ck_assert_int_eq(r.success, 1);
  ck_assert_str_eq(r.status_name, "Solve_Succeeded");
  ck_assert_int_eq(r.analytic, use_analytic);
  ck_assert_double_lt(r.max_defect, 1e-8);
  ck_assert_double_eq_tol(r.duration, 1.0, 1e-14);
  ck_assert_double_eq_tol(r.cost, 12.0, 1e-6); /* integral of (6 - 12 t)^2 */
  ck_assert_int_gt(r.iterations, 0);
  check_transfer(dc, N);
  teal_direct_collocation_free(dc);
  teal_context_free(ctx);
  teal_system_free(sys);
}

START_TEST(test_double_integrator_min_effort_analytic) {
  run_transfer(1);
}
END_TEST

START_TEST(test_double_integrator_min_effort_differences) {
  run_transfer(0);
}
END_TEST

/* ---- exact derivatives ---------------------------------------------------------- */

static int running_cost(const double *x, const double *u, double *L, double *g, void *user) {
  (void)user;
  *L = 0.3 * (x[0] * x[0] + x[1] * x[1]) + sin(x[0]) * u[0];
  if (g) {
    g[0] = 0.6 * x[0] + cos(x[0]) * u[0];
    g[1] = 0.6 * x[1];
    g[2] = sin(x[0]);
  }
  return TEAL_OK;
}

static int final_cost(const double *x, double *v, double *g, void *user) {
  (void)user;
  *v = 2.0 * (x[0] - 3.0) * (x[0] - 3.0) + x[0] * x[1];
  if (g) {
    g[0] = 4.0 * (x[0] - 3.0) + x[1];
    g[1] = x[0];
  }
  return TEAL_OK;
}

/* The structural Jacobian as a dense m x n matrix. */
static void dense_jacobian(teal_direct_collocation *dc, double *z, double *J) {
  int m = dc_num_constraints(dc), n = dc->nvar, nnz = dc_jacobian_nonzeros(dc);
  int rows[512], cols[512];
  double vals[512];
  ck_assert_int_le(nnz, 512);
  dc_jacobian_structure(dc, rows, cols);
  ck_assert_int_eq(dc_jacobian_values(dc, z, vals), TEAL_OK);
  memset(J, 0, sizeof(double) * (size_t)m * n);
  for (int i = 0; i < nnz; i++) {
    J[rows[i] * n + cols[i]] += vals[i];
  }
}

/* Jacobian of the defects and gradient of the cost against central
 * differences of the values, at a point off the solution. */
static void check_derivatives(int use_analytic) {
  teal_system *sys = pendulum_leaf(1);
  teal_context *ctx;
  teal_direct_collocation *dc = problem(sys, &ctx, 0, 4, 0.05, 0.5);
  teal_direct_collocation_set_running_cost(dc, running_cost, NULL);
  teal_direct_collocation_set_final_cost(dc, final_cost, NULL);
  double R = 0.7;
  teal_direct_collocation_set_input_cost(dc, &R);
  dc->use_analytic = use_analytic;
  int n = dc->nvar, m = dc_num_constraints(dc);
  double z[64], J[64 * 64], gp[64], gm[64], grad[64], cp, cm, c;
  for (int i = 0; i < n; i++) {
    z[i] = 0.3 * sin(1.7 * i + 0.4) + (i == 0 ? 0.1 : 0.0);
  }
  dense_jacobian(dc, z, J);
  ck_assert_int_eq(dc_cost(dc, z, &c, grad), TEAL_OK);
  for (int j = 0; j < n; j++) {
    double keep = z[j], step = 1e-6;
    z[j] = keep + step;
    ck_assert_int_eq(dc_defects(dc, z, gp), TEAL_OK);
    ck_assert_int_eq(dc_cost(dc, z, &cp, NULL), TEAL_OK);
    z[j] = keep - step;
    ck_assert_int_eq(dc_defects(dc, z, gm), TEAL_OK);
    ck_assert_int_eq(dc_cost(dc, z, &cm, NULL), TEAL_OK);
    z[j] = keep;
    for (int i = 0; i < m; i++) {
      double fd = (gp[i] - gm[i]) / (2 * step);
      ck_assert_msg(fabs(J[i * n + j] - fd) < 1e-6 * (1 + fabs(fd)), "J[%d][%d] = %g, fd %g", i, j,
                    J[i * n + j], fd);
    }
    double fd = (cp - cm) / (2 * step);
    ck_assert_msg(fabs(grad[j] - fd) < 1e-6 * (1 + fabs(fd)), "grad[%d] = %g, fd %g", j, grad[j],
                  fd);
  }
  teal_direct_collocation_free(dc);
  teal_context_free(ctx);
  teal_system_free(sys);
}

START_TEST(test_derivatives_analytic_hook) {
  check_derivatives(1);
}
END_TEST

START_TEST(test_derivatives_central_differences) {
  check_derivatives(0);
}
END_TEST

/* After the first evaluation, the defects, their Jacobian and the cost
 * allocate nothing, on the plant (central differences) and on a leaf. */
START_TEST(test_evaluation_allocates_nothing) {
  teal_plant *p = load_plant("pendulum.urdf");
  teal_system *sys = teal_plant_system(p);
  teal_context *ctx;
  teal_direct_collocation *dc =
      problem(sys, &ctx, teal_plant_actuation_input_port(p), 6, 0.05, 0.5);
  teal_direct_collocation_set_running_cost(dc, running_cost, NULL);
  double z[64], g[64], J[512], grad[64], c;
  for (int i = 0; i < dc->nvar; i++) {
    z[i] = 0.2 * cos(0.9 * i) + (i == 0 ? 0.2 : 0.0);
  }
  ck_assert_int_eq(dc_jacobian_values(dc, z, J), TEAL_OK);
  ts_alloc_install();
  for (int rep = 0; rep < 3; rep++) {
    z[3] += 0.01; /* a new point each time */
    ck_assert_int_eq(dc_defects(dc, z, g), TEAL_OK);
    ck_assert_int_eq(dc_jacobian_values(dc, z, J), TEAL_OK);
    ck_assert_int_eq(dc_cost(dc, z, &c, grad), TEAL_OK);
  }
  unsigned long allocs = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_int_eq(allocs, 0);
  teal_direct_collocation_free(dc);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* Out of memory at each allocation of _new: NULL with TEAL_ENOMEM, no leak
 * (the sanitizer build checks the latter). */
START_TEST(test_new_out_of_memory) {
  teal_system *sys = double_integrator();
  teal_context *ctx = teal_context_new(sys, NULL);
  int failures = 0;
  for (long k = 0; k < 200; k++) {
    teal_error err;
    teal_error_clear(&err);
    ts_alloc_install();
    ts_alloc_fail_after(k, 1);
    teal_direct_collocation *dc = teal_direct_collocation_new(sys, ctx, 0, 5, 0.1, 0.2, &err);
    ts_alloc_uninstall();
    if (dc) {
      teal_direct_collocation_free(dc);
      break;
    }
    ck_assert_int_eq(err.code, TEAL_ENOMEM);
    failures++;
  }
  ck_assert_int_gt(failures, 0);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* ---- bounds --------------------------------------------------------------------- */

/* The transfer with |u| <= 5 and v <= 1.45 (the free optimum has u(0) = 6
 * and v(1/2) = 1.5): both bounds hold at every sample and are active. */
START_TEST(test_bounds_respected) {
  teal_system *sys = double_integrator();
  teal_context *ctx;
  int N = 31;
  teal_direct_collocation *dc = transfer(sys, &ctx, N);
  const double ulo = -5, uhi = 5, xlo[2] = {-INFINITY, -INFINITY}, xhi[2] = {INFINITY, 1.45};
  ck_assert_int_eq(teal_direct_collocation_set_input_bounds(dc, &ulo, &uhi), TEAL_OK);
  ck_assert_int_eq(teal_direct_collocation_set_state_bounds(dc, xlo, xhi), TEAL_OK);
  teal_direct_collocation_result r;
  int rc = teal_direct_collocation_solve(dc, NULL, &r);
  ck_assert_msg(rc == TEAL_OK, "%s", teal_direct_collocation_error(dc)->message);
  ck_assert_double_lt(r.max_defect, 1e-8);
  ck_assert_double_gt(r.cost, 12.0); /* constrained: dearer than the free optimum */
  double x[2 * 31], u[31], umax = 0, vmax = 0;
  teal_direct_collocation_states(dc, x);
  teal_direct_collocation_inputs(dc, u);
  for (int k = 0; k < N; k++) {
    ck_assert_double_le(fabs(u[k]), 5 + 1e-8);
    ck_assert_double_le(x[2 * k + 1], 1.45 + 1e-8);
    umax = fmax(umax, fabs(u[k]));
    vmax = fmax(vmax, x[2 * k + 1]);
  }
  ck_assert_double_gt(umax, 5 - 1e-6);
  ck_assert_double_gt(vmax, 1.45 - 1e-6);
  ck_assert_double_eq_tol(x[2 * (N - 1)], 1.0, 1e-12);
  teal_direct_collocation_free(dc);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* ---- swing-ups ------------------------------------------------------------------ */

/* The largest difference between x_{k+1} and RK4 (20 steps) of the system
 * from x_k under the input trajectory over segment k: the collocation's
 * local error, checked independently of how unstable the system is. */
static double segment_error(const teal_system *sys, teal_context *ctx, int port,
                            const teal_piecewise_polynomial *up, const double *t, const double *xs,
                            int N) {
  teal_error err;
  teal_state_space_evaluator *ev = teal_state_space_evaluator_new(sys, ctx, port, -1, &err);
  ck_assert(ev != NULL);
  int nx = teal_state_space_evaluator_shape(ev).nx, nsteps = 20;
  static const double c[4] = {0, 0.5, 0.5, 1}, w[4] = {1, 2, 2, 1};
  double worst = 0.0;
  for (int seg = 0; seg + 1 < N; seg++) {
    double x[8], k[4][8], xi[8], u[4], h = (t[seg + 1] - t[seg]) / nsteps;
    memcpy(x, xs + seg * nx, sizeof(double) * nx);
    for (int s = 0; s < nsteps; s++) {
      for (int j = 0; j < 4; j++) {
        for (int i = 0; i < nx; i++) {
          xi[i] = x[i] + (j ? c[j] * h * k[j - 1][i] : 0.0);
        }
        teal_piecewise_polynomial_value(up, t[seg] + (s + c[j]) * h, u);
        ck_assert_int_eq(teal_state_space_evaluator_eval(ev, xi, u, k[j], NULL), TEAL_OK);
      }
      for (int i = 0; i < nx; i++) {
        x[i] += h / 6 * (w[0] * k[0][i] + w[1] * k[1][i] + w[2] * k[2][i] + w[3] * k[3][i]);
      }
    }
    for (int i = 0; i < nx; i++) {
      worst = fmax(worst, fabs(x[i] - xs[(seg + 1) * nx + i]));
    }
  }
  teal_state_space_evaluator_free(ev);
  return worst;
}

/* A swing-up from hanging (0) to upright (pi) under |u| <= umax with free
 * duration; the defects vanish and each segment agrees with an
 * integration of the dynamics under the input. Returns the result. */
static teal_direct_collocation_result swing_up(const teal_system *sys, int port, int nq,
                                               double umax, double vmax, int N, double hmin,
                                               double hmax, double segment_tol) {
  teal_context *ctx;
  teal_direct_collocation *dc = problem(sys, &ctx, port, N, hmin, hmax);
  int nu = teal_direct_collocation_num_inputs(dc);
  ck_assert_int_eq(teal_direct_collocation_num_states(dc), 2 * nq);
  double x0[8] = {0}, xf[8] = {0}, lo[4], hi[4];
  xf[0] = 3.14159265358979323846;
  for (int i = 0; i < nu; i++) {
    lo[i] = -umax, hi[i] = umax;
  }
  teal_direct_collocation_set_initial_state(dc, x0);
  teal_direct_collocation_set_final_state(dc, xf);
  teal_direct_collocation_set_input_bounds(dc, lo, hi);
  double xlo[8], xhi[8];
  for (int i = 0; i < 2 * nq; i++) {
    xlo[i] = i < nq ? -INFINITY : -vmax;
    xhi[i] = i < nq ? INFINITY : vmax;
  }
  teal_direct_collocation_set_state_bounds(dc, xlo, xhi);
  teal_direct_collocation_set_initial_guess(dc, x0, xf, NULL, 0.5 * (hmin + hmax) * (N - 1));
  teal_direct_collocation_result r;
  int rc = teal_direct_collocation_solve(dc, NULL, &r);
  ck_assert_msg(rc == TEAL_OK, "%s", teal_direct_collocation_error(dc)->message);
  ck_assert_double_lt(r.max_defect, 1e-8);
  ck_assert_double_ge(r.duration, hmin * (N - 1) - 1e-12);
  ck_assert_double_le(r.duration, hmax * (N - 1) + 1e-12);
  double u[512];
  ck_assert_int_le(N * nu, 512);
  teal_direct_collocation_inputs(dc, u);
  for (int k = 0; k < N * nu; k++) {
    ck_assert_double_le(fabs(u[k]), umax + 1e-8);
  }
  teal_error err;
  teal_piecewise_polynomial *up = teal_direct_collocation_input_trajectory(dc, &err);
  double t[128], xs[8 * 128];
  ck_assert_int_le(N, 128);
  teal_direct_collocation_sample_times(dc, t);
  teal_direct_collocation_states(dc, xs);
  double e = segment_error(sys, ctx, port, up, t, xs, N);

  ck_assert_msg(e < segment_tol, "a segment misses the integrated dynamics by %g", e);
  teal_piecewise_polynomial_free(up);
  teal_direct_collocation_free(dc);
  teal_context_free(ctx);
  return r;
}

/* The pendulum swing-up (mgl = 4.9 N m > 2 N m) twice: on the leaf with
 * its analytic Jacobian hook, and on the plant of models/pendulum.urdf,
 * the same pendulum, through central differences (until the plant
 * declares its analytic Jacobian). Both find the same optimum. */
START_TEST(test_pendulum_swing_up) {
  teal_system *leaf = pendulum_leaf(1);
  teal_direct_collocation_result a = swing_up(leaf, 0, 1, 2.0, INFINITY, 41, 0.02, 0.1, 1e-3);
  ck_assert_int_eq(a.analytic, 1);
  teal_system_free(leaf);
  teal_plant *p = load_plant("pendulum.urdf");
  teal_system *sys = teal_plant_system(p);
  int port = teal_plant_actuation_input_port(p);
  teal_direct_collocation_result b = swing_up(sys, port, 1, 2.0, INFINITY, 41, 0.02, 0.1, 1e-3);
  ck_assert_int_eq(b.analytic, teal_system_has_jacobian(sys) ? 1 : 0);
  ck_assert_double_eq_tol(a.duration, b.duration, 1e-4);
  ck_assert_double_eq_tol(a.cost, b.cost, 1e-4 * a.cost);
  teal_plant_free(p);
}
END_TEST

/* The acrobot of models/acrobot.urdf from hanging to upright with the
 * elbow torque limited to 20 N m; prints the solve time and iterations. */
START_TEST(test_acrobot_swing_up) {
  teal_plant *p = load_plant("acrobot.urdf");
  teal_system *sys = teal_plant_system(p);
  int port = teal_plant_actuation_input_port(p);
  teal_direct_collocation_result r = swing_up(sys, port, 2, 10.0, 5.0, 61, 0.03, 0.1, 5e-2);
  printf(
      "acrobot swing-up: %s in %d Ipopt iterations, %.3f s (%s Jacobians), duration %.3f s, "
      "largest defect %.2e\n",
      r.status_name, r.iterations, r.solve_seconds, r.analytic ? "analytic" : "central-difference",
      r.duration, r.max_defect);
  teal_plant_free(p);
}
END_TEST

/* ---- bad input ------------------------------------------------------------------ */

static int no_input_derivs(const teal_system *s, const teal_context *c, teal_continuous_view *xd,
                           void *user) {
  (void)s, (void)user;
  xd->q[0] = teal_context_v(c)[0];
  xd->v[0] = 0.0;
  return TEAL_OK;
}

START_TEST(test_bad_creation) {
  teal_system *di = double_integrator();
  teal_context *ctx = teal_context_new(di, NULL);
  teal_error err;
  ts_stale_error(&err);
  ck_assert(teal_direct_collocation_new(NULL, ctx, 0, 5, 0.1, 0.2, &err) == NULL);
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "NULL system");
  ts_stale_error(&err);
  ck_assert(teal_direct_collocation_new(di, ctx, 3, 5, 0.1, 0.2, &err) == NULL);
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_ENOTFOUND, &err, "no input port 3");
  ts_stale_error(&err);
  ck_assert(teal_direct_collocation_new(di, ctx, 0, 1, 0.1, 0.2, &err) == NULL);
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_ESIZE, &err, "1 time samples");
  ts_stale_error(&err);
  ck_assert(teal_direct_collocation_new(di, ctx, 0, 5, 0.3, 0.2, &err) == NULL);
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "time step bounds");
  ts_stale_error(&err);
  ck_assert(teal_direct_collocation_new(di, ctx, 0, 5, NAN, 0.2, &err) == NULL);
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "time step bounds");
  /* a system with no input */
  teal_system *s = teal_leaf_new("free_mass", NULL, NULL);
  teal_leaf_declare_continuous_state(s, 1, 1, 0, NULL);
  teal_leaf_set_time_derivatives(s, no_input_derivs, NULL);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  teal_context *sctx = teal_context_new(s, NULL);
  ts_stale_error(&err);
  ck_assert(teal_direct_collocation_new(s, sctx, 0, 5, 0.1, 0.2, &err) == NULL);
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "has no input");
  /* a discrete system */
  const double A = 1, B = 1, C = 1, D = 0;
  teal_system *dsys = teal_linear_system_new("discrete", &A, &B, &C, &D, 1, 1, 1, 0.1, NULL);
  teal_context *dctx = teal_context_new(dsys, NULL);
  ts_stale_error(&err);
  ck_assert(teal_direct_collocation_new(dsys, dctx, 0, 5, 0.1, 0.2, &err) == NULL);
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "continuous state");
  teal_context_free(dctx);
  teal_system_free(dsys);
  teal_context_free(sctx);
  teal_system_free(s);
  teal_context_free(ctx);
  teal_system_free(di);
}
END_TEST

START_TEST(test_bad_setters) {
  teal_system *sys = double_integrator();
  teal_context *ctx;
  teal_direct_collocation *dc = problem(sys, &ctx, 0, 5, 0.1, 0.5);
  const teal_error *e = teal_direct_collocation_error(dc);
  double lo = 2, hi = 1, nan2[2] = {NAN, 0}, xlo[2] = {0, 0}, xhi[2] = {1, -1};
  TS_EXPECT_ERROR(teal_direct_collocation_set_input_bounds(dc, &lo, &hi), TEAL_EINVAL, e,
                  "infeasible input bounds: lower[0] = 2 > upper[0] = 1");
  TS_EXPECT_ERROR(teal_direct_collocation_set_state_bounds(dc, xlo, xhi), TEAL_EINVAL, e,
                  "infeasible state bounds: lower[1] = 0 > upper[1] = -1");
  TS_EXPECT_ERROR(teal_direct_collocation_set_state_bounds(dc, nan2, xlo), TEAL_ENONFINITE, e,
                  "state bound 0 is NaN");
  TS_EXPECT_ERROR(teal_direct_collocation_set_input_bounds(dc, NULL, &hi), TEAL_EINVAL, e,
                  "NULL input bound");
  TS_EXPECT_ERROR(teal_direct_collocation_set_initial_state(dc, nan2), TEAL_ENONFINITE, e,
                  "initial state[0]");
  double R = NAN;
  TS_EXPECT_ERROR(teal_direct_collocation_set_input_cost(dc, &R), TEAL_ENONFINITE, e, "R[0]");
  TS_EXPECT_ERROR(teal_direct_collocation_set_duration(dc, INFINITY), TEAL_ENONFINITE, e,
                  "duration");
  TS_EXPECT_ERROR(teal_direct_collocation_set_initial_guess(dc, xlo, nan2, NULL, 1.0),
                  TEAL_ENONFINITE, e, "guess state entry 0");
  TS_EXPECT_ERROR(teal_direct_collocation_set_initial_guess(dc, xlo, xlo, NULL, -1.0), TEAL_EINVAL,
                  e, "guess duration");
  /* before a solve there is no solution */
  double t[5];
  TS_EXPECT_ERROR(teal_direct_collocation_sample_times(dc, t), TEAL_ESTATE, e, "no solution yet");
  teal_error err;
  ck_assert(teal_direct_collocation_state_trajectory(dc, &err) == NULL);
  ck_assert_int_eq(err.code, TEAL_ESTATE);
  teal_direct_collocation_free(dc);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* A non-symmetric R on a two-input system. */
START_TEST(test_bad_input_cost) {
  const double A[1] = {0}, B[2] = {1, 1}, C[1] = {1}, D[2] = {0, 0};
  teal_system *sys = teal_linear_system_new("two_inputs", A, B, C, D, 1, 2, 1, 0.0, NULL);
  teal_context *ctx;
  teal_direct_collocation *dc = problem(sys, &ctx, 0, 5, 0.1, 0.5);
  const double R[4] = {1, 0.5, 0.2, 1};
  TS_EXPECT_ERROR(teal_direct_collocation_set_input_cost(dc, R), TEAL_EINVAL,
                  teal_direct_collocation_error(dc), "R is not symmetric");
  teal_direct_collocation_free(dc);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* Inconsistent problems caught before Ipopt runs, and Ipopt's failures. */
START_TEST(test_bad_solves) {
  teal_system *sys = double_integrator();
  teal_context *ctx;
  teal_direct_collocation *dc = transfer(sys, &ctx, 11);
  const teal_error *e = teal_direct_collocation_error(dc);
  const double xlo[2] = {-1, -1}, xhi[2] = {0.5, 1};
  ck_assert_int_eq(teal_direct_collocation_set_state_bounds(dc, xlo, xhi), TEAL_OK);
  TS_EXPECT_ERROR(teal_direct_collocation_solve(dc, NULL, NULL), TEAL_EINVAL, e,
                  "final state[0] = 1 is outside the state bounds [-1, 0.5]");
  const double xhi2[2] = {2, 1}, x0[2] = {0, -2};
  ck_assert_int_eq(teal_direct_collocation_set_state_bounds(dc, xlo, xhi2), TEAL_OK);
  ck_assert_int_eq(teal_direct_collocation_set_initial_state(dc, x0), TEAL_OK);
  TS_EXPECT_ERROR(teal_direct_collocation_solve(dc, NULL, NULL), TEAL_EINVAL, e,
                  "initial state[1] = -2 is outside the state bounds");
  const double x00[2] = {0, 0};
  ck_assert_int_eq(teal_direct_collocation_set_initial_state(dc, x00), TEAL_OK);
  ck_assert_int_eq(teal_direct_collocation_set_duration(dc, 10.0), TEAL_OK);
  TS_EXPECT_ERROR(teal_direct_collocation_solve(dc, NULL, NULL), TEAL_EINVAL, e,
                  "infeasible duration 10");
  ck_assert_int_eq(teal_direct_collocation_set_duration(dc, 1.0), TEAL_OK);
  teal_direct_collocation_options o;
  teal_direct_collocation_options_init(&o);
  o.tol = -1;
  TS_EXPECT_ERROR(teal_direct_collocation_solve(dc, &o, NULL), TEAL_EINVAL, e, "bad options");
  /* Ipopt stops early: the status is in the message, the iterate is kept */
  teal_direct_collocation_options_init(&o);
  o.max_iter = 1;
  teal_direct_collocation_result r;
  TS_EXPECT_ERROR(teal_direct_collocation_solve(dc, &o, &r), TEAL_ENOCONV, e,
                  "Maximum_Iterations_Exceeded");
  ck_assert_int_eq(r.success, 0);
  double t[11];
  ck_assert_int_eq(teal_direct_collocation_sample_times(dc, t), TEAL_OK);
  /* no input within |u| <= 0.5 moves the mass by 1 in 1 s */
  const double ulo = -0.5, uhi = 0.5;
  ck_assert_int_eq(teal_direct_collocation_set_input_bounds(dc, &ulo, &uhi), TEAL_OK);
  TS_EXPECT_ERROR(teal_direct_collocation_solve(dc, NULL, &r), TEAL_ENOCONV, e,
                  "Ipopt stopped with status");
  ck_assert_int_eq(r.success, 0);
  teal_direct_collocation_free(dc);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

static int failing_cost(const double *x, const double *u, double *L, double *g, void *user) {
  (void)x, (void)u, (void)g, (void)user;
  *L = 0.0;
  return TEAL_ECALLBACK;
}

/* A running cost that always fails: the solve reports its code and names
 * it, with Ipopt's status. */
START_TEST(test_failing_cost) {
  teal_system *sys = double_integrator();
  teal_context *ctx;
  teal_direct_collocation *dc = transfer(sys, &ctx, 6);
  teal_direct_collocation_set_running_cost(dc, failing_cost, NULL);
  teal_direct_collocation_result r;
  TS_EXPECT_ERROR(teal_direct_collocation_solve(dc, NULL, &r), TEAL_ECALLBACK,
                  teal_direct_collocation_error(dc), "the running cost failed");
  teal_direct_collocation_free(dc);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

int main(void) {
  Suite *s = suite_create("direct_collocation");
  TCase *tc = tcase_create("direct_collocation");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_double_integrator_min_effort_analytic);
  tcase_add_test(tc, test_double_integrator_min_effort_differences);
  tcase_add_test(tc, test_derivatives_analytic_hook);
  tcase_add_test(tc, test_derivatives_central_differences);
  tcase_add_test(tc, test_bounds_respected);
  tcase_add_test(tc, test_evaluation_allocates_nothing);
  tcase_add_test(tc, test_new_out_of_memory);
  tcase_add_test(tc, test_pendulum_swing_up);
  tcase_add_test(tc, test_acrobot_swing_up);
  tcase_add_test(tc, test_bad_creation);
  tcase_add_test(tc, test_bad_setters);
  tcase_add_test(tc, test_bad_input_cost);
  tcase_add_test(tc, test_bad_solves);
  tcase_add_test(tc, test_failing_cost);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
