/* Tests of the inverse dynamics controller diagram
 * (multibody/controllers/inverse_dynamics_controller.h): ports, subsystems
 * and feedthrough, the output against RNEA at the PID's commanded
 * acceleration (integral state included), sinusoid tracking by a fully
 * actuated 3-link chain with and without the reference acceleration and
 * with and without ki and through actuators with input gains (u = B^-1
 * tau), rejection of a constant disturbance by the integral
 * term, bad construction arguments and an allocation-free closed loop. */
#include "mb_controller_fixtures.h"

#include "multibody/algorithms/rnea.h"
#include "multibody/controllers/inverse_dynamics_controller.h"
#include "multibody/plant/plant_state.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator.h"
#include "multibody/tree/actuator_gain.h"
#include "systems/primitives/constant_vector_source.h"
#include "systems/primitives/matrix_gain.h"
#include "systems/primitives/multiplexer.h"
#include "systems/primitives/sine.h"

enum { N = 3 };
static const double KP[N] = {100, 100, 100}, KD[N] = {20, 20, 20};
static const double KI[N] = {200, 200, 200}, KI0[N] = {0, 0, 0};
/* the reference: q_d = A sin(W t + PHI) */
static const double A[N] = {0.5, -0.4, 0.3}, W[N] = {2.0, 3.0, 1.5}, PHI[N] = {0.3, -0.2, 1.0};

static teal_system *idc_new(const teal_plant *p, const double *ki, int has_ref) {
  teal_error err;
  teal_system *c = teal_inverse_dynamics_controller_new("idc", p, KP, ki, KD, N, has_ref, &err);
  ck_assert_msg(c != NULL, "idc: %s", err.message);
  return c;
}

/* ---- ports and the output --------------------------------------------------------- */

START_TEST(ports_and_subsystems) {
  teal_plant *p = fx_chain3(1, 0.0);
  for (int has_ref = 0; has_ref <= 1; has_ref++) {
    teal_system *c = idc_new(p, KI, has_ref);
    ck_assert(teal_system_is_diagram(c));
    ck_assert_str_eq(teal_system_name(c), "idc");
    ck_assert_int_eq(teal_system_num_input_ports(c), 2 + has_ref);
    ck_assert_int_eq(teal_system_num_output_ports(c), 1);
    const teal_input_port *x = teal_system_input_port(c, TEAL_IDC_ESTIMATED_STATE);
    const teal_input_port *xd = teal_system_input_port(c, TEAL_IDC_DESIRED_STATE);
    ck_assert_str_eq(teal_input_port_name(x), "estimated_state");
    ck_assert_str_eq(teal_input_port_name(xd), "desired_state");
    ck_assert_int_eq(teal_input_port_size(x), 2 * N);
    ck_assert_int_eq(teal_input_port_size(xd), 2 * N);
    const teal_output_port *y = teal_system_output_port(c, TEAL_IDC_GENERALIZED_FORCE);
    ck_assert_str_eq(teal_output_port_name(y), "generalized_force");
    ck_assert_int_eq(teal_output_port_size(y), N);
    ck_assert(teal_system_has_direct_feedthrough(c, 0, 0));
    ck_assert(teal_system_has_direct_feedthrough(c, 1, 0));
    if (has_ref) {
      const teal_input_port *a = teal_system_input_port(c, TEAL_IDC_DESIRED_ACCELERATION);
      ck_assert_str_eq(teal_input_port_name(a), "desired_acceleration");
      ck_assert_int_eq(teal_input_port_size(a), N);
      ck_assert(teal_system_has_direct_feedthrough(c, 2, 0));
      ck_assert_ptr_nonnull(teal_diagram_find_subsystem(c, "adder"));
    } else {
      ck_assert_ptr_null(teal_system_input_port_by_name(c, "desired_acceleration"));
      ck_assert_ptr_null(teal_diagram_find_subsystem(c, "adder"));
    }
    ck_assert_ptr_nonnull(teal_diagram_find_subsystem(c, "pid"));
    ck_assert_ptr_nonnull(teal_diagram_find_subsystem(c, "inverse_dynamics"));
    int nz;
    ck_assert_int_eq(teal_system_num_continuous_states(c, NULL, NULL, &nz), N);
    ck_assert_int_eq(nz, N);
    teal_system_free(c);
  }
  teal_plant_free(p);
}
END_TEST

