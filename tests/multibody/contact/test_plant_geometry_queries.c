/* Geometry queries and collision filters declared through the plant
 * (multibody/contact/plant_geometry.h): geometries of a body by role,
 * counts by role, CollectRegisteredGeometries, GetBodiesWeldedTo and the
 * scene graph source and frame ids, against lists written by hand for a
 * small scene (welded groups, revolute joints, free bodies, visual and
 * collision geometry); group-pair and body-pair exclusions, against the
 * scene graph's point-pair query on overlapping spheres (a pair it reports
 * without the exclusion disappears with it); a geometry-pair exclusion
 * (one pair of two bodies' geometries filtered, the other kept), also with
 * the plant's geometry ids offset in a shared scene graph; bad input. */
#include <check.h>
#include <string.h>

#include "framework/context_tree.h"
#include "framework/diagram.h"
#include "geometry/scene_graph/scene_graph_query.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/contact/plant_scene_graph.h"
#include "multibody/contact/scene_graph_source.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

static int add_body(teal_plant *p, const char *name) {
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  return teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
}

static int add_sphere(teal_plant *p, int body, const char *name) {
  teal_shape s;
  teal_shape_sphere(0.1, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  int g =
      teal_plant_register_collision_geometry(p, body, teal_transform_identity(), &s, name, &props);
  ck_assert_int_ge(g, 0);
  return g;
}

static int add_box(teal_plant *p, int body, const char *name) {
  teal_shape s;
  teal_shape_box(0.1, 0.2, 0.3, &s, NULL);
  int g = teal_plant_register_visual_geometry(p, body, teal_transform_identity(), &s, name, NULL);
  ck_assert_int_ge(g, 0);
  return g;
}

static void add_joint(teal_plant *p, const char *name, teal_joint_kind kind, int parent,
                      int child) {
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int j =
      teal_plant_add_joint(p, name, kind, teal_plant_body_frame(p, parent),
                           teal_plant_body_frame(p, child), kind == TEAL_JOINT_WELD ? NULL : &y, 0);
  ck_assert_int_ge(j, 0);
}

static void assert_list(const int *got, int n, const int *want, int n_want) {
  ck_assert_int_eq(n, n_want);
  for (int i = 0; i < n_want; i++) {
    ck_assert_int_eq(got[i], want[i]);
  }
}

/* The scene: world (a visual box) <-weld- base <-weld- post; world <-rev-
 * arm <-rev- hand <-weld- tool; a free ball. Geometry ids in registration
 * order are in g[]. */
typedef struct scene {
  teal_plant *p;
  int base, post, arm, hand, tool, ball;
  int g_world_vis, g_base_col, g_base_vis, g_post_vis1, g_post_col, g_post_vis2;
  int g_arm_col, g_tool_col, g_tool_vis, g_ball_col;
} scene;

static scene make_scene(void) {
  scene s;
  s.p = teal_plant_new(0.0, NULL);
  teal_plant *p = s.p;
  s.base = add_body(p, "base"), s.post = add_body(p, "post"), s.arm = add_body(p, "arm");
  s.hand = add_body(p, "hand"), s.tool = add_body(p, "tool"), s.ball = add_body(p, "ball");
  s.g_world_vis = add_box(p, TEAL_WORLD_BODY, "floor");
  s.g_base_col = add_sphere(p, s.base, "base");
  s.g_base_vis = add_box(p, s.base, "base");
  s.g_post_vis1 = add_box(p, s.post, "post1");
  s.g_post_col = add_sphere(p, s.post, "post");
  s.g_post_vis2 = add_box(p, s.post, "post2");
  s.g_arm_col = add_sphere(p, s.arm, "arm");
  s.g_tool_col = add_sphere(p, s.tool, "tool");
  s.g_tool_vis = add_box(p, s.tool, "tool");
  s.g_ball_col = add_sphere(p, s.ball, "ball");
  add_joint(p, "base_weld", TEAL_JOINT_WELD, TEAL_WORLD_BODY, s.base);
  add_joint(p, "post_weld", TEAL_JOINT_WELD, s.base, s.post);
  add_joint(p, "shoulder", TEAL_JOINT_REVOLUTE, TEAL_WORLD_BODY, s.arm);
  add_joint(p, "elbow", TEAL_JOINT_REVOLUTE, s.arm, s.hand);
  add_joint(p, "tool_weld", TEAL_JOINT_WELD, s.hand, s.tool);
  return s;
}

START_TEST(geometries_by_body_and_role) {
  scene s = make_scene();
  teal_plant *p = s.p;
  ck_assert_int_eq(teal_plant_num_collision_geometries(p), 5);
  ck_assert_int_eq(teal_plant_num_visual_geometries(p), 5);
  ck_assert_int_eq(teal_plant_num_collision_geometries(p) + teal_plant_num_visual_geometries(p),
                   teal_plant_num_geometries(p));
  int out[16], n;
  teal_error err;
  n = teal_plant_get_visual_geometries_for_body(p, s.post, out, 16, &err);
  assert_list(out, n, (int[]){s.g_post_vis1, s.g_post_vis2}, 2);
  n = teal_plant_get_collision_geometries_for_body(p, s.post, out, 16, &err);
  assert_list(out, n, (int[]){s.g_post_col}, 1);
  n = teal_plant_get_collision_geometries_for_body(p, TEAL_WORLD_BODY, out, 16, &err);
  ck_assert_int_eq(n, 0);
  n = teal_plant_get_visual_geometries_for_body(p, TEAL_WORLD_BODY, out, 16, &err);
  assert_list(out, n, (int[]){s.g_world_vis}, 1);
  n = teal_plant_get_visual_geometries_for_body(p, s.hand, out, 16, &err);
  ck_assert_int_eq(n, 0);
  /* count query, then the same after finalize */
  ck_assert_int_eq(teal_plant_get_visual_geometries_for_body(p, s.post, NULL, 0, &err), 2);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  n = teal_plant_get_collision_geometries_for_body(p, s.tool, out, 1, &err);
  assert_list(out, n, (int[]){s.g_tool_col}, 1);
  /* CollectRegisteredGeometries: both roles, a repeated body counts once */
  int bodies[3] = {s.tool, s.base, s.tool};
  n = teal_plant_collect_registered_geometries(p, bodies, 3, out, 16, &err);
  assert_list(out, n, (int[]){s.g_base_col, s.g_base_vis, s.g_tool_col, s.g_tool_vis}, 4);
  ck_assert_int_eq(teal_plant_collect_registered_geometries(p, bodies, 0, NULL, 0, &err), 0);
  teal_plant_free(p);
}
END_TEST

static void check_welded(const scene *s) {
  int out[16];
  teal_error err;
  int world_group[3] = {TEAL_WORLD_BODY, s->base, s->post};
  for (int i = 0; i < 3; i++) {
    int n = teal_plant_get_bodies_welded_to(s->p, world_group[i], out, 16, &err);
    assert_list(out, n, world_group, 3);
  }
  int n = teal_plant_get_bodies_welded_to(s->p, s->tool, out, 16, &err);
  assert_list(out, n, (int[]){s->hand, s->tool}, 2);
  n = teal_plant_get_bodies_welded_to(s->p, s->hand, out, 16, &err);
  assert_list(out, n, (int[]){s->hand, s->tool}, 2);
  n = teal_plant_get_bodies_welded_to(s->p, s->arm, out, 16, &err);
  assert_list(out, n, (int[]){s->arm}, 1);
  n = teal_plant_get_bodies_welded_to(s->p, s->ball, out, 16, &err);
  assert_list(out, n, (int[]){s->ball}, 1);
  /* anchored: exactly the world's weld group */
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(teal_plant_is_anchored(s->p, world_group[i], &err), 1);
  }
  int loose[4] = {s->hand, s->tool, s->arm, s->ball};
  for (int i = 0; i < 4; i++) {
    ck_assert_int_eq(teal_plant_is_anchored(s->p, loose[i], &err), 0);
  }
  ck_assert_int_eq(teal_plant_is_anchored(s->p, -1, &err), TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(err.message, "teal_plant_is_anchored"));
}

