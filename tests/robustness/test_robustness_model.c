/* Regression tests of issue 14 (bad-input campaign), model and state
 * validation: the inertia check that overflowed (defect 5), zero
 * quaternions in q (7), rotations that set_free_body_pose replaced with the
 * identity (8), denormal masses and inertias that gave NaN accelerations
 * with TEAL_OK (9) and non-finite geometry poses (12). Each test failed on
 * the code before the fix: a bad input was accepted, or a result was NaN
 * with TEAL_OK, or the message blamed another system. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/context_access.h"
#include "framework/context_tree.h"
#include "framework/system_dynamics.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/data.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/math/spatial.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/plant_model.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_contact_fixtures.h"
#include "support/test_support.h"

/* ---- helpers ------------------------------------------------------------- */

/* A plant with one free body (a solid sphere of the given mass, radius
 * 0.1), finalized. */
static teal_plant *free_ball(double time_step, double mass) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(mass, 0.1);
  ck_assert_int_eq(teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M), 1);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* 1 when every one of the n values is finite. */
static int all_finite(const double *x, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return 0;
    }
  }
  return 1;
}

/* Expects teal_spatial_inertia_check to fail with code and a message
 * containing needle. */
static void expect_inertia_rejected(teal_spatial_inertia M, int code, const char *needle) {
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_spatial_inertia_check(&M, &err), code, &err, needle);
}

/* ---- defect 5: the inertia check must not overflow ---------------------- */

/* The tolerance was 1e-12 times the sum of |I_ij| and m |p|^2, which
 * overflowed to Inf for entries near 1e308, so every inertia passed. */
START_TEST(inertia_check_huge_indefinite) {
  const double big = 1e308;
  /* principal moments 1e308, 1e308, -1e308: not semidefinite */
  expect_inertia_rejected(
      teal_spatial_inertia_make(1.0, teal_vec3_zero(), teal_mat3_diag(big, big, -big)), TEAL_EINVAL,
      "semidefinite");
  /* dense [[a, b], [b, a]] block with a = 0.5e308, b = 1e308: eigenvalues
   * 1.5e308 and -0.5e308 */
  teal_mat3 I = teal_mat3_diag(0.5 * big, 0.5 * big, 0.5 * big);
  I.m[1] = I.m[3] = big;
  expect_inertia_rejected(teal_spatial_inertia_make(1.0, teal_vec3_zero(), I), TEAL_EINVAL,
                          "semidefinite");
  /* triangle inequality with huge moments: 1e308 + 1e308 < 1.7e308 is
   * false, so use 0.1e308, 0.1e308, 1.7e308 (their sum overflows) */
  expect_inertia_rejected(
      teal_spatial_inertia_make(1.0, teal_vec3_zero(),
                                teal_mat3_diag(0.1 * big, 0.1 * big, 1.7 * big)),
      TEAL_EINVAL, "triangle");
  /* asymmetric with opposite huge off-diagonals (their difference overflows) */
  I = teal_mat3_diag(big, big, big);
  I.m[1] = 0.9 * big;
  I.m[3] = -0.9 * big;
  expect_inertia_rejected(teal_spatial_inertia_make(1.0, teal_vec3_zero(), I), TEAL_EINVAL,
                          "symmetric");
  /* m |p|^2 = 1e320 overflows: a mass far off P with no inertia about P is
   * not valid (the central inertia would be -m S(p)) */
  expect_inertia_rejected(
      teal_spatial_inertia_make(1e200, teal_vec3_make(1e60, 0, 0), teal_mat3_zero()), TEAL_EINVAL,
      "semidefinite");
  /* valid inertias at the same scales still pass */
  teal_spatial_inertia ok =
      teal_spatial_inertia_make(1.0, teal_vec3_zero(), teal_mat3_diag(big, big, big));
  ck_assert_int_eq(teal_spatial_inertia_check(&ok, NULL), TEAL_OK);
  ok = teal_spatial_inertia_point_mass(1e100, teal_vec3_make(1e100, 0, 0)); /* I = 1e300 */
  ck_assert_int_eq(teal_spatial_inertia_check(&ok, NULL), TEAL_OK);
  ok = teal_spatial_inertia_solid_box(1e300, 1, 2, 3);
  ck_assert_int_eq(teal_spatial_inertia_check(&ok, NULL), TEAL_OK);
  /* and add_rigid_body refuses the indefinite one with the check's message */
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia bad =
      teal_spatial_inertia_make(1.0, teal_vec3_zero(), teal_mat3_diag(big, big, -big));
  TS_EXPECT_ERROR(teal_plant_add_rigid_body(p, "huge", TEAL_DEFAULT_MODEL_INSTANCE, &bad),
                  TEAL_EINVAL, teal_plant_error(p), "body 'huge': invalid spatial inertia");
  teal_plant_free(p);
}
END_TEST

