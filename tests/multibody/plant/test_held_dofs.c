/* The held dofs' solve with constraint rows (multibody/plant/held_dofs.c):
 * when locks or Baumgarte's feedback route a continuous plant's dynamics
 * through the combined solve, the constraint multipliers it reports (the
 * getter and the output port) are that solve's, so that with the plant's
 * accelerations M vdot + C - tau_g + G' lambda = tau_held holds. Checked on
 * a double pendulum whose tip is tied to a world point by a rigid distance
 * constraint (a closed loop with one dof), against the statics solved by
 * hand when the shoulder is locked, and against the equations of motion
 * off the manifold with Baumgarte's feedback. */
#include <check.h>
#include <math.h>

#include "framework/context.h"
#include "math/rotation.h"
#include "math/transform.h"
#include "multibody/constraints/constraint_context.h"
#include "multibody/constraints/constraint_operators.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/plant/joint_locking.h"
#include "multibody/plant/plant_inverse_dynamics.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/plant/prescribed_motion.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_constraint_fixtures.h"
#include "support/test_support.h"
#include "framework/ports.h"

static const double Q0[2] = {0.5, -1.1};

/* The tip of the two unit rods at q: hinges about y, rods along -z. */
static teal_vec3 tip(const double *q) {
  return teal_vec3_make(-sin(q[0]) - sin(q[0] + q[1]), 0.0, -cos(q[0]) - cos(q[0] + q[1]));
}

/* Two rods (mass 1, length 1) on hinges about y under g = 9.81, the
 * lower's tip kept at distance 0.8 from a world point chosen so that Q0
 * satisfies the constraint; Baumgarte's feedback alpha, beta when > 0. */
static teal_plant *closed_pendulum(double alpha, double beta) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(
      1.0, teal_vec3_make(0, 0, -0.5), teal_mat3_diag(1.0 / 12, 1.0 / 12, 1e-4));
  teal_vec3 y = teal_vec3_make(0, 1, 0), end = teal_vec3_make(0, 0, -1);
  int b1 = teal_plant_add_rigid_body(p, "upper", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int b2 = teal_plant_add_rigid_body(p, "lower", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_plant_add_joint(p, "shoulder", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                       teal_plant_body_frame(p, b1), &y, 0);
  int f = teal_plant_add_frame(p, "elbow_frame", teal_plant_body_frame(p, b1),
                               teal_transform_make(teal_rotation_identity(), end));
  teal_plant_add_joint(p, "elbow", TEAL_JOINT_REVOLUTE, f, teal_plant_body_frame(p, b2), &y, 0);
  teal_vec3 anchor = teal_vec3_add(tip(Q0), teal_vec3_make(0.8, 0.0, 0.0));
  ck_assert_int_eq(
      teal_plant_add_distance_constraint(p, TEAL_WORLD_BODY, anchor, b2, end, 0.8, INFINITY, 0.0),
      0);
  teal_plant_set_gravity(p, teal_vec3_make(0, 0, -9.81));
  if (alpha > 0.0) {
    ck_assert_int_eq(teal_plant_set_baumgarte_stabilization(p, alpha, beta), TEAL_OK);
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* r = ID(vdot) - tau_g - tau_held + G' lambda at ctx's state: the
 * equations of motion's residual with the plant's own vdot and lambda. */
static void motion_residual(teal_plant *p, teal_context *ctx, const double *lambda,
                            const double *tau_held, double *r) {
  const double *vdot;
  double id[2], tau_g[2], G[2];
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, vdot, NULL, NULL, id), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, ctx, tau_g), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_jacobian(p, ctx, G), TEAL_OK);
  for (int i = 0; i < 2; i++) {
    r[i] = id[i] - tau_g[i] - tau_held[i] + G[i] * lambda[0];
  }
}

