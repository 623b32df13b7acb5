/* The SAP discrete contact solver (multibody/contact/sap_contact.c,
 * discrete_contact_solver.h): a block resting (m g, no drift, the same rest
 * as the built-in solver's), a block on an incline below and above the
 * friction angle (stiction, and g (sin - mu cos) when sliding), a ball
 * dropped (bounded penetration, energy never above the start), SAP's
 * optimality conditions at the step's solution (momentum balance by
 * inverse dynamics, impulses in the friction cone), a near-rigid contact,
 * a contact no dof can move (zero Jacobian: a finite step, the spin kept),
 * the selector's errors, the relaxation time's checks, and no allocation
 * in the step. */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/diagram.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/contact/discrete_contact_solver.h"
#include "multibody/contact/plant_contact.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/plant/plant_inverse_dynamics.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_contact_fixtures.h"
#include "support/test_support.h"

#define G 9.81
#define H 1e-3

/* A block of mass 1 (0.2 x 0.2 x 0.1) carried by four small collision
 * spheres at its bottom corners, on the ground tilted by theta, with
 * friction mu, solved by solver. The block starts resting on the incline
 * at depth delta / 4 per corner, the rest of the default stiffness. */
static ts_contact_world block_world(teal_discrete_contact_solver solver, double theta, double mu) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(H, NULL);
  ck_assert_int_eq(teal_plant_set_discrete_contact_solver(w.plant, solver), TEAL_OK);
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
  teal_shape hs;
  teal_shape_half_space(&hs);
  teal_rotation R = teal_rotation_from_rpy(teal_vec3_make(0, theta, 0));
  teal_plant_register_collision_geometry(
      w.plant, TEAL_WORLD_BODY, teal_transform_make(R, teal_vec3_zero()), &hs, "ground", &props);
  ts_contact_finish(&w);
  teal_quaternion qr = teal_rotation_to_quaternion(R);
  teal_vec3 up = teal_rotation_apply(R, teal_vec3_make(0, 0, 0.06 - 0.25e-3));
  double q[7] = {qr.w, qr.x, qr.y, qr.z, up.v[0], up.v[1], up.v[2]};
  teal_plant_set_positions(w.plant, w.ctx, q, 7);
  return w;
}

/* Displacement of the block along the slope's x axis (downhill). */
static double downhill(ts_contact_world *w, double theta) {
  double q[7];
  teal_plant_get_positions(w->plant, w->ctx, q, 7);
  teal_vec3 d = teal_rotation_apply(teal_rotation_from_rpy(teal_vec3_make(0, theta, 0)),
                                    teal_vec3_make(1, 0, 0));
  return q[4] * d.v[0] + q[5] * d.v[1] + q[6] * d.v[2];
}

/* Sum of the contact forces on body (in W) in the current results. */
static teal_vec3 net_force(ts_contact_world *w, int body) {
  const teal_contact_results *r;
  ck_assert_int_eq(teal_plant_eval_contact_results(w->plant, w->ctx, &r), TEAL_OK);
  return teal_contact_results_net_force(r, body);
}

