/* Regression tests of issue 14 (bad-input campaign), model scale and names:
 * int overflow in size products (defect 1), quadratic load and finalize
 * (2), joint axes whose norm overflows (6) and names with '/' (10), and
 * the scale test: generated models of 10,000 and 100,000 bodies load,
 * finalize and evaluate, or fail with a clear size error, in bounded
 * memory.
 *
 * On the code before the fixes: 10,000 free bodies failed to finalize
 * ("size -694967296 < 0", nv^2 in an int) and 10,923 crashed; a 10,000-link
 * chain kept 2.4 GB of dense nv x nv arrays per context; 100,000 links took
 * minutes to finalize (an O(n^2) loop check and tree order, and an O(n)
 * name search per add); the axis (1e300, 1e300, 0) was stored as zero; an
 * instance named "a/b" loaded and then finalize failed. Work is bounded by
 * model sizes and allocation counts, never by wall time. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/mass_inverse.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/math/spatial.h"
#include "multibody/parsing/urdf.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* ---- generated models ------------------------------------------------------ */

/* n free bodies "b1".."bn" (1 kg solid spheres of radius 0.1), not finalized. */
static teal_plant *free_bodies(int n) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  char name[32];
  int wrong = 0; /* one assertion at the end: Check records every assertion */
  for (int i = 1; i <= n; i++) {
    snprintf(name, sizeof(name), "b%d", i);
    wrong += teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M) != i;
  }
  ck_assert_msg(wrong == 0, "%d adds failed: %s", wrong, teal_plant_error(p)->message);
  return p;
}

/* A chain of n links "l1".."ln" hanging from the world: link i is hinged
 * about +y at 0.1 m below link i - 1's origin, where its own center of mass
 * is, so at q = 0 the chain hangs straight down. Not finalized; discrete
 * for time_step > 0. */
static teal_plant *chain(int n, double time_step) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  teal_transform X_PF = teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, -0.1));
  teal_vec3 y = teal_vec3_make(0.0, 1.0, 0.0);
  char name[32];
  int parent = TEAL_WORLD_FRAME, wrong = 0;
  for (int i = 1; i <= n; i++) {
    snprintf(name, sizeof(name), "l%d", i);
    int b = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
    snprintf(name, sizeof(name), "f%d", i);
    int f = teal_plant_add_frame(p, name, parent, X_PF);
    snprintf(name, sizeof(name), "j%d", i);
    int j =
        teal_plant_add_joint(p, name, TEAL_JOINT_REVOLUTE, f, teal_plant_body_frame(p, b), &y, 0.0);
    wrong += b != i || j != i - 1;
    parent = teal_plant_body_frame(p, b);
  }
  ck_assert_msg(wrong == 0, "%d links failed: %s", wrong, teal_plant_error(p)->message);
  return p;
}

/* The same chain as a URDF document (teal_alloc'd). */
static char *chain_urdf(int n) {
  size_t cap = (size_t)n * 360 + 128, len = 0;
  char *x = teal_alloc(cap);
  len += (size_t)snprintf(x, cap, "<robot name=\"chain\"><link name=\"world\"/>\n");
  for (int i = 1; i <= n; i++) {
    char parent[16] = "world";
    if (i > 1) {
      snprintf(parent, sizeof(parent), "l%d", i - 1);
    }
    len +=
        (size_t)snprintf(x + len, cap - len,
                         "<link name=\"l%d\"><inertial><mass value=\"1\"/><inertia ixx=\"0.004\" "
                         "iyy=\"0.004\" izz=\"0.004\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>"
                         "</link>\n<joint name=\"j%d\" type=\"continuous\"><parent link=\"%s\"/>"
                         "<child link=\"l%d\"/><origin xyz=\"0 0 -0.1\"/><axis xyz=\"0 1 0\"/>"
                         "</joint>\n",
                         i, i, parent, i);
  }
  snprintf(x + len, cap - len, "</robot>\n");
  return x;
}

static void finalize_ok(teal_plant *p) {
  ck_assert_msg(teal_plant_finalize(p) == TEAL_OK, "finalize: %s", teal_plant_error(p)->message);
}

/* A context of p made under the counting allocator; *bytes gets what it
 * allocated. */
