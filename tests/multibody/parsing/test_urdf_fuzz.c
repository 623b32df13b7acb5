/* Fuzz-style robustness of the URDF parser. Two campaigns:
 *   - a fixed corpus (fixed_corpus): 20,000 mutations of seed documents
 *     embedded below, so edits to models/ cannot change it, from a fixed
 *     seed; the corpus itself is pinned by a hash (CORPUS_HASH), so a change
 *     to the seeds, the mutators or the generator shows up as a failure
 *     that says so. Issue 14 asks for at least 20,000 in CI; under
 *     AddressSanitizer the count is the same (about 10 s).
 *   - the shipped models (truncated_prefixes, random_mutations): every model
 *     in models/ is fed truncated (prefixes at a stride) and randomly
 *     mutated; the environment variables TEAL_URDF_FUZZ_SEED and
 *     TEAL_URDF_FUZZ_TRIALS (per model, default 600) run other or longer
 *     campaigns.
 * Mutations: byte flips, deleted tags, swapped attribute values, huge / NaN
 * / odd numbers, duplicated lines. Each load must return an instance or a
 * negative status with a non-empty message; the plant is then finalized
 * (whatever the result) and freed, and every teal_alloc must have been
 * freed. The corpus's collision mesh (meshes/tool.obj) is written to a
 * fresh working folder first. Run it under ASan/UBSan (TEAL_SANITIZE) for
 * memory errors and leaks. The work is bounded by counts, never by time. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "multibody/parsing/urdf.h"
#include "multibody/tree/topology.h"
#include "support/fuzz_fixtures.h"
#include "support/mesh_fixtures.h"
#include "support/test_support.h"
#include "urdf_models.h"

static const char *const models[] = {"acrobot.urdf", "pendulum.urdf", "cart_pole.urdf",
                                     "iiwa7_like.urdf"};
#define NUM_MODELS ((int)(sizeof(models) / sizeof(models[0])))

/* The failure codes seen (bit -code). */
static unsigned codes_seen;

/* Loads xml into a fresh plant and checks the contract; returns 1 if the
 * load succeeded. */
static int load_once(const char *xml) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  teal_error e = {TEAL_OK, ""};
  teal_urdf_report r;
  int rc = teal_urdf_load_string_ex(p, xml, NULL, &r, &e);
  if (!ts_fuzz_load_failed(rc, &e, &codes_seen)) {
    ck_assert_int_ge(rc, 2);
    ck_assert_int_ge(r.num_warnings, 0);
  }
  return ts_fuzz_finish(p, rc);
}

static char *read_model(int i, size_t *len) {
  char *xml = urdf_test_read_model(models[i], len);
  ck_assert_msg(xml != NULL, "cannot read models/%s", models[i]);
  return xml;
}

/* ---- the fixed corpus's seeds ------------------------------------------------ */

/* Seed documents, one string per line (joined with '\n'): a copy of the
 * acrobot, a model with every joint type, shape and Drake extension the
 * parser knows, and a seven-joint arm with limits and ROS transmissions.
 * Each loads and finalizes as it is (checked). */
