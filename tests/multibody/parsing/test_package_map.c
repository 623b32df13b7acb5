/* Package maps (multibody/parsing/package_map.c): names added by hand, as
 * subfolders of search directories, and crawled from package.xml files (not
 * nested packages, hidden folders, symbolic links, or manifests declaring
 * entities); the resolution order; an unresolved URI names the URI and
 * every place searched; TEAL_PACKAGE_PATH and the options' map reach a URDF
 * collision mesh through the parser entry point. */
#define _XOPEN_SOURCE 700 /* mkdtemp, setenv, symlink */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "multibody/contact/plant_geometry.h"
#include "multibody/parsing/model_path.h"
#include "multibody/parsing/package_map.h"
#include "multibody/parsing/parser.h"
#include "support/error_messages.h"
#include "support/mb_urdf_fixtures.h"
#include "support/mesh_fixtures.h"
#include "support/test_support.h"

static char g_root[64];

static void at(char *out, size_t cap, const char *rel) {
  snprintf(out, cap, "%s/%s", g_root, rel);
}

static void make_dirs(const char *const *rels, int n) {
  char path[256];
  for (int i = 0; i < n; i++) {
    at(path, sizeof path, rels[i]);
    ck_assert_int_eq(mkdir(path, 0700), 0);
  }
}

static void write_text(const char *rel, const char *text) {
  char path[256];
  at(path, sizeof path, rel);
  ck_assert_int_eq(ts_write_bytes(path, text, strlen(text)), 0);
}

static void manifest(const char *dir, const char *name_element) {
  char rel[256], text[512];
  snprintf(rel, sizeof rel, "%s/package.xml", dir);
  snprintf(text, sizeof text,
           "<?xml version=\"1.0\"?>\n<package format=\"2\">\n  %s\n  <version>1.0.0</version>\n"
           "</package>\n",
           name_element);
  write_text(rel, text);
}

/* The tree: ws/src/one (alpha) with a nested package, ws/src/deep/two
 * (beta), ws/.hidden (hidden), ws/evil (declares an entity), ws/broken
 * (malformed), a link to ws/src under ws/link, and lib/gamma (a search
 * directory's package). */
static void make_tree(void) {
  strcpy(g_root, "/tmp/teal_packages_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(g_root));
  const char *dirs[] = {
      "ws",          "ws/src",          "ws/src/one", "ws/src/one/meshes", "ws/src/one/nested",
      "ws/src/deep", "ws/src/deep/two", "ws/.hidden", "ws/evil",           "ws/broken",
      "lib",         "lib/gamma"};
  make_dirs(dirs, (int)(sizeof(dirs) / sizeof(dirs[0])));
  manifest("ws/src/one", "<name>alpha</name>");
  manifest("ws/src/one/nested", "<name>nested</name>");
  manifest("ws/src/deep/two", "<name>\n    beta\n  </name>");
  manifest("ws/.hidden", "<name>hidden</name>");
  write_text("ws/evil/package.xml",
             "<!DOCTYPE package [<!ENTITY e \"evil\">]><package><name>&e;</name></package>");
  write_text("ws/broken/package.xml", "<package><name>broken</name>");
  char target[256], link[256];
  at(target, sizeof target, "ws/src");
  at(link, sizeof link, "ws/link");
  ck_assert_int_eq(symlink(target, link), 0);
  teal_mesh cube = ts_mesh_box(0.1, 0.1, 0.1);
  char mesh[256];
  at(mesh, sizeof mesh, "ws/src/one/meshes/cube.stl");
  ck_assert_int_eq(ts_mesh_write_stl_binary(mesh, &cube), 0);
  teal_mesh_release(&cube);
}

static void remove_tree(void) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_root);
  ck_assert_int_eq(system(cmd), 0);
}

