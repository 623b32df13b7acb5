/* The URDF parser (multibody/parsing/urdf.h): the shipped models (counts,
 * masses, inertias, axes, limits, damping, actuators, geometry), the
 * acrobot from URDF against the acrobot built in C (M, C v, tau_g), joint
 * types, massless links, transmissions, materials and friction, every error
 * case with its code and "source:line: <element>" message, file handling,
 * allocation balance and out-of-memory injection. Models are found through
 * tests/multibody/parsing/urdf_models.h (relative to __FILE__). The fuzz tests live in
 * test_urdf_fuzz.c. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/dynamics.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/parsing/urdf.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/test_support.h"
#include "systems/controllers/lqr.h"
#include "urdf_models.h"

#define PI 3.14159265358979323846

/* ---- helpers ------------------------------------------------------------------ */

static teal_plant *load_model(const char *name, int *inst) {
  char path[2048];
  teal_error e = {0, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  *inst = teal_urdf_load_file(p, urdf_test_model_path(name, path, sizeof(path)), NULL, &e);
  ck_assert_msg(*inst >= 2, "%s: %s", name, e.message);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* Loads xml into a fresh plant; asserts success unless finalize is 0. */
static teal_plant *load_xml(const char *xml, teal_urdf_report *report, int finalize) {
  teal_error e = {0, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  int inst = teal_urdf_load_string_ex(p, xml, NULL, report, &e);
  ck_assert_msg(inst >= 2, "load failed: %s", e.message);
  if (finalize) {
    ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  }
  return p;
}

static int node_of_joint(const teal_plant *p, const char *name) {
  int j = teal_plant_get_joint_by_name(p, name, -1, NULL);
  ck_assert_msg(j >= 0, "no joint %s", name);
  return teal_plant_body_node(p, teal_plant_joint_child_body(p, j));
}

static const teal_spatial_inertia *body_inertia(const teal_plant *p, const char *name) {
  int b = teal_plant_get_body_by_name(p, name, -1, NULL);
  ck_assert_msg(b >= 1, "no body %s", name);
  return &teal_plant_get_tree(p)->M_BBo_B[teal_plant_body_node(p, b)];
}

static void assert_vec3_near(teal_vec3 a, teal_vec3 b, double tol) {
  for (int i = 0; i < 3; i++) {
    ck_assert_double_le(fabs(a.v[i] - b.v[i]), tol);
  }
}

static void assert_inertia_near(const teal_spatial_inertia *a, const teal_spatial_inertia *b,
                                double tol) {
  ck_assert_double_le(fabs(a->mass - b->mass), tol);
  assert_vec3_near(a->p_PScm_E, b->p_PScm_E, tol);
  ck_assert_double_le(teal_mat3_max_abs_diff(a->I_SP_E, b->I_SP_E), tol);
}

/* The pose of a frame (by name, any instance) in its body. */
static teal_transform frame_pose(const teal_plant *p, const char *name, int instance, int *body) {
  int f = teal_plant_get_frame_by_name(p, name, instance, NULL);
  ck_assert_msg(f >= 0, "no frame %s", name);
  *body = teal_plant_frame_body(p, f);
  return *teal_plant_frame_pose_in_body(p, f);
}

static const teal_plant_geometry *geometry_named(const teal_plant *p, const char *name) {
  for (int i = 0; i < teal_plant_num_geometries(p); i++) {
    if (strcmp(teal_plant_get_geometry(p, i)->name, name) == 0) {
      return teal_plant_get_geometry(p, i);
    }
  }
  ck_abort_msg("no geometry %s", name);
  return NULL;
}

static double actuator_effort(const teal_plant *p, const char *name) {
  int a = teal_plant_get_actuator_by_name(p, name, -1, NULL);
  ck_assert_msg(a >= 0, "no actuator %s", name);
  return teal_plant_actuator_effort_limit(p, a);
}

/* ---- the acrobot built in C (tests/multibody/test_plant_system.c) ------------------ */

typedef struct acrobot_params {
  double m1, m2, l1, lc1, lc2, Ic1, Ic2, b1, b2, g;
} acrobot_params;

static const acrobot_params spong = {1.0, 1.0, 1.0, 0.5, 1.0, 0.083, 0.33, 0.1, 0.1, 9.81};

static teal_spatial_inertia link_inertia(double m, double lc, double Ic) {
  return teal_spatial_inertia_from_central(m, teal_vec3_make(0, 0, -lc),
                                           teal_mat3_diag(Ic, Ic, Ic));
}

static teal_plant *acrobot_c_new(void) {
  const acrobot_params *a = &spong;
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  int inst = teal_plant_add_model_instance(p, "acrobot");
  teal_spatial_inertia M1 = link_inertia(a->m1, a->lc1, a->Ic1);
  teal_spatial_inertia M2 = link_inertia(a->m2, a->lc2, a->Ic2);
  int b1 = teal_plant_add_rigid_body(p, "link1", inst, &M1);
  int b2 = teal_plant_add_rigid_body(p, "link2", inst, &M2);
  int elbow = teal_plant_add_frame(p, "elbow", teal_plant_body_frame(p, b1),
                                   teal_transform_make(teal_rotation_identity(),
                                                       teal_vec3_make(0, 0, -a->l1)));
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int j1 = teal_plant_add_joint(p, "shoulder", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                teal_plant_body_frame(p, b1), &y, 0.0);
  int j2 = teal_plant_add_joint(p, "elbow", TEAL_JOINT_REVOLUTE, elbow,
                                teal_plant_body_frame(p, b2), &y, 0.0);
  teal_plant_set_joint_damping(p, j1, &a->b1);
  teal_plant_set_joint_damping(p, j2, &a->b2);
  ck_assert_int_ge(teal_plant_add_joint_actuator(p, "elbow_motor", j2, INFINITY), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* ---- shipped models ------------------------------------------------------------------ */

START_TEST(acrobot_model) {
  int inst;
  teal_plant *p = load_model("acrobot.urdf", &inst);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  ck_assert_int_eq(teal_plant_get_model_instance_by_name(p, "acrobot", NULL), inst);
  ck_assert_int_eq(teal_plant_num_bodies(p), 3); /* base_link is massless: a world frame */
  ck_assert_int_eq(teal_plant_num_joints(p), 2);
  ck_assert_int_eq(teal_plant_num_actuators(p), 1);
  ck_assert_int_eq(teal_plant_nq(p), 2);
  ck_assert_int_eq(teal_plant_nv(p), 2);
  ck_assert_int_eq(teal_plant_nu(p), 1);
  teal_spatial_inertia M1 = link_inertia(1.0, 0.5, 0.083), M2 = link_inertia(1.0, 1.0, 0.33);
  assert_inertia_near(body_inertia(p, "link1"), &M1, 1e-15);
  assert_inertia_near(body_inertia(p, "link2"), &M2, 1e-15);
  const char *joints[2] = {"shoulder", "elbow"};
  for (int i = 0; i < 2; i++) {
    int k = node_of_joint(p, joints[i]);
    ck_assert_int_eq(t->joint_kind[k], TEAL_JOINT_REVOLUTE);
    assert_vec3_near(t->params[k].axis, teal_vec3_make(0, 1, 0), 0.0);
    ck_assert_double_eq(t->damping[t->v_start[k]], 0.1);
    ck_assert(isinf(t->q_lower[t->q_start[k]]) && isinf(t->q_upper[t->q_start[k]]));
    ck_assert(isinf(t->effort_limit[t->v_start[k]]));
  }
  assert_vec3_near(t->X_PF[node_of_joint(p, "elbow")].p, teal_vec3_make(0, 0, -1), 0.0);
  int elbow = teal_plant_get_joint_by_name(p, "elbow", inst, NULL);
  ck_assert_int_eq(teal_plant_actuator_v_index(p, 0), teal_plant_joint_v_start(p, elbow));
  ck_assert(isinf(actuator_effort(p, "elbow_motor")));
  /* frames on the world carry the instance prefix */
  int body;
  frame_pose(p, "acrobot::base_link", TEAL_WORLD_MODEL_INSTANCE, &body);
  ck_assert_int_eq(body, TEAL_WORLD_BODY);
  frame_pose(p, "acrobot::shoulder_parent", TEAL_WORLD_MODEL_INSTANCE, &body);
  teal_transform X = frame_pose(p, "elbow_parent", inst, &body);
  ck_assert_int_eq(body, teal_plant_get_body_by_name(p, "link1", inst, NULL));
  assert_vec3_near(X.p, teal_vec3_make(0, 0, -1), 0.0);
  /* four visuals, no collisions */
  ck_assert_int_eq(teal_plant_num_geometries(p), 4);
  const teal_plant_geometry *g = geometry_named(p, "acrobot::base_link_visual_0");
  ck_assert_int_eq(g->body, TEAL_WORLD_BODY);
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_BOX);
  g = geometry_named(p, "tip");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_SPHERE);
  ck_assert_double_eq(g->rgba[0], 0.8);
  ck_assert_double_eq(g->X_BG.p.v[2], -2.0);
  g = geometry_named(p, "link1_visual_0");
  ck_assert_int_eq(g->role, TEAL_ROLE_ILLUSTRATION);
  ck_assert_double_eq(g->shape.length, 1.1);
  teal_plant_free(p);
}
END_TEST

/* The URDF acrobot and the C acrobot agree on M(q), C(q, v) v, tau_g(q),
 * damping and the actuation matrix at random states. */
START_TEST(acrobot_matches_c_model) {
  int inst;
  teal_plant *pu = load_model("acrobot.urdf", &inst);
  teal_plant *pc = acrobot_c_new();
  teal_plant *plants[2] = {pu, pc};
  teal_mb_workspace *ws[2];
  for (int i = 0; i < 2; i++) {
    ws[i] = teal_mb_workspace_new(plants[i], NULL);
    ck_assert_ptr_nonnull(ws[i]);
    int sh = teal_plant_get_joint_by_name(plants[i], "shoulder", -1, NULL);
    int el = teal_plant_get_joint_by_name(plants[i], "elbow", -1, NULL);
    ck_assert_int_eq(teal_plant_joint_q_start(plants[i], sh), 0);
    ck_assert_int_eq(teal_plant_joint_q_start(plants[i], el), 1);
  }
  unsigned seed = 20240611u;
  for (int trial = 0; trial < 25; trial++) {
    double q[2], v[2], M[2][4], Cv[2][2], tg[2][2];
    for (int i = 0; i < 2; i++) {
      q[i] = ts_rand_uniform(&seed, -PI, PI);
      v[i] = ts_rand_uniform(&seed, -3.0, 3.0);
    }
    for (int i = 0; i < 2; i++) {
      ck_assert_int_eq(teal_mb_mass_matrix(plants[i], ws[i], q, M[i]), TEAL_OK);
      ck_assert_int_eq(teal_mb_bias_term(plants[i], ws[i], q, v, Cv[i]), TEAL_OK);
      ck_assert_int_eq(teal_mb_gravity_forces(plants[i], ws[i], q, tg[i]), TEAL_OK);
    }
    for (int k = 0; k < 4; k++) {
      ck_assert_double_eq_tol(M[0][k], M[1][k], 1e-13);
    }
    for (int k = 0; k < 2; k++) {
      ck_assert_double_eq_tol(Cv[0][k], Cv[1][k], 1e-12);
      ck_assert_double_eq_tol(tg[0][k], tg[1][k], 1e-12);
    }
  }
  double B[2][2];
  for (int i = 0; i < 2; i++) {
    ck_assert_int_eq(teal_plant_make_actuation_matrix(plants[i], B[i]), TEAL_OK);
    ck_assert_double_eq(teal_plant_get_tree(plants[i])->damping[0], 0.1);
    ck_assert_double_eq(teal_plant_get_tree(plants[i])->damping[1], 0.1);
  }
  ck_assert_double_eq(B[0][0], B[1][0]);
  ck_assert_double_eq(B[0][1], B[1][1]);
  for (int i = 0; i < 2; i++) {
    teal_mb_workspace_free(ws[i]);
    teal_plant_free(plants[i]);
  }
}
END_TEST

/* LQR about the upright (Q = diag(10, 10, 1, 1), R = 1) of either plant. */
static void acrobot_lqr_gain(teal_plant *p, double *K) {
  teal_system *sys = teal_plant_system(p);
  teal_context *ctx = teal_context_new(sys, NULL);
  double up[4] = {3.14159265358979323846, 0, 0, 0}, u0 = 0.0, R = 1.0;
  double Q[16] = {10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  int u = teal_plant_actuation_input_port(p);
  ck_assert_int_eq(teal_plant_set_state(p, ctx, up, 4), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_input(ctx, u, &u0, 1), TEAL_OK);
  teal_error err;
  teal_system *lqr = teal_lqr_controller_new("lqr", sys, ctx, u, Q, &R, NULL, K, NULL, &err);
  ck_assert_msg(lqr != NULL, "%s", err.message);
  teal_system_free(lqr);
  teal_context_free(ctx);
}

START_TEST(acrobot_lqr_gains_match_c_model) {
  int inst;
  teal_plant *pu = load_model("acrobot.urdf", &inst);
  teal_plant *pc = acrobot_c_new();
  double Ku[4], Kc[4];
  acrobot_lqr_gain(pu, Ku);
  acrobot_lqr_gain(pc, Kc);
  for (int i = 0; i < 4; i++) {
    ck_assert_msg(fabs(Ku[i] - Kc[i]) <= 1e-6 * fabs(Kc[i]), "K[%d]: %.12g vs %.12g", i, Ku[i],
                  Kc[i]);
  }
  teal_plant_free(pu);
  teal_plant_free(pc);
}
END_TEST

START_TEST(pendulum_model) {
  int inst;
  teal_plant *p = load_model("pendulum.urdf", &inst);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  ck_assert_int_eq(teal_plant_num_bodies(p), 2);
  ck_assert_int_eq(teal_plant_num_joints(p), 1);
  ck_assert_int_eq(teal_plant_nq(p), 1);
  ck_assert_int_eq(teal_plant_nu(p), 1);
  teal_spatial_inertia M = teal_spatial_inertia_point_mass(1.0, teal_vec3_make(0, 0, -0.5));
  assert_inertia_near(body_inertia(p, "arm"), &M, 1e-15);
  int k = node_of_joint(p, "theta");
  ck_assert_double_eq(t->damping[0], 0.1);
  ck_assert_double_eq(t->effort_limit[0], 10.0);
  ck_assert_double_eq(t->v_lower[0], -10.0);
  ck_assert_double_eq(t->v_upper[0], 10.0);
  assert_vec3_near(t->params[k].axis, teal_vec3_make(0, 1, 0), 0.0);
  ck_assert_double_eq(actuator_effort(p, "tau"), 10.0);
  /* tau_g = -m g l sin(q) */
  teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
  double q = PI / 3, tg;
  ck_assert_int_eq(teal_mb_gravity_forces(p, ws, &q, &tg), TEAL_OK);
  ck_assert_double_eq_tol(tg, -9.81 * 0.5 * sin(q), 1e-12);
  teal_mb_workspace_free(ws);
  teal_plant_free(p);
}
END_TEST

START_TEST(cart_pole_model) {
  int inst;
  teal_plant *p = load_model("cart_pole.urdf", &inst);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  ck_assert_int_eq(teal_plant_num_bodies(p), 3);
  ck_assert_int_eq(teal_plant_num_joints(p), 2);
  ck_assert_int_eq(teal_plant_nq(p), 2);
  ck_assert_int_eq(teal_plant_nu(p), 1);
  ck_assert_double_eq(body_inertia(p, "cart")->mass, 10.0);
  teal_spatial_inertia M = teal_spatial_inertia_point_mass(1.0, teal_vec3_make(0, 0, -0.5));
  assert_inertia_near(body_inertia(p, "pole"), &M, 1e-15);
  int kx = node_of_joint(p, "x"), kt = node_of_joint(p, "theta");
  ck_assert_int_eq(t->joint_kind[kx], TEAL_JOINT_PRISMATIC);
  ck_assert_int_eq(t->joint_kind[kt], TEAL_JOINT_REVOLUTE);
  assert_vec3_near(t->params[kx].axis, teal_vec3_make(1, 0, 0), 0.0);
  ck_assert_double_eq(t->q_lower[t->q_start[kx]], -5.0);
  ck_assert_double_eq(t->q_upper[t->q_start[kx]], 5.0);
  ck_assert_double_eq(t->effort_limit[t->v_start[kx]], 100.0);
  ck_assert_double_eq(actuator_effort(p, "force"), 100.0);
  ck_assert_int_eq(teal_plant_actuator_v_index(p, 0), t->v_start[kx]);
  /* M(0) = [mc + mp, -mp l; -mp l, mp l^2] */
  teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
  double q[2] = {0.3, 0.0}, Mq[4];
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, Mq), TEAL_OK);
  ck_assert_double_eq_tol(Mq[0], 11.0, 1e-13);
  ck_assert_double_eq_tol(Mq[1], -0.5, 1e-13);
  ck_assert_double_eq_tol(Mq[3], 0.25, 1e-13);
  teal_mb_workspace_free(ws);
  teal_plant_free(p);
}
END_TEST

/* link_2 and link_4 give inertias in a frame rotated by Rx(pi/2), which
 * maps diag(a, b, c) to diag(a, c, b) in the link frame. */
static void check_iiwa_inertias(const teal_plant *p) {
  teal_mat3 I1 = {{0.021, 0, 0, 0, 0.02, 0.003, 0, 0.003, 0.0075}};
  teal_spatial_inertia M1 =
      teal_spatial_inertia_from_central(3.4, teal_vec3_make(0, -0.03, 0.12), I1);
  assert_inertia_near(body_inertia(p, "iiwa_link_1"), &M1, 1e-15);
  teal_spatial_inertia M2 = teal_spatial_inertia_from_central(
      3.5, teal_vec3_make(0.0003, 0.059, 0.042), teal_mat3_diag(0.021, 0.0075, 0.02));
  assert_inertia_near(body_inertia(p, "iiwa_link_2"), &M2, 1e-15);
  teal_spatial_inertia M4 = teal_spatial_inertia_from_central(
      2.6, teal_vec3_make(0, 0.067, 0.034), teal_mat3_diag(0.017, 0.006, 0.016));
  assert_inertia_near(body_inertia(p, "iiwa_link_4"), &M4, 1e-15);
  static const double mass[8] = {3.0, 3.4, 3.5, 2.5, 2.6, 1.9, 1.8, 1.1};
  for (int i = 0; i < 8; i++) {
    char name[32];
    snprintf(name, sizeof(name), "iiwa_link_%d", i);
    ck_assert_double_eq(body_inertia(p, name)->mass, mass[i]);
  }
  /* the links with an unrotated inertial frame: com and I_cm as written */
  static const struct {
    int link;
    double com[3], I[6]; /* ixx ixy ixz iyy iyz izz */
  } plain[] = {
      {0, {-0.01, 0, 0.07}, {0.012, 0, 0, 0.014, 0, 0.011}},
      {3, {0, 0.03, 0.13}, {0.015, 0, 0, 0.014, 0.001, 0.005}},
      {5, {0.0001, 0.021, 0.076}, {0.01, 0, 0, 0.0087, 0, 0.0045}},
      {6, {0, 0.0006, 0.0004}, {0.0049, 0, 0, 0.0047, 0, 0.0036}},
      {7, {0, 0, 0.02}, {0.0011, 0, 0, 0.0011, 0, 0.0012}},
  };
  for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
    char name[32];
    snprintf(name, sizeof(name), "iiwa_link_%d", plain[i].link);
    const double *v = plain[i].I;
    teal_mat3 I = {{v[0], v[1], v[2], v[1], v[3], v[4], v[2], v[4], v[5]}};
    teal_spatial_inertia M = teal_spatial_inertia_from_central(
        mass[plain[i].link], teal_vec3_make(plain[i].com[0], plain[i].com[1], plain[i].com[2]),
        I);
    assert_inertia_near(body_inertia(p, name), &M, 1e-15);
  }
}

static void check_iiwa_joints(const teal_plant *p) {
  static const double effort[7] = {176, 176, 110, 110, 110, 40, 40};
  static const double vel[7] = {1.71, 1.71, 1.75, 2.27, 2.44, 3.14, 3.14};
  static const double damp[7] = {0.5, 0.5, 0.4, 0.4, 0.3, 0.2, 0.1};
  const teal_plant_tree *t = teal_plant_get_tree(p);
  for (int i = 0; i < 7; i++) {
    char name[32], motor[48];
    snprintf(name, sizeof(name), "iiwa_joint_%d", i + 1);
    snprintf(motor, sizeof(motor), "%s_motor", name);
    int k = node_of_joint(p, name), qi = t->q_start[k], vi = t->v_start[k];
    double lim = i % 2 ? 2.0 : 2.9, sign = i == 3 ? -1.0 : 1.0;
    teal_vec3 axis = i % 2 ? teal_vec3_make(0, sign, 0) : teal_vec3_make(0, 0, 1);
    ck_assert_int_eq(t->joint_kind[k], TEAL_JOINT_REVOLUTE);
    assert_vec3_near(t->params[k].axis, axis, 0.0);
    ck_assert_double_eq(t->q_lower[qi], -lim);
    ck_assert_double_eq(t->q_upper[qi], lim);
    ck_assert_double_eq(t->effort_limit[vi], effort[i]);
    ck_assert_double_eq(t->v_upper[vi], vel[i]);
    ck_assert_double_eq(t->v_lower[vi], -vel[i]);
    ck_assert_double_eq(t->damping[vi], damp[i]);
    ck_assert_double_eq(actuator_effort(p, motor), effort[i]);
    int a = teal_plant_get_actuator_by_name(p, motor, -1, NULL);
    ck_assert_int_eq(teal_plant_actuator_v_index(p, a), vi);
  }
  int weld = teal_plant_get_joint_by_name(p, "base_weld", -1, NULL);
  ck_assert_int_eq(teal_plant_joint_kind(p, weld), TEAL_JOINT_WELD);
  ck_assert_int_eq(teal_plant_joint_parent_body(p, weld), TEAL_WORLD_BODY);
}

static void check_iiwa_geometry(const teal_plant *p, int inst) {
  int ncoll = 0, nvis = 0;
  for (int i = 0; i < teal_plant_num_geometries(p); i++) {
    const teal_plant_geometry *g = teal_plant_get_geometry(p, i);
    if (g->role == TEAL_ROLE_PROXIMITY) {
      ncoll++;
      ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_CAPSULE);
    } else {
      nvis++;
      ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_CYLINDER);
    }
  }
  ck_assert_int_eq(ncoll, 8);
  ck_assert_int_eq(nvis, 8);
  const teal_plant_geometry *g = geometry_named(p, "iiwa_link_7_collision_0");
  ck_assert_double_eq(g->proximity.static_friction, 0.9);
  ck_assert_double_eq(g->proximity.dynamic_friction, 0.7);
  g = geometry_named(p, "iiwa_link_3_collision_0");
  ck_assert_double_eq(g->proximity.static_friction, 1.0);
  ck_assert_double_eq(g->proximity.dynamic_friction, 1.0);
  ck_assert(isnan(g->proximity.point_contact_stiffness));
  ck_assert_double_eq(g->shape.radius, 0.06);
  ck_assert_double_eq(g->shape.length, 0.13);
  int body;
  teal_transform X = frame_pose(p, "tool0", inst, &body);
  ck_assert_int_eq(body, teal_plant_get_body_by_name(p, "iiwa_link_7", inst, NULL));
  assert_vec3_near(X.p, teal_vec3_make(0, 0, 0.045), 0.0);
}

