/* Fuzz-style robustness of the SDFormat parser (multibody/parsing/sdf*.c),
 * in the style of test_urdf_fuzz.c: seed documents (a model with every
 * joint type, shape, pose rule and Drake extension, a world with nested,
 * static and included models, and models/acrobot.sdf) are fed truncated at
 * every few bytes and mutated from a fixed seed (byte flips, deleted tags,
 * swapped or hostile element texts and attribute values: huge, NaN, odd
 * numbers, names, frames; duplicated lines); deeply nested models; include
 * files that are missing, cyclic or mutated themselves. Each load must
 * return an instance or a negative status with a non-empty message; the
 * plant is then finalized (whatever the result) and freed, and every
 * teal_alloc must have been freed. TEAL_SDF_FUZZ_SEED and
 * TEAL_SDF_FUZZ_TRIALS (per seed, default 1500) run other campaigns. Run
 * it under ASan/UBSan (TEAL_SANITIZE) for memory errors and leaks. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "multibody/parsing/sdf.h"
#include "multibody/tree/topology.h"
#include "support/fuzz_fixtures.h"
#include "support/test_support.h"
#include "urdf_models.h"

#define INERTIAL                                                                      \
  "<inertial><pose>0 0 0.1 0 0 0</pose><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1" \
  "</iyy><izz>0.1</izz></inertia></inertial>\n"

static const char seed_joints[] =
    "<?xml version='1.0'?>\n"
    "<sdf version='1.9' xmlns:drake='http://drake.mit.edu'>\n"
    "<model name='m' canonical_link='a'>\n<pose>0 0 0.5 0 0 0</pose>\n"
    "<link name='a'>" INERTIAL
    "<collision name='c'><geometry><box><size>1 1 1</size></box></geometry>\n"
    "<drake:proximity_properties><drake:mu_static>0.8</drake:mu_static>\n"
    "<drake:mu_dynamic>0.5</drake:mu_dynamic></drake:proximity_properties></collision>\n"
    "<visual name='v'><geometry><mesh><uri>meshes/m.obj</uri></mesh></geometry>\n"
    "<material><diffuse>0.1 0.2 0.3 1</diffuse></material></visual></link>\n"
    "<joint name='j1' type='revolute'><parent>world</parent><child>a</child>\n"
    "<axis><xyz expressed_in='__model__'>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper>\n"
    "<effort>3</effort><velocity>2</velocity></limit><dynamics><damping>0.1</damping>\n"
    "<friction>0.1</friction></dynamics></axis></joint>\n"
    "<link name='b'><pose relative_to='a'>0 0 1 0 0 1.57</pose>" INERTIAL
    "<collision name='s'><geometry><sphere><radius>0.1</radius></sphere></geometry>\n"
    "</collision></link>\n"
    "<joint name='j2' type='prismatic'><parent>a</parent><child>b</child>\n"
    "<pose relative_to='f1'>0 0 0 0 0 0</pose><axis><xyz>1 0 0</xyz></axis></joint>\n"
    "<frame name='f1' attached_to='a'><pose degrees='true'>0 0 1 0 90 0</pose></frame>\n"
    "<link name='c'><pose relative_to='b'>0 0 0.5 0 0 0</pose>" INERTIAL
    "</link>\n"
    "<joint name='j3' type='ball'><parent>b</parent><child>c</child></joint>\n"
    "<link name='d'><pose relative_to='c'>0 0 0.5 0 0 0</pose>" INERTIAL
    "<visual name='e'><geometry><ellipsoid><radii>1 2 3</radii></ellipsoid></geometry>\n"
    "</visual></link>\n"
    "<joint name='j4' type='universal'><parent>c</parent><child>d</child>\n"
    "<axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>\n"
    "<link name='e'><pose relative_to='d'>0 0 0.5 0 0 0</pose>" INERTIAL
    "</link>\n"
    "<joint name='j5' type='screw'><parent>d</parent><child>e</child>\n"
    "<screw_thread_pitch>0.01</screw_thread_pitch><drake:mimic joint='j2'/></joint>\n"
    "<link name='f'><pose relative_to='e'>0 0 0.5 0 0 0</pose>" INERTIAL
    "<collision name='p'><geometry><plane><normal>0 0 1</normal></plane></geometry>\n"
    "</collision><collision name='cap'><geometry><capsule><radius>0.1</radius>\n"
    "<length>0.2</length></capsule></geometry></collision></link>\n"
    "<joint name='j6' type='fixed'><parent>e</parent><child>f</child></joint>\n"
    "<link name='g'><pose relative_to='f'>0 0 0.5 0 0 0</pose>" INERTIAL
    "<visual name='cyl'><geometry><cylinder><radius>0.1</radius><length>1</length>\n"
    "</cylinder></geometry></visual></link>\n"
    "<joint name='j7' type='continuous'><parent>f</parent><child>g</child>\n"
    "<axis><xyz>0 1 0</xyz></axis></joint>\n"
    "</model>\n</sdf>\n";

static const char seed_world[] =
    "<sdf version='1.8'>\n<world name='w'>\n<gravity>0 0 -9.81</gravity>\n"
    "<frame name='spot'><pose>1 0 0 0 0 0</pose></frame>\n"
    "<model name='one'><pose relative_to='spot'>0 1 0 0 0 0</pose>\n"
    "<link name='base'>" INERTIAL
    "</link>\n"
    "<model name='inner'><pose>0 0 1 0 0 0</pose><link name='arm'>" INERTIAL
    "</link>\n"
    "<frame name='tip' attached_to='arm'><pose>0.5 0 0 0 0 0</pose></frame></model>\n"
    "<joint name='hinge' type='revolute'><parent>base</parent><child>inner::arm</child>\n"
    "<pose relative_to='inner::tip'/><axis><xyz>0 1 0</xyz></axis></joint>\n"
    "</model>\n"
    "<model name='table'><static>true</static><link name='top'>\n"
    "<collision name='c'><geometry><box><size>1 1 0.1</size></box></geometry></collision>\n"
    "</link></model>\n"
    "<include><uri>fuzz_part.sdf</uri><name>part</name><pose>0 0 3 0 0 0</pose></include>\n"
    "</world>\n</sdf>\n";

static const char part_sdf[] =
    "<sdf version='1.8'><model name='p'><link name='l'>" INERTIAL "</link></model></sdf>\n";

/* The failure codes seen (bit -code). */
static unsigned codes_seen;
/* The directory of the seed files (includes resolve from there). */
static char dir[64];

