/* SDFormat models as Drake adds them (multibody/parsing/sdf*.c): every
 * nested model its own model instance named with its scoped name, holding
 * its elements under their local names; a joint of the outer model across
 * models belongs to the outer instance; the dynamics are those of the same
 * tree built by hand in one instance (M(q), C(q, v) v, tau_g(q) at random
 * states to 1e-12); each model's __model__ frame at the model's pose on its
 * canonical link, moving with it; <world> frames as frames of the world
 * instance against poses composed by hand; bad input with its message and
 * the plant left as it was. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "mjcf_compare.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/parsing/parser.h"
#include "multibody/parsing/sdf.h"
#include "multibody/plant/plant_defaults.h"
#include "multibody/tree/model_instances.h"
#include "multibody/tree/plant_summary.h"
#include "support/error_messages.h"
#include "support/mb_urdf_fixtures.h"
#include "support/test_support.h"

#define PI 3.14159265358979323846

/* An <inertial> of mass m with its center of mass at (x, 0, 0) and inertia
 * diag(0.1, 0.2, 0.3) about it. */
#define INERTIAL(m, x)                             \
  "<inertial><pose>" x " 0 0 0 0 0</pose><mass>" m \
  "</mass><inertia><ixx>0.1</ixx><iyy>0.2"         \
  "</iyy><izz>0.3</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>"

/* outer: base on a revolute joint to the world; inner (nested, posed in
 * outer): arm and hand on wrist; shoulder (outer's) from base to inner::arm. */
static const char *const nested_sdf =
    "<sdf version='1.9'><model name='outer'><pose>0 0 0.2 0 0 0</pose>"
    "<link name='base'>" INERTIAL("2", "0.1") "</link>"
    "<joint name='j0' type='revolute'><parent>world</parent><child>base</child>"
    "<axis><xyz>0 0 1</xyz></axis></joint>"
    "<model name='inner'><pose>0.5 0 0 0 0 0.3</pose>"
    "<link name='arm'>" INERTIAL("1", "0.2") "</link>"
    "<link name='hand'><pose>0.4 0 0 0 0 0</pose>" INERTIAL("0.5", "0.05") "</link>"
    "<joint name='wrist' type='revolute'><parent>arm</parent><child>hand</child>"
    "<axis><xyz>0 1 0</xyz><limit><effort>4</effort></limit></axis></joint>"
    "<frame name='tip' attached_to='hand'><pose>0.1 0 0 0 0 0</pose></frame>"
    "</model>"
    "<joint name='shoulder' type='revolute'><parent>base</parent><child>inner::arm</child>"
    "<axis><xyz>1 0 0</xyz><limit><effort>9</effort></limit></axis></joint>"
    "</model></sdf>";

static teal_transform tr(double x, double y, double z) {
  return teal_transform_make(teal_rotation_identity(), teal_vec3_make(x, y, z));
}

static teal_transform rz(double x, double y, double z, double angle) {
  return teal_transform_make(ts_urdf_rot(0, 0, 1, angle), teal_vec3_make(x, y, z));
}

/* Loads xml through the parser's entry point into a new plant, checking
 * that count instances come back, consecutive from the first. */
static teal_plant *load(const char *xml, int count, int *inst) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {TEAL_OK, ""};
  int n = -1;
  ck_assert_msg(
      teal_parser_add_models_string(p, xml, "sdf", NULL, inst, 8, &n, NULL, &e) == TEAL_OK, "%s",
      e.message);
  ck_assert_int_eq(n, count);
  for (int i = 1; i < n; i++) {
    ck_assert_int_eq(inst[i], inst[0] + i);
  }
  return p;
}

/* X_WF of frame f at q (finalized plant). */
static teal_transform world_pose(const teal_plant *p, int f, const double *q) {
  teal_transform X_WB[16], X;
  ck_assert_int_le(teal_plant_num_bodies(p), 16);
  ck_assert_int_eq(teal_mb_body_poses(p, q, X_WB), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_relative_transform(p, X_WB, TEAL_WORLD_FRAME, f, &X), TEAL_OK);
  return X;
}

static int frame_in(const teal_plant *p, const char *name, int inst) {
  int f = teal_plant_get_frame_by_name(p, name, inst, NULL);
  ck_assert_msg(f >= 0, "no frame %s in instance %d", name, inst);
  return f;
}

