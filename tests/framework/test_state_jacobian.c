/* The composed state Jacobian (framework/state_jacobian.h): closed loops of
 * linear systems against their closed-form closed-loop matrix and against
 * central differences of the time derivatives, nested diagrams, leaves
 * without hooks (constant outputs allowed, feedthrough or state refused),
 * a hook that declines, bad input, and no allocation in calc. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/context_access.h"
#include "framework/diagram_builder.h"
#include "framework/leaf_system.h"
#include "framework/ports.h"
#include "framework/state_jacobian.h"
#include "framework/system.h"
#include "framework/system_dynamics.h"
#include "support/error_messages.h"
#include "support/sim_fixtures.h"
#include "support/leaf_fixtures.h"
#include "support/test_support.h"
#include "systems/primitives/gain.h"
#include "systems/primitives/linear_system.h"
#include "systems/primitives/zero_order_hold.h"

/* plant: x' = A x + B u, y = C x (3 states, 2 inputs, 2 outputs) */
static const double kA[9] = {0.1, 1.0, 0.0, -2.0, -0.3, 0.5, 0.0, 0.4, -1.0};
static const double kB[6] = {1.0, 0.0, 0.0, 2.0, 0.5, -1.0};
static const double kC[6] = {1.0, 0.0, 0.5, 0.0, -1.0, 2.0};
/* controller: xc' = Ac xc + Bc w, u = Cc xc + Dc w (2 states) */
static const double kAc[4] = {-1.0, 0.2, 0.0, -3.0};
static const double kBc[4] = {1.0, 0.5, -0.5, 2.0};
static const double kCc[4] = {0.3, -1.0, 1.5, 0.7};
static const double kDc[4] = {-2.0, 0.4, 0.1, -1.2};
static const double kGain = 0.5;

static teal_system *plant_new(void) {
  return teal_linear_system_new("plant", kA, kB, kC, NULL, 3, 2, 2, 0.0, NULL);
}

/* gain then stateful controller, optionally wrapped in a diagram "ctrl" */
static void add_controller(teal_builder *b, int nested) {
  teal_builder *inner = nested ? teal_builder_new("ctrl") : b;
  teal_builder_add(inner, teal_gain_new("gain", kGain, 2, NULL));
  teal_builder_add(inner, teal_linear_system_new("comp", kAc, kBc, kCc, kDc, 2, 2, 2, 0.0, NULL));
  ts_sim_connect(inner, "gain", "y", "comp", "u");
  if (nested) {
    teal_system *g = teal_builder_find(inner, "gain"), *c = teal_builder_find(inner, "comp");
    teal_builder_export_input(inner, teal_system_input_port(g, 0), "w");
    teal_builder_export_output(inner, teal_system_output_port(c, 0), "u");
    teal_builder_add(b, ts_sim_build(inner));
  }
}

static teal_system *loop_new(int nested) {
  teal_builder *b = teal_builder_new("loop");
  teal_builder_add(b, plant_new());
  add_controller(b, nested);
  ts_sim_connect(b, "plant", "y", nested ? "ctrl" : "gain", nested ? "w" : "u");
  ts_sim_connect(b, nested ? "ctrl" : "comp", nested ? "u" : "y", "plant", "u");
  return ts_sim_build(b);
}

/* The closed loop in z = [x; xc]: [[A + k B Dc C, B Cc], [k Bc C, Ac]]. */
static void closed_form(double J[25]) {
  memset(J, 0, 25 * sizeof(double));
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      double s = kA[i * 3 + j];
      for (int a = 0; a < 2; a++) {
        for (int c = 0; c < 2; c++) {
          s += kGain * kB[i * 2 + a] * kDc[a * 2 + c] * kC[c * 3 + j];
        }
      }
      J[i * 5 + j] = s;
    }
    for (int j = 0; j < 2; j++) {
      J[i * 5 + 3 + j] = kB[i * 2] * kCc[j] + kB[i * 2 + 1] * kCc[2 + j];
    }
  }
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 3; j++) {
      J[(3 + i) * 5 + j] = kGain * (kBc[i * 2] * kC[j] + kBc[i * 2 + 1] * kC[3 + j]);
    }
    for (int j = 0; j < 2; j++) {
      J[(3 + i) * 5 + 3 + j] = kAc[i * 2 + j];
    }
  }
}

/* Central differences of the whole system's time derivatives. */
static void central_differences(const teal_system *sys, teal_context *ctx, int n, double *J) {
  double x[16], fp[16], fm[16];
  teal_context_get_continuous_state(ctx, x, n);
  for (int j = 0; j < n; j++) {
    double h = 1e-6 * fmax(1.0, fabs(x[j])), xj = x[j];
    x[j] = xj + h;
    teal_context_set_continuous_state(ctx, x, n);
    ck_assert_int_eq(teal_calc_time_derivatives(sys, ctx, fp), TEAL_OK);
    x[j] = xj - h;
    teal_context_set_continuous_state(ctx, x, n);
    ck_assert_int_eq(teal_calc_time_derivatives(sys, ctx, fm), TEAL_OK);
    x[j] = xj;
    for (int i = 0; i < n; i++) {
      J[i * n + j] = (fp[i] - fm[i]) / (2 * h);
    }
  }
  teal_context_set_continuous_state(ctx, x, n);
}

