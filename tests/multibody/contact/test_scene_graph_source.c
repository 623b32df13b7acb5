/* Tests of the plant as a source of a scene graph built and wired by hand
 * (multibody/contact/scene_graph_source.c): with another source registered
 * first, the plant's frame and geometry ids are offset and mapped, and the
 * run is bitwise that of teal_add_plant_and_scene_graph; a point pair with
 * another source's geometry fails the plant's contact evaluation with a
 * message; every misuse of the registration is refused with its message. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/ports.h"
#include "multibody/contact/plant_contact.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/contact/plant_scene_graph.h"
#include "multibody/contact/scene_graph_source.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_contact_fixtures.h"
#include "support/test_support.h"

/* A source "obstacles" with one frame and a collision sphere at p_FG. */
static int add_obstacle(teal_scene_graph *sg, teal_vec3 p_FG) {
  int src = teal_scene_graph_register_source(sg, "obstacles");
  int frame = teal_scene_graph_register_frame(sg, src, "post");
  teal_shape s;
  teal_shape_sphere(0.1, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  teal_transform X = teal_transform_make(teal_rotation_identity(), p_FG);
  ck_assert_int_eq(teal_scene_graph_register_geometry(sg, frame, X, &s, "post", TEAL_ROLE_PROXIMITY,
                                                      &props, NULL),
                   0);
  return src;
}

/* The three balls, finalized, with a scene graph made and wired by hand
 * after an obstacle source at p_obstacle. */
static ts_contact_world hand_built_world(double time_step, teal_vec3 p_obstacle) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(time_step, NULL);
  int ng = ts_contact_three_balls(w.plant);
  ck_assert_int_eq(teal_plant_finalize(w.plant), TEAL_OK);
  teal_scene_graph *sg = teal_scene_graph_new("my_scene_graph", NULL);
  int obstacles = add_obstacle(sg, p_obstacle);
  teal_error err = {0, ""};
  int src = teal_plant_register_as_source_for_scene_graph(w.plant, sg, &err);
  ck_assert_msg(src == 1, "%d: %s", src, err.message);
  ck_assert_int_eq(teal_plant_get_source_id(w.plant), 1);
  ck_assert_int_eq(teal_plant_get_geometry_id(w.plant, ng - 1), ng);
  ck_assert_int_eq(teal_scene_graph_finalize(sg), TEAL_OK);
  teal_builder *b = teal_builder_new("by_hand");
  teal_system *ps = teal_builder_add(b, teal_plant_system(w.plant));
  teal_system *sgs = teal_builder_add(b, teal_scene_graph_system(sg));
  int pose_in = teal_scene_graph_source_pose_port(sg, src);
  ck_assert_int_eq(
      teal_builder_connect(
          b, teal_system_output_port(ps, teal_plant_geometry_pose_output_port(w.plant)),
          teal_system_input_port(sgs, pose_in)),
      TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(
                       b, teal_system_output_port(sgs, teal_scene_graph_query_output_port(sg)),
                       teal_system_input_port(ps, teal_plant_geometry_query_input_port(w.plant))),
                   TEAL_OK);
  int obstacles_in = teal_scene_graph_source_pose_port(sg, obstacles);
  ck_assert_int_eq(
      teal_builder_export_input(b, teal_system_input_port(sgs, obstacles_in), "obstacles"), 0);
  ts_contact_build(&w, b);
  teal_transform X = teal_transform_identity();
  teal_transform_list poses = {1, 1, &X};
  ck_assert_int_eq(teal_context_fix_abstract_input(w.ctx, 0, &poses), TEAL_OK);
  ts_contact_three_balls_place(&w);
  return w;
}

/* The reference: the same balls through teal_add_plant_and_scene_graph. */
static ts_contact_world own_scene_graph_world(double time_step) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(time_step, NULL);
  ts_contact_three_balls(w.plant);
  ts_contact_finish(&w);
  ts_contact_three_balls_place(&w);
  return w;
}

static void expect_same_run(double time_step) {
  ts_contact_world ref = own_scene_graph_world(time_step);
  ts_contact_world w = hand_built_world(time_step, teal_vec3_make(10, 0, 1));
  /* frames: the obstacle's is 0, the plant's world 1 */
  ck_assert_int_eq(teal_plant_get_body_frame_id(w.plant, TEAL_WORLD_BODY, NULL), 1);
  ck_assert_int_eq(teal_plant_get_body_frame_id_if_exists(w.plant, 3), 4);
  ck_assert_int_eq(teal_plant_get_body_from_frame_id(w.plant, 4), 3);
  ck_assert_int_eq(teal_plant_get_body_from_frame_id(w.plant, 0), -1);
  ck_assert_int_eq(teal_plant_get_body_from_frame_id(w.plant, 5), -1);
  const teal_contact_results *r;
  ck_assert_int_eq(teal_plant_eval_contact_results(w.plant, w.ctx, &r), TEAL_OK);
  ck_assert_int_eq(r->n, 1); /* a and b, named by plant geometry and body */
  ck_assert_int_eq(r->c[0].geometry_A, 0);
  ck_assert_int_eq(r->c[0].geometry_B, 1);
  ck_assert_int_eq(r->c[0].body_A, 1);
  ck_assert_int_eq(r->c[0].body_B, 2);
  ts_contact_advance(&ref, 0.4);
  ts_contact_advance(&w, 0.4);
  ts_contact_expect_same_state(&ref, &w);
  ts_contact_world_free(&ref);
  ts_contact_world_free(&w);
}