/* Two instances with local names; the cross-model joint is outer's. */
START_TEST(nested_model_is_an_instance) {
  int inst[8];
  teal_plant *p = load(nested_sdf, 2, inst);
  ck_assert_str_eq(teal_plant_get_model_instance_name(p, inst[0], NULL), "outer");
  ck_assert_str_eq(teal_plant_get_model_instance_name(p, inst[1], NULL), "outer::inner");
  int outer = inst[0], inner = inst[1];
  int arm = teal_plant_get_body_by_name(p, "arm", inner, NULL);
  ck_assert_int_ge(arm, 1);
  ck_assert_int_eq(teal_plant_body_instance(p, arm), inner);
  ck_assert_int_lt(teal_plant_get_body_by_name(p, "arm", outer, NULL), 0);
  ck_assert_int_lt(teal_plant_get_body_by_name(p, "inner::arm", -1, NULL), 0);
  ck_assert_int_ge(teal_plant_get_body_by_name(p, "base", outer, NULL), 1);
  /* wrist (inner's, inside inner) and shoulder (outer's, into inner) */
  int wrist = teal_plant_get_joint_by_name(p, "wrist", inner, NULL);
  int shoulder = teal_plant_get_joint_by_name(p, "shoulder", outer, NULL);
  ck_assert_int_ge(wrist, 0);
  ck_assert_int_ge(shoulder, 0);
  ck_assert_int_lt(teal_plant_get_joint_by_name(p, "shoulder", inner, NULL), 0);
  ck_assert_int_eq(teal_plant_joint_child_body(p, shoulder), arm);
  /* its frames are outer's too, the child one on inner's arm */
  int b;
  ts_urdf_assert_transform_near(ts_urdf_frame_pose(p, "shoulder_child", outer, &b), tr(0, 0, 0),
                                0.0);
  ck_assert_int_eq(b, arm);
  ts_urdf_assert_transform_near(ts_urdf_frame_pose(p, "shoulder_parent", outer, &b),
                                rz(0.5, 0, 0, 0.3), 1e-15);
  ts_urdf_assert_transform_near(ts_urdf_frame_pose(p, "tip", inner, &b), tr(0.1, 0, 0), 1e-15);
  /* the actuators follow their joints */
  ck_assert_int_ge(teal_plant_get_actuator_by_name(p, "wrist", inner, NULL), 0);
  ck_assert_int_ge(teal_plant_get_actuator_by_name(p, "shoulder", outer, NULL), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_instance_nq(p, outer, NULL), 2);
  ck_assert_int_eq(teal_plant_instance_nq(p, inner, NULL), 1);
  ck_assert_int_eq(teal_plant_instance_nu(p, outer, NULL), 2); /* j0 unlimited, shoulder */
  ck_assert_int_eq(teal_plant_instance_nu(p, inner, NULL), 1);
  ck_assert_int_eq(teal_plant_instance_num_bodies(p, inner, NULL), 2);
  teal_plant_free(p);
}
END_TEST

