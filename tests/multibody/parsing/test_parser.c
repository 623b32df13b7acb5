/* The model parser entry point (multibody/parsing/parser.c): the format
 * comes from the extension (any case), else from the root element (past a
 * declaration, comments and a document type), or is named; one instance per
 * model with its index returned; the search path finds installed models;
 * unknown formats, unreadable files and bad documents fail with messages
 * naming them and leave the plant exactly as it was. */
#define _XOPEN_SOURCE 700 /* mkdtemp, setenv */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "multibody/contact/plant_geometry.h"
#include "multibody/parsing/parser.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_urdf_fixtures.h"
#include "support/mesh_fixtures.h"
#include "support/test_support.h"

#define ARM                                                                                    \
  "<robot name=\"arm\">" XLINK("base")                                                         \
      XLINK("upper") "<link name=\"tip\">" MASS                                                \
                     "<collision><geometry><sphere radius=\"0.1\"/></geometry>"                \
                     "</collision></link>" XJOINT("shoulder", "revolute", "base", "upper", "") \
                         XJOINT("elbow", "continuous", "upper", "tip", "") "</robot>"

static char g_dir[64];

static void make_dir(void) {
  strcpy(g_dir, "/tmp/teal_parser_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(g_dir));
}

/* Writes text to g_dir/name and its path into path. */
static void write_model(const char *name, const char *text, char *path, size_t cap) {
  snprintf(path, cap, "%s/%s", g_dir, name);
  ck_assert_int_eq(ts_write_bytes(path, text, strlen(text)), 0);
}

/* What a failed load must leave as it was. */
typedef struct plant_counts {
  int instances, bodies, joints, frames, geometries, actuators;
} plant_counts;

static plant_counts counts_of(const teal_plant *p) {
  plant_counts c = {teal_plant_num_model_instances(p), teal_plant_num_bodies(p),
                    teal_plant_num_joints(p),          teal_plant_num_frames(p),
                    teal_plant_num_geometries(p),      teal_plant_num_actuators(p)};
  return c;
}

static void expect_counts(const teal_plant *p, plant_counts want) {
  plant_counts got = counts_of(p);
  ck_assert_mem_eq(&got, &want, sizeof(got));
  ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
}

/* Loads the file at path into a fresh plant: one instance named "arm". */
static void expect_arm_loads(const char *path) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int inst[2] = {-1, -1}, count = -1;
  teal_error err;
  ck_assert_int_eq(teal_parser_add_models(p, path, NULL, inst, 2, &count, NULL, &err), TEAL_OK);
  ck_assert_int_eq(count, 1);
  ck_assert_int_eq(inst[0], teal_plant_get_model_instance_by_name(p, "arm", NULL));
  ck_assert_int_eq(inst[1], -1);
  ck_assert_int_eq(teal_plant_num_bodies(p), 4);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_plant_free(p);
}

START_TEST(format_by_extension_and_root_element) {
  make_dir();
  char path[128];
  const char *names[] = {"arm.urdf", "arm.URDF", "arm.xml", "arm"};
  for (int i = 0; i < 4; i++) {
    write_model(names[i], ARM, path, sizeof path);
    const teal_parser_format *f = teal_parser_format_of_file(path, NULL);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->name, "urdf");
    expect_arm_loads(path);
    unlink(path);
  }
  /* the root element past a declaration, comments and a document type */
  write_model("decorated.xml",
              "\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- <mujoco> in a comment -->\n"
              "<!DOCTYPE robot [ <!-- <sdf> --> ]>\n<?pi <sdf>?>" ARM,
              path, sizeof path);
  ck_assert_str_eq(teal_parser_format_of_file(path, NULL)->name, "urdf");
  unlink(path);
  rmdir(g_dir);
}
END_TEST

START_TEST(string_form_named_or_by_root) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int inst = -1, count = 0;
  teal_parser_options o;
  teal_parser_options_init(&o);
  o.instance_name = "left";
  ck_assert_int_eq(teal_parser_add_models_string(p, ARM, "urdf", &o, &inst, 1, &count, NULL, NULL),
                   TEAL_OK);
  ck_assert_int_eq(count, 1);
  ck_assert_int_eq(inst, teal_plant_get_model_instance_by_name(p, "left", NULL));
  o.instance_name = "right";
  ck_assert_int_eq(teal_parser_add_models_string(p, ARM, NULL, &o, NULL, 0, &count, NULL, NULL),
                   TEAL_OK);
  ck_assert_int_eq(count, 1);
  ck_assert_int_ge(teal_plant_get_model_instance_by_name(p, "right", NULL), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_plant_free(p);
}
END_TEST

START_TEST(search_path_finds_installed_models) {
  setenv("TEAL_MODEL_PATH", TEAL_MODELS_DIR, 1);
  teal_plant *p = teal_plant_new(0.0, NULL);
  int count = 0;
  teal_parser_report report;
  teal_error err;
  ck_assert_msg(
      teal_parser_add_models(p, "acrobot.urdf", NULL, NULL, 0, &count, &report, &err) == TEAL_OK,
      "%s", err.message);
  ck_assert_int_eq(count, 1);
  ck_assert_int_eq(report.num_warnings, 0);
  teal_plant_free(p);
}
END_TEST

