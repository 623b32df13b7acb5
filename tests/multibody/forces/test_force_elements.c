/* Force elements (multibody/forces/force_elements.h): the spring-damper
 * against the closed-form (damped) oscillator and its action-reaction and
 * power properties, the revolute spring's exact torque and rotor frequency,
 * accumulation of the outputs and coincident spring points, the split of
 * their power into conservative and dissipative parts, and energy
 * conservation of spring-coupled free bodies and a sprung chain under RK4,
 * and the filtered evaluation adding up to the whole.
 * The bushing is tested in test_linear_bushing.c, argument checks in
 * test_force_element_args.c. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/energy.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/forces/force_elements.h"
#include "multibody/tree/topology.h"
#include "support/mb_fixtures.h"
#include "support/mb_force_fixtures.h"
#include "support/test_support.h"

/* A 1 kg slider on a prismatic x joint tied to the world origin by a spring of
 * free length L0, released from rest at L0 + a, gravity off: x(t) = L0 + a
 * cos(w t) undamped, the underdamped closed form with damping (_i = 1). */
START_TEST(test_spring_damper_oscillator) {
  const double L0 = 1.0, a = 0.2, k = 4.0, mass = 1.0, d = _i ? 0.4 : 0.0;
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_zero()), TEAL_OK);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(mass, 0.1);
  int b = teal_plant_add_rigid_body(p, "slider", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 ax = teal_vec3_make(1, 0, 0);
  ck_assert_int_ge(teal_plant_add_joint(p, "x", TEAL_JOINT_PRISMATIC, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(p, b), &ax, 0.0),
                   0);
  int e = teal_plant_add_linear_spring_damper(p, TEAL_WORLD_BODY, teal_vec3_zero(), b,
                                              teal_vec3_zero(), L0, k, d);
  ck_assert_int_eq(e, 0);
  ck_assert_int_eq(teal_plant_force_element_kind(p, e), TEAL_FORCE_LINEAR_SPRING_DAMPER);
  ts_fe_model m = ts_fe_model_make(p);
  double x[2] = {L0 + a, 0.0};

  /* initial force: -k a along x at the body origin, no torque, no tau */
  teal_transform X[TS_FE_MAXB];
  teal_spatial_vector V[TS_FE_MAXB], F[TS_FE_MAXB];
  double tau[1];
  ck_assert_int_eq(ts_fe_calc_all(p, x, x + 1, X, V, F, tau, NULL), TEAL_OK);
  teal_spatial_vector F0 = teal_spatial_vector_make(teal_vec3_zero(), teal_vec3_make(-k * a, 0, 0));
  ck_assert_double_le(teal_spatial_vector_max_abs_diff(F[b], F0), 1e-14);
  ck_assert_double_eq(tau[0], 0.0);
  ck_assert_double_eq_tol(ts_fe_element_energy(p, x), 0.5 * k * a * a, 1e-15);

  double w = sqrt(k / mass), zeta = d / (2.0 * sqrt(k * mass)), wd = w * sqrt(1.0 - zeta * zeta);
  double dt = 1e-3, err = 0.0, E_prev = ts_fe_total_energy(&m, x, NULL);
  int monotone = 1;
  for (int step = 1; step <= 5000; step++) {
    ts_fe_rk4_step(&m, x, dt);
    double t = step * dt, env = exp(-zeta * w * t);
    double exact = L0 + a * env * (cos(wd * t) + zeta * w / wd * sin(wd * t));
    err = fmax(err, fabs(x[0] - exact));
    double E = ts_fe_total_energy(&m, x, NULL);
    monotone = monotone && E <= E_prev + 1e-13;
    E_prev = E;
  }
  ck_assert_msg(err < 1e-9, "max |x - x_exact| = %g (damping %g)", err, d);
  ck_assert_msg(monotone, "energy increased with damping %g", d);
  ts_fe_model_free(&m);
}
END_TEST

