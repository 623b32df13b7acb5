/* MJCF errors (mjcf.c through mjcf_build.c): every bad input returns its
 * code with a message naming the source, the line and the element, and
 * leaves the plant exactly as it was (same counts and gravity, still
 * finalizable); bad arguments and options; files that cannot be read;
 * documents refused before libxml2 expands anything (entities, a DTD
 * internal subset, too many attributes, too many bytes). */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "multibody/contact/plant_geometry.h"
#include "multibody/parsing/mjcf.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

#define HEAD "<mujoco model='m'><worldbody>"
#define TAIL "</worldbody></mujoco>"
#define BODY(x) HEAD "<body name='b'>" x "</body>" TAIL
#define BODY_AND(x, more) HEAD "<body name='b'>" x "</body></worldbody>" more "</mujoco>"

typedef struct counts {
  int instances, bodies, frames, joints, geometries, actuators;
  teal_vec3 gravity;
} counts;

static counts count(const teal_plant *p) {
  counts c = {teal_plant_num_model_instances(p),
              teal_plant_num_bodies(p),
              teal_plant_num_frames(p),
              teal_plant_num_joints(p),
              teal_plant_num_geometries(p),
              teal_plant_num_actuators(p),
              teal_plant_gravity(p)};
  return c;
}

/* A plant already holding one valid model (so "unchanged" means something). */
static teal_plant *loaded_plant(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  teal_error e = {TEAL_OK, ""};
  int rc =
      teal_mjcf_load_string(p,
                            "<mujoco model='first'><worldbody><geom type='plane' size='1 1 1'/>"
                            "<body name='b'><joint name='j'/><geom size='0.1'/></body>"
                            "</worldbody><actuator><motor joint='j'/></actuator></mujoco>",
                            NULL, NULL, NULL, &e);
  ck_assert_msg(rc >= 0, "%s", e.message);
  return p;
}

/* Loading xml fails with code and a message containing needle; the plant
 * is unchanged and still finalizes. */
static void expect_failure(const char *xml, int code, const char *needle) {
  teal_plant *p = loaded_plant();
  counts before = count(p);
  teal_error e;
  ts_stale_error(&e);
  int rc = teal_mjcf_load_string(p, xml, NULL, NULL, NULL, &e);
  ck_assert_msg(rc == code, "%s: %d (%s)", xml, rc, e.message);
  ts_expect_error_at(__FILE__, __LINE__, rc, code, &e, needle);
  counts after = count(p);
  ck_assert_int_eq(memcmp(&before, &after, sizeof before), 0);
  ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_plant_free(p);
}

START_TEST(document_errors) {
  expect_failure("<mujoco><worldbody>", TEAL_EPARSE, "<string>:1: malformed XML");
  expect_failure("<robot name='r'/>", TEAL_EPARSE, "the root element must be <mujoco>");
  expect_failure("<mujoco/>", TEAL_EPARSE, "no <worldbody>");
  expect_failure("<mujoco><worldbody/><worldbody/></mujoco>", TEAL_EPARSE, "more than one");
  expect_failure("<mujoco><compiler coordinate='global'/><worldbody/></mujoco>", TEAL_EPARSE,
                 "coordinate 'global' is not supported");
  expect_failure("<mujoco><compiler angle='grad'/><worldbody/></mujoco>", TEAL_EPARSE,
                 "unknown angle 'grad'");
  expect_failure("<mujoco><compiler eulerseq='xyw'/><worldbody/></mujoco>", TEAL_EPARSE,
                 "eulerseq 'xyw'");
  expect_failure("<mujoco><option timestep='0'/><worldbody/></mujoco>", TEAL_EINVAL,
                 "timestep must be > 0");
  expect_failure("<mujoco><option gravity='0 0'/><worldbody/></mujoco>", TEAL_EPARSE,
                 "gravity needs 3 numbers");
  expect_failure("<mujoco model='first'><worldbody/></mujoco>", TEAL_EDUPLICATE,
                 "already has an instance 'first'");
}
END_TEST

