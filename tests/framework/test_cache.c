/* Tests for cache entries (framework/cache.c): evaluation, Calc that does not
 * touch the cache, and caching turned off (recomputes on every eval, same
 * results as cached). */
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

/* ---- cache entries ---------------------------------------------------- */

START_TEST(test_cache_entries) {
  teal_system *sys = ts_cache_probe_new("probe");
  teal_context *ctx = ts_cache_new_ctx(sys);
  ts_cache_fix_inputs(ctx, 0.0, 0.5);
  ts_cache_probe *p = ts_cache_probe_of(sys);
  const void *e;
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &e), TEAL_OK);
  ck_assert(((const double *)e)[0] == 1.0 + 0.5);
  ck_assert_int_eq(p->entry_calls, 1);
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &e), TEAL_OK);
  ck_assert_int_eq(p->entry_calls, 1);
  /* the output depending on the entry uses the cached entry */
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_O_E, &y), TEAL_OK);
  ck_assert(y[0] == 2.5);
  ck_assert_int_eq(p->entry_calls, 1);
  ck_assert_int_eq(p->calls[TS_CACHE_O_E], 1);
  /* v does not matter to either */
  teal_context_v_mut(ctx)[0] = 100.0;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_O_E, &y), TEAL_OK);
  ck_assert_int_eq(p->entry_calls, 1);
  ck_assert_int_eq(p->calls[TS_CACHE_O_E], 1);
  /* q does: evaluating the output recomputes the entry once */
  teal_context_q_mut(ctx)[0] = 3.0;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_O_E, &y), TEAL_OK);
  ck_assert(y[0] == 9.0 + 0.5 + 1.0);
  ck_assert_int_eq(p->entry_calls, 2);
  ck_assert_int_eq(p->calls[TS_CACHE_O_E], 2);
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &e), TEAL_OK);
  ck_assert(((const double *)e)[0] == 9.5);
  ck_assert_int_eq(p->entry_calls, 2);
  /* abstract entry */
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 1, &e), TEAL_OK);
  ck_assert(((const ts_cache_box *)e)->x == 6.0);
  ck_assert_int_eq(p->abs_entry_calls, 1);
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 1, &e), TEAL_OK);
  ck_assert_int_eq(p->abs_entry_calls, 1);
  teal_context_q_mut(ctx)[0] = -1.0;
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 1, &e), TEAL_OK);
  ck_assert(((const ts_cache_box *)e)->x == -2.0);
  ck_assert_int_eq(p->abs_entry_calls, 2);
  /* bad indices */
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 2, &e), TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "probe"));
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, -1, &e), TEAL_ENOTFOUND);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_calc_does_not_touch_cache) {
  teal_system *sys = ts_cache_probe_new("probe");
  teal_context *ctx = ts_cache_new_ctx(sys);
  ts_cache_fix_inputs(ctx, 0.0, 0.0);
  ts_cache_probe *p = ts_cache_probe_of(sys);
  const double *y;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_O_Q, &y), TEAL_OK);
  ck_assert_int_eq(p->calls[TS_CACHE_O_Q], 1);
  double out = 0.0;
  ck_assert_int_eq(teal_calc_vector_output(sys, ctx, TS_CACHE_O_Q, &out), TEAL_OK);
  ck_assert(out == 1.0);
  ck_assert_int_eq(p->calls[TS_CACHE_O_Q], 2);
  ck_assert_int_eq(teal_calc_vector_output(sys, ctx, TS_CACHE_O_Q, &out), TEAL_OK);
  ck_assert_int_eq(p->calls[TS_CACHE_O_Q], 3);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_O_Q, &y), TEAL_OK);
  ck_assert_int_eq(p->calls[TS_CACHE_O_Q], 3); /* still cached */
  /* calc of a never-evaluated output leaves it unevaluated */
  ck_assert_int_eq(teal_calc_vector_output(sys, ctx, TS_CACHE_O_V, &out), TEAL_OK);
  ck_assert(out == 2.0);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_O_V, &y), TEAL_OK);
  ck_assert_int_eq(p->calls[TS_CACHE_O_V], 2);
  ts_cache_box b = {0};
  ck_assert_int_eq(teal_calc_abstract_output(sys, ctx, TS_CACHE_O_VBOX, &b), TEAL_OK);
  ck_assert(b.x == 6.0);
  /* kind and index checks */
  const void *a;
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_O_VBOX, &y), TEAL_ETYPE);
  ck_assert_int_eq(teal_eval_abstract_output(sys, ctx, TS_CACHE_O_Q, &a), TEAL_ETYPE);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_NOUT, &y), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, -1, &y), TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_calc_vector_output(sys, ctx, TS_CACHE_O_Q, NULL), TEAL_EINVAL);
  /* a NULL result pointer is an error with a message, never a store */
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_O_Q, NULL), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "NULL result pointer"));
  ck_assert_int_eq(teal_eval_abstract_output(sys, ctx, TS_CACHE_O_VBOX, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_calc_abstract_output(sys, ctx, TS_CACHE_O_VBOX, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_eval_vector_input(sys, ctx, 0, NULL), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "eval_vector_input"));
  ck_assert_int_eq(teal_eval_abstract_input(sys, ctx, 0, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, NULL), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "eval_cache_entry"));
  /* a context of another system */
  teal_system *other = ts_cache_probe_new("other");
  ck_assert_int_eq(teal_eval_vector_output(other, ctx, TS_CACHE_O_Q, &y), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "other"));
  teal_system_free(other);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* ---- caching disabled ------------------------------------------------- */

