/* Tests of the PID controller: ports and feedthrough, output and
 * derivatives against hand calculation (plain, filtered derivative,
 * anti-windup in each saturation case), the filtered derivative's step
 * response and the anti-windup behaviour over time (integrated with RK4
 * through the derivative API), the analytic Jacobian against hand values
 * and finite differences, a closed loop on the simulator, and parameter
 * validation. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "support/test_support.h"
#include "systems/analysis/simulator.h"
#include "systems/controllers/pid.h"

const char *__ubsan_default_options(void);
#if defined(__GNUC__)
__attribute__((weak))
#endif
const char *__ubsan_default_options(void) {
  return "halt_on_error=1:print_stacktrace=1";
}

#define ASSERT_HAS(msg, sub)                                                            \
  ck_assert_msg(strstr((msg), (sub)) != NULL, "message \"%s\" does not contain \"%s\"", \
                (msg), (sub))

enum { N = 2 };
static const double KP[N] = {2.0, 3.0}, KI[N] = {0.5, 1.0}, KD[N] = {0.1, 0.2};
/* estimated [q; v] and desired [q_d; v_d]: e = (0.5, 1), v_d - v = (-0.5, -1) */
static const double X_EST[2 * N] = {1.0, -1.0, 0.5, 2.0};
static const double X_DES[2 * N] = {1.5, 0.0, 0.0, 1.0};

static teal_context *context_at(const teal_system *pid, const double *x_est,
                                const double *x_des, const double *z, int nz) {
  teal_context *ctx = teal_context_new(pid, NULL);
  ck_assert_ptr_nonnull(ctx);
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, x_est, 2 * N), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_input(ctx, 1, x_des, 2 * N), TEAL_OK);
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, z, nz), TEAL_OK);
  return ctx;
}

static void control(const teal_system *pid, const teal_context *ctx, double u[N]) {
  ck_assert_int_eq(teal_calc_vector_output(pid, ctx, 0, u), TEAL_OK);
}

START_TEST(test_ports) {
  teal_error err;
  teal_system *pid = teal_pid_new("pid", KP, KI, KD, N, &err);
  ck_assert_msg(pid != NULL, "%s", err.message);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(pid, 0)), "estimated_state");
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(pid, 1)), "desired_state");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(pid, 0)), "control");
  ck_assert_int_eq(teal_input_port_size(teal_system_input_port(pid, 0)), 2 * N);
  ck_assert_int_eq(teal_input_port_size(teal_system_input_port(pid, 1)), 2 * N);
  ck_assert_int_eq(teal_output_port_size(teal_system_output_port(pid, 0)), N);
  ck_assert(teal_system_has_direct_feedthrough(pid, 0, 0));
  ck_assert(teal_system_has_direct_feedthrough(pid, 1, 0));
  int nz;
  ck_assert_int_eq(teal_system_num_continuous_states(pid, NULL, NULL, &nz), N);
  ck_assert_int_eq(nz, N);
  ck_assert(teal_system_has_jacobian(pid));
  teal_system_free(pid);
  teal_pid_config cfg = {0.05, NULL, NULL};
  pid = teal_pid_new_ex("pidf", KP, KI, KD, N, &cfg, &err);
  ck_assert_int_eq(teal_system_num_continuous_states(pid, NULL, NULL, &nz), 2 * N);
  teal_system_free(pid);
}
END_TEST

START_TEST(test_plain_hand_computed) {
  teal_system *pid = teal_pid_new("pid", KP, KI, KD, N, NULL);
  const double z[N] = {0.4, -2.0};
  teal_context *ctx = context_at(pid, X_EST, X_DES, z, N);
  double u[N], zdot[N];
  control(pid, ctx, u);
  /* 2(0.5) + 0.5(0.4) + 0.1(-0.5) and 3(1) + 1(-2) + 0.2(-1) */
  ck_assert_double_eq_tol(u[0], 1.15, 1e-15);
  ck_assert_double_eq_tol(u[1], 0.8, 1e-15);
  ck_assert_int_eq(teal_calc_time_derivatives(pid, ctx, zdot), TEAL_OK);
  ck_assert_double_eq(zdot[0], 0.5);
  ck_assert_double_eq(zdot[1], 1.0);
  /* the cached output follows the inputs */
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(pid, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], 1.15, 1e-15);
  double x2[2 * N] = {1.5, 0.0, 0.0, 1.0}; /* on target: only the integral acts */
  teal_context_fix_input(ctx, 0, x2, 2 * N);
  ck_assert_int_eq(teal_eval_vector_output(pid, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], 0.2, 1e-15);
  ck_assert_double_eq_tol(y[1], -2.0, 1e-15);
  teal_context_free(ctx);
  teal_system_free(pid);
}
END_TEST

