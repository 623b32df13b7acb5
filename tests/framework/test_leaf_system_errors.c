/* Tests of leaf declaration errors: duplicate and invalid names, negative
 * sizes, NULL callbacks, sticky errors, declarations after finalize, state
 * and event declarations that are rejected. */
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

static int publish_nop(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  return TEAL_OK;
}

static int discrete_nop(const teal_system *sys, const teal_context *ctx, double *xd,
                        void *user) {
  (void)sys;
  (void)ctx;
  (void)xd;
  (void)user;
  return TEAL_OK;
}

static int unrestricted_nop(const teal_system *sys, const teal_context *ctx,
                            teal_state_view *next, void *user) {
  (void)sys;
  (void)ctx;
  (void)next;
  (void)user;
  return TEAL_OK;
}

static int vmap(const teal_system *sys, const teal_context *ctx, const double *in, double *out,
                void *user) {
  (void)sys;
  (void)ctx;
  (void)in;
  (void)out;
  (void)user;
  return TEAL_OK;
}

static int energy(const teal_system *sys, const teal_context *ctx, double *e, void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  *e = 0;
  return TEAL_OK;
}
static const teal_value_type nameless_type = {NULL, 16, NULL, NULL, NULL};
static const teal_value_type empty_type = {"empty", 0, NULL, NULL, NULL};

START_TEST(test_negative_sizes) {
  teal_system *sys = teal_leaf_new("s", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "u", -1), TEAL_ESIZE);
  TS_LEAF_ASSERT_SYS_ERROR(sys, TEAL_ESIZE, "'u'", "'s'");
  ck_assert_int_eq(teal_system_num_input_ports(sys), 0);
  teal_system_free(sys);

  sys = teal_leaf_new("s", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", -2, ts_leaf_calc_zero, NULL, NULL, 0),
                   TEAL_ESIZE);
  TS_LEAF_ASSERT_SYS_ERROR(sys, TEAL_ESIZE, "'y'", "'s'");
  ck_assert_int_eq(teal_system_num_output_ports(sys), 0);
  teal_system_free(sys);

  const int sizes[3][3] = {{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
  for (int k = 0; k < 3; k++) {
    sys = teal_leaf_new("s", NULL, NULL);
    ck_assert_int_eq(
        teal_leaf_declare_continuous_state(sys, sizes[k][0], sizes[k][1], sizes[k][2], NULL),
        TEAL_ESIZE);
    ck_assert_int_eq(teal_system_num_continuous_states(sys, NULL, NULL, NULL), 0);
    teal_system_free(sys);
  }

  sys = teal_leaf_new("s", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, -1, NULL), TEAL_ESIZE);
  ck_assert_int_eq(teal_system_num_discrete_groups(sys), 0);
  teal_system_free(sys);

  sys = teal_leaf_new("s", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, -3, NULL), TEAL_ESIZE);
  ck_assert_int_eq(teal_system_num_numeric_parameters(sys), 0);
  teal_system_free(sys);

  sys = teal_leaf_new("s", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "e", -1, ts_leaf_calc_zero, NULL, NULL, 0),
                   TEAL_ESIZE);
  teal_system_free(sys);
}
END_TEST

/* Runs one failing declaration on a fresh leaf and checks the code. */
typedef int (*declare_fn)(teal_system *sys);

static void expect_declare_error(declare_fn fn, int code) {
  teal_system *sys = teal_leaf_new("s", NULL, NULL);
  ck_assert_int_eq(fn(sys), code);
  ck_assert_int_eq(teal_system_error(sys)->code, code);
  ck_assert_int_gt((int)strlen(teal_system_error(sys)->message), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), code);
  teal_system_free(sys);
}

