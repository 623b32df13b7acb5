/* Unilateral contacts and state-limited friction in the discrete step
 * (multibody/constraints/unilateral_solve.c), against closed forms: a ball
 * dropped on a plane bounces to e^2 h0 and at e = 0 comes to rest on it
 * without drift; a hinge hitting a hard stop without gravity rebounds at
 * exactly e times its speed; a bob on a rope flies slack on its free
 * parabola and is caught when the rope goes taut; a block sliding on a
 * plane with friction decelerates at exactly mu g, then sticks; a ball on
 * a slope sticks inside the friction cone and slides at g (sin - mu cos)
 * outside it; two free bodies colliding through a plane on one of them
 * keep their momentum and part at e times their approach speed; a joint's
 * state-limited friction holds it below its limit and lets it slip with the
 * excess force above, with a constant limit and with mu times a contact's
 * normal force; disabling a contact removes it; the step allocates
 * nothing. */
#include <check.h>
#include <math.h>

#include "support/test_support.h"
#include "teal.h"

#define G 9.81

/* A free 1 kg ball (center at its origin) and a contact of its center
 * with the world plane z = 0 of restitution e, friction mu; step h. */
static teal_plant *ball_on_plane(double h, double e, double mu) {
  teal_plant *p = teal_plant_new(h, NULL);
  teal_spatial_inertia M =
      teal_spatial_inertia_from_central(1.0, teal_vec3_zero(), teal_mat3_diag(0.1, 0.1, 0.1));
  int b = teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_unilateral_contact_spec s =
      teal_unilateral_contact_spec_default(TEAL_UNILATERAL_POINT_IN_PLANE);
  s.body_a = TEAL_WORLD_BODY;
  s.body_b = b;
  s.restitution = e;
  s.capture_speed = 1e-3;
  s.friction = mu;
  ck_assert_int_eq(teal_plant_adopt_unilateral_contact(p, &s), 0);
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(0, 0, -G)), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

static teal_simulator *start_free(teal_plant *p, teal_vec3 p0, teal_vec3 v0) {
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  ck_assert_ptr_nonnull(sim);
  teal_context *ctx = teal_simulator_context(sim);
  teal_transform X = {teal_rotation_identity(), p0};
  ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, 1, X), TEAL_OK);
  teal_spatial_vector V = teal_spatial_vector_make(teal_vec3_zero(), v0);
  ck_assert_int_eq(teal_plant_set_free_body_spatial_velocity(p, ctx, 1, V), TEAL_OK);
  return sim;
}

static void advance(teal_simulator *sim, double t) {
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, t, &st);
  ck_assert_msg(rc == TEAL_OK, "t = %g: %s", st.time, st.message);
}

/* Body 1's origin and velocity. */
static teal_vec3 ball_position(const teal_plant *p, teal_simulator *sim) {
  const teal_transform *X;
  ck_assert_int_eq(teal_plant_eval_body_poses(p, teal_simulator_context(sim), &X), TEAL_OK);
  return X[1].p;
}

static teal_vec3 ball_velocity(const teal_plant *p, teal_simulator *sim) {
  const teal_spatial_vector *V;
  ck_assert_int_eq(teal_plant_eval_body_velocities(p, teal_simulator_context(sim), &V), TEAL_OK);
  return teal_spatial_vector_linear(V[1]);
}

/* The highest z after the first bounce of a ball dropped from h0 = 1,
 * sampled each ms up to the second impact; z never below the plane. */
static double bounce_height(double e) {
  teal_plant *p = ball_on_plane(1e-4, e, 0.0);
  teal_simulator *sim = start_free(p, teal_vec3_make(0, 0, 1), teal_vec3_zero());
  double t_hit = sqrt(2.0 / G), top = 0.0;
  for (double t = 0.001; t < t_hit * (1.0 + 2.0 * e) - 0.01; t += 0.001) {
    advance(sim, t);
    double z = ball_position(p, sim).v[2];
    ck_assert_msg(z >= -1e-12, "t = %g: z = %g below the plane", t, z);
    top = t > t_hit + 0.01 ? fmax(top, z) : top;
  }
  teal_simulator_free(sim);
  teal_plant_free(p);
  return top;
}

START_TEST(ball_bounces_to_e_squared_h0) {
  double es[] = {0.5, 0.8, 1.0};
  for (int i = 0; i < 3; i++) {
    double top = bounce_height(es[i]);
    ck_assert_msg(fabs(top - es[i] * es[i]) < 1e-3, "e = %g: bounced to %g, expected %g", es[i],
                  top, es[i] * es[i]);
  }
}
END_TEST

