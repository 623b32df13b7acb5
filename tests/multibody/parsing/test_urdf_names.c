/* Name lookups of the URDF loader (multibody/parsing/urdf_names.c and the
 * name checks of urdf_claims.c): hash tables find the links and joints a
 * model names, and a duplicate, however many there are, is reported as the
 * sorted check reported it: the first duplicate in name order, at its later
 * element, with the line of the earlier one for frames and geometries. The
 * table itself is checked against a linear search on names that share
 * their hash slots. */
#define _POSIX_C_SOURCE 200809L /* rand_r */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multibody/parsing/urdf_internal.h"
#include "support/error_messages.h"
#include "support/mb_urdf_fixtures.h"
#include "support/test_support.h"

/* Loads xml, which must fail with code and a message containing needle;
 * the plant is left as it was (no instance, no error). */
static void expect_failure(const char *xml, int code, const char *needle) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error err = {TEAL_OK, ""};
  TS_EXPECT_ERROR(teal_urdf_load_string(p, xml, NULL, &err), code, &err, needle);
  ck_assert_int_eq(teal_plant_num_model_instances(p), 2);
  ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
  teal_plant_free(p);
}

/* clang-format off */
START_TEST(duplicates_in_name_order) {
  static const char links[] = "<robot name=\"r\">\n" XLINK("b") "\n" XLINK("c") "\n" XLINK("b")
      "\n" XLINK("a") "\n" XLINK("c") "\n" XLINK("a") "\n</robot>";
  expect_failure(links, TEAL_EDUPLICATE, "<string>:7: <link name=\"a\">: duplicate link name 'a'");
  static const char joints[] = "<robot name=\"r\">" XLINK("x") XLINK("y")
      "\n" XJOINT("k", "fixed", "world", "x", "")
      "\n" XJOINT("j", "fixed", "world", "y", "")
      "\n" XJOINT("k", "fixed", "x", "y", "")
      "\n" XJOINT("j", "fixed", "y", "x", "") "</robot>";
  expect_failure(joints, TEAL_EDUPLICATE,
                 "<string>:5: <joint name=\"j\">: duplicate joint name 'j'");
  /* frames: two names twice */
  static const char frames[] = "<robot name=\"r\">" XLINK("a")
      "\n<frame name=\"f2\" link=\"a\"/>\n<frame name=\"f1\" link=\"a\"/>"
      "\n<frame name=\"f2\" link=\"a\"/>\n<frame name=\"f1\" link=\"a\"/></robot>";
  expect_failure(frames, TEAL_EDUPLICATE,
                 "<string>:5: <frame name=\"f1\">: frame name 'f1' is used twice (also line 3)");
}
/* clang-format on */
END_TEST

/* A name the plant's world already has. */
START_TEST(clash_with_the_world) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error err = {TEAL_OK, ""};
  ck_assert_int_ge(teal_plant_add_frame(p, "r::b", TEAL_WORLD_FRAME, teal_transform_identity()), 0);
  static const char xml[] = "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\"/>\n</robot>";
  TS_EXPECT_ERROR(
      teal_urdf_load_string(p, xml, NULL, &err), TEAL_EDUPLICATE, &err,
      "<string>:3: <link name=\"b\">: frame 'r::b' already exists on the plant's world");
  ck_assert_int_eq(teal_plant_num_model_instances(p), 2);
  teal_plant_free(p);
}
END_TEST

/* 3000 links with random names, a chain through them in shuffled order:
 * every name resolves to its link; one missing name is reported. */
START_TEST(many_names_resolve) {
  enum { N = 3000 };
  unsigned seed = 7u;
  char(*names)[16] = malloc(sizeof(char[16]) * N);
  char *xml = malloc((size_t)N * 400 + 200);
  ck_assert_ptr_nonnull(names);
  ck_assert_ptr_nonnull(xml);
  size_t len = (size_t)sprintf(xml, "<robot name=\"r\">");
  for (int i = 0; i < N; i++) {
    snprintf(names[i], sizeof(names[i]), "n%x_%d", (unsigned)rand_r(&seed), i);
    len += (size_t)sprintf(xml + len, XLINK("%s"), names[i]);
  }
  for (int i = N - 1; i >= 0; i--) {
    len += (size_t)sprintf(xml + len, XJOINT("j%d", "revolute", "%s", "%s", ""), i,
                           i ? names[i - 1] : "world", names[i]);
  }
  sprintf(xml + len, "</robot>");
  teal_plant *p = ts_urdf_load_xml(xml, NULL, 1);
  int inst = teal_plant_get_model_instance_by_name(p, "r", NULL);
  char jname[16];
  for (int i = 1; i < N; i++) {
    snprintf(jname, sizeof(jname), "j%d", i);
    int j = teal_plant_get_joint_by_name(p, jname, inst, NULL);
    ck_assert_int_ge(j, 0);
    ck_assert_int_eq(teal_plant_joint_parent_body(p, j),
                     teal_plant_get_body_by_name(p, names[i - 1], inst, NULL));
    ck_assert_int_eq(teal_plant_joint_child_body(p, j),
                     teal_plant_get_body_by_name(p, names[i], inst, NULL));
  }
  teal_plant_free(p);
  char *j0 = strstr(xml, names[0]);
  j0[0] = 'X'; /* the first link renamed: the joints naming it fail */
  expect_failure(xml, TEAL_ENOTFOUND, "not found");
  free(xml);
  free(names);
}
END_TEST

static int same_bucket(const void *ctx, int entry) {
  return entry == *(const int *)ctx;
}

/* Entries that all hash alike: each is found by probing past the others. */
START_TEST(table_with_colliding_hashes) {
  teal_error err = {TEAL_OK, ""};
  teal_urdf_report report;
  urdf_model m;
  memset(&m, 0, sizeof(m));
  m.source = "<string>";
  m.err = &err;
  m.report = &report;
  urdf_table t;
  ck_assert_int_eq(urdf_table_init(&m, &t, 100), TEAL_OK);
  for (int i = 0; i < 100; i++) {
    int *slot = urdf_table_slot(&t, 42, same_bucket, &i);
    ck_assert_int_eq(*slot, -1);
    *slot = i;
  }
  for (int i = 0; i < 100; i++) {
    ck_assert_int_eq(*urdf_table_slot(&t, 42, same_bucket, &i), i);
  }
  int absent = 100;
  ck_assert_int_eq(*urdf_table_slot(&t, 42, same_bucket, &absent), -1);
  ck_assert_uint_ne(urdf_hash("ab", URDF_HASH_SEED), urdf_hash("ba", URDF_HASH_SEED));
  urdf_table_free(&t);
}
END_TEST

int main(void) {
  Suite *s = suite_create("urdf_names");
  TCase *tc = tcase_create("urdf_names");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, duplicates_in_name_order);
  tcase_add_test(tc, clash_with_the_world);
  tcase_add_test(tc, many_names_resolve);
  tcase_add_test(tc, table_with_colliding_hashes);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
