/* The projection's error weights (multibody/plant/error_weights.c) on two
 * hinges tied by a coupler q0 = q1: the velocity projection against the
 * hand-computed weighted least-squares answers (u weights (1, 2): v = (1, 0)
 * goes to (0.2, 0.2); (3, 1): to (0.9, 0.9); unit: (0.5, 0.5)), a qerr
 * weight tightening the position tolerance so that an error the unit
 * weight accepts is projected away, the uerr weights leaving a consistent
 * projection unchanged, per-context storage, and bad calls. */
#include <check.h>
#include <math.h>

#include "framework/context.h"
#include "framework/context_access.h"
#include "framework/system_dynamics.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/plant/error_weights.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

static void add_hinge(teal_plant *p, const char *name) {
  teal_spatial_inertia M = teal_spatial_inertia_from_central(1.0, teal_vec3_make(0, 0, -0.5),
                                                             teal_mat3_diag(0.1, 0.1, 0.02));
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int b = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_ge(teal_plant_add_joint(p, name, TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(p, b), &y, 0),
                   0);
}

static teal_plant *coupled_hinges(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  add_hinge(p, "a");
  add_hinge(p, "b");
  ck_assert_int_eq(teal_plant_add_coupler_constraint(p, 0, 1, 1.0, 0.0), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* v after projecting q = (0.1, 0.1), v = (1, 0) with u weights w. */
static void projected_v(const double *w, double *v_out) {
  teal_plant *p = coupled_hinges();
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double q[2] = {0.1, 0.1}, v[2] = {1.0, 0.0};
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, 2), TEAL_OK);
  if (w) {
    ck_assert_int_eq(teal_plant_set_u_weights(p, ctx, w, 2), TEAL_OK);
  }
  ck_assert_int_eq(teal_project_continuous_state(teal_plant_system(p), ctx), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_velocities(p, ctx, v_out, 2), TEAL_OK);
  teal_context_free(ctx);
  teal_plant_free(p);
}

START_TEST(u_weights_give_the_weighted_least_squares_velocities) {
  double v[2];
  projected_v(NULL, v);
  ck_assert_double_eq_tol(v[0], 0.5, 1e-12);
  ck_assert_double_eq_tol(v[1], 0.5, 1e-12);
  const double w12[2] = {1.0, 2.0}, w31[2] = {3.0, 1.0};
  projected_v(w12, v);
  ck_assert_double_eq_tol(v[0], 0.2, 1e-12);
  ck_assert_double_eq_tol(v[1], 0.2, 1e-12);
  projected_v(w31, v);
  ck_assert_double_eq_tol(v[0], 0.9, 1e-12);
  ck_assert_double_eq_tol(v[1], 0.9, 1e-12);
}
END_TEST

/* perr = -3e-3 at accuracy 1e-2: accepted as is with weight 1; with
 * weight 10 the weighted error 3e-2 is projected to q0 = q1 = 0.1015 (the
 * unit-weighted split of the error). */
START_TEST(qerr_weights_tighten_the_position_tolerance) {
  teal_plant *p = coupled_hinges();
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  ck_assert_int_eq(teal_context_set_accuracy(ctx, 1e-2), TEAL_OK);
  double q[2] = {0.1, 0.103}, out[2];
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_project_continuous_state(teal_plant_system(p), ctx), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_positions(p, ctx, out, 2), TEAL_OK);
  ck_assert_double_eq(out[0], 0.1);
  ck_assert_double_eq(out[1], 0.103);
  double w = 10.0;
  ck_assert_int_eq(teal_plant_set_constraint_qerr_weights(p, ctx, &w, 1), TEAL_OK);
  ck_assert_int_eq(teal_project_continuous_state(teal_plant_system(p), ctx), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_positions(p, ctx, out, 2), TEAL_OK);
  ck_assert_double_eq_tol(out[0], 0.1015, 1e-12);
  ck_assert_double_eq_tol(out[1], 0.1015, 1e-12);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(uerr_weights_keep_a_consistent_projection_and_are_per_context) {
  teal_plant *p = coupled_hinges();
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  teal_context *other = teal_context_new(teal_plant_system(p), NULL);
  double w = 50.0, got = 0.0, v[2] = {1.0, 0.0};
  ck_assert_int_eq(teal_plant_set_constraint_uerr_weights(p, ctx, &w, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_constraint_uerr_weights(p, ctx, &got, 1), TEAL_OK);
  ck_assert_double_eq(got, 50.0);
  ck_assert_int_eq(teal_plant_get_constraint_uerr_weights(p, other, &got, 1), TEAL_OK);
  ck_assert_double_eq(got, 1.0);
  ck_assert_int_eq(teal_plant_get_constraint_qerr_weights(p, other, &got, 1), TEAL_OK);
  ck_assert_double_eq(got, 1.0);
  double wu[2];
  ck_assert_int_eq(teal_plant_get_u_weights(p, other, wu, 2), TEAL_OK);
  ck_assert_double_eq(wu[0], 1.0);
  ck_assert_double_eq(wu[1], 1.0);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, 2), TEAL_OK);
  ck_assert_int_eq(teal_project_continuous_state(teal_plant_system(p), ctx), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_velocities(p, ctx, v, 2), TEAL_OK);
  ck_assert_double_eq_tol(v[0], 0.5, 1e-12);
  ck_assert_double_eq_tol(v[1], 0.5, 1e-12);
  teal_context_free(other);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(bad_calls_are_reported) {
  teal_plant *p = coupled_hinges();
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  const teal_error *err = teal_context_error(ctx);
  double w[2] = {1.0, 0.0};
  TS_EXPECT_ERROR(teal_plant_set_u_weights(p, ctx, w, 2), TEAL_EINVAL, err,
                  "weight 1 is 0, must be > 0");
  w[1] = NAN;
  TS_EXPECT_ERROR(teal_plant_set_u_weights(p, ctx, w, 2), TEAL_ENONFINITE, err,
                  "weight 1 is not finite");
  TS_EXPECT_ERROR(teal_plant_set_constraint_qerr_weights(p, ctx, w, 2), TEAL_ESIZE, err,
                  "n = 2, expected 1");
  TS_EXPECT_ERROR(teal_plant_get_constraint_uerr_weights(p, ctx, NULL, 1), TEAL_EINVAL, err,
                  "weights is NULL");
  ck_assert_int_eq(teal_plant_get_u_weights(p, ctx, w, 2), TEAL_OK);
  ck_assert_double_eq(w[1], 1.0); /* the rejected sets changed nothing */
  ck_assert_int_eq(teal_plant_get_u_weights(NULL, ctx, w, 2), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_set_u_weights(p, NULL, w, 2), TEAL_EINVAL);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("error_weights");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, u_weights_give_the_weighted_least_squares_velocities);
  tcase_add_test(tc, qerr_weights_tighten_the_position_tolerance);
  tcase_add_test(tc, uerr_weights_keep_a_consistent_projection_and_are_per_context);
  tcase_add_test(tc, bad_calls_are_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
