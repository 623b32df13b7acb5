/* Tests for the leaf declaration API of framework/system.h: ports, state,
 * parameters, cache entries, events, sticky errors, finalize checks,
 * feedthrough from prerequisites and the system queries. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/error.h"
#include "framework/system.h"
#include "framework/ticket.h"
#include "framework/value.h"
#include "support/test_support.h"

/* ---- callbacks (never run by these tests unless stated) --------------- */

static int calc_zero(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  out[0] = 0.0;
  return TEAL_OK;
}

static int calc_abstract(const teal_system *sys, const teal_context *ctx, void *out,
                         void *user) {
  (void)sys;
  (void)ctx;
  (void)out;
  (void)user;
  return TEAL_OK;
}

static int deriv_zero(const teal_system *sys, const teal_context *ctx,
                      teal_continuous_view *xdot, void *user) {
  (void)sys;
  (void)ctx;
  (void)xdot;
  (void)user;
  return TEAL_OK;
}

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

static int jac(const teal_system *sys, const teal_context *ctx, int in, int out,
               teal_jacobian *j, void *user) {
  (void)sys;
  (void)ctx;
  (void)in;
  (void)out;
  (void)j;
  (void)user;
  return TEAL_OK;
}

static const teal_value_type msg_type = {"msg", 16, NULL, NULL, NULL};
static const teal_value_type nameless_type = {NULL, 16, NULL, NULL, NULL};
static const teal_value_type empty_type = {"empty", 0, NULL, NULL, NULL};

/* Asserts that the system's sticky error has code and mentions both strings. */
#define ASSERT_SYS_ERROR(sys, want_code, s1, s2)                                        \
  do {                                                                                  \
    const teal_error *e_ = teal_system_error(sys);                                      \
    ck_assert_int_eq(e_->code, (want_code));                                            \
    ck_assert_msg(strstr(e_->message, (s1)) != NULL, "'%s' not in '%s'", (s1),          \
                  e_->message);                                                         \
    ck_assert_msg(strstr(e_->message, (s2)) != NULL, "'%s' not in '%s'", (s2),          \
                  e_->message);                                                         \
  } while (0)

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
  ck_assert_int_eq(teal_leaf_declare_abstract_input(sys, "cmd", &msg_type), 1);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "w", 0), 2);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", 2, calc_zero, NULL, NULL, 0), 0);
  ck_assert_int_eq(
      teal_leaf_declare_abstract_output(sys, "status", &msg_type, calc_abstract, NULL, NULL, 0),
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
  ck_assert_ptr_eq(teal_input_port_type(cmd), &msg_type);

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
  ck_assert_ptr_eq(teal_output_port_type(st), &msg_type);

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
  ASSERT_SYS_ERROR(sys, TEAL_EDUPLICATE, "'u'", "plant");
  ck_assert_int_eq(teal_system_num_input_ports(sys), 1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EDUPLICATE);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_duplicate_abstract_input_name) {
  teal_system *sys = teal_leaf_new("ctrl", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "cmd", 1), 0);
  ck_assert_int_eq(teal_leaf_declare_abstract_input(sys, "cmd", &msg_type), TEAL_EDUPLICATE);
  ASSERT_SYS_ERROR(sys, TEAL_EDUPLICATE, "'cmd'", "ctrl");
  teal_system_free(sys);
}
END_TEST

START_TEST(test_duplicate_output_name) {
  teal_system *sys = teal_leaf_new("sensor", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", 1, calc_zero, NULL, NULL, 0), 0);
  ck_assert_int_eq(
      teal_leaf_declare_abstract_output(sys, "y", &msg_type, calc_abstract, NULL, NULL, 0),
      TEAL_EDUPLICATE);
  ASSERT_SYS_ERROR(sys, TEAL_EDUPLICATE, "'y'", "sensor");
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
    ck_assert_int_eq(teal_leaf_declare_vector_output(sys, bad[k], 1, calc_zero, NULL, NULL, 0),
                     TEAL_EINVAL);
    ck_assert_int_eq(teal_system_num_output_ports(sys), 0);
    teal_system_free(sys);

    sys = teal_leaf_new("s", NULL, NULL);
    ck_assert_int_eq(teal_leaf_declare_abstract_input(sys, bad[k], &msg_type), TEAL_EINVAL);
    teal_system_free(sys);

    sys = teal_leaf_new("s", NULL, NULL);
    ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, bad[k], 1, calc_zero, NULL, NULL, 0),
                     TEAL_EINVAL);
    teal_system_free(sys);
  }
}
END_TEST