START_TEST(test_filtered_hand_computed) {
  teal_pid_config cfg = {0.05, NULL, NULL};
  teal_system *pid = teal_pid_new_ex("pid", KP, KI, KD, N, &cfg, NULL);
  const double z[2 * N] = {0.4, -2.0, 0.3, 0.9}; /* integral, then filter */
  teal_context *ctx = context_at(pid, X_EST, X_DES, z, 2 * N);
  double u[N], zdot[2 * N];
  control(pid, ctx, u);
  /* e_dot = (e - w) / tau = (4, 2): 1 + 0.2 + 0.1(4), 3 - 2 + 0.2(2) */
  ck_assert_double_eq_tol(u[0], 1.6, 1e-13);
  ck_assert_double_eq_tol(u[1], 1.4, 1e-13);
  ck_assert_int_eq(teal_calc_time_derivatives(pid, ctx, zdot), TEAL_OK);
  ck_assert_double_eq(zdot[0], 0.5);
  ck_assert_double_eq(zdot[1], 1.0);
  ck_assert_double_eq_tol(zdot[2], 4.0, 1e-13);
  ck_assert_double_eq_tol(zdot[3], 2.0, 1e-13);
  /* the velocity halves of the inputs play no part */
  double x2[2 * N] = {1.0, -1.0, 100.0, -100.0};
  teal_context_fix_input(ctx, 0, x2, 2 * N);
  double u2[N];
  control(pid, ctx, u2);
  ck_assert_double_eq(u2[0], u[0]);
  ck_assert_double_eq(u2[1], u[1]);
  teal_context_free(ctx);
  teal_system_free(pid);
}
END_TEST

/* ---- RK4 through the derivative API ------------------------------------ */

static void rk4_step(const teal_system *sys, teal_context *ctx, int n, double h) {
  double x0[8], k[4][8], x[8];
  static const double stage[4] = {0.0, 0.5, 0.5, 1.0};
  double t0 = teal_context_time(ctx);
  teal_context_get_continuous_state(ctx, x0, n);
  for (int s = 0; s < 4; s++) {
    for (int i = 0; i < n; i++) {
      x[i] = x0[i] + (s ? stage[s] * h * k[s - 1][i] : 0.0);
    }
    teal_context_set_continuous_state(ctx, x, n);
    teal_context_set_time(ctx, t0 + stage[s] * h);
    ck_assert_int_eq(teal_calc_time_derivatives(sys, ctx, k[s]), TEAL_OK);
  }
  for (int i = 0; i < n; i++) {
    x[i] = x0[i] + h / 6.0 * (k[0][i] + 2.0 * k[1][i] + 2.0 * k[2][i] + k[3][i]);
  }
  teal_context_set_continuous_state(ctx, x, n);
  teal_context_set_time(ctx, t0 + h);
}

/* A constant error step e: the derivative term is kd e exp(-t/tau) / tau. */
START_TEST(test_filtered_step_response) {
  const double kp[1] = {1.0}, ki[1] = {0.0}, kd[1] = {0.5}, tau = 0.2, e = 2.0;
  teal_pid_config cfg = {tau, NULL, NULL};
  teal_system *pid = teal_pid_new_ex("pid", kp, ki, kd, 1, &cfg, NULL);
  teal_context *ctx = teal_context_new(pid, NULL);
  const double est[2] = {0.0, 0.0}, des[2] = {e, 0.0};
  teal_context_fix_input(ctx, 0, est, 2);
  teal_context_fix_input(ctx, 1, des, 2);
  for (int step = 0; step <= 100; step++) {
    double t = teal_context_time(ctx), u;
    ck_assert_int_eq(teal_calc_vector_output(pid, ctx, 0, &u), TEAL_OK);
    double expected = kp[0] * e + kd[0] * e * exp(-t / tau) / tau;
    ck_assert_double_eq_tol(u, expected, 1e-7);
    rk4_step(pid, ctx, 2, 0.01);
  }
  teal_context_free(ctx);
  teal_system_free(pid);
}
END_TEST

/* ---- anti-windup -------------------------------------------------------- */

static const double LO[N] = {-1.0, -1.0}, HI[N] = {1.0, 1.0};

