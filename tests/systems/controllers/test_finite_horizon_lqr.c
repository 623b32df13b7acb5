/* Finite-horizon LQR: the scalar Riccati ODE's closed form, the double
 * integrator against the Hamiltonian's matrix exponential, convergence to
 * the CARE and the DARE over long horizons, the discrete recursion against
 * a hand iteration, time-varying plants and nominals that miss the dynamics
 * (the affine terms), a pendulum tracking a swing in closed loop, and no
 * allocation in a closed-loop simulation. Bad input and out-of-memory
 * cases are in test_finite_horizon_lqr_error_messages.c. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "solvers/expm.h"
#include "solvers/riccati.h"
#include "support/test_support.h"
#include "systems/analysis/simulator.h"
#include "systems/controllers/finite_horizon_lqr.h"
#include "systems/controllers/lqr.h"
#include "systems/primitives/linear_system.h"
#include "systems/primitives/trajectory_source.h"

/* ---- fixtures ------------------------------------------------------------- */

/* x' = A x + B u (or x[k+1] with period > 0), y = x. */
static teal_system *linear_plant(const double *A, const double *B, int n, int m, double period) {
  double C[16] = {0}, D[16] = {0};
  for (int i = 0; i < n; i++) {
    C[i * n + i] = 1.0;
  }
  teal_error err;
  teal_system *s = teal_linear_system_new("plant", A, B, C, D, n, m, n, period, &err);
  ck_assert_msg(s != NULL, "%s", err.message);
  return s;
}

/* A context of sys at state zero with u = 0 fixed on input 0. */
static teal_context *zero_point(const teal_system *sys, int m) {
  teal_context *ctx = teal_context_new(sys, NULL);
  double u[4] = {0};
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, u, m), TEAL_OK);
  return ctx;
}

static void value_at(const teal_piecewise_polynomial *pp, double t, double *out) {
  ck_assert_int_eq(teal_piecewise_polynomial_value(pp, t, out), TEAL_OK);
}

/* ---- continuous ------------------------------------------------------------ */

/* x' = a x + b u: -s' = q + 2 a s - (b^2 / r) s^2, s(tf) = qf. With beta =
 * b^2 / r, gamma = sqrt(a^2 + beta q) and the roots s+- = (a +- gamma) /
 * beta, (s - s+) / (s - s-) decays as exp(-2 gamma (tf - t)). */
static double scalar_riccati(double a, double b, double q, double r, double qf, double tau) {
  double beta = b * b / r, gamma = sqrt(a * a + beta * q);
  double sp = (a + gamma) / beta, sm = (a - gamma) / beta;
  double rho = (qf - sp) / (qf - sm) * exp(-2.0 * gamma * tau);
  return (sp - sm * rho) / (1.0 - rho);
}

START_TEST(test_scalar_closed_form) {
  double a = 0.5, b = 2.0, q = 3.0, r = 0.5, qf = 10.0, t0 = 1.0, tf = 3.0;
  teal_system *plant = linear_plant(&a, &b, 1, 1, 0.0);
  teal_context *ctx = zero_point(plant, 1);
  teal_finite_horizon_lqr_options o;
  teal_finite_horizon_lqr_options_init(&o);
  o.Qf = &qf;
  teal_finite_horizon_lqr_result res;
  teal_error err;
  ck_assert_msg(teal_finite_horizon_lqr(plant, ctx, t0, tf, &q, &r, &o, &res, &err) == TEAL_OK,
                "%s", err.message);
  ck_assert_double_eq(res.period, 0.0);
  for (int k = 0; k <= 40; k++) { /* at breaks and between them */
    double t = t0 + k * (tf - t0) / 40, s, K;
    value_at(res.S, t, &s);
    value_at(res.K, t, &K);
    double want = scalar_riccati(a, b, q, r, qf, tf - t);
    ck_assert_double_eq_tol(s, want, 1e-8 * want);
    ck_assert_double_eq_tol(K, b * want / r, 1e-8 * b * want / r);
  }
  teal_finite_horizon_lqr_result_free(&res);
  teal_context_free(ctx);
  teal_system_free(plant);
}
END_TEST

/* S(tau) = Y X^-1 with [X; Y] = exp(H tau) [I; Qf] and the Hamiltonian
 * H = [-A, B R^-1 B'; Q, A'] (2 x 2 blocks), which solves the Riccati ODE
 * dS/dtau = Q + S A + A'S - S B R^-1 B'S exactly. */
