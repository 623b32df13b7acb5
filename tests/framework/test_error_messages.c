/* Error messages of the framework's public calls: each failure below
 * returns its code and leaves in the record it reports into (the context's,
 * the builder's, an err argument) a message that names the call or the
 * cause, replacing whatever an earlier call left there. */
#include <check.h>
#include <stdlib.h>

#include "framework/context.h"
#include "framework/diagram_builder.h"
#include "framework/error.h"
#include "framework/events.h"
#include "framework/leaf_util.h"
#include "framework/system.h"
#include "support/error_messages.h"
#include "support/test_support.h"

static int derivs(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                  void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  xd->q[0] = 0.0;
  xd->v[0] = 0.0;
  return TEAL_OK;
}

static int witness(const teal_system *sys, const teal_context *ctx, double *w, void *user) {
  (void)sys;
  (void)user;
  *w = teal_context_q(ctx)[0];
  return TEAL_OK;
}

static int publish(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  return TEAL_OK;
}

/* A finalized leaf with q, v (one each), a discrete group of 2 and a
 * witness publish. */
static teal_system *leaf_new(void) {
  teal_system *sys = teal_leaf_new("leaf", NULL, NULL);
  double x0[2] = {1.0, 0.0}, xd0[2] = {0.0, 0.0};
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 1, 1, 0, x0), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, derivs, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 2, xd0), 0);
  ck_assert_int_ge(
      teal_leaf_declare_witness_publish(sys, TEAL_WITNESS_CROSSES_ZERO, witness, publish, NULL), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  return sys;
}

/* Item 1 of the outside users' report: adding a NULL system (as
 * teal_plant_system returns for a plant that is not finalized) must name
 * that cause, not only a failed constructor. */
START_TEST(builder_add_null_names_unfinalized_plant) {
  teal_builder *b = teal_builder_new("d");
  ck_assert_ptr_null(teal_builder_add(b, NULL));
  const teal_error *e = teal_builder_error(b);
  ts_expect_error_at(__FILE__, __LINE__, e->code, TEAL_EINVAL, e, "NULL system");
  ck_assert_ptr_nonnull(strstr(e->message, "not finalized"));
  ck_assert_ptr_nonnull(strstr(e->message, "teal_plant_finalize"));
  ck_assert_ptr_nonnull(strstr(e->message, "constructor failed"));
  teal_builder_free(b);
}
END_TEST

START_TEST(context_state_access) {
  teal_system *sys = leaf_new();
  teal_context *ctx = teal_context_new(sys, NULL);
  const teal_error *e = teal_context_error(ctx);
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_context_set_continuous_state(ctx, NULL, 2), TEAL_EINVAL, e,
                  "set_continuous_state");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_context_get_continuous_state(ctx, NULL, 2), TEAL_EINVAL, e,
                  "get_continuous_state");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_context_set_time_and_continuous_state(ctx, 1.0, NULL, 2), TEAL_EINVAL, e,
                  "x is NULL");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_context_set_discrete_group(ctx, 0, NULL, 2), TEAL_ESIZE, e, "x is NULL");
  ts_stale_context(ctx);
  ck_assert_ptr_null(teal_context_subcontext(ctx, NULL));
  ts_expect_error_at(__FILE__, __LINE__, e->code, TEAL_EINVAL, e, "subcontext: NULL system");
  ts_stale_context(ctx);
  ck_assert_ptr_null(teal_context_subcontext_by_name(ctx, NULL));
  ts_expect_error_at(__FILE__, __LINE__, e->code, TEAL_EINVAL, e, "NULL path");
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(context_dynamics_null_arrays) {
  teal_system *sys = leaf_new();
  teal_context *ctx = teal_context_new(sys, NULL);
  const teal_error *e = teal_context_error(ctx);
  double v = 0.0;
  const double *u;
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_eval_vector_input(NULL, ctx, 0, &u), TEAL_EINVAL, e, "NULL system");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_calc_time_derivatives(sys, ctx, NULL), TEAL_EINVAL, e,
                  "calc_time_derivatives");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_map_velocity_to_qdot(sys, ctx, &v, NULL), TEAL_EINVAL, e,
                  "map_velocity_to_qdot on 'leaf': qdot is NULL");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_map_qdot_to_velocity(sys, ctx, NULL, &v), TEAL_EINVAL, e,
                  "map_qdot_to_velocity on 'leaf': qdot is NULL");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_calc_kinetic_energy(sys, ctx, NULL), TEAL_EINVAL, e, "calc_kinetic_energy");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_calc_potential_energy(sys, ctx, NULL), TEAL_EINVAL, e,
                  "calc_potential_energy");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_calc_witness_values(sys, ctx, NULL), TEAL_EINVAL, e, "calc_witness_values");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_calc_jacobian(sys, ctx, -1, -1, NULL), TEAL_EINVAL, e, "calc_jacobian");
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(context_events_null_arguments) {
  teal_system *sys = leaf_new();
  teal_context *ctx = teal_context_new(sys, NULL);
  const teal_error *e = teal_context_error(ctx);
  teal_event_set *set = teal_event_set_new(sys);
  double t_next;
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_calc_next_update_time(sys, ctx, NULL, set), TEAL_EINVAL, e,
                  "calc_next_update_time: t_next is NULL");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_calc_next_update_time(sys, ctx, &t_next, NULL), TEAL_EINVAL, e,
                  "NULL event set");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_collect_witness_events(sys, ctx, NULL, set), TEAL_EINVAL, e,
                  "collect_witness_events: triggered is NULL");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_dispatch_discrete_updates(sys, ctx, NULL), TEAL_EINVAL, e,
                  "dispatch_discrete_updates");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_dispatch_unrestricted_updates(sys, ctx, NULL), TEAL_EINVAL, e,
                  "dispatch_unrestricted_updates");
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(sys);
}
END_TEST