START_TEST(iiwa_model) {
  int inst;
  teal_plant *p = load_model("iiwa7_like.urdf", &inst);
  ck_assert_int_eq(teal_plant_num_bodies(p), 9);
  ck_assert_int_eq(teal_plant_num_joints(p), 8);
  ck_assert_int_eq(teal_plant_num_actuators(p), 7);
  ck_assert_int_eq(teal_plant_nq(p), 7);
  ck_assert_int_eq(teal_plant_nv(p), 7);
  check_iiwa_inertias(p);
  check_iiwa_joints(p);
  check_iiwa_geometry(p, inst);
  /* M(q) is symmetric with a positive diagonal at random q */
  teal_mb_workspace *ws = teal_mb_workspace_new(p, NULL);
  unsigned seed = 7u;
  double q[7], M[49];
  for (int i = 0; i < 7; i++) {
    q[i] = ts_rand_uniform(&seed, -2.0, 2.0);
  }
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
  for (int i = 0; i < 7; i++) {
    ck_assert_double_gt(M[8 * i], 0.0);
    for (int j = 0; j < i; j++) {
      ck_assert_double_eq_tol(M[7 * i + j], M[7 * j + i], 1e-14);
    }
  }
  teal_mb_workspace_free(ws);
  teal_plant_free(p);
}
END_TEST

