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
#define _XOPEN_SOURCE 700 /* strdup, strndup */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "multibody/parsing/urdf.h"
#include "multibody/tree/topology.h"
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
  if (rc < 0) {
    ck_assert_msg(e.message[0] != '\0', "rc %d without a message", rc);
    ck_assert_int_eq(e.code, rc);
    codes_seen |= rc > -32 ? 1u << -rc : 1u;
  } else {
    ck_assert_int_ge(rc, 2);
    ck_assert_int_ge(r.num_warnings, 0);
  }
  teal_plant_finalize(p);
  teal_plant_free(p);
  return rc >= 0;
}

static char *read_model(int i, size_t *len) {
  char path[2048];
  char *xml = urdf_test_read(urdf_test_model_path(models[i], path, sizeof(path)), len);
  ck_assert_msg(xml != NULL, "cannot read %s", path);
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
    char *buf = malloc(len + 1);
    ck_assert_ptr_nonnull(buf);
    int ok = 0;
    for (size_t n = 0; n <= len; n += (n % 7) + 1) {
      memcpy(buf, xml, n);
      buf[n] = '\0';
      ok += load_once(buf);
    }
    /* the whole file (and it with trailing whitespace cut) loads */
    ck_assert_int_eq(load_once(xml), 1);
    ck_assert_int_ge(ok, 1);
    free(buf);
    free(xml);
  }
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  ts_alloc_uninstall();
}
END_TEST

/* ---- mutations ---------------------------------------------------------------- */

/* A growable string for the mutators. */
typedef struct text {
  char *s;
  size_t n;
} text;

static void text_replace(text *t, size_t at, size_t del, const char *ins, size_t nins) {
  char *s = malloc(t->n - del + nins + 1);
  ck_assert_ptr_nonnull(s);
  memcpy(s, t->s, at);
  memcpy(s + at, ins, nins);
  memcpy(s + at + nins, t->s + at + del, t->n - at - del);
  t->n = t->n - del + nins;
  s[t->n] = '\0';
  free(t->s);
  t->s = s;
}

/* xorshift32 (Marsaglia): the corpus owns its generator. */
static unsigned next_rand(unsigned *state) {
  unsigned x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}

static size_t pick(unsigned *seed, size_t n) {
  return n ? next_rand(seed) % n : 0;
}

static void flip_byte(text *t, unsigned *seed) {
  if (t->n) {
    char c = (char)(1 + next_rand(seed) % 255); /* never NUL */
    t->s[pick(seed, t->n)] = c;
  }
}

/* Deletes one "<...>" span starting at a random '<'. */
static void delete_tag(text *t, unsigned *seed) {
  size_t at = pick(seed, t->n);
  char *lt = strchr(t->s + at, '<');
  char *gt = lt ? strchr(lt, '>') : NULL;
  if (gt) {
    text_replace(t, (size_t)(lt - t->s), (size_t)(gt - lt) + 1, "", 0);
  }
}

/* Finds the quoted value at or after a random position: [*b, *e). */
static int find_value(const text *t, unsigned *seed, size_t *b, size_t *e) {
  char *q1 = strchr(t->s + pick(seed, t->n), '"');
  char *q2 = q1 ? strchr(q1 + 1, '"') : NULL;
  if (!q2) {
    return 0;
  }
  *b = (size_t)(q1 + 1 - t->s);
  *e = (size_t)(q2 - t->s);
  return 1;
}

/* Swaps two attribute values (names, numbers, links, types...). */
static void swap_values(text *t, unsigned *seed) {
  size_t b1, e1, b2, e2;
  if (!find_value(t, seed, &b1, &e1) || !find_value(t, seed, &b2, &e2) || b2 == b1) {
    return;
  }
  if (b2 < b1) {
    size_t tb = b1, te = e1;
    b1 = b2, e1 = e2, b2 = tb, e2 = te;
  }
  if (e1 >= b2) {
    return;
  }
  char *v1 = strndup(t->s + b1, e1 - b1), *v2 = strndup(t->s + b2, e2 - b2);
  ck_assert(v1 && v2);
  text_replace(t, b2, e2 - b2, v1, strlen(v1));
  text_replace(t, b1, e1 - b1, v2, strlen(v2));
  free(v1);
  free(v2);
}

