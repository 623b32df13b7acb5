/* Fixtures shared by the leaf system tests (test_leaf_system*.c): callbacks
 * (never run unless stated) and small declaration helpers. */
#ifndef TEAL_TESTS_SUPPORT_LEAF_FIXTURES_H
#define TEAL_TESTS_SUPPORT_LEAF_FIXTURES_H

#include "framework/error.h"
#include "framework/system.h"
#include "framework/ticket.h"
#include "framework/value.h"
#include "support/test_support.h"

int ts_leaf_calc_zero(const teal_system *sys, const teal_context *ctx, double *out, void *user);

int ts_leaf_calc_abstract(const teal_system *sys, const teal_context *ctx, void *out, void *user);

int ts_leaf_deriv_zero(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xdot,
                       void *user);

int ts_leaf_jac(const teal_system *sys, const teal_context *ctx, int in, int out, teal_jacobian *j,
                void *user);

extern const teal_value_type ts_leaf_msg_type;

/* The finalized leaf "decay": x' = -(*rate) x, one continuous state from
 * x0 = 1 (rate is read at every evaluation, so it must outlive the leaf).
 * When declines is not NULL it has a Jacobian hook that counts its calls
 * in *declines and declines each with TEAL_EUNSUPPORTED, "the decay leaf
 * declines today". */
teal_system *ts_leaf_decay_new(const double *rate, int *declines);

/* Asserts that the system's sticky error has code and mentions both strings. */
#define TS_LEAF_ASSERT_SYS_ERROR(sys, want_code, s1, s2)                                           \
  do {                                                                                             \
    const teal_error *e_ = teal_system_error(sys);                                                 \
    ck_assert_int_eq(e_->code, (want_code));                                                       \
    ck_assert_msg(strstr(e_->message, (s1)) != NULL, "'%s' not in '%s'", (s1), e_->message);       \
    ck_assert_msg(strstr(e_->message, (s2)) != NULL, "'%s' not in '%s'", (s2), e_->message);       \
  } while (0)

#endif
