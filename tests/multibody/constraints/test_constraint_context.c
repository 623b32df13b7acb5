/* A context's constraint state (multibody/constraints/constraint_context.h):
 * per-context enabling (defaults from the model, contexts independent),
 * disabled rows reading 0 and disabled constraints leaving the motion
 * free, a disabled compliant distance exerting no force (against its
 * spring's analytic force and energy and a free fall), the multipliers
 * port, the analytic Jacobian declining while constraints are enabled, and
 * bad calls on the context with their codes
 * and messages. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/system_dynamics.h"
#include "multibody/constraints/constrained_dynamics.h"
#include "multibody/constraints/constraint_context.h"
#include "multibody/constraints/constraint_operators.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/plant/plant_force_contribution.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

static const double g = 9.81;

/* A free bob ball-constrained at its origin to the world (constraint 0),
 * a compliant distance to a second free body (constraint 1), and a weld
 * of the second body to the world, disabled by default (constraint 2). */
static teal_plant *model(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(2.0, teal_vec3_make(0, 0, -0.5),
                                                             teal_mat3_diag(0.02, 0.02, 0.01));
  int a = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int b = teal_plant_add_rigid_body(p, "other", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 o = teal_vec3_zero();
  ck_assert_int_eq(teal_plant_add_ball_constraint(p, TEAL_WORLD_BODY, o, a, o), 0);
  ck_assert_int_eq(teal_plant_add_distance_constraint(p, a, o, b, o, 1.0, 50.0, 1.0), 1);
  ck_assert_int_eq(teal_plant_add_weld_constraint(p, TEAL_WORLD_BODY, teal_transform_identity(), b,
                                                  teal_transform_identity()),
                   2);
  ck_assert_int_eq(teal_plant_set_constraint_default_enabled(p, 2, 0), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* The bob's linear acceleration (its origin) and the multipliers. */
static void bob_state(teal_plant *p, teal_context *ctx, double *a_z, double lambda[9]) {
  const double *vdot;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  int v0 = teal_plant_joint_v_start(p, teal_plant_num_joints(p) - 2); /* bob's floating joint */
  *a_z = vdot[v0 + 5];
  ck_assert_int_eq(teal_plant_get_constraint_multipliers(p, ctx, lambda), TEAL_OK);
}

/* A context with the second body 1 m from the bob: the spring slack. */
static teal_context *placed_context(teal_plant *p) {
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  teal_transform X = {teal_rotation_identity(), teal_vec3_make(1, 0, 0)};
  ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, 2, X), TEAL_OK);
  return ctx;
}

START_TEST(contexts_enable_and_disable_independently) {
  teal_plant *p = model();
  ck_assert_int_eq(teal_plant_num_constraint_rows(p), 9);
  teal_context *a = placed_context(p), *b = placed_context(p);
  ck_assert_int_eq(teal_plant_constraint_enabled(p, a, 0), 1);
  ck_assert_int_eq(teal_plant_constraint_enabled(p, a, 1), 1);
  ck_assert_int_eq(teal_plant_constraint_enabled(p, a, 2), 0); /* the model's default */
  double az, lambda[9], perr[9], G[9 * 12];
  bob_state(p, a, &az, lambda);
  ck_assert_double_lt(fabs(az), 1e-12); /* held at its origin */
  ck_assert_double_lt(fabs(lambda[2] + 2.0 * g), 1e-10);
  ck_assert_double_eq(lambda[3], 0.0); /* the disabled weld's rows */
  ck_assert_int_eq(teal_plant_set_constraint_enabled(p, b, 0, 0), TEAL_OK);
  ck_assert_int_eq(teal_plant_constraint_enabled(p, b, 0), 0);
  ck_assert_int_eq(teal_plant_constraint_enabled(p, a, 0), 1);
  bob_state(p, b, &az, lambda);
  ck_assert_double_lt(fabs(az + g), 1e-12); /* falls freely */
  for (int i = 0; i < 9; i++) {
    ck_assert_double_eq(lambda[i], 0.0);
  }
  /* a change of flag invalidates the cached accelerations of that context */
  ck_assert_int_eq(teal_plant_set_constraint_enabled(p, a, 0, 0), TEAL_OK);
  bob_state(p, a, &az, lambda);
  ck_assert_double_lt(fabs(az + g), 1e-12);
  ck_assert_int_eq(teal_plant_set_constraint_enabled(p, a, 0, 1), TEAL_OK);
  bob_state(p, a, &az, lambda);
  ck_assert_double_lt(fabs(az), 1e-12);
  /* disabled rows read 0 in every operator */
  teal_transform Xb = {teal_rotation_identity(), teal_vec3_make(0.1, 0.2, 0.3)};
  ck_assert_int_eq(teal_plant_set_free_body_pose(p, b, 1, Xb), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, b, perr), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_jacobian(p, b, G), TEAL_OK);
  for (int i = 0; i < 9; i++) {
    ck_assert_double_eq(perr[i], 0.0);
  }
  for (int i = 0; i < 9 * 12; i++) {
    ck_assert_double_eq(G[i], 0.0);
  }
  ck_assert_int_eq(teal_plant_set_constraint_enabled(p, b, 0, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_constraint_enabled(p, b, 2, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, b, perr), TEAL_OK);
  ck_assert_double_eq(perr[2], 0.3);     /* the ball: p_bob - p_world */
  ck_assert_double_eq(perr[6 + 0], 1.0); /* the weld's translation: the other body at x = 1 */
  teal_context_free(a);
  teal_context_free(b);
  teal_plant_free(p);
}
END_TEST

START_TEST(multipliers_port_and_jacobian_fallback) {
  teal_plant *p = model();
  teal_system *sys = teal_plant_system(p);
  teal_context *ctx = placed_context(p);
  int port = teal_plant_constraint_multipliers_output_port(p);
  ck_assert_int_ge(port, 0);
  const double *y;
  double lambda[9];
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, port, &y), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_constraint_multipliers(p, ctx, lambda), TEAL_OK);
  for (int i = 0; i < 9; i++) {
    ck_assert_double_eq(y[i], lambda[i]);
  }
  /* the ball is workless on its manifold; off it (the bob's origin moving)
   * its force does work -lambda . (G v) */
  double power, v[12] = {0};
  ck_assert_int_eq(teal_plant_calc_constraint_power(p, ctx, &power), TEAL_OK);
  ck_assert_double_eq(power, 0.0);
  int v0 = teal_plant_joint_v_start(p, teal_plant_num_joints(p) - 2);
  v[v0 + 5] = -0.5; /* the bob's origin sinks at 0.5 m/s */
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, 12), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_constraint_multipliers(p, ctx, lambda), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_power(p, ctx, &power), TEAL_OK);
  ck_assert_double_lt(fabs(power - lambda[2] * 0.5), 1e-12);
  ck_assert_double_lt(power, 0.0); /* the ball stops the fall: negative work */
  static double A[26 * 26], B[26 * 12], C[26 * 26], D[26 * 12];
  teal_jacobian jac = {26, 12, 26, A, B, C, D};
  int in = teal_plant_applied_generalized_force_input_port(p);
  TS_EXPECT_ERROR(teal_calc_jacobian(sys, ctx, in, teal_plant_state_output_port(p), &jac),
                  TEAL_EUNSUPPORTED, teal_context_error(ctx), "constraints are enabled");
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* The spring's force on the second body (x component of its F_Bo_W), the
 * potential energy and that body's generalized acceleration. */
