/* MJCF collision filters (multibody/parsing/mjcf_filters.c): a model of
 * four free spheres and a floor plane, all overlapping, with different
 * contype and conaffinity bits (one set through a default class) gives
 * exactly the pairs of MuJoCo's rule (contype_a & conaffinity_b) ||
 * (contype_b & conaffinity_a), written out below as a truth table, both as
 * the scene graph's candidate pairs and as the point pairs its query
 * reports; a geom with both bits 0 is visual only; the body filters still
 * apply on top of the bits (a hinged child never meets its parent, as in
 * MuJoCo), and MuJoCo's parent filter on weld groups and on bodies with
 * several joints is added (pairs the plant's defaults alone let through;
 * bench/mjcf_mujoco.c checks the same structures in models/mjcf/contype.xml
 * against MuJoCo's contacts); bits that are no integer mask are errors. */
#include <check.h>
#include <string.h>

#include "framework/context_tree.h"
#include "geometry/scene_graph/scene_graph_query.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/contact/plant_scene_graph.h"
#include "multibody/contact/scene_graph_source.h"
#include "multibody/parsing/mjcf.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* floor (1, 4); g0 (1, 1) the defaults; g1 (2, 0); g2 (0, 2) from class
 * 'nobits'; g3 (4, 1) beside the visual-only 'ghost' (0, 0). */
static const char *bits_xml =
    "<mujoco model='contype'>"
    " <default><geom type='sphere' size='0.1'/>"
    "  <default class='nobits'><geom contype='0' conaffinity='2'/></default>"
    " </default>"
    " <worldbody>"
    "  <geom name='floor' type='plane' size='1 1 0.1' contype='1' conaffinity='4'/>"
    "  <body name='b0' pos='0 0 0.05'><freejoint/><geom name='g0'/></body>"
    "  <body name='b1' pos='0.02 0 0.05'><freejoint/>"
    "   <geom name='g1' contype='2' conaffinity='0'/></body>"
    "  <body name='b2' pos='0 0.02 0.05'><freejoint/><geom name='g2' class='nobits'/></body>"
    "  <body name='b3' pos='0.02 0.02 0.05'><freejoint/>"
    "   <geom name='g3' contype='4' conaffinity='1'/>"
    "   <geom name='ghost' contype='0' conaffinity='0'/></body>"
    " </worldbody>"
    "</mujoco>";

#define NGEOMS 5
static const char *const names[NGEOMS] = {"floor", "g0", "g1", "g2", "g3"};

/* MuJoCo's rule worked out by hand for the bits above (symmetric). */
static const int collides[NGEOMS][NGEOMS] = {
    /*        floor g0 g1 g2 g3 */
    /* floor */ {0, 1, 0, 0, 1},
    /* g0 */ {1, 0, 0, 0, 1},
    /* g1 */ {0, 0, 0, 1, 0},
    /* g2 */ {0, 0, 1, 0, 0},
    /* g3 */ {1, 1, 0, 0, 0},
};

