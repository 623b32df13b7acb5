/* URDF errors: every error case with its code and "source:line: <element>"
 * message, the plant untouched and usable after each, and allocation
 * balance of a successful and a failed load. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/tree/topology.h"
#include "support/mb_urdf_fixtures.h"
#include "support/test_support.h"
#include "urdf_models.h"

#define R(body) "<robot name=\"r\">" body "</robot>"

typedef struct error_case {
  const char *xml;
  int code;
  const char *expect[3];
} error_case;

#define R(body) "<robot name=\"r\">" body "</robot>"

static const error_case error_cases[] = {
    {"<robot name=\"r\">\n" XLINK("a") "\n" XLINK(
         "b") "\n<joint name=\"elbow\" type=\"revolve\">"
              "<parent link=\"a\"/><child link=\"b\"/></joint>\n</robot>",
     TEAL_EPARSE,
     {"<string>:4: <joint name=\"elbow\">: unknown joint type 'revolve'"}},
    {"<robot name=\"r\">\n" XLINK("b") "\n" XJOINT("j", "fixed", "nope", "b", "") "</robot>",
     TEAL_ENOTFOUND,
     {"<string>:3: <joint name=\"j\">: parent link 'nope' not found"}},
    {R(XJOINT("j", "fixed", "world", "nope", "")), TEAL_ENOTFOUND, {"child link 'nope'"}},
    {R(XLINK("a") "<joint name=\"j\" type=\"fixed\"><child link=\"a\"/></joint>"),
     TEAL_EPARSE,
     {"<joint name=\"j\">: missing <parent>"}},
    {R(XLINK("a") "<joint name=\"j\" type=\"fixed\"><parent link=\"world\"/><child/></joint>"),
     TEAL_EPARSE,
     {"<child>: missing attribute 'link'"}},
    {"<robot name=\"r\">\n" XLINK("a") "\n" XLINK("a") "</robot>",
     TEAL_EDUPLICATE,
     {"<string>:3: <link name=\"a\">: duplicate link name 'a'"}},
    {R(XLINK("a") XLINK("b") XJOINT("j", "fixed", "world", "a", "")
           XJOINT("j", "fixed", "world", "b", "")),
     TEAL_EDUPLICATE,
     {"duplicate joint name 'j'"}},
    {R(XLINK("a") XLINK("b") XLINK("c") XJOINT("j1", "fixed", "a", "c", "")
           XJOINT("j2", "fixed", "b", "c", "")),
     TEAL_EINVAL,
     {"<joint name=\"j2\">", "link 'c' has two parent joints, 'j1' and 'j2'"}},
    {R(XLINK("a") XLINK("b") XJOINT("j1", "fixed", "a", "b", "")
           XJOINT("j2", "fixed", "b", "a", "")),
     TEAL_EINVAL,
     {"kinematic loop through link"}},
    {R(XLINK("c") XLINK("a") XLINK("b") XJOINT("j1", "fixed", "a", "b", "")
           XJOINT("j2", "fixed", "b", "a", "") XJOINT("j3", "fixed", "b", "c", "")),
     TEAL_EINVAL,
     {"<joint name=\"j2\">: kinematic loop through link 'a'"}},
    {R(XJOINT("j", "fixed", "world", "world", "")), TEAL_EINVAL, {"world cannot be a child"}},
    {R(XLINK("a") XJOINT("j", "fixed", "a", "a", "")), TEAL_EINVAL, {"same link"}},
    {R("<link name=\"a\"><inertial><mass value=\"-1\"/></inertial></link>"),
     TEAL_EINVAL,
     {"<mass>: negative mass"}},
    {R("<link name=\"a\"><inertial><mass value=\"nan\"/></inertial></link>"),
     TEAL_ENONFINITE,
     {"<mass>: attribute value=\"nan\" is not finite"}},
    {R("<link name=\"a\"><inertial><mass value=\"1e999\"/></inertial></link>"),
     TEAL_ENONFINITE,
     {"not finite"}},
    {R("<link name=\"a\"><inertial><mass value=\"abc\"/></inertial></link>"),
     TEAL_EPARSE,
     {"is not a number"}},
    {R("<link name=\"a\"><inertial><mass value=\"0x10\"/></inertial></link>"),
     TEAL_EPARSE,
     {"is not a number"}},
    {R("<link name=\"a\"><inertial><origin/></inertial></link>"),
     TEAL_EPARSE,
     {"<inertial>: missing <mass>"}},
    {R("<link name=\"a\"><inertial><mass value=\"1\"/>"
       "<inertia ixx=\"1\" iyy=\"1\" izz=\"5\"/></inertial></link>"),
     TEAL_EINVAL,
     {"<inertial>: non-physical inertia"}},
    {R("<link name=\"a\"><inertial><mass value=\"1\"/>"
       "<inertia ixx=\"-1\" iyy=\"1\" izz=\"1\"/></inertial></link>"),
     TEAL_EINVAL,
     {"non-physical inertia"}},
    {R(XLINK("a") MASS), TEAL_OK, {NULL}}, /* a stray inertial under robot is ignored */
    {R("<link name=\"a\">" MASS MASS "</link>"), TEAL_EPARSE, {"more than one <inertial>"}},
    {R(XLINK("p") "<link name=\"a\"/>" XJOINT("j", "revolute", "p", "a", "")),
     TEAL_EINVAL,
     {"<link name=\"a\">: massless link", "revolute joint 'j'"}},
    {R(XLINK("a") XJOINT("j", "revolute", "world", "a", "<axis xyz=\"0 0 0\"/>")),
     TEAL_EINVAL,
     {"<axis>: axis must be nonzero"}},
    {R(XLINK("a") XJOINT("j", "revolute", "world", "a", "<axis xyz=\"0 1\"/>")),
     TEAL_EPARSE,
     {"<axis>: attribute xyz=\"0 1\" needs 3 numbers"}},
    {R(XLINK("a") XJOINT("j", "revolute", "world", "a", "<limit lower=\"1\" upper=\"-1\"/>")),
     TEAL_EINVAL,
     {"<limit>: lower limit 1 exceeds upper limit -1"}},
    {R(XLINK("a") XJOINT("j", "revolute", "world", "a", "<limit effort=\"-1\"/>")),
     TEAL_EINVAL,
     {"<limit>: effort and velocity"}},
    {R(XLINK("a") XJOINT("j", "revolute", "world", "a", "<dynamics damping=\"-1\"/>")),
     TEAL_EINVAL,
     {"<dynamics>: damping must be >= 0"}},
    {R(XLINK("a") XJOINT("j", "ball", "world", "a", "")),
     TEAL_EPARSE,
     {"unknown joint type 'ball'"}},
    {R(XLINK("a") "<drake:joint name=\"s\" type=\"screw\"><parent link=\"world\"/>"
                  "<child link=\"a\"/></drake:joint>"),
     TEAL_EPARSE,
     {"<drake:joint name=\"s\">: a screw joint needs <drake:screw_thread_pitch>"}},
    {R(XLINK("a") "<joint type=\"fixed\"/>"), TEAL_EPARSE, {"<joint>: missing attribute 'name'"}},
    {"<sdf version=\"1.6\"/>", TEAL_EPARSE, {"<string>:1: <sdf>: the root element must be"}},
    {"<robot>" XLINK("a") "</robot>", TEAL_EPARSE, {"<robot>: missing attribute 'name'"}},
    {R("<transmission type=\"SimpleTransmission\" name=\"t\"><joint name=\"zz\"/>"
       "<actuator name=\"m\"/></transmission>"),
     TEAL_ENOTFOUND,
     {"<transmission name=\"t\">: joint 'zz' not found"}},
    {R(XLINK("a") XJOINT(
         "j", "fixed", "world", "a",
         "") "<transmission type=\"SimpleTransmission\"><joint name=\"j\"/><actuator name=\"m\"/>"
             "</transmission>"),
     TEAL_EINVAL,
     {"fixed joint 'j' cannot be actuated"}},
    {R(XLINK("a") XJOINT(
         "j", "continuous", "world", "a",
         "") "<transmission type=\"SimpleTransmission\"><joint name=\"j\"/><actuator name=\"m\"/>"
             "</transmission><transmission type=\"SimpleTransmission\"><joint name=\"j\"/>"
             "<actuator name=\"n\"/></transmission>"),
     TEAL_EDUPLICATE,
     {"joint 'j' already has an actuator"}},
    {R(XLINK("a") XLINK("b") XJOINT("j", "continuous", "world", "a", "") XJOINT(
         "k", "continuous", "a", "b",
         "") "<transmission type=\"SimpleTransmission\"><joint name=\"j\"/><actuator name=\"m\"/>"
             "</transmission><transmission type=\"SimpleTransmission\"><joint name=\"k\"/>"
             "<actuator name=\"m\"/></transmission>"),
     TEAL_EDUPLICATE,
     {"duplicate actuator name 'm'"}},
    {R("<transmission type=\"SimpleTransmission\"><joint name=\"j\"/></transmission>"),
     TEAL_EPARSE,
     {"missing actuator name"}},
    {R("<transmission name=\"t\"><joint name=\"j\"/></transmission>"),
     TEAL_EPARSE,
     {"missing transmission type"}},
    {R("<link name=\"a\"><visual><geometry><sphere radius=\"1\"/></geometry>"
       "<material name=\"nope\"/></visual></link>"),
     TEAL_ENOTFOUND,
     {"<material name=\"nope\">: material 'nope' is not defined"}},
    {R("<material name=\"m\"><color rgba=\"2 0 0 1\"/></material>"),
     TEAL_EINVAL,
     {"<color>: rgba values must lie in [0, 1]"}},
    {R("<material name=\"m\"><color rgba=\"1 0 0 1\"/></material>"
       "<material name=\"m\"><color rgba=\"0 1 0 1\"/></material>"),
     TEAL_EDUPLICATE,
     {"material 'm' is already defined"}},
    {R("<material><color rgba=\"1 0 0 1\"/></material>"),
     TEAL_EPARSE,
     {"<material>: missing attribute 'name'"}},
    {R("<link name=\"a\"><visual><geometry><cone radius=\"1\"/></geometry></visual></link>"),
     TEAL_EPARSE,
     {"<cone>: unknown geometry"}},
    {R("<link name=\"a\"><visual><geometry><sphere radius=\"1\"/><sphere radius=\"1\"/>"
       "</geometry></visual></link>"),
     TEAL_EPARSE,
     {"<geometry>: <geometry> needs exactly one shape"}},
    {R("<link name=\"a\"><visual/></link>"), TEAL_EPARSE, {"<visual>: missing <geometry>"}},
    {R("<link name=\"a\"><collision><geometry><box size=\"1 2\"/></geometry></collision></link>"),
     TEAL_EPARSE,
     {"<box>: attribute size=\"1 2\" needs 3 numbers"}},
    {R("<link name=\"a\"><visual><geometry><sphere radius=\"-1\"/></geometry></visual></link>"),
     TEAL_EINVAL,
     {"<sphere>: shape: sphere radius must be finite and > 0"}},
    {R("<link name=\"a\"><visual><geometry><mesh filename=\"x.obj\" scale=\"1 2 1\"/>"
       "</geometry></visual></link>"),
     TEAL_EINVAL,
     {"<mesh>: only uniform mesh scales"}},
    {R("<link name=\"a\"><visual><geometry><mesh/></geometry></visual></link>"),
     TEAL_EPARSE,
     {"<mesh>: missing attribute 'filename'"}},
    {R("<link name=\"a\">" MASS "<visual name=\"v\"><geometry><sphere radius=\"1\"/></geometry>"
       "</visual><visual name=\"v\"><geometry><sphere radius=\"1\"/></geometry></visual></link>"),
     TEAL_EDUPLICATE,
     {"<visual name=\"v\">: geometry name 'v' is used twice"}},
    {R("<link name=\"a\"><collision><geometry><sphere radius=\"1\"/></geometry>"
       "<drake:proximity_properties><drake:mu_static value=\"0.2\"/>"
       "<drake:mu_dynamic value=\"0.5\"/></drake:proximity_properties></collision></link>"),
     TEAL_EINVAL,
     {"<drake:proximity_properties>: needs friction static >= dynamic"}},
    {R("<link name=\"a\"><collision><geometry><sphere radius=\"1\"/></geometry>"
       "<drake:proximity_properties><drake:point_contact_stiffness value=\"-5\"/>"
       "</drake:proximity_properties></collision></link>"),
     TEAL_EINVAL,
     {"stiffness > 0"}},
    {R("<link name=\"a\"><collision><geometry><sphere radius=\"1\"/></geometry>"
       "<drake:proximity_properties><drake:compliant_hydroelastic/>"
       "</drake:proximity_properties></collision></link>"),
     TEAL_EINVAL,
     {"when compliant hydroelastic, a hydroelastic modulus > 0"}},
    {R("<link name=\"a\"><collision><geometry><sphere radius=\"1\"/></geometry>"
       "<drake:proximity_properties><drake:compliant_hydroelastic/><drake:rigid_hydroelastic/>"
       "</drake:proximity_properties></collision></link>"),
     TEAL_EINVAL,
     {"is both compliant and rigid hydroelastic"}},
    {R("<link name=\"a\"><visual><origin xyz=\"1 2 inf\"/><geometry><sphere radius=\"1\"/>"
       "</geometry></visual></link>"),
     TEAL_ENONFINITE,
     {"<origin>: attribute xyz=\"1 2 inf\" is not finite"}},
    {R(XLINK("a") "<frame name=\"a\" link=\"a\"/>"),
     TEAL_EDUPLICATE,
     {"<frame name=\"a\">: frame name 'a' is used twice"}},
    {R(XLINK("a") "<frame name=\"f\" link=\"zz\"/>"), TEAL_ENOTFOUND, {"link 'zz' not found"}},
    {R(XLINK("a_parent") XLINK("a") XJOINT("a", "fixed", "a_parent", "a", "")),
     TEAL_EDUPLICATE,
     {"frame name 'a_parent' is used twice"}},
    {"<!DOCTYPE robot [<!ENTITY m \"1\">]>"
     "<robot name=\"r\"><link name=\"a\"><inertial><mass value=\"&m;\"/></inertial></link>"
     "</robot>",
     /* refused before the parser runs (see urdf.h, "Limits") */
     TEAL_EPARSE,
     {"<string>:1: malformed XML: a document type declaration with an internal"}},
    {R("<link name=\"a\"/><link name=\"b\"/>" XJOINT("j1", "fixed", "world", "a",
                                                     "<origin xyz=\"1e308 0 0\"/>")
           XJOINT("j2", "fixed", "a", "b", "<origin xyz=\"1e308 0 0\"/>")),
     TEAL_ENONFINITE,
     {"<joint name=\"j2\">: joint pose overflows"}},
    {R(XLINK("a") "<link name=\"b\"><inertial><mass value=\"1e300\"/><origin xyz=\"1e300 0 0\"/>"
                  "</inertial></link>"),
     TEAL_ENONFINITE,
     {"<inertial>: non-physical inertia"}},
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

int main(void) {
  Suite *s = suite_create("urdf_errors");
  TCase *tc = tcase_create("urdf_errors");
  tcase_add_test(tc, error_cases_name_line_and_element);
  tcase_add_test(tc, allocations_balance);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