static double max_diff(const double *a, const double *b, int n) {
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    m = fmax(m, fabs(a[i] - b[i]));
  }
  return m;
}

/* A loop through a gain and a stateful controller with feedthrough, flat
 * and nested: the closed-form closed-loop matrix, and differences agree. */
START_TEST(test_closed_loop_matches_closed_form) {
  teal_system *sys = loop_new(_i);
  teal_context *ctx = teal_context_new(sys, NULL);
  const double x[5] = {0.3, -0.2, 1.1, 0.4, -0.7};
  teal_context_set_continuous_state(ctx, x, 5);
  teal_error err = {0};
  teal_state_jacobian *sj = teal_state_jacobian_new(ctx, &err);
  ck_assert_msg(sj != NULL, "%s", err.message);
  double J[25], ref[25], fd[25];
  ck_assert_int_eq(teal_state_jacobian_calc(sj, ctx, J), TEAL_OK);
  closed_form(ref);
  ck_assert_double_le(max_diff(J, ref, 25), 1e-14);
  central_differences(sys, ctx, 5, fd);
  ck_assert_double_le(max_diff(J, fd, 25), 1e-8);
  /* the plant's rows: plant (-1, y), gain (u, y), comp (u, y), plant (u, -1);
   * the controller's: comp (u, -1), the gain's output being known by then */
  ck_assert_int_eq(teal_state_jacobian_hook_calls(sj), 5);
  /* a second call differentiates every output again (nothing stale) */
  teal_context_set_continuous_state(ctx, fd, 5);
  ck_assert_int_eq(teal_state_jacobian_calc(sj, ctx, J), TEAL_OK);
  ck_assert_int_eq(teal_state_jacobian_hook_calls(sj), 10);
  ck_assert_double_le(max_diff(J, ref, 25), 1e-14);
  teal_state_jacobian_free(sj);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* A zero-order hold (no hook, no continuous state, its output held in
 * discrete state) cuts the loop: J is the plant's A alone. */
START_TEST(test_hookless_constant_output_is_constant) {
  teal_builder *b = teal_builder_new("sampled");
  teal_builder_add(b, plant_new());
  teal_builder_add(b, teal_zero_order_hold_new("zoh", 0.1, 0.0, 2, NULL));
  ts_sim_connect(b, "plant", "y", "zoh", "u");
  ts_sim_connect(b, "zoh", "y", "plant", "u");
  teal_system *sys = ts_sim_build(b);
  teal_context *ctx = teal_context_new(sys, NULL);
  teal_state_jacobian *sj = teal_state_jacobian_new(ctx, NULL);
  ck_assert_ptr_nonnull(sj);
  double J[9];
  ck_assert_int_eq(teal_state_jacobian_calc(sj, ctx, J), TEAL_OK);
  ck_assert_double_le(max_diff(J, kA, 9), 0.0);
  teal_state_jacobian_free(sj);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

/* ---- leaves without hooks, and a hook that declines --------------------- */

static int copy_output(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)user;
  const double *u = NULL;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc == TEAL_OK) {
    memcpy(out, u, 2 * sizeof(double));
  }
  return rc;
}