static const char *const seed_acrobot[] = {
    "<?xml version=\"1.0\"?>",
    "<robot name=\"acrobot\">",
    "  <material name=\"grey\"><color rgba=\"0.6 0.6 0.6 1\"/></material>",
    "  <material name=\"blue\"><color rgba=\"0.2 0.3 0.8 1\"/></material>",
    "  <link name=\"base_link\">",
    "    <visual><geometry><box size=\"0.2 0.2 0.2\"/></geometry><material "
    "name=\"grey\"/></visual>",
    "  </link>",
    "  <link name=\"link1\">",
    "    <inertial>",
    "      <origin xyz=\"0 0 -0.5\" rpy=\"0 0 0\"/>",
    "      <mass value=\"1\"/>",
    "      <inertia ixx=\"0.083\" ixy=\"0\" ixz=\"0\" iyy=\"0.083\" iyz=\"0\" izz=\"0.083\"/>",
    "    </inertial>",
    "    <visual>",
    "      <origin xyz=\"0 0 -0.5\"/>",
    "      <geometry><cylinder radius=\"0.05\" length=\"1.1\"/></geometry>",
    "      <material name=\"blue\"/>",
    "    </visual>",
    "  </link>",
    "  <link name=\"link2\">",
    "    <inertial>",
    "      <origin xyz=\"0 0 -1\" rpy=\"0 0 0\"/>",
    "      <mass value=\"1\"/>",
    "      <inertia ixx=\"0.33\" ixy=\"0\" ixz=\"0\" iyy=\"0.33\" iyz=\"0\" izz=\"0.33\"/>",
    "    </inertial>",
    "    <visual name=\"tip\">",
    "      <origin xyz=\"0 0 -2\"/>",
    "      <geometry><sphere radius=\"0.08\"/></geometry>",
    "      <material><color rgba=\"0.8 0.2 0.2 1\"/></material>",
    "    </visual>",
    "  </link>",
    "  <joint name=\"shoulder\" type=\"continuous\">",
    "    <parent link=\"base_link\"/>",
    "    <child link=\"link1\"/>",
    "    <origin xyz=\"0 0 0\"/>",
    "    <axis xyz=\"0 1 0\"/>",
    "    <dynamics damping=\"0.1\"/>",
    "  </joint>",
    "  <joint name=\"elbow\" type=\"continuous\">",
    "    <parent link=\"link1\"/>",
    "    <child link=\"link2\"/>",
    "    <origin xyz=\"0 0 -1\"/>",
    "    <axis xyz=\"0 1 0\"/>",
    "    <dynamics damping=\"0.1\"/>",
    "  </joint>",
    "  <transmission type=\"SimpleTransmission\" name=\"elbow_trans\">",
    "    <actuator name=\"elbow_motor\"/>",
    "    <joint name=\"elbow\"/>",
    "    <mechanicalReduction>1</mechanicalReduction>",
    "  </transmission>",
    "</robot>",
    NULL};

#define SEED_INERTIA(m, i)                                 \
  "    <inertial><mass value=\"" m "\"/><inertia ixx=\"" i \
  "\" ixy=\"0\" ixz=\"0\" "                                \
  "iyy=\"" i "\" iyz=\"0\" izz=\"" i "\"/></inertial>"