START_TEST(context_copy_and_fixed_inputs) {
  teal_system *g = ts_gain_new("g", 2, 2.0);
  teal_context *ctx = teal_context_new(g, NULL);
  const teal_error *e = teal_context_error(ctx);
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_context_copy_from(ctx, NULL), TEAL_EINVAL, e,
                  "copy_from: NULL source context");
  ts_stale_context(ctx);
  TS_EXPECT_ERROR(teal_context_fix_input(ctx, 0, NULL, 2), TEAL_EINVAL, e, "value is NULL");
  teal_context_free(ctx);
  teal_system_free(g);
}
END_TEST

START_TEST(builder_null_ports) {
  teal_builder *b = teal_builder_new("d");
  teal_system *g = teal_builder_add(b, ts_gain_new("g", 1, 2.0));
  TS_EXPECT_ERROR(teal_builder_connect(b, NULL, teal_system_input_port(g, 0)), TEAL_EINVAL,
                  teal_builder_error(b), "connect in 'd': NULL output port");
  teal_builder_free(b);
  b = teal_builder_new("d");
  g = teal_builder_add(b, ts_gain_new("g", 1, 2.0));
  TS_EXPECT_ERROR(teal_builder_connect(b, teal_system_output_port(g, 0), NULL), TEAL_EINVAL,
                  teal_builder_error(b), "connect in 'd': NULL input port");
  teal_builder_free(b);
  b = teal_builder_new("d");
  TS_EXPECT_ERROR(teal_builder_export_input(b, NULL, "u"), TEAL_EINVAL, teal_builder_error(b),
                  "export input in 'd': NULL input port");
  teal_builder_free(b);
  b = teal_builder_new("d");
  TS_EXPECT_ERROR(teal_builder_export_output(b, NULL, "y"), TEAL_EINVAL, teal_builder_error(b),
                  "export output in 'd': NULL output port");
  teal_builder_free(b);
}
END_TEST

/* teal_leaf_util_finish(NULL) reports, and keeps an out-of-memory report
 * of teal_leaf_util_new that came first. */
START_TEST(leaf_util_finish_null) {
  teal_error err = {TEAL_OK, ""};
  TS_EXPECT_ERROR(teal_leaf_util_finish(NULL, &err) ? TEAL_OK : err.code, TEAL_EINVAL, &err,
                  "leaf_util_finish: NULL system");
  teal_error_set(&err, TEAL_ENOMEM, "system 'x': out of memory");
  ck_assert_ptr_null(teal_leaf_util_finish(NULL, &err));
  ts_expect_error_at(__FILE__, __LINE__, err.code, TEAL_ENOMEM, &err, "out of memory");
}
END_TEST

/* The error count moves once per recorded error, on the whole tree, and
 * not for calls that succeed; 0 for NULL. */
START_TEST(context_error_count_counts_records) {
  teal_system *g = ts_gain_new("g", 2, 2.0);
  teal_context *ctx = teal_context_new(g, NULL);
  ck_assert_uint_eq(teal_context_error_count(NULL), 0);
  unsigned long n0 = teal_context_error_count(ctx);
  double u[2] = {1, 2};
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, u, 2), TEAL_OK);
  ck_assert_uint_eq(teal_context_error_count(ctx), n0);
  ck_assert_int_ne(teal_context_fix_input(ctx, 0, u, 3), TEAL_OK);
  ck_assert_uint_eq(teal_context_error_count(ctx), n0 + 1);
  ck_assert_int_ne(teal_context_fix_input(ctx, 0, NULL, 2), TEAL_OK);
  ck_assert_uint_eq(teal_context_error_count(ctx), n0 + 2);
  teal_context_free(ctx);
  teal_system_free(g);
}
END_TEST

static Suite *error_messages_suite(void) {
  Suite *s = suite_create("framework_error_messages");
  TCase *tc = tcase_create("messages");
  tcase_add_test(tc, builder_add_null_names_unfinalized_plant);
  tcase_add_test(tc, context_state_access);
  tcase_add_test(tc, context_dynamics_null_arrays);
  tcase_add_test(tc, context_events_null_arguments);
  tcase_add_test(tc, context_copy_and_fixed_inputs);
  tcase_add_test(tc, builder_null_ports);
  tcase_add_test(tc, leaf_util_finish_null);
  tcase_add_test(tc, context_error_count_counts_records);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(error_messages_suite());
}