START_TEST(plastic_ball_rests_without_drift) {
  teal_plant *p = ball_on_plane(1e-3, 0.0, 0.0);
  teal_simulator *sim = start_free(p, teal_vec3_make(0, 0, 0.5), teal_vec3_zero());
  advance(sim, 1.0); /* landed at t = 0.32 */
  double z1 = ball_position(p, sim).v[2];
  ck_assert_msg(fabs(z1) < 1e-12, "resting at z = %g", z1);
  advance(sim, 3.0);
  ck_assert_msg(fabs(ball_position(p, sim).v[2]) < 1e-12, "drifted to z = %g",
                ball_position(p, sim).v[2]);
  ck_assert_msg(teal_vec3_norm(ball_velocity(p, sim)) < 1e-12, "still moving");
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

START_TEST(sliding_block_decelerates_at_mu_g_then_sticks) {
  double mu = 0.5, v0 = 3.0;
  teal_plant *p = ball_on_plane(1e-3, 0.0, mu);
  teal_simulator *sim = start_free(p, teal_vec3_zero(), teal_vec3_make(v0, 0, 0));
  advance(sim, 0.3);
  teal_vec3 v = ball_velocity(p, sim);
  ck_assert_msg(fabs(v.v[0] - (v0 - mu * G * 0.3)) < 1e-9, "vx = %.12g, expected %.12g", v.v[0],
                v0 - mu * G * 0.3);
  ck_assert_msg(fabs(v.v[1]) < 1e-12 && fabs(v.v[2]) < 1e-12, "off-axis velocity");
  advance(sim, 1.0); /* stopped at t = 0.61 */
  double x = ball_position(p, sim).v[0], stop = v0 * v0 / (2.0 * mu * G);
  ck_assert_msg(fabs(ball_velocity(p, sim).v[0]) < 1e-12, "still sliding");
  ck_assert_msg(fabs(x - stop) < 5e-3, "stopped at %g, expected %g", x, stop);
  advance(sim, 1.5);
  ck_assert_msg(ball_position(p, sim).v[0] == x, "crept after sticking");
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* A ball on the world plane through the origin tilted by theta about y
 * (normal (-sin, 0, cos)) with friction mu, at rest on it for 0.5 s: its
 * velocity, which must run down the slope at g (sin - mu cos) or be 0. */
static teal_vec3 slope_velocity(double theta, double mu) {
  teal_plant *p = teal_plant_new(1e-3, NULL);
  teal_spatial_inertia M =
      teal_spatial_inertia_from_central(1.0, teal_vec3_zero(), teal_mat3_diag(0.1, 0.1, 0.1));
  int b = teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_unilateral_contact_spec s =
      teal_unilateral_contact_spec_default(TEAL_UNILATERAL_POINT_IN_PLANE);
  s.body_a = TEAL_WORLD_BODY;
  s.body_b = b;
  s.n_a = teal_vec3_make(-sin(theta), 0, cos(theta));
  s.friction = mu;
  ck_assert_int_eq(teal_plant_adopt_unilateral_contact(p, &s), 0);
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(0, 0, -G)), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_simulator *sim = start_free(p, teal_vec3_zero(), teal_vec3_zero());
  advance(sim, 0.5);
  teal_vec3 v = ball_velocity(p, sim);
  teal_simulator_free(sim);
  teal_plant_free(p);
  return v;
}

START_TEST(ball_on_a_slope_sticks_inside_the_cone_and_slides_outside) {
  double theta = 0.3;
  teal_vec3 held = slope_velocity(theta, 0.5); /* tan 0.3 = 0.31 < 0.5 */
  ck_assert_msg(teal_vec3_norm(held) < 1e-12, "slid at %g m/s", teal_vec3_norm(held));
  teal_vec3 v = slope_velocity(theta, 0.2);
  double a = G * (sin(theta) - 0.2 * cos(theta));
  teal_vec3 down = teal_vec3_make(cos(theta), 0, sin(theta)); /* up the slope */
  ck_assert_msg(fabs(teal_vec3_dot(v, down) + 0.5 * a) < 1e-9, "slope speed %.12g, expected %.12g",
                -teal_vec3_dot(v, down), 0.5 * a);
  ck_assert_msg(fabs(v.v[1]) < 1e-12 && fabs(v.v[0] * sin(theta) - v.v[2] * cos(theta)) < 1e-9,
                "left the slope: v = (%g, %g, %g)", v.v[0], v.v[1], v.v[2]);
}
END_TEST

/* Two free 1 kg bodies without gravity: a platform A whose plane z = 0
 * (its frame) a ball B approaches at 1 m/s. After the impact their
 * velocities are the closed form of a 1-D collision with restitution e:
 * v_B = (e - 1) / 2, v_A = -(1 + e) / 2, momentum kept. */
START_TEST(impact_between_two_bodies_keeps_momentum_with_restitution) {
  double es[] = {0.0, 0.5, 1.0};
  for (int i = 0; i < 3; i++) {
    teal_plant *p = teal_plant_new(1e-3, NULL);
    teal_spatial_inertia M =
        teal_spatial_inertia_from_central(1.0, teal_vec3_zero(), teal_mat3_diag(0.1, 0.1, 0.1));
    int a = teal_plant_add_rigid_body(p, "platform", TEAL_DEFAULT_MODEL_INSTANCE, &M);
    int b = teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
    teal_unilateral_contact_spec s =
        teal_unilateral_contact_spec_default(TEAL_UNILATERAL_POINT_IN_PLANE);
    s.body_a = a;
    s.body_b = b;
    s.restitution = es[i];
    ck_assert_int_eq(teal_plant_adopt_unilateral_contact(p, &s), 0);
    ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_zero()), TEAL_OK);
    ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
    teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
    teal_context *ctx = teal_simulator_context(sim);
    teal_transform X = {teal_rotation_identity(), teal_vec3_make(0, 0, 0.3)};
    ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, b, X), TEAL_OK);
    teal_spatial_vector V = teal_spatial_vector_make(teal_vec3_zero(), teal_vec3_make(0, 0, -1));
    ck_assert_int_eq(teal_plant_set_free_body_spatial_velocity(p, ctx, b, V), TEAL_OK);
    advance(sim, 0.5);
    const teal_spatial_vector *Vs;
    const teal_transform *Xs;
    ck_assert_int_eq(teal_plant_eval_body_velocities(p, ctx, &Vs), TEAL_OK);
    ck_assert_int_eq(teal_plant_eval_body_poses(p, ctx, &Xs), TEAL_OK);
    double va = teal_spatial_vector_linear(Vs[a]).v[2], vb = teal_spatial_vector_linear(Vs[b]).v[2];
    ck_assert_msg(fabs(vb - 0.5 * (es[i] - 1.0)) < 1e-12 && fabs(va + 0.5 * (1.0 + es[i])) < 1e-12,
                  "e = %g: v_A = %g, v_B = %g", es[i], va, vb);
    ck_assert_msg(Xs[b].p.v[2] - Xs[a].p.v[2] >= -1e-12, "e = %g: the ball passed the plane",
                  es[i]);
    teal_simulator_free(sim);
    teal_plant_free(p);
  }
}
END_TEST