/* Two free bodies joined by a spring-damper between offset points: for random
 * states the forces are equal and opposite along the line P-Q (zero net
 * force and moment about the origin), of magnitude k (l - l0) + d ldot with
 * ldot a finite difference, and the power equals -dU/dt without damping and
 * -d ldot^2 without stiffness. */
START_TEST(test_spring_damper_two_bodies) {
  unsigned s = 11u;
  const double L0 = 0.7;
  const teal_vec3 p_AP = teal_vec3_make(0.1, -0.2, 0.05), p_BQ = teal_vec3_make(-0.15, 0.1, 0.2);
  for (int variant = 0; variant < 3; variant++) {
    double k = variant == 1 ? 0.0 : 35.0, d = variant == 0 ? 0.0 : 2.5;
    teal_plant *p = teal_plant_new(0.0, NULL);
    teal_spatial_inertia Ma = ts_fe_rand_inertia(&s, 1.2), Mb = ts_fe_rand_inertia(&s, 0.7);
    int ba = teal_plant_add_rigid_body(p, "a", TEAL_DEFAULT_MODEL_INSTANCE, &Ma);
    int bb = teal_plant_add_rigid_body(p, "b", TEAL_DEFAULT_MODEL_INSTANCE, &Mb);
    ck_assert_int_eq(teal_plant_add_linear_spring_damper(p, ba, p_AP, bb, p_BQ, L0, k, d), 0);
    ts_fe_model m = ts_fe_model_make(p);
    for (int trial = 0; trial < 20; trial++) {
      double q[TS_FE_MAXX], v[TS_FE_MAXX];
      ts_fe_set_free(p, ba, ts_mb_rand_pose(&s, 1.0), ts_fe_rand_spatial(&s, 1.5), q, v);
      ts_fe_set_free(p, bb, ts_mb_rand_pose(&s, 1.0), ts_fe_rand_spatial(&s, 1.5), q, v);
      teal_transform X[TS_FE_MAXB];
      teal_spatial_vector V[TS_FE_MAXB], F[TS_FE_MAXB];
      double tau[TS_FE_MAXX];
      ck_assert_int_eq(ts_fe_calc_all(p, q, v, X, V, F, tau, NULL), TEAL_OK);
      ck_assert_double_eq(ts_mb_max_abs(tau, m.nv), 0.0);
      teal_vec3 p_WP = teal_transform_apply(X[ba], p_AP), p_WQ = teal_transform_apply(X[bb], p_BQ);
      teal_vec3 dPQ = teal_vec3_sub(p_WQ, p_WP);
      double l = teal_vec3_norm(dPQ), fscale = k * fabs(l - L0) + 10.0 * d + 1.0;
      /* action and reaction */
      ck_assert_double_le(ts_fe_max_abs6(ts_fe_net_force_about(X, F, m.nb, teal_vec3_zero())),
                          1e-12 * fscale);
      ck_assert_double_le(ts_fe_max_abs6(ts_fe_net_force_about(X, F, m.nb, p_WP)), 1e-12 * fscale);
      /* the force on A acts at P along P->Q with the tension as magnitude */
      teal_vec3 f_A = teal_spatial_vector_linear(F[ba]);
      ck_assert_double_le(teal_vec3_norm(teal_vec3_cross(f_A, dPQ)), 1e-12 * fscale * l);
      teal_spatial_vector F_P = teal_spatial_force_shift(F[ba], teal_vec3_sub(p_WP, X[ba].p));
      ck_assert_double_le(teal_vec3_norm(teal_spatial_vector_angular(F_P)), 1e-12 * fscale);
      double h = 1e-6, qp[TS_FE_MAXX], qm[TS_FE_MAXX];
      teal_transform Xp[TS_FE_MAXB], Xm[TS_FE_MAXB];
      ck_assert_int_eq(ts_mb_step_q(p, q, v, h, qp), TEAL_OK);
      ck_assert_int_eq(ts_mb_step_q(p, q, v, -h, qm), TEAL_OK);
      ck_assert_int_eq(teal_mb_body_poses(p, qp, Xp), TEAL_OK);
      ck_assert_int_eq(teal_mb_body_poses(p, qm, Xm), TEAL_OK);
      double lp = teal_vec3_norm(teal_vec3_sub(teal_transform_apply(Xp[bb], p_BQ),
                                               teal_transform_apply(Xp[ba], p_AP)));
      double lm = teal_vec3_norm(teal_vec3_sub(teal_transform_apply(Xm[bb], p_BQ),
                                               teal_transform_apply(Xm[ba], p_AP)));
      double ldot = (lp - lm) / (2.0 * h);
      double tension = k * (l - L0) + d * ldot;
      ck_assert_double_eq_tol(teal_vec3_dot(f_A, dPQ) / l, tension, 1e-7 * fscale);
      /* power */
      double P = ts_fe_element_power(p, q, v);
      double expect = -ts_fe_energy_rate_fd(p, q, v, 1e-6) - d * ldot * ldot;
      ck_assert_msg(fabs(P - expect) < 1e-6 * (1.0 + fabs(expect)),
                    "variant %d trial %d: power %.12g, expected %.12g", variant, trial, P, expect);
    }
    ts_fe_model_free(&m);
  }
}
END_TEST