START_TEST(failures_leave_the_plant_as_it_was) {
  make_dir();
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_parser_add_models_string(p, ARM, "urdf", NULL, NULL, 0, NULL, NULL, NULL),
                   TEAL_OK);
  plant_counts before = counts_of(p);
  teal_error err;
  ts_stale_error(&err);
  char path[128];
  int count = 7, inst = -1;
  /* a bad document: the loader's message names file, line and element */
  write_model("bad.urdf", "<robot name=\"b\">\n" XLINK("a") XLINK("b") "\n"
                          "<joint name=\"j\" type=\"revolve\"><parent link=\"a\"/>"
                          "<child link=\"b\"/></joint></robot>",
              path, sizeof path);
  TS_EXPECT_ERROR(teal_parser_add_models(p, path, NULL, &inst, 1, &count, NULL, &err), TEAL_EPARSE,
                  &err, "bad.urdf:3: <joint name=\"j\">");
  ck_assert_int_eq(count, 0);
  ck_assert_int_eq(inst, -1);
  expect_counts(p, before);
  unlink(path);
  /* no format matches: the extension, the root and the formats known */
  write_model("thing.xml", "<?xml version=\"1.0\"?><scene/>", path, sizeof path);
  TS_EXPECT_ERROR(teal_parser_add_models(p, path, NULL, NULL, 0, &count, NULL, &err),
                  TEAL_EUNSUPPORTED, &err, "extension '.xml', root element <scene>");
  ck_assert_ptr_nonnull(strstr(err.message, "urdf (.urdf, <robot>)"));
  expect_counts(p, before);
  unlink(path);
  snprintf(path, sizeof path, "%s/missing.urdf", g_dir);
  TS_EXPECT_ERROR(teal_parser_add_models(p, path, NULL, NULL, 0, &count, NULL, &err), TEAL_EIO,
                  &err, "missing.urdf");
  teal_parser_options o;
  teal_parser_options_init(&o);
  o.format = "nosuch";
  TS_EXPECT_ERROR(teal_parser_add_models_string(p, ARM, "nosuch", NULL, NULL, 0, NULL, NULL, &err),
                  TEAL_EUNSUPPORTED, &err, "'nosuch'");
  TS_EXPECT_ERROR(
      teal_parser_add_models_string(p, "<world/>", NULL, NULL, NULL, 0, NULL, NULL, &err),
      TEAL_EUNSUPPORTED, &err, "<string>: unknown model format");
  o.format = NULL;
  o.max_bytes = 16;
  TS_EXPECT_ERROR(teal_parser_add_models_string(p, ARM, "urdf", &o, NULL, 0, NULL, NULL, &err),
                  TEAL_ESIZE, &err, "16 bytes");
  /* the same model again: its instance name is taken */
  TS_EXPECT_ERROR(teal_parser_add_models_string(p, ARM, "urdf", NULL, NULL, 0, NULL, NULL, &err),
                  TEAL_EDUPLICATE, &err, "arm");
  expect_counts(p, before);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_plant_free(p);
  rmdir(g_dir);
}
END_TEST

START_TEST(bad_arguments) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error err;
  ts_stale_error(&err);
  int inst;
  TS_EXPECT_ERROR(teal_parser_add_models(NULL, "a.urdf", NULL, NULL, 0, NULL, NULL, &err),
                  TEAL_EINVAL, &err, "plant");
  TS_EXPECT_ERROR(teal_parser_add_models(p, NULL, NULL, NULL, 0, NULL, NULL, &err), TEAL_EINVAL,
                  &err, "path");
  TS_EXPECT_ERROR(teal_parser_add_models(p, "a.urdf", NULL, NULL, 1, NULL, NULL, &err), TEAL_EINVAL,
                  &err, "instances_out");
  TS_EXPECT_ERROR(teal_parser_add_models_string(p, ARM, "urdf", NULL, &inst, -1, NULL, NULL, &err),
                  TEAL_EINVAL, &err, "cap -1");
  teal_parser_options o;
  teal_parser_options_init(&o);
  o.max_attributes = 0;
  TS_EXPECT_ERROR(teal_parser_add_models_string(p, ARM, "urdf", &o, NULL, 0, NULL, NULL, &err),
                  TEAL_EINVAL, &err, "max_attributes");
  ck_assert_ptr_null(teal_parser_format_of_file(NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  teal_parser_options_init(NULL);
  ck_assert_int_eq(teal_plant_num_model_instances(p), 2);
  teal_plant_free(p);
}
END_TEST

START_TEST(format_table_rows_are_complete) {
  int n = 0;
  const teal_parser_format *f = teal_parser_formats(&n);
  ck_assert_int_ge(n, 1);
  ck_assert_ptr_eq(teal_parser_formats(NULL), f);
  for (int i = 0; i < n; i++) {
    ck_assert(f[i].name && f[i].name[0]);
    ck_assert(f[i].extensions && f[i].extensions[0] == '.');
    ck_assert(f[i].root_element && f[i].root_element[0]);
    ck_assert(f[i].load != NULL);
  }
  ck_assert_str_eq(f[0].name, "urdf");
}
END_TEST

int main(void) {
  Suite *s = suite_create("parser");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, format_by_extension_and_root_element);
  tcase_add_test(tc, string_form_named_or_by_root);
  tcase_add_test(tc, search_path_finds_installed_models);
  tcase_add_test(tc, failures_leave_the_plant_as_it_was);
  tcase_add_test(tc, bad_arguments);
  tcase_add_test(tc, format_table_rows_are_complete);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
