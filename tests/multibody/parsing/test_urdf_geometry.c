/* URDF geometry (multibody/parsing/urdf_geometry.c): shapes, poses and
 * materials of <visual> and <collision>, Drake's proximity properties and
 * shapes, mesh collisions as convex hulls (a cube's 8 corners; an L-shaped
 * prism warns; a missing or broken mesh file is an error naming the file,
 * line and element), ignored elements, and drake: elements without a
 * namespace declaration. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_urdf_fixtures.h"
#include "support/mesh_fixtures.h"
#include "support/test_support.h"

static char g_dir[64], g_cube[128], g_l[128];

/* A cube (side 0.2) and the L-shaped prism as OBJ files in a fresh folder. */
static void write_meshes(void) {
  strcpy(g_dir, "/tmp/teal_urdf_mesh_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(g_dir));
  snprintf(g_cube, sizeof g_cube, "%s/cube.obj", g_dir);
  snprintf(g_l, sizeof g_l, "%s/l.stl", g_dir);
  teal_mesh cube = ts_mesh_box(0.2, 0.2, 0.2), l = ts_mesh_l_prism();
  ck_assert_int_eq(ts_mesh_write_obj(g_cube, &cube), 0);
  ck_assert_int_eq(ts_mesh_write_stl_binary(g_l, &l), 0);
  teal_mesh_release(&cube);
  teal_mesh_release(&l);
}

static void remove_meshes(void) {
  unlink(g_cube);
  unlink(g_l);
  rmdir(g_dir);
}

START_TEST(geometry_materials_and_friction) {
  write_meshes();
  static const char *fmt =
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
      "<drake:hunt_crossley_dissipation value=\"2\"/><drake:relaxation_time value=\"0.05\"/>"
      "</drake:proximity_properties></collision>"
      "<collision><geometry><drake:capsule radius=\"0.2\" length=\"0.1\"/></geometry>"
      "<drake:proximity_properties><drake:mu_dynamic value=\"0.4\"/>"
      "<drake:hydroelastic_modulus value=\"1e7\"/><drake:compliant_hydroelastic/>"
      "<drake:mesh_resolution_hint value=\"0.05\"/>"
      "<drake:hydroelastic_margin value=\"1e-3\"/></drake:proximity_properties></collision>"
      "<collision><geometry><mesh filename=\"%s\" scale=\"5 5 5\"/></geometry></collision>"
      "<collision><geometry><drake:ellipsoid a=\"1\" b=\"2\" c=\"3\"/></geometry></collision>"
      "</link>"
      "<material name=\"m1\"><color rgba=\"1 0 0 1\"/></material>"
      "</robot>";
  char xml[4096];
  snprintf(xml, sizeof xml, fmt, g_cube);
  teal_urdf_report r;
  teal_plant *p = ts_urdf_load_xml(xml, &r, 1);
  ck_assert_int_eq(teal_plant_num_geometries(p), 8);
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
  ck_assert_double_eq(g->proximity.relaxation_time, 0.05);
  ck_assert(isnan(ts_urdf_geometry_named(p, "a_collision_0")->proximity.relaxation_time));
  g = ts_urdf_geometry_named(p, "a_collision_2");
  ck_assert_double_eq(g->shape.radius, 0.2);
  ck_assert_double_eq(g->proximity.static_friction, 0.4);
  ck_assert_double_eq(g->proximity.dynamic_friction, 0.4);
  ck_assert_int_eq(g->proximity.compliance, TEAL_HYDROELASTIC_SOFT);
  ck_assert_double_eq(g->proximity.hydroelastic_modulus, 1e7);
  ck_assert_double_eq(g->proximity.resolution_hint, 0.05);
  /* the mesh collision: the cube's hull, scaled, its corners at +-0.5 */
  g = ts_urdf_geometry_named(p, "a_collision_3");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_CONVEX);
  ck_assert_int_eq(g->shape.num_vertices, 8);
  for (int i = 0; i < 8; i++) {
    for (int k = 0; k < 3; k++) {
      ck_assert_double_eq_tol(fabs(g->shape.vertices[i].v[k]), 0.5, 1e-7);
    }
  }
  g = ts_urdf_geometry_named(p, "a_collision_4");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_ELLIPSOID);
  ck_assert_int_eq(r.mesh_collisions, 1);
  ck_assert_int_eq(r.nonconvex_meshes, 0);
  ck_assert_int_eq(r.ignored_elements, 1); /* the hydroelastic margin */
  ck_assert_int_eq(r.num_warnings, 1);
  ck_assert_ptr_nonnull(strstr(r.first_warning, "<string>:1: <drake:hydroelastic_margin>"));
  ck_assert_int_eq(ts_urdf_geometry_named(p, "cap")->proximity.compliance, TEAL_HYDROELASTIC_NONE);
  teal_plant_free(p);
  remove_meshes();
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

