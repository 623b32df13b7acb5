/* The plant summary (multibody/tree/plant_summary.c): the exact text of a
 * known model (instances, counts, masses, joint kinds and q / v indices,
 * a free body's floating joint added by finalize), the depth cap of a long
 * chain, the printed form, and bad calls. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/tree/plant_summary.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

/* arm: base welded to the world, upper on a hinge, tip sliding on upper;
 * ball: free (floating after finalize). */
static teal_plant *make_arm(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int arm = teal_plant_add_model_instance(p, "arm");
  teal_spatial_inertia M1 = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  teal_spatial_inertia M2 = teal_spatial_inertia_solid_sphere(2.0, 0.1);
  teal_spatial_inertia M3 = teal_spatial_inertia_solid_sphere(0.5, 0.1);
  int base = teal_plant_add_rigid_body(p, "base", arm, &M1);
  int upper = teal_plant_add_rigid_body(p, "upper", arm, &M2);
  int tip = teal_plant_add_rigid_body(p, "tip", arm, &M3);
  ck_assert_int_eq(teal_plant_add_rigid_body(p, "ball", arm, &M3), 4);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  ts_mb_connect(p, "base_weld", TEAL_JOINT_WELD, TEAL_WORLD_BODY, base, NULL);
  ts_mb_connect(p, "shoulder", TEAL_JOINT_REVOLUTE, base, upper, &z);
  ts_mb_connect(p, "slide", TEAL_JOINT_PRISMATIC, upper, tip, &z);
  return p;
}

START_TEST(known_model_text) {
  teal_plant *p = make_arm();
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_plant_summary_string(p, &err) == NULL ? err.code : 0, TEAL_ESTATE, &err,
                  "not finalized");
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  char *text = teal_plant_summary_string(p, &err);
  ck_assert_ptr_nonnull(text);
  const char *want =
      "plant \"plant\": 5 bodies (world included), 4 joints, 0 actuators; nq 9, nv 8, nu 0; "
      "mass 4 kg\n"
      "model instances:\n"
      "  0 \"WorldModelInstance\": 1 body, nq 0, nv 0, mass 0 kg\n"
      "  1 \"DefaultModelInstance\": 0 bodies, nq 0, nv 0, mass 0 kg\n"
      "  2 \"arm\": 4 bodies, nq 9, nv 8, mass 4 kg\n"
      "tree (body [instance]: mass; inboard joint):\n"
      "  world\n"
      "    ball [arm]: 0.5 kg; quaternion_floating \"$world_ball\", q 0..6, v 0..5\n"
      "    base [arm]: 1 kg; weld \"base_weld\"\n"
      "      upper [arm]: 2 kg; revolute \"shoulder\", q 7, v 6\n"
      "        tip [arm]: 0.5 kg; prismatic \"slide\", q 8, v 7\n";
  /* siblings by name (ball before base); q and v as the plant numbers them */
  ck_assert_str_eq(text, want);
  /* the printed form is the same text */
  char *printed = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&printed, &n);
  ck_assert_int_eq(teal_plant_print_summary(p, f, &err), TEAL_OK);
  fclose(f);
  ck_assert_str_eq(printed, text);
  free(printed);
  teal_free(text);
  teal_plant_free(p);
}
END_TEST

START_TEST(long_chain_caps_the_indent) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  teal_vec3 x = teal_vec3_make(1, 0, 0);
  int parent = TEAL_WORLD_FRAME;
  for (int i = 0; i < 40; i++) {
    char name[32];
    snprintf(name, sizeof name, "b%d", i);
    int b = teal_plant_add_rigid_body(p, name, 1, &M);
    snprintf(name, sizeof name, "j%d", i);
    ck_assert_int_ge(teal_plant_add_joint(p, name, TEAL_JOINT_REVOLUTE, parent,
                                          teal_plant_body_frame(p, b), &x, 0.0),
                     0);
    parent = teal_plant_body_frame(p, b);
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  char *text = teal_plant_summary_string(p, NULL);
  ck_assert_ptr_nonnull(text);
  char want[256];
  snprintf(want, sizeof want,
           "\n%*sb31 [DefaultModelInstance]: 1 kg; revolute \"j31\", q 31, v 31\n", 2 + 2 * 32, "");
  ck_assert_msg(strstr(text, want) != NULL, "no '%s' in:\n%s", want, text);
  snprintf(want, sizeof want, "\n%*sb39 (depth 40) [DefaultModelInstance]: 1 kg; ", 2 + 2 * 32, "");
  ck_assert_msg(strstr(text, want) != NULL, "no '%s' in:\n%s", want, text);
  teal_free(text);
  teal_plant_free(p);
}
END_TEST

START_TEST(bad_calls) {
  teal_error err;
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_plant_summary_string(NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "NULL plant"));
  teal_plant *p = make_arm();
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  TS_EXPECT_ERROR(teal_plant_print_summary(p, NULL, &err), TEAL_EINVAL, &err, "NULL out");
  TS_EXPECT_ERROR(teal_plant_print_summary(NULL, stdout, &err), TEAL_EINVAL, &err, "NULL plant");
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("plant_summary");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, known_model_text);
  tcase_add_test(tc, long_chain_caps_the_indent);
  tcase_add_test(tc, bad_calls);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
