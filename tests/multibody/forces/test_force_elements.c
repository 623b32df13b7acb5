/* Force elements (multibody/force_elements.h): the spring-damper against the
 * closed-form (damped) oscillator and its action-reaction and power
 * properties, the revolute spring's exact torque and rotor frequency, the
 * rpy bushing's action-reaction, power identity (stiffness against a finite
 * difference of the stored energy, damping against finite-difference rates)
 * and gimbal lock, energy conservation of spring-coupled free bodies and a
 * sprung chain under RK4, and argument checks with sticky errors. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/dynamics.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/forces/force_elements.h"
#include "multibody/tree/topology.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

#define MAXB 8
#define MAXX 64

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- helpers ------------------------------------------------------------------- */

/* A finalized plant with its dynamics workspace and sizes. */
typedef struct model {
  teal_plant *p;
  teal_mb_workspace *ws;
  int nq, nv, nb;
} model;

static model model_make(teal_plant *p) {
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  model m = {p, teal_mb_workspace_new(p, NULL), teal_plant_nq(p), teal_plant_nv(p),
             teal_plant_num_bodies(p)};
  ck_assert_ptr_nonnull(m.ws);
  ck_assert_int_le(m.nb, MAXB);
  ck_assert_int_le(m.nq + m.nv, MAXX);
  return m;
}

static void model_free(model *m) {
  teal_mb_workspace_free(m->ws);
  teal_plant_free(m->p);
}

static teal_transform pose(double r, double pi, double y, double px, double py, double pz) {
  return teal_transform_make(teal_rotation_from_rpy(teal_vec3_make(r, pi, y)),
                             teal_vec3_make(px, py, pz));
}

/* A random box inertia of mass m with an offset, rotated center of mass. */
static teal_spatial_inertia rand_inertia(unsigned *s, double m) {
  teal_spatial_inertia box = teal_spatial_inertia_solid_box(
      m, ts_rand_uniform(s, 0.2, 0.5), ts_rand_uniform(s, 0.2, 0.5), ts_rand_uniform(s, 0.2, 0.5));
  teal_transform X = ts_mb_rand_pose(s, 0.1);
  teal_spatial_inertia r = teal_spatial_inertia_reexpress(&box, X.R);
  return teal_spatial_inertia_from_central(m, X.p, r.I_SP_E);
}

static teal_spatial_vector rand_spatial(unsigned *s, double a) {
  teal_spatial_vector V;
  ts_mb_rand_vec(s, V.v, 6, a);
  return V;
}

/* Writes the floating joint coordinates of a free body so that its pose is
 * X_WB and its spatial velocity V_WB (both in W). */
static void set_free(const teal_plant *p, int body, teal_transform X_WB, teal_spatial_vector V_WB,
                     double *q, double *v) {
  int j = teal_plant_body_joint(p, body);
  ck_assert_int_eq(teal_plant_joint_kind(p, j), TEAL_JOINT_QUATERNION_FLOATING);
  int qs = teal_plant_joint_q_start(p, j), vs = teal_plant_joint_v_start(p, j);
  teal_quaternion u = teal_rotation_to_quaternion(X_WB.R);
  double qq[7] = {u.w, u.x, u.y, u.z, X_WB.p.v[0], X_WB.p.v[1], X_WB.p.v[2]};
  memcpy(q + qs, qq, sizeof qq);
  memcpy(v + vs, V_WB.v, sizeof V_WB.v);
}

/* Poses, velocities and the element forces (F and tau cleared first). */
static int calc_all(const teal_plant *p, const double *q, const double *v, teal_transform *X,
                    teal_spatial_vector *V, teal_spatial_vector *F, double *tau, teal_error *err) {
  ck_assert_int_eq(teal_plant_calc_body_velocities(p, q, v, X, V), TEAL_OK);
  for (int b = 0; b < teal_plant_num_bodies(p); b++) {
    F[b] = teal_spatial_vector_zero();
  }
  for (int i = 0; i < teal_plant_nv(p); i++) {
    tau[i] = 0.0;
  }
  return teal_plant_calc_force_elements(p, q, v, X, V, F, tau, err);
}

/* Power of the element forces: sum_b F_Bo_W[b] . V_WB[b] + tau . v. */
static double element_power(const teal_plant *p, const double *q, const double *v) {
  teal_transform X[MAXB];
  teal_spatial_vector V[MAXB], F[MAXB];
  double tau[MAXX], P = 0.0;
  teal_error err;
  ck_assert_int_eq(calc_all(p, q, v, X, V, F, tau, &err), TEAL_OK);
  for (int b = 1; b < teal_plant_num_bodies(p); b++) {
    P += teal_spatial_vector_dot(F[b], V[b]);
  }
  for (int i = 0; i < teal_plant_nv(p); i++) {
    P += tau[i] * v[i];
  }
  return P;
}

static double element_energy(const teal_plant *p, const double *q) {
  teal_transform X[MAXB];
  double pe = -1.0;
  ck_assert_int_eq(teal_plant_calc_body_poses(p, q, X), TEAL_OK);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(p, q, X, &pe), TEAL_OK);
  return pe;
}

/* dU/dt along v by a central difference over q +- h N(q) v. */
static double energy_rate_fd(const teal_plant *p, const double *q, const double *v, double h) {
  double qp[MAXX], qm[MAXX];
  ck_assert_int_eq(ts_mb_step_q(p, q, v, h, qp), TEAL_OK);
  ck_assert_int_eq(ts_mb_step_q(p, q, v, -h, qm), TEAL_OK);
  return (element_energy(p, qp) - element_energy(p, qm)) / (2.0 * h);
}

