/* Tendons (multibody/forces/tendons.h): a fixed tendon's generalized force
 * against the analytic -J^T (k (L - L0) + d Ldot) with and without its range
 * penalty; a spatial tendon's length against the sum of the distances, its
 * rate against J v, its Jacobian against central differences of L(q) along
 * q +- h N(q) v (a free body among its sites), its forces against -J^T T;
 * energy conservation of undamped tendons under RK4 and the power split
 * against -dU/dt; the plant system simulating undamped tendons conserves
 * its kinetic plus potential energy and allocates nothing while it steps;
 * queries; bad inputs with their messages. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/system_dynamics.h"

#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/forces/force_element_params.h"
#include "multibody/forces/tendons.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_fixtures.h"
#include "support/mb_force_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/integrators_explicit.h"
#include "systems/analysis/simulator.h"
#include "systems/analysis/simulator_settings.h"

/* The test plant: a revolute-revolute-prismatic chain (joints 0..2, bodies
 * 1..3) and a free body (4), with frames on the world and on bodies. */
typedef struct tendon_plant {
  teal_plant *p;
  int joints[3], free_joint, frames[4];
} tendon_plant;

static int add_body(teal_plant *p, const char *name, double mass) {
  teal_spatial_inertia M = teal_spatial_inertia_from_central(mass, teal_vec3_make(0.02, 0.01, -0.1),
                                                             teal_mat3_diag(0.03, 0.025, 0.01));
  return teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
}

static tendon_plant make_plant(void) {
  tendon_plant t;
  t.p = teal_plant_new(0.0, NULL);
  static const char *const names[3] = {"a", "b", "c"};
  teal_vec3 axes[3] = {teal_vec3_make(0, 1, 0), teal_vec3_make(1, 0, 0.3),
                       teal_vec3_make(1, 0.2, 0)};
  int kinds[3] = {TEAL_JOINT_REVOLUTE, TEAL_JOINT_REVOLUTE, TEAL_JOINT_PRISMATIC};
  int prev = TEAL_WORLD_FRAME;
  for (int i = 0; i < 3; i++) {
    int b = add_body(t.p, names[i], 1.0 - 0.2 * i);
    t.joints[i] = teal_plant_add_joint(t.p, names[i], kinds[i], prev, teal_plant_body_frame(t.p, b),
                                       &axes[i], 0.0);
    char fn[8] = {'t', names[i][0], 0};
    prev = teal_plant_add_frame(t.p, fn, teal_plant_body_frame(t.p, b),
                                ts_fe_pose(0, 0, 0, 0.05, 0, -0.4));
  }
  int fb = add_body(t.p, "free", 0.7);
  t.free_joint = teal_plant_add_joint(t.p, "free", TEAL_JOINT_QUATERNION_FLOATING, TEAL_WORLD_FRAME,
                                      teal_plant_body_frame(t.p, fb), NULL, 0.0);
  t.frames[0] =
      teal_plant_add_frame(t.p, "anchor", TEAL_WORLD_FRAME, ts_fe_pose(0, 0, 0, 0.8, 0.3, 1.2));
  t.frames[1] = teal_plant_add_frame(t.p, "on_a", teal_plant_body_frame(t.p, 1),
                                     ts_fe_pose(0, 0, 0, 0.1, 0.05, -0.2));
  t.frames[2] = teal_plant_add_frame(t.p, "on_c", teal_plant_body_frame(t.p, 3),
                                     ts_fe_pose(0, 0, 0, -0.05, 0.1, -0.15));
  t.frames[3] = teal_plant_add_frame(t.p, "on_free", teal_plant_body_frame(t.p, fb),
                                     ts_fe_pose(0, 0, 0, 0.1, 0, 0.05));
  ck_assert_int_ge(t.frames[3], 0);
  return t;
}

