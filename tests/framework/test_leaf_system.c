/* Tests of leaf systems (framework/leaf_system.c): declaring and querying
 * ports, outputs that are cache entries, the user free hook, size queries,
 * names and type tags. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"
#include "framework/ticket.h"
#include "framework/value.h"
#include "support/leaf_fixtures.h"
#include "support/test_support.h"

/* ---- ports ------------------------------------------------------------ */

START_TEST(test_new_leaf_is_empty) {
  int user_data = 7;
  teal_system *sys = teal_leaf_new("plant", &user_data, NULL);
  ck_assert_ptr_nonnull(sys);
  ck_assert_str_eq(teal_system_name(sys), "plant");
  ck_assert_int_eq(teal_system_is_diagram(sys), 0);
  ck_assert_ptr_null(teal_system_parent(sys));
  ck_assert_ptr_eq(teal_system_user(sys), &user_data);
  ck_assert_int_eq(teal_system_error(sys)->code, TEAL_OK);
  ck_assert_int_eq(teal_system_num_input_ports(sys), 0);
  ck_assert_int_eq(teal_system_num_output_ports(sys), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  ck_assert_int_eq(teal_system_num_continuous_states(sys, NULL, NULL, NULL), 0);
  ck_assert_int_eq(teal_system_num_discrete_states(sys), 0);
  ck_assert_int_eq(teal_system_num_abstract_states(sys), 0);
  ck_assert_int_eq(teal_system_has_jacobian(sys), 0);
  teal_system_free(sys);
}
END_TEST

static int freed_user;
static void free_user(void *p) { freed_user += *(int *)p; }

START_TEST(test_user_free_called_on_free) {
  static int token = 5;
  freed_user = 0;
  teal_system *sys = teal_leaf_new("s", &token, free_user);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  ck_assert_int_eq(freed_user, 0);
  teal_system_free(sys);
  ck_assert_int_eq(freed_user, 5);
  teal_system_free(NULL); /* ignored */
}
END_TEST

START_TEST(test_declare_ports_and_query) {
  teal_system *sys = teal_leaf_new("plant", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "u", 3), 0);
  ck_assert_int_eq(teal_leaf_declare_abstract_input(sys, "cmd", &ts_leaf_msg_type), 1);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "w", 0), 2);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", 2, ts_leaf_calc_zero, NULL, NULL, 0),
                   0);
  ck_assert_int_eq(teal_leaf_declare_abstract_output(sys, "status", &ts_leaf_msg_type,
                                                     ts_leaf_calc_abstract, NULL, NULL, 0),
                   1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);

  ck_assert_int_eq(teal_system_num_input_ports(sys), 3);
  ck_assert_int_eq(teal_system_num_output_ports(sys), 2);

  const teal_input_port *u = teal_system_input_port(sys, 0);
  ck_assert_ptr_nonnull(u);
  ck_assert_str_eq(teal_input_port_name(u), "u");
  ck_assert_int_eq(teal_input_port_index(u), 0);
  ck_assert_int_eq(teal_input_port_size(u), 3);
  ck_assert_ptr_null(teal_input_port_type(u));
  ck_assert_ptr_eq(teal_input_port_system(u), sys);

  const teal_input_port *cmd = teal_system_input_port(sys, 1);
  ck_assert_str_eq(teal_input_port_name(cmd), "cmd");
  ck_assert_int_eq(teal_input_port_index(cmd), 1);
  ck_assert_int_eq(teal_input_port_size(cmd), 0);
  ck_assert_ptr_eq(teal_input_port_type(cmd), &ts_leaf_msg_type);

  ck_assert_int_eq(teal_input_port_size(teal_system_input_port(sys, 2)), 0);
  ck_assert_ptr_null(teal_input_port_type(teal_system_input_port(sys, 2)));

  const teal_output_port *y = teal_system_output_port(sys, 0);
  ck_assert_str_eq(teal_output_port_name(y), "y");
  ck_assert_int_eq(teal_output_port_index(y), 0);
  ck_assert_int_eq(teal_output_port_size(y), 2);
  ck_assert_ptr_null(teal_output_port_type(y));
  ck_assert_ptr_eq(teal_output_port_system(y), sys);

  const teal_output_port *st = teal_system_output_port(sys, 1);
  ck_assert_str_eq(teal_output_port_name(st), "status");
  ck_assert_int_eq(teal_output_port_index(st), 1);
  ck_assert_int_eq(teal_output_port_size(st), 0);
  ck_assert_ptr_eq(teal_output_port_type(st), &ts_leaf_msg_type);

  /* by name */
  ck_assert_ptr_eq(teal_system_input_port_by_name(sys, "u"), u);
  ck_assert_ptr_eq(teal_system_input_port_by_name(sys, "cmd"), cmd);
  ck_assert_ptr_eq(teal_system_output_port_by_name(sys, "y"), y);
  ck_assert_ptr_eq(teal_system_output_port_by_name(sys, "status"), st);
  ck_assert_ptr_null(teal_system_input_port_by_name(sys, "y"));
  ck_assert_ptr_null(teal_system_output_port_by_name(sys, "u"));
  ck_assert_ptr_null(teal_system_input_port_by_name(sys, "nope"));
  ck_assert_ptr_null(teal_system_input_port_by_name(sys, NULL));
  ck_assert_ptr_null(teal_system_output_port_by_name(sys, NULL));

  /* out of range */
  ck_assert_ptr_null(teal_system_input_port(sys, -1));
  ck_assert_ptr_null(teal_system_input_port(sys, 3));
  ck_assert_ptr_null(teal_system_output_port(sys, -1));
  ck_assert_ptr_null(teal_system_output_port(sys, 2));
  teal_system_free(sys);
}
END_TEST

