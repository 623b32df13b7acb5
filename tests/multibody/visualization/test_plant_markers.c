/* Tests of the plant's markers (multibody/visualization/plant_markers.c)
 * recorded by the visualizer: a ball resting on the ground carries its
 * weight through the recorded contact forces (sum f_z = m g), the recorded
 * centre of mass equals the plant's own CalcCenterOfMassPosition, the
 * markers reach the replay page, a hydroelastic contact has its marker
 * (its force at its surface centroid), and bad input fails with a
 * message. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "multibody/contact/plant_scene_graph.h"
#include "multibody/plant/plant_parameters.h"
#include "multibody/plant/plant_state.h"
#include "support/error_messages.h"
#include "support/mb_contact_fixtures.h"
#include "support/test_support.h"
#include "teal.h"

#define GRAVITY 9.81

typedef struct marker_world {
  ts_contact_world w;
  teal_system *viz;
  int ball;
} marker_world;

/* A ball of mass 1 and radius 0.1 on flat ground, discrete at 1 ms, with
 * a visualizer (collision geometry drawn) fed the plant's markers. */
static marker_world ball_on_ground(void) {
  marker_world m = {0};
  teal_error err = {0, ""};
  teal_builder *b = teal_builder_new("ball");
  m.w.plant = teal_plant_new(1e-3, &err);
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, m.w.plant, &err);
  ck_assert_msg(sg != NULL, "%s", err.message);
  ts_contact_add_ground(m.w.plant, 0.0, 0.5, NAN);
  ts_contact_body_with_sphere(m.w.plant, "ball", &m.ball);
  ck_assert_int_eq(teal_plant_finalize(m.w.plant), TEAL_OK);
  teal_visualizer_options o = teal_visualizer_options_default();
  o.include_proximity = 1;
  m.viz = teal_add_visualizer(b, sg, &o, &err);
  ck_assert_msg(m.viz != NULL, "%s", err.message);
  ck_assert_msg(teal_add_plant_markers(b, m.w.plant, m.viz, &err) != NULL, "%s", err.message);
  ts_contact_build(&m.w, b);
  teal_transform X_WB = teal_transform_identity();
  X_WB.p = teal_vec3_make(0.2, -0.1, 0.099);
  ck_assert_int_eq(teal_plant_set_free_body_pose(m.w.plant, m.w.ctx, m.ball, X_WB), TEAL_OK);
  return m;
}

START_TEST(resting_ball_contact_forces_carry_its_weight) {
  marker_world m = ball_on_ground();
  ts_contact_advance(&m.w, 1.0);
  const teal_scene_recording *rec = teal_visualizer_recording(m.viz, m.w.ctx);
  int k = rec->count - 1;
  ck_assert_double_eq_tol(rec->times[k], 1.0, 1e-12);
  double fz = 0.0;
  int contacts = 0, coms = 0;
  for (int i = rec->marker_start[k]; i < rec->marker_start[k + 1]; i++) {
    const teal_marker *mk = &rec->markers[i];
    if (mk->kind == TEAL_MARKER_CONTACT) {
      fz += mk->v_W.v[2];
      contacts++;
      ck_assert_double_lt(fabs(mk->p_W.v[2]), 2e-3); /* on the ground plane */
    } else {
      coms++;
    }
  }
  ck_assert_int_ge(contacts, 1);
  ck_assert_int_eq(coms, 1);
  /* f_Bc_W acts on B: the ball or the ground, so compare magnitudes */
  ck_assert_double_eq_tol(fabs(fz), 1.0 * GRAVITY, 0.01 * GRAVITY);
  ck_assert_int_eq(rec->skipped_markers, 0);
  ts_contact_world_free(&m.w);
}
END_TEST

START_TEST(center_of_mass_matches_the_plant) {
  marker_world m = ball_on_ground();
  ts_contact_advance(&m.w, 0.2);
  const teal_scene_recording *rec = teal_visualizer_recording(m.viz, m.w.ctx);
  int k = rec->count - 1;
  teal_vec3 p_WScm;
  ck_assert_int_eq(teal_plant_calc_center_of_mass_position(m.w.plant, m.w.ctx, NULL, 0, &p_WScm),
                   TEAL_OK);
  const teal_marker *com = &rec->markers[rec->marker_start[k + 1] - 1];
  ck_assert_int_eq(com->kind, TEAL_MARKER_CENTER_OF_MASS);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(com->p_W.v[i], p_WScm.v[i], 1e-12);
  }
  ck_assert_double_eq_tol(com->p_W.v[0], 0.2, 1e-3); /* it stayed put */
  /* every frame has its centre of mass */
  ck_assert_int_eq(rec->marker_start[rec->count], rec->num_markers);
  for (int f = 0; f < rec->count; f++) {
    ck_assert_int_ge(rec->marker_start[f + 1] - rec->marker_start[f], 1);
  }
  ts_contact_world_free(&m.w);
}
END_TEST

START_TEST(markers_reach_the_page) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/build/three.min.js", teal_replay_three_dir(NULL));
  FILE *probe = fopen(path, "rb");
  if (!probe) {
    fprintf(stderr, "SKIP markers_reach_the_page: libjs-three is not installed\n");
    return;
  }
  fclose(probe);
  marker_world m = ball_on_ground();
  ts_contact_advance(&m.w, 0.1);
  const teal_scene_recording *rec = teal_visualizer_recording(m.viz, m.w.ctx);
  teal_error err = {0, ""};
  const char *page = "test_plant_markers_replay.html";
  ck_assert_msg(teal_scene_recording_write_html(rec, page, NULL, &err) == TEAL_OK, "%s",
                err.message);
  FILE *f = fopen(page, "rb");
  ck_assert_ptr_nonnull(f);
  static char text[4 << 20];
  size_t n = fread(text, 1, sizeof(text) - 1, f);
  text[n] = '\0';
  fclose(f);
  /* frame 0: the contact (kind 0) then the centre of mass (kind 1) */
  ck_assert_ptr_nonnull(strstr(text, "\"markers\":[[0,"));
  ck_assert_ptr_nonnull(strstr(text, ",1,0.2,-0.1,0.099,0,0,0],"));
  ck_assert_ptr_nonnull(strstr(text, "\"shape\":\"half_space\""));
  remove(page);
  ts_contact_world_free(&m.w);
}
END_TEST

