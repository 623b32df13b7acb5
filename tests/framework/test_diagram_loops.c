/* Tests of algebraic loop detection at build (framework/diagram_loops.c):
 * loops through gains, self-loops, loops through nested diagrams, and no loop
 * through (nested) integrators. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"
#include "framework/value.h"
#include "support/diagram_fixtures.h"
#include "support/test_support.h"

/* Make every UBSan report fatal (the suite must be UBSan clean); harmless
 * in builds without the sanitizer. Weak, so a definition elsewhere wins. */
const char *__ubsan_default_options(void);
#if defined(__GNUC__)
__attribute__((weak))
#endif
const char *__ubsan_default_options(void) {
  return "halt_on_error=1:print_stacktrace=1";
}

static int count_substr(const char *s, const char *sub) {
  int n = 0;
  for (const char *p = strstr(s, sub); p; p = strstr(p + strlen(sub), sub)) {
    n++;
  }
  return n;
}

/* ---- algebraic loops -------------------------------------------------- */

START_TEST(test_algebraic_loop_two_gains) {
  int freed[2] = {0};
  teal_builder *b = teal_builder_new("loopy");
  teal_system *g1 = teal_builder_add(b, ts_db_gain_new("g1", 1, 1.0, &freed[0]));
  teal_system *g2 = teal_builder_add(b, ts_db_gain_new("g2", 1, 1.0, &freed[1]));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g1, "y"), ts_db_in_port(g2, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g2, "y"), ts_db_in_port(g1, "u")),
                   TEAL_OK);
  teal_error err;
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_builder_build(b, &err));
  ck_assert_int_eq(err.code, TEAL_EALGLOOP);
  TS_DB_ASSERT_HAS(err.message, "loopy");
  TS_DB_ASSERT_HAS(err.message, "g1.y");
  TS_DB_ASSERT_HAS(err.message, "g2.u");
  TS_DB_ASSERT_HAS(err.message, "g2.y");
  TS_DB_ASSERT_HAS(err.message, "g1.u");
  /* four hops close the cycle: a -> b -> c -> d -> a */
  ck_assert_int_eq(count_substr(err.message, "->"), 4);
  ck_assert_int_eq(freed[0], 1);
  ck_assert_int_eq(freed[1], 1);
}
END_TEST

START_TEST(test_algebraic_loop_self) {
  teal_builder *b = teal_builder_new("self");
  teal_system *g = teal_builder_add(b, ts_db_gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g, "y"), ts_db_in_port(g, "u")), TEAL_OK);
  teal_error err;
  ck_assert_ptr_null(teal_builder_build(b, &err));
  ck_assert_int_eq(err.code, TEAL_EALGLOOP);
  TS_DB_ASSERT_HAS(err.message, "g.y");
  TS_DB_ASSERT_HAS(err.message, "g.u");
  ck_assert_int_eq(count_substr(err.message, "->"), 2);
}
END_TEST

/* inner = {gain} exporting in -> out with feedthrough; the outer diagram
 * closes inner.out -> h -> inner.in: a loop through the nested diagram. */
static teal_system *feedthrough_inner(const char *name, int *freed) {
  teal_builder *b = teal_builder_new(name);
  teal_system *g = teal_builder_add(b, ts_db_gain_new("g", 1, 2.0, freed));
  ck_assert_int_eq(teal_builder_export_input(b, ts_db_in_port(g, "u"), "in"), 0);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g, "y"), "out"), 0);
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  return d;
}

START_TEST(test_algebraic_loop_through_nested_diagram) {
  int freed = 0;
  teal_system *inner = feedthrough_inner("inner", &freed);
  ck_assert(teal_system_has_direct_feedthrough(inner, 0, 0));
  teal_builder *b = teal_builder_new("outer");
  ck_assert_ptr_nonnull(teal_builder_add(b, inner));
  teal_system *h = teal_builder_add(b, ts_db_gain_new("h", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(inner, "out"), ts_db_in_port(h, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(h, "y"), ts_db_in_port(inner, "in")),
                   TEAL_OK);
  teal_error err;
  ck_assert_ptr_null(teal_builder_build(b, &err));
  ck_assert_int_eq(err.code, TEAL_EALGLOOP);
  TS_DB_ASSERT_HAS(err.message, "inner.out");
  TS_DB_ASSERT_HAS(err.message, "h.u");
  TS_DB_ASSERT_HAS(err.message, "h.y");
  TS_DB_ASSERT_HAS(err.message, "inner.in");
  ck_assert_int_eq(count_substr(err.message, "->"), 4);
  ck_assert_int_eq(freed, 1); /* the nested diagram's leaf was freed too */
}
END_TEST

START_TEST(test_no_loop_through_integrator) {
  teal_builder *b = teal_builder_new("fb");
  teal_system *g = teal_builder_add(b, ts_db_gain_new("g", 1, 3.0, NULL));
  teal_system *in = teal_builder_add(b, ts_db_integ_new("int", 1, NULL));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g, "y"), ts_db_in_port(in, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(in, "y"), ts_db_in_port(g, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g, "y"), NULL), 0);
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "unexpected build failure: %s", err.message);
  teal_context *ctx = teal_context_new(d, NULL);
  double z = 2.5;
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, &z, 1), TEAL_OK);
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], 7.5, 1e-15);
  double zdot = 0.0;
  ck_assert_int_eq(teal_calc_time_derivatives(d, ctx, &zdot), TEAL_OK);
  ck_assert_double_eq_tol(zdot, 7.5, 1e-15);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* A loop through a nested diagram whose output does not depend on its
 * input (an integrator inside) is not algebraic. */
START_TEST(test_no_loop_through_nested_integrator) {
  teal_builder *ib = teal_builder_new("inner");
  teal_system *in = teal_builder_add(ib, ts_db_integ_new("int", 1, NULL));
  ck_assert_int_eq(teal_builder_export_input(ib, ts_db_in_port(in, "u"), "in"), 0);
  ck_assert_int_eq(teal_builder_export_output(ib, ts_db_out_port(in, "y"), "out"), 0);
  teal_system *inner = teal_builder_build(ib, NULL);
  ck_assert_ptr_nonnull(inner);
  ck_assert(!teal_system_has_direct_feedthrough(inner, 0, 0));

  teal_builder *b = teal_builder_new("outer");
  teal_builder_add(b, inner);
  teal_system *h = teal_builder_add(b, ts_db_gain_new("h", 1, -1.0, NULL));
  ck_assert_int_eq(teal_builder_connect_by_name(b, "inner", "out", "h", "u"), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "h", "y", "inner", "in"), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(h, "y"), "y"), 0);
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "unexpected build failure: %s", err.message);
  teal_context *ctx = teal_context_new(d, NULL);
  double z = 4.0, zdot = 0.0;
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, &z, 1), TEAL_OK);
  ck_assert_int_eq(teal_calc_time_derivatives(d, ctx, &zdot), TEAL_OK);
  ck_assert_double_eq_tol(zdot, -4.0, 1e-15);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

static Suite *diagram_loops_suite(void) {
  Suite *s = suite_create("diagram_loops");
  TCase *tc = tcase_create("loops");
  tcase_add_test(tc, test_algebraic_loop_two_gains);
  tcase_add_test(tc, test_algebraic_loop_self);
  tcase_add_test(tc, test_algebraic_loop_through_nested_diagram);
  tcase_add_test(tc, test_no_loop_through_integrator);
  tcase_add_test(tc, test_no_loop_through_nested_integrator);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(diagram_loops_suite());
}