/* nested_sdf built by hand in one instance. */
static teal_plant *nested_by_hand(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int m = teal_plant_add_model_instance(p, "m");
  teal_mat3 I = teal_mat3_diag(0.1, 0.2, 0.3);
  teal_spatial_inertia Mb = teal_spatial_inertia_from_central(2, teal_vec3_make(0.1, 0, 0), I);
  teal_spatial_inertia Ma = teal_spatial_inertia_from_central(1, teal_vec3_make(0.2, 0, 0), I);
  teal_spatial_inertia Mh = teal_spatial_inertia_from_central(0.5, teal_vec3_make(0.05, 0, 0), I);
  int base = teal_plant_body_frame(p, teal_plant_add_rigid_body(p, "base", m, &Mb));
  int arm = teal_plant_body_frame(p, teal_plant_add_rigid_body(p, "arm", m, &Ma));
  int hand = teal_plant_body_frame(p, teal_plant_add_rigid_body(p, "hand", m, &Mh));
  teal_vec3 x = teal_vec3_make(1, 0, 0), y = teal_vec3_make(0, 1, 0), z = teal_vec3_make(0, 0, 1);
  int F0 = teal_plant_add_frame(p, "F0", TEAL_WORLD_FRAME, tr(0, 0, 0.2));
  int F1 = teal_plant_add_frame(p, "F1", base, rz(0.5, 0, 0, 0.3));
  int F2 = teal_plant_add_frame(p, "F2", arm, tr(0.4, 0, 0));
  ck_assert_int_ge(teal_plant_add_joint(p, "j0", TEAL_JOINT_REVOLUTE, F0, base, &z, 0), 0);
  ck_assert_int_ge(teal_plant_add_joint(p, "shoulder", TEAL_JOINT_REVOLUTE, F1, arm, &x, 0), 0);
  ck_assert_int_ge(teal_plant_add_joint(p, "wrist", TEAL_JOINT_REVOLUTE, F2, hand, &y, 0), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

START_TEST(dynamics_as_one_tree) {
  int inst[8];
  teal_plant *ps = load(nested_sdf, 2, inst);
  ck_assert_int_eq(teal_plant_finalize(ps), TEAL_OK);
  teal_plant *ph = nested_by_hand();
  mjcf_test_same_dynamics(ps, ph, 20, 1e-12);
  teal_plant_free(ps);
  teal_plant_free(ph);
}
END_TEST

/* instance_name renames the top-level model and prefixes the nested one. */
START_TEST(instance_name_prefixes_nested) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_parser_options o;
  teal_parser_options_init(&o);
  o.instance_name = "robot";
  int inst[4], n = 0;
  teal_error e = {TEAL_OK, ""};
  ck_assert_msg(
      teal_parser_add_models_string(p, nested_sdf, "sdf", &o, inst, 4, &n, NULL, &e) == TEAL_OK,
      "%s", e.message);
  ck_assert_int_eq(n, 2);
  ck_assert_int_eq(teal_plant_get_model_instance_by_name(p, "robot", NULL), inst[0]);
  ck_assert_int_eq(teal_plant_get_model_instance_by_name(p, "robot::inner", NULL), inst[1]);
  ck_assert_int_ge(teal_plant_get_body_by_name(p, "hand", inst[1], NULL), 1);
  /* the same document again under another name: no clash */
  o.instance_name = "twin";
  ck_assert_int_eq(teal_parser_add_models_string(p, nested_sdf, "sdf", &o, inst, 4, &n, NULL, &e),
                   TEAL_OK);
  ck_assert_int_eq(teal_plant_get_model_instance_by_name(p, "twin::inner", NULL), inst[1]);
  teal_plant_free(p);
}
END_TEST

/* m (posed, turned) with L on a revolute joint and sub nested, welded to L;
 * shell holds only a nested model, so its canonical link is core's. */
static const char *const model_frames_sdf =
    "<sdf version='1.9'><world name='w'>"
    "<model name='m'><pose>1 0 0.5 0 0 0.5</pose>"
    "<link name='L'><pose>0 1 0 0 0 0</pose>" INERTIAL("1", "0") "</link>"
    "<joint name='j' type='revolute'><parent>world</parent><child>L</child>"
    "<axis><xyz>0 0 1</xyz></axis></joint>"
    "<model name='sub'><pose>0 0 1 0 0 0</pose>"
    "<link name='S'><pose>0.3 0 0 0 0 0</pose>" INERTIAL("1", "0") "</link></model>"
    "<joint name='weld' type='fixed'><parent>L</parent><child>sub::S</child></joint></model>"
    "<model name='shell'><pose>0 0 2 0 0 0</pose><model name='core'>"
    "<link name='c'><pose>0 0 1 0 0 0</pose>" INERTIAL("1", "0") "</link></model></model>"
    "<model name='fixed'><static>true</static><pose>0 3 0 0 0 0</pose><link name='F'>"
    "<inertial><mass>0</mass></inertial></link></model>"
    "</world></sdf>";

START_TEST(model_frames_move_with_canonical_link) {
  int inst[8];
  teal_plant *p = load(model_frames_sdf, 5, inst);
  int m = inst[0], sub = inst[1], shell = inst[2], core = inst[3];
  ck_assert_str_eq(teal_plant_get_model_instance_name(p, sub, NULL), "m::sub");
  ck_assert_str_eq(teal_plant_get_model_instance_name(p, core, NULL), "shell::core");
  ck_assert_str_eq(teal_plant_get_model_instance_name(p, inst[4], NULL), "fixed");
  int L = teal_plant_get_body_by_name(p, "L", m, NULL);
  int S = teal_plant_get_body_by_name(p, "S", sub, NULL);
  int c = teal_plant_get_body_by_name(p, "c", core, NULL);
  /* each __model__ is its model's, on its canonical link */
  int fm = frame_in(p, "__model__", m), fs = frame_in(p, "__model__", sub);
  int fshell = frame_in(p, "__model__", shell), fcore = frame_in(p, "__model__", core);
  ck_assert_int_eq(teal_plant_frame_body(p, fm), L);
  ck_assert_int_eq(teal_plant_frame_body(p, fs), S);
  ck_assert_int_eq(teal_plant_frame_body(p, fshell), c);
  ck_assert_int_eq(teal_plant_frame_body(p, fcore), c);
  ts_urdf_assert_transform_near(*teal_plant_frame_pose_in_body(p, fm), tr(0, -1, 0), 1e-15);
  ts_urdf_assert_transform_near(*teal_plant_frame_pose_in_body(p, fs), tr(-0.3, 0, 0), 1e-15);
  ts_urdf_assert_transform_near(*teal_plant_frame_pose_in_body(p, fshell), tr(0, 0, -1), 1e-15);
  /* a static model's massless link is on the world: its frame there too */
  int ffixed = frame_in(p, "fixed::__model__", TEAL_WORLD_MODEL_INSTANCE);
  ts_urdf_assert_transform_near(*teal_plant_frame_pose_in_body(p, ffixed), tr(0, 3, 0), 0.0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  /* at q, L turns about its own z: X_WM(q) = X_WL0 Rz(q) X_LM */
  double q[16] = {0};
  ck_assert_int_le(teal_plant_nq(p), 16);
  ck_assert_int_eq(teal_plant_default_q(p, q), TEAL_OK);
  int j = teal_plant_get_joint_by_name(p, "j", m, NULL);
  double angle = 0.7;
  q[teal_plant_joint_q_start(p, j)] = angle;
  teal_transform X_WM0 = rz(1, 0, 0.5, 0.5);
  teal_transform X_WL0 = teal_transform_compose(X_WM0, tr(0, 1, 0));
  teal_transform X_WLq = teal_transform_compose(X_WL0, rz(0, 0, 0, angle));
  ts_urdf_assert_transform_near(world_pose(p, fm, q), teal_transform_compose(X_WLq, tr(0, -1, 0)),
                                1e-14);
  /* sub hangs on L by the weld: its model frame turns with L */
  teal_transform X_LSub = teal_transform_compose(tr(0, -1, 0), tr(0, 0, 1));
  ts_urdf_assert_transform_near(world_pose(p, fs, q), teal_transform_compose(X_WLq, X_LSub), 1e-14);
  q[teal_plant_joint_q_start(p, j)] = 0.0;
  ts_urdf_assert_transform_near(world_pose(p, fm, q), X_WM0, 1e-15);
  teal_plant_free(p);
}
END_TEST

/* <world> frames: chained poses, attached to the world and to a link. */
static const char *const world_frames_sdf =
    "<sdf version='1.9'><world name='w'>"
    "<frame name='table'><pose>1 2 0 0 0 1.5707963267948966</pose></frame>"
    "<frame name='corner' attached_to='table'><pose relative_to='table'>0.5 0 0.8 0 0 0</pose>"
    "</frame>"
    "<model name='arm'><pose relative_to='corner'>0 0 0.1 0 0 0</pose>"
    "<link name='base'>" INERTIAL("1", "0") "</link></model>"
    "<frame name='grip' attached_to='arm::base'><pose relative_to='corner'>0 0 0.3 0 0 0</pose>"
    "</frame></world></sdf>";

START_TEST(world_frames_are_plant_frames) {
  int inst[8];
  teal_plant *p = load(world_frames_sdf, 1, inst);
  int b, base = teal_plant_get_body_by_name(p, "base", inst[0], NULL);
  teal_transform table = rz(1, 2, 0, PI / 2);
  /* corner: 0.5 along the table's x (the world's y) */
  teal_transform corner = rz(1, 2.5, 0.8, PI / 2);
  ts_urdf_assert_transform_near(ts_urdf_frame_pose(p, "table", TEAL_WORLD_MODEL_INSTANCE, &b),
                                table, 1e-15);
  ck_assert_int_eq(b, TEAL_WORLD_BODY);
  ts_urdf_assert_transform_near(ts_urdf_frame_pose(p, "corner", TEAL_WORLD_MODEL_INSTANCE, &b),
                                corner, 1e-15);
  ck_assert_int_eq(b, TEAL_WORLD_BODY);
  /* grip rides on the arm's base, 0.2 above its origin */
  ts_urdf_assert_transform_near(ts_urdf_frame_pose(p, "grip", TEAL_WORLD_MODEL_INSTANCE, &b),
                                tr(0, 0, 0.2), 1e-15);
  ck_assert_int_eq(b, base);
  ck_assert_int_lt(teal_plant_get_frame_by_name(p, "grip", inst[0], NULL), 0);
  teal_transform X_WB;
  ck_assert_int_eq(teal_plant_get_default_free_body_pose(p, base, &X_WB), TEAL_OK);
  ts_urdf_assert_transform_near(X_WB, teal_transform_compose(corner, tr(0, 0, 0.1)), 1e-15);
  teal_plant_free(p);
}
END_TEST

/* A joint of the outer model from a link of the nested one, and a
 * canonical link in the nested model: their frames are the outer model's,
 * on the nested model's body. */
START_TEST(outer_frames_on_nested_body) {
  static const char *xml =
      "<sdf version='1.9'><model name='o' canonical_link='in::a'>"
      "<model name='in'><pose>0 0 1 0 0 0</pose><link name='a'/></model>"
      "<link name='b'><pose>0 0 2 0 0 0</pose></link>"
      "<joint name='k' type='revolute'><parent>in::a</parent><child>b</child>"
      "<axis><xyz>1 0 0</xyz></axis></joint></model></sdf>";
  int inst[8];
  teal_plant *p = load(xml, 2, inst);
  int o = inst[0], in = inst[1];
  int a = teal_plant_get_body_by_name(p, "a", in, NULL);
  int b = teal_plant_get_body_by_name(p, "b", o, NULL);
  ck_assert_int_ge(a, 1);
  int body, k = teal_plant_get_joint_by_name(p, "k", o, NULL);
  ck_assert_int_eq(teal_plant_joint_parent_body(p, k), a);
  ck_assert_int_eq(teal_plant_joint_child_body(p, k), b);
  ts_urdf_assert_transform_near(ts_urdf_frame_pose(p, "k_parent", o, &body), tr(0, 0, 1), 0.0);
  ck_assert_int_eq(body, a);
  ck_assert_int_lt(teal_plant_get_frame_by_name(p, "k_parent", in, NULL), 0);
  /* o's model frame sits at o's pose, 1 below a, on a */
  ts_urdf_assert_transform_near(ts_urdf_frame_pose(p, "__model__", o, &body), tr(0, 0, -1), 0.0);
  ck_assert_int_eq(body, a);
  ts_urdf_assert_transform_near(ts_urdf_frame_pose(p, "__model__", in, &body), tr(0, 0, 0), 0.0);
  ck_assert_int_eq(body, a);
  teal_plant_free(p);
}
END_TEST

/* The summary lists the nested instance and its bodies. */
START_TEST(summary_lists_nested_instances) {
  int inst[8];
  teal_plant *p = load(nested_sdf, 2, inst);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  char *text = teal_plant_summary_string(p, NULL);
  ck_assert_ptr_nonnull(text);
  ck_assert_msg(strstr(text, "3 \"outer::inner\": 2 bodies, nq 1, nv 1, mass 1.5 kg"), "%s", text);
  ck_assert_msg(strstr(text, "arm [outer::inner]: 1 kg; revolute \"shoulder\""), "%s", text);
  teal_free(text);
  teal_plant_free(p);
}
END_TEST

/* A failed load leaves the plant as it was. */
static void expect_untouched(const teal_plant *p, int instances, int frames) {
  ck_assert_int_eq(teal_plant_num_model_instances(p), instances);
  ck_assert_int_eq(teal_plant_num_bodies(p), 1);
  ck_assert_int_eq(teal_plant_num_frames(p), frames);
  ck_assert_int_eq(teal_plant_num_joints(p), 0);
  ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
}

START_TEST(nested_instance_name_clash) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_plant_add_model_instance(p, "outer::inner"), 2);
  teal_error e;
  ts_stale_error(&e);
  TS_EXPECT_ERROR(teal_sdf_load_string(p, nested_sdf, &e), TEAL_EDUPLICATE, &e,
                  "model instance 'outer::inner' already exists in the plant");
  expect_untouched(p, 3, 1);
  teal_plant_free(p);
}
END_TEST