/* One DOF at error e with integral z (kp = 2, ki = 1, kd = 0, limits +-1):
 * returns the control and the integral's derivative. */
static void windup_case(double e, double z, double *u, double *zdot) {
  const double kp[1] = {2.0}, ki[1] = {1.0}, kd[1] = {0.0};
  teal_pid_config cfg = {0.0, LO, HI};
  teal_system *pid = teal_pid_new_ex("aw", kp, ki, kd, 1, &cfg, NULL);
  ck_assert_ptr_nonnull(pid);
  teal_context *ctx = teal_context_new(pid, NULL);
  const double est[2] = {0.0, 0.0}, des[2] = {e, 0.0};
  teal_context_fix_input(ctx, 0, est, 2);
  teal_context_fix_input(ctx, 1, des, 2);
  teal_context_set_continuous_state(ctx, &z, 1);
  ck_assert_int_eq(teal_calc_vector_output(pid, ctx, 0, u), TEAL_OK);
  ck_assert_int_eq(teal_calc_time_derivatives(pid, ctx, zdot), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(pid);
}

START_TEST(test_anti_windup_cases) {
  double u, zdot;
  windup_case(0.25, 0.1, &u, &zdot); /* raw 0.6: inside, integrates */
  ck_assert_double_eq_tol(u, 0.6, 1e-15);
  ck_assert_double_eq(zdot, 0.25);
  windup_case(2.0, 0.5, &u, &zdot); /* raw 4.5 > 1 and e > 0: stopped */
  ck_assert_double_eq(u, 1.0);
  ck_assert_double_eq(zdot, 0.0);
  windup_case(-0.5, 3.0, &u, &zdot); /* raw 2 > 1 but e < 0: unwinds */
  ck_assert_double_eq(u, 1.0);
  ck_assert_double_eq(zdot, -0.5);
  windup_case(-3.0, 0.0, &u, &zdot); /* raw -6 < -1 and e < 0: stopped */
  ck_assert_double_eq(u, -1.0);
  ck_assert_double_eq(zdot, 0.0);
  windup_case(0.5, -4.0, &u, &zdot); /* raw -3 < -1 but e > 0: unwinds */
  ck_assert_double_eq(u, -1.0);
  ck_assert_double_eq(zdot, 0.5);
}
END_TEST

START_TEST(test_one_sided_limit) {
  const double hi[N] = {0.5, INFINITY};
  teal_pid_config cfg = {0.0, NULL, hi};
  teal_system *pid = teal_pid_new_ex("pid", KP, KI, KD, N, &cfg, NULL);
  const double z[N] = {0.4, -2.0};
  teal_context *ctx = context_at(pid, X_EST, X_DES, z, N);
  double u[N], zdot[N];
  control(pid, ctx, u);
  ck_assert_double_eq(u[0], 0.5);            /* 1.15 clipped */
  ck_assert_double_eq_tol(u[1], 0.8, 1e-15); /* no limit */
  teal_calc_time_derivatives(pid, ctx, zdot);
  ck_assert_double_eq(zdot[0], 0.0);
  ck_assert_double_eq(zdot[1], 1.0);
  teal_context_free(ctx);
  teal_system_free(pid);
}
END_TEST

/* A persistent error saturates both controllers for 3 s, then reverses:
 * the plain integral winds up and keeps the output saturated long after
 * the reversal; the anti-windup one leaves saturation at once. */
START_TEST(test_anti_windup_over_time) {
  const double kp[1] = {2.0}, ki[1] = {1.0}, kd[1] = {0.0};
  const double big = 1e9;
  const double lo[1] = {-1.0}, hi[1] = {1.0}, wide_lo[1] = {-big}, wide_hi[1] = {big};
  teal_pid_config aw = {0.0, lo, hi}, plain = {0.0, wide_lo, wide_hi};
  teal_system *sys[2] = {teal_pid_new_ex("aw", kp, ki, kd, 1, &aw, NULL),
                         teal_pid_new_ex("plain", kp, ki, kd, 1, &plain, NULL)};
  double u_after[2], z_end[2];
  for (int k = 0; k < 2; k++) {
    teal_context *ctx = teal_context_new(sys[k], NULL);
    const double est[2] = {0.0, 0.0}, des[2] = {2.0, 0.0}, back[2] = {-0.25, 0.0};
    teal_context_fix_input(ctx, 0, est, 2);
    teal_context_fix_input(ctx, 1, des, 2);
    for (int step = 0; step < 300; step++) {
      rk4_step(sys[k], ctx, 1, 0.01);
    }
    z_end[k] = teal_context_z(ctx)[0];
    teal_context_fix_input(ctx, 1, back, 2);
    ck_assert_int_eq(teal_calc_vector_output(sys[k], ctx, 0, &u_after[k]), TEAL_OK);
    teal_context_free(ctx);
    teal_system_free(sys[k]);
  }
  ck_assert_double_eq_tol(z_end[0], 0.0, 1e-12); /* never integrated: always saturated */
  ck_assert_double_eq_tol(z_end[1], 6.0, 1e-9);  /* 3 s of e = 2 */
  ck_assert_double_eq_tol(u_after[0], -0.5, 1e-12); /* follows the new error */
  ck_assert_double_eq_tol(u_after[1], 5.5, 1e-9);   /* wound up: pushes the wrong way */
}
END_TEST

/* ---- Jacobian ----------------------------------------------------------- */

START_TEST(test_jacobian_plain_hand_values) {
  teal_system *pid = teal_pid_new("pid", KP, KI, KD, N, NULL);
  const double z[N] = {0.4, -2.0};
  teal_context *ctx = context_at(pid, X_EST, X_DES, z, N);
  double A[N * N], B[N * 2 * N], C[N * N], D[N * 2 * N];
  teal_jacobian jac = {N, 2 * N, N, A, B, C, D};
  ck_assert_int_eq(teal_calc_jacobian(pid, ctx, 0, 0, &jac), TEAL_OK);
  const double eB[8] = {-1, 0, 0, 0, 0, -1, 0, 0};
  const double eC[4] = {0.5, 0, 0, 1.0};
  const double eD[8] = {-2, 0, -0.1, 0, 0, -3, 0, -0.2};
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq(A[i], 0.0);
    ck_assert_double_eq(C[i], eC[i]);
  }
  for (int i = 0; i < 8; i++) {
    ck_assert_double_eq(B[i], eB[i]);
    ck_assert_double_eq(D[i], eD[i]);
  }
  ck_assert_int_eq(teal_calc_jacobian(pid, ctx, 1, 0, &jac), TEAL_OK);
  for (int i = 0; i < 8; i++) {
    ck_assert_double_eq(B[i], -eB[i]);
    ck_assert_double_eq(D[i], -eD[i]);
  }
  teal_context_free(ctx);
  teal_system_free(pid);
}
END_TEST

