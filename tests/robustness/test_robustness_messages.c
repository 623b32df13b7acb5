/* Reliability issue, defects 17 and 18: a fixed input given no values says
 * so instead of "has size 2, got 2", and an evaluation with a NULL system
 * records a message on the context instead of none. (Defect 18's
 * set_integrator(NULL) is in tests/systems/analysis/
 * test_analysis_error_messages.c; the simulator's defects are in
 * test_robustness_simulator.c.) */
#include <check.h>
#include <string.h>

#include "framework/context.h"
#include "framework/ports.h"
#include "support/error_messages.h"
#include "support/test_support.h"

/* Defect 17: the message named the sizes as if they disagreed. */
START_TEST(fix_input_without_values_says_so) {
  teal_system *g = ts_gain_new("g", 2, 2.0);
  teal_context *ctx = teal_context_new(g, NULL);
  const teal_error *e = teal_context_error(ctx);
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_context_fix_input(ctx, 0, NULL, 2), TEAL_EINVAL, e, "value is NULL");
  ck_assert_ptr_null(strstr(e->message, "got 2"));
  /* a real size mismatch still names both sizes */
  double u[3] = {1, 2, 3};
  TS_EXPECT_ERROR(teal_context_fix_input(ctx, 0, u, 3), TEAL_ESIZE, e, "has size 2, got 3");
  teal_context_free(ctx);
  teal_system_free(g);
}
END_TEST

/* Defect 18: eval_vector_output(NULL, ...) returned an error and left the
 * context's record as it was. */
START_TEST(eval_with_null_system_records_a_message) {
  teal_system *g = ts_gain_new("g", 2, 2.0);
  teal_context *ctx = teal_context_new(g, NULL);
  const teal_error *e = teal_context_error(ctx);
  const double *y = NULL;
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_eval_vector_output(NULL, ctx, 0, &y), TEAL_EINVAL, e, "NULL system");
  ck_assert_ptr_null(y);
  teal_context_free(ctx);
  teal_system_free(g);
}
END_TEST

static Suite *messages_suite(void) {
  Suite *s = suite_create("robustness_messages");
  TCase *tc = tcase_create("messages");
  tcase_add_test(tc, fix_input_without_values_says_so);
  tcase_add_test(tc, eval_with_null_system_records_a_message);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(messages_suite());
}
