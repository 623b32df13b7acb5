/* Error messages of the scene graph's queries in a context: a scene graph
 * that is not finalized, a context that does not hold it and NULL results
 * fail with a message in the context's record that names the query and
 * the cause (replacing an earlier one); bad geometry-pair exclusions leave
 * their message in the scene graph's record. */
#include <check.h>
#include <stdlib.h>

#include "framework/context.h"
#include "geometry/scene_graph/scene_graph.h"
#include "geometry/scene_graph/scene_graph_query.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* A finalized scene graph with one source and one frame carrying a sphere. */
static teal_scene_graph *sphere_graph(int finalize) {
  teal_scene_graph *sg = teal_scene_graph_new("sg", NULL);
  int src = teal_scene_graph_register_source(sg, "src");
  int f = teal_scene_graph_register_frame(sg, src, "f");
  teal_shape s;
  ck_assert_int_eq(teal_shape_sphere(0.5, &s, NULL), TEAL_OK);
  teal_proximity_properties pp = teal_proximity_properties_make(1, 1);
  ck_assert_int_ge(teal_scene_graph_register_geometry(sg, f, teal_transform_identity(), &s, "a",
                                                      TEAL_ROLE_PROXIMITY, &pp, NULL),
                   0);
  if (finalize) {
    ck_assert_int_eq(teal_scene_graph_finalize(sg), TEAL_OK);
  }
  return sg;
}

START_TEST(query_not_finalized) {
  teal_scene_graph *sg = sphere_graph(0);
  teal_system *other = ts_constant_new("other", 1, NULL);
  teal_context *ctx = teal_context_new(other, NULL);
  const teal_error *e = teal_context_error(ctx);
  const teal_transform *X;
  const teal_point_pair_list *pairs;
  teal_broadphase_stats stats;
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_scene_graph_eval_geometry_poses(sg, ctx, &X), TEAL_ESTATE, e,
                  "eval_geometry_poses: the scene graph is not finalized");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_scene_graph_eval_point_pair_penetrations(sg, ctx, &pairs), TEAL_ESTATE, e,
                  "teal_scene_graph_finalize");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_scene_graph_broadphase_stats(sg, ctx, &stats), TEAL_ESTATE, e,
                  "broadphase_stats: the scene graph is not finalized");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_scene_graph_eval_geometry_poses(NULL, ctx, &X), TEAL_EINVAL, e,
                  "NULL scene graph");
  teal_context_free(ctx);
  teal_system_free(other);
  teal_scene_graph_free(sg);
}
END_TEST

START_TEST(query_wrong_context_and_null_results) {
  teal_scene_graph *sg = sphere_graph(1);
  teal_system *other = ts_constant_new("other", 1, NULL);
  teal_context *octx = teal_context_new(other, NULL);
  teal_context *ctx = teal_context_new(teal_scene_graph_system(sg), NULL);
  const teal_error *e = teal_context_error(ctx);
  const teal_transform *X;
  double d;
  ts_stale_context(octx);
  TS_EXPECT_ERROR(teal_scene_graph_eval_geometry_poses(sg, octx, &X), TEAL_EINVAL,
                  teal_context_error(octx), "holds no context of the scene graph");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_scene_graph_eval_geometry_poses(sg, ctx, NULL), TEAL_EINVAL, e,
                  "eval_geometry_poses: the result pointer is NULL");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_scene_graph_eval_point_pair_penetrations(sg, ctx, NULL), TEAL_EINVAL, e,
                  "eval_point_pair_penetrations: the result pointer is NULL");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_scene_graph_broadphase_stats(sg, ctx, NULL), TEAL_EINVAL, e,
                  "broadphase_stats: the result pointer is NULL");
  ts_stale_context(octx);
  TS_EXPECT_ERROR(teal_scene_graph_signed_distance(sg, octx, 0, 0, &d, NULL, NULL), TEAL_EINVAL,
                  teal_context_error(octx), "holds no context");
  teal_context_free(ctx);
  teal_context_free(octx);
  teal_system_free(other);
  teal_scene_graph_free(sg);
}
END_TEST

START_TEST(register_source_null_name) {
  teal_scene_graph *sg = teal_scene_graph_new("sg", NULL);
  TS_EXPECT_ERROR(teal_scene_graph_register_source(sg, NULL), TEAL_EINVAL,
                  teal_scene_graph_error(sg), "register_source: NULL name");
  teal_scene_graph_free(sg);
}
END_TEST

START_TEST(exclude_geometry_pair_bad_ids) {
  teal_scene_graph *sg = sphere_graph(0);
  TS_EXPECT_ERROR(teal_scene_graph_exclude_geometry_pair(sg, 0, 5), TEAL_ENOTFOUND,
                  teal_scene_graph_error(sg), "no geometry pair (0, 5) (the scene graph has 1)");
  teal_scene_graph_free(sg);
  sg = sphere_graph(0);
  TS_EXPECT_ERROR(teal_scene_graph_exclude_geometry_pair(sg, -1, 0), TEAL_ENOTFOUND,
                  teal_scene_graph_error(sg), "teal_scene_graph_exclude_geometry_pair");
  teal_scene_graph_free(sg);
  sg = sphere_graph(0);
  TS_EXPECT_ERROR(teal_scene_graph_exclude_geometry_pair(sg, 0, 0), TEAL_EINVAL,
                  teal_scene_graph_error(sg), "geometry 0 given twice");
  teal_scene_graph_free(sg);
  sg = sphere_graph(1);
  TS_EXPECT_ERROR(teal_scene_graph_exclude_geometry_pair(sg, 0, 0), TEAL_ESTATE,
                  teal_scene_graph_error(sg), "cannot exclude a geometry pair after finalize");
  teal_scene_graph_free(sg);
  ck_assert_int_eq(teal_scene_graph_exclude_geometry_pair(NULL, 0, 1), TEAL_EINVAL);
}
END_TEST

int main(void) {
  Suite *s = suite_create("scene_graph_error_messages");
  TCase *tc = tcase_create("messages");
  tcase_add_test(tc, query_not_finalized);
  tcase_add_test(tc, query_wrong_context_and_null_results);
  tcase_add_test(tc, register_source_null_name);
  tcase_add_test(tc, exclude_geometry_pair_bad_ids);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
