/* Selector matrices (Drake's MakeStateSelectorMatrix and
 * MakeActuatorSelectorMatrix). References: the selected state gathered by
 * hand from the finalized tree arrays (node q_start, nq, v_start, nv) on a
 * random tree with every joint kind; the identity for all joints in tree
 * order; actuators found by name; and a PID wired to part of a two-instance
 * plant (cart-pole + 7-dof arm) through two matrix gains against the same
 * loop sliced by hand with demultiplexers and multiplexers. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "teal.h"
#include "support/error_messages.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

#define MAXX 256

/* The "tree" topology (every joint kind) as a finalized random plant. */
static teal_plant *every_joint_plant(void) {
  for (int t = 0; t < ts_mb_num_topologies; t++) {
    if (strcmp(ts_mb_topologies[t].name, "tree") == 0) {
      teal_plant *p = ts_mb_random_tree(ts_mb_topologies[t].spec, ts_mb_topologies[t].n, 7u, 2);
      ck_assert_ptr_nonnull(p);
      return p;
    }
  }
  ck_abort_msg("no tree topology");
  return NULL;
}

/* Reference x_s gathered through the tree arrays: the node of the joint's
 * child body gives q_start, nq, v_start, nv. Returns the number of rows. */
static int gather(const teal_plant *p, const int *joints, int n, const double *x, double *xs) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int nq = teal_plant_nq(p), r = 0;
  for (int i = 0; i < n; i++) {
    int k = teal_plant_body_node(p, teal_plant_joint_child_body(p, joints[i]));
    for (int m = 0; m < t->nq[k]; m++) {
      xs[r++] = x[t->q_start[k] + m];
    }
  }
  for (int i = 0; i < n; i++) {
    int k = teal_plant_body_node(p, teal_plant_joint_child_body(p, joints[i]));
    for (int m = 0; m < t->nv[k]; m++) {
      xs[r++] = x[nq + t->v_start[k] + m];
    }
  }
  return r;
}

/* y = S x for row-major S (rows x cols). */
static void mat_vec(const double *S, int rows, int cols, const double *x, double *y) {
  for (int i = 0; i < rows; i++) {
    y[i] = 0.0;
    for (int j = 0; j < cols; j++) {
      y[i] += S[(size_t)i * (size_t)cols + (size_t)j] * x[j];
    }
  }
}

/* Every row of S holds one 1 and zeros, and no two rows share a column. */
static void expect_selector_rows(const double *S, int rows, int cols) {
  int used[MAXX] = {0};
  for (int i = 0; i < rows; i++) {
    int ones = 0;
    for (int j = 0; j < cols; j++) {
      double s = S[(size_t)i * (size_t)cols + (size_t)j];
      ck_assert(s == 0.0 || s == 1.0);
      if (s == 1.0) {
        ones++;
        ck_assert_int_eq(used[j]++, 0);
      }
    }
    ck_assert_int_eq(ones, 1);
  }
}