START_TEST(world_frame_attached_to_unknown) {
  static const char *xml =
      "<sdf version='1.9'><world name='w'>\n<frame name='f' attached_to='nowhere'/>"
      "<model name='a'><link name='l'/></model></world></sdf>";
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e;
  ts_stale_error(&e);
  TS_EXPECT_ERROR(teal_sdf_load_string(p, xml, &e), TEAL_ENOTFOUND, &e,
                  "<string>:2: <frame name=\"f\">: attached_to frame 'nowhere' not found");
  expect_untouched(p, 2, 1);
  teal_plant_free(p);
}
END_TEST

START_TEST(world_frame_name_clash) {
  static const char *a =
      "<sdf version='1.9'><world name='w'><frame name='table'/>"
      "<model name='a'><link name='l'/></model></world></sdf>";
  static const char *b =
      "<sdf version='1.9'><world name='w'>\n<frame name='table'/>"
      "<model name='b'><link name='l'/></model></world></sdf>";
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {TEAL_OK, ""};
  ck_assert_msg(teal_sdf_load_string(p, a, &e) >= 2, "%s", e.message);
  int instances = teal_plant_num_model_instances(p), frames = teal_plant_num_frames(p);
  ts_stale_error(&e);
  TS_EXPECT_ERROR(teal_sdf_load_string(p, b, &e), TEAL_EDUPLICATE, &e,
                  "<string>:2: <frame name=\"table\">: frame 'table' already exists in the "
                  "plant's world model instance");
  ck_assert_int_eq(teal_plant_num_model_instances(p), instances);
  ck_assert_int_eq(teal_plant_num_frames(p), frames);
  teal_plant_free(p);
}
END_TEST