static teal_context *counted_context(teal_plant *p, size_t *bytes) {
  teal_error err = {0, ""};
  ts_alloc_install();
  teal_context *ctx = teal_context_new(teal_plant_system(p), &err);
  *bytes = ts_alloc_stats_get()->bytes;
  ts_alloc_uninstall();
  ck_assert_msg(ctx != NULL, "context_new: %s", err.message);
  return ctx;
}

static double max_abs(const double *x, int n) {
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(x[i]));
  }
  return m;
}

/* ---- defect 1 and the scale test: 10,000 bodies ------------------------------ */

/* Below the cap the dense mass matrix is still kept: two free bodies. */
static void small_mass_matrix_kept(void) {
  teal_plant *p = free_bodies(2);
  finalize_ok(p);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  const double *M;
  ck_assert_int_eq(teal_plant_eval_mass_matrix(p, ctx, &M), TEAL_OK);
  double I = 0.4 * 1.0 * 0.1 * 0.1; /* 2/5 m r^2 */
  for (int r = 0; r < 12; r++) {
    for (int c = 0; c < 12; c++) {
      double want = r != c ? 0.0 : r % 6 < 3 ? I : 1.0;
      ck_assert_double_eq_tol(M[r * 12 + c], want, 1e-15);
    }
  }
  teal_context_free(ctx);
  teal_plant_free(p);
}

/* 10,000 free bodies (nv = 60,000, nv^2 > INT_MAX): finalize, a context of
 * O(n) memory, free fall for every body, and a mass matrix that fails with
 * a size error naming nv instead of wrapping around. */
START_TEST(scale_10000_free_bodies) {
  teal_plant *p = free_bodies(10000);
  finalize_ok(p);
  ck_assert_int_eq(teal_plant_nv(p), 60000);
  size_t bytes;
  teal_context *ctx = counted_context(p, &bytes);
  ck_assert_msg(bytes < (size_t)64 << 20, "context_new allocated %zu bytes", bytes);
  const double *vdot;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  int wrong = 0;                    /* one assertion at the end: Check records every assertion */
  for (int b = 0; b < 10000; b++) { /* at rest, unrotated: vdot = (0, 0, 0, g) */
    for (int i = 0; i < 6; i++) {
      wrong += !(fabs(vdot[6 * b + i] - (i == 5 ? -9.81 : 0.0)) <= 1e-12);
    }
  }
  ck_assert_int_eq(wrong, 0);
  const double *M = NULL;
  TS_EXPECT_ERROR(teal_plant_eval_mass_matrix(p, ctx, &M), TEAL_ESIZE, teal_context_error(ctx),
                  "nv = 60000");
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "teal_mb_mass_matrix"));
  teal_context_free(ctx);
  teal_plant_free(p);
  small_mass_matrix_kept();
}
END_TEST

/* A 10,000-link chain loaded from URDF: its dense nv x nv arrays (763 MiB
 * each) are not kept, so a context is O(n); forward dynamics (ABA, O(n))
 * works, and the mass matrix and its per-tree blocks fail with size errors. */