START_TEST(body_and_joint_errors) {
  expect_failure(BODY("<joint name='j' type='revolve'/><geom size='1'/>"), TEAL_EPARSE,
                 "<string>:1: <joint name=\"j\">: unknown type 'revolve'");
  expect_failure(BODY("<joint axis='0 0 0'/><geom size='1'/>"), TEAL_EINVAL, "zero joint axis");
  expect_failure(BODY("<joint range='2 1' limited='true'/><geom size='1'/>"), TEAL_EINVAL,
                 "lower <= upper");
  expect_failure(BODY("<joint damping='-1'/><geom size='1'/>"), TEAL_EINVAL, "negative damping");
  expect_failure(BODY("<joint pos='1 x 2'/><geom size='1'/>"), TEAL_EPARSE, "is not a number");
  expect_failure(BODY("<joint pos='1 nan 2'/><geom size='1'/>"), TEAL_ENONFINITE, "not finite");
  expect_failure(BODY("<joint/>"), TEAL_EINVAL, "a moving body needs mass");
  expect_failure(BODY("<joint/><inertial mass='-1' diaginertia='1 1 1'/>"), TEAL_EINVAL,
                 "negative mass");
  expect_failure(BODY("<joint/><inertial mass='1'/>"), TEAL_EPARSE, "needs diaginertia");
  expect_failure(BODY("<joint/><inertial mass='1' diaginertia='1 1 5'/>"), TEAL_EINVAL,
                 "<inertial>");
  expect_failure(BODY("<joint/><geom size='1'/><body name='c'><freejoint/><geom size='1'/></body>"),
                 TEAL_EINVAL, "a free joint is allowed only in a top-level body");
  expect_failure(BODY("<freejoint/><joint/><geom size='1'/>"), TEAL_EINVAL,
                 "a free joint must be its body's only joint");
  expect_failure(HEAD "<joint/>" TAIL, TEAL_EINVAL, "a joint in <worldbody>");
  expect_failure(BODY("<joint class='nope'/><geom size='1'/>"), TEAL_ENOTFOUND,
                 "unknown class 'nope'");
  expect_failure(HEAD "<body name='b' quat='1 0 0 0' euler='0 0 1'/>" TAIL, TEAL_EPARSE,
                 "both quat and euler given");
  expect_failure(HEAD "<body name='b' quat='0 0 0 0'/>" TAIL, TEAL_EINVAL, "zero vector");
  expect_failure(HEAD "<body name='b' xyaxes='1 0 0 2 0 0'/>" TAIL, TEAL_EINVAL,
                 "y axis parallel to x");
  expect_failure(HEAD "<body name='b' pos='1 2'/>" TAIL, TEAL_EPARSE, "pos needs 3 numbers");
  expect_failure(HEAD "<body name='b'/><body name='b'/>" TAIL, TEAL_EDUPLICATE, "b");
  expect_failure(HEAD "<body name='a/b'/>" TAIL, TEAL_EINVAL,
                 "<body name=\"a/b\">: name 'm::a/b' contains '/'");
  expect_failure("<mujoco model='x/y'><worldbody/></mujoco>", TEAL_EINVAL,
                 "model instance name 'x/y'");
  /* MJCF names are unique per kind; the plant's frames per instance */
  expect_failure(BODY("<joint/><geom size='1'/><site name='b'/>"), TEAL_EDUPLICATE,
                 "<site name=\"b\">: duplicate frame name 'b'");
  expect_failure(BODY("<joint name='j'/><geom size='1'/><site name='j_child'/>"), TEAL_EDUPLICATE,
                 "duplicate frame name 'j_child'");
  expect_failure(HEAD
                 "<body name='w'><geom size='1'/></body><body name='x'><joint name='w'/>"
                 "<geom size='1'/></body>" TAIL,
                 TEAL_EDUPLICATE, "duplicate joint name 'w'");
  expect_failure(
      "<mujoco><default><default class='a'/><default class='a'/></default>"
      "<worldbody/></mujoco>",
      TEAL_EDUPLICATE, "duplicate default class name 'a'");
}
END_TEST

