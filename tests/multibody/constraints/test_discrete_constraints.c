/* Constraints in the discrete step (multibody/plant/discrete_constraints.c):
 * near-rigid compliant rows solved with the contact forces by the step's
 * islands. Checked against the constraint manifold, a tight continuous run
 * of the same four-bar (and first-order convergence of the difference), the
 * closed forms of a geared pair and of a hanging ball joint, a single body
 * with the welded pair's merged inertia, a gripper holding a box by
 * friction, and the allocation counter. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support/error_messages.h"
#include "solvers/dense_lu.h"
#include "support/mb_constraint_fixtures.h"
#include "support/mb_contact_fixtures.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"
#include "teal.h"

#define PI 3.14159265358979323846
#define G 9.81
/* bounds on the differences from the references at h = 1 ms (measured:
 * 6.7e-3 rad, 4.6e-4 m, 1.2e-3), see the tests that use them */
#define FOUR_BAR_ERROR_BOUND 1e-2
#define WELD_POSITION_TOLERANCE 1e-3
#define WELD_ROTATION_TOLERANCE 2e-3

/* ---- the four-bar -------------------------------------------------------------- */

/* A rod of mass m and length len along x, hinged about -y at (at_x, 0, 0)
 * of parent (a frame); returns the body. */
static int add_rod(teal_plant *p, int parent, double at_x, double len, double m, int *joint) {
  char name[16], frame[24];
  snprintf(name, sizeof name, "rod%d", teal_plant_num_bodies(p));
  snprintf(frame, sizeof frame, "%s_hinge", name);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(
      m, teal_vec3_make(0.5 * len, 0, 0),
      teal_mat3_diag(1e-5 * m, m * len * len / 12, m * len * len / 12));
  int b = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int f = teal_plant_add_frame(
      p, frame, parent, teal_transform_make(teal_rotation_identity(), teal_vec3_make(at_x, 0, 0)));
  teal_vec3 axis = teal_vec3_make(0, -1, 0);
  *joint = teal_plant_add_joint(p, name, TEAL_JOINT_REVOLUTE, f, teal_plant_body_frame(p, b), &axis,
                                0.0);
  return b;
}

/* The crank-rocker of bench/constraints (ground 1, crank 0.3, coupler 1,
 * rocker 0.8, 1 kg/m) closed by a ball constraint; q0 its assembled
 * angles with the crank at 90 degrees (by q index; the crank's is 0). */
static teal_plant *four_bar(double h, double q0[3]) {
  teal_plant *p = teal_plant_new(h, NULL);
  int j[3];
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(0, 0, -G)), TEAL_OK);
  int crank = add_rod(p, TEAL_WORLD_FRAME, 0.0, 0.3, 0.3, &j[0]);
  int coupler = add_rod(p, teal_plant_body_frame(p, crank), 0.3, 1.0, 1.0, &j[1]);
  int rocker = add_rod(p, TEAL_WORLD_FRAME, 1.0, 0.8, 0.8, &j[2]);
  ck_assert_int_eq(teal_plant_add_ball_constraint(p, rocker, teal_vec3_make(0.8, 0, 0), coupler,
                                                  teal_vec3_make(1.0, 0, 0)),
                   0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  /* B: where the coupler's circle about A meets the rocker's about (1, 0) */
  double ax = 0.0, az = 0.3, dx = 1.0 - ax, dz = -az, d = sqrt(dx * dx + dz * dz);
  double along = (1.0 - 0.64 + d * d) / (2 * d), across = sqrt(1.0 - along * along);
  double bx = ax + (along * dx - across * dz) / d, bz = az + (along * dz + across * dx) / d;
  q0[teal_plant_joint_q_start(p, j[0])] = PI / 2;
  q0[teal_plant_joint_q_start(p, j[1])] = atan2(bz - az, bx - ax) - PI / 2;
  q0[teal_plant_joint_q_start(p, j[2])] = atan2(bz, bx - 1.0);
  return p;
}

static double perr_norm(const teal_plant *p, const teal_context *ctx) {
  double e[3];
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, e), TEAL_OK);
  return sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
}

/* A simulator of p from q0 at rest (continuous: RK45 at accuracy acc). */
static teal_simulator *start(teal_plant *p, const double *q0, double acc) {
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  ck_assert_ptr_nonnull(sim);
  ck_assert_int_eq(teal_plant_set_positions(p, teal_simulator_context(sim), q0, teal_plant_nq(p)),
                   TEAL_OK);
  if (acc > 0.0) {
    ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk45), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, acc), TEAL_OK);
  }
  return sim;
}

