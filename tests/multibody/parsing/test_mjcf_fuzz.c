/* Fuzz-style robustness of the MJCF parser, in the style of the URDF one:
 * the models in models/mjcf/ and an embedded seed using every element are
 * fed truncated (prefixes at a stride) and randomly mutated (byte flips,
 * deleted tags, swapped attribute values, huge / NaN / odd numbers,
 * duplicated lines) from fixed seeds; then deep nesting (bodies and
 * default classes, beyond libxml2's depth limit too) and missing files.
 * The embedded seed reads models/mjcf/meshes/ (TEAL_MODELS_DIR), so mutated
 * mesh names and paths exercise missing and unreadable mesh files. Each
 * load must return an instance or a negative status with a non-empty
 * message; a failed load leaves the plant's counts as they were and its
 * error record clear (nothing failed inside the plant); the plant is then
 * finalized (whatever the result) and freed, and every teal_alloc
 * must have been freed. Run it under ASan/UBSan (TEAL_SANITIZE) for memory
 * errors and leaks. TEAL_MJCF_FUZZ_TRIALS (per seed, default 1500) runs
 * longer campaigns. The work is bounded by counts, never by time. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multibody/contact/plant_geometry.h"
#include "multibody/parsing/mjcf.h"
#include "multibody/tree/topology.h"
#include "support/fuzz_fixtures.h"
#include "support/test_support.h"
#include "urdf_models.h"

static const char *const models[] = {
    "mjcf/acrobot.xml",       "mjcf/mixed_joints.xml", "mjcf/arm.xml",     "mjcf/full_inertia.xml",
    "mjcf/geared_motors.xml", "mjcf/armature.xml",     "mjcf/contype.xml", "mjcf/tendons.xml"};
#define NUM_MODELS ((int)(sizeof(models) / sizeof(models[0])))

/* Every element and attribute the parser reads, in one document. */
static const char *const seed_all =
    "<mujoco model=\"all\">\n"
    "  <compiler angle=\"radian\" eulerseq=\"XYZ\" autolimits=\"true\" boundmass=\"0.01\"\n"
    "            inertiafromgeom=\"auto\" meshdir=\"" TEAL_MODELS_DIR
    "/mjcf/meshes\"/>\n"
    "  <option timestep=\"0.005\" gravity=\"0 0 -9.8\" integrator=\"RK4\"/>\n"
    "  <asset><mesh name=\"m\" file=\"wedge.stl\" scale=\"2 2 2\"/><mesh file=\"slab.stl\"/>"
    "</asset>\n"
    "  <default>\n"
    "    <joint damping=\"0.1\" armature=\"0.01\"/>\n"
    "    <geom friction=\"0.8 0.01 0.001\" rgba=\"0.1 0.2 0.3 1\" condim=\"4\"/>\n"
    "    <motor ctrlrange=\"-1 1\"/>\n"
    "    <tendon stiffness=\"1\" damping=\"0.1\"/>\n"
    "    <default class=\"c\"><joint axis=\"0 1 0\" range=\"-1 1\"/>\n"
    "      <default class=\"d\"><geom type=\"capsule\" size=\"0.02 0.1\"/></default>\n"
    "    </default>\n"
    "  </default>\n"
    "  <worldbody>\n"
    "    <geom name=\"floor\" type=\"plane\" size=\"2 2 0.1\"/>\n"
    "    <light pos=\"0 0 3\"/>\n"
    "    <body name=\"base\" pos=\"0 0 1\" quat=\"1 0 0 0\">\n"
    "      <freejoint name=\"free\"/>\n"
    "      <geom type=\"box\" size=\"0.1 0.2 0.05\"/>\n"
    "      <site name=\"s0\" pos=\"0 0 0.1\" zaxis=\"1 0 0\"/>\n"
    "      <body name=\"l1\" childclass=\"c\" euler=\"0.1 0.2 0.3\">\n"
    "        <joint name=\"h1\"/><joint name=\"s1\" type=\"slide\" axis=\"1 0 0\"/>\n"
    "        <geom class=\"d\" fromto=\"0 0 0 0 0 -0.3\"/>\n"
    "        <geom type=\"ellipsoid\" size=\"0.03 0.02 0.01\" xyaxes=\"0 1 0 -1 0 0\"/>\n"
    "        <geom type=\"mesh\" mesh=\"m\"/>\n"
    "        <body name=\"l2\" pos=\"0 0 -0.3\" axisangle=\"0 0 1 0.5\">\n"
    "          <joint name=\"b2\" type=\"ball\" pos=\"0 0 0.01\"/>\n"
    "          <inertial pos=\"0 0 -0.1\" mass=\"0.5\" fullinertia=\"0.01 0.01 0.005 0 0 0\"/>\n"
    "          <geom type=\"cylinder\" size=\"0.02 0.1\" mass=\"0.2\"/>\n"
    "        </body>\n"
    "      </body>\n"
    "      <body name=\"empty\" pos=\"0.2 0 0\"><site name=\"s1\"/></body>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "  <contact><exclude body1=\"base\" body2=\"l1\"/><pair geom1=\"floor\" geom2=\"floor\"/>"
    "</contact>\n"
    "  <equality><connect body1=\"base\" body2=\"l2\" anchor=\"0 0 0\"/></equality>\n"
    "  <tendon><fixed name=\"t1\" stiffness=\"2\" springlength=\"0.1\">"
    "<joint joint=\"h1\" coef=\"0.5\"/><joint joint=\"s1\"/></fixed>\n"
    "    <spatial class=\"c\" damping=\"0.3\"><site site=\"s0\"/><site site=\"s1\"/></spatial>"
    "</tendon>\n"
    "  <actuator><motor name=\"m1\" joint=\"h1\" gear=\"2\"/><motor joint=\"s1\" "
    "forcerange=\"-3 3\"/>\n"
    "    <position joint=\"h1\"/></actuator>\n"
    "</mujoco>\n";

