/* Tests of the inverse-dynamics leaf (multibody/controllers/inverse_dynamics.h):
 * ports and feedthrough, the output against the plant's RNEA plus damping
 * on random states (3-D chain, acrobot), the closure identity through the
 * plant (actuation and applied_generalized_force; with force elements; a
 * floating base with nq != nv), gravity compensation (output and a chain
 * held still for 2 s), the model-gravity rule, contexts (clone, copy,
 * caching off), non-finite inputs, bad construction arguments and an
 * allocation-free closed loop. */
#include "mb_controller_fixtures.h"

#include "multibody/algorithms/rnea.h"
#include "multibody/controllers/inverse_dynamics.h"
#include "multibody/forces/user_force_element.h"
#include "multibody/plant/plant_state.h"
#include "multibody/tree/topology.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator.h"

enum { MAXN = 16 };

static teal_system *id_new(const teal_plant *p, teal_inverse_dynamics_mode mode) {
  teal_error err;
  teal_system *id = teal_inverse_dynamics_new("id", p, mode, &err);
  ck_assert_msg(id != NULL, "inverse_dynamics_new: %s", err.message);
  return id;
}

/* The controller's output at state x and acceleration vd (NULL: gravity
 * compensation) in a fresh context. */
static void id_eval(const teal_system *id, const teal_plant *p, const double *x,
                    const double *vd, double *tau) {
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  teal_context *ctx = teal_context_new(id, NULL);
  ck_assert_ptr_nonnull(ctx);
  fx_fix(id, ctx, "estimated_state", x, nq + nv);
  if (vd) {
    fx_fix(id, ctx, "desired_acceleration", vd, nv);
  }
  fx_output(id, ctx, tau, nv);
  teal_context_free(ctx);
}

/* ---- ports --------------------------------------------------------------------- */

START_TEST(ports_and_feedthrough) {
  teal_plant *p = fx_chain3(0, 0.0);
  teal_system *id = id_new(p, TEAL_INVERSE_DYNAMICS);
  ck_assert_int_eq(teal_system_num_input_ports(id), 2);
  ck_assert_int_eq(teal_system_num_output_ports(id), 1);
  const teal_input_port *x = teal_system_input_port(id, TEAL_INVERSE_DYNAMICS_ESTIMATED_STATE);
  const teal_input_port *a = teal_system_input_port(id, TEAL_INVERSE_DYNAMICS_DESIRED_ACCELERATION);
  const teal_output_port *y = teal_system_output_port(id, TEAL_INVERSE_DYNAMICS_GENERALIZED_FORCE);
  ck_assert_str_eq(teal_input_port_name(x), "estimated_state");
  ck_assert_str_eq(teal_input_port_name(a), "desired_acceleration");
  ck_assert_str_eq(teal_output_port_name(y), "generalized_force");
  ck_assert_int_eq(teal_input_port_size(x), 6);
  ck_assert_int_eq(teal_input_port_size(a), 3);
  ck_assert_int_eq(teal_output_port_size(y), 3);
  ck_assert(teal_system_has_direct_feedthrough(id, 0, 0));
  ck_assert(teal_system_has_direct_feedthrough(id, 1, 0));
  ck_assert_int_eq(teal_system_num_continuous_states(id, NULL, NULL, NULL), 0);
  teal_system_free(id);
  id = id_new(p, TEAL_GRAVITY_COMPENSATION);
  ck_assert_int_eq(teal_system_num_input_ports(id), 1);
  ck_assert_ptr_null(teal_system_input_port_by_name(id, "desired_acceleration"));
  ck_assert_int_eq(teal_output_port_size(teal_system_output_port(id, 0)), 3);
  ck_assert(teal_system_has_direct_feedthrough(id, 0, 0));
  teal_system_free(id);
  /* a floating base: the state input is nq + nv, the output nv */
  teal_plant *f = fx_floating_arm_new();
  id = id_new(f, TEAL_INVERSE_DYNAMICS);
  ck_assert_int_eq(teal_input_port_size(teal_system_input_port(id, 0)), 8 + 7);
  ck_assert_int_eq(teal_output_port_size(teal_system_output_port(id, 0)), 7);
  teal_system_free(id);
  teal_plant_free(f);
  teal_plant_free(p);
}
END_TEST

/* ---- the output against RNEA -------------------------------------------------------- */

