/* Tests of Drake's order for teal_add_plant_and_scene_graph (multibody/
 * contact/plant_scene_graph.c): the plant is given to the builder while it
 * is still being built and joins it at finalize. The same model simulates
 * bitwise identically in both orders, continuous and discrete; collision
 * filters declared after the call take effect; every misuse (build before
 * finalize, finalize twice, two builders, geometry after finalize, a clash
 * in the builder, another source first, out of memory) fails with a clear
 * error and nothing leaks (the sanitizer build checks). */
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
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_contact_fixtures.h"
#include "support/test_support.h"

enum { NBALLS = 3 };

/* The balls' world, the plant given to the builder before (drake_order) or
 * after its finalize. */
static ts_contact_world balls_world(double time_step, int drake_order) {
  ts_contact_world w = {0};
  teal_builder *b = teal_builder_new("contact");
  w.plant = teal_plant_new(time_step, NULL);
  teal_error err = {0, ""};
  teal_scene_graph *sg = drake_order ? teal_add_plant_and_scene_graph(b, w.plant, &err) : NULL;
  ck_assert_msg(!drake_order || sg, "%s", err.message);
  int ng = ts_contact_three_balls(w.plant);
  ck_assert_int_eq(teal_plant_finalize(w.plant), TEAL_OK);
  if (!drake_order) {
    sg = teal_add_plant_and_scene_graph(b, w.plant, &err);
    ck_assert_msg(sg != NULL, "%s", err.message);
  }
  /* the scene graph holds every geometry and a frame per body */
  ck_assert_int_eq(teal_scene_graph_num_geometries(sg), ng);
  ck_assert_int_eq(teal_scene_graph_num_frames(sg), 1 + NBALLS);
  ck_assert_int_eq(teal_plant_get_source_id(w.plant), 0);
  ts_contact_build(&w, b);
  ts_contact_three_balls_place(&w);
  return w;
}

static void expect_same_run(double time_step) {
  ts_contact_world first = balls_world(time_step, 0), drake = balls_world(time_step, 1);
  enum { NX = 13 * NBALLS };
  double x0[NX], x[NX];
  ck_assert_int_eq(teal_plant_get_state(drake.plant, drake.ctx, x0, NX), TEAL_OK);
  const teal_contact_results *r;
  ck_assert_int_eq(teal_plant_eval_contact_results(drake.plant, drake.ctx, &r), TEAL_OK);
  ck_assert_int_ge(r->n, 1); /* a touches b: the query is connected */
  ts_contact_advance(&first, 0.4);
  ts_contact_advance(&drake, 0.4);
  ts_contact_expect_same_state(&first, &drake);
  /* something happened: c fell and was stopped by the ground (its centre
   * about a radius from the plane tilted by 0.1 about y; in free fall it
   * would be 0.4 m lower), and a moved */
  ck_assert_int_eq(teal_plant_get_state(drake.plant, drake.ctx, x, NX), TEAL_OK);
  const double *pc = &x[7 * 2 + 4];
  double height = sin(0.1) * pc[0] + cos(0.1) * pc[2];
  ck_assert_double_lt(pc[2], 0.3);
  ck_assert_double_gt(height, 0.05);
  ck_assert_double_lt(height, 0.15);
  ck_assert_double_ne(x[6], x0[6]);
  ts_contact_world_free(&first);
  ts_contact_world_free(&drake);
}

START_TEST(drake_order_simulates_identically_continuous) {
  expect_same_run(0.0);
}
END_TEST

START_TEST(drake_order_simulates_identically_discrete) {
  expect_same_run(1e-3);
}
END_TEST

/* Two overlapping balls with no ground; with filter set, their pair is
 * excluded after the call and before finalize. Returns the contact count. */
