/* Joint locking in a context (multibody/plant/joint_locking.c): a locked
 * elbow holds under gravity while the shoulder swings exactly as a model
 * with the elbow welded at that angle, in continuous and discrete plants, the holding torques of a
 * locked pendulum equal minus the gravity forces, unlocking releases the joint to the plain
 * dynamics, contexts lock independently, nothing is allocated in the loop, and bad calls get clear
 * errors. */
#include <check.h>
#include <math.h>

#include "framework/context.h"
#include "framework/context_access.h"
#include "framework/system_dynamics.h"
#include "math/rotation.h"
#include "math/transform.h"
#include "multibody/plant/joint_locking.h"
#include "multibody/plant/plant_inverse_dynamics.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/plant/prescribed_motion.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/sim_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/simulator.h"

/* A rod of mass 1 and length 1 along -z from its hinge. */
static teal_spatial_inertia rod(void) {
  return teal_spatial_inertia_from_central(1.0, teal_vec3_make(0, 0, -0.5),
                                           teal_mat3_diag(1.0 / 12, 1.0 / 12, 1e-4));
}

/* A double pendulum of two rods on hinges about y under g = 9.81 or, for
 * a finite weld_angle, the same rods welded at that elbow angle (the
 * shoulder its only joint). */
static teal_plant *double_pendulum(double time_step, double weld_angle) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  teal_spatial_inertia M = rod();
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int b1 = teal_plant_add_rigid_body(p, "upper", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int b2 = teal_plant_add_rigid_body(p, "lower", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_plant_add_joint(p, "shoulder", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                       teal_plant_body_frame(p, b1), &y, 0);
  teal_rotation R = teal_rotation_from_axis_angle(y, isfinite(weld_angle) ? weld_angle : 0.0);
  int f = teal_plant_add_frame(p, "elbow_frame", teal_plant_body_frame(p, b1),
                               teal_transform_make(R, teal_vec3_make(0, 0, -1)));
  teal_plant_add_joint(p, "elbow", isfinite(weld_angle) ? TEAL_JOINT_WELD : TEAL_JOINT_REVOLUTE, f,
                       teal_plant_body_frame(p, b2), &y, 0);
  teal_plant_set_gravity(p, teal_vec3_make(0, 0, -9.81));
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* The RK45 simulator of p's system. */
static teal_simulator *rk45(teal_plant *p, double accuracy) {
  return ts_sim_new_rk45(teal_plant_system(p), accuracy);
}

/* The locked elbow holds exactly under gravity, and the shoulder moves as
 * the welded model's (continuous: RK45 at 1e-10; discrete: the same
 * semi-implicit Euler step of the same reduced dynamics, to round-off). */
static void check_locked_elbow(double h, double tol) {
  double q0[2] = {0.4, 0.7}, v0[2] = {0.3, -2.0}, x[4];
  teal_plant *p = double_pendulum(h, NAN), *w = double_pendulum(h, q0[1]);
  teal_simulator *sim = rk45(p, 1e-10), *ref = rk45(w, 1e-10);
  teal_context *ctx = teal_simulator_context(sim), *rctx = teal_simulator_context(ref);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q0, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v0, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_positions(w, rctx, q0, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(w, rctx, v0, 1), TEAL_OK);
  /* locking zeroed the elbow's velocity and kept the shoulder's */
  ck_assert_int_eq(teal_plant_get_state(p, ctx, x, 4), TEAL_OK);
  ck_assert_double_eq(x[2], 0.3);
  ck_assert_double_eq(x[3], 0.0);
  teal_sim_status st;
  for (int k = 1; k <= 20; k++) {
    ck_assert_int_eq(teal_simulator_advance_to(sim, 0.1 * k, &st), TEAL_OK);
    ck_assert_int_eq(teal_simulator_advance_to(ref, 0.1 * k, &st), TEAL_OK);
    double r[2];
    ck_assert_int_eq(teal_plant_get_state(p, ctx, x, 4), TEAL_OK);
    ck_assert_int_eq(teal_plant_get_state(w, rctx, r, 2), TEAL_OK);
    ck_assert_double_eq(x[1], q0[1]); /* held exactly */
    ck_assert_double_eq(x[3], 0.0);
    ck_assert_double_eq_tol(x[0], r[0], tol);
    ck_assert_double_eq_tol(x[2], r[1], tol);
    ck_assert(fabs(x[0] - q0[0]) > 1e-3 || k < 3); /* the shoulder does swing */
  }
  teal_simulator_free(sim);
  teal_simulator_free(ref);
  teal_plant_free(p);
  teal_plant_free(w);
}

START_TEST(locked_elbow_moves_as_the_welded_model) {
  check_locked_elbow(0.0, 1e-8);
}
END_TEST

START_TEST(discrete_locked_elbow_holds_under_load) {
  check_locked_elbow(1e-3, 1e-9);
}
END_TEST

START_TEST(holding_forces_cancel_gravity_at_rest) {
  double q[2] = {0.5, -1.1}, tau[2], tau_g[2];
  const double *vdot;
  teal_plant *p = double_pendulum(0.0, NAN);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, 0), TEAL_OK);
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_double_eq_tol(vdot[0], 0.0, 1e-12);
  ck_assert_double_eq_tol(vdot[1], 0.0, 1e-12);
  ck_assert_int_eq(teal_plant_calc_motion_forces(p, ctx, tau, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, ctx, tau_g), TEAL_OK);
  ck_assert(fabs(tau_g[0]) > 1.0 && fabs(tau_g[1]) > 1.0);
  ck_assert_double_eq_tol(tau[0], -tau_g[0], 1e-10);
  ck_assert_double_eq_tol(tau[1], -tau_g[1], 1e-10);
  /* locked at rest: no velocity or acceleration error, no power */
  double err[2], power = -1.0;
  ck_assert_int_eq(teal_plant_calc_motion_errors(p, ctx, 2, err, 2), TEAL_OK);
  ck_assert_double_eq(err[0], 0.0);
  ck_assert_double_eq(err[1], 0.0);
  ck_assert_int_eq(teal_plant_calc_motion_power(p, ctx, &power), TEAL_OK);
  ck_assert_double_eq(power, 0.0);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(unlocking_releases_the_joint) {
  double q[2] = {0.5, -1.1}, v[2] = {0.2, 0.0};
  const double *vdot;
  teal_plant *p = double_pendulum(0.0, NAN);
  teal_simulator *sim = rk45(p, 1e-9);
  teal_context *ctx = teal_simulator_context(sim);
  teal_context *free_ctx = teal_context_new(teal_plant_system(p), NULL);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, 1), TEAL_OK);
  int locked = -1;
  ck_assert_int_eq(teal_plant_joint_is_locked(p, ctx, 1, &locked), TEAL_OK);
  ck_assert_int_eq(locked, 1);
  ck_assert_int_eq(teal_plant_joint_is_locked(p, free_ctx, 1, &locked), TEAL_OK);
  ck_assert_int_eq(locked, 0); /* the lock is the context's */
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.5, &st), TEAL_OK);
  ck_assert_int_eq(teal_plant_unlock_joint(p, ctx, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_joint_is_locked(p, ctx, 1, &locked), TEAL_OK);
  ck_assert_int_eq(locked, 0);
  /* unlocked: the accelerations are those of a context that never locked */
  double x[4];
  const double *vfree;
  ck_assert_int_eq(teal_plant_get_state(p, ctx, x, 4), TEAL_OK);
  ck_assert_double_eq(x[1], q[1]);
  ck_assert_int_eq(teal_plant_set_state(p, free_ctx, x, 4), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, free_ctx, &vfree), TEAL_OK);
  ck_assert_double_eq_tol(vdot[0], vfree[0], 1e-12);
  ck_assert_double_eq_tol(vdot[1], vfree[1], 1e-12);
  ck_assert(fabs(vdot[1]) > 0.1);
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.6, &st), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_state(p, ctx, x, 4), TEAL_OK);
  ck_assert(fabs(x[1] - q[1]) > 1e-3);
  teal_context_free(free_ctx);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

