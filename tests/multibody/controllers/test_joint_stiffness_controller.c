/* Tests of the joint stiffness controller
 * (multibody/controllers/joint_stiffness_controller.h): ports and
 * feedthrough, the output against -tau_g + b v + kp e + kd edot on random
 * states, the exact stiffness response M vdot = kp (q_d - q) at rest
 * (through actuation and applied_generalized_force, with force elements
 * and damping cancelled), equilibrium at q_d under gravity (held still, and
 * reached from an offset), non-finite inputs, bad construction arguments
 * and an allocation-free closed loop. */
#include "mb_controller_fixtures.h"

#include "multibody/algorithms/rnea.h"
#include "multibody/controllers/joint_stiffness_controller.h"
#include "multibody/plant/plant_state.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator.h"
#include "systems/primitives/constant_vector_source.h"

enum { N = 3 };
static const double KP[N] = {50, 40, 30}, KD[N] = {10, 8, 6};

static teal_system *jsc_new(const teal_plant *p) {
  teal_error err;
  teal_system *c = teal_joint_stiffness_controller_new("jsc", p, KP, KD, N, &err);
  ck_assert_msg(c != NULL, "jsc: %s", err.message);
  return c;
}

/* The output at estimated state x and desired state xd. */
static void jsc_eval(const teal_system *c, const double *x, const double *xd, double *tau) {
  teal_context *ctx = teal_context_new(c, NULL);
  ck_assert_ptr_nonnull(ctx);
  fx_fix(c, ctx, "estimated_state", x, 2 * N);
  fx_fix(c, ctx, "desired_state", xd, 2 * N);
  fx_output(c, ctx, tau, N);
  teal_context_free(ctx);
}

START_TEST(ports_and_feedthrough) {
  teal_plant *p = fx_chain3(0, 0.0);
  teal_system *c = jsc_new(p);
  ck_assert_int_eq(teal_system_num_input_ports(c), 2);
  ck_assert_int_eq(teal_system_num_output_ports(c), 1);
  const teal_input_port *x = teal_system_input_port(c, TEAL_JOINT_STIFFNESS_ESTIMATED_STATE);
  const teal_input_port *xd = teal_system_input_port(c, TEAL_JOINT_STIFFNESS_DESIRED_STATE);
  const teal_output_port *y = teal_system_output_port(c, TEAL_JOINT_STIFFNESS_GENERALIZED_FORCE);
  ck_assert_str_eq(teal_input_port_name(x), "estimated_state");
  ck_assert_str_eq(teal_input_port_name(xd), "desired_state");
  ck_assert_str_eq(teal_output_port_name(y), "generalized_force");
  ck_assert_int_eq(teal_input_port_size(x), 2 * N);
  ck_assert_int_eq(teal_input_port_size(xd), 2 * N);
  ck_assert_int_eq(teal_output_port_size(y), N);
  ck_assert(teal_system_has_direct_feedthrough(c, 0, 0));
  ck_assert(teal_system_has_direct_feedthrough(c, 1, 0));
  ck_assert_int_eq(teal_system_num_continuous_states(c, NULL, NULL, NULL), 0);
  teal_system_free(c);
  teal_plant_free(p);
}
END_TEST

/* Without force elements tau = -tau_g(q) + b v + kp e + kd edot. */
START_TEST(output_formula_on_random_states) {
  const double b = 0.3;
  teal_plant *p = fx_chain3(0, b);
  teal_system *c = jsc_new(p);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  unsigned seed = 5;
  for (int trial = 0; trial < 25; trial++) {
    double x[2 * N], xd[2 * N], tau[N], tau_g[N], ref[N];
    fx_rand_state(p, &seed, x, 2.0);
    fx_rand_state(p, &seed, xd, 2.0);
    jsc_eval(c, x, xd, tau);
    ck_assert_int_eq(teal_mb_gravity_forces(p, ws, x, tau_g), TEAL_OK);
    for (int i = 0; i < N; i++) {
      ref[i] = -tau_g[i] + b * x[N + i] + KP[i] * (xd[i] - x[i]) + KD[i] * (xd[N + i] - x[N + i]);
    }
    ck_assert_msg(fx_rel_diff(tau, ref, N) < 1e-13, "trial %d: rel diff %g", trial,
                  fx_rel_diff(tau, ref, N));
  }
  teal_mb_data_free(ws);
  teal_system_free(c);
  teal_plant_free(p);
}
END_TEST

