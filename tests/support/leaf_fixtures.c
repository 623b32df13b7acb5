/* The fixtures declared in support/leaf_fixtures.h. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/error.h"
#include "framework/leaf_system.h"
#include "framework/system.h"
#include "framework/ticket.h"
#include "framework/value.h"
#include "support/leaf_fixtures.h"
#include "support/test_support.h"

/* ---- callbacks (never run by these tests unless stated) --------------- */

int ts_leaf_calc_zero(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  out[0] = 0.0;
  return TEAL_OK;
}

int ts_leaf_calc_abstract(const teal_system *sys, const teal_context *ctx, void *out, void *user) {
  (void)sys;
  (void)ctx;
  (void)out;
  (void)user;
  return TEAL_OK;
}

int ts_leaf_deriv_zero(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xdot,
                       void *user) {
  (void)sys;
  (void)ctx;
  (void)xdot;
  (void)user;
  return TEAL_OK;
}

int ts_leaf_jac(const teal_system *sys, const teal_context *ctx, int in, int out, teal_jacobian *j,
                void *user) {
  (void)sys;
  (void)ctx;
  (void)in;
  (void)out;
  (void)j;
  (void)user;
  return TEAL_OK;
}

const teal_value_type ts_leaf_msg_type = {"msg", 16, NULL, NULL, NULL};

static int decay(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                 void *user) {
  (void)sys;
  xd->z[0] = -*(const double *)user * teal_context_z(ctx)[0];
  return TEAL_OK;
}

static int declining_hook(const teal_system *sys, const teal_context *ctx, int input_port,
                          int output_port, teal_jacobian *jac, void *user) {
  (void)sys;
  (void)input_port;
  (void)output_port;
  (void)jac;
  (*(int *)user)++;
  return teal_context_report_error(ctx, TEAL_EUNSUPPORTED, "the decay leaf declines today");
}

teal_system *ts_leaf_decay_new(const double *rate, int *declines) {
  teal_system *s = teal_leaf_new("decay", NULL, NULL);
  const double z0 = 1.0;
  teal_leaf_declare_continuous_state(s, 0, 0, 1, &z0);
  teal_leaf_set_time_derivatives(s, decay, (void *)rate);
  if (declines) {
    teal_leaf_set_jacobian(s, declining_hook, declines);
  }
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}
