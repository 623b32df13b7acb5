/* Error messages of the plant system: adding the system of a plant that is
 * not finalized to a builder names that cause, and the state and cache
 * calls in a context report a NULL plant, a plant that is not finalized, a
 * context without the plant and NULL arrays in the context's record,
 * replacing an earlier message. */
#include <check.h>
#include <stdlib.h>

#include "framework/context.h"
#include "framework/diagram_builder.h"
#include "multibody/math/spatial.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* A pendulum (one body on a revolute joint), finalized when asked. */
static teal_plant *pendulum(int finalize) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(p, "link", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 z = teal_vec3_make(0.0, 0.0, 1.0);
  ck_assert_int_ge(teal_plant_add_joint(p, "pin", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(p, b), &z, 0.0),
                   0);
  if (finalize) {
    ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  }
  return p;
}

/* Item 1 of the outside users' report: teal_builder_add(b,
 * teal_plant_system(plant)) on a plant that is not finalized said only
 * that a constructor failed. */
START_TEST(builder_add_unfinalized_plant_system) {
  teal_plant *p = pendulum(0);
  teal_builder *b = teal_builder_new("d");
  ck_assert_ptr_null(teal_builder_add(b, teal_plant_system(p)));
  const teal_error *e = teal_builder_error(b);
  ts_expect_error_at(__FILE__, __LINE__, e->code, TEAL_EINVAL, e, "not finalized");
  ck_assert_ptr_nonnull(strstr(e->message, "call teal_plant_finalize first"));
  teal_builder_free(b);
  /* the plant is still the caller's; finalized, it is added */
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  b = teal_builder_new("d");
  ck_assert_ptr_nonnull(teal_builder_add(b, teal_plant_system(p)));
  teal_builder_free(b); /* frees the plant with its system */
}
END_TEST

START_TEST(state_calls_unfinalized_or_null_plant) {
  teal_plant *p = pendulum(0);
  teal_system *other = ts_constant_new("other", 1, NULL);
  teal_context *ctx = teal_context_new(other, NULL);
  const teal_error *e = teal_context_error(ctx);
  double q[1] = {0.0};
  const double *M;
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_get_positions(p, ctx, q, 1), TEAL_ESTATE, e,
                  "plant get_positions: the plant is not finalized");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_set_state(p, ctx, q, 1), TEAL_ESTATE, e, "teal_plant_finalize");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_eval_mass_matrix(p, ctx, &M), TEAL_ESTATE, e,
                  "plant eval_mass_matrix: the plant is not finalized");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_set_free_body_pose(p, ctx, 1, teal_transform_identity()), TEAL_ESTATE,
                  e, "set_free_body_pose: the plant is not finalized");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_get_velocities(NULL, ctx, q, 1), TEAL_EINVAL, e,
                  "get_velocities: NULL plant");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(
      teal_plant_set_free_body_spatial_velocity(NULL, ctx, 1, teal_spatial_vector_zero()),
      TEAL_EINVAL, e, "NULL plant");
  teal_context_free(ctx);
  teal_system_free(other);
  teal_plant_free(p);
}
END_TEST

START_TEST(state_calls_null_arrays_and_foreign_context) {
  teal_plant *p = pendulum(1);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  teal_system *other = ts_constant_new("other", 1, NULL);
  teal_context *octx = teal_context_new(other, NULL);
  const teal_error *e = teal_context_error(ctx);
  double q[1] = {0.0};
  const teal_transform *X;
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_get_positions(p, ctx, NULL, 1), TEAL_EINVAL, e,
                  "plant get_positions: the output array is NULL");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_set_velocities(p, ctx, NULL, 1), TEAL_EINVAL, e,
                  "plant set_velocities: the input array is NULL");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_eval_body_poses(p, ctx, NULL), TEAL_EINVAL, e,
                  "plant eval_body_poses: the result pointer is NULL");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_eval_generalized_acceleration(p, ctx, NULL), TEAL_EINVAL, e,
                  "eval_generalized_acceleration: the result pointer is NULL");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_set_free_body_pose(p, ctx, 1, teal_transform_identity()), TEAL_EINVAL,
                  e, "body 1 is not a free body");
  ts_stale_context(octx);
  TS_EXPECT_ERROR(teal_plant_get_positions(p, octx, q, 1), TEAL_EINVAL, teal_context_error(octx),
                  "holds no context of the plant's system");
  ts_stale_context(octx);
  TS_EXPECT_ERROR(teal_plant_eval_body_poses(p, octx, &X), TEAL_EINVAL, teal_context_error(octx),
                  "eval_body_poses");
  teal_context_free(octx);
  teal_system_free(other);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

static Suite *plant_error_messages_suite(void) {
  Suite *s = suite_create("plant_error_messages");
  TCase *tc = tcase_create("messages");
  tcase_add_test(tc, builder_add_unfinalized_plant_system);
  tcase_add_test(tc, state_calls_unfinalized_or_null_plant);
  tcase_add_test(tc, state_calls_null_arrays_and_foreign_context);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(plant_error_messages_suite());
}