/* ---- defect 7: a zero quaternion in q ----------------------------------- */

/* The setters accepted q = 0 for a free body's quaternion. */
START_TEST(zero_quaternion_rejected_at_set_time) {
  teal_plant *p = free_ball(0.0, 1.0);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  const teal_error *e = teal_context_error(ctx);
  double q[7] = {0, 0, 0, 0, 1, 2, 3}, x[13] = {0};
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_set_positions(p, ctx, q, 7), TEAL_EINVAL, e, "quaternion");
  ck_assert_ptr_nonnull(strstr(e->message, "plant set_positions"));
  ck_assert_ptr_nonnull(strstr(e->message, "zero"));
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_set_state(p, ctx, x, 13), TEAL_EINVAL, e, "quaternion");
  ck_assert_ptr_nonnull(strstr(e->message, "plant set_state"));
  /* a quaternion whose squared norm underflows cannot be normalized either */
  double tiny[7] = {1e-170, 0, 0, 0, 0, 0, 0};
  TS_EXPECT_ERROR(teal_plant_set_positions(p, ctx, tiny, 7), TEAL_EINVAL, e, "quaternion");
  /* the state kept its last good value, the identity */
  double got[7];
  ck_assert_int_eq(teal_plant_get_positions(p, ctx, got, 7), TEAL_OK);
  ck_assert_double_eq(got[0], 1.0);
  ck_assert_double_eq(got[6], 0.0);
  /* an unnormalized nonzero quaternion is still accepted */
  double two[7] = {2, 0, 0, 0, 0, 0, 0};
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, two, 7), TEAL_OK);
  const teal_transform *X;
  ck_assert_int_eq(teal_plant_eval_body_poses(p, ctx, &X), TEAL_OK);
  ck_assert_double_eq_tol(X[1].R.m[0], 1.0, 1e-15);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* A zero quaternion written through the generic context API: the poses
 * came back NaN with TEAL_OK. The poses, the derivatives and the mass matrix
 * must fail naming the quaternion. */
START_TEST(zero_quaternion_rejected_in_derivatives) {
  teal_plant *p = free_ball(0.0, 1.0);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  const teal_error *e = teal_context_error(ctx);
  double x[13] = {0}, xdot[13];
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, x, 13), TEAL_OK);
  const teal_transform *X;
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_eval_body_poses(p, ctx, &X), TEAL_EINVAL, e, "quaternion");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_calc_time_derivatives(teal_plant_system(p), ctx, xdot), TEAL_EINVAL, e,
                  "quaternion");
  const double *M;
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_eval_mass_matrix(p, ctx, &M), TEAL_EINVAL, e, "quaternion");
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* Under a simulator with a scene graph, the run's error blamed the scene
 * graph (NaN geometry poses) instead of the plant's quaternion. */
START_TEST(zero_quaternion_simulator_blames_the_plant) {
  ts_contact_world w = ts_contact_ball_world(0.0, 0.5, NAN);
  double x[13] = {0};
  x[6] = 0.5;
  ck_assert_int_eq(teal_context_set_continuous_state(w.ctx, x, 13), TEAL_OK);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(w.sim, 0.01, &st);
  ck_assert_int_eq(rc, TEAL_EINVAL);
  ck_assert_msg(strstr(st.message, "quaternion") != NULL, "message: %s", st.message);
  ck_assert_msg(strstr(st.message, "scene") == NULL, "message: %s", st.message);
  ts_contact_world_free(&w);
}
END_TEST