static int d_null_vector_calc(teal_system *s) {
  return teal_leaf_declare_vector_output(s, "y", 1, NULL, NULL, NULL, 0);
}
static int d_null_abstract_calc(teal_system *s) {
  return teal_leaf_declare_abstract_output(s, "y", &ts_leaf_msg_type, NULL, NULL, NULL, 0);
}
static int d_null_cache_calc(teal_system *s) {
  return teal_leaf_declare_cache_entry(s, "e", 1, NULL, NULL, NULL, 0);
}
static int d_null_abstract_cache_calc(teal_system *s) {
  return teal_leaf_declare_abstract_cache_entry(s, "e", &ts_leaf_msg_type, NULL, NULL, NULL, 0);
}
static int d_null_derivatives(teal_system *s) {
  return teal_leaf_set_time_derivatives(s, NULL, NULL);
}
static int d_null_velocity_map(teal_system *s) {
  return teal_leaf_set_velocity_map(s, vmap, NULL, NULL);
}
static int d_null_velocity_map2(teal_system *s) {
  return teal_leaf_set_velocity_map(s, NULL, vmap, NULL);
}
static int d_null_jacobian(teal_system *s) { return teal_leaf_set_jacobian(s, NULL, NULL); }
static int d_null_publish(teal_system *s) {
  return teal_leaf_declare_periodic_publish(s, 1.0, 0.0, NULL, NULL);
}
static int d_null_discrete(teal_system *s) {
  return teal_leaf_declare_periodic_discrete_update(s, 1.0, 0.0, NULL, NULL);
}
static int d_null_unrestricted(teal_system *s) {
  return teal_leaf_declare_periodic_unrestricted_update(s, 1.0, 0.0, NULL, NULL);
}
static int d_null_per_step(teal_system *s) {
  return teal_leaf_declare_per_step_publish(s, NULL, NULL);
}
static int d_null_per_step_du(teal_system *s) {
  return teal_leaf_declare_per_step_discrete_update(s, NULL, NULL);
}
static int d_null_per_step_uu(teal_system *s) {
  return teal_leaf_declare_per_step_unrestricted_update(s, NULL, NULL);
}
static int d_null_init_pub(teal_system *s) {
  return teal_leaf_declare_initialization_publish(s, NULL, NULL);
}
static int d_null_init_du(teal_system *s) {
  return teal_leaf_declare_initialization_discrete_update(s, NULL, NULL);
}
static int d_null_init_uu(teal_system *s) {
  return teal_leaf_declare_initialization_unrestricted_update(s, NULL, NULL);
}
static int d_null_forced(teal_system *s) { return teal_leaf_declare_forced_publish(s, NULL, NULL); }
static int d_null_input_type(teal_system *s) {
  return teal_leaf_declare_abstract_input(s, "in", NULL);
}
static int d_null_output_type(teal_system *s) {
  return teal_leaf_declare_abstract_output(s, "out", NULL, ts_leaf_calc_abstract, NULL, NULL, 0);
}
static int d_null_state_type(teal_system *s) {
  return teal_leaf_declare_abstract_state(s, NULL, NULL);
}
static int d_nameless_state_type(teal_system *s) {
  return teal_leaf_declare_abstract_state(s, &nameless_type, NULL);
}
static int d_empty_state_type(teal_system *s) {
  return teal_leaf_declare_abstract_state(s, &empty_type, NULL);
}
static int d_nameless_output_type(teal_system *s) {
  return teal_leaf_declare_abstract_output(s, "out", &nameless_type, ts_leaf_calc_abstract, NULL,
                                           NULL, 0);
}
static int d_bad_prereq_list(teal_system *s) {
  return teal_leaf_declare_vector_output(s, "y", 1, ts_leaf_calc_zero, NULL, NULL, 2);
}
static int d_negative_prereq_count(teal_system *s) {
  teal_ticket t = TEAL_TICKET_TIME;
  return teal_leaf_declare_vector_output(s, "y", 1, ts_leaf_calc_zero, NULL, &t, -1);
}

START_TEST(test_null_callbacks_and_types_rejected) {
  declare_fn fns[] = {d_null_vector_calc, d_null_abstract_calc, d_null_cache_calc,
                      d_null_abstract_cache_calc, d_null_derivatives, d_null_velocity_map,
                      d_null_velocity_map2, d_null_jacobian, d_null_publish, d_null_discrete,
                      d_null_unrestricted, d_null_per_step, d_null_per_step_du,
                      d_null_per_step_uu, d_null_init_pub, d_null_init_du, d_null_init_uu,
                      d_null_forced, d_null_input_type, d_null_output_type, d_null_state_type,
                      d_nameless_state_type, d_empty_state_type, d_nameless_output_type,
                      d_bad_prereq_list, d_negative_prereq_count};
  for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
    expect_declare_error(fns[k], TEAL_EINVAL);
  }
}
END_TEST

