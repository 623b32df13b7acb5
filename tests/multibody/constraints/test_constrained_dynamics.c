/* Constrained forward dynamics (multibody/constraints/constrained_dynamics.h)
 * against independent references: a free body ball-constrained to the world
 * against the revolute pendulum (trajectory and, hanging at rest, the
 * multiplier m g), a -2 coupler driven on one joint against its closed-form
 * accelerations and transmitted torque, two welded free bodies against the
 * merged body, a parallelogram four-bar closed by a (redundant) ball against
 * its kinematics, the residual M vdot + C v - f + G' lambda and G vdot = b
 * on random trees, a conflicting redundant set, the projected inverse mass
 * against G M^-1 G' formed from the mass matrix, impulses, and no
 * allocation in the derivative evaluation. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/constraints/constrained_dynamics.h"
#include "multibody/constraints/constraint_context.h"
#include "multibody/constraints/constraint_operators.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/plant/plant_inverse_dynamics.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_constraint_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/simulator.h"

static const double g = 9.81;

/* ---- pendulum: revolute against ball-constrained free body ----------------------- */

/* A body with its center of mass 0.8 below its origin, inertia not
 * symmetric about the swing axis. */
static teal_spatial_inertia bob(double m) {
  return teal_spatial_inertia_from_central(m, teal_vec3_make(0, 0, -0.8),
                                           teal_mat3_diag(0.05, 0.07, 0.03));
}

static teal_plant *revolute_pendulum(double m) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = bob(m);
  int b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  ck_assert_int_ge(teal_plant_add_joint(p, "pin", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(p, b), &y, 0.0),
                   0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

static teal_plant *ball_pendulum(double m) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = bob(m);
  int b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_eq(
      teal_plant_add_ball_constraint(p, TEAL_WORLD_BODY, teal_vec3_zero(), b, teal_vec3_zero()), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* Runs sim (of p, its initial state set) to T with RK45 at accuracy
 * 1e-13, frees it, and returns body 1's pose then. */
static teal_transform body1_pose_after(teal_plant *p, teal_simulator *sim, double T) {
  teal_simulator_set_integrator(sim, teal_integrator_rk45);
  teal_simulator_set_accuracy(sim, 1e-13);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, T, &st), TEAL_OK);
  const teal_transform *X;
  ck_assert_int_eq(teal_plant_eval_body_poses(p, teal_simulator_context(sim), &X), TEAL_OK);
  teal_transform out = X[1];
  teal_simulator_free(sim);
  return out;
}

/* Runs p from (theta0, omega0) about y for T seconds; returns the bob's pose. */
static teal_transform swing(teal_plant *p, int ball, double theta0, double omega0, double T) {
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  ck_assert_ptr_nonnull(sim);
  teal_context *ctx = teal_simulator_context(sim);
  if (ball) {
    teal_transform X = {teal_rotation_from_axis_angle(teal_vec3_make(0, 1, 0), theta0),
                        teal_vec3_zero()};
    ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, 1, X), TEAL_OK);
    teal_spatial_vector V =
        teal_spatial_vector_make(teal_vec3_make(0, omega0, 0), teal_vec3_zero());
    ck_assert_int_eq(teal_plant_set_free_body_spatial_velocity(p, ctx, 1, V), TEAL_OK);
  } else {
    ck_assert_int_eq(teal_plant_set_positions(p, ctx, &theta0, 1), TEAL_OK);
    ck_assert_int_eq(teal_plant_set_velocities(p, ctx, &omega0, 1), TEAL_OK);
  }
  return body1_pose_after(p, sim, T);
}

static double pose_diff(teal_transform a, teal_transform b) {
  double d = teal_vec3_norm(teal_vec3_sub(a.p, b.p));
  for (int i = 0; i < 9; i++) {
    d = fmax(d, fabs(a.R.m[i] - b.R.m[i]));
  }
  return d;
}