START_TEST(selector_and_its_errors) {
  teal_plant *p = teal_plant_new(H, NULL);
  ck_assert_int_eq(teal_plant_get_discrete_contact_solver(p), TEAL_DISCRETE_CONTACT_SOLVER_TAMSI);
  ck_assert_int_eq(teal_plant_get_discrete_contact_solver(NULL),
                   TEAL_DISCRETE_CONTACT_SOLVER_TAMSI);
  ck_assert_int_eq(teal_plant_set_discrete_contact_solver(NULL, TEAL_DISCRETE_CONTACT_SOLVER_SAP),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_set_discrete_contact_solver(p, TEAL_DISCRETE_CONTACT_SOLVER_SAP),
                   TEAL_OK);
  ck_assert_int_eq(teal_plant_get_discrete_contact_solver(p), TEAL_DISCRETE_CONTACT_SOLVER_SAP);
  ck_assert_int_eq(teal_plant_set_discrete_contact_solver(p, TEAL_DISCRETE_CONTACT_SOLVER_TAMSI),
                   TEAL_OK);
  ck_assert_int_eq(teal_plant_get_discrete_contact_solver(p), TEAL_DISCRETE_CONTACT_SOLVER_TAMSI);
  TS_EXPECT_ERROR(teal_plant_set_discrete_contact_solver(p, (teal_discrete_contact_solver)7),
                  TEAL_EINVAL, teal_plant_error(p), "unknown discrete contact solver 7");
  ck_assert_int_eq(teal_plant_get_discrete_contact_solver(p), TEAL_DISCRETE_CONTACT_SOLVER_TAMSI);
  teal_plant_free(p);
  /* after finalize: TEAL_ESTATE, the choice kept */
  p = teal_plant_new(H, NULL);
  teal_plant_set_discrete_contact_solver(p, TEAL_DISCRETE_CONTACT_SOLVER_SAP);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  TS_EXPECT_ERROR(teal_plant_set_discrete_contact_solver(p, TEAL_DISCRETE_CONTACT_SOLVER_TAMSI),
                  TEAL_ESTATE, teal_plant_error(p), "after finalize");
  ck_assert_int_eq(teal_plant_get_discrete_contact_solver(p), TEAL_DISCRETE_CONTACT_SOLVER_SAP);
  teal_plant_free(p);
}
END_TEST

/* relaxation_time: NaN by default, >= 0 and finite otherwise, checked at
 * registration like the other properties. */
START_TEST(relaxation_time_is_checked) {
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  ck_assert(isnan(props.relaxation_time));
  ck_assert(teal_proximity_properties_valid(&props));
  props.relaxation_time = 0.0;
  ck_assert(teal_proximity_properties_valid(&props));
  const double bad[3] = {-1e-3, INFINITY, -INFINITY};
  for (int i = 0; i < 3; i++) {
    props.relaxation_time = bad[i];
    ck_assert(!teal_proximity_properties_valid(&props));
    teal_plant *p = teal_plant_new(H, NULL);
    teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
    int b = teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
    teal_shape s;
    teal_shape_sphere(0.1, &s, NULL);
    TS_EXPECT_ERROR(
        teal_plant_register_collision_geometry(p, b, teal_transform_identity(), &s, "ball", &props),
        TEAL_EINVAL, teal_plant_error(p), "relaxation time >= 0");
    teal_plant_free(p);
  }
}
END_TEST

/* Resting block: the ground carries m g, the block does not drift, and SAP
 * rests where the built-in solver does (both at the spring's rest, the
 * contacts being compliant, not near-rigid, here). */
START_TEST(block_rests_as_with_the_builtin_solver) {
  double z[2];
  for (int k = 0; k < 2; k++) {
    ts_contact_world w = block_world(
        k ? TEAL_DISCRETE_CONTACT_SOLVER_SAP : TEAL_DISCRETE_CONTACT_SOLVER_TAMSI, 0, 0.5);
    ts_contact_advance(&w, 1.0);
    double q0[7], q1[7], v[6];
    teal_plant_get_positions(w.plant, w.ctx, q0, 7);
    ts_contact_advance(&w, 2.0);
    teal_plant_get_positions(w.plant, w.ctx, q1, 7);
    teal_plant_get_velocities(w.plant, w.ctx, v, 6);
    for (int i = 0; i < 7; i++) {
      ck_assert_msg(fabs(q1[i] - q0[i]) < 1e-9, "q[%d] drifts by %g", i, q1[i] - q0[i]);
    }
    for (int i = 0; i < 6; i++) {
      ck_assert_msg(fabs(v[i]) < 1e-9, "v[%d] = %g", i, v[i]);
    }
    teal_vec3 f = net_force(&w, 1);
    ck_assert_msg(fabs(f.v[2] - G) < 1e-7 * G, "normal force %.12g", f.v[2]);
    ck_assert(fabs(f.v[0]) < 1e-9 && fabs(f.v[1]) < 1e-9);
    z[k] = q1[6];
    ts_contact_world_free(&w);
  }
  /* the rest of four springs of the default stiffness: delta / 4 each */
  ck_assert_double_eq_tol(z[0], 0.06 - 0.25e-3, 1e-9);
  ck_assert_double_eq_tol(z[1], z[0], 1e-9);
}
END_TEST

