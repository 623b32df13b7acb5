/* Tests of the model viewer (multibody/visualization/model_view.c): the
 * posing panel's joint motions, composed the way the page composes them
 * (X_WB = X_WP motion(q - q0) D0), give the plant's own body poses at
 * random positions for the acrobot and the 7-dof arm; the page holds the
 * panel; bad input fails with a message. */
#define _XOPEN_SOURCE 700
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/plant/plant_state.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"
#include "teal.h"

enum { MAX_BODIES = 16 };

typedef struct panel_body {
  int parent, kind;
  double q0, lo, hi, D0[7], axis[3], point[3];
} panel_body;

/* Reads the bodies of the panel JSON (fields in the writer's order). */
static int parse_panel(const char *json, panel_body *out) {
  int n = 0;
  for (const char *p = strstr(json, "{\"parent\":"); p && n < MAX_BODIES;
       p = strstr(p + 1, "{\"parent\":")) {
    panel_body *b = &out[n++];
    memset(b, 0, sizeof(*b));
    ck_assert_int_eq(sscanf(p, "{\"parent\":%d,\"kind\":%d", &b->parent, &b->kind), 2);
    const char *q = strstr(p, "\"q0\":");
    const char *next = strstr(p + 1, "{\"parent\":");
    if (!q || (next && q > next)) {
      continue; /* the world */
    }
    ck_assert_int_eq(sscanf(q, "\"q0\":%lf,\"lo\":%lf,\"hi\":%lf", &b->q0, &b->lo, &b->hi), 3);
    const char *d = strstr(q, "\"D0\":[");
    ck_assert_int_eq(
        sscanf(d,
               "\"D0\":[%lf,%lf,%lf,%lf,%lf,%lf,%lf],\"axis\":[%lf,%lf,%lf],"
               "\"point\":[%lf,%lf,%lf]",
               &b->D0[0], &b->D0[1], &b->D0[2], &b->D0[3], &b->D0[4], &b->D0[5], &b->D0[6],
               &b->axis[0], &b->axis[1], &b->axis[2], &b->point[0], &b->point[1], &b->point[2]),
        13);
  }
  return n;
}

/* The page's composition, in C. */
static teal_transform panel_pose(const panel_body *bodies, int i, const double *q_of_body) {
  const panel_body *b = &bodies[i];
  if (i == 0) {
    return teal_transform_identity();
  }
  teal_quaternion qd = teal_quaternion_make(b->D0[3], b->D0[4], b->D0[5], b->D0[6]);
  teal_transform D0 = teal_transform_make(teal_rotation_from_quaternion(qd),
                                          teal_vec3_make(b->D0[0], b->D0[1], b->D0[2]));
  teal_vec3 a = teal_vec3_make(b->axis[0], b->axis[1], b->axis[2]);
  teal_vec3 p = teal_vec3_make(b->point[0], b->point[1], b->point[2]);
  double dq = q_of_body[i] - b->q0;
  teal_transform motion = teal_transform_identity();
  if (b->kind == 1) { /* x -> R (x - p) + p */
    motion.R = teal_rotation_from_axis_angle(a, dq);
    motion.p = teal_vec3_sub(p, teal_rotation_apply(motion.R, p));
  } else if (b->kind == 2) {
    motion.p = teal_vec3_scale(a, dq);
  }
  return teal_transform_compose(
      teal_transform_compose(panel_pose(bodies, b->parent, q_of_body), motion), D0);
}

/* Each slider spans its joint's position limits where they are finite (the
 * URDF's), else q0 -+ pi (rotation) or q0 -+ 1 m (slide). */
static void expect_slider_ranges(const teal_plant *plant, const panel_body *bodies, int nb) {
  const teal_plant_tree *t = teal_plant_get_tree(plant);
  for (int b = 1; b < nb; b++) {
    if (!bodies[b].kind) {
      continue;
    }
    int start = teal_plant_joint_q_start(plant, teal_plant_body_joint(plant, b));
    double span = bodies[b].kind == 1 ? M_PI : 1.0;
    double lo = isfinite(t->q_lower[start]) ? t->q_lower[start] : bodies[b].q0 - span;
    double hi = isfinite(t->q_upper[start]) ? t->q_upper[start] : bodies[b].q0 + span;
    ck_assert_double_eq_tol(bodies[b].lo, lo, 1e-8 * (1 + fabs(lo))); /* printed %.9g */
    ck_assert_double_eq_tol(bodies[b].hi, hi, 1e-8 * (1 + fabs(hi)));
    ck_assert_double_lt(bodies[b].lo, bodies[b].hi);
  }
}