START_TEST(test_caching_disabled_recomputes_every_eval) {
  teal_system *sys = ts_cache_probe_new("probe");
  teal_context *ctx = ts_cache_new_ctx(sys);
  ts_cache_fix_inputs(ctx, 0.0, 0.0);
  teal_context_set_caching(ctx, 0);
  ts_cache_probe *p = ts_cache_probe_of(sys);
  const double *y;
  for (int k = 1; k <= 3; k++) {
    ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_O_T, &y), TEAL_OK);
    ck_assert(y[0] == 0.0);
    ck_assert_int_eq(p->calls[TS_CACHE_O_T], k);
    ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_O_E, &y), TEAL_OK);
    ck_assert_int_eq(p->calls[TS_CACHE_O_E], k);
    ck_assert_int_eq(p->entry_calls, k);
  }
  /* turned back on, repeated evaluations hit the cache again */
  teal_context_set_caching(ctx, 1);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_O_T, &y), TEAL_OK);
  int after_first = p->calls[TS_CACHE_O_T];
  ck_assert_int_le(after_first, 4);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_O_T, &y), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(sys, ctx, TS_CACHE_O_T, &y), TEAL_OK);
  ck_assert_int_eq(p->calls[TS_CACHE_O_T], after_first);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_caching_disabled_matches_cached_results) {
  ts_cache_wired w = ts_cache_wired_new();
  teal_context *cached = ts_cache_new_ctx(w.outer);
  teal_context *uncached = ts_cache_new_ctx(w.outer);
  teal_context_set_caching(uncached, 0);
  teal_context *ctxs[2] = {cached, uncached};
  unsigned seed = 12345u;
  int checked = 0;
  for (int step = 0; step < 400; step++) {
    int kind = (int)(ts_rand_next(&seed) % 9);
    double val = ts_rand_uniform(&seed, -5.0, 5.0);
    for (int k = 0; k < 2; k++) {
      teal_context *ctx = ctxs[k];
      teal_context *leaf = teal_context_subcontext_mut(ctx, w.ts_cache_probe);
      switch (kind) {
        case 0: ck_assert_int_eq(teal_context_set_time(ctx, val), TEAL_OK); break;
        case 1: teal_context_q_mut(leaf)[0] = val; break;
        case 2: teal_context_v_mut(ctx)[0] = val; break;
        case 3: teal_context_z_mut(ctx)[2] = val; break;
        case 4: teal_context_discrete_group_mut(leaf, (int)(fabs(val) * 10) % 2)[0] = val; break;
        case 5:
          ((ts_cache_box *)teal_context_abstract_state_mut(leaf, 0))->x = val;
          break;
        case 6:
          ck_assert_int_eq(teal_context_set_numeric_parameter(
                               teal_context_subcontext_mut(ctx, w.src), 0, &val, 1), TEAL_OK);
          break;
        case 7: teal_context_numeric_parameter_mut(leaf, 1)[0] = val; break;
        case 8:
          teal_context_numeric_parameter_mut(teal_context_subcontext_mut(ctx, w.src1), 0)[0] = val;
          break;
        default: break;
      }
    }
    /* evaluate a random subset of outputs, in random order, on both */
    int nevals = 1 + (int)(ts_rand_next(&seed) % TS_CACHE_NOUT);
    for (int e = 0; e < nevals; e++) {
      int o = (int)(ts_rand_next(&seed) % TS_CACHE_NOUT);
      double a = NAN, b = NAN;
      ck_assert_int_eq(ts_cache_eval_probe(w.ts_cache_probe,
                                           teal_context_subcontext(cached, w.ts_cache_probe), o,
                                           &a),
                       TEAL_OK);
      ck_assert_int_eq(ts_cache_eval_probe(w.ts_cache_probe,
                                           teal_context_subcontext(uncached, w.ts_cache_probe), o,
                                           &b),
                       TEAL_OK);
      ck_assert_msg(a == b, "step %d output '%s': cached %.17g, uncached %.17g", step,
                    ts_cache_k_out_names[o], a, b);
      ck_assert(b == ts_cache_expected_value(
                         w.ts_cache_probe, teal_context_subcontext(uncached, w.ts_cache_probe), o));
      checked++;
    }
    const double *ya, *yb;
    ck_assert_int_eq(teal_eval_vector_output(w.outer, cached, 0, &ya), TEAL_OK);
    ck_assert_int_eq(teal_eval_vector_output(w.outer, uncached, 0, &yb), TEAL_OK);
    ck_assert(ya[0] == yb[0]);
  }
  ck_assert_int_gt(checked, 400);
  teal_context_free(cached);
  teal_context_free(uncached);
  teal_system_free(w.outer);
}
END_TEST

