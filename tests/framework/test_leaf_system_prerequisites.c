/* Tests of leaf prerequisites: cache entry cycles, tickets, and the
 * feedthrough computed from declared prerequisites. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/error.h"
#include "framework/system.h"
#include "framework/ticket.h"
#include "framework/value.h"
#include "support/leaf_fixtures.h"
#include "support/test_support.h"

START_TEST(test_cache_entry_depends_on_itself) {
  teal_system *sys = teal_leaf_new("loopy", NULL, NULL);
  teal_ticket self = teal_ticket_cache(0);
  ck_assert_int_eq(
      teal_leaf_declare_cache_entry(sys, "selfish", 1, ts_leaf_calc_zero, NULL, &self, 1), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EALGLOOP);
  TS_LEAF_ASSERT_SYS_ERROR(sys, TEAL_EALGLOOP, "loopy", "selfish");
  teal_system_free(sys);
}
END_TEST

START_TEST(test_cache_entries_in_a_cycle) {
  teal_system *sys = teal_leaf_new("loopy", NULL, NULL);
  teal_ticket a_deps[2] = {TEAL_TICKET_TIME, teal_ticket_cache(1)};
  teal_ticket b_deps[1] = {teal_ticket_cache(2)};
  teal_ticket c_deps[2] = {TEAL_TICKET_Q, teal_ticket_cache(0)};
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "a", 1, ts_leaf_calc_zero, NULL, a_deps, 2),
                   0);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "b", 1, ts_leaf_calc_zero, NULL, b_deps, 1),
                   1);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "c", 1, ts_leaf_calc_zero, NULL, c_deps, 2),
                   2);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EALGLOOP);
  ck_assert_int_eq(teal_system_error(sys)->code, TEAL_EALGLOOP);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_output_through_cycle) {
  /* an output depending on a cycle of entries is rejected too */
  teal_system *sys = teal_leaf_new("loopy", NULL, NULL);
  teal_ticket e0 = teal_ticket_cache(0), e1 = teal_ticket_cache(1);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", 1, ts_leaf_calc_zero, NULL, &e0, 1),
                   0);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "p", 1, ts_leaf_calc_zero, NULL, &e1, 1), 0);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "q", 1, ts_leaf_calc_zero, NULL, &e0, 1), 1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EALGLOOP);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_cache_entry_chain_without_cycle) {
  teal_system *sys = teal_leaf_new("chain", NULL, NULL);
  teal_ticket e0 = teal_ticket_cache(0), e1 = teal_ticket_cache(1), q = TEAL_TICKET_Q;
  /* entries may name entries declared later; a diamond is not a cycle */
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "top", 1, ts_leaf_calc_zero, NULL, &e1, 1),
                   0);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "mid", 1, ts_leaf_calc_zero, NULL, &q, 1), 1);
  teal_ticket both[2] = {e0, e1};
  ck_assert_int_eq(
      teal_leaf_declare_cache_entry(sys, "diamond", 1, ts_leaf_calc_zero, NULL, both, 2), 2);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", 1, ts_leaf_calc_zero, NULL, both, 2),
                   0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  teal_system_free(sys);
}
END_TEST

/* A leaf with one input, one discrete group, one abstract state, one
 * parameter and one cache entry, whose output declares ticket t. */
static int finalize_with_ticket(teal_ticket t) {
  teal_system *sys = teal_leaf_new("tickets", NULL, NULL);
  teal_leaf_declare_vector_input(sys, "u", 1);
  teal_leaf_declare_discrete_state(sys, 1, NULL);
  teal_leaf_declare_abstract_state(sys, &ts_leaf_msg_type, NULL);
  teal_leaf_declare_numeric_parameter(sys, 1, NULL);
  teal_ticket q = TEAL_TICKET_Q;
  teal_leaf_declare_cache_entry(sys, "e", 1, ts_leaf_calc_zero, NULL, &q, 1);
  teal_leaf_declare_vector_output(sys, "y", 1, ts_leaf_calc_zero, NULL, &t, 1);
  int rc = teal_leaf_finalize(sys);
  if (rc != TEAL_OK) {
    ck_assert_int_eq(teal_system_error(sys)->code, rc);
    ck_assert_ptr_nonnull(strstr(teal_system_error(sys)->message, "tickets"));
  }
  teal_system_free(sys);
  return rc;
}

