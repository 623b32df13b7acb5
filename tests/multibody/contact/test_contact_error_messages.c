/* Error messages of the plant's contact wiring and queries:
 * a plant given to teal_add_plant_and_scene_graph and never finalized fails
 * the build naming that cause, a plant whose finalize failed is refused
 * with the plant's own error, and
 * teal_plant_eval_contact_results reports its failures in the context. */
#include <check.h>
#include <stdlib.h>

#include "framework/context.h"
#include "framework/diagram_builder.h"
#include "multibody/contact/plant_contact.h"
#include "multibody/contact/plant_scene_graph.h"
#include "multibody/math/spatial.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* A plant with one free body, not finalized. */
static teal_plant *ball(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  ck_assert_int_ge(teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M), 0);
  return p;
}

/* Item 1 of the outside users' report, since Drake's order is accepted: a
 * plant given to the builder and never finalized fails the build, with a
 * message that says so and what to call. */
START_TEST(add_plant_and_scene_graph_unfinalized) {
  teal_plant *p = ball();
  teal_builder *b = teal_builder_new("d");
  teal_error err;
  ck_assert_ptr_nonnull(teal_add_plant_and_scene_graph(b, p, &err));
  ck_assert_int_eq(teal_builder_error(b)->code, TEAL_OK);
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_builder_build(b, &err)); /* frees the plant too */
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_ESTATE, &err, "never finalized");
  ck_assert_ptr_nonnull(strstr(err.message, "call teal_plant_finalize before teal_builder_build"));
  ck_assert_ptr_null(strstr(err.message, "NULL system"));
}
END_TEST

/* A plant whose finalize failed: the message gives the plant's own error. */
START_TEST(add_plant_and_scene_graph_failed_finalize) {
  teal_plant *p = ball();
  ck_assert_int_lt(teal_plant_add_rigid_body(p, "bad", TEAL_DEFAULT_MODEL_INSTANCE, NULL), 0);
  ck_assert_int_ne(teal_plant_finalize(p), TEAL_OK);
  teal_builder *b = teal_builder_new("d");
  teal_error err;
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_add_plant_and_scene_graph(b, p, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_ESTATE, &err, "not finalized");
  ck_assert_ptr_nonnull(strstr(err.message, "NULL spatial inertia"));
  teal_builder_free(b);
  teal_plant_free(p);
}
END_TEST

START_TEST(add_plant_and_scene_graph_null_arguments) {
  teal_plant *p = ball();
  teal_builder *b = teal_builder_new("d");
  teal_error err;
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_add_plant_and_scene_graph(NULL, p, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "NULL builder");
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_add_plant_and_scene_graph(b, NULL, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "NULL plant");
  teal_builder_free(b);
  teal_plant_free(p);
}
END_TEST

START_TEST(eval_contact_results_messages) {
  teal_plant *p = ball();
  teal_system *other = ts_constant_new("other", 1, NULL);
  teal_context *octx = teal_context_new(other, NULL);
  const teal_contact_results *r;
  ts_stale_context(octx);
  TS_EXPECT_ERROR(teal_plant_eval_contact_results(p, octx, &r), TEAL_ESTATE,
                  teal_context_error(octx), "eval_contact_results: the plant is not finalized");
  ts_stale_context(octx);
  TS_EXPECT_ERROR(teal_plant_eval_contact_results(NULL, octx, &r), TEAL_EINVAL,
                  teal_context_error(octx), "eval_contact_results: NULL plant");
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_eval_contact_results(p, ctx, NULL), TEAL_EINVAL,
                  teal_context_error(ctx), "results is NULL");
  ts_stale_context(octx);
  TS_EXPECT_ERROR(teal_plant_eval_contact_results(p, octx, &r), TEAL_EINVAL,
                  teal_context_error(octx), "no plant context");
  teal_context_free(ctx);
  teal_context_free(octx);
  teal_system_free(other);
  teal_plant_free(p);
}
END_TEST

static Suite *contact_error_messages_suite(void) {
  Suite *s = suite_create("contact_error_messages");
  TCase *tc = tcase_create("messages");
  tcase_add_test(tc, add_plant_and_scene_graph_unfinalized);
  tcase_add_test(tc, add_plant_and_scene_graph_failed_finalize);
  tcase_add_test(tc, add_plant_and_scene_graph_null_arguments);
  tcase_add_test(tc, eval_contact_results_messages);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(contact_error_messages_suite());
}