/* Writes text to dir/name; path gets the file's path. */
static void write_in_dir(const char *name, const char *text, char *path, size_t cap) {
  snprintf(path, cap, "%s/%s", dir, name);
  ts_write_text(path, text);
}

/* Loads the document written to dir/doc.sdf into a fresh plant and checks
 * the contract; returns 1 if the load succeeded. */
static int load_once(const char *xml) {
  char path[128];
  write_in_dir("doc.sdf", xml, path, sizeof path);
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  teal_error e = {TEAL_OK, ""};
  teal_sdf_report r;
  int rc = teal_sdf_load_file_opts(p, path, NULL, &r, &e);
  if (ts_fuzz_load_failed(rc, &e, &codes_seen)) {
    ck_assert_int_eq(teal_plant_num_model_instances(p), 2);
  } else {
    ck_assert_int_ge(rc, 2);
    ck_assert_int_ge(r.num_models, 1);
  }
  return ts_fuzz_finish(p, rc);
}

static void write_part(const char *text) {
  char path[128];
  write_in_dir("fuzz_part.sdf", text, path, sizeof path);
}

static void setup(void) {
  snprintf(dir, sizeof dir, "/tmp/teal_sdf_fuzz_XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(dir));
  write_part(part_sdf);
}

static void teardown(void) {
  char path[128];
  snprintf(path, sizeof path, "%s/doc.sdf", dir);
  unlink(path);
  snprintf(path, sizeof path, "%s/fuzz_part.sdf", dir);
  unlink(path);
  rmdir(dir);
}

static char *acrobot_text(void) {
  char *xml = urdf_test_read_model("acrobot.sdf", NULL);
  ck_assert_msg(xml != NULL, "cannot read models/acrobot.sdf");
  return xml;
}

/* ---- truncation ------------------------------------------------------------ */

START_TEST(truncated_prefixes) {
  ts_alloc_install();
  char *acrobot = acrobot_text();
  const char *docs[3] = {seed_joints, seed_world, acrobot};
  for (int d = 0; d < 3; d++) {
    ts_fuzz_prefixes(docs[d], 5, load_once);
    ck_assert_int_eq(load_once(docs[d]), 1); /* each seed loads whole */
  }
  free(acrobot);
  ts_alloc_expect_all_freed();
}
END_TEST

/* ---- mutations ---------------------------------------------------------------- */

/* Hostile element texts and attribute values. */
static const char *const odd_values[] = {"nan",        "-inf",
                                         "1e308",      "-1e308",
                                         "1e-320",     "0",
                                         "-1",         "abc",
                                         "",           "1e999",
                                         "   ",        "1 2 3",
                                         "0x1p3",      "1,5",
                                         "-0",         "world",
                                         "fixed",      "__model__",
                                         "a::b",       "m::a",
                                         "inner::tip", "model://fuzz_part.sdf",
                                         "doc.sdf",    "1e308 1e308 1e308 1e308 1e308 1e308",
                                         "true",       "1.6",
                                         "universal"};
static const ts_fuzz_format sdf_format = {ts_fuzz_find_quoted_or_text, odd_values,
                                          sizeof(odd_values) / sizeof(odd_values[0])};

START_TEST(random_mutations) {
  ts_alloc_install();
  unsigned seed = (unsigned)ts_fuzz_env("TEAL_SDF_FUZZ_SEED", 0x5dfu);
  int trials = (int)ts_fuzz_env("TEAL_SDF_FUZZ_TRIALS", 1500);
  seed = seed ? seed : 1u;
  char *acrobot = acrobot_text();
  const char *docs[3] = {seed_joints, seed_world, acrobot};
  codes_seen = 0;
  for (int d = 0; d < 3; d++) {
    int ok = ts_fuzz_mutations(docs[d], trials, &seed, &sdf_format, load_once);
    /* the mutations neither all pass nor all fail */
    ck_assert_int_gt(ok, 0);
    ck_assert_int_lt(ok, trials);
  }
  /* parse errors, bad values, missing names and non-finite numbers all came up */
  ck_assert(codes_seen & (1u << -TEAL_EPARSE));
  ck_assert(codes_seen & (1u << -TEAL_EINVAL));
  ck_assert(codes_seen & (1u << -TEAL_ENOTFOUND));
  ck_assert(codes_seen & (1u << -TEAL_ENONFINITE));
  free(acrobot);
  ts_alloc_expect_all_freed();
}
END_TEST

/* Included files mutated, missing, or including the document back. */
START_TEST(hostile_includes) {
  ts_alloc_install();
  unsigned seed = 0xabcdu;
  for (int trial = 0; trial < 300; trial++) {
    ts_fuzz_text t = ts_fuzz_text_of(part_sdf);
    ts_fuzz_mutate(&t, &seed, &sdf_format);
    write_part(t.s);
    load_once(seed_world);
    free(t.s);
  }
  /* the part includes the world document that includes it */
  write_part(
      "<sdf version='1.8'><model name='p'><link name='l'/>"
      "<include><uri>doc.sdf</uri></include></model></sdf>");
  ck_assert_int_eq(load_once(seed_world), 0);
  /* and itself */
  write_part(
      "<sdf version='1.8'><model name='p'><link name='l'/>"
      "<include><uri>fuzz_part.sdf</uri><name>q</name></include></model></sdf>");
  ck_assert_int_eq(load_once(seed_world), 0);
  char path[128];
  snprintf(path, sizeof path, "%s/fuzz_part.sdf", dir);
  unlink(path);
  ck_assert_int_eq(load_once(seed_world), 0); /* missing */
  write_part(part_sdf);
  ck_assert_int_eq(load_once(seed_world), 1);
  ts_alloc_expect_all_freed();
}
END_TEST

/* Models nested 100,000 deep, and frames chained 100,000 long: refused by
 * the depth limit, or resolved without recursion. */
START_TEST(deep_nesting) {
  ts_alloc_install();
  int depth = 100000;
  size_t cap = (size_t)depth * 96 + 256; /* a frame line is 75 to 86 bytes */
  char *xml = malloc(cap), *at = xml;
  ck_assert_ptr_nonnull(xml);
  at += sprintf(at, "<sdf version='1.8'><model name='m'><link name='l'/>");
  for (int i = 0; i < depth; i++) {
    at += sprintf(at, "<model name='n%d'>", i);
  }
  for (int i = 0; i < depth; i++) {
    at += sprintf(at, "</model>");
  }
  sprintf(at, "</model></sdf>");
  ck_assert_int_eq(load_once(xml), 0);
  at = xml + sprintf(xml, "<sdf version='1.8'><model name='m'><link name='l'/>");
  for (int i = 0; i < depth; i++) {
    at += sprintf(at, "<frame name='f%d'><pose relative_to='%s%d'>0 0 1 0 0 0</pose></frame>", i,
                  i ? "f" : "l", i ? i - 1 : 0);
  }
  sprintf(at, "</model></sdf>");
  ck_assert_int_eq(load_once(xml), 0); /* "l0" is not a frame */
  char *fix = strstr(xml, "'l0'");
  memcpy(fix, "'l' ", 4);
  ck_assert_int_eq(load_once(xml), 1);
  free(xml);
  ts_alloc_expect_all_freed();
}
END_TEST

static Suite *sdf_fuzz_suite(void) {
  Suite *s = suite_create("sdf_fuzz");
  TCase *tc = tcase_create("core");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, truncated_prefixes);
  tcase_add_test(tc, random_mutations);
  tcase_add_test(tc, hostile_includes);
  tcase_add_test(tc, deep_nesting);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(sdf_fuzz_suite());
}