static void hamiltonian_riccati(const double A[4], const double B[2], const double Q[4], double r,
                                const double Qf[4], double tau, double S[4]) {
  double H[16] = {0}, E[16];
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 2; j++) {
      H[i * 4 + j] = -A[i * 2 + j] * tau;
      H[i * 4 + 2 + j] = B[i] * B[j] / r * tau;
      H[(2 + i) * 4 + j] = Q[i * 2 + j] * tau;
      H[(2 + i) * 4 + 2 + j] = A[j * 2 + i] * tau;
    }
  }
  ck_assert_int_eq(teal_expm(H, 4, E, NULL), TEAL_OK);
  double X[4], Y[4];
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 2; j++) {
      X[i * 2 + j] = E[i * 4 + j] + E[i * 4 + 2] * Qf[j] + E[i * 4 + 3] * Qf[2 + j];
      Y[i * 2 + j] =
          E[(2 + i) * 4 + j] + E[(2 + i) * 4 + 2] * Qf[j] + E[(2 + i) * 4 + 3] * Qf[2 + j];
    }
  }
  double det = X[0] * X[3] - X[1] * X[2];
  double Xi[4] = {X[3] / det, -X[1] / det, -X[2] / det, X[0] / det};
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 2; j++) {
      S[i * 2 + j] = Y[i * 2] * Xi[j] + Y[i * 2 + 1] * Xi[2 + j];
    }
  }
}

START_TEST(test_double_integrator) {
  double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, Q[4] = {1, 0, 0, 2}, R = 0.5;
  double Qf[4] = {5, 1, 1, 3}, tf = 4.0;
  teal_system *plant = linear_plant(A, B, 2, 1, 0.0);
  teal_context *ctx = zero_point(plant, 1);
  teal_finite_horizon_lqr_options o;
  teal_finite_horizon_lqr_options_init(&o);
  o.Qf = Qf;
  teal_finite_horizon_lqr_result res;
  teal_error err;
  ck_assert_msg(teal_finite_horizon_lqr(plant, ctx, 0.0, tf, Q, &R, &o, &res, &err) == TEAL_OK,
                "%s", err.message);
  ck_assert_int_eq(res.nx, 2);
  ck_assert_int_eq(res.nu, 1);
  for (int k = 0; k <= 50; k++) {
    double t = k * tf / 50, S[4], K[2], want[4];
    value_at(res.S, t, S);
    value_at(res.K, t, K);
    hamiltonian_riccati(A, B, Q, R, Qf, tf - t, want);
    for (int i = 0; i < 4; i++) {
      ck_assert_double_eq_tol(S[i], want[i], 1e-8 * fmax(1.0, fabs(want[i])));
    }
    /* K = R^-1 B'S: the second row of S over R */
    ck_assert_double_eq_tol(K[0], want[2] / R, 1e-8 * fmax(1.0, fabs(want[2] / R)));
    ck_assert_double_eq_tol(K[1], want[3] / R, 1e-8 * fmax(1.0, fabs(want[3] / R)));
  }
  teal_finite_horizon_lqr_result_free(&res);
  teal_context_free(ctx);
  teal_system_free(plant);
}
END_TEST

/* With a constant nominal at an equilibrium, S(t0) and K(t0) tend to the
 * CARE solution and the LQR gain as the horizon grows; N is included. */
START_TEST(test_long_horizon_care) {
  double A[4] = {0, 1, -1, -0.2}, B[2] = {0, 1}, Q[4] = {2, 0.5, 0.5, 1}, R = 0.5;
  double N[2] = {0.1, 0.2};
  teal_system *plant = linear_plant(A, B, 2, 1, 0.0);
  teal_context *ctx = zero_point(plant, 1);
  teal_finite_horizon_lqr_options o;
  teal_finite_horizon_lqr_options_init(&o);
  o.N = N;
  teal_finite_horizon_lqr_result res;
  teal_error err;
  ck_assert_msg(teal_finite_horizon_lqr(plant, ctx, 0.0, 60.0, Q, &R, &o, &res, &err) == TEAL_OK,
                "%s", err.message);
  double S[4], K[2], Sc[4], Kc[2];
  value_at(res.S, 0.0, S);
  value_at(res.K, 0.0, K);
  ck_assert_int_eq(teal_lqr(A, B, Q, &R, N, 2, 1, 0, Kc, Sc, NULL), TEAL_OK);
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq_tol(S[i], Sc[i], 1e-9);
  }
  ck_assert_double_eq_tol(K[0], Kc[0], 1e-9);
  ck_assert_double_eq_tol(K[1], Kc[1], 1e-9);
  /* at tf the cost-to-go is Qf = 0 and the gain R^-1 N' */
  value_at(res.S, 60.0, S);
  value_at(res.K, 60.0, K);
  ck_assert_double_eq_tol(S[0], 0.0, 1e-14);
  ck_assert_double_eq_tol(K[1], N[1] / R, 1e-14);
  teal_finite_horizon_lqr_result_free(&res);
  teal_context_free(ctx);
  teal_system_free(plant);
}
END_TEST