/* A random state: q of the chain in [-1, 1], the free body near (1, 0, 0). */
static void random_state(const ts_fe_model *m, unsigned *s, double *q, double *v) {
  for (int i = 0; i < m->nq; i++) {
    q[i] = ts_rand_uniform(s, -1.0, 1.0);
  }
  for (int i = 0; i < m->nv; i++) {
    v[i] = ts_rand_uniform(s, -2.0, 2.0);
  }
  teal_transform X = ts_fe_pose(q[0], q[1], q[2], 1.0 + 0.1 * q[0], 0.2 * q[1], 0.3);
  teal_spatial_vector V =
      teal_spatial_vector_make(teal_vec3_make(v[0], v[1], v[2]), teal_vec3_make(v[3], v[4], v[5]));
  ts_fe_set_free(m->p, 4, X, V, q, v);
}

/* L, Ldot and J of tendon e at (q, v). */
static void tendon_state(const ts_fe_model *m, int e, const double *q, const double *v, double *L,
                         double *Ld, double *J) {
  teal_transform X[TS_FE_MAXB];
  teal_spatial_vector V[TS_FE_MAXB];
  teal_error err;
  ck_assert_int_eq(teal_mb_body_velocities(m->p, q, v, X, V), TEAL_OK);
  int rc = teal_plant_calc_tendon_length(m->p, e, q, v, X, V, L, Ld, &err);
  ck_assert_msg(rc == TEAL_OK, "%s", err.message);
  ck_assert_int_eq(teal_plant_calc_tendon_jacobian(m->p, m->ws, e, q, J, &err), TEAL_OK);
}

/* tau + J^T F of all force elements at (q, v). */
static void generalized_forces(const ts_fe_model *m, const double *q, const double *v,
                               double *gen) {
  teal_transform X[TS_FE_MAXB];
  teal_spatial_vector V[TS_FE_MAXB], F[TS_FE_MAXB];
  double tau[TS_FE_MAXX], JtF[TS_FE_MAXX];
  ck_assert_int_eq(ts_fe_calc_all(m->p, q, v, X, V, F, tau, NULL), TEAL_OK);
  ck_assert_int_eq(teal_mb_jacobian_apply_transpose(m->p, m->ws, q, F, JtF), TEAL_OK);
  for (int i = 0; i < m->nv; i++) {
    gen[i] = tau[i] + JtF[i];
  }
}

/* _i = 0: a fixed tendon inside its range; 1: above its upper bound, where
 * the penalty adds k_limit (L - upper) + d_limit Ldot. */
START_TEST(test_fixed_tendon_forces) {
  tendon_plant t = make_plant();
  const double coefs[3] = {1.0, -0.5, 2.0};
  teal_tendon_spring s = teal_tendon_spring_default();
  s.stiffness = 3.0;
  s.damping = 0.4;
  s.spring_length = 0.2;
  s.upper = _i ? -5.0 : 10.0;
  s.lower = -20.0;
  s.limit_stiffness = 50.0;
  s.limit_damping = 2.0;
  int e = teal_plant_add_fixed_tendon(t.p, "couple", TEAL_DEFAULT_MODEL_INSTANCE, 3, t.joints,
                                      coefs, &s);
  ck_assert_int_eq(e, 0);
  ts_fe_model m = ts_fe_model_make(t.p);
  unsigned seed = 5u;
  double q[TS_FE_MAXX], v[TS_FE_MAXX], J[TS_FE_MAXX], gen[TS_FE_MAXX], L, Ld;
  for (int trial = 0; trial < 10; trial++) {
    random_state(&m, &seed, q, v);
    tendon_state(&m, e, q, v, &L, &Ld, J);
    double L_ref = 0.0, Ld_ref = 0.0;
    for (int k = 0; k < 3; k++) {
      L_ref += coefs[k] * q[teal_plant_joint_q_start(t.p, t.joints[k])];
      Ld_ref += coefs[k] * v[teal_plant_joint_v_start(t.p, t.joints[k])];
    }
    ck_assert_double_eq_tol(L, L_ref, 1e-15);
    ck_assert_double_eq_tol(Ld, Ld_ref, 1e-15);
    double T = 3.0 * (L - 0.2) + 0.4 * Ld + (_i ? 50.0 * (L + 5.0) + 2.0 * Ld : 0.0);
    generalized_forces(&m, q, v, gen);
    for (int c = 0; c < m.nv; c++) {
      ck_assert_double_eq_tol(gen[c], -J[c] * T, 1e-14 * (1.0 + fabs(T)));
    }
    for (int k = 0; k < 3; k++) {
      ck_assert_double_eq(J[teal_plant_joint_v_start(t.p, t.joints[k])], coefs[k]);
    }
  }
  ts_fe_model_free(&m);
}
END_TEST