START_TEST(test_sticky_error) {
  teal_system *sys = teal_leaf_new("plant", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "u", 1), 0);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "u", 1), TEAL_EDUPLICATE);
  char first[TEAL_ERROR_MESSAGE_MAX];
  strcpy(first, teal_system_error(sys)->message);
  /* later, valid declarations are no-ops returning the first error */
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "v", 1), TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", 1, ts_leaf_calc_zero, NULL, NULL, 0),
                   TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 1, 1, 0, NULL), TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 1, NULL), TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, 1, NULL), TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &ts_leaf_msg_type, NULL), TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "e", 1, ts_leaf_calc_zero, NULL, NULL, 0),
                   TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, ts_leaf_deriv_zero, NULL), TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_declare_periodic_publish(sys, 1.0, 0.0, publish_nop, NULL),
                   TEAL_EDUPLICATE);
  /* a second, different error does not replace the first either */
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "w", -5), TEAL_EDUPLICATE);
  ck_assert_int_eq(
      teal_leaf_declare_vector_output(sys, "bad/name", 1, ts_leaf_calc_zero, NULL, NULL, 0),
      TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_system_num_input_ports(sys), 1);
  ck_assert_int_eq(teal_system_num_output_ports(sys), 0);
  ck_assert_int_eq(teal_system_num_continuous_states(sys, NULL, NULL, NULL), 0);
  ck_assert_int_eq(teal_system_num_discrete_groups(sys), 0);
  ck_assert_int_eq(teal_system_num_numeric_parameters(sys), 0);
  ck_assert_int_eq(teal_system_num_abstract_states(sys), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_system_error(sys)->code, TEAL_EDUPLICATE);
  ck_assert_str_eq(teal_system_error(sys)->message, first);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_declare_after_finalize) {
  teal_system *sys = teal_leaf_new("done", NULL, NULL);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "u", 1), TEAL_ESTATE);
  TS_LEAF_ASSERT_SYS_ERROR(sys, TEAL_ESTATE, "done", "finalized");
  ck_assert_int_eq(teal_system_num_input_ports(sys), 0);
  teal_system_free(sys);
}
END_TEST

static int d_input(teal_system *s) { return teal_leaf_declare_vector_input(s, "u", 1); }
static int d_ainput(teal_system *s) {
  return teal_leaf_declare_abstract_input(s, "a", &ts_leaf_msg_type);
}
static int d_output(teal_system *s) {
  return teal_leaf_declare_vector_output(s, "y", 1, ts_leaf_calc_zero, NULL, NULL, 0);
}
static int d_aoutput(teal_system *s) {
  return teal_leaf_declare_abstract_output(s, "a", &ts_leaf_msg_type, ts_leaf_calc_abstract, NULL,
                                           NULL, 0);
}
static int d_xc(teal_system *s) { return teal_leaf_declare_continuous_state(s, 1, 1, 0, NULL); }
static int d_xd(teal_system *s) { return teal_leaf_declare_discrete_state(s, 1, NULL); }
static int d_xa(teal_system *s) {
  return teal_leaf_declare_abstract_state(s, &ts_leaf_msg_type, NULL);
}
static int d_param(teal_system *s) { return teal_leaf_declare_numeric_parameter(s, 1, NULL); }
static int d_entry(teal_system *s) {
  return teal_leaf_declare_cache_entry(s, "e", 1, ts_leaf_calc_zero, NULL, NULL, 0);
}
static int d_aentry(teal_system *s) {
  return teal_leaf_declare_abstract_cache_entry(s, "e", &ts_leaf_msg_type, ts_leaf_calc_abstract,
                                                NULL, NULL, 0);
}
static int d_deriv(teal_system *s) {
  return teal_leaf_set_time_derivatives(s, ts_leaf_deriv_zero, NULL);
}
static int d_energy(teal_system *s) { return teal_leaf_set_energy(s, energy, energy, NULL); }
static int d_vmap(teal_system *s) { return teal_leaf_set_velocity_map(s, vmap, vmap, NULL); }
static int d_jac(teal_system *s) {
  return teal_leaf_set_jacobian(s, ts_leaf_jac, NULL);
}
static int d_pp(teal_system *s) {
  return teal_leaf_declare_periodic_publish(s, 1.0, 0.0, publish_nop, NULL);
}
static int d_pd(teal_system *s) {
  return teal_leaf_declare_periodic_discrete_update(s, 1.0, 0.0, discrete_nop, NULL);
}
static int d_pu(teal_system *s) {
  return teal_leaf_declare_periodic_unrestricted_update(s, 1.0, 0.0, unrestricted_nop, NULL);
}
static int d_sp(teal_system *s) { return teal_leaf_declare_per_step_publish(s, publish_nop, NULL); }
static int d_sd(teal_system *s) {
  return teal_leaf_declare_per_step_discrete_update(s, discrete_nop, NULL);
}
static int d_su(teal_system *s) {
  return teal_leaf_declare_per_step_unrestricted_update(s, unrestricted_nop, NULL);
}
static int d_ip(teal_system *s) {
  return teal_leaf_declare_initialization_publish(s, publish_nop, NULL);
}
static int d_id(teal_system *s) {
  return teal_leaf_declare_initialization_discrete_update(s, discrete_nop, NULL);
}
static int d_iu(teal_system *s) {
  return teal_leaf_declare_initialization_unrestricted_update(s, unrestricted_nop, NULL);
}
static int d_fp(teal_system *s) { return teal_leaf_declare_forced_publish(s, publish_nop, NULL); }
static int d_finalize(teal_system *s) { return teal_leaf_finalize(s); }