START_TEST(test_port_queries_null_safe) {
  ck_assert_ptr_null(teal_input_port_name(NULL));
  ck_assert_int_lt(teal_input_port_index(NULL), 0);
  ck_assert_int_lt(teal_input_port_size(NULL), 0);
  ck_assert_ptr_null(teal_input_port_type(NULL));
  ck_assert_ptr_null(teal_input_port_system(NULL));
  ck_assert_ptr_null(teal_output_port_name(NULL));
  ck_assert_int_lt(teal_output_port_index(NULL), 0);
  ck_assert_int_lt(teal_output_port_size(NULL), 0);
  ck_assert_ptr_null(teal_output_port_type(NULL));
  ck_assert_ptr_null(teal_output_port_system(NULL));
  ck_assert_ptr_null(teal_system_name(NULL));
  ck_assert_ptr_null(teal_system_error(NULL));
  ck_assert_int_eq(teal_system_num_input_ports(NULL), 0);
  ck_assert_ptr_null(teal_system_input_port(NULL, 0));
  ck_assert_int_lt(teal_system_num_continuous_states(NULL, NULL, NULL, NULL), 0);
  ck_assert_int_lt(teal_leaf_declare_vector_input(NULL, "u", 1), 0);
  ck_assert_int_lt(teal_leaf_finalize(NULL), 0);
}
END_TEST

START_TEST(test_duplicate_input_name) {
  teal_system *sys = teal_leaf_new("plant", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "u", 1), 0);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "u", 2), TEAL_EDUPLICATE);
  TS_LEAF_ASSERT_SYS_ERROR(sys, TEAL_EDUPLICATE, "'u'", "plant");
  ck_assert_int_eq(teal_system_num_input_ports(sys), 1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EDUPLICATE);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_duplicate_abstract_input_name) {
  teal_system *sys = teal_leaf_new("ctrl", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "cmd", 1), 0);
  ck_assert_int_eq(teal_leaf_declare_abstract_input(sys, "cmd", &ts_leaf_msg_type),
                   TEAL_EDUPLICATE);
  TS_LEAF_ASSERT_SYS_ERROR(sys, TEAL_EDUPLICATE, "'cmd'", "ctrl");
  teal_system_free(sys);
}
END_TEST

START_TEST(test_duplicate_output_name) {
  teal_system *sys = teal_leaf_new("sensor", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", 1, ts_leaf_calc_zero, NULL, NULL, 0),
                   0);
  ck_assert_int_eq(teal_leaf_declare_abstract_output(sys, "y", &ts_leaf_msg_type,
                                                     ts_leaf_calc_abstract, NULL, NULL, 0),
                   TEAL_EDUPLICATE);
  TS_LEAF_ASSERT_SYS_ERROR(sys, TEAL_EDUPLICATE, "'y'", "sensor");
  ck_assert_int_eq(teal_system_num_output_ports(sys), 1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EDUPLICATE);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_invalid_port_names) {
  const char *bad[] = {NULL, "", "a/b", "/"};
  for (int k = 0; k < 4; k++) {
    teal_system *sys = teal_leaf_new("s", NULL, NULL);
    ck_assert_int_eq(teal_leaf_declare_vector_input(sys, bad[k], 1), TEAL_EINVAL);
    ck_assert_int_eq(teal_system_error(sys)->code, TEAL_EINVAL);
    ck_assert_ptr_nonnull(strstr(teal_system_error(sys)->message, "'s'"));
    ck_assert_int_eq(teal_system_num_input_ports(sys), 0);
    teal_system_free(sys);

    sys = teal_leaf_new("s", NULL, NULL);
    ck_assert_int_eq(
        teal_leaf_declare_vector_output(sys, bad[k], 1, ts_leaf_calc_zero, NULL, NULL, 0),
        TEAL_EINVAL);
    ck_assert_int_eq(teal_system_num_output_ports(sys), 0);
    teal_system_free(sys);

    sys = teal_leaf_new("s", NULL, NULL);
    ck_assert_int_eq(teal_leaf_declare_abstract_input(sys, bad[k], &ts_leaf_msg_type), TEAL_EINVAL);
    teal_system_free(sys);

    sys = teal_leaf_new("s", NULL, NULL);
    ck_assert_int_eq(
        teal_leaf_declare_cache_entry(sys, bad[k], 1, ts_leaf_calc_zero, NULL, NULL, 0),
        TEAL_EINVAL);
    teal_system_free(sys);
  }
}
END_TEST