START_TEST(test_valid_tickets_accepted) {
  const teal_ticket good[] = {TEAL_TICKET_NOTHING, TEAL_TICKET_TIME, TEAL_TICKET_ACCURACY,
                              TEAL_TICKET_Q, TEAL_TICKET_V, TEAL_TICKET_Z, TEAL_TICKET_XC,
                              TEAL_TICKET_XD, TEAL_TICKET_XA, TEAL_TICKET_ALL_STATE,
                              TEAL_TICKET_ALL_PARAMETERS, TEAL_TICKET_ALL_INPUTS,
                              TEAL_TICKET_ALL_SOURCES, teal_ticket_discrete(0),
                              teal_ticket_abstract(0), teal_ticket_parameter(0),
                              teal_ticket_input(0), teal_ticket_cache(0)};
  for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
    ck_assert_msg(finalize_with_ticket(good[k]) == TEAL_OK, "ticket %zu", k);
  }
}
END_TEST

START_TEST(test_unknown_tickets_rejected) {
  const teal_ticket bad[] = {teal_ticket_discrete(1), teal_ticket_abstract(1),
                             teal_ticket_parameter(1), teal_ticket_input(1),
                             teal_ticket_cache(1), teal_ticket_cache(99),
                             0, -1, TEAL_TICKET_TIME + 1, TEAL_TICKET_Q + 3,
                             19 << TEAL_TICKET_INDEX_BITS, 0x7fffffff};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    ck_assert_msg(finalize_with_ticket(bad[k]) == TEAL_EINVAL, "ticket %zu (0x%x)", k,
                  (unsigned)bad[k]);
  }
}
END_TEST

START_TEST(test_unknown_ticket_in_cache_entry) {
  teal_system *sys = teal_leaf_new("entries", NULL, NULL);
  teal_ticket t = teal_ticket_input(0); /* no inputs at all */
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "e", 1, ts_leaf_calc_zero, NULL, &t, 1), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EINVAL);
  TS_LEAF_ASSERT_SYS_ERROR(sys, TEAL_EINVAL, "entries", "'e'");
  teal_system_free(sys);
}
END_TEST

/* ---- feedthrough ------------------------------------------------------ */

