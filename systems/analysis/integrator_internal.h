/* Instance layout shared by the integrator sources. Not installed. */
#ifndef TEAL_SYSTEMS_ANALYSIS_INTEGRATOR_INTERNAL_H
#define TEAL_SYSTEMS_ANALYSIS_INTEGRATOR_INTERNAL_H

#include "systems/analysis/integrator.h"

struct teal_integrator {
  const teal_integrator_type *type;
  int nq, nv, nz, n;
  void *work;
  int have_step; /* a step succeeded (dense output available) */
  teal_integrator_counts counts;
  teal_error err;
};

/* Calls the ODE's derivatives, counting the evaluation. */
int teal_integrator_eval(teal_integrator *integ, const teal_ode *ode, double t, const double *x,
                         double *xdot);

/* x = (1 - theta) a + theta b over n entries (dense output of low orders). */
void teal_integrator_lerp(int n, const double *a, const double *b, double theta, double *x);

#endif