START_TEST(crawl_finds_manifests) {
  make_tree();
  teal_package_map *map = teal_package_map_new(NULL);
  char ws[256], path[512];
  at(ws, sizeof ws, "ws");
  int added = -1;
  ck_assert_int_eq(teal_package_map_crawl(map, ws, &added, NULL), TEAL_OK);
  ck_assert_int_eq(added, 2);
  ck_assert_int_eq(teal_package_map_size(map), 2);
  at(path, sizeof path, "ws/src/one");
  ck_assert_str_eq(teal_package_map_get(map, "alpha"), path);
  at(path, sizeof path, "ws/src/deep/two");
  ck_assert_str_eq(teal_package_map_get(map, "beta"), path);
  const char *absent[] = {"nested", "hidden", "evil", "broken", "e"};
  for (int i = 0; i < 5; i++) {
    ck_assert_ptr_null(teal_package_map_get(map, absent[i]));
  }
  /* crawling again adds nothing */
  ck_assert_int_eq(teal_package_map_crawl(map, ws, &added, NULL), TEAL_OK);
  ck_assert_int_eq(added, 0);
  teal_package_map_free(map);
  remove_tree();
}
END_TEST

START_TEST(resolution_order_and_errors) {
  make_tree();
  teal_package_map *map = teal_package_map_new(NULL);
  char dir[256], lib[256], path[512], want[512];
  teal_error err;
  ts_stale_error(&err);
  at(lib, sizeof lib, "lib");
  setenv(TEAL_MODEL_PATH_ENV, lib, 1);
  /* TEAL_MODEL_PATH alone (no map) finds lib/gamma */
  ck_assert_int_eq(
      teal_package_map_resolve(NULL, "package://gamma/a.stl", NULL, path, sizeof path, &err),
      TEAL_OK);
  at(want, sizeof want, "lib/gamma/a.stl");
  ck_assert_str_eq(path, want);
  unsetenv(TEAL_MODEL_PATH_ENV);
  /* the map's search directory, then an explicit package over it */
  ck_assert_int_eq(teal_package_map_add_search_dir(map, lib, NULL), TEAL_OK);
  ck_assert_int_eq(
      teal_package_map_resolve(map, "model://gamma/x/y.obj", NULL, path, sizeof path, &err),
      TEAL_OK);
  at(want, sizeof want, "lib/gamma/x/y.obj");
  ck_assert_str_eq(path, want);
  at(dir, sizeof dir, "ws/src/deep/two");
  ck_assert_int_eq(teal_package_map_add(map, "gamma", dir, NULL), TEAL_OK);
  ck_assert_int_eq(
      teal_package_map_resolve(map, "package://gamma/a.stl", NULL, path, sizeof path, &err),
      TEAL_OK);
  snprintf(want, sizeof want, "%s/a.stl", dir);
  ck_assert_str_eq(path, want);
  /* unresolved: the URI and the places searched */
  TS_EXPECT_ERROR(
      teal_package_map_resolve(map, "package://nope/m.stl", "/base/dir", path, sizeof path, &err),
      TEAL_ENOTFOUND, &err, "package 'nope' of 'package://nope/m.stl' not found");
  ck_assert_ptr_nonnull(strstr(err.message, "the package map (1 packages; search dirs '"));
  ck_assert_ptr_nonnull(strstr(err.message, lib));
  ck_assert_ptr_nonnull(strstr(err.message, TEAL_MODEL_PATH_ENV "=(unset)"));
  ck_assert_ptr_nonnull(strstr(err.message, "/base/dir"));
  TS_EXPECT_ERROR(teal_package_map_resolve(map, "http://x/y", NULL, path, sizeof path, &err),
                  TEAL_EINVAL, &err, "not a package URI");
  /* "." and ".." would name the search directory itself or leave it */
  TS_EXPECT_ERROR(
      teal_package_map_resolve(map, "package://../gamma/a.stl", NULL, path, sizeof path, &err),
      TEAL_EINVAL, &err, "not a package URI");
  TS_EXPECT_ERROR(
      teal_package_map_resolve(map, "model://./lib/gamma/a.stl", NULL, path, sizeof path, &err),
      TEAL_EINVAL, &err, "not a package URI");
  TS_EXPECT_ERROR(teal_package_map_resolve(map, "package://gamma/a.stl", NULL, path, 8, &err),
                  TEAL_ESIZE, &err, "bytes");
  teal_package_map_free(map);
  remove_tree();
}
END_TEST

