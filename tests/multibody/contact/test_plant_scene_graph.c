/* Tests of teal_add_plant_and_scene_graph (multibody/contact/
 * plant_scene_graph.c) under allocation failure: each failure returns NULL
 * with an error, the builder owns the finalized plant whatever happens, and
 * nothing is used after it is freed or leaked (the sanitizer build checks). */
#include <check.h>

#include "framework/diagram.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/contact/plant_scene_graph.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/test_support.h"

/* A finalized plant: a free ball with a sphere over a ground half space. */
static teal_plant *ball_over_ground(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int ball = teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_shape sphere, ground;
  ck_assert_int_eq(teal_shape_sphere(0.1, &sphere, NULL), TEAL_OK);
  teal_shape_half_space(&ground);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  ck_assert_int_ge(teal_plant_register_collision_geometry(p, ball, teal_transform_identity(),
                                                          &sphere, "ball", &props),
                   0);
  ck_assert_int_ge(teal_plant_register_collision_geometry(
                       p, TEAL_WORLD_BODY, teal_transform_identity(), &ground, "ground", &props),
                   0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

START_TEST(wiring_out_of_memory_is_clean) {
  ts_alloc_install();
  int failures = 0;
  for (long k = 0; k < 200; k++) {
    teal_plant *p = ball_over_ground();
    teal_builder *b = teal_builder_new("wiring");
    ck_assert_ptr_nonnull(b);
    teal_error err = {0, ""};
    ts_alloc_fail_after(k, 0);
    teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, p, &err);
    ts_alloc_fail_after(-1, 0);
    teal_builder_free(b); /* frees the plant too: the builder owns it */
    if (sg) {
      break;
    }
    failures++;
    ck_assert_int_ne(err.code, TEAL_OK);
  }
  ts_alloc_uninstall();
  ck_assert_int_gt(failures, 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("plant_scene_graph");
  TCase *tc = tcase_create("wiring");
  tcase_add_test(tc, wiring_out_of_memory_is_clean);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