START_TEST(geom_and_reference_errors) {
  expect_failure(BODY("<geom type='capsule' size='0.1'/>"), TEAL_EPARSE, "size needs 2 numbers");
  expect_failure(BODY("<geom type='sphere' fromto='0 0 0 1 1 1' size='1'/>"), TEAL_EPARSE,
                 "fromto needs a capsule");
  expect_failure(BODY("<geom type='capsule' fromto='0 0 0 0 0 0' size='1'/>"), TEAL_EINVAL,
                 "fromto: zero length");
  expect_failure(BODY("<geom size='-1'/>"), TEAL_EINVAL, "size 0 must be > 0");
  expect_failure(BODY("<geom size='1' density='-5'/>"), TEAL_EINVAL, "negative mass or density");
  expect_failure(BODY("<geom size='1' rgba='1 2 0 1'/>"), TEAL_EINVAL, "rgba");
  expect_failure(BODY("<geom type='plane' size='1 1 1'/>"), TEAL_EINVAL,
                 "a plane geom is allowed only in <worldbody>");
  expect_failure(BODY("<geom type='torus' size='1'/>"), TEAL_EPARSE, "unknown type 'torus'");
  expect_failure(BODY("<geom type='mesh'/>"), TEAL_EPARSE, "a mesh geom needs a mesh");
  expect_failure(BODY("<geom type='mesh' mesh='m'/>"), TEAL_ENOTFOUND, "unknown mesh 'm'");
  expect_failure(
      "<mujoco><asset><mesh file='/nonexistent/m.stl'/></asset>"
      "<worldbody><body name='b'><geom type='mesh' mesh='m'/></body></worldbody></mujoco>",
      TEAL_EIO, "<geom>");
  expect_failure("<mujoco><asset><mesh file='a.stl' scale='1 2 1'/></asset><worldbody/></mujoco>",
                 TEAL_EINVAL, "only uniform positive mesh scales");
  expect_failure(
      "<mujoco><asset><mesh file='a.stl'/><mesh file='b/a.obj'/></asset><worldbody/>"
      "</mujoco>",
      TEAL_EDUPLICATE, "duplicate mesh name 'a'");
  expect_failure(
      BODY_AND("<joint name='k'/><geom size='1'/>", "<actuator><motor joint='x'/></actuator>"),
      TEAL_ENOTFOUND, "unknown joint 'x'");
  expect_failure(BODY_AND("<joint name='k' type='ball'/><geom size='1'/>",
                          "<actuator><motor joint='k'/></actuator>"),
                 TEAL_EINVAL, "a motor on a ball or free joint");
  expect_failure(BODY_AND("<joint name='k'/><geom size='1'/>",
                          "<actuator><motor joint='k'/><motor joint='k'/></actuator>"),
                 TEAL_EDUPLICATE, "duplicate actuator name 'k'");
  expect_failure(BODY_AND("<geom size='1'/>", "<contact><exclude body1='b' body2='z'/></contact>"),
                 TEAL_ENOTFOUND, "unknown body 'z'");
  expect_failure(BODY_AND("<geom size='1'/>", "<contact><exclude body1='b'/></contact>"),
                 TEAL_EPARSE, "missing attribute 'body2'");
}
END_TEST

/* libxml2 expands nothing: entity references and DTD internal subsets
 * (billion laughs, external entities) are refused, as are documents over
 * the limits. */
START_TEST(hostile_documents) {
  expect_failure(
      "<!DOCTYPE mujoco [<!ENTITY a 'aaaa'><!ENTITY b '&a;&a;&a;'>]>"
      "<mujoco model='&b;'><worldbody/></mujoco>",
      TEAL_EPARSE, "internal subset");
  expect_failure(
      "<!DOCTYPE mujoco SYSTEM 'file:///etc/passwd'><mujoco model='&xxe;'>"
      "<worldbody/></mujoco>",
      TEAL_EPARSE, "");
  char many[4096] = "<mujoco><worldbody><body name='b'";
  for (int i = 0; i < 300; i++) {
    snprintf(many + strlen(many), sizeof many - strlen(many), " a%d='1'", i);
  }
  strcat(many, "/></worldbody></mujoco>");
  expect_failure(many, TEAL_ESIZE, "more than 256 attributes");
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_mjcf_options o;
  teal_mjcf_options_init(&o);
  o.max_bytes = 10;
  teal_error e;
  TS_EXPECT_ERROR(teal_mjcf_load_string(p, HEAD TAIL, NULL, &o, NULL, &e), TEAL_ESIZE, &e,
                  "longer than the limit of 10 bytes");
  o.max_bytes = 0;
  TS_EXPECT_ERROR(teal_mjcf_load_string(p, HEAD TAIL, NULL, &o, NULL, &e), TEAL_EINVAL, &e,
                  "must be positive");
  ck_assert_int_eq(teal_plant_num_model_instances(p), 2);
  teal_plant_free(p);
}
END_TEST

