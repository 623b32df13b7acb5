/* multibody/math/spatial_inertia: shift and re-expression consistency of
 * inertia, velocity and momentum (and the 6x6 form), solid-shape inertias
 * against closed forms, the parallel axis theorem, principal moments, and
 * the validity check. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/math/spatial_inertia.h"
#include "support/mb_math_fixtures.h"
#include "support/test_support.h"

static const double kTol = 1e-14;

START_TEST(test_inertia_shift_reexpress) {
  unsigned s = 6060u;
  for (int k = 0; k < 100; k++) {
    double m = ts_rand_uniform(&s, 0.5, 3.0);
    teal_spatial_inertia M_C = teal_spatial_inertia_from_central(m, teal_vec3_zero(),
                                                                 ts_mb_rand_central_inertia(&s));
    ck_assert_int_eq(teal_spatial_inertia_check(&M_C, NULL), TEAL_OK);
    teal_spatial_vector V_C = ts_mb_rand_spatial(&s);
    teal_vec3 p_CP = ts_mb_rand_vec3(&s, -1, 1);
    /* about P: inertia shifted by p_CP, velocity shifted the same way */
    teal_spatial_inertia M_P = teal_spatial_inertia_shift(&M_C, p_CP);
    teal_spatial_vector V_P = teal_spatial_velocity_shift(V_C, p_CP);
    ck_assert_int_eq(teal_spatial_inertia_check(&M_P, NULL), TEAL_OK);
    double ke = teal_spatial_inertia_kinetic_energy(&M_C, V_C);
    ck_assert_double_eq_tol(teal_spatial_inertia_kinetic_energy(&M_P, V_P), ke, 8 * kTol * ke);
    /* and in another frame F */
    teal_rotation R_FE = ts_mb_rand_rotation(&s);
    teal_spatial_inertia M_PF = teal_spatial_inertia_reexpress(&M_P, R_FE);
    teal_spatial_vector V_PF = teal_spatial_vector_reexpress(R_FE, V_P);
    ck_assert_double_eq_tol(teal_spatial_inertia_kinetic_energy(&M_PF, V_PF), ke, 8 * kTol * ke);
    /* momentum shifts as a force: h_P = shift(h_C, p_CP) */
    teal_spatial_vector h_C = teal_spatial_inertia_apply(&M_C, V_C);
    teal_spatial_vector h_P = teal_spatial_inertia_apply(&M_P, V_P);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(h_P, teal_spatial_force_shift(h_C, p_CP)),
                        16 * kTol);
    /* the 6x6 form agrees with apply and with the spatial transforms:
     * M_A = A_X*_B M_B B_X_A for X_AB = {R_FE, p} */
    teal_mat6 M6 = teal_spatial_inertia_to_mat6(&M_P);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(teal_mat6_apply(&M6, V_P), h_P),
                        8 * kTol);
    teal_transform X_AB = teal_transform_make(R_FE, ts_mb_rand_vec3(&s, -1, 1));
    teal_mat6 XF = teal_mat6_force_transform(X_AB);
    teal_mat6 XBA = teal_mat6_motion_transform(teal_transform_inverse(X_AB));
    teal_mat6 t = teal_mat6_mul(&M6, &XBA);
    teal_mat6 MA6 = teal_mat6_mul(&XF, &t);
    /* the same via re-express then shift from Bo to Ao (p_BoAo_A = -p_AoBo_A) */
    teal_spatial_inertia MA = teal_spatial_inertia_shift(&M_PF, teal_vec3_neg(X_AB.p));
    teal_mat6 MA6b = teal_spatial_inertia_to_mat6(&MA);
    ck_assert_double_le(teal_mat6_max_abs_diff(&MA6, &MA6b), 64 * kTol);
    /* M is symmetric */
    teal_mat6 M6t = teal_mat6_transpose(&M6);
    ck_assert_double_le(teal_mat6_max_abs_diff(&M6, &M6t), kTol);
  }
}
END_TEST