/* x = (q, v); xd = (N(q) v, vdot) with the element forces applied. */
static void deriv(const model *m, const double *x, double *xd) {
  teal_transform X[MAXB];
  teal_spatial_vector V[MAXB], F[MAXB];
  double tau[MAXX];
  teal_error err;
  const double *q = x, *v = x + m->nq;
  int rc = calc_all(m->p, q, v, X, V, F, tau, &err);
  ck_assert_msg(rc == TEAL_OK, "force elements failed: %s", err.message);
  const teal_plant_tree *t = teal_plant_get_tree(m->p);
  for (int k = 1; k < t->num_nodes; k++) {
    teal_joint_qdot(t->type[k], &t->params[k], q + t->q_start[k], v + t->v_start[k],
                    xd + t->q_start[k]);
  }
  ck_assert_int_eq(teal_mb_forward_dynamics_ex(m->p, m->ws, q, v, tau, F, xd + m->nq), TEAL_OK);
}

/* One classical RK4 step of size dt, quaternions renormalized after it. */
static void rk4_step(const model *m, double *x, double dt) {
  int n = m->nq + m->nv;
  double k1[MAXX], k2[MAXX], k3[MAXX], k4[MAXX], xt[MAXX];
  deriv(m, x, k1);
  for (int i = 0; i < n; i++) {
    xt[i] = x[i] + 0.5 * dt * k1[i];
  }
  deriv(m, xt, k2);
  for (int i = 0; i < n; i++) {
    xt[i] = x[i] + 0.5 * dt * k2[i];
  }
  deriv(m, xt, k3);
  for (int i = 0; i < n; i++) {
    xt[i] = x[i] + dt * k3[i];
  }
  deriv(m, xt, k4);
  for (int i = 0; i < n; i++) {
    x[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
  ck_assert_int_eq(teal_plant_normalize_q(m->p, x), TEAL_OK);
}

/* Kinetic, gravity and element energies of x; returns their sum. */
static double total_energy(const model *m, const double *x, double *scale) {
  double ke, pg;
  ck_assert_int_eq(teal_mb_kinetic_energy(m->p, m->ws, x, x + m->nq, &ke), TEAL_OK);
  ck_assert_int_eq(teal_mb_potential_energy(m->p, m->ws, x, &pg), TEAL_OK);
  double pf = element_energy(m->p, x);
  if (scale) {
    *scale = fabs(ke) + fabs(pg) + fabs(pf);
  }
  return ke + pg + pf;
}

/* Net spatial force of all bodies about the world point p_WO. */
static teal_spatial_vector net_force_about(const teal_transform *X, const teal_spatial_vector *F,
                                           int nb, teal_vec3 p_WO) {
  teal_spatial_vector sum = teal_spatial_vector_zero();
  for (int b = 1; b < nb; b++) {
    sum = teal_spatial_vector_add(sum, teal_spatial_force_shift(F[b], teal_vec3_sub(p_WO, X[b].p)));
  }
  return sum;
}

static double max_abs6(teal_spatial_vector a) {
  return teal_spatial_vector_max_abs_diff(a, teal_spatial_vector_zero());
}

/* ---- linear spring-damper --------------------------------------------------------- */

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
  model m = model_make(p);
  double x[2] = {L0 + a, 0.0};

  /* initial force: -k a along x at the body origin, no torque, no tau */
  teal_transform X[MAXB];
  teal_spatial_vector V[MAXB], F[MAXB];
  double tau[1];
  ck_assert_int_eq(calc_all(p, x, x + 1, X, V, F, tau, NULL), TEAL_OK);
  teal_spatial_vector F0 = teal_spatial_vector_make(teal_vec3_zero(), teal_vec3_make(-k * a, 0, 0));
  ck_assert_double_le(teal_spatial_vector_max_abs_diff(F[b], F0), 1e-14);
  ck_assert_double_eq(tau[0], 0.0);
  ck_assert_double_eq_tol(element_energy(p, x), 0.5 * k * a * a, 1e-15);

  double w = sqrt(k / mass), zeta = d / (2.0 * sqrt(k * mass)), wd = w * sqrt(1.0 - zeta * zeta);
  double dt = 1e-3, err = 0.0, E_prev = total_energy(&m, x, NULL);
  int monotone = 1;
  for (int step = 1; step <= 5000; step++) {
    rk4_step(&m, x, dt);
    double t = step * dt, env = exp(-zeta * w * t);
    double exact = L0 + a * env * (cos(wd * t) + zeta * w / wd * sin(wd * t));
    err = fmax(err, fabs(x[0] - exact));
    double E = total_energy(&m, x, NULL);
    monotone = monotone && E <= E_prev + 1e-13;
    E_prev = E;
  }
  ck_assert_msg(err < 1e-9, "max |x - x_exact| = %g (damping %g)", err, d);
  ck_assert_msg(monotone, "energy increased with damping %g", d);
  model_free(&m);
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
    teal_spatial_inertia Ma = rand_inertia(&s, 1.2), Mb = rand_inertia(&s, 0.7);
    int ba = teal_plant_add_rigid_body(p, "a", TEAL_DEFAULT_MODEL_INSTANCE, &Ma);
    int bb = teal_plant_add_rigid_body(p, "b", TEAL_DEFAULT_MODEL_INSTANCE, &Mb);
    ck_assert_int_eq(teal_plant_add_linear_spring_damper(p, ba, p_AP, bb, p_BQ, L0, k, d), 0);
    model m = model_make(p);
    for (int trial = 0; trial < 20; trial++) {
      double q[MAXX], v[MAXX];
      set_free(p, ba, ts_mb_rand_pose(&s, 1.0), rand_spatial(&s, 1.5), q, v);
      set_free(p, bb, ts_mb_rand_pose(&s, 1.0), rand_spatial(&s, 1.5), q, v);
      teal_transform X[MAXB];
      teal_spatial_vector V[MAXB], F[MAXB];
      double tau[MAXX];
      ck_assert_int_eq(calc_all(p, q, v, X, V, F, tau, NULL), TEAL_OK);
      ck_assert_double_eq(ts_mb_max_abs(tau, m.nv), 0.0);
      teal_vec3 p_WP = teal_transform_apply(X[ba], p_AP), p_WQ = teal_transform_apply(X[bb], p_BQ);
      teal_vec3 dPQ = teal_vec3_sub(p_WQ, p_WP);
      double l = teal_vec3_norm(dPQ), fscale = k * fabs(l - L0) + 10.0 * d + 1.0;
      /* action and reaction */
      ck_assert_double_le(max_abs6(net_force_about(X, F, m.nb, teal_vec3_zero())), 1e-12 * fscale);
      ck_assert_double_le(max_abs6(net_force_about(X, F, m.nb, p_WP)), 1e-12 * fscale);
      /* the force on A acts at P along P->Q with the tension as magnitude */
      teal_vec3 f_A = teal_spatial_vector_linear(F[ba]);
      ck_assert_double_le(teal_vec3_norm(teal_vec3_cross(f_A, dPQ)), 1e-12 * fscale * l);
      teal_spatial_vector F_P = teal_spatial_force_shift(F[ba], teal_vec3_sub(p_WP, X[ba].p));
      ck_assert_double_le(teal_vec3_norm(teal_spatial_vector_angular(F_P)), 1e-12 * fscale);
      double h = 1e-6, qp[MAXX], qm[MAXX];
      teal_transform Xp[MAXB], Xm[MAXB];
      ck_assert_int_eq(ts_mb_step_q(p, q, v, h, qp), TEAL_OK);
      ck_assert_int_eq(ts_mb_step_q(p, q, v, -h, qm), TEAL_OK);
      ck_assert_int_eq(teal_plant_calc_body_poses(p, qp, Xp), TEAL_OK);
      ck_assert_int_eq(teal_plant_calc_body_poses(p, qm, Xm), TEAL_OK);
      double lp = teal_vec3_norm(teal_vec3_sub(teal_transform_apply(Xp[bb], p_BQ),
                                               teal_transform_apply(Xp[ba], p_AP)));
      double lm = teal_vec3_norm(teal_vec3_sub(teal_transform_apply(Xm[bb], p_BQ),
                                               teal_transform_apply(Xm[ba], p_AP)));
      double ldot = (lp - lm) / (2.0 * h);
      double tension = k * (l - L0) + d * ldot;
      ck_assert_double_eq_tol(teal_vec3_dot(f_A, dPQ) / l, tension, 1e-7 * fscale);
      /* power */
      double P = element_power(p, q, v);
      double expect = -energy_rate_fd(p, q, v, 1e-6) - d * ldot * ldot;
      ck_assert_msg(fabs(P - expect) < 1e-6 * (1.0 + fabs(expect)),
                    "variant %d trial %d: power %.12g, expected %.12g", variant, trial, P, expect);
    }
    model_free(&m);
  }
}
END_TEST