START_TEST(ball_constrained_body_follows_the_revolute_pendulum) {
  teal_plant *rev = revolute_pendulum(1.3), *ball = ball_pendulum(1.3);
  for (int k = 1; k <= 4; k++) {
    double T = 0.25 * k;
    teal_transform a = swing(rev, 0, 0.7, -0.4, T), b = swing(ball, 1, 0.7, -0.4, T);
    double d = pose_diff(a, b);
    if (ts_verbose()) {
      ts_report("pendulum: |X_ball - X_revolute| = %.3g at t = %g\n", d, T);
    }
    ck_assert_msg(d < 1e-8, "pose differs by %g at t = %g", d, T);
    teal_transform X0 = {teal_rotation_from_axis_angle(teal_vec3_make(0, 1, 0), 0.7),
                         teal_vec3_zero()};
    ck_assert_double_gt(pose_diff(b, X0), 1e-2); /* it swings */
  }
  teal_plant_free(rev);
  teal_plant_free(ball);
}
END_TEST

START_TEST(hanging_ball_pendulum_multiplier_is_its_weight) {
  const double m = 1.3;
  teal_plant *p = ball_pendulum(m);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double lambda[3];
  const double *vdot;
  ck_assert_int_eq(teal_plant_get_constraint_multipliers(p, ctx, lambda), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_double_lt(ts_mb_max_abs(vdot, 6), 1e-12);
  /* G' lambda = f: the ball rows pull the bob up by -lambda */
  ck_assert_double_lt(fabs(lambda[0]) + fabs(lambda[1]), 1e-12);
  ck_assert_double_lt(fabs(lambda[2] + m * g), 1e-10);
  teal_spatial_vector F[2];
  double tau[6];
  ck_assert_int_eq(teal_plant_calc_constraint_reaction_forces(p, ctx, F, tau), TEAL_OK);
  teal_vec3 f = teal_spatial_vector_linear(F[1]);
  ck_assert_double_lt(fabs(f.v[2] - m * g), 1e-10);
  ck_assert_double_lt(fabs(f.v[0]) + fabs(f.v[1]), 1e-12);
  double out[3];
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(teal_plant_system(p), ctx,
                                           teal_plant_constraint_multipliers_output_port(p), &y),
                   TEAL_OK);
  memcpy(out, y, sizeof(out));
  ck_assert_double_eq(out[2], lambda[2]);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* ---- coupler ---------------------------------------------------------------------- */

START_TEST(coupler_transmits_the_analytic_torque) {
  const double I0 = 0.3, I1 = 0.5, rho = -2.0, tau = 1.7;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  int joints[2];
  double I[2] = {I0, I1};
  for (int i = 0; i < 2; i++) {
    teal_spatial_inertia M =
        teal_spatial_inertia_from_central(1.0, teal_vec3_zero(), teal_mat3_diag(0.6, 0.6, I[i]));
    int b = teal_plant_add_rigid_body(p, i ? "b1" : "b0", TEAL_DEFAULT_MODEL_INSTANCE, &M);
    joints[i] = teal_plant_add_joint(p, i ? "j1" : "j0", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                     teal_plant_body_frame(p, b), &z, 0.0);
  }
  ck_assert_int_eq(teal_plant_add_coupler_constraint(p, joints[0], joints[1], rho, 0.3), 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double q[2] = {0.3 + rho * 0.2, 0.2}, v[2] = {rho * 1.1, 1.1}, f[2] = {0.0, tau};
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, 2), TEAL_OK);
  ck_assert_int_eq(
      teal_context_fix_input(ctx, teal_plant_applied_generalized_force_input_port(p), f, 2),
      TEAL_OK);
  const double *vdot;
  double lambda, perr, aerr;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_constraint_multipliers(p, ctx, &lambda), TEAL_OK);
  double a1 = tau / (I1 + rho * rho * I0);
  ck_assert_double_lt(fabs(vdot[1] - a1), 1e-12);
  ck_assert_double_lt(fabs(vdot[0] - rho * a1), 1e-12);
  ck_assert_double_lt(fabs(lambda - (-rho * I0 * a1)), 1e-12); /* joint 0 feels -lambda */
  ck_assert_int_eq(teal_plant_calc_constraint_acceleration_errors(p, ctx, vdot, &aerr), TEAL_OK);
  ck_assert_double_lt(fabs(aerr), 1e-14);
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, &perr), TEAL_OK);
  ck_assert_double_lt(fabs(perr), 1e-15);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* ---- weld ------------------------------------------------------------------------- */

