/* Point contact through the scene graph (multibody/contact/plant_contact.h):
 * a ball dropped on the ground rests at the penetration the stiffness
 * implies, restitution falls with dissipation, a block on an incline sticks
 * when tan(theta) < mu and slides with a = g (sin - mu cos) otherwise, in
 * both modes; the contact results balance the momentum change of a step;
 * Drake's default collision filters; a plant without a scene graph; landing
 * balls allocate nothing; per-instance generalized contact forces. The
 * discrete solver is tested in test_discrete_contact.c. */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/diagram.h"
#include "multibody/contact/plant_contact.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/contact/plant_scene_graph.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/mb_contact_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"

static double ball_z(ts_contact_world *w) {
  double q[7];
  teal_plant_get_positions(w->plant, w->ctx, q, 7);
  return q[6];
}

static double ball_vz(ts_contact_world *w) {
  double v[6];
  teal_plant_get_velocities(w->plant, w->ctx, v, 6);
  return v[5];
}

static void ball_rests_at_allowance(double time_step) {
  ts_contact_world w = ts_contact_ball_world(time_step, 0.15, NAN);
  ts_contact_advance(&w, 3.0);
  /* defaults: combined k = m g / delta, so the rest penetration is delta */
  double delta = teal_plant_penetration_allowance(w.plant);
  ck_assert_msg(fabs((0.1 - ball_z(&w)) - delta) < 0.02 * delta, "penetration %g vs %g",
                0.1 - ball_z(&w), delta);
  ck_assert(fabs(ball_vz(&w)) < 1e-4);
  ts_contact_world_free(&w);
}

START_TEST(ball_rests_at_allowance_continuous) {
  ball_rests_at_allowance(0.0);
}
END_TEST

START_TEST(ball_rests_at_allowance_discrete) {
  ball_rests_at_allowance(1e-3);
}
END_TEST

/* Rebound speed over impact speed of a ball dropped from 0.3 m. */
static double restitution(double time_step, double dissipation) {
  ts_contact_world w = ts_contact_ball_world(time_step, 0.3, dissipation);
  double v_in = 0.0, v_out = 0.0, t = 0.0;
  while (t < 1.0) {
    t += 5e-4;
    ts_contact_advance(&w, t);
    double vz = ball_vz(&w);
    v_in = fmin(v_in, vz);
    if (v_in < -1.0 && vz > 0.0 && ball_z(&w) > 0.1) { /* left the ground */
      v_out = vz;
      break;
    }
  }
  ts_contact_world_free(&w);
  return v_out / -v_in;
}

START_TEST(restitution_falls_with_dissipation) {
  for (int mode = 0; mode < 2; mode++) {
    double h = mode ? 1e-4 : 0.0;
    double e0 = restitution(h, 0.0), e1 = restitution(h, 0.5), e2 = restitution(h, 5.0);
    ck_assert_msg(e0 > 0.9 && e0 > e1 && e1 > e2, "mode %d: e = %g, %g, %g", mode, e0, e1, e2);
  }
}
END_TEST

