/* SDFormat parser errors (multibody/parsing/sdf*.c): every bad document
 * fails with its code and a message naming the source, line and element,
 * and leaves the plant exactly as it was (it still loads a good model and
 * finalizes); bad arguments and options; include failures (missing,
 * cyclic); nesting limits; refused DTD subsets. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "multibody/parsing/sdf.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

#define HEAD "<sdf version='1.8'><model name='m'>"
#define TAIL "</model></sdf>"
#define LINK(n) "<link name='" n "'/>"

typedef struct bad_case {
  const char *xml;
  int code;
  const char *needle;
} bad_case;

static const bad_case cases[] = {
    /* frames and poses */
    {HEAD LINK("a") "<frame name='f'><pose relative_to='nowhere'/></frame>" TAIL, TEAL_ENOTFOUND,
     "<pose>: relative_to frame 'nowhere' not found"},
    {HEAD LINK("a") "<frame name='f' attached_to='ghost'/>" TAIL, TEAL_ENOTFOUND,
     "<frame name=\"f\">: attached_to frame 'ghost' not found"},
    {HEAD LINK("a") "<frame name='A'><pose relative_to='B'/></frame>"
                    "<frame name='B'><pose relative_to='A'/></frame>" TAIL,
     TEAL_EINVAL, "cycle of relative_to poses through frame 'm::"},
    {HEAD LINK("a") "<model name='in'><pose relative_to='in::x'/>" LINK("x") "</model>" TAIL,
     TEAL_EINVAL, "cycle of relative_to poses"},
    {HEAD LINK("a") "<frame name='A' attached_to='B'><pose relative_to='a'/></frame>"
                    "<frame name='B' attached_to='A'><pose relative_to='a'/></frame>" TAIL,
     TEAL_EINVAL, "cycle of attached_to"},
    {HEAD LINK("a") "<frame name='A'><pose relative_to='A'/></frame>" TAIL, TEAL_EINVAL,
     "frame 'm::A' is relative to itself"},
    {HEAD LINK("a") "<frame name='A'><pose rotation_format='quat_xyzw'>0 0 0 0 0 0 1</pose>"
                    "</frame>" TAIL,
     TEAL_EPARSE, "rotation_format 'quat_xyzw' is not supported"},
    /* numbers */
    {HEAD "<link name='a'><pose>1 2 x 0 0 0</pose></link>" TAIL, TEAL_EPARSE,
     "<pose>: '1 2 x 0 0 0' is not 6 numbers"},
    {HEAD "<link name='a'><pose>1 2 3</pose></link>" TAIL, TEAL_EPARSE, "is not 6 numbers"},
    {HEAD "<link name='a'><pose>nan 0 0 0 0 0</pose></link>" TAIL, TEAL_ENONFINITE,
     "is not finite"},
    {HEAD "<link name='a'><pose>1e308 0 0 0 0 0</pose></link><link name='b'>"
          "<pose relative_to='a'>1e308 0 0 0 0 0</pose></link>" TAIL,
     TEAL_ENONFINITE, "pose of 'm::b' overflows"},
    {HEAD "<link name='a'><inertial><mass>-1</mass></inertial></link>" TAIL, TEAL_EINVAL,
     "negative mass -1"},
    {HEAD "<link name='a'><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy>"
          "<izz>5</izz></inertia></inertial></link>" TAIL,
     TEAL_EINVAL, "non-physical inertia"},
    {HEAD "<link name='a'><inertial><mass>one</mass></inertial></link>" TAIL, TEAL_EPARSE,
     "<mass>: 'one' is not 1 number"},
    /* joints */
    {HEAD LINK("a") LINK("b") "<joint name='j' type='revolve'><parent>a</parent><child>b</child>"
                              "</joint>" TAIL,
     TEAL_EPARSE, "<joint name=\"j\">: unknown or unsupported joint type 'revolve'"},
    {HEAD LINK("a") "<joint name='j' type='fixed'><parent>a</parent><child>zz</child></joint>" TAIL,
     TEAL_ENOTFOUND, "child frame 'zz' not found"},
    {HEAD LINK("a") "<joint name='j' type='fixed'><parent>a</parent></joint>" TAIL, TEAL_EPARSE,
     "<joint name=\"j\">: missing <child>"},
    {HEAD LINK("a") "<frame name='f'/><joint name='j' type='fixed'><parent>a</parent>"
                    "<child>f</child></joint>" TAIL,
     TEAL_EINVAL, "child 'f' is not a link of the joint's model"},
    {HEAD LINK("a") LINK("b") "<joint name='j' type='universal'><parent>a</parent><child>b</child>"
                              "<axis><xyz>1 0 0</xyz></axis><axis2><xyz>1 1 0</xyz></axis2>"
                              "</joint>" TAIL,
     TEAL_EINVAL, "<axis2>: a universal joint's <axis> and <axis2> must be orthogonal"},
    {HEAD LINK("a") LINK("b") "<joint name='j' type='screw'><parent>a</parent><child>b</child>"
                              "</joint>" TAIL,
     TEAL_EPARSE, "a screw joint needs <screw_thread_pitch>"},
    {HEAD LINK("a") LINK("b") "<joint name='j' type='revolute'><parent>a</parent><child>b</child>"
                              "<axis><xyz>0 0 0</xyz></axis></joint>" TAIL,
     TEAL_EINVAL, "<xyz>: zero or unusable axis"},
    {HEAD LINK("a") LINK("b") "<joint name='j' type='revolute'><parent>a</parent><child>b</child>"
                              "<axis><limit><lower>2</lower><upper>1</upper></limit></axis>"
                              "</joint>" TAIL,
     TEAL_EINVAL, "<limit>: lower limit 2 above upper limit 1"},
    {HEAD LINK("a") LINK("b") "<joint name='j' type='revolute'><parent>a</parent><child>b</child>"
                              "<axis><xyz expressed_in='nope'>1 0 0</xyz></axis></joint>" TAIL,
     TEAL_ENOTFOUND, "expressed_in frame 'nope' not found"},
    {HEAD "<link name='a'><inertial><mass>0</mass></inertial></link>" LINK(
         "b") "<joint name='j' type='revolute'><parent>b</parent><child>a</child></joint>" TAIL,
     TEAL_EINVAL, "massless link"},
    /* names */
    {HEAD LINK("a") LINK("a") TAIL, TEAL_EDUPLICATE, "duplicate frame name 'm::a'"},
    {HEAD LINK("a::b") TAIL, TEAL_EINVAL, "'a::b' is not a valid name"},
    {HEAD LINK("__model__") TAIL, TEAL_EINVAL, "'__model__' is not a valid name"},
    {"<sdf version='1.8'><world name='w'><model name='m'>" LINK(
         "a") "</model><model name='m'>" LINK("a") "</model></world></sdf>",
     TEAL_EDUPLICATE, "duplicate frame name 'm'"},
    {"<sdf version='1.8'><world name='w'><model name='p'>" LINK(
         "a") "</model><model name='q'>" LINK("b") "<frame name='f' attached_to='p::a'/></model>"
                                                   "</world></sdf>",
     TEAL_ENOTFOUND, "attached_to frame 'p::a' not found"},
    /* geometry */
    {HEAD "<link name='a'><collision name='c'/></link>" TAIL, TEAL_EPARSE,
     "<collision name=\"c\">: missing <geometry>"},
    {HEAD "<link name='a'><visual name='v'><geometry><cone/></geometry></visual></link>" TAIL,
     TEAL_EPARSE, "unsupported shape <cone>"},
    {HEAD "<link name='a'><visual name='v'><geometry><sphere><radius>-1</radius></sphere>"
          "</geometry></visual></link>" TAIL,
     TEAL_EINVAL, "<sphere>:"},
    {HEAD "<link name='a'><visual name='v'><geometry><box/></geometry></visual></link>" TAIL,
     TEAL_EPARSE, "<box>: missing <size>"},
    {HEAD "<link name='a'><visual name='v'><geometry><sphere><radius>1</radius></sphere>"
          "</geometry><material><diffuse>2 0 0 1</diffuse></material></visual></link>" TAIL,
     TEAL_EINVAL, "is not an rgba color"},
    {HEAD "<link name='a'><collision name='c'><geometry><sphere><radius>1</radius></sphere>"
          "</geometry><drake:proximity_properties><drake:mu_static>-1</drake:mu_static>"
          "</drake:proximity_properties></collision></link>" TAIL,
     TEAL_EINVAL, "invalid proximity properties"},
    {HEAD "<link name='a'><collision name='c'><geometry><sphere><radius>1</radius></sphere>"
          "</geometry><drake:proximity_properties><drake:compliant_hydroelastic/>"
          "</drake:proximity_properties></collision></link>" TAIL,
     TEAL_EINVAL, "a hydroelastic modulus > 0 when compliant hydroelastic"},
    {HEAD "<link name='a'><collision name='c'><geometry><sphere><radius>1</radius></sphere>"
          "</geometry><drake:proximity_properties><drake:rigid_hydroelastic/>"
          "<drake:compliant_hydroelastic/></drake:proximity_properties></collision></link>" TAIL,
     TEAL_EINVAL, "<drake:compliant_hydroelastic>: is both compliant and rigid hydroelastic"},
    /* documents */
    {"<sdf version='1.6'><model name='m'>" LINK("a") TAIL, TEAL_EPARSE,
     "SDFormat version '1.6' is not supported (1.7 or later)"},
    {"<sdf><model name='m'>" LINK("a") TAIL, TEAL_EPARSE, "missing attribute 'version'"},
    {"<robot name='r'/>", TEAL_EPARSE, "the root element must be <sdf>"},
    {"<sdf version='1.8'/>", TEAL_EPARSE, "no <model> to load"},
    {HEAD TAIL, TEAL_EPARSE, "model 'm' has no link"},
    {"<sdf version='1.8'><model name='m'>", TEAL_EPARSE, "malformed XML"},
    {"<!DOCTYPE sdf [<!ENTITY a 'aaaa'>]><sdf version='1.8'/>", TEAL_EPARSE, "internal subset"},
    /* no external entities (XXE): the DTD is not loaded, so the entity is unknown */
    {"<!DOCTYPE sdf SYSTEM '/etc/passwd'><sdf version='1.8'><model name='m'><link name='a'>"
     "<pose>&xxe; 0 0 0 0 0</pose></link></model></sdf>",
     TEAL_EPARSE, "malformed XML: Entity 'xxe' not defined"},
    {HEAD "<include><uri>model://no_such_model_here</uri></include>" TAIL, TEAL_ENOTFOUND,
     "<include>: include: "},
    {HEAD "<include><uri>no/such/dir</uri></include>" TAIL, TEAL_ENOTFOUND,
     "include 'no/such/dir': no file"},
    {HEAD "<include/>" TAIL, TEAL_EPARSE, "<include>: missing <uri>"},
    {HEAD "<link name='a'><collision name='c'><geometry><mesh><uri>/no/such.obj</uri></mesh>"
          "</geometry></collision></link>" TAIL,
     TEAL_EIO, "<collision name=\"c\">: collision mesh: "},
    {HEAD "<link name='a'><visual name='v'><geometry><mesh><uri>package://no_such_pkg/m.obj"
          "</uri></mesh></geometry></visual></link>" TAIL,
     TEAL_ENOTFOUND, "<mesh>: teal_model_path_resolve_package: package 'no_such_pkg'"},
    {HEAD "<link name='a'><visual name='v'><geometry><mesh><uri>m.obj</uri><scale>1 2 1</scale>"
          "</mesh></geometry></visual></link>" TAIL,
     TEAL_EINVAL, "only uniform mesh scales are supported"},
};