/* tau = RNEA(q, v, vd_d + kp e + kd edot + ki z) + b v, z set in the PID. */
START_TEST(output_is_inverse_dynamics_of_pid_acceleration) {
  teal_plant *p = fx_chain3(1, 0.25);
  teal_system *c = idc_new(p, KI, 1);
  teal_context *ctx = teal_context_new(c, NULL);
  const double x[2 * N] = {0.1, -0.3, 0.2, 0.5, -1.0, 0.3};
  const double xd[2 * N] = {0.4, 0.1, -0.2, 0.0, 0.5, 1.0};
  const double vdd[N] = {1.0, -2.0, 0.5}, z[N] = {0.01, -0.02, 0.03};
  fx_fix(c, ctx, "estimated_state", x, 2 * N);
  fx_fix(c, ctx, "desired_state", xd, 2 * N);
  fx_fix(c, ctx, "desired_acceleration", vdd, N);
  teal_context *pid = teal_context_subcontext_by_name_mut(ctx, "pid");
  ck_assert_ptr_nonnull(pid);
  ck_assert_int_eq(teal_context_set_continuous_state(pid, z, N), TEAL_OK);
  double tau[N], ref[N], vstar[N];
  fx_output(c, ctx, tau, N);
  for (int i = 0; i < N; i++) {
    vstar[i] = vdd[i] + KP[i] * (xd[i] - x[i]) + KD[i] * (xd[N + i] - x[N + i]) + KI[i] * z[i];
  }
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, x, x + N, vstar, NULL, ref), TEAL_OK);
  for (int i = 0; i < N; i++) {
    ref[i] += 0.25 * x[N + i];
  }
  ck_assert_msg(fx_rel_diff(tau, ref, N) < 1e-13, "rel diff %g", fx_rel_diff(tau, ref, N));
  /* the integral state integrates the position error */
  double xdot[2 * N + N];
  ck_assert_int_eq(teal_calc_time_derivatives(c, ctx, xdot), TEAL_OK);
  for (int i = 0; i < N; i++) {
    ck_assert_double_eq_tol(xdot[i], xd[i] - x[i], 1e-15);
  }
  teal_mb_data_free(ws);
  teal_context_free(ctx);
  teal_system_free(c);
  teal_plant_free(p);
}
END_TEST

/* ---- closed loops ------------------------------------------------------------------ */

/* Feeds the controller's generalized force to the plant's actuation: directly
 * when B = I, else through u = B^-1 tau (a matrix gain "to_u"; B is
 * diagonal here, one actuator per joint in order). */
static void connect_force(teal_builder *b, const teal_plant *p) {
  double B[N * N], Binv[N * N] = {0};
  ck_assert_int_eq(teal_plant_make_actuation_matrix(p, B), TEAL_OK);
  int identity = 1;
  for (int i = 0; i < N; i++) {
    Binv[i * N + i] = 1.0 / B[i * N + i];
    identity &= B[i * N + i] == 1.0;
  }
  if (identity) {
    teal_builder_connect_by_name(b, "idc", "generalized_force", "plant", "actuation");
    return;
  }
  teal_builder_add(b, teal_matrix_gain_new("to_u", Binv, N, N, NULL));
  teal_builder_connect_by_name(b, "idc", "generalized_force", "to_u", "u");
  teal_builder_connect_by_name(b, "to_u", "y", "plant", "actuation");
}

