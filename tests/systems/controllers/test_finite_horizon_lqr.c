/* Finite-horizon LQR: the scalar Riccati ODE's closed form, the double
 * integrator against the Hamiltonian's matrix exponential, convergence to
 * the CARE and the DARE over long horizons, the discrete recursion against
 * a hand iteration, a pendulum tracking a swing in closed loop, bad input,
 * and no allocation in a closed-loop simulation. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "solvers/expm.h"
#include "solvers/riccati.h"
#include "support/error_messages.h"
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

/* ds/dtau = q + 2 a(tf - tau) s - (b^2 / r) s^2 (RK4, 20000 steps) gives the
 * reference at t0; the solver must linearize at t = tf - tau, not t0 + tau. */
START_TEST(test_time_varying_continuous) {
  double q = 1.0, r = 0.2, qf = 2.0, t0 = 0.5, tf = 3.5, b2r = k_tv_b * k_tv_b / r;
  teal_system *plant = tv_plant(0);
  teal_context *ctx = zero_point(plant, 1);
  teal_finite_horizon_lqr_options o;
  teal_finite_horizon_lqr_options_init(&o);
  o.Qf = &qf;
  teal_finite_horizon_lqr_result res;
  teal_error err;
  ck_assert_msg(teal_finite_horizon_lqr(plant, ctx, t0, tf, &q, &r, &o, &res, &err) == TEAL_OK,
                "%s", err.message);
  double s = qf, h = (tf - t0) / 20000;
  for (int k = 0; k < 20000; k++) {
    double t = tf - k * h; /* dS/dtau at t - c h */
#define TV_RHS(c, x) (q + 2.0 * tv_a(t - (c)*h, 0) * (x)-b2r * (x) * (x))
    double k1 = TV_RHS(0.0, s), k2 = TV_RHS(0.5, s + 0.5 * h * k1);
    double k3 = TV_RHS(0.5, s + 0.5 * h * k2), k4 = TV_RHS(1.0, s + h * k3);
#undef TV_RHS
    s += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
  double got, K;
  value_at(res.S, t0, &got);
  value_at(res.K, t0, &K);
  ck_assert_double_eq_tol(got, s, 1e-9 * s);
  ck_assert_double_eq_tol(K, k_tv_b * s / r, 1e-9 * s / r);
  teal_finite_horizon_lqr_result_free(&res);
  teal_context_free(ctx);
  teal_system_free(plant);
}
END_TEST

/* S[k] = q + a_k^2 S1 - (a_k S1 b)^2 / (r + b^2 S1) with a_k = a(t_k). */
START_TEST(test_time_varying_discrete) {
  double q = 1.0, r = 0.2, qf = 2.0, t0 = 0.5, tf = 3.5, h = 0.25, b = k_tv_b;
  teal_system *plant = tv_plant(1);
  teal_context *ctx = zero_point(plant, 1);
  teal_finite_horizon_lqr_options o;
  teal_finite_horizon_lqr_options_init(&o);
  o.Qf = &qf;
  teal_finite_horizon_lqr_result res;
  teal_error err;
  ck_assert_msg(teal_finite_horizon_lqr(plant, ctx, t0, tf, &q, &r, &o, &res, &err) == TEAL_OK,
                "%s", err.message);
  ck_assert_double_eq(res.period, h);
  double s1 = qf;
  for (int k = 11; k >= 0; k--) {
    double t = t0 + k * h, a = tv_a(t, 1), got, K;
    double want_k = a * s1 * b / (r + b * s1 * b), s = q + a * a * s1 - a * s1 * b * want_k;
    value_at(res.S, t, &got);
    value_at(res.K, t, &K);
    ck_assert_double_eq_tol(got, s, 1e-12 * s);
    ck_assert_double_eq_tol(K, want_k, 1e-12 * fabs(want_k));
    s1 = s;
  }
  teal_finite_horizon_lqr_result_free(&res);
  teal_context_free(ctx);
  teal_system_free(plant);
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
  double x[2] = {0.7, -1.1}, x0[2], u0, K[2];
  teal_context_fix_input(ctx, 0, x, 2);
  for (int k = 0; k < 5; k++) {
    double t = 0.37 + 0.8 * k;
    teal_context_set_time(ctx, t);
    const double *y;
    ck_assert_int_eq(teal_eval_vector_output(ctrl, ctx, 0, &y), TEAL_OK);
    value_at(res.x0, t, x0);
    value_at(res.u0, t, &u0);
    value_at(res.K, t, K);
    ck_assert_double_eq_tol(y[0], u0 - K[0] * (x[0] - x0[0]) - K[1] * (x[1] - x0[1]), 1e-12);
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
  unsigned long allocs = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_uint_eq(allocs, 0);
  ck_assert_int_gt(teal_simulator_get_stats(sim).steps, 10);
  free_loop(sim);
  teal_finite_horizon_lqr_result_free(&res);
}
END_TEST

/* ---- bad input ------------------------------------------------------------ */

/* Calls the solver on the double integrator over [0, 2] with o. */
static int solve_di(const double *Q, const double *R, double t0, double tf,
                    const teal_finite_horizon_lqr_options *o, teal_error *err) {
  double A[4] = {0, 1, 0, 0}, B[2] = {0, 1};
  teal_system *plant = linear_plant(A, B, 2, 1, 0.0);
  teal_context *ctx = zero_point(plant, 1);
  teal_finite_horizon_lqr_result res;
  int rc = teal_finite_horizon_lqr(plant, ctx, t0, tf, Q, R, o, &res, err);
  ck_assert_ptr_null(res.K); /* a failure leaves nothing to free */
  teal_finite_horizon_lqr_result_free(&res);
  teal_context_free(ctx);
  teal_system_free(plant);
  return rc;
}

START_TEST(test_bad_costs_and_times) {
  double Q[4] = {1, 0, 0, 1}, R = 1.0, Rzero = 0.0, Rnan = NAN;
  double Qasym[4] = {1, 0.5, 0, 1}, Qneg[4] = {1, 0, 0, -1}, Qnan[4] = {1, 0, 0, NAN};
  teal_error err;
  TS_EXPECT_ERROR(solve_di(Q, &Rzero, 0, 2, NULL, &err), TEAL_ESINGULAR, &err,
                  "R is not positive definite");
  TS_EXPECT_ERROR(solve_di(Q, &Rnan, 0, 2, NULL, &err), TEAL_ENONFINITE, &err, "R has a NaN");
  TS_EXPECT_ERROR(solve_di(Qasym, &R, 0, 2, NULL, &err), TEAL_EINVAL, &err, "Q is not symmetric");
  TS_EXPECT_ERROR(solve_di(Qneg, &R, 0, 2, NULL, &err), TEAL_EINVAL, &err,
                  "Q is not positive semidefinite");
  TS_EXPECT_ERROR(solve_di(Qnan, &R, 0, 2, NULL, &err), TEAL_ENONFINITE, &err, "Q has a NaN");
  teal_finite_horizon_lqr_options o;
  teal_finite_horizon_lqr_options_init(&o);
  o.Qf = Qneg;
  TS_EXPECT_ERROR(solve_di(Q, &R, 0, 2, &o, &err), TEAL_EINVAL, &err,
                  "Qf is not positive semidefinite");
  o.Qf = NULL;
  double Nnan[2] = {0, NAN};
  o.N = Nnan;
  TS_EXPECT_ERROR(solve_di(Q, &R, 0, 2, &o, &err), TEAL_ENONFINITE, &err, "N has a NaN");
  o.N = NULL;
  o.rtol = 0.0;
  TS_EXPECT_ERROR(solve_di(Q, &R, 0, 2, &o, &err), TEAL_EINVAL, &err, "rtol");
  o.rtol = 1e-10;
  o.max_steps = 3;
  TS_EXPECT_ERROR(solve_di(Q, &R, 0, 2, &o, &err), TEAL_ENOCONV, &err, "max_steps");
  TS_EXPECT_ERROR(solve_di(Q, &R, 2, 2, NULL, &err), TEAL_EINVAL, &err, "must be < tf");
  TS_EXPECT_ERROR(solve_di(Q, &R, NAN, 2, NULL, &err), TEAL_ENONFINITE, &err, "finite");
  TS_EXPECT_ERROR(solve_di(NULL, &R, 0, 2, NULL, &err), TEAL_EINVAL, &err, "needs");
}
END_TEST

START_TEST(test_bad_nominal) {
  double Q[4] = {1, 0, 0, 1}, R = 1.0, breaks[2] = {0.0, 1.5}, samples[4] = {0};
  teal_piecewise_polynomial *short_x0 =
      teal_piecewise_polynomial_first_order_hold(breaks, samples, 2, 2, NULL);
  teal_piecewise_polynomial *wide_u0 =
      teal_piecewise_polynomial_first_order_hold(breaks, samples, 2, 2, NULL);
  teal_finite_horizon_lqr_options o;
  teal_finite_horizon_lqr_options_init(&o);
  o.x0 = short_x0;
  teal_error err;
  TS_EXPECT_ERROR(solve_di(Q, &R, 0, 2, &o, &err), TEAL_EINVAL, &err,
                  "x0 covers [0, 1.5], shorter than the horizon [0, 2]");
  o.x0 = NULL;
  o.u0 = wide_u0;
  TS_EXPECT_ERROR(solve_di(Q, &R, 0, 1, &o, &err), TEAL_EINVAL, &err,
                  "u0 has 2 rows, the plant needs 1");
  teal_piecewise_polynomial_free(short_x0);
  teal_piecewise_polynomial_free(wide_u0);
  /* no u0 and nothing on the input port */
  double A[4] = {0, 1, 0, 0}, B[2] = {0, 1};
  teal_system *plant = linear_plant(A, B, 2, 1, 0.0);
  teal_context *ctx = teal_context_new(plant, NULL);
  teal_finite_horizon_lqr_result res;
  TS_EXPECT_ERROR(teal_finite_horizon_lqr(plant, ctx, 0, 1, Q, &R, NULL, &res, &err), TEAL_EINVAL,
                  &err, "no u0 given");
  teal_context_free(ctx);
  teal_system_free(plant);
}
END_TEST

START_TEST(test_bad_discrete_and_controller) {
  double A[4] = {1, 0.1, 0, 1}, B[2] = {0.005, 0.1}, Q[4] = {1, 0, 0, 1}, R = 1.0;
  teal_system *plant = linear_plant(A, B, 2, 1, 0.1);
  teal_context *ctx = zero_point(plant, 1);
  teal_finite_horizon_lqr_result res;
  teal_error err;
  TS_EXPECT_ERROR(teal_finite_horizon_lqr(plant, ctx, 0, 1.05, Q, &R, NULL, &res, &err),
                  TEAL_EINVAL, &err, "not a whole number of periods");
  /* a negative R is caught before the recursion */
  double Rneg = -(0.005 * 0.005 + 0.1 * 0.1);
  TS_EXPECT_ERROR(teal_finite_horizon_lqr(plant, ctx, 0, 1, Q, &Rneg, NULL, &res, &err),
                  TEAL_ESINGULAR, &err, "R is not positive definite");
  teal_context_free(ctx);
  teal_system_free(plant);
  ck_assert_ptr_null(teal_finite_horizon_lqr_controller_new("c", NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "NULL or empty result"));
  TS_EXPECT_ERROR(teal_finite_horizon_lqr(NULL, NULL, 0, 1, Q, &R, NULL, &res, &err), TEAL_EINVAL,
                  &err, "needs a system");
  TS_EXPECT_ERROR(teal_finite_horizon_lqr(plant, ctx, 0, 1, Q, &R, NULL, NULL, &err), TEAL_EINVAL,
                  &err, "NULL result");
}
END_TEST

/* ---- out of memory ---------------------------------------------------------- */

static const teal_finite_horizon_lqr_result *g_oom_result;

static teal_system *make_oom(teal_error *err, void *user) {
  (void)user;
  return teal_finite_horizon_lqr_controller_new("oom", g_oom_result, err);
}

/* Every allocation of the solver (a short problem of each kind) and of the
 * controller may fail: each failure reports TEAL_ENOMEM and leaves nothing
 * allocated (the sanitizer build checks for leaks). */
START_TEST(test_out_of_memory) {
  double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, Q[4] = {1, 0, 0, 1}, R = 1.0;
  for (int discrete = 0; discrete < 2; discrete++) {
    teal_system *plant = linear_plant(A, B, 2, 1, discrete ? 0.5 : 0.0);
    teal_context *ctx = zero_point(plant, 1);
    teal_finite_horizon_lqr_result res;
    int failures = 0, rc = TEAL_ENOMEM;
    for (long k = 0; k < 100000 && rc != TEAL_OK; k++) {
      teal_error err;
      ts_alloc_install();
      ts_alloc_fail_after(k, 0);
      rc = teal_finite_horizon_lqr(plant, ctx, 0.0, 1.0, Q, &R, NULL, &res, &err);
      ts_alloc_uninstall();
      if (rc != TEAL_OK) {
        ck_assert_msg(rc == TEAL_ENOMEM && err.code == TEAL_ENOMEM, "k %ld: %d %s", k, rc,
                      err.message);
        ck_assert_ptr_null(res.S);
        failures++;
      }
    }
    ck_assert_int_eq(rc, TEAL_OK);
    ck_assert_int_gt(failures, 5);
    g_oom_result = &res;
    ck_assert_int_gt(ts_oom_sweep(make_oom, NULL, "'oom'"), 3);
    teal_finite_horizon_lqr_result_free(&res);
    teal_context_free(ctx);
    teal_system_free(plant);
  }
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
  tcase_add_test(tc, test_pendulum_swing);
  tcase_add_test(tc, test_controller_output);
  tcase_add_test(tc, test_no_allocation_in_loop);
  tcase_add_test(tc, test_bad_costs_and_times);
  tcase_add_test(tc, test_bad_nominal);
  tcase_add_test(tc, test_bad_discrete_and_controller);
  tcase_add_test(tc, test_out_of_memory);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