static teal_plant *load(const char *xml) {
  teal_error e = {TEAL_OK, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  ck_assert_msg(teal_mjcf_load_string(p, xml, NULL, NULL, NULL, &e) >= 2, "%s", e.message);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* 1 when a plant name is name, or ends in "::name" (the world's geoms are
 * scoped by the model instance). */
static int name_is(const char *plant_name, const char *name) {
  size_t n = strlen(plant_name), k = strlen(name);
  return strcmp(plant_name, name) == 0 || (n > k + 2 && strcmp(plant_name + n - k, name) == 0 &&
                                           strncmp(plant_name + n - k - 2, "::", 2) == 0);
}

/* The plant's collision geometry called name. */
static int collision_geometry(const teal_plant *p, const char *name) {
  for (int i = 0; i < teal_plant_num_geometries(p); i++) {
    const teal_plant_geometry *g = teal_plant_get_geometry(p, i);
    if (g->role == TEAL_ROLE_PROXIMITY && name_is(g->name, name)) {
      return i;
    }
  }
  ck_abort_msg("no collision geometry %s", name);
  return -1;
}

/* The index in names of a scene graph geometry id. */
static int name_index(const teal_plant *p, int id) {
  const char *name = teal_plant_get_geometry(p, teal_plant_get_geometry_from_id(p, id))->name;
  for (int k = 0; k < NGEOMS; k++) {
    if (name_is(name, names[k])) {
      return k;
    }
  }
  ck_abort_msg("unexpected geometry %s", name);
  return -1;
}

START_TEST(bits_give_mujocos_pairs) {
  teal_plant *p = load(bits_xml);
  ck_assert_int_eq(teal_plant_num_collision_geometries(p), NGEOMS); /* not the ghost */
  teal_builder *b = teal_builder_new("contype");
  teal_error err;
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, p, &err);
  ck_assert_msg(sg != NULL, "%s", err.message);
  int id[NGEOMS];
  for (int k = 0; k < NGEOMS; k++) {
    id[k] = teal_plant_get_geometry_id(p, collision_geometry(p, names[k]));
  }
  for (int i = 0; i < NGEOMS; i++) {
    for (int k = 0; k < NGEOMS; k++) {
      ck_assert_msg(teal_scene_graph_pair_is_candidate(sg, id[i], id[k]) == collides[i][k],
                    "%s-%s: candidate %d, MuJoCo %d", names[i], names[k],
                    teal_scene_graph_pair_is_candidate(sg, id[i], id[k]), collides[i][k]);
    }
  }
  /* everything overlaps at the default state: the query reports the table */
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_context *ctx = teal_context_new(d, NULL);
  const teal_context *sgc = teal_context_subcontext(ctx, teal_scene_graph_system(sg));
  const teal_point_pair_list *pairs;
  ck_assert_int_eq(teal_scene_graph_eval_point_pair_penetrations(sg, sgc, &pairs), TEAL_OK);
  int seen[NGEOMS][NGEOMS] = {{0}};
  for (int i = 0; i < pairs->n; i++) {
    int a = name_index(p, pairs->pairs[i].id_A), c = name_index(p, pairs->pairs[i].id_B);
    ck_assert_msg(collides[a][c], "%s-%s reported", names[a], names[c]);
    ck_assert_int_eq(seen[a][c]++, 0);
    seen[c][a]++;
  }
  ck_assert_int_eq(pairs->n, 4); /* floor-g0, floor-g3, g0-g3, g1-g2 */
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* arm hinged to the world, hand hinged to the arm, a free ball: with bits
 * that would let them all collide, the hand still never meets its parent
 * (MuJoCo's parent filter, the plant's jointed-pair filter); the arm meets
 * the floor (the world is a parent neither filters). */
static const char *chain_xml =
    "<mujoco><default><geom type='sphere' size='0.1' contype='3' conaffinity='1'/></default>"
    "<worldbody><geom name='floor' type='plane' size='1 1 0.1'/>"
    "<body name='arm'><joint type='hinge'/><geom name='ga'/>"
    " <body name='hand' pos='0.05 0 0'><joint type='hinge'/><geom name='gh'/></body></body>"
    "<body name='ball' pos='0 0.05 0'><freejoint/><geom name='gb' contype='2' conaffinity='2'/>"
    "</body></worldbody></mujoco>";

START_TEST(body_filters_apply_on_top) {
  teal_plant *p = load(chain_xml);
  teal_builder *b = teal_builder_new("chain");
  teal_error err;
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, p, &err);
  ck_assert_msg(sg != NULL, "%s", err.message);
  int floor = teal_plant_get_geometry_id(p, collision_geometry(p, "floor"));
  int ga = teal_plant_get_geometry_id(p, collision_geometry(p, "ga"));
  int gh = teal_plant_get_geometry_id(p, collision_geometry(p, "gh"));
  int gb = teal_plant_get_geometry_id(p, collision_geometry(p, "gb"));
  ck_assert(!teal_scene_graph_pair_is_candidate(sg, ga, gh)); /* parent and child */
  ck_assert(teal_scene_graph_pair_is_candidate(sg, ga, floor));
  ck_assert(teal_scene_graph_pair_is_candidate(sg, gh, floor));
  /* ball (2, 2) against (3, 1): 2 & 1 = 0 but 3 & 2 = 2, so they collide */
  ck_assert(teal_scene_graph_pair_is_candidate(sg, gb, ga));
  ck_assert(teal_scene_graph_pair_is_candidate(sg, gb, gh));
  /* ball (2, 2) against the floor (3, 1) as well */
  ck_assert(teal_scene_graph_pair_is_candidate(sg, gb, floor));
  teal_builder_free(b);
}
END_TEST

static void expect_bad_bits(const char *attrs, const char *needle) {
  char xml[512];
  snprintf(xml, sizeof xml,
           "<mujoco><worldbody><body name='b'><freejoint/>"
           "<geom type='sphere' size='0.1' %s/></body></worldbody></mujoco>",
           attrs);
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {TEAL_OK, ""};
  TS_EXPECT_ERROR(teal_mjcf_load_string(p, xml, NULL, NULL, NULL, &e), TEAL_EINVAL, &e, needle);
  ck_assert_int_eq(teal_plant_num_geometries(p), 0); /* the plant is untouched */
  teal_plant_free(p);
}

START_TEST(bad_bits) {
  expect_bad_bits("contype='1.5'", "contype 1.5 must be an integer bit mask in [0, 2^32)");
  expect_bad_bits("conaffinity='-1'", "conaffinity -1 must be an integer bit mask");
  expect_bad_bits("contype='4294967296'", "contype 4.29497e+09 must be an integer bit mask");
}
END_TEST

/* MuJoCo's parent filter works on weld groups: lower (hinged to the
 * massive joint-less bracket, welded to upper) is kept from upper too, and
 * double (two joints) from twist; lower still meets twist and double. */
static const char *weld_xml =
    "<mujoco><default><geom type='sphere' size='0.1'/></default><worldbody>"
    "<body name='upper'><joint name='lift' type='slide' axis='0 0 1'/><geom name='gu'/>"
    " <body name='bracket' pos='0 0 0.5'>"
    "  <geom name='gk' type='box' size='0.01 0.01 0.01'/>"
    "  <body name='lower' pos='0 0 -0.5'><joint name='knee' axis='0 1 0'/><geom name='gl'/>"
    "</body></body></body>"
    "<body name='twist' pos='0.02 0 0'><joint name='t1' axis='1 0 0'/><geom name='gt'/>"
    " <body name='double'><joint name='d1' axis='0 1 0'/><joint name='d2' axis='0 0 1'/>"
    "  <geom name='gd'/></body></body>"
    "</worldbody></mujoco>";

START_TEST(parent_filter_on_weld_groups) {
  teal_plant *p = load(weld_xml);
  teal_builder *b = teal_builder_new("weld");
  teal_error err;
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, p, &err);
  ck_assert_msg(sg != NULL, "%s", err.message);
  static const char *const g[5] = {"gu", "gk", "gl", "gt", "gd"};
  int id[5];
  for (int k = 0; k < 5; k++) {
    id[k] = teal_plant_get_geometry_id(p, collision_geometry(p, g[k]));
  }
  /* by hand from MuJoCo's weld ids: upper {upper, bracket}, lower, twist,
   * double; lower's parent group is upper's, double's is twist's */
  static const int collide[5][5] = {
      /*      gu gk gl gt gd */
      /* gu */ {0, 0, 0, 1, 1},
      /* gk */ {0, 0, 0, 1, 1},
      /* gl */ {0, 0, 0, 1, 1},
      /* gt */ {1, 1, 1, 0, 0},
      /* gd */ {1, 1, 1, 0, 0},
  };
  for (int i = 0; i < 5; i++) {
    for (int k = 0; k < 5; k++) {
      ck_assert_msg(teal_scene_graph_pair_is_candidate(sg, id[i], id[k]) == collide[i][k], "%s-%s",
                    g[i], g[k]);
    }
  }
  teal_builder_free(b);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mjcf_filters");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, bits_give_mujocos_pairs);
  tcase_add_test(tc, body_filters_apply_on_top);
  tcase_add_test(tc, parent_filter_on_weld_groups);
  tcase_add_test(tc, bad_bits);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