START_TEST(test_solid_shapes) {
  double m = 2.5;
  teal_spatial_inertia S = teal_spatial_inertia_solid_sphere(m, 0.4);
  ck_assert_double_eq_tol(S.I_SP_E.m[0], 0.4 * m * 0.16, kTol);
  ck_assert_double_eq_tol(S.I_SP_E.m[8], 0.4 * m * 0.16, kTol);
  teal_spatial_inertia B = teal_spatial_inertia_solid_box(m, 1.0, 2.0, 3.0);
  ck_assert_double_eq_tol(B.I_SP_E.m[0], m * 13.0 / 12.0, kTol);
  ck_assert_double_eq_tol(B.I_SP_E.m[4], m * 10.0 / 12.0, kTol);
  ck_assert_double_eq_tol(B.I_SP_E.m[8], m * 5.0 / 12.0, kTol);
  teal_spatial_inertia C = teal_spatial_inertia_solid_cylinder(m, 0.5, 2.0);
  ck_assert_double_eq_tol(C.I_SP_E.m[8], 0.5 * m * 0.25, kTol);
  ck_assert_double_eq_tol(C.I_SP_E.m[0], m * (0.75 + 4.0) / 12.0, kTol);
  ck_assert_double_eq_tol(C.I_SP_E.m[4], m * (0.75 + 4.0) / 12.0, kTol);
  /* a cube is a sphere-like box: equal moments m a^2 / 6 */
  teal_spatial_inertia cube = teal_spatial_inertia_solid_box(m, 0.3, 0.3, 0.3);
  ck_assert_double_eq_tol(cube.I_SP_E.m[4], m * 0.09 / 6.0, kTol);
  /* a thin rod: nothing about its axis, m L^2 / 12 across it */
  teal_vec3 u = teal_vec3_make(1, 2, 2); /* |u| = 3 */
  teal_spatial_inertia R = teal_spatial_inertia_thin_rod(m, 1.2, u);
  ck_assert_double_le(teal_vec3_norm(teal_mat3_apply(R.I_SP_E, u)), kTol);
  teal_vec3 n = teal_vec3_make(2, -1, 0); /* perpendicular to u */
  ck_assert_double_le(ts_mb_vec3_diff(teal_mat3_apply(R.I_SP_E, n),
                                teal_vec3_scale(n, m * 1.44 / 12.0)), kTol);
  /* a point mass about P */
  teal_spatial_inertia Pm = teal_spatial_inertia_point_mass(m, teal_vec3_make(0, 3, 4));
  ck_assert_double_eq_tol(Pm.I_SP_E.m[0], m * 25.0, kTol * 100);
  ck_assert_double_eq_tol(Pm.I_SP_E.m[5], -m * 12.0, kTol * 100);
  ck_assert_double_eq_tol(Pm.I_SP_E.m[4], m * 16.0, kTol * 100);
  /* all of them are valid; none has a com offset except the point mass */
  const teal_spatial_inertia *all[] = {&S, &B, &C, &cube, &R, &Pm};
  for (int i = 0; i < 6; i++) {
    ck_assert_int_eq(teal_spatial_inertia_check(all[i], NULL), TEAL_OK);
    ck_assert_double_eq(all[i]->mass, m);
  }
  ck_assert_double_eq(teal_vec3_norm(C.p_PScm_E), 0.0);
}
END_TEST