/* plant (fully actuated chain) + controller + a reference: the sine
 * source (tracking) or a constant target state. The plant's
 * applied_generalized_force is exported as diagram input 0
 * ("disturbance"). */
static teal_system *loop_new(teal_plant *p, const double *ki, int has_ref,
                             const double *target) {
  teal_builder *b = teal_builder_new("loop");
  teal_builder_add(b, teal_plant_system(p));
  teal_builder_add(b, idc_new(p, ki, has_ref));
  teal_builder_connect_by_name(b, "plant", "state", "idc", "estimated_state");
  connect_force(b, p);
  teal_builder_export_input(
      b, teal_system_input_port_by_name(teal_plant_system(p), "applied_generalized_force"),
      "disturbance");
  if (target) {
    teal_builder_add(b, teal_constant_vector_source_new("target", target, 2 * N, NULL));
    teal_builder_connect_by_name(b, "target", "y", "idc", "desired_state");
  } else {
    const int sizes[2] = {N, N};
    teal_builder_add(b, teal_sine_new("traj", A, W, PHI, N, NULL));
    teal_builder_add(b, teal_multiplexer_new("mux", sizes, 2, NULL));
    teal_builder_connect_by_name(b, "traj", "y", "mux", "u0");
    teal_builder_connect_by_name(b, "traj", "ydot", "mux", "u1");
    teal_builder_connect_by_name(b, "mux", "y", "idc", "desired_state");
    if (has_ref) {
      teal_builder_connect_by_name(b, "traj", "yddot", "idc", "desired_acceleration");
    }
  }
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  return d;
}

static teal_simulator *sim_new(teal_system *d, teal_plant *p) {
  teal_simulator *sim = teal_simulator_new(d, NULL, NULL);
  ck_assert_ptr_nonnull(sim);
  teal_simulator_set_integrator(sim, teal_integrator_rk4);
  teal_simulator_set_fixed_step(sim, 1e-3);
  const double q0[N] = {0.0, 0.0, 0.0}; /* off the reference */
  ck_assert_int_eq(teal_plant_set_positions(p, teal_simulator_context(sim), q0, N), TEAL_OK);
  return sim;
}

/* Runs the tracking loop to t_end and returns the largest |q - q_d| over
 * [t_from, t_end], sampled every 10 ms. */
static double tracking_error_of(teal_plant *p, const double *ki, int has_ref, double t_from,
                                double t_end) {
  teal_system *d = loop_new(p, ki, has_ref, NULL);
  teal_simulator *sim = sim_new(d, p);
  teal_context *ctx = teal_simulator_context(sim);
  teal_sim_status st;
  double worst = 0;
  for (int k = 1; k * 0.01 <= t_end + 1e-9; k++) {
    double t = k * 0.01;
    ck_assert_msg(teal_simulator_advance_to(sim, t, &st) == TEAL_OK, "sim: %s", st.message);
    if (t < t_from) {
      continue;
    }
    double q[N];
    teal_plant_get_positions(p, ctx, q, N);
    for (int i = 0; i < N; i++) {
      worst = fmax(worst, fabs(q[i] - A[i] * sin(W[i] * t + PHI[i])));
    }
  }
  teal_simulator_free(sim);
  teal_system_free(d);
  return worst;
}

static double tracking_error(const double *ki, int has_ref, double t_from, double t_end) {
  return tracking_error_of(fx_chain3(1, 0.1), ki, has_ref, t_from, t_end);
}

START_TEST(tracks_sinusoid_with_reference_acceleration) {
  /* a perfect model and feedforward: the error decays as e'' + kd e' + kp e
   * = 0 from its initial value (about 0.5) and ends at integration error */
  double e = tracking_error(KI0, 1, 2.0, 4.0);
  ck_assert_msg(e < 1e-6, "tracking error %g", e);
}
END_TEST