/* ---- size queries ----------------------------------------------------- */

START_TEST(test_size_queries) {
  teal_system *sys = teal_leaf_new("sizes", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 2, 2, 3, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, ts_leaf_deriv_zero, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 4, NULL), 0);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 0, NULL), 1);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 2, NULL), 2);
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &ts_leaf_msg_type, NULL), 0);
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &ts_buf_type, NULL), 1);
  ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, 3, NULL), 0);
  ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, 1, NULL), 1);
  /* cache entry indices count only declared entries, not outputs */
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", 1, ts_leaf_calc_zero, NULL, NULL, 0),
                   0);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "e0", 2, ts_leaf_calc_zero, NULL, NULL, 0),
                   0);
  ck_assert_int_eq(teal_leaf_declare_abstract_cache_entry(sys, "e1", &ts_leaf_msg_type,
                                                          ts_leaf_calc_abstract, NULL, NULL, 0),
                   1);
  ck_assert_int_eq(teal_leaf_set_jacobian(sys, ts_leaf_jac, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);

  int nq = 0, nv = 0, nz = 0;
  ck_assert_int_eq(teal_system_num_continuous_states(sys, &nq, &nv, &nz), 7);
  ck_assert_int_eq(nq, 2);
  ck_assert_int_eq(nv, 2);
  ck_assert_int_eq(nz, 3);
  ck_assert_int_eq(teal_system_num_continuous_states(sys, NULL, &nv, NULL), 7);
  ck_assert_int_eq(teal_system_num_discrete_states(sys), 6);
  ck_assert_int_eq(teal_system_num_discrete_groups(sys), 3);
  ck_assert_int_eq(teal_system_discrete_group_size(sys, 0), 4);
  ck_assert_int_eq(teal_system_discrete_group_size(sys, 1), 0);
  ck_assert_int_eq(teal_system_discrete_group_size(sys, 2), 2);
  ck_assert_int_lt(teal_system_discrete_group_size(sys, 3), 0);
  ck_assert_int_lt(teal_system_discrete_group_size(sys, -1), 0);
  ck_assert_int_eq(teal_system_num_abstract_states(sys), 2);
  ck_assert_int_eq(teal_system_num_numeric_parameters(sys), 2);
  ck_assert_int_eq(teal_system_numeric_parameter_size(sys, 0), 3);
  ck_assert_int_eq(teal_system_numeric_parameter_size(sys, 1), 1);
  ck_assert_int_lt(teal_system_numeric_parameter_size(sys, 2), 0);
  ck_assert_int_lt(teal_system_numeric_parameter_size(sys, -1), 0);
  ck_assert_int_eq(teal_system_has_jacobian(sys), 1);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_default_name) {
  /* NULL or empty names get a usable default */
  teal_system *a = teal_leaf_new(NULL, NULL, NULL);
  teal_system *b = teal_leaf_new("", NULL, NULL);
  ck_assert_ptr_nonnull(teal_system_name(a));
  ck_assert_int_gt((int)strlen(teal_system_name(a)), 0);
  ck_assert_int_gt((int)strlen(teal_system_name(b)), 0);
  teal_system_free(a);
  teal_system_free(b);
}
END_TEST

START_TEST(test_slash_in_leaf_name_rejected) {
  /* '/' separates path components in subsystem lookups */
  teal_system *sys = teal_leaf_new("arm/joint", NULL, NULL);
  ck_assert_ptr_nonnull(sys);
  ck_assert_int_eq(teal_system_error(sys)->code, TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_system_error(sys)->message, "arm/joint"));
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "u", 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EINVAL);
  teal_system_free(sys);
}
END_TEST

static const char tag_a[] = "a", tag_b[] = "b";

