/* The fixtures declared in support/integrator_fixtures.h. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/error.h"
#include "support/integrator_fixtures.h"
#include "support/ode_problems.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"

teal_ode ts_integ_decay_ode(problem *p) {
  teal_ode o = {0, 0, 1, decay_f, NULL, NULL, p};
  return o;
}
teal_ode ts_integ_osc_ode(problem *p) {
  teal_ode o = {1, 1, 0, osc_f, NULL, NULL, p};
  return o;
}

teal_integrator *ts_integ_new_for(const teal_integrator_type *type, const teal_ode *o) {
  teal_error err;
  teal_error_clear(&err);
  teal_integrator *integ = teal_integrator_new(type, o->nq, o->nv, o->nz, &err);
  ck_assert_msg(integ != NULL, "integrator_new(%s): %s", type->name, err.message);
  return integ;
}

int ts_integ_mapped_f(double t, const double *x, double *xdot, void *user) {
  (void)t;
  ts_integ_mapped *m = user;
  m->f_calls++;
  xdot[0] = x[2];
  xdot[1] = x[0] * x[2];
  xdot[2] = -x[0];
  return TEAL_OK;
}