/* On a two-hinge chain, a spring on the second hinge adds exactly
 * k (q0 - q) to its own entry of tau, nothing elsewhere, no spatial force,
 * and stores 1/2 k (q - q0)^2. */
START_TEST(test_revolute_spring_torque) {
  const double k = 7.25, q0 = 0.3;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_box(1.0, 0.1, 0.2, 0.8);
  int b1 = teal_plant_add_rigid_body(p, "l1", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int b2 = teal_plant_add_rigid_body(p, "l2", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 z = teal_vec3_make(0, 0, 1), y = teal_vec3_make(0.1, 1, 0.2);
  int tip =
      teal_plant_add_frame(p, "tip", teal_plant_body_frame(p, b1), ts_fe_pose(0, 0, 0, 0, 0, -0.8));
  ck_assert_int_ge(teal_plant_add_joint(p, "j1", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(p, b1), &z, 0),
                   0);
  int j2 = teal_plant_add_joint(p, "j2", TEAL_JOINT_REVOLUTE, tip, teal_plant_body_frame(p, b2),
                                &y, 0);
  int e = teal_plant_add_revolute_spring(p, j2, q0, k);
  ck_assert_int_eq(e, 0);
  ck_assert_int_eq(teal_plant_num_force_elements(p), 1);
  ck_assert_int_eq(teal_plant_force_element_kind(p, e), TEAL_FORCE_REVOLUTE_SPRING);
  ts_fe_model m = ts_fe_model_make(p);
  int qi = teal_plant_joint_q_start(p, j2), vi = teal_plant_joint_v_start(p, j2);
  unsigned s = 5u;
  for (int trial = 0; trial < 20; trial++) {
    double q[2], v[2], tau[2], tau0[2];
    ts_mb_rand_vec(&s, q, 2, 3.0);
    ts_mb_rand_vec(&s, v, 2, 2.0);
    ts_mb_rand_vec(&s, tau0, 2, 1.0);
    memcpy(tau, tau0, sizeof tau);
    teal_transform X[TS_FE_MAXB];
    teal_spatial_vector V[TS_FE_MAXB], F[TS_FE_MAXB] = {{{0}}};
    ck_assert_int_eq(teal_mb_body_velocities(p, q, v, X, V), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_force_elements(p, q, v, X, V, F, tau, NULL), TEAL_OK);
    double expect = tau0[vi] + k * (q0 - q[qi]);
    ck_assert_double_eq_tol(tau[vi], expect, 1e-15 * (1.0 + fabs(expect)));
    ck_assert_double_eq(tau[1 - vi], tau0[1 - vi]); /* accumulated, others untouched */
    for (int b = 0; b < m.nb; b++) {
      ck_assert_double_eq(ts_fe_max_abs6(F[b]), 0.0);
    }
    double dq = q[qi] - q0;
    ck_assert_double_eq_tol(ts_fe_element_energy(p, q), 0.5 * k * dq * dq,
                            1e-14 * (1.0 + k * dq * dq));
  }
  ts_fe_model_free(&m);
}
END_TEST

/* A balanced rotor (a sphere on a tilted hinge through its center, gravity on
 * but without moment) with I = 2/5 m r^2 and a spring of stiffness k
 * oscillates as q0 + (qi - q0) cos(w t) + vi / w sin(w t), w = sqrt(k / I). */
START_TEST(test_revolute_spring_rotor) {
  const double mass = 2.0, r = 0.5, k = 0.8, q0 = -0.4, qi = 0.9, vi = 0.6;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(mass, r);
  int b = teal_plant_add_rigid_body(p, "rotor", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 ax = teal_vec3_make(1, 2, 2);
  int j = teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                               teal_plant_body_frame(p, b), &ax, 0);
  ck_assert_int_ge(teal_plant_add_revolute_spring(p, j, q0, k), 0);
  ts_fe_model m = ts_fe_model_make(p);
  double I = 0.4 * mass * r * r, w = sqrt(k / I), x[2] = {qi, vi}, dt = 1e-3, err = 0.0;
  double E0 = ts_fe_total_energy(&m, x, NULL);
  for (int step = 1; step <= 6000; step++) {
    ts_fe_rk4_step(&m, x, dt);
    double t = step * dt;
    err = fmax(err, fabs(x[0] - (q0 + (qi - q0) * cos(w * t) + vi / w * sin(w * t))));
  }
  ck_assert_msg(err < 1e-9, "max |q - q_exact| = %g", err);
  ck_assert_double_eq_tol(ts_fe_total_energy(&m, x, NULL), E0, 1e-10);
  ts_fe_model_free(&m);
}
END_TEST

/* Both outputs are accumulated: two calls give twice the forces of one, on
 * top of what was there; the spring-damper reports coincident points. */
START_TEST(test_accumulate_and_singular_spring) {
  unsigned s = 51u;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M1 = ts_fe_rand_inertia(&s, 1.0), M2 = ts_fe_rand_inertia(&s, 1.0);
  int b1 = teal_plant_add_rigid_body(p, "b1", TEAL_DEFAULT_MODEL_INSTANCE, &M1);
  int b2 = teal_plant_add_rigid_body(p, "b2", TEAL_DEFAULT_MODEL_INSTANCE, &M2);
  int f1 = teal_plant_body_frame(p, b1), f2 = teal_plant_body_frame(p, b2);
  teal_vec3 ones = teal_vec3_make(1, 2, 3);
  ck_assert_int_eq(teal_plant_add_linear_spring_damper(p, b1, teal_vec3_zero(), b2,
                                                       teal_vec3_zero(), 0.5, 10, 1),
                   0);
  ck_assert_int_eq(teal_plant_add_linear_bushing_rpy(p, f1, f2, ones, ones, ones, ones), 1);
  ck_assert_int_eq(teal_plant_num_force_elements(p), 2);
  ts_fe_model m = ts_fe_model_make(p);
  double q[TS_FE_MAXX], v[TS_FE_MAXX];
  ts_fe_set_free(p, b1, ts_fe_pose(0.1, 0.2, 0.3, 0, 0, 0), ts_fe_rand_spatial(&s, 1), q, v);
  ts_fe_set_free(p, b2, ts_fe_pose(-0.2, 0.1, 0.4, 0.3, 0.1, 0.2), ts_fe_rand_spatial(&s, 1), q, v);
  teal_transform X[TS_FE_MAXB];
  teal_spatial_vector V[TS_FE_MAXB], F1[TS_FE_MAXB], F2[TS_FE_MAXB];
  double tau1[TS_FE_MAXX], tau2[TS_FE_MAXX];
  ck_assert_int_eq(ts_fe_calc_all(p, q, v, X, V, F1, tau1, NULL), TEAL_OK);
  for (int b = 0; b < m.nb; b++) {
    F2[b] = teal_spatial_vector_make(ones, ones);
  }
  for (int i = 0; i < m.nv; i++) {
    tau2[i] = 0.5;
  }
  for (int rep = 0; rep < 2; rep++) {
    ck_assert_int_eq(teal_plant_calc_force_elements(p, q, v, X, V, F2, tau2, NULL), TEAL_OK);
  }
  for (int b = 1; b < m.nb; b++) {
    teal_spatial_vector expect = teal_spatial_vector_add(teal_spatial_vector_make(ones, ones),
                                                         teal_spatial_vector_scale(F1[b], 2.0));
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(F2[b], expect), 1e-12);
  }
  for (int i = 0; i < m.nv; i++) {
    ck_assert_double_eq(tau2[i], 0.5);
  }
  /* coincident spring points */
  ts_fe_set_free(p, b2, ts_fe_pose(-0.2, 0.1, 0.4, 0, 0, 0), ts_fe_rand_spatial(&s, 1), q, v);
  teal_error err;
  ck_assert_int_eq(ts_fe_calc_all(p, q, v, X, V, F1, tau1, &err), TEAL_ESINGULAR);
  ck_assert_int_eq(err.code, TEAL_ESINGULAR);
  ck_assert_int_eq(ts_fe_calc_all(p, q, v, X, V, F1, tau1, NULL), TEAL_ESINGULAR);
  ts_fe_model_free(&m);
}
END_TEST

/* Two free bodies: b1 hangs from the world by a spring-damper and a bushing,
 * b2 from b1 by another pair (all damping zero), gravity on. RK4 at
 * dt = 5e-4 for 1 s keeps kinetic + gravity + element energy to 1e-6. */
START_TEST(test_energy_free_bodies) {
  unsigned s = 61u;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M1 = ts_fe_rand_inertia(&s, 1.5), M2 = ts_fe_rand_inertia(&s, 0.8);
  int b1 = teal_plant_add_rigid_body(p, "b1", TEAL_DEFAULT_MODEL_INSTANCE, &M1);
  int b2 = teal_plant_add_rigid_body(p, "b2", TEAL_DEFAULT_MODEL_INSTANCE, &M2);
  teal_transform X_WW1 = ts_fe_pose(0, 0, 0.2, 0, 0, 1.0),
                 X_B1A1 = ts_fe_pose(0.1, 0.2, 0.3, 0.05, 0, 0.1);
  teal_transform X_B1A2 = ts_fe_pose(0, 0, 0, 0, 0, -0.3),
                 X_B2C2 = ts_fe_pose(-0.2, 0.1, 0.4, 0.02, 0.03, 0.1);
  int w1 = teal_plant_add_frame(p, "W1", TEAL_WORLD_FRAME, X_WW1);
  int a1 = teal_plant_add_frame(p, "A1", teal_plant_body_frame(p, b1), X_B1A1);
  int a2 = teal_plant_add_frame(p, "A2", teal_plant_body_frame(p, b1), X_B1A2);
  int c2 = teal_plant_add_frame(p, "C2", teal_plant_body_frame(p, b2), X_B2C2);
  teal_vec3 zero = teal_vec3_zero();
  ck_assert_int_ge(teal_plant_add_linear_bushing_rpy(p, w1, a1, teal_vec3_make(4, 5, 6), zero,
                                                     teal_vec3_make(30, 40, 50), zero),
                   0);
  teal_vec3 p_WP = teal_vec3_make(0.2, 0, 1.5);
  ck_assert_int_ge(teal_plant_add_linear_spring_damper(p, TEAL_WORLD_BODY, p_WP, b1,
                                                       teal_vec3_make(0, 0.1, 0.1), 0.4, 60, 0),
                   0);
  ck_assert_int_ge(teal_plant_add_linear_bushing_rpy(p, a2, c2, teal_vec3_make(2, 3, 4), zero,
                                                     teal_vec3_make(20, 20, 25), zero),
                   0);
  ck_assert_int_ge(teal_plant_add_linear_spring_damper(p, b1, teal_vec3_make(0.1, 0, -0.2), b2,
                                                       teal_vec3_make(0, 0, 0.1), 0.3, 40, 0),
                   0);
  ts_fe_model m = ts_fe_model_make(p);
  double x[TS_FE_MAXX];
  teal_transform X_WB1 = teal_transform_compose(
      teal_transform_compose(X_WW1, ts_fe_pose(0.2, -0.3, 0.25, 0.05, -0.03, 0.02)),
      teal_transform_inverse(X_B1A1));
  teal_transform X_WB2 = teal_transform_compose(
      teal_transform_compose(teal_transform_compose(X_WB1, X_B1A2),
                             ts_fe_pose(-0.3, 0.2, 0.1, -0.04, 0.05, -0.1)),
      teal_transform_inverse(X_B2C2));
  ts_fe_set_free(p, b1, X_WB1, ts_fe_rand_spatial(&s, 0.8), x, x + m.nq);
  ts_fe_set_free(p, b2, X_WB2, ts_fe_rand_spatial(&s, 0.8), x, x + m.nq);
  double scale, E0 = ts_fe_total_energy(&m, x, &scale), drift = 0.0, ke_min = INFINITY,
                ke_max = 0.0;
  for (int step = 0; step < 2000; step++) {
    ts_fe_rk4_step(&m, x, 5e-4);
    double ke;
    ck_assert_int_eq(teal_mb_kinetic_energy(p, m.ws, x, x + m.nq, &ke), TEAL_OK);
    ke_min = fmin(ke_min, ke);
    ke_max = fmax(ke_max, ke);
    drift = fmax(drift, fabs(ts_fe_total_energy(&m, x, NULL) - E0));
  }
  ck_assert_msg(ke_max - ke_min > 0.01 * scale, "barely moved: ke in [%g, %g]", ke_min, ke_max);
  ck_assert_msg(drift < 1e-6 * scale, "energy drift %g (scale %g)", drift, scale);
  ts_fe_model_free(&m);
}
END_TEST

/* The filtered evaluation: leaving out element 0, then element 1, of two
 * spring-dampers on a moving free body gives two parts that add up to the
 * unfiltered forces and energy (the elements add), and a filter that
 * leaves out nothing gives them exactly. */
static int skip_one(const teal_plant *p, int i, const void *user) {
  (void)p;
  return user && i == *(const int *)user;
}

START_TEST(test_filter_leaves_out_elements) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M =
      teal_spatial_inertia_from_central(1.0, teal_vec3_zero(), teal_mat3_diag(0.1, 0.2, 0.3));
  int b = teal_plant_add_rigid_body(p, "b", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_eq(teal_plant_add_linear_spring_damper(p, TEAL_WORLD_BODY, teal_vec3_zero(), b,
                                                       teal_vec3_make(0.1, 0, 0), 0.5, 30, 2),
                   0);
  ck_assert_int_eq(teal_plant_add_linear_spring_damper(p, TEAL_WORLD_BODY, teal_vec3_make(1, 0, 0),
                                                       b, teal_vec3_make(0, 0.2, 0), 0.7, 50, 1),
                   1);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  double q[7] = {1, 0, 0, 0, 0.3, -0.2, 0.4}, v[6] = {0.1, -0.3, 0.2, 0.5, 0.4, -0.6};
  teal_transform X[2];
  teal_spatial_vector V[2], F[3][2];
  double tau[3][6], pe[3];
  ck_assert_int_eq(teal_mb_body_velocities(p, q, v, X, V), TEAL_OK);
  const int skip[3] = {-1, 0, 1};
  for (int k = 0; k < 3; k++) {
    memset(F[k], 0, sizeof(F[k]));
    memset(tau[k], 0, sizeof(tau[k]));
    ck_assert_int_eq(teal_plant_calc_force_elements_filtered(p, q, v, X, V, F[k], tau[k], skip_one,
                                                             &skip[k], NULL),
                     TEAL_OK);
    ck_assert_int_eq(teal_plant_force_elements_potential_energy_filtered(p, q, X, &pe[k], skip_one,
                                                                         &skip[k], NULL),
                     TEAL_OK);
  }
  teal_spatial_vector F_all[2] = {0};
  double tau_all[6] = {0}, pe_all;
  ck_assert_int_eq(teal_plant_calc_force_elements(p, q, v, X, V, F_all, tau_all, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(p, q, X, &pe_all, NULL), TEAL_OK);
  ck_assert_double_eq(pe[0], pe_all);
  ck_assert_double_eq_tol(pe[1] + pe[2], pe_all, 1e-12);
  ck_assert(pe[1] > 0.01 && pe[2] > 0.01);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq(F[0][1].v[i], F_all[1].v[i]);
    ck_assert_double_eq_tol(F[1][1].v[i] + F[2][1].v[i], F_all[1].v[i], 1e-12);
  }
  ck_assert(fabs(F[1][1].v[3] - F_all[1].v[3]) > 0.1); /* leaving one out changes the force */
  teal_plant_free(p);
}
END_TEST

/* A three-hinge chain with a revolute spring on every hinge and a
 * spring-damper from the world to the tip (no damping), gravity on: RK4 at
 * dt = 5e-4 for 1 s keeps the total energy to 1e-6. */
START_TEST(test_energy_chain) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_vec3 axes[3] = {teal_vec3_make(0, 1, 0), teal_vec3_make(1, 0, 0.3),
                       teal_vec3_make(0.2, 1, 0)};
  const double ks[3] = {2.0, 3.0, 4.0}, q0s[3] = {0.1, -0.2, 0.3};
  int prev = TEAL_WORLD_FRAME, body = 0;
  for (int i = 0; i < 3; i++) {
    char bn[8] = {'l', (char)('0' + i), 0}, jn[8] = {'j', (char)('0' + i), 0};
    char tn[8] = {'t', (char)('0' + i), 0};
    teal_spatial_inertia M = teal_spatial_inertia_from_central(
        1.0 - 0.2 * i, teal_vec3_make(0.05, 0, -0.5), teal_mat3_diag(0.03, 0.028, 0.004));
    body = teal_plant_add_rigid_body(p, bn, TEAL_DEFAULT_MODEL_INSTANCE, &M);
    int j = teal_plant_add_joint(p, jn, TEAL_JOINT_REVOLUTE, prev, teal_plant_body_frame(p, body),
                                 &axes[i], 0);
    ck_assert_int_eq(teal_plant_add_revolute_spring(p, j, q0s[i], ks[i]), i);
    prev = teal_plant_add_frame(p, tn, teal_plant_body_frame(p, body),
                                ts_fe_pose(0, 0, 0, 0, 0, -1.0));
  }
  /* anchored out of the chain's reach, so the spring never has zero length */
  ck_assert_int_eq(teal_plant_add_linear_spring_damper(p, TEAL_WORLD_BODY,
                                                       teal_vec3_make(2.5, 1.0, 2.5), body,
                                                       teal_vec3_make(0, 0, -1.0), 2.0, 10.0, 0.0),
                   3);
  ts_fe_model m = ts_fe_model_make(p);
  double x[6] = {1.2, -0.5, 0.8, 0.3, 1.0, -0.7}, scale;
  double E0 = ts_fe_total_energy(&m, x, &scale), drift = 0.0;
  for (int step = 0; step < 2000; step++) {
    ts_fe_rk4_step(&m, x, 5e-4);
    drift = fmax(drift, fabs(ts_fe_total_energy(&m, x, NULL) - E0));
  }
  ck_assert_msg(drift < 1e-6 * scale, "energy drift %g (scale %g)", drift, scale);
  ts_fe_model_free(&m);
}
END_TEST