/* ---- revolute spring ------------------------------------------------------------ */

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
  int tip = teal_plant_add_frame(p, "tip", teal_plant_body_frame(p, b1), pose(0, 0, 0, 0, 0, -0.8));
  ck_assert_int_ge(teal_plant_add_joint(p, "j1", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                        teal_plant_body_frame(p, b1), &z, 0),
                   0);
  int j2 = teal_plant_add_joint(p, "j2", TEAL_JOINT_REVOLUTE, tip, teal_plant_body_frame(p, b2),
                                &y, 0);
  int e = teal_plant_add_revolute_spring(p, j2, q0, k);
  ck_assert_int_eq(e, 0);
  ck_assert_int_eq(teal_plant_num_force_elements(p), 1);
  ck_assert_int_eq(teal_plant_force_element_kind(p, e), TEAL_FORCE_REVOLUTE_SPRING);
  model m = model_make(p);
  int qi = teal_plant_joint_q_start(p, j2), vi = teal_plant_joint_v_start(p, j2);
  unsigned s = 5u;
  for (int trial = 0; trial < 20; trial++) {
    double q[2], v[2], tau[2], tau0[2];
    ts_mb_rand_vec(&s, q, 2, 3.0);
    ts_mb_rand_vec(&s, v, 2, 2.0);
    ts_mb_rand_vec(&s, tau0, 2, 1.0);
    memcpy(tau, tau0, sizeof tau);
    teal_transform X[MAXB];
    teal_spatial_vector V[MAXB], F[MAXB] = {{{0}}};
    ck_assert_int_eq(teal_plant_calc_body_velocities(p, q, v, X, V), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_force_elements(p, q, v, X, V, F, tau, NULL), TEAL_OK);
    double expect = tau0[vi] + k * (q0 - q[qi]);
    ck_assert_double_eq_tol(tau[vi], expect, 1e-15 * (1.0 + fabs(expect)));
    ck_assert_double_eq(tau[1 - vi], tau0[1 - vi]); /* accumulated, others untouched */
    for (int b = 0; b < m.nb; b++) {
      ck_assert_double_eq(max_abs6(F[b]), 0.0);
    }
    double dq = q[qi] - q0;
    ck_assert_double_eq_tol(element_energy(p, q), 0.5 * k * dq * dq, 1e-14 * (1.0 + k * dq * dq));
  }
  model_free(&m);
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
  model m = model_make(p);
  double I = 0.4 * mass * r * r, w = sqrt(k / I), x[2] = {qi, vi}, dt = 1e-3, err = 0.0;
  double E0 = total_energy(&m, x, NULL);
  for (int step = 1; step <= 6000; step++) {
    rk4_step(&m, x, dt);
    double t = step * dt;
    err = fmax(err, fabs(x[0] - (q0 + (qi - q0) * cos(w * t) + vi / w * sin(w * t))));
  }
  ck_assert_msg(err < 1e-9, "max |q - q_exact| = %g", err);
  ck_assert_double_eq_tol(total_energy(&m, x, NULL), E0, 1e-10);
  model_free(&m);
}
END_TEST

