/* The scene graph system (geometry/scene_graph/scene_graph.h): registration, filters,
 * pose inputs, the lazily evaluated point-pair query, signed distance and
 * bad inputs. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "geometry/scene_graph/scene_graph.h"
#include "geometry/scene_graph/scene_graph_query.h"

typedef struct rig {
  teal_scene_graph *sg;
  int src, f0, f1, f2, g_ground, g_a, g_b, g_c, g_visual;
} rig;

/* Three frames: f0 (ground), f1 with sphere a, f2 with spheres b and c. */
static rig make_rig(void) {
  rig r;
  r.sg = teal_scene_graph_new(NULL, NULL);
  ck_assert_ptr_nonnull(r.sg);
  r.src = teal_scene_graph_register_source(r.sg, "robot");
  r.f0 = teal_scene_graph_register_frame(r.sg, r.src, "ground");
  r.f1 = teal_scene_graph_register_frame(r.sg, r.src, "one");
  r.f2 = teal_scene_graph_register_frame(r.sg, r.src, "two");
  teal_shape hs, s;
  teal_shape_half_space(&hs);
  teal_shape_sphere(0.5, &s, NULL);
  teal_proximity_properties pp = teal_proximity_properties_make(1, 1);
  teal_transform I = teal_transform_identity();
  teal_transform up = teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 0.3));
  r.g_ground = teal_scene_graph_register_geometry(r.sg, r.f0, I, &hs, "ground",
                                                  TEAL_ROLE_PROXIMITY, &pp, NULL);
  r.g_a = teal_scene_graph_register_geometry(r.sg, r.f1, I, &s, "a", TEAL_ROLE_PROXIMITY, &pp,
                                             NULL);
  r.g_b = teal_scene_graph_register_geometry(r.sg, r.f2, I, &s, "b", TEAL_ROLE_PROXIMITY, &pp,
                                             NULL);
  r.g_c = teal_scene_graph_register_geometry(r.sg, r.f2, up, &s, "c", TEAL_ROLE_PROXIMITY, &pp,
                                             NULL);
  r.g_visual = teal_scene_graph_register_geometry(r.sg, r.f1, I, &s, "look",
                                                  TEAL_ROLE_ILLUSTRATION, NULL, NULL);
  return r;
}

static void set_poses(teal_context *ctx, const rig *r, double z1, double x2) {
  teal_transform_list list = {0};
  ck_assert_int_eq(teal_transform_list_resize(&list, 3), TEAL_OK);
  list.X[0] = teal_transform_identity();
  list.X[1] = teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, z1));
  list.X[2] = teal_transform_make(teal_rotation_identity(), teal_vec3_make(x2, 0, 2.0));
  ck_assert_int_eq(
      teal_context_fix_abstract_input(ctx, teal_scene_graph_source_pose_port(r->sg, r->src),
                                      &list),
      TEAL_OK);
  teal_transform_list_type.free(&list);
}