START_TEST(test_parallel_axis) {
  /* a sphere with its center at d along x, about the origin */
  double m = 3.0, r = 0.5, d = 2.0, I0 = 0.4 * m * r * r;
  teal_spatial_inertia Sc = teal_spatial_inertia_solid_sphere(m, r);
  teal_spatial_inertia So = teal_spatial_inertia_shift(&Sc, teal_vec3_make(-d, 0, 0));
  ck_assert_double_eq_tol(So.p_PScm_E.v[0], d, kTol);
  ck_assert_double_eq_tol(So.I_SP_E.m[0], I0, kTol);
  ck_assert_double_eq_tol(So.I_SP_E.m[4], I0 + m * d * d, kTol * 10);
  ck_assert_double_eq_tol(So.I_SP_E.m[8], I0 + m * d * d, kTol * 10);
  /* back to the center, and central() recovers it */
  teal_mat3 Ic = teal_spatial_inertia_central(&So);
  ck_assert_double_le(teal_mat3_max_abs_diff(Ic, Sc.I_SP_E), kTol * 10);
  unsigned s = 7070u;
  for (int k = 0; k < 100; k++) {
    teal_spatial_inertia M = teal_spatial_inertia_from_central(1.7, ts_mb_rand_vec3(&s, -1, 1),
                                                               ts_mb_rand_central_inertia(&s));
    teal_vec3 a = ts_mb_rand_vec3(&s, -1, 1), b = ts_mb_rand_vec3(&s, -1, 1);
    /* P -> Q -> R equals P -> R */
    teal_spatial_inertia MQ = teal_spatial_inertia_shift(&M, a);
    teal_spatial_inertia MR1 = teal_spatial_inertia_shift(&MQ, b);
    teal_spatial_inertia MR2 = teal_spatial_inertia_shift(&M, teal_vec3_add(a, b));
    ck_assert_double_le(teal_mat3_max_abs_diff(MR1.I_SP_E, MR2.I_SP_E), 32 * kTol);
    ck_assert_double_le(ts_mb_vec3_diff(MR1.p_PScm_E, MR2.p_PScm_E), 8 * kTol);
    /* shift through the com equals from_central at the new offset */
    teal_spatial_inertia MQ2 = teal_spatial_inertia_from_central(
        M.mass, MQ.p_PScm_E, teal_spatial_inertia_central(&M));
    ck_assert_double_le(teal_mat3_max_abs_diff(MQ.I_SP_E, MQ2.I_SP_E), 32 * kTol);
  }
  /* two point masses make a dumbbell: the sum about its center */
  teal_spatial_inertia p1 = teal_spatial_inertia_point_mass(1.0, teal_vec3_make(1, 0, 0));
  teal_spatial_inertia p2 = teal_spatial_inertia_point_mass(3.0, teal_vec3_make(-1, 0, 0));
  teal_spatial_inertia db = teal_spatial_inertia_add(&p1, &p2);
  ck_assert_double_eq(db.mass, 4.0);
  ck_assert_double_eq_tol(db.p_PScm_E.v[0], -0.5, kTol);
  ck_assert_double_eq_tol(db.I_SP_E.m[4], 4.0, kTol);
  ck_assert_double_eq_tol(db.I_SP_E.m[0], 0.0, kTol);
  /* central: 1 * 1.5^2 + 3 * 0.5^2 = 3 about y and z */
  teal_mat3 Idb = teal_spatial_inertia_central(&db);
  ck_assert_double_eq_tol(Idb.m[4], 3.0, kTol * 10);
  ck_assert_int_eq(teal_spatial_inertia_check(&db, NULL), TEAL_OK);
}
END_TEST

START_TEST(test_principal_moments) {
  unsigned s = 9191u;
  for (int k = 0; k < 100; k++) {
    double e[3] = {ts_rand_uniform(&s, 0, 2), ts_rand_uniform(&s, 0, 2), 0};
    e[2] = k % 3 ? ts_rand_uniform(&s, 0, 2) : e[1]; /* repeated moments too */
    teal_rotation R = ts_mb_rand_rotation(&s);
    teal_mat3 I = teal_mat3_mul(teal_mat3_mul(R, teal_mat3_diag(e[0], e[1], e[2])),
                                teal_mat3_transpose(R));
    double got[3];
    teal_inertia_principal_moments(I, got);
    double want[3] = {e[0], e[1], e[2]};
    for (int i = 0; i < 2; i++) { /* sort want ascending */
      for (int j = 0; j < 2 - i; j++) {
        if (want[j] > want[j + 1]) {
          double t = want[j];
          want[j] = want[j + 1];
          want[j + 1] = t;
        }
      }
    }
    for (int i = 0; i < 3; i++) {
      ck_assert_double_eq_tol(got[i], want[i], 1e-13);
    }
  }
}
END_TEST