/* Rotation about a unit axis, built without teal_rotation_from_rpy. */
static teal_rotation rot(double x, double y, double z, double angle) {
  teal_vec3 a = teal_vec3_make(x, y, z);
  return teal_rotation_from_axis_angle(teal_vec3_scale(a, 1.0 / teal_vec3_norm(a)), angle);
}

/* URDF's <origin xyz rpy>: translate, then R = Rz(yaw) Ry(pitch) Rx(roll). */
static teal_transform urdf_origin_ref(double x, double y, double z, double r, double pi,
                                      double yaw) {
  teal_rotation R =
      teal_rotation_mul(rot(0, 0, 1, yaw), teal_rotation_mul(rot(0, 1, 0, pi), rot(1, 0, 0, r)));
  return teal_transform_make(R, teal_vec3_make(x, y, z));
}

static void assert_transform_near(teal_transform a, teal_transform b, double tol) {
  assert_vec3_near(a.p, b.p, tol);
  ck_assert_double_le(teal_mat3_max_abs_diff(a.R, b.R), tol);
}

/* The pose in the world of the frame named name at q. */
static teal_transform world_pose(const teal_plant *p, const char *name, const double *q) {
  teal_transform X_WB[16], X;
  ck_assert_int_le(teal_plant_num_bodies(p), 16);
  ck_assert_int_eq(teal_plant_calc_body_poses(p, q, X_WB), TEAL_OK);
  int f = teal_plant_get_frame_by_name(p, name, -1, NULL);
  ck_assert_msg(f >= 0, "no frame %s", name);
  ck_assert_int_eq(teal_plant_calc_relative_transform(p, X_WB, TEAL_WORLD_FRAME, f, &X), TEAL_OK);
  return X;
}

/* tool0 of the shipped arm at random q equals the URDF chain composed by
 * hand: each joint is Trans(origin) Rot(axis, q), tool0 sits 0.045 up. */
START_TEST(iiwa_forward_kinematics_matches_urdf_chain) {
  int inst;
  teal_plant *p = load_model("iiwa7_like.urdf", &inst);
  static const double z[7] = {0.15, 0.19, 0.21, 0.19, 0.21, 0.19, 0.081};
  unsigned seed = 99u;
  for (int trial = 0; trial < 20; trial++) {
    double q[7];
    teal_transform X = teal_transform_identity();
    for (int k = 0; k < 7; k++) {
      q[k] = ts_rand_uniform(&seed, -2.0, 2.0);
      teal_rotation R = k % 2 ? rot(0, k == 3 ? -1 : 1, 0, q[k]) : rot(0, 0, 1, q[k]);
      X = teal_transform_compose(X, teal_transform_make(teal_rotation_identity(),
                                                        teal_vec3_make(0, 0, z[k])));
      X = teal_transform_compose(X, teal_transform_make(R, teal_vec3_zero()));
    }
    X = teal_transform_compose(
        X, teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 0.045)));
    assert_transform_near(world_pose(p, "tool0", q), X, 1e-14);
  }
  teal_plant_free(p);
}
END_TEST