START_TEST(test_negative_sizes) {
  teal_system *sys = teal_leaf_new("s", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "u", -1), TEAL_ESIZE);
  ASSERT_SYS_ERROR(sys, TEAL_ESIZE, "'u'", "'s'");
  ck_assert_int_eq(teal_system_num_input_ports(sys), 0);
  teal_system_free(sys);

  sys = teal_leaf_new("s", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", -2, calc_zero, NULL, NULL, 0),
                   TEAL_ESIZE);
  ASSERT_SYS_ERROR(sys, TEAL_ESIZE, "'y'", "'s'");
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
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "e", -1, calc_zero, NULL, NULL, 0),
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
  return teal_leaf_declare_abstract_output(s, "y", &msg_type, NULL, NULL, NULL, 0);
}
static int d_null_cache_calc(teal_system *s) {
  return teal_leaf_declare_cache_entry(s, "e", 1, NULL, NULL, NULL, 0);
}
static int d_null_abstract_cache_calc(teal_system *s) {
  return teal_leaf_declare_abstract_cache_entry(s, "e", &msg_type, NULL, NULL, NULL, 0);
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
  return teal_leaf_declare_abstract_output(s, "out", NULL, calc_abstract, NULL, NULL, 0);
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
  return teal_leaf_declare_abstract_output(s, "out", &nameless_type, calc_abstract, NULL, NULL,
                                           0);
}
static int d_bad_prereq_list(teal_system *s) {
  return teal_leaf_declare_vector_output(s, "y", 1, calc_zero, NULL, NULL, 2);
}
static int d_negative_prereq_count(teal_system *s) {
  teal_ticket t = TEAL_TICKET_TIME;
  return teal_leaf_declare_vector_output(s, "y", 1, calc_zero, NULL, &t, -1);
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
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", 1, calc_zero, NULL, NULL, 0),
                   TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 1, 1, 0, NULL), TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 1, NULL), TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, 1, NULL), TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &msg_type, NULL), TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "e", 1, calc_zero, NULL, NULL, 0),
                   TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, deriv_zero, NULL), TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_declare_periodic_publish(sys, 1.0, 0.0, publish_nop, NULL),
                   TEAL_EDUPLICATE);
  /* a second, different error does not replace the first either */
  ck_assert_int_eq(teal_leaf_declare_vector_input(sys, "w", -5), TEAL_EDUPLICATE);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "bad/name", 1, calc_zero, NULL, NULL, 0),
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
  ASSERT_SYS_ERROR(sys, TEAL_ESTATE, "done", "finalized");
  ck_assert_int_eq(teal_system_num_input_ports(sys), 0);
  teal_system_free(sys);
}
END_TEST

static int d_input(teal_system *s) { return teal_leaf_declare_vector_input(s, "u", 1); }
static int d_ainput(teal_system *s) {
  return teal_leaf_declare_abstract_input(s, "a", &msg_type);
}
static int d_output(teal_system *s) {
  return teal_leaf_declare_vector_output(s, "y", 1, calc_zero, NULL, NULL, 0);
}
static int d_aoutput(teal_system *s) {
  return teal_leaf_declare_abstract_output(s, "a", &msg_type, calc_abstract, NULL, NULL, 0);
}
static int d_xc(teal_system *s) { return teal_leaf_declare_continuous_state(s, 1, 1, 0, NULL); }
static int d_xd(teal_system *s) { return teal_leaf_declare_discrete_state(s, 1, NULL); }
static int d_xa(teal_system *s) { return teal_leaf_declare_abstract_state(s, &msg_type, NULL); }
static int d_param(teal_system *s) { return teal_leaf_declare_numeric_parameter(s, 1, NULL); }
static int d_entry(teal_system *s) {
  return teal_leaf_declare_cache_entry(s, "e", 1, calc_zero, NULL, NULL, 0);
}
static int d_aentry(teal_system *s) {
  return teal_leaf_declare_abstract_cache_entry(s, "e", &msg_type, calc_abstract, NULL, NULL, 0);
}
static int d_deriv(teal_system *s) { return teal_leaf_set_time_derivatives(s, deriv_zero, NULL); }
static int d_energy(teal_system *s) { return teal_leaf_set_energy(s, energy, energy, NULL); }
static int d_vmap(teal_system *s) { return teal_leaf_set_velocity_map(s, vmap, vmap, NULL); }
static int d_jac(teal_system *s) { return teal_leaf_set_jacobian(s, jac, NULL); }
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
  ASSERT_SYS_ERROR(sys, TEAL_EDUPLICATE, "twice", "continuous");
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
  ASSERT_SYS_ERROR(sys, TEAL_EINVAL, "nodot", "derivative");
  /* still not finalized: a context cannot be made */
  teal_system_free(sys);

  sys = teal_leaf_new("withdot", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 0, 0, 2, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, deriv_zero, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_nq_ne_nv_needs_velocity_map) {
  teal_system *sys = teal_leaf_new("quat", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 4, 3, 0, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, deriv_zero, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EINVAL);
  ASSERT_SYS_ERROR(sys, TEAL_EINVAL, "quat", "velocity map");
  teal_system_free(sys);

  sys = teal_leaf_new("quat", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 4, 3, 0, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, deriv_zero, NULL), TEAL_OK);
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
    ASSERT_SYS_ERROR(sys, TEAL_ENONFINITE, "nf", "finite");
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