/* ---- discrete -------------------------------------------------------------- */

/* One step of S = Q + A'S1A - (A'S1B + N) (R + B'S1B)^-1 (B'S1A + N') for
 * n = 2, m = 1, written out; K receives the gain. */
static void dare_step(const double A[4], const double B[2], const double Q[4], double r,
                      const double N[2], const double S1[4], double S[4], double K[2]) {
  double SA[4], SB[2], P[2], F = r;
  for (int i = 0; i < 2; i++) {
    SB[i] = S1[i * 2] * B[0] + S1[i * 2 + 1] * B[1];
    for (int j = 0; j < 2; j++) {
      SA[i * 2 + j] = S1[i * 2] * A[j] + S1[i * 2 + 1] * A[2 + j];
    }
  }
  F += B[0] * SB[0] + B[1] * SB[1];
  for (int i = 0; i < 2; i++) {
    P[i] = A[i] * SB[0] + A[2 + i] * SB[1] + N[i];
    K[i] = P[i] / F;
  }
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 2; j++) {
      S[i * 2 + j] = Q[i * 2 + j] + A[i] * SA[j] + A[2 + i] * SA[2 + j] - P[i] * K[j];
    }
  }
}

START_TEST(test_discrete_recursion) {
  double h = 0.1, A[4] = {1, 0.1, -0.05, 0.98}, B[2] = {0.005, 0.1};
  double Q[4] = {1, 0.2, 0.2, 0.5}, R = 0.3, N[2] = {0.05, -0.02}, Qf[4] = {4, 0, 0, 2};
  teal_system *plant = linear_plant(A, B, 2, 1, h);
  teal_context *ctx = zero_point(plant, 1);
  teal_finite_horizon_lqr_options o;
  teal_finite_horizon_lqr_options_init(&o);
  o.Qf = Qf;
  o.N = N;
  teal_finite_horizon_lqr_result res;
  teal_error err;
  ck_assert_msg(teal_finite_horizon_lqr(plant, ctx, 1.0, 3.0, Q, &R, &o, &res, &err) == TEAL_OK,
                "%s", err.message);
  ck_assert_double_eq(res.period, h);
  double S1[4], S[4], K[2], got[4];
  memcpy(S1, Qf, sizeof S1);
  value_at(res.S, 3.0, got);
  ck_assert_mem_eq(got, Qf, sizeof got);
  for (int k = 19; k >= 0; k--) {
    double t = 1.0 + k * h;
    dare_step(A, B, Q, R, N, S1, S, K);
    value_at(res.S, t, got);
    for (int i = 0; i < 4; i++) {
      ck_assert_double_eq_tol(got[i], S[i], 1e-12 * fmax(1.0, fabs(S[i])));
    }
    value_at(res.K, t + 0.5 * h, got); /* K[k] holds over the whole period */
    ck_assert_double_eq_tol(got[0], K[0], 1e-12 * fmax(1.0, fabs(K[0])));
    ck_assert_double_eq_tol(got[1], K[1], 1e-12 * fmax(1.0, fabs(K[1])));
    memcpy(S1, S, sizeof S1);
  }
  teal_finite_horizon_lqr_result_free(&res);
  /* a long horizon converges to the DARE */
  ck_assert_int_eq(teal_finite_horizon_lqr(plant, ctx, 0.0, 100.0, Q, &R, &o, &res, &err), TEAL_OK);
  double Sd[4], Kd[2];
  ck_assert_int_eq(teal_lqr(A, B, Q, &R, N, 2, 1, 1, Kd, Sd, NULL), TEAL_OK);
  value_at(res.S, 0.0, S);
  value_at(res.K, 0.0, K);
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq_tol(S[i], Sd[i], 1e-9);
  }
  ck_assert_double_eq_tol(K[0], Kd[0], 1e-9);
  ck_assert_double_eq_tol(K[1], Kd[1], 1e-9);
  teal_finite_horizon_lqr_result_free(&res);
  teal_context_free(ctx);
  teal_system_free(plant);
}
END_TEST

