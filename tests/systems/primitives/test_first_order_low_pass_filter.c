/* Tests of the first-order low-pass filter: ports and feedthrough,
 * derivatives and output against hand calculation, the analytic Jacobian,
 * the step response (integrated with RK4 through the derivative API),
 * setting the initial output, and parameter validation. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "support/test_support.h"
#include "systems/primitives/first_order_low_pass_filter.h"

const char *__ubsan_default_options(void);
#if defined(__GNUC__)
__attribute__((weak))
#endif
const char *__ubsan_default_options(void) {
  return "halt_on_error=1:print_stacktrace=1";
}

#define ASSERT_HAS(msg, sub)                                                            \
  ck_assert_msg(strstr((msg), (sub)) != NULL, "message \"%s\" does not contain \"%s\"", \
                (msg), (sub))

static const double k_tau[2] = {0.5, 2.0};

START_TEST(test_ports_and_state) {
  teal_error err;
  teal_system *f = teal_first_order_low_pass_filter_new("lpf", k_tau, 2, &err);
  ck_assert_msg(f != NULL, "%s", err.message);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(f, 0)), "u");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(f, 0)), "y");
  ck_assert_int_eq(teal_output_port_size(teal_system_output_port(f, 0)), 2);
  int nq, nv, nz;
  ck_assert_int_eq(teal_system_num_continuous_states(f, &nq, &nv, &nz), 2);
  ck_assert_int_eq(nq + nv, 0);
  ck_assert_int_eq(nz, 2);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(f, 0, 0), 0);
  ck_assert(teal_system_has_jacobian(f));
  teal_system_free(f);
}
END_TEST

START_TEST(test_derivatives_and_output) {
  teal_error err;
  teal_system *f = teal_first_order_low_pass_filter_new("lpf", k_tau, 2, &err);
  teal_context *ctx = teal_context_new(f, &err);
  double z[2] = {0.2, 1.0}, u[2] = {1.0, -4.0}, zdot[2];
  teal_context_set_continuous_state(ctx, z, 2);
  teal_context_fix_input(ctx, 0, u, 2);
  ck_assert_int_eq(teal_calc_time_derivatives(f, ctx, zdot), TEAL_OK);
  ck_assert_double_eq_tol(zdot[0], 1.6, 1e-15);
  ck_assert_double_eq_tol(zdot[1], -2.5, 1e-15);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(f, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 0.2);
  ck_assert_double_eq(y[1], 1.0);
  /* the output needs no input (no feedthrough) */
  teal_context_unfix_input(ctx, 0);
  ck_assert_int_eq(teal_eval_vector_output(f, ctx, 0, &y), TEAL_OK);
  ck_assert_int_eq(teal_calc_time_derivatives(f, ctx, zdot), TEAL_ENOTCONNECTED);
  teal_context_free(ctx);
  teal_system_free(f);
}
END_TEST

START_TEST(test_jacobian) {
  teal_system *f = teal_first_order_low_pass_filter_new("lpf", k_tau, 2, NULL);
  teal_context *ctx = teal_context_new(f, NULL);
  double A[4], B[4], C[4], D[4];
  teal_jacobian jac = {2, 2, 2, A, B, C, D};
  ck_assert_int_eq(teal_calc_jacobian(f, ctx, 0, 0, &jac), TEAL_OK);
  const double eA[4] = {-2.0, 0, 0, -0.5}, eB[4] = {2.0, 0, 0, 0.5};
  const double eC[4] = {1, 0, 0, 1}, eD[4] = {0, 0, 0, 0};
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq(A[i], eA[i]);
    ck_assert_double_eq(B[i], eB[i]);
    ck_assert_double_eq(C[i], eC[i]);
    ck_assert_double_eq(D[i], eD[i]);
  }
  teal_jacobian ax = {2, 0, 0, A, NULL, NULL, NULL};
  ck_assert_int_eq(teal_calc_jacobian(f, ctx, -1, -1, &ax), TEAL_OK);
  ck_assert_double_eq(A[3], -0.5);
  teal_context_free(ctx);
  teal_system_free(f);
}
END_TEST

/* One RK4 step of the whole continuous state (n entries, n <= 4). */
static void rk4_step(const teal_system *sys, teal_context *ctx, int n, double h) {
  double x0[4], k[4][4], x[4];
  double t0 = teal_context_time(ctx);
  static const double stage_dt[4] = {0.0, 0.5, 0.5, 1.0};
  teal_context_get_continuous_state(ctx, x0, n);
  for (int s = 0; s < 4; s++) {
    for (int i = 0; i < n; i++) {
      x[i] = x0[i] + (s ? stage_dt[s] * h * k[s - 1][i] : 0.0);
    }
    teal_context_set_continuous_state(ctx, x, n);
    teal_context_set_time(ctx, t0 + stage_dt[s] * h);
    ck_assert_int_eq(teal_calc_time_derivatives(sys, ctx, k[s]), TEAL_OK);
  }
  for (int i = 0; i < n; i++) {
    x[i] = x0[i] + h / 6.0 * (k[0][i] + 2.0 * k[1][i] + 2.0 * k[2][i] + k[3][i]);
  }
  teal_context_set_continuous_state(ctx, x, n);
  teal_context_set_time(ctx, t0 + h);
}