/* On random states the output equals RNEA (no damping) plus b v. */
static void check_against_rnea(teal_plant *p, unsigned seed) {
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  const double *b = teal_plant_get_tree(p)->damping;
  teal_system *id = id_new(p, TEAL_INVERSE_DYNAMICS);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  for (int trial = 0; trial < 25; trial++) {
    double x[2 * MAXN], vd[MAXN], tau[MAXN], ref[MAXN];
    fx_rand_state(p, &seed, x, 2.0);
    for (int i = 0; i < nv; i++) {
      vd[i] = ts_rand_uniform(&seed, -5, 5);
    }
    id_eval(id, p, x, vd, tau);
    ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, x, x + nq, vd, NULL, ref), TEAL_OK);
    for (int i = 0; i < nv; i++) {
      ref[i] += b[i] * x[nq + i];
    }
    ck_assert_msg(fx_rel_diff(tau, ref, nv) < 1e-13, "trial %d: rel diff %g", trial,
                  fx_rel_diff(tau, ref, nv));
  }
  teal_mb_data_free(ws);
  teal_system_free(id);
}

START_TEST(output_matches_rnea_chain) {
  teal_plant *p = fx_chain3(0, 0.3);
  check_against_rnea(p, 11);
  teal_plant_free(p);
}
END_TEST

START_TEST(output_matches_rnea_acrobot) {
  teal_plant *p = fx_acrobot_new();
  check_against_rnea(p, 12);
  teal_plant_free(p);
}
END_TEST

/* ---- closure identity ------------------------------------------------------------- */

/* Feeds the output at (x, vd) to the plant through port (an input of the
 * plant system) and checks generalized_acceleration == vd. */
static void check_closure(teal_plant *p, const char *port, unsigned seed) {
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  teal_system *plant = teal_plant_system(p);
  teal_system *id = id_new(p, TEAL_INVERSE_DYNAMICS);
  teal_context *pc = teal_context_new(plant, NULL);
  ck_assert_ptr_nonnull(pc);
  for (int trial = 0; trial < 20; trial++) {
    double x[2 * MAXN], vd[MAXN], tau[MAXN];
    fx_rand_state(p, &seed, x, 1.5);
    for (int i = 0; i < nv; i++) {
      vd[i] = ts_rand_uniform(&seed, -4, 4);
    }
    id_eval(id, p, x, vd, tau);
    ck_assert_int_eq(teal_plant_set_state(p, pc, x, nq + nv), TEAL_OK);
    fx_fix(plant, pc, port, tau, nv);
    const double *vdot;
    int rc = teal_plant_eval_generalized_acceleration(p, pc, &vdot);
    ck_assert_msg(rc == TEAL_OK, "%s", teal_context_error(pc)->message);
    ck_assert_msg(fx_rel_diff(vdot, vd, nv) < 1e-10, "%s trial %d: rel diff %g", port, trial,
                  fx_rel_diff(vdot, vd, nv));
  }
  teal_context_free(pc);
  teal_system_free(id);
}

START_TEST(closure_through_actuation_and_applied_force) {
  teal_plant *p = fx_chain3(1, 0.2);
  check_closure(p, "actuation", 21);
  check_closure(p, "applied_generalized_force", 22);
  teal_plant_free(p);
  p = fx_acrobot_new(); /* underactuated: through the generalized force */
  check_closure(p, "applied_generalized_force", 23);
  teal_plant_free(p);
}
END_TEST

START_TEST(closure_with_force_elements) {
  fx_chain_opts o = {3, 0, 0.15, 1, 1};
  teal_plant *p = fx_chain_new(&o);
  ck_assert_int_eq(teal_plant_num_force_elements(p), 2);
  check_closure(p, "applied_generalized_force", 31);
  teal_plant_free(p);
}
END_TEST

/* A user force element (user_force_element.h): a cubic torque on every
 * joint and a constant force on the last link's origin. */
static int cubic_and_push(const teal_plant *p, const teal_force_element_state *s,
                          teal_spatial_vector *F, double *tau, teal_error *err, void *user) {
  (void)err, (void)user;
  for (int i = 0; i < teal_plant_nv(p); i++) {
    tau[i] -= 2.0 * s->q[i] * s->q[i] * s->q[i];
  }
  int last = teal_plant_num_bodies(p) - 1;
  F[last] = teal_spatial_vector_add(
      F[last], teal_spatial_vector_make(teal_vec3_zero(), teal_vec3_make(0.5, -1.0, 2.0)));
  return TEAL_OK;
}