static const char *const seed_mixed[] = {
    "<?xml version=\"1.0\"?>",
    "<!-- every joint type, shape and Drake extension -->",
    "<robot name=\"mixed\" xmlns:drake=\"http://drake.mit.edu\">",
    "  <material name=\"steel\"><color rgba=\"0.7 0.7 0.7 1\"/></material>",
    "  <link name=\"world\"/>",
    "  <link name=\"base\">",
    "    <inertial>",
    "      <origin xyz=\"0 0 0.1\" rpy=\"0 0 0.3\"/>",
    "      <mass value=\"4\"/>",
    "      <inertia ixx=\"0.05\" ixy=\"0.001\" ixz=\"0\" iyy=\"0.05\" iyz=\"0\" izz=\"0.08\"/>",
    "    </inertial>",
    "    <visual><geometry><box size=\"0.4 0.4 0.2\"/></geometry><material "
    "name=\"steel\"/></visual>",
    "    <collision name=\"base_box\">",
    "      <geometry><box size=\"0.4 0.4 0.2\"/></geometry>",
    "      <drake:proximity_properties>",
    "        <drake:mu_static value=\"0.8\"/>",
    "        <drake:mu_dynamic value=\"0.6\"/>",
    "        <drake:point_contact_stiffness value=\"1e5\"/>",
    "        <drake:hunt_crossley_dissipation value=\"2\"/>",
    "      </drake:proximity_properties>",
    "    </collision>",
    "  </link>",
    "  <joint name=\"slide\" type=\"prismatic\">",
    "    <parent link=\"world\"/><child link=\"base\"/>",
    "    <axis xyz=\"1 0 0\"/>",
    "    <limit lower=\"-1\" upper=\"1\" effort=\"50\" velocity=\"2\"/>",
    "    <dynamics damping=\"0.5\"/>",
    "  </joint>",
    "  <link name=\"sensor\"/>",
    "  <joint name=\"sensor_mount\" type=\"fixed\">",
    "    <parent link=\"base\"/><child link=\"sensor\"/>",
    "    <origin xyz=\"0 0 0.2\" rpy=\"0 0 1.57\"/>",
    "  </joint>",
    "  <link name=\"arm\">",
    SEED_INERTIA("1.5", "0.02"),
    "    <visual><origin xyz=\"0 0 0.25\"/><geometry><cylinder radius=\"0.03\" length=\"0.5\"/>"
    "</geometry></visual>",
    "    <collision><geometry><capsule radius=\"0.03\" length=\"0.5\"/></geometry></collision>",
    "  </link>",
    "  <joint name=\"hinge\" type=\"revolute\">",
    "    <parent link=\"base\"/><child link=\"arm\"/>",
    "    <origin xyz=\"0 0 0.2\"/>",
    "    <axis xyz=\"0 0 1\"/>",
    "    <limit lower=\"-2\" upper=\"2\" effort=\"20\" velocity=\"3\"/>",
    "    <mimic joint=\"slide\"/>",
    "  </joint>",
    "  <link name=\"wrist\">",
    SEED_INERTIA("0.5", "0.001"),
    "    <visual><geometry><drake:ellipsoid a=\"0.05\" b=\"0.04\" c=\"0.03\"/></geometry></visual>",
    "    <collision><geometry><drake:capsule radius=\"0.02\" length=\"0.1\"/></geometry>"
    "</collision>",
    "  </link>",
    "  <drake:joint name=\"wrist_ball\" type=\"ball\">",
    "    <parent link=\"arm\"/><child link=\"wrist\"/>",
    "    <origin xyz=\"0 0 0.5\"/>",
    "  </drake:joint>",
    "  <link name=\"tool\">",
    SEED_INERTIA("0.2", "0.0005"),
    "    <visual><geometry><mesh filename=\"meshes/tool.obj\" scale=\"0.5 0.5 0.5\"/></geometry>"
    "</visual>",
    "    <collision><geometry><mesh filename=\"meshes/tool.obj\"/></geometry></collision>",
    "    <collision><geometry><sphere radius=\"0.02\"/></geometry></collision>",
    "  </link>",
    "  <drake:joint name=\"tool_u\" type=\"universal\">",
    "    <parent link=\"wrist\"/><child link=\"tool\"/>",
    "    <origin xyz=\"0 0 0.05\" rpy=\"0.1 0.2 0.3\"/>",
    "  </drake:joint>",
    "  <link name=\"nut\">",
    SEED_INERTIA("0.1", "0.0001"),
    "  </link>",
    "  <drake:joint name=\"thread\" type=\"screw\">",
    "    <parent link=\"tool\"/><child link=\"nut\"/>",
    "    <axis xyz=\"0 0 1\"/>",
    "    <drake:screw_thread_pitch value=\"0.01\"/>",
    "  </drake:joint>",
    "  <link name=\"puck\">",
    SEED_INERTIA("0.3", "0.001"),
    "    <collision><geometry><cylinder radius=\"0.05\" length=\"0.02\"/></geometry></collision>",
    "  </link>",
    "  <joint name=\"table\" type=\"planar\">",
    "    <parent link=\"world\"/><child link=\"puck\"/>",
    "    <axis xyz=\"0 0 1\"/>",
    "  </joint>",
    "  <link name=\"flyer\">",
    SEED_INERTIA("0.4", "0.002"),
    "  </link>",
    "  <joint name=\"fly\" type=\"floating\">",
    "    <parent link=\"world\"/><child link=\"flyer\"/>",
    "  </joint>",
    "  <link name=\"ball\">",
    SEED_INERTIA("0.05", "0.00001"),
    "    <collision><geometry><sphere radius=\"0.01\"/></geometry></collision>",
    "  </link>",
    "  <frame name=\"camera\" link=\"arm\" xyz=\"0 0.1 0.3\" rpy=\"0 0 0\"/>",
    "  <transmission name=\"hinge_trans\">",
    "    <type>transmission_interface/SimpleTransmission</type>",
    "    <joint name=\"hinge\"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>",
    "    <actuator name=\"hinge_motor\"><mechanicalReduction>1</mechanicalReduction></actuator>",
    "  </transmission>",
    "  <transmission type=\"SimpleTransmission\" name=\"slide_trans\">",
    "    <actuator name=\"slide_motor\"/><joint name=\"slide\"/>",
    "  </transmission>",
    "  <gazebo reference=\"arm\"><material>Gazebo/Grey</material></gazebo>",
    "</robot>",
    NULL};