/* A pass-through with no hook (feedthrough from "u" to "y"). */
static teal_system *hookless_pass_new(void) {
  teal_system *s = teal_leaf_new("opaque", NULL, NULL);
  teal_leaf_declare_vector_input(s, "u", 2);
  teal_leaf_declare_vector_output(s, "y", 2, copy_output, NULL, NULL, 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* x' = -x, with a hook that declines (hooked) or without one. */
static teal_system *decay_new(int hooked) {
  static const double rate = 1.0;
  static int declines;
  return ts_leaf_decay_new(&rate, hooked ? &declines : NULL);
}

START_TEST(test_hookless_feedthrough_is_refused) {
  teal_builder *b = teal_builder_new("opaque_loop");
  teal_builder_add(b, plant_new());
  teal_builder_add(b, hookless_pass_new());
  ts_sim_connect(b, "plant", "y", "opaque", "u");
  ts_sim_connect(b, "opaque", "y", "plant", "u");
  teal_system *sys = ts_sim_build(b);
  teal_context *ctx = teal_context_new(sys, NULL);
  teal_error err;
  TS_EXPECT_NULL_ERROR(teal_state_jacobian_new(ctx, &err), TEAL_EUNSUPPORTED, &err,
                       "leaf 'opaque_loop/opaque' feeds");
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_hookless_state_is_refused) {
  teal_system *sys = decay_new(0);
  teal_context *ctx = teal_context_new(sys, NULL);
  teal_error err;
  TS_EXPECT_NULL_ERROR(teal_state_jacobian_new(ctx, &err), TEAL_EUNSUPPORTED, &err,
                       "has continuous state and no analytic");
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_declining_hook_reports_unsupported) {
  teal_system *sys = decay_new(1);
  teal_context *ctx = teal_context_new(sys, NULL);
  teal_state_jacobian *sj = teal_state_jacobian_new(ctx, NULL);
  ck_assert_ptr_nonnull(sj);
  double J[1];
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_state_jacobian_calc(sj, ctx, J), TEAL_EUNSUPPORTED, teal_context_error(ctx),
                  "declines today");
  teal_state_jacobian_free(sj);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_bad_input) {
  teal_error err;
  TS_EXPECT_NULL_ERROR(teal_state_jacobian_new(NULL, &err), TEAL_EINVAL, &err, "NULL context");
  teal_system *sys = loop_new(0), *other = plant_new();
  teal_context *ctx = teal_context_new(sys, NULL), *octx = teal_context_new(other, NULL);
  teal_state_jacobian *sj = teal_state_jacobian_new(ctx, NULL);
  double J[25];
  ts_stale_context(octx);
  TS_EXPECT_ERROR(teal_state_jacobian_calc(sj, octx, J), TEAL_EINVAL, teal_context_error(octx),
                  "passed with system 'loop'");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_state_jacobian_calc(sj, ctx, NULL), TEAL_EINVAL, teal_context_error(ctx),
                  "J is NULL");
  TS_EXPECT_ERROR(teal_state_jacobian_calc(NULL, ctx, J), TEAL_EINVAL, teal_context_error(ctx),
                  "NULL workspace");
  ck_assert_int_eq(teal_state_jacobian_calc(NULL, NULL, J), TEAL_EINVAL);
  teal_state_jacobian_free(NULL);
  ck_assert_int_eq(teal_state_jacobian_hook_calls(NULL), 0);
  teal_state_jacobian_free(sj);
  teal_context_free(ctx);
  teal_context_free(octx);
  teal_system_free(sys);
  teal_system_free(other);
}
END_TEST

/* calc allocates nothing, and a second context of the system works. */
START_TEST(test_calc_allocates_nothing) {
  teal_system *sys = loop_new(1);
  teal_context *ctx = teal_context_new(sys, NULL), *ctx2 = teal_context_new(sys, NULL);
  teal_state_jacobian *sj = teal_state_jacobian_new(ctx, NULL);
  double J[25], ref[25];
  closed_form(ref);
  ts_alloc_install();
  ts_alloc_reset();
  for (int k = 0; k < 10; k++) {
    ck_assert_int_eq(teal_state_jacobian_calc(sj, k % 2 ? ctx : ctx2, J), TEAL_OK);
  }
  ts_alloc_expect_none();
  ck_assert_double_le(max_diff(J, ref, 25), 1e-14);
  teal_state_jacobian_free(sj);
  teal_context_free(ctx);
  teal_context_free(ctx2);
  teal_system_free(sys);
}
END_TEST

/* "Any context of the same system": a workspace made on the loop's own
 * root context serves the loop's subcontext inside a larger diagram, where
 * the loop's leaves sit after another leaf in the root's leaf list. */
START_TEST(test_subcontext_of_larger_diagram) {
  teal_system *loop = loop_new(_i);
  teal_context *own = teal_context_new(loop, NULL);
  teal_state_jacobian *sj = teal_state_jacobian_new(own, NULL);
  ck_assert_ptr_nonnull(sj);
  teal_builder *b = teal_builder_new("outer");
  teal_builder_add(b, teal_gain_new("first", 2.0, 1, NULL));
  teal_builder_add(b, loop);
  teal_system *outer = ts_sim_build(b);
  teal_context *octx = teal_context_new(outer, NULL);
  const teal_context *sub = teal_context_subcontext(octx, loop);
  ck_assert_ptr_nonnull(sub);
  double J[25], ref[25];
  closed_form(ref);
  ck_assert_int_eq(teal_state_jacobian_calc(sj, sub, J), TEAL_OK);
  ck_assert_double_le(max_diff(J, ref, 25), 1e-14);
  teal_state_jacobian_free(sj);
  teal_context_free(own);
  teal_context_free(octx);
  teal_system_free(outer);
}
END_TEST

static Suite *state_jacobian_suite(void) {
  Suite *s = suite_create("state_jacobian");
  TCase *tc = tcase_create("compose");
  tcase_add_loop_test(tc, test_closed_loop_matches_closed_form, 0, 2);
  tcase_add_test(tc, test_hookless_constant_output_is_constant);
  tcase_add_test(tc, test_hookless_feedthrough_is_refused);
  tcase_add_test(tc, test_hookless_state_is_refused);
  tcase_add_test(tc, test_declining_hook_reports_unsupported);
  tcase_add_test(tc, test_bad_input);
  tcase_add_test(tc, test_calc_allocates_nothing);
  tcase_add_loop_test(tc, test_subcontext_of_larger_diagram, 0, 2);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(state_jacobian_suite());
}