/* The controller's model includes user elements as the plant does. */
START_TEST(closure_with_user_force_element) {
  fx_chain_opts o = {3, 0, 0.15, 1, 0};
  teal_plant *p = fx_chain_new(&o);
  teal_force_element_ops ops = {cubic_and_push, NULL, NULL, NULL};
  ck_assert_int_eq(teal_plant_add_force_element(p, "push", TEAL_DEFAULT_MODEL_INSTANCE, &ops, NULL),
                   2);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  check_closure(p, "applied_generalized_force", 32);
  teal_plant_free(p);
}
END_TEST

START_TEST(closure_floating_base) {
  teal_plant *p = fx_floating_arm_new();
  ck_assert_int_eq(teal_plant_nq(p), 8);
  ck_assert_int_eq(teal_plant_nv(p), 7);
  check_closure(p, "applied_generalized_force", 41);
  teal_plant_free(p);
}
END_TEST

/* ---- gravity compensation ----------------------------------------------------------- */

START_TEST(gravity_compensation_output) {
  teal_plant *p = fx_chain3(0, 0.4);
  teal_system *gc = id_new(p, TEAL_GRAVITY_COMPENSATION);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  unsigned seed = 51;
  for (int trial = 0; trial < 10; trial++) {
    double x[6], tau[3], tau_g[3];
    fx_rand_state(p, &seed, x, 2.0);
    id_eval(gc, p, x, NULL, tau);
    ck_assert_int_eq(teal_mb_gravity_forces(p, ws, x, tau_g), TEAL_OK);
    for (int i = 0; i < 3; i++) {
      ck_assert_double_eq_tol(tau[i], -tau_g[i], 1e-13);
    }
  }
  /* velocities (and damping) do not enter: same output at v = 0 */
  double x[6] = {0.3, -0.2, 0.5, 1.0, 2.0, -3.0}, x0[6] = {0.3, -0.2, 0.5, 0, 0, 0};
  double a[3], b[3];
  id_eval(gc, p, x, NULL, a);
  id_eval(gc, p, x0, NULL, b);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq(a[i], b[i]);
  }
  teal_mb_data_free(ws);
  teal_system_free(gc);
  teal_plant_free(p);
}
END_TEST

/* plant state -> controller -> plant applied_generalized_force (or
 * actuation); the controller's desired_acceleration (full mode) is
 * exported as diagram input 0. */
static teal_system *closed_loop(teal_plant *p, teal_inverse_dynamics_mode mode,
                                const char *plant_port) {
  teal_builder *b = teal_builder_new("loop");
  teal_system *plant = teal_plant_system(p);
  teal_system *id = id_new(p, mode);
  ck_assert_ptr_nonnull(teal_builder_add(b, plant));
  ck_assert_ptr_nonnull(teal_builder_add(b, id));
  ck_assert_int_eq(teal_builder_connect_by_name(b, "plant", "state", "id", "estimated_state"),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "id", "generalized_force", "plant", plant_port),
                   TEAL_OK);
  if (mode == TEAL_INVERSE_DYNAMICS) {
    ck_assert_int_ge(teal_builder_export_input(
                         b, teal_system_input_port_by_name(id, "desired_acceleration"), "vd"),
                     0);
  }
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  return d;
}

START_TEST(gravity_compensation_holds_chain_still) {
  teal_plant *p = fx_chain3(0, 0.0);
  const double q0[3] = {0.7, -0.4, 0.9};
  /* uncompensated, the chain falls */
  teal_context *pc = teal_context_new(teal_plant_system(p), NULL);
  teal_plant_set_positions(p, pc, q0, 3);
  const double *vdot;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, pc, &vdot), TEAL_OK);
  ck_assert(fabs(vdot[0]) > 1.0);
  teal_context_free(pc);
  teal_system *d = closed_loop(p, TEAL_GRAVITY_COMPENSATION, "applied_generalized_force");
  teal_simulator *sim = teal_simulator_new(d, NULL, NULL);
  ck_assert_ptr_nonnull(sim);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q0, 3), TEAL_OK);
  teal_simulator_set_integrator(sim, teal_integrator_rk4);
  teal_simulator_set_fixed_step(sim, 1e-3);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 2.0, &st), TEAL_OK);
  double x[6];
  teal_plant_get_state(p, ctx, x, 6);
  for (int i = 0; i < 3; i++) {
    ck_assert_msg(fabs(x[i] - q0[i]) < 1e-9, "q[%d] drifted by %g", i, x[i] - q0[i]);
    ck_assert_msg(fabs(x[3 + i]) < 1e-9, "v[%d] = %g", i, x[3 + i]);
  }
  teal_simulator_free(sim);
  teal_system_free(d); /* frees the plant too */
}
END_TEST

