/* Fixtures shared by the integrator tests (test_integrator*.c,
 * test_integrators_explicit.c). */
#ifndef TEAL_TESTS_SUPPORT_INTEGRATOR_FIXTURES_H
#define TEAL_TESTS_SUPPORT_INTEGRATOR_FIXTURES_H

#include "framework/error.h"
#include "support/ode_problems.h"
#include "support/test_support.h"
#include "systems/analysis/integrator.h"

teal_ode ts_integ_decay_ode(problem *p);

teal_ode ts_integ_osc_ode(problem *p);

teal_integrator *ts_integ_new_for(const teal_integrator_type *type, const teal_ode *o);

/* nq = 2, nv = 1: q = (a, b), v = w, with qdot = N(q) v = (v, a v) and
 * vdot = -a. The map must be used with the new v and the old q. */
typedef struct ts_integ_mapped {
  long f_calls, map_calls;
  double last_map_t;
} ts_integ_mapped;

int ts_integ_mapped_f(double t, const double *x, double *xdot, void *user);

#endif