static void expect_panel_matches(const char *model) {
  teal_error err = {0, ""};
  teal_plant *plant = teal_plant_new(0.0, &err);
  ck_assert_int_ge(teal_urdf_load_file(plant, model, NULL, &err), 0);
  ck_assert_int_eq(teal_plant_finalize(plant), TEAL_OK);
  char *json = teal_plant_pose_panel_json(plant, NULL, &err);
  ck_assert_msg(json != NULL, "%s", err.message);
  panel_body bodies[MAX_BODIES];
  int nb = parse_panel(json, bodies);
  ck_assert_int_eq(nb, teal_plant_num_bodies(plant));
  expect_slider_ranges(plant, bodies, nb);
  teal_context *ctx = teal_context_new(teal_plant_system(plant), &err);
  int nq = teal_plant_nq(plant);
  double q[16], q_of_body[MAX_BODIES] = {0};
  unsigned seed = 7;
  for (int trial = 0; trial < 5; trial++) {
    for (int i = 0; i < nq; i++) {
      q[i] = ts_rand_uniform(&seed, -2.0, 2.0);
    }
    for (int b = 1; b < nb; b++) {
      int start = teal_plant_joint_q_start(plant, teal_plant_body_joint(plant, b));
      q_of_body[b] = bodies[b].kind ? q[start] : 0.0;
    }
    const teal_transform *X_WB;
    ck_assert_int_eq(teal_plant_set_positions(plant, ctx, q, nq), TEAL_OK);
    ck_assert_int_eq(teal_plant_eval_body_poses(plant, ctx, &X_WB), TEAL_OK);
    for (int b = 1; b < nb; b++) {
      teal_transform X = panel_pose(bodies, b, q_of_body);
      for (int k = 0; k < 3; k++) {
        ck_assert_double_eq_tol(X.p.v[k], X_WB[b].p.v[k], 1e-6);
      }
      for (int k = 0; k < 9; k++) {
        ck_assert_double_eq_tol(X.R.m[k], X_WB[b].R.m[k], 1e-6);
      }
    }
  }
  teal_free(json);
  teal_context_free(ctx);
  teal_plant_free(plant);
}

START_TEST(panel_reproduces_acrobot_kinematics) {
  expect_panel_matches(TEAL_MODELS_DIR "/acrobot.urdf");
}
END_TEST

START_TEST(panel_reproduces_arm_kinematics) {
  expect_panel_matches(TEAL_MODELS_DIR "/iiwa7_like.urdf");
}
END_TEST

START_TEST(cart_pole_prismatic_joint) {
  expect_panel_matches(TEAL_MODELS_DIR "/cart_pole.urdf");
}
END_TEST

START_TEST(model_page_holds_the_panel) {
  char three[4096];
  snprintf(three, sizeof(three), "%s/build/three.min.js", teal_replay_three_dir(NULL));
  FILE *probe = fopen(three, "rb");
  if (!probe) {
    fprintf(stderr, "SKIP model_page_holds_the_panel: libjs-three is not installed\n");
    return;
  }
  fclose(probe);
  teal_error err = {0, ""};
  const char *page = "test_model_view.html";
  ck_assert_msg(
      teal_urdf_write_model_html(TEAL_MODELS_DIR "/acrobot.urdf", page, NULL, &err) == TEAL_OK,
      "%s", err.message);
  FILE *f = fopen(page, "rb");
  static char text[4 << 20];
  size_t n = fread(text, 1, sizeof(text) - 1, f);
  text[n] = '\0';
  fclose(f);
  ck_assert_ptr_nonnull(strstr(text, "TEAL_REPLAY.panel = {\"bodies\":"));
  ck_assert_ptr_nonnull(strstr(text, "\"name\":\"elbow\""));
  ck_assert_ptr_nonnull(strstr(text, "\"geometry_body\":{\"0\":0,"));
  ck_assert_ptr_nonnull(strstr(text, "\"times\":[0]"));
  remove(page);
  /* any format the parser reads: the same URDF as .xml, found by its root */
  FILE *in = fopen(TEAL_MODELS_DIR "/acrobot.urdf", "rb");
  n = fread(text, 1, sizeof(text) - 1, in);
  fclose(in);
  FILE *copy = fopen("test_model_view_acrobot.xml", "wb");
  ck_assert_uint_eq(fwrite(text, 1, n, copy), n);
  fclose(copy);
  ck_assert_msg(teal_model_write_html("test_model_view_acrobot.xml", page, NULL, &err) == TEAL_OK,
                "%s", err.message);
  f = fopen(page, "rb");
  n = fread(text, 1, sizeof(text) - 1, f);
  text[n] = '\0';
  fclose(f);
  ck_assert_ptr_nonnull(strstr(text, "\"name\":\"elbow\""));
  remove(page);
  remove("test_model_view_acrobot.xml");
}
END_TEST

START_TEST(bad_model_view_arguments) {
  teal_error err;
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_plant_pose_panel_json(NULL, NULL, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "NULL plant");
  teal_plant *open = teal_plant_new(0.0, NULL);
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_plant_pose_panel_json(open, NULL, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "not finalized");
  teal_plant_free(open);
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_urdf_write_model_html(NULL, "a.html", NULL, &err), TEAL_EINVAL, &err,
                  "model_path is NULL");
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_model_write_html("acrobot.urdf", NULL, NULL, &err), TEAL_EINVAL, &err,
                  "html_path is NULL");
  ts_stale_error(&err);
  int rc = teal_urdf_write_model_html("/nonexistent/model.urdf", "a.html", NULL, &err);
  ck_assert_int_lt(rc, 0);
  ck_assert_ptr_nonnull(strstr(err.message, "/nonexistent/model.urdf"));
  teal_replay_options o = teal_replay_options_default();
  o.three_dir = "/nonexistent/three";
  ts_stale_error(&err);
  TS_EXPECT_ERROR(
      teal_urdf_write_model_html(TEAL_MODELS_DIR "/acrobot.urdf", "never.html", &o, &err),
      TEAL_ENOTFOUND, &err, "three.min.js");
}
END_TEST

static Suite *model_view_suite(void) {
  Suite *s = suite_create("model_view");
  TCase *tc = tcase_create("panel");
  tcase_add_test(tc, panel_reproduces_acrobot_kinematics);
  tcase_add_test(tc, panel_reproduces_arm_kinematics);
  tcase_add_test(tc, cart_pole_prismatic_joint);
  tcase_add_test(tc, model_page_holds_the_panel);
  tcase_add_test(tc, bad_model_view_arguments);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(model_view_suite());
}