static void advance(teal_simulator *sim, double t) {
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, t, &st);
  ck_assert_msg(rc == TEAL_OK, "t = %g: %s", st.time, st.message);
}

START_TEST(four_bar_stays_on_its_manifold_at_1ms) {
  double q0[3], worst = 0.0;
  teal_plant *p = four_bar(1e-3, q0);
  teal_simulator *sim = start(p, q0, 0.0);
  ck_assert_double_le(perr_norm(p, teal_simulator_context(sim)), 1e-12);
  for (int k = 1; k <= 10000; k++) {
    advance(sim, 1e-3 * k);
    worst = fmax(worst, perr_norm(p, teal_simulator_context(sim)));
  }
  printf("four-bar, discrete 1 ms, 10 s: largest |perr| %.3g m\n", worst);
  ck_assert_double_le(worst, 1e-4);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* The crank angle every 10 ms over t_end of a run at time step h (0: the
 * continuous plant with RK45 at 1e-10). */
static void crank_angles(double h, double t_end, double *out) {
  double q0[3], q[3];
  teal_plant *p = four_bar(h, q0);
  teal_simulator *sim = start(p, q0, h > 0.0 ? 0.0 : 1e-10);
  for (int k = 1; k <= (int)lround(t_end / 0.01); k++) {
    advance(sim, 0.01 * k);
    ck_assert_int_eq(teal_plant_get_positions(p, teal_simulator_context(sim), q, 3), TEAL_OK);
    out[k - 1] = q[teal_plant_joint_q_start(p, 0)]; /* the crank's */
  }
  teal_simulator_free(sim);
  teal_plant_free(p);
}

static double max_difference(const double *a, const double *b, int n) {
  double d = 0.0;
  for (int i = 0; i < n; i++) {
    d = fmax(d, fabs(a[i] - b[i]));
  }
  return d;
}

START_TEST(four_bar_agrees_with_the_continuous_run) {
  enum { N = 100 }; /* 1 s */
  double ref[N], h1[N], h2[N];
  crank_angles(0.0, 1.0, ref);
  crank_angles(1e-3, 1.0, h1);
  crank_angles(5e-4, 1.0, h2);
  double e1 = max_difference(h1, ref, N), e2 = max_difference(h2, ref, N);
  printf("four-bar crank angle vs continuous over 1 s: %.3g rad at 1 ms, %.3g at 0.5 ms\n", e1, e2);
  /* the step is first order: halving h halves the difference */
  ck_assert_double_le(e1, FOUR_BAR_ERROR_BOUND);
  ck_assert_double_ge(e1 / e2, 1.7);
  ck_assert_double_le(e1 / e2, 2.3);
}
END_TEST

/* ---- a geared pair ---------------------------------------------------------------- */

/* Two wheels on hinges about z (I0 = 0.5, I1 = 0.2), coupled by
 * q0 = -2 q1, a motor on wheel 1 with torque u; no gravity. */
static teal_plant *geared_pair(double h, int *coupler) {
  teal_plant *p = teal_plant_new(h, NULL);
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_zero()), TEAL_OK);
  int j[2];
  double I[2] = {0.5, 0.2};
  for (int i = 0; i < 2; i++) {
    char name[8];
    snprintf(name, sizeof name, "w%d", i);
    teal_spatial_inertia M =
        teal_spatial_inertia_from_central(1.0, teal_vec3_zero(), teal_mat3_diag(1, 1, I[i]));
    int b = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
    int f = teal_plant_add_frame(
        p, i ? "w1_axle" : "w0_axle", TEAL_WORLD_FRAME,
        teal_transform_make(teal_rotation_identity(), teal_vec3_make(i, 0, 0)));
    teal_vec3 z = teal_vec3_make(0, 0, 1);
    j[i] =
        teal_plant_add_joint(p, name, TEAL_JOINT_REVOLUTE, f, teal_plant_body_frame(p, b), &z, 0.0);
  }
  ck_assert_int_ge(teal_plant_add_joint_actuator(p, "motor", j[1], INFINITY), 0);
  *coupler = teal_plant_add_coupler_constraint(p, j[0], j[1], -2.0, 0.0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

START_TEST(coupler_holds_and_transmits_the_torque) {
  int c;
  double h = 1e-3, u = 1.0, q[2], lambda[1];
  teal_plant *p = geared_pair(h, &c);
  teal_simulator *sim = start(p, (double[]){0, 0}, 0.0);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_context_fix_input(ctx, teal_plant_actuation_input_port(p), &u, 1), TEAL_OK);
  advance(sim, 1.0);
  ck_assert_int_eq(teal_plant_get_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_discrete_constraint_multipliers(p, ctx, lambda), TEAL_OK);
  /* the pair turns as one inertia I1 + 4 I0 about q1; the coupler carries
   * lambda = 2 I0 a1 (M vdot + G' lambda = tau with G = [1 2]) */
  double a1 = u / (0.2 + 4 * 0.5), t = 1.0;
  printf("coupler: q0 + 2 q1 = %.3g, lambda %.12f (2 I0 a1 = %.12f)\n", q[0] + 2 * q[1], lambda[0],
         2 * 0.5 * a1);
  /* the near-rigid row is a spring of stiffness 1 / (R h^2), R = w / (4 pi^2)
   * with w = G M^-1 G' = 1 / I0 + 4 / I1: it holds lambda at the offset
   * lambda R h^2 (2.5e-7 here) */
  double w = 1 / 0.5 + 4 / 0.2, offset = lambda[0] * w * h * h / (4 * PI * PI);
  ck_assert_double_eq_tol(q[0] + 2 * q[1], offset, 1e-3 * offset);
  /* semi-implicit Euler from rest: q1 after n steps is a1 h^2 n (n + 1) / 2 */
  ck_assert_double_eq_tol(q[1], 0.5 * a1 * (t * t + h * t), 1e-6);
  ck_assert_double_eq_tol(lambda[0], 2 * 0.5 * a1, 1e-9);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* ---- a body hanging from a ball joint --------------------------------------------- */

/* A 2 kg box hanging from the world at its top point by a ball constraint
 * (time step h; 0: continuous); body into *body. */
static teal_plant *hanging_box(double h, int *body) {
  teal_plant *p = teal_plant_new(h, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(2.0, 0.1, 0.1, 1.0);
  *body = teal_plant_add_rigid_body(p, "hanging", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_eq(teal_plant_add_ball_constraint(p, TEAL_WORLD_BODY, teal_vec3_make(0, 0, 1),
                                                  *body, teal_vec3_make(0, 0, 0.5)),
                   0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

START_TEST(hanging_ball_multipliers_match_the_continuous_ones) {
  int b;
  double lc[3], ld[3];
  teal_plant *pc = hanging_box(0.0, &b), *pd = hanging_box(1e-3, &b);
  teal_context *cc = teal_context_new(teal_plant_system(pc), NULL);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(pd), NULL, NULL);
  teal_context *cd = teal_simulator_context(sim);
  teal_transform X = teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 0.5));
  ck_assert_int_eq(teal_plant_set_free_body_pose(pc, cc, b, X), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_free_body_pose(pd, cd, b, X), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_discrete_constraint_multipliers(pd, cd, ld), TEAL_OK);
  /* the first step from the manifold at rest: the near-rigid row lets the
   * body sag by a fraction of g h^2 and carries 1 / (1 + beta^2 / 4 pi^2)
   * of the weight */
  ck_assert_double_eq_tol(ld[2], -2.0 * G / (1 + 1 / (4 * PI * PI)), 1e-9 * 2.0 * G);
  advance(sim, 0.1); /* then the sag settles and it carries all of it */
  ck_assert_int_eq(teal_plant_get_constraint_multipliers(pc, cc, lc), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_discrete_constraint_multipliers(pd, cd, ld), TEAL_OK);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(ld[i], lc[i], 1e-9 * 2.0 * G);
  }
  ck_assert_double_eq_tol(lc[2], -2.0 * G, 1e-9 * 2.0 * G);
  teal_simulator_free(sim);
  teal_context_free(cc);
  teal_plant_free(pd);
  teal_plant_free(pc);
}
END_TEST

START_TEST(hanging_ball_constraint_carries_the_weight) {
  const double m = 2.0;
  teal_plant *p = teal_plant_new(1e-3, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(m, 0.1, 0.1, 1.0);
  int b = teal_plant_add_rigid_body(p, "hanging", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_eq(teal_plant_add_ball_constraint(p, TEAL_WORLD_BODY, teal_vec3_make(0, 0, 1), b,
                                                  teal_vec3_make(0, 0, 0.5)),
                   0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  teal_transform X = teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 0.5));
  ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, b, X), TEAL_OK);
  advance(sim, 0.1);
  double lambda[3];
  ck_assert_int_eq(teal_plant_get_discrete_constraint_multipliers(p, ctx, lambda), TEAL_OK);
  /* the rows are p_WQ - p_WP: G' lambda balances the weight, lambda_z = -m g */
  ck_assert_double_eq_tol(lambda[2], -m * G, 1e-9 * m * G);
  ck_assert_double_le(fabs(lambda[0]) + fabs(lambda[1]), 1e-9);
  ck_assert_double_le(perr_norm(p, ctx), 1e-6);
  /* disabled, the body falls freely and the multipliers read 0 */
  ck_assert_int_eq(teal_plant_set_constraint_enabled(p, ctx, 0, 0), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_discrete_constraint_multipliers(p, ctx, lambda), TEAL_OK);
  ck_assert_double_eq(lambda[2], 0.0);
  const double *vdot;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_double_eq_tol(vdot[5], -G, 1e-12);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* ---- a welded pair ------------------------------------------------------------------ */

static const teal_vec3 k_weld_offset = {{0.25, 0.05, 0.0}}; /* Bo in A */

static teal_spatial_inertia weld_inertia_a(void) {
  return teal_spatial_inertia_solid_box(1.0, 0.1, 0.2, 0.3);
}

static teal_spatial_inertia weld_inertia_b(void) {
  return teal_spatial_inertia_solid_sphere(0.5, 0.1);
}

/* The pair's (or the merged body's) A pose and velocity at the start. */
static void weld_start(const teal_plant *p, teal_context *ctx, int a, int b) {
  teal_vec3 w = teal_vec3_make(1, 2, 3), v = teal_vec3_make(0.1, 0, 0.5);
  ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, a, teal_transform_identity()), TEAL_OK);
  ck_assert_int_eq(
      teal_plant_set_free_body_spatial_velocity(p, ctx, a, teal_spatial_vector_make(w, v)),
      TEAL_OK);
  if (b >= 0) {
    teal_vec3 vb = teal_vec3_add(v, teal_vec3_cross(w, k_weld_offset));
    teal_transform X = teal_transform_make(teal_rotation_identity(), k_weld_offset);
    ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, b, X), TEAL_OK);
    ck_assert_int_eq(
        teal_plant_set_free_body_spatial_velocity(p, ctx, b, teal_spatial_vector_make(w, vb)),
        TEAL_OK);
  }
}