/* Same answer before and after finalize (which adds the ball's floating
 * joint, not a weld). */
START_TEST(bodies_welded_to) {
  scene s = make_scene();
  check_welded(&s);
  ck_assert_int_eq(teal_plant_finalize(s.p), TEAL_OK);
  check_welded(&s);
  teal_plant_free(s.p);
}
END_TEST

START_TEST(source_and_frame_ids) {
  scene s = make_scene();
  teal_plant *p = s.p;
  teal_error err;
  ck_assert(!teal_plant_geometry_source_is_registered(p));
  ck_assert_int_eq(teal_plant_get_source_id(p), -1);
  ck_assert_int_eq(teal_plant_get_body_frame_id_if_exists(p, s.arm), -1);
  ck_assert_int_eq(teal_plant_get_body_from_frame_id(p, s.arm), -1);
  ck_assert_int_eq(teal_plant_get_body_frame_id(p, s.arm, &err), TEAL_ESTATE);
  ck_assert_ptr_nonnull(strstr(err.message, "teal_plant_get_body_frame_id"));
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_builder *b = teal_builder_new("ids");
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, p, &err);
  ck_assert_msg(sg != NULL, "%s", err.message);
  ck_assert(teal_plant_geometry_source_is_registered(p));
  int src = teal_plant_get_source_id(p);
  ck_assert_int_eq(src, 0);
  ck_assert_int_eq(teal_scene_graph_num_sources(sg), 1);
  /* each body's frame, and each geometry's frame, through the scene graph */
  for (int body = 0; body < teal_plant_num_bodies(p); body++) {
    int f = teal_plant_get_body_frame_id(p, body, &err);
    ck_assert_int_eq(f, teal_plant_get_body_frame_id_if_exists(p, body));
    ck_assert_int_eq(teal_scene_graph_frame_source(sg, f), src);
    ck_assert_int_eq(teal_plant_get_body_from_frame_id(p, f), body);
  }
  for (int g = 0; g < teal_plant_num_geometries(p); g++) {
    int f = teal_scene_graph_geometry_frame(sg, g);
    ck_assert_int_eq(teal_plant_get_body_from_frame_id(p, f), teal_plant_get_geometry(p, g)->body);
  }
  ck_assert_int_eq(teal_plant_get_body_from_frame_id(p, teal_scene_graph_num_frames(sg)), -1);
  ck_assert_int_eq(teal_plant_get_body_frame_id(p, 99, &err), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_get_body_frame_id_if_exists(p, -1), -1);
  /* a second wiring is refused */
  teal_builder *b2 = teal_builder_new("again");
  ck_assert_ptr_null(teal_add_plant_and_scene_graph(b2, p, &err));
  ck_assert_int_eq(err.code, TEAL_ESTATE);
  teal_builder_free(b2);
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_system_free(d);
}
END_TEST