/* A spatial tendon world anchor -> body a -> body c -> free body: length,
 * rate, Jacobian by central differences and forces. */
START_TEST(test_spatial_tendon_kinematics) {
  tendon_plant t = make_plant();
  teal_tendon_spring s = teal_tendon_spring_default();
  s.stiffness = 7.0;
  s.damping = 0.3;
  s.spring_length = 1.5;
  int e = teal_plant_add_spatial_tendon(t.p, "cable", TEAL_DEFAULT_MODEL_INSTANCE, 4, t.frames, &s);
  ts_fe_model m = ts_fe_model_make(t.p);
  ck_assert_int_eq(teal_plant_tendon_kind(t.p, e), TEAL_TENDON_SPATIAL);
  unsigned seed = 9u;
  double q[TS_FE_MAXX], v[TS_FE_MAXX], J[TS_FE_MAXX], gen[TS_FE_MAXX], qp[TS_FE_MAXX],
      qm[TS_FE_MAXX], L, Ld, Lp, Lm, J2[TS_FE_MAXX];
  for (int trial = 0; trial < 10; trial++) {
    random_state(&m, &seed, q, v);
    tendon_state(&m, e, q, v, &L, &Ld, J);
    teal_transform X[TS_FE_MAXB];
    ck_assert_int_eq(teal_mb_body_poses(t.p, q, X), TEAL_OK);
    double L_ref = 0.0;
    for (int k = 0; k + 1 < 4; k++) {
      teal_vec3 a, b;
      teal_plant_calc_point_in_world(t.p, X, t.frames[k], teal_vec3_zero(), &a);
      teal_plant_calc_point_in_world(t.p, X, t.frames[k + 1], teal_vec3_zero(), &b);
      L_ref += teal_vec3_norm(teal_vec3_sub(b, a));
    }
    ck_assert_double_eq_tol(L, L_ref, 1e-14);
    double Jv = 0.0;
    for (int c = 0; c < m.nv; c++) {
      Jv += J[c] * v[c];
    }
    ck_assert_double_eq_tol(Ld, Jv, 1e-13);
    const double h = 1e-6;
    ck_assert_int_eq(ts_mb_step_q(t.p, q, v, h, qp), TEAL_OK);
    ck_assert_int_eq(ts_mb_step_q(t.p, q, v, -h, qm), TEAL_OK);
    tendon_state(&m, e, qp, v, &Lp, &Ld, J2);
    tendon_state(&m, e, qm, v, &Lm, &Ld, J2);
    ck_assert_double_eq_tol((Lp - Lm) / (2 * h), Jv, 1e-7);
    tendon_state(&m, e, q, v, &L, &Ld, J);
    double T = 7.0 * (L - 1.5) + 0.3 * Ld;
    generalized_forces(&m, q, v, gen);
    for (int c = 0; c < m.nv; c++) {
      ck_assert_double_eq_tol(gen[c], -J[c] * T, 1e-12);
    }
  }
  ts_fe_model_free(&m);
}
END_TEST

