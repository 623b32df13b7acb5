/* The shipped URDF models (multibody/parsing: urdf.c through urdf_build.c):
 * counts, masses, inertias, axes, limits, damping, actuators, frames and
 * geometry of the acrobot, pendulum, cart-pole and iiwa-like arm; the
 * acrobot from URDF against the acrobot built in C (M, C v, tau_g, damping,
 * actuation, LQR gains); the arm's forward kinematics against its URDF chain
 * composed by hand; several instances of one model. Models are found
 * through urdf_models.h. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/mb_urdf_fixtures.h"
#include "support/test_support.h"
#include "systems/controllers/lqr.h"
#include "urdf_models.h"

#define PI 3.14159265358979323846

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

static const teal_spatial_inertia *body_inertia(const teal_plant *p, const char *name) {
  int b = teal_plant_get_body_by_name(p, name, -1, NULL);
  ck_assert_msg(b >= 1, "no body %s", name);
  return &teal_plant_get_tree(p)->M_BBo_B[teal_plant_body_node(p, b)];
}

static void assert_inertia_near(const teal_spatial_inertia *a, const teal_spatial_inertia *b,
                                double tol) {
  ck_assert_double_le(fabs(a->mass - b->mass), tol);
  ts_urdf_assert_vec3_near(a->p_PScm_E, b->p_PScm_E, tol);
  ck_assert_double_le(teal_mat3_max_abs_diff(a->I_SP_E, b->I_SP_E), tol);
}

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
    int k = ts_urdf_node_of_joint(p, joints[i]);
    ck_assert_int_eq(t->joint_kind[k], TEAL_JOINT_REVOLUTE);
    ts_urdf_assert_vec3_near(t->params[k].axis, teal_vec3_make(0, 1, 0), 0.0);
    ck_assert_double_eq(t->damping[t->v_start[k]], 0.1);
    ck_assert(isinf(t->q_lower[t->q_start[k]]) && isinf(t->q_upper[t->q_start[k]]));
    ck_assert(isinf(t->effort_limit[t->v_start[k]]));
  }
  ts_urdf_assert_vec3_near(t->X_PF[ts_urdf_node_of_joint(p, "elbow")].p, teal_vec3_make(0, 0, -1),
                           0.0);
  int elbow = teal_plant_get_joint_by_name(p, "elbow", inst, NULL);
  ck_assert_int_eq(teal_plant_actuator_v_index(p, 0), teal_plant_joint_v_start(p, elbow));
  ck_assert(isinf(ts_urdf_actuator_effort(p, "elbow_motor")));
  /* frames on the world carry the instance prefix */
  int body;
  ts_urdf_frame_pose(p, "acrobot::base_link", TEAL_WORLD_MODEL_INSTANCE, &body);
  ck_assert_int_eq(body, TEAL_WORLD_BODY);
  ts_urdf_frame_pose(p, "acrobot::shoulder_parent", TEAL_WORLD_MODEL_INSTANCE, &body);
  teal_transform X = ts_urdf_frame_pose(p, "elbow_parent", inst, &body);
  ck_assert_int_eq(body, teal_plant_get_body_by_name(p, "link1", inst, NULL));
  ts_urdf_assert_vec3_near(X.p, teal_vec3_make(0, 0, -1), 0.0);
  /* four visuals, no collisions */
  ck_assert_int_eq(teal_plant_num_geometries(p), 4);
  const teal_plant_geometry *g = ts_urdf_geometry_named(p, "acrobot::base_link_visual_0");
  ck_assert_int_eq(g->body, TEAL_WORLD_BODY);
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_BOX);
  g = ts_urdf_geometry_named(p, "tip");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_SPHERE);
  ck_assert_double_eq(g->rgba[0], 0.8);
  ck_assert_double_eq(g->X_BG.p.v[2], -2.0);
  g = ts_urdf_geometry_named(p, "link1_visual_0");
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
  teal_mb_data *ws[2];
  for (int i = 0; i < 2; i++) {
    ws[i] = teal_mb_data_new(plants[i], NULL);
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
    teal_mb_data_free(ws[i]);
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
  int k = ts_urdf_node_of_joint(p, "theta");
  ck_assert_double_eq(t->damping[0], 0.1);
  ck_assert_double_eq(t->effort_limit[0], 10.0);
  ck_assert_double_eq(t->v_lower[0], -10.0);
  ck_assert_double_eq(t->v_upper[0], 10.0);
  ts_urdf_assert_vec3_near(t->params[k].axis, teal_vec3_make(0, 1, 0), 0.0);
  ck_assert_double_eq(ts_urdf_actuator_effort(p, "tau"), 10.0);
  /* tau_g = -m g l sin(q) */
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  double q = PI / 3, tg;
  ck_assert_int_eq(teal_mb_gravity_forces(p, ws, &q, &tg), TEAL_OK);
  ck_assert_double_eq_tol(tg, -9.81 * 0.5 * sin(q), 1e-12);
  teal_mb_data_free(ws);
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
  int kx = ts_urdf_node_of_joint(p, "x"), kt = ts_urdf_node_of_joint(p, "theta");
  ck_assert_int_eq(t->joint_kind[kx], TEAL_JOINT_PRISMATIC);
  ck_assert_int_eq(t->joint_kind[kt], TEAL_JOINT_REVOLUTE);
  ts_urdf_assert_vec3_near(t->params[kx].axis, teal_vec3_make(1, 0, 0), 0.0);
  ck_assert_double_eq(t->q_lower[t->q_start[kx]], -5.0);
  ck_assert_double_eq(t->q_upper[t->q_start[kx]], 5.0);
  ck_assert_double_eq(t->effort_limit[t->v_start[kx]], 100.0);
  ck_assert_double_eq(ts_urdf_actuator_effort(p, "force"), 100.0);
  ck_assert_int_eq(teal_plant_actuator_v_index(p, 0), t->v_start[kx]);
  /* M(0) = [mc + mp, -mp l; -mp l, mp l^2] */
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  double q[2] = {0.3, 0.0}, Mq[4];
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, Mq), TEAL_OK);
  ck_assert_double_eq_tol(Mq[0], 11.0, 1e-13);
  ck_assert_double_eq_tol(Mq[1], -0.5, 1e-13);
  ck_assert_double_eq_tol(Mq[3], 0.25, 1e-13);
  teal_mb_data_free(ws);
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
    int k = ts_urdf_node_of_joint(p, name), qi = t->q_start[k], vi = t->v_start[k];
    double lim = i % 2 ? 2.0 : 2.9, sign = i == 3 ? -1.0 : 1.0;
    teal_vec3 axis = i % 2 ? teal_vec3_make(0, sign, 0) : teal_vec3_make(0, 0, 1);
    ck_assert_int_eq(t->joint_kind[k], TEAL_JOINT_REVOLUTE);
    ts_urdf_assert_vec3_near(t->params[k].axis, axis, 0.0);
    ck_assert_double_eq(t->q_lower[qi], -lim);
    ck_assert_double_eq(t->q_upper[qi], lim);
    ck_assert_double_eq(t->effort_limit[vi], effort[i]);
    ck_assert_double_eq(t->v_upper[vi], vel[i]);
    ck_assert_double_eq(t->v_lower[vi], -vel[i]);
    ck_assert_double_eq(t->damping[vi], damp[i]);
    ck_assert_double_eq(ts_urdf_actuator_effort(p, motor), effort[i]);
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
  const teal_plant_geometry *g = ts_urdf_geometry_named(p, "iiwa_link_7_collision_0");
  ck_assert_double_eq(g->proximity.static_friction, 0.9);
  ck_assert_double_eq(g->proximity.dynamic_friction, 0.7);
  g = ts_urdf_geometry_named(p, "iiwa_link_3_collision_0");
  ck_assert_double_eq(g->proximity.static_friction, 1.0);
  ck_assert_double_eq(g->proximity.dynamic_friction, 1.0);
  ck_assert(isnan(g->proximity.point_contact_stiffness));
  ck_assert_double_eq(g->shape.radius, 0.06);
  ck_assert_double_eq(g->shape.length, 0.13);
  int body;
  teal_transform X = ts_urdf_frame_pose(p, "tool0", inst, &body);
  ck_assert_int_eq(body, teal_plant_get_body_by_name(p, "iiwa_link_7", inst, NULL));
  ts_urdf_assert_vec3_near(X.p, teal_vec3_make(0, 0, 0.045), 0.0);
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
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
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
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

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
      teal_rotation R =
          k % 2 ? ts_urdf_rot(0, k == 3 ? -1 : 1, 0, q[k]) : ts_urdf_rot(0, 0, 1, q[k]);
      X = teal_transform_compose(X, teal_transform_make(teal_rotation_identity(),
                                                        teal_vec3_make(0, 0, z[k])));
      X = teal_transform_compose(X, teal_transform_make(R, teal_vec3_zero()));
    }
    X = teal_transform_compose(
        X, teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 0.045)));
    ts_urdf_assert_transform_near(ts_urdf_world_pose(p, "tool0", q), X, 1e-14);
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

int main(void) {
  Suite *s = suite_create("urdf_models");
  TCase *tc = tcase_create("urdf_models");
  tcase_add_test(tc, acrobot_model);
  tcase_add_test(tc, acrobot_matches_c_model);
  tcase_add_test(tc, acrobot_lqr_gains_match_c_model);
  tcase_add_test(tc, pendulum_model);
  tcase_add_test(tc, cart_pole_model);
  tcase_add_test(tc, iiwa_model);
  tcase_add_test(tc, iiwa_forward_kinematics_matches_urdf_chain);
  tcase_add_test(tc, loads_several_instances);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