START_TEST(tracks_through_actuators_with_input_gains) {
  /* input gains 2.5, -0.5, 4 (actuator_gain.h): the controller's force
   * reaches the plant as u = B^-1 tau, and tracking is as exact as with B = I */
  fx_chain_opts o = {N, 1, 0.1, 0, 0};
  teal_plant *p = fx_chain_new(&o);
  const double gain[N] = {2.5, -0.5, 4.0};
  for (int a = 0; a < N; a++) {
    ck_assert_int_eq(teal_plant_set_actuator_input_gain(p, a, gain[a]), TEAL_OK);
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  double e = tracking_error_of(p, KI0, 1, 2.0, 4.0);
  ck_assert_msg(e < 1e-6, "tracking error %g", e);
}
END_TEST

START_TEST(tracks_sinusoid_with_integral_gain) {
  double e = tracking_error(KI, 1, 6.0, 8.0);
  ck_assert_msg(e < 1e-6, "tracking error %g", e);
}
END_TEST

START_TEST(tracks_sinusoid_without_reference_acceleration) {
  /* without feedforward, e = q_d - q obeys e'' + kd e' + kp e = qdd_d, so
   * after the transient joint i oscillates with amplitude
   * A W^2 / |kp - W^2 + i kd W| */
  double amp = 0;
  for (int i = 0; i < N; i++) {
    double w2 = W[i] * W[i];
    amp = fmax(amp, fabs(A[i]) * w2 / hypot(KP[i] - w2, KD[i] * W[i]));
  }
  double e = tracking_error(KI0, 0, 2.0, 4.0);
  ck_assert_msg(fabs(e - amp) < 0.01 * amp, "tracking error %g, expected %g", e, amp);
}
END_TEST

/* Regulation to a fixed target under a constant disturbance torque: the
 * proportional-derivative loop settles off target, the integral removes
 * the offset. Returns the final |q - q_d|. */
static double regulation_error(const double *ki) {
  teal_plant *p = fx_chain3(1, 0.1);
  const double target[2 * N] = {0.3, -0.2, 0.4, 0, 0, 0}, dist[N] = {2.0, -1.5, 1.0};
  teal_system *d = loop_new(p, ki, 0, target);
  teal_simulator *sim = sim_new(d, p);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, dist, N), TEAL_OK);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 12.0, &st), TEAL_OK);
  double q[N], e = 0;
  teal_plant_get_positions(p, ctx, q, N);
  for (int i = 0; i < N; i++) {
    e = fmax(e, fabs(q[i] - target[i]));
  }
  teal_simulator_free(sim);
  teal_system_free(d);
  return e;
}

START_TEST(integral_rejects_constant_disturbance) {
  double e_pd = regulation_error(KI0), e_pid = regulation_error(KI);
  ck_assert_msg(e_pd > 1e-3, "PD offset %g", e_pd);
  ck_assert_msg(e_pid < 1e-8, "PID offset %g", e_pid);
}
END_TEST

/* ---- construction errors ------------------------------------------------------------ */

static void expect_error(const teal_plant *p, const double *kp, const double *ki,
                         const double *kd, int n, int code, const char *text) {
  teal_error err;
  teal_system *c = teal_inverse_dynamics_controller_new("idc", p, kp, ki, kd, n, 1, &err);
  ck_assert_ptr_null(c);
  ck_assert_int_eq(err.code, code);
  ASSERT_HAS(err.message, text);
  ASSERT_HAS(err.message, "inverse_dynamics_controller 'idc'");
}