/* Central differences of the output and derivatives (nx states). */
static void check_jacobian_fd(const teal_system *pid, teal_context *ctx, int nx, int port) {
  double A[16], B[32], C[8], D[16];
  teal_jacobian jac = {nx, 2 * N, N, A, B, C, D};
  ck_assert_int_eq(teal_calc_jacobian(pid, ctx, port, 0, &jac), TEAL_OK);
  const double h = 1e-6;
  double x[4], u[4], fp[4], fm[4], yp[N], ym[N];
  teal_context_get_continuous_state(ctx, x, nx);
  for (int j = 0; j < nx; j++) { /* A and C column j */
    double keep = x[j];
    x[j] = keep + h;
    teal_context_set_continuous_state(ctx, x, nx);
    teal_calc_time_derivatives(pid, ctx, fp);
    control(pid, ctx, yp);
    x[j] = keep - h;
    teal_context_set_continuous_state(ctx, x, nx);
    teal_calc_time_derivatives(pid, ctx, fm);
    control(pid, ctx, ym);
    x[j] = keep;
    teal_context_set_continuous_state(ctx, x, nx);
    for (int i = 0; i < nx; i++) {
      ck_assert_double_eq_tol(A[i * nx + j], (fp[i] - fm[i]) / (2 * h), 1e-6);
    }
    for (int i = 0; i < N; i++) {
      ck_assert_double_eq_tol(C[i * nx + j], (yp[i] - ym[i]) / (2 * h), 1e-6);
    }
  }
  const double *cur;
  teal_eval_vector_input(pid, ctx, port, &cur);
  memcpy(u, cur, sizeof u);
  for (int j = 0; j < 2 * N; j++) { /* B and D column j */
    double keep = u[j];
    u[j] = keep + h;
    teal_context_fix_input(ctx, port, u, 2 * N);
    teal_calc_time_derivatives(pid, ctx, fp);
    control(pid, ctx, yp);
    u[j] = keep - h;
    teal_context_fix_input(ctx, port, u, 2 * N);
    teal_calc_time_derivatives(pid, ctx, fm);
    control(pid, ctx, ym);
    u[j] = keep;
    teal_context_fix_input(ctx, port, u, 2 * N);
    for (int i = 0; i < nx; i++) {
      ck_assert_double_eq_tol(B[i * 2 * N + j], (fp[i] - fm[i]) / (2 * h), 1e-6);
    }
    for (int i = 0; i < N; i++) {
      ck_assert_double_eq_tol(D[i * 2 * N + j], (yp[i] - ym[i]) / (2 * h), 1e-6);
    }
  }
}