/* A plant holding one model already, and its counts. */
static teal_plant *plant_with_model(int counts[4]) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {TEAL_OK, ""};
  ck_assert_int_eq(teal_sdf_load_string(p, HEAD LINK("a") TAIL, &e), 2);
  counts[0] = teal_plant_num_model_instances(p);
  counts[1] = teal_plant_num_bodies(p);
  counts[2] = teal_plant_num_frames(p);
  counts[3] = teal_plant_num_joints(p);
  return p;
}

/* The plant is as it was, not failed, and still takes a model. */
static void assert_untouched(teal_plant *p, const int counts[4]) {
  ck_assert_int_eq(teal_plant_num_model_instances(p), counts[0]);
  ck_assert_int_eq(teal_plant_num_bodies(p), counts[1]);
  ck_assert_int_eq(teal_plant_num_frames(p), counts[2]);
  ck_assert_int_eq(teal_plant_num_joints(p), counts[3]);
  ck_assert_int_eq(teal_plant_error(p)->code, TEAL_OK);
  teal_error e = {TEAL_OK, ""};
  ck_assert_int_eq(
      teal_sdf_load_string(p, "<sdf version='1.8'><model name='ok'>" LINK("a") TAIL, &e),
      counts[0]);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
}

START_TEST(bad_documents) {
  int i = _i, counts[4];
  teal_plant *p = plant_with_model(counts);
  teal_error e = {TEAL_OK, TS_STALE};
  TS_EXPECT_ERROR(teal_sdf_load_string(p, cases[i].xml, &e), cases[i].code, &e, cases[i].needle);
  ck_assert_msg(strncmp(e.message, "<string>", 8) == 0, "case %d: %s", i, e.message);
  assert_untouched(p, counts);
  teal_plant_free(p);
}
END_TEST