/* A frame another caller put on the world under the instance's prefix. */
START_TEST(world_frame_taken) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_int_ge(teal_plant_add_frame(p, "m::s", TEAL_WORLD_FRAME, teal_transform_identity()), 0);
  int frames = teal_plant_num_frames(p);
  teal_error e;
  TS_EXPECT_ERROR(teal_mjcf_load_string(p, HEAD "<site name='s'/>" TAIL, NULL, NULL, NULL, &e),
                  TEAL_EDUPLICATE, &e, "<site name=\"s\">: the plant already has a frame 'm::s'");
  ck_assert_int_eq(teal_plant_num_frames(p), frames);
  ck_assert_int_eq(teal_plant_num_model_instances(p), 2);
  ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
  teal_plant_free(p);
}
END_TEST

START_TEST(argument_and_file_errors) {
  teal_error e;
  TS_EXPECT_ERROR(teal_mjcf_load_string(NULL, HEAD TAIL, NULL, NULL, NULL, &e), TEAL_EINVAL, &e,
                  "NULL plant");
  teal_plant *p = teal_plant_new(0.0, NULL);
  TS_EXPECT_ERROR(teal_mjcf_load_string(p, NULL, NULL, NULL, NULL, &e), TEAL_EINVAL, &e,
                  "NULL document");
  TS_EXPECT_ERROR(teal_mjcf_load_file(p, NULL, NULL, NULL, NULL, &e), TEAL_EINVAL, &e, "NULL path");
  TS_EXPECT_ERROR(teal_mjcf_load_string(p, HEAD TAIL, "", NULL, NULL, &e), TEAL_EINVAL, &e,
                  "empty instance name");
  TS_EXPECT_ERROR(teal_mjcf_load_file(p, "/nonexistent/robot.xml", NULL, NULL, NULL, &e), TEAL_EIO,
                  &e, "cannot open");
  TS_EXPECT_ERROR(teal_mjcf_load_file(p, "/tmp", NULL, NULL, NULL, &e), TEAL_EIO, &e,
                  "not a regular file");
  /* a file: its base name and the line in the message */
  char path[] = "/tmp/teal_mjcf_errors_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  const char *text =
      "<mujoco>\n<worldbody>\n<body name='b'><joint name='j' type='x'/>\n"
      "</body></worldbody></mujoco>\n";
  ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
  close(fd);
  const char *base = strrchr(path, '/') + 1;
  char needle[256];
  snprintf(needle, sizeof needle, "%s:3: <joint name=\"j\">: unknown type 'x'", base);
  TS_EXPECT_ERROR(teal_mjcf_load_file(p, path, NULL, NULL, NULL, &e), TEAL_EPARSE, &e, needle);
  unlink(path);
  ck_assert_int_ge(teal_mjcf_load_string(p, HEAD TAIL, NULL, NULL, NULL, &e), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  TS_EXPECT_ERROR(teal_mjcf_load_string(p, HEAD TAIL, "x", NULL, NULL, &e), TEAL_ESTATE, &e,
                  "already finalized");
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mjcf_errors");
  TCase *tc = tcase_create("errors");
  tcase_add_test(tc, document_errors);
  tcase_add_test(tc, body_and_joint_errors);
  tcase_add_test(tc, geom_and_reference_errors);
  tcase_add_test(tc, hostile_documents);
  tcase_add_test(tc, world_frame_taken);
  tcase_add_test(tc, argument_and_file_errors);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