/* A's pose after 1 s at time step h: of the welded pair (merged = 0) or of
 * one body with the pair's inertia (merged = 1). */
static teal_transform weld_run(int merged, double h, double *violation) {
  teal_plant *p = teal_plant_new(h, NULL);
  teal_spatial_inertia Ma = weld_inertia_a(), Mb = weld_inertia_b();
  if (merged) {
    teal_spatial_inertia Mb_A = teal_spatial_inertia_shift(&Mb, teal_vec3_neg(k_weld_offset));
    Ma = teal_spatial_inertia_add(&Ma, &Mb_A);
  }
  int a = teal_plant_add_rigid_body(p, "a", TEAL_DEFAULT_MODEL_INSTANCE, &Ma), b = -1;
  if (!merged) {
    b = teal_plant_add_rigid_body(p, "b", TEAL_DEFAULT_MODEL_INSTANCE, &Mb);
    teal_transform X_AP = teal_transform_make(teal_rotation_identity(), k_weld_offset);
    ck_assert_int_eq(teal_plant_add_weld_constraint(p, a, X_AP, b, teal_transform_identity()), 0);
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  weld_start(p, teal_simulator_context(sim), a, b);
  advance(sim, 1.0);
  const teal_transform *X;
  ck_assert_int_eq(teal_plant_eval_body_poses(p, teal_simulator_context(sim), &X), TEAL_OK);
  teal_transform X_WA = X[a];
  if (!merged) {
    double e[6];
    ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, teal_simulator_context(sim), e),
                     TEAL_OK);
    *violation = 0.0;
    for (int i = 0; i < 6; i++) {
      *violation = fmax(*violation, fabs(e[i]));
    }
  }
  teal_simulator_free(sim);
  teal_plant_free(p);
  return X_WA;
}