START_TEST(test_type_tag) {
  teal_system *s = teal_leaf_new("tagged", NULL, NULL);
  ck_assert_ptr_null(teal_system_type_tag(s));
  ck_assert_int_eq(teal_leaf_set_type_tag(s, tag_a), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  ck_assert_ptr_eq(teal_system_type_tag(s), tag_a);
  ck_assert_ptr_ne(teal_system_type_tag(s), tag_b);
  /* after finalize the tag is fixed */
  ck_assert_int_eq(teal_leaf_set_type_tag(s, tag_b), TEAL_ESTATE);
  ck_assert_ptr_null(teal_system_type_tag(NULL));
  teal_system_free(s);
}
END_TEST

/* ---- outputs that are cache entries ------------------------------------- */

static int doubling_calls;

/* out = 2 u, counting the calls */
static int doubling_calc(const teal_system *sys, const teal_context *ctx, double *out,
                         void *user) {
  (void)user;
  const double *u;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  for (int i = 0; rc == TEAL_OK && i < 2; i++) {
    out[i] = 2.0 * u[i];
  }
  doubling_calls++;
  return rc;
}

START_TEST(test_output_from_cache_entry_shares_its_slot) {
  teal_system *s = teal_leaf_new("doubler", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "u", 2), 0);
  int entry = teal_leaf_declare_cache_entry(s, "twice", 2, doubling_calc, NULL, NULL, 0);
  ck_assert_int_ge(entry, 0);
  int port = teal_leaf_declare_output_from_cache_entry(s, "y", entry);
  ck_assert_int_eq(port, 0);
  ck_assert_int_eq(teal_output_port_size(teal_system_output_port(s, port)), 2);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  teal_context *ctx = teal_context_new(s, NULL);
  const double u[2] = {1.5, -4.0};
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, u, 2), TEAL_OK);
  doubling_calls = 0;
  const double *y, *e;
  ck_assert_int_eq(teal_eval_vector_output(s, ctx, port, &y), TEAL_OK);
  ck_assert_int_eq(teal_eval_cache_entry(s, ctx, entry, (const void **)&e), TEAL_OK);
  ck_assert_ptr_eq(y, e); /* one value, no copy */
  ck_assert_int_eq(doubling_calls, 1);
  ck_assert(y[0] == 3.0 && y[1] == -8.0);
  /* Calc writes into caller memory */
  double out[2];
  ck_assert_int_eq(teal_calc_vector_output(s, ctx, port, out), TEAL_OK);
  ck_assert(out[0] == 3.0 && out[1] == -8.0);
  /* the entry's prerequisites hold for the port */
  const double u2[2] = {0.5, 0.25};
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, u2, 2), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(s, ctx, port, &y), TEAL_OK);
  ck_assert(y[0] == 1.0 && y[1] == 0.5);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_output_from_cache_entry_errors) {
  teal_system *s = teal_leaf_new("bad", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_output_from_cache_entry(s, "y", 0), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_system_error(s)->message, "no cache entry 0"));
  teal_system_free(s);
  s = teal_leaf_new("dup", NULL, NULL);
  int entry = teal_leaf_declare_cache_entry(s, "twice", 2, doubling_calc, NULL, NULL, 0);
  ck_assert_int_eq(teal_leaf_declare_output_from_cache_entry(s, "y", entry), 0);
  ck_assert_int_eq(teal_leaf_declare_output_from_cache_entry(s, "y", entry), TEAL_EDUPLICATE);
  teal_system_free(s);
  s = teal_leaf_new("neg", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_output_from_cache_entry(s, "y", -1), TEAL_EINVAL);
  ck_assert_int_eq(teal_leaf_declare_output_from_cache_entry(NULL, "y", 0) < 0, 1);
  teal_system_free(s);
}
END_TEST

static Suite *leaf_system_suite(void) {
  Suite *s = suite_create("leaf_system");
  TCase *tc = tcase_create("ports");
  tcase_add_test(tc, test_new_leaf_is_empty);
  tcase_add_test(tc, test_user_free_called_on_free);
  tcase_add_test(tc, test_declare_ports_and_query);
  tcase_add_test(tc, test_port_queries_null_safe);
  tcase_add_test(tc, test_duplicate_input_name);
  tcase_add_test(tc, test_duplicate_abstract_input_name);
  tcase_add_test(tc, test_duplicate_output_name);
  tcase_add_test(tc, test_invalid_port_names);
  tcase_add_test(tc, test_default_name);
  tcase_add_test(tc, test_slash_in_leaf_name_rejected);
  suite_add_tcase(s, tc);

  tc = tcase_create("outputs from cache entries");
  tcase_add_test(tc, test_output_from_cache_entry_shares_its_slot);
  tcase_add_test(tc, test_output_from_cache_entry_errors);
  suite_add_tcase(s, tc);

  tc = tcase_create("queries");
  tcase_add_test(tc, test_size_queries);
  tcase_add_test(tc, test_type_tag);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(leaf_system_suite());
}