/* Three free bodies with a sphere each, all at the origin by default (every
 * pair overlaps). declare (may be NULL) declares filters on the plant before
 * the wiring; returns the bitmask of the pairs the query reports (bit 0:
 * {0,1}, bit 1: {0,2}, bit 2: {1,2}, by body order). */
typedef void (*declare_fn)(teal_plant *p, const int *bodies);

static int reported_pairs(declare_fn declare) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int bodies[3];
  const char *names[3] = {"b0", "b1", "b2"};
  for (int i = 0; i < 3; i++) {
    bodies[i] = add_body(p, names[i]);
    add_sphere(p, bodies[i], names[i]);
  }
  if (declare) {
    declare(p, bodies);
  }
  if (!teal_plant_system(p)) {
    ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  }
  teal_builder *b = teal_builder_new("filters");
  teal_error err;
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, p, &err);
  ck_assert_msg(sg != NULL, "%s", err.message);
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_context *ctx = teal_context_new(d, NULL);
  ck_assert_ptr_nonnull(ctx);
  const teal_context *sgc = teal_context_subcontext(ctx, teal_scene_graph_system(sg));
  const teal_point_pair_list *pairs;
  ck_assert_int_eq(teal_scene_graph_eval_point_pair_penetrations(sg, sgc, &pairs), TEAL_OK);
  int mask = 0;
  for (int i = 0; i < pairs->n; i++) {
    int ba = teal_plant_get_geometry(p, pairs->pairs[i].id_A)->body;
    int bb = teal_plant_get_geometry(p, pairs->pairs[i].id_B)->body;
    int lo = ba < bb ? ba : bb, hi = ba < bb ? bb : ba;
    int bit = lo == bodies[0] ? (hi == bodies[1] ? 0 : 1) : 2;
    ck_assert_int_eq(mask & (1 << bit), 0); /* each pair once */
    mask |= 1 << bit;
  }
  teal_context_free(ctx);
  teal_system_free(d);
  return mask;
}

