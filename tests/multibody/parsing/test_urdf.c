/* The URDF loader's entry points (multibody/parsing/urdf.h): files
 * (unreadable, relative mesh paths), argument and plant-state checks,
 * malformed XML, entity expansion, and out-of-memory injection at every
 * allocation of a load. The fuzz tests live in test_urdf_fuzz.c. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "multibody/tree/topology.h"
#include "support/mb_urdf_fixtures.h"
#include "support/test_support.h"
#include "urdf_models.h"

#define R(body) "<robot name=\"r\">" body "</robot>"

START_TEST(malformed_xml) {
  static const struct {
    const char *xml;
    const char *expect;
  } cases[] = {
      {"<robot name=\"r\">\n<link name=\"a\">\n</robot>", "<string>:3: malformed XML: "},
      {"", "<string>:"},
      {"<robot name=\"r\"", "malformed XML"},
      {"not xml at all", "malformed XML"},
      {"<robot name=\"r\"></robot>trailing", "malformed XML"},
      {"<robot name=\"r\" name=\"s\"></robot>", "malformed XML"},
      {"<robot name=\"r\">\n\n\n<link name=\"a\"><&/link></robot>", "<string>:4: malformed XML"},
      {"<robot name=\"r\">\n<link name=\"\xff\xfe\"/></robot>", "<string>:2: malformed XML"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    teal_plant *p = teal_plant_new(0.0, NULL);
    teal_error e = {0, ""};
    ck_assert_int_eq(teal_urdf_load_string(p, cases[i].xml, NULL, &e), TEAL_EPARSE);
    ck_assert_msg(strstr(e.message, cases[i].expect), "case %zu: %s", i, e.message);
    ck_assert_msg(!strchr(e.message, '\n'), "case %zu: not one line: %s", i, e.message);
    ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
    teal_plant_free(p);
  }
}
END_TEST

/* Entity expansion is not performed: a "billion laughs" document either
 * fails to parse or parses without expanding, and quickly. */
START_TEST(entity_bomb_is_harmless) {
  static const char *xml =
      "<?xml version=\"1.0\"?><!DOCTYPE robot ["
      "<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">"
      "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">"
      "<!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\"><!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\">"
      "<!ENTITY f \"&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;\"><!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\">"
      "<!ENTITY h \"&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;\"><!ENTITY i \"&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;\">"
      "]><robot name=\"r\"><transmission name=\"t\"><type>&i;</type><joint name=\"j\"/>"
      "</transmission><link name=\"&i;\"/></robot>";
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {0, ""};
  int rc = teal_urdf_load_string(p, xml, NULL, &e);
  ck_assert_int_lt(rc, 0);
  ck_assert_int_ne(e.message[0], '\0');
  teal_plant_free(p);
}
END_TEST

/* Writes text to dir/name; returns the path in buf. */
static const char *write_file(const char *dir, const char *name, const char *text, char *buf,
                              size_t size) {
  snprintf(buf, size, "%s/%s", dir, name);
  FILE *f = fopen(buf, "wb");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
  return buf;
}

START_TEST(files) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {0, ""};
  ck_assert_int_eq(teal_urdf_load_file(p, "/nonexistent/dir/x.urdf", NULL, &e), TEAL_EIO);
  ck_assert_ptr_nonnull(strstr(e.message, "/nonexistent/dir/x.urdf: cannot open"));
  char dir[] = "/tmp/teal_urdf_XXXXXX", bad[512], good[512];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  write_file(dir, "acrobot.urdf",
             "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n" XLINK("a") "\n" XLINK("b")
             "\n<joint name=\"elbow\" type=\"revolve\">\n<parent link=\"a\"/><child link=\"b\"/>"
             "</joint>\n</robot>\n",
             bad, sizeof(bad));
  ck_assert_int_eq(teal_urdf_load_file(p, bad, NULL, &e), TEAL_EPARSE);
  ck_assert_str_eq(e.message,
                   "acrobot.urdf:5: <joint name=\"elbow\">: unknown joint type 'revolve'");
  write_file(dir, "meshy.urdf",
             "<robot name=\"meshy\"><link name=\"a\">" MASS
             "<visual><geometry><mesh filename=\"meshes/a.obj\"/></geometry></visual>"
             "<visual><geometry><mesh filename=\"file:///abs/b.obj\"/></geometry></visual>"
             "</link></robot>",
             good, sizeof(good));
  ck_assert_int_ge(teal_urdf_load_file(p, good, NULL, &e), 2);
  char expect[600];
  snprintf(expect, sizeof(expect), "%s/meshes/a.obj", dir);
  ck_assert_str_eq(ts_urdf_geometry_named(p, "a_visual_0")->shape.filename, expect);
  ck_assert_str_eq(ts_urdf_geometry_named(p, "a_visual_1")->shape.filename, "/abs/b.obj");
  /* an unresolved package URI is an error naming it */
  write_file(dir, "pkgy.urdf",
             "<robot name=\"pkgy\"><link name=\"a\">" MASS
             "<visual><geometry><mesh filename=\"package://nopkg/c.obj\"/></geometry></visual>"
             "</link></robot>",
             bad, sizeof(bad));
  ck_assert_int_eq(teal_urdf_load_file(p, bad, NULL, &e), TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(e.message, "pkgy.urdf:1: <mesh>: "));
  ck_assert_ptr_nonnull(strstr(e.message, "package 'nopkg' of 'package://nopkg/c.obj'"));
  remove(bad);
  remove(good);
  rmdir(dir);
  teal_plant_free(p);
}
END_TEST

