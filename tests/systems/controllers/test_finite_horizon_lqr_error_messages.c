/* Finite-horizon LQR errors: each bad input (costs, times, nominal,
 * discrete horizon, result) returns its code with a message naming the
 * cause, and every allocation failure reports TEAL_ENOMEM and leaks
 * nothing. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "support/error_messages.h"
#include "support/test_support.h"
#include "systems/controllers/finite_horizon_lqr.h"
#include "systems/primitives/linear_system.h"

/* x' = A x + B u (or x[k+1] with period > 0), y = x. */
static teal_system *linear_plant(const double *A, const double *B, int n, int m, double period) {
  double C[16] = {0}, D[16] = {0};
  for (int i = 0; i < n; i++) {
    C[i * n + i] = 1.0;
  }
  teal_error err;
  teal_system *s = teal_linear_system_new("plant", A, B, C, D, n, m, n, period, &err);
  ck_assert_msg(s != NULL, "%s", err.message);
  return s;
}

/* A context of sys at state zero with u = 0 fixed on input 0. */
static teal_context *zero_point(const teal_system *sys, int m) {
  teal_context *ctx = teal_context_new(sys, NULL);
  double u[4] = {0};
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, u, m), TEAL_OK);
  return ctx;
}

/* ---- bad input ------------------------------------------------------------ */

/* Calls the solver on the double integrator over [0, 2] with o. */
static int solve_di(const double *Q, const double *R, double t0, double tf,
                    const teal_finite_horizon_lqr_options *o, teal_error *err) {
  double A[4] = {0, 1, 0, 0}, B[2] = {0, 1};
  teal_system *plant = linear_plant(A, B, 2, 1, 0.0);
  teal_context *ctx = zero_point(plant, 1);
  teal_finite_horizon_lqr_result res;
  int rc = teal_finite_horizon_lqr(plant, ctx, t0, tf, Q, R, o, &res, err);
  ck_assert_ptr_null(res.K); /* a failure leaves nothing to free */
  teal_finite_horizon_lqr_result_free(&res);
  teal_context_free(ctx);
  teal_system_free(plant);
  return rc;
}

START_TEST(test_bad_costs_and_times) {
  double Q[4] = {1, 0, 0, 1}, R = 1.0, Rzero = 0.0, Rnan = NAN;
  double Qasym[4] = {1, 0.5, 0, 1}, Qneg[4] = {1, 0, 0, -1}, Qnan[4] = {1, 0, 0, NAN};
  teal_error err;
  TS_EXPECT_ERROR(solve_di(Q, &Rzero, 0, 2, NULL, &err), TEAL_ESINGULAR, &err,
                  "R is not positive definite");
  TS_EXPECT_ERROR(solve_di(Q, &Rnan, 0, 2, NULL, &err), TEAL_ENONFINITE, &err, "R has a NaN");
  TS_EXPECT_ERROR(solve_di(Qasym, &R, 0, 2, NULL, &err), TEAL_EINVAL, &err, "Q is not symmetric");
  TS_EXPECT_ERROR(solve_di(Qneg, &R, 0, 2, NULL, &err), TEAL_EINVAL, &err,
                  "Q is not positive semidefinite");
  TS_EXPECT_ERROR(solve_di(Qnan, &R, 0, 2, NULL, &err), TEAL_ENONFINITE, &err, "Q has a NaN");
  teal_finite_horizon_lqr_options o;
  teal_finite_horizon_lqr_options_init(&o);
  o.Qf = Qneg;
  TS_EXPECT_ERROR(solve_di(Q, &R, 0, 2, &o, &err), TEAL_EINVAL, &err,
                  "Qf is not positive semidefinite");
  o.Qf = NULL;
  double Nnan[2] = {0, NAN};
  o.N = Nnan;
  TS_EXPECT_ERROR(solve_di(Q, &R, 0, 2, &o, &err), TEAL_ENONFINITE, &err, "N has a NaN");
  o.N = NULL;
  o.rtol = 0.0;
  TS_EXPECT_ERROR(solve_di(Q, &R, 0, 2, &o, &err), TEAL_EINVAL, &err, "rtol");
  o.rtol = 1e-10;
  o.max_steps = 3;
  TS_EXPECT_ERROR(solve_di(Q, &R, 0, 2, &o, &err), TEAL_ENOCONV, &err, "max_steps");
  TS_EXPECT_ERROR(solve_di(Q, &R, 2, 2, NULL, &err), TEAL_EINVAL, &err, "must be < tf");
  TS_EXPECT_ERROR(solve_di(Q, &R, NAN, 2, NULL, &err), TEAL_ENONFINITE, &err, "finite");
  TS_EXPECT_ERROR(solve_di(NULL, &R, 0, 2, NULL, &err), TEAL_EINVAL, &err, "needs");
}
END_TEST