/* Messages give the line of the element. */
START_TEST(line_numbers) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {TEAL_OK, ""};
  TS_EXPECT_ERROR(teal_sdf_load_string(p,
                                       "<sdf version='1.8'>\n<model name='m'>\n<link name='a'/>\n"
                                       "<joint name='j' type='hinge'>\n</joint></model></sdf>",
                                       &e),
                  TEAL_EPARSE, &e, "<string>:4: <joint name=\"j\">: ");
  teal_plant_free(p);
}
END_TEST

START_TEST(bad_arguments) {
  teal_error e = {TEAL_OK, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_sdf_options o;
  teal_sdf_options_init(&o);
  ck_assert_int_eq(o.max_depth, TEAL_SDF_DEFAULT_MAX_DEPTH);
  TS_EXPECT_ERROR(teal_sdf_load_string(NULL, HEAD LINK("a") TAIL, &e), TEAL_EINVAL, &e,
                  "NULL plant");
  TS_EXPECT_ERROR(teal_sdf_load_string(p, NULL, &e), TEAL_EINVAL, &e, "sdf: NULL document");
  TS_EXPECT_ERROR(teal_sdf_load_file(p, NULL, &e), TEAL_EINVAL, &e, "sdf: NULL path");
  TS_EXPECT_ERROR(teal_sdf_load_file(p, "/no/such/file.sdf", &e), TEAL_EIO, &e, "cannot open");
  o.max_depth = 0;
  TS_EXPECT_ERROR(teal_sdf_load_string_opts(p, HEAD LINK("a") TAIL, &o, NULL, &e), TEAL_EINVAL, &e,
                  "max_depth (0)");
  teal_sdf_options_init(&o);
  o.max_bytes = 10;
  TS_EXPECT_ERROR(teal_sdf_load_string_opts(p, HEAD LINK("a") TAIL, &o, NULL, &e), TEAL_ESIZE, &e,
                  "teal_sdf_options.max_bytes");
  /* nesting deeper than max_depth */
  teal_sdf_options_init(&o);
  o.max_depth = 2;
  TS_EXPECT_ERROR(teal_sdf_load_string_opts(
                      p,
                      HEAD LINK("a") "<model name='b'><model name='c'><model name='d'>" LINK(
                          "x") "</model></model></model>" TAIL,
                      &o, NULL, &e),
                  TEAL_ESIZE, &e, "models nested deeper than 2");
  ck_assert_int_eq(teal_plant_num_model_instances(p), 2);
  /* an instance name for a world of two models, or an empty one */
  teal_sdf_options_init(&o);
  o.instance_name = "x";
  TS_EXPECT_ERROR(teal_sdf_load_string_opts(p,
                                            "<sdf version='1.8'><world name='w'><model name='a'>"
                                            "<link name='l'/></model><model name='b'>"
                                            "<link name='l'/></model></world></sdf>",
                                            &o, NULL, &e),
                  TEAL_EINVAL, &e, "an instance name ('x') for a document of 2 models");
  o.instance_name = "";
  TS_EXPECT_ERROR(teal_sdf_load_string_opts(p, HEAD LINK("a") TAIL, &o, NULL, &e), TEAL_EINVAL, &e,
                  "empty instance name");
  /* an instance name already in the plant */
  ck_assert_int_eq(teal_sdf_load_string(p, HEAD LINK("a") TAIL, &e), 2);
  TS_EXPECT_ERROR(teal_sdf_load_string(p, HEAD LINK("a") TAIL, &e), TEAL_EDUPLICATE, &e, "'m'");
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  TS_EXPECT_ERROR(teal_sdf_load_string(p, HEAD LINK("a") TAIL, &e), TEAL_ESTATE, &e,
                  "already finalized");
  teal_plant_free(p);
}
END_TEST

/* A file that includes itself through another, and one that includes a
 * broken model: errors name the included file. */
START_TEST(include_errors) {
  char dir[] = "/tmp/teal_sdf_err_XXXXXX", a[256], b[256], c[256];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(a, sizeof a, "%s/a.sdf", dir);
  snprintf(b, sizeof b, "%s/b.sdf", dir);
  snprintf(c, sizeof c, "%s/c.sdf", dir);
  ts_write_text(a, HEAD LINK("l") "<include><uri>b.sdf</uri></include>" TAIL);
  ts_write_text(b, "<sdf version='1.8'><model name='n'>" LINK(
                       "l") "<include><uri>a.sdf</uri><name>again</name></include>" TAIL);
  ts_write_text(c, HEAD LINK("l") "<include><uri>broken.sdf</uri></include>" TAIL);
  char broken[256];
  snprintf(broken, sizeof broken, "%s/broken.sdf", dir);
  ts_write_text(broken,
                "<sdf version='1.8'><model name='x'>\n<link name='l'><pose>a</pose></link>" TAIL);
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_error e = {TEAL_OK, ""};
  TS_EXPECT_ERROR(teal_sdf_load_file(p, a, &e), TEAL_EINVAL, &e,
                  "b.sdf:1: <include>: include "
                  "cycle");
  TS_EXPECT_ERROR(teal_sdf_load_file(p, c, &e), TEAL_EPARSE, &e, "broken.sdf:2: <pose>: ");
  ck_assert_int_eq(teal_plant_num_model_instances(p), 2);
  teal_plant_free(p);
  unlink(a);
  unlink(b);
  unlink(c);
  unlink(broken);
  rmdir(dir);
}
END_TEST

static Suite *sdf_errors_suite(void) {
  Suite *s = suite_create("sdf_errors");
  TCase *tc = tcase_create("core");
  tcase_add_loop_test(tc, bad_documents, 0, (int)(sizeof(cases) / sizeof(cases[0])));
  tcase_add_test(tc, line_numbers);
  tcase_add_test(tc, bad_arguments);
  tcase_add_test(tc, include_errors);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(sdf_errors_suite());
}
