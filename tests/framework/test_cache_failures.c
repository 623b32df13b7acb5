/* Tests for failures in cached evaluation: failures propagate with messages
 * and are retried, and evaluation-time algebraic loops are reported instead
 * of recursing. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"
#include "framework/ticket.h"
#include "support/cache_fixtures.h"
#include "support/test_support.h"

/* ---- failures --------------------------------------------------------- */

typedef struct faulty {
  int mode; /* 0 ok, 1 return ESINGULAR, 2 return a positive code, 3 report own message */
  int calls;
} faulty;

static int faulty_calc(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  faulty *f = user;
  f->calls++;
  switch (f->mode) {
    case 1: return TEAL_ESINGULAR;
    case 2: return 7;
    case 3: return teal_context_report_error(ctx, TEAL_ENOCONV, "custom failure %d", 12);
    default: out[0] = 10.0 * f->calls; return TEAL_OK;
  }
}

static faulty g_faulty;

static teal_system *faulty_new(void) {
  teal_system *sys = teal_leaf_new("faulty", NULL, NULL);
  teal_ticket t = TEAL_TICKET_TIME;
  teal_leaf_declare_vector_output(sys, "y", 1, faulty_calc, &g_faulty, &t, 1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  return sys;
}

START_TEST(test_failing_calc_propagates_and_is_retried) {
  memset(&g_faulty, 0, sizeof g_faulty);
  teal_system *sys = faulty_new();
  teal_context *ctx = ts_cache_new_ctx(sys);
  const double *y;
  g_faulty.mode = 1;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_ESINGULAR);
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_ESINGULAR);
  ck_assert_ptr_nonnull(strstr(e->message, "faulty"));
  ck_assert_ptr_nonnull(strstr(e->message, "'y'"));
  ck_assert_int_eq(g_faulty.calls, 1);
  /* no change, but the failed value is not cached: it is tried again */
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_ESINGULAR);
  ck_assert_int_eq(g_faulty.calls, 2);
  g_faulty.mode = 0;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert(y[0] == 30.0);
  ck_assert_int_eq(g_faulty.calls, 3);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_OK);
  ck_assert_int_eq(g_faulty.calls, 3);
  ck_assert(y[0] == 30.0);
  /* a positive return becomes TEAL_ECALLBACK */
  g_faulty.mode = 2;
  ck_assert_int_eq(teal_context_set_time(ctx, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_ECALLBACK);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_ECALLBACK);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "faulty"));
  /* a callback's own message is kept */
  g_faulty.mode = 3;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, 0, &y), TEAL_ENOCONV);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_ENOCONV);
  ck_assert_str_eq(teal_context_error(ctx)->message, "custom failure 12");
  /* calc (uncached) reports the same way */
  g_faulty.mode = 1;
  double out;
  ck_assert_int_eq(teal_calc_vector_output(sys, ctx, 0, &out), TEAL_ESINGULAR);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "faulty"));
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_failure_downstream_in_diagram) {
  memset(&g_faulty, 0, sizeof g_faulty);
  teal_builder *b = teal_builder_new("outer");
  teal_system *f = teal_builder_add(b, faulty_new());
  teal_system *g = teal_builder_add(b, ts_gain_new("g", 1, 2.0));
  ck_assert_int_eq(teal_builder_connect(b, teal_system_output_port(f, 0),
                                        teal_system_input_port(g, 0)), TEAL_OK);
  teal_system *d = ts_cache_build(b);
  teal_context *ctx = ts_cache_new_ctx(d);
  const teal_context *gc = teal_context_subcontext(ctx, g);
  const double *y;
  g_faulty.mode = 1;
  ck_assert_int_eq(teal_eval_vector_output(g, gc, 0, &y), TEAL_ESINGULAR);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "outer/faulty"));
  g_faulty.mode = 0;
  ck_assert_int_eq(teal_eval_vector_output(g, gc, 0, &y), TEAL_OK);
  ck_assert(y[0] == 2.0 * 10.0 * g_faulty.calls);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_unconnected_upstream_message_kept) {
  /* gain g2 reads gain g1 whose input is unconnected and unfixed */
  teal_builder *b = teal_builder_new("d");
  teal_system *g1 = teal_builder_add(b, ts_gain_new("g1", 1, 2.0));
  teal_system *g2 = teal_builder_add(b, ts_gain_new("g2", 1, 3.0));
  ck_assert_int_eq(teal_builder_connect(b, teal_system_output_port(g1, 0),
                                        teal_system_input_port(g2, 0)), TEAL_OK);
  teal_system *d = ts_cache_build(b);
  teal_context *ctx = ts_cache_new_ctx(d);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(g2, teal_context_subcontext(ctx, g2), 0, &y),
                   TEAL_ENOTCONNECTED);
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_ENOTCONNECTED);
  ck_assert_ptr_nonnull(strstr(e->message, "'u'"));
  ck_assert_ptr_nonnull(strstr(e->message, "g1"));
  double one = 1.0;
  ck_assert_int_eq(teal_context_fix_input(teal_context_subcontext_mut(ctx, g1), 0, &one, 1),
                   TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(g2, teal_context_subcontext(ctx, g2), 0, &y),
                   TEAL_OK);
  ck_assert(y[0] == 6.0);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* ---- algebraic loops at evaluation time ------------------------------- */

