/* Tests of the ramp source: values before, at and after the start time,
 * time as the only prerequisite, the (empty) Jacobian, and validation. */
#include "systems/primitives/ramp.h"

#include "support/primitives_test_util.h"

START_TEST(test_values) {
  const double slope[2] = {2.0, -0.5}, y0[2] = {1.0, 3.0};
  teal_error err;
  teal_system *s = teal_ramp_new("ramp", slope, 1.5, y0, 2, &err);
  ck_assert_msg(s != NULL, "%s", err.message);
  ck_assert_int_eq(teal_system_num_input_ports(s), 0);
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(s, 0)), "y");
  teal_context *ctx = pt_context(s);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), y0, 2, 0.0);
  ck_assert_int_eq(teal_context_set_time(ctx, 1.5), TEAL_OK);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), y0, 2, 0.0);
  ck_assert_int_eq(teal_context_set_time(ctx, 4.0), TEAL_OK);
  const double want[2] = {6.0, 1.75};
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want, 2, PT_TOL);
  ck_assert_int_eq(teal_context_set_time(ctx, -10.0), TEAL_OK);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), y0, 2, 0.0);
  teal_jacobian jac = {0, 0, 2, NULL, NULL, NULL, NULL};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, -1, 0, &jac), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_negative_start_time) {
  const double slope = 1.0, y0 = 0.0;
  teal_system *s = teal_ramp_new("ramp", &slope, -2.0, &y0, 1, NULL);
  teal_context *ctx = pt_context(s);
  ck_assert_double_eq_tol(pt_eval(s, ctx, 0)[0], 2.0, PT_TOL);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_bad_parameters) {
  const double v[1] = {1.0}, bad[1] = {NAN};
  teal_error err;
  teal_system *s = teal_ramp_new("r1", v, 0.0, v, 0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "ramp 'r1'");
  s = teal_ramp_new("r1", NULL, 0.0, v, 1, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "slope");
  s = teal_ramp_new("r1", v, 0.0, NULL, 1, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "initial_value");
  s = teal_ramp_new("r1", bad, 0.0, v, 1, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "slope[0]");
  s = teal_ramp_new("r1", v, INFINITY, v, 1, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "start_time");
  ASSERT_HAS(err.message, "'r1'");
}
END_TEST

int main(void) {
  Suite *s = suite_create("ramp");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_values);
  tcase_add_test(tc, test_negative_start_time);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return pt_run(s);
}