/* The largest difference of the pair's A pose from the merged body's after
 * 1 s at time step h: position into *dp, rotation matrix entries into *dR. */
static void weld_difference(double h, double *dp, double *dR, double *violation) {
  teal_transform pair = weld_run(0, h, violation), one = weld_run(1, h, NULL);
  *dp = teal_vec3_norm(teal_vec3_sub(pair.p, one.p));
  *dR = 0.0;
  for (int i = 0; i < 9; i++) {
    *dR = fmax(*dR, fabs(pair.R.m[i] - one.R.m[i]));
  }
}

START_TEST(welded_pair_moves_as_the_merged_body) {
  double dp1, dR1, dp2, dR2, violation = NAN, unused;
  weld_difference(1e-3, &dp1, &dR1, &violation);
  weld_difference(5e-4, &dp2, &dR2, &unused);
  printf(
      "welded pair vs merged body after 1 s: position %.3g m, rotation %.3g at 1 ms "
      "(%.3g, %.3g at 0.5 ms), weld error %.3g\n",
      dp1, dR1, dp2, dR2, violation);
  /* both steps are first order in h (the pair's sees the weld at the
   * step's start): their difference halves with h */
  ck_assert_double_le(dp1, WELD_POSITION_TOLERANCE);
  ck_assert_double_le(dR1, WELD_ROTATION_TOLERANCE);
  ck_assert_double_ge(dp1 / dp2, 1.7);
  ck_assert_double_le(dp1 / dp2, 2.3);
  ck_assert_double_ge(dR1 / dR2, 1.7);
  ck_assert_double_le(dR1 / dR2, 2.3);
  ck_assert_double_le(violation, 1e-5);
}
END_TEST