START_TEST(test_feedthrough_default_all_sources) {
  teal_system *sys = teal_leaf_new("ft", NULL, NULL);
  teal_leaf_declare_vector_input(sys, "a", 1);
  teal_leaf_declare_vector_input(sys, "b", 1);
  teal_leaf_declare_abstract_input(sys, "c", &ts_leaf_msg_type);
  teal_leaf_declare_vector_output(sys, "y", 1, ts_leaf_calc_zero, NULL, NULL, 0);
  teal_ticket all = TEAL_TICKET_ALL_SOURCES;
  teal_leaf_declare_vector_output(sys, "z", 1, ts_leaf_calc_zero, NULL, &all, 1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  for (int o = 0; o < 2; o++) {
    for (int i = 0; i < 3; i++) {
      ck_assert_msg(teal_system_has_direct_feedthrough(sys, i, o), "in %d out %d", i, o);
    }
  }
  teal_system_free(sys);
}
END_TEST

START_TEST(test_feedthrough_state_only_is_none) {
  teal_system *sys = teal_leaf_new("ft", NULL, NULL);
  teal_leaf_declare_vector_input(sys, "a", 1);
  teal_leaf_declare_vector_input(sys, "b", 1);
  teal_leaf_declare_continuous_state(sys, 1, 1, 0, NULL);
  teal_leaf_set_time_derivatives(sys, ts_leaf_deriv_zero, NULL);
  teal_leaf_declare_discrete_state(sys, 1, NULL);
  teal_leaf_declare_numeric_parameter(sys, 1, NULL);
  teal_ticket xc = TEAL_TICKET_XC;
  teal_ticket many[5] = {TEAL_TICKET_ALL_STATE, TEAL_TICKET_TIME, TEAL_TICKET_ALL_PARAMETERS,
                         teal_ticket_discrete(0), TEAL_TICKET_ACCURACY};
  teal_ticket nothing = TEAL_TICKET_NOTHING;
  teal_leaf_declare_vector_output(sys, "x", 2, ts_leaf_calc_zero, NULL, &xc, 1);
  teal_leaf_declare_vector_output(sys, "w", 2, ts_leaf_calc_zero, NULL, many, 5);
  teal_leaf_declare_vector_output(sys, "k", 2, ts_leaf_calc_zero, NULL, &nothing, 1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  for (int o = 0; o < 3; o++) {
    for (int i = 0; i < 2; i++) {
      ck_assert_msg(!teal_system_has_direct_feedthrough(sys, i, o), "in %d out %d", i, o);
    }
  }
  teal_system_free(sys);
}
END_TEST

START_TEST(test_feedthrough_through_cache_entry) {
  teal_system *sys = teal_leaf_new("ft", NULL, NULL);
  teal_leaf_declare_vector_input(sys, "u0", 1);
  teal_leaf_declare_vector_input(sys, "u1", 1);
  teal_leaf_declare_vector_input(sys, "u2", 1);
  teal_ticket e_deps[2] = {teal_ticket_input(1), TEAL_TICKET_TIME};
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "e", 1, ts_leaf_calc_zero, NULL, e_deps, 2),
                   0);
  teal_ticket y_deps[2] = {TEAL_TICKET_Q, teal_ticket_cache(0)};
  teal_leaf_declare_vector_output(sys, "y", 1, ts_leaf_calc_zero, NULL, y_deps, 2);
  /* a second level: entry f depends on entry e, output z on f and input 2 */
  teal_ticket f_dep = teal_ticket_cache(0);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "f", 1, ts_leaf_calc_zero, NULL, &f_dep, 1),
                   1);
  teal_ticket z_deps[2] = {teal_ticket_cache(1), teal_ticket_input(2)};
  teal_leaf_declare_vector_output(sys, "z", 1, ts_leaf_calc_zero, NULL, z_deps, 2);
  teal_ticket in0 = teal_ticket_input(0);
  teal_leaf_declare_vector_output(sys, "d", 1, ts_leaf_calc_zero, NULL, &in0, 1);
  teal_ticket all_in = TEAL_TICKET_ALL_INPUTS;
  teal_leaf_declare_vector_output(sys, "a", 1, ts_leaf_calc_zero, NULL, &all_in, 1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  /* y: from input 1 only */
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 0, 0), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 1, 0), 1);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 2, 0), 0);
  /* z: inputs 1 (through f -> e) and 2 */
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 0, 1), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 1, 1), 1);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 2, 1), 1);
  /* d: input 0 only */
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 0, 2), 1);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 1, 2), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 2, 2), 0);
  /* a: all */
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, i, 3), 1);
  }
  /* out of range queries */
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, -1, 0), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 3, 0), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 0, 4), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 0, -1), 0);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_feedthrough_default_entry_is_all_sources) {
  teal_system *sys = teal_leaf_new("ft", NULL, NULL);
  teal_leaf_declare_vector_input(sys, "u0", 1);
  teal_leaf_declare_vector_input(sys, "u1", 1);
  /* entry with default prerequisites: all sources, hence all inputs */
  teal_leaf_declare_cache_entry(sys, "e", 1, ts_leaf_calc_zero, NULL, NULL, 0);
  teal_ticket e = teal_ticket_cache(0);
  teal_leaf_declare_vector_output(sys, "y", 1, ts_leaf_calc_zero, NULL, &e, 1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 0, 0), 1);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 1, 0), 1);
  teal_system_free(sys);
}
END_TEST

static Suite *leaf_system_prerequisites_suite(void) {
  Suite *s = suite_create("leaf_system_prerequisites");
  TCase *tc = tcase_create("prerequisites");
  tcase_add_test(tc, test_cache_entry_depends_on_itself);
  tcase_add_test(tc, test_cache_entries_in_a_cycle);
  tcase_add_test(tc, test_output_through_cycle);
  tcase_add_test(tc, test_cache_entry_chain_without_cycle);
  tcase_add_test(tc, test_valid_tickets_accepted);
  tcase_add_test(tc, test_unknown_tickets_rejected);
  tcase_add_test(tc, test_unknown_ticket_in_cache_entry);
  tcase_add_test(tc, test_feedthrough_default_all_sources);
  tcase_add_test(tc, test_feedthrough_state_only_is_none);
  tcase_add_test(tc, test_feedthrough_through_cache_entry);
  tcase_add_test(tc, test_feedthrough_default_entry_is_all_sources);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(leaf_system_prerequisites_suite());
}