START_TEST(block_sticks_below_the_friction_angle) {
  const double theta = 20.0 * M_PI / 180.0; /* tan = 0.36 < mu = 0.5 */
  ts_contact_world w = block_world(TEAL_DISCRETE_CONTACT_SOLVER_SAP, theta, 0.5);
  ts_contact_advance(&w, 0.5);
  double s0 = downhill(&w, theta);
  ts_contact_advance(&w, 3.5);
  /* regularized stiction creeps at sigma w |gamma_t|: about 1e-6 m/s */
  ck_assert_msg(fabs(downhill(&w, theta) - s0) < 1e-5, "creep %g m", downhill(&w, theta) - s0);
  /* the contacts hold the weight: m g up in W */
  teal_vec3 f = net_force(&w, 1);
  ck_assert_double_eq_tol(f.v[2], G, 1e-6);
  ck_assert(fabs(f.v[0]) < 1e-6);
  ts_contact_world_free(&w);
}
END_TEST

START_TEST(block_slides_above_the_friction_angle) {
  const double theta = 20.0 * M_PI / 180.0, mu = 0.2; /* tan = 0.36 > mu */
  ts_contact_world w = block_world(TEAL_DISCRETE_CONTACT_SOLVER_SAP, theta, mu);
  ts_contact_advance(&w, 0.3);
  double s1 = downhill(&w, theta);
  ts_contact_advance(&w, 0.8);
  double s2 = downhill(&w, theta);
  ts_contact_advance(&w, 1.3);
  double s3 = downhill(&w, theta);
  double a = ((s3 - s2) - (s2 - s1)) / (0.5 * 0.5);
  double expected = G * (sin(theta) - mu * cos(theta));
  ck_assert_msg(fabs(a - expected) < 1e-3 * expected, "a = %.9g, expected %.9g", a, expected);
  ts_contact_world_free(&w);
}
END_TEST

/* A free ball of mass 1 and radius 0.1 over the ground, solved by SAP,
 * with relaxation time tau on both geometries (NaN: the default). */
static ts_contact_world sap_ball(double z, double stiffness, double tau) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(H, NULL);
  teal_plant_set_discrete_contact_solver(w.plant, TEAL_DISCRETE_CONTACT_SOLVER_SAP);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(w.plant, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_shape s, hs;
  teal_shape_sphere(0.1, &s, NULL);
  teal_shape_half_space(&hs);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  props.point_contact_stiffness = stiffness;
  props.relaxation_time = tau;
  teal_plant_register_collision_geometry(w.plant, b, teal_transform_identity(), &s, "ball", &props);
  teal_plant_register_collision_geometry(w.plant, TEAL_WORLD_BODY, teal_transform_identity(), &hs,
                                         "ground", &props);
  ts_contact_finish(&w);
  double q[7] = {1, 0, 0, 0, 0, 0, z};
  ck_assert_int_eq(teal_plant_set_positions(w.plant, w.ctx, q, 7), TEAL_OK);
  return w;
}

/* Kinetic plus gravitational energy of the ball. */
static double ball_energy(ts_contact_world *w, double *z) {
  double q[7], v[6];
  teal_plant_get_positions(w->plant, w->ctx, q, 7);
  teal_plant_get_velocities(w->plant, w->ctx, v, 6);
  double I = 0.4 * 0.01, e = G * q[6];
  for (int i = 0; i < 3; i++) {
    e += 0.5 * I * v[i] * v[i] + 0.5 * v[3 + i] * v[3 + i];
  }
  *z = q[6];
  return e;
}