/* ---- constraints and contact together: a gripper holding a box -------------------- */

/* A finger pad (box) on a prismatic joint at (x, 0, 0.3) closing along
 * axis_x; returns the joint. */
static int gripper_finger(teal_plant *p, const char *name, double x, double axis_x,
                          const teal_proximity_properties *props) {
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(0.2, 0.02, 0.1, 0.1);
  int body = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int f = teal_plant_add_frame(
      p, axis_x > 0 ? "left_base" : "right_base", TEAL_WORLD_FRAME,
      teal_transform_make(teal_rotation_identity(), teal_vec3_make(x, 0, 0.3)));
  teal_vec3 axis = teal_vec3_make(axis_x, 0, 0);
  int j = teal_plant_add_joint(p, name, TEAL_JOINT_PRISMATIC, f, teal_plant_body_frame(p, body),
                               &axis, 0.0);
  teal_shape pad;
  teal_shape_box(0.02, 0.1, 0.1, &pad, NULL);
  ck_assert_int_ge(
      teal_plant_register_collision_geometry(p, body, teal_transform_identity(), &pad, name, props),
      0);
  return j;
}

/* The gripper of examples/parallel_gripper.c: fingers tied by a coupler,
 * a 20 N squeeze on the left one, a 0.2 kg box with corner spheres. */
static void gripper_world(ts_contact_world *w, int *box, int *fingers, int hanging) {
  w->plant = teal_plant_new(1e-3, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.8, 0.8);
  int left = gripper_finger(w->plant, "left", -0.04, 1.0, &props);
  int right = gripper_finger(w->plant, "right", 0.04, -1.0, &props);
  fingers[0] = left;
  fingers[1] = right;
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(0.2, 0.06, 0.06, 0.06);
  *box = teal_plant_add_rigid_body(w->plant, "box", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_shape corner;
  teal_shape_sphere(0.005, &corner, NULL);
  for (int i = 0; i < 8; i++) {
    char name[16];
    teal_vec3 at =
        teal_vec3_make(i & 1 ? 0.025 : -0.025, i & 2 ? 0.02 : -0.02, i & 4 ? 0.02 : -0.02);
    snprintf(name, sizeof name, "corner%d", i);
    ck_assert_int_ge(teal_plant_register_collision_geometry(
                         w->plant, *box, teal_transform_make(teal_rotation_identity(), at), &corner,
                         name, &props),
                     0);
  }
  ck_assert_int_ge(teal_plant_add_joint_actuator(w->plant, "squeeze", left, INFINITY), 0);
  ck_assert_int_eq(teal_plant_add_coupler_constraint(w->plant, right, left, 1.0, 0.0), 0);
  if (hanging) { /* a 2 kg body on a ball joint, far away: an island without contact */
    teal_spatial_inertia Mh = teal_spatial_inertia_solid_box(2.0, 0.1, 0.1, 1.0);
    int b = teal_plant_add_rigid_body(w->plant, "hanging", TEAL_DEFAULT_MODEL_INSTANCE, &Mh);
    ck_assert_int_eq(
        teal_plant_add_ball_constraint(w->plant, TEAL_WORLD_BODY, teal_vec3_make(5, 0, 1), b,
                                       teal_vec3_make(0, 0, 0.5)),
        1);
  }
  ts_contact_finish(w);
  teal_context *ctx = teal_context_subcontext_mut(w->ctx, teal_plant_system(w->plant));
  double u = 20.0;
  ck_assert_int_eq(teal_context_fix_input(ctx, teal_plant_actuation_input_port(w->plant), &u, 1),
                   TEAL_OK);
  teal_transform X = teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 0.3));
  ck_assert_int_eq(teal_plant_set_free_body_pose(w->plant, ctx, *box, X), TEAL_OK);
  if (hanging) {
    X.p = teal_vec3_make(5, 0, 0.5);
    int b = teal_plant_get_body_by_name(w->plant, "hanging", TEAL_DEFAULT_MODEL_INSTANCE, NULL);
    ck_assert_int_ge(b, 0);
    ck_assert_int_eq(teal_plant_set_free_body_pose(w->plant, ctx, b, X), TEAL_OK);
  }
}