/* Replaces an attribute value by a hostile one. */
static void poison_value(text *t, unsigned *seed) {
  static const char *const bad[] = {"nan", "-inf", "1e308", "-1e308", "1e-320", "0", "-1",
                                    "abc", "", "1e999", "   ", "1 2 3 4 5 6 7 8 9", "0x1p3",
                                    "1,5", "1e308 1e308 1e308", "-0", "world", "fixed"};
  size_t b, e;
  if (find_value(t, seed, &b, &e)) {
    const char *v = bad[pick(seed, sizeof(bad) / sizeof(bad[0]))];
    text_replace(t, b, e - b, v, strlen(v));
  }
}

/* Duplicates one line (repeated names, two parents, two inertials...). */
static void duplicate_line(text *t, unsigned *seed) {
  char *start = strchr(t->s + pick(seed, t->n), '\n');
  char *end = start ? strchr(start + 1, '\n') : NULL;
  if (end) {
    size_t n = (size_t)(end - start);
    char *line = strndup(start, n);
    ck_assert_ptr_nonnull(line);
    text_replace(t, (size_t)(end - t->s), 0, line, n);
    free(line);
  }
}

static void mutate(text *t, unsigned *seed) {
  int count = 1 + (int)pick(seed, 3);
  for (int i = 0; i < count; i++) {
    switch (pick(seed, 5)) {
      case 0:
        flip_byte(t, seed);
        break;
      case 1:
        delete_tag(t, seed);
        break;
      case 2:
        swap_values(t, seed);
        break;
      case 3:
        poison_value(t, seed);
        break;
      default:
        duplicate_line(t, seed);
        break;
    }
  }
}

static unsigned long env_or(const char *name, unsigned long def) {
  const char *s = getenv(name);
  return s && *s ? strtoul(s, NULL, 0) : def;
}

START_TEST(random_mutations) {
  ts_alloc_install();
  unsigned seed = (unsigned)env_or("TEAL_URDF_FUZZ_SEED", 0x5eed1234u);
  int trials = (int)env_or("TEAL_URDF_FUZZ_TRIALS", 600);
  seed = seed ? seed : 1u; /* xorshift needs a nonzero state */
  for (int m = 0; m < NUM_MODELS; m++) {
    size_t len;
    char *xml = read_model(m, &len);
    int ok = 0, failed = 0;
    for (int trial = 0; trial < trials; trial++) {
      text t = {strdup(xml), len};
      ck_assert_ptr_nonnull(t.s);
      mutate(&t, &seed);
      if (load_once(t.s)) {
        ok++;
      } else {
        failed++;
      }
      free(t.s);
    }
    /* both outcomes occur: the mutations are neither all harmless nor all fatal */
    ck_assert_int_gt(ok, 0);
    ck_assert_int_gt(failed, 0);
    free(xml);
  }
  /* parse errors, bad values, non-finite numbers, unknown and duplicate names */
  unsigned want = (1u << -TEAL_EPARSE) | (1u << -TEAL_EINVAL) | (1u << -TEAL_ENONFINITE) |
                  (1u << -TEAL_ENOTFOUND) | (1u << -TEAL_EDUPLICATE);
  ck_assert_msg((codes_seen & want) == want, "codes seen: %#x", codes_seen);
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  ts_alloc_uninstall();
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
    text t = {strdup(text_of[k]), len_of[k]};
    ck_assert_ptr_nonnull(t.s);
    mutate(&t, &seed);
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
  unsigned want = (1u << -TEAL_EPARSE) | (1u << -TEAL_EINVAL) | (1u << -TEAL_ENONFINITE) |
                  (1u << -TEAL_ENOTFOUND) | (1u << -TEAL_EDUPLICATE);
  ck_assert_msg((codes_seen & want) == want, "codes seen: %#x", codes_seen);
  ck_assert_msg(hash == CORPUS_HASH,
                "the corpus changed (hash %#llx, pinned %#llx): the seeds, the mutators or "
                "the generator were edited; if that was meant, pin the new hash",
                hash, (unsigned long long)CORPUS_HASH);
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  ts_alloc_uninstall();
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
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