/* At rest (v = v_d = 0) the plant driven by the controller through port
 * accelerates with M vdot = kp (q_d - q) exactly: gravity, damping and the
 * force elements are cancelled. */
static void check_stiffness_response(teal_plant *p, const char *port) {
  teal_system *plant = teal_plant_system(p);
  teal_system *c = jsc_new(p);
  teal_context *pc = teal_context_new(plant, NULL);
  unsigned seed = 77;
  for (int trial = 0; trial < 10; trial++) {
    double x[2 * N] = {0}, xd[2 * N] = {0}, tau[N], Mvdot[N], kpe[N];
    for (int i = 0; i < N; i++) {
      x[i] = ts_rand_uniform(&seed, -1.5, 1.5);
      xd[i] = ts_rand_uniform(&seed, -1.5, 1.5);
      kpe[i] = KP[i] * (xd[i] - x[i]);
    }
    jsc_eval(c, x, xd, tau);
    ck_assert_int_eq(teal_plant_set_state(p, pc, x, 2 * N), TEAL_OK);
    fx_fix(plant, pc, port, tau, N);
    const double *vdot, *M;
    ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, pc, &vdot), TEAL_OK);
    ck_assert_int_eq(teal_plant_eval_mass_matrix(p, pc, &M), TEAL_OK);
    for (int i = 0; i < N; i++) {
      Mvdot[i] = 0;
      for (int j = 0; j < N; j++) {
        Mvdot[i] += M[i * N + j] * vdot[j];
      }
    }
    ck_assert_msg(fx_rel_diff(Mvdot, kpe, N) < 1e-10, "%s trial %d: rel diff %g", port, trial,
                  fx_rel_diff(Mvdot, kpe, N));
  }
  teal_context_free(pc);
  teal_system_free(c);
}

START_TEST(exact_stiffness_response_at_rest) {
  teal_plant *p = fx_chain3(1, 0.2);
  check_stiffness_response(p, "actuation");
  check_stiffness_response(p, "applied_generalized_force");
  teal_plant_free(p);
  fx_chain_opts o = {3, 0, 0.2, 1, 1}; /* with a revolute spring and a spring-damper */
  p = fx_chain_new(&o);
  check_stiffness_response(p, "applied_generalized_force");
  teal_plant_free(p);
}
END_TEST

/* With damping b and force elements in the model, the output at any state
 * makes the plant's dynamics M vdot + C v = kp e + kd edot. */
START_TEST(spring_damper_closed_loop_dynamics) {
  fx_chain_opts o = {3, 0, 0.2, 1, 1};
  teal_plant *p = fx_chain_new(&o);
  teal_system *plant = teal_plant_system(p);
  teal_system *c = jsc_new(p);
  teal_context *pc = teal_context_new(plant, NULL);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  unsigned seed = 99;
  for (int trial = 0; trial < 10; trial++) {
    double x[2 * N], xd[2 * N], tau[N], lhs[N], rhs[N], zero[N] = {0};
    fx_rand_state(p, &seed, x, 1.5);
    fx_rand_state(p, &seed, xd, 1.5);
    jsc_eval(c, x, xd, tau);
    ck_assert_int_eq(teal_plant_set_state(p, pc, x, 2 * N), TEAL_OK);
    fx_fix(plant, pc, "applied_generalized_force", tau, N);
    const double *vdot;
    ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, pc, &vdot), TEAL_OK);
    /* M vdot + C v - tau_g(q) with gravity off the books: RNEA minus RNEA(vdot = 0, v = 0) */
    double g[N];
    ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, x, x + N, vdot, NULL, lhs), TEAL_OK);
    ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, x, zero, zero, NULL, g), TEAL_OK);
    for (int i = 0; i < N; i++) {
      lhs[i] -= g[i];
      rhs[i] = KP[i] * (xd[i] - x[i]) + KD[i] * (xd[N + i] - x[N + i]);
    }
    ck_assert_msg(fx_rel_diff(lhs, rhs, N) < 1e-10, "trial %d: rel diff %g", trial,
                  fx_rel_diff(lhs, rhs, N));
  }
  teal_mb_data_free(ws);
  teal_context_free(pc);
  teal_system_free(c);
  teal_plant_free(p);
}
END_TEST