/* Joint origins with rpy, unnormalized axes and a prismatic joint: the
 * child link frame is X_WP X_PJ X_J(q) with the axis in the joint frame. */
START_TEST(rpy_origins_and_axes_forward_kinematics) {
  static const char *xml =
      "<robot name=\"k\">"
      "<link name=\"a\"><inertial><mass value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" "
      "izz=\"0.1\"/></inertial></link>"
      "<link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" "
      "izz=\"0.1\"/></inertial></link>"
      "<link name=\"c\"><inertial><mass value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" "
      "izz=\"0.1\"/></inertial></link>"
      "<joint name=\"ja\" type=\"revolute\"><parent link=\"world\"/><child link=\"a\"/>"
      "<origin xyz=\"0.1 0.2 0.3\" rpy=\"0.3 -0.5 1.1\"/><axis xyz=\"1 2 -2\"/></joint>"
      "<joint name=\"jb\" type=\"prismatic\"><parent link=\"a\"/><child link=\"b\"/>"
      "<origin xyz=\"0 0 0.4\" rpy=\"-0.7 0.2 0\"/><axis xyz=\"0 3 4\"/></joint>"
      "<joint name=\"jc\" type=\"continuous\"><parent link=\"b\"/><child link=\"c\"/>"
      "<origin xyz=\"0.5 -0.1 0\" rpy=\"1.2 0.4 -0.9\"/><axis xyz=\"0 0 1\"/></joint>"
      "</robot>";
  teal_plant *p = load_xml(xml, NULL, 1);
  unsigned seed = 5u;
  for (int trial = 0; trial < 20; trial++) {
    double q[3];
    for (int k = 0; k < 3; k++) {
      q[k] = ts_rand_uniform(&seed, -3.0, 3.0);
    }
    teal_transform Xa = teal_transform_compose(urdf_origin_ref(0.1, 0.2, 0.3, 0.3, -0.5, 1.1),
                                               teal_transform_make(rot(1, 2, -2, q[0]),
                                                                   teal_vec3_zero()));
    teal_transform Xb = teal_transform_compose(
        Xa, teal_transform_compose(
                urdf_origin_ref(0, 0, 0.4, -0.7, 0.2, 0),
                teal_transform_make(teal_rotation_identity(),
                                    teal_vec3_make(0, 0.6 * q[1], 0.8 * q[1]))));
    teal_transform Xc = teal_transform_compose(
        Xb, teal_transform_compose(urdf_origin_ref(0.5, -0.1, 0, 1.2, 0.4, -0.9),
                                   teal_transform_make(rot(0, 0, 1, q[2]), teal_vec3_zero())));
    assert_transform_near(world_pose(p, "a", q), Xa, 1e-14);
    assert_transform_near(world_pose(p, "b", q), Xb, 1e-14);
    assert_transform_near(world_pose(p, "c", q), Xc, 1e-14);
  }
  teal_plant_free(p);
}
END_TEST

START_TEST(loads_several_instances) {
  char path[2048];
  urdf_test_model_path("acrobot.urdf", path, sizeof(path));
  teal_error e = {0, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_urdf_load_file(p, path, NULL, &e), 2);
  ck_assert_int_eq(teal_urdf_load_file(p, path, "second", &e), 3);
  ck_assert_int_eq(teal_urdf_load_file(p, path, NULL, &e), TEAL_EDUPLICATE);
  ck_assert_ptr_nonnull(strstr(e.message, "model instance 'acrobot' already exists"));
  ck_assert_ptr_nonnull(strstr(e.message, "acrobot.urdf:"));
  ck_assert_int_eq(teal_urdf_load_file(p, path, "second", &e), TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
  ck_assert_int_ge(teal_plant_get_frame_by_name(p, "second::base_link", 0, NULL), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_nq(p), 4);
  ck_assert_int_eq(teal_plant_nu(p), 2);
  teal_plant_free(p);
}
END_TEST

/* ---- features ------------------------------------------------------------------------ */

#define MASS                                                                    \
  "<inertial><mass value=\"1\"/><inertia ixx=\"0.1\" iyy=\"0.1\" izz=\"0.1\"/>" \
  "</inertial>"
#define XLINK(n) "<link name=\"" n "\">" MASS "</link>"
#define XJOINT(n, type, p, c, extra)                                                         \
  "<joint name=\"" n "\" type=\"" type "\"><parent link=\"" p "\"/><child link=\"" c "\"/>" \
  extra "</joint>"

START_TEST(geometry_materials_and_friction) {
  static const char *xml =
      "<robot name=\"g\" xmlns:drake=\"http://drake.mit.edu\">"
      "<link name=\"a\">" MASS
      "<visual><origin xyz=\"0 0 1\" rpy=\"0 0 1.5707963267948966\"/>"
      "<geometry><box size=\"1 2 3\"/></geometry><material name=\"m1\"/></visual>"
      "<visual name=\"ball\"><geometry><sphere radius=\"0.5\"/></geometry>"
      "<material name=\"green\"><color rgba=\"0 1 0 0.5\"/></material></visual>"
      "<visual><geometry><mesh filename=\"meshes/a.obj\" scale=\"2 2 2\"/></geometry>"
      "<material name=\"green\"/></visual>"
      "<collision><geometry><cylinder radius=\"0.1\" length=\"0.4\"/></geometry></collision>"
      "<collision name=\"cap\"><geometry><capsule radius=\"0.1\" length=\"0.3\"/></geometry>"
      "<drake:proximity_properties><drake:mu_static value=\"0.8\"/>"
      "<drake:mu_dynamic value=\"0.5\"/><drake:point_contact_stiffness value=\"1e5\"/>"
      "<drake:hunt_crossley_dissipation value=\"2\"/></drake:proximity_properties></collision>"
      "<collision><geometry><drake:capsule radius=\"0.2\" length=\"0.1\"/></geometry>"
      "<drake:proximity_properties><drake:mu_dynamic value=\"0.4\"/>"
      "<drake:hydroelastic_modulus value=\"1e7\"/></drake:proximity_properties></collision>"
      "<collision><geometry><mesh filename=\"a.obj\"/></geometry></collision>"
      "<collision><geometry><drake:ellipsoid a=\"1\" b=\"2\" c=\"3\"/></geometry></collision>"
      "</link>"
      "<material name=\"m1\"><color rgba=\"1 0 0 1\"/></material>"
      "</robot>";
  teal_urdf_report r;
  teal_plant *p = load_xml(xml, &r, 1);
  ck_assert_int_eq(teal_plant_num_geometries(p), 7);
  const teal_plant_geometry *g = geometry_named(p, "a_visual_0");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_BOX);
  assert_vec3_near(g->shape.size, teal_vec3_make(1, 2, 3), 0.0);
  assert_vec3_near(g->X_BG.p, teal_vec3_make(0, 0, 1), 0.0);
  assert_vec3_near(teal_rotation_apply(g->X_BG.R, teal_vec3_make(1, 0, 0)),
                   teal_vec3_make(0, 1, 0), 1e-15);
  ck_assert_double_eq(g->rgba[0], 1.0); /* m1, defined after its use */
  g = geometry_named(p, "ball");
  ck_assert_double_eq(g->rgba[3], 0.5);
  g = geometry_named(p, "a_visual_2");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_MESH);
  ck_assert_str_eq(g->shape.filename, "meshes/a.obj");
  ck_assert_double_eq(g->shape.size.v[0], 2.0);
  ck_assert_double_eq(g->rgba[1], 1.0); /* the material named inside the first visual */
  g = geometry_named(p, "a_collision_0");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_CYLINDER);
  ck_assert_double_eq(g->proximity.static_friction, 1.0);
  ck_assert_double_eq(g->proximity.dynamic_friction, 1.0);
  g = geometry_named(p, "cap");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_CAPSULE);
  ck_assert_double_eq(g->proximity.static_friction, 0.8);
  ck_assert_double_eq(g->proximity.dynamic_friction, 0.5);
  ck_assert_double_eq(g->proximity.point_contact_stiffness, 1e5);
  ck_assert_double_eq(g->proximity.hunt_crossley_dissipation, 2.0);
  g = geometry_named(p, "a_collision_2");
  ck_assert_double_eq(g->shape.radius, 0.2);
  ck_assert_double_eq(g->proximity.static_friction, 0.4);
  ck_assert_double_eq(g->proximity.dynamic_friction, 0.4);
  g = geometry_named(p, "a_collision_4"); /* the mesh collision (k = 3) was skipped */
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_ELLIPSOID);
  ck_assert_int_eq(r.skipped_mesh_collisions, 1);
  ck_assert_int_eq(r.ignored_elements, 1); /* hydroelastic modulus */
  ck_assert_int_eq(r.num_warnings, 2);
  ck_assert_ptr_nonnull(strstr(r.first_warning, "<string>:1: <drake:hydroelastic_modulus>"));
  teal_plant_free(p);
}
END_TEST

/* drake: elements also work without a namespace declaration. */
START_TEST(drake_prefix_without_namespace) {
  static const char *xml =
      "<robot name=\"n\"><link name=\"a\">" MASS
      "<collision><geometry><drake:capsule radius=\"0.1\" length=\"0.2\"/></geometry>"
      "<drake:proximity_properties><drake:mu_static value=\"0.3\"/>"
      "</drake:proximity_properties></collision></link>"
      "<drake:joint name=\"b\" type=\"ball\"><parent link=\"world\"/><child link=\"a\"/>"
      "</drake:joint></robot>";
  teal_plant *p = load_xml(xml, NULL, 1);
  const teal_plant_geometry *g = geometry_named(p, "a_collision_0");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_CAPSULE);
  ck_assert_double_eq(g->proximity.dynamic_friction, 0.3);
  ck_assert_int_eq(teal_plant_nq(p), 4);
  teal_plant_free(p);
}
END_TEST