static void spring_state(teal_plant *p, teal_context *ctx, double *fx, double *pe,
                         double vdot_other[6]) {
  double tau[12];
  teal_spatial_vector F[3];
  const double *vdot;
  ck_assert_int_eq(teal_plant_calc_force_elements_contribution(p, ctx, tau, 12, F, 3), TEAL_OK);
  *fx = F[2].v[3];
  ck_assert_int_eq(teal_calc_potential_energy(teal_plant_system(p), ctx, pe), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  memcpy(vdot_other, vdot + teal_plant_joint_v_start(p, teal_plant_num_joints(p) - 1),
         6 * sizeof(double));
}

START_TEST(disabling_a_compliant_distance_removes_its_force) {
  teal_plant *p = model();
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  /* the second body 1.5 m from the bob: the spring (k = 50, rest 1) pulls
   * it back with 50 * 0.5 = 25 N and stores 50 * 0.5^2 / 2 = 6.25 J */
  teal_transform X = {teal_rotation_identity(), teal_vec3_make(1.5, 0, 0)};
  ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, 2, X), TEAL_OK);
  double fx_on, pe_on, fx_off, pe_off, a_on[6], a_off[6];
  spring_state(p, ctx, &fx_on, &pe_on, a_on);
  ck_assert_int_eq(teal_plant_set_constraint_enabled(p, ctx, 1, 0), TEAL_OK);
  ck_assert_int_eq(teal_plant_constraint_enabled(p, ctx, 1), 0);
  spring_state(p, ctx, &fx_off, &pe_off, a_off);
  ck_assert_double_eq_tol(fx_on, -25.0, 1e-12);
  ck_assert_double_eq(fx_off, 0.0);
  ck_assert_double_eq_tol(pe_on - pe_off, 6.25, 1e-12);
  ck_assert(fabs(a_on[3]) > 1.0);
  /* disabled, the second body falls freely (the weld is off by default) */
  const double free_fall[6] = {0, 0, 0, 0, 0, -g};
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq_tol(a_off[i], free_fall[i], 1e-12);
  }
  /* and enabling it again restores the force */
  ck_assert_int_eq(teal_plant_set_constraint_enabled(p, ctx, 1, 1), TEAL_OK);
  spring_state(p, ctx, &fx_off, &pe_off, a_off);
  ck_assert_double_eq(fx_off, fx_on);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(bad_calls_report_on_the_context) {
  teal_plant *p = model();
  teal_context *ctx = placed_context(p);
  const teal_error *err = teal_context_error(ctx);
  double x[32];
  teal_spatial_vector F[3];
  TS_EXPECT_ERROR(teal_plant_set_constraint_enabled(p, ctx, 3, 0), TEAL_ENOTFOUND, err,
                  "unknown constraint 3");
  TS_EXPECT_ERROR(teal_plant_constraint_enabled(p, ctx, -1), TEAL_ENOTFOUND, err,
                  "unknown constraint -1");
  TS_EXPECT_ERROR(teal_plant_calc_constraint_position_errors(p, ctx, NULL), TEAL_EINVAL, err,
                  "perr is NULL");
  TS_EXPECT_ERROR(teal_plant_multiply_by_constraint_jacobian(p, ctx, NULL, x), TEAL_EINVAL, err,
                  "u is NULL");
  for (int i = 0; i < 32; i++) {
    x[i] = i == 4 ? NAN : 0.0;
  }
  TS_EXPECT_ERROR(teal_plant_multiply_by_constraint_jacobian(p, ctx, x, x + 16), TEAL_ENONFINITE,
                  err, "u 4 is not finite");
  TS_EXPECT_ERROR(teal_plant_multiply_by_constraint_jacobian_transpose(p, ctx, x, x + 16),
                  TEAL_ENONFINITE, err, "lambda 4 is not finite");
  TS_EXPECT_ERROR(teal_plant_solve_for_constraint_impulses(p, ctx, x, x + 16), TEAL_ENONFINITE, err,
                  "delta_v 4 is not finite");
  TS_EXPECT_ERROR(teal_plant_calc_constraint_forces_from_multipliers(p, ctx, x + 16, NULL, x),
                  TEAL_EINVAL, err, "F_Bo_W is NULL");
  TS_EXPECT_ERROR(teal_plant_get_constraint_multipliers(p, ctx, NULL), TEAL_EINVAL, err,
                  "lambda is NULL");
  /* a context of another system */
  teal_plant *q = model();
  teal_context *other = placed_context(q);
  TS_EXPECT_ERROR(teal_plant_calc_constraint_bias(p, other, x), TEAL_EINVAL,
                  teal_context_error(other), "holds no context");
  TS_EXPECT_ERROR(teal_plant_calc_constraint_reaction_forces(p, other, F, NULL), TEAL_EINVAL,
                  teal_context_error(other), "holds no context");
  ck_assert_int_eq(teal_plant_calc_constraint_bias(p, NULL, x), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_constraint_multipliers_output_port(NULL), TEAL_EINVAL);
  teal_context_free(other);
  teal_plant_free(q);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(discrete_plant_operators_and_zero_multipliers) {
  /* the operators read a discrete plant's state; its step (not this
   * module) owns the multipliers, which read 0 here */
  teal_plant *p = teal_plant_new(1e-3, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_eq(
      teal_plant_add_ball_constraint(p, TEAL_WORLD_BODY, teal_vec3_zero(), b, teal_vec3_zero()), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  teal_transform X = {teal_rotation_identity(), teal_vec3_make(0.1, -0.2, 0.3)};
  ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, b, X), TEAL_OK);
  double perr[3], lambda[3] = {1, 1, 1};
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, perr), TEAL_OK);
  ck_assert_double_eq(perr[0], 0.1);
  ck_assert_double_eq(perr[1], -0.2);
  ck_assert_double_eq(perr[2], 0.3);
  ck_assert_int_eq(teal_plant_get_constraint_multipliers(p, ctx, lambda), TEAL_OK);
  ck_assert_double_eq(lambda[0] + lambda[1] + lambda[2], 0.0);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

static Suite *constraint_context_suite(void) {
  Suite *s = suite_create("constraint_context");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, contexts_enable_and_disable_independently);
  tcase_add_test(tc, multipliers_port_and_jacobian_fallback);
  tcase_add_test(tc, disabling_a_compliant_distance_removes_its_force);
  tcase_add_test(tc, bad_calls_report_on_the_context);
  tcase_add_test(tc, discrete_plant_operators_and_zero_multipliers);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(constraint_context_suite());
}
