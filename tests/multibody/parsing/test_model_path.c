/* The run-time model search path (multibody/parsing/model_path.c): the name
 * as given, then TEAL_MODEL_PATH's directories in order, then the installed
 * models; package URIs through the same path and the folders holding a
 * file; every failure names what was searched; a URDF loads by name from
 * the path. */
#define _POSIX_C_SOURCE 200809L /* setenv, mkdtemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "multibody/parsing/model_path.h"
#include "multibody/parsing/urdf.h"
#include "multibody/tree/plant_model.h"
#include "support/test_support.h"

static char tmp[256];

/* A fresh directory tree: tmp/a/x.urdf, tmp/b/x.urdf, tmp/b/y.urdf and the
 * package tmp/b/pkg/meshes. */
static void make_tree(void) {
  snprintf(tmp, sizeof tmp, "/tmp/teal_model_path_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(tmp));
  const char *dirs[] = {"a", "b", "b/pkg", "b/pkg/meshes", "c", "c/robot", "c/robot/urdf"};
  char path[512];
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
    snprintf(path, sizeof path, "%s/%s", tmp, dirs[i]);
    ck_assert_int_eq(mkdir(path, 0700), 0);
  }
  const char *files[] = {"a/x.urdf", "b/x.urdf", "b/y.urdf"};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    snprintf(path, sizeof path, "%s/%s", tmp, files[i]);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("<robot name=\"r\"/>\n", f);
    fclose(f);
  }
}

static void remove_tree(void) {
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  ck_assert_int_eq(system(cmd), 0);
}

static void set_model_path(const char *fmt) {
  char value[600];
  snprintf(value, sizeof value, fmt, tmp, tmp);
  ck_assert_int_eq(setenv(TEAL_MODEL_PATH_ENV, value, 1), 0);
}

START_TEST(search_path_order) {
  make_tree();
  char path[512], want[512];
  teal_error err;
  set_model_path("%s/a:%s/b");
  ck_assert_int_eq(teal_model_path_find("x.urdf", path, sizeof path, &err), TEAL_OK);
  snprintf(want, sizeof want, "%s/a/x.urdf", tmp);
  ck_assert_str_eq(path, want);
  ck_assert_int_eq(teal_model_path_find("y.urdf", path, sizeof path, &err), TEAL_OK);
  snprintf(want, sizeof want, "%s/b/y.urdf", tmp);
  ck_assert_str_eq(path, want);
  /* the order of the entries decides; empty entries are skipped */
  set_model_path("::%s/b::%s/a:");
  ck_assert_int_eq(teal_model_path_find("x.urdf", path, sizeof path, &err), TEAL_OK);
  snprintf(want, sizeof want, "%s/b/x.urdf", tmp);
  ck_assert_str_eq(path, want);
  /* a name that is a readable file wins over the path */
  snprintf(want, sizeof want, "%s/a/x.urdf", tmp);
  ck_assert_int_eq(teal_model_path_find(want, path, sizeof path, &err), TEAL_OK);
  ck_assert_str_eq(path, want);
  /* a directory is not a model */
  ck_assert_int_eq(teal_model_path_find("pkg", path, sizeof path, &err), TEAL_ENOTFOUND);
  unsetenv(TEAL_MODEL_PATH_ENV);
  remove_tree();
}
END_TEST