START_TEST(hand_built_scene_graph_simulates_identically_continuous) {
  expect_same_run(0.0);
}
END_TEST

START_TEST(hand_built_scene_graph_simulates_identically_discrete) {
  expect_same_run(1e-3);
}
END_TEST

/* The obstacle overlaps ball a: the plant knows no body for it. */
START_TEST(a_pair_with_another_sources_geometry_fails) {
  ts_contact_world w = hand_built_world(0.0, teal_vec3_make(-0.1, 0, 0.12));
  const teal_contact_results *r;
  int rc = teal_plant_eval_contact_results(w.plant, w.ctx, &r);
  TS_EXPECT_ERROR(rc, TEAL_EINVAL, teal_context_error(w.ctx),
                  "geometry_query names geometries 0 and 1");
  ck_assert_ptr_nonnull(strstr(teal_context_error(w.ctx)->message, "ids 1 to 4"));
  ts_contact_world_free(&w);
}
END_TEST

/* ---- refusals ------------------------------------------------------------------ */

START_TEST(registration_misuse_is_refused) {
  teal_scene_graph *sg = teal_scene_graph_new(NULL, NULL);
  teal_plant *p = teal_plant_new(0.0, NULL);
  ts_contact_three_balls(p);
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_register_as_source_for_scene_graph(NULL, sg, &err), TEAL_EINVAL, &err,
                  "NULL plant");
  TS_EXPECT_ERROR(teal_plant_register_as_source_for_scene_graph(p, NULL, &err), TEAL_EINVAL, &err,
                  "NULL scene graph");
  TS_EXPECT_ERROR(teal_plant_register_as_source_for_scene_graph(p, sg, &err), TEAL_ESTATE, &err,
                  "the plant is not finalized");
  ck_assert_int_eq(teal_scene_graph_num_sources(sg), 0);
  /* nothing is mapped before the registration */
  ck_assert_int_eq(teal_plant_get_geometry_id(p, 0), -1);
  ck_assert_int_eq(teal_plant_get_geometry_from_id(p, 0), -1);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_register_as_source_for_scene_graph(p, sg, &err), 0);
  ck_assert_int_eq(teal_plant_get_geometry_id(p, 0), 0);
  ck_assert_int_eq(teal_plant_get_geometry_id(p, 4), -1);
  ck_assert_int_eq(teal_plant_get_geometry_from_id(p, -5), -1);
  ck_assert_int_eq(teal_plant_get_geometry_id(NULL, 0), -1);
  ck_assert_int_eq(teal_plant_get_geometry_from_id(NULL, 0), -1);
  TS_EXPECT_ERROR(teal_plant_register_as_source_for_scene_graph(p, sg, &err), TEAL_ESTATE, &err,
                  "already a source of a scene graph");
  /* nor through the builder */
  teal_builder *b = teal_builder_new("d");
  ck_assert_ptr_null(teal_add_plant_and_scene_graph(b, p, &err));
  ck_assert_int_eq(err.code, TEAL_ESTATE);
  teal_builder_free(b);
  teal_plant_free(p);
  /* a finalized scene graph takes no more sources */
  ck_assert_int_eq(teal_scene_graph_finalize(sg), TEAL_OK);
  p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  TS_EXPECT_ERROR(teal_plant_register_as_source_for_scene_graph(p, sg, &err), TEAL_ESTATE, &err,
                  "the scene graph is finalized");
  teal_plant_free(p);
  teal_scene_graph_free(sg);
}
END_TEST

START_TEST(a_failed_or_given_plant_is_refused) {
  teal_scene_graph *sg = teal_scene_graph_new(NULL, NULL);
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_int_lt(teal_plant_add_rigid_body(p, "bad", TEAL_DEFAULT_MODEL_INSTANCE, NULL), 0);
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_register_as_source_for_scene_graph(p, sg, &err), TEAL_ESTATE, &err,
                  "the plant failed before: ");
  ck_assert_ptr_nonnull(strstr(err.message, "NULL spatial inertia"));
  teal_plant_free(p);
  /* a plant given to a builder before its finalize registers there */
  p = teal_plant_new(0.0, NULL);
  teal_builder *b = teal_builder_new("d");
  ck_assert_ptr_nonnull(teal_add_plant_and_scene_graph(b, p, NULL));
  TS_EXPECT_ERROR(teal_plant_register_as_source_for_scene_graph(p, sg, &err), TEAL_ESTATE, &err,
                  "given to a builder by teal_add_plant_and_scene_graph");
  teal_builder_free(b);
  ck_assert_int_eq(teal_scene_graph_num_sources(sg), 0);
  teal_scene_graph_free(sg);
}
END_TEST

int main(void) {
  Suite *s = suite_create("scene_graph_source");
  TCase *tc = tcase_create("by_hand");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, hand_built_scene_graph_simulates_identically_continuous);
  tcase_add_test(tc, hand_built_scene_graph_simulates_identically_discrete);
  tcase_add_test(tc, a_pair_with_another_sources_geometry_fails);
  tcase_add_test(tc, registration_misuse_is_refused);
  tcase_add_test(tc, a_failed_or_given_plant_is_refused);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