/* Undamped fixed and spatial tendons (with a range penalty) under gravity:
 * the total energy, with the tendons' part, is conserved by RK4, and the
 * conservative power is -dU/dt by central differences. */
START_TEST(test_tendon_energy) {
  tendon_plant t = make_plant();
  const double coefs[2] = {1.0, 0.7};
  teal_tendon_spring s = teal_tendon_spring_default();
  s.stiffness = 4.0;
  s.spring_length = 0.1;
  s.upper = 0.3;
  s.limit_stiffness = 30.0;
  ck_assert_int_eq(teal_plant_add_fixed_tendon(t.p, "fixed", TEAL_DEFAULT_MODEL_INSTANCE, 2,
                                               t.joints, coefs, &s),
                   0);
  s.stiffness = 20.0;
  s.spring_length = 1.2;
  s.upper = INFINITY;
  ck_assert_int_eq(
      teal_plant_add_spatial_tendon(t.p, "cable", TEAL_DEFAULT_MODEL_INSTANCE, 4, t.frames, &s), 1);
  ts_fe_model m = ts_fe_model_make(t.p);
  unsigned seed = 3u;
  double x[TS_FE_MAXX], scale;
  random_state(&m, &seed, x, x + m.nq);
  teal_transform X[TS_FE_MAXB];
  teal_spatial_vector V[TS_FE_MAXB];
  ck_assert_int_eq(teal_mb_body_velocities(t.p, x, x + m.nq, X, V), TEAL_OK);
  double pc, pnc;
  ck_assert_int_eq(teal_plant_force_elements_power(t.p, x, x + m.nq, X, V, &pc, &pnc, NULL),
                   TEAL_OK);
  ck_assert_double_eq_tol(pc, -ts_fe_energy_rate_fd(t.p, x, x + m.nq, 1e-6), 1e-6);
  ck_assert_double_eq(pnc, 0.0);
  ck_assert_double_eq_tol(pc + pnc, ts_fe_element_power(t.p, x, x + m.nq), 1e-11);
  double E0 = ts_fe_total_energy(&m, x, &scale), drift = 0.0;
  for (int step = 0; step < 2000; step++) {
    ts_fe_rk4_step(&m, x, 2e-4);
    drift = fmax(drift, fabs(ts_fe_total_energy(&m, x, NULL) - E0));
  }
  ck_assert_msg(drift < 1e-6 * scale, "energy drift %g (scale %g)", drift, scale);
  ts_fe_model_free(&m);
}
END_TEST

static double system_energy(teal_plant *p, teal_context *ctx) {
  double ke, pe;
  ck_assert_int_eq(teal_calc_kinetic_energy(teal_plant_system(p), ctx, &ke), TEAL_OK);
  ck_assert_int_eq(teal_calc_potential_energy(teal_plant_system(p), ctx, &pe), TEAL_OK);
  return ke + pe;
}

/* The plant system with undamped fixed and spatial tendons under RK4: the
 * system's energy (the tendons' in its potential energy) is conserved, and
 * the steps allocate nothing. */
