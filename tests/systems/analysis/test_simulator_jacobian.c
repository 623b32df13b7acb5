/* The implicit integrators' Newton matrix from the composed analytic
 * Jacobian (teal_simulator_set_analytic_jacobian): a 7-link chain under a
 * PID in a diagram runs the same trajectory as with forward differences
 * (to the Newton tolerance), skips the n derivative calls per Jacobian,
 * allocates nothing; a declining hook falls back to differences; the
 * setting refuses a system whose Jacobian does not compose. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/error_messages.h"
#include "support/leaf_fixtures.h"
#include "support/test_support.h"
#include "teal.h"

enum { LINKS = 7, NX = 3 * LINKS }; /* q, v and the PID's integral */

/* A planar chain of rods (1 kg, 0.5 m) on revolute y joints, with damping. */
static teal_plant *chain_new(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int parent = teal_plant_body_frame(p, 0);
  const double L = 0.5, I = L * L / 12.0;
  for (int i = 0; i < LINKS; i++) {
    char name[16];
    teal_spatial_inertia M = teal_spatial_inertia_from_central(1.0, teal_vec3_make(0, 0, -L / 2),
                                                               teal_mat3_diag(I, I, 0.0));
    snprintf(name, sizeof name, "l%d", i);
    int body = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
    snprintf(name, sizeof name, "F%d", i);
    teal_transform X =
        teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, i == 0 ? 0.0 : -L));
    int frame = teal_plant_add_frame(p, name, parent, X);
    int child = teal_plant_body_frame(p, body);
    snprintf(name, sizeof name, "j%d", i);
    teal_vec3 axis = teal_vec3_make(0, 1, 0);
    ck_assert_int_ge(teal_plant_add_joint(p, name, TEAL_JOINT_REVOLUTE, frame, child, &axis, 0.2),
                     0);
    parent = child;
  }
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(0, 0, -9.81)), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* plant.state -> pid -> plant.applied_generalized_force, target constant. */
static teal_system *loop_new(teal_plant **plant) {
  double kp[LINKS], ki[LINKS], kd[LINKS], target[2 * LINKS] = {0};
  for (int i = 0; i < LINKS; i++) {
    kp[i] = 40.0;
    ki[i] = 5.0;
    kd[i] = 4.0;
    target[i] = 0.1 * (i + 1);
  }
  *plant = chain_new();
  teal_builder *b = teal_builder_new("loop");
  teal_builder_add(b, teal_plant_system(*plant));
  teal_builder_add(b, teal_pid_new("pid", kp, ki, kd, LINKS, NULL));
  teal_builder_add(b, teal_constant_vector_source_new("target", target, 2 * LINKS, NULL));
  teal_builder_connect_by_name(b, "plant", "state", "pid", "estimated_state");
  teal_builder_connect_by_name(b, "target", "y", "pid", "desired_state");
  teal_builder_connect_by_name(b, "pid", "control", "plant", "applied_generalized_force");
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  return d;
}

typedef struct run_result {
  double x[NX];
  teal_integrator_counts counts;
  unsigned long allocs;
} run_result;

static const teal_integrator_type *method(int i) {
  return i == 0 ? teal_integrator_implicit_euler : teal_integrator_radau3;
}

static run_result run(int m, int analytic) {
  teal_plant *plant;
  teal_system *d = loop_new(&plant);
  teal_simulator *sim = teal_simulator_new(d, NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  double q0[LINKS];
  for (int i = 0; i < LINKS; i++) {
    q0[i] = 0.3 * sin(i + 1.0);
  }
  ck_assert_int_eq(teal_plant_set_positions(plant, ctx, q0, LINKS), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, method(m)), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 0.01), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_analytic_jacobian(sim, analytic), TEAL_OK);
  ck_assert_int_eq(teal_simulator_uses_analytic_jacobian(sim), analytic);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.02, &st), TEAL_OK);
  ts_alloc_install();
  ts_alloc_reset();
  int rc = teal_simulator_advance_to(sim, 0.5, &st);
  run_result r;
  r.allocs = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_msg(rc == TEAL_OK, "advance: %s", st.message);
  ck_assert_int_eq(teal_context_get_continuous_state(ctx, r.x, NX), TEAL_OK);
  r.counts = teal_integrator_get_counts(teal_simulator_integrator(sim));
  teal_simulator_free(sim);
  teal_system_free(d);
  return r;
}