/* The same for a discrete plant: its step must refuse the quaternion. */
START_TEST(zero_quaternion_rejected_in_discrete_step) {
  ts_contact_world w = ts_contact_ball_world(1e-3, 0.5, NAN);
  teal_context *pc = teal_context_subcontext_mut(w.ctx, teal_plant_system(w.plant));
  ck_assert_ptr_nonnull(pc);
  double *xd = teal_context_discrete_group_mut(pc, 0);
  xd[0] = xd[1] = xd[2] = xd[3] = 0.0;
  teal_sim_status st;
  int rc = teal_simulator_advance_to(w.sim, 0.01, &st);
  ck_assert_int_eq(rc, TEAL_EINVAL);
  ck_assert_msg(strstr(st.message, "quaternion") != NULL, "message: %s", st.message);
  ck_assert_msg(strstr(st.message, "scene") == NULL, "message: %s", st.message);
  ts_contact_world_free(&w);
  /* and a plain discrete plant (no scene graph) */
  teal_plant *p = free_ball(1e-3, 1.0);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  memset(teal_context_discrete_group_mut(ctx, 0), 0, 13 * sizeof(double));
  const double *vdot;
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_EINVAL,
                  teal_context_error(ctx), "quaternion");
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* ---- defect 8: set_free_body_pose replaced bad rotations --------------- */

START_TEST(free_body_pose_rejects_non_rotations) {
  teal_plant *p = free_ball(0.0, 1.0);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  const teal_error *e = teal_context_error(ctx);
  teal_transform X = teal_transform_make(teal_mat3_zero(), teal_vec3_make(1, 2, 3));
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_set_free_body_pose(p, ctx, 1, X), TEAL_EINVAL, e, "not a rotation");
  ck_assert_ptr_nonnull(strstr(e->message, "set_free_body_pose"));
  X.R = teal_mat3_diag(1, 1, -1); /* a reflection: orthonormal, det -1 */
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_set_free_body_pose(p, ctx, 1, X), TEAL_EINVAL, e, "not a rotation");
  X.R = teal_mat3_diag(2, 2, 2); /* a scaling */
  TS_EXPECT_ERROR(teal_plant_set_free_body_pose(p, ctx, 1, X), TEAL_EINVAL, e, "not a rotation");
  X.R = teal_rotation_identity();
  X.R.m[4] = NAN;
  TS_EXPECT_ERROR(teal_plant_set_free_body_pose(p, ctx, 1, X), TEAL_ENONFINITE, e, "finite");
  X.R = teal_rotation_identity();
  X.p.v[1] = INFINITY;
  TS_EXPECT_ERROR(teal_plant_set_free_body_pose(p, ctx, 1, X), TEAL_ENONFINITE, e, "finite");
  /* none of them changed the state */
  double q[7];
  ck_assert_int_eq(teal_plant_get_positions(p, ctx, q, 7), TEAL_OK);
  ck_assert_double_eq(q[0], 1.0);
  ck_assert_double_eq(q[4], 0.0);
  /* a proper rotation is stored as its quaternion */
  teal_rotation Rz = teal_rotation_from_axis_angle(teal_vec3_make(0, 0, 1), 0.5);
  X = teal_transform_make(Rz, teal_vec3_make(1, 2, 3));
  ck_assert_int_eq(teal_plant_set_free_body_pose(p, ctx, 1, X), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_positions(p, ctx, q, 7), TEAL_OK);
  ck_assert_double_eq_tol(q[0], cos(0.25), 1e-15);
  ck_assert_double_eq_tol(q[3], sin(0.25), 1e-15);
  ck_assert_double_eq(q[5], 2.0);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* ---- defect 9: denormal masses and inertias ----------------------------- */

/* A mass of 1e-310 passed the check (it is > 0) and gave NaN accelerations
 * with TEAL_OK. Masses below TEAL_SPATIAL_INERTIA_MIN_MASS are refused. */
