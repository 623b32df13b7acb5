/* Implicit joint damping in the discrete step (multibody/plant/plant_discrete.c):
 * the step solves (M + h D)(v+ - v) = h (tau - D v - C v + tau_g), as Drake's
 * discrete solvers do. Checked against the closed form of one damped
 * hinge, a dense solve of the same equations built from the mass matrix and
 * the bias term, the decay of a very stiff damper, and the limit and
 * contact conditions with damping. */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "framework/context.h"
#include "framework/context_access.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/contact/plant_contact.h"
#include "multibody/contact/plant_geometry.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "systems/analysis/simulator.h"
#include "solvers/dense_lu.h"
#include "support/mb_contact_fixtures.h"
#include "support/mb_fixtures.h"
#include "support/sim_fixtures.h"
#include "support/test_support.h"

#define MAX_NV 16

/* A rod of mass 1 hanging from a hinge about y, with the given damping,
 * limits (lo > hi: none) and gravity g (along -z); its inertia about the
 * axis is 1/48 + 1/16 = 1/12. */
static teal_plant *damped_hinge(double h, double d, double lo, double hi, double g) {
  teal_plant *p = teal_plant_new(h, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(
      1.0, teal_vec3_make(0, 0, -0.25), teal_mat3_diag(1.0 / 48, 1.0 / 48, 1e-6));
  int b = teal_plant_add_rigid_body(p, "rod", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int j = teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                               teal_plant_body_frame(p, b), &y, 0);
  ck_assert_int_eq(teal_plant_set_joint_damping(p, j, &d), TEAL_OK);
  if (lo <= hi) {
    ck_assert_int_eq(teal_plant_set_joint_position_limits(p, j, &lo, &hi), TEAL_OK);
  }
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(0, 0, -g)), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* v+ of one discrete step from ctx's state: v + h vdot. */
static void one_step(const teal_plant *p, const teal_context *ctx, double *vnext) {
  const double *vdot;
  int nv = teal_plant_nv(p);
  double v[MAX_NV];
  ck_assert_int_eq(teal_plant_get_velocities(p, ctx, v, nv), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  for (int i = 0; i < nv; i++) {
    vnext[i] = v[i] + teal_plant_time_step(p) * vdot[i];
  }
}

START_TEST(single_hinge_matches_the_implicit_formula) {
  /* no gravity, h d / I = 0.5: v+ = v / (1 + h d / I) = 2 / 1.5, where the
   * explicit step would give v (1 - h d / I) = 1 */
  double h = 1e-2, I = 1.0 / 12, d = 0.5 * I / h, v0 = 2.0, v1;
  teal_plant *p = damped_hinge(h, d, 1, 0, 0.0);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, &v0, 1), TEAL_OK);
  one_step(p, ctx, &v1);
  double implicit = v0 / (1.0 + h * d / I), explicit = v0 * (1.0 - h * d / I);
  ck_assert_double_eq_tol(v1, implicit, 1e-14);
  ck_assert(fabs(v1 - explicit) > 0.3);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* A discrete plant of topology topo with random frames, inertias and
 * damping on each dof, and limits [-lim, lim] on joint 0 when lim > 0. */
static teal_plant *damped_random_tree(const ts_mb_topology *topo, double h, unsigned seed,
                                      double lim) {
  unsigned s = seed;
  teal_plant *p = teal_plant_new(h, NULL);
  int bodies[8];
  ck_assert_int_le(topo->n, 8);
  for (int i = 0; i < topo->n; i++) {
    char name[16];
    snprintf(name, sizeof name, "b%d", i);
    teal_spatial_inertia M = ts_mb_rand_inertia(&s);
    bodies[i] = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  }
  for (int i = 0; i < topo->n; i++) {
    int j = ts_mb_add_random_joint(p, topo->spec, bodies, i, &s);
    ck_assert_int_ge(j, 0);
    double d[6];
    ts_mb_rand_vec(&s, d, 6, 1.0);
    for (int k = 0; k < 6; k++) {
      d[k] = 2.0 + 1.5 * d[k]; /* in [0.5, 3.5) */
    }
    ck_assert_int_eq(teal_plant_set_joint_damping(p, j, d), TEAL_OK);
    double lo = -lim;
    if (i == 0 && lim > 0) {
      ck_assert_int_eq(teal_plant_set_joint_position_limits(p, j, &lo, &lim), TEAL_OK);
    }
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* The "chain" topology: every joint kind in series. */
static teal_plant *damped_random_chain(double h, unsigned seed) {
  return damped_random_tree(&ts_mb_topologies[0], h, seed, 0.0);
}

/* The reference v+ from (M + h D) v+ = M v - h (C v - tau_g) by a dense LU
 * (independent of the step's articulated factorization); with MhD not
 * NULL, also M + h D (nv x nv). */
static void dense_reference(const teal_plant *p, const double *q, const double *v, double *v1,
                            double *MhD) {
  int nv = teal_plant_nv(p), piv[MAX_NV];
  double h = teal_plant_time_step(p), M[MAX_NV * MAX_NV], bias[MAX_NV], zero[MAX_NV] = {0};
  teal_mb_data *data = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(data);
  ck_assert_int_eq(teal_mb_mass_matrix(p, data, q, M), TEAL_OK);
  /* C v - tau_g: inverse dynamics at vdot = 0 with gravity */
  ck_assert_int_eq(teal_mb_inverse_dynamics(p, data, q, v, zero, NULL, bias), TEAL_OK);
  const double *D = teal_plant_get_tree(p)->damping;
  for (int i = 0; i < nv; i++) {
    v1[i] = -h * bias[i];
    for (int j = 0; j < nv; j++) {
      v1[i] += M[i * nv + j] * v[j];
    }
    M[i * nv + i] += h * D[i];
  }
  for (int i = 0; MhD && i < nv * nv; i++) {
    MhD[i] = M[i];
  }
  ck_assert_int_eq(teal_dense_lu_factor(M, nv, piv, NULL), TEAL_OK);
  ck_assert_int_eq(teal_dense_lu_solve(M, nv, piv, v1, NULL), TEAL_OK);
  teal_mb_data_free(data);
}

START_TEST(random_chain_matches_a_dense_solve) {
  for (unsigned seed = 1; seed <= 5; seed++) {
    teal_plant *p = damped_random_chain(0.05, seed);
    int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
    ck_assert_int_le(nv, MAX_NV);
    double q[MAX_NV], v[MAX_NV], v1[MAX_NV], ref[MAX_NV];
    unsigned s = 100 + seed;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
    teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
    ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, nq), TEAL_OK);
    ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, nv), TEAL_OK);
    one_step(p, ctx, v1);
    dense_reference(p, q, v, ref, NULL);
    double err = ts_mb_max_abs_diff(v1, ref, nv), scale = fmax(1.0, ts_mb_max_abs(ref, nv));
    ck_assert_msg(err < 1e-11 * scale, "seed %u: |v+ - dense| = %g", seed, err);
    teal_context_free(ctx);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(stiff_damper_decays_monotonically) {
  /* h d / I = 1e6: the explicit step would multiply v by 1 - 1e6 */
  double h = 1e-3, I = 1.0 / 12, d = 1e6 * I / h, v = 1.0;
  teal_plant *p = damped_hinge(h, d, 1, 0, 0.0);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, &v, 1), TEAL_OK);
  double q0, q, prev = v;
  teal_plant_get_positions(p, ctx, &q0, 1);
  teal_sim_status st;
  for (int k = 1; k <= 50; k++) {
    ck_assert_int_eq(teal_simulator_advance_to(sim, h * k, &st), TEAL_OK);
    teal_plant_get_velocities(p, ctx, &v, 1);
    ck_assert(v >= 0.0 && v < prev);
    ck_assert_double_eq_tol(v, prev / (1.0 + 1e6), 1e-12 * prev);
    prev = v;
  }
  teal_plant_get_positions(p, ctx, &q, 1);
  ck_assert(fabs(q - q0) < 2e-9); /* the rod barely moves */
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

