/* Tests of the leaf-writing helpers of framework/leaf_util.h (checks,
 * copies, identity blocks, finalize-or-free) and of every primitive
 * constructor built on them under allocation failure: each failure point
 * gives TEAL_ENOMEM (or a clean success) and leaks nothing. */
#include "framework/context.h"
#include "framework/leaf_util.h"

#include "support/primitives_test_util.h"
#include "support/test_support.h"
#include "systems/primitives/adder.h"
#include "systems/primitives/constant_vector_source.h"
#include "systems/primitives/demultiplexer.h"
#include "systems/primitives/gain.h"
#include "systems/primitives/integrator_system.h"
#include "systems/primitives/linear_system.h"
#include "systems/primitives/matrix_gain.h"
#include "systems/primitives/multiplexer.h"
#include "systems/primitives/pass_through.h"
#include "systems/primitives/ramp.h"
#include "systems/primitives/saturation.h"
#include "systems/primitives/sine.h"
#include "systems/primitives/step.h"

START_TEST(test_checks) {
  teal_error err;
  teal_error_clear(&err);
  ck_assert_int_eq(teal_leaf_util_check_count(&err, "k", "s", "n", 1, 1), TEAL_OK);
  ck_assert_int_eq(err.code, TEAL_OK);
  ck_assert_int_eq(teal_leaf_util_check_count(&err, "kind", "sys", "n", 0, 1), TEAL_ESIZE);
  ck_assert_str_eq(err.message, "kind 'sys': n = 0 must be >= 1");
  ck_assert_int_eq(teal_leaf_util_check_count(&err, "kind", NULL, "n", -1, 0), TEAL_ESIZE);
  ASSERT_HAS(err.message, "'leaf'");
  const double v[3] = {1.0, INFINITY, NAN};
  ck_assert_int_eq(teal_leaf_util_check_finite(&err, "k", "s", "v", v, 1), TEAL_OK);
  ck_assert_int_eq(teal_leaf_util_check_finite(&err, "k", "s", "v", v, 2), TEAL_ENONFINITE);
  ASSERT_HAS(err.message, "v[1]");
  ck_assert_int_eq(teal_leaf_util_check_not_nan(&err, "k", "s", "v", v, 2), TEAL_OK);
  ck_assert_int_eq(teal_leaf_util_check_not_nan(&err, "k", "s", "v", v, 3), TEAL_ENONFINITE);
  ASSERT_HAS(err.message, "v[2]");
  ck_assert_int_eq(teal_leaf_util_check_finite(&err, "k", "s", "v", NULL, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_leaf_util_check_finite(&err, "k", "s", "v", NULL, 0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_util_check_scalar(&err, "k", "s", "x", 2.0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_util_check_scalar(&err, "k", "s", "x", -INFINITY), TEAL_ENONFINITE);
  /* NULL err is fine */
  ck_assert_int_eq(teal_leaf_util_check_count(NULL, "k", "s", "n", 0, 1), TEAL_ESIZE);
}
END_TEST

START_TEST(test_sizes_and_offsets) {
  const int sizes[3] = {2, 3, 1}, bad[2] = {1, 0};
  int off[4];
  teal_error err;
  ck_assert_int_eq(teal_leaf_util_check_sizes(&err, "k", "s", "sz", sizes, 3, off), TEAL_OK);
  ck_assert_int_eq(off[0], 0);
  ck_assert_int_eq(off[1], 2);
  ck_assert_int_eq(off[2], 5);
  ck_assert_int_eq(off[3], 6);
  ck_assert_int_eq(teal_leaf_util_check_sizes(&err, "k", "s", "sz", bad, 2, NULL), TEAL_ESIZE);
  ASSERT_HAS(err.message, "sz[1] = 0");
  ck_assert_int_eq(teal_leaf_util_check_sizes(&err, "k", "s", "sz", NULL, 2, NULL), TEAL_EINVAL);
}
END_TEST

START_TEST(test_copy_and_identity) {
  double d[6] = {9, 9, 9, 9, 9, 9};
  const double src[2] = {1.0, 2.0};
  teal_leaf_util_copy(d, src, 2);
  ck_assert_double_eq(d[1], 2.0);
  teal_leaf_util_copy(d, NULL, 2);
  ck_assert_double_eq(d[0], 0.0);
  ck_assert_double_eq(d[1], 0.0);
  ck_assert_double_eq(d[2], 9.0);
  /* 3 x 2 with the identity block starting at row 1 */
  teal_leaf_util_identity_block(d, 3, 2, 1, 0);
  const double want[6] = {0, 0, 1, 0, 0, 1};
  ASSERT_VEC_NEAR(d, want, 6, 0.0);
  /* 2 x 3 with the block starting at column 1 */
  teal_leaf_util_identity_block(d, 2, 3, 0, 1);
  const double want2[6] = {0, 1, 0, 0, 0, 1};
  ASSERT_VEC_NEAR(d, want2, 6, 0.0);
}
END_TEST

START_TEST(test_finish) {
  teal_error err;
  ck_assert_ptr_null(teal_leaf_util_finish(NULL, &err));
  teal_system *s = teal_leaf_new("x", NULL, NULL);
  teal_leaf_declare_vector_input(s, "u", -1); /* sticky error */
  ck_assert_ptr_null(teal_leaf_util_finish(s, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ASSERT_HAS(err.message, "'x'");
  s = teal_leaf_new("y", NULL, NULL);
  ck_assert_ptr_eq(teal_leaf_util_finish(s, &err), s);
  ck_assert_int_eq(err.code, TEAL_OK);
  teal_system_free(s);
}
END_TEST

/* ---- allocation failure sweep ------------------------------------------ */

static const double kM[4] = {1.0, 2.0, 3.0, 4.0};
static const int kSizes[2] = {1, 2};

static teal_system *make(int which, teal_error *err) {
  switch (which) {
    case 0: return teal_constant_vector_source_new("c", kM, 2, err);
    case 1: return teal_gain_new("g", 2.0, 2, err);
    case 2: return teal_matrix_gain_new("m", kM, 2, 2, err);
    case 3: return teal_adder_new("a", 3, 2, err);
    case 4: return teal_integrator_system_new_with_initial("i", kM, 2, err);
    case 5: return teal_affine_system_new("l", kM, kM, kM, kM, kM, kM, 2, 2, 2, 0.0, err);
    case 6: return teal_linear_system_new("d", kM, kM, kM, NULL, 2, 2, 2, 0.1, err);
    case 7: return teal_multiplexer_new("mx", kSizes, 2, err);
    case 8: return teal_demultiplexer_new("dx", kSizes, 2, err);
    case 9: return teal_pass_through_new("p", 2, err);
    case 10: return teal_pass_through_abstract_new("pa", &ts_buf_type, err);
    case 11: return teal_saturation_new("s", kM, kM + 2, 2, err);
    case 12: return teal_saturation_variable_new("sv", 2, err);
    case 13: return teal_sine_new("sn", kM, kM, kM, 2, err);
    case 14: return teal_ramp_new("r", kM, 0.0, kM, 2, err);
    default: return teal_step_new("st", 1.0, kM, kM, 2, err);
  }
}

/* The message of a leaf's context call that could not run, for each
 * outcome of the own-context lookup. */
START_TEST(test_bad_call_messages) {
  teal_system *g = ts_gain_new("g", 1, 2.0);
  teal_context *ctx = teal_context_new(g, NULL);
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(teal_leaf_util_bad_call(g, ctx, TEAL_OK, "gain", "a gain", "reset", "x"),
                   TEAL_EINVAL);
  ck_assert_str_eq(e->message, "gain 'g': reset: x is NULL");
  ck_assert_int_eq(teal_leaf_util_bad_call(g, ctx, TEAL_EINVAL, "sink", "a sink", "clear", ""),
                   TEAL_EINVAL);
  ck_assert_str_eq(e->message, "sink: clear: the system is not a sink");
  teal_leaf_util_bad_call(NULL, ctx, TEAL_EINVAL, "sink", "a sink", "clear", "");
  ck_assert_str_eq(e->message, "sink: clear: NULL system");
  /* not found already carries its message; a NULL context records nothing */
  ck_assert_int_eq(teal_leaf_util_bad_call(g, ctx, TEAL_ENOTFOUND, "k", "w", "f", ""),
                   TEAL_ENOTFOUND);
  ck_assert_str_eq(e->message, "sink: clear: NULL system");
  ck_assert_int_eq(teal_leaf_util_bad_call(g, NULL, TEAL_OK, "k", "w", "f", "x"), TEAL_EINVAL);
  teal_context_free(ctx);
  teal_system_free(g);
}
END_TEST

START_TEST(test_allocation_failures) {
  int which = _i;
  ts_alloc_install();
  int succeeded = 0;
  for (long k = 0; k < 200 && !succeeded; k++) {
    ts_alloc_reset();
    ts_alloc_fail_after(k, 0);
    teal_error err;
    teal_system *s = make(which, &err);
    if (s) {
      succeeded = 1;
      teal_context *ctx = teal_context_new(s, NULL);
      teal_context_free(ctx);
      teal_system_free(s);
    } else {
      ck_assert_msg(err.code == TEAL_ENOMEM, "system %d, failure %ld: %d %s", which, k,
                    err.code, err.message);
    }
    ck_assert_msg(ts_alloc_allocs() == ts_alloc_frees(), "system %d, failure %ld: %lu allocs, "
                  "%lu frees", which, k, ts_alloc_allocs(), ts_alloc_frees());
  }
  ts_alloc_uninstall();
  ck_assert(succeeded);
}
END_TEST

int main(void) {
  Suite *s = suite_create("leaf_util");
  TCase *tc = tcase_create("helpers");
  tcase_add_test(tc, test_checks);
  tcase_add_test(tc, test_sizes_and_offsets);
  tcase_add_test(tc, test_copy_and_identity);
  tcase_add_test(tc, test_finish);
  tcase_add_test(tc, test_bad_call_messages);
  suite_add_tcase(s, tc);
  tc = tcase_create("allocation");
  tcase_add_loop_test(tc, test_allocation_failures, 0, 16);
  suite_add_tcase(s, tc);
  return pt_run(s);
}