/* ---- bushing ----------------------------------------------------------------------- */

/* A bushing from frame A on body a (or on the world, _i = 1) to frame C on
 * body c, both bodies free. */
typedef struct bushing_fixture {
  model m;
  int ba, bc, fA, fC;
  teal_transform X_BaA, X_BcC;
  teal_vec3 kr, dr, kp, dp;
} bushing_fixture;

static bushing_fixture bushing_make(int world_a, int stiff, int damp, unsigned *s) {
  bushing_fixture f;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M1 = rand_inertia(s, 1.3), M2 = rand_inertia(s, 0.9);
  int b1 = teal_plant_add_rigid_body(p, "b1", TEAL_DEFAULT_MODEL_INSTANCE, &M1);
  int b2 = teal_plant_add_rigid_body(p, "b2", TEAL_DEFAULT_MODEL_INSTANCE, &M2);
  f.ba = world_a ? TEAL_WORLD_BODY : b1;
  f.bc = b2;
  f.X_BaA = ts_mb_rand_pose(s, 0.3);
  f.X_BcC = ts_mb_rand_pose(s, 0.3);
  f.fA = teal_plant_add_frame(p, "A", teal_plant_body_frame(p, f.ba), f.X_BaA);
  f.fC = teal_plant_add_frame(p, "C", teal_plant_body_frame(p, f.bc), f.X_BcC);
  double k[6], d[6];
  for (int i = 0; i < 6; i++) {
    k[i] = stiff ? ts_rand_uniform(s, 1.0, 20.0) : 0.0;
    d[i] = damp ? ts_rand_uniform(s, 0.5, 3.0) : 0.0;
  }
  f.kr = teal_vec3_make(k[0], k[1], k[2]);
  f.kp = teal_vec3_make(k[3], k[4], k[5]);
  f.dr = teal_vec3_make(d[0], d[1], d[2]);
  f.dp = teal_vec3_make(d[3], d[4], d[5]);
  int e = teal_plant_add_linear_bushing_rpy(p, f.fA, f.fC, f.kr, f.dr, f.kp, f.dp);
  ck_assert_int_eq(e, 0);
  ck_assert_int_eq(teal_plant_force_element_kind(p, e), TEAL_FORCE_LINEAR_BUSHING_RPY);
  f.m = model_make(p);
  return f;
}

/* A state with the relative pose X_AC (A's body at a random pose) and random
 * velocities; checks that kinematics reproduces X_AC. */
static void bushing_state(const bushing_fixture *f, unsigned *s, teal_transform X_AC, double *q,
                          double *v) {
  const teal_plant *p = f->m.p;
  teal_transform X_WBa = teal_transform_identity();
  if (f->ba != TEAL_WORLD_BODY) {
    X_WBa = ts_mb_rand_pose(s, 1.0);
    set_free(p, f->ba, X_WBa, rand_spatial(s, 1.5), q, v);
  }
  teal_transform X_WA = teal_transform_compose(X_WBa, f->X_BaA);
  teal_transform X_WBc =
      teal_transform_compose(teal_transform_compose(X_WA, X_AC), teal_transform_inverse(f->X_BcC));
  set_free(p, f->bc, X_WBc, rand_spatial(s, 1.5), q, v);
  for (int b = 1; b < f->m.nb; b++) {
    if (b != f->ba && b != f->bc) {
      set_free(p, b, ts_mb_rand_pose(s, 1.0), rand_spatial(s, 1.0), q, v);
    }
  }
  teal_transform X[MAXB], X_AC2;
  ck_assert_int_eq(teal_plant_calc_body_poses(p, q, X), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_relative_transform(p, X, f->fA, f->fC, &X_AC2), TEAL_OK);
  ck_assert_double_le(teal_mat3_max_abs_diff(X_AC2.R, X_AC.R), 1e-12);
  ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(X_AC2.p, X_AC.p)), 1e-12);
}

/* A random relative pose away from gimbal lock and from the roll/yaw wrap. */
static teal_transform rand_relative(unsigned *s) {
  teal_vec3 rpy = teal_vec3_make(ts_rand_uniform(s, -2.5, 2.5), ts_rand_uniform(s, -1.3, 1.3),
                                 ts_rand_uniform(s, -2.5, 2.5));
  teal_vec3 p = teal_vec3_make(ts_rand_uniform(s, -0.5, 0.5), ts_rand_uniform(s, -0.5, 0.5),
                               ts_rand_uniform(s, -0.5, 0.5));
  return teal_transform_make(teal_rotation_from_rpy(rpy), p);
}

/* rpy and p_AoCo_A of the bushing at q. */
static void bushing_coords(const bushing_fixture *f, const double *q, teal_vec3 *rpy,
                           teal_vec3 *p_A) {
  teal_transform X[MAXB], X_AC;
  ck_assert_int_eq(teal_plant_calc_body_poses(f->m.p, q, X), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_relative_transform(f->m.p, X, f->fA, f->fC, &X_AC), TEAL_OK);
  *rpy = teal_rotation_to_rpy(X_AC.R);
  *p_A = X_AC.p;
}

/* (a) action-reaction and the stiffness force f_C = -R_WA (k .* p_A); (b)
 * with stiffness only, power = -dU/dt by central differences. _i = 1 puts A
 * on the world. */
