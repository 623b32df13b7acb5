/* The MJCF parser on the models in models/mjcf/ (multibody/parsing/mjcf*.c):
 * each against the same robot built by hand in C (M(q), C(q, v) v and
 * tau_g(q) at random states to 1e-12, damping, limits, actuators, sites,
 * gravity), and the acrobot against models/acrobot.urdf. The hand-built
 * inertias of geoms come from the solid formulas in spatial_inertia.h and a
 * capsule assembled from a cylinder and two half-spheres, not from the
 * parser's formulas. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mjcf_compare.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/math/spatial_inertia.h"
#include "multibody/parsing/parser.h"
#include "multibody/parsing/urdf.h"
#include "multibody/plant/plant_defaults.h"
#include "support/mb_urdf_fixtures.h"

#define PI 3.14159265358979323846
#define DEG (PI / 180.0)

static teal_transform xf(teal_rotation R, double x, double y, double z) {
  return teal_transform_make(R, teal_vec3_make(x, y, z));
}

static teal_transform at(double x, double y, double z) {
  return xf(teal_rotation_identity(), x, y, z);
}

static int frame(teal_plant *p, const char *name, int body, teal_transform X) {
  int f = teal_plant_add_frame(p, name, teal_plant_body_frame(p, body), X);
  ck_assert_int_ge(f, 0);
  return f;
}

/* A joint from a frame on P at X_PF to a frame on C at X_CM. */
static int joint(teal_plant *p, const char *name, teal_joint_kind kind, int P, teal_transform X_PF,
                 int C, teal_transform X_CM, teal_vec3 axis) {
  char fn[128], mn[128];
  snprintf(fn, sizeof fn, "%s_parent", name);
  snprintf(mn, sizeof mn, "%s_child", name);
  int F = kind == TEAL_JOINT_QUATERNION_FLOATING ? TEAL_WORLD_FRAME : frame(p, fn, P, X_PF);
  int M =
      kind == TEAL_JOINT_QUATERNION_FLOATING ? teal_plant_body_frame(p, C) : frame(p, mn, C, X_CM);
  int j = teal_plant_add_joint(p, name, kind, F, M, &axis, 0.0);
  ck_assert_int_ge(j, 0);
  return j;
}

static void set_damping(teal_plant *p, int j, double d) {
  double ds[6] = {d, d, d, d, d, d};
  ck_assert_int_eq(teal_plant_set_joint_damping(p, j, ds), TEAL_OK);
}

static void set_limits(teal_plant *p, int j, double lo, double hi) {
  ck_assert_int_eq(teal_plant_set_joint_position_limits(p, j, &lo, &hi), TEAL_OK);
}

/* A solid's inertia M_GGo_G moved to pose X_BG in the body. */
static teal_spatial_inertia placed(teal_spatial_inertia M_GGo_G, teal_transform X_BG) {
  teal_spatial_inertia M = teal_spatial_inertia_reexpress(&M_GGo_G, X_BG.R);
  return teal_spatial_inertia_shift(&M, teal_vec3_scale(X_BG.p, -1.0));
}

static teal_spatial_inertia central(double m, teal_vec3 c, teal_rotation R, double a, double b,
                                    double cc) {
  teal_mat3 I = teal_mat3_mul(teal_mat3_mul(R, teal_mat3_diag(a, b, cc)), teal_mat3_transpose(R));
  return teal_spatial_inertia_from_central(m, c, I);
}

/* A solid capsule (radius r, cylinder length L, along z) of density rho:
 * a cylinder plus two half-spheres, each with its centroid 3r/8 from its
 * flat face and central moments 2/5 mh r^2 - mh (3r/8)^2 (transverse) and
 * 2/5 mh r^2 (axial). */
static teal_spatial_inertia capsule(double rho, double r, double L) {
  double mc = rho * PI * r * r * L, mh = rho * 2.0 * PI * r * r * r / 3.0;
  teal_spatial_inertia M = teal_spatial_inertia_solid_cylinder(mc, r, L);
  double it = 0.4 * mh * r * r - mh * (3.0 * r / 8.0) * (3.0 * r / 8.0);
  for (int s = -1; s <= 1; s += 2) {
    teal_vec3 c = teal_vec3_make(0, 0, s * (L / 2.0 + 3.0 * r / 8.0));
    teal_spatial_inertia H = central(mh, c, teal_rotation_identity(), it, it, 0.4 * mh * r * r);
    M = teal_spatial_inertia_add(&M, &H);
  }
  return M;
}

