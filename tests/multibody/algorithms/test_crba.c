/* multibody/algorithms/crba: the mass matrix is symmetric positive definite
 * and its columns are inverse dynamics of unit accelerations, on random
 * trees; Spong's acrobot in closed form (M, C v, tau_g, forward dynamics). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/tree/topology.h"
#include "solvers/dense.h"
#include "support/mb_dyn_fixtures.h"
#include "support/test_support.h"

#define MAXN TS_MB_DYN_MAXN

START_TEST(test_crba_matches_rnea_columns) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = ts_mb_dyn_make_tree(_i, 100 * seed + (unsigned)_i);
    int nv = teal_plant_nv(p);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    ck_assert_ptr_nonnull(ws);
    unsigned s = 7 * seed + 1;
    double q[MAXN], zero[MAXN] = {0}, e[MAXN], col[MAXN];
    double M[MAXN * MAXN], L[MAXN * MAXN], X[MAXN * MAXN], MX[MAXN * MAXN];
    ts_mb_dyn_rand_state(p, &s, q, NULL);
    ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
    double scale = ts_mb_max_abs(M, nv * nv);
    for (int i = 0; i < nv; i++) {
      for (int j = 0; j < nv; j++) {
        ck_assert_msg(fabs(M[i * nv + j] - M[j * nv + i]) <= 1e-12 * scale, "asym %d %d", i, j);
      }
    }
    memcpy(L, M, sizeof(double) * (size_t)(nv * nv));
    ck_assert_int_eq(teal_dense_cholesky_factor(L, nv, NULL), TEAL_OK); /* SPD */
    /* M e_j = ID(q, 0, e_j) without gravity */
    ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_zero()), TEAL_OK);
    for (int j = 0; j < nv; j++) {
      memset(e, 0, sizeof e);
      e[j] = 1.0;
      ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, q, zero, e, NULL, col), TEAL_OK);
      for (int i = 0; i < nv; i++) {
        ck_assert_msg(fabs(col[i] - M[i * nv + j]) <= 1e-11 * scale, "topo %d M[%d][%d] %g vs %g",
                      _i, i, j, M[i * nv + j], col[i]);
      }
    }
    /* M M^-1 = I */
    memset(X, 0, sizeof X);
    for (int i = 0; i < nv; i++) {
      X[i * nv + i] = 1.0;
    }
    ck_assert_int_eq(teal_dense_solve(M, nv, X, nv, NULL), TEAL_OK);
    ck_assert_int_eq(teal_dense_gemm(0, 0, nv, nv, nv, 1.0, M, X, 0.0, MX, NULL), TEAL_OK);
    for (int i = 0; i < nv; i++) {
      for (int j = 0; j < nv; j++) {
        ck_assert_msg(fabs(MX[i * nv + j] - (i == j)) < 1e-10, "M M^-1 %d %d", i, j);
      }
    }
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* Spong's acrobot: link frames at the joints, links hanging along -z from
 * hinges about +y (theta = 0 hanging down; x = -l sin theta, z = -l cos theta). */
START_TEST(test_acrobot_closed_form) {
  const double m1 = 1, m2 = 1, l1 = 1, lc1 = 0.5, lc2 = 1, Ic1 = 0.083, Ic2 = 0.33, g = 9.81;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M1 = teal_spatial_inertia_from_central(m1, teal_vec3_make(0, 0, -lc1),
                                                              teal_mat3_diag(Ic1, Ic1, 0.01));
  teal_spatial_inertia M2 = teal_spatial_inertia_from_central(m2, teal_vec3_make(0, 0, -lc2),
                                                              teal_mat3_diag(Ic2, Ic2, 0.01));
  int b2 = teal_plant_add_rigid_body(p, "link2", 1, &M2);
  int b1 = teal_plant_add_rigid_body(p, "link1", 1, &M1);
  int elbow_f = teal_plant_add_frame(
      p, "elbow_f", teal_plant_body_frame(p, b1),
      teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, -l1)));
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int j2 = teal_plant_add_joint(p, "elbow", TEAL_JOINT_REVOLUTE, elbow_f,
                                teal_plant_body_frame(p, b2), &y, 0);
  int j1 = teal_plant_add_joint(p, "shoulder", TEAL_JOINT_REVOLUTE, 0, teal_plant_body_frame(p, b1),
                                &y, 0);
  ck_assert_int_ge(j1, 0);
  ck_assert_int_ge(j2, 0);
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(0, 0, -g)), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  int i1 = teal_plant_joint_v_start(p, j1), i2 = teal_plant_joint_v_start(p, j2);
  ck_assert_int_eq(teal_plant_joint_q_start(p, j1), i1);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  unsigned s = 42;
  for (int trial = 0; trial < 5; trial++) {
    double q1 = ts_rand_uniform(&s, -3, 3), q2 = ts_rand_uniform(&s, -3, 3);
    double v1 = ts_rand_uniform(&s, -2, 2), v2 = ts_rand_uniform(&s, -2, 2);
    double q[2], v[2], M[4], Cv[2], tg[2];
    q[i1] = q1, q[i2] = q2, v[i1] = v1, v[i2] = v2;
    double c2 = cos(q2), s2 = sin(q2), h = m2 * l1 * lc2;
    double M11 = Ic1 + Ic2 + m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2);
    double M12 = Ic2 + m2 * (lc2 * lc2 + l1 * lc2 * c2), M22 = Ic2 + m2 * lc2 * lc2;
    double C1 = -h * s2 * (2 * v1 * v2 + v2 * v2), C2 = h * s2 * v1 * v1;
    double G1 = -((m1 * lc1 + m2 * l1) * g * sin(q1) + m2 * lc2 * g * sin(q1 + q2));
    double G2 = -m2 * lc2 * g * sin(q1 + q2);
    ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
    ck_assert_double_eq_tol(M[i1 * 2 + i1], M11, 1e-13);
    ck_assert_double_eq_tol(M[i1 * 2 + i2], M12, 1e-13);
    ck_assert_double_eq_tol(M[i2 * 2 + i1], M12, 1e-13);
    ck_assert_double_eq_tol(M[i2 * 2 + i2], M22, 1e-13);
    ck_assert_int_eq(teal_mb_bias_term(p, ws, q, v, Cv), TEAL_OK);
    ck_assert_double_eq_tol(Cv[i1], C1, 1e-12);
    ck_assert_double_eq_tol(Cv[i2], C2, 1e-12);
    ck_assert_int_eq(teal_mb_gravity_forces(p, ws, q, tg), TEAL_OK);
    ck_assert_double_eq_tol(tg[i1], G1, 1e-12);
    ck_assert_double_eq_tol(tg[i2], G2, 1e-12);
    /* forward dynamics against the 2x2 closed-form solve */
    double tau[2] = {0.3, -0.8}, vdot[2];
    double r1 = tau[i1] + G1 - C1, r2 = tau[i2] + G2 - C2, det = M11 * M22 - M12 * M12;
    ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tau, vdot), TEAL_OK);
    ck_assert_double_eq_tol(vdot[i1], (M22 * r1 - M12 * r2) / det, 1e-11);
    ck_assert_double_eq_tol(vdot[i2], (M11 * r2 - M12 * r1) / det, 1e-11);
  }
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("crba");
  TCase *tc = tcase_create("crba");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_crba_matches_rnea_columns, 0, TS_MB_DYN_NUM_TOPOLOGIES);
  tcase_add_test(tc, test_acrobot_closed_form);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