#define SEED_LINK(n, m, z)                            \
  "  <link name=\"" n "\">", SEED_INERTIA(m, "0.01"), \
      "    <collision><origin xyz=\"0 0 " z           \
      "\"/><geometry><cylinder radius=\"0.06\" "      \
      "length=\"0.3\"/></geometry></collision>",      \
      "  </link>"
#define SEED_JOINT(n, p, c, ax, lim)                                                       \
  "  <joint name=\"" n "\" type=\"revolute\">",                                            \
      "    <parent link=\"" p "\"/><child link=\"" c "\"/>",                               \
      "    <origin xyz=\"0 0 0.3\" rpy=\"0 0 0\"/><axis xyz=\"" ax "\"/>",                 \
      "    <limit lower=\"-" lim "\" upper=\"" lim "\" effort=\"100\" velocity=\"1.5\"/>", \
      "  </joint>"
#define SEED_TRANSMISSION(j)                                        \
  "  <transmission name=\"" j "_trans\">",                          \
      "    <type>transmission_interface/SimpleTransmission</type>", \
      "    <joint name=\"" j                                        \
      "\"><hardwareInterface>hardware_interface/"                   \
      "EffortJointInterface</hardwareInterface></joint>",           \
      "    <actuator name=\"" j                                     \
      "_motor\"><mechanicalReduction>1</mechanicalReduction>"       \
      "</actuator>",                                                \
      "  </transmission>"

static const char *const seed_arm[] = {
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
    "<robot name=\"arm7\">",
    "  <link name=\"world\"/>",
    SEED_LINK("l0", "4", "0.15"),
    "  <joint name=\"mount\" type=\"fixed\"><parent link=\"world\"/><child link=\"l0\"/></joint>",
    SEED_LINK("l1", "3.5", "0.15"),
    SEED_LINK("l2", "3.5", "0.15"),
    SEED_LINK("l3", "3", "0.15"),
    SEED_LINK("l4", "2.5", "0.15"),
    SEED_LINK("l5", "2", "0.1"),
    SEED_LINK("l6", "1.5", "0.1"),
    SEED_LINK("l7", "0.5", "0.05"),
    SEED_JOINT("j1", "l0", "l1", "0 0 1", "2.96"),
    SEED_JOINT("j2", "l1", "l2", "0 1 0", "2.09"),
    SEED_JOINT("j3", "l2", "l3", "0 0 1", "2.96"),
    SEED_JOINT("j4", "l3", "l4", "0 -1 0", "2.09"),
    SEED_JOINT("j5", "l4", "l5", "0 0 1", "2.96"),
    SEED_JOINT("j6", "l5", "l6", "0 1 0", "2.09"),
    SEED_JOINT("j7", "l6", "l7", "0 0 1", "3.05"),
    SEED_TRANSMISSION("j1"),
    SEED_TRANSMISSION("j2"),
    SEED_TRANSMISSION("j3"),
    SEED_TRANSMISSION("j4"),
    SEED_TRANSMISSION("j5"),
    SEED_TRANSMISSION("j6"),
    SEED_TRANSMISSION("j7"),
    "</robot>",
    NULL};