/* A 1 kg block resting on four corner spheres on an incline of angle theta. */
static ts_contact_world block_world(double time_step, double theta, double mu) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(time_step, NULL);
  teal_plant_set_stiction_tolerance(w.plant, 1e-4);
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(1.0, 0.2, 0.2, 0.1);
  int b = teal_plant_add_rigid_body(w.plant, "block", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_shape s;
  teal_shape_sphere(0.01, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(mu, mu);
  const char *names[4] = {"c0", "c1", "c2", "c3"};
  for (int i = 0; i < 4; i++) {
    teal_vec3 p = teal_vec3_make(i & 1 ? 0.1 : -0.1, i & 2 ? 0.1 : -0.1, -0.05);
    teal_plant_register_collision_geometry(
        w.plant, b, teal_transform_make(teal_rotation_identity(), p), &s, names[i], &props);
  }
  ts_contact_add_ground(w.plant, theta, mu, NAN);
  ts_contact_finish(&w);
  /* rest the block on the incline: its bottom spheres touch the plane */
  teal_quaternion qr =
      teal_rotation_to_quaternion(teal_rotation_from_rpy(teal_vec3_make(0, theta, 0)));
  teal_vec3 up = teal_rotation_apply(teal_rotation_from_rpy(teal_vec3_make(0, theta, 0)),
                                     teal_vec3_make(0, 0, 0.06 - 0.001));
  double q[7] = {qr.w, qr.x, qr.y, qr.z, up.v[0], up.v[1], up.v[2]};
  teal_plant_set_positions(w.plant, w.ctx, q, 7);
  return w;
}

/* Displacement along the slope (downhill positive) of the block origin. */
static double downhill(ts_contact_world *w, double theta) {
  double q[7];
  teal_plant_get_positions(w->plant, w->ctx, q, 7);
  /* downhill is the incline's x axis: R_y(theta) x = (cos, 0, -sin) */
  teal_vec3 d = teal_rotation_apply(teal_rotation_from_rpy(teal_vec3_make(0, theta, 0)),
                                    teal_vec3_make(1, 0, 0));
  return q[4] * d.v[0] + q[5] * d.v[1] + q[6] * d.v[2];
}

START_TEST(block_sticks_on_incline_discrete) {
  const double theta = 20.0 * M_PI / 180.0;
  ts_contact_world w = block_world(1e-3, theta, 0.5);
  ts_contact_advance(&w, 0.5);
  double s0 = downhill(&w, theta);
  ts_contact_advance(&w, 10.5);
  ck_assert_msg(fabs(downhill(&w, theta) - s0) < 1e-3, "creep %g m",
                downhill(&w, theta) - s0);
  ts_contact_world_free(&w);
}
END_TEST

START_TEST(block_sticks_on_incline_continuous) {
  const double theta = 20.0 * M_PI / 180.0;
  ts_contact_world w = block_world(0.0, theta, 0.5);
  ts_contact_advance(&w, 0.5);
  double s0 = downhill(&w, theta);
  ts_contact_advance(&w, 2.5);
  /* regularized friction creeps at a fraction of the stiction tolerance */
  ck_assert_msg(fabs(downhill(&w, theta) - s0) < 2.0 * 1e-4, "creep %g m",
                downhill(&w, theta) - s0);
  ts_contact_world_free(&w);
}
END_TEST

static void block_slides(double time_step) {
  const double theta = 20.0 * M_PI / 180.0, mu = 0.2, g = 9.81;
  ts_contact_world w = block_world(time_step, theta, mu);
  ts_contact_advance(&w, 0.3);
  double s1 = downhill(&w, theta);
  ts_contact_advance(&w, 0.8);
  double s2 = downhill(&w, theta);
  ts_contact_advance(&w, 1.3);
  double s3 = downhill(&w, theta);
  double a = ((s3 - s2) - (s2 - s1)) / (0.5 * 0.5);
  double expected = g * (sin(theta) - mu * cos(theta));
  ck_assert_msg(fabs(a - expected) < 0.02 * expected, "a = %g, expected %g", a, expected);
  ts_contact_world_free(&w);
}

START_TEST(block_slides_on_incline_discrete) {
  block_slides(1e-3);
}
END_TEST

START_TEST(block_slides_on_incline_continuous) {
  block_slides(0.0);
}
END_TEST

/* One discrete step of a ball resting on the ground: the change of linear
 * momentum equals h (m g + f_contact) with f from the contact_results port. */
START_TEST(contact_results_balance_momentum) {
  const double h = 1e-3;
  ts_contact_world w = ts_contact_ball_world(h, 0.1 - 0.001, NAN);
  ts_contact_advance(&w, 0.5);
  double v0[6], v1[6];
  teal_plant_get_velocities(w.plant, w.ctx, v0, 6);
  const teal_system *plant = teal_plant_system(w.plant);
  const teal_context *pc = teal_context_subcontext(w.ctx, plant);
  const teal_contact_results *r;
  ck_assert_int_eq(teal_eval_abstract_output(plant, pc,
                                             teal_plant_contact_results_output_port(w.plant),
                                             (const void **)&r),
                   TEAL_OK);
  ck_assert_int_eq(r->n, 1);
  teal_vec3 f = r->c[0].f_Bc_W;
  int on_b = r->c[0].body_B == 1;
  teal_vec3 f_ball = on_b ? f : teal_vec3_neg(f);
  const double *gcf;
  ck_assert_int_eq(teal_eval_vector_output(
                       plant, pc, teal_plant_generalized_contact_forces_output_port(w.plant), &gcf),
                   TEAL_OK);
  ck_assert_double_eq_tol(gcf[5], f_ball.v[2], 1e-9);
  const teal_contact_results *r2;
  ck_assert_int_eq(teal_plant_eval_contact_results(w.plant, w.ctx, &r2), TEAL_OK);
  ck_assert_double_eq_tol(teal_contact_results_net_force(r2, 1).v[2], f_ball.v[2], 1e-12);
  ts_contact_advance(&w, 0.5 + h);
  teal_plant_get_velocities(w.plant, w.ctx, v1, 6);
  ck_assert_double_eq_tol(v1[5] - v0[5], h * (-9.81 + f_ball.v[2]), 1e-9);
  ck_assert_double_eq_tol(f_ball.v[2], 9.81, 1e-3);
  ts_contact_world_free(&w);
}
END_TEST

/* Drake's default filters: bodies in one welded subgraph (transitively, the
 * world's included) never collide; a joint filters its parent and child
 * unless the parent is the world; floating bodies collide with everything. */
START_TEST(default_filters_follow_drake) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int base, post, arm, hand, ball, other;
  int g_base = ts_contact_body_with_sphere(p, "base", &base),
      g_post = ts_contact_body_with_sphere(p, "post", &post);
  int g_arm = ts_contact_body_with_sphere(p, "arm", &arm),
      g_hand = ts_contact_body_with_sphere(p, "hand", &hand);
  int g_ball = ts_contact_body_with_sphere(p, "ball", &ball),
      g_other = ts_contact_body_with_sphere(p, "other", &other);
  teal_shape hs;
  teal_shape_half_space(&hs);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  int g_ground = teal_plant_register_collision_geometry(p, TEAL_WORLD_BODY,
                                                        teal_transform_identity(), &hs, "ground",
                                                        &props);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  teal_plant_add_joint(p, "base_weld", TEAL_JOINT_WELD, TEAL_WORLD_FRAME,
                       teal_plant_body_frame(p, base), NULL, 0);
  teal_plant_add_joint(p, "post_weld", TEAL_JOINT_WELD, teal_plant_body_frame(p, base),
                       teal_plant_body_frame(p, post), NULL, 0);
  teal_plant_add_joint(p, "shoulder", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                       teal_plant_body_frame(p, arm), &y, 0);
  teal_plant_add_joint(p, "elbow", TEAL_JOINT_REVOLUTE, teal_plant_body_frame(p, arm),
                       teal_plant_body_frame(p, hand), &y, 0);
  teal_plant_add_joint(p, "other_weld", TEAL_JOINT_WELD, teal_plant_body_frame(p, hand),
                       teal_plant_body_frame(p, other), NULL, 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_builder *b = teal_builder_new("filters");
  teal_error err;
  teal_scene_graph *sg = teal_add_plant_and_scene_graph(b, p, &err);
  ck_assert_msg(sg != NULL, "%s", err.message);
  /* welded subgraphs: {world, base, post} and {hand, other} */
  ck_assert(!teal_scene_graph_pair_is_candidate(sg, g_ground, g_base));
  ck_assert(!teal_scene_graph_pair_is_candidate(sg, g_ground, g_post)); /* transitively */
  ck_assert(!teal_scene_graph_pair_is_candidate(sg, g_base, g_post));
  ck_assert(!teal_scene_graph_pair_is_candidate(sg, g_hand, g_other));
  /* joints: elbow filters arm-hand; the shoulder's parent is the world */
  ck_assert(!teal_scene_graph_pair_is_candidate(sg, g_arm, g_hand));
  ck_assert(teal_scene_graph_pair_is_candidate(sg, g_arm, g_ground));
  ck_assert(teal_scene_graph_pair_is_candidate(sg, g_arm, g_base));
  ck_assert(teal_scene_graph_pair_is_candidate(sg, g_arm, g_other)); /* not adjacent */
  ck_assert(teal_scene_graph_pair_is_candidate(sg, g_other, g_post));
  /* the free ball meets everything */
  int all[6] = {g_ground, g_base, g_post, g_arm, g_hand, g_other};
  for (int i = 0; i < 6; i++) {
    ck_assert(teal_scene_graph_pair_is_candidate(sg, g_ball, all[i]));
  }
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_system_free(d);
}
END_TEST

START_TEST(no_scene_graph_means_no_contact) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_shape s;
  teal_shape_sphere(0.1, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  teal_plant_register_collision_geometry(p, b, teal_transform_identity(), &s, "ball", &props);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  const double *vdot;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_double_eq_tol(vdot[5], -9.81, 1e-12);
  /* settings are accepted after finalize (test_contact_settings.c) and
   * rejected when not positive */
  ck_assert_int_eq(teal_plant_set_penetration_allowance(p, 1e-2), TEAL_OK);
  teal_context_free(ctx);
  teal_plant_free(p);
  p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_plant_set_stiction_tolerance(p, -1.0), TEAL_EINVAL);
  teal_plant_free(p);
  teal_builder *bld = teal_builder_new("x");
  p = teal_plant_new(0.0, NULL);
  teal_error err;
  /* an open plant joins the builder at its finalize (Drake's order); the
   * builder owns it from the call, so teal_plant_free leaves it alone */
  ck_assert_ptr_nonnull(teal_add_plant_and_scene_graph(bld, p, &err));
  teal_plant_free(p);
  teal_builder_free(bld);
}
END_TEST