/* The power split of teal_plant_force_elements_power on two free bodies
 * with damped bushings and spring-dampers: conservative + nonconservative is
 * the power of the forces (tau . v + sum F . V), the conservative part is
 * -dU/dt by a central difference, and the dissipative part is <= 0. */
START_TEST(test_power_split) {
  unsigned s = 71u;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M1 = ts_fe_rand_inertia(&s, 1.5), M2 = ts_fe_rand_inertia(&s, 0.8);
  int b1 = teal_plant_add_rigid_body(p, "b1", TEAL_DEFAULT_MODEL_INSTANCE, &M1);
  int b2 = teal_plant_add_rigid_body(p, "b2", TEAL_DEFAULT_MODEL_INSTANCE, &M2);
  int a1 = teal_plant_add_frame(p, "A1", teal_plant_body_frame(p, b1),
                                ts_fe_pose(0.1, 0.2, 0.3, 0.05, 0, 0.1));
  int c2 = teal_plant_add_frame(p, "C2", teal_plant_body_frame(p, b2),
                                ts_fe_pose(-0.2, 0.1, 0.4, 0.02, 0.03, 0.1));
  ck_assert_int_ge(teal_plant_add_linear_bushing_rpy(
                       p, a1, c2, teal_vec3_make(4, 5, 6), teal_vec3_make(0.3, 0.2, 0.1),
                       teal_vec3_make(30, 40, 50), teal_vec3_make(1, 2, 3)),
                   0);
  ck_assert_int_ge(
      teal_plant_add_linear_spring_damper(p, TEAL_WORLD_BODY, teal_vec3_make(0, 0, 1), b1,
                                          teal_vec3_make(0, 0.1, 0.1), 0.4, 60, 2.0),
      0);
  ts_fe_model m = ts_fe_model_make(p);
  for (int trial = 0; trial < 6; trial++) {
    double x[TS_FE_MAXX];
    ts_fe_set_free(p, b1, ts_fe_pose(0.3, -0.2, 0.1, 0.1, 0.2, 0.3), ts_fe_rand_spatial(&s, 1.0), x,
                   x + m.nq);
    ts_fe_set_free(p, b2, ts_fe_pose(0.2, 0.1 * trial, -0.3, 0.2, 0.1, 0.4),
                   ts_fe_rand_spatial(&s, 1.0), x, x + m.nq);
    teal_transform X[TS_FE_MAXB];
    teal_spatial_vector V[TS_FE_MAXB], F[TS_FE_MAXB];
    double tau[TS_FE_MAXX], pc, pn;
    ck_assert_int_eq(ts_fe_calc_all(p, x, x + m.nq, X, V, F, tau, NULL), TEAL_OK);
    ck_assert_int_eq(teal_plant_force_elements_power(p, x, x + m.nq, X, V, &pc, &pn, NULL),
                     TEAL_OK);
    double P = ts_fe_element_power(p, x, x + m.nq), dU = ts_fe_energy_rate_fd(p, x, x + m.nq, 1e-6);
    ck_assert_msg(fabs(pc + pn - P) < 1e-10 * (1.0 + fabs(P)), "split %g + %g vs power %g", pc, pn,
                  P);
    ck_assert_msg(fabs(pc + dU) < 1e-6 * (1.0 + fabs(dU)), "conservative %g vs -dU/dt %g", pc, -dU);
    ck_assert_double_lt(pn, 0.0);
  }
  ts_fe_model_free(&m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("force_elements");
  TCase *tc = tcase_create("force_elements");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_spring_damper_oscillator, 0, 2);
  tcase_add_test(tc, test_spring_damper_two_bodies);
  tcase_add_test(tc, test_revolute_spring_torque);
  tcase_add_test(tc, test_revolute_spring_rotor);
  tcase_add_test(tc, test_accumulate_and_singular_spring);
  tcase_add_test(tc, test_energy_free_bodies);
  tcase_add_test(tc, test_energy_chain);
  tcase_add_test(tc, test_filter_leaves_out_elements);
  tcase_add_test(tc, test_power_split);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