START_TEST(transmissions) {
  static const char *xml =
      "<robot name=\"t\">" XLINK("a") XLINK("b") XLINK("c") XLINK("d")
      XJOINT("ja", "revolute", "world", "a", "<axis xyz=\"0 0 1\"/><limit effort=\"5\"/>")
      XJOINT("jb", "prismatic", "a", "b", "<limit lower=\"-1\" upper=\"1\"/>")
      XJOINT("jc", "revolute", "b", "c", "<limit effort=\"0\" velocity=\"0\"/>")
      XJOINT("jd", "continuous", "c", "d", "<limit lower=\"1\" upper=\"-1\" effort=\"3\"/>")
      "<transmission type=\"SimpleTransmission\" name=\"ta\"><joint name=\"ja\"/>"
      "<actuator name=\"ma\"/></transmission>"
      "<transmission name=\"tb\"><type>transmission_interface/SimpleTransmission</type>"
      "<joint name=\"jb\"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>"
      "<actuator><mechanicalReduction>1</mechanicalReduction></actuator></transmission>"
      "<transmission name=\"tc\"><type>transmission_interface/SimpleTransmission</type>"
      "<joint name=\"jc\"/><actuator name=\"mc\"/></transmission>"
      "<transmission name=\"td\"><type>transmission_interface/DifferentialTransmission</type>"
      "<joint name=\"jd\"/><actuator name=\"md\"/></transmission>"
      "<transmission name=\"te\"><type> transmission_interface/SimpleTransmission </type>"
      "<joint name=\"jd\"/><actuator name=\"me\"/></transmission>"
      "</robot>";
  teal_urdf_report r;
  teal_plant *p = load_xml(xml, &r, 1);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  ck_assert_int_eq(teal_plant_num_actuators(p), 3);
  ck_assert_double_eq(actuator_effort(p, "ma"), 5.0);
  ck_assert(isinf(actuator_effort(p, "tb"))); /* named after the transmission */
  ck_assert_double_eq(actuator_effort(p, "me"), 3.0);
  ck_assert_int_lt(teal_plant_get_actuator_by_name(p, "mc", -1, NULL), 0);
  ck_assert_int_eq(r.skipped_transmissions, 2);
  ck_assert_int_eq(r.num_warnings, 2);
  int kc = node_of_joint(p, "jc"), kd = node_of_joint(p, "jd");
  ck_assert(isinf(t->effort_limit[t->v_start[kc]])); /* effort 0: no limit */
  ck_assert(isinf(t->v_upper[t->v_start[kc]]));      /* velocity 0: no limit */
  ck_assert(isinf(t->q_lower[t->q_start[kd]]));      /* continuous: limits ignored */
  teal_plant_free(p);
}
END_TEST

START_TEST(joint_types) {
  static const char *xml =
      "<robot name=\"j\" xmlns:drake=\"http://drake.mit.edu\">" XLINK("a") XLINK("b") XLINK("c")
      XLINK("d") XLINK("e") XLINK("f")
      XJOINT("pj", "planar", "world", "a", "<origin xyz=\"0 0 1\"/><axis xyz=\"2 0 0\"/>"
            "<dynamics damping=\"0.5\"/>")
      XJOINT("fj", "floating", "world", "b", "<origin xyz=\"1 2 3\"/>")
      "<drake:joint name=\"bj\" type=\"ball\"><parent link=\"world\"/><child link=\"c\"/>"
      "<dynamics damping=\"0.2\"/></drake:joint>"
      "<drake:joint name=\"uj\" type=\"universal\"><parent link=\"world\"/><child link=\"d\"/>"
      "</drake:joint>"
      "<drake:joint name=\"sj\" type=\"screw\"><parent link=\"world\"/><child link=\"e\"/>"
      "<axis xyz=\"0 0 1\"/><drake:screw_thread_pitch value=\"0.1\"/>"
      "<limit lower=\"-3\" upper=\"3\"/></drake:joint>"
      XJOINT("wj", "fixed", "world", "f", "<origin xyz=\"0 1 0\"/>")
      "</robot>";
  teal_plant *p = load_xml(xml, NULL, 1);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  ck_assert_int_eq(teal_plant_num_joints(p), 6);
  ck_assert_int_eq(teal_plant_nq(p), 3 + 7 + 4 + 2 + 1);
  ck_assert_int_eq(teal_plant_nv(p), 3 + 6 + 3 + 2 + 1);
  int kp = node_of_joint(p, "pj");
  ck_assert_int_eq(t->joint_kind[kp], TEAL_JOINT_PLANAR);
  /* F's z is the plane normal (x), and M matches F at q = 0 */
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  assert_vec3_near(teal_rotation_apply(t->X_PF[kp].R, z), teal_vec3_make(1, 0, 0), 1e-15);
  assert_vec3_near(teal_rotation_apply(t->X_BM[kp].R, z), teal_vec3_make(1, 0, 0), 1e-15);
  assert_vec3_near(t->X_PF[kp].p, teal_vec3_make(0, 0, 1), 0.0);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq(t->damping[t->v_start[kp] + i], 0.5);
  }
  int kf = node_of_joint(p, "fj");
  ck_assert_int_eq(t->joint_kind[kf], TEAL_JOINT_QUATERNION_FLOATING);
  assert_vec3_near(t->X_PF[kf].p, teal_vec3_make(1, 2, 3), 0.0);
  ck_assert_int_eq(t->joint_kind[node_of_joint(p, "bj")], TEAL_JOINT_BALL);
  ck_assert_double_eq(t->damping[t->v_start[node_of_joint(p, "bj")] + 2], 0.2);
  ck_assert_int_eq(t->joint_kind[node_of_joint(p, "uj")], TEAL_JOINT_UNIVERSAL);
  int ks = node_of_joint(p, "sj");
  ck_assert_int_eq(t->joint_kind[ks], TEAL_JOINT_SCREW);
  ck_assert_double_eq(t->params[ks].pitch, 0.1);
  ck_assert_double_eq(t->q_upper[t->q_start[ks]], 3.0);
  ck_assert_int_eq(t->joint_kind[node_of_joint(p, "wj")], TEAL_JOINT_WELD);
  teal_plant_free(p);
}
END_TEST

/* Exporters write <axis xyz="0 0 0"/> on fixed joints: ignored, as Drake. */
START_TEST(zero_axis_on_fixed_joint_is_ignored) {
  const char *xml =
      "<robot name=\"z\">"
      "<link name=\"a\"><inertial><mass value=\"1\"/>"
      "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
      "<link name=\"b\"><inertial><mass value=\"1\"/>"
      "<inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
      "<joint name=\"w\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/>"
      "<axis xyz=\"0 0 0\"/></joint></robot>";
  teal_plant *p = load_xml(xml, NULL, 1);
  ck_assert_int_eq(teal_plant_nv(p), 6); /* a floats, b is welded to it */
  teal_plant_free(p);
}
END_TEST

START_TEST(massless_links) {
  static const char *xml =
      "<robot name=\"m\">"
      "<link name=\"base\"/>" XLINK("a")
      XJOINT("ja", "revolute", "base", "a", "<origin xyz=\"0 0 1\"/><axis xyz=\"0 0 1\"/>")
      "<link name=\"flange\"/>"
      XJOINT("jf", "fixed", "a", "flange",
             "<origin xyz=\"0 0 0.5\" rpy=\"0 0 1.5707963267948966\"/>")
      "<link name=\"tool\"><visual><geometry><sphere radius=\"0.01\"/></geometry></visual></link>"
      XJOINT("jt", "fixed", "flange", "tool", "<origin xyz=\"0.1 0 0\"/>")
      "<link name=\"b\">" MASS "</link>"
      XJOINT("jb", "prismatic", "tool", "b", "<origin xyz=\"0 0 0.2\"/>")
      "<frame name=\"tcp\" link=\"tool\" xyz=\"0 0 0.05\"/>"
      "</robot>";
  teal_plant *p = load_xml(xml, NULL, 1);
  int inst = teal_plant_get_model_instance_by_name(p, "m", NULL);
  int a = teal_plant_get_body_by_name(p, "a", inst, NULL), body;
  ck_assert_int_eq(teal_plant_num_bodies(p), 3);
  ck_assert_int_eq(teal_plant_num_joints(p), 2);
  frame_pose(p, "m::base", TEAL_WORLD_MODEL_INSTANCE, &body);
  ck_assert_int_eq(body, TEAL_WORLD_BODY);
  teal_transform X = frame_pose(p, "m::ja_parent", TEAL_WORLD_MODEL_INSTANCE, &body);
  assert_vec3_near(X.p, teal_vec3_make(0, 0, 1), 0.0);
  X = frame_pose(p, "tool", inst, &body);
  ck_assert_int_eq(body, a);
  assert_vec3_near(X.p, teal_vec3_make(0, 0.1, 0.5), 1e-15);
  X = frame_pose(p, "jb_parent", inst, &body);
  ck_assert_int_eq(body, a);
  assert_vec3_near(X.p, teal_vec3_make(0, 0.1, 0.7), 1e-15);
  X = frame_pose(p, "tcp", inst, &body);
  assert_vec3_near(X.p, teal_vec3_make(0, 0.1, 0.55), 1e-15);
  /* jb's axis (default x) is in the rotated joint frame */
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int kb = node_of_joint(p, "jb");
  assert_vec3_near(teal_rotation_apply(t->X_PF[kb].R, t->params[kb].axis),
                   teal_vec3_make(0, 1, 0), 1e-15);
  const teal_plant_geometry *g = geometry_named(p, "tool_visual_0");
  ck_assert_int_eq(g->body, a);
  assert_vec3_near(g->X_BG.p, teal_vec3_make(0, 0.1, 0.5), 1e-15);
  teal_plant_free(p);
}
END_TEST

