/* URDF geometry (multibody/parsing/urdf_geometry.c): shapes, poses and
 * materials of <visual> and <collision>, Drake's proximity properties and
 * shapes, skipped mesh collisions and ignored elements, and drake: elements
 * without a namespace declaration. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/tree/topology.h"
#include "support/mb_urdf_fixtures.h"
#include "support/test_support.h"

START_TEST(geometry_materials_and_friction) {
  static const char *xml =
      "<robot name=\"g\" xmlns:drake=\"http://drake.mit.edu\">"
      "<link name=\"a\">" MASS
      "<visual><origin xyz=\"0 0 1\" rpy=\"0 0 1.5707963267948966\"/>"
      "<geometry><box size=\"1 2 3\"/></geometry><material name=\"m1\"/></visual>"
      "<visual name=\"ball\"><geometry><sphere radius=\"0.5\"/></geometry>"
      "<material name=\"green\"><color rgba=\"0 1 0 0.5\"/></material></visual>"
      "<visual><geometry><mesh filename=\"meshes/a.obj\" scale=\"2 2 2\"/></geometry>"
      "<material name=\"green\"/></visual>"
      "<collision><geometry><cylinder radius=\"0.1\" length=\"0.4\"/></geometry></collision>"
      "<collision name=\"cap\"><geometry><capsule radius=\"0.1\" length=\"0.3\"/></geometry>"
      "<drake:proximity_properties><drake:mu_static value=\"0.8\"/>"
      "<drake:mu_dynamic value=\"0.5\"/><drake:point_contact_stiffness value=\"1e5\"/>"
      "<drake:hunt_crossley_dissipation value=\"2\"/></drake:proximity_properties></collision>"
      "<collision><geometry><drake:capsule radius=\"0.2\" length=\"0.1\"/></geometry>"
      "<drake:proximity_properties><drake:mu_dynamic value=\"0.4\"/>"
      "<drake:hydroelastic_modulus value=\"1e7\"/></drake:proximity_properties></collision>"
      "<collision><geometry><mesh filename=\"a.obj\"/></geometry></collision>"
      "<collision><geometry><drake:ellipsoid a=\"1\" b=\"2\" c=\"3\"/></geometry></collision>"
      "</link>"
      "<material name=\"m1\"><color rgba=\"1 0 0 1\"/></material>"
      "</robot>";
  teal_urdf_report r;
  teal_plant *p = ts_urdf_load_xml(xml, &r, 1);
  ck_assert_int_eq(teal_plant_num_geometries(p), 7);
  const teal_plant_geometry *g = ts_urdf_geometry_named(p, "a_visual_0");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_BOX);
  ts_urdf_assert_vec3_near(g->shape.size, teal_vec3_make(1, 2, 3), 0.0);
  ts_urdf_assert_vec3_near(g->X_BG.p, teal_vec3_make(0, 0, 1), 0.0);
  ts_urdf_assert_vec3_near(teal_rotation_apply(g->X_BG.R, teal_vec3_make(1, 0, 0)),
                   teal_vec3_make(0, 1, 0), 1e-15);
  ck_assert_double_eq(g->rgba[0], 1.0); /* m1, defined after its use */
  g = ts_urdf_geometry_named(p, "ball");
  ck_assert_double_eq(g->rgba[3], 0.5);
  g = ts_urdf_geometry_named(p, "a_visual_2");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_MESH);
  ck_assert_str_eq(g->shape.filename, "meshes/a.obj");
  ck_assert_double_eq(g->shape.size.v[0], 2.0);
  ck_assert_double_eq(g->rgba[1], 1.0); /* the material named inside the first visual */
  g = ts_urdf_geometry_named(p, "a_collision_0");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_CYLINDER);
  ck_assert_double_eq(g->proximity.static_friction, 1.0);
  ck_assert_double_eq(g->proximity.dynamic_friction, 1.0);
  g = ts_urdf_geometry_named(p, "cap");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_CAPSULE);
  ck_assert_double_eq(g->proximity.static_friction, 0.8);
  ck_assert_double_eq(g->proximity.dynamic_friction, 0.5);
  ck_assert_double_eq(g->proximity.point_contact_stiffness, 1e5);
  ck_assert_double_eq(g->proximity.hunt_crossley_dissipation, 2.0);
  g = ts_urdf_geometry_named(p, "a_collision_2");
  ck_assert_double_eq(g->shape.radius, 0.2);
  ck_assert_double_eq(g->proximity.static_friction, 0.4);
  ck_assert_double_eq(g->proximity.dynamic_friction, 0.4);
  g = ts_urdf_geometry_named(p, "a_collision_4"); /* the mesh collision (k = 3) was skipped */
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_ELLIPSOID);
  ck_assert_int_eq(r.skipped_mesh_collisions, 1);
  ck_assert_int_eq(r.ignored_elements, 1); /* hydroelastic modulus */
  ck_assert_int_eq(r.num_warnings, 2);
  ck_assert_ptr_nonnull(strstr(r.first_warning, "<string>:1: <drake:hydroelastic_modulus>"));
  teal_plant_free(p);
}
END_TEST

/* drake: elements also work without a namespace declaration. */
START_TEST(drake_prefix_without_namespace) {
  static const char *xml =
      "<robot name=\"n\"><link name=\"a\">" MASS
      "<collision><geometry><drake:capsule radius=\"0.1\" length=\"0.2\"/></geometry>"
      "<drake:proximity_properties><drake:mu_static value=\"0.3\"/>"
      "</drake:proximity_properties></collision></link>"
      "<drake:joint name=\"b\" type=\"ball\"><parent link=\"world\"/><child link=\"a\"/>"
      "</drake:joint></robot>";
  teal_plant *p = ts_urdf_load_xml(xml, NULL, 1);
  const teal_plant_geometry *g = ts_urdf_geometry_named(p, "a_collision_0");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_CAPSULE);
  ck_assert_double_eq(g->proximity.dynamic_friction, 0.3);
  ck_assert_int_eq(teal_plant_nq(p), 4);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("urdf_geometry");
  TCase *tc = tcase_create("urdf_geometry");
  tcase_add_test(tc, geometry_materials_and_friction);
  tcase_add_test(tc, drake_prefix_without_namespace);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