START_TEST(test_bushing_stiffness) {
  unsigned s = 21u + (unsigned)_i;
  bushing_fixture f = bushing_make(_i, 1, 0, &s);
  const teal_plant *p = f.m.p;
  for (int trial = 0; trial < 30; trial++) {
    double q[MAXX], v[MAXX];
    teal_transform X_AC = rand_relative(&s);
    bushing_state(&f, &s, X_AC, q, v);
    teal_transform X[MAXB];
    teal_spatial_vector V[MAXB], F[MAXB];
    double tau[MAXX];
    ck_assert_int_eq(calc_all(p, q, v, X, V, F, tau, NULL), TEAL_OK);
    ck_assert_double_eq(ts_mb_max_abs(tau, f.m.nv), 0.0);
    teal_transform X_WA = teal_transform_compose(X[f.ba], f.X_BaA);
    teal_vec3 p_WCo = teal_transform_apply(X_WA, X_AC.p);
    if (f.ba != TEAL_WORLD_BODY) {
      /* zero net spatial force about any common point */
      ck_assert_double_le(max_abs6(net_force_about(X, F, f.m.nb, teal_vec3_zero())), 1e-11);
      ck_assert_double_le(max_abs6(net_force_about(X, F, f.m.nb, p_WCo)), 1e-11);
      ck_assert_double_le(max_abs6(net_force_about(X, F, f.m.nb, teal_vec3_make(3, -2, 1))), 1e-11);
    }
    teal_vec3 f_A;
    for (int i = 0; i < 3; i++) {
      f_A.v[i] = -f.kp.v[i] * X_AC.p.v[i];
    }
    teal_vec3 f_W = teal_rotation_apply(X_WA.R, f_A);
    ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(teal_spatial_vector_linear(F[f.bc]), f_W)),
                        1e-12);
    /* power identity */
    double P = element_power(p, q, v), dU = energy_rate_fd(p, q, v, 1e-6);
    ck_assert_msg(fabs(P + dU) < 1e-6 * (1.0 + fabs(dU)), "trial %d: power %.12g, -dU/dt %.12g",
                  trial, P, -dU);
  }
  model_free(&f.m);
}
END_TEST

/* (c) with damping only the power is -(sum d_xyz pdot^2 + sum d_rpy rpydot^2)
 * <= 0, the rates taken by central differences; no stored energy. */
START_TEST(test_bushing_damping) {
  unsigned s = 31u + (unsigned)_i;
  bushing_fixture f = bushing_make(_i, 0, 1, &s);
  const teal_plant *p = f.m.p;
  for (int trial = 0; trial < 30; trial++) {
    double q[MAXX], v[MAXX], qp[MAXX], qm[MAXX], h = 1e-6;
    bushing_state(&f, &s, rand_relative(&s), q, v);
    ck_assert_double_eq(element_energy(p, q), 0.0);
    ck_assert_int_eq(ts_mb_step_q(p, q, v, h, qp), TEAL_OK);
    ck_assert_int_eq(ts_mb_step_q(p, q, v, -h, qm), TEAL_OK);
    teal_vec3 rp, rm, pp, pm;
    bushing_coords(&f, qp, &rp, &pp);
    bushing_coords(&f, qm, &rm, &pm);
    double expect = 0.0;
    for (int i = 0; i < 3; i++) {
      double rdot = (rp.v[i] - rm.v[i]) / (2.0 * h), pdot = (pp.v[i] - pm.v[i]) / (2.0 * h);
      expect -= f.dr.v[i] * rdot * rdot + f.dp.v[i] * pdot * pdot;
    }
    double P = element_power(p, q, v);
    ck_assert_double_le(P, 0.0);
    ck_assert_msg(fabs(P - expect) < 1e-6 * (1.0 + fabs(expect)), "trial %d: power %.12g vs %.12g",
                  trial, P, expect);
  }
  model_free(&f.m);
}
END_TEST

/* (d) at (and within 1e-8 of) pitch = +-pi/2 evaluation reports
 * TEAL_ESINGULAR; a little away from it, it succeeds. */
START_TEST(test_bushing_gimbal_lock) {
  unsigned s = 41u;
  bushing_fixture f = bushing_make(0, 1, 1, &s);
  const teal_plant *p = f.m.p;
  const double pitches[] = {M_PI / 2, -M_PI / 2, M_PI / 2 - 1e-8, -M_PI / 2 + 1e-9};
  for (int i = 0; i < 5; i++) {
    double q[MAXX], v[MAXX];
    double pitch = i < 4 ? pitches[i] : M_PI / 2 - 1e-2;
    teal_transform X_AC = pose(0.3, pitch, -0.4, 0.1, 0.2, -0.1);
    bushing_state(&f, &s, X_AC, q, v);
    teal_transform X[MAXB];
    teal_spatial_vector V[MAXB], F[MAXB];
    double tau[MAXX];
    teal_error err;
    teal_error_clear(&err);
    int rc = calc_all(p, q, v, X, V, F, tau, &err);
    if (i < 4) {
      ck_assert_int_eq(rc, TEAL_ESINGULAR);
      ck_assert_int_eq(err.code, TEAL_ESINGULAR);
      ck_assert_ptr_nonnull(strstr(err.message, "gimbal"));
      ck_assert_int_eq(calc_all(p, q, v, X, V, F, tau, NULL), TEAL_ESINGULAR);
    } else {
      ck_assert_int_eq(rc, TEAL_OK);
    }
    double pe = -1.0;
    ck_assert_int_eq(teal_plant_force_elements_potential_energy(p, q, X, &pe), TEAL_OK);
    ck_assert(isfinite(pe) && pe > 0.0);
  }
  model_free(&f.m);
}
END_TEST

/* Both outputs are accumulated: two calls give twice the forces of one, on
 * top of what was there; the spring-damper reports coincident points. */