/* The controller's gravity is a value of its context, starting as the
 * model's gravity when the controller is made: a later
 * teal_plant_set_gravity on the model is not seen (as by the plant's own
 * contexts), teal_mb_controller_set_gravity_in_context is. */
START_TEST(model_gravity_rule) {
  teal_plant *p = fx_chain3(0, 0.0);
  teal_system *gc = id_new(p, TEAL_GRAVITY_COMPENSATION);
  double x[6] = {0.5, 0.2, -0.3, 0, 0, 0}, tau[3], tau0[3];
  id_eval(gc, p, x, NULL, tau0);
  ck_assert(fabs(tau0[0]) > 1.0);
  teal_plant_set_gravity(p, teal_vec3_zero());
  id_eval(gc, p, x, NULL, tau);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq(tau[i], tau0[i]);
  }
  teal_system *gc0 = id_new(p, TEAL_GRAVITY_COMPENSATION); /* made with zero gravity */
  id_eval(gc0, p, x, NULL, tau);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(tau[i], 0.0, 1e-15);
  }
  teal_system_free(gc0);
  teal_system_free(gc);
  teal_plant_free(p);
}
END_TEST

/* ---- contexts --------------------------------------------------------------------- */

START_TEST(clone_copy_and_caching_off) {
  teal_plant *p = fx_chain3(0, 0.2);
  teal_system *id = id_new(p, TEAL_INVERSE_DYNAMICS);
  double x[6] = {0.1, 0.2, 0.3, -1, 0.5, 2}, vd[3] = {1, -2, 3}, x2[6] = {-0.4, 0, 1, 0, 0, 1};
  double a[3], b[3], c[3];
  teal_context *ctx = teal_context_new(id, NULL);
  fx_fix(id, ctx, "estimated_state", x, 6);
  fx_fix(id, ctx, "desired_acceleration", vd, 3);
  fx_output(id, ctx, a, 3);
  teal_context *cl = teal_context_clone(ctx, NULL);
  ck_assert_ptr_nonnull(cl);
  teal_context_set_caching(cl, 0);
  fx_output(id, cl, b, 3);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq(a[i], b[i]);
  }
  /* the clone has its own multibody data: a new state there leaves ctx alone */
  fx_fix(id, cl, "estimated_state", x2, 6);
  fx_output(id, cl, b, 3);
  fx_output(id, ctx, c, 3);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq(a[i], c[i]);
  }
  ck_assert(fx_rel_diff(a, b, 3) > 1e-3);
  /* copy back and agree again */
  ck_assert_int_eq(teal_context_copy_from(cl, ctx), TEAL_OK);
  fx_output(id, cl, b, 3);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq(a[i], b[i]);
  }
  teal_context_free(cl);
  teal_context_free(ctx);
  teal_system_free(id);
  teal_plant_free(p);
}
END_TEST

START_TEST(nonfinite_inputs_fail) {
  teal_plant *p = fx_chain3(0, 0.0);
  teal_system *id = id_new(p, TEAL_INVERSE_DYNAMICS);
  teal_context *ctx = teal_context_new(id, NULL);
  double x[6] = {0.1, 0.2, 0.3, 0, 0, 0}, vd[3] = {0, 0, 0};
  const double *y;
  /* unconnected inputs */
  ck_assert_int_eq(teal_eval_vector_output(id, ctx, 0, &y), TEAL_ENOTCONNECTED);
  fx_fix(id, ctx, "estimated_state", x, 6);
  fx_fix(id, ctx, "desired_acceleration", vd, 3);
  ck_assert_int_eq(teal_eval_vector_output(id, ctx, 0, &y), TEAL_OK);
  x[4] = INFINITY;
  fx_fix(id, ctx, "estimated_state", x, 6);
  ck_assert_int_eq(teal_eval_vector_output(id, ctx, 0, &y), TEAL_ENONFINITE);
  ASSERT_HAS(teal_context_error(ctx)->message, "estimated_state");
  ASSERT_HAS(teal_context_error(ctx)->message, "'id'");
  x[4] = 0;
  vd[2] = -INFINITY;
  fx_fix(id, ctx, "estimated_state", x, 6);
  fx_fix(id, ctx, "desired_acceleration", vd, 3);
  ck_assert_int_eq(teal_eval_vector_output(id, ctx, 0, &y), TEAL_ENONFINITE);
  ASSERT_HAS(teal_context_error(ctx)->message, "desired_acceleration");
  teal_context_free(ctx);
  teal_system_free(id);
  teal_plant_free(p);
}
END_TEST