/* The multiplier from the getter, checked equal to the output port's. */
static double reported_lambda(teal_plant *p, teal_context *ctx) {
  double lambda = NAN;
  const double *y;
  ck_assert_int_eq(teal_plant_get_constraint_multipliers(p, ctx, &lambda), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(teal_plant_system(p), ctx,
                                           teal_plant_constraint_multipliers_output_port(p), &y),
                   TEAL_OK);
  ck_assert_double_eq(y[0], lambda);
  return lambda;
}

START_TEST(locked_loop_reports_the_combined_multiplier) {
  teal_plant *p = closed_pendulum(0.0, 0.0);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double e = 1.0, tau_held[2], tau_g[2], G[2], r[2];
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, Q0, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, &e), TEAL_OK);
  ck_assert_double_lt(fabs(e), 1e-14); /* the anchor was placed right */
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, 0), TEAL_OK);
  double lambda = reported_lambda(p, ctx);
  ck_assert_int_eq(teal_plant_calc_motion_forces(p, ctx, tau_held, 2), TEAL_OK);
  /* the statics by hand: the elbow is free, so G_1 lambda = tau_g,1; the
   * shoulder's holding torque takes the rest, G_0 lambda - tau_g,0 */
  ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, ctx, tau_g), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_jacobian(p, ctx, G), TEAL_OK);
  ck_assert(fabs(G[1]) > 0.1 && fabs(tau_g[1]) > 1.0);
  ck_assert_double_eq_tol(lambda, tau_g[1] / G[1], 1e-10);
  ck_assert_double_eq_tol(tau_held[0], G[0] * lambda - tau_g[0], 1e-10);
  ck_assert_double_eq_tol(tau_held[1], 0.0, 1e-12);
  motion_residual(p, ctx, &lambda, tau_held, r);
  ck_assert_double_lt(fabs(r[0]) + fabs(r[1]), 1e-10);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(baumgarte_reports_the_multiplier_of_its_accelerations) {
  teal_plant *p = closed_pendulum(10.0, 20.0);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  /* off the manifold in position and velocity, so the feedback matters */
  double q[2] = {Q0[0] + 0.03, Q0[1] + 0.03}, v[2] = {0.7, 0.4}, zero[2] = {0.0, 0.0}, r[2];
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, 2), TEAL_OK);
  double lambda = reported_lambda(p, ctx);
  motion_residual(p, ctx, &lambda, zero, r);
  ck_assert_double_lt(fabs(r[0]) + fabs(r[1]), 1e-10);
  /* and the accelerations are Baumgarte's: G vdot = b - 2 alpha edot - beta^2 e */
  const double *vdot;
  double G[2], b, perr, verr;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_jacobian(p, ctx, G), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_bias(p, ctx, &b), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, &perr), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_velocity_errors(p, ctx, &verr), TEAL_OK);
  ck_assert(fabs(perr) > 1e-3 && fabs(verr) > 1e-2);
  double target = b - 2.0 * 10.0 * verr - 400.0 * perr;
  ck_assert_double_eq_tol(G[0] * vdot[0] + G[1] * vdot[1], target, 1e-10 * (1.0 + fabs(target)));
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* The combined solve checks its dropped rows as the constraints-only one
 * does (ts_mbc_conflicting_slider): with Baumgarte's feedback routing the
 * dynamics through it, the slider's conflict at v = 1 is an error, and at
 * rest it is not. */
START_TEST(conflicting_rows_are_an_error_in_the_combined_solve) {
  teal_plant *p = ts_mbc_conflicting_slider(1);
  ck_assert_ptr_nonnull(p);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double v = 1.0;
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, &v, 1), TEAL_OK);
  const double *vdot;
  TS_EXPECT_ERROR(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_ESINGULAR,
                  teal_context_error(ctx), "conflicting redundant constraints with the held dofs");
  v = 0.0;
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, &v, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_double_eq_tol(vdot[0], 0.0, 1e-12);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("held_dofs");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, locked_loop_reports_the_combined_multiplier);
  tcase_add_test(tc, baumgarte_reports_the_multiplier_of_its_accelerations);
  tcase_add_test(tc, conflicting_rows_are_an_error_in_the_combined_solve);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