START_TEST(world_link_and_free_roots) {
  static const char *xml =
      "<robot name=\"w\"><link name=\"world\">" MASS
      "<visual><geometry><box size=\"1 1 0.1\"/></geometry></visual></link>"
      XLINK("free") XLINK("hinged")
      XJOINT("h", "continuous", "world", "hinged", "") "</robot>";
  teal_urdf_report r;
  teal_plant *p = load_xml(xml, &r, 1);
  ck_assert_int_eq(r.ignored_elements, 1); /* the world's inertial */
  ck_assert_int_eq(teal_plant_num_joints(p), 2); /* h and the floating joint of "free" */
  ck_assert_int_eq(teal_plant_nq(p), 1 + 7);
  ck_assert_int_eq(geometry_named(p, "w::world_visual_0")->body, TEAL_WORLD_BODY);
  teal_plant_free(p);
}
END_TEST

/* ---- errors ------------------------------------------------------------------------------ */

typedef struct error_case {
  const char *xml;
  int code;
  const char *expect[3];
} error_case;

#define R(body) "<robot name=\"r\">" body "</robot>"

static const error_case error_cases[] = {
    {"<robot name=\"r\">\n" XLINK("a") "\n" XLINK("b") "\n<joint name=\"elbow\" type=\"revolve\">"
     "<parent link=\"a\"/><child link=\"b\"/></joint>\n</robot>",
     TEAL_EPARSE,
     {"<string>:4: <joint name=\"elbow\">: unknown joint type 'revolve'"}},
    {"<robot name=\"r\">\n" XLINK("b") "\n" XJOINT("j", "fixed", "nope", "b", "") "</robot>",
     TEAL_ENOTFOUND,
     {"<string>:3: <joint name=\"j\">: parent link 'nope' not found"}},
    {R(XJOINT("j", "fixed", "world", "nope", "")), TEAL_ENOTFOUND, {"child link 'nope'"}},
    {R(XLINK("a") "<joint name=\"j\" type=\"fixed\"><child link=\"a\"/></joint>"), TEAL_EPARSE,
     {"<joint name=\"j\">: missing <parent>"}},
    {R(XLINK("a") "<joint name=\"j\" type=\"fixed\"><parent link=\"world\"/><child/></joint>"),
     TEAL_EPARSE, {"<child>: missing attribute 'link'"}},
    {"<robot name=\"r\">\n" XLINK("a") "\n" XLINK("a") "</robot>", TEAL_EDUPLICATE,
     {"<string>:3: <link name=\"a\">: duplicate link name 'a'"}},
    {R(XLINK("a") XLINK("b") XJOINT("j", "fixed", "world", "a", "")
           XJOINT("j", "fixed", "world", "b", "")),
     TEAL_EDUPLICATE, {"duplicate joint name 'j'"}},
    {R(XLINK("a") XLINK("b") XLINK("c") XJOINT("j1", "fixed", "a", "c", "")
           XJOINT("j2", "fixed", "b", "c", "")),
     TEAL_EINVAL, {"<joint name=\"j2\">", "link 'c' already has parent joint 'j1'"}},
    {R(XLINK("a") XLINK("b") XJOINT("j1", "fixed", "a", "b", "")
           XJOINT("j2", "fixed", "b", "a", "")),
     TEAL_EINVAL, {"kinematic loop through link"}},
    {R(XLINK("c") XLINK("a") XLINK("b") XJOINT("j1", "fixed", "a", "b", "")
           XJOINT("j2", "fixed", "b", "a", "") XJOINT("j3", "fixed", "b", "c", "")),
     TEAL_EINVAL, {"<joint name=\"j2\">: kinematic loop through link 'a'"}},
    {R(XJOINT("j", "fixed", "world", "world", "")), TEAL_EINVAL, {"world cannot be a child"}},
    {R(XLINK("a") XJOINT("j", "fixed", "a", "a", "")), TEAL_EINVAL, {"same link"}},
    {R("<link name=\"a\"><inertial><mass value=\"-1\"/></inertial></link>"), TEAL_EINVAL,
     {"<mass>: negative mass"}},
    {R("<link name=\"a\"><inertial><mass value=\"nan\"/></inertial></link>"), TEAL_ENONFINITE,
     {"<mass>: attribute value=\"nan\" is not finite"}},
    {R("<link name=\"a\"><inertial><mass value=\"1e999\"/></inertial></link>"), TEAL_ENONFINITE,
     {"not finite"}},
    {R("<link name=\"a\"><inertial><mass value=\"abc\"/></inertial></link>"), TEAL_EPARSE,
     {"is not a number"}},
    {R("<link name=\"a\"><inertial><mass value=\"0x10\"/></inertial></link>"), TEAL_EPARSE,
     {"is not a number"}},
    {R("<link name=\"a\"><inertial><origin/></inertial></link>"), TEAL_EPARSE,
     {"<inertial>: missing <mass>"}},
    {R("<link name=\"a\"><inertial><mass value=\"1\"/>"
       "<inertia ixx=\"1\" iyy=\"1\" izz=\"5\"/></inertial></link>"),
     TEAL_EINVAL, {"<inertial>: non-physical inertia"}},
    {R("<link name=\"a\"><inertial><mass value=\"1\"/>"
       "<inertia ixx=\"-1\" iyy=\"1\" izz=\"1\"/></inertial></link>"),
     TEAL_EINVAL, {"non-physical inertia"}},
    {R(XLINK("a") MASS), TEAL_OK, {NULL}}, /* a stray inertial under robot is ignored */
    {R("<link name=\"a\">" MASS MASS "</link>"), TEAL_EPARSE, {"more than one <inertial>"}},
    {R(XLINK("p") "<link name=\"a\"/>" XJOINT("j", "revolute", "p", "a", "")), TEAL_EINVAL,
     {"<link name=\"a\">: massless link", "revolute joint 'j'"}},
    {R(XLINK("a") XJOINT("j", "revolute", "world", "a", "<axis xyz=\"0 0 0\"/>")), TEAL_EINVAL,
     {"<axis>: axis must be nonzero"}},
    {R(XLINK("a") XJOINT("j", "revolute", "world", "a", "<axis xyz=\"0 1\"/>")), TEAL_EPARSE,
     {"<axis>: attribute xyz=\"0 1\" needs 3 numbers"}},
    {R(XLINK("a") XJOINT("j", "revolute", "world", "a", "<limit lower=\"1\" upper=\"-1\"/>")),
     TEAL_EINVAL, {"<limit>: lower limit 1 exceeds upper limit -1"}},
    {R(XLINK("a") XJOINT("j", "revolute", "world", "a", "<limit effort=\"-1\"/>")), TEAL_EINVAL,
     {"<limit>: effort and velocity"}},
    {R(XLINK("a") XJOINT("j", "revolute", "world", "a", "<dynamics damping=\"-1\"/>")),
     TEAL_EINVAL, {"<dynamics>: damping must be >= 0"}},
    {R(XLINK("a") XJOINT("j", "ball", "world", "a", "")), TEAL_EPARSE,
     {"unknown joint type 'ball'"}},
    {R(XLINK("a") "<drake:joint name=\"s\" type=\"screw\"><parent link=\"world\"/>"
                 "<child link=\"a\"/></drake:joint>"),
     TEAL_EPARSE, {"<drake:joint name=\"s\">: a screw joint needs <drake:screw_thread_pitch>"}},
    {R(XLINK("a") "<joint type=\"fixed\"/>"), TEAL_EPARSE,
     {"<joint>: missing attribute 'name'"}},
    {"<sdf version=\"1.6\"/>", TEAL_EPARSE, {"<string>:1: <sdf>: the root element must be"}},
    {"<robot>" XLINK("a") "</robot>", TEAL_EPARSE, {"<robot>: missing attribute 'name'"}},
    {R("<transmission type=\"SimpleTransmission\" name=\"t\"><joint name=\"zz\"/>"
       "<actuator name=\"m\"/></transmission>"),
     TEAL_ENOTFOUND, {"<transmission name=\"t\">: joint 'zz' not found"}},
    {R(XLINK("a") XJOINT("j", "fixed", "world", "a", "")
           "<transmission type=\"SimpleTransmission\"><joint name=\"j\"/><actuator name=\"m\"/>"
           "</transmission>"),
     TEAL_EINVAL, {"fixed joint 'j' cannot be actuated"}},
    {R(XLINK("a") XJOINT("j", "continuous", "world", "a", "")
           "<transmission type=\"SimpleTransmission\"><joint name=\"j\"/><actuator name=\"m\"/>"
           "</transmission><transmission type=\"SimpleTransmission\"><joint name=\"j\"/>"
           "<actuator name=\"n\"/></transmission>"),
     TEAL_EDUPLICATE, {"joint 'j' already has an actuator"}},
    {R(XLINK("a") XLINK("b") XJOINT("j", "continuous", "world", "a", "")
           XJOINT("k", "continuous", "a", "b", "")
           "<transmission type=\"SimpleTransmission\"><joint name=\"j\"/><actuator name=\"m\"/>"
           "</transmission><transmission type=\"SimpleTransmission\"><joint name=\"k\"/>"
           "<actuator name=\"m\"/></transmission>"),
     TEAL_EDUPLICATE, {"duplicate actuator name 'm'"}},
    {R("<transmission type=\"SimpleTransmission\"><joint name=\"j\"/></transmission>"),
     TEAL_EPARSE, {"missing actuator name"}},
    {R("<transmission name=\"t\"><joint name=\"j\"/></transmission>"), TEAL_EPARSE,
     {"missing transmission type"}},
    {R("<link name=\"a\"><visual><geometry><sphere radius=\"1\"/></geometry>"
       "<material name=\"nope\"/></visual></link>"),
     TEAL_ENOTFOUND, {"<material name=\"nope\">: material 'nope' is not defined"}},
    {R("<material name=\"m\"><color rgba=\"2 0 0 1\"/></material>"), TEAL_EINVAL,
     {"<color>: rgba values must lie in [0, 1]"}},
    {R("<material name=\"m\"><color rgba=\"1 0 0 1\"/></material>"
       "<material name=\"m\"><color rgba=\"0 1 0 1\"/></material>"),
     TEAL_EDUPLICATE, {"material 'm' is already defined"}},
    {R("<material><color rgba=\"1 0 0 1\"/></material>"), TEAL_EPARSE,
     {"<material>: missing attribute 'name'"}},
    {R("<link name=\"a\"><visual><geometry><cone radius=\"1\"/></geometry></visual></link>"),
     TEAL_EPARSE, {"<cone>: unknown geometry"}},
    {R("<link name=\"a\"><visual><geometry><sphere radius=\"1\"/><sphere radius=\"1\"/>"
       "</geometry></visual></link>"),
     TEAL_EPARSE, {"<geometry>: <geometry> needs exactly one shape"}},
    {R("<link name=\"a\"><visual/></link>"), TEAL_EPARSE, {"<visual>: missing <geometry>"}},
    {R("<link name=\"a\"><collision><geometry><box size=\"1 2\"/></geometry></collision></link>"),
     TEAL_EPARSE, {"<box>: attribute size=\"1 2\" needs 3 numbers"}},
    {R("<link name=\"a\"><visual><geometry><sphere radius=\"-1\"/></geometry></visual></link>"),
     TEAL_EINVAL, {"<sphere>: shape: sphere radius must be finite and > 0"}},
    {R("<link name=\"a\"><visual><geometry><mesh filename=\"x.obj\" scale=\"1 2 1\"/>"
       "</geometry></visual></link>"),
     TEAL_EINVAL, {"<mesh>: only uniform mesh scales"}},
    {R("<link name=\"a\"><visual><geometry><mesh/></geometry></visual></link>"), TEAL_EPARSE,
     {"<mesh>: missing attribute 'filename'"}},
    {R("<link name=\"a\">" MASS "<visual name=\"v\"><geometry><sphere radius=\"1\"/></geometry>"
       "</visual><visual name=\"v\"><geometry><sphere radius=\"1\"/></geometry></visual></link>"),
     TEAL_EDUPLICATE, {"<visual name=\"v\">: geometry name 'v' is used twice"}},
    {R("<link name=\"a\"><collision><geometry><sphere radius=\"1\"/></geometry>"
       "<drake:proximity_properties><drake:mu_static value=\"0.2\"/>"
       "<drake:mu_dynamic value=\"0.5\"/></drake:proximity_properties></collision></link>"),
     TEAL_EINVAL, {"<drake:proximity_properties>: needs friction static >= dynamic"}},
    {R("<link name=\"a\"><collision><geometry><sphere radius=\"1\"/></geometry>"
       "<drake:proximity_properties><drake:point_contact_stiffness value=\"-5\"/>"
       "</drake:proximity_properties></collision></link>"),
     TEAL_EINVAL, {"stiffness > 0"}},
    {R("<link name=\"a\"><visual><origin xyz=\"1 2 inf\"/><geometry><sphere radius=\"1\"/>"
       "</geometry></visual></link>"),
     TEAL_ENONFINITE, {"<origin>: attribute xyz=\"1 2 inf\" is not finite"}},
    {R(XLINK("a") "<frame name=\"a\" link=\"a\"/>"), TEAL_EDUPLICATE,
     {"<frame name=\"a\">: frame name 'a' is used twice"}},
    {R(XLINK("a") "<frame name=\"f\" link=\"zz\"/>"), TEAL_ENOTFOUND, {"link 'zz' not found"}},
    {R(XLINK("a_parent") XLINK("a") XJOINT("a", "fixed", "a_parent", "a", "")), TEAL_EDUPLICATE,
     {"frame name 'a_parent' is used twice"}},
    {"<!DOCTYPE robot [<!ENTITY m \"1\">]>"
     "<robot name=\"r\"><link name=\"a\"><inertial><mass value=\"&m;\"/></inertial></link>"
     "</robot>",
     TEAL_EPARSE, {"<mass>: attribute 'value' uses entity references"}},
    {R("<link name=\"a\"/><link name=\"b\"/>"
       XJOINT("j1", "fixed", "world", "a", "<origin xyz=\"1e308 0 0\"/>")
       XJOINT("j2", "fixed", "a", "b", "<origin xyz=\"1e308 0 0\"/>")),
     TEAL_ENONFINITE, {"<joint name=\"j2\">: joint pose overflows"}},
    {R(XLINK("a") "<link name=\"b\"><inertial><mass value=\"1e300\"/><origin xyz=\"1e300 0 0\"/>"
       "</inertial></link>"),
     TEAL_ENONFINITE, {"<inertial>: non-physical inertia"}},
};