START_TEST(test_cache_entry_depends_on_itself) {
  teal_system *sys = teal_leaf_new("loopy", NULL, NULL);
  teal_ticket self = teal_ticket_cache(0);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "selfish", 1, calc_zero, NULL, &self, 1),
                   0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EALGLOOP);
  ASSERT_SYS_ERROR(sys, TEAL_EALGLOOP, "loopy", "selfish");
  teal_system_free(sys);
}
END_TEST

START_TEST(test_cache_entries_in_a_cycle) {
  teal_system *sys = teal_leaf_new("loopy", NULL, NULL);
  teal_ticket a_deps[2] = {TEAL_TICKET_TIME, teal_ticket_cache(1)};
  teal_ticket b_deps[1] = {teal_ticket_cache(2)};
  teal_ticket c_deps[2] = {TEAL_TICKET_Q, teal_ticket_cache(0)};
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "a", 1, calc_zero, NULL, a_deps, 2), 0);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "b", 1, calc_zero, NULL, b_deps, 1), 1);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "c", 1, calc_zero, NULL, c_deps, 2), 2);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EALGLOOP);
  ck_assert_int_eq(teal_system_error(sys)->code, TEAL_EALGLOOP);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_output_through_cycle) {
  /* an output depending on a cycle of entries is rejected too */
  teal_system *sys = teal_leaf_new("loopy", NULL, NULL);
  teal_ticket e0 = teal_ticket_cache(0), e1 = teal_ticket_cache(1);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", 1, calc_zero, NULL, &e0, 1), 0);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "p", 1, calc_zero, NULL, &e1, 1), 0);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "q", 1, calc_zero, NULL, &e0, 1), 1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EALGLOOP);
  teal_system_free(sys);
}
END_TEST

START_TEST(test_cache_entry_chain_without_cycle) {
  teal_system *sys = teal_leaf_new("chain", NULL, NULL);
  teal_ticket e0 = teal_ticket_cache(0), e1 = teal_ticket_cache(1), q = TEAL_TICKET_Q;
  /* entries may name entries declared later; a diamond is not a cycle */
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "top", 1, calc_zero, NULL, &e1, 1), 0);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "mid", 1, calc_zero, NULL, &q, 1), 1);
  teal_ticket both[2] = {e0, e1};
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "diamond", 1, calc_zero, NULL, both, 2),
                   2);
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", 1, calc_zero, NULL, both, 2), 0);
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
  teal_leaf_declare_abstract_state(sys, &msg_type, NULL);
  teal_leaf_declare_numeric_parameter(sys, 1, NULL);
  teal_ticket q = TEAL_TICKET_Q;
  teal_leaf_declare_cache_entry(sys, "e", 1, calc_zero, NULL, &q, 1);
  teal_leaf_declare_vector_output(sys, "y", 1, calc_zero, NULL, &t, 1);
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
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "e", 1, calc_zero, NULL, &t, 1), 0);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_EINVAL);
  ASSERT_SYS_ERROR(sys, TEAL_EINVAL, "entries", "'e'");
  teal_system_free(sys);
}
END_TEST

/* ---- feedthrough ------------------------------------------------------ */

