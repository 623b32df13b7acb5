/* Tests of teal_fd_jacobian (systems/analysis/finite_difference.c): both
 * schemes against the analytic Jacobian of a smooth function, x restored
 * bit for bit, a failing evaluation stopping the sweep, and bad arguments
 * refused before anything is evaluated. */
#include <check.h>
#include <math.h>

#include "framework/error.h"
#include "systems/analysis/finite_difference.h"
#include "support/test_support.h"

static int calls;

/* f(x) = (x0^2 + x1, sin(x0) x1, exp(x1)); fails when x1 > 10 */
static int f3(const double *x, double *out, void *user) {
  (void)user;
  calls++;
  if (x[1] > 10.0) {
    return TEAL_ENONFINITE;
  }
  out[0] = x[0] * x[0] + x[1];
  out[1] = sin(x[0]) * x[1];
  out[2] = exp(x[1]);
  return TEAL_OK;
}

static void exact(const double *x, double *J) {
  J[0] = 2.0 * x[0], J[1] = 1.0;
  J[2] = cos(x[0]) * x[1], J[3] = sin(x[0]);
  J[4] = 0.0, J[5] = exp(x[1]);
}

START_TEST(schemes_match_the_analytic_jacobian) {
  double x[2] = {0.7, -1.3}, x0[2] = {0.7, -1.3}, fx[3], fp[3], fm[3], J[6], Je[6];
  exact(x, Je);
  ck_assert_int_eq(f3(x, fx, NULL), TEAL_OK);
  ck_assert_int_eq(teal_fd_jacobian(TEAL_FD_FORWARD, f3, NULL, x, 2, 3, 1e-8, fx, fp, NULL, J),
                   TEAL_OK);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq_tol(J[i], Je[i], 1e-6);
  }
  ck_assert(x[0] == x0[0] && x[1] == x0[1]);
  calls = 0;
  ck_assert_int_eq(teal_fd_jacobian(TEAL_FD_CENTRAL, f3, NULL, x, 2, 3, 1e-5, NULL, fp, fm, J),
                   TEAL_OK);
  ck_assert_int_eq(calls, 4); /* two evaluations per column */
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq_tol(J[i], Je[i], 1e-9);
  }
  ck_assert(x[0] == x0[0] && x[1] == x0[1]);
}
END_TEST

START_TEST(a_failing_evaluation_stops_and_restores_x) {
  double x[2] = {0.5, 10.0 - 1e-12}, fx[3] = {0}, fp[3], J[6];
  ck_assert_int_eq(teal_fd_jacobian(TEAL_FD_FORWARD, f3, NULL, x, 2, 3, 1e-6, fx, fp, NULL, J),
                   TEAL_ENONFINITE);
  ck_assert(x[0] == 0.5 && x[1] == 10.0 - 1e-12);
}
END_TEST

START_TEST(bad_arguments_are_refused) {
  double x[2] = {0.1, 0.2}, fx[3] = {0}, fp[3] = {0}, fm[3] = {0}, J[6] = {0};
  calls = 0;
  ck_assert_int_eq(teal_fd_jacobian((teal_fd_scheme)7, f3, NULL, x, 2, 3, 1e-6, fx, fp, fm, J),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_fd_jacobian(TEAL_FD_FORWARD, NULL, NULL, x, 2, 3, 1e-6, fx, fp, fm, J),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_fd_jacobian(TEAL_FD_FORWARD, f3, NULL, x, -1, 3, 1e-6, fx, fp, fm, J),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_fd_jacobian(TEAL_FD_FORWARD, f3, NULL, x, 2, 3, 0.0, fx, fp, fm, J),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_fd_jacobian(TEAL_FD_FORWARD, f3, NULL, x, 2, 3, NAN, fx, fp, fm, J),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_fd_jacobian(TEAL_FD_FORWARD, f3, NULL, x, 2, 3, 1e-6, NULL, fp, fm, J),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_fd_jacobian(TEAL_FD_CENTRAL, f3, NULL, x, 2, 3, 1e-6, fx, fp, NULL, J),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_fd_jacobian(TEAL_FD_CENTRAL, f3, NULL, NULL, 2, 3, 1e-6, fx, fp, fm, J),
                   TEAL_EINVAL);
  ck_assert_int_eq(teal_fd_jacobian(TEAL_FD_CENTRAL, f3, NULL, x, 2, 3, 1e-6, fx, fp, fm, NULL),
                   TEAL_EINVAL);
  ck_assert_int_eq(calls, 0);
  /* an empty Jacobian needs no arrays */
  ck_assert_int_eq(teal_fd_jacobian(TEAL_FD_FORWARD, f3, NULL, NULL, 0, 0, 1e-6, NULL, NULL,
                                    NULL, NULL),
                   TEAL_OK);
}
END_TEST

int main(void) {
  Suite *s = suite_create("finite_difference");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, schemes_match_the_analytic_jacobian);
  tcase_add_test(tc, a_failing_evaluation_stops_and_restores_x);
  tcase_add_test(tc, bad_arguments_are_refused);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