START_TEST(bad_arguments_and_plant_state) {
  teal_error e = {0, ""};
  static const char *xml = R(XLINK("a"));
  ck_assert_int_eq(teal_urdf_load_string(NULL, xml, NULL, &e), TEAL_EINVAL);
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_urdf_load_string(p, NULL, NULL, &e), TEAL_EINVAL);
  ck_assert_int_eq(teal_urdf_load_file(p, NULL, NULL, &e), TEAL_EINVAL);
  ck_assert_int_eq(teal_urdf_load_string(p, xml, "", &e), TEAL_EINVAL);
  ck_assert_int_eq(teal_urdf_load_string(p, "<robot", NULL, NULL), TEAL_EPARSE); /* err NULL */
  ck_assert_int_eq(teal_urdf_load_string(p, xml, "renamed", &e), 2);
  ck_assert_int_ge(teal_plant_get_body_by_name(p, "a", 2, NULL), 1);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_urdf_load_string(p, xml, "again", &e), TEAL_ESTATE);
  ck_assert_ptr_nonnull(strstr(e.message, "finalized"));
  teal_plant_free(p);
  /* a plant with a sticky error reports it */
  p = teal_plant_new(0.0, NULL);
  ck_assert_int_lt(teal_plant_add_model_instance(p, "WorldModelInstance"), 0);
  ck_assert_int_eq(teal_urdf_load_string(p, xml, NULL, &e), TEAL_EDUPLICATE);
  ck_assert_ptr_nonnull(strstr(e.message, "already failed"));
  teal_plant_free(p);
}
END_TEST

/* Failing the k-th allocation of a load, for every k, gives a clean error
 * (or success when the failure hits nothing essential) and no leak. */
START_TEST(out_of_memory_at_every_allocation) {
  char path[2048];
  size_t len;
  char *xml = urdf_test_read(urdf_test_model_path("iiwa7_like.urdf", path, sizeof(path)), &len);
  ck_assert_ptr_nonnull(xml);
  ts_alloc_install();
  teal_plant *p = teal_plant_new(0.0, NULL);
  unsigned long before = ts_alloc_allocs();
  ck_assert_int_ge(teal_urdf_load_string(p, xml, NULL, NULL), 2);
  unsigned long needed = ts_alloc_allocs() - before;
  teal_plant_free(p);
  for (unsigned long k = 0; k <= needed; k++) {
    p = teal_plant_new(0.0, NULL);
    ck_assert_ptr_nonnull(p);
    teal_error e = {0, ""};
    ts_alloc_fail_after((long)k, 0);
    int rc = teal_urdf_load_string(p, xml, NULL, &e);
    ts_alloc_fail_after(-1, 0);
    ck_assert_msg(rc >= 2 || (rc < 0 && e.message[0]), "k = %lu: rc %d", k, rc);
    if (rc < 0) {
      ck_assert_int_eq(rc, TEAL_ENOMEM);
    }
    teal_plant_finalize(p);
    teal_plant_free(p);
    ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  }
  ts_alloc_uninstall();
  free(xml);
}
END_TEST

int main(void) {
  Suite *s = suite_create("urdf");
  TCase *tc = tcase_create("urdf");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, malformed_xml);
  tcase_add_test(tc, entity_bomb_is_harmless);
  tcase_add_test(tc, files);
  tcase_add_test(tc, bad_arguments_and_plant_state);
  tcase_add_test(tc, out_of_memory_at_every_allocation);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