START_TEST(denormal_mass_rejected) {
  const double masses[] = {1e-310, DBL_MIN, 1e-200, 0.5 * TEAL_SPATIAL_INERTIA_MIN_MASS};
  for (int i = 0; i < 4; i++) {
    teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(masses[i], 0.1);
    expect_inertia_rejected(M, TEAL_EINVAL, "below");
    teal_plant *p = teal_plant_new(0.0, NULL);
    TS_EXPECT_ERROR(teal_plant_add_rigid_body(p, "dust", TEAL_DEFAULT_MODEL_INSTANCE, &M),
                    TEAL_EINVAL, teal_plant_error(p), "mass");
    teal_plant_free(p);
  }
  /* at the floor the dynamics are still exact: free fall at g */
  teal_plant *p = free_ball(0.0, TEAL_SPATIAL_INERTIA_MIN_MASS);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  const double *vdot;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_double_eq_tol(vdot[5], teal_plant_gravity(p).v[2], 1e-12);
  ck_assert_double_eq(vdot[0], 0.0);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* A valid point-like body (mass 1, central moments 1e-310) on a revolute
 * joint through its center of mass: M = [1e-310] is numerically singular.
 * ABA divided by the denormal pivot and returned NaN with TEAL_OK. */
START_TEST(denormal_inertia_reports_singular) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M =
      teal_spatial_inertia_make(1.0, teal_vec3_zero(), teal_mat3_diag(1e-310, 1e-310, 1e-310));
  int b = teal_plant_add_rigid_body(p, "spinner", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_eq(b, 1);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  ck_assert_int_ge(teal_plant_add_joint(p, "pin", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(p, b), &z, 0.0),
                   0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  const double *vdot;
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_ESINGULAR,
                  teal_context_error(ctx), "pin");
  /* the multibody algorithm itself, outside the plant */
  teal_mb_data *data = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(data);
  double q = 0.0, v = 0.0, tau = 0.0, a = 0.0;
  int rc = teal_mb_forward_dynamics(p, data, &q, &v, &tau, &a);
  ck_assert_int_eq(rc, TEAL_ESINGULAR);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(data)->message, "not positive definite"));
  rc = teal_mb_articulated_factor(p, data, &q);
  ck_assert_int_eq(rc, TEAL_ESINGULAR);
  teal_mb_data_free(data);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* The same body on a discrete plant: the step reports the singular
 * articulated inertia and keeps the state finite. */
START_TEST(denormal_inertia_discrete_step) {
  teal_plant *p = teal_plant_new(1e-3, NULL);
  teal_spatial_inertia M =
      teal_spatial_inertia_make(1.0, teal_vec3_zero(), teal_mat3_diag(1e-310, 1e-310, 1e-310));
  int b = teal_plant_add_rigid_body(p, "spinner", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  ck_assert_int_ge(teal_plant_add_joint(p, "pin", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(p, b), &z, 0.0),
                   0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  const double *vdot;
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_ESINGULAR,
                  teal_context_error(ctx), "not positive definite");
  double x[2];
  ck_assert_int_eq(teal_plant_get_state(p, ctx, x, 2), TEAL_OK);
  ck_assert(all_finite(x, 2));
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* With collision geometry the discrete step factors M tree by tree
 * (Cholesky of the blocks) instead of by articulated bodies. A torque on
 * the spinner (its geometry clear of the ground) must fail the step with a
 * message instead of storing Inf or NaN in the state. */
START_TEST(denormal_inertia_discrete_contact_step) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(1e-3, NULL);
  teal_spatial_inertia M =
      teal_spatial_inertia_make(1.0, teal_vec3_zero(), teal_mat3_diag(1e-310, 1e-310, 1e-310));
  int b = teal_plant_add_rigid_body(w.plant, "spinner", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  ck_assert_int_ge(teal_plant_add_joint(w.plant, "pin", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(w.plant, b), &z, 0.0),
                   0);
  teal_shape s;
  ck_assert_int_eq(teal_shape_sphere(0.1, &s, NULL), TEAL_OK);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  teal_transform X_BG = teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 1));
  ck_assert_int_ge(teal_plant_register_collision_geometry(w.plant, b, X_BG, &s, "spinner", &props),
                   0);
  ts_contact_add_ground(w.plant, 0.0, 0.5, NAN);
  ts_contact_finish(&w);
  teal_context *pc = teal_context_subcontext_mut(w.ctx, teal_plant_system(w.plant));
  double tau = 1.0;
  ck_assert_int_eq(
      teal_context_fix_input(pc, teal_plant_applied_generalized_force_input_port(w.plant), &tau, 1),
      TEAL_OK);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(w.sim, 0.01, &st);
  ck_assert_msg(rc == TEAL_ESINGULAR || rc == TEAL_ENONFINITE, "rc %d: %s", rc, st.message);
  ck_assert_msg(strstr(st.message, "plant") != NULL, "message: %s", st.message);
  ck_assert(all_finite(teal_context_discrete_group(pc, 0), 2));
  ts_contact_world_free(&w);
}
END_TEST

/* ---- defect 12: non-finite geometry poses and properties --------------- */

/* Registers a sphere on body 1 of a fresh one-body plant with pose X and
 * expects code with a message containing needle (collision, or visual when
 * visual is set). */
