/* Tests of finalize (multibody/tree/topology.c) under allocation failure:
 * every failure is TEAL_ENOMEM with a message, leaves a plant that is not
 * finalized (so teal_mb_data_new refuses it with TEAL_ESTATE), and leaks
 * nothing (the sanitizer build checks). */
#include <check.h>
#include <string.h>

#include "multibody/algorithms/data.h"
#include "multibody/math/spatial.h"
#include "multibody/tree/forest.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/test_support.h"

/* A chain of three revolute bodies and one free body, not finalized. */
static teal_plant *three_links_and_a_ball(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(1.0, 0.1, 0.2, 0.3);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int parent = TEAL_WORLD_FRAME;
  const char *names[3] = {"a", "b", "c"}, *joints[3] = {"ja", "jb", "jc"};
  for (int i = 0; i < 3; i++) {
    int b = teal_plant_add_rigid_body(p, names[i], TEAL_DEFAULT_MODEL_INSTANCE, &M);
    ck_assert_int_ge(teal_plant_add_joint(p, joints[i], TEAL_JOINT_REVOLUTE, parent,
                                          teal_plant_body_frame(p, b), &y, 0.0),
                     0);
    parent = teal_plant_body_frame(p, b);
  }
  ck_assert_int_ge(teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M), 0);
  return p;
}

START_TEST(finalize_out_of_memory_is_clean) {
  ts_alloc_install();
  int failures = 0;
  for (long k = 0; k < 400; k++) {
    teal_plant *p = three_links_and_a_ball();
    ts_alloc_fail_after(k, 0);
    int rc = teal_plant_finalize(p);
    ts_alloc_fail_after(-1, 0);
    if (rc == TEAL_OK) {
      ck_assert_int_eq(teal_plant_is_finalized(p), 1);
      ck_assert_ptr_nonnull(teal_plant_forest(p));
      teal_plant_free(p);
      break;
    }
    failures++;
    ck_assert_int_eq(rc, TEAL_ENOMEM);
    ck_assert_ptr_nonnull(strstr(teal_plant_error(p)->message, "memory"));
    ck_assert_int_eq(teal_plant_is_finalized(p), 0);
    teal_error err = {0, ""};
    ck_assert_ptr_null(teal_mb_data_new(p, &err));
    ck_assert_int_eq(err.code, TEAL_ESTATE);
    teal_plant_free(p);
  }
  ts_alloc_uninstall();
  ck_assert_int_gt(failures, 2); /* the forest, the system and its parts all allocate */
}
END_TEST

int main(void) {
  Suite *s = suite_create("topology");
  TCase *tc = tcase_create("finalize");
  tcase_add_test(tc, finalize_out_of_memory_is_clean);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