START_TEST(test_accumulate_and_singular_spring) {
  unsigned s = 51u;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M1 = rand_inertia(&s, 1.0), M2 = rand_inertia(&s, 1.0);
  int b1 = teal_plant_add_rigid_body(p, "b1", TEAL_DEFAULT_MODEL_INSTANCE, &M1);
  int b2 = teal_plant_add_rigid_body(p, "b2", TEAL_DEFAULT_MODEL_INSTANCE, &M2);
  int f1 = teal_plant_body_frame(p, b1), f2 = teal_plant_body_frame(p, b2);
  teal_vec3 ones = teal_vec3_make(1, 2, 3);
  ck_assert_int_eq(teal_plant_add_linear_spring_damper(p, b1, teal_vec3_zero(), b2,
                                                       teal_vec3_zero(), 0.5, 10, 1),
                   0);
  ck_assert_int_eq(teal_plant_add_linear_bushing_rpy(p, f1, f2, ones, ones, ones, ones), 1);
  ck_assert_int_eq(teal_plant_num_force_elements(p), 2);
  model m = model_make(p);
  double q[MAXX], v[MAXX];
  set_free(p, b1, pose(0.1, 0.2, 0.3, 0, 0, 0), rand_spatial(&s, 1), q, v);
  set_free(p, b2, pose(-0.2, 0.1, 0.4, 0.3, 0.1, 0.2), rand_spatial(&s, 1), q, v);
  teal_transform X[MAXB];
  teal_spatial_vector V[MAXB], F1[MAXB], F2[MAXB];
  double tau1[MAXX], tau2[MAXX];
  ck_assert_int_eq(calc_all(p, q, v, X, V, F1, tau1, NULL), TEAL_OK);
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
  set_free(p, b2, pose(-0.2, 0.1, 0.4, 0, 0, 0), rand_spatial(&s, 1), q, v);
  teal_error err;
  ck_assert_int_eq(calc_all(p, q, v, X, V, F1, tau1, &err), TEAL_ESINGULAR);
  ck_assert_int_eq(err.code, TEAL_ESINGULAR);
  ck_assert_int_eq(calc_all(p, q, v, X, V, F1, tau1, NULL), TEAL_ESINGULAR);
  model_free(&m);
}
END_TEST

/* ---- energy conservation ------------------------------------------------------------ */

/* Two free bodies: b1 hangs from the world by a spring-damper and a bushing,
 * b2 from b1 by another pair (all damping zero), gravity on. RK4 at
 * dt = 5e-4 for 1 s keeps kinetic + gravity + element energy to 1e-6. */
START_TEST(test_energy_free_bodies) {
  unsigned s = 61u;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M1 = rand_inertia(&s, 1.5), M2 = rand_inertia(&s, 0.8);
  int b1 = teal_plant_add_rigid_body(p, "b1", TEAL_DEFAULT_MODEL_INSTANCE, &M1);
  int b2 = teal_plant_add_rigid_body(p, "b2", TEAL_DEFAULT_MODEL_INSTANCE, &M2);
  teal_transform X_WW1 = pose(0, 0, 0.2, 0, 0, 1.0), X_B1A1 = pose(0.1, 0.2, 0.3, 0.05, 0, 0.1);
  teal_transform X_B1A2 = pose(0, 0, 0, 0, 0, -0.3), X_B2C2 = pose(-0.2, 0.1, 0.4, 0.02, 0.03, 0.1);
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
  model m = model_make(p);
  double x[MAXX];
  teal_transform X_WB1 = teal_transform_compose(
      teal_transform_compose(X_WW1, pose(0.2, -0.3, 0.25, 0.05, -0.03, 0.02)),
      teal_transform_inverse(X_B1A1));
  teal_transform X_WB2 = teal_transform_compose(
      teal_transform_compose(teal_transform_compose(X_WB1, X_B1A2),
                             pose(-0.3, 0.2, 0.1, -0.04, 0.05, -0.1)),
      teal_transform_inverse(X_B2C2));
  set_free(p, b1, X_WB1, rand_spatial(&s, 0.8), x, x + m.nq);
  set_free(p, b2, X_WB2, rand_spatial(&s, 0.8), x, x + m.nq);
  double scale, E0 = total_energy(&m, x, &scale), drift = 0.0, ke_min = INFINITY, ke_max = 0.0;
  for (int step = 0; step < 2000; step++) {
    rk4_step(&m, x, 5e-4);
    double ke;
    ck_assert_int_eq(teal_mb_kinetic_energy(p, m.ws, x, x + m.nq, &ke), TEAL_OK);
    ke_min = fmin(ke_min, ke);
    ke_max = fmax(ke_max, ke);
    drift = fmax(drift, fabs(total_energy(&m, x, NULL) - E0));
  }
  ck_assert_msg(ke_max - ke_min > 0.01 * scale, "barely moved: ke in [%g, %g]", ke_min, ke_max);
  ck_assert_msg(drift < 1e-6 * scale, "energy drift %g (scale %g)", drift, scale);
  model_free(&m);
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
    prev = teal_plant_add_frame(p, tn, teal_plant_body_frame(p, body), pose(0, 0, 0, 0, 0, -1.0));
  }
  /* anchored out of the chain's reach, so the spring never has zero length */
  ck_assert_int_eq(teal_plant_add_linear_spring_damper(p, TEAL_WORLD_BODY,
                                                       teal_vec3_make(2.5, 1.0, 2.5), body,
                                                       teal_vec3_make(0, 0, -1.0), 2.0, 10.0, 0.0),
                   3);
  model m = model_make(p);
  double x[6] = {1.2, -0.5, 0.8, 0.3, 1.0, -0.7}, scale;
  double E0 = total_energy(&m, x, &scale), drift = 0.0;
  for (int step = 0; step < 2000; step++) {
    rk4_step(&m, x, 5e-4);
    drift = fmax(drift, fabs(total_energy(&m, x, NULL) - E0));
  }
  ck_assert_msg(drift < 1e-6 * scale, "energy drift %g (scale %g)", drift, scale);
  model_free(&m);
}
END_TEST