START_TEST(limit_holds_with_damping) {
  /* a damped rod released near horizontal (gravity on) falls onto a lower
   * limit: every step ends inside the limits, and a step whose impulse acts
   * lands exactly on the limit, v+ = (lo - q) / h */
  double h = 1e-3, lo = 0.3, hi = 2.0, x[2] = {1.5, -3.0};
  teal_plant *p = damped_hinge(h, 0.05, lo, hi, 9.81);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  int landed = 0;
  for (int k = 0; k < 2000; k++) {
    ck_assert_int_eq(teal_plant_set_state(p, ctx, x, 2), TEAL_OK);
    double v1, free_v1;
    one_step(p, ctx, &v1);
    /* the unconstrained step: implicit damping, gravity at x */
    double tau_g = -9.81 * 0.25 * sin(x[0]), I = 1.0 / 12;
    free_v1 = (I * x[1] + h * tau_g) / (I + h * 0.05);
    if (x[0] + h * free_v1 < lo) {
      ck_assert_double_eq_tol(v1, (lo - x[0]) / h, 1e-9);
      landed++;
    } else {
      ck_assert_double_eq_tol(v1, free_v1, 1e-12);
    }
    x[0] += h * v1;
    x[1] = v1;
    ck_assert(x[0] >= lo - 1e-12);
  }
  ck_assert_int_gt(landed, 0);
  ck_assert_double_eq_tol(x[0], lo, 1e-9);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(limit_impulse_acts_through_m_plus_h_d) {
  /* two damped hinges, the first limited to [-0.1, 0.1] and driven into its
   * upper limit: v+ - v* must be (M + h D)^-1 e_0 mu with mu < 0 (the
   * generalized impulse acts on the limited dof only), and v+_0 lands on
   * the limit */
  static const ts_mb_body_spec spec[] = {{-1, TEAL_JOINT_REVOLUTE}, {0, TEAL_JOINT_REVOLUTE}};
  const ts_mb_topology topo = {"two hinges", spec, 2};
  double h = 1e-2, q[2] = {0.095, -0.4}, v[2] = {2.0, -1.0}, v1[2], vstar[2], MhD[4];
  teal_plant *p = damped_random_tree(&topo, h, 3, 0.1);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, q, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, 2), TEAL_OK);
  one_step(p, ctx, v1);
  dense_reference(p, q, v, vstar, MhD);
  ck_assert(q[0] + h * vstar[0] > 0.1); /* the free motion passes the limit */
  ck_assert_double_eq_tol(v1[0], (0.1 - q[0]) / h, 1e-9);
  double impulse[2];
  for (int i = 0; i < 2; i++) {
    impulse[i] = MhD[2 * i] * (v1[0] - vstar[0]) + MhD[2 * i + 1] * (v1[1] - vstar[1]);
  }
  ck_assert(impulse[0] < -1e-3);
  ck_assert_msg(fabs(impulse[1]) < 1e-9 * fabs(impulse[0]), "impulse on the free dof %g",
                impulse[1]);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(contact_with_damping_satisfies_the_step_equation) {
  /* a ball on a damped vertical slider meets the ground: the step must
   * satisfy m (v+ - v) = h (-m g - d v+ + f_z(v+)), with the contact force
   * f_z the discrete results report at v+; at rest f_z = m g */
  ts_contact_world w = {0};
  double h = 1e-3, d = 40.0;
  w.plant = teal_plant_new(h, NULL);
  int body;
  ts_contact_body_with_sphere(w.plant, "ball", &body);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  int j = teal_plant_add_joint(w.plant, "slider", TEAL_JOINT_PRISMATIC, TEAL_WORLD_FRAME,
                               teal_plant_body_frame(w.plant, body), &z, 0);
  ck_assert_int_eq(teal_plant_set_joint_damping(w.plant, j, &d), TEAL_OK);
  ts_contact_add_ground(w.plant, 0.0, 0.5, NAN);
  ts_contact_finish(&w);
  double x[2] = {0.0995, -1.0}; /* 0.5 mm to 1.5 mm deep */
  for (int k = 0; k < 3; k++, x[0] -= 5e-4) {
    ck_assert_int_eq(teal_plant_set_state(w.plant, w.ctx, x, 2), TEAL_OK);
    double v1;
    one_step(w.plant, w.ctx, &v1);
    const teal_contact_results *r;
    ck_assert_int_eq(teal_plant_eval_contact_results(w.plant, w.ctx, &r), TEAL_OK);
    double fz = teal_contact_results_net_force(r, body).v[2];
    double residual = (v1 - x[1]) - h * (-9.81 - d * v1 + fz);
    ck_assert_msg(fabs(residual) < 1e-10, "step %d: residual %g (fz %g)", k, residual, fz);
    ck_assert(fz > 0.0);
  }
  x[0] = 0.1;
  x[1] = 0.0;
  ck_assert_int_eq(teal_plant_set_state(w.plant, w.ctx, x, 2), TEAL_OK);
  ts_contact_advance(&w, 1.0);
  const teal_contact_results *r;
  ck_assert_int_eq(teal_plant_eval_contact_results(w.plant, w.ctx, &r), TEAL_OK);
  ck_assert_double_eq_tol(teal_contact_results_net_force(r, body).v[2], 9.81, 1e-6);
  ts_contact_world_free(&w);
}
END_TEST

START_TEST(damped_steps_allocate_nothing) {
  teal_plant *p = damped_random_chain(1e-3, 7);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  ts_sim_expect_steps_allocate_nothing(sim, 0.01, 0.2);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("plant_discrete_damping");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, single_hinge_matches_the_implicit_formula);
  tcase_add_test(tc, random_chain_matches_a_dense_solve);
  tcase_add_test(tc, stiff_damper_decays_monotonically);
  tcase_add_test(tc, limit_holds_with_damping);
  tcase_add_test(tc, limit_impulse_acts_through_m_plus_h_d);
  tcase_add_test(tc, contact_with_damping_satisfies_the_step_equation);
  tcase_add_test(tc, damped_steps_allocate_nothing);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