static double box_height(const ts_contact_world *w, int box) {
  const teal_transform *X;
  ck_assert_int_eq(teal_plant_eval_body_poses(w->plant, w->ctx, &X), TEAL_OK);
  return X[box].p.v[2];
}

START_TEST(gripper_holds_the_box_by_friction) {
  ts_contact_world w;
  int box, fingers[2];
  gripper_world(&w, &box, fingers, 0);
  ts_contact_advance(&w, 0.2);
  double z0 = box_height(&w, box), q[16], lambda[1];
  ts_contact_advance(&w, 1.2);
  double slip = box_height(&w, box) - z0;
  ck_assert_int_eq(teal_plant_get_positions(w.plant, w.ctx, q, teal_plant_nq(w.plant)), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_discrete_constraint_multipliers(w.plant, w.ctx, lambda), TEAL_OK);
  double ql = q[teal_plant_joint_q_start(w.plant, fingers[0])];
  double qr = q[teal_plant_joint_q_start(w.plant, fingers[1])];
  printf("gripper: slip %.3g m over 1 s, fingers %.6f %.6f, coupler lambda %.6f\n", slip, ql, qr,
         lambda[0]);
  /* the box hangs from friction: it creeps (regularized stiction) but
   * does not slide; each pad presses with half the squeeze */
  ck_assert_double_le(fabs(slip), 1e-4);
  /* the near-rigid coupler's offset: lambda R h^2 = 10 (w / 4 pi^2) 1e-6
   * with w = 1 / 0.2 + 1 / 0.2, 2.5e-6 m */
  ck_assert_double_le(fabs(ql - qr), 3e-6);
  ck_assert_double_eq_tol(fabs(lambda[0]), 10.0, 0.2);
  ts_contact_world_free(&w);
}
END_TEST

START_TEST(island_without_contact_beside_one_with_contact) {
  ts_contact_world w;
  int box, fingers[2];
  double lambda[4];
  gripper_world(&w, &box, fingers, 1);
  ts_contact_advance(&w, 0.2);
  ck_assert_int_eq(teal_plant_get_discrete_constraint_multipliers(w.plant, w.ctx, lambda), TEAL_OK);
  /* rows 1..3: the hanging body's ball, solved as its own island */
  ck_assert_double_eq_tol(lambda[3], -2.0 * G, 1e-9 * 2.0 * G);
  ck_assert_double_le(fabs(lambda[1]) + fabs(lambda[2]), 1e-9);
  ck_assert_double_eq_tol(fabs(lambda[0]), 10.0, 0.2);
  ts_contact_world_free(&w);
}
END_TEST

/* ---- every constraint kind on random trees, against a dense solve ------------------- */

#define MAX_DOFS 40

/* ts_mbc_open_tree's plant (support/mb_constraint_fixtures.c), discrete at h. */
static teal_plant *open_discrete_tree(const ts_mb_topology *t, unsigned seed, double h) {
  unsigned s = seed;
  int bodies[32];
  teal_plant *p = teal_plant_new(h, NULL);
  for (int i = 0; i < t->n; i++) {
    char name[32];
    snprintf(name, sizeof name, "b%d", i);
    teal_spatial_inertia M = ts_mb_rand_inertia(&s);
    bodies[i] = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
    ck_assert_int_ge(bodies[i], 0);
  }
  for (int i = 0; i < t->n; i++) {
    if (t->spec[i].parent != -2) {
      ck_assert_int_ge(ts_mb_add_random_joint(p, t->spec, bodies, i, &s), 0);
    }
  }
  return p;
}