/* A rod on a hinge about y, no gravity, with a lower hard stop at q = 0 of
 * restitution e. */
static teal_plant *stopped_hinge(double e) {
  teal_plant *p = teal_plant_new(1e-3, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(
      1.0, teal_vec3_make(0, 0, -0.25), teal_mat3_diag(1.0 / 48, 1.0 / 48, 1e-6));
  int b = teal_plant_add_rigid_body(p, "rod", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int j = teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                               teal_plant_body_frame(p, b), &y, 0);
  teal_unilateral_contact_spec s =
      teal_unilateral_contact_spec_default(TEAL_UNILATERAL_HARD_STOP_LOWER);
  s.joint = j;
  s.restitution = e;
  ck_assert_int_eq(teal_plant_adopt_unilateral_contact(p, &s), 0);
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_zero()), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

START_TEST(hinge_rebounds_from_hard_stop_at_e_times_its_speed) {
  double es[] = {0.0, 0.3, 1.0};
  for (int i = 0; i < 3; i++) {
    teal_plant *p = stopped_hinge(es[i]);
    teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
    teal_context *ctx = teal_simulator_context(sim);
    double q = 0.5, v = -2.0;
    ck_assert_int_eq(teal_plant_set_positions(p, ctx, &q, 1), TEAL_OK);
    ck_assert_int_eq(teal_plant_set_velocities(p, ctx, &v, 1), TEAL_OK);
    for (int k = 1; k <= 10; k++) {
      advance(sim, 0.1 * k);
      ck_assert_int_eq(teal_plant_get_positions(p, ctx, &q, 1), TEAL_OK);
      ck_assert_msg(q >= -1e-12, "e = %g: q = %g passed the stop", es[i], q);
    }
    ck_assert_int_eq(teal_plant_get_velocities(p, ctx, &v, 1), TEAL_OK);
    ck_assert_msg(fabs(v - 2.0 * es[i]) < 1e-12, "e = %g: rebound %g", es[i], v);
    teal_simulator_free(sim);
    teal_plant_free(p);
  }
}
END_TEST

/* A 1 kg bob on two prismatic joints (x, then z) hanging from the world
 * origin by a rope of length 1, gravity along -z. */
static teal_plant *rope_bob(double e) {
  teal_plant *p = teal_plant_new(1e-4, NULL);
  teal_spatial_inertia tiny =
      teal_spatial_inertia_from_central(1e-3, teal_vec3_zero(), teal_mat3_diag(1e-4, 1e-4, 1e-4));
  teal_spatial_inertia M =
      teal_spatial_inertia_from_central(1.0, teal_vec3_zero(), teal_mat3_diag(0.1, 0.1, 0.1));
  int c = teal_plant_add_rigid_body(p, "carriage", TEAL_DEFAULT_MODEL_INSTANCE, &tiny);
  int b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 x = teal_vec3_make(1, 0, 0), z = teal_vec3_make(0, 0, 1);
  teal_plant_add_joint(p, "x", TEAL_JOINT_PRISMATIC, TEAL_WORLD_FRAME, teal_plant_body_frame(p, c),
                       &x, 0);
  teal_plant_add_joint(p, "z", TEAL_JOINT_PRISMATIC, teal_plant_body_frame(p, c),
                       teal_plant_body_frame(p, b), &z, 0);
  teal_unilateral_contact_spec s = teal_unilateral_contact_spec_default(TEAL_UNILATERAL_ROPE);
  s.body_a = TEAL_WORLD_BODY;
  s.body_b = b;
  s.limit = 1.0;
  s.restitution = e;
  ck_assert_int_eq(teal_plant_adopt_unilateral_contact(p, &s), 0);
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(0, 0, -G)), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

START_TEST(rope_goes_slack_and_taut) {
  teal_plant *p = rope_bob(0.0);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  double q[2] = {0.0, -1.0}, v[2] = {0.5, 2.0}; /* thrown up from hanging taut */
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, 2), TEAL_OK);
  advance(sim, 0.2); /* slack: the free parabola */
  ck_assert_int_eq(teal_plant_get_positions(p, ctx, q, 2), TEAL_OK);
  double z = -1.0 + 2.0 * 0.2 - 0.5 * G * 0.04;
  ck_assert_msg(fabs(q[0] - 0.1) < 1e-9 && fabs(q[1] - z) < 1e-4, "slack at (%g, %g)", q[0], q[1]);
  ck_assert_msg(hypot(q[0], q[1]) < 0.9, "not slack");
  /* taut again after about 0.41 s, never longer but for the O((h v)^2)
   * a swing's turn adds within one step (the row is the length's rate) */
  for (int k = 1; k <= 20; k++) {
    advance(sim, 0.2 + 0.05 * k);
    ck_assert_int_eq(teal_plant_get_positions(p, ctx, q, 2), TEAL_OK);
    ck_assert_msg(hypot(q[0], q[1]) <= 1.0 + 1e-7, "stretched to %.12g", hypot(q[0], q[1]));
  }
  ck_assert_msg(fabs(hypot(q[0], q[1]) - 1.0) < 1e-6, "not taut at the end: %g", hypot(q[0], q[1]));
  ck_assert_msg(q[1] < -0.9, "swinging below the origin: (%g, %g)", q[0], q[1]);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* A block on prismatic z (world to carriage, 1 kg) and prismatic x
 * (carriage to block, 1 kg) resting on the world plane z = 0, with
 * state-limited friction on x: max_force + mu |N|. */
