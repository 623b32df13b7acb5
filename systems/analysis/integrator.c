/* Integrator instances: allocation, checked stepping, counters. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "systems/analysis/finite_difference.h"
#include "systems/analysis/integrator.h"
#include "systems/analysis/integrator_internal.h"

teal_integrator *teal_integrator_new(const teal_integrator_type *type, int nq, int nv, int nz,
                                     teal_error *err) {
  if (!type || !type->step || !type->alloc || !type->free) {
    teal_error_set(err, TEAL_EINVAL, "integrator_new: incomplete integrator type");
    return NULL;
  }
  if (nq < 0 || nv < 0 || nz < 0) {
    teal_error_set(err, TEAL_ESIZE, "integrator_new (%s): negative size", type->name);
    return NULL;
  }
  teal_integrator *integ = teal_calloc(1, sizeof *integ);
  if (!integ) {
    teal_error_set(err, TEAL_ENOMEM, "integrator_new (%s): out of memory", type->name);
    return NULL;
  }
  integ->type = type;
  integ->nq = nq;
  integ->nv = nv;
  integ->nz = nz;
  integ->n = nq + nv + nz;
  integ->work = type->alloc(nq, nv, nz);
  if (!integ->work) {
    teal_free(integ);
    teal_error_set(err, TEAL_ENOMEM, "integrator_new (%s): out of memory", type->name);
    return NULL;
  }
  return integ;
}

void teal_integrator_free(teal_integrator *integ) {
  if (integ) {
    integ->type->free(integ->work);
    teal_free(integ);
  }
}

const teal_integrator_type *teal_integrator_get_type(const teal_integrator *integ) {
  return integ ? integ->type : NULL;
}

int teal_integrator_eval(teal_integrator *integ, const teal_ode *ode, double t, const double *x,
                         double *xdot) {
  integ->counts.derivative_evals++;
  return ode->derivatives(t, x, xdot, ode->user);
}

/* The ODE at a fixed time, as a function of x for finite differences. */
typedef struct ode_at_time {
  teal_integrator *integ;
  const teal_ode *ode;
  double t;
} ode_at_time;

static int eval_at_time(const double *x, double *xdot, void *user) {
  ode_at_time *a = user;
  return teal_integrator_eval(a->integ, a->ode, a->t, x, xdot);
}

int teal_integrator_jacobian(teal_integrator *integ, const teal_ode *ode, double t,
                             const double *x, const double *fx, double *xs, double *fp,
                             double *J) {
  integ->counts.jacobian_evals++;
  if (ode->jacobian) {
    /* a Jacobian that declines leaves this one to differences */
    int rc = ode->jacobian(t, x, J, ode->user);
    if (rc != TEAL_EUNSUPPORTED) {
      return rc;
    }
  }
  int n = integ->n;
  memcpy(xs, x, (size_t)n * sizeof(double));
  ode_at_time at = {integ, ode, t};
  return teal_fd_jacobian(TEAL_FD_FORWARD, eval_at_time, &at, xs, n, n, sqrt(DBL_EPSILON), fx,
                          fp, NULL, J);
}

/* The failure of a step called without an ODE, its derivatives or x0/x1. */
static int missing_argument(teal_integrator *integ, const teal_ode *ode, const double *x0) {
  return teal_error_set(&integ->err, TEAL_EINVAL,
                        "%s: step needs an ODE with derivatives, x0 and x1 (got NULL %s)",
                        integ->type->name,
                        !ode                ? "ode"
                        : !ode->derivatives ? "derivatives"
                        : !x0               ? "x0"
                                            : "x1");
}

/* Records a failed step that the method did not describe (e.g. the ODE's
 * derivatives failed: whoever reported that holds the details). */
static int step_failed(teal_integrator *integ, int rc, double t, double h) {
  return teal_error_set(&integ->err, rc, "%s: the step of %g from t = %g failed: %s",
                        integ->type->name, h, t, teal_strerror(rc));
}

int teal_integrator_step(teal_integrator *integ, const teal_ode *ode, double t, double h,
                         const double *x0, double *x1, double *xerr) {
  if (!integ) {
    return TEAL_EINVAL;
  }
  if (!ode || !ode->derivatives || (integ->n && (!x0 || !x1))) {
    return missing_argument(integ, ode, x0);
  }
  if (ode->nq != integ->nq || ode->nv != integ->nv || ode->nz != integ->nz) {
    return teal_error_set(&integ->err, TEAL_ESIZE, "%s: ODE sizes (%d, %d, %d) differ from the "
                          "integrator's (%d, %d, %d)", integ->type->name, ode->nq, ode->nv,
                          ode->nz, integ->nq, integ->nv, integ->nz);
  }
  if (!(isfinite(h) && h > 0) || !isfinite(t)) {
    return teal_error_set(&integ->err, TEAL_EINVAL, "%s: step size %g at t = %g is not a "
                          "positive finite number", integ->type->name, h, t);
  }
  if (ode->nq != ode->nv && !ode->v_to_qdot) {
    return teal_error_set(&integ->err, TEAL_EINVAL,
                          "%s: nq != nv needs the ODE's v_to_qdot map", integ->type->name);
  }
  int before = integ->err.code;
  integ->err.code = TEAL_OK; /* tells whether the method records its own failure */
  int rc = integ->type->step(integ, ode, t, h, x0, x1, xerr);
  if (rc == TEAL_OK) {
    integ->counts.steps++;
    integ->have_step = 1;
  }
  if (integ->err.code == TEAL_OK) {
    if (rc < 0) {
      return step_failed(integ, rc, t, h);
    }
    integ->err.code = before; /* success keeps the last failure's record */
  }
  return rc;
}

int teal_integrator_interpolate(const teal_integrator *integ, double theta, double *x) {
  if (!integ || !x) {
    return TEAL_EINVAL;
  }
  if (!integ->type->interpolate) {
    return TEAL_EUNSUPPORTED;
  }
  if (!integ->have_step) {
    return TEAL_ESTATE;
  }
  if (!(theta >= 0.0 && theta <= 1.0)) {
    return TEAL_EINVAL;
  }
  return integ->type->interpolate(integ, theta, x);
}

void teal_integrator_reset(teal_integrator *integ) {
  if (integ) {
    integ->have_step = 0;
  }
}

teal_integrator_counts teal_integrator_get_counts(const teal_integrator *integ) {
  teal_integrator_counts none;
  memset(&none, 0, sizeof none);
  return integ ? integ->counts : none;
}

const teal_error *teal_integrator_error(const teal_integrator *integ) {
  return integ ? &integ->err : NULL;
}

void teal_integrator_lerp(int n, const double *a, const double *b, double theta, double *x) {
  for (int i = 0; i < n; i++) {
    x[i] = (1.0 - theta) * a[i] + theta * b[i];
  }
}
