/* multibody/math/spatial_vector: shifts of spatial velocity and force keep
 * power, compose and invert, commute with re-expression, and the
 * acceleration shift gives the centripetal term. */
#include <check.h>
#include <math.h>

#include "multibody/math/spatial_vector.h"
#include "support/mb_math_fixtures.h"
#include "support/test_support.h"

static const double kTol = 1e-14;

START_TEST(test_shift_velocity_force) {
  unsigned s = 1111u;
  for (int k = 0; k < 100; k++) {
    teal_spatial_vector V_P = ts_mb_rand_spatial(&s), F_P = ts_mb_rand_spatial(&s);
    teal_vec3 p_PQ = ts_mb_rand_vec3(&s, -2, 2), p_QR = ts_mb_rand_vec3(&s, -2, 2);
    teal_spatial_vector V_Q = teal_spatial_velocity_shift(V_P, p_PQ);
    teal_spatial_vector F_Q = teal_spatial_force_shift(F_P, p_PQ);
    /* power F . V is independent of the reference point */
    ck_assert_double_le(fabs(teal_spatial_vector_dot(F_Q, V_Q) - teal_spatial_vector_dot(F_P, V_P)),
                        32 * kTol);
    /* shifts compose and invert */
    teal_spatial_vector V_R1 = teal_spatial_velocity_shift(V_Q, p_QR);
    teal_spatial_vector V_R2 = teal_spatial_velocity_shift(V_P, teal_vec3_add(p_PQ, p_QR));
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(V_R1, V_R2), 16 * kTol);
    teal_spatial_vector F_back = teal_spatial_force_shift(F_Q, teal_vec3_neg(p_PQ));
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(F_back, F_P), 16 * kTol);
    /* re-expression preserves power and commutes with shifting */
    teal_rotation R_FE = ts_mb_rand_rotation(&s);
    teal_spatial_vector VF = teal_spatial_vector_reexpress(R_FE, V_P);
    teal_spatial_vector FF = teal_spatial_vector_reexpress(R_FE, F_P);
    ck_assert_double_le(fabs(teal_spatial_vector_dot(FF, VF) - teal_spatial_vector_dot(F_P, V_P)),
                        8 * kTol);
    teal_spatial_vector a = teal_spatial_vector_reexpress(R_FE, V_Q);
    teal_spatial_vector b = teal_spatial_velocity_shift(VF, teal_rotation_apply(R_FE, p_PQ));
    ck_assert_double_le(teal_spatial_vector_max_abs_diff(a, b), 16 * kTol);
  }
  /* spinning about P: the acceleration of Q is centripetal, -w^2 p */
  teal_vec3 w = teal_vec3_make(0, 0, 2), p = teal_vec3_make(0.5, 0, 0);
  teal_spatial_vector A_Q = teal_spatial_acceleration_shift(teal_spatial_vector_zero(), p, w);
  ck_assert_double_le(ts_mb_vec3_diff(teal_spatial_vector_linear(A_Q), teal_vec3_make(-2, 0, 0)),
                      kTol);
}
END_TEST

int main(void) {
  Suite *s = suite_create("spatial_vector");
  TCase *tc = tcase_create("spatial_vector");
  tcase_add_test(tc, test_shift_velocity_force);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