START_TEST(scale_10000_link_chain) {
  char *xml = chain_urdf(10000);
  teal_error err = {0, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_msg(teal_urdf_load_string(p, xml, NULL, &err) == 2, "load: %s", err.message);
  teal_free(xml);
  finalize_ok(p);
  ck_assert_int_eq(teal_plant_nv(p), 10000);
  size_t bytes;
  teal_context *ctx = counted_context(p, &bytes);
  ck_assert_msg(bytes < (size_t)64 << 20, "context_new allocated %zu bytes", bytes);
  const double *vdot;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_double_lt(max_abs(vdot, 10000), 1e-9); /* hanging straight down: at rest */
  const double *M = NULL;
  TS_EXPECT_ERROR(teal_plant_eval_mass_matrix(p, ctx, &M), TEAL_ESIZE, teal_context_error(ctx),
                  "nv = 10000");
  teal_context_free(ctx);
  /* the same through the algorithms' own data */
  teal_mb_data *data = teal_mb_data_new(p, &err);
  ck_assert_msg(data != NULL, "teal_mb_data_new: %s", err.message);
  double *q = calloc(10000, sizeof(double)), *v = calloc(10000, sizeof(double));
  double *a = calloc(10000, sizeof(double));
  TS_EXPECT_ERROR(teal_mb_mass_blocks_factorize(p, data, q), TEAL_ESIZE, teal_mb_data_error(data),
                  "the largest of 10000 dofs");
  ck_assert_int_eq(teal_mb_forward_dynamics(p, data, q, v, NULL, a), TEAL_OK);
  ck_assert_double_lt(max_abs(a, 10000), 1e-9);
  free(q);
  free(v);
  free(a);
  teal_mb_data_free(data);
  teal_plant_free(p);
}
END_TEST

/* A discrete 6,000-link chain with a collision sphere on its last link:
 * its one tree's block of M (6,000^2 doubles, 275 MiB) is over the cap, so
 * neither the blocks nor the contact step's Newton matrix are kept in a
 * context (with them and the mass matrix, the old code's context took
 * 1.1 GB), and the step, which factors M by those blocks, fails with a size
 * error. */
START_TEST(discrete_contact_chain_over_cap) {
  teal_plant *p = chain(6000, 1e-3);
  teal_shape sphere;
  teal_shape_sphere(0.05, &sphere, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  ck_assert_int_ge(teal_plant_register_collision_geometry(p, 6000, teal_transform_identity(),
                                                          &sphere, "tip", &props),
                   0);
  finalize_ok(p);
  size_t bytes;
  teal_context *ctx = counted_context(p, &bytes);
  ck_assert_msg(bytes < (size_t)64 << 20, "context_new allocated %zu bytes", bytes);
  const double *vdot;
  TS_EXPECT_ERROR(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_ESIZE,
                  teal_context_error(ctx), "the largest of 6000 dofs");
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* ---- defect 2 and the scale test: 100,000 bodies -------------------------------- */

/* The name index keeps the lookup rules: names are per instance, a lookup
 * in any instance finds the one element of that name and refuses a name
 * several instances hold, duplicates are refused. */
static void name_index_rules(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error err = {0, ""};
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  char name[32];
  for (int i = 0; i < 300; i++) { /* 300 instances, each with a "base" and a "link<i>" */
    snprintf(name, sizeof(name), "robot%d", i);
    int inst = teal_plant_add_model_instance(p, name);
    ck_assert_int_eq(inst, 2 + i);
    ck_assert_int_eq(teal_plant_add_rigid_body(p, "base", inst, &M), 1 + 2 * i);
    snprintf(name, sizeof(name), "link%d", i);
    ck_assert_int_eq(teal_plant_add_rigid_body(p, name, inst, &M), 2 + 2 * i);
  }
  TS_EXPECT_ERROR(teal_plant_get_body_by_name(p, "base", -1, &err), TEAL_EINVAL, &err,
                  "'robot0' and 'robot1' (and more)");
  ck_assert_int_eq(teal_plant_num_bodies_with_name(p, "base"), 300);
  ck_assert_int_eq(teal_plant_get_body_by_name(p, "base", 2, NULL), 1);
  ck_assert_int_eq(teal_plant_get_body_by_name(p, "base", 2 + 150, NULL), 1 + 2 * 150);
  ck_assert_int_eq(teal_plant_get_body_by_name(p, "link299", -1, NULL), 2 + 2 * 299);
  ck_assert_int_lt(teal_plant_get_body_by_name(p, "link299", 2, NULL), 0);
  ck_assert_int_eq(teal_plant_get_model_instance_by_name(p, "robot7", NULL), 9);
  ck_assert_int_eq(teal_plant_get_frame_by_name(p, "base", 5, NULL), 1 + 2 * 3);
  TS_EXPECT_ERROR(teal_plant_add_rigid_body(p, "base", 3, &M), TEAL_EDUPLICATE, teal_plant_error(p),
                  "'base' already exists");
  teal_plant_free(p);
}

/* A 100,000-link chain loads and finalizes (O(n) adds, loop check and tree
 * order), with node k = body k, consecutive q and v, and every name found;
 * the name index keeps the lookup rules (name_index_rules). */
START_TEST(scale_100000_link_chain) {
  teal_plant *p = chain(100000, 0.0);
  finalize_ok(p);
  ck_assert_int_eq(teal_plant_num_nodes(p), 100001);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int wrong = 0; /* one assertion at the end: Check records every assertion */
  for (int k = 1; k <= 100000; k++) {
    wrong += teal_plant_node_body(p, k) != k || t->parent[k] != k - 1 || t->q_start[k] != k - 1;
  }
  ck_assert_int_eq(wrong, 0);
  char name[32];
  for (int i = 1; i <= 100000; i++) {
    snprintf(name, sizeof(name), "l%d", i);
    wrong += teal_plant_get_body_by_name(p, name, TEAL_DEFAULT_MODEL_INSTANCE, NULL) != i;
    snprintf(name, sizeof(name), "j%d", i);
    wrong += teal_plant_get_joint_by_name(p, name, -1, NULL) != i - 1;
  }
  ck_assert_int_eq(wrong, 0);
  ck_assert_int_lt(teal_plant_get_body_by_name(p, "l100001", -1, NULL), 0);
  teal_plant_free(p);
  name_index_rules();
}
END_TEST

/* 100,000 free bodies: finalize adds 100,000 floating joints by name. */
START_TEST(scale_100000_free_bodies) {
  teal_plant *p = free_bodies(100000);
  finalize_ok(p);
  ck_assert_int_eq(teal_plant_nq(p), 700000);
  ck_assert_int_eq(teal_plant_get_joint_by_name(p, "$world_b100000", -1, NULL), 99999);
  ck_assert_int_eq(teal_plant_joint_q_start(p, 99999), 7 * 99999);
  teal_plant_free(p);
}
END_TEST

/* A 100,000-link chain and, added after it, a two-body loop with three
 * links hanging from it: the loop is found and named in one O(n) pass (the
 * old check walked every chain link down to the world: O(n^2)). */
START_TEST(loop_after_100000_links_reported) {
  teal_plant *p = chain(100000, 0.0);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int t1 = teal_plant_add_rigid_body(p, "t1", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int t2 = teal_plant_add_rigid_body(p, "t2", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int t3 = teal_plant_add_rigid_body(p, "t3", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int a = teal_plant_add_rigid_body(p, "a", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int b = teal_plant_add_rigid_body(p, "b", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int f[5] = {teal_plant_body_frame(p, b), teal_plant_body_frame(p, t1),
              teal_plant_body_frame(p, t2), teal_plant_body_frame(p, t3),
              teal_plant_body_frame(p, a)};
  teal_plant_add_joint(p, "w1", TEAL_JOINT_WELD, f[0], f[1], NULL, 0.0);
  teal_plant_add_joint(p, "w2", TEAL_JOINT_WELD, f[1], f[2], NULL, 0.0);
  teal_plant_add_joint(p, "w3", TEAL_JOINT_WELD, f[2], f[3], NULL, 0.0);
  teal_plant_add_joint(p, "ab", TEAL_JOINT_WELD, f[4], f[0], NULL, 0.0);
  teal_plant_add_joint(p, "ba", TEAL_JOINT_WELD, f[0], f[4], NULL, 0.0);
  ck_assert_msg(teal_plant_error(p)->code == TEAL_OK, "%s", teal_plant_error(p)->message);
  TS_EXPECT_ERROR(teal_plant_finalize(p), TEAL_EINVAL, teal_plant_error(p),
                  "kinematic loop through joints 'ab', 'ba'");
  ck_assert_ptr_null(strstr(teal_plant_error(p)->message, "'w"));
  ck_assert_ptr_null(strstr(teal_plant_error(p)->message, "'j"));
  teal_plant_free(p);
}
END_TEST

/* ---- defect 6: joint axes whose norm overflows or underflows ------------------- */

/* Adds a revolute joint about axis between two new bodies and returns the
 * unit axis the finalized tree holds. */
static teal_vec3 stored_axis(teal_vec3 axis, teal_joint_kind kind) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(p, "b", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int j =
      teal_plant_add_joint(p, "j", kind, TEAL_WORLD_FRAME, teal_plant_body_frame(p, b), &axis, 0.1);
  ck_assert_msg(j == 0, "add_joint: %s", teal_plant_error(p)->message);
  finalize_ok(p);
  teal_vec3 u = teal_plant_get_tree(p)->params[1].axis;
  teal_plant_free(p);
  return u;
}

static void expect_axis(teal_vec3 axis, teal_joint_kind kind, double x, double y, double z) {
  teal_vec3 u = stored_axis(axis, kind);
  ck_assert_double_eq_tol(u.v[0], x, 1e-15);
  ck_assert_double_eq_tol(u.v[1], y, 1e-15);
  ck_assert_double_eq_tol(u.v[2], z, 1e-15);
}

/* Too short (|a| < 1e-12, subnormal components included) or not finite. */
static void joint_axis_degenerate_rejected(void) {
  teal_vec3 bad[] = {teal_vec3_make(0.0, 0.0, 0.0), teal_vec3_make(1e-13, 0.0, 0.0),
                     teal_vec3_make(5e-324, 5e-324, 0.0), teal_vec3_make(INFINITY, 0.0, 0.0),
                     teal_vec3_make(NAN, 1.0, 0.0)};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    teal_plant *p = teal_plant_new(0.0, NULL);
    teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
    int b = teal_plant_add_rigid_body(p, "b", TEAL_DEFAULT_MODEL_INSTANCE, &M);
    TS_EXPECT_ERROR(teal_plant_add_joint(p, "j", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                         teal_plant_body_frame(p, b), &bad[i], 0.0),
                    TEAL_EINVAL, teal_plant_error(p), "axis");
    teal_plant_free(p);
  }
}

/* Huge and tiny axes are normalized (the old code divided by an overflowed
 * norm and stored zero); degenerate ones are still refused. */
START_TEST(joint_axis_huge_and_tiny_normalized) {
  double s2 = sqrt(0.5), s3 = sqrt(1.0 / 3.0);
  expect_axis(teal_vec3_make(1e300, 1e300, 0.0), TEAL_JOINT_REVOLUTE, s2, s2, 0.0);
  expect_axis(teal_vec3_make(1e308, -1e308, 1e308), TEAL_JOINT_PRISMATIC, s3, -s3, s3);
  expect_axis(teal_vec3_make(0.0, -1.7e308, 0.0), TEAL_JOINT_SCREW, 0.0, -1.0, 0.0);
  expect_axis(teal_vec3_make(3e-12, 4e-12, 0.0), TEAL_JOINT_REVOLUTE, 0.6, 0.8, 0.0);
  expect_axis(teal_vec3_make(0.0, 0.0, 2.0), TEAL_JOINT_REVOLUTE, 0.0, 0.0, 1.0);
  joint_axis_degenerate_rejected();
}
END_TEST

/* The URDF reader normalizes an axis the same way, and says why it refuses
 * one (it called (1e300, 1e300, 0) "zero"). */
START_TEST(urdf_axis_huge_normalized) {
  static const char fmt[] =
      "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"><inertial><mass value=\"1\"/>"
      "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>"
      "</link><joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/>"
      "<axis xyz=\"%s\"/></joint></robot>";
  char xml[800];
  snprintf(xml, sizeof xml, fmt, "1e300 1e300 0");
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error err;
  ck_assert_msg(teal_urdf_load_string(p, xml, NULL, &err) >= 0, "%s", err.message);
  finalize_ok(p);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  ck_assert_double_eq_tol(t->params[1].axis.v[0], sqrt(0.5), 1e-15);
  ck_assert_double_eq_tol(t->params[1].axis.v[1], sqrt(0.5), 1e-15);
  teal_plant_free(p);
  const char *bad[] = {"0 0 0", "1e-13 0 0", "inf 0 0", "5e-324 0 0"};
  const char *why[] = {"nonzero", "nonzero", "finite", "nonzero"};
  for (int i = 0; i < 4; i++) {
    snprintf(xml, sizeof xml, fmt, bad[i]);
    p = teal_plant_new(0.0, NULL);
    int rc = teal_urdf_load_string(p, xml, NULL, &err);
    ck_assert_int_lt(rc, 0);
    ck_assert_msg(strstr(err.message, why[i]) != NULL, "%s: %s", bad[i], err.message);
    teal_plant_free(p);
  }
}
END_TEST

/* ---- defect 10: names ----------------------------------------------------------- */

/* Every kind of plant name with a '/' (or empty) is refused where it enters. */
START_TEST(names_with_slash_rejected_by_the_plant) {
  const char *bad[] = {"a/b", "/", ""};
  for (size_t i = 0; i < 3; i++) {
    for (int kind = 0; kind < 5; kind++) {
      teal_plant *p = teal_plant_new(0.0, NULL);
      teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
      int b = teal_plant_add_rigid_body(p, "b", TEAL_DEFAULT_MODEL_INSTANCE, &M);
      int j = teal_plant_add_joint(p, "j", TEAL_JOINT_PRISMATIC, TEAL_WORLD_FRAME,
                                   teal_plant_body_frame(p, b), &(teal_vec3){{1, 0, 0}}, 0.0);
      int rc = kind == 0   ? teal_plant_add_model_instance(p, bad[i])
               : kind == 1 ? teal_plant_add_rigid_body(p, bad[i], TEAL_DEFAULT_MODEL_INSTANCE, &M)
               : kind == 2 ? teal_plant_add_frame(p, bad[i], 0, teal_transform_identity())
               : kind == 3 ? teal_plant_add_joint(p, bad[i], TEAL_JOINT_WELD, 0, 0, NULL, 0.0)
                           : teal_plant_add_joint_actuator(p, bad[i], j, 1.0);
      TS_EXPECT_ERROR(rc, TEAL_EINVAL, teal_plant_error(p), bad[i][0] ? "contains '/'" : "empty");
      ck_assert_ptr_nonnull(strstr(teal_plant_error(p)->message, "plant: add"));
      teal_plant_free(p);
    }
  }
}
END_TEST

static const char k_robot[] =
    "<robot name=\"%s\"><link name=\"%s\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" "
    "iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link></robot>";

/* Loads k_robot with robot and link names into p; returns the status. */
static int load_robot(teal_plant *p, const char *robot, const char *link, const char *instance,
                      teal_error *err) {
  char xml[512];
  snprintf(xml, sizeof(xml), k_robot, robot, link);
  return teal_urdf_load_string(p, xml, instance, err);
}

/* A URDF robot, instance or link name with '/' fails the load (before the
 * plant is touched), and the plant still loads and finalizes a good model. */
START_TEST(names_with_slash_rejected_by_urdf) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error err = {0, ""};
  TS_EXPECT_ERROR(load_robot(p, "a/b", "base", NULL, &err), TEAL_EINVAL, &err,
                  "model instance name 'a/b' contains '/'");
  TS_EXPECT_ERROR(load_robot(p, "r", "base", "x/y", &err), TEAL_EINVAL, &err,
                  "model instance name 'x/y' contains '/'");
  TS_EXPECT_ERROR(load_robot(p, "r", "base/link", NULL, &err), TEAL_EINVAL, &err,
                  "link name 'base/link' contains '/'");
  ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
  ck_assert_int_eq(teal_plant_num_model_instances(p), 2);
  ck_assert_int_eq(load_robot(p, "a_b", "base", NULL, &err), 2);
  finalize_ok(p);
  ck_assert_int_ge(teal_plant_instance_state_output_port(p, 2), 0);
  teal_plant_free(p);
}
END_TEST

/* Long names: two instances (and two free bodies) whose names share their
 * first 300 characters keep distinct ports (and floating joints); fixed
 * buffers cut them to the same name, and finalize failed. */
START_TEST(long_names_finalize) {
  char a[400], b[400];
  memset(a, 'x', 350);
  a[350] = '\0';
  memcpy(b, a, sizeof(a));
  a[340] = 'A';
  b[340] = 'B';
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int ia = teal_plant_add_model_instance(p, a), ib = teal_plant_add_model_instance(p, b);
  ck_assert_int_eq(teal_plant_add_rigid_body(p, a, ia, &M), 1);
  ck_assert_int_eq(teal_plant_add_rigid_body(p, b, ib, &M), 2);
  finalize_ok(p);
  ck_assert_int_ne(teal_plant_instance_state_output_port(p, ia),
                   teal_plant_instance_state_output_port(p, ib));
  char joint[420];
  snprintf(joint, sizeof(joint), "$world_%s", b);
  ck_assert_int_eq(teal_plant_get_joint_by_name(p, joint, ib, NULL), 1);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("robustness_scale");
  TCase *tc = tcase_create("scale");
  tcase_add_test(tc, scale_10000_free_bodies);
  tcase_add_test(tc, scale_10000_link_chain);
  tcase_add_test(tc, discrete_contact_chain_over_cap);
  tcase_add_test(tc, scale_100000_link_chain);
  tcase_add_test(tc, scale_100000_free_bodies);
  tcase_add_test(tc, loop_after_100000_links_reported);
  tcase_add_test(tc, joint_axis_huge_and_tiny_normalized);
  tcase_add_test(tc, urdf_axis_huge_normalized);
  tcase_add_test(tc, names_with_slash_rejected_by_the_plant);
  tcase_add_test(tc, names_with_slash_rejected_by_urdf);
  tcase_add_test(tc, long_names_finalize);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