START_TEST(state_selector_every_joint_kind) {
  teal_plant *p = every_joint_plant();
  int nj = teal_plant_num_joints(p), nx = teal_plant_nq(p) + teal_plant_nv(p);
  ck_assert_int_le(nx, MAXX);
  unsigned s = 11u;
  double x[MAXX], xs[MAXX], ref[MAXX];
  ts_mb_rand_vec(&s, x, nx, 2.0);
  /* every joint (welds, ball, quaternion-floating and the added floating
   * joints included) in a shuffled order, then a few prefixes */
  int joints[64];
  ck_assert_int_le(nj, 64);
  for (int j = 0; j < nj; j++) {
    joints[j] = j;
  }
  for (int j = nj - 1; j > 0; j--) {
    int k = (int)(ts_rand_next(&s) % (unsigned)(j + 1)), tmp = joints[j];
    joints[j] = joints[k];
    joints[k] = tmp;
  }
  int kinds_seen = 0;
  for (int j = 0; j < nj; j++) {
    kinds_seen |= 1 << teal_plant_joint_kind(p, j);
  }
  ck_assert_int_eq(kinds_seen, (1 << TEAL_JOINT_KIND_COUNT) - 1); /* every kind */
  double *S = malloc(sizeof(double) * MAXX * MAXX);
  for (int n = nj; n >= 0; n -= 3) {
    int nq_s = -1, nv_s = -1;
    ck_assert_int_eq(teal_plant_state_selector_size(p, joints, n, &nq_s, &nv_s, NULL), TEAL_OK);
    int rows = gather(p, joints, n, x, ref);
    ck_assert_int_eq(nq_s + nv_s, rows);
    ck_assert_int_eq(teal_plant_make_state_selector_matrix(p, joints, n, S, rows, nx, NULL),
                     TEAL_OK);
    expect_selector_rows(S, rows, nx);
    mat_vec(S, rows, nx, x, xs);
    for (int i = 0; i < rows; i++) {
      ck_assert_double_eq(xs[i], ref[i]);
    }
  }
  /* all joints in tree order select the whole state: Sx = I */
  int order[64], n = 0;
  for (int k = 1; k < teal_plant_num_nodes(p); k++) {
    order[n++] = teal_plant_body_joint(p, teal_plant_node_body(p, k));
  }
  ck_assert_int_eq(teal_plant_make_state_selector_matrix(p, order, n, S, nx, nx, NULL), TEAL_OK);
  for (int i = 0; i < nx; i++) {
    for (int j = 0; j < nx; j++) {
      ck_assert_double_eq(S[i * nx + j], i == j ? 1.0 : 0.0);
    }
  }
  /* an empty list: 0 rows, nothing written */
  ck_assert_int_eq(teal_plant_make_state_selector_matrix(p, NULL, 0, NULL, 0, nx, NULL), TEAL_OK);
  free(S);
  teal_plant_free(p);
}
END_TEST

/* Cart-pole (instance "cp") and the 7-dof arm (instance "arm"), continuous
 * or discrete. */
