/* Contact settings changed after finalize (multibody/contact/plant_contact.c):
 * a plant given its penetration allowance and stiction tolerance after
 * finalize computes what a plant given them before computes (contact
 * forces, one discrete step, a short continuous run), in contexts that
 * existed and had cached values before the change too; bad values are
 * still refused with a message, without poisoning the plant. */
#include <check.h>
#include <math.h>

#include "framework/context.h"
#include "multibody/contact/plant_contact.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/contact/scene_graph_source.h"
#include "multibody/plant/plant_state.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_contact_fixtures.h"
#include "support/test_support.h"

#define ALLOWANCE 4e-3
#define STICTION 5e-3

/* A ball 2 mm into the ground, sliding at 2 mm/s and sinking at 0.1 m/s:
 * both the stiffness (from the allowance) and the friction law (from the
 * stiction tolerance) shape its contact force. */
static void set_sliding_ball(const teal_plant *p, teal_context *ctx) {
  double q[7] = {1, 0, 0, 0, 0, 0, 0.098}, v[6] = {0, 0, 0, 2e-3, 0, -0.1};
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 7), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, 6), TEAL_OK);
}

/* The ball world, with the settings given before finalize when early. */
static ts_contact_world ball_world(double time_step, int early) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(time_step, NULL);
  int body;
  ts_contact_body_with_sphere(w.plant, "ball", &body);
  ts_contact_add_ground(w.plant, 0.0, 0.5, NAN);
  if (early) {
    ck_assert_int_eq(teal_plant_set_penetration_allowance(w.plant, ALLOWANCE), TEAL_OK);
    ck_assert_int_eq(teal_plant_set_stiction_tolerance(w.plant, STICTION), TEAL_OK);
  }
  ts_contact_finish(&w);
  set_sliding_ball(w.plant, w.ctx);
  return w;
}

static void set_late(teal_plant *p) {
  ck_assert_int_eq(teal_plant_set_penetration_allowance(p, ALLOWANCE), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_stiction_tolerance(p, STICTION), TEAL_OK);
}

/* The largest difference between the contact forces of two results. */
static double force_difference(const teal_contact_results *a, const teal_contact_results *b) {
  ck_assert_int_eq(a->n, b->n);
  double d = 0.0;
  for (int i = 0; i < a->n; i++) {
    d = fmax(d, teal_vec3_norm(teal_vec3_sub(a->c[i].f_Bc_W, b->c[i].f_Bc_W)));
  }
  return d;
}

static const teal_contact_results *results(const teal_plant *p, const teal_context *ctx) {
  const teal_contact_results *r;
  ck_assert_int_eq(teal_plant_eval_contact_results(p, ctx, &r), TEAL_OK);
  ck_assert_int_eq(r->n, 1);
  return r;
}

static double accel_difference(const ts_contact_world *a, const ts_contact_world *b,
                               const teal_context *bctx) {
  const double *va, *vb;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(a->plant, a->ctx, &va), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(b->plant, bctx, &vb), TEAL_OK);
  double d = 0.0;
  for (int i = 0; i < 6; i++) {
    d = fmax(d, fabs(va[i] - vb[i]));
  }
  return d;
}

/* The late plant, with one context made before and one after the change,
 * against the early one: forces and accelerations (for a discrete plant,
 * one step) agree to round-off; before the change they differ. */
static void late_settings_match_early(double time_step) {
  ts_contact_world early = ball_world(time_step, 1), late = ball_world(time_step, 0);
  teal_context *before = teal_context_new(late.diagram, NULL);
  ck_assert_ptr_nonnull(before);
  set_sliding_ball(late.plant, before);
  /* both contexts cache values computed with the default settings */
  double f0 = force_difference(results(early.plant, early.ctx), results(late.plant, before));
  ck_assert_msg(f0 > 1.0, "the settings should matter (%g N)", f0);
  ck_assert(accel_difference(&early, &late, late.ctx) > 1.0);
  set_late(late.plant);
  teal_context *after = teal_context_new(late.diagram, NULL);
  set_sliding_ball(late.plant, after);
  const teal_context *ctxs[3] = {late.ctx, before, after};
  for (int k = 0; k < 3; k++) {
    double f = force_difference(results(early.plant, early.ctx), results(late.plant, ctxs[k]));
    ck_assert_msg(f < 1e-12, "context %d: forces differ by %g N", k, f);
    ck_assert_msg(accel_difference(&early, &late, ctxs[k]) < 1e-9, "context %d", k);
  }
  /* simulate a little: the same states */
  ts_contact_advance(&early, 0.02);
  ts_contact_advance(&late, 0.02);
  double xa[13], xb[13];
  teal_plant_get_state(early.plant, early.ctx, xa, 13);
  teal_plant_get_state(late.plant, late.ctx, xb, 13);
  for (int i = 0; i < 13; i++) {
    ck_assert_double_eq_tol(xa[i], xb[i], 1e-12);
  }
  teal_context_free(before);
  teal_context_free(after);
  ts_contact_world_free(&early);
  ts_contact_world_free(&late);
}