static void check_error_case(int i) {
  const error_case *c = &error_cases[i];
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {0, ""};
  int rc = teal_urdf_load_string(p, c->xml, NULL, &e);
  if (c->code == TEAL_OK) {
    ck_assert_msg(rc >= 0, "case %d: %s", i, e.message);
  } else {
    ck_assert_msg(rc == c->code, "case %d: code %d (want %d): %s", i, rc, c->code, e.message);
    ck_assert_int_eq(e.code, c->code);
    ck_assert_msg(strncmp(e.message, "<string>:", 9) == 0, "case %d: %s", i, e.message);
  }
  for (int k = 0; k < 3 && c->expect[k]; k++) {
    ck_assert_msg(strstr(e.message, c->expect[k]), "case %d: '%s' lacks '%s'", i, e.message,
                  c->expect[k]);
  }
  /* checked before anything is added: the plant is untouched and usable */
  ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
  ck_assert_int_eq(teal_plant_num_model_instances(p), rc >= 0 ? 3 : 2);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_plant_free(p);
}

START_TEST(error_cases_name_line_and_element) {
  for (int i = 0; i < (int)(sizeof(error_cases) / sizeof(error_cases[0])); i++) {
    check_error_case(i);
  }
}
END_TEST

START_TEST(malformed_xml) {
  static const struct {
    const char *xml;
    const char *expect;
  } cases[] = {
      {"<robot name=\"r\">\n<link name=\"a\">\n</robot>", "<string>:3: malformed XML: "},
      {"", "<string>:"},
      {"<robot name=\"r\"", "malformed XML"},
      {"not xml at all", "malformed XML"},
      {"<robot name=\"r\"></robot>trailing", "malformed XML"},
      {"<robot name=\"r\" name=\"s\"></robot>", "malformed XML"},
      {"<robot name=\"r\">\n\n\n<link name=\"a\"><&/link></robot>", "<string>:4: malformed XML"},
      {"<robot name=\"r\">\n<link name=\"\xff\xfe\"/></robot>", "<string>:2: malformed XML"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    teal_plant *p = teal_plant_new(0.0, NULL);
    teal_error e = {0, ""};
    ck_assert_int_eq(teal_urdf_load_string(p, cases[i].xml, NULL, &e), TEAL_EPARSE);
    ck_assert_msg(strstr(e.message, cases[i].expect), "case %zu: %s", i, e.message);
    ck_assert_msg(!strchr(e.message, '\n'), "case %zu: not one line: %s", i, e.message);
    ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
    teal_plant_free(p);
  }
}
END_TEST

/* Entity expansion is not performed: a "billion laughs" document either
 * fails to parse or parses without expanding, and quickly. */
START_TEST(entity_bomb_is_harmless) {
  static const char *xml =
      "<?xml version=\"1.0\"?><!DOCTYPE robot ["
      "<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">"
      "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">"
      "<!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\"><!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\">"
      "<!ENTITY f \"&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;\"><!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\">"
      "<!ENTITY h \"&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;\"><!ENTITY i \"&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;\">"
      "]><robot name=\"r\"><transmission name=\"t\"><type>&i;</type><joint name=\"j\"/>"
      "</transmission><link name=\"&i;\"/></robot>";
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {0, ""};
  int rc = teal_urdf_load_string(p, xml, NULL, &e);
  ck_assert_int_lt(rc, 0);
  ck_assert_int_ne(e.message[0], '\0');
  teal_plant_free(p);
}
END_TEST

/* Writes text to dir/name; returns the path in buf. */
static const char *write_file(const char *dir, const char *name, const char *text, char *buf,
                              size_t size) {
  snprintf(buf, size, "%s/%s", dir, name);
  FILE *f = fopen(buf, "wb");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
  return buf;
}

START_TEST(files) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {0, ""};
  ck_assert_int_eq(teal_urdf_load_file(p, "/nonexistent/dir/x.urdf", NULL, &e), TEAL_EIO);
  ck_assert_ptr_nonnull(strstr(e.message, "/nonexistent/dir/x.urdf: cannot open"));
  char dir[] = "/tmp/teal_urdf_XXXXXX", bad[512], good[512];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  write_file(dir, "acrobot.urdf",
             "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n" XLINK("a") "\n" XLINK("b")
             "\n<joint name=\"elbow\" type=\"revolve\">\n<parent link=\"a\"/><child link=\"b\"/>"
             "</joint>\n</robot>\n",
             bad, sizeof(bad));
  ck_assert_int_eq(teal_urdf_load_file(p, bad, NULL, &e), TEAL_EPARSE);
  ck_assert_str_eq(e.message,
                   "acrobot.urdf:5: <joint name=\"elbow\">: unknown joint type 'revolve'");
  write_file(dir, "meshy.urdf",
             "<robot name=\"meshy\"><link name=\"a\">" MASS
             "<visual><geometry><mesh filename=\"meshes/a.obj\"/></geometry></visual>"
             "<visual><geometry><mesh filename=\"file:///abs/b.obj\"/></geometry></visual>"
             "<visual><geometry><mesh filename=\"package://pkg/c.obj\"/></geometry></visual>"
             "</link></robot>",
             good, sizeof(good));
  ck_assert_int_ge(teal_urdf_load_file(p, good, NULL, &e), 2);
  char expect[600];
  snprintf(expect, sizeof(expect), "%s/meshes/a.obj", dir);
  ck_assert_str_eq(geometry_named(p, "a_visual_0")->shape.filename, expect);
  ck_assert_str_eq(geometry_named(p, "a_visual_1")->shape.filename, "/abs/b.obj");
  ck_assert_str_eq(geometry_named(p, "a_visual_2")->shape.filename, "package://pkg/c.obj");
  remove(bad);
  remove(good);
  rmdir(dir);
  teal_plant_free(p);
}
END_TEST