/* Same trajectory both ways; the analytic run spends no derivative calls
 * on its Jacobians, the differenced one NX per Jacobian. */
START_TEST(test_analytic_matches_differences) {
  run_result a = run(_i, 1), f = run(_i, 0);
  double diff = 0.0, size = 0.0;
  for (int i = 0; i < NX; i++) {
    diff = fmax(diff, fabs(a.x[i] - f.x[i]));
    size = fmax(size, fabs(a.x[i]));
  }
  if (ts_verbose()) {
    printf("%s: |x_analytic - x_fd| = %.3g (|x| %.3g); derivative calls %ld vs %ld\n",
           method(_i)->name, diff, size, a.counts.derivative_evals, f.counts.derivative_evals);
  }
  ck_assert_double_gt(size, 0.1); /* the chain moved */
  ck_assert_double_le(diff, 1e-7);
  ck_assert_uint_eq(a.allocs, 0);
  ck_assert_uint_eq(f.allocs, 0);
  ck_assert_int_gt(a.counts.jacobian_evals, 0);
  /* differencing costs NX calls per Jacobian; the other calls are the
   * Newton iterations, the same in number on both paths */
  long newton_a = a.counts.derivative_evals,
       newton_f = f.counts.derivative_evals - NX * f.counts.jacobian_evals;
  ck_assert_int_eq(a.counts.jacobian_evals, f.counts.jacobian_evals);
  ck_assert_int_le(labs(newton_a - newton_f), a.counts.steps);
}
END_TEST

/* ---- fallback and the setting's errors ------------------------------------------- */

/* x' = -50 x, with a hook that declines (counting in *declines) or without. */
static teal_system *decay_new(int *declines) {
  static const double rate = 50.0;
  return ts_leaf_decay_new(&rate, declines);
}

/* A hook declining at run time: it is asked once, every Newton matrix is
 * differenced, and the run is implicit Euler's, (1 + 50 h)^-k; turning
 * the setting on again asks the hook again. */
START_TEST(test_declining_hook_falls_back) {
  int declines = 0;
  teal_system *s = decay_new(&declines);
  teal_simulator *sim = teal_simulator_new(s, NULL, NULL);
  teal_simulator_set_integrator(sim, teal_integrator_implicit_euler);
  teal_simulator_set_fixed_step(sim, 0.01);
  ck_assert(teal_simulator_uses_analytic_jacobian(sim));
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.1, &st), TEAL_OK);
  double z = teal_context_z(teal_simulator_context(sim))[0];
  ck_assert_double_eq_tol(z, pow(1.5, -10.0), 1e-9);
  teal_integrator_counts c = teal_integrator_get_counts(teal_simulator_integrator(sim));
  ck_assert_int_eq(declines, 1);
  ck_assert_int_eq(c.jacobian_evals, 10);
  ck_assert(!teal_simulator_uses_analytic_jacobian(sim));
  ck_assert_int_eq(teal_simulator_set_analytic_jacobian(sim, 1), TEAL_OK);
  ck_assert(teal_simulator_uses_analytic_jacobian(sim));
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.2, &st), TEAL_OK);
  ck_assert_int_eq(declines, 2);
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

START_TEST(test_setting_refuses_what_does_not_compose) {
  teal_system *s = decay_new(NULL);
  teal_simulator *sim = teal_simulator_new(s, NULL, NULL);
  ck_assert(!teal_simulator_uses_analytic_jacobian(sim));
  TS_EXPECT_ERROR(teal_simulator_set_analytic_jacobian(sim, 1), TEAL_EUNSUPPORTED,
                  teal_simulator_error(sim), "leaf 'decay' has continuous state and no analytic");
  ck_assert_int_eq(teal_simulator_set_analytic_jacobian(sim, 0), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_analytic_jacobian(NULL, 1), TEAL_EINVAL);
  ck_assert(!teal_simulator_uses_analytic_jacobian(NULL));
  teal_simulator_free(sim);
  teal_system_free(s);
}
END_TEST

static Suite *simulator_jacobian_suite(void) {
  Suite *s = suite_create("simulator_jacobian");
  TCase *tc = tcase_create("newton_matrix");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, test_analytic_matches_differences, 0, 2);
  tcase_add_test(tc, test_declining_hook_falls_back);
  tcase_add_test(tc, test_setting_refuses_what_does_not_compose);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(simulator_jacobian_suite());
}