START_TEST(test_bad_nominal) {
  double Q[4] = {1, 0, 0, 1}, R = 1.0, breaks[2] = {0.0, 1.5}, samples[4] = {0};
  teal_piecewise_polynomial *short_x0 =
      teal_piecewise_polynomial_first_order_hold(breaks, samples, 2, 2, NULL);
  teal_piecewise_polynomial *wide_u0 =
      teal_piecewise_polynomial_first_order_hold(breaks, samples, 2, 2, NULL);
  teal_finite_horizon_lqr_options o;
  teal_finite_horizon_lqr_options_init(&o);
  o.x0 = short_x0;
  teal_error err;
  TS_EXPECT_ERROR(solve_di(Q, &R, 0, 2, &o, &err), TEAL_EINVAL, &err,
                  "x0 covers [0, 1.5], shorter than the horizon [0, 2]");
  o.x0 = NULL;
  o.u0 = wide_u0;
  TS_EXPECT_ERROR(solve_di(Q, &R, 0, 1, &o, &err), TEAL_EINVAL, &err,
                  "u0 has 2 rows, the plant needs 1");
  teal_piecewise_polynomial_free(short_x0);
  teal_piecewise_polynomial_free(wide_u0);
  /* no u0 and nothing on the input port */
  double A[4] = {0, 1, 0, 0}, B[2] = {0, 1};
  teal_system *plant = linear_plant(A, B, 2, 1, 0.0);
  teal_context *ctx = teal_context_new(plant, NULL);
  teal_finite_horizon_lqr_result res;
  TS_EXPECT_ERROR(teal_finite_horizon_lqr(plant, ctx, 0, 1, Q, &R, NULL, &res, &err), TEAL_EINVAL,
                  &err, "no u0 given");
  teal_context_free(ctx);
  teal_system_free(plant);
}
END_TEST

START_TEST(test_bad_discrete_and_controller) {
  double A[4] = {1, 0.1, 0, 1}, B[2] = {0.005, 0.1}, Q[4] = {1, 0, 0, 1}, R = 1.0;
  teal_system *plant = linear_plant(A, B, 2, 1, 0.1);
  teal_context *ctx = zero_point(plant, 1);
  teal_finite_horizon_lqr_result res;
  teal_error err;
  TS_EXPECT_ERROR(teal_finite_horizon_lqr(plant, ctx, 0, 1.05, Q, &R, NULL, &res, &err),
                  TEAL_EINVAL, &err, "not a whole number of periods");
  /* a negative R is caught before the recursion */
  double Rneg = -(0.005 * 0.005 + 0.1 * 0.1);
  TS_EXPECT_ERROR(teal_finite_horizon_lqr(plant, ctx, 0, 1, Q, &Rneg, NULL, &res, &err),
                  TEAL_ESINGULAR, &err, "R is not positive definite");
  teal_context_free(ctx);
  teal_system_free(plant);
  ck_assert_ptr_null(teal_finite_horizon_lqr_controller_new("c", NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "NULL or empty result"));
  TS_EXPECT_ERROR(teal_finite_horizon_lqr(NULL, NULL, 0, 1, Q, &R, NULL, &res, &err), TEAL_EINVAL,
                  &err, "needs a system");
  TS_EXPECT_ERROR(teal_finite_horizon_lqr(plant, ctx, 0, 1, Q, &R, NULL, NULL, &err), TEAL_EINVAL,
                  &err, "NULL result");
}
END_TEST

/* ---- out of memory ---------------------------------------------------------- */

static const teal_finite_horizon_lqr_result *g_oom_result;

static teal_system *make_oom(teal_error *err, void *user) {
  (void)user;
  return teal_finite_horizon_lqr_controller_new("oom", g_oom_result, err);
}

/* Every allocation of the solver (a short problem of each kind) and of the
 * controller may fail: each failure reports TEAL_ENOMEM and leaves nothing
 * allocated (the sanitizer build checks for leaks). */
START_TEST(test_out_of_memory) {
  double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, Q[4] = {1, 0, 0, 1}, R = 1.0;
  for (int discrete = 0; discrete < 2; discrete++) {
    teal_system *plant = linear_plant(A, B, 2, 1, discrete ? 0.5 : 0.0);
    teal_context *ctx = zero_point(plant, 1);
    teal_finite_horizon_lqr_result res;
    int failures = 0, rc = TEAL_ENOMEM;
    for (long k = 0; k < 100000 && rc != TEAL_OK; k++) {
      teal_error err;
      ts_alloc_install();
      ts_alloc_fail_after(k, 0);
      rc = teal_finite_horizon_lqr(plant, ctx, 0.0, 1.0, Q, &R, NULL, &res, &err);
      ts_alloc_uninstall();
      if (rc != TEAL_OK) {
        ck_assert_msg(rc == TEAL_ENOMEM && err.code == TEAL_ENOMEM, "k %ld: %d %s", k, rc,
                      err.message);
        ck_assert_ptr_null(res.S);
        failures++;
      }
    }
    ck_assert_int_eq(rc, TEAL_OK);
    ck_assert_int_gt(failures, 5);
    g_oom_result = &res;
    ck_assert_int_gt(ts_oom_sweep(make_oom, NULL, "'oom'"), 3);
    teal_finite_horizon_lqr_result_free(&res);
    teal_context_free(ctx);
    teal_system_free(plant);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("finite_horizon_lqr_error_messages");
  TCase *tc = tcase_create("finite_horizon_lqr_error_messages");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_bad_costs_and_times);
  tcase_add_test(tc, test_bad_nominal);
  tcase_add_test(tc, test_bad_discrete_and_controller);
  tcase_add_test(tc, test_out_of_memory);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