/* ---- staleness queries and forced invalidation ----------------------------- */

START_TEST(test_entry_up_to_date_and_invalidate) {
  teal_system *sys = ts_cache_probe_new("probe");
  teal_context *ctx = ts_cache_new_ctx(sys);
  ts_cache_fix_inputs(ctx, 0.0, 0.5);
  ts_cache_probe *p = ts_cache_probe_of(sys);
  const void *e;
  ck_assert_int_eq(teal_cache_entry_is_up_to_date(sys, ctx, 0), 0); /* never computed */
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &e), TEAL_OK);
  ck_assert_int_eq(teal_cache_entry_is_up_to_date(sys, ctx, 0), 1);
  /* forced invalidation recomputes once, to the same value */
  ck_assert_int_eq(teal_cache_entry_invalidate(sys, ctx, 0), TEAL_OK);
  ck_assert_int_eq(teal_cache_entry_is_up_to_date(sys, ctx, 0), 0);
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &e), TEAL_OK);
  ck_assert_int_eq(p->entry_calls, 2);
  ck_assert(((const double *)e)[0] == 1.5);
  ck_assert_int_eq(teal_cache_entry_is_up_to_date(sys, ctx, 0), 1);
  /* a change of a prerequisite makes it stale; one it ignores does not */
  teal_context_v_mut(ctx)[0] = 3.0;
  ck_assert_int_eq(teal_cache_entry_is_up_to_date(sys, ctx, 0), 1);
  ts_cache_fix_inputs(ctx, 0.0, 0.25);
  ck_assert_int_eq(teal_cache_entry_is_up_to_date(sys, ctx, 0), 0);
  ck_assert_int_eq(teal_eval_cache_entry(sys, ctx, 0, &e), TEAL_OK);
  ck_assert_int_eq(p->entry_calls, 3);
  /* with caching off nothing is ever up to date */
  teal_context_set_caching(ctx, 0);
  ck_assert_int_eq(teal_cache_entry_is_up_to_date(sys, ctx, 0), 0);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_entry_queries_reject_bad_entries) {
  teal_system *sys = ts_cache_probe_new("probe");
  teal_context *ctx = ts_cache_new_ctx(sys);
  ck_assert_int_eq(teal_cache_entry_is_up_to_date(sys, ctx, -1), TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "no cache entry -1"));
  ck_assert_int_eq(teal_cache_entry_invalidate(sys, ctx, 99), TEAL_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "cache_entry_invalidate"));
  ck_assert_ptr_nonnull(strstr(teal_context_error(ctx)->message, "'probe'"));
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

static Suite *cache_suite(void) {
  Suite *s = suite_create("cache");
  TCase *tc = tcase_create("entries");
  tcase_add_test(tc, test_cache_entries);
  tcase_add_test(tc, test_calc_does_not_touch_cache);
  suite_add_tcase(s, tc);

  tc = tcase_create("staleness");
  tcase_add_test(tc, test_entry_up_to_date_and_invalidate);
  tcase_add_test(tc, test_entry_queries_reject_bad_entries);
  suite_add_tcase(s, tc);

  tc = tcase_create("disabled");
  tcase_add_test(tc, test_caching_disabled_recomputes_every_eval);
  tcase_add_test(tc, test_caching_disabled_matches_cached_results);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(cache_suite());
}
