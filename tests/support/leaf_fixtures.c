/* The fixtures declared in support/leaf_fixtures.h. */
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