static void exclude_0_vs_12(teal_plant *p, const int *bodies) {
  teal_collision_filter_group a = {"first", bodies, 1}, b = {"rest", bodies + 1, 2};
  ck_assert_int_eq(
      teal_plant_exclude_collision_geometries_with_collision_filter_group_pair(p, &a, &b), TEAL_OK);
}

static void exclude_within_all(teal_plant *p, const int *bodies) {
  teal_collision_filter_group all = {"all", bodies, 3};
  ck_assert_int_eq(
      teal_plant_exclude_collision_geometries_with_collision_filter_group_pair(p, &all, &all),
      TEAL_OK);
}

static void exclude_1_2(teal_plant *p, const int *bodies) {
  ck_assert_int_eq(teal_plant_exclude_collisions_between_bodies(p, bodies[2], bodies[1]), TEAL_OK);
}

/* Declared after finalize: still before the wiring, so it applies. */
static void exclude_after_finalize(teal_plant *p, const int *bodies) {
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  exclude_1_2(p, bodies);
}

START_TEST(group_pair_exclusions_reach_the_query) {
  ck_assert_int_eq(reported_pairs(NULL), 7); /* all three pairs overlap */
  ck_assert_int_eq(reported_pairs(exclude_0_vs_12), 4);
  ck_assert_int_eq(reported_pairs(exclude_within_all), 0);
  ck_assert_int_eq(reported_pairs(exclude_1_2), 3);
  ck_assert_int_eq(reported_pairs(exclude_after_finalize), 3);
}
END_TEST

/* Drake's door example on the scene: everything welded to the world against
 * everything welded to the hand, with the default filters kept. */
