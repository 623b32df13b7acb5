/* The same robot in every format: models/acrobot.urdf, models/acrobot.sdf
 * and models/mjcf/acrobot.xml, loaded through the parser's one entry point
 * (parser.h), give the same teal_plant_summary_string text (bodies,
 * joints, masses, dofs, instances) and the same M(q), C(q, v) v, tau_g(q),
 * damping and limits at random states to 1e-12. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "mjcf_compare.h"
#include "multibody/parsing/parser.h"
#include "multibody/tree/plant_summary.h"

static const char *const files[3] = {"acrobot.urdf", "acrobot.sdf", "mjcf/acrobot.xml"};

static teal_plant *load(const char *name) {
  char path[2048];
  teal_error e = {TEAL_OK, ""};
  teal_plant *p = teal_plant_new(0.0, NULL);
  int inst[4], count = 0;
  ck_assert_msg(teal_parser_add_models(p, urdf_test_model_path(name, path, sizeof path), NULL, inst,
                                       4, &count, NULL, &e) == TEAL_OK,
                "%s: %s", name, e.message);
  ck_assert_int_eq(count, 1);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

START_TEST(same_summary_in_every_format) {
  char *text[3];
  for (int i = 0; i < 3; i++) {
    teal_plant *p = load(files[i]);
    text[i] = teal_plant_summary_string(p, NULL);
    ck_assert_ptr_nonnull(text[i]);
    teal_plant_free(p);
  }
  /* a text that says something: the tree with both joints and masses */
  ck_assert_ptr_nonnull(strstr(text[0], "link2 [acrobot]: 1 kg; revolute \"elbow\", q 1, v 1"));
  for (int i = 1; i < 3; i++) {
    ck_assert_msg(strcmp(text[0], text[i]) == 0, "%s:\n%s\n%s:\n%s", files[0], text[0], files[i],
                  text[i]);
  }
  for (int i = 0; i < 3; i++) {
    teal_free(text[i]);
  }
}
END_TEST

START_TEST(same_dynamics_in_every_format) {
  teal_plant *p[3];
  for (int i = 0; i < 3; i++) {
    p[i] = load(files[i]);
  }
  mjcf_test_same_dynamics(p[0], p[1], 20, 1e-12);
  mjcf_test_same_dynamics(p[0], p[2], 20, 1e-12);
  for (int i = 0; i < 3; i++) {
    teal_plant_free(p[i]);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("model_formats");
  TCase *tc = tcase_create("acrobot");
  tcase_add_test(tc, same_summary_in_every_format);
  tcase_add_test(tc, same_dynamics_in_every_format);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