/* Dropped from 0.2 m above contact: the ball never gains energy (the
 * spring's stored energy comes from the fall), so its penetration stays
 * below the energy bound 1/2 k x^2 <= m g (0.2 + x) with the combined
 * stiffness k = m g / delta; with the default relaxation time it comes to
 * rest at the spring's rest m g / k = delta = 1 mm. */
START_TEST(dropped_ball_loses_energy_and_rests) {
  const double k = G / 1e-3, a = G / k, xmax = a + sqrt(a * a + 2.0 * a * 0.2);
  for (int c = 0; c < 2; c++) {
    double tau = c ? 0.0 : NAN; /* the default, and no dissipation but SAP's own */
    ts_contact_world w = sap_ball(0.3, NAN, tau);
    double z, e0 = ball_energy(&w, &z), zmin = z;
    for (int i = 1; i <= 3000; i++) {
      ts_contact_advance(&w, i * H);
      double e = ball_energy(&w, &z);
      zmin = fmin(zmin, z);
      ck_assert_msg(e <= e0 * (1.0 + 1e-12), "energy %.15g > %.15g at step %d", e, e0, i);
    }
    ck_assert_msg(0.1 - zmin < xmax, "penetration %g m > %g", 0.1 - zmin, xmax);
    ck_assert_msg(0.1 - zmin > 0.5 * xmax, "penetration %g m", 0.1 - zmin);
    if (c == 0) {
      ck_assert_double_eq_tol(z, 0.1 - 1e-3, 1e-9);
      ck_assert_double_eq_tol(net_force(&w, 1).v[2], G, 1e-7);
    }
    ts_contact_world_free(&w);
  }
}
END_TEST

/* A contact far stiffer than the step can resolve: SAP's near-rigid bound
 * on R_n keeps the step well conditioned; the ball rests with m g and a
 * tiny penetration instead of chattering. */
START_TEST(near_rigid_contact_rests) {
  ts_contact_world w = sap_ball(0.1, 1e12, NAN);
  ts_contact_advance(&w, 1.0);
  double z, v[6];
  ball_energy(&w, &z);
  teal_plant_get_velocities(w.plant, w.ctx, v, 6);
  ck_assert_msg(fabs(0.1 - z) < 1e-4, "penetration %g", 0.1 - z);
  for (int i = 0; i < 6; i++) {
    ck_assert_msg(fabs(v[i]) < 1e-8, "v[%d] = %g", i, v[i]);
  }
  ck_assert_double_eq_tol(net_force(&w, 1).v[2], G, 1e-6);
  ts_contact_world_free(&w);
}
END_TEST

/* SAP's first optimality condition at the next step's solution v+: the
 * gradient M (v+ - v*) - h J' gamma vanishes (M + h D with joint damping),
 * i.e. the inverse dynamics at vdot = (v+ - v) / h equals gravity, the
 * joint damping -D v+ and the generalized contact forces. Leaves w at the
 * step's start, its contact results in *r. */
static void expect_gradient_vanishes(ts_contact_world *w, int nq, int nv, const double *damping,
                                     const teal_contact_results **r) {
  double q0[14], v0[12], v1[12], vdot[12], tau[12], tau_g[12];
  teal_plant_get_positions(w->plant, w->ctx, q0, nq);
  teal_plant_get_velocities(w->plant, w->ctx, v0, nv);
  double t = teal_context_time(w->ctx);
  ts_contact_advance(w, t + H);
  teal_plant_get_velocities(w->plant, w->ctx, v1, nv);
  /* back to the step's start: the results and forces of that step */
  teal_plant_set_positions(w->plant, w->ctx, q0, nq);
  teal_plant_set_velocities(w->plant, w->ctx, v0, nv);
  const teal_system *sys = teal_plant_system(w->plant);
  const teal_context *pc = teal_context_subcontext(w->ctx, sys);
  const double *gcf;
  ck_assert_int_eq(teal_plant_eval_contact_results(w->plant, w->ctx, r), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(
                       sys, pc, teal_plant_generalized_contact_forces_output_port(w->plant), &gcf),
                   TEAL_OK);
  for (int i = 0; i < nv; i++) {
    vdot[i] = (v1[i] - v0[i]) / H;
  }
  ck_assert_int_eq(teal_plant_calc_inverse_dynamics(w->plant, pc, vdot, NULL, NULL, tau), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(w->plant, pc, tau_g), TEAL_OK);
  for (int i = 0; i < nv; i++) { /* the gradient over h, in N or N m */
    double grad = tau[i] - tau_g[i] + (damping ? damping[i] * v1[i] : 0.0) - gcf[i];
    ck_assert_msg(fabs(grad) < 1e-8 * G, "gradient[%d] = %g", i, grad);
  }
}