static const teal_spatial_inertia *weld_inertias(teal_spatial_inertia M[2], unsigned *s) {
  M[0] = ts_mb_rand_inertia(s);
  M[1] = ts_mb_rand_inertia(s);
  return M;
}

/* Body B's inertia about Ao in A, for the pose X_AB. */
static teal_spatial_inertia merged(const teal_spatial_inertia M[2], teal_transform X_AB) {
  teal_spatial_inertia M_BBo_A = teal_spatial_inertia_reexpress(&M[1], X_AB.R);
  teal_spatial_inertia M_BAo_A = teal_spatial_inertia_shift(&M_BBo_A, teal_vec3_neg(X_AB.p));
  return teal_spatial_inertia_add(&M[0], &M_BAo_A);
}

static teal_transform run_free(teal_plant *p, teal_transform X_WA, teal_spatial_vector V_WA,
                               teal_transform X_AB, double T) {
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, 1, X_WA), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_free_body_spatial_velocity(p, ctx, 1, V_WA), TEAL_OK);
  if (teal_plant_num_bodies(p) > 2) {
    teal_transform X_WB = teal_transform_compose(X_WA, X_AB);
    teal_vec3 w = teal_spatial_vector_angular(V_WA);
    teal_vec3 v = teal_vec3_add(teal_spatial_vector_linear(V_WA),
                                teal_vec3_cross(w, teal_vec3_sub(X_WB.p, X_WA.p)));
    ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, 2, X_WB), TEAL_OK);
    ck_assert_int_eq(
        teal_plant_set_free_body_spatial_velocity(p, ctx, 2, teal_spatial_vector_make(w, v)),
        TEAL_OK);
  }
  return body1_pose_after(p, sim, T);
}

START_TEST(welded_free_bodies_move_as_the_merged_body) {
  unsigned s = 5;
  teal_spatial_inertia M[2];
  weld_inertias(M, &s);
  teal_transform X_AP = ts_mb_rand_pose(&s, 0.4), X_BQ = ts_mb_rand_pose(&s, 0.4);
  teal_transform X_AB = teal_transform_compose(X_AP, teal_transform_inverse(X_BQ));
  teal_plant *welded = teal_plant_new(0.0, NULL);
  int a = teal_plant_add_rigid_body(welded, "A", TEAL_DEFAULT_MODEL_INSTANCE, &M[0]);
  int b = teal_plant_add_rigid_body(welded, "B", TEAL_DEFAULT_MODEL_INSTANCE, &M[1]);
  ck_assert_int_eq(teal_plant_add_weld_constraint(welded, a, X_AP, b, X_BQ), 0);
  ck_assert_int_eq(teal_plant_finalize(welded), TEAL_OK);
  teal_plant *one = teal_plant_new(0.0, NULL);
  teal_spatial_inertia Mc = merged(M, X_AB);
  teal_plant_add_rigid_body(one, "C", TEAL_DEFAULT_MODEL_INSTANCE, &Mc);
  ck_assert_int_eq(teal_plant_finalize(one), TEAL_OK);
  teal_transform X_WA = ts_mb_rand_pose(&s, 1.0);
  teal_spatial_vector V =
      teal_spatial_vector_make(teal_vec3_make(1.5, -2.0, 0.7), teal_vec3_make(0.3, 0.1, 2.0));
  for (int k = 1; k <= 3; k++) {
    double T = 0.3 * k;
    double d = pose_diff(run_free(welded, X_WA, V, X_AB, T), run_free(one, X_WA, V, X_AB, T));
    if (ts_verbose()) {
      ts_report("weld: |X_A - X_C| = %.3g at t = %g\n", d, T);
    }
    ck_assert_msg(d < 1e-9, "welded pair differs from the merged body by %g at t = %g", d, T);
    ck_assert_double_gt(pose_diff(run_free(one, X_WA, V, X_AB, T), X_WA), 1e-2); /* it moves */
  }
  teal_plant_free(welded);
  teal_plant_free(one);
}
END_TEST

/* ---- four-bar (redundant ball) ----------------------------------------------------- */

/* A parallelogram four-bar in the x-y plane: crank (1) on the world at
 * the origin, coupler (2) on the crank's tip, rocker (1) on the world at
 * (2, 0, 0), the coupler's far end ball-joined to the rocker's tip. A 3-D
 * ball on a planar loop: its z row is redundant. */
