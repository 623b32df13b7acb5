/* Geometry registration on plant bodies (multibody/contact/plant_geometry.h). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/contact/plant_geometry.h"
#include "multibody/tree/topology.h"

static teal_plant *one_body_plant(int *body) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  *body = teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_ge(*body, 1);
  return p;
}

START_TEST(registers_and_reads_back) {
  int b;
  teal_plant *p = one_body_plant(&b);
  teal_shape s;
  ck_assert_int_eq(teal_shape_sphere(0.1, &s, NULL), TEAL_OK);
  teal_proximity_properties props = teal_proximity_properties_make(0.8, 0.5);
  teal_transform X = teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 0.2));
  ck_assert_int_eq(teal_plant_register_collision_geometry(p, b, X, &s, "c", &props), 0);
  double red[4] = {1, 0, 0, 1};
  ck_assert_int_eq(teal_plant_register_visual_geometry(p, b, X, &s, "c", red), 1); /* other role */
  ck_assert_int_eq(teal_plant_register_visual_geometry(p, TEAL_WORLD_BODY,
                                                       teal_transform_identity(), &s, "v", NULL),
                   2);
  ck_assert_int_eq(teal_plant_num_geometries(p), 3);
  const teal_plant_geometry *g = teal_plant_get_geometry(p, 0);
  ck_assert_int_eq(g->body, b);
  ck_assert_int_eq(g->role, TEAL_ROLE_PROXIMITY);
  ck_assert_str_eq(g->name, "c");
  ck_assert_double_eq(g->shape.radius, 0.1);
  ck_assert_double_eq(g->X_BG.p.v[2], 0.2);
  ck_assert_double_eq(g->proximity.static_friction, 0.8);
  ck_assert(isnan(g->proximity.point_contact_stiffness));
  ck_assert_double_eq(teal_plant_get_geometry(p, 1)->rgba[0], 1.0);
  ck_assert_double_eq(teal_plant_get_geometry(p, 2)->rgba[0], 0.7);
  ck_assert_ptr_null(teal_plant_get_geometry(p, 3));
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_register_visual_geometry(p, b, X, &s, "late", NULL), TEAL_ESTATE);
  teal_plant_free(p);
}
END_TEST

START_TEST(convex_shapes_are_deep_copied) {
  int b;
  teal_plant *p = one_body_plant(&b);
  teal_vec3 v[4] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}};
  teal_shape s;
  ck_assert_int_eq(teal_shape_convex(v, 4, &s, NULL), TEAL_OK);
  teal_proximity_properties props = teal_proximity_properties_make(1.0, 1.0);
  ck_assert_int_eq(
      teal_plant_register_collision_geometry(p, b, teal_transform_identity(), &s, "hull", &props),
      0);
  teal_shape_release(&s);
  const teal_plant_geometry *g = teal_plant_get_geometry(p, 0);
  ck_assert_int_eq(g->shape.num_vertices, 4);
  ck_assert_double_eq(g->shape.vertices[3].v[2], 1.0);
  teal_plant_free(p);
}
END_TEST

/* Each bad registration fails with code and leaves a sticky error. */
static void expect_failure(int which, int code) {
  int b;
  teal_plant *p = one_body_plant(&b);
  teal_shape s, mesh;
  teal_shape_sphere(0.1, &s, NULL);
  teal_shape_mesh("ball.obj", 1.0, &mesh, NULL);
  teal_proximity_properties ok = teal_proximity_properties_make(0.5, 0.5), bad = ok;
  double rgba_bad[4] = {1, 2, 0, 1};
  teal_transform I = teal_transform_identity();
  int rc = 0;
  switch (which) {
    case 0: bad.dynamic_friction = 0.9; break; /* dynamic > static */
    case 1: bad.static_friction = NAN; break;
    case 2: bad.point_contact_stiffness = -1.0; break;
    case 3: bad.hunt_crossley_dissipation = -1.0; break;
    default: break;
  }
  if (which <= 3) {
    rc = teal_plant_register_collision_geometry(p, b, I, &s, "g", &bad);
  } else if (which == 4) {
    rc = teal_plant_register_collision_geometry(p, b, I, &s, "g", NULL);
  } else if (which == 5) {
    rc = teal_plant_register_collision_geometry(p, 7, I, &s, "g", &ok);
  } else if (which == 6) {
    rc = teal_plant_register_collision_geometry(p, b, I, &mesh, "g", &ok);
  } else if (which == 7) {
    rc = teal_plant_register_visual_geometry(p, b, I, &s, "g", rgba_bad);
  } else {
    ck_assert_int_ge(teal_plant_register_visual_geometry(p, b, I, &s, "g", NULL), 0);
    rc = teal_plant_register_visual_geometry(p, b, I, &s, "g", NULL);
  }
  ck_assert_int_eq(rc, code);
  ck_assert_int_eq(teal_plant_error(p)->code, code);
  ck_assert(strlen(teal_plant_error(p)->message) > 0);
  ck_assert_int_eq(teal_plant_finalize(p), code);
  teal_shape_release(&mesh);
  teal_plant_free(p);
}

START_TEST(bad_registrations) {
  for (int i = 0; i <= 7; i++) {
    expect_failure(i, TEAL_EINVAL);
  }
  expect_failure(8, TEAL_EDUPLICATE);
}
END_TEST

int main(void) {
  Suite *s = suite_create("plant_geometry");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, registers_and_reads_back);
  tcase_add_test(tc, convex_shapes_are_deep_copied);
  tcase_add_test(tc, bad_registrations);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