START_TEST(copied_context_keeps_the_lock) {
  double q[2] = {0.5, -1.1};
  const double *vdot;
  teal_plant *p = double_pendulum(0.0, NAN);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, 1), TEAL_OK);
  teal_context *copy = teal_context_clone(ctx, NULL);
  ck_assert_ptr_nonnull(copy);
  int locked = 0;
  ck_assert_int_eq(teal_plant_joint_is_locked(p, copy, 1, &locked), TEAL_OK);
  ck_assert_int_eq(locked, 1);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, copy, &vdot), TEAL_OK);
  ck_assert_double_eq(vdot[1], 0.0);
  ck_assert(fabs(vdot[0]) > 0.1);
  teal_context_free(copy);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* A copy of a locked context has no held work until it needs it: its
 * first motion-forces call must make it, not write through a stale one. */
START_TEST(copied_context_gives_holding_forces_first) {
  double q[2] = {0.5, -1.1}, tau[2] = {NAN, NAN}, tau_g[2];
  teal_plant *p = double_pendulum(0.0, NAN);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, 0), TEAL_OK);
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, 1), TEAL_OK);
  teal_context *copy = teal_context_clone(ctx, NULL);
  ck_assert_ptr_nonnull(copy);
  ck_assert_int_eq(teal_plant_calc_motion_forces(p, copy, tau, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, copy, tau_g), TEAL_OK);
  ck_assert_double_eq_tol(tau[0], -tau_g[0], 1e-10);
  ck_assert_double_eq_tol(tau[1], -tau_g[1], 1e-10);
  teal_context_free(copy);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(locked_steps_allocate_nothing) {
  double q[2] = {0.5, -1.1};
  teal_plant *p = double_pendulum(0.0, NAN);
  teal_simulator *sim = rk45(p, 1e-8);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, 0), TEAL_OK);
  ts_sim_expect_steps_allocate_nothing(sim, 0.01, 0.5);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