/* ---- time-varying plants -------------------------------------------------- */

static const double k_tv_b = 0.5;

/* a(t) of the scalar time-varying plants. */
static double tv_a(double t, int discrete) {
  return discrete ? 1.0 + 0.1 * t : sin(t);
}

static int tv_input(const teal_system *s, const teal_context *c, double *u) {
  const double *in;
  int rc = teal_eval_vector_input(s, c, 0, &in);
  *u = rc ? 0.0 : in[0];
  return rc;
}

/* x' = sin(t) x + b u. */
static int tv_derivs(const teal_system *s, const teal_context *c, teal_continuous_view *xd,
                     void *user) {
  (void)user;
  double u;
  int rc = tv_input(s, c, &u);
  xd->z[0] = tv_a(teal_context_time(c), 0) * teal_context_z(c)[0] + k_tv_b * u;
  return rc;
}

/* x[k+1] = (1 + 0.1 t_k) x[k] + b u[k]. */
static int tv_update(const teal_system *s, const teal_context *c, double *next, void *user) {
  (void)user;
  double u;
  int rc = tv_input(s, c, &u);
  next[0] = tv_a(teal_context_time(c), 1) * teal_context_discrete_state(c)[0] + k_tv_b * u;
  return rc;
}

static teal_system *tv_plant(int discrete) {
  teal_system *s = teal_leaf_new("tv", NULL, NULL);
  teal_leaf_declare_vector_input(s, "u", 1);
  if (discrete) {
    teal_leaf_declare_discrete_state(s, 1, NULL);
    teal_leaf_declare_periodic_discrete_update(s, 0.25, 0.0, tv_update, NULL);
  } else {
    teal_leaf_declare_continuous_state(s, 0, 0, 1, NULL);
    teal_leaf_set_time_derivatives(s, tv_derivs, NULL);
  }
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* The nominal x0 = 1, u0 = 0.3 on [t0, tf], held constant: it does not
 * satisfy the dynamics, so the affine terms sx, s0 and k0 are not zero. */
static void tv_nominal(teal_finite_horizon_lqr_options *o, double t0, double tf) {
  double breaks[2] = {t0, tf}, x[2] = {1.0, 1.0}, u[2] = {0.3, 0.3};
  o->x0 = teal_piecewise_polynomial_zero_order_hold(breaks, x, 2, 1, NULL);
  o->u0 = teal_piecewise_polynomial_zero_order_hold(breaks, u, 2, 1, NULL);
  ck_assert(o->x0 && o->u0);
}

static void tv_solve(int discrete, double t0, double tf, teal_finite_horizon_lqr_result *res) {
  double q = 1.0, r = 0.2, qf = 2.0;
  teal_system *plant = tv_plant(discrete);
  teal_context *ctx = zero_point(plant, 1);
  teal_finite_horizon_lqr_options o;
  teal_finite_horizon_lqr_options_init(&o);
  o.Qf = &qf;
  tv_nominal(&o, t0, tf);
  teal_error err;
  ck_assert_msg(teal_finite_horizon_lqr(plant, ctx, t0, tf, &q, &r, &o, res, &err) == TEAL_OK, "%s",
                err.message);
  teal_piecewise_polynomial_free((teal_piecewise_polynomial *)o.x0);
  teal_piecewise_polynomial_free((teal_piecewise_polynomial *)o.u0);
  teal_context_free(ctx);
  teal_system_free(plant);
}

/* [s, sx, s0]' in tau at time t, with beta = b^2 / r, c = a(t) + 0.3 b:
 * s' = q + 2 a s - beta s^2, sx' = (a - beta s) sx + s c,
 * s0' = 2 sx c - beta sx^2 (q = 1, r = 0.2). */
static void tv_rhs(double t, const double y[3], double dy[3]) {
  double a = tv_a(t, 0), beta = k_tv_b * k_tv_b / 0.2, c = a + 0.3 * k_tv_b;
  dy[0] = 1.0 + 2.0 * a * y[0] - beta * y[0] * y[0];
  dy[1] = (a - beta * y[0]) * y[1] + y[0] * c;
  dy[2] = 2.0 * y[1] * c - beta * y[1] * y[1];
}

/* The reference: RK4 with 20000 steps backward from [qf, 0, 0]. The time
 * at which the solver linearizes (t = tf - tau, not t0 + tau) and the
 * defect c(t) both matter. */
START_TEST(test_time_varying_continuous) {
  double t0 = 0.5, tf = 3.5, y[3] = {2.0, 0.0, 0.0}, h = (tf - t0) / 20000;
  teal_finite_horizon_lqr_result res;
  tv_solve(0, t0, tf, &res);
  for (int k = 0; k < 20000; k++) {
    double t = tf - k * h, k1[3], k2[3], k3[3], k4[3], z[3];
    tv_rhs(t, y, k1);
    for (int i = 0; i < 3; i++) {
      z[i] = y[i] + 0.5 * h * k1[i];
    }
    tv_rhs(t - 0.5 * h, z, k2);
    for (int i = 0; i < 3; i++) {
      z[i] = y[i] + 0.5 * h * k2[i];
    }
    tv_rhs(t - 0.5 * h, z, k3);
    for (int i = 0; i < 3; i++) {
      z[i] = y[i] + h * k3[i];
    }
    tv_rhs(t - h, z, k4);
    for (int i = 0; i < 3; i++) {
      y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
  }
  double S, sx, s0, K, k0;
  value_at(res.S, t0, &S);
  value_at(res.sx, t0, &sx);
  value_at(res.s0, t0, &s0);
  value_at(res.K, t0, &K);
  value_at(res.k0, t0, &k0);
  ck_assert_double_eq_tol(S, y[0], 1e-9 * fabs(y[0]));
  ck_assert_double_eq_tol(sx, y[1], 1e-9 * fabs(y[1]));
  ck_assert_double_eq_tol(s0, y[2], 1e-9 * fabs(y[2]));
  ck_assert_double_eq_tol(K, k_tv_b * y[0] / 0.2, 1e-9 * fabs(y[0]) / 0.2);
  ck_assert_double_eq_tol(k0, k_tv_b * y[1] / 0.2, 1e-9 * fabs(y[1]) / 0.2);
  teal_finite_horizon_lqr_result_free(&res);
}
END_TEST

/* With a_k = a(t_k), c_k = a_k + 0.3 b - 1, F = r + b^2 S1, v = S1 c + sx1:
 * K = a S1 b / F, S = q + a^2 S1 - a S1 b K, k0 = b v / F,
 * sx = (a - b K) v, s0 = s01 + c S1 c + 2 c sx1 - k0^2 F. */
START_TEST(test_time_varying_discrete) {
  double q = 1.0, r = 0.2, t0 = 0.5, tf = 3.5, h = 0.25, b = k_tv_b;
  teal_finite_horizon_lqr_result res;
  tv_solve(1, t0, tf, &res);
  ck_assert_double_eq(res.period, h);
  double S1 = 2.0, sx1 = 0.0, s01 = 0.0;
  for (int k = 11; k >= 0; k--) {
    double t = t0 + k * h, a = tv_a(t, 1), c = a + 0.3 * b - 1.0, F = r + b * b * S1;
    double K = a * S1 * b / F, v = S1 * c + sx1, k0 = b * v / F;
    double want[5] = {q + a * a * S1 - a * S1 * b * K, (a - b * K) * v,
                      s01 + c * S1 * c + 2.0 * c * sx1 - k0 * k0 * F, K, k0};
    const teal_piecewise_polynomial *got[5] = {res.S, res.sx, res.s0, res.K, res.k0};
    for (int i = 0; i < 5; i++) {
      double g;
      value_at(got[i], t, &g);
      /* A and B come from central differences here (about 1e-10 off) */
      ck_assert_msg(fabs(g - want[i]) < 1e-9 * fmax(1.0, fabs(want[i])), "k %d, term %d: %.17g", k,
                    i, g - want[i]);
    }
    S1 = want[0];
    sx1 = want[1];
    s01 = want[2];
  }
  teal_finite_horizon_lqr_result_free(&res);
}
END_TEST

/* x' = a x + b u about x0 = 1, u0 = 0 (defect c = a): over a long horizon
 * the closed loop settles where q dx^2 + r du^2 is least subject to
 * 0 = a dx + b du + c, dx* = -a c r / (a^2 r + b^2 q), and k0(t0) tends to
 * (a + gamma) c / (b gamma), gamma = sqrt(a^2 + b^2 q / r). */
START_TEST(test_affine_steady_state) {
  double a = 0.5, b = 1.0, q = 1.0, r = 1.0, c = a, tf = 40.0;
  double C = 1.0, D = 0.0, gamma = sqrt(a * a + b * b * q / r);
  teal_error err;
  teal_system *plant = teal_linear_system_new("plant", &a, &b, &C, &D, 1, 1, 1, 0.0, &err);
  teal_context *ctx = zero_point(plant, 1);
  teal_finite_horizon_lqr_options o;
  teal_finite_horizon_lqr_options_init(&o);
  double breaks[2] = {0.0, tf}, ones[2] = {1.0, 1.0}, zeros[2] = {0.0, 0.0};
  teal_piecewise_polynomial *x0 =
      teal_piecewise_polynomial_first_order_hold(breaks, ones, 2, 1, NULL);
  teal_piecewise_polynomial *u0 =
      teal_piecewise_polynomial_first_order_hold(breaks, zeros, 2, 1, NULL);
  o.x0 = x0;
  o.u0 = u0;
  teal_finite_horizon_lqr_result res;
  ck_assert_msg(teal_finite_horizon_lqr(plant, ctx, 0.0, tf, &q, &r, &o, &res, &err) == TEAL_OK,
                "%s", err.message);
  double k0;
  value_at(res.k0, 0.0, &k0);
  ck_assert_double_eq_tol(k0, (a + gamma) * c / (b * gamma), 1e-9);
  teal_builder *bld = teal_builder_new("loop");
  teal_builder_add(bld, plant);
  teal_builder_add(bld, teal_finite_horizon_lqr_controller_new("lqr", &res, NULL));
  teal_builder_connect_by_name(bld, "plant", "y", "lqr", "u");
  teal_builder_connect_by_name(bld, "lqr", "y", "plant", "u");
  teal_system *d = teal_builder_build(bld, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_simulator *sim = teal_simulator_new(d, NULL, &err);
  teal_simulator_set_integrator(sim, teal_integrator_rk45);
  teal_simulator_set_accuracy(sim, 1e-10);
  ck_assert_int_eq(teal_simulator_advance_to(sim, 20.0, NULL), TEAL_OK);
  double x = teal_context_continuous_state(teal_simulator_context(sim))[0];
  ck_assert_double_eq_tol(x - 1.0, -a * c * r / (a * a * r + b * b * q), 1e-7);
  teal_simulator_free(sim);
  teal_system_free(d);
  teal_context_free(ctx);
  teal_piecewise_polynomial_free(x0);
  teal_piecewise_polynomial_free(u0);
  teal_finite_horizon_lqr_result_free(&res);
}
END_TEST

/* ---- a pendulum tracking a swing ------------------------------------------ */

static const double k_g = 9.81, k_damping = 0.1;

/* theta'' = u - g sin(theta) - b theta' (unit mass and length). */
static double pend_accel(double th, double w, double u) {
  return u - k_g * sin(th) - k_damping * w;
}

static double swing_input(double t) {
  return 3.0 * sin(1.5 * t);
}

static int pend_derivs(const teal_system *s, const teal_context *c, teal_continuous_view *xd,
                       void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(s, c, 0, &u);
  if (rc) {
    return rc;
  }
  xd->q[0] = teal_context_v(c)[0];
  xd->v[0] = pend_accel(teal_context_q(c)[0], teal_context_v(c)[0], u[0]);
  return TEAL_OK;
}

static int pend_state(const teal_system *s, const teal_context *c, double *y, void *user) {
  (void)s;
  (void)user;
  y[0] = teal_context_q(c)[0];
  y[1] = teal_context_v(c)[0];
  return TEAL_OK;
}

static teal_system *pendulum(void) {
  teal_system *s = teal_leaf_new("pendulum", NULL, NULL);
  teal_ticket xc = TEAL_TICKET_XC;
  teal_leaf_declare_vector_input(s, "tau", 1);
  teal_leaf_declare_vector_output(s, "state", 2, pend_state, NULL, &xc, 1);
  teal_leaf_declare_continuous_state(s, 1, 1, 0, NULL);
  teal_leaf_set_time_derivatives(s, pend_derivs, NULL);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

enum { SWING_SAMPLES = 401 };
static const double k_swing_end = 4.0;

/* The open-loop swing from rest under swing_input, by RK4 with 10 substeps
 * per sample, splined: x0 (2 rows) and u0 (1 row). */
static void make_swing(teal_piecewise_polynomial **x0, teal_piecewise_polynomial **u0) {
  static double t[SWING_SAMPLES], x[2 * SWING_SAMPLES], u[SWING_SAMPLES];
  double th = 0.0, w = 0.0, dt = k_swing_end / (SWING_SAMPLES - 1), h = dt / 10;
  for (int k = 0; k < SWING_SAMPLES; k++) {
    t[k] = k * dt;
    x[2 * k] = th;
    x[2 * k + 1] = w;
    u[k] = swing_input(t[k]);
    for (int j = 0; j < 10 && k + 1 < SWING_SAMPLES; j++) {
      double s = t[k] + j * h;
      double k1q = w, k1v = pend_accel(th, w, swing_input(s));
      double k2q = w + 0.5 * h * k1v;
      double k2v = pend_accel(th + 0.5 * h * k1q, k2q, swing_input(s + 0.5 * h));
      double k3q = w + 0.5 * h * k2v;
      double k3v = pend_accel(th + 0.5 * h * k2q, k3q, swing_input(s + 0.5 * h));
      double k4q = w + h * k3v, k4v = pend_accel(th + h * k3q, k4q, swing_input(s + h));
      th += h / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
      w += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    }
  }
  *x0 =
      teal_piecewise_polynomial_cubic_spline(t, x, SWING_SAMPLES, 2, TEAL_SPLINE_NOT_A_KNOT, NULL);
  *u0 =
      teal_piecewise_polynomial_cubic_spline(t, u, SWING_SAMPLES, 1, TEAL_SPLINE_NOT_A_KNOT, NULL);
  ck_assert(*x0 && *u0);
}

/* The finite-horizon LQR about the swing (Q = diag(10, 1), R = 0.1). */
static void swing_lqr(teal_finite_horizon_lqr_result *res) {
  teal_piecewise_polynomial *x0, *u0;
  make_swing(&x0, &u0);
  teal_system *model = pendulum();
  teal_context *ctx = teal_context_new(model, NULL);
  double zero = 0.0, Q[4] = {10, 0, 0, 1}, R = 0.1;
  teal_context_fix_input(ctx, 0, &zero, 1);
  teal_finite_horizon_lqr_options o;
  teal_finite_horizon_lqr_options_init(&o);
  o.x0 = x0;
  o.u0 = u0;
  o.Qf = Q;
  o.rtol = 1e-8;
  teal_error err;
  ck_assert_msg(
      teal_finite_horizon_lqr(model, ctx, 0.0, k_swing_end, Q, &R, &o, res, &err) == TEAL_OK, "%s",
      err.message);
  teal_piecewise_polynomial_free(x0);
  teal_piecewise_polynomial_free(u0);
  teal_context_free(ctx);
  teal_system_free(model);
}

/* The pendulum driven by driver (output "y") into its torque, simulated
 * from the swing's start plus (0.3, -0.3); returns the simulator. */
static teal_simulator *swing_loop(teal_system *driver, int feedback, const double *start) {
  teal_builder *b = teal_builder_new("loop");
  teal_builder_add(b, pendulum());
  teal_builder_add(b, driver);
  if (feedback) {
    teal_builder_connect_by_name(b, "pendulum", "state", "driver", "u");
  }
  teal_builder_connect_by_name(b, "driver", "y", "pendulum", "tau");
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_simulator *sim = teal_simulator_new(d, NULL, &err);
  ck_assert_msg(sim != NULL, "%s", err.message);
  double x[2] = {start[0] + 0.3, start[1] - 0.3};
  teal_context_set_continuous_state(teal_simulator_context(sim), x, 2);
  teal_simulator_set_integrator(sim, teal_integrator_rk45);
  teal_simulator_set_accuracy(sim, 1e-8);
  return sim;
}

/* Distance of the simulated state from x0(t_end) after running to t_end. */
static double tracking_error(teal_simulator *sim, const teal_piecewise_polynomial *x0) {
  ck_assert_int_eq(teal_simulator_advance_to(sim, k_swing_end, NULL), TEAL_OK);
  const teal_context *c = teal_simulator_context(sim);
  double want[2];
  value_at(x0, k_swing_end, want);
  return hypot(teal_context_q(c)[0] - want[0], teal_context_v(c)[0] - want[1]);
}

static void free_loop(teal_simulator *sim) {
  const teal_system *d = teal_simulator_system(sim);
  teal_simulator_free(sim);
  teal_system_free((teal_system *)d);
}

START_TEST(test_pendulum_swing) {
  teal_finite_horizon_lqr_result res;
  swing_lqr(&res);
  double start[2];
  value_at(res.x0, 0.0, start);
  teal_error err;
  teal_system *ctrl = teal_finite_horizon_lqr_controller_new("driver", &res, &err);
  ck_assert_msg(ctrl != NULL, "%s", err.message);
  teal_simulator *closed = swing_loop(ctrl, 1, start);
  double closed_error = tracking_error(closed, res.x0);
  free_loop(closed);
  teal_simulator *open =
      swing_loop(teal_trajectory_source_new("driver", res.u0, 0, NULL), 0, start);
  double open_error = tracking_error(open, res.x0);
  free_loop(open);
  /* the open loop keeps most of the 0.42 initial offset; feedback removes it */
  ck_assert_double_gt(open_error, 0.2);
  ck_assert_double_lt(closed_error, 1e-3);
  teal_finite_horizon_lqr_result_free(&res);
}
END_TEST

/* The controller's output is u0(t) - K(t) (x - x0(t)) from the result. */
START_TEST(test_controller_output) {
  teal_finite_horizon_lqr_result res;
  swing_lqr(&res);
  teal_system *ctrl = teal_finite_horizon_lqr_controller_new("fh", &res, NULL);
  ck_assert_ptr_nonnull(ctrl);
  teal_context *ctx = teal_context_new(ctrl, NULL);
  double x[2] = {0.7, -1.1}, x0[2], u0, K[2], k0;
  teal_context_fix_input(ctx, 0, x, 2);
  for (int k = 0; k < 5; k++) {
    double t = 0.37 + 0.8 * k;
    teal_context_set_time(ctx, t);
    const double *y;
    ck_assert_int_eq(teal_eval_vector_output(ctrl, ctx, 0, &y), TEAL_OK);
    value_at(res.x0, t, x0);
    value_at(res.u0, t, &u0);
    value_at(res.K, t, K);
    value_at(res.k0, t, &k0);
    ck_assert_double_eq_tol(y[0], u0 - K[0] * (x[0] - x0[0]) - K[1] * (x[1] - x0[1]) - k0, 1e-12);
  }
  teal_context_free(ctx);
  teal_system_free(ctrl);
  teal_finite_horizon_lqr_result_free(&res);
}
END_TEST

/* After the first steps, a closed-loop simulation allocates nothing. */
START_TEST(test_no_allocation_in_loop) {
  teal_finite_horizon_lqr_result res;
  swing_lqr(&res);
  double start[2];
  value_at(res.x0, 0.0, start);
  teal_simulator *sim =
      swing_loop(teal_finite_horizon_lqr_controller_new("driver", &res, NULL), 1, start);
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.5, NULL), TEAL_OK);
  ts_alloc_install();
  ck_assert_int_eq(teal_simulator_advance_to(sim, 3.5, NULL), TEAL_OK);
  ts_alloc_expect_none();
  ck_assert_int_gt(teal_simulator_get_stats(sim).steps, 10);
  free_loop(sim);
  teal_finite_horizon_lqr_result_free(&res);
}
END_TEST

int main(void) {
  Suite *s = suite_create("finite_horizon_lqr");
  TCase *tc = tcase_create("finite_horizon_lqr");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_scalar_closed_form);
  tcase_add_test(tc, test_double_integrator);
  tcase_add_test(tc, test_long_horizon_care);
  tcase_add_test(tc, test_discrete_recursion);
  tcase_add_test(tc, test_time_varying_continuous);
  tcase_add_test(tc, test_time_varying_discrete);
  tcase_add_test(tc, test_affine_steady_state);
  tcase_add_test(tc, test_pendulum_swing);
  tcase_add_test(tc, test_controller_output);
  tcase_add_test(tc, test_no_allocation_in_loop);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