/* ---- closed loops ------------------------------------------------------------------ */

/* plant -> controller -> plant.actuation, with a constant desired state. */
static teal_system *loop_new(teal_plant *p, const double *target) {
  teal_builder *b = teal_builder_new("loop");
  teal_builder_add(b, teal_plant_system(p));
  teal_builder_add(b, jsc_new(p));
  teal_builder_add(b, teal_constant_vector_source_new("target", target, 2 * N, NULL));
  teal_builder_connect_by_name(b, "plant", "state", "jsc", "estimated_state");
  teal_builder_connect_by_name(b, "target", "y", "jsc", "desired_state");
  teal_builder_connect_by_name(b, "jsc", "generalized_force", "plant", "actuation");
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  return d;
}

/* Simulates from q0 (v = 0) to t_end; returns max |x - [q_d; 0]|. */
static double settle(const double *q0, double t_end, unsigned long *allocs) {
  teal_plant *p = fx_chain3(1, 0.05);
  const double target[2 * N] = {0.6, -0.5, 0.8, 0, 0, 0};
  teal_system *d = loop_new(p, target);
  teal_simulator *sim = teal_simulator_new(d, NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  teal_simulator_set_integrator(sim, teal_integrator_rk4);
  teal_simulator_set_fixed_step(sim, 1e-3);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q0 ? q0 : target, N), TEAL_OK);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.01, &st), TEAL_OK);
  if (allocs) {
    ts_alloc_install();
    ts_alloc_reset();
  }
  int rc = teal_simulator_advance_to(sim, t_end, &st);
  if (allocs) {
    *allocs = ts_alloc_allocs();
    ts_alloc_uninstall();
  }
  ck_assert_msg(rc == TEAL_OK, "sim: %s", st.message);
  double x[2 * N];
  teal_plant_get_state(p, ctx, x, 2 * N);
  teal_simulator_free(sim);
  teal_system_free(d);
  double e = 0;
  for (int i = 0; i < 2 * N; i++) {
    e = fmax(e, fabs(x[i] - target[i]));
  }
  return e;
}

START_TEST(equilibrium_at_target_under_gravity) {
  /* starting at q_d the chain stays: gravity is exactly compensated */
  double held = settle(NULL, 2.0, NULL);
  ck_assert_msg(held < 1e-9, "drift %g at the target", held);
  /* from an offset it settles on q_d (kp, kd > 0: a damped spring) */
  const double q0[N] = {0.0, 0.3, -0.2};
  double e = settle(q0, 15.0, NULL);
  ck_assert_msg(e < 1e-6, "error %g after 15 s", e);
}
END_TEST

START_TEST(closed_loop_allocates_nothing) {
  const double q0[N] = {0.0, 0.3, -0.2};
  unsigned long allocs = 1;
  settle(q0, 1.01, &allocs);
  ck_assert_uint_eq(allocs, 0);
}
END_TEST

/* ---- errors ----------------------------------------------------------------------- */