/* The failure codes seen (bit -code). */
static unsigned codes_seen;

/* Loads xml into a plant holding another model and checks the contract;
 * returns 1 if the load succeeded. */
static int load_once(const char *xml) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  teal_error e = {TEAL_OK, ""};
  ck_assert_int_ge(teal_mjcf_load_string(p,
                                         "<mujoco model='first'><worldbody><body name='b'>"
                                         "<joint/><geom size='0.1'/></body></worldbody></mujoco>",
                                         NULL, NULL, NULL, &e),
                   0);
  int bodies = teal_plant_num_bodies(p), frames = teal_plant_num_frames(p);
  int geometries = teal_plant_num_geometries(p);
  teal_mjcf_report r;
  int rc = teal_mjcf_load_string(p, xml, NULL, NULL, &r, &e);
  if (ts_fuzz_load_failed(rc, &e, &codes_seen)) {
    ck_assert_msg(teal_plant_error(p)->code == TEAL_OK, "plant error after: %s", e.message);
    ck_assert_int_eq(teal_plant_num_bodies(p), bodies);
    ck_assert_int_eq(teal_plant_num_frames(p), frames);
    ck_assert_int_eq(teal_plant_num_geometries(p), geometries);
  } else {
    ck_assert_int_ge(rc, 3);
    ck_assert_int_ge(r.num_warnings, 0);
  }
  return ts_fuzz_finish(p, rc);
}

static char *read_model(int i, size_t *len) {
  char *xml = urdf_test_read_model(models[i], len);
  ck_assert_msg(xml != NULL, "cannot read models/%s", models[i]);
  return xml;
}

/* Seed k: a model file, or the embedded document (k == NUM_MODELS). */
static char *seed_text(int k, size_t *len) {
  if (k < NUM_MODELS) {
    return read_model(k, len);
  }
  *len = strlen(seed_all);
  char *s = malloc(*len + 1);
  ck_assert_ptr_nonnull(s);
  memcpy(s, seed_all, *len + 1);
  return s;
}

START_TEST(seeds_load) {
  for (int k = 0; k <= NUM_MODELS; k++) {
    size_t len;
    char *xml = seed_text(k, &len);
    ck_assert_msg(load_once(xml), "seed %d does not load", k);
    free(xml);
  }
}
END_TEST

START_TEST(truncated_prefixes) {
  ts_alloc_install();
  for (int k = 0; k <= NUM_MODELS; k++) {
    size_t len;
    char *xml = seed_text(k, &len);
    ts_fuzz_prefixes(xml, 5, load_once);
    free(xml);
  }
  ts_alloc_expect_all_freed();
}
END_TEST

/* ---- mutations ----------------------------------------------------------------- */

/* Hostile attribute values. */
static const char *const odd_values[] = {"1e308 1e308 1e308",
                                         "-1e308",
                                         "nan",
                                         "inf",
                                         "-0",
                                         "1e-320",
                                         "0 0 0 0",
                                         "1 2 3 4 5 6 7",
                                         "",
                                         "x",
                                         "1e400",
                                         "-1",
                                         "0",
                                         "main",
                                         "free",
                                         "b"};