START_TEST(test_invalid_inertias) {
  teal_error err;
  teal_spatial_inertia good = teal_spatial_inertia_solid_box(1.0, 1, 2, 3);
  teal_error_clear(&err);
  ck_assert_int_eq(teal_spatial_inertia_check(&good, &err), TEAL_OK);
  ck_assert_int_eq(err.code, TEAL_OK);

  teal_spatial_inertia M = good;
  M.mass = -1.0;
  ck_assert_int_eq(teal_spatial_inertia_check(&M, &err), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "mass"));
  M.mass = 0.0;
  ck_assert_int_eq(teal_spatial_inertia_check(&M, &err), TEAL_EINVAL);
  M.mass = NAN;
  ck_assert_int_eq(teal_spatial_inertia_check(&M, &err), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(err.message, "finite"));
  M = good;
  M.I_SP_E.m[4] = NAN;
  ck_assert_int_eq(teal_spatial_inertia_check(&M, NULL), TEAL_ENONFINITE);
  M = good;
  M.p_PScm_E.v[1] = INFINITY;
  ck_assert_int_eq(teal_spatial_inertia_check(&M, NULL), TEAL_ENONFINITE);
  /* not positive semidefinite */
  M = teal_spatial_inertia_make(1.0, teal_vec3_zero(), teal_mat3_diag(1, 1, -1e-6));
  ck_assert_int_eq(teal_spatial_inertia_check(&M, &err), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "semidefinite"));
  M = teal_spatial_inertia_make(1.0, teal_vec3_zero(), teal_mat3_zero());
  M.I_SP_E.m[1] = M.I_SP_E.m[3] = 1.0; /* eigenvalues -1, 0, 1 */
  ck_assert_int_eq(teal_spatial_inertia_check(&M, NULL), TEAL_EINVAL);
  /* triangle inequality violated: 1 + 1 < 3 */
  M = teal_spatial_inertia_make(1.0, teal_vec3_zero(), teal_mat3_diag(1, 1, 3));
  ck_assert_int_eq(teal_spatial_inertia_check(&M, &err), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "triangle"));
  /* ...also when rotated into a dense matrix */
  unsigned s = 5u;
  teal_rotation R = ts_mb_rand_rotation(&s);
  M.I_SP_E = teal_mat3_mul(teal_mat3_mul(R, M.I_SP_E), teal_mat3_transpose(R));
  ck_assert_int_eq(teal_spatial_inertia_check(&M, NULL), TEAL_EINVAL);
  /* asymmetric */
  M = good;
  M.I_SP_E.m[1] = 0.1;
  ck_assert_int_eq(teal_spatial_inertia_check(&M, &err), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "symmetric"));
  /* valid about P but not about the com: a mass off P with zero I_SP */
  M = teal_spatial_inertia_make(1.0, teal_vec3_make(1, 0, 0), teal_mat3_zero());
  ck_assert_int_eq(teal_spatial_inertia_check(&M, NULL), TEAL_EINVAL);
  /* the boundary cases: an exact triangle equality is accepted */
  M = teal_spatial_inertia_make(1.0, teal_vec3_zero(), teal_mat3_diag(1, 2, 3));
  ck_assert_int_eq(teal_spatial_inertia_check(&M, NULL), TEAL_OK);
  /* ...also with repeated moments in a dense matrix (rods, flat plates), and
   * offset from P */
  for (int k = 0; k < 50; k++) {
    teal_rotation Rk = ts_mb_rand_rotation(&s);
    teal_mat3 D = k % 2 ? teal_mat3_diag(0, 0.7, 0.7) : teal_mat3_diag(1, 1, 2);
    teal_mat3 Ic = teal_mat3_mul(teal_mat3_mul(Rk, D), teal_mat3_transpose(Rk));
    M = teal_spatial_inertia_from_central(2.0, ts_mb_rand_vec3(&s, -1, 1), Ic);
    ck_assert_int_eq(teal_spatial_inertia_check(&M, NULL), TEAL_OK);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("spatial_inertia");
  TCase *tc = tcase_create("spatial_inertia");
  tcase_add_test(tc, test_inertia_shift_reexpress);
  tcase_add_test(tc, test_solid_shapes);
  tcase_add_test(tc, test_parallel_axis);
  tcase_add_test(tc, test_principal_moments);
  tcase_add_test(tc, test_invalid_inertias);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