START_TEST(bad_arguments) {
  make_tree();
  teal_package_map *map = teal_package_map_new(NULL);
  teal_error err;
  ts_stale_error(&err);
  char dir[256], other[256], file[256];
  at(dir, sizeof dir, "lib");
  at(other, sizeof other, "ws");
  at(file, sizeof file, "ws/src/one/package.xml");
  ck_assert_int_eq(teal_package_map_add(map, "p", dir, &err), TEAL_OK);
  ck_assert_int_eq(teal_package_map_add(map, "p", dir, &err), TEAL_OK);
  TS_EXPECT_ERROR(teal_package_map_add(map, "p", other, &err), TEAL_EDUPLICATE, &err, "already at");
  TS_EXPECT_ERROR(teal_package_map_add(map, "a/b", dir, &err), TEAL_EINVAL, &err, "'/'");
  TS_EXPECT_ERROR(teal_package_map_add(map, "q", file, &err), TEAL_ENOTFOUND, &err,
                  "not a directory");
  TS_EXPECT_ERROR(teal_package_map_add(NULL, "q", dir, &err), TEAL_EINVAL, &err, "NULL map");
  TS_EXPECT_ERROR(teal_package_map_add_search_dir(map, file, &err), TEAL_ENOTFOUND, &err,
                  "package.xml");
  TS_EXPECT_ERROR(teal_package_map_crawl(map, file, NULL, &err), TEAL_ENOTFOUND, &err,
                  "not a directory");
  TS_EXPECT_ERROR(teal_package_map_crawl(map, NULL, NULL, &err), TEAL_EINVAL, &err, "NULL");
  TS_EXPECT_ERROR(teal_package_map_populate_from_environment(map, NULL, &err), TEAL_EINVAL, &err,
                  "NULL");
  TS_EXPECT_ERROR(teal_package_map_resolve(map, NULL, NULL, dir, sizeof dir, &err), TEAL_EINVAL,
                  &err, "NULL uri");
  ck_assert_int_eq(teal_package_map_size(NULL), 0);
  ck_assert_ptr_null(teal_package_map_get(NULL, "p"));
  teal_package_map_free(map);
  teal_package_map_free(NULL);
  remove_tree();
}
END_TEST

#define MESHY_URDF                                                            \
  "<robot name=\"meshy\"><link name=\"a\">" MASS                              \
  "<collision><geometry><mesh filename=\"package://alpha/meshes/cube.stl\"/>" \
  "</geometry></collision></link></robot>"

START_TEST(parser_reaches_packages) {
  make_tree();
  char ws[256], env[600];
  at(ws, sizeof ws, "ws");
  snprintf(env, sizeof env, "/nonexistent:%s", ws);
  /* no map: TEAL_PACKAGE_PATH's roots */
  unsetenv(TEAL_PACKAGE_PATH_ENV);
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error err;
  TS_EXPECT_ERROR(
      teal_parser_add_models_string(p, MESHY_URDF, "urdf", NULL, NULL, 0, NULL, NULL, &err),
      TEAL_ENOTFOUND, &err, "package://alpha/meshes/cube.stl");
  setenv(TEAL_PACKAGE_PATH_ENV, env, 1);
  teal_parser_report report;
  ck_assert_int_eq(
      teal_parser_add_models_string(p, MESHY_URDF, "urdf", NULL, NULL, 0, NULL, &report, &err),
      TEAL_OK);
  ck_assert_int_eq(report.mesh_collisions, 1);
  ck_assert_int_eq(teal_plant_num_collision_geometries(p), 1);
  unsetenv(TEAL_PACKAGE_PATH_ENV);
  teal_plant_free(p);
  /* an explicit map in the options */
  teal_package_map *map = teal_package_map_new(NULL);
  ck_assert_int_eq(teal_package_map_populate_from_environment(map, "TEAL_TEST_NO_SUCH_VAR", NULL),
                   TEAL_OK);
  ck_assert_int_eq(teal_package_map_size(map), 0);
  ck_assert_int_eq(teal_package_map_crawl(map, ws, NULL, NULL), TEAL_OK);
  teal_parser_options o;
  teal_parser_options_init(&o);
  o.packages = map;
  p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(
      teal_parser_add_models_string(p, MESHY_URDF, "urdf", &o, NULL, 0, NULL, NULL, &err), TEAL_OK);
  teal_plant_free(p);
  teal_package_map_free(map);
  remove_tree();
}
END_TEST

int main(void) {
  Suite *s = suite_create("package_map");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, crawl_finds_manifests);
  tcase_add_test(tc, resolution_order_and_errors);
  tcase_add_test(tc, bad_arguments);
  tcase_add_test(tc, parser_reaches_packages);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