START_TEST(bad_construction_arguments) {
  teal_plant *p = fx_chain3(1, 0.0);
  expect_error(NULL, KP, KI, KD, N, TEAL_EINVAL, "plant is NULL");
  fx_chain_opts o = {3, 1, 0.0, 0, 0};
  teal_plant *raw = fx_chain_new(&o);
  expect_error(raw, KP, KI, KD, N, TEAL_ESTATE, "finalized");
  teal_plant_free(raw);
  teal_plant *f = fx_floating_arm_new();
  expect_error(f, KP, KI, KD, 7, TEAL_ESIZE, "nq = 8, nv = 7");
  teal_plant_free(f);
  expect_error(p, KP, KI, KD, 2, TEAL_ESIZE, "kp has 2 entries, the plant has nv = 3");
  expect_error(p, KP, KI, NULL, N, TEAL_EINVAL, "kd");
  const double neg[N] = {1, -1, 1}, nan[N] = {1, NAN, 1}, inf[N] = {INFINITY, 1, 1};
  expect_error(p, KP, neg, KD, N, TEAL_EINVAL, "ki[1] = -1 must be >= 0");
  expect_error(p, nan, KI, KD, N, TEAL_ENONFINITE, "kp");
  expect_error(p, KP, KI, inf, N, TEAL_ENONFINITE, "kd");
  /* err may be NULL */
  ck_assert_ptr_null(teal_inverse_dynamics_controller_new("idc", NULL, KP, KI, KD, N, 0, NULL));
  /* an empty name gets the default */
  teal_system *c = teal_inverse_dynamics_controller_new(NULL, p, KP, KI, KD, N, 0, NULL);
  ck_assert_ptr_nonnull(c);
  ck_assert_str_eq(teal_system_name(c), "inverse_dynamics_controller");
  teal_system_free(c);
  teal_plant_free(p);
}
END_TEST

/* Every allocation failure while building (and making a context) is
 * reported as TEAL_ENOMEM and leaks nothing (checked by ASan). */
START_TEST(out_of_memory_is_reported) {
  teal_plant *p = fx_chain3(1, 0.1);
  int built = 0;
  for (long k = 0; k < 2000 && !built; k++) {
    teal_error err;
    ts_alloc_install();
    ts_alloc_fail_after(k, 0);
    teal_system *c = teal_inverse_dynamics_controller_new("idc", p, KP, KI, KD, N, 1, &err);
    teal_context *ctx = c ? teal_context_new(c, NULL) : NULL;
    ts_alloc_uninstall();
    if (c && ctx) {
      built = 1;
    } else if (!c) {
      ck_assert_msg(err.code == TEAL_ENOMEM, "k = %ld: %s", k, err.message);
    }
    teal_context_free(ctx);
    teal_system_free(c);
  }
  ck_assert(built);
  teal_plant_free(p);
}
END_TEST

/* ---- no allocation ----------------------------------------------------------------- */

START_TEST(closed_loop_allocates_nothing) {
  teal_plant *p = fx_chain3(1, 0.1);
  teal_system *d = loop_new(p, KI, 1, NULL);
  teal_simulator *sim = sim_new(d, p);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.01, &st), TEAL_OK);
  ts_alloc_install();
  ts_alloc_reset();
  int rc = teal_simulator_advance_to(sim, 1.01, &st);
  unsigned long allocs = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_int_eq(rc, TEAL_OK);
  ck_assert_uint_eq(allocs, 0);
  teal_simulator_free(sim);
  teal_system_free(d);
}
END_TEST

static Suite *idc_suite(void) {
  Suite *s = suite_create("inverse_dynamics_controller");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, ports_and_subsystems);
  tcase_add_test(tc, output_is_inverse_dynamics_of_pid_acceleration);
  tcase_add_test(tc, tracks_sinusoid_with_reference_acceleration);
  tcase_add_test(tc, tracks_through_actuators_with_input_gains);
  tcase_add_test(tc, tracks_sinusoid_with_integral_gain);
  tcase_add_test(tc, tracks_sinusoid_without_reference_acceleration);
  tcase_add_test(tc, integral_rejects_constant_disturbance);
  tcase_add_test(tc, bad_construction_arguments);
  tcase_add_test(tc, out_of_memory_is_reported);
  tcase_add_test(tc, closed_loop_allocates_nothing);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(idc_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
