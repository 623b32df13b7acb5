/* MJCF defaults, compiler and option settings (mjcf_defaults.c,
 * mjcf_body.c): default classes inherited through nested <default>,
 * childclass and class; angle units, euler sequences and the other
 * orientation forms against rotations computed by hand; autolimits,
 * inertiafromgeom and boundmass; the intermediate bodies of a body with
 * several joints; the warnings for what is not modelled. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mjcf_compare.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/math/spatial_inertia.h"
#include "support/mb_urdf_fixtures.h"

#define PI 3.14159265358979323846
#define DEG (PI / 180.0)

static const teal_plant_tree *tree(const teal_plant *p) {
  return teal_plant_get_tree(p);
}

static double damping_of(const teal_plant *p, const char *joint) {
  int j = teal_plant_get_joint_by_name(p, joint, -1, NULL);
  ck_assert_int_ge(j, 0);
  return tree(p)->damping[teal_plant_joint_v_start(p, j)];
}

static teal_vec3 axis_of(const teal_plant *p, const char *joint) {
  return tree(p)->params[ts_urdf_node_of_joint(p, joint)].axis;
}

static double mass_of(const teal_plant *p, const char *body) {
  int b = teal_plant_get_body_by_name(p, body, -1, NULL);
  ck_assert_msg(b >= 0, "no body %s", body);
  return tree(p)->M_BBo_B[teal_plant_body_node(p, b)].mass;
}

static void limits_of(const teal_plant *p, const char *joint, double *lo, double *hi) {
  int j = teal_plant_get_joint_by_name(p, joint, -1, NULL);
  *lo = tree(p)->q_lower[teal_plant_joint_q_start(p, j)];
  *hi = tree(p)->q_upper[teal_plant_joint_q_start(p, j)];
}

static const char *classes_xml =
    "<mujoco model='classes'>"
    " <default>"
    "  <joint damping='1' axis='0 1 0'/>"
    "  <geom type='box' size='0.1 0.1 0.1' density='100'/>"
    "  <default class='a'>"
    "   <joint damping='2'/>"
    "   <default class='b'>"
    "    <joint axis='1 0 0'/>"
    "    <geom type='sphere' size='0.2'/>"
    "   </default>"
    "  </default>"
    " </default>"
    " <worldbody>"
    "  <body name='b1' childclass='b'>"
    "   <joint name='j1'/>"
    "   <joint name='j2' class='a' type='slide'/>"
    "   <geom/>"
    "   <body name='b2'>"
    "    <joint name='j3' class='main'/>"
    "    <joint name='j4' damping='3'/>"
    "    <geom class='main'/>"
    "   </body>"
    "  </body>"
    " </worldbody>"
    "</mujoco>";

/* Each value comes from the nearest of: the element, its class (or its
 * body's childclass), the class's ancestors. */
START_TEST(classes_inherit) {
  teal_plant *p = mjcf_test_load_string(classes_xml, NULL);
  ck_assert_double_eq(damping_of(p, "j1"), 2.0); /* a, through b */
  ts_urdf_assert_vec3_near(axis_of(p, "j1"), teal_vec3_make(1, 0, 0), 0.0);
  ck_assert_double_eq(damping_of(p, "j2"), 2.0); /* class a: main's axis */
  ts_urdf_assert_vec3_near(axis_of(p, "j2"), teal_vec3_make(0, 1, 0), 0.0);
  ck_assert_int_eq(teal_plant_joint_kind(p, teal_plant_get_joint_by_name(p, "j2", -1, NULL)),
                   TEAL_JOINT_PRISMATIC);
  ck_assert_double_eq(damping_of(p, "j3"), 1.0);
  ts_urdf_assert_vec3_near(axis_of(p, "j3"), teal_vec3_make(0, 1, 0), 0.0);
  ck_assert_double_eq(damping_of(p, "j4"), 3.0); /* b2 inherits childclass b */
  ts_urdf_assert_vec3_near(axis_of(p, "j4"), teal_vec3_make(1, 0, 0), 0.0);
  /* b1: a sphere of radius 0.2 (class b); b2: main's 0.2 m box; density 100 */
  ck_assert_double_eq_tol(mass_of(p, "b1"), 100 * 4.0 / 3.0 * PI * 0.008, 1e-13);
  ck_assert_double_eq_tol(mass_of(p, "b2"), 100 * 0.008, 1e-13);
  /* every joint but the last of a body moves a point-mass body */
  ck_assert_double_eq(mass_of(p, "b1_dof0"), TEAL_SPATIAL_INERTIA_MIN_MASS);
  ck_assert_double_eq(mass_of(p, "b2_dof0"), TEAL_SPATIAL_INERTIA_MIN_MASS);
  ck_assert_int_eq(teal_plant_num_bodies(p), 5);
  teal_plant_free(p);
}
END_TEST