START_TEST(late_settings_match_early_continuous) {
  late_settings_match_early(0.0);
}
END_TEST

START_TEST(late_settings_match_early_discrete) {
  late_settings_match_early(1e-3);
}
END_TEST

START_TEST(allowance_sets_the_time_scale_after_finalize) {
  ts_contact_world w = ball_world(1e-3, 0);
  ck_assert_double_eq_tol(teal_plant_contact_time_scale(w.plant), sqrt(1e-3 / 9.81), 1e-15);
  ck_assert_int_eq(teal_plant_set_penetration_allowance(w.plant, 4e-3), TEAL_OK);
  ck_assert_double_eq(teal_plant_penetration_allowance(w.plant), 4e-3);
  ck_assert_double_eq_tol(teal_plant_contact_time_scale(w.plant), sqrt(4e-3 / 9.81), 1e-15);
  /* the ball settles at about the new allowance */
  double q[7] = {1, 0, 0, 0, 0, 0, 0.1}, v[6] = {0};
  teal_plant_set_positions(w.plant, w.ctx, q, 7);
  teal_plant_set_velocities(w.plant, w.ctx, v, 6);
  ts_contact_advance(&w, 1.0);
  teal_plant_get_positions(w.plant, w.ctx, q, 7);
  ck_assert_double_eq_tol(0.1 - q[6], 4e-3, 4e-4);
  ts_contact_world_free(&w);
}
END_TEST

/* A setting refused after finalize leaves the plant usable for everything
 * else, registration with a scene graph included. */
START_TEST(refused_setting_does_not_poison_the_plant) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  ck_assert_int_ge(teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_penetration_allowance(p, -1.0), TEAL_EINVAL);
  teal_error err;
  teal_scene_graph *sg = teal_scene_graph_new("sg", &err);
  ck_assert_ptr_nonnull(sg);
  ck_assert_msg(teal_plant_register_as_source_for_scene_graph(p, sg, &err) == TEAL_OK, "%s",
                err.message);
  teal_scene_graph_free(sg);
  teal_plant_free(p);
}
END_TEST

START_TEST(bad_values_are_refused_after_finalize) {
  ts_contact_world w = ball_world(1e-3, 1);
  const double bad[] = {0.0, -1e-3, NAN, INFINITY};
  for (int i = 0; i < 4; i++) {
    ts_stale_error((teal_error *)teal_plant_error(w.plant));
    TS_EXPECT_ERROR(teal_plant_set_penetration_allowance(w.plant, bad[i]), TEAL_EINVAL,
                    teal_plant_error(w.plant), "penetration allowance must be finite and > 0");
    TS_EXPECT_ERROR(teal_plant_set_stiction_tolerance(w.plant, bad[i]), TEAL_EINVAL,
                    teal_plant_error(w.plant), "stiction tolerance must be finite and > 0");
  }
  ck_assert_double_eq(teal_plant_penetration_allowance(w.plant), ALLOWANCE);
  ck_assert_double_eq(teal_plant_stiction_tolerance(w.plant), STICTION);
  /* the errors are not sticky: the plant still takes settings and steps */
  ck_assert_int_eq(teal_plant_set_stiction_tolerance(w.plant, 2e-3), TEAL_OK);
  ck_assert_double_eq(teal_plant_stiction_tolerance(w.plant), 2e-3);
  ts_contact_advance(&w, 0.01);
  ck_assert_int_eq(teal_plant_set_penetration_allowance(NULL, 1e-3), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_set_stiction_tolerance(NULL, 1e-3), TEAL_EINVAL);
  ts_contact_world_free(&w);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("contact_settings");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, late_settings_match_early_continuous);
  tcase_add_test(tc, late_settings_match_early_discrete);
  tcase_add_test(tc, allowance_sets_the_time_scale_after_finalize);
  tcase_add_test(tc, bad_values_are_refused_after_finalize);
  tcase_add_test(tc, refused_setting_does_not_poison_the_plant);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