static teal_plant *four_bar(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  double len[3] = {1.0, 2.0, 1.0};
  const char *names[3] = {"crank", "coupler", "rocker"};
  int bodies[3];
  for (int i = 0; i < 3; i++) {
    teal_spatial_inertia M =
        teal_spatial_inertia_from_central(1.0 + i, teal_vec3_make(0.5 * len[i], 0, 0),
                                          teal_mat3_diag(0.01, 0.1 * len[i], 0.1 * len[i]));
    bodies[i] = teal_plant_add_rigid_body(p, names[i], TEAL_DEFAULT_MODEL_INSTANCE, &M);
  }
  teal_transform tip = {teal_rotation_identity(), teal_vec3_make(1, 0, 0)};
  teal_transform ground = {teal_rotation_identity(), teal_vec3_make(2, 0, 0)};
  int f_tip = teal_plant_add_frame(p, "tip", teal_plant_body_frame(p, bodies[0]), tip);
  int f_ground = teal_plant_add_frame(p, "ground", TEAL_WORLD_FRAME, ground);
  teal_plant_add_joint(p, "j_crank", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                       teal_plant_body_frame(p, bodies[0]), &z, 0.0);
  teal_plant_add_joint(p, "j_coupler", TEAL_JOINT_REVOLUTE, f_tip,
                       teal_plant_body_frame(p, bodies[1]), &z, 0.0);
  teal_plant_add_joint(p, "j_rocker", TEAL_JOINT_REVOLUTE, f_ground,
                       teal_plant_body_frame(p, bodies[2]), &z, 0.0);
  ck_assert_int_eq(teal_plant_add_ball_constraint(p, bodies[1], teal_vec3_make(2, 0, 0), bodies[2],
                                                  teal_vec3_make(1, 0, 0)),
                   0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* A context of the four-bar at crank angle theta and rate omega. */
static teal_context *four_bar_context(teal_plant *p, double theta, double omega) {
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double q[3], v[3], sign[3] = {1.0, -1.0, 1.0}; /* joints crank, coupler, rocker */
  for (int j = 0; j < 3; j++) {
    q[teal_plant_joint_q_start(p, j)] = sign[j] * theta;
    v[teal_plant_joint_v_start(p, j)] = sign[j] * omega;
  }
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 3), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, 3), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_gravity_in_context(p, ctx, teal_vec3_make(0, -g, -1.0)), TEAL_OK);
  return ctx;
}

START_TEST(redundant_four_bar_gives_consistent_accelerations) {
  teal_plant *p = four_bar();
  teal_context *ctx = four_bar_context(p, 1.0, 0.8);
  double perr[3], verr[3], aerr[3], lambda[3], tau_g[3], res[3];
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, perr), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_velocity_errors(p, ctx, verr), TEAL_OK);
  ck_assert_double_lt(ts_mb_max_abs(perr, 3) + ts_mb_max_abs(verr, 3), 1e-14);
  const double *vdot;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_constraint_multipliers(p, ctx, lambda), TEAL_OK);
  /* a parallelogram: the crank and rocker turn together, the coupler translates */
  double a_crank = vdot[teal_plant_joint_v_start(p, 0)];
  ck_assert_double_lt(fabs(a_crank - vdot[teal_plant_joint_v_start(p, 2)]), 1e-10);
  ck_assert_double_lt(fabs(a_crank + vdot[teal_plant_joint_v_start(p, 1)]), 1e-10);
  ck_assert_double_gt(fabs(a_crank), 0.1);
  ck_assert_int_eq(teal_plant_calc_constraint_acceleration_errors(p, ctx, vdot, aerr), TEAL_OK);
  ck_assert_double_lt(ts_mb_max_abs(aerr, 3), 1e-10);
  ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, ctx, tau_g), TEAL_OK);
  ck_assert_int_eq(
      teal_plant_calc_constraint_residual_force(p, ctx, vdot, tau_g, NULL, lambda, res), TEAL_OK);
  ck_assert_double_lt(ts_mb_max_abs(res, 3), 1e-10);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* ---- random trees ------------------------------------------------------------------ */