START_TEST(test_tendon_simulation) {
  tendon_plant t = make_plant();
  const double coefs[3] = {0.5, -1.0, 3.0};
  teal_tendon_spring s = teal_tendon_spring_default();
  s.stiffness = 6.0;
  s.spring_length = 0.3;
  ck_assert_int_ge(teal_plant_add_fixed_tendon(t.p, "fixed", TEAL_DEFAULT_MODEL_INSTANCE, 3,
                                               t.joints, coefs, &s),
                   0);
  s.stiffness = 25.0;
  s.spring_length = 1.0;
  ck_assert_int_ge(
      teal_plant_add_spatial_tendon(t.p, "cable", TEAL_DEFAULT_MODEL_INSTANCE, 4, t.frames, &s), 0);
  ts_fe_model m = ts_fe_model_make(t.p);
  unsigned seed = 21u;
  double q[TS_FE_MAXX], v[TS_FE_MAXX], q1[TS_FE_MAXX];
  random_state(&m, &seed, q, v);
  teal_context *ctx = teal_context_new(teal_plant_system(t.p), NULL);
  ck_assert_ptr_nonnull(ctx);
  ck_assert_int_eq(teal_plant_set_positions(t.p, ctx, q, m.nq), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(t.p, ctx, v, m.nv), TEAL_OK);
  double e0 = system_energy(t.p, ctx);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(t.p), ctx, NULL);
  ck_assert_ptr_nonnull(sim);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk4), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 2e-4), TEAL_OK);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 0.01, &st), TEAL_OK);
  ts_alloc_install();
  ts_alloc_reset();
  int rc = teal_simulator_advance_to(sim, 0.5, &st);
  unsigned long allocs = ts_alloc_allocs();
  ts_alloc_uninstall();
  ck_assert_int_eq(rc, TEAL_OK);
  ck_assert_uint_eq(allocs, 0);
  ck_assert_int_eq(teal_plant_get_positions(t.p, ctx, q1, m.nq), TEAL_OK);
  ck_assert(fabs(q1[0] - q[0]) > 1e-3); /* it moved */
  double e1 = system_energy(t.p, ctx);
  ck_assert_msg(fabs(e1 - e0) < 1e-7 * (1.0 + fabs(e0)), "energy %.12g -> %.12g", e0, e1);
  teal_simulator_free(sim);
  teal_context_free(ctx);
  ts_fe_model_free(&m);
}
END_TEST

START_TEST(test_tendon_queries) {
  tendon_plant t = make_plant();
  const double c = 1.0;
  ck_assert_int_eq(teal_plant_add_linear_spring_damper(t.p, 0, teal_vec3_zero(), 1,
                                                       teal_vec3_zero(), 1.0, 1.0, 0.0),
                   0);
  ck_assert_int_eq(
      teal_plant_add_fixed_tendon(t.p, "f", TEAL_DEFAULT_MODEL_INSTANCE, 1, t.joints, &c, NULL), 1);
  ck_assert_int_eq(teal_plant_num_tendons(t.p), 1);
  ck_assert_int_eq(teal_plant_tendon_element(t.p, 0), 1);
  ck_assert_int_eq(teal_plant_tendon_element(t.p, 1), -1);
  ck_assert_int_eq(teal_plant_find_tendon(t.p, "f", -1), 1);
  ck_assert_int_eq(teal_plant_find_tendon(t.p, "g", -1), TEAL_ENOTFOUND);
  ck_assert_str_eq(teal_plant_tendon_name(t.p, 1), "f");
  ck_assert_ptr_null(teal_plant_tendon_name(t.p, 0));
  ck_assert_int_eq(teal_plant_tendon_kind(t.p, 1), TEAL_TENDON_FIXED);
  ck_assert_int_eq(teal_plant_tendon_kind(t.p, 0), -1);
  ck_assert_int_eq(teal_plant_force_element_kind(t.p, 1), TEAL_FORCE_TENDON);
  teal_tendon_spring s;
  teal_error err;
  ck_assert_int_eq(teal_plant_get_tendon_spring(t.p, 1, &s, &err), TEAL_OK);
  ck_assert(s.stiffness == 0.0 && s.lower == -INFINITY && s.upper == INFINITY);
  TS_EXPECT_ERROR(teal_plant_get_tendon_spring(t.p, 0, &s, &err), TEAL_ENOTFOUND, &err,
                  "not a tendon");
  /* a tendon asked for as another kind is named as a tendon, not a user element */
  teal_revolute_spring_params rs;
  TS_EXPECT_ERROR(teal_plant_get_revolute_spring(t.p, 1, &rs, &err), TEAL_ETYPE, &err,
                  "force element 1 is a tendon, not a revolute spring");
  double L;
  teal_transform X[TS_FE_MAXB];
  TS_EXPECT_ERROR(teal_plant_calc_tendon_length(t.p, 1, &c, NULL, X, NULL, &L, NULL, &err),
                  TEAL_ESTATE, &err, "not finalized");
  teal_plant_free(t.p);
}
END_TEST