START_TEST(registration_and_filters) {
  rig r = make_rig();
  ck_assert_int_eq(teal_scene_graph_num_geometries(r.sg), 5);
  ck_assert_int_eq(teal_scene_graph_frame_index(r.sg, r.f2), 2);
  ck_assert_str_eq(teal_scene_graph_frame_name(r.sg, r.f1), "one");
  ck_assert_ptr_null(teal_scene_graph_frame_name(r.sg, 99));
  ck_assert(teal_scene_graph_pair_is_candidate(r.sg, r.g_a, r.g_b));
  ck_assert(!teal_scene_graph_pair_is_candidate(r.sg, r.g_b, r.g_c));     /* same frame */
  ck_assert(!teal_scene_graph_pair_is_candidate(r.sg, r.g_a, r.g_visual)); /* visual */
  ck_assert_int_eq(teal_scene_graph_exclude_frame_pair(r.sg, r.f2, r.f1), TEAL_OK);
  ck_assert(!teal_scene_graph_pair_is_candidate(r.sg, r.g_a, r.g_b));
  ck_assert(teal_scene_graph_pair_is_candidate(r.sg, r.g_a, r.g_ground));
  /* groups: a in group 2 that ignores group 1 no longer meets the ground */
  ck_assert_int_eq(teal_scene_graph_set_collision_group(r.sg, r.g_a, 2u, ~1u), TEAL_OK);
  ck_assert(!teal_scene_graph_pair_is_candidate(r.sg, r.g_a, r.g_ground));
  ck_assert_int_eq(teal_scene_graph_set_collision_group(r.sg, r.g_a, 3u, ~0u), TEAL_OK);
  ck_assert(teal_scene_graph_pair_is_candidate(r.sg, r.g_a, r.g_ground));
  ck_assert_int_eq(teal_scene_graph_finalize(r.sg), TEAL_OK);
  ck_assert_ptr_eq(teal_scene_graph_from_system(teal_scene_graph_system(r.sg)), r.sg);
  ck_assert_int_eq(teal_scene_graph_register_frame(r.sg, r.src, "late"), TEAL_ESTATE);
  teal_scene_graph_free(r.sg);
}
END_TEST

START_TEST(query_finds_penetrations) {
  rig r = make_rig();
  ck_assert_int_eq(teal_scene_graph_finalize(r.sg), TEAL_OK);
  teal_system *sys = teal_scene_graph_system(r.sg);
  teal_context *ctx = teal_context_new(sys, NULL);
  /* sphere a sinks 0.1 into the ground; b is far from a */
  set_poses(ctx, &r, 0.4, 5.0);
  /* geometry c sits 0.3 above frame two's origin (5, 0, 2) */
  const teal_transform_list *X_WG;
  ck_assert_int_eq(
      teal_eval_abstract_output(sys, ctx, teal_scene_graph_geometry_poses_output_port(r.sg),
                                (const void **)&X_WG),
      TEAL_OK);
  ck_assert_int_eq(X_WG->n, teal_scene_graph_num_geometries(r.sg));
  ck_assert_double_eq_tol(X_WG->X[r.g_c].p.v[0], 5.0, 1e-15);
  ck_assert_double_eq_tol(X_WG->X[r.g_c].p.v[2], 2.3, 1e-15);
  ck_assert_double_eq_tol(X_WG->X[r.g_a].p.v[2], 0.4, 1e-15);
  const teal_point_pair_list *pairs;
  ck_assert_int_eq(teal_eval_abstract_output(sys, ctx, teal_scene_graph_query_output_port(r.sg),
                                             (const void **)&pairs),
                   TEAL_OK);
  ck_assert_int_eq(pairs->n, 1);
  const teal_point_pair *pp = &pairs->pairs[0];
  ck_assert_int_eq(pp->id_A, r.g_ground);
  ck_assert_int_eq(pp->id_B, r.g_a);
  ck_assert_double_eq_tol(pp->depth, 0.1, 1e-12);
  /* n from B (the sphere) into A (the ground) points down */
  ck_assert_double_eq_tol(pp->nhat_BA_W.v[2], -1.0, 1e-12);
  /* move b onto a: two more pairs appear (a-b) and b stays above ground */
  set_poses(ctx, &r, 0.4, 0.0);
  ck_assert_int_eq(teal_scene_graph_eval_point_pair_penetrations(r.sg, ctx, &pairs), TEAL_OK);
  ck_assert_int_eq(pairs->n, 1);
  double d;
  ck_assert_int_eq(teal_scene_graph_signed_distance(r.sg, ctx, r.g_a, r.g_b, &d, NULL, NULL),
                   TEAL_OK);
  ck_assert_double_eq_tol(d, 1.6 - 1.0, 1e-9);
  ck_assert_int_eq(teal_scene_graph_signed_distance(r.sg, ctx, r.g_a, r.g_a, &d, NULL, NULL),
                   TEAL_EINVAL);
  set_poses(ctx, &r, 1.6, 0.0); /* a and b overlap by 0.6 */
  ck_assert_int_eq(teal_scene_graph_eval_point_pair_penetrations(r.sg, ctx, &pairs), TEAL_OK);
  ck_assert_int_eq(pairs->n, 2);
  ck_assert_int_eq(teal_scene_graph_warning_count(r.sg, ctx), 0);
  teal_context_free(ctx);
  teal_scene_graph_free(r.sg);
}
END_TEST