START_TEST(bad_plant_markers_arguments) {
  teal_error err;
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_plant_markers_new(NULL, NULL, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "NULL plant");
  teal_plant *open = teal_plant_new(0.0, NULL);
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_plant_markers_new(open, "m", &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_ESTATE, &err, "not finalized");
  ck_assert_int_eq(teal_plant_finalize(open), TEAL_OK); /* only the world: no mass */
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_plant_markers_new(open, "m", &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "no mass");
  teal_builder *b = teal_builder_new("b");
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_add_plant_markers(b, open, NULL, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "NULL visualizer");
  ts_stale_error(&err);
  ck_assert_ptr_null(teal_add_plant_markers(NULL, open, NULL, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_EINVAL, &err, "NULL builder");
  teal_builder_free(b);
  teal_plant_free(open);
}
END_TEST

/* A continuous plant with the hydroelastic model: a soft ball (E = 1e4 Pa)
 * pressed 5 mm into rigid ground, with the visualizer and markers. */
static marker_world soft_ball_on_ground(void) {
  marker_world m = {0};
  teal_error err = {0, ""};
  teal_builder *b = teal_builder_new("soft");
  m.w.plant = teal_plant_new(0.0, &err);
  ck_assert_int_eq(teal_plant_set_contact_model(m.w.plant, TEAL_CONTACT_MODEL_HYDROELASTIC),
                   TEAL_OK);
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, m.w.plant, &err);
  ck_assert_msg(sg != NULL, "%s", err.message);
  teal_shape hs, ball;
  teal_shape_half_space(&hs);
  teal_shape_sphere(0.1, &ball, NULL);
  teal_proximity_properties rigid = teal_proximity_properties_make(0.5, 0.5);
  rigid.compliance = TEAL_HYDROELASTIC_RIGID;
  teal_proximity_properties soft = teal_proximity_properties_make(0.5, 0.5);
  soft.compliance = TEAL_HYDROELASTIC_SOFT;
  soft.hydroelastic_modulus = 1e4;
  ck_assert_int_ge(teal_plant_register_collision_geometry(
                       m.w.plant, TEAL_WORLD_BODY, teal_transform_identity(), &hs, "g", &rigid),
                   0);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  m.ball = teal_plant_add_rigid_body(m.w.plant, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_ge(teal_plant_register_collision_geometry(
                       m.w.plant, m.ball, teal_transform_identity(), &ball, "ball", &soft),
                   0);
  ck_assert_int_eq(teal_plant_finalize(m.w.plant), TEAL_OK);
  teal_visualizer_options o = teal_visualizer_options_default();
  m.viz = teal_add_visualizer(b, sg, &o, &err);
  ck_assert_msg(m.viz != NULL, "%s", err.message);
  ck_assert_msg(teal_add_plant_markers(b, m.w.plant, m.viz, &err) != NULL, "%s", err.message);
  ts_contact_build(&m.w, b);
  teal_transform X_WB = teal_transform_identity();
  X_WB.p = teal_vec3_make(0.0, 0.0, 0.095);
  ck_assert_int_eq(teal_plant_set_free_body_pose(m.w.plant, m.w.ctx, m.ball, X_WB), TEAL_OK);
  return m;
}

START_TEST(hydroelastic_contact_has_its_marker) {
  marker_world m = soft_ball_on_ground();
  const teal_contact_results *r;
  ck_assert_int_eq(teal_plant_eval_contact_results(m.w.plant, m.w.ctx, &r), TEAL_OK);
  ck_assert_int_eq(r->num_hydroelastic, 1);
  const teal_hydroelastic_contact_info h = r->hydroelastic[0];
  ck_assert_double_gt(fabs(h.f_Bc_W.v[2]), 0.0);
  ts_contact_advance(&m.w, 1e-3);
  const teal_scene_recording *rec = teal_visualizer_recording(m.viz, m.w.ctx);
  ck_assert_double_eq(rec->times[0], 0.0);
  int contacts = 0;
  for (int i = rec->marker_start[0]; i < rec->marker_start[1]; i++) {
    const teal_marker *mk = &rec->markers[i];
    if (mk->kind == TEAL_MARKER_CONTACT) { /* the surface's force at its centroid */
      contacts++;
      for (int a = 0; a < 3; a++) {
        ck_assert_double_eq_tol(mk->p_W.v[a], h.surface.centroid.v[a], 1e-12);
        ck_assert_double_eq_tol(mk->v_W.v[a], h.f_Bc_W.v[a], 1e-9);
      }
    }
  }
  ck_assert_int_eq(contacts, 1);
  ts_contact_world_free(&m.w);
}
END_TEST

static Suite *plant_markers_suite(void) {
  Suite *s = suite_create("plant_markers");
  TCase *tc = tcase_create("markers");
  tcase_add_test(tc, resting_ball_contact_forces_carry_its_weight);
  tcase_add_test(tc, center_of_mass_matches_the_plant);
  tcase_add_test(tc, markers_reach_the_page);
  tcase_add_test(tc, hydroelastic_contact_has_its_marker);
  tcase_add_test(tc, bad_plant_markers_arguments);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(plant_markers_suite());
}