START_TEST(locked_free_body_does_not_fall) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = rod();
  int b = teal_plant_add_rigid_body(p, "box", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int j = teal_plant_add_joint(p, "float", TEAL_JOINT_QUATERNION_FLOATING, TEAL_WORLD_FRAME,
                               teal_plant_body_frame(p, b), NULL, 0);
  teal_plant_set_gravity(p, teal_vec3_make(0, 0, -9.81));
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_simulator *sim = rk45(p, 1e-8);
  teal_context *ctx = teal_simulator_context(sim);
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  double x0[13], x[13];
  ck_assert_int_eq(teal_plant_get_state(p, ctx, x0, nq + nv), TEAL_OK);
  x0[nq + 2] = 1.0; /* moving: locking stops it */
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x0, nq + nv), TEAL_OK);
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, j), TEAL_OK);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 1.0, &st), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_state(p, ctx, x, nq + nv), TEAL_OK);
  for (int i = 0; i < nq; i++) {
    ck_assert_double_eq(x[i], x0[i]);
  }
  for (int i = 0; i < nv; i++) {
    ck_assert_double_eq(x[nq + i], 0.0);
  }
  /* the holding forces cancel the generalized gravity forces */
  double tau[6], tau_g[6];
  ck_assert_int_eq(teal_plant_calc_motion_forces(p, ctx, tau, 6), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, ctx, tau_g), TEAL_OK);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq_tol(tau[i], -tau_g[i], 1e-12);
  }
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

static int hold_still(double t, double *q, double *qd, double *qdd, void *user) {
  (void)t;
  (void)user;
  *q = *qd = *qdd = 0.0;
  return TEAL_OK;
}