/* x = A^-1 b for the n x n matrix A (copied into LU). */
static void dense_solve(const double *A, int n, double *LU, double *x) {
  int piv[MAX_DOFS];
  memcpy(LU, A, (size_t)n * n * sizeof(double));
  ck_assert_int_eq(teal_dense_lu_factor(LU, n, piv, NULL), TEAL_OK);
  ck_assert_int_eq(teal_dense_lu_solve(LU, n, piv, x, NULL), TEAL_OK);
}

/* The step's v+ from the free velocity vstar, built densely from the
 * constraint operators' G and perr: (M + h^2 G' K G) v+ = M v* - h G' K g
 * with k_i = 4 pi^2 / (w_i h^2), w_i = G_i M^-1 G_i' (the near-rigid
 * stiffness; 0 for a row no velocity moves). */
static void dense_step(const teal_plant *p, const teal_context *ctx, const double *vstar,
                       double *vnext) {
  int nv = teal_plant_nv(p), m = teal_plant_num_constraint_rows(p);
  double h = teal_plant_time_step(p), Gm[6 * 4 * MAX_DOFS], g[24], k[24], w_max = 0.0;
  double A[MAX_DOFS * MAX_DOFS], LU[MAX_DOFS * MAX_DOFS], x[MAX_DOFS];
  const double *M;
  ck_assert_int_le(m, 24);
  ck_assert_int_eq(teal_plant_eval_mass_matrix(p, ctx, &M), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_jacobian(p, ctx, Gm), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, g), TEAL_OK);
  for (int i = 0; i < m; i++) {
    memcpy(x, Gm + i * nv, (size_t)nv * sizeof(double));
    dense_solve(M, nv, LU, x);
    k[i] = 0.0;
    for (int j = 0; j < nv; j++) {
      k[i] += Gm[i * nv + j] * x[j]; /* w_i for now */
    }
    w_max = fmax(w_max, k[i]);
  }
  for (int i = 0; i < m; i++) {
    k[i] = k[i] > 1e-12 * w_max ? 4 * PI * PI / (k[i] * h * h) : 0.0;
  }
  for (int a = 0; a < nv; a++) {
    vnext[a] = 0.0;
    for (int b = 0; b < nv; b++) {
      A[a * nv + b] = M[a * nv + b];
      vnext[a] += M[a * nv + b] * vstar[b];
      for (int i = 0; i < m; i++) {
        A[a * nv + b] += h * h * k[i] * Gm[i * nv + a] * Gm[i * nv + b];
      }
    }
    for (int i = 0; i < m; i++) {
      vnext[a] -= h * k[i] * Gm[i * nv + a] * g[i];
    }
  }
  dense_solve(A, nv, LU, vnext);
}