/* The candidate pairs of K spheres (r = 0.05) resting on a plane on a grid
 * of 0.15 m spacing (bench/README.md workload 2): the broadphase hands the
 * narrowphase exactly the K sphere-ground pairs and no sphere-sphere pair,
 * not the (K + 1) K / 2 pairs the filters allow; its sweep work is
 * counted too. */
static void spheres_on_plane(int rows, int cols) {
  int k = rows * cols;
  teal_scene_graph *sg = teal_scene_graph_new("spheres", NULL);
  int src = teal_scene_graph_register_source(sg, "balls");
  teal_shape hs, s;
  teal_shape_half_space(&hs);
  teal_shape_sphere(0.05, &s, NULL);
  teal_proximity_properties pp = teal_proximity_properties_make(1, 1);
  teal_transform I = teal_transform_identity();
  int f0 = teal_scene_graph_register_frame(sg, src, "ground");
  int ground = teal_scene_graph_register_geometry(sg, f0, I, &hs, "ground", TEAL_ROLE_PROXIMITY,
                                                  &pp, NULL);
  for (int i = 0; i < k; i++) {
    char name[16];
    snprintf(name, sizeof name, "s%d", i);
    int f = teal_scene_graph_register_frame(sg, src, name);
    ck_assert_int_ge(teal_scene_graph_register_geometry(sg, f, I, &s, name, TEAL_ROLE_PROXIMITY,
                                                        &pp, NULL),
                     0);
  }
  teal_broadphase_stats st;
  ck_assert_int_eq(teal_scene_graph_broadphase_stats(sg, NULL, &st), TEAL_ESTATE);
  ck_assert_int_eq(teal_scene_graph_finalize(sg), TEAL_OK);
  teal_system *sys = teal_scene_graph_system(sg);
  teal_context *ctx = teal_context_new(sys, NULL);
  ck_assert_int_eq(teal_scene_graph_broadphase_stats(sg, ctx, &st), TEAL_OK);
  ck_assert_int_eq(st.num_pairs, 0); /* no query yet */
  teal_transform_list list = {0};
  ck_assert_int_eq(teal_transform_list_resize(&list, k + 1), TEAL_OK);
  list.X[0] = I;
  for (int i = 0; i < k; i++) {
    teal_vec3 c = teal_vec3_make((i % cols - 0.5 * (cols - 1)) * 0.15,
                                 (i / cols - 0.5 * (rows - 1)) * 0.15, 0.049);
    list.X[i + 1] = teal_transform_make(teal_rotation_identity(), c);
  }
  ck_assert_int_eq(teal_context_fix_abstract_input(ctx, teal_scene_graph_source_pose_port(sg, src),
                                                   &list),
                   TEAL_OK);
  const teal_point_pair_list *pairs;
  ck_assert_int_eq(teal_scene_graph_eval_point_pair_penetrations(sg, ctx, &pairs), TEAL_OK);
  ck_assert_int_eq(teal_scene_graph_broadphase_stats(sg, ctx, &st), TEAL_OK);
  ck_assert_int_eq(st.num_pairs, k);
  ck_assert_int_eq(st.overflow, 0);
  /* the sweep compares each sphere with the rest of its column and the
   * ground: well below all pairs */
  int line = rows > cols ? rows : cols, across = rows > cols ? cols : rows;
  ck_assert_int_le(st.box_tests, k + across * line * (line - 1) / 2);
  ck_assert_int_eq(pairs->n, k);
  for (int i = 0; i < pairs->n; i++) {
    ck_assert_int_eq(pairs->pairs[i].id_A, ground);
    ck_assert_double_eq_tol(pairs->pairs[i].depth, 0.001, 1e-12);
  }
  ck_assert_int_eq(teal_scene_graph_broadphase_stats(sg, ctx, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_scene_graph_broadphase_stats(NULL, ctx, &st), TEAL_EINVAL);
  teal_transform_list_type.free(&list);
  teal_context_free(ctx);
  teal_scene_graph_free(sg);
}

START_TEST(broadphase_candidates_are_linear) {
  spheres_on_plane(8, 8);
  spheres_on_plane(16, 32);
}
END_TEST

START_TEST(bad_inputs) {
  rig r = make_rig();
  teal_shape s, mesh;
  teal_shape_sphere(0.1, &s, NULL);
  teal_shape_mesh("m.obj", 1.0, &mesh, NULL);
  teal_proximity_properties bad = teal_proximity_properties_make(0.2, 0.5);
  teal_transform I = teal_transform_identity();
  ck_assert_int_eq(teal_scene_graph_register_geometry(r.sg, r.f1, I, &s, "x", TEAL_ROLE_PROXIMITY,
                                                      &bad, NULL),
                   TEAL_EINVAL);
  ck_assert(strlen(teal_scene_graph_error(r.sg)->message) > 0);
  ck_assert_int_eq(teal_scene_graph_finalize(r.sg), TEAL_EINVAL); /* sticky */
  teal_scene_graph_free(r.sg);
  r = make_rig();
  teal_proximity_properties ok = teal_proximity_properties_make(1, 1);
  ck_assert_int_eq(teal_scene_graph_register_geometry(r.sg, r.f1, I, &mesh, "m",
                                                      TEAL_ROLE_PROXIMITY, &ok, NULL),
                   TEAL_EINVAL);
  teal_scene_graph_free(r.sg);
  r = make_rig();
  teal_shape hand = s;
  hand.radius = -1.0; /* a hand-filled shape with a bad dimension */
  ck_assert_int_eq(teal_scene_graph_register_geometry(r.sg, r.f1, I, &hand, "neg",
                                                      TEAL_ROLE_PROXIMITY, &ok, NULL),
                   TEAL_EINVAL);
  teal_scene_graph_free(r.sg);
  r = make_rig();
  ck_assert_int_eq(teal_scene_graph_register_frame(r.sg, 7, "nosource"), TEAL_EINVAL);
  teal_scene_graph_free(r.sg);
  r = make_rig();
  ck_assert_int_eq(teal_scene_graph_register_source(r.sg, "robot"), TEAL_EDUPLICATE);
  teal_scene_graph_free(r.sg);
  /* a short pose list and an unconnected pose input are errors */
  r = make_rig();
  ck_assert_int_eq(teal_scene_graph_finalize(r.sg), TEAL_OK);
  teal_system *sys = teal_scene_graph_system(r.sg);
  teal_context *ctx = teal_context_new(sys, NULL);
  const teal_point_pair_list *pairs;
  ck_assert_int_eq(teal_scene_graph_eval_point_pair_penetrations(r.sg, ctx, &pairs),
                   TEAL_ENOTCONNECTED);
  teal_transform_list two = {0};
  teal_transform_list_resize(&two, 2);
  two.X[0] = two.X[1] = I;
  teal_context_fix_abstract_input(ctx, teal_scene_graph_source_pose_port(r.sg, r.src), &two);
  ck_assert_int_eq(teal_scene_graph_eval_point_pair_penetrations(r.sg, ctx, &pairs), TEAL_ESIZE);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "robot"));
  teal_transform_list_type.free(&two);
  teal_context_free(ctx);
  teal_scene_graph_free(r.sg);
  teal_shape_release(&mesh);
}
END_TEST