static const char *const *const seeds[] = {seed_acrobot, seed_mixed, seed_arm};
#define NUM_SEEDS ((int)(sizeof(seeds) / sizeof(seeds[0])))

/* The seed's lines joined with '\n' (malloc'd). */
static char *seed_text(const char *const *lines, size_t *len) {
  size_t n = 0;
  for (const char *const *l = lines; *l; l++) {
    n += strlen(*l) + 1;
  }
  char *s = malloc(n + 1), *at = s;
  ck_assert_ptr_nonnull(s);
  for (const char *const *l = lines; *l; l++) {
    size_t k = strlen(*l);
    memcpy(at, *l, k);
    at[k] = '\n';
    at += k + 1;
  }
  *at = '\0';
  *len = n;
  return s;
}

/* ---- truncation ------------------------------------------------------------ */

START_TEST(truncated_prefixes) {
  ts_alloc_install();
  for (int m = 0; m < NUM_MODELS; m++) {
    size_t len;
    char *xml = read_model(m, &len);
    /* the whole file (and it with trailing whitespace cut) loads */
    ck_assert_int_ge(ts_fuzz_prefixes(xml, 7, load_once), 1);
    ck_assert_int_eq(load_once(xml), 1);
    free(xml);
  }
  ts_alloc_expect_all_freed();
}
END_TEST

/* ---- mutations ---------------------------------------------------------------- */

/* Hostile attribute values. */
static const char *const odd_values[] = {"nan",    "-inf",   "1e308",
                                         "-1e308", "1e-320", "0",
                                         "-1",     "abc",    "",
                                         "1e999",  "   ",    "1 2 3 4 5 6 7 8 9",
                                         "0x1p3",  "1,5",    "1e308 1e308 1e308",
                                         "-0",     "world",  "fixed"};
static const ts_fuzz_format urdf_format = {ts_fuzz_find_double_quoted, odd_values,
                                           sizeof(odd_values) / sizeof(odd_values[0])};

/* Parse errors, bad values, non-finite numbers, unknown and duplicate names. */
#define WANTED_CODES                                                        \
  ((1u << -TEAL_EPARSE) | (1u << -TEAL_EINVAL) | (1u << -TEAL_ENONFINITE) | \
   (1u << -TEAL_ENOTFOUND) | (1u << -TEAL_EDUPLICATE))

START_TEST(random_mutations) {
  ts_alloc_install();
  unsigned seed = (unsigned)ts_fuzz_env("TEAL_URDF_FUZZ_SEED", 0x5eed1234u);
  int trials = (int)ts_fuzz_env("TEAL_URDF_FUZZ_TRIALS", 600);
  seed = seed ? seed : 1u; /* xorshift needs a nonzero state */
  for (int m = 0; m < NUM_MODELS; m++) {
    size_t len;
    char *xml = read_model(m, &len);
    int ok = ts_fuzz_mutations(xml, trials, &seed, &urdf_format, load_once);
    /* both outcomes occur: the mutations are neither all harmless nor all fatal */
    ck_assert_int_gt(ok, 0);
    ck_assert_int_lt(ok, trials);
    free(xml);
  }
  ck_assert_msg((codes_seen & WANTED_CODES) == WANTED_CODES, "codes seen: %#x", codes_seen);
  ts_alloc_expect_all_freed();
}
END_TEST

/* ---- the fixed corpus --------------------------------------------------------- */

/* Size and generator seed of the corpus, and its FNV-1a hash over every
 * mutated document (each followed by a NUL). */