/* ---- construction errors ------------------------------------------------------------ */

START_TEST(bad_construction_arguments) {
  teal_error err;
  ck_assert_ptr_null(teal_inverse_dynamics_new("id", NULL, TEAL_INVERSE_DYNAMICS, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "plant is NULL");
  ASSERT_HAS(err.message, "inverse_dynamics 'id'");
  ck_assert_ptr_null(teal_inverse_dynamics_new("id", NULL, TEAL_INVERSE_DYNAMICS, NULL));
  fx_chain_opts o = {2, 0, 0.0, 0, 0};
  teal_plant *raw = fx_chain_new(&o); /* not finalized */
  ck_assert_ptr_null(teal_inverse_dynamics_new("id", raw, TEAL_GRAVITY_COMPENSATION, &err));
  ck_assert_int_eq(err.code, TEAL_ESTATE);
  ASSERT_HAS(err.message, "finalized");
  ck_assert_int_eq(teal_plant_finalize(raw), TEAL_OK);
  ck_assert_ptr_null(teal_inverse_dynamics_new("id", raw, (teal_inverse_dynamics_mode)7, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "mode");
  teal_system *ok = teal_inverse_dynamics_new("id", raw, TEAL_INVERSE_DYNAMICS, &err);
  ck_assert_ptr_nonnull(ok);
  ck_assert_int_eq(err.code, TEAL_OK);
  teal_system_free(ok);
  teal_plant_free(raw);
  teal_plant *empty = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_plant_finalize(empty), TEAL_OK);
  ck_assert_ptr_null(teal_inverse_dynamics_new("id", empty, TEAL_INVERSE_DYNAMICS, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ASSERT_HAS(err.message, "nv = 0");
  teal_plant_free(empty);
}
END_TEST

/* ---- no allocation ----------------------------------------------------------------- */

START_TEST(closed_loop_allocates_nothing) {
  teal_plant *p = fx_chain3(1, 0.1);
  teal_system *d = closed_loop(p, TEAL_INVERSE_DYNAMICS, "actuation");
  teal_simulator *sim = teal_simulator_new(d, NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  const double q0[3] = {0.2, 0.1, -0.3}, vd[3] = {0.5, -0.2, 0.1};
  teal_plant_set_positions(p, ctx, q0, 3);
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, vd, 3), TEAL_OK);
  teal_simulator_set_integrator(sim, teal_integrator_rk4);
  teal_simulator_set_fixed_step(sim, 1e-3);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.01, &st), TEAL_OK);
  ts_alloc_install();
  ts_alloc_reset();
  int rc = teal_simulator_advance_to(sim, 1.01, &st);
  unsigned long allocs = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_int_eq(rc, TEAL_OK);
  ck_assert_uint_eq(allocs, 0);
  /* and the commanded acceleration was realized: v = v0 + vd t */
  double v[3];
  teal_plant_get_velocities(p, ctx, v, 3);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(v[i], vd[i] * 1.01, 1e-9);
  }
  teal_simulator_free(sim);
  teal_system_free(d);
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
    teal_system *c = teal_inverse_dynamics_new("id", p, TEAL_INVERSE_DYNAMICS, &err);
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

static Suite *inverse_dynamics_suite(void) {
  Suite *s = suite_create("inverse_dynamics");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, ports_and_feedthrough);
  tcase_add_test(tc, output_matches_rnea_chain);
  tcase_add_test(tc, output_matches_rnea_acrobot);
  tcase_add_test(tc, closure_through_actuation_and_applied_force);
  tcase_add_test(tc, closure_with_force_elements);
  tcase_add_test(tc, closure_with_user_force_element);
  tcase_add_test(tc, closure_floating_base);
  tcase_add_test(tc, gravity_compensation_output);
  tcase_add_test(tc, gravity_compensation_holds_chain_still);
  tcase_add_test(tc, model_gravity_rule);
  tcase_add_test(tc, clone_copy_and_caching_off);
  tcase_add_test(tc, nonfinite_inputs_fail);
  tcase_add_test(tc, bad_construction_arguments);
  tcase_add_test(tc, closed_loop_allocates_nothing);
  tcase_add_test(tc, out_of_memory_is_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(inverse_dynamics_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