START_TEST(test_step_response) {
  teal_system *f = teal_first_order_low_pass_filter_new("lpf", k_tau, 2, NULL);
  teal_context *ctx = teal_context_new(f, NULL);
  double u[2] = {1.0, 3.0};
  teal_context_fix_input(ctx, 0, u, 2);
  for (int step = 0; step < 300; step++) {
    rk4_step(f, ctx, 2, 0.01);
  }
  const double *y;
  teal_eval_vector_output(f, ctx, 0, &y);
  ck_assert_double_eq_tol(y[0], 1.0 - exp(-3.0 / 0.5), 1e-8);
  ck_assert_double_eq_tol(y[1], 3.0 * (1.0 - exp(-3.0 / 2.0)), 1e-8);
  teal_context_free(ctx);
  teal_system_free(f);
}
END_TEST

START_TEST(test_set_initial_output) {
  teal_error err;
  teal_builder *b = teal_builder_new("d");
  teal_system *f = teal_builder_add(b, teal_first_order_low_pass_filter_new("lpf", k_tau, 2,
                                                                             &err));
  teal_builder_add(b, ts_integrator_new("other", 1, NULL));
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  teal_context *ctx = teal_context_new(d, &err);
  const double z0[2] = {4.0, -1.0};
  ck_assert_int_eq(teal_first_order_low_pass_filter_set_initial_output(f, ctx, z0), TEAL_OK);
  const double *y;
  const teal_context *fctx = teal_context_subcontext(ctx, f);
  ck_assert_int_eq(teal_eval_vector_output(f, fctx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[0], 4.0);
  ck_assert_double_eq(y[1], -1.0);
  /* on the filter's own context too */
  const double z1[2] = {7.0, 8.0};
  teal_context *own = teal_context_subcontext_mut(ctx, f);
  ck_assert_int_eq(teal_first_order_low_pass_filter_set_initial_output(f, own, z1), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(f, fctx, 0, &y), TEAL_OK);
  ck_assert_double_eq(y[1], 8.0);
  ck_assert_int_eq(teal_first_order_low_pass_filter_set_initial_output(f, ctx, NULL),
                   TEAL_EINVAL);
  teal_system *stray = teal_first_order_low_pass_filter_new("stray", k_tau, 2, NULL);
  ck_assert_int_eq(teal_first_order_low_pass_filter_set_initial_output(stray, ctx, z0),
                   TEAL_ENOTFOUND);
  teal_system_free(stray);
  teal_system *other = ts_gain_new("other_kind", 2, 1.0);
  ck_assert_int_eq(teal_first_order_low_pass_filter_set_initial_output(other, ctx, z0),
                   TEAL_EINVAL);
  teal_system_free(other);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* The constructor under the allocation-failure sweep. */
static teal_system *make_oom(teal_error *err, void *user) {
  (void)user;
  return teal_first_order_low_pass_filter_new("oom", k_tau, 2, err);
}

START_TEST(test_bad_parameters) {
  teal_error err;
  ck_assert_ptr_null(teal_first_order_low_pass_filter_new("f1", k_tau, 0, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ASSERT_HAS(err.message, "'f1'");
  ck_assert_ptr_null(teal_first_order_low_pass_filter_new("f2", NULL, 2, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "'f2'");
  ASSERT_HAS(err.message, "time_constants");
  const double zero[2] = {1.0, 0.0}, neg[1] = {-0.1}, nan_tau[2] = {NAN, 1.0};
  ck_assert_ptr_null(teal_first_order_low_pass_filter_new("f3", zero, 2, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ASSERT_HAS(err.message, "'f3'");
  ASSERT_HAS(err.message, "time_constants[1]");
  ck_assert_ptr_null(teal_first_order_low_pass_filter_new("f4", neg, 1, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_first_order_low_pass_filter_new("f5", nan_tau, 2, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  ASSERT_HAS(err.message, "'f5'");
  ASSERT_HAS(err.message, "time_constants[0]");
  ck_assert_int_gt(ts_oom_sweep(make_oom, NULL, "'oom'"), 2);
}
END_TEST

static Suite *lpf_suite(void) {
  Suite *s = suite_create("first_order_low_pass_filter");
  TCase *tc = tcase_create("filter");
  tcase_add_test(tc, test_ports_and_state);
  tcase_add_test(tc, test_derivatives_and_output);
  tcase_add_test(tc, test_jacobian);
  tcase_add_test(tc, test_step_response);
  tcase_add_test(tc, test_set_initial_output);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(lpf_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