static declare_fn all_declarations[] = {
    d_input, d_ainput, d_output, d_aoutput, d_xc, d_xd, d_xa, d_param, d_entry, d_aentry,
    d_deriv, d_energy, d_vmap, d_jac, d_pp, d_pd, d_pu, d_sp, d_sd, d_su, d_ip, d_id, d_iu,
    d_fp, d_finalize};

START_TEST(test_every_declaration_after_finalize_is_estate) {
  for (size_t k = 0; k < sizeof all_declarations / sizeof all_declarations[0]; k++) {
    teal_system *sys = teal_leaf_new("done", NULL, NULL);
    ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
    ck_assert_msg(all_declarations[k](sys) == TEAL_ESTATE, "declaration %zu after finalize", k);
    teal_system_free(sys);
  }
}
END_TEST

START_TEST(test_every_declaration_succeeds_on_fresh_leaf) {
  /* the same calls are valid before finalize (so the ESTATE test means something) */
  for (size_t k = 0; k < sizeof all_declarations / sizeof all_declarations[0]; k++) {
    teal_system *sys = teal_leaf_new("fresh", NULL, NULL);
    int rc = all_declarations[k](sys);
    ck_assert_msg(rc >= 0, "declaration %zu failed: %s", k, teal_system_error(sys)->message);
    teal_system_free(sys);
  }
}
END_TEST

START_TEST(test_continuous_state_twice) {
  teal_system *sys = teal_leaf_new("twice", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 1, 1, 0, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 2, 2, 0, NULL), TEAL_EDUPLICATE);
  TS_LEAF_ASSERT_SYS_ERROR(sys, TEAL_EDUPLICATE, "twice", "continuous");
  int nq = -1, nv = -1, nz = -1;
  ck_assert_int_eq(teal_system_num_continuous_states(sys, &nq, &nv, &nz), 2);
  ck_assert_int_eq(nq, 1);
  ck_assert_int_eq(nv, 1);
  ck_assert_int_eq(nz, 0);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_continuous_state_twice_even_if_empty) {
  teal_system *sys = teal_leaf_new("twice", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 0, 0, 0, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 1, 1, 0, NULL), TEAL_EDUPLICATE);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_continuous_state_without_derivatives) {
  teal_system *sys = teal_leaf_new("nodot", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 0, 0, 2, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EINVAL);
  TS_LEAF_ASSERT_SYS_ERROR(sys, TEAL_EINVAL, "nodot", "derivative");
  /* still not finalized: a context cannot be made */
  teal_system_free(sys);

  sys = teal_leaf_new("withdot", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 0, 0, 2, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, ts_leaf_deriv_zero, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_nq_ne_nv_needs_velocity_map) {
  teal_system *sys = teal_leaf_new("quat", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 4, 3, 0, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, ts_leaf_deriv_zero, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EINVAL);
  TS_LEAF_ASSERT_SYS_ERROR(sys, TEAL_EINVAL, "quat", "velocity map");
  teal_system_free(sys);

  sys = teal_leaf_new("quat", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 4, 3, 0, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, ts_leaf_deriv_zero, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_velocity_map(sys, vmap, vmap, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  int nq, nv, nz;
  ck_assert_int_eq(teal_system_num_continuous_states(sys, &nq, &nv, &nz), 7);
  ck_assert_int_eq(nq, 4);
  ck_assert_int_eq(nv, 3);
  ck_assert_int_eq(nz, 0);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_non_finite_defaults_rejected) {
  const double bad[3] = {NAN, INFINITY, -INFINITY};
  for (int k = 0; k < 3; k++) {
    double x[3] = {0.0, 1.0, 2.0};
    x[k] = bad[k];
    teal_system *sys = teal_leaf_new("nf", NULL, NULL);
    ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 1, 1, 1, x), TEAL_ENONFINITE);
    TS_LEAF_ASSERT_SYS_ERROR(sys, TEAL_ENONFINITE, "nf", "finite");
    ck_assert_int_eq(teal_system_num_continuous_states(sys, NULL, NULL, NULL), 0);
    teal_system_free(sys);

    sys = teal_leaf_new("nf", NULL, NULL);
    ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 3, x), TEAL_ENONFINITE);
    ck_assert_int_eq(teal_system_num_discrete_groups(sys), 0);
    ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_ENONFINITE);
    teal_system_free(sys);

    sys = teal_leaf_new("nf", NULL, NULL);
    ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, 3, x), TEAL_ENONFINITE);
    ck_assert_int_eq(teal_system_num_numeric_parameters(sys), 0);
    teal_system_free(sys);
  }
}
END_TEST