/* A joint of the outer model into a nested one has its own child frame in
 * the outer instance: an outer frame of that name clashes with it. */
START_TEST(cross_joint_frame_clash) {
  static const char *xml =
      "<sdf version='1.9'><model name='o'><link name='base'/>"
      "<model name='in'><link name='a'/></model>\n"
      "<joint name='k' type='revolute'><parent>base</parent><child>in::a</child></joint>"
      "<frame name='k_child' attached_to='base'/></model></sdf>";
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e;
  ts_stale_error(&e);
  TS_EXPECT_ERROR(teal_sdf_load_string(p, xml, &e), TEAL_EDUPLICATE, &e,
                  "<string>:2: <frame name=\"k_child\">: frame name 'k_child' is used twice");
  expect_untouched(p, 2, 1);
  teal_plant_free(p);
}
END_TEST

/* Every model needs a link: an empty nested model is an error. */
START_TEST(nested_model_without_link) {
  static const char *xml =
      "<sdf version='1.9'><model name='o'><link name='base'/>\n"
      "<model name='empty'><frame name='f'/></model></model></sdf>";
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e;
  ts_stale_error(&e);
  TS_EXPECT_ERROR(teal_sdf_load_string(p, xml, &e), TEAL_EPARSE, &e,
                  "<string>:2: <model name=\"empty\">: model 'o::empty' has no link");
  expect_untouched(p, 2, 1);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("sdf_nested");
  TCase *tc = tcase_create("instances");
  tcase_add_test(tc, nested_model_is_an_instance);
  tcase_add_test(tc, dynamics_as_one_tree);
  tcase_add_test(tc, instance_name_prefixes_nested);
  tcase_add_test(tc, model_frames_move_with_canonical_link);
  tcase_add_test(tc, world_frames_are_plant_frames);
  tcase_add_test(tc, outer_frames_on_nested_body);
  tcase_add_test(tc, summary_lists_nested_instances);
  suite_add_tcase(s, tc);
  TCase *te = tcase_create("errors");
  tcase_add_test(te, nested_instance_name_clash);
  tcase_add_test(te, world_frame_attached_to_unknown);
  tcase_add_test(te, world_frame_name_clash);
  tcase_add_test(te, cross_joint_frame_clash);
  tcase_add_test(te, nested_model_without_link);
  suite_add_tcase(s, te);
  return ts_run_suite(s);
}