/* The same model in degrees and in radians is the same plant. */
START_TEST(degrees_and_radians) {
  const char *fmt =
      "<mujoco><compiler angle='%s'/><worldbody>"
      "<body name='a' euler='%s' pos='0 0 1'><joint name='h' range='%s'/>"
      "<geom type='capsule' size='0.05 0.2' axisangle='1 0 0 %s'/>"
      "<body name='b' axisangle='0 1 1 %s' pos='0.2 0 0'><joint name='k' type='ball'/>"
      "<geom type='box' size='0.1 0.2 0.05'/></body></body></worldbody></mujoco>";
  char deg[1024], rad[1024];
  snprintf(deg, sizeof deg, fmt, "degree", "30 45 -60", "-90 45", "90", "120");
  snprintf(rad, sizeof rad, fmt, "radian",
           "0.52359877559829882 0.78539816339744828 -1.0471975511965976",
           "-1.5707963267948966 0.78539816339744828", "1.5707963267948966", "2.0943951023931953");
  teal_plant *pd = mjcf_test_load_string(deg, NULL), *pr = mjcf_test_load_string(rad, NULL);
  mjcf_test_same_dynamics(pd, pr, 10, 1e-12);
  double lo, hi;
  limits_of(pd, "h", &lo, &hi);
  ck_assert_double_eq_tol(lo, -PI / 2, 1e-15);
  ck_assert_double_eq_tol(hi, PI / 4, 1e-15);
  teal_plant_free(pd);
  teal_plant_free(pr);
}
END_TEST

/* The rotation of a body's joint frame, from an orientation attribute. */
static teal_rotation body_rotation(const char *compiler, const char *orientation) {
  char xml[1024];
  snprintf(xml, sizeof xml,
           "<mujoco><compiler %s/><worldbody><body name='b' %s><joint name='j'/>"
           "<geom size='0.1'/></body></worldbody></mujoco>",
           compiler, orientation);
  teal_plant *p = mjcf_test_load_string(xml, NULL);
  int body;
  teal_transform X = ts_urdf_frame_pose(p, "mujoco::j_parent", -1, &body);
  ck_assert_int_eq(body, TEAL_WORLD_BODY);
  teal_plant_free(p);
  return X.R;
}

static void assert_rotation(teal_rotation a, teal_rotation b) {
  ts_urdf_assert_transform_near(teal_transform_make(a, teal_vec3_zero()),
                                teal_transform_make(b, teal_vec3_zero()), 1e-15);
}