/* SAP's optimality conditions at the step's solution of a sliding block
 * with a spin: the gradient vanishes, and each contact force lies in its
 * friction cone, on its surface when the contact slides. */
START_TEST(step_meets_optimality_conditions) {
  const double theta = 20.0 * M_PI / 180.0, mu = 0.2;
  ts_contact_world w = block_world(TEAL_DISCRETE_CONTACT_SOLVER_SAP, theta, mu);
  ts_contact_advance(&w, 0.2);
  double v0[6];
  teal_plant_get_velocities(w.plant, w.ctx, v0, 6);
  v0[2] += 0.5; /* a spin about z: the contacts slide in different directions */
  teal_plant_set_velocities(w.plant, w.ctx, v0, 6);
  const teal_contact_results *r;
  expect_gradient_vanishes(&w, 7, 6, NULL, &r);
  ck_assert_int_eq(r->n, 4);
  int sliding = 0;
  for (int c = 0; c < r->n; c++) {
    teal_vec3 n = r->c[c].nhat_BA_W, f = r->c[c].f_Bc_W;
    double fn = -teal_vec3_dot(f, n);
    double ft = teal_vec3_norm(teal_vec3_add(f, teal_vec3_scale(n, fn)));
    ck_assert(fn > 0.0);
    ck_assert_msg(ft <= mu * fn * (1.0 + 1e-12), "contact %d: |f_t| %g > mu f_n %g", c, ft,
                  mu * fn);
    if (r->c[c].slip_speed > 1e-4) {
      sliding++;
      ck_assert_msg(fabs(ft - mu * fn) < 1e-9 * fn, "contact %d slides off the cone", c);
    }
  }
  ck_assert_int_eq(sliding, 4);
  ts_contact_world_free(&w);
}
END_TEST

/* A two-link arm with damped hinges (one tree of 2 dofs, M + h D in the
 * Delassus blocks) drops its tip sphere on the ground: while the tip
 * lands, and once it has settled, SAP's gradient vanishes; at rest the
 * hinges all but hold still. */