START_TEST(test_jacobian_matches_finite_differences) {
  /* filtered */
  teal_pid_config filt = {0.05, NULL, NULL};
  teal_system *pid = teal_pid_new_ex("f", KP, KI, KD, N, &filt, NULL);
  const double z4[2 * N] = {0.4, -2.0, 0.3, 0.9};
  teal_context *ctx = context_at(pid, X_EST, X_DES, z4, 2 * N);
  check_jacobian_fd(pid, ctx, 2 * N, 0);
  check_jacobian_fd(pid, ctx, 2 * N, 1);
  teal_context_free(ctx);
  teal_system_free(pid);
  /* limited: dof 0 saturated high and stopped (raw 1.15 > 1, e > 0),
   * dof 1 inside (raw 0.8) */
  teal_pid_config lim = {0.0, LO, HI};
  pid = teal_pid_new_ex("l", KP, KI, KD, N, &lim, NULL);
  const double z2[N] = {0.4, -2.0};
  ctx = context_at(pid, X_EST, X_DES, z2, N);
  double A[4], B[8], C[4], D[8];
  teal_jacobian jac = {N, 2 * N, N, A, B, C, D};
  ck_assert_int_eq(teal_calc_jacobian(pid, ctx, 0, 0, &jac), TEAL_OK);
  ck_assert_double_eq(C[0], 0.0);  /* saturated: no state gain */
  ck_assert_double_eq(D[0], 0.0);  /* ...nor input gain */
  ck_assert_double_eq(B[0], 0.0);  /* stopped integral */
  ck_assert_double_eq(C[3], 1.0);  /* dof 1 untouched */
  ck_assert_double_eq(B[5], -1.0);
  check_jacobian_fd(pid, ctx, N, 0);
  check_jacobian_fd(pid, ctx, N, 1);
  /* the hook reads the inputs when limits make it state dependent */
  teal_context_unfix_input(ctx, 0);
  ck_assert_int_eq(teal_calc_jacobian(pid, ctx, 0, 0, &jac), TEAL_ENOTCONNECTED);
  teal_context_free(ctx);
  teal_system_free(pid);
}
END_TEST

/* ---- closed loop on the simulator --------------------------------------- */

/* A unit mass with a constant disturbance force of -2: q'' = u - 2. */
static int mass_state(const teal_system *sys, const teal_context *ctx, double *out,
                      void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_q(ctx)[0];
  out[1] = teal_context_v(ctx)[0];
  return TEAL_OK;
}

static int mass_derivatives(const teal_system *sys, const teal_context *ctx,
                            teal_continuous_view *xdot, void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  xdot->q[0] = teal_context_v(ctx)[0];
  xdot->v[0] = u[0] - 2.0;
  return TEAL_OK;
}

static teal_system *mass_new(void) {
  teal_system *sys = teal_leaf_new("mass", NULL, NULL);
  teal_ticket xc = TEAL_TICKET_XC;
  teal_leaf_declare_vector_input(sys, "force", 1);
  teal_leaf_declare_continuous_state(sys, 1, 1, 0, NULL);
  teal_leaf_declare_vector_output(sys, "state", 2, mass_state, NULL, &xc, 1);
  teal_leaf_set_time_derivatives(sys, mass_derivatives, NULL);
  teal_leaf_finalize(sys);
  return sys;
}