static int self_calls;

static int self_entry(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)user;
  self_calls++;
  if (self_calls > 100) {
    return TEAL_EINVAL; /* runaway recursion guard for the test itself */
  }
  const void *me;
  int rc = teal_eval_cache_entry(sys, ctx, 0, &me);
  if (rc) {
    return rc;
  }
  out[0] = ((const double *)me)[0] + 1.0;
  return TEAL_OK;
}

START_TEST(test_cache_entry_evaluating_itself) {
  self_calls = 0;
  teal_system *sys = teal_leaf_new("ouroboros", NULL, NULL);
  teal_ticket t = TEAL_TICKET_TIME; /* declared honestly enough to finalize */
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "tail", 1, self_entry, NULL, &t, 1), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  teal_context *ctx = ts_cache_new_ctx(sys);
  const void *v;
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &v), TEAL_EALGLOOP);
  ck_assert_int_eq(self_calls, 1);
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_EALGLOOP);
  ck_assert_ptr_nonnull(strstr(e->message, "algebraic loop"));
  ck_assert_ptr_nonnull(strstr(e->message, "tail"));
  ck_assert_ptr_nonnull(strstr(e->message, "ouroboros"));
  /* the guard is released: a second attempt fails the same way */
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &v), TEAL_EALGLOOP);
  ck_assert_int_eq(self_calls, 2);
  teal_context_set_caching(ctx, 0);
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &v), TEAL_EALGLOOP);
  ck_assert_int_eq(self_calls, 3);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

static int echo_calls;

/* Declares no feedthrough but reads its own input anyway. */
static int liar_calc(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)user;
  echo_calls++;
  if (echo_calls > 100) {
    return TEAL_EINVAL;
  }
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  out[0] = u[0] + 1.0;
  return TEAL_OK;
}

START_TEST(test_output_fed_back_to_own_input) {
  echo_calls = 0;
  teal_system *liar = teal_leaf_new("liar", NULL, NULL);
  teal_ticket time_only = TEAL_TICKET_TIME;
  teal_leaf_declare_vector_input(liar, "u", 1);
  teal_leaf_declare_vector_output(liar, "y", 1, liar_calc, NULL, &time_only, 1);
  ck_assert_int_eq(teal_leaf_finalize(liar), TEAL_OK);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(liar, 0, 0), 0);
  teal_builder *b = teal_builder_new("loop");
  teal_builder_add(b, liar);
  ck_assert_int_eq(teal_builder_connect(b, teal_system_output_port(liar, 0),
                                        teal_system_input_port(liar, 0)), TEAL_OK);
  teal_system *d = ts_cache_build(b); /* no declared feedthrough: the builder accepts it */
  teal_context *ctx = ts_cache_new_ctx(d);
  const double *y;
  const teal_context *lc = teal_context_subcontext(ctx, liar);
  ck_assert_int_eq(teal_eval_vector_output(liar, lc, 0, &y), TEAL_EALGLOOP);
  ck_assert_int_eq(echo_calls, 1);
  ck_assert_int_eq(teal_context_error(ctx)->code, TEAL_EALGLOOP);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "liar"));
  ck_assert_int_eq(teal_eval_vector_output(liar, lc, 0, &y), TEAL_EALGLOOP);
  ck_assert_int_eq(echo_calls, 2);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

static Suite *cache_failures_suite(void) {
  Suite *s = suite_create("cache_failures");
  TCase *tc = tcase_create("failures");
  tcase_add_test(tc, test_failing_calc_propagates_and_is_retried);
  tcase_add_test(tc, test_failure_downstream_in_diagram);
  tcase_add_test(tc, test_unconnected_upstream_message_kept);
  tcase_add_test(tc, test_cache_entry_evaluating_itself);
  tcase_add_test(tc, test_output_fed_back_to_own_input);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(cache_failures_suite());
}
