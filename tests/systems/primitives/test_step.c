/* Tests of the step source: values before, at and after the step time,
 * time as the only prerequisite, the (empty) Jacobian, and validation. */
#include "systems/primitives/step.h"

#include "support/primitives_test_util.h"

START_TEST(test_values) {
  const double before[2] = {0.0, 1.0}, after[2] = {5.0, -1.0};
  teal_error err;
  teal_system *s = teal_step_new("step", 2.0, before, after, 2, &err);
  ck_assert_msg(s != NULL, "%s", err.message);
  ck_assert_int_eq(teal_system_num_input_ports(s), 0);
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(s, 0)), "y");
  teal_context *ctx = pt_context(s);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), before, 2, 0.0);
  ck_assert_int_eq(teal_context_set_time(ctx, nextafter(2.0, 0.0)), TEAL_OK);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), before, 2, 0.0);
  ck_assert_int_eq(teal_context_set_time(ctx, 2.0), TEAL_OK);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), after, 2, 0.0);
  ck_assert_int_eq(teal_context_set_time(ctx, 100.0), TEAL_OK);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), after, 2, 0.0);
  ck_assert_int_eq(teal_context_set_time(ctx, 1.0), TEAL_OK);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), before, 2, 0.0);
  teal_jacobian jac = {0, 0, 2, NULL, NULL, NULL, NULL};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, -1, 0, &jac), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_bad_parameters) {
  const double v[1] = {1.0}, bad[1] = {-INFINITY};
  teal_error err;
  teal_system *s = teal_step_new("s1", 0.0, v, v, 0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "step 's1'");
  s = teal_step_new("s1", 0.0, NULL, v, 1, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "initial_value");
  s = teal_step_new("s1", 0.0, v, NULL, 1, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "final_value");
  s = teal_step_new("s1", 0.0, v, bad, 1, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "final_value[0]");
  s = teal_step_new("s1", NAN, v, v, 1, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "step_time");
  ASSERT_HAS(err.message, "'s1'");
}
END_TEST

int main(void) {
  Suite *s = suite_create("step");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_values);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return pt_run(s);
}