START_TEST(test_closed_loop_rejects_disturbance) {
  const double kp[1] = {10.0}, ki[1] = {5.0}, kd[1] = {6.0}, target[2] = {1.0, 0.0};
  teal_error err;
  teal_builder *b = teal_builder_new("loop");
  teal_builder_add(b, mass_new());
  teal_system *pid = teal_builder_add(b, teal_pid_new("pid", kp, ki, kd, 1, &err));
  teal_builder_add(b, ts_constant_new("target", 2, target));
  teal_builder_connect_by_name(b, "mass", "state", "pid", "estimated_state");
  teal_builder_connect_by_name(b, "target", "y", "pid", "desired_state");
  teal_builder_connect_by_name(b, "pid", "control", "mass", "force");
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_simulator *sim = teal_simulator_new(d, NULL, &err);
  ck_assert_ptr_nonnull(sim);
  teal_simulator_set_accuracy(sim, 1e-8);
  ck_assert_int_eq(teal_simulator_advance_to(sim, 25.0, NULL), TEAL_OK);
  teal_context *ctx = teal_simulator_context(sim);
  const teal_context *mctx = teal_context_subcontext_by_name(ctx, "mass");
  ck_assert_double_eq_tol(teal_context_q(mctx)[0], 1.0, 1e-5); /* no steady-state error */
  const teal_context *pctx = teal_context_subcontext(ctx, pid);
  ck_assert_double_eq_tol(teal_context_z(pctx)[0], 0.4, 1e-5); /* ki z cancels the load */
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

/* ---- errors ------------------------------------------------------------- */

/* The constructor under the allocation-failure sweep. */
static teal_system *make_oom(teal_error *err, void *user) {
  (void)user;
  return teal_pid_new("oom", KP, KI, KD, N, err);
}

START_TEST(test_bad_parameters) {
  teal_error err;
  const double nan2[N] = {1.0, NAN}, inf2[N] = {INFINITY, 1.0};
  ck_assert_ptr_null(teal_pid_new("p1", KP, KI, KD, 0, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ASSERT_HAS(err.message, "'p1'");
  ck_assert_ptr_null(teal_pid_new("p2", NULL, KI, KD, N, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "'p2'");
  ASSERT_HAS(err.message, "kp");
  ck_assert_ptr_null(teal_pid_new("p3", KP, nan2, KD, N, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ASSERT_HAS(err.message, "ki[1]");
  ck_assert_ptr_null(teal_pid_new("p4", KP, KI, inf2, N, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ASSERT_HAS(err.message, "'p4'");
  ASSERT_HAS(err.message, "kd[0]");

  teal_pid_config cfg = {-0.1, NULL, NULL};
  ck_assert_ptr_null(teal_pid_new_ex("p5", KP, KI, KD, N, &cfg, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "'p5'");
  ASSERT_HAS(err.message, "derivative_time_constant");
  cfg.derivative_time_constant = NAN;
  ck_assert_ptr_null(teal_pid_new_ex("p6", KP, KI, KD, N, &cfg, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  const double lo[N] = {-1.0, 2.0}, hi[N] = {1.0, 1.0}, lo_nan[N] = {NAN, 0.0};
  teal_pid_config crossed = {0.0, lo, hi};
  ck_assert_ptr_null(teal_pid_new_ex("p7", KP, KI, KD, N, &crossed, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "'p7'");
  ASSERT_HAS(err.message, "output_min[1]");
  teal_pid_config nan_lim = {0.0, lo_nan, NULL};
  ck_assert_ptr_null(teal_pid_new_ex("p8", KP, KI, KD, N, &nan_lim, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ASSERT_HAS(err.message, "output_min[0]");
  /* infinite limits are allowed */
  const double open_lo[N] = {-INFINITY, -INFINITY};
  teal_pid_config open = {0.0, open_lo, NULL};
  teal_system *ok = teal_pid_new_ex("p9", KP, KI, KD, N, &open, &err);
  ck_assert_ptr_nonnull(ok);
  teal_system_free(ok);

  ck_assert_int_gt(ts_oom_sweep(make_oom, NULL, "'oom'"), 3);
}
END_TEST

static Suite *pid_suite(void) {
  Suite *s = suite_create("pid");
  TCase *tc = tcase_create("law");
  tcase_add_test(tc, test_ports);
  tcase_add_test(tc, test_plain_hand_computed);
  tcase_add_test(tc, test_filtered_hand_computed);
  tcase_add_test(tc, test_filtered_step_response);
  suite_add_tcase(s, tc);
  tc = tcase_create("anti_windup");
  tcase_add_test(tc, test_anti_windup_cases);
  tcase_add_test(tc, test_one_sided_limit);
  tcase_add_test(tc, test_anti_windup_over_time);
  suite_add_tcase(s, tc);
  tc = tcase_create("jacobian");
  tcase_add_test(tc, test_jacobian_plain_hand_values);
  tcase_add_test(tc, test_jacobian_matches_finite_differences);
  suite_add_tcase(s, tc);
  tc = tcase_create("loop");
  tcase_add_test(tc, test_closed_loop_rejects_disturbance);
  suite_add_tcase(s, tc);
  tc = tcase_create("errors");
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(pid_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