START_TEST(test_feedthrough_default_all_sources) {
  teal_system *sys = teal_leaf_new("ft", NULL, NULL);
  teal_leaf_declare_vector_input(sys, "a", 1);
  teal_leaf_declare_vector_input(sys, "b", 1);
  teal_leaf_declare_abstract_input(sys, "c", &msg_type);
  teal_leaf_declare_vector_output(sys, "y", 1, calc_zero, NULL, NULL, 0);
  teal_ticket all = TEAL_TICKET_ALL_SOURCES;
  teal_leaf_declare_vector_output(sys, "z", 1, calc_zero, NULL, &all, 1);
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
  teal_leaf_set_time_derivatives(sys, deriv_zero, NULL);
  teal_leaf_declare_discrete_state(sys, 1, NULL);
  teal_leaf_declare_numeric_parameter(sys, 1, NULL);
  teal_ticket xc = TEAL_TICKET_XC;
  teal_ticket many[5] = {TEAL_TICKET_ALL_STATE, TEAL_TICKET_TIME, TEAL_TICKET_ALL_PARAMETERS,
                         teal_ticket_discrete(0), TEAL_TICKET_ACCURACY};
  teal_ticket nothing = TEAL_TICKET_NOTHING;
  teal_leaf_declare_vector_output(sys, "x", 2, calc_zero, NULL, &xc, 1);
  teal_leaf_declare_vector_output(sys, "w", 2, calc_zero, NULL, many, 5);
  teal_leaf_declare_vector_output(sys, "k", 2, calc_zero, NULL, &nothing, 1);
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
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "e", 1, calc_zero, NULL, e_deps, 2), 0);
  teal_ticket y_deps[2] = {TEAL_TICKET_Q, teal_ticket_cache(0)};
  teal_leaf_declare_vector_output(sys, "y", 1, calc_zero, NULL, y_deps, 2);
  /* a second level: entry f depends on entry e, output z on f and input 2 */
  teal_ticket f_dep = teal_ticket_cache(0);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "f", 1, calc_zero, NULL, &f_dep, 1), 1);
  teal_ticket z_deps[2] = {teal_ticket_cache(1), teal_ticket_input(2)};
  teal_leaf_declare_vector_output(sys, "z", 1, calc_zero, NULL, z_deps, 2);
  teal_ticket in0 = teal_ticket_input(0);
  teal_leaf_declare_vector_output(sys, "d", 1, calc_zero, NULL, &in0, 1);
  teal_ticket all_in = TEAL_TICKET_ALL_INPUTS;
  teal_leaf_declare_vector_output(sys, "a", 1, calc_zero, NULL, &all_in, 1);
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
  teal_leaf_declare_cache_entry(sys, "e", 1, calc_zero, NULL, NULL, 0);
  teal_ticket e = teal_ticket_cache(0);
  teal_leaf_declare_vector_output(sys, "y", 1, calc_zero, NULL, &e, 1);
  ck_assert_int_eq(teal_leaf_finalize(sys), TEAL_OK);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 0, 0), 1);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(sys, 1, 0), 1);
  teal_system_free(sys);
}
END_TEST

/* ---- size queries ----------------------------------------------------- */

START_TEST(test_size_queries) {
  teal_system *sys = teal_leaf_new("sizes", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(sys, 2, 2, 3, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(sys, deriv_zero, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 4, NULL), 0);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 0, NULL), 1);
  ck_assert_int_eq(teal_leaf_declare_discrete_state(sys, 2, NULL), 2);
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &msg_type, NULL), 0);
  ck_assert_int_eq(teal_leaf_declare_abstract_state(sys, &ts_buf_type, NULL), 1);
  ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, 3, NULL), 0);
  ck_assert_int_eq(teal_leaf_declare_numeric_parameter(sys, 1, NULL), 1);
  /* cache entry indices count only declared entries, not outputs */
  ck_assert_int_eq(teal_leaf_declare_vector_output(sys, "y", 1, calc_zero, NULL, NULL, 0), 0);
  ck_assert_int_eq(teal_leaf_declare_cache_entry(sys, "e0", 2, calc_zero, NULL, NULL, 0), 0);
  ck_assert_int_eq(
      teal_leaf_declare_abstract_cache_entry(sys, "e1", &msg_type, calc_abstract, NULL, NULL, 0),
      1);
  ck_assert_int_eq(teal_leaf_set_jacobian(sys, jac, NULL), TEAL_OK);
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

static Suite *leaf_suite(void) {
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

  tc = tcase_create("errors");
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

  tc = tcase_create("prerequisites");
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

  tc = tcase_create("queries");
  tcase_add_test(tc, test_size_queries);
  tcase_add_test(tc, test_type_tag);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(leaf_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
