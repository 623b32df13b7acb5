/* The SDFormat parser (multibody/parsing/sdf*.c): a model with every joint
 * type and pose rule against the same plant built by hand (M(q), C(q, v) v
 * and tau_g(q) at random states, frames, limits, actuators); the acrobot in
 * SDFormat against the acrobot in URDF; relative_to chains (degrees,
 * expressed_in) against transforms composed by hand; geometry, materials
 * and Drake proximity properties; model:// includes with overrides; worlds
 * with several models, gravity and static models. Nested models as their
 * own instances, world frames and __model__ frames: test_sdf_nested.c. */
#define _XOPEN_SOURCE 700 /* setenv, mkdtemp */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/parsing/package_map.h"
#include "multibody/parsing/parser.h"
#include "multibody/parsing/sdf.h"
#include "multibody/plant/plant_defaults.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_urdf_fixtures.h"
#include "support/test_support.h"
#include "urdf_models.h"

#define PI 3.14159265358979323846

/* An <inertial> of mass m with its center of mass at (x, 0, 0) and inertia
 * diag(0.1, 0.2, 0.3) about it. */
#define INERTIAL(m, x)                             \
  "<inertial><pose>" x " 0 0 0 0 0</pose><mass>" m \
  "</mass><inertia><ixx>0.1</ixx>"                 \
  "<iyy>0.2</iyy><izz>0.3</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>"

/* Every joint type; poses relative to the model, to other links
 * (relative_to, degrees), and joint poses relative to the child link or
 * to another link; an axis expressed in the model frame. */
static const char *const joints_sdf =
    "<sdf version='1.9'><model name='m'><pose>0 0 0.5 0 0 0</pose>"
    "<link name='a'>" INERTIAL("2", "0.1") "</link>"
    "<joint name='j_rev' type='revolute'><parent>world</parent><child>a</child>"
    "<axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>2</upper><effort>5</effort>"
    "<velocity>3</velocity></limit><dynamics><damping>0.2</damping></dynamics></axis></joint>"
    "<link name='b'><pose>0.5 0 0 0 0 1.5707963267948966</pose>" INERTIAL("1.5", "0.2")
    "</link>"
    "<joint name='j_pri' type='prismatic'><parent>a</parent><child>b</child>"
    "<pose>0 0 0.1 0 0 0</pose><axis><xyz expressed_in='__model__'>1 0 0</xyz></axis></joint>"
    "<link name='c'><pose relative_to='b'>0 0.3 0 0 0 0</pose>" INERTIAL("1", "0.05") "</link>"
    "<joint name='j_ball' type='ball'><parent>b</parent><child>c</child></joint>"
    "<link name='d'><pose relative_to='c' degrees='true'>0 0 -0.4 90 0 0</pose>"
    INERTIAL("0.8", "0.1") "</link>"
    "<joint name='j_uni' type='universal'><parent>c</parent><child>d</child>"
    "<axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 0 1</xyz></axis2></joint>"
    "<link name='e'><pose relative_to='d'>0 0 -0.3 0 0 0</pose>" INERTIAL("0.7", "0.1")
    "</link>"
    "<joint name='j_screw' type='screw'><parent>d</parent><child>e</child>"
    "<screw_thread_pitch>0.02</screw_thread_pitch><axis><xyz>0 0 1</xyz></axis></joint>"
    "<link name='f'><pose relative_to='e'>0.1 0 0 0 0 0</pose>" INERTIAL("0.6", "0.1")
    "</link>"
    "<joint name='j_cont' type='continuous'><parent>e</parent><child>f</child>"
    "<pose relative_to='e'>0 0 0 0 0 0</pose><axis><xyz>0 1 0</xyz></axis></joint>"
    "<link name='g'><pose relative_to='f'>0 0 -0.2 0 0 0</pose>" INERTIAL("0.5", "0.1")
    "</link>"
    "<joint name='j_fix' type='fixed'><parent>f</parent><child>g</child></joint>"
    "<frame name='tool' attached_to='g'><pose>0 0 -0.1 0 0 0</pose></frame>"
    "</model></sdf>";

static teal_transform xf(teal_rotation R, double x, double y, double z) {
  return teal_transform_make(R, teal_vec3_make(x, y, z));
}

static teal_transform tr(double x, double y, double z) {
  return xf(teal_rotation_identity(), x, y, z);
}

static int body(teal_plant *p, int inst, const char *name, double m, double x) {
  teal_spatial_inertia M =
      teal_spatial_inertia_from_central(m, teal_vec3_make(x, 0, 0), teal_mat3_diag(0.1, 0.2, 0.3));
  int b = teal_plant_add_rigid_body(p, name, inst, &M);
  ck_assert_int_ge(b, 1);
  return teal_plant_body_frame(p, b);
}