/* Every bad argument fails with its code and a message naming it; each
 * case on a fresh plant, since the plant's errors are sticky. */
START_TEST(test_tendon_bad_inputs) {
  const double good[3] = {1.0, 1.0, 1.0}, nan_c[1] = {NAN};
  teal_tendon_spring neg = teal_tendon_spring_default(), inv = teal_tendon_spring_default(),
                     nanl = teal_tendon_spring_default();
  neg.damping = -1.0;
  inv.lower = 1.0;
  inv.upper = 0.0;
  nanl.spring_length = NAN;
  struct {
    int code;
    const char *needle;
  } cases[] = {{TEAL_EINVAL, "not a revolute or prismatic"},
               {TEAL_EINVAL, "not finite"},
               {TEAL_EINVAL, "at least 1"},
               {TEAL_EINVAL, "stiffness, damping"},
               {TEAL_EINVAL, "lower <= upper"},
               {TEAL_EINVAL, "spring length"},
               {TEAL_ENOTFOUND, "invalid model instance"},
               {TEAL_EINVAL, "is not a frame"},
               {TEAL_EINVAL, "same frame"},
               {TEAL_EINVAL, "at least 2"},
               {TEAL_EDUPLICATE, "already exists"},
               {TEAL_EINVAL, "the name"}};
  for (int k = 0; k < (int)(sizeof(cases) / sizeof(cases[0])); k++) {
    tendon_plant t = make_plant();
    int inst = TEAL_DEFAULT_MODEL_INSTANCE, bad_joint[1] = {t.free_joint};
    int bad_frame[2] = {t.frames[0], 99}, same[2] = {t.frames[1], t.frames[1]};
    int rc = 0;
    switch (k) {
      case 0:
        rc = teal_plant_add_fixed_tendon(t.p, "t", inst, 1, bad_joint, good, NULL);
        break;
      case 1:
        rc = teal_plant_add_fixed_tendon(t.p, "t", inst, 1, t.joints, nan_c, NULL);
        break;
      case 2:
        rc = teal_plant_add_fixed_tendon(t.p, "t", inst, 0, t.joints, good, NULL);
        break;
      case 3:
        rc = teal_plant_add_fixed_tendon(t.p, "t", inst, 3, t.joints, good, &neg);
        break;
      case 4:
        rc = teal_plant_add_spatial_tendon(t.p, "t", inst, 2, t.frames, &inv);
        break;
      case 5:
        rc = teal_plant_add_spatial_tendon(t.p, "t", inst, 2, t.frames, &nanl);
        break;
      case 6:
        rc = teal_plant_add_spatial_tendon(t.p, "t", 42, 2, t.frames, NULL);
        break;
      case 7:
        rc = teal_plant_add_spatial_tendon(t.p, "t", inst, 2, bad_frame, NULL);
        break;
      case 8:
        rc = teal_plant_add_spatial_tendon(t.p, "t", inst, 2, same, NULL);
        break;
      case 9:
        rc = teal_plant_add_spatial_tendon(t.p, "t", inst, 1, t.frames, NULL);
        break;
      case 10:
        ck_assert_int_ge(teal_plant_add_spatial_tendon(t.p, "t", inst, 2, t.frames, NULL), 0);
        rc = teal_plant_add_fixed_tendon(t.p, "t", inst, 1, t.joints, good, NULL);
        break;
      default:
        rc = teal_plant_add_spatial_tendon(t.p, "a/b", inst, 2, t.frames, NULL);
        break;
    }
    TS_EXPECT_ERROR(rc, cases[k].code, teal_plant_error(t.p), cases[k].needle);
    teal_plant_free(t.p);
  }
}
END_TEST