START_TEST(articulated_arm_meets_optimality_conditions) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(H, NULL);
  teal_plant_set_discrete_contact_solver(w.plant, TEAL_DISCRETE_CONTACT_SOLVER_SAP);
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(1.0, 0.2, 0.02, 0.02);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  const double damping[2] = {0.2, 0.2};
  int parent = teal_plant_add_frame(
      w.plant, "mount", TEAL_WORLD_FRAME,
      teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 0.25)));
  int link = -1;
  for (int i = 0; i < 2; i++) {
    link = teal_plant_add_rigid_body(w.plant, i ? "l2" : "l1", TEAL_DEFAULT_MODEL_INSTANCE, &M);
    int child = teal_plant_add_frame(
        w.plant, i ? "l2_in" : "l1_in", teal_plant_body_frame(w.plant, link),
        teal_transform_make(teal_rotation_identity(), teal_vec3_make(-0.1, 0, 0)));
    int j = teal_plant_add_joint(w.plant, i ? "elbow" : "shoulder", TEAL_JOINT_REVOLUTE, parent,
                                 child, &y, 0);
    ck_assert_int_eq(teal_plant_set_joint_damping(w.plant, j, &damping[i]), TEAL_OK);
    parent = teal_plant_add_frame(
        w.plant, i ? "l2_out" : "l1_out", teal_plant_body_frame(w.plant, link),
        teal_transform_make(teal_rotation_identity(), teal_vec3_make(0.1, 0, 0)));
  }
  teal_shape s;
  teal_shape_sphere(0.02, &s, NULL);
  teal_proximity_properties props = teal_proximity_properties_make(0.8, 0.8);
  teal_plant_register_collision_geometry(
      w.plant, link, teal_transform_make(teal_rotation_identity(), teal_vec3_make(0.1, 0, 0)), &s,
      "tip", &props);
  ts_contact_add_ground(w.plant, 0.0, 0.8, NAN);
  ts_contact_finish(&w);
  const teal_contact_results *r;
  int landed = 0;
  for (int i = 1; i <= 400 && !landed; i++) { /* the first step with the tip on the ground */
    ts_contact_advance(&w, i * 5 * H);
    ck_assert_int_eq(teal_plant_eval_contact_results(w.plant, w.ctx, &r), TEAL_OK);
    landed = r->n > 0;
  }
  ck_assert(landed);
  expect_gradient_vanishes(&w, 2, 2, damping, &r);
  ts_contact_advance(&w, 3.0);
  double v[2];
  teal_plant_get_velocities(w.plant, w.ctx, v, 2);
  /* (regularized stiction lets the tip creep at about sigma w |gamma_t|) */
  ck_assert_msg(fabs(v[0]) < 1e-4 && fabs(v[1]) < 1e-4, "v = %g %g", v[0], v[1]);
  expect_gradient_vanishes(&w, 2, 2, damping, &r);
  ck_assert_int_eq(r->n, 1);
  ts_contact_world_free(&w);
}
END_TEST

/* Two balls joined by a rigid distance constraint, resting on the ground:
 * SAP solves the constraint's row in the same convex problem as the two
 * contacts (one island); each contact carries m g, the distance holds,
 * and the state matches the built-in solver's. */
START_TEST(constraint_rows_in_the_sap_problem) {
  double q[2][14];
  for (int k = 0; k < 2; k++) {
    ts_contact_world w = {0};
    w.plant = teal_plant_new(H, NULL);
    teal_plant_set_discrete_contact_solver(
        w.plant, k ? TEAL_DISCRETE_CONTACT_SOLVER_SAP : TEAL_DISCRETE_CONTACT_SOLVER_TAMSI);
    int a, b;
    ts_contact_body_with_sphere(w.plant, "a", &a);
    ts_contact_body_with_sphere(w.plant, "b", &b);
    ck_assert_int_ge(teal_plant_add_distance_constraint(w.plant, a, teal_vec3_zero(), b,
                                                        teal_vec3_zero(), 0.3, INFINITY, 0.0),
                     0);
    ts_contact_add_ground(w.plant, 0.0, 0.5, NAN);
    ts_contact_finish(&w);
    for (int i = 0; i < 2; i++) {
      teal_transform X =
          teal_transform_make(teal_rotation_identity(), teal_vec3_make(0.31 * i, 0, 0.1 - 1e-3));
      ck_assert_int_eq(teal_plant_set_free_body_pose(w.plant, w.ctx, i ? b : a, X), TEAL_OK);
    }
    ts_contact_advance(&w, 1.5);
    teal_plant_get_positions(w.plant, w.ctx, q[k], 14);
    double v[12];
    teal_plant_get_velocities(w.plant, w.ctx, v, 12);
    for (int i = 0; i < 12; i++) {
      ck_assert_msg(fabs(v[i]) < 1e-8, "v[%d] = %g", i, v[i]);
    }
    ck_assert_double_eq_tol(net_force(&w, a).v[2], G, 1e-6);
    ck_assert_double_eq_tol(net_force(&w, b).v[2], G, 1e-6);
    double d =
        teal_vec3_norm(teal_vec3_make(q[k][11] - q[k][4], q[k][12] - q[k][5], q[k][13] - q[k][6]));
    ck_assert_msg(fabs(d - 0.3) < 1e-6, "distance %.9g", d);
    ts_contact_world_free(&w);
  }
  /* the positions (the balls roll by a solver-dependent angle while the
   * constraint pulls them together) */
  for (int i = 4; i < 14; i += i == 6 ? 5 : 1) {
    ck_assert_msg(fabs(q[1][i] - q[0][i]) < 1e-9, "q[%d]: SAP %.9g, built-in %.9g", i, q[1][i],
                  q[0][i]);
  }
}
END_TEST