static int frame(teal_plant *p, const char *name, int parent, teal_transform X) {
  int f = teal_plant_add_frame(p, name, parent, X);
  ck_assert_int_ge(f, 0);
  return f;
}

static void joint(teal_plant *p, const char *name, teal_joint_kind k, int F, int M, teal_vec3 a,
                  double pitch) {
  ck_assert_int_ge(teal_plant_add_joint(p, name, k, F, M, &a, pitch), 0);
}

/* joints_sdf built by hand: poses composed from the numbers above. */
static teal_plant *joints_by_hand(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int inst = teal_plant_add_model_instance(p, "m");
  teal_rotation Rz90 = ts_urdf_rot(0, 0, 1, PI / 2), Rx90 = ts_urdf_rot(1, 0, 0, PI / 2);
  int a = body(p, inst, "a", 2, 0.1), b = body(p, inst, "b", 1.5, 0.2);
  int c = body(p, inst, "c", 1, 0.05), d = body(p, inst, "d", 0.8, 0.1);
  int e = body(p, inst, "e", 0.7, 0.1), f = body(p, inst, "f", 0.6, 0.1);
  int g = body(p, inst, "g", 0.5, 0.1);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  joint(p, "j_rev", TEAL_JOINT_REVOLUTE, frame(p, "F1", TEAL_WORLD_FRAME, tr(0, 0, 0.5)), a, z, 0);
  /* the prismatic joint frame is b's frame raised 0.1; x of the model is -y there */
  joint(p, "j_pri", TEAL_JOINT_PRISMATIC, frame(p, "F2", a, xf(Rz90, 0.5, 0, 0.1)),
        frame(p, "M2", b, tr(0, 0, 0.1)), teal_vec3_make(0, -1, 0), 0);
  joint(p, "j_ball", TEAL_JOINT_BALL, frame(p, "F3", b, tr(0, 0.3, 0)), c, z, 0);
  /* universal: x along <axis> (x of d), y along <axis2> (z of d): Rx(90) */
  joint(p, "j_uni", TEAL_JOINT_UNIVERSAL,
        frame(p, "F4", c, xf(teal_rotation_mul(Rx90, Rx90), 0, 0, -0.4)),
        frame(p, "M4", d, xf(Rx90, 0, 0, 0)), z, 0);
  joint(p, "j_screw", TEAL_JOINT_SCREW, frame(p, "F5", d, tr(0, 0, -0.3)), e, z, 0.02);
  joint(p, "j_cont", TEAL_JOINT_REVOLUTE, frame(p, "F6", e, tr(0, 0, 0)),
        frame(p, "M6", f, tr(-0.1, 0, 0)), teal_vec3_make(0, 1, 0), 0);
  joint(p, "j_fix", TEAL_JOINT_WELD, frame(p, "F7", f, tr(0, 0, -0.2)), g, z, 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

static teal_plant *load_string(const char *xml, teal_sdf_report *r) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {TEAL_OK, ""};
  int inst = teal_sdf_load_string_opts(p, xml, NULL, r, &e);
  ck_assert_msg(inst >= 2, "%s", e.message);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* A random q: uniform entries, quaternion blocks of ball joints normalized. */
static void random_q(const teal_plant *p, unsigned *seed, double *q) {
  for (int i = 0; i < teal_plant_nq(p); i++) {
    q[i] = ts_rand_uniform(seed, -1.5, 1.5);
  }
  for (int j = 0; j < teal_plant_num_joints(p); j++) {
    if (teal_plant_joint_kind(p, j) == TEAL_JOINT_BALL) {
      double *w = q + teal_plant_joint_q_start(p, j), n = 0;
      for (int k = 0; k < 4; k++) {
        n += w[k] * w[k];
      }
      for (int k = 0; k < 4; k++) {
        w[k] /= sqrt(n);
      }
    }
  }
}

/* M(q), C(q, v) v and tau_g(q) of a and b agree to tol at random states
 * (the joints named in names start at the same q and v in both). */
static void assert_same_dynamics(teal_plant *a, teal_plant *b, const char *const *names, int n,
                                 double tol) {
  ck_assert_int_eq(teal_plant_nq(a), teal_plant_nq(b));
  ck_assert_int_eq(teal_plant_nv(a), teal_plant_nv(b));
  for (int i = 0; i < n; i++) {
    int ja = teal_plant_get_joint_by_name(a, names[i], -1, NULL);
    int jb = teal_plant_get_joint_by_name(b, names[i], -1, NULL);
    ck_assert_msg(ja >= 0 && jb >= 0, "joint %s", names[i]);
    ck_assert_int_eq(teal_plant_joint_q_start(a, ja), teal_plant_joint_q_start(b, jb));
    ck_assert_int_eq(teal_plant_joint_v_start(a, ja), teal_plant_joint_v_start(b, jb));
  }
  int nq = teal_plant_nq(a), nv = teal_plant_nv(a);
  teal_mb_data *wa = teal_mb_data_new(a, NULL), *wb = teal_mb_data_new(b, NULL);
  double q[32], v[32], Ma[32 * 32], Mb[32 * 32], ca[32], cb[32], ga[32], gb[32];
  ck_assert_int_le(nq, 32);
  unsigned seed = 19u;
  for (int trial = 0; trial < 20; trial++) {
    random_q(a, &seed, q);
    for (int i = 0; i < nv; i++) {
      v[i] = ts_rand_uniform(&seed, -2.0, 2.0);
    }
    ck_assert_int_eq(teal_mb_mass_matrix(a, wa, q, Ma), TEAL_OK);
    ck_assert_int_eq(teal_mb_mass_matrix(b, wb, q, Mb), TEAL_OK);
    ck_assert_int_eq(teal_mb_bias_term(a, wa, q, v, ca), TEAL_OK);
    ck_assert_int_eq(teal_mb_bias_term(b, wb, q, v, cb), TEAL_OK);
    ck_assert_int_eq(teal_mb_gravity_forces(a, wa, q, ga), TEAL_OK);
    ck_assert_int_eq(teal_mb_gravity_forces(b, wb, q, gb), TEAL_OK);
    for (int k = 0; k < nv * nv; k++) {
      ck_assert_double_eq_tol(Ma[k], Mb[k], tol);
    }
    for (int k = 0; k < nv; k++) {
      ck_assert_double_eq_tol(ca[k], cb[k], tol);
      ck_assert_double_eq_tol(ga[k], gb[k], tol);
    }
  }
  teal_mb_data_free(wa);
  teal_mb_data_free(wb);
}

static const char *const joint_names[] = {"j_rev", "j_pri", "j_ball", "j_uni", "j_screw", "j_cont"};

START_TEST(every_joint_matches_hand_built_plant) {
  teal_sdf_report r;
  teal_plant *ps = load_string(joints_sdf, &r);
  teal_plant *ph = joints_by_hand();
  ck_assert_int_eq(r.num_models, 1);
  ck_assert_int_eq(r.num_warnings, 0);
  ck_assert_int_eq(teal_plant_num_bodies(ps), 8);
  /* every body frame at q = 0 where the hand-built plant has it */
  double q0[32];
  ck_assert_int_eq(teal_plant_default_q(ps, q0), TEAL_OK);
  const char *bodies[] = {"a", "b", "c", "d", "e", "f", "g"};
  for (int i = 0; i < 7; i++) {
    ts_urdf_assert_transform_near(ts_urdf_world_pose(ps, bodies[i], q0),
                                  ts_urdf_world_pose(ph, bodies[i], q0), 1e-12);
  }
  assert_same_dynamics(ps, ph, joint_names, 6, 1e-12);
  /* the tool frame: 0.1 below g, which is 0.2 below f */
  int b;
  teal_transform X = ts_urdf_frame_pose(ps, "tool", 2, &b);
  ck_assert_int_eq(b, teal_plant_get_body_by_name(ps, "g", 2, NULL));
  ts_urdf_assert_transform_near(X, tr(0, 0, -0.1), 1e-15);
  teal_transform W = ts_urdf_world_pose(ps, "tool", q0);
  teal_transform Wg = ts_urdf_world_pose(ph, "g", q0);
  ts_urdf_assert_transform_near(W, teal_transform_compose(Wg, tr(0, 0, -0.1)), 1e-12);
  teal_plant_free(ps);
  teal_plant_free(ph);
}
END_TEST

START_TEST(limits_damping_and_actuators) {
  teal_plant *p = load_string(joints_sdf, NULL);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int k = ts_urdf_node_of_joint(p, "j_rev");
  ck_assert_double_eq(t->q_lower[t->q_start[k]], -1.0);
  ck_assert_double_eq(t->q_upper[t->q_start[k]], 2.0);
  ck_assert_double_eq(t->damping[t->v_start[k]], 0.2);
  ck_assert_double_eq(t->effort_limit[t->v_start[k]], 5.0);
  ck_assert_double_eq(ts_urdf_actuator_effort(p, "j_rev"), 5.0);
  /* no <limit>: unlimited, and an unlimited actuator (SDFormat's effort -1) */
  k = ts_urdf_node_of_joint(p, "j_pri");
  ck_assert(isinf(t->q_lower[t->q_start[k]]) && isinf(t->q_upper[t->q_start[k]]));
  ck_assert(isinf(ts_urdf_actuator_effort(p, "j_pri")));
  /* one actuator per single-dof joint */
  ck_assert_int_eq(teal_plant_num_actuators(p), 4);
  ck_assert_int_eq(teal_plant_nu(p), 4);
  teal_plant_free(p);
}
END_TEST

/* The models/ files `urdf` and `sdf` (the same model in both formats)
 * loaded into new plants *pu and *ps and finalized; returns the SDFormat
 * model's instance (2: the first after world and default). */
static int load_twins(const char *urdf, const char *sdf, teal_plant **pu, teal_plant **ps) {
  char path[2048];
  teal_error e = {TEAL_OK, ""};
  *pu = teal_plant_new(0.0, NULL);
  *ps = teal_plant_new(0.0, NULL);
  ck_assert_int_ge(
      teal_urdf_load_file(*pu, urdf_test_model_path(urdf, path, sizeof path), NULL, &e), 2);
  int inst = teal_sdf_load_file(*ps, urdf_test_model_path(sdf, path, sizeof path), &e);
  ck_assert_msg(inst == 2, "%s", e.message);
  ck_assert_int_eq(teal_plant_finalize(*pu), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(*ps), TEAL_OK);
  return inst;
}

/* The acrobot written in SDFormat and in URDF: the same dynamics to 1e-12. */
START_TEST(acrobot_sdf_matches_urdf) {
  teal_plant *pu, *ps;
  int inst = load_twins("acrobot.urdf", "acrobot.sdf", &pu, &ps);
  ck_assert_int_eq(teal_plant_get_model_instance_by_name(ps, "acrobot", NULL), inst);
  const char *names[] = {"shoulder", "elbow"};
  assert_same_dynamics(ps, pu, names, 2, 1e-12);
  ck_assert_int_eq(teal_plant_num_bodies(ps), 3); /* base_link is massless: a world frame */
  ck_assert_int_eq(teal_plant_num_actuators(ps), 1);
  const teal_plant_tree *t = teal_plant_get_tree(ps);
  ck_assert_double_eq(t->damping[0], 0.1);
  ck_assert_double_eq(t->damping[1], 0.1);
  const teal_plant_geometry *g = ts_urdf_geometry_named(ps, "link2::tip");
  ck_assert_double_eq(g->X_BG.p.v[2], -2.0);
  ck_assert_double_eq(g->rgba[0], 0.8);
  teal_plant_free(pu);
  teal_plant_free(ps);
}
END_TEST

/* The 7-dof arm in SDFormat and in URDF: dynamics, limits, damping,
 * actuators, the flange frame and the collision geometry agree. */
START_TEST(arm_sdf_matches_urdf) {
  teal_plant *pu, *ps;
  load_twins("iiwa7_like.urdf", "iiwa7_like.sdf", &pu, &ps);
  const char *names[7];
  char buf[7][16];
  for (int i = 0; i < 7; i++) {
    snprintf(buf[i], sizeof buf[i], "iiwa_joint_%d", i + 1);
    names[i] = buf[i];
  }
  assert_same_dynamics(ps, pu, names, 7, 1e-12);
  const teal_plant_tree *ts = teal_plant_get_tree(ps), *tu = teal_plant_get_tree(pu);
  for (int i = 0; i < 7; i++) {
    ck_assert_double_eq(ts->q_lower[i], tu->q_lower[i]);
    ck_assert_double_eq(ts->q_upper[i], tu->q_upper[i]);
    ck_assert_double_eq(ts->v_upper[i], tu->v_upper[i]);
    ck_assert_double_eq(ts->damping[i], tu->damping[i]);
    char motor[32];
    snprintf(motor, sizeof motor, "%s_motor", names[i]);
    ck_assert_double_eq(ts_urdf_actuator_effort(ps, names[i]), ts_urdf_actuator_effort(pu, motor));
  }
  ck_assert_int_eq(teal_plant_num_bodies(ps), teal_plant_num_bodies(pu));
  ck_assert_int_eq(teal_plant_num_geometries(ps), teal_plant_num_geometries(pu));
  unsigned seed = 7u;
  double q[7];
  for (int trial = 0; trial < 10; trial++) {
    random_q(ps, &seed, q);
    ts_urdf_assert_transform_near(ts_urdf_world_pose(ps, "tool0", q),
                                  ts_urdf_world_pose(pu, "tool0", q), 1e-14);
  }
  const teal_plant_geometry *g = ts_urdf_geometry_named(ps, "iiwa_link_7::collision_0");
  ck_assert_double_eq(g->proximity.static_friction, 0.9);
  ck_assert_double_eq(g->proximity.dynamic_friction, 0.7);
  ck_assert_double_eq(g->X_BG.p.v[2], 0.03);
  teal_plant_free(pu);
  teal_plant_free(ps);
}
END_TEST

/* Frames chained by relative_to, with degrees, against hand-composed poses. */
START_TEST(relative_to_chains) {
  static const char *xml =
      "<sdf version='1.8'><model name='r'>"
      "<link name='L'><pose>1 2 3 0 0 0</pose></link>"
      "<frame name='A'><pose relative_to='L'>0.5 0 0 0 0 1.5707963267948966</pose></frame>"
      "<frame name='B' attached_to='A'><pose>1 0 0 0 0 0</pose></frame>"
      "<frame name='C'><pose relative_to='B' degrees='true'>0 0 1 90 0 0</pose></frame>"
      "<frame name='D' attached_to='C'><pose relative_to='__model__'>0 0 0 0 0 0</pose>"
      "</frame><frame name='W' attached_to='world'><pose relative_to='L'>0 0 1 0 0 0</pose>"
      "</frame><model name='fixture'><static>true</static><pose relative_to='L'>1 0 0 0 0 0"
      "</pose><link name='F'/></model></model></sdf>";
  teal_plant *p = load_string(xml, NULL);
  teal_rotation Rz = ts_urdf_rot(0, 0, 1, PI / 2), Rx = ts_urdf_rot(1, 0, 0, PI / 2);
  /* in L: A = (0.5, 0, 0) Rz; B = A (1, 0, 0) = (0.5, 1, 0) Rz; C = B (0, 0, 1) Rx */
  teal_transform A = xf(Rz, 0.5, 0, 0), B = xf(Rz, 0.5, 1, 0);
  teal_transform C = xf(teal_rotation_mul(Rz, Rx), 0.5, 1, 1);
  int b, L = teal_plant_get_body_by_name(p, "L", 2, NULL);
  ts_urdf_assert_transform_near(ts_urdf_frame_pose(p, "A", 2, &b), A, 1e-15);
  ck_assert_int_eq(b, L);
  ts_urdf_assert_transform_near(ts_urdf_frame_pose(p, "B", 2, &b), B, 1e-15);
  ts_urdf_assert_transform_near(ts_urdf_frame_pose(p, "C", 2, &b), C, 1e-15);
  /* D sits at the model origin, on L (attached to C), so at -(1, 2, 3) in L */
  ts_urdf_assert_transform_near(ts_urdf_frame_pose(p, "D", 2, &b), tr(-1, -2, -3), 1e-15);
  ck_assert_int_eq(b, L);
  /* the free link starts at its pose in the world */
  teal_transform X_WL;
  ck_assert_int_eq(teal_plant_get_default_free_body_pose(p, L, &X_WL), TEAL_OK);
  ts_urdf_assert_transform_near(X_WL, tr(1, 2, 3), 0.0);
  /* W is on the world (so scoped with the instance name), 1 above L */
  ts_urdf_assert_transform_near(ts_urdf_frame_pose(p, "r::W", TEAL_WORLD_MODEL_INSTANCE, &b),
                                tr(1, 2, 4), 0.0);
  ck_assert_int_eq(b, TEAL_WORLD_BODY);
  /* the static nested model (its own instance) has its link welded where
   * it stands, 1 beside L */
  int fixture = teal_plant_get_model_instance_by_name(p, "r::fixture", NULL);
  int weld = teal_plant_get_joint_by_name(p, "F_static_weld", fixture, NULL);
  ck_assert_int_eq(teal_plant_joint_kind(p, weld), TEAL_JOINT_WELD);
  double q[7];
  teal_plant_default_q(p, q);
  ts_urdf_assert_transform_near(ts_urdf_world_pose(p, "F", q), tr(2, 2, 3), 1e-15);
  teal_plant_free(p);
}
END_TEST

START_TEST(geometry_and_proximity) {
  static const char *xml =
      "<sdf version='1.9' xmlns:drake='http://drake.mit.edu'><model name='g'>"
      "<link name='L'><pose>0 0 1 0 0 0</pose>"
      "<sensor name='cam' type='camera'/>"
      "<collision name='box'><pose>0 0 -0.5 0 0 0</pose><geometry><box><size>1 2 3</size>"
      "</box></geometry><drake:proximity_properties><drake:mu_dynamic>0.4</drake:mu_dynamic>"
      "<drake:mu_static>0.6</drake:mu_static>"
      "<drake:point_contact_stiffness>1000</drake:point_contact_stiffness>"
      "<drake:hunt_crossley_dissipation>2</drake:hunt_crossley_dissipation>"
      "<drake:relaxation_time>0.02</drake:relaxation_time>"
      "<drake:hydroelastic_modulus>1e7</drake:hydroelastic_modulus><drake:rigid_hydroelastic/>"
      "<drake:hydroelastic_margin>1e-3</drake:hydroelastic_margin>"
      "</drake:proximity_properties></collision>"
      "<collision name='s'><geometry><sphere><radius>0.2</radius></sphere></geometry>"
      "<surface><friction><ode><mu>0.3</mu></ode></friction></surface></collision>"
      "<collision name='cyl'><geometry><cylinder><radius>0.1</radius><length>0.5</length>"
      "</cylinder></geometry></collision>"
      "<collision name='cap'><pose relative_to='__model__'>0 0 0 0 0 0</pose><geometry>"
      "<capsule><radius>0.1</radius><length>0.4</length></capsule></geometry></collision>"
      "<collision name='ell'><geometry><ellipsoid><radii>0.1 0.2 0.3</radii></ellipsoid>"
      "</geometry></collision>"
      "<visual name='v'><geometry><mesh><uri>m.obj</uri><scale>2 2 2</scale></mesh>"
      "</geometry><material><diffuse>0.1 0.2 0.3 0.5</diffuse></material></visual>"
      "</link>"
      "<link name='ground'><collision name='plane'><geometry><plane><normal>1 0 0</normal>"
      "</plane></geometry></collision></link>"
      "<joint name='w' type='fixed'><parent>world</parent><child>ground</child></joint>"
      "</model></sdf>";
  teal_sdf_report r;
  teal_plant *p = load_string(xml, &r);
  ck_assert_int_eq(r.mesh_collisions, 0);
  /* the sensor, the hydroelastic margin and the <surface> */
  ck_assert_int_eq(r.ignored_elements, 3);
  ck_assert_int_eq(r.num_warnings, 3);
  ck_assert_ptr_nonnull(strstr(r.first_warning, "<sensor name=\"cam\">: unsupported"));
  const teal_plant_geometry *g = ts_urdf_geometry_named(p, "L::box");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_BOX);
  ck_assert_double_eq(g->shape.size.v[1], 2.0);
  ck_assert_double_eq(g->X_BG.p.v[2], -0.5);
  ck_assert_double_eq(g->proximity.static_friction, 0.6);
  ck_assert_double_eq(g->proximity.dynamic_friction, 0.4);
  ck_assert_double_eq(g->proximity.point_contact_stiffness, 1000.0);
  ck_assert_double_eq(g->proximity.hunt_crossley_dissipation, 2.0);
  ck_assert_double_eq(g->proximity.relaxation_time, 0.02);
  ck_assert_double_eq(g->proximity.hydroelastic_modulus, 1e7);
  ck_assert_int_eq(g->proximity.compliance, TEAL_HYDROELASTIC_RIGID);
  g = ts_urdf_geometry_named(p, "L::s");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_SPHERE);
  ck_assert_double_eq(g->proximity.static_friction, 1.0);
  ck_assert_int_eq(ts_urdf_geometry_named(p, "L::cyl")->shape.kind, TEAL_SHAPE_CYLINDER);
  g = ts_urdf_geometry_named(p, "L::cap");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_CAPSULE);
  ck_assert_double_eq(g->X_BG.p.v[2], -1.0); /* at the model origin, 1 below L */
  ck_assert_int_eq(ts_urdf_geometry_named(p, "L::ell")->shape.kind, TEAL_SHAPE_ELLIPSOID);
  g = ts_urdf_geometry_named(p, "L::v");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_MESH);
  ck_assert_double_eq(g->rgba[2], 0.3);
  ck_assert_double_eq(g->rgba[3], 0.5);
  /* the plane's half-space has its normal along x: z of G is x of the body */
  g = ts_urdf_geometry_named(p, "ground::plane");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_HALF_SPACE);
  teal_vec3 n = teal_rotation_apply(g->X_BG.R, teal_vec3_make(0, 0, 1));
  ts_urdf_assert_vec3_near(n, teal_vec3_make(1, 0, 0), 1e-15);
  teal_plant_free(p);
}
END_TEST

