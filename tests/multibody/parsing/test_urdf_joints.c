/* URDF joints (multibody/parsing/urdf_joints.c): every joint type with its
 * frames, damping, pitch and limits, <origin> rpy and unnormalized axes
 * against forward kinematics composed by hand, zero axes on fixed joints,
 * and <transmission> elements (skipped kinds, limits as actuator efforts). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/tree/topology.h"
#include "support/mb_urdf_fixtures.h"
#include "support/test_support.h"

/* URDF's <origin xyz rpy>: translate, then R = Rz(yaw) Ry(pitch) Rx(roll). */
static teal_transform urdf_origin_ref(double x, double y, double z, double r, double pi,
                                      double yaw) {
  teal_rotation R =
      teal_rotation_mul(ts_urdf_rot(0, 0, 1, yaw),
                        teal_rotation_mul(ts_urdf_rot(0, 1, 0, pi), ts_urdf_rot(1, 0, 0, r)));
  return teal_transform_make(R, teal_vec3_make(x, y, z));
}

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
  teal_plant *p = ts_urdf_load_xml(xml, NULL, 1);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  ck_assert_int_eq(teal_plant_num_joints(p), 6);
  ck_assert_int_eq(teal_plant_nq(p), 3 + 7 + 4 + 2 + 1);
  ck_assert_int_eq(teal_plant_nv(p), 3 + 6 + 3 + 2 + 1);
  int kp = ts_urdf_node_of_joint(p, "pj");
  ck_assert_int_eq(t->joint_kind[kp], TEAL_JOINT_PLANAR);
  /* F's z is the plane normal (x), and M matches F at q = 0 */
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  ts_urdf_assert_vec3_near(teal_rotation_apply(t->X_PF[kp].R, z), teal_vec3_make(1, 0, 0), 1e-15);
  ts_urdf_assert_vec3_near(teal_rotation_apply(t->X_BM[kp].R, z), teal_vec3_make(1, 0, 0), 1e-15);
  ts_urdf_assert_vec3_near(t->X_PF[kp].p, teal_vec3_make(0, 0, 1), 0.0);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq(t->damping[t->v_start[kp] + i], 0.5);
  }
  int kf = ts_urdf_node_of_joint(p, "fj");
  ck_assert_int_eq(t->joint_kind[kf], TEAL_JOINT_QUATERNION_FLOATING);
  ts_urdf_assert_vec3_near(t->X_PF[kf].p, teal_vec3_make(1, 2, 3), 0.0);
  ck_assert_int_eq(t->joint_kind[ts_urdf_node_of_joint(p, "bj")], TEAL_JOINT_BALL);
  ck_assert_double_eq(t->damping[t->v_start[ts_urdf_node_of_joint(p, "bj")] + 2], 0.2);
  ck_assert_int_eq(t->joint_kind[ts_urdf_node_of_joint(p, "uj")], TEAL_JOINT_UNIVERSAL);
  int ks = ts_urdf_node_of_joint(p, "sj");
  ck_assert_int_eq(t->joint_kind[ks], TEAL_JOINT_SCREW);
  ck_assert_double_eq(t->params[ks].pitch, 0.1);
  ck_assert_double_eq(t->q_upper[t->q_start[ks]], 3.0);
  ck_assert_int_eq(t->joint_kind[ts_urdf_node_of_joint(p, "wj")], TEAL_JOINT_WELD);
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
  teal_plant *p = ts_urdf_load_xml(xml, NULL, 1);
  unsigned seed = 5u;
  for (int trial = 0; trial < 20; trial++) {
    double q[3];
    for (int k = 0; k < 3; k++) {
      q[k] = ts_rand_uniform(&seed, -3.0, 3.0);
    }
    teal_transform Xa = teal_transform_compose(urdf_origin_ref(0.1, 0.2, 0.3, 0.3, -0.5, 1.1),
                                               teal_transform_make(ts_urdf_rot(1, 2, -2, q[0]),
                                                                   teal_vec3_zero()));
    teal_transform Xb = teal_transform_compose(
        Xa, teal_transform_compose(
                urdf_origin_ref(0, 0, 0.4, -0.7, 0.2, 0),
                teal_transform_make(teal_rotation_identity(),
                                    teal_vec3_make(0, 0.6 * q[1], 0.8 * q[1]))));
    teal_transform Xc = teal_transform_compose(
        Xb,
        teal_transform_compose(urdf_origin_ref(0.5, -0.1, 0, 1.2, 0.4, -0.9),
                               teal_transform_make(ts_urdf_rot(0, 0, 1, q[2]), teal_vec3_zero())));
    ts_urdf_assert_transform_near(ts_urdf_world_pose(p, "a", q), Xa, 1e-14);
    ts_urdf_assert_transform_near(ts_urdf_world_pose(p, "b", q), Xb, 1e-14);
    ts_urdf_assert_transform_near(ts_urdf_world_pose(p, "c", q), Xc, 1e-14);
  }
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
  teal_plant *p = ts_urdf_load_xml(xml, NULL, 1);
  ck_assert_int_eq(teal_plant_nv(p), 6); /* a floats, b is welded to it */
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
  teal_plant *p = ts_urdf_load_xml(xml, &r, 1);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  ck_assert_int_eq(teal_plant_num_actuators(p), 3);
  ck_assert_double_eq(ts_urdf_actuator_effort(p, "ma"), 5.0);
  ck_assert(isinf(ts_urdf_actuator_effort(p, "tb"))); /* named after the transmission */
  ck_assert_double_eq(ts_urdf_actuator_effort(p, "me"), 3.0);
  ck_assert_int_lt(teal_plant_get_actuator_by_name(p, "mc", -1, NULL), 0);
  ck_assert_int_eq(r.skipped_transmissions, 2);
  ck_assert_int_eq(r.num_warnings, 2);
  int kc = ts_urdf_node_of_joint(p, "jc"), kd = ts_urdf_node_of_joint(p, "jd");
  ck_assert(isinf(t->effort_limit[t->v_start[kc]])); /* effort 0: no limit */
  ck_assert(isinf(t->v_upper[t->v_start[kc]]));      /* velocity 0: no limit */
  ck_assert(isinf(t->q_lower[t->q_start[kd]]));      /* continuous: limits ignored */
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("urdf_joints");
  TCase *tc = tcase_create("urdf_joints");
  tcase_add_test(tc, joint_types);
  tcase_add_test(tc, rpy_origins_and_axes_forward_kinematics);
  tcase_add_test(tc, zero_axis_on_fixed_joint_is_ignored);
  tcase_add_test(tc, transmissions);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