static int overlapping_contacts(int filter) {
  ts_contact_world w = {0};
  teal_builder *b = teal_builder_new("filters");
  w.plant = teal_plant_new(0.0, NULL);
  teal_error err = {0, ""};
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, w.plant, &err);
  ck_assert_msg(sg != NULL, "%s", err.message);
  int a, c;
  int ga = ts_contact_body_with_sphere(w.plant, "a", &a);
  int gc = ts_contact_body_with_sphere(w.plant, "c", &c);
  if (filter) {
    ck_assert_int_eq(teal_plant_exclude_collisions_between_bodies(w.plant, a, c), TEAL_OK);
  }
  ck_assert_int_eq(teal_plant_finalize(w.plant), TEAL_OK);
  ck_assert_int_eq(teal_scene_graph_pair_is_candidate(sg, ga, gc), !filter);
  /* after the wiring the filters are fixed */
  ck_assert_int_eq(teal_plant_exclude_collisions_between_bodies(w.plant, a, c), TEAL_ESTATE);
  w.diagram = teal_builder_build(b, &err);
  ck_assert_msg(w.diagram != NULL, "%s", err.message);
  teal_context *ctx = teal_context_new(w.diagram, NULL);
  const double q[14] = {1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0.15, 0, 1};
  ck_assert_int_eq(teal_plant_set_positions(w.plant, ctx, q, 14), TEAL_OK);
  const teal_contact_results *r;
  ck_assert_int_eq(teal_plant_eval_contact_results(w.plant, ctx, &r), TEAL_OK);
  int n = r->n;
  teal_context_free(ctx);
  teal_system_free(w.diagram);
  return n;
}

START_TEST(filters_declared_after_the_call_take_effect) {
  ck_assert_int_eq(overlapping_contacts(0), 1);
  ck_assert_int_eq(overlapping_contacts(1), 0);
}
END_TEST

/* The plant's ports are in the builder from finalize on: a user connects
 * them before the build (here by name, to an exported output). */
START_TEST(ports_are_connectable_after_finalize) {
  teal_builder *b = teal_builder_new("d");
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error err = {0, ""};
  ck_assert_ptr_nonnull(teal_add_plant_and_scene_graph(b, p, &err));
  ts_contact_three_balls(p);
  ck_assert_int_lt(teal_plant_state_output_port(p), 0); /* no ports yet */
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_ptr_eq(teal_builder_find(b, "plant"), teal_plant_system(p));
  ck_assert_ptr_nonnull(teal_builder_find(b, "scene_graph"));
  teal_system *ps = teal_plant_system(p);
  ck_assert_int_ge(teal_builder_export_output(
                       b, teal_system_output_port(ps, teal_plant_state_output_port(p)), "x"),
                   0);
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_system_free(d);
}
END_TEST

/* ---- errors ------------------------------------------------------------------ */

START_TEST(build_before_finalize_fails_and_frees_the_plant) {
  teal_builder *b = teal_builder_new("d");
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error err = {0, ""};
  ck_assert_ptr_nonnull(teal_add_plant_and_scene_graph(b, p, &err));
  ts_contact_three_balls(p);
  teal_plant_free(p); /* the builder's: left alone */
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_builder_build(b, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_ESTATE, &err, "was never finalized");
  ck_assert_ptr_nonnull(strstr(err.message, "build of 'd'"));
  ck_assert_ptr_nonnull(strstr(err.message, "teal_plant_finalize"));
}
END_TEST

START_TEST(builder_freed_before_finalize_frees_the_plant) {
  teal_builder *b = teal_builder_new("d");
  teal_plant *p = teal_plant_new(1e-3, NULL);
  ck_assert_ptr_nonnull(teal_add_plant_and_scene_graph(b, p, NULL));
  ts_contact_three_balls(p);
  teal_builder_free(b); /* the sanitizer build checks that nothing leaks */
}
END_TEST

START_TEST(a_failed_finalize_fails_the_build) {
  teal_builder *b = teal_builder_new("d");
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(teal_add_plant_and_scene_graph(b, p, NULL));
  ck_assert_int_lt(teal_plant_add_rigid_body(p, "bad", TEAL_DEFAULT_MODEL_INSTANCE, NULL), 0);
  ck_assert_int_ne(teal_plant_finalize(p), TEAL_OK);
  teal_error err;
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_builder_build(b, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_ESTATE, &err, "failed");
  ck_assert_ptr_nonnull(strstr(err.message, "NULL spatial inertia"));
}
END_TEST

START_TEST(finalize_twice_is_refused) {
  teal_builder *b = teal_builder_new("d");
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(teal_add_plant_and_scene_graph(b, p, NULL));
  ts_contact_three_balls(p);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  TS_EXPECT_ERROR(teal_plant_finalize(p), TEAL_ESTATE, teal_plant_error(p), "already finalized");
  /* the plant stays wired once: the build succeeds */
  teal_error err = {0, ""};
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  ck_assert_int_eq(teal_diagram_num_subsystems(d), 2);
  teal_system_free(d);
}
END_TEST