#define CORPUS_SIZE 20000
#define CORPUS_SEED 0x14c0ffeeu
#define CORPUS_HASH 0xebe2ea16ccb18df8ull

static unsigned long long fnv1a(unsigned long long h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
  }
  return h;
}

/* The corpus's collision mesh, meshes/tool.obj (a cube), in a fresh working
 * folder; the previous working folder into cwd. */
static void enter_mesh_folder(char *dir, char *cwd, size_t cap) {
  ck_assert_ptr_nonnull(getcwd(cwd, cap));
  ck_assert_ptr_nonnull(mkdtemp(dir));
  ck_assert_int_eq(chdir(dir), 0);
  ck_assert_int_eq(mkdir("meshes", 0700), 0);
  teal_mesh cube = ts_mesh_box(0.05, 0.05, 0.05);
  ck_assert_int_eq(ts_mesh_write_obj("meshes/tool.obj", &cube), 0);
  teal_mesh_release(&cube);
}

static void leave_mesh_folder(const char *dir, const char *cwd) {
  unlink("meshes/tool.obj");
  rmdir("meshes");
  ck_assert_int_eq(chdir(cwd), 0);
  rmdir(dir);
}

START_TEST(fixed_corpus) {
  char mesh_dir[] = "/tmp/teal_urdf_fuzz_XXXXXX", cwd[4096];
  enter_mesh_folder(mesh_dir, cwd, sizeof cwd);
  ts_alloc_install();
  char *text_of[NUM_SEEDS];
  size_t len_of[NUM_SEEDS];
  for (int k = 0; k < NUM_SEEDS; k++) {
    text_of[k] = seed_text(seeds[k], &len_of[k]);
    teal_plant *p = teal_plant_new(0.0, NULL);
    teal_error e = {TEAL_OK, ""};
    ck_assert_msg(teal_urdf_load_string(p, text_of[k], NULL, &e) >= 2, "seed %d: %s", k, e.message);
    ck_assert_msg(teal_plant_finalize(p) == TEAL_OK, "seed %d: %s", k,
                  teal_plant_error(p)->message);
    teal_plant_free(p);
  }
  unsigned seed = CORPUS_SEED;
  unsigned long long hash = 0xcbf29ce484222325ull;
  int ok[NUM_SEEDS] = {0}, failed[NUM_SEEDS] = {0};
  codes_seen = 0;
  for (int i = 0; i < CORPUS_SIZE; i++) {
    int k = i % NUM_SEEDS;
    ts_fuzz_text t = ts_fuzz_text_of(text_of[k]);
    ts_fuzz_mutate(&t, &seed, &urdf_format);
    hash = fnv1a(hash, t.s, t.n + 1);
    if (load_once(t.s)) {
      ok[k]++;
    } else {
      failed[k]++;
    }
    free(t.s);
  }
  for (int k = 0; k < NUM_SEEDS; k++) {
    ck_assert_msg(ok[k] > 0 && failed[k] > 0, "seed %d: %d loaded, %d failed", k, ok[k], failed[k]);
    free(text_of[k]);
  }
  ck_assert_msg((codes_seen & WANTED_CODES) == WANTED_CODES, "codes seen: %#x", codes_seen);
  ck_assert_msg(hash == CORPUS_HASH,
                "the corpus changed (hash %#llx, pinned %#llx): the seeds, the mutators or "
                "the generator were edited; if that was meant, pin the new hash",
                hash, (unsigned long long)CORPUS_HASH);
  ts_alloc_expect_all_freed();
  leave_mesh_folder(mesh_dir, cwd);
}
END_TEST

int main(void) {
  Suite *s = suite_create("urdf_fuzz");
  TCase *tc = tcase_create("fuzz");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, fixed_corpus);
  tcase_add_test(tc, truncated_prefixes);
  tcase_add_test(tc, random_mutations);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