START_TEST(nonconvex_and_broken_collision_meshes) {
  write_meshes();
  char xml[2048];
  snprintf(xml, sizeof xml,
           "<robot name=\"l\"><link name=\"a\">" MASS
           "<visual><geometry><mesh filename=\"%s\"/></geometry></visual>"
           "<collision><geometry><mesh filename=\"%s\"/></geometry></collision></link></robot>",
           g_l, g_l);
  teal_urdf_report r;
  teal_plant *p = ts_urdf_load_xml(xml, &r, 1);
  ck_assert_int_eq(r.mesh_collisions, 1);
  ck_assert_int_eq(r.nonconvex_meshes, 1);
  ck_assert_int_eq(r.num_warnings, 1);
  ck_assert_ptr_nonnull(strstr(r.first_warning, "<string>:1: <mesh>: mesh "));
  ck_assert_ptr_nonnull(strstr(r.first_warning, "far from convex"));
  const teal_plant_geometry *g = ts_urdf_geometry_named(p, "a_visual_0");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_MESH);
  ck_assert_str_eq(g->shape.filename, g_l);
  ck_assert_int_eq(ts_urdf_geometry_named(p, "a_collision_0")->shape.num_vertices, 10);
  teal_plant_free(p);
  /* a missing file and a file that is no mesh: errors naming line and element */
  teal_error e;
  ts_stale_error(&e);
  p = teal_plant_new(0.0, NULL);
  snprintf(xml, sizeof xml,
           "<robot name=\"m\"><link name=\"a\">" MASS
           "\n<collision><geometry><mesh filename=\"%s/none.stl\"/></geometry></collision>"
           "</link></robot>",
           g_dir);
  TS_EXPECT_ERROR(teal_urdf_load_string(p, xml, NULL, &e), TEAL_EIO, &e, "<string>:2: <mesh>: ");
  ck_assert_ptr_nonnull(strstr(e.message, "none.stl"));
  ck_assert_int_eq(ts_write_bytes(g_cube, "no mesh at all", 14), 0);
  snprintf(xml, sizeof xml,
           "<robot name=\"m\"><link name=\"a\">" MASS
           "<collision><geometry><mesh filename=\"%s\"/></geometry></collision></link></robot>",
           g_cube);
  TS_EXPECT_ERROR(teal_urdf_load_string(p, xml, NULL, &e), TEAL_EPARSE, &e, "cube.obj");
  ck_assert_int_eq(teal_plant_num_model_instances(p), 2);
  teal_plant_free(p);
  remove_meshes();
}
END_TEST

int main(void) {
  Suite *s = suite_create("urdf_geometry");
  TCase *tc = tcase_create("urdf_geometry");
  tcase_add_test(tc, geometry_materials_and_friction);
  tcase_add_test(tc, drake_prefix_without_namespace);
  tcase_add_test(tc, nonconvex_and_broken_collision_meshes);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
