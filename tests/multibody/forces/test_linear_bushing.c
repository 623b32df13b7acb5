/* The rpy linear bushing (multibody/forces/force_elements.h): action-reaction
 * and the stiffness force, the power identity (stiffness against a finite
 * difference of the stored energy, damping against finite-difference rates),
 * and gimbal lock. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/kinematics.h"
#include "multibody/forces/force_elements.h"
#include "multibody/tree/topology.h"
#include "support/mb_fixtures.h"
#include "support/mb_force_fixtures.h"
#include "support/test_support.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* A bushing from frame A on body a (or on the world, _i = 1) to frame C on
 * body c, both bodies free. */
typedef struct bushing_fixture {
  ts_fe_model m;
  int ba, bc, fA, fC;
  teal_transform X_BaA, X_BcC;
  teal_vec3 kr, dr, kp, dp;
} bushing_fixture;

static bushing_fixture bushing_make(int world_a, int stiff, int damp, unsigned *s) {
  bushing_fixture f;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M1 = ts_fe_rand_inertia(s, 1.3), M2 = ts_fe_rand_inertia(s, 0.9);
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
  f.m = ts_fe_model_make(p);
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
    ts_fe_set_free(p, f->ba, X_WBa, ts_fe_rand_spatial(s, 1.5), q, v);
  }
  teal_transform X_WA = teal_transform_compose(X_WBa, f->X_BaA);
  teal_transform X_WBc =
      teal_transform_compose(teal_transform_compose(X_WA, X_AC), teal_transform_inverse(f->X_BcC));
  ts_fe_set_free(p, f->bc, X_WBc, ts_fe_rand_spatial(s, 1.5), q, v);
  for (int b = 1; b < f->m.nb; b++) {
    if (b != f->ba && b != f->bc) {
      ts_fe_set_free(p, b, ts_mb_rand_pose(s, 1.0), ts_fe_rand_spatial(s, 1.0), q, v);
    }
  }
  teal_transform X[TS_FE_MAXB], X_AC2;
  ck_assert_int_eq(teal_mb_body_poses(p, q, X), TEAL_OK);
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
  teal_transform X[TS_FE_MAXB], X_AC;
  ck_assert_int_eq(teal_mb_body_poses(f->m.p, q, X), TEAL_OK);
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
    double q[TS_FE_MAXX], v[TS_FE_MAXX];
    teal_transform X_AC = rand_relative(&s);
    bushing_state(&f, &s, X_AC, q, v);
    teal_transform X[TS_FE_MAXB];
    teal_spatial_vector V[TS_FE_MAXB], F[TS_FE_MAXB];
    double tau[TS_FE_MAXX];
    ck_assert_int_eq(ts_fe_calc_all(p, q, v, X, V, F, tau, NULL), TEAL_OK);
    ck_assert_double_eq(ts_mb_max_abs(tau, f.m.nv), 0.0);
    teal_transform X_WA = teal_transform_compose(X[f.ba], f.X_BaA);
    teal_vec3 p_WCo = teal_transform_apply(X_WA, X_AC.p);
    if (f.ba != TEAL_WORLD_BODY) {
      /* zero net spatial force about any common point */
      ck_assert_double_le(ts_fe_max_abs6(ts_fe_net_force_about(X, F, f.m.nb, teal_vec3_zero())),
                          1e-11);
      ck_assert_double_le(ts_fe_max_abs6(ts_fe_net_force_about(X, F, f.m.nb, p_WCo)), 1e-11);
      ck_assert_double_le(
          ts_fe_max_abs6(ts_fe_net_force_about(X, F, f.m.nb, teal_vec3_make(3, -2, 1))), 1e-11);
    }
    teal_vec3 f_A;
    for (int i = 0; i < 3; i++) {
      f_A.v[i] = -f.kp.v[i] * X_AC.p.v[i];
    }
    teal_vec3 f_W = teal_rotation_apply(X_WA.R, f_A);
    ck_assert_double_le(teal_vec3_norm(teal_vec3_sub(teal_spatial_vector_linear(F[f.bc]), f_W)),
                        1e-12);
    /* power identity */
    double P = ts_fe_element_power(p, q, v), dU = ts_fe_energy_rate_fd(p, q, v, 1e-6);
    ck_assert_msg(fabs(P + dU) < 1e-6 * (1.0 + fabs(dU)), "trial %d: power %.12g, -dU/dt %.12g",
                  trial, P, -dU);
  }
  ts_fe_model_free(&f.m);
}
END_TEST

/* (c) with damping only the power is -(sum d_xyz pdot^2 + sum d_rpy rpydot^2)
 * <= 0, the rates taken by central differences; no stored energy. */
START_TEST(test_bushing_damping) {
  unsigned s = 31u + (unsigned)_i;
  bushing_fixture f = bushing_make(_i, 0, 1, &s);
  const teal_plant *p = f.m.p;
  for (int trial = 0; trial < 30; trial++) {
    double q[TS_FE_MAXX], v[TS_FE_MAXX], qp[TS_FE_MAXX], qm[TS_FE_MAXX], h = 1e-6;
    bushing_state(&f, &s, rand_relative(&s), q, v);
    ck_assert_double_eq(ts_fe_element_energy(p, q), 0.0);
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
    double P = ts_fe_element_power(p, q, v);
    ck_assert_double_le(P, 0.0);
    ck_assert_msg(fabs(P - expect) < 1e-6 * (1.0 + fabs(expect)), "trial %d: power %.12g vs %.12g",
                  trial, P, expect);
  }
  ts_fe_model_free(&f.m);
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
    double q[TS_FE_MAXX], v[TS_FE_MAXX];
    double pitch = i < 4 ? pitches[i] : M_PI / 2 - 1e-2;
    teal_transform X_AC = ts_fe_pose(0.3, pitch, -0.4, 0.1, 0.2, -0.1);
    bushing_state(&f, &s, X_AC, q, v);
    teal_transform X[TS_FE_MAXB];
    teal_spatial_vector V[TS_FE_MAXB], F[TS_FE_MAXB];
    double tau[TS_FE_MAXX];
    teal_error err;
    teal_error_clear(&err);
    int rc = ts_fe_calc_all(p, q, v, X, V, F, tau, &err);
    if (i < 4) {
      ck_assert_int_eq(rc, TEAL_ESINGULAR);
      ck_assert_int_eq(err.code, TEAL_ESINGULAR);
      ck_assert_ptr_nonnull(strstr(err.message, "gimbal"));
      ck_assert_int_eq(ts_fe_calc_all(p, q, v, X, V, F, tau, NULL), TEAL_ESINGULAR);
    } else {
      ck_assert_int_eq(rc, TEAL_OK);
    }
    double pe = -1.0;
    ck_assert_int_eq(teal_plant_force_elements_potential_energy(p, q, X, &pe, NULL), TEAL_OK);
    ck_assert(isfinite(pe) && pe > 0.0);
  }
  ts_fe_model_free(&f.m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("linear_bushing");
  TCase *tc = tcase_create("linear_bushing");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_bushing_stiffness, 0, 2);
  tcase_add_loop_test(tc, test_bushing_damping, 0, 2);
  tcase_add_test(tc, test_bushing_gimbal_lock);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
