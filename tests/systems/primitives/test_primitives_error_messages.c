/* Error messages of the primitives' context setters (discrete derivative,
 * low-pass filter, random source, vector log sink): a NULL array, a NULL
 * system or a system of another kind fails with TEAL_EINVAL and a message
 * in the context's record that names the call and the cause; a system that
 * is not in the context fails with TEAL_ENOTFOUND and subcontext's message. */
#include <check.h>
#include <stdlib.h>

#include "framework/context.h"
#include "framework/system.h"
#include "support/error_messages.h"
#include "support/test_support.h"
#include "systems/primitives/discrete_derivative.h"
#include "systems/primitives/first_order_low_pass_filter.h"
#include "systems/primitives/random_source.h"
#include "systems/primitives/vector_log_sink.h"

START_TEST(discrete_derivative_set_input_history) {
  teal_system *dd = teal_discrete_derivative_new("dd", 2, 0.1, NULL);
  teal_system *other = ts_constant_new("c", 2, NULL);
  teal_context *ctx = teal_context_new(dd, NULL);
  const teal_error *e = teal_context_error(ctx);
  double u[2] = {1.0, 2.0};
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_discrete_derivative_set_input_history(dd, ctx, NULL, u), TEAL_EINVAL, e,
                  "set_input_history: u_n is NULL");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_discrete_derivative_set_input_history(dd, ctx, u, NULL), TEAL_EINVAL, e,
                  "u_n_minus_1 is NULL");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_discrete_derivative_set_input_history(other, ctx, u, u), TEAL_EINVAL, e,
                  "not a discrete derivative");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_discrete_derivative_set_input_history(NULL, ctx, u, u), TEAL_EINVAL, e,
                  "NULL system");
  ck_assert_int_eq(teal_discrete_derivative_set_input_history(dd, ctx, u, u), TEAL_OK);
  teal_context_free(ctx);
  teal_system_free(dd);
  teal_system_free(other);
}
END_TEST

START_TEST(low_pass_filter_set_initial_output) {
  double tau[2] = {0.1, 0.2};
  teal_system *f = teal_first_order_low_pass_filter_new("f", tau, 2, NULL);
  teal_context *ctx = teal_context_new(f, NULL);
  const teal_error *e = teal_context_error(ctx);
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_first_order_low_pass_filter_set_initial_output(f, ctx, NULL), TEAL_EINVAL, e,
                  "set_initial_output: z0 is NULL");
  teal_context_free(ctx);
  teal_system_free(f);
}
END_TEST

START_TEST(random_source_and_log_sink_of_another_kind) {
  teal_system *src = teal_random_source_new("noise", TEAL_NOISE_UNIFORM, 1, 0.1, 1, NULL);
  teal_system *sink = teal_vector_log_sink_new("log", 1, 0.0, NULL);
  teal_context *ctx = teal_context_new(sink, NULL);
  const teal_error *e = teal_context_error(ctx);
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_random_source_set_seed(sink, ctx, 7), TEAL_EINVAL, e,
                  "set_seed: the system is not a random source");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_vector_log_sink_clear(src, ctx), TEAL_EINVAL, e,
                  "clear: the system is not a vector log sink");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_vector_log_sink_reserve(NULL, ctx, 8), TEAL_EINVAL, e,
                  "reserve: NULL system");
  ck_assert_int_eq(teal_vector_log_sink_clear(sink, ctx), TEAL_OK);
  ck_assert_int_eq(teal_vector_log_sink_reserve(sink, ctx, 8), TEAL_OK);
  /* a sink that is not in the context: subcontext's own message */
  teal_context *src_ctx = teal_context_new(src, NULL);
  ts_stale_context(src_ctx);
  TS_EXPECT_ERROR(teal_vector_log_sink_clear(sink, src_ctx), TEAL_ENOTFOUND,
                  teal_context_error(src_ctx), "not inside");
  teal_context_free(src_ctx);
  teal_context_free(ctx);
  teal_system_free(src);
  teal_system_free(sink);
}
END_TEST

static Suite *primitives_error_messages_suite(void) {
  Suite *s = suite_create("primitives_error_messages");
  TCase *tc = tcase_create("messages");
  tcase_add_test(tc, discrete_derivative_set_input_history);
  tcase_add_test(tc, low_pass_filter_set_initial_output);
  tcase_add_test(tc, random_source_and_log_sink_of_another_kind);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(primitives_error_messages_suite());
}