/* A ball landing and a block sliding: SAP's steps allocate nothing. */
/* A ball on a revolute joint about the vertical axis through its centre,
 * pressed 1 mm into the ground: the contact point lies on the joint axis,
 * so the contact Jacobian and its Delassus block W are zero (w = 0). The
 * step is still defined (nothing can move the contact point: zero force,
 * the spin kept), so SAP must give a finite state. */
START_TEST(contact_with_a_zero_jacobian_stays_finite) {
  ts_contact_world w = {0};
  w.plant = teal_plant_new(H, NULL);
  teal_plant_set_discrete_contact_solver(w.plant, TEAL_DISCRETE_CONTACT_SOLVER_SAP);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(w.plant, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int top = teal_plant_add_frame(
      w.plant, "top", TEAL_WORLD_FRAME,
      teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, 0.1 - 1e-3)));
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  ck_assert_int_ge(teal_plant_add_joint(w.plant, "spin", TEAL_JOINT_REVOLUTE, top,
                                        teal_plant_body_frame(w.plant, b), &z, 0.0),
                   0);
  teal_shape s, hs;
  teal_shape_sphere(0.1, &s, NULL);
  teal_shape_half_space(&hs);
  teal_proximity_properties props = teal_proximity_properties_make(0.5, 0.5);
  teal_plant_register_collision_geometry(w.plant, b, teal_transform_identity(), &s, "ball", &props);
  teal_plant_register_collision_geometry(w.plant, TEAL_WORLD_BODY, teal_transform_identity(), &hs,
                                         "ground", &props);
  ts_contact_finish(&w);
  const double v0 = 2.0;
  ck_assert_int_eq(teal_plant_set_velocities(w.plant, w.ctx, &v0, 1), TEAL_OK);
  ts_contact_advance(&w, 10 * H);
  double q, v;
  teal_plant_get_positions(w.plant, w.ctx, &q, 1);
  teal_plant_get_velocities(w.plant, w.ctx, &v, 1);
  ck_assert_msg(isfinite(q) && isfinite(v), "q = %g, v = %g", q, v);
  ck_assert_double_eq_tol(v, v0, 1e-12);
  ck_assert_double_eq_tol(q, 10 * H * v0, 1e-12);
  ts_contact_world_free(&w);
}
END_TEST

START_TEST(sap_step_allocates_nothing) {
  ts_contact_world w = sap_ball(0.12, NAN, NAN);
  ts_contact_advance(&w, 0.002);
  ts_alloc_install();
  ts_alloc_reset();
  ts_contact_advance(&w, 0.3);
  unsigned long n = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_uint_eq(n, 0);
  ts_contact_world_free(&w);
}
END_TEST

int main(void) {
  Suite *s = suite_create("sap");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, selector_and_its_errors);
  tcase_add_test(tc, relaxation_time_is_checked);
  tcase_add_test(tc, block_rests_as_with_the_builtin_solver);
  tcase_add_test(tc, block_sticks_below_the_friction_angle);
  tcase_add_test(tc, block_slides_above_the_friction_angle);
  tcase_add_test(tc, dropped_ball_loses_energy_and_rests);
  tcase_add_test(tc, near_rigid_contact_rests);
  tcase_add_test(tc, step_meets_optimality_conditions);
  tcase_add_test(tc, articulated_arm_meets_optimality_conditions);
  tcase_add_test(tc, constraint_rows_in_the_sap_problem);
  tcase_add_test(tc, contact_with_a_zero_jacobian_stays_finite);
  tcase_add_test(tc, sap_step_allocates_nothing);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