START_TEST(bad_calls_are_reported) {
  teal_plant *p = double_pendulum(0.0, NAN);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  int locked;
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_lock_joint(p, ctx, 2), TEAL_EINVAL, teal_context_error(ctx),
                  "joint 2 is not a joint of the plant (0..1)");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_unlock_joint(p, ctx, -1), TEAL_EINVAL, teal_context_error(ctx),
                  "plant unlock_joint: joint -1 is not a joint");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_joint_is_locked(p, ctx, 0, NULL), TEAL_EINVAL, teal_context_error(ctx),
                  "locked is NULL");
  ck_assert_int_lt(teal_plant_lock_joint(p, NULL, 0), 0);
  ck_assert_int_lt(teal_plant_joint_is_locked(NULL, ctx, 0, &locked), 0);
  teal_context_free(ctx);
  teal_plant_free(p);

  /* a prescribed joint's motion is already given */
  p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = rod();
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int b = teal_plant_add_rigid_body(p, "rod", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int j = teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                               teal_plant_body_frame(p, b), &y, 0);
  ck_assert_int_eq(teal_plant_prescribe_joint_motion(p, j, hold_still, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ctx = teal_context_new(teal_plant_system(p), NULL);
  TS_EXPECT_ERROR(teal_plant_lock_joint(p, ctx, j), TEAL_EINVAL, teal_context_error(ctx),
                  "joint \"hinge\" has a prescribed motion");
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* A locked dof's acceleration is held at zero, so the free dynamics'
 * analytic Jacobian is not df/dx: the plant's hook declines (callers fall
 * back to differences) while a joint is locked, and serves again once it
 * is unlocked, matching central differences of the time derivatives. */
START_TEST(analytic_jacobian_declines_while_locked) {
  teal_plant *p = double_pendulum(0.0, NAN);
  const teal_system *sys = teal_plant_system(p);
  teal_context *ctx = teal_context_new(sys, NULL);
  double x[4] = {0.5, -1.1, 0.3, -0.2}, A[16], fp[4], fm[4];
  teal_context_set_continuous_state(ctx, x, 4);
  teal_jacobian jac = {4, 0, 0, A, NULL, NULL, NULL};
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, 1), TEAL_OK);
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_calc_jacobian(sys, ctx, -1, -1, &jac), TEAL_EUNSUPPORTED,
                  teal_context_error(ctx), "locked or prescribed");
  ck_assert_int_eq(teal_plant_unlock_joint(p, ctx, 1), TEAL_OK);
  ck_assert_int_eq(teal_calc_jacobian(sys, ctx, -1, -1, &jac), TEAL_OK);
  teal_context_get_continuous_state(ctx, x, 4);
  for (int j = 0; j < 4; j++) {
    double xj = x[j], h = 1e-6;
    x[j] = xj + h;
    teal_context_set_continuous_state(ctx, x, 4);
    ck_assert_int_eq(teal_calc_time_derivatives(sys, ctx, fp), TEAL_OK);
    x[j] = xj - h;
    teal_context_set_continuous_state(ctx, x, 4);
    ck_assert_int_eq(teal_calc_time_derivatives(sys, ctx, fm), TEAL_OK);
    x[j] = xj;
    for (int i = 0; i < 4; i++) {
      ck_assert_double_eq_tol(A[i * 4 + j], (fp[i] - fm[i]) / (2 * h), 1e-6);
    }
  }
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("joint_locking");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, locked_elbow_moves_as_the_welded_model);
  tcase_add_test(tc, discrete_locked_elbow_holds_under_load);
  tcase_add_test(tc, holding_forces_cancel_gravity_at_rest);
  tcase_add_test(tc, unlocking_releases_the_joint);
  tcase_add_test(tc, copied_context_keeps_the_lock);
  tcase_add_test(tc, copied_context_gives_holding_forces_first);
  tcase_add_test(tc, locked_steps_allocate_nothing);
  tcase_add_test(tc, locked_free_body_does_not_fall);
  tcase_add_test(tc, bad_calls_are_reported);
  tcase_add_test(tc, analytic_jacobian_declines_while_locked);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
