/* multibody/math/spatial_mat6: the 6x6 cross-product matrices and motion and
 * force transforms against the O(1) products, duality and power invariance,
 * inverses and composition, and pure translations as shifts. */
#include <check.h>
#include <math.h>

#include "multibody/math/spatial_mat6.h"
#include "support/mb_math_fixtures.h"
#include "support/test_support.h"

static const double kTol = 1e-14;

START_TEST(test_cross_products) {
  unsigned s = 555u;
  for (int k = 0; k < 100; k++) {
    teal_spatial_vector V = ts_mb_rand_spatial(&s), m = ts_mb_rand_spatial(&s),
                        f = ts_mb_rand_spatial(&s);
    teal_mat6 crm = teal_mat6_cross_motion(V), crf = teal_mat6_cross_force(V);
    /* crf(V) = -crm(V)' exactly */
    teal_mat6 crmT = teal_mat6_transpose(&crm);
    teal_mat6 neg = teal_mat6_scale(&crmT, -1.0);
    ck_assert_double_eq(teal_mat6_max_abs_diff(&crf, &neg), 0.0);
    /* the matrices agree with the O(1) products */
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(teal_mat6_apply(&crm, m),
                                                         teal_spatial_cross_motion(V, m)), kTol);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(teal_mat6_apply(&crf, f),
                                                         teal_spatial_cross_force(V, f)), kTol);
    /* V x V = 0; and (V x m) . f + m . (V x* f) = 0 (duality) */
    teal_spatial_vector VV = teal_spatial_cross_motion(V, V);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(VV, teal_spatial_vector_zero()), kTol);
    double d = teal_spatial_vector_dot(teal_spatial_cross_motion(V, m), f) +
               teal_spatial_vector_dot(m, teal_spatial_cross_force(V, f));
    ck_assert_double_le(fabs(d), 4 * kTol);
  }
}
END_TEST

START_TEST(test_spatial_transforms) {
  unsigned s = 8080u;
  teal_mat6 I6 = teal_mat6_identity();
  for (int k = 0; k < 100; k++) {
    teal_transform X_AB = ts_mb_rand_transform(&s), X_BC = ts_mb_rand_transform(&s);
    teal_spatial_vector m_B = ts_mb_rand_spatial(&s), f_B = ts_mb_rand_spatial(&s);
    teal_mat6 XM = teal_mat6_motion_transform(X_AB), XF = teal_mat6_force_transform(X_AB);
    /* matrices agree with the O(1) forms */
    teal_spatial_vector m_A = teal_transform_apply_motion(X_AB, m_B);
    teal_spatial_vector f_A = teal_transform_apply_force(X_AB, f_B);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(teal_mat6_apply(&XM, m_B), m_A),
                        8 * kTol);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(teal_mat6_apply(&XF, f_B), f_A),
                        8 * kTol);
    /* power is frame invariant: (X* f) . (X m) = f . m */
    double pB = teal_spatial_vector_dot(f_B, m_B), pA = teal_spatial_vector_dot(f_A, m_A);
    ck_assert_double_le(fabs(pA - pB), 16 * kTol);
    /* X* = X^-T, and X(X_AB)^-1 = X(X_BA) */
    teal_mat6 XFt = teal_mat6_transpose(&XF);
    teal_mat6 XMinv = teal_mat6_motion_transform(teal_transform_inverse(X_AB));
    teal_mat6 P = teal_mat6_mul(&XFt, &XM);
    ck_assert_double_le(teal_mat6_max_abs_diff(&P, &I6), 8 * kTol);
    P = teal_mat6_mul(&XMinv, &XM);
    ck_assert_double_le(teal_mat6_max_abs_diff(&P, &I6), 8 * kTol);
    /* X(X_AB X_BC) = X(X_AB) X(X_BC) */
    teal_mat6 XBC = teal_mat6_motion_transform(X_BC);
    teal_mat6 XAC = teal_mat6_motion_transform(teal_transform_compose(X_AB, X_BC));
    P = teal_mat6_mul(&XM, &XBC);
    ck_assert_double_le(teal_mat6_max_abs_diff(&P, &XAC), 16 * kTol);
    /* a pure translation is a shift: to Ao from Bo is the offset p_BoAo = -p */
    teal_transform T = teal_transform_make(teal_rotation_identity(), X_AB.p);
    teal_vec3 p_BoAo = teal_vec3_neg(X_AB.p);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(teal_transform_apply_motion(T, m_B),
                            teal_spatial_velocity_shift(m_B, p_BoAo)), 4 * kTol);
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(teal_transform_apply_force(T, f_B),
                            teal_spatial_force_shift(f_B, p_BoAo)), 4 * kTol);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("spatial_mat6");
  TCase *tc = tcase_create("spatial_mat6");
  tcase_add_test(tc, test_cross_products);
  tcase_add_test(tc, test_spatial_transforms);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