/* A world of two models and a static one, with gravity. */
START_TEST(world_with_models) {
  static const char *xml =
      "<sdf version='1.7'><world name='w'><gravity>0 0 -3</gravity><physics/>"
      "<model name='one'><pose>1 0 0 0 0 0</pose><link name='L'/></model>"
      "<model name='two'><pose relative_to='one'>0 1 0 0 0 0</pose><link name='L'/></model>"
      "<model name='table'><static>true</static><pose>0 0 2 0 0 0</pose>"
      "<link name='top'><collision name='c'><geometry><box><size>1 1 0.1</size></box>"
      "</geometry></collision></link></model>"
      "</world></sdf>";
  teal_sdf_report r;
  teal_plant *p = load_string(xml, &r);
  ck_assert_int_eq(r.num_models, 3);
  ck_assert_int_eq(r.ignored_elements, 1); /* <physics> */
  ck_assert_double_eq(teal_plant_gravity(p).v[2], -3.0);
  int one = teal_plant_get_model_instance_by_name(p, "one", NULL);
  int two = teal_plant_get_model_instance_by_name(p, "two", NULL);
  ck_assert_int_eq(two, one + 1);
  teal_transform X;
  ck_assert_int_eq(
      teal_plant_get_default_free_body_pose(p, teal_plant_get_body_by_name(p, "L", two, NULL), &X),
      TEAL_OK);
  ts_urdf_assert_transform_near(X, tr(1, 1, 0), 0.0);
  /* two free bodies (7 + 7) and the static table welded where it stands */
  ck_assert_int_eq(teal_plant_nq(p), 14);
  int weld = teal_plant_get_joint_by_name(p, "top_static_weld", -1, NULL);
  ck_assert_int_eq(teal_plant_joint_kind(p, weld), TEAL_JOINT_WELD);
  double q[14];
  teal_plant_default_q(p, q);
  ts_urdf_assert_transform_near(ts_urdf_world_pose(p, "top", q), tr(0, 0, 2), 0.0);
  teal_plant_free(p);
}
END_TEST

