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

/* J = df/dx (n x n) at (t, x), counting the evaluation: the ODE's analytic
 * Jacobian when it has one and does not decline (TEAL_EUNSUPPORTED), else forward differences
 * (finite_difference.h) with steps sqrt(DBL_EPSILON) max(|x_j|, 1) from fx = f(t, x); xs and fp are
 * n-entry scratch. */
int teal_integrator_jacobian(teal_integrator *integ, const teal_ode *ode, double t,
                             const double *x, const double *fx, double *xs, double *fp,
                             double *J);

/* x = (1 - theta) a + theta b over n entries (dense output of low orders). */
void teal_integrator_lerp(int n, const double *a, const double *b, double theta, double *x);

#endif