static const ts_fuzz_format mjcf_format = {ts_fuzz_find_quoted, odd_values,
                                           sizeof(odd_values) / sizeof(odd_values[0])};

START_TEST(random_mutations) {
  ts_alloc_install();
  int trials = (int)ts_fuzz_env("TEAL_MJCF_FUZZ_TRIALS", 1500);
  trials = trials > 0 ? trials : 1500;
  int ok = 0, total = 0;
  for (int k = 0; k <= NUM_MODELS; k++) {
    size_t len;
    char *xml = seed_text(k, &len);
    unsigned seed = 0x9e3779b9u + (unsigned)k;
    ok += ts_fuzz_mutations(xml, trials, &seed, &mjcf_format, load_once);
    total += trials;
    free(xml);
  }
  ts_alloc_expect_all_freed();
  /* the campaign reaches both outcomes and several failure codes */
  ck_assert_int_gt(ok, total / 20);
  ck_assert_int_lt(ok, total);
  ck_assert_int_ge(__builtin_popcount(codes_seen), 4);
}
END_TEST

/* ---- deep nesting and missing files ------------------------------------------------- */

/* n nested bodies (each with a hinge and a sphere) or default classes. */
static char *nested(int n, int classes) {
  size_t cap = (size_t)n * 120 + 256, at = 0;
  char *s = malloc(cap);
  ck_assert_ptr_nonnull(s);
  at += (size_t)snprintf(s, cap, "<mujoco>%s", classes ? "<default>" : "<worldbody>");
  for (int i = 0; i < n; i++) {
    at += (size_t)snprintf(s + at, cap - at,
                           classes ? "<default class='c%d'><joint damping='%d'/>"
                                   : "<body name='b%d' pos='0 0 -0.1'><joint/><geom size='0.%d1'/>",
                           i, i % 9);
  }
  for (int i = 0; i < n; i++) {
    at += (size_t)snprintf(s + at, cap - at, classes ? "</default>" : "</body>");
  }
  snprintf(s + at, cap - at, "%s",
           classes ? "</default><worldbody><body><joint class='c7'/><geom size='1'/></body>"
                     "</worldbody></mujoco>"
                   : "</worldbody></mujoco>");
  return s;
}

START_TEST(deep_nesting) {
  ts_alloc_install();
  /* 200 levels load; libxml2 refuses documents nested deeper than 256 */
  for (int classes = 0; classes < 2; classes++) {
    char *s = nested(200, classes);
    ck_assert_int_eq(load_once(s), 1);
    free(s);
    s = nested(2000, classes);
    ck_assert_int_eq(load_once(s), 0);
    free(s);
  }
  ts_alloc_expect_all_freed();
}
END_TEST

/* Many classes and bodies: names are found through hash tables, so a wide
 * document loads in linear time (20,000 of each: a fraction of a second). */
START_TEST(wide_documents) {
  int n = 20000;
  size_t cap = (size_t)n * 160 + 256, at = 0;
  char *s = malloc(cap);
  ck_assert_ptr_nonnull(s);
  at += (size_t)snprintf(s, cap, "<mujoco><default>");
  for (int i = 0; i < n; i++) {
    at += (size_t)snprintf(s + at, cap - at, "<default class='c%d'><joint damping='1'/></default>",
                           i);
  }
  at += (size_t)snprintf(s + at, cap - at, "</default><worldbody>");
  for (int i = 0; i < n; i++) {
    at += (size_t)snprintf(s + at, cap - at,
                           "<body name='b%d' pos='%d 0 0'><joint class='c%d'/><geom size='0.1'/>"
                           "</body>",
                           i, i, n - 1 - i);
  }
  snprintf(s + at, cap - at, "</worldbody></mujoco>");
  ck_assert_int_eq(load_once(s), 1);
  free(s);
}
END_TEST

START_TEST(missing_files) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e;
  ck_assert_int_eq(teal_mjcf_load_file(p, "no/such/model.xml", NULL, NULL, NULL, &e), TEAL_EIO);
  ck_assert_ptr_nonnull(strstr(e.message, "cannot open"));
  ck_assert_int_eq(teal_mjcf_load_file(p, "/dev/zero", NULL, NULL, NULL, &e), TEAL_EIO);
  ck_assert_int_eq(teal_plant_num_model_instances(p), 2);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mjcf_fuzz");
  TCase *tc = tcase_create("fuzz");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, seeds_load);
  tcase_add_test(tc, truncated_prefixes);
  tcase_add_test(tc, random_mutations);
  tcase_add_test(tc, deep_nesting);
  tcase_add_test(tc, wide_documents);
  tcase_add_test(tc, missing_files);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