START_TEST(nonfinite_inputs_fail) {
  teal_plant *p = fx_chain3(0, 0.0);
  teal_system *c = jsc_new(p);
  teal_context *ctx = teal_context_new(c, NULL);
  double x[2 * N] = {0}, xd[2 * N] = {0};
  xd[4] = NAN;
  fx_fix(c, ctx, "estimated_state", x, 2 * N);
  ck_assert_int_eq(teal_context_fix_input(ctx, 1, xd, 2 * N), TEAL_ENONFINITE); /* NaN refused */
  xd[4] = INFINITY;
  fx_fix(c, ctx, "desired_state", xd, 2 * N);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(c, ctx, 0, &y), TEAL_ENONFINITE);
  ASSERT_HAS(teal_context_error(ctx)->message, "desired_state");
  teal_context_free(ctx);
  teal_system_free(c);
  teal_plant_free(p);
}
END_TEST

static void expect_error(const teal_plant *p, const double *kp, const double *kd, int n, int code,
                         const char *text) {
  teal_error err;
  ck_assert_ptr_null(teal_joint_stiffness_controller_new("jsc", p, kp, kd, n, &err));
  ck_assert_int_eq(err.code, code);
  ASSERT_HAS(err.message, text);
  ASSERT_HAS(err.message, "joint_stiffness_controller 'jsc'");
}

START_TEST(bad_construction_arguments) {
  teal_plant *p = fx_chain3(0, 0.0);
  expect_error(NULL, KP, KD, N, TEAL_EINVAL, "plant is NULL");
  fx_chain_opts o = {3, 0, 0.0, 0, 0};
  teal_plant *raw = fx_chain_new(&o);
  expect_error(raw, KP, KD, N, TEAL_ESTATE, "finalized");
  teal_plant_free(raw);
  teal_plant *f = fx_floating_arm_new();
  expect_error(f, KP, KD, 7, TEAL_ESIZE, "nq = 8, nv = 7");
  teal_plant_free(f);
  expect_error(p, KP, KD, 4, TEAL_ESIZE, "kp has 4 entries, the plant has nv = 3");
  expect_error(p, NULL, KD, N, TEAL_EINVAL, "kp");
  const double neg[N] = {1, 1, -0.5}, nan[N] = {NAN, 1, 1};
  expect_error(p, KP, neg, N, TEAL_EINVAL, "kd[2] = -0.5 must be >= 0");
  expect_error(p, nan, KD, N, TEAL_ENONFINITE, "kp");
  ck_assert_ptr_null(teal_joint_stiffness_controller_new("jsc", NULL, KP, KD, N, NULL));
  teal_plant_free(p);
}
END_TEST

/* Every allocation failure while constructing the system or making a
 * context (whose scratch allocates multibody data) is reported and leaks
 * nothing (checked by ASan). */
START_TEST(out_of_memory_is_reported) {
  teal_plant *p = fx_chain3(0, 0.1);
  int made = 0;
  for (long k = 0; k < 1000 && !made; k++) {
    teal_error err, cerr;
    ts_alloc_install();
    ts_alloc_fail_after(k, 0);
    teal_system *c = teal_joint_stiffness_controller_new("jsc", p, KP, KD, N, &err);
    teal_context *ctx = c ? teal_context_new(c, &cerr) : NULL;
    ts_alloc_uninstall();
    if (!c) {
      ck_assert_msg(err.code == TEAL_ENOMEM, "k = %ld: %s", k, err.message);
    } else if (!ctx) {
      ck_assert_msg(cerr.code == TEAL_ENOMEM, "k = %ld: %s", k, cerr.message);
    }
    made = c && ctx;
    teal_context_free(ctx);
    teal_system_free(c);
  }
  ck_assert(made);
  teal_plant_free(p);
}
END_TEST

static Suite *jsc_suite(void) {
  Suite *s = suite_create("joint_stiffness_controller");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, ports_and_feedthrough);
  tcase_add_test(tc, output_formula_on_random_states);
  tcase_add_test(tc, exact_stiffness_response_at_rest);
  tcase_add_test(tc, spring_damper_closed_loop_dynamics);
  tcase_add_test(tc, equilibrium_at_target_under_gravity);
  tcase_add_test(tc, closed_loop_allocates_nothing);
  tcase_add_test(tc, nonfinite_inputs_fail);
  tcase_add_test(tc, bad_construction_arguments);
  tcase_add_test(tc, out_of_memory_is_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(jsc_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