/* G vdot = b and M vdot + C v - tau_g + G' lambda = 0 with the plant's own
 * accelerations and multipliers. */
static void check_equations(teal_plant *p, teal_context *ctx, const char *name, int kind) {
  int nv = teal_plant_nv(p), m = teal_plant_num_constraint_rows(p);
  double *buf = calloc((size_t)(3 * nv + 2 * m), sizeof(double));
  double *tau_g = buf, *res = tau_g + nv, *lambda = res + nv, *aerr = lambda + m;
  const double *vdot;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_constraint_multipliers(p, ctx, lambda), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_acceleration_errors(p, ctx, vdot, aerr), TEAL_OK);
  ck_assert_msg(ts_mb_max_abs(aerr, m) < 1e-10 * (1 + ts_mb_max_abs(vdot, nv)),
                "%s kind %d: |G vdot - b| = %g", name, kind, ts_mb_max_abs(aerr, m));
  ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, ctx, tau_g), TEAL_OK);
  ck_assert_int_eq(
      teal_plant_calc_constraint_residual_force(p, ctx, vdot, tau_g, NULL, lambda, res), TEAL_OK);
  ck_assert_msg(ts_mb_max_abs(res, nv) < 1e-9 * (1 + ts_mb_max_abs(lambda, m)),
                "%s kind %d: residual %g", name, kind, ts_mb_max_abs(res, nv));
  /* the public step from free accelerations: consistent ones come back
   * unchanged with no multiplier, and from rest it meets G vdot = b */
  double *again = calloc((size_t)(2 * nv + m), sizeof(double)), *mu = again + 2 * nv;
  ck_assert_int_eq(teal_plant_calc_constrained_accelerations(p, ctx, vdot, again, mu), TEAL_OK);
  for (int i = 0; i < nv; i++) {
    ck_assert_double_eq_tol(again[i], vdot[i], 1e-9 * (1 + ts_mb_max_abs(vdot, nv)));
  }
  ck_assert_msg(ts_mb_max_abs(mu, m) < 1e-9 * (1 + ts_mb_max_abs(lambda, m)), "%s kind %d: mu %g",
                name, kind, ts_mb_max_abs(mu, m));
  ck_assert_int_eq(teal_plant_calc_constrained_accelerations(p, ctx, again + nv, again, NULL),
                   TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_acceleration_errors(p, ctx, again, aerr), TEAL_OK);
  ck_assert_msg(ts_mb_max_abs(aerr, m) < 1e-10 * (1 + ts_mb_max_abs(again, nv)),
                "%s kind %d: from rest |G vdot - b| = %g", name, kind, ts_mb_max_abs(aerr, m));
  free(again);
  free(buf);
}

START_TEST(random_trees_satisfy_the_constrained_equations) {
  for (int t = 0; t < ts_mb_num_topologies; t++) {
    for (int kind = 0; kind < TS_MBC_NUM_KINDS; kind++) {
      unsigned s = 11u * (unsigned)kind + 3u * (unsigned)t + 1u;
      teal_plant *p = ts_mbc_open_tree(&ts_mb_topologies[t], s);
      int c = ts_mbc_add_random_constraint(p, kind, &s);
      if (c == TEAL_ENOTFOUND) {
        teal_plant_free(p);
        continue;
      }
      ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
      teal_context *ctx = ts_mbc_random_context(p, &s, 0.8);
      check_equations(p, ctx, ts_mb_topologies[t].name, kind);
      teal_context_free(ctx);
      teal_plant_free(p);
    }
  }
}
END_TEST

/* ---- W and impulses ---------------------------------------------------------------- */