START_TEST(welded_groups_as_filter_groups) {
  scene s = make_scene();
  teal_plant *p = s.p;
  int world[8], hand[8];
  teal_error err;
  int nw = teal_plant_get_bodies_welded_to(p, TEAL_WORLD_BODY, world, 8, &err);
  int nh = teal_plant_get_bodies_welded_to(p, s.hand, hand, 8, &err);
  teal_collision_filter_group a = {"world", world, nw}, b = {"hand", hand, nh};
  ck_assert_int_eq(
      teal_plant_exclude_collision_geometries_with_collision_filter_group_pair(p, &a, &b), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_builder *bld = teal_builder_new("door");
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(bld, p, &err);
  ck_assert_msg(sg != NULL, "%s", err.message);
  /* declared: world group vs hand group */
  ck_assert(!teal_scene_graph_pair_is_candidate(sg, s.g_base_col, s.g_tool_col));
  ck_assert(!teal_scene_graph_pair_is_candidate(sg, s.g_post_col, s.g_tool_col));
  /* untouched: the arm and the ball meet everything not filtered by default */
  ck_assert(teal_scene_graph_pair_is_candidate(sg, s.g_arm_col, s.g_base_col));
  ck_assert(teal_scene_graph_pair_is_candidate(sg, s.g_arm_col, s.g_tool_col));
  ck_assert(teal_scene_graph_pair_is_candidate(sg, s.g_ball_col, s.g_tool_col));
  ck_assert(teal_scene_graph_pair_is_candidate(sg, s.g_ball_col, s.g_post_col));
  /* defaults still apply */
  ck_assert(!teal_scene_graph_pair_is_candidate(sg, s.g_base_col, s.g_post_col));
  /* too late now */
  ck_assert_int_eq(teal_plant_exclude_collisions_between_bodies(p, s.arm, s.ball), TEAL_ESTATE);
  ck_assert_ptr_nonnull(
      strstr(teal_plant_error(p)->message, "already registered with its scene graph"));
  teal_system *d = teal_builder_build(bld, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_system_free(d);
}
END_TEST

START_TEST(bad_input) {
  scene s = make_scene();
  teal_plant *p = s.p;
  teal_error err;
  int out[2];
  ck_assert_int_eq(teal_plant_num_collision_geometries(NULL), 0);
  ck_assert_int_eq(teal_plant_num_visual_geometries(NULL), 0);
  ck_assert_int_eq(teal_plant_get_visual_geometries_for_body(NULL, 0, out, 2, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_get_visual_geometries_for_body(p, 42, out, 2, &err), TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(err.message, "teal_plant_get_visual_geometries_for_body"));
  ck_assert_int_eq(teal_plant_get_collision_geometries_for_body(p, -1, out, 2, NULL),
                   TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_get_visual_geometries_for_body(p, s.post, out, 1, &err), TEAL_ESIZE);
  ck_assert_int_eq(teal_plant_get_visual_geometries_for_body(p, s.post, NULL, 2, &err),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_get_visual_geometries_for_body(p, s.post, out, -1, &err),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_get_bodies_welded_to(p, 42, out, 2, &err), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_get_bodies_welded_to(p, 0, out, 2, &err), TEAL_ESIZE);
  ck_assert_int_eq(teal_plant_get_bodies_welded_to(NULL, 0, out, 2, &err), TEAL_EINVAL);
  int bad[2] = {s.base, 42};
  ck_assert_int_eq(teal_plant_collect_registered_geometries(p, bad, 2, NULL, 0, &err),
                   TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_collect_registered_geometries(p, NULL, 2, NULL, 0, &err),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_collect_registered_geometries(p, bad, -1, NULL, 0, &err),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_collect_registered_geometries(NULL, bad, 1, NULL, 0, &err),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_get_source_id(NULL), -1);
  ck_assert(!teal_plant_geometry_source_is_registered(NULL));
  ck_assert_int_eq(teal_plant_get_body_frame_id(NULL, 0, &err), TEAL_EINVAL);
  /* filters: errors are sticky in the plant's record */
  teal_collision_filter_group g = {"g", bad, 2}, ok = {"ok", bad, 1};
  ck_assert_int_eq(teal_plant_exclude_collisions_between_bodies(NULL, 0, 1), TEAL_EINVAL);
  ck_assert_int_eq(
      teal_plant_exclude_collision_geometries_with_collision_filter_group_pair(p, &ok, &g),
      TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(teal_plant_error(p)->message, "g: entry 1 is no body"));
  ck_assert_int_eq(teal_plant_exclude_collisions_between_bodies(p, s.arm, s.ball),
                   TEAL_ENOTFOUND); /* sticky */
  teal_plant_free(p);
  s = make_scene();
  ck_assert_int_eq(
      teal_plant_exclude_collision_geometries_with_collision_filter_group_pair(s.p, NULL, &ok),
      TEAL_EINVAL);
  teal_plant_free(s.p);
  s = make_scene();
  ck_assert_int_eq(teal_plant_exclude_collisions_between_bodies(s.p, s.arm, 42), TEAL_ENOTFOUND);
  teal_plant_free(s.p);
}
END_TEST

/* Body A carries spheres a0 and a1, body B sphere b, all overlapping at the
 * origin; (a0, b) is excluded. The query reports (a1, b) only; a1 and a0
 * never pair (one body). */
START_TEST(geometry_pair_exclusion_reaches_the_query) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int A = add_body(p, "A"), B = add_body(p, "B");
  int a0 = add_sphere(p, A, "a0"), a1 = add_sphere(p, A, "a1"), b = add_sphere(p, B, "b");
  ck_assert_int_eq(teal_plant_exclude_collision_geometry_pair(p, b, a0), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_builder *bld = teal_builder_new("pair");
  teal_error err;
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(bld, p, &err);
  ck_assert_msg(sg != NULL, "%s", err.message);
  ck_assert(!teal_scene_graph_pair_is_candidate(sg, teal_plant_get_geometry_id(p, a0),
                                                teal_plant_get_geometry_id(p, b)));
  ck_assert(teal_scene_graph_pair_is_candidate(sg, teal_plant_get_geometry_id(p, a1),
                                               teal_plant_get_geometry_id(p, b)));
  teal_system *d = teal_builder_build(bld, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_context *ctx = teal_context_new(d, NULL);
  ck_assert_ptr_nonnull(ctx);
  const teal_context *sgc = teal_context_subcontext(ctx, teal_scene_graph_system(sg));
  const teal_point_pair_list *pairs;
  ck_assert_int_eq(teal_scene_graph_eval_point_pair_penetrations(sg, sgc, &pairs), TEAL_OK);
  ck_assert_int_eq(pairs->n, 1);
  int ga = teal_plant_get_geometry_from_id(p, pairs->pairs[0].id_A);
  int gb = teal_plant_get_geometry_from_id(p, pairs->pairs[0].id_B);
  ck_assert((ga == a1 && gb == b) || (ga == b && gb == a1));
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* Registered by hand into a scene graph that holds another source's
 * geometry first: the plant's geometry ids are offset, and the exclusion
 * follows them. */
START_TEST(geometry_pair_exclusion_with_offset_ids) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int A = add_body(p, "A"), B = add_body(p, "B");
  int a0 = add_sphere(p, A, "a0"), a1 = add_sphere(p, A, "a1"), b = add_sphere(p, B, "b");
  ck_assert_int_eq(teal_plant_exclude_collision_geometry_pair(p, a1, b), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_scene_graph *sg = teal_scene_graph_new("shared", NULL);
  int src = teal_scene_graph_register_source(sg, "obstacles");
  int frame = teal_scene_graph_register_frame(sg, src, "post");
  teal_shape s;
  teal_shape_sphere(0.1, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  int post = teal_scene_graph_register_geometry(sg, frame, teal_transform_identity(), &s, "post",
                                                TEAL_ROLE_PROXIMITY, &props, NULL);
  ck_assert_int_eq(post, 0);
  teal_error err;
  ck_assert_int_ge(teal_plant_register_as_source_for_scene_graph(p, sg, &err), 0);
  int id_a0 = teal_plant_get_geometry_id(p, a0), id_a1 = teal_plant_get_geometry_id(p, a1);
  int id_b = teal_plant_get_geometry_id(p, b);
  ck_assert_int_eq(id_a0, 1); /* after the obstacle */
  ck_assert(!teal_scene_graph_pair_is_candidate(sg, id_a1, id_b));
  ck_assert(teal_scene_graph_pair_is_candidate(sg, id_a0, id_b));
  ck_assert(teal_scene_graph_pair_is_candidate(sg, post, id_a1));
  ck_assert(teal_scene_graph_pair_is_candidate(sg, post, id_b));
  teal_scene_graph_free(sg);
  teal_plant_free(p);
}
END_TEST

static void expect_geometry_pair_error(teal_plant *p, int a, int b, int code, const char *needle) {
  TS_EXPECT_ERROR(teal_plant_exclude_collision_geometry_pair(p, a, b), code, teal_plant_error(p),
                  needle);
  teal_plant_free(p);
}

START_TEST(geometry_pair_bad_input) {
  ck_assert_int_eq(teal_plant_exclude_collision_geometry_pair(NULL, 0, 1), TEAL_EINVAL);
  scene s = make_scene();
  expect_geometry_pair_error(s.p, s.g_arm_col, 42, TEAL_ENOTFOUND, "no geometry pair (");
  s = make_scene();
  expect_geometry_pair_error(s.p, -1, s.g_arm_col, TEAL_ENOTFOUND,
                             "teal_plant_exclude_collision_geometry_pair");
  s = make_scene();
  expect_geometry_pair_error(s.p, s.g_arm_col, s.g_arm_col, TEAL_EINVAL, "given twice");
  s = make_scene();
  expect_geometry_pair_error(s.p, s.g_arm_col, s.g_tool_vis, TEAL_EINVAL,
                             "is not a collision geometry");
  /* sticky: a good call after a failure returns the old code */
  s = make_scene();
  ck_assert_int_eq(teal_plant_exclude_collision_geometry_pair(s.p, 0, 99), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_plant_exclude_collision_geometry_pair(s.p, s.g_arm_col, s.g_ball_col),
                   TEAL_ENOTFOUND);
  teal_plant_free(s.p);
  /* after the wiring */
  s = make_scene();
  ck_assert_int_eq(teal_plant_finalize(s.p), TEAL_OK);
  teal_builder *bld = teal_builder_new("late");
  teal_error err;
  ck_assert_ptr_nonnull(teal_add_plant_and_scene_graph(bld, s.p, &err));
  TS_EXPECT_ERROR(teal_plant_exclude_collision_geometry_pair(s.p, s.g_arm_col, s.g_ball_col),
                  TEAL_ESTATE, teal_plant_error(s.p), "already registered with its scene graph");
  teal_builder_free(bld);
}
END_TEST

int main(void) {
  Suite *s = suite_create("plant_geometry_queries");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, geometries_by_body_and_role);
  tcase_add_test(tc, bodies_welded_to);
  tcase_add_test(tc, source_and_frame_ids);
  tcase_add_test(tc, group_pair_exclusions_reach_the_query);
  tcase_add_test(tc, welded_groups_as_filter_groups);
  tcase_add_test(tc, bad_input);
  tcase_add_test(tc, geometry_pair_exclusion_reaches_the_query);
  tcase_add_test(tc, geometry_pair_exclusion_with_offset_ids);
  tcase_add_test(tc, geometry_pair_bad_input);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