static teal_plant *two_robots(double time_step) {
  teal_error err;
  teal_plant *p = teal_plant_new(time_step, &err);
  ck_assert_ptr_nonnull(p);
  ck_assert_int_ge(teal_urdf_load_file(p, TEAL_MODELS_DIR "/cart_pole.urdf", "cp", &err), 0);
  ck_assert_int_ge(teal_urdf_load_file(p, TEAL_MODELS_DIR "/iiwa7_like.urdf", "arm", &err), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

static int joint(const teal_plant *p, const char *name) {
  int j = teal_plant_get_joint_by_name(p, name, -1, NULL);
  ck_assert_int_ge(j, 0);
  return j;
}

static int actuator(const teal_plant *p, const char *name) {
  int a = teal_plant_get_actuator_by_name(p, name, -1, NULL);
  ck_assert_int_ge(a, 0);
  return a;
}

START_TEST(actuator_selector_by_actuator_and_joint) {
  teal_plant *p = two_robots(0.0);
  int nu = teal_plant_nu(p);
  ck_assert_int_eq(nu, 8);
  const char *jn[3] = {"iiwa_joint_4", "x", "iiwa_joint_2"};
  const char *an[3] = {"iiwa_joint_4_motor", "force", "iiwa_joint_2_motor"};
  int js[3], as[3];
  for (int i = 0; i < 3; i++) {
    js[i] = joint(p, jn[i]);
    as[i] = actuator(p, an[i]);
  }
  double Su[8 * 3], Sj[8 * 3], us[3] = {1.5, -2.0, 0.25}, u[8];
  ck_assert_int_eq(teal_plant_make_actuator_selector_matrix(p, as, 3, Su, nu, 3, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_make_actuator_selector_matrix_for_joints(p, js, 3, Sj, nu, 3, NULL),
                   TEAL_OK);
  ck_assert_mem_eq(Su, Sj, sizeof Su);
  mat_vec(Su, nu, 3, us, u);
  for (int a = 0; a < nu; a++) {
    double want = 0.0;
    for (int i = 0; i < 3; i++) {
      want = a == as[i] ? us[i] : want;
    }
    ck_assert_double_eq(u[a], want);
  }
  /* the actuation matrix then maps u_s to the selected joints' v entries */
  int nv = teal_plant_nv(p);
  double B[16 * 8], tau[16];
  ck_assert_int_le(nv, 16);
  ck_assert_int_eq(teal_plant_make_actuation_matrix(p, B), TEAL_OK);
  mat_vec(B, nv, nu, u, tau);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq(tau[teal_plant_joint_v_start(p, js[i])], us[i]);
  }
  /* no actuators listed: nu x 0 */
  ck_assert_int_eq(teal_plant_make_actuator_selector_matrix(p, NULL, 0, NULL, nu, 0, NULL),
                   TEAL_OK);
  teal_plant_free(p);
}
END_TEST

/* Two links on revolute joints: "pin" (driven by actuators "m1" and "m2")
 * and "hinge" (no actuator); finalized when asked. */
static teal_plant *odd_actuators(int finalize) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b1 = teal_plant_add_rigid_body(p, "l1", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int b2 = teal_plant_add_rigid_body(p, "l2", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 z = teal_vec3_make(0.0, 0.0, 1.0);
  int j1 = teal_plant_add_joint(p, "pin", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                teal_plant_body_frame(p, b1), &z, 0.0);
  ck_assert_int_ge(
      teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, teal_plant_body_frame(p, b1),
                           teal_plant_body_frame(p, b2), &z, 0.0),
      0);
  ck_assert_int_eq(teal_plant_add_joint_actuator(p, "m1", j1, INFINITY), 0);
  ck_assert_int_eq(teal_plant_add_joint_actuator(p, "m2", j1, INFINITY), 1);
  if (finalize) {
    ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  }
  return p;
}

START_TEST(selector_errors) {
  teal_plant *p = odd_actuators(0);
  teal_error e;
  double S[4 * 4];
  int pin = joint(p, "pin"), hinge = joint(p, "hinge");
  int two[2] = {pin, hinge};
  ts_stale_error(&e);
  TS_EXPECT_ERROR(teal_plant_make_state_selector_matrix(p, two, 2, S, 4, 4, &e), TEAL_ESTATE, &e,
                  "not finalized");
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ts_stale_error(&e);
  TS_EXPECT_ERROR(teal_plant_make_state_selector_matrix(NULL, two, 2, S, 4, 4, &e), TEAL_EINVAL, &e,
                  "plant is NULL");
  TS_EXPECT_ERROR(teal_plant_state_selector_size(NULL, two, 2, NULL, NULL, &e), TEAL_EINVAL, &e,
                  "teal_plant_state_selector_size");
  TS_EXPECT_ERROR(teal_plant_make_state_selector_matrix(p, NULL, 2, S, 4, 4, &e), TEAL_EINVAL, &e,
                  "is NULL");
  TS_EXPECT_ERROR(teal_plant_make_state_selector_matrix(p, two, -1, S, 4, 4, &e), TEAL_ESIZE, &e,
                  "negative");
  int bad[2] = {pin, teal_plant_num_joints(p)};
  TS_EXPECT_ERROR(teal_plant_make_state_selector_matrix(p, bad, 2, S, 4, 4, &e), TEAL_ENOTFOUND, &e,
                  "entry 1 (2) names no joint (the plant has 2 joints)");
  bad[1] = -1;
  TS_EXPECT_ERROR(teal_plant_make_state_selector_matrix(p, bad, 2, S, 4, 4, &e), TEAL_ENOTFOUND, &e,
                  "entry 1 (-1)");
  int rep[3] = {hinge, pin, hinge};
  TS_EXPECT_ERROR(teal_plant_make_state_selector_matrix(p, rep, 3, S, 6, 4, &e), TEAL_EINVAL, &e,
                  "joint 'hinge' (index 1) is repeated (entries 0 and 2)");
  /* wrong shapes and a NULL matrix; a failure leaves the matrix alone */
  for (int i = 0; i < 16; i++) {
    S[i] = 42.0;
  }
  TS_EXPECT_ERROR(teal_plant_make_state_selector_matrix(p, two, 2, S, 3, 4, &e), TEAL_ESIZE, &e,
                  "Sx must be 4 x 4 for this selection, got 3 x 4");
  TS_EXPECT_ERROR(teal_plant_make_state_selector_matrix(p, two, 2, S, 4, 2, &e), TEAL_ESIZE, &e,
                  "got 4 x 2");
  TS_EXPECT_ERROR(teal_plant_make_state_selector_matrix(p, two, 2, NULL, 4, 4, &e), TEAL_EINVAL, &e,
                  "Sx is NULL");
  for (int i = 0; i < 16; i++) {
    ck_assert_double_eq(S[i], 42.0);
  }
  /* actuators */
  int acts[2] = {1, 0}, arep[2] = {1, 1}, abad[1] = {2};
  ck_assert_int_eq(teal_plant_make_actuator_selector_matrix(p, acts, 2, S, 2, 2, &e), TEAL_OK);
  ck_assert_double_eq(S[0 * 2 + 1], 1.0); /* u[0] = us[1] */
  ck_assert_double_eq(S[1 * 2 + 0], 1.0);
  TS_EXPECT_ERROR(teal_plant_make_actuator_selector_matrix(p, arep, 2, S, 2, 2, &e), TEAL_EINVAL,
                  &e, "actuator 'm2' (index 1) is repeated");
  TS_EXPECT_ERROR(teal_plant_make_actuator_selector_matrix(p, abad, 1, S, 2, 1, &e), TEAL_ENOTFOUND,
                  &e, "names no actuator");
  TS_EXPECT_ERROR(teal_plant_make_actuator_selector_matrix(p, acts, 2, S, 2, 1, &e), TEAL_ESIZE, &e,
                  "Su must be 2 x 2");
  TS_EXPECT_ERROR(teal_plant_make_actuator_selector_matrix(p, acts, 2, NULL, 2, 2, &e), TEAL_EINVAL,
                  &e, "Su is NULL");
  TS_EXPECT_ERROR(teal_plant_make_actuator_selector_matrix(NULL, acts, 2, S, 2, 2, &e), TEAL_EINVAL,
                  &e, "teal_plant_make_actuator_selector_matrix: plant is NULL");
  /* by joint: one without an actuator, one with two, one repeated */
  TS_EXPECT_ERROR(teal_plant_make_actuator_selector_matrix_for_joints(p, &hinge, 1, S, 2, 1, &e),
                  TEAL_EINVAL, &e, "joint 'hinge' (index 1) has no actuator");
  TS_EXPECT_ERROR(teal_plant_make_actuator_selector_matrix_for_joints(p, &pin, 1, S, 2, 1, &e),
                  TEAL_EINVAL, &e, "has several actuators");
  int jrep[2] = {pin, pin};
  TS_EXPECT_ERROR(teal_plant_make_actuator_selector_matrix_for_joints(p, jrep, 2, S, 2, 2, &e),
                  TEAL_EINVAL, &e, "joint 'pin' (index 0) is repeated");
  TS_EXPECT_ERROR(teal_plant_make_actuator_selector_matrix_for_joints(p, &pin, 1, S, 1, 1, &e),
                  TEAL_ESIZE, &e, "Su must be 2 x 1");
  TS_EXPECT_ERROR(teal_plant_make_actuator_selector_matrix_for_joints(p, &bad[1], 1, S, 2, 1, &e),
                  TEAL_ENOTFOUND, &e, "teal_plant_make_actuator_selector_matrix_for_joints");
  /* err may be NULL */
  ck_assert_int_eq(teal_plant_make_state_selector_matrix(p, rep, 3, S, 6, 4, NULL), TEAL_EINVAL);
  teal_plant_free(p);
}
END_TEST

/* ---- a PID on three joints of the two-robot plant ----------------------------------- */

#define NSEL 3
static const char *const kJoints[NSEL] = {"iiwa_joint_4", "x", "iiwa_joint_2"};
static const double kKp[NSEL] = {100.0, 200.0, 150.0}, kKi[NSEL] = {1.0, 2.0, 3.0},
                    kKd[NSEL] = {20.0, 50.0, 30.0};
static const double kTarget[2 * NSEL] = {0.4, 1.0, -0.3, 0.0, 0.0, 0.0};

static void connect(teal_builder *b, const char *src, const char *out, const char *dst,
                    const char *in) {
  int rc = teal_builder_connect_by_name(b, src, out, dst, in);
  ck_assert_msg(rc == TEAL_OK, "connect %s.%s -> %s.%s: %s", src, out, dst, in,
                teal_builder_error(b)->message);
}

/* The loop through the selector matrices: state -> Sx -> PID -> Su -> actuation. */
static void add_selected(teal_builder *b, teal_plant *p, const int *js) {
  int nx = teal_plant_nq(p) + teal_plant_nv(p), nu = teal_plant_nu(p), nq_s, nv_s;
  teal_error err;
  ck_assert_int_eq(teal_plant_state_selector_size(p, js, NSEL, &nq_s, &nv_s, &err), TEAL_OK);
  ck_assert_int_eq(nq_s + nv_s, 2 * NSEL);
  double Sx[2 * NSEL * 32], Su[16 * NSEL];
  ck_assert_int_le(nx, 32);
  ck_assert_int_eq(teal_plant_make_state_selector_matrix(p, js, NSEL, Sx, 2 * NSEL, nx, &err),
                   TEAL_OK);
  ck_assert_int_eq(
      teal_plant_make_actuator_selector_matrix_for_joints(p, js, NSEL, Su, nu, NSEL, &err),
      TEAL_OK);
  ck_assert_ptr_nonnull(teal_builder_add(b, teal_matrix_gain_new("sx", Sx, 2 * NSEL, nx, &err)));
  ck_assert_ptr_nonnull(teal_builder_add(b, teal_matrix_gain_new("su", Su, nu, NSEL, &err)));
  connect(b, "plant", "state", "sx", "u");
  connect(b, "sx", "y", "pid", "estimated_state");
  connect(b, "pid", "control", "su", "u");
  connect(b, "su", "y", "plant", "actuation");
}

/* The same loop sliced by hand: the state split into scalars, the PID's
 * entries picked by q and v index, its control split and placed at the
 * actuators' indices, zero elsewhere. */
static void add_sliced(teal_builder *b, teal_plant *p, const int *js) {
  int nq = teal_plant_nq(p), nx = nq + teal_plant_nv(p), nu = teal_plant_nu(p);
  int ones[32] = {0}, acts[NSEL];
  char out[16], in[16];
  for (int i = 0; i < 32; i++) {
    ones[i] = 1;
  }
  for (int i = 0; i < NSEL; i++) {
    char name[32];
    snprintf(name, sizeof name, "%s%s", strcmp(kJoints[i], "x") ? kJoints[i] : "force",
             strcmp(kJoints[i], "x") ? "_motor" : "");
    acts[i] = actuator(p, name);
  }
  double zero = 0.0;
  teal_builder_add(b, teal_demultiplexer_new("split_x", ones, nx, NULL));
  teal_builder_add(b, teal_multiplexer_new("pick", ones, 2 * NSEL, NULL));
  teal_builder_add(b, teal_demultiplexer_new("split_u", ones, NSEL, NULL));
  teal_builder_add(b, teal_multiplexer_new("place", ones, nu, NULL));
  teal_builder_add(b, teal_constant_vector_source_new("zero", &zero, 1, NULL));
  connect(b, "plant", "state", "split_x", "u");
  for (int i = 0; i < NSEL; i++) {
    snprintf(out, sizeof out, "y%d", teal_plant_joint_q_start(p, js[i]));
    snprintf(in, sizeof in, "u%d", i);
    connect(b, "split_x", out, "pick", in);
    snprintf(out, sizeof out, "y%d", nq + teal_plant_joint_v_start(p, js[i]));
    snprintf(in, sizeof in, "u%d", NSEL + i);
    connect(b, "split_x", out, "pick", in);
  }
  connect(b, "pick", "y", "pid", "estimated_state");
  connect(b, "pid", "control", "split_u", "u");
  for (int a = 0; a < nu; a++) {
    int from = -1;
    for (int i = 0; i < NSEL; i++) {
      from = acts[i] == a ? i : from;
    }
    snprintf(out, sizeof out, "y%d", from);
    snprintf(in, sizeof in, "u%d", a);
    connect(b, from >= 0 ? "split_u" : "zero", from >= 0 ? out : "y", "place", in);
  }
  connect(b, "place", "y", "plant", "actuation");
}

/* Runs one loop for t seconds from a fixed initial state; writes the final
 * plant state into x (nx values). */
static void run_loop(int sliced, double t, double *x, int nx) {
  teal_plant *p = two_robots(0.0);
  int js[NSEL];
  for (int i = 0; i < NSEL; i++) {
    js[i] = joint(p, kJoints[i]);
  }
  teal_builder *b = teal_builder_new(sliced ? "sliced" : "selected");
  teal_builder_add(b, teal_plant_system(p));
  teal_builder_add(b, teal_pid_new("pid", kKp, kKi, kKd, NSEL, NULL));
  teal_builder_add(b, teal_constant_vector_source_new("target", kTarget, 2 * NSEL, NULL));
  connect(b, "target", "y", "pid", "desired_state");
  (sliced ? add_sliced : add_selected)(b, p, js);
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build: %s", err.message);
  teal_simulator *sim = teal_simulator_new(d, NULL, NULL);
  ck_assert_ptr_nonnull(sim);
  teal_simulator_set_integrator(sim, teal_integrator_rk4);
  teal_simulator_set_fixed_step(sim, 1e-3);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_plant_nq(p) + teal_plant_nv(p), nx);
  double x0[32] = {0};
  for (int i = 0; i < nx; i++) {
    x0[i] = 0.1 * sin(1.0 + i);
  }
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x0, nx), TEAL_OK);
  teal_sim_status st;
  ck_assert_msg(teal_simulator_advance_to(sim, t, &st) == TEAL_OK, "sim: %s", st.message);
  ck_assert_int_eq(teal_plant_get_state(p, ctx, x, nx), TEAL_OK);
  teal_simulator_free(sim);
  teal_system_free(d);
}

START_TEST(pid_through_selectors_matches_hand_slicing) {
  teal_plant *p = two_robots(0.0);
  int nx = teal_plant_nq(p) + teal_plant_nv(p), xq = teal_plant_joint_q_start(p, joint(p, "x"));
  teal_plant_free(p);
  double xa[32], xb[32];
  run_loop(0, 2.0, xa, nx);
  run_loop(1, 2.0, xb, nx);
  for (int i = 0; i < nx; i++) {
    ck_assert_msg(fabs(xa[i] - xb[i]) <= 1e-12 * (1.0 + fabs(xb[i])), "x[%d]: %.17g vs %.17g", i,
                  xa[i], xb[i]);
  }
  /* the loop acts: the cart went from about 0.1 most of the way to 1 */
  ck_assert_msg(fabs(xa[xq] - kTarget[1]) < 0.3, "cart at %g", xa[xq]);
}
END_TEST

int main(void) {
  Suite *s = suite_create("selectors");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, state_selector_every_joint_kind);
  tcase_add_test(tc, actuator_selector_by_actuator_and_joint);
  tcase_add_test(tc, selector_errors);
  tcase_add_test(tc, pid_through_selectors_matches_hand_slicing);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