START_TEST(a_second_builder_is_refused) {
  teal_builder *b1 = teal_builder_new("one"), *b2 = teal_builder_new("two");
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(teal_add_plant_and_scene_graph(b1, p, NULL));
  teal_error err;
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_add_plant_and_scene_graph(b2, p, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_ESTATE, &err, "already added to a builder");
  ck_assert_int_eq(teal_builder_error(b2)->code, TEAL_OK); /* b2 is untouched */
  ts_contact_three_balls(p);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  /* also after finalize */
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_add_plant_and_scene_graph(b2, p, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_ESTATE, &err, "already added to a builder");
  teal_builder_free(b2);
  teal_builder_free(b1);
}
END_TEST

START_TEST(geometry_after_finalize_is_refused) {
  teal_builder *b = teal_builder_new("d");
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, p, NULL);
  int ng = ts_contact_three_balls(p);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_shape s;
  teal_shape_sphere(0.1, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  TS_EXPECT_ERROR(
      teal_plant_register_collision_geometry(p, 1, teal_transform_identity(), &s, "late", &props),
      TEAL_ESTATE, teal_plant_error(p), "after finalize");
  ck_assert_int_eq(teal_plant_num_geometries(p), ng);
  ck_assert_int_eq(teal_scene_graph_num_geometries(sg), ng);
  teal_builder_free(b);
}
END_TEST

/* A subsystem named "scene_graph" already in the builder: finalize names
 * the clash, the build fails, the builder frees the plant. */