static teal_plant *friction_slider(double max_force, double mu) {
  teal_plant *p = teal_plant_new(1e-3, NULL);
  teal_spatial_inertia M =
      teal_spatial_inertia_from_central(1.0, teal_vec3_zero(), teal_mat3_diag(0.1, 0.1, 0.1));
  int c = teal_plant_add_rigid_body(p, "carriage", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int b = teal_plant_add_rigid_body(p, "block", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 x = teal_vec3_make(1, 0, 0), z = teal_vec3_make(0, 0, 1);
  teal_plant_add_joint(p, "z", TEAL_JOINT_PRISMATIC, TEAL_WORLD_FRAME, teal_plant_body_frame(p, c),
                       &z, 0);
  int jx = teal_plant_add_joint(p, "x", TEAL_JOINT_PRISMATIC, teal_plant_body_frame(p, c),
                                teal_plant_body_frame(p, b), &x, 0);
  teal_unilateral_contact_spec s =
      teal_unilateral_contact_spec_default(TEAL_UNILATERAL_POINT_IN_PLANE);
  s.body_a = TEAL_WORLD_BODY;
  s.body_b = b;
  ck_assert_int_eq(teal_plant_adopt_unilateral_contact(p, &s), 0);
  teal_state_limited_friction_spec f = {jx, mu > 0.0 ? 0 : -1, mu, max_force, 1};
  ck_assert_int_eq(teal_plant_adopt_state_limited_friction(p, &f), 0);
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(0, 0, -G)), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* The slider's x velocity after 1 s pushed along x by force. */
static double push(teal_plant *p, double force) {
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  double tau[2] = {0.0, force}, v[2];
  ck_assert_int_eq(
      teal_context_fix_input(ctx, teal_plant_applied_generalized_force_input_port(p), tau, 2),
      TEAL_OK);
  advance(sim, 1.0);
  ck_assert_int_eq(teal_plant_get_velocities(p, ctx, v, 2), TEAL_OK);
  ck_assert_msg(fabs(v[0]) < 1e-12, "the block left the plane: vz = %g", v[0]);
  teal_simulator_free(sim);
  return v[1];
}

START_TEST(constant_friction_holds_below_its_limit_and_slips_above) {
  teal_plant *p = friction_slider(2.0, 0.0);
  ck_assert_msg(push(p, 1.5) == 0.0, "held joint moved");
  ck_assert_msg(fabs(push(p, 3.0) - 1.0) < 1e-9, "slip: v = %g, expected 1", push(p, 3.0));
  ck_assert_msg(fabs(push(p, -3.0) + 1.0) < 1e-9, "slip backwards");
  teal_plant_free(p);
}
END_TEST

START_TEST(normal_force_limited_friction_follows_mu_n) {
  /* N carries both bodies: 2 g, so the limit is 0.5 * 2 g = g */
  teal_plant *p = friction_slider(0.0, 0.5);
  ck_assert_msg(push(p, 0.9 * G) == 0.0, "held joint moved");
  double v = push(p, 1.2 * G);
  ck_assert_msg(fabs(v - 0.2 * G) < 1e-9, "slip: v = %g, expected %g", v, 0.2 * G);
  /* doubling mu through set holds the larger push */
  teal_state_limited_friction_spec f;
  ck_assert_int_eq(teal_plant_get_state_limited_friction(p, 0, &f), TEAL_OK);
  f.mu = 1.0;
  ck_assert_int_eq(teal_plant_set_state_limited_friction(p, 0, &f), TEAL_OK);
  ck_assert_msg(push(p, 1.2 * G) == 0.0, "held joint moved with mu = 1");
  teal_plant_free(p);
}
END_TEST

START_TEST(disabled_contact_lets_the_ball_fall_through) {
  teal_plant *p = ball_on_plane(1e-3, 0.0, 0.0);
  teal_unilateral_contact_spec s;
  ck_assert_int_eq(teal_plant_get_unilateral_contact(p, 0, &s), TEAL_OK);
  s.enabled = 0;
  ck_assert_int_eq(teal_plant_set_unilateral_contact(p, 0, &s), TEAL_OK);
  teal_simulator *sim = start_free(p, teal_vec3_make(0, 0, 0.1), teal_vec3_zero());
  advance(sim, 0.5);
  ck_assert_msg(ball_position(p, sim).v[2] < -0.5, "held up by a disabled contact");
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

START_TEST(step_allocates_nothing) {
  teal_plant *p = friction_slider(1.0, 0.5);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  double tau[2] = {0.0, 20.0};
  ck_assert_int_eq(
      teal_context_fix_input(teal_simulator_context(sim),
                             teal_plant_applied_generalized_force_input_port(p), tau, 2),
      TEAL_OK);
  advance(sim, 0.01);
  ts_alloc_install();
  advance(sim, 0.2);
  ts_alloc_expect_none();
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("unilateral_step");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, ball_bounces_to_e_squared_h0);
  tcase_add_test(tc, plastic_ball_rests_without_drift);
  tcase_add_test(tc, sliding_block_decelerates_at_mu_g_then_sticks);
  tcase_add_test(tc, ball_on_a_slope_sticks_inside_the_cone_and_slides_outside);
  tcase_add_test(tc, impact_between_two_bodies_keeps_momentum_with_restitution);
  tcase_add_test(tc, hinge_rebounds_from_hard_stop_at_e_times_its_speed);
  tcase_add_test(tc, rope_goes_slack_and_taut);
  tcase_add_test(tc, constant_friction_holds_below_its_limit_and_slips_above);
  tcase_add_test(tc, normal_force_limited_friction_follows_mu_n);
  tcase_add_test(tc, disabled_contact_lets_the_ball_fall_through);
  tcase_add_test(tc, step_allocates_nothing);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