static teal_rotation rot(double x, double y, double z, double angle) {
  return ts_urdf_rot(x, y, z, angle);
}

/* ---- the acrobot ------------------------------------------------------------ */

static teal_plant *acrobot_by_hand(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int inst = teal_plant_add_model_instance(p, "acrobot");
  teal_spatial_inertia M1 = teal_spatial_inertia_from_central(1.0, teal_vec3_make(0, 0, -0.5),
                                                              teal_mat3_diag(0.083, 0.083, 0.083));
  teal_spatial_inertia M2 = teal_spatial_inertia_from_central(1.0, teal_vec3_make(0, 0, -1),
                                                              teal_mat3_diag(0.33, 0.33, 0.33));
  int b1 = teal_plant_add_rigid_body(p, "link1", inst, &M1);
  int b2 = teal_plant_add_rigid_body(p, "link2", inst, &M2);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int j1 =
      joint(p, "shoulder", TEAL_JOINT_REVOLUTE, TEAL_WORLD_BODY, at(0, 0, 0), b1, at(0, 0, 0), y);
  int j2 = joint(p, "elbow", TEAL_JOINT_REVOLUTE, b1, at(0, 0, -1), b2, at(0, 0, 0), y);
  set_damping(p, j1, 0.1);
  set_damping(p, j2, 0.1);
  ck_assert_int_ge(teal_plant_add_joint_actuator(p, "elbow_motor", j2, INFINITY), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

START_TEST(acrobot_matches_hand_built_and_urdf) {
  teal_mjcf_report r;
  teal_plant *p = mjcf_test_load("acrobot.xml", &r);
  ck_assert_double_eq(r.timestep, 0.001);
  ck_assert_int_eq(r.num_warnings, 0);
  teal_plant *h = acrobot_by_hand();
  mjcf_test_same_dynamics(p, h, 25, 1e-12);
  char path[2048];
  teal_plant *u = teal_plant_new(0.0, NULL);
  ck_assert_int_ge(
      teal_urdf_load_file(u, urdf_test_model_path("acrobot.urdf", path, sizeof path), NULL, NULL),
      0);
  ck_assert_int_eq(teal_plant_finalize(u), TEAL_OK);
  mjcf_test_same_dynamics(p, u, 25, 1e-12);
  /* the motor, the site, the geometries */
  ck_assert_int_eq(teal_plant_num_actuators(p), 1);
  ck_assert(isinf(ts_urdf_actuator_effort(p, "elbow_motor")));
  int body;
  teal_transform X = ts_urdf_frame_pose(p, "tip_site", -1, &body);
  ck_assert_int_eq(body, teal_plant_get_body_by_name(p, "link2", -1, NULL));
  ts_urdf_assert_vec3_near(X.p, teal_vec3_make(0, 0, -2), 0.0);
  ck_assert_int_eq(teal_plant_num_collision_geometries(p), 0); /* contype = conaffinity = 0 */
  const teal_plant_geometry *g = ts_urdf_geometry_named(p, "acrobot::base_visual");
  ck_assert_int_eq(g->body, TEAL_WORLD_BODY);
  ck_assert_double_eq(g->shape.size.v[0], 0.2);
  g = ts_urdf_geometry_named(p, "link1_geom0_visual");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_CYLINDER);
  ck_assert_double_eq_tol(g->shape.length, 1.1, 1e-15);
  ts_urdf_assert_vec3_near(g->X_BG.p, teal_vec3_make(0, 0, -0.5), 1e-15);
  g = ts_urdf_geometry_named(p, "tip_visual");
  ck_assert_double_eq(g->rgba[0], 0.8);
  teal_plant_free(p);
  teal_plant_free(h);
  teal_plant_free(u);
}
END_TEST

/* ---- the arm --------------------------------------------------------------- */

static teal_plant *arm_by_hand(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int inst = teal_plant_add_model_instance(p, "arm");
  teal_spatial_inertia Mb =
      central(4, teal_vec3_zero(), teal_rotation_identity(), 0.02, 0.02, 0.03);
  teal_spatial_inertia M1 =
      central(2, teal_vec3_make(0.01, 0, 0.1), rot(0.2, 0.3, 1, 0.4), 0.03, 0.031, 0.01);
  /* quat (0.8, 0, 0.6, 0): a turn about y by 2 atan2(0.6, 0.8) */
  teal_spatial_inertia M2 = central(1.5, teal_vec3_make(0.15, 0, 0),
                                    rot(0, 1, 0, 2 * atan2(0.6, 0.8)), 0.02, 0.021, 0.004);
  teal_spatial_inertia M3 =
      central(0.5, teal_vec3_make(0, 0, 0.05), teal_rotation_identity(), 0.001, 0.001, 0.0005);
  int base = teal_plant_add_rigid_body(p, "base", inst, &Mb);
  int l1 = teal_plant_add_rigid_body(p, "link1", inst, &M1);
  int l2 = teal_plant_add_rigid_body(p, "link2", inst, &M2);
  int l3 = teal_plant_add_rigid_body(p, "link3", inst, &M3);
  int wf = frame(p, "base_weld", TEAL_WORLD_BODY, at(0, 0, 0.1));
  ck_assert_int_ge(teal_plant_add_joint(p, "base", TEAL_JOINT_WELD, wf,
                                        teal_plant_body_frame(p, base), NULL, 0.0),
                   0);
  /* extrinsic X-Y-Z euler angles are roll-pitch-yaw */
  teal_rotation R1 = teal_rotation_from_rpy(teal_vec3_make(0.1, -0.2, 0.3));
  int j1 = joint(p, "j1", TEAL_JOINT_REVOLUTE, base, xf(R1, 0, 0, 0.2), l1, at(0, 0, 0),
                 teal_vec3_make(0, 0, 1));
  set_damping(p, j1, 0.2);
  /* xyaxes (0 0 1, 0 1 0): z = x cross y = (-1, 0, 0); the anchor (0, 0, -0.02)
   * of link2 is (0.02, 0, 0) in link1 */
  teal_rotation R2 = {{0, 0, -1, 0, 1, 0, 1, 0, 0}};
  int j2 = joint(p, "j2", TEAL_JOINT_REVOLUTE, l1, xf(R2, 0.02, 0, 0.3), l2, at(0, 0, -0.02),
                 teal_vec3_make(0, 1, 0));
  set_limits(p, j2, -2, 2);
  int j3 = joint(p, "j3", TEAL_JOINT_PRISMATIC, l2, xf(rot(1, 1, 0, 0.7), 0.3, 0, 0), l3,
                 at(0, 0, 0), teal_vec3_make(1, 0, 0));
  set_limits(p, j3, 0, 0.2);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

START_TEST(arm_matches_hand_built) {
  teal_plant *p = mjcf_test_load("arm.xml", NULL);
  teal_plant *h = arm_by_hand();
  mjcf_test_same_dynamics(p, h, 25, 1e-12);
  /* the massless tool_mount is a frame on link2; the site sits 0.05 along
   * its z axis, which zaxis="0 1 1" points along (0, 1, 1) / sqrt 2 */
  int body;
  teal_transform X = ts_urdf_frame_pose(p, "tool", -1, &body);
  ck_assert_int_eq(body, teal_plant_get_body_by_name(p, "link2", -1, NULL));
  double s = 0.05 / sqrt(2.0);
  ts_urdf_assert_vec3_near(X.p, teal_vec3_make(0.3, s, s), 1e-15);
  ts_urdf_assert_vec3_near(teal_vec3_make(X.R.m[2], X.R.m[5], X.R.m[8]),
                           teal_vec3_make(0, sqrt(0.5), sqrt(0.5)), 1e-15);
  ts_urdf_frame_pose(p, "tool_mount", -1, &body);
  ck_assert_int_eq(teal_plant_num_bodies(p), 5);
  teal_plant_free(p);
  teal_plant_free(h);
}
END_TEST

/* ---- every joint type, inertia from geoms -------------------------------------- */

static teal_spatial_inertia torso_inertia(void) {
  teal_spatial_inertia box = teal_spatial_inertia_solid_box(800 * 0.024, 0.3, 0.2, 0.4);
  teal_spatial_inertia ball = placed(teal_spatial_inertia_solid_sphere(2.0, 0.09), at(0, 0, 0.3));
  return teal_spatial_inertia_add(&box, &ball);
}

static teal_spatial_inertia forearm_inertia(void) {
  double mc = 800 * PI * 0.03 * 0.03 * 0.25;
  teal_spatial_inertia cyl =
      placed(teal_spatial_inertia_solid_cylinder(mc, 0.03, 0.25), at(0, 0, -0.125));
  double a = 0.05, b = 0.04, c = 0.03, me = 800 * 4.0 / 3.0 * PI * a * b * c;
  /* xyaxes (0 1 0, -1 0 0): a quarter turn about z */
  teal_spatial_inertia ell =
      central(me, teal_vec3_make(0, 0, -0.3), rot(0, 0, 1, PI / 2), me * (b * b + c * c) / 5,
              me * (a * a + c * c) / 5, me * (a * a + b * b) / 5);
  return teal_spatial_inertia_add(&cyl, &ell);
}

/* The arm's capsule from (0, 0, 0) to d = (0.3, 0.05, -0.1). */
static teal_spatial_inertia arm_inertia(void) {
  teal_vec3 d = teal_vec3_make(0.3, 0.05, -0.1);
  double len = teal_vec3_norm(d);
  teal_vec3 z = teal_vec3_make(0, 0, 1), n = teal_vec3_scale(d, 1.0 / len);
  teal_rotation R = teal_rotation_from_axis_angle(teal_vec3_cross(z, n), acos(n.v[2]));
  return placed(capsule(800, 0.04, len), xf(R, 0.15, 0.025, -0.05));
}

static void mixed_bodies(teal_plant *p, int inst, int *b) {
  teal_spatial_inertia point =
      teal_spatial_inertia_make(TEAL_SPATIAL_INERTIA_MIN_MASS, teal_vec3_zero(), teal_mat3_zero());
  teal_spatial_inertia Mt = torso_inertia(), Ma = arm_inertia(), Mf = forearm_inertia();
  teal_spatial_inertia Mh = central(
      1.3, teal_vec3_make(0, 0.01, 0.05),
      teal_rotation_from_quaternion(teal_quaternion_make(1, 0.2, 0, 0.1)), 0.01, 0.012, 0.008);
  /* euler (5, -10, 20) in the intrinsic sequence zyx */
  teal_rotation Rl = teal_rotation_mul(
      teal_rotation_mul(rot(0, 0, 1, 5 * DEG), rot(0, 1, 0, -10 * DEG)), rot(1, 0, 0, 20 * DEG));
  teal_spatial_inertia Ml =
      central(0.8, teal_vec3_make(0.01, 0.02, -0.03), Rl, 0.004, 0.005, 0.006);
  teal_spatial_inertia Mp = teal_spatial_inertia_solid_box(0.3, 0.1, 0.1, 0.02);
  const char *names[8] = {"torso",   "arm_dof0", "arm_dof1", "arm",
                          "forearm", "head",     "lift",     "plate"};
  const teal_spatial_inertia *M[8] = {&Mt, &point, &point, &Ma, &Mf, &Mh, &Ml, &Mp};
  for (int i = 0; i < 8; i++) {
    b[i] = teal_plant_add_rigid_body(p, names[i], inst, M[i]);
    ck_assert_int_ge(b[i], 0);
  }
}

static teal_plant *mixed_by_hand(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int inst = teal_plant_add_model_instance(p, "mixed_joints"), b[8];
  mixed_bodies(p, inst, b);
  teal_vec3 x = teal_vec3_make(1, 0, 0), y = teal_vec3_make(0, 1, 0), z = teal_vec3_make(0, 0, 1);
  teal_transform I = at(0, 0, 0);
  joint(p, "root", TEAL_JOINT_QUATERNION_FLOATING, 0, I, b[0], I, x);
  int sx =
      joint(p, "shoulder_x", TEAL_JOINT_REVOLUTE, b[0], at(0.18, 0, 0.1), b[1], at(-0.02, 0, 0), x);
  int sy = joint(p, "shoulder_y", TEAL_JOINT_REVOLUTE, b[1], I, b[2], I, y);
  int sz = joint(p, "shoulder_z", TEAL_JOINT_REVOLUTE, b[2], I, b[3], I, z);
  int el = joint(p, "elbow", TEAL_JOINT_REVOLUTE, b[3],
                 xf(rot(0, 0, 1, 30 * DEG), 0.3, 0.05, -0.09), b[4], at(0, 0, 0.01), x);
  /* euler (0, 0, 15) in zyx: a turn about x; the ball's anchor 0.05 below */
  teal_transform X_TH = xf(rot(1, 0, 0, 15 * DEG), 0, 0, 0.45);
  int nk = joint(p, "neck", TEAL_JOINT_BALL, b[0], teal_transform_compose(X_TH, at(0, 0, -0.05)),
                 b[5], at(0, 0, -0.05), x);
  int lz = joint(p, "lift_z", TEAL_JOINT_PRISMATIC, b[0], at(0, 0.2, -0.1), b[6], I, z);
  int wf = frame(p, "plate_weld", b[6], at(0, 0.05, 0));
  ck_assert_int_ge(teal_plant_add_joint(p, "plate", TEAL_JOINT_WELD, wf,
                                        teal_plant_body_frame(p, b[7]), NULL, 0.0),
                   0);
  int damped[6] = {sx, sz, nk, lz, sy, el};
  for (int i = 0; i < 6; i++) {
    set_damping(p, damped[i], i < 4 ? 0.05 : 0.4);
  }
  set_limits(p, sx, -PI / 2, PI / 2);
  set_limits(p, sy, -PI / 2, PI / 2);
  set_limits(p, sz, -45 * DEG, 60 * DEG);
  set_limits(p, el, -PI / 2, PI / 2);
  teal_plant_set_gravity(p, teal_vec3_make(0.5, -0.3, -9.6));
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

START_TEST(mixed_joints_match_hand_built) {
  teal_mjcf_report r;
  teal_plant *p = mjcf_test_load("mixed_joints.xml", &r);
  teal_plant *h = mixed_by_hand();
  mjcf_test_same_dynamics(p, h, 25, 1e-12);
  ck_assert_int_eq(r.num_warnings, 0);
  ck_assert_double_eq(r.timestep, 0.002);
  teal_vec3 g = teal_plant_gravity(p);
  ck_assert(g.v[0] == 0.5 && g.v[1] == -0.3 && g.v[2] == -9.6);
  /* motors: ctrlrange x gear, forcerange, none */
  ck_assert_int_eq(teal_plant_num_actuators(p), 3);
  ck_assert_double_eq(ts_urdf_actuator_effort(p, "shoulder_motor"), 20.0);
  ck_assert_double_eq(ts_urdf_actuator_effort(p, "elbow"), 5.0);
  ck_assert(isinf(ts_urdf_actuator_effort(p, "lift_z")));
  /* the free joint starts at the torso's pose (MuJoCo's qpos0): euler
   * (10, 20, 30) degrees in the intrinsic sequence zyx */
  double q0[7];
  int root = teal_plant_get_joint_by_name(p, "root", -1, NULL);
  ck_assert_int_eq(teal_plant_get_joint_default_positions(p, root, q0, 7), TEAL_OK);
  teal_rotation Rt = teal_rotation_mul(
      teal_rotation_mul(rot(0, 0, 1, 10 * DEG), rot(0, 1, 0, 20 * DEG)), rot(1, 0, 0, 30 * DEG));
  teal_rotation R0 =
      teal_rotation_from_quaternion(teal_quaternion_make(q0[0], q0[1], q0[2], q0[3]));
  ts_urdf_assert_transform_near(xf(R0, q0[4], q0[5], q0[6]), xf(Rt, 0.1, -0.2, 1.5), 1e-15);
  /* the site imu: pos and the normalized quaternion */
  int body;
  teal_transform X = ts_urdf_frame_pose(p, "imu", -1, &body);
  ck_assert_int_eq(body, teal_plant_get_body_by_name(p, "torso", -1, NULL));
  teal_rotation Rq = teal_rotation_from_quaternion(teal_quaternion_make(0.9, 0.1, 0.2, 0.3));
  ts_urdf_assert_transform_near(X, xf(Rq, 0.05, 0, 0.1), 1e-15);
  /* the floor: a half-space on the world, friction 0.7 from the main class */
  const teal_plant_geometry *fl = ts_urdf_geometry_named(p, "mixed_joints::floor");
  ck_assert_int_eq(fl->shape.kind, TEAL_SHAPE_HALF_SPACE);
  ck_assert_double_eq(fl->proximity.static_friction, 0.7);
  ck_assert_double_eq(fl->proximity.dynamic_friction, 0.7);
  /* the head's box does not collide (contype = conaffinity = 0) */
  int head = teal_plant_get_body_by_name(p, "head", -1, NULL), ids[8];
  ck_assert_int_eq(teal_plant_get_collision_geometries_for_body(p, head, ids, 8, NULL), 0);
  teal_plant_free(p);
  teal_plant_free(h);
}
END_TEST

/* The full-inertia model keeps the matrix as written (MuJoCo 2.2.2 does
 * not: see models/mjcf/full_inertia.xml). */
START_TEST(full_inertia_kept_exactly) {
  teal_plant *p = mjcf_test_load("full_inertia.xml", NULL);
  int b = teal_plant_get_body_by_name(p, "base", -1, NULL);
  const teal_spatial_inertia *M = &teal_plant_get_tree(p)->M_BBo_B[teal_plant_body_node(p, b)];
  teal_spatial_inertia Mc = teal_spatial_inertia_shift(M, M->p_PScm_E);
  const double want[9] = {0.004, 0.0003, -0.0002, 0.0003, 0.005, 0.0001, -0.0002, 0.0001, 0.006};
  for (int i = 0; i < 9; i++) {
    ck_assert_double_eq_tol(Mc.I_SP_E.m[i], want[i], 1e-17);
  }
  teal_plant_free(p);
}
END_TEST

/* ---- meshes ------------------------------------------------------------------ */

static const teal_spatial_inertia *inertia_of(const teal_plant *p, const char *body) {
  int b = teal_plant_get_body_by_name(p, body, -1, NULL);
  ck_assert_int_ge(b, 0);
  return &teal_plant_get_tree(p)->M_BBo_B[teal_plant_body_node(p, b)];
}

static void assert_inertia_near(const teal_spatial_inertia *a, const teal_spatial_inertia *b,
                                double tol) {
  ck_assert_double_eq_tol(a->mass, b->mass, tol * b->mass);
  ts_urdf_assert_vec3_near(a->p_PScm_E, b->p_PScm_E, tol);
  for (int i = 0; i < 9; i++) {
    ck_assert_double_eq_tol(a->I_SP_E.m[i], b->I_SP_E.m[i], tol);
  }
}

/* A right triangular prism of density rho: legs a (along x) and b (along
 * y) from the corner c, height h along z. About its centroid the section
 * has the second moments a b^3 / 36, a^3 b / 36 and the product
 * -a^2 b^2 / 72 (textbook values for a right triangle). */
static teal_spatial_inertia prism(double rho, teal_vec3 c, double a, double b, double h) {
  double m = rho * a * b / 2 * h;
  double ixx = rho * h * a * b * b * b / 36 + m * h * h / 12;
  double iyy = rho * h * a * a * a * b / 36 + m * h * h / 12;
  double izz = rho * h * (a * b * b * b + a * a * a * b) / 36, ixy = rho * h * a * a * b * b / 72;
  teal_mat3 I = {{ixx, ixy, 0, ixy, iyy, 0, 0, 0, izz}};
  return teal_spatial_inertia_from_central(m, teal_vec3_add(c, teal_vec3_make(a / 3, b / 3, h / 2)),
                                           I);
}

/* models/mjcf/meshes.xml: the solids of the scaled STL meshes against the
 * prism and box formulas; hulls collide, the meshes are the visuals. */
START_TEST(meshes_give_solid_inertias) {
  teal_mjcf_report r;
  teal_plant *p = mjcf_test_load("meshes.xml", &r);
  ck_assert_int_eq(r.num_warnings, 0);
  ck_assert_int_eq(r.mesh_collisions, 3);
  double s = 1.5;
  teal_spatial_inertia wedge =
      prism(500, teal_vec3_make(s * 0.0625, 0, 0), s * 0.1875, s * 0.125, s * 0.0625);
  teal_spatial_inertia ball = placed(
      teal_spatial_inertia_solid_sphere(500 * 4.0 / 3.0 * PI * 0.027e-3, 0.03), at(0, 0, -0.2));
  teal_spatial_inertia arm = placed(wedge, at(0.02, 0.01, -0.03));
  arm = teal_spatial_inertia_add(&arm, &ball);
  assert_inertia_near(inertia_of(p, "arm"), &arm, 1e-15);
  teal_spatial_inertia slab =
      placed(teal_spatial_inertia_solid_box(500 * s * s * s * 0.125 * 0.25 * 0.0625, s * 0.125,
                                            s * 0.25, s * 0.0625),
             at(s * 0.125, s * 0.125, s * 0.03125));
  assert_inertia_near(inertia_of(p, "puck"), &slab, 1e-15);
  /* the free block: the wedge turned by the normalized quaternion */
  teal_rotation R = teal_rotation_from_quaternion(teal_quaternion_make(0.7, 0.1, 0.7, 0.1));
  teal_spatial_inertia block = placed(wedge, xf(R, 0, 0, 0));
  assert_inertia_near(inertia_of(p, "block"), &block, 1e-15);
  const teal_plant_geometry *g = ts_urdf_geometry_named(p, "puck_geom0");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_CONVEX);
  ck_assert_int_eq(g->shape.num_vertices, 8);
  g = ts_urdf_geometry_named(p, "puck_geom0_visual");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_MESH);
  ck_assert_ptr_nonnull(strstr(g->shape.filename, "models/mjcf/meshes/slab.stl"));
  ck_assert_double_eq(g->shape.size.v[0], 1.5);
  teal_plant_free(p);
}
END_TEST

/* The one entry point picks MJCF from the root element of a .xml file. */
START_TEST(parser_entry_point_loads_mjcf) {
  char path[2048];
  teal_plant *p = teal_plant_new(0.0, NULL);
  int inst = -1, count = 0;
  teal_parser_report report;
  teal_error e = {TEAL_OK, ""};
  urdf_test_model_path("mjcf/mixed_joints.xml", path, sizeof path);
  ck_assert_str_eq(teal_parser_format_of_file(path, NULL)->name, "mjcf");
  ck_assert_msg(teal_parser_add_models(p, path, NULL, &inst, 1, &count, &report, &e) == TEAL_OK,
                "%s", e.message);
  ck_assert_int_eq(count, 1);
  ck_assert_int_eq(inst, teal_plant_get_model_instance_by_name(p, "mixed_joints", NULL));
  ck_assert_int_eq(report.num_warnings, 0);
  teal_parser_options o;
  teal_parser_options_init(&o);
  o.instance_name = "again";
  ck_assert_int_eq(teal_parser_add_models(p, path, &o, &inst, 1, &count, &report, &e), TEAL_OK);
  ck_assert_int_eq(inst, teal_plant_get_model_instance_by_name(p, "again", NULL));
  ck_assert_int_eq(teal_parser_add_models_string(p,
                                                 "<mujoco><worldbody><body><joint/>"
                                                 "<geom size='1' condim='3'/></body>"
                                                 "</worldbody></mujoco>",
                                                 NULL, NULL, &inst, 1, &count, &report, &e),
                   TEAL_OK);
  ck_assert_int_eq(report.ignored_elements, 1);
  ck_assert_ptr_nonnull(strstr(report.first_warning, "condim"));
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mjcf");
  TCase *tc = tcase_create("models");
  tcase_add_test(tc, acrobot_matches_hand_built_and_urdf);
  tcase_add_test(tc, arm_matches_hand_built);
  tcase_add_test(tc, mixed_joints_match_hand_built);
  tcase_add_test(tc, full_inertia_kept_exactly);
  tcase_add_test(tc, meshes_give_solid_inertias);
  tcase_add_test(tc, parser_entry_point_loads_mjcf);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