START_TEST(projected_inverse_mass_and_impulses) {
  teal_plant *p = four_bar();
  teal_context *ctx = four_bar_context(p, 0.6, -0.3);
  double W[9], G[9], M[9], impulse[3], dv[3] = {0.2, -0.1, 0.0};
  ck_assert_int_eq(teal_plant_calc_projected_mass_inverse(p, ctx, W), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_jacobian(p, ctx, G), TEAL_OK);
  const double *Mp;
  ck_assert_int_eq(teal_plant_eval_mass_matrix(p, ctx, &Mp), TEAL_OK);
  memcpy(M, Mp, sizeof(M));
  /* Y = M^-1 G' column by column through M Y = G' (Gauss-Jordan on 3 x 3) */
  double A[3][6];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      A[i][j] = M[3 * i + j];
      A[i][3 + j] = G[3 * j + i];
    }
  }
  for (int c = 0; c < 3; c++) {
    for (int r = 0; r < 3; r++) {
      if (r != c) {
        double f = A[r][c] / A[c][c];
        for (int k = 0; k < 6; k++) {
          A[r][k] -= f * A[c][k];
        }
      }
    }
  }
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      double w = 0.0;
      for (int k = 0; k < 3; k++) {
        w += G[3 * i + k] * A[k][3 + j] / A[k][k];
      }
      ck_assert_double_lt(fabs(w - W[3 * i + j]), 1e-12);
    }
  }
  /* the z row is redundant and consistent (zero) */
  ck_assert_int_eq(teal_plant_solve_for_constraint_impulses(p, ctx, dv, impulse), TEAL_OK);
  for (int i = 0; i < 3; i++) {
    double r = -dv[i];
    for (int k = 0; k < 3; k++) {
      r += W[3 * i + k] * impulse[k];
    }
    ck_assert_double_lt(fabs(r), 1e-12);
  }
  dv[2] = 1.0; /* asks the redundant row for a change no impulse makes */
  TS_EXPECT_ERROR(teal_plant_solve_for_constraint_impulses(p, ctx, dv, impulse), TEAL_ESINGULAR,
                  teal_context_error(ctx), "conflicting redundant constraints");
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* ---- conflicts and allocation -------------------------------------------------------- */

START_TEST(conflicting_redundant_set_is_an_error) {
  teal_plant *p = ts_mbc_conflicting_slider(0);
  ck_assert_ptr_nonnull(p);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double v = 1.0;
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, &v, 1), TEAL_OK);
  const double *vdot;
  TS_EXPECT_ERROR(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_ESINGULAR,
                  teal_context_error(ctx), "conflicting redundant constraints");
  v = 0.0; /* at rest the same set is consistent */
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, &v, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(derivatives_allocate_nothing) {
  teal_plant *p = four_bar();
  teal_context *ctx = four_bar_context(p, 1.0, 0.5);
  teal_system *sys = teal_plant_system(p);
  double xdot[6], lambda[3], W[9], Gu[3], u[3] = {1, 2, 3};
  ck_assert_int_eq(teal_calc_time_derivatives(sys, ctx, xdot), TEAL_OK); /* warm up */
  ts_alloc_install();
  ts_alloc_reset();
  for (int i = 0; i < 20; i++) {
    double q[3];
    for (int j = 0; j < 3; j++) {
      q[teal_plant_joint_q_start(p, j)] = (j == 1 ? -1.0 : 1.0) * (1.0 + 0.01 * i);
    }
    ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 3), TEAL_OK);
    ck_assert_int_eq(teal_calc_time_derivatives(sys, ctx, xdot), TEAL_OK);
    ck_assert_int_eq(teal_plant_get_constraint_multipliers(p, ctx, lambda), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_projected_mass_inverse(p, ctx, W), TEAL_OK);
    ck_assert_int_eq(teal_plant_multiply_by_constraint_jacobian(p, ctx, u, Gu), TEAL_OK);
  }
  ts_alloc_expect_none();
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

static Suite *constrained_dynamics_suite(void) {
  Suite *s = suite_create("constrained_dynamics");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, ball_constrained_body_follows_the_revolute_pendulum);
  tcase_add_test(tc, hanging_ball_pendulum_multiplier_is_its_weight);
  tcase_add_test(tc, coupler_transmits_the_analytic_torque);
  tcase_add_test(tc, welded_free_bodies_move_as_the_merged_body);
  tcase_add_test(tc, redundant_four_bar_gives_consistent_accelerations);
  tcase_add_test(tc, random_trees_satisfy_the_constrained_equations);
  tcase_add_test(tc, projected_inverse_mass_and_impulses);
  tcase_add_test(tc, conflicting_redundant_set_is_an_error);
  tcase_add_test(tc, derivatives_allocate_nothing);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(constrained_dynamics_suite());
}