START_TEST(orientations) {
  teal_rotation Rx = ts_urdf_rot(1, 0, 0, 30 * DEG), Ry = ts_urdf_rot(0, 1, 0, 45 * DEG);
  teal_rotation Rz = ts_urdf_rot(0, 0, 1, -60 * DEG);
  /* lower case: axes that move with the frame (R = Rx Ry Rz); upper case:
   * fixed axes (R = Rz Ry Rx); the default sequence is xyz */
  teal_rotation intrinsic = teal_rotation_mul(teal_rotation_mul(Rx, Ry), Rz);
  teal_rotation extrinsic = teal_rotation_mul(teal_rotation_mul(Rz, Ry), Rx);
  assert_rotation(body_rotation("", "euler='30 45 -60'"), intrinsic);
  assert_rotation(body_rotation("eulerseq='xyz'", "euler='30 45 -60'"), intrinsic);
  assert_rotation(body_rotation("eulerseq='XYZ'", "euler='30 45 -60'"), extrinsic);
  teal_rotation zyx = teal_rotation_mul(teal_rotation_mul(ts_urdf_rot(0, 0, 1, 30 * DEG), Ry),
                                        ts_urdf_rot(1, 0, 0, -60 * DEG));
  assert_rotation(body_rotation("eulerseq='zyx'", "euler='30 45 -60'"), zyx);
  assert_rotation(body_rotation("angle='radian'", "axisangle='1 2 2 0.3'"),
                  ts_urdf_rot(1, 2, 2, 0.3));
  assert_rotation(body_rotation("", "axisangle='1 2 2 30'"), ts_urdf_rot(1, 2, 2, 30 * DEG));
  /* quat (w x y z), normalized: (1, 1, 0, 0) is a quarter turn about x */
  assert_rotation(body_rotation("", "quat='1 1 0 0'"), ts_urdf_rot(1, 0, 0, PI / 2));
  /* xyaxes: y made orthogonal to x; (1 1 0, 0 1 0) is 45 degrees about z */
  assert_rotation(body_rotation("", "xyaxes='1 1 0 0 1 0'"), ts_urdf_rot(0, 0, 1, PI / 4));
  /* zaxis: the smallest rotation taking z to it */
  assert_rotation(body_rotation("", "zaxis='0 1 0'"), ts_urdf_rot(1, 0, 0, -PI / 2));
  assert_rotation(body_rotation("", "zaxis='0 0 -2'"), ts_urdf_rot(1, 0, 0, PI));
}
END_TEST

/* A range limits a joint when limited is true, or when it is auto (the
 * default) and autolimits is on (the default). */
