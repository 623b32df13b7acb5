/* Tests of the integrator interface (systems/analysis/integrator.c): step
 * and constructor arguments, nq != nv without a velocity map, an empty ODE. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/error.h"
#include "support/integrator_fixtures.h"
#include "support/ode_problems.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"

/* ---- arguments ------------------------------------------------------------ */

START_TEST(test_bad_step_arguments) {
  problem p = make_problem(1.0);
  teal_ode o = ts_integ_osc_ode(&p);
  teal_integrator *integ = ts_integ_new_for(teal_integrator_rk3, &o);
  double x0[2] = {1.0, 0.0}, x1[2] = {5.0, 5.0};
  static const double bad_h[] = {0.0, -0.1, NAN, INFINITY, -INFINITY};
  for (size_t i = 0; i < sizeof bad_h / sizeof *bad_h; i++) {
    ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, bad_h[i], x0, x1, NULL), TEAL_EINVAL);
    ck_assert_int_eq(teal_integrator_error(integ)->code, TEAL_EINVAL);
    ck_assert_ptr_nonnull(strstr(teal_integrator_error(integ)->message, "step size"));
  }
  ck_assert_int_eq(teal_integrator_step(integ, &o, NAN, 0.1, x0, x1, NULL), TEAL_EINVAL);
  ck_assert_double_eq(x1[0], 5.0); /* nothing written */
  ck_assert_int_eq(p.f_calls, 0);

  /* sizes differ from the instance's */
  teal_ode wrong = ts_integ_decay_ode(&p);
  ck_assert_int_eq(teal_integrator_step(integ, &wrong, 0.0, 0.1, x0, x1, NULL), TEAL_ESIZE);
  ck_assert_int_eq(teal_integrator_error(integ)->code, TEAL_ESIZE);
  ck_assert_ptr_nonnull(strstr(teal_integrator_error(integ)->message, "rk3"));
  teal_ode swapped = {0, 0, 2, osc_f, NULL, NULL, &p}; /* same total, other split */
  ck_assert_int_eq(teal_integrator_step(integ, &swapped, 0.0, 0.1, x0, x1, NULL), TEAL_ESIZE);

  /* missing pieces */
  ck_assert_int_eq(teal_integrator_step(NULL, &o, 0.0, 0.1, x0, x1, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_step(integ, NULL, 0.0, 0.1, x0, x1, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, 0.1, NULL, x1, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, 0.1, x0, NULL, NULL), TEAL_EINVAL);
  teal_ode nof = o;
  nof.derivatives = NULL;
  ck_assert_int_eq(teal_integrator_step(integ, &nof, 0.0, 0.1, x0, x1, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_integrator_get_counts(integ).steps, 0);
  ck_assert_int_eq(p.f_calls, 0);
  teal_integrator_free(integ);
}
END_TEST

START_TEST(test_nq_ne_nv_without_map_refused) {
  /* every method refuses an nq != nv ODE without a map */
  const teal_integrator_type *types[] = {
      teal_integrator_explicit_euler, teal_integrator_semi_explicit_euler, teal_integrator_rk2,
      teal_integrator_rk3, teal_integrator_rk4, teal_integrator_rk45,
      teal_integrator_implicit_euler};
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
    ts_integ_mapped m = {0, 0, NAN};
    teal_ode o = {2, 1, 0, ts_integ_mapped_f, NULL, NULL, &m};
    teal_integrator *integ = teal_integrator_new(types[i], 2, 1, 0, NULL);
    ck_assert_ptr_nonnull(integ);
    double x0[3] = {1.0, 1.0, 1.0}, x1[3];
    ck_assert_int_eq(teal_integrator_step(integ, &o, 0.0, 0.1, x0, x1, NULL), TEAL_EINVAL);
    ck_assert_ptr_nonnull(strstr(teal_integrator_error(integ)->message, "nq != nv"));
    ck_assert_int_eq(m.f_calls, 0);
    teal_integrator_free(integ);
  }
}
END_TEST

START_TEST(test_new_arguments) {
  teal_error err;
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_integrator_new(NULL, 1, 1, 0, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_str_ne(err.message, "");
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_integrator_new(teal_integrator_rk45, -1, 0, 0, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ck_assert_ptr_nonnull(strstr(err.message, "rk45"));
  ck_assert_ptr_null(teal_integrator_new(teal_integrator_rk45, 0, 0, -3, NULL));
  /* an incomplete type table */
  teal_integrator_type partial = *teal_integrator_rk4;
  partial.step = NULL;
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_integrator_new(&partial, 1, 1, 0, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  /* NULL-tolerant accessors */
  teal_integrator_free(NULL);
  teal_integrator_reset(NULL);
  ck_assert_ptr_null(teal_integrator_get_type(NULL));
  ck_assert_ptr_null(teal_integrator_error(NULL));
  ck_assert_int_eq(teal_integrator_get_counts(NULL).steps, 0);
}
END_TEST

/* An ODE with no state still steps (time-only systems). */
START_TEST(test_empty_ode) {
  const teal_integrator_type *types[] = {
      teal_integrator_explicit_euler, teal_integrator_semi_explicit_euler, teal_integrator_rk2,
      teal_integrator_rk3, teal_integrator_rk4, teal_integrator_rk45,
      teal_integrator_implicit_euler};
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
    problem p = make_problem(1.0);
    teal_ode o = {0, 0, 0, decay_f, NULL, NULL, &p};
    teal_integrator *integ = teal_integrator_new(types[i], 0, 0, 0, NULL);
    ck_assert_ptr_nonnull(integ);
    double dummy[1] = {0.0}, out[1] = {0.0};
    ck_assert_msg(teal_integrator_step(integ, &o, 0.0, 0.1, dummy, out, NULL) == TEAL_OK,
                  "%s: %s", types[i]->name, teal_integrator_error(integ)->message);
    teal_integrator_free(integ);
  }
}
END_TEST

static Suite *integrator_suite(void) {
  Suite *s = suite_create("integrator");
  TCase *tc = tcase_create("arguments");
  tcase_add_test(tc, test_bad_step_arguments);
  tcase_add_test(tc, test_nq_ne_nv_without_map_refused);
  tcase_add_test(tc, test_new_arguments);
  tcase_add_test(tc, test_empty_ode);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(integrator_suite());
}