START_TEST(failures_name_what_was_searched) {
  make_tree();
  char path[512];
  teal_error err;
  set_model_path("%s/a");
  ck_assert_int_eq(teal_model_path_find("nowhere.urdf", path, sizeof path, &err), TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(err.message, "nowhere.urdf"));
  ck_assert_ptr_nonnull(strstr(err.message, tmp));
  ck_assert_ptr_nonnull(strstr(err.message, "share/teal/models"));
  unsetenv(TEAL_MODEL_PATH_ENV);
  ck_assert_int_eq(teal_model_path_find("nowhere.urdf", path, sizeof path, &err), TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(err.message, "TEAL_MODEL_PATH=(unset)"));
  /* an absolute name is not searched for */
  ck_assert_int_eq(teal_model_path_find("/no/such/x.urdf", path, sizeof path, &err),
                   TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_model_path_find(NULL, path, sizeof path, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_model_path_find("", path, sizeof path, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_model_path_find("x.urdf", NULL, 10, &err), TEAL_EINVAL);
  ck_assert_str_ne(err.message, "");
  /* a path that does not fit */
  set_model_path("%s/a");
  ck_assert_int_eq(teal_model_path_find("x.urdf", path, 8, &err), TEAL_ESIZE);
  ck_assert_int_eq(teal_model_path_installed_dir(path, 4, &err), TEAL_ESIZE);
  ck_assert_int_eq(teal_model_path_installed_dir(NULL, 4, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_model_path_installed_dir(path, sizeof path, &err), TEAL_OK);
  ck_assert_ptr_nonnull(strstr(path, "share/teal/models"));
  unsetenv(TEAL_MODEL_PATH_ENV);
  remove_tree();
}
END_TEST

START_TEST(package_uris) {
  make_tree();
  char path[512], want[512], base[512];
  teal_error err;
  set_model_path("%s/a:%s/b");
  ck_assert_int_eq(
      teal_model_path_resolve_package("package://pkg/meshes/m.stl", NULL, path, sizeof path, &err),
      TEAL_OK);
  snprintf(want, sizeof want, "%s/b/pkg/meshes/m.stl", tmp);
  ck_assert_str_eq(path, want);
  ck_assert_int_eq(
      teal_model_path_resolve_package("model://pkg/m.obj", NULL, path, sizeof path, &err), TEAL_OK);
  /* a package found from the folders holding the referring file */
  unsetenv(TEAL_MODEL_PATH_ENV);
  snprintf(base, sizeof base, "%s/c/robot/urdf/", tmp);
  ck_assert_int_eq(teal_model_path_resolve_package("package://robot/meshes/a.stl", base, path,
                                                   sizeof path, &err),
                   TEAL_OK);
  snprintf(want, sizeof want, "%s/c/robot/meshes/a.stl", tmp);
  ck_assert_str_eq(path, want);
  /* failures */
  ck_assert_int_eq(
      teal_model_path_resolve_package("package://none/a.stl", base, path, sizeof path, &err),
      TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(err.message, "package://none/a.stl"));
  ck_assert_ptr_nonnull(strstr(err.message, base));
  const char *bad[] = {"meshes/a.stl", "package://", "package://pkg", "package:///a.stl",
                       "package://pkg/"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    ck_assert_int_eq(teal_model_path_resolve_package(bad[i], NULL, path, sizeof path, &err),
                     TEAL_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.message, "package URI"));
  }
  ck_assert_int_eq(teal_model_path_resolve_package(NULL, NULL, path, sizeof path, &err),
                   TEAL_EINVAL);
  remove_tree();
}
END_TEST

/* teal_urdf_load_file finds a model by name through TEAL_MODEL_PATH, and a
 * name found nowhere fails with the places searched. */
START_TEST(urdf_loads_by_name) {
  ck_assert_int_eq(setenv(TEAL_MODEL_PATH_ENV, TEAL_MODELS_DIR, 1), 0);
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error err;
  ck_assert_int_ge(teal_urdf_load_file(p, "acrobot.urdf", NULL, &err), 0);
  ck_assert_int_eq(teal_plant_num_bodies(p), 3);
  ck_assert_int_eq(teal_urdf_load_file(p, "no_such_robot.urdf", NULL, &err), TEAL_EIO);
  ck_assert_ptr_nonnull(strstr(err.message, "no_such_robot.urdf"));
  ck_assert_ptr_nonnull(strstr(err.message, TEAL_MODELS_DIR));
  /* without the path, only an installed Teal holds it */
  unsetenv(TEAL_MODEL_PATH_ENV);
  char installed[512], path[600];
  teal_model_path_installed_dir(installed, sizeof installed, NULL);
  snprintf(path, sizeof path, "%s/acrobot.urdf", installed);
  if (access(path, R_OK) != 0) {
    ck_assert_int_eq(teal_urdf_load_file(p, "acrobot.urdf", "again", &err), TEAL_EIO);
  }
  teal_plant_free(p);
}
END_TEST

static teal_error g_mesh_err;

/* A URDF's package:// mesh resolves through the path; an unknown package
 * is an error that names it and the places searched. */
static int load_with_mesh(const char *uri, teal_urdf_report *report) {
  char path[600];
  snprintf(path, sizeof path, "%s/c/robot/urdf/r.urdf", tmp);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fprintf(f,
          "<robot name=\"r\"><link name=\"l\"><inertial><mass value=\"1\"/>"
          "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>"
          "</inertial><visual><geometry><mesh filename=\"%s\"/></geometry></visual>"
          "</link></robot>\n",
          uri);
  fclose(f);
  teal_plant *p = teal_plant_new(0.0, NULL);
  int rc = teal_urdf_load_file_ex(p, path, NULL, report, &g_mesh_err);
  teal_plant_free(p);
  return rc;
}

START_TEST(urdf_mesh_package_uris) {
  make_tree();
  teal_urdf_report report;
  set_model_path("%s/b");
  ck_assert_int_ge(load_with_mesh("package://pkg/meshes/m.stl", &report), 0);
  ck_assert_int_eq(report.num_warnings, 0);
  /* the package holding the file itself */
  ck_assert_int_ge(load_with_mesh("package://robot/meshes/m.stl", &report), 0);
  ck_assert_int_eq(report.num_warnings, 0);
  ck_assert_int_eq(load_with_mesh("package://nope/m.stl", &report), TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(g_mesh_err.message, "r.urdf:1: <mesh>: "));
  ck_assert_ptr_nonnull(strstr(g_mesh_err.message, "package://nope/m.stl"));
  ck_assert_ptr_nonnull(strstr(g_mesh_err.message, TEAL_MODEL_PATH_ENV));
  unsetenv(TEAL_MODEL_PATH_ENV);
  remove_tree();
}
END_TEST

static Suite *model_path_suite(void) {
  Suite *s = suite_create("model_path");
  TCase *tc = tcase_create("search");
  tcase_add_test(tc, search_path_order);
  tcase_add_test(tc, failures_name_what_was_searched);
  tcase_add_test(tc, package_uris);
  tcase_add_test(tc, urdf_loads_by_name);
  tcase_add_test(tc, urdf_mesh_package_uris);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(model_path_suite());
}
