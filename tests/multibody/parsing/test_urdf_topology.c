/* The URDF checks between parsing and building
 * (multibody/parsing/urdf_topology.c): massless links merged into their
 * parents (frames, joints and geometry moved along), a world link with
 * free roots, and names on the world that clash with existing ones. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/tree/topology.h"
#include "support/mb_urdf_fixtures.h"
#include "support/test_support.h"

#define R(body) "<robot name=\"r\">" body "</robot>"

START_TEST(massless_links) {
  static const char *xml =
      "<robot name=\"m\">"
      "<link name=\"base\"/>" XLINK("a")
      XJOINT("ja", "revolute", "base", "a", "<origin xyz=\"0 0 1\"/><axis xyz=\"0 0 1\"/>")
      "<link name=\"flange\"/>"
      XJOINT("jf", "fixed", "a", "flange",
             "<origin xyz=\"0 0 0.5\" rpy=\"0 0 1.5707963267948966\"/>")
      "<link name=\"tool\"><visual><geometry><sphere radius=\"0.01\"/></geometry></visual></link>"
      XJOINT("jt", "fixed", "flange", "tool", "<origin xyz=\"0.1 0 0\"/>")
      "<link name=\"b\">" MASS "</link>"
      XJOINT("jb", "prismatic", "tool", "b", "<origin xyz=\"0 0 0.2\"/>")
      "<frame name=\"tcp\" link=\"tool\" xyz=\"0 0 0.05\"/>"
      "</robot>";
  teal_plant *p = ts_urdf_load_xml(xml, NULL, 1);
  int inst = teal_plant_get_model_instance_by_name(p, "m", NULL);
  int a = teal_plant_get_body_by_name(p, "a", inst, NULL), body;
  ck_assert_int_eq(teal_plant_num_bodies(p), 3);
  ck_assert_int_eq(teal_plant_num_joints(p), 2);
  ts_urdf_frame_pose(p, "m::base", TEAL_WORLD_MODEL_INSTANCE, &body);
  ck_assert_int_eq(body, TEAL_WORLD_BODY);
  teal_transform X = ts_urdf_frame_pose(p, "m::ja_parent", TEAL_WORLD_MODEL_INSTANCE, &body);
  ts_urdf_assert_vec3_near(X.p, teal_vec3_make(0, 0, 1), 0.0);
  X = ts_urdf_frame_pose(p, "tool", inst, &body);
  ck_assert_int_eq(body, a);
  ts_urdf_assert_vec3_near(X.p, teal_vec3_make(0, 0.1, 0.5), 1e-15);
  X = ts_urdf_frame_pose(p, "jb_parent", inst, &body);
  ck_assert_int_eq(body, a);
  ts_urdf_assert_vec3_near(X.p, teal_vec3_make(0, 0.1, 0.7), 1e-15);
  X = ts_urdf_frame_pose(p, "tcp", inst, &body);
  ts_urdf_assert_vec3_near(X.p, teal_vec3_make(0, 0.1, 0.55), 1e-15);
  /* jb's axis (default x) is in the rotated joint frame */
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int kb = ts_urdf_node_of_joint(p, "jb");
  ts_urdf_assert_vec3_near(teal_rotation_apply(t->X_PF[kb].R, t->params[kb].axis),
                   teal_vec3_make(0, 1, 0), 1e-15);
  const teal_plant_geometry *g = ts_urdf_geometry_named(p, "tool_visual_0");
  ck_assert_int_eq(g->body, a);
  ts_urdf_assert_vec3_near(g->X_BG.p, teal_vec3_make(0, 0.1, 0.5), 1e-15);
  teal_plant_free(p);
}
END_TEST

START_TEST(world_link_and_free_roots) {
  static const char *xml =
      "<robot name=\"w\"><link name=\"world\">" MASS
      "<visual><geometry><box size=\"1 1 0.1\"/></geometry></visual></link>"
      XLINK("free") XLINK("hinged")
      XJOINT("h", "continuous", "world", "hinged", "") "</robot>";
  teal_urdf_report r;
  teal_plant *p = ts_urdf_load_xml(xml, &r, 1);
  ck_assert_int_eq(r.ignored_elements, 1); /* the world's inertial */
  ck_assert_int_eq(teal_plant_num_joints(p), 2); /* h and the floating joint of "free" */
  ck_assert_int_eq(teal_plant_nq(p), 1 + 7);
  ck_assert_int_eq(ts_urdf_geometry_named(p, "w::world_visual_0")->body, TEAL_WORLD_BODY);
  teal_plant_free(p);
}
END_TEST

/* Frames and geometry on the world clash with ones added by other code:
 * caught before the build, so the plant is untouched. */
START_TEST(world_name_clashes_are_checked_first) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {0, ""};
  ck_assert_int_ge(teal_plant_add_frame(p, "r::base", TEAL_WORLD_FRAME, teal_transform_identity()),
                   0);
  ck_assert_int_eq(teal_urdf_load_string(p, R("<link name=\"base\"/>"), NULL, &e),
                   TEAL_EDUPLICATE);
  ck_assert_ptr_nonnull(strstr(e.message, "frame 'r::base' already exists"));
  teal_shape s;
  ck_assert_int_eq(teal_shape_sphere(1, &s, NULL), TEAL_OK);
  ck_assert_int_ge(teal_plant_register_visual_geometry(p, TEAL_WORLD_BODY,
                                                       teal_transform_identity(), &s,
                                                       "q::base_visual_0", NULL),
                   0);
  ck_assert_int_eq(teal_urdf_load_string(p,
                                         "<robot name=\"q\"><link name=\"base\"><visual><geometry>"
                                         "<sphere radius=\"1\"/></geometry></visual></link>"
                                         "</robot>",
                                         NULL, &e),
                   TEAL_EDUPLICATE);
  ck_assert_ptr_nonnull(strstr(e.message, "geometry 'q::base_visual_0' already exists"));
  ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("urdf_topology");
  TCase *tc = tcase_create("urdf_topology");
  tcase_add_test(tc, massless_links);
  tcase_add_test(tc, world_link_and_free_roots);
  tcase_add_test(tc, world_name_clashes_are_checked_first);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