/* Evaluation errors: a spatial segment of zero length, queries on a
 * non-tendon element and NULL arguments. */
START_TEST(test_tendon_evaluation_errors) {
  tendon_plant t = make_plant();
  int on_a2 = teal_plant_add_frame(t.p, "on_a2", teal_plant_body_frame(t.p, 1),
                                   ts_fe_pose(0, 0, 0, 0.1, 0.05, -0.2));
  int path[2] = {t.frames[1], on_a2};
  int e = teal_plant_add_spatial_tendon(t.p, "zero", TEAL_DEFAULT_MODEL_INSTANCE, 2, path, NULL);
  ck_assert_int_eq(teal_plant_add_linear_spring_damper(t.p, 0, teal_vec3_zero(), 1,
                                                       teal_vec3_make(0, 0, 1), 1.0, 1.0, 0.0),
                   1);
  ts_fe_model m = ts_fe_model_make(t.p);
  double q[TS_FE_MAXX] = {0}, v[TS_FE_MAXX] = {0}, J[TS_FE_MAXX], L, Ld;
  q[3] = 1.0; /* the free body's quaternion */
  teal_transform X[TS_FE_MAXB];
  teal_spatial_vector V[TS_FE_MAXB], F[TS_FE_MAXB];
  double tau[TS_FE_MAXX];
  teal_error err;
  TS_EXPECT_ERROR(ts_fe_calc_all(t.p, q, v, X, V, F, tau, &err), TEAL_ESINGULAR, &err,
                  "segment 0 has zero length");
  ck_assert_int_eq(teal_plant_calc_tendon_length(t.p, e, q, NULL, X, NULL, &L, NULL, &err),
                   TEAL_OK);
  ck_assert_double_eq(L, 0.0);
  TS_EXPECT_ERROR(teal_plant_calc_tendon_length(t.p, e, q, v, X, V, &L, &Ld, &err), TEAL_ESINGULAR,
                  &err, "zero length");
  TS_EXPECT_ERROR(teal_plant_calc_tendon_jacobian(t.p, m.ws, e, q, J, &err), TEAL_ESINGULAR, &err,
                  "zero length");
  TS_EXPECT_ERROR(teal_plant_calc_tendon_jacobian(t.p, m.ws, 1, q, J, &err), TEAL_ENOTFOUND, &err,
                  "not a tendon");
  TS_EXPECT_ERROR(teal_plant_calc_tendon_jacobian(t.p, NULL, e, q, J, &err), TEAL_EINVAL, &err,
                  "NULL data");
  TS_EXPECT_ERROR(teal_plant_calc_tendon_length(t.p, e, NULL, v, X, V, &L, &Ld, &err), TEAL_EINVAL,
                  &err, "NULL q");
  TS_EXPECT_ERROR(teal_plant_calc_tendon_length(NULL, e, q, v, X, V, &L, &Ld, &err), TEAL_EINVAL,
                  &err, "NULL plant");
  q[0] = NAN;
  ck_assert_int_eq(teal_mb_body_poses(t.p, q, X), TEAL_OK);
  TS_EXPECT_ERROR(teal_plant_calc_tendon_length(t.p, e, q, NULL, X, NULL, &L, NULL, &err),
                  TEAL_ENONFINITE, &err, "non-finite length");
  ts_fe_model_free(&m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("tendons");
  TCase *tc = tcase_create("tendons");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_fixed_tendon_forces, 0, 2);
  tcase_add_test(tc, test_spatial_tendon_kinematics);
  tcase_add_test(tc, test_tendon_energy);
  tcase_add_test(tc, test_tendon_simulation);
  tcase_add_test(tc, test_tendon_queries);
  tcase_add_test(tc, test_tendon_bad_inputs);
  tcase_add_test(tc, test_tendon_evaluation_errors);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