static void expect_geometry_rejected(teal_transform X, int visual, int code, const char *needle) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_shape s;
  ck_assert_int_eq(teal_shape_sphere(0.1, &s, NULL), TEAL_OK);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  int rc = visual ? teal_plant_register_visual_geometry(p, b, X, &s, "g", NULL)
                  : teal_plant_register_collision_geometry(p, b, X, &s, "g", &props);
  ts_expect_error_at(__FILE__, __LINE__, rc, code, teal_plant_error(p), needle);
  ck_assert_ptr_nonnull(strstr(teal_plant_error(p)->message, "'g'"));
  ck_assert_int_eq(teal_plant_num_geometries(p), 0);
  teal_plant_free(p);
}

START_TEST(nan_geometry_pose_rejected) {
  for (int visual = 0; visual < 2; visual++) {
    teal_transform X = teal_transform_identity();
    X.p.v[0] = NAN;
    expect_geometry_rejected(X, visual, TEAL_ENONFINITE, "pose X_BG is not finite");
    X = teal_transform_identity();
    X.R.m[8] = INFINITY;
    expect_geometry_rejected(X, visual, TEAL_ENONFINITE, "pose X_BG is not finite");
    X = teal_transform_identity();
    X.R = teal_mat3_diag(1, 1, -1);
    expect_geometry_rejected(X, visual, TEAL_EINVAL, "not a rotation");
    X.R = teal_mat3_zero();
    expect_geometry_rejected(X, visual, TEAL_EINVAL, "not a rotation");
  }
}
END_TEST

/* Proximity properties with NaN friction or a negative stiffness, visual
 * colors with NaN and hand-filled shapes with NaN stay refused. */
START_TEST(nan_geometry_properties_rejected) {
  int b;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_shape s;
  ck_assert_int_eq(ts_contact_body_with_sphere(p, "ok", &b), 0);
  ck_assert_int_eq(teal_shape_sphere(0.1, &s, NULL), TEAL_OK);
  teal_proximity_properties props = teal_proximity_properties_make(NAN, 0.5);
  TS_EXPECT_ERROR(
      teal_plant_register_collision_geometry(p, b, teal_transform_identity(), &s, "f", &props),
      TEAL_EINVAL, teal_plant_error(p), "friction");
  teal_plant_free(p);
  p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(ts_contact_body_with_sphere(p, "ok", &b), 0);
  props = teal_proximity_properties_make(0.5, 0.5);
  props.point_contact_stiffness = -1.0;
  TS_EXPECT_ERROR(
      teal_plant_register_collision_geometry(p, b, teal_transform_identity(), &s, "k", &props),
      TEAL_EINVAL, teal_plant_error(p), "stiffness");
  teal_plant_free(p);
  p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(ts_contact_body_with_sphere(p, "ok", &b), 0);
  double rgba[4] = {0.5, NAN, 0.5, 1.0};
  TS_EXPECT_ERROR(
      teal_plant_register_visual_geometry(p, b, teal_transform_identity(), &s, "c", rgba),
      TEAL_EINVAL, teal_plant_error(p), "rgba");
  teal_plant_free(p);
  /* a hand-filled convex shape with a NaN vertex among four that span a volume */
  teal_vec3 v[5] = {{{0, 0, 0}}, {{1, 0, 0}}, {{0, 1, 0}}, {{0, 0, 1}}, {{NAN, 0, 0}}};
  teal_shape hull = {0};
  hull.kind = TEAL_SHAPE_CONVEX;
  hull.vertices = v;
  hull.num_vertices = 5;
  p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(ts_contact_body_with_sphere(p, "ok", &b), 0);
  TS_EXPECT_ERROR(
      teal_plant_register_visual_geometry(p, b, teal_transform_identity(), &hull, "h", NULL),
      TEAL_EINVAL, teal_plant_error(p), "shape");
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("robustness_model");
  TCase *tc = tcase_create("model");
  tcase_add_test(tc, inertia_check_huge_indefinite);
  tcase_add_test(tc, zero_quaternion_rejected_at_set_time);
  tcase_add_test(tc, zero_quaternion_rejected_in_derivatives);
  tcase_add_test(tc, zero_quaternion_simulator_blames_the_plant);
  tcase_add_test(tc, zero_quaternion_rejected_in_discrete_step);
  tcase_add_test(tc, free_body_pose_rejects_non_rotations);
  tcase_add_test(tc, denormal_mass_rejected);
  tcase_add_test(tc, denormal_inertia_reports_singular);
  tcase_add_test(tc, denormal_inertia_discrete_step);
  tcase_add_test(tc, denormal_inertia_discrete_contact_step);
  tcase_add_test(tc, nan_geometry_pose_rejected);
  tcase_add_test(tc, nan_geometry_properties_rejected);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