START_TEST(autolimits) {
  const char *fmt =
      "<mujoco><compiler angle='radian' %s/><worldbody><body name='b'>"
      "<joint name='a' range='-1 1'/><joint name='t' range='-1 2' limited='true'/>"
      "<joint name='f' range='-1 1' limited='false'/><joint name='n'/>"
      "<geom size='0.1'/></body></worldbody></mujoco>";
  const char *settings[2] = {"", "autolimits='false'"};
  for (int s = 0; s < 2; s++) {
    char xml[1024];
    snprintf(xml, sizeof xml, fmt, settings[s]);
    teal_plant *p = mjcf_test_load_string(xml, NULL);
    double lo, hi;
    limits_of(p, "a", &lo, &hi);
    ck_assert(s == 0 ? lo == -1 && hi == 1 : isinf(lo) && isinf(hi));
    limits_of(p, "t", &lo, &hi);
    ck_assert(lo == -1 && hi == 2);
    limits_of(p, "f", &lo, &hi);
    ck_assert(isinf(lo) && isinf(hi));
    limits_of(p, "n", &lo, &hi);
    ck_assert(isinf(lo) && isinf(hi));
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(inertia_sources) {
  const char *fmt =
      "<mujoco><compiler %s/><worldbody><body name='b'><joint/>"
      "<inertial mass='3' pos='0 0 0.1' diaginertia='0.1 0.2 0.3'/>"
      "<geom size='0.1' mass='2'/><geom type='box' size='0.1 0.1 0.1' pos='0 0 0.5' mass='1'/>"
      "</body><body name='light' pos='1 0 0'><joint/>"
      "<inertial mass='0.001' diaginertia='1e-6 1e-6 1e-6'/><geom size='0.01'/>"
      "</body></worldbody></mujoco>";
  char xml[1024];
  /* auto: the inertial wins; true: the geoms (3 kg, com at 1/6); boundmass */
  snprintf(xml, sizeof xml, fmt, "inertiafromgeom='auto' boundmass='0.01'");
  teal_plant *p = mjcf_test_load_string(xml, NULL);
  ck_assert_double_eq(mass_of(p, "b"), 3.0);
  ck_assert_double_eq_tol(mass_of(p, "light"), 0.01, 1e-17);
  const teal_spatial_inertia *M =
      &tree(p)->M_BBo_B[teal_plant_body_node(p, teal_plant_get_body_by_name(p, "b", -1, NULL))];
  ck_assert_double_eq_tol(M->p_PScm_E.v[2], 0.1, 1e-15);
  teal_plant_free(p);
  snprintf(xml, sizeof xml, fmt, "inertiafromgeom='true'");
  p = mjcf_test_load_string(xml, NULL);
  M = &tree(p)->M_BBo_B[teal_plant_body_node(p, teal_plant_get_body_by_name(p, "b", -1, NULL))];
  ck_assert_double_eq(M->mass, 3.0);
  ck_assert_double_eq_tol(M->p_PScm_E.v[2], 0.5 / 3.0, 1e-15);
  /* about the origin: the sphere 2/5 m r^2, the box m (a^2 + b^2) / 3 + m d^2 */
  double ixx = 0.4 * 2 * 0.01 + 1 * 0.02 / 3 + 0.25;
  ck_assert_double_eq_tol(M->I_SP_E.m[0], ixx, 1e-15);
  ck_assert_double_eq_tol(M->I_SP_E.m[8], 0.4 * 2 * 0.01 + 1 * 0.02 / 3, 1e-15);
  teal_plant_free(p);
}
END_TEST

/* MuJoCo's defaults: 0.002 s, and gravity left alone without <option>. */
START_TEST(option_values) {
  teal_mjcf_report r;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_plant_set_gravity(p, teal_vec3_make(0, 0, -1));
  ck_assert_int_ge(teal_mjcf_load_string(p, "<mujoco><worldbody/></mujoco>", "m", NULL, &r, NULL),
                   0);
  ck_assert_double_eq(r.timestep, 0.002);
  ck_assert_double_eq(teal_plant_gravity(p).v[2], -1.0);
  ck_assert_int_ge(teal_mjcf_load_string(
                       p, "<mujoco><option timestep='0.01' gravity='0 1 2'/><worldbody/></mujoco>",
                       "n", NULL, &r, NULL),
                   0);
  ck_assert_double_eq(r.timestep, 0.01);
  ck_assert_double_eq(teal_plant_gravity(p).v[1], 1.0);
  teal_plant_free(p);
}
END_TEST

/* What Teal does not model is counted and named. */
START_TEST(warnings) {
  teal_mjcf_report r;
  teal_plant *p = mjcf_test_load_string(
      "<mujoco><worldbody><body name='b'><joint name='j' armature='0.1'/>"
      "<geom size='0.1' condim='3'/><geom type='hfield'/></body></worldbody>"
      "<equality><distance geom1='a' geom2='b'/></equality>"
      "<actuator><motor joint='j' gear='2'/><position joint='j'/></actuator></mujoco>",
      &r);
  /* the armature is the joint's armature (test_rotor_parsing.c) and the gear
   * the motor's input gain (test_mjcf_gear.c): neither is a warning */
  ck_assert_int_eq(r.num_warnings, 4);
  ck_assert_int_eq(r.ignored_attributes, 1); /* condim */
  ck_assert_int_eq(r.skipped_geoms, 1);
  ck_assert_int_eq(r.ignored_elements, 2); /* equality distance, position */
  ck_assert_msg(strstr(r.first_warning, "<string>:1: <geom>: attribute 'condim'"), "%s",
                r.first_warning);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mjcf_defaults");
  TCase *tc = tcase_create("settings");
  tcase_add_test(tc, classes_inherit);
  tcase_add_test(tc, degrees_and_radians);
  tcase_add_test(tc, orientations);
  tcase_add_test(tc, autolimits);
  tcase_add_test(tc, inertia_sources);
  tcase_add_test(tc, option_values);
  tcase_add_test(tc, warnings);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