/* A geometry pair exclusion filters that pair only: a over b and c, with
 * (a, c) excluded, reports a-b alone; the candidate test agrees before and
 * after finalize (a scan, then a binary search over the sorted pairs). */
START_TEST(geometry_pair_exclusion) {
  rig r = make_rig();
  ck_assert_int_eq(teal_scene_graph_exclude_geometry_pair(r.sg, r.g_c, r.g_a), TEAL_OK);
  ck_assert_int_eq(teal_scene_graph_exclude_geometry_pair(r.sg, r.g_ground, r.g_b), TEAL_OK);
  ck_assert_int_eq(teal_scene_graph_exclude_geometry_pair(r.sg, r.g_b, r.g_a), TEAL_OK);
  ck_assert_int_eq(teal_scene_graph_exclude_geometry_pair(r.sg, r.g_b, r.g_a), TEAL_OK); /* twice */
  ck_assert_int_eq(teal_scene_graph_exclude_geometry_pair(r.sg, r.g_ground, r.g_b), TEAL_OK);
  ck_assert(!teal_scene_graph_pair_is_candidate(r.sg, r.g_a, r.g_c));
  ck_assert(!teal_scene_graph_pair_is_candidate(r.sg, r.g_b, r.g_ground));
  ck_assert(teal_scene_graph_pair_is_candidate(r.sg, r.g_c, r.g_ground));
  ck_assert(teal_scene_graph_pair_is_candidate(r.sg, r.g_a, r.g_ground));
  /* a fresh rig, finalized: the sorted pairs and the broadphase filter */
  teal_scene_graph_free(r.sg);
  r = make_rig();
  ck_assert_int_eq(teal_scene_graph_exclude_geometry_pair(r.sg, r.g_ground, r.g_c), TEAL_OK);
  ck_assert_int_eq(teal_scene_graph_exclude_geometry_pair(r.sg, r.g_c, r.g_a), TEAL_OK);
  ck_assert_int_eq(teal_scene_graph_exclude_geometry_pair(r.sg, r.g_ground, r.g_b), TEAL_OK);
  ck_assert_int_eq(teal_scene_graph_finalize(r.sg), TEAL_OK);
  ck_assert(!teal_scene_graph_pair_is_candidate(r.sg, r.g_a, r.g_c));
  ck_assert(!teal_scene_graph_pair_is_candidate(r.sg, r.g_c, r.g_ground));
  ck_assert(!teal_scene_graph_pair_is_candidate(r.sg, r.g_b, r.g_ground));
  ck_assert(teal_scene_graph_pair_is_candidate(r.sg, r.g_a, r.g_b));
  ck_assert(teal_scene_graph_pair_is_candidate(r.sg, r.g_a, r.g_ground));
  teal_system *sys = teal_scene_graph_system(r.sg);
  teal_context *ctx = teal_context_new(sys, NULL);
  /* a at z 1.8, b at z 2 and c at z 2.3 (radius 0.5): a overlaps both */
  set_poses(ctx, &r, 1.8, 0.0);
  const teal_point_pair_list *pairs;
  ck_assert_int_eq(teal_scene_graph_eval_point_pair_penetrations(r.sg, ctx, &pairs), TEAL_OK);
  ck_assert_int_eq(pairs->n, 1);
  int lo =
      pairs->pairs[0].id_A < pairs->pairs[0].id_B ? pairs->pairs[0].id_A : pairs->pairs[0].id_B;
  int hi = pairs->pairs[0].id_A ^ pairs->pairs[0].id_B ^ lo;
  ck_assert_int_eq(lo, r.g_a);
  ck_assert_int_eq(hi, r.g_b);
  ck_assert_double_eq_tol(pairs->pairs[0].depth, 0.8, 1e-12);
  teal_context_free(ctx);
  teal_scene_graph_free(r.sg);
}
END_TEST

int main(void) {
  Suite *s = suite_create("scene_graph");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, registration_and_filters);
  tcase_add_test(tc, query_finds_penetrations);
  tcase_add_test(tc, bad_inputs);
  tcase_add_test(tc, broadphase_candidates_are_linear);
  tcase_add_test(tc, geometry_pair_exclusion);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
