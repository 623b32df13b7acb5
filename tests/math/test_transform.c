/* math/transform: composition, inverses and their identities. */
#include <check.h>
#include <math.h>

#include "math/transform.h"
#include "support/mb_math_fixtures.h"
#include "support/test_support.h"

static const double kTol = 1e-14;

START_TEST(test_transform) {
  unsigned s = 2024u;
  for (int k = 0; k < 100; k++) {
    teal_transform X_AB = ts_mb_rand_transform(&s), X_BC = ts_mb_rand_transform(&s);
    teal_vec3 p_CoQ_C = ts_mb_rand_vec3(&s, -1, 1);
    /* composition acts like applying one after the other */
    teal_transform X_AC = teal_transform_compose(X_AB, X_BC);
    teal_vec3 p1 = teal_transform_apply(X_AC, p_CoQ_C);
    teal_vec3 p2 = teal_transform_apply(X_AB, teal_transform_apply(X_BC, p_CoQ_C));
    ck_assert_double_le(ts_mb_vec3_diff(p1, p2), 8 * kTol);
    /* X X^-1 = identity on both sides */
    teal_transform I1 = teal_transform_compose(X_AB, teal_transform_inverse(X_AB));
    teal_transform I2 = teal_transform_compose(teal_transform_inverse(X_AB), X_AB);
    ck_assert_double_le(teal_mat3_max_abs_diff(I1.R, teal_mat3_identity()), 4 * kTol);
    ck_assert_double_le(teal_vec3_norm(I1.p), 8 * kTol);
    ck_assert_double_le(teal_mat3_max_abs_diff(I2.R, teal_mat3_identity()), 4 * kTol);
    ck_assert_double_le(teal_vec3_norm(I2.p), 8 * kTol);
    /* (X_AB X_BC)^-1 = X_BC^-1 X_AB^-1 */
    teal_transform Xi = teal_transform_inverse(X_AC);
    teal_transform Xj = teal_transform_compose(teal_transform_inverse(X_BC),
                                               teal_transform_inverse(X_AB));
    ck_assert_double_le(teal_mat3_max_abs_diff(Xi.R, Xj.R), 4 * kTol);
    ck_assert_double_le(ts_mb_vec3_diff(Xi.p, Xj.p), 16 * kTol);
  }
  teal_transform I = teal_transform_identity();
  teal_vec3 p = teal_vec3_make(1, 2, 3);
  ck_assert_double_eq(ts_mb_vec3_diff(teal_transform_apply(I, p), p), 0.0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("transform");
  TCase *tc = tcase_create("transform");
  tcase_add_test(tc, test_transform);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