/* A unit cube centred at the origin (OBJ). */
static const char cube_obj[] =
    "v -0.5 -0.5 -0.5\nv 0.5 -0.5 -0.5\nv 0.5 0.5 -0.5\nv -0.5 0.5 -0.5\n"
    "v -0.5 -0.5 0.5\nv 0.5 -0.5 0.5\nv 0.5 0.5 0.5\nv -0.5 0.5 0.5\n"
    "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";

/* Writes the box model (dir/box: model.config, box.sdf, box.obj). */
static void write_box_model(const char *dir) {
  char path[512];
  snprintf(path, sizeof path, "%s/box", dir);
  ck_assert_int_eq(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/box/model.config", dir);
  ts_write_text(path, "<model><name>box</name><sdf version='1.8'>box.sdf</sdf></model>");
  snprintf(path, sizeof path, "%s/box/box.sdf", dir);
  ts_write_text(path,
             "<sdf version='1.8'><model name='box'><link name='body'>" INERTIAL("3", "0")
             "<visual name='v'><geometry><mesh><uri>model://box/box.obj</uri></mesh></geometry>"
             "</visual><collision name='c'><geometry><mesh><uri>box.obj</uri><scale>2 2 2</scale>"
             "</mesh></geometry></collision></link></model></sdf>");
  snprintf(path, sizeof path, "%s/box/box.obj", dir);
  ts_write_text(path, cube_obj);
}

/* <include> through model:// with name, pose and static overrides, twice. */
START_TEST(includes) {
  char dir[] = "/tmp/teal_sdf_XXXXXX", path[512];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  write_box_model(dir);
  snprintf(path, sizeof path, "%s/scene.sdf", dir);
  ts_write_text(path,
                "<sdf version='1.8'><world name='w'>"
                "<include><uri>model://box</uri><name>b1</name><pose>1 0 0 0 0 0</pose></include>"
                "<include><uri>box</uri><name>b2</name><static>true</static></include>"
                "<model name='holder'><link name='h'/><include><uri>model://box</uri></include>"
                "</model></world></sdf>");
  ck_assert_int_eq(setenv("TEAL_MODEL_PATH", dir, 1), 0);
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {TEAL_OK, ""};
  teal_sdf_report r;
  int first = teal_sdf_load_file_opts(p, path, NULL, &r, &e);
  ck_assert_msg(first >= 2, "%s", e.message);
  ck_assert_int_eq(r.num_models, 4);      /* and holder's nested box */
  ck_assert_int_eq(r.mesh_collisions, 3); /* the box is included three times */
  ck_assert_int_eq(r.nonconvex_meshes, 0);
  int b1 = teal_plant_get_model_instance_by_name(p, "b1", NULL);
  int b2 = teal_plant_get_model_instance_by_name(p, "b2", NULL);
  int holder = teal_plant_get_model_instance_by_name(p, "holder", NULL);
  ck_assert_int_eq(b1, first);
  ck_assert_int_ge(b2, 0);
  int held = teal_plant_get_model_instance_by_name(p, "holder::box", NULL);
  ck_assert_int_eq(held, holder + 1);
  ck_assert_int_ge(teal_plant_get_body_by_name(p, "body", held, NULL), 1);
  int body = teal_plant_get_body_by_name(p, "body", b1, NULL);
  teal_transform X;
  ck_assert_int_eq(teal_plant_get_default_free_body_pose(p, body, &X), TEAL_OK);
  ts_urdf_assert_transform_near(X, tr(1, 0, 0), 0.0);
  ck_assert_int_ge(teal_plant_get_joint_by_name(p, "body_static_weld", b2, NULL), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_nq(p), 21); /* b1, holder.h and holder::box.body are free */
  const teal_plant_geometry *g = ts_urdf_geometry_named(p, "body::v");
  snprintf(path, sizeof path, "%s/box/box.obj", dir);
  ck_assert_str_eq(g->shape.filename, path);
  /* the collision mesh is its hull: the cube's 8 corners, scaled by 2 */
  g = ts_urdf_geometry_named(p, "body::c");
  ck_assert_int_eq(g->shape.kind, TEAL_SHAPE_CONVEX);
  ck_assert_int_eq(g->shape.num_vertices, 8);
  for (int i = 0; i < 8; i++) {
    for (int k = 0; k < 3; k++) {
      ck_assert_double_eq(fabs(g->shape.vertices[i].v[k]), 1.0);
    }
  }
  teal_plant_free(p);
  unsetenv("TEAL_MODEL_PATH");
  /* without the search path, model://box resolves through a package map */
  p = teal_plant_new(0.0, NULL);
  snprintf(path, sizeof path, "%s/scene.sdf", dir);
  TS_EXPECT_ERROR(teal_sdf_load_file(p, path, &e), TEAL_ENOTFOUND, &e, "package 'box'");
  teal_package_map *map = teal_package_map_new(NULL);
  snprintf(path, sizeof path, "%s/box", dir);
  ck_assert_int_eq(teal_package_map_add(map, "box", path, NULL), TEAL_OK);
  teal_sdf_options o;
  teal_sdf_options_init(&o);
  o.packages = map;
  snprintf(path, sizeof path, "%s/scene.sdf", dir);
  ck_assert_int_ge(teal_sdf_load_file_opts(p, path, &o, NULL, &e), 2);
  ck_assert_int_eq(teal_plant_num_model_instances(p), 6); /* b1, b2, holder, holder::box */
  teal_package_map_free(map);
  teal_plant_free(p);
  const char *files[] = {"box/model.config", "box/box.sdf", "box/box.obj", "scene.sdf"};
  for (int i = 0; i < 4; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    unlink(path);
  }
  snprintf(path, sizeof path, "%s/box", dir);
  rmdir(path);
  rmdir(dir);
}
END_TEST

/* Joint friction, springs and unknown Drake joint extensions warn. */
START_TEST(ignored_with_warnings) {
  static const char *xml =
      "<sdf version='1.9' xmlns:drake='http://drake.mit.edu'><model name='w'>"
      "<link name='a'/><link name='b'/>"
      "<joint name='j' type='revolute'><parent>a</parent><child>b</child>"
      "<drake:unknown_extension/><axis><xyz>1 0 0</xyz>"
      "<dynamics><friction>0.3</friction></dynamics></axis></joint>"
      "<plugin name='x' filename='y'/></model></sdf>";
  teal_sdf_report r;
  teal_plant *p = load_string(xml, &r);
  ck_assert_int_eq(r.num_warnings, 3);
  ck_assert_int_eq(r.ignored_elements, 3);
  ck_assert_ptr_nonnull(strstr(r.first_warning, "<string>:1: <plugin"));
  teal_plant_free(p);
}
END_TEST

/* The parser's one entry point picks SDFormat by extension and by root
 * element, and passes the instance name. */
START_TEST(parser_entry_point) {
  char dir[] = "/tmp/teal_sdf_parser_XXXXXX", path[256];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/two.world", dir);
  ts_write_text(path,
                "<sdf version='1.8'><world name='w'><model name='a'><link name='l'/></model>"
                "<model name='b'><link name='l'/></model></world></sdf>");
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {TEAL_OK, ""};
  int inst[4], count = 0;
  ck_assert_int_eq(teal_parser_add_models(p, path, NULL, inst, 4, &count, NULL, &e), TEAL_OK);
  ck_assert_int_eq(count, 2);
  ck_assert_int_eq(inst[1], inst[0] + 1);
  ck_assert_int_eq(teal_plant_get_model_instance_by_name(p, "b", NULL), inst[1]);
  unlink(path);
  rmdir(dir);
  teal_parser_options o;
  teal_parser_options_init(&o);
  o.instance_name = "renamed";
  ck_assert_int_eq(
      teal_parser_add_models_string(p, joints_sdf, NULL, &o, inst, 4, &count, NULL, &e), TEAL_OK);
  ck_assert_int_eq(count, 1);
  ck_assert_int_eq(teal_plant_get_model_instance_by_name(p, "renamed", NULL), inst[0]);
  ck_assert_int_ge(teal_plant_get_body_by_name(p, "g", inst[0], NULL), 1);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_plant_free(p);
}
END_TEST

static Suite *sdf_suite(void) {
  Suite *s = suite_create("sdf");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, every_joint_matches_hand_built_plant);
  tcase_add_test(tc, limits_damping_and_actuators);
  tcase_add_test(tc, acrobot_sdf_matches_urdf);
  tcase_add_test(tc, arm_sdf_matches_urdf);
  tcase_add_test(tc, relative_to_chains);
  tcase_add_test(tc, geometry_and_proximity);
  tcase_add_test(tc, world_with_models);
  tcase_add_test(tc, includes);
  tcase_add_test(tc, ignored_with_warnings);
  tcase_add_test(tc, parser_entry_point);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(sdf_suite());
}