START_TEST(test_periodic_event_period_and_offset) {
  const double bad[][2] = {{0.0, 0.0},  {-1.0, 0.0},     {NAN, 0.0},  {INFINITY, 0.0},
                           {1.0, -0.5}, {1.0, NAN},      {1.0, INFINITY}, {-INFINITY, 0.0}};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    teal_system *sys = teal_leaf_new("clock", NULL, NULL);
    ck_assert_int_eq(teal_leaf_declare_periodic_publish(sys, bad[k][0], bad[k][1], publish_nop,
                                                        NULL), TEAL_EINVAL);
    ck_assert_ptr_nonnull(strstr(teal_system_error(sys)->message, "clock"));
    teal_system_free(sys);
    sys = teal_leaf_new("clock", NULL, NULL);
    ck_assert_int_eq(teal_leaf_declare_periodic_discrete_update(sys, bad[k][0], bad[k][1],
                                                                discrete_nop, NULL),
                     TEAL_EINVAL);
    teal_system_free(sys);
    sys = teal_leaf_new("clock", NULL, NULL);
    ck_assert_int_eq(teal_leaf_declare_periodic_unrestricted_update(sys, bad[k][0], bad[k][1],
                                                                    unrestricted_nop, NULL),
                     TEAL_EINVAL);
    teal_system_free(sys);
  }
  teal_system *sys = teal_leaf_new("clock", NULL, NULL);
  ck_assert_int_ge(teal_leaf_declare_periodic_publish(sys, 0.25, 0.0, publish_nop, NULL), 0);
  ck_assert_int_ge(teal_leaf_declare_periodic_discrete_update(sys, 1e-3, 2.0, discrete_nop, NULL),
                   0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  teal_system_free(sys);
}
END_TEST

static Suite *leaf_system_errors_suite(void) {
  Suite *s = suite_create("leaf_system_errors");
  TCase *tc = tcase_create("errors");
  tcase_add_test(tc, test_negative_sizes);
  tcase_add_test(tc, test_null_callbacks_and_types_rejected);
  tcase_add_test(tc, test_sticky_error);
  tcase_add_test(tc, test_declare_after_finalize);
  tcase_add_test(tc, test_every_declaration_after_finalize_is_estate);
  tcase_add_test(tc, test_every_declaration_succeeds_on_fresh_leaf);
  tcase_add_test(tc, test_continuous_state_twice);
  tcase_add_test(tc, test_continuous_state_twice_even_if_empty);
  tcase_add_test(tc, test_continuous_state_without_derivatives);
  tcase_add_test(tc, test_nq_ne_nv_needs_velocity_map);
  tcase_add_test(tc, test_non_finite_defaults_rejected);
  tcase_add_test(tc, test_periodic_event_period_and_offset);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(leaf_system_errors_suite());
}