/* v + h vdot: the discrete plant's next velocity from ctx. */
static void next_velocity(const teal_plant *p, const teal_context *ctx, double *vnext) {
  const double *vdot;
  int nv = teal_plant_nv(p);
  ck_assert_int_eq(teal_plant_get_velocities(p, ctx, vnext, nv), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  for (int i = 0; i < nv; i++) {
    vnext[i] += teal_plant_time_step(p) * vdot[i];
  }
}

/* Sets every constraint of p enabled or not in ctx. */
static void enable_all(const teal_plant *p, teal_context *ctx, int on) {
  for (int c = 0; c < teal_plant_num_constraints(p); c++) {
    ck_assert_int_eq(teal_plant_set_constraint_enabled(p, ctx, c, on), TEAL_OK);
  }
}

/* Checks the step of the finalized p at a random state against dense_step. */
static void check_against_dense(teal_plant *p, unsigned *state, const char *what) {
  teal_context *ctx = ts_mbc_random_context(p, state, 0.5);
  int nv = teal_plant_nv(p);
  double vstar[MAX_DOFS], v[MAX_DOFS], ref[MAX_DOFS], scale = 1.0, err = 0.0;
  enable_all(p, ctx, 0);
  next_velocity(p, ctx, vstar); /* without constraints: the free motion */
  enable_all(p, ctx, 1);
  next_velocity(p, ctx, v);
  dense_step(p, ctx, vstar, ref);
  for (int i = 0; i < nv; i++) {
    scale = fmax(scale, fabs(ref[i]));
    err = fmax(err, fabs(v[i] - ref[i]));
  }
  ck_assert_msg(err <= 1e-9 * scale, "%s: |v+ - dense| = %g (scale %g)", what, err, scale);
  teal_context_free(ctx);
}

START_TEST(every_kind_on_random_trees_matches_a_dense_solve) {
  const ts_mb_topology *t = &ts_mb_topologies[_i % ts_mb_num_topologies];
  unsigned state = 17u + (unsigned)_i;
  int checked = 0;
  teal_plant *all = open_discrete_tree(t, 3u, 1e-3); /* every kind at once */
  for (int kind = 0; kind < TS_MBC_NUM_KINDS; kind++) {
    teal_plant *p = open_discrete_tree(t, 5u + (unsigned)kind, 1e-3);
    int c = ts_mbc_add_random_constraint(p, kind, &state);
    ts_mbc_add_random_constraint(all, kind, &state);
    if (c == TEAL_ENOTFOUND) { /* no coupler without two hinges */
      teal_plant_free(p);
      continue;
    }
    ck_assert_int_eq(c, 0);
    ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
    ck_assert_int_le(teal_plant_nv(p), MAX_DOFS);
    char what[64];
    snprintf(what, sizeof what, "%s, kind %d", t->name, kind);
    check_against_dense(p, &state, what);
    checked++;
    teal_plant_free(p);
  }
  ck_assert_int_ge(checked, TS_MBC_NUM_KINDS - 1);
  if (teal_plant_finalize(all) == TEAL_OK) { /* unless the rows outnumber the dofs */
    check_against_dense(all, &state, t->name);
  }
  teal_plant_free(all);
}
END_TEST

/* ---- allocation and bad calls -------------------------------------------------------- */

START_TEST(constrained_steps_allocate_nothing) {
  ts_contact_world w;
  int box, fingers[2];
  gripper_world(&w, &box, fingers, 1);
  double q0[3];
  teal_plant *p = four_bar(1e-3, q0);
  teal_simulator *sim = start(p, q0, 0.0);
  ts_contact_advance(&w, 0.05);
  advance(sim, 0.05);
  ts_alloc_install();
  ts_alloc_reset();
  ts_contact_advance(&w, 0.3);
  advance(sim, 0.3);
  ts_alloc_expect_none();
  teal_simulator_free(sim);
  teal_plant_free(p);
  ts_contact_world_free(&w);
}
END_TEST

START_TEST(multiplier_calls_reject_bad_input) {
  double q0[3], lambda[3];
  teal_plant *p = four_bar(1e-3, q0), *cont = four_bar(0.0, q0);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  teal_context *cctx = teal_context_new(teal_plant_system(cont), NULL);
  const char *fn = "teal_plant_get_discrete_constraint_multipliers";
  ck_assert_int_eq(teal_plant_get_discrete_constraint_multipliers(p, NULL, lambda), TEAL_EINVAL);
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_get_discrete_constraint_multipliers(NULL, ctx, lambda), TEAL_EINVAL,
                  teal_context_error(ctx), "NULL plant");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_get_discrete_constraint_multipliers(p, ctx, NULL), TEAL_EINVAL,
                  teal_context_error(ctx), "lambda is NULL");
  ts_stale_context(cctx);
  TS_EXPECT_ERROR(teal_plant_get_discrete_constraint_multipliers(cont, cctx, lambda), TEAL_EINVAL,
                  teal_context_error(cctx), "continuous");
  ts_stale_context(cctx);
  TS_EXPECT_ERROR(teal_plant_get_discrete_constraint_multipliers(p, cctx, lambda), TEAL_EINVAL,
                  teal_context_error(cctx), fn);
  teal_context_free(cctx);
  teal_context_free(ctx);
  teal_plant_free(cont);
  teal_plant_free(p);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("discrete_constraints");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, four_bar_stays_on_its_manifold_at_1ms);
  tcase_add_test(tc, four_bar_agrees_with_the_continuous_run);
  tcase_add_test(tc, coupler_holds_and_transmits_the_torque);
  tcase_add_test(tc, hanging_ball_constraint_carries_the_weight);
  tcase_add_test(tc, hanging_ball_multipliers_match_the_continuous_ones);
  tcase_add_test(tc, welded_pair_moves_as_the_merged_body);
  tcase_add_test(tc, gripper_holds_the_box_by_friction);
  tcase_add_test(tc, island_without_contact_beside_one_with_contact);
  tcase_add_loop_test(tc, every_kind_on_random_trees_matches_a_dense_solve, 0,
                      ts_mb_num_topologies);
  tcase_add_test(tc, constrained_steps_allocate_nothing);
  tcase_add_test(tc, multiplier_calls_reject_bad_input);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