/* ---- bad inputs ----------------------------------------------------------------------- */

/* b1 on a revolute joint, b2 on a prismatic joint under b1, b3 free, b4
 * welded to the world; frames A and A2 on b1, C on b2. */
typedef struct bad_fixture {
  teal_plant *p;
  int b1, b2, b3, jr, jp, jw, fA, fA2, fC;
} bad_fixture;

static bad_fixture bad_make(void) {
  bad_fixture f;
  f.p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(f.p);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  teal_vec3 ax = teal_vec3_make(0, 0, 1);
  f.b1 = teal_plant_add_rigid_body(f.p, "b1", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  f.b2 = teal_plant_add_rigid_body(f.p, "b2", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  f.b3 = teal_plant_add_rigid_body(f.p, "b3", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int b4 = teal_plant_add_rigid_body(f.p, "b4", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  f.jw = teal_plant_add_joint(f.p, "jw", TEAL_JOINT_WELD, TEAL_WORLD_FRAME,
                              teal_plant_body_frame(f.p, b4), NULL, 0);
  f.jr = teal_plant_add_joint(f.p, "jr", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                              teal_plant_body_frame(f.p, f.b1), &ax, 0);
  f.jp = teal_plant_add_joint(f.p, "jp", TEAL_JOINT_PRISMATIC, teal_plant_body_frame(f.p, f.b1),
                              teal_plant_body_frame(f.p, f.b2), &ax, 0);
  f.fA = teal_plant_add_frame(f.p, "A", teal_plant_body_frame(f.p, f.b1), pose(0, 0, 0, 0.1, 0, 0));
  f.fA2 = teal_plant_add_frame(f.p, "A2", teal_plant_body_frame(f.p, f.b1), pose(0, 0, 0, 0, 1, 0));
  f.fC = teal_plant_add_frame(f.p, "C", teal_plant_body_frame(f.p, f.b2), pose(0, 0, 0, 0, 0, 1));
  ck_assert_int_ge(f.jp, 0);
  ck_assert_int_ge(f.jw, 0);
  ck_assert_int_ge(f.fC, 0);
  return f;
}

static int add_spring(const bad_fixture *f, int a, int b, teal_vec3 p, double l0, double k,
                      double d) {
  return teal_plant_add_linear_spring_damper(f->p, a, p, b, teal_vec3_zero(), l0, k, d);
}

static int add_bushing(const bad_fixture *f, int A, int C, double kr, double dr, double kp,
                       double dp) {
  return teal_plant_add_linear_bushing_rpy(f->p, A, C, teal_vec3_make(1, kr, 1),
                                           teal_vec3_make(dr, 1, 1), teal_vec3_make(1, 1, kp),
                                           teal_vec3_make(1, dp, 1));
}

enum { NUM_BAD = 27 };

/* The i-th bad call (each returns TEAL_EINVAL). */
static int bad_call(const bad_fixture *f, int i) {
  teal_vec3 o = teal_vec3_zero();
  int nb = teal_plant_num_bodies(f->p), nj = teal_plant_num_joints(f->p);
  int nf = teal_plant_num_frames(f->p);
  switch (i) {
  case 0: return add_spring(f, f->b1, f->b2, o, 0.0, 1, 1);
  case 1: return add_spring(f, f->b1, f->b2, o, -1.0, 1, 1);
  case 2: return add_spring(f, f->b1, f->b2, o, NAN, 1, 1);
  case 3: return add_spring(f, f->b1, f->b2, o, INFINITY, 1, 1);
  case 4: return add_spring(f, f->b1, f->b2, o, 1.0, -1, 1);
  case 5: return add_spring(f, f->b1, f->b2, o, 1.0, 1, -0.1);
  case 6: return add_spring(f, f->b1, f->b2, o, 1.0, NAN, 1);
  case 7: return add_spring(f, f->b1, f->b2, teal_vec3_make(0, NAN, 0), 1.0, 1, 1);
  case 8: return add_spring(f, f->b1, f->b1, o, 1.0, 1, 1);
  case 9: return add_spring(f, TEAL_WORLD_BODY, TEAL_WORLD_BODY, o, 1.0, 1, 1);
  case 10: return add_spring(f, -1, f->b2, o, 1.0, 1, 1);
  case 11: return add_spring(f, f->b1, nb, o, 1.0, 1, 1);
  case 12: return teal_plant_add_revolute_spring(f->p, f->jp, 0.0, 1.0);
  case 13: return teal_plant_add_revolute_spring(f->p, -1, 0.0, 1.0);
  case 14: return teal_plant_add_revolute_spring(f->p, nj, 0.0, 1.0);
  case 15: return teal_plant_add_revolute_spring(f->p, f->jr, 0.0, -1.0);
  case 16: return teal_plant_add_revolute_spring(f->p, f->jr, NAN, 1.0);
  case 17: return teal_plant_add_revolute_spring(f->p, f->jr, 0.0, INFINITY);
  case 18: return add_bushing(f, f->fA, f->fA2, 1, 1, 1, 1);
  case 19: return add_bushing(f, f->fC, f->fC, 1, 1, 1, 1);
  case 20: return add_bushing(f, -1, f->fC, 1, 1, 1, 1);
  case 21: return add_bushing(f, f->fA, nf, 1, 1, 1, 1);
  case 22: return add_bushing(f, f->fA, f->fC, -1, 1, 1, 1);
  case 23: return add_bushing(f, f->fA, f->fC, 1, NAN, 1, 1);
  case 24: return add_bushing(f, f->fA, f->fC, 1, 1, -INFINITY, 1);
  case 25: return add_bushing(f, f->fA, f->fC, 1, 1, 1, -0.5);
  default: return teal_plant_add_revolute_spring(f->p, f->jw, 0.0, 1.0);
  }
}

/* Each bad call returns TEAL_EINVAL, records it, adds nothing, and makes
 * every later add (even a valid one) and finalize fail with the same code. */
START_TEST(test_bad_inputs) {
  bad_fixture f = bad_make();
  ck_assert_int_eq(add_spring(&f, f.b1, f.b3, teal_vec3_zero(), 1.0, 0.0, 0.0), 0);
  int rc = bad_call(&f, _i);
  ck_assert_msg(rc == TEAL_EINVAL, "case %d: got %d", _i, rc);
  ck_assert_int_eq(teal_plant_error(f.p)->code, TEAL_EINVAL);
  ck_assert_int_ne((int)strlen(teal_plant_error(f.p)->message), 0);
  ck_assert_int_eq(teal_plant_num_force_elements(f.p), 1);
  ck_assert_int_eq(add_spring(&f, f.b1, f.b2, teal_vec3_zero(), 1.0, 1, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_add_revolute_spring(f.p, f.jr, 0.0, 1.0), TEAL_EINVAL);
  ck_assert_int_eq(add_bushing(&f, f.fA, f.fC, 1, 1, 1, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_num_force_elements(f.p), 1);
  ck_assert_int_eq(teal_plant_finalize(f.p), TEAL_EINVAL);
  teal_plant_free(f.p);
}
END_TEST

/* Valid edge values are accepted; after finalize every add is TEAL_ESTATE;
 * queries, NULL arguments and an unfinalized plant get their codes. */
START_TEST(test_state_and_arguments) {
  bad_fixture f = bad_make();
  ck_assert_int_eq(teal_plant_num_force_elements(NULL), 0);
  ck_assert_int_eq(teal_plant_add_linear_spring_damper(NULL, 1, teal_vec3_zero(), 2,
                                                       teal_vec3_zero(), 1, 1, 1),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_add_revolute_spring(NULL, 0, 0, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_add_linear_bushing_rpy(NULL, 0, 1, teal_vec3_zero(), teal_vec3_zero(),
                                                     teal_vec3_zero(), teal_vec3_zero()),
                   TEAL_EINVAL);
  /* edges: zero stiffness and damping, a world anchor, a world frame */
  ck_assert_int_eq(add_spring(&f, TEAL_WORLD_BODY, f.b3, teal_vec3_make(0, 0, 1), 1e-9, 0, 0), 0);
  ck_assert_int_eq(teal_plant_add_revolute_spring(f.p, f.jr, -7.0, 0.0), 1);
  ck_assert_int_eq(add_bushing(&f, TEAL_WORLD_FRAME, f.fC, 0, 0, 0, 0), 2);
  ck_assert_int_eq(teal_plant_force_element_kind(f.p, 2), TEAL_FORCE_LINEAR_BUSHING_RPY);
  ck_assert_int_eq(teal_plant_force_element_kind(f.p, 3), -1);
  ck_assert_int_eq(teal_plant_force_element_kind(f.p, -1), -1);
  ck_assert_int_eq(teal_plant_force_element_kind(NULL, 0), -1);
  /* evaluation before finalize */
  double q[MAXX] = {0}, v[MAXX] = {0}, tau[MAXX] = {0}, pe;
  teal_transform X[MAXB];
  teal_spatial_vector V[MAXB], F[MAXB];
  for (int b = 0; b < MAXB; b++) {
    X[b] = teal_transform_identity();
    V[b] = F[b] = teal_spatial_vector_zero();
  }
  teal_error err;
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, q, v, X, V, F, tau, &err), TEAL_ESTATE);
  ck_assert_int_eq(err.code, TEAL_ESTATE);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(f.p, q, X, &pe), TEAL_ESTATE);
  ck_assert_int_eq(teal_plant_finalize(f.p), TEAL_OK);
  /* after finalize */
  ck_assert_int_eq(add_spring(&f, f.b1, f.b2, teal_vec3_zero(), 1.0, 1, 1), TEAL_ESTATE);
  ck_assert_int_eq(teal_plant_add_revolute_spring(f.p, f.jr, 0.0, 1.0), TEAL_ESTATE);
  ck_assert_int_eq(add_bushing(&f, f.fA, f.fC, 1, 1, 1, 1), TEAL_ESTATE);
  ck_assert_int_eq(teal_plant_num_force_elements(f.p), 3);
  /* NULL arguments */
  ck_assert_int_eq(teal_plant_default_q(f.p, q), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_body_velocities(f.p, q, v, X, V), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_force_elements(NULL, q, v, X, V, F, tau, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, NULL, v, X, V, F, tau, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, q, NULL, X, V, F, tau, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, q, v, NULL, V, F, tau, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, q, v, X, NULL, F, tau, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, q, v, X, V, NULL, tau, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, q, v, X, V, F, NULL, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(NULL, q, X, &pe), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(f.p, NULL, X, &pe), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(f.p, q, NULL, &pe), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(f.p, q, X, NULL), TEAL_EINVAL);
  /* and the finalized plant evaluates */
  ck_assert_int_eq(teal_plant_calc_force_elements(f.p, q, v, X, V, F, tau, &err), TEAL_OK);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(f.p, q, X, &pe), TEAL_OK);
  ck_assert(isfinite(pe));
  teal_plant_free(f.p);
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
  tcase_add_loop_test(tc, test_bushing_stiffness, 0, 2);
  tcase_add_loop_test(tc, test_bushing_damping, 0, 2);
  tcase_add_test(tc, test_bushing_gimbal_lock);
  tcase_add_test(tc, test_accumulate_and_singular_spring);
  tcase_add_test(tc, test_energy_free_bodies);
  tcase_add_test(tc, test_energy_chain);
  tcase_add_loop_test(tc, test_bad_inputs, 0, NUM_BAD);
  tcase_add_test(tc, test_state_and_arguments);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
