/* The plant's topology as dot text (multibody/tree/plant_graphviz.h): the
 * clusters, nodes, edges and welded groups of a known two-instance model
 * before and after finalize, escaping of names, dot's acceptance of the
 * text when graphviz is installed (skipped otherwise), a NULL plant and an
 * allocation failure swept over every allocation. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "framework/alloc.h"
#include "multibody/tree/plant_graphviz.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

/* robot: base welded to the world, link1 on a hinge from base, link2 welded
 * to link1; 'tool "x"': a gripper without a joint (free after finalize). */
static teal_plant *make_plant(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int robot = teal_plant_add_model_instance(p, "robot");
  int tool = teal_plant_add_model_instance(p, "tool \"x\"");
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int base = teal_plant_add_rigid_body(p, "base", robot, &M);
  int l1 = teal_plant_add_rigid_body(p, "link1", robot, &M);
  int l2 = teal_plant_add_rigid_body(p, "link2", robot, &M);
  int g = teal_plant_add_rigid_body(p, "gripper", tool, &M);
  ck_assert_int_eq(base, 1);
  ck_assert_int_eq(g, 4);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  ts_mb_connect(p, "weld_base", TEAL_JOINT_WELD, TEAL_WORLD_BODY, base, NULL);
  ts_mb_connect(p, "hinge", TEAL_JOINT_REVOLUTE, base, l1, &z);
  ts_mb_connect(p, "weld_tip", TEAL_JOINT_WELD, l1, l2, NULL);
  return p;
}

static int count(const char *s, const char *needle) {
  int n = 0;
  for (const char *c = strstr(s, needle); c; c = strstr(c + 1, needle)) {
    n++;
  }
  return n;
}

static void expect_has(const char *dot, const char *needle) {
  ck_assert_msg(strstr(dot, needle) != NULL, "missing '%s' in:\n%s", needle, dot);
}

START_TEST(test_structure) {
  teal_plant *p = make_plant();
  for (int finalized = 0; finalized < 2; finalized++) {
    if (finalized) {
      ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
    }
    char *dot = teal_plant_topology_graphviz_string(p, NULL);
    ck_assert_ptr_nonnull(dot);
    ck_assert_int_eq(strncmp(dot, "digraph \"plant topology\" {\n", 27), 0);
    ck_assert_int_eq(count(dot, "subgraph cluster_instance"), 4);
    expect_has(dot, "label=\"tool \\\"x\\\"\";");
    expect_has(dot, "label=\"robot\";");
    /* world and base form welded group 0, link1 and link2 group 2 */
    expect_has(dot, "body0 [shape=box, label=\"world\\nwelded group 0\"];");
    expect_has(dot, "body1 [shape=box, label=\"base\\nwelded group 0\"];");
    expect_has(dot, "body2 [shape=box, label=\"link1\\nwelded group 2\"];");
    expect_has(dot, "body3 [shape=box, label=\"link2\\nwelded group 2\"];");
    expect_has(dot, "body4 [shape=box, label=\"gripper\"];");
    expect_has(dot, "body0 -> body1 [label=\"weld_base\\n(weld)\", style=bold];");
    expect_has(dot, "body1 -> body2 [label=\"hinge\\n(revolute)\"];");
    expect_has(dot, "body2 -> body3 [label=\"weld_tip\\n(weld)\", style=bold];");
    /* the gripper sits in the tool's cluster: after its label, before its end */
    const char *label = strstr(dot, "tool \\\"x\\\""), *node = strstr(dot, "body4 [shape");
    ck_assert(label && node && label < node && node < strstr(label, "\n  }\n"));
    ck_assert_int_eq(count(dot, "->"), 3 + finalized);
    if (finalized) {
      expect_has(dot, "body0 -> body4 [label=\"$world_gripper\\n(quaternion_floating)\"];");
    }
    ck_assert_int_eq(dot[strlen(dot) - 2], '}');
    teal_free(dot);
  }
  teal_plant_free(p);
}
END_TEST

/* dot parses the text (skipped when graphviz is not installed). */
START_TEST(test_dot_accepts) {
  if (system("command -v dot >/dev/null 2>&1") != 0) {
    return; /* no graphviz: nothing to check against */
  }
  teal_plant *p = make_plant();
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  char *dot = teal_plant_topology_graphviz_string(p, NULL);
  char path[] = "/tmp/teal_topology_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "w");
  ck_assert_int_ge(fputs(dot, f), 0);
  fclose(f);
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "dot -Tsvg %s -o /dev/null", path);
  ck_assert_int_eq(system(cmd), 0);
  remove(path);
  teal_free(dot);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_errors) {
  teal_error err;
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_plant_topology_graphviz_string(NULL, &err));
  ts_expect_error_at(__FILE__, __LINE__, TEAL_EINVAL, TEAL_EINVAL, &err, "NULL plant");
  teal_plant *p = make_plant();
  ts_alloc_install();
  int failures = 0;
  for (long k = 0; k < 1000; k++) {
    ts_alloc_reset();
    ts_alloc_fail_after(k, 0);
    ts_stale_error(&err);
    char *dot = teal_plant_topology_graphviz_string(p, &err);
    if (dot) {
      teal_free(dot);
      break;
    }
    failures++;
    ts_expect_error_at(__FILE__, __LINE__, TEAL_ENOMEM, TEAL_ENOMEM, &err, "out of memory");
  }
  ts_alloc_uninstall();
  ck_assert_int_ge(failures, 2);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("plant_graphviz");
  TCase *tc = tcase_create("plant_graphviz");
  tcase_add_test(tc, test_structure);
  tcase_add_test(tc, test_dot_accepts);
  tcase_add_test(tc, test_errors);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