START_TEST(bad_arguments_and_plant_state) {
  teal_error e = {0, ""};
  static const char *xml = R(XLINK("a"));
  ck_assert_int_eq(teal_urdf_load_string(NULL, xml, NULL, &e), TEAL_EINVAL);
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_urdf_load_string(p, NULL, NULL, &e), TEAL_EINVAL);
  ck_assert_int_eq(teal_urdf_load_file(p, NULL, NULL, &e), TEAL_EINVAL);
  ck_assert_int_eq(teal_urdf_load_string(p, xml, "", &e), TEAL_EINVAL);
  ck_assert_int_eq(teal_urdf_load_string(p, "<robot", NULL, NULL), TEAL_EPARSE); /* err NULL */
  ck_assert_int_eq(teal_urdf_load_string(p, xml, "renamed", &e), 2);
  ck_assert_int_ge(teal_plant_get_body_by_name(p, "a", 2, NULL), 1);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_urdf_load_string(p, xml, "again", &e), TEAL_ESTATE);
  ck_assert_ptr_nonnull(strstr(e.message, "finalized"));
  teal_plant_free(p);
  /* a plant with a sticky error reports it */
  p = teal_plant_new(0.0, NULL);
  ck_assert_int_lt(teal_plant_add_model_instance(p, "WorldModelInstance"), 0);
  ck_assert_int_eq(teal_urdf_load_string(p, xml, NULL, &e), TEAL_EDUPLICATE);
  ck_assert_ptr_nonnull(strstr(e.message, "already failed"));
  teal_plant_free(p);
}
END_TEST

/* Frames and geometry on the world clash with ones added by other code:
 * caught before the build, so the plant is untouched. */
START_TEST(world_name_clashes_are_checked_first) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {0, ""};
  ck_assert_int_ge(teal_plant_add_frame(p, "r::base", TEAL_WORLD_FRAME, teal_transform_identity()),
                   0);
  ck_assert_int_eq(teal_urdf_load_string(p, R("<link name=\"base\"/>"), NULL, &e),
                   TEAL_EDUPLICATE);
  ck_assert_ptr_nonnull(strstr(e.message, "frame 'r::base' already exists"));
  teal_shape s;
  ck_assert_int_eq(teal_shape_sphere(1, &s, NULL), TEAL_OK);
  ck_assert_int_ge(teal_plant_register_visual_geometry(p, TEAL_WORLD_BODY,
                                                       teal_transform_identity(), &s,
                                                       "q::base_visual_0", NULL),
                   0);
  ck_assert_int_eq(teal_urdf_load_string(p,
                                         "<robot name=\"q\"><link name=\"base\"><visual><geometry>"
                                         "<sphere radius=\"1\"/></geometry></visual></link>"
                                         "</robot>",
                                         NULL, &e),
                   TEAL_EDUPLICATE);
  ck_assert_ptr_nonnull(strstr(e.message, "geometry 'q::base_visual_0' already exists"));
  ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_plant_free(p);
}
END_TEST

/* ---- memory ------------------------------------------------------------------------------ */

/* Every teal_alloc made by a load (successful or not) is freed with the plant. */
START_TEST(allocations_balance) {
  char path[2048];
  urdf_test_model_path("iiwa7_like.urdf", path, sizeof(path));
  ts_alloc_install();
  for (int pass = 0; pass < 2; pass++) {
    teal_plant *p = teal_plant_new(0.0, NULL);
    teal_error e = {0, ""};
    int rc = pass == 0 ? teal_urdf_load_file(p, path, NULL, &e)
                       : teal_urdf_load_string(p, error_cases[7].xml, NULL, &e);
    ck_assert(pass == 0 ? rc >= 0 : rc < 0);
    ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
    teal_plant_free(p);
    ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  }
  ts_alloc_uninstall();
}
END_TEST

/* Failing the k-th allocation of a load, for every k, gives a clean error
 * (or success when the failure hits nothing essential) and no leak. */
START_TEST(out_of_memory_at_every_allocation) {
  char path[2048];
  size_t len;
  char *xml = urdf_test_read(urdf_test_model_path("iiwa7_like.urdf", path, sizeof(path)), &len);
  ck_assert_ptr_nonnull(xml);
  ts_alloc_install();
  teal_plant *p = teal_plant_new(0.0, NULL);
  unsigned long before = ts_alloc_allocs();
  ck_assert_int_ge(teal_urdf_load_string(p, xml, NULL, NULL), 2);
  unsigned long needed = ts_alloc_allocs() - before;
  teal_plant_free(p);
  for (unsigned long k = 0; k <= needed; k++) {
    p = teal_plant_new(0.0, NULL);
    ck_assert_ptr_nonnull(p);
    teal_error e = {0, ""};
    ts_alloc_fail_after((long)k, 0);
    int rc = teal_urdf_load_string(p, xml, NULL, &e);
    ts_alloc_fail_after(-1, 0);
    ck_assert_msg(rc >= 2 || (rc < 0 && e.message[0]), "k = %lu: rc %d", k, rc);
    if (rc < 0) {
      ck_assert_int_eq(rc, TEAL_ENOMEM);
    }
    teal_plant_finalize(p);
    teal_plant_free(p);
    ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  }
  ts_alloc_uninstall();
  free(xml);
}
END_TEST

int main(void) {
  Suite *s = suite_create("urdf");
  TCase *models = tcase_create("models");
  tcase_add_test(models, acrobot_model);
  tcase_add_test(models, acrobot_matches_c_model);
  tcase_add_test(models, acrobot_lqr_gains_match_c_model);
  tcase_add_test(models, zero_axis_on_fixed_joint_is_ignored);
  tcase_add_test(models, pendulum_model);
  tcase_add_test(models, cart_pole_model);
  tcase_add_test(models, iiwa_model);
  tcase_add_test(models, iiwa_forward_kinematics_matches_urdf_chain);
  tcase_add_test(models, rpy_origins_and_axes_forward_kinematics);
  tcase_add_test(models, loads_several_instances);
  suite_add_tcase(s, models);
  TCase *features = tcase_create("features");
  tcase_add_test(features, geometry_materials_and_friction);
  tcase_add_test(features, drake_prefix_without_namespace);
  tcase_add_test(features, transmissions);
  tcase_add_test(features, joint_types);
  tcase_add_test(features, massless_links);
  tcase_add_test(features, world_link_and_free_roots);
  suite_add_tcase(s, features);
  TCase *errors = tcase_create("errors");
  tcase_add_test(errors, error_cases_name_line_and_element);
  tcase_add_test(errors, malformed_xml);
  tcase_add_test(errors, entity_bomb_is_harmless);
  tcase_add_test(errors, files);
  tcase_add_test(errors, bad_arguments_and_plant_state);
  tcase_add_test(errors, world_name_clashes_are_checked_first);
  suite_add_tcase(s, errors);
  TCase *memory = tcase_create("memory");
  tcase_set_timeout(memory, 300);
  tcase_add_test(memory, allocations_balance);
  tcase_add_test(memory, out_of_memory_at_every_allocation);
  suite_add_tcase(s, memory);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