/* Balls landing one after another (the number of contacts grows during the
 * run) allocate nothing after initialization, in both modes. */
static void landing_balls_allocate_nothing(double time_step) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(time_step, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  teal_shape s;
  teal_shape_sphere(0.1, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  int b[8];
  for (int i = 0; i < 8; i++) {
    char name[16];
    snprintf(name, sizeof(name), "ball%d", i);
    b[i] = teal_plant_add_rigid_body(w.plant, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
    teal_plant_register_collision_geometry(w.plant, b[i], teal_transform_identity(), &s, name,
                                           &props);
  }
  ts_contact_add_ground(w.plant, 0.0, 0.5, NAN);
  ts_contact_finish(&w);
  if (time_step == 0.0) {
    teal_simulator_set_integrator(w.sim, teal_integrator_semi_explicit_euler);
    teal_simulator_set_fixed_step(w.sim, 1e-3);
  }
  for (int i = 0; i < 8; i++) {
    teal_transform X = teal_transform_make(teal_rotation_identity(),
                                           teal_vec3_make(0.3 * i, 0, 0.11 + 0.02 * i));
    teal_plant_set_free_body_pose(w.plant, w.ctx, b[i], X);
  }
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_initialize(w.sim, &st), TEAL_OK);
  ts_alloc_install();
  ts_alloc_reset();
  ts_contact_advance(&w, 0.4);
  ts_alloc_expect_none();
  const teal_contact_results *r;
  ck_assert_int_eq(teal_plant_eval_contact_results(w.plant, w.ctx, &r), TEAL_OK);
  ck_assert_int_eq(r->n, 8);
  ts_contact_world_free(&w);
}

START_TEST(landing_balls_allocate_nothing_continuous) {
  landing_balls_allocate_nothing(0.0);
}
END_TEST

START_TEST(landing_balls_allocate_nothing_discrete) {
  landing_balls_allocate_nothing(1e-3);
}
END_TEST

/* Two model instances, a ball each (masses 1 and 2) resting on the ground:
 * each instance's generalized_contact_forces port is its slice of the
 * plant-wide port and carries its ball's weight, in both modes. */
static void instance_contact_forces(double time_step) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(time_step, NULL);
  int inst[2], body[2];
  for (int i = 0; i < 2; i++) {
    inst[i] = teal_plant_add_model_instance(w.plant, i ? "robot_b" : "robot_a");
    teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0 + i, 0.1);
    body[i] = teal_plant_add_rigid_body(w.plant, "ball", inst[i], &M);
    teal_shape s;
    teal_shape_sphere(0.1, &s, NULL);
    teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
    teal_plant_register_collision_geometry(w.plant, body[i], teal_transform_identity(), &s,
                                           i ? "b" : "a", &props);
  }
  ts_contact_add_ground(w.plant, 0.0, 0.5, NAN);
  ts_contact_finish(&w);
  for (int i = 0; i < 2; i++) {
    teal_transform X = teal_transform_make(teal_rotation_identity(),
                                           teal_vec3_make(0.5 * i, 0, 0.099));
    ck_assert_int_eq(teal_plant_set_free_body_pose(w.plant, w.ctx, body[i], X), TEAL_OK);
  }
  ts_contact_advance(&w, 2.0);
  const teal_system *plant = teal_plant_system(w.plant);
  const teal_context *pc = teal_context_subcontext(w.ctx, plant);
  const double *all, *mine;
  ck_assert_int_eq(teal_eval_vector_output(
                       plant, pc, teal_plant_generalized_contact_forces_output_port(w.plant), &all),
                   TEAL_OK);
  double sum_z = 0.0;
  for (int i = 0; i < 2; i++) {
    int port = teal_plant_instance_generalized_contact_forces_output_port(w.plant, inst[i]);
    ck_assert_int_ge(port, 0);
    ck_assert_int_eq(teal_eval_vector_output(plant, pc, port, &mine), TEAL_OK);
    int v0 = teal_plant_joint_v_start(w.plant, teal_plant_body_joint(w.plant, body[i]));
    for (int k = 0; k < 6; k++) {
      ck_assert(mine[k] == all[v0 + k]);
    }
    ck_assert_double_eq_tol(mine[5], (1.0 + i) * 9.81, 2e-3 * (1.0 + i) * 9.81);
    sum_z += mine[5];
  }
  ck_assert_double_eq_tol(sum_z, 3.0 * 9.81, 6e-3 * 9.81);
  ck_assert_int_lt(teal_plant_instance_generalized_contact_forces_output_port(w.plant, 99), 0);
  ts_contact_world_free(&w);
}

START_TEST(instance_generalized_contact_forces) {
  instance_contact_forces(0.0);
  instance_contact_forces(1e-3);
}
END_TEST

int main(void) {
  Suite *s = suite_create("plant_contact");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, ball_rests_at_allowance_continuous);
  tcase_add_test(tc, ball_rests_at_allowance_discrete);
  tcase_add_test(tc, restitution_falls_with_dissipation);
  tcase_add_test(tc, block_sticks_on_incline_discrete);
  tcase_add_test(tc, block_sticks_on_incline_continuous);
  tcase_add_test(tc, block_slides_on_incline_discrete);
  tcase_add_test(tc, block_slides_on_incline_continuous);
  tcase_add_test(tc, contact_results_balance_momentum);
  tcase_add_test(tc, default_filters_follow_drake);
  tcase_add_test(tc, no_scene_graph_means_no_contact);
  tcase_add_test(tc, landing_balls_allocate_nothing_continuous);
  tcase_add_test(tc, landing_balls_allocate_nothing_discrete);
  tcase_add_test(tc, instance_generalized_contact_forces);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