START_TEST(a_name_clash_fails_finalize) {
  teal_builder *b = teal_builder_new("d");
  teal_scene_graph *other = teal_scene_graph_new("scene_graph", NULL);
  ck_assert_int_eq(teal_scene_graph_finalize(other), TEAL_OK);
  ck_assert_ptr_nonnull(teal_builder_add(b, teal_scene_graph_system(other)));
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(teal_add_plant_and_scene_graph(b, p, NULL));
  ts_contact_three_balls(p);
  TS_EXPECT_ERROR(teal_plant_finalize(p), TEAL_EDUPLICATE, teal_plant_error(p),
                  "already holds a subsystem named 'scene_graph'");
  teal_error err;
  ck_assert_ptr_null(teal_builder_build(b, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_ESTATE, &err, "scene_graph");
}
END_TEST

/* Another source registered on the returned scene graph before the
 * plant's finalize shifts the plant's ids; the run is the same. */
START_TEST(another_source_first_shifts_the_ids_only) {
  ts_contact_world first = balls_world(0.0, 0), w = {0};
  teal_builder *b = teal_builder_new("contact");
  w.plant = teal_plant_new(0.0, NULL);
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, w.plant, NULL);
  int src = teal_scene_graph_register_source(sg, "obstacles");
  int frame = teal_scene_graph_register_frame(sg, src, "post");
  teal_shape s;
  teal_shape_sphere(0.1, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  teal_transform far = teal_transform_make(teal_rotation_identity(), teal_vec3_make(10, 0, 1));
  ck_assert_int_eq(teal_scene_graph_register_geometry(sg, frame, far, &s, "post",
                                                      TEAL_ROLE_PROXIMITY, &props, NULL),
                   0);
  int ng = ts_contact_three_balls(w.plant);
  ck_assert_int_eq(teal_plant_finalize(w.plant), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_source_id(w.plant), 1);
  ck_assert_int_eq(teal_plant_get_body_frame_id(w.plant, 2, NULL), 3);
  ck_assert_int_eq(teal_plant_get_body_from_frame_id(w.plant, 3), 2);
  ck_assert_int_eq(teal_plant_get_body_from_frame_id(w.plant, 0), -1);
  ck_assert_int_eq(teal_plant_get_geometry_id(w.plant, 0), 1);
  ck_assert_int_eq(teal_plant_get_geometry_from_id(w.plant, ng), ng - 1);
  ck_assert_int_eq(teal_plant_get_geometry_from_id(w.plant, 0), -1);
  ck_assert_int_eq(teal_scene_graph_num_geometries(sg), ng + 1);
  /* the obstacles' pose comes from an exported input */
  teal_system *sgs = teal_scene_graph_system(sg);
  ck_assert_int_eq(teal_builder_export_input(
                       b, teal_system_input_port(sgs, teal_scene_graph_source_pose_port(sg, src)),
                       "obstacles_pose"),
                   0);
  ts_contact_build(&w, b);
  teal_transform X = teal_transform_identity();
  teal_transform_list poses = {1, 1, &X};
  ck_assert_int_eq(teal_context_fix_abstract_input(w.ctx, 0, &poses), TEAL_OK);
  ts_contact_three_balls_place(&w);
  const teal_contact_results *r;
  ck_assert_int_eq(teal_plant_eval_contact_results(w.plant, w.ctx, &r), TEAL_OK);
  ck_assert_int_eq(r->n, 1);
  ck_assert_int_eq(r->c[0].geometry_A, 0); /* plant geometry indices */
  ck_assert_int_eq(r->c[0].geometry_B, 1);
  ts_contact_advance(&first, 0.4);
  ts_contact_advance(&w, 0.4);
  ts_contact_expect_same_state(&first, &w);
  ts_contact_world_free(&first);
  ts_contact_world_free(&w);
}
END_TEST

START_TEST(a_builder_in_error_is_refused) {
  teal_builder *b = teal_builder_new("d");
  ck_assert_int_ne(teal_builder_connect(b, NULL, NULL), TEAL_OK);
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error err;
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_add_plant_and_scene_graph(b, p, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "NULL output port");
  teal_builder_free(b);
  teal_plant_free(p); /* still the caller's */
}
END_TEST

/* Allocation failure anywhere from the call to the build: the build fails
 * or succeeds, nothing crashes or leaks. */
START_TEST(out_of_memory_is_clean) {
  ts_alloc_install();
  int failures = 0;
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  teal_shape s;
  teal_shape_sphere(0.1, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  for (long k = 0; k < 400; k++) {
    teal_builder *b = teal_builder_new("d");
    teal_plant *p = teal_plant_new(0.0, NULL);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_nonnull(p);
    ts_alloc_fail_after(k, 0);
    teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, p, NULL);
    int body = teal_plant_add_rigid_body(p, "a", TEAL_DEFAULT_MODEL_INSTANCE, &M);
    teal_plant_register_collision_geometry(p, body, teal_transform_identity(), &s, "a", &props);
    int rc = teal_plant_finalize(p);
    ts_alloc_fail_after(-1, 0);
    teal_error err = {0, ""};
    teal_system *d = teal_builder_build(b, &err);
    if (!sg) {
      teal_plant_free(p); /* refused: still the caller's */
      teal_system_free(d);
      failures++;
      continue;
    }
    ck_assert_int_eq(d != NULL, rc == TEAL_OK);
    ck_assert_int_eq(d != NULL, err.code == TEAL_OK);
    teal_system_free(d);
    if (d) {
      break;
    }
    failures++;
  }
  teal_shape_release(&s);
  ts_alloc_uninstall();
  ck_assert_int_gt(failures, 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("plant_scene_graph_order");
  TCase *tc = tcase_create("drake_order");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, drake_order_simulates_identically_continuous);
  tcase_add_test(tc, drake_order_simulates_identically_discrete);
  tcase_add_test(tc, filters_declared_after_the_call_take_effect);
  tcase_add_test(tc, ports_are_connectable_after_finalize);
  suite_add_tcase(s, tc);
  TCase *te = tcase_create("errors");
  tcase_add_test(te, build_before_finalize_fails_and_frees_the_plant);
  tcase_add_test(te, builder_freed_before_finalize_frees_the_plant);
  tcase_add_test(te, a_failed_finalize_fails_the_build);
  tcase_add_test(te, finalize_twice_is_refused);
  tcase_add_test(te, a_second_builder_is_refused);
  tcase_add_test(te, geometry_after_finalize_is_refused);
  tcase_add_test(te, a_name_clash_fails_finalize);
  tcase_add_test(tc, another_source_first_shifts_the_ids_only);
  tcase_add_test(te, a_builder_in_error_is_refused);
  tcase_add_test(te, out_of_memory_is_clean);
  suite_add_tcase(s, te);
  return ts_run_suite(s);
}
