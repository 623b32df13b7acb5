/* Test problems with analytic solutions shared by the integrator tests
 * (explicit family and the implicit ones). Header-only: each test program is
 * one translation unit, and static inline keeps unused ones quiet. */
#ifndef TEAL_TESTS_SUPPORT_ODE_PROBLEMS_H
#define TEAL_TESTS_SUPPORT_ODE_PROBLEMS_H

#include <math.h>
#include <string.h>

#include "framework/error.h"

/* Every problem counts its derivative and Jacobian calls. */
typedef struct problem {
  double w;          /* oscillator frequency, decay rate, stiffness ... */
  long f_calls;      /* derivative calls */
  long j_calls;      /* Jacobian calls */
  long map_calls;    /* v_to_qdot calls */
  double j_t, j_x0;  /* where the Jacobian was last asked for */
  double fail_after; /* derivatives fail (TEAL_ECALLBACK) for t > fail_after */
} problem;

static inline problem make_problem(double w) {
  problem p;
  memset(&p, 0, sizeof p);
  p.w = w;
  p.fail_after = INFINITY;
  return p;
}

/* x' = -w x (nz = 1): x = exp(-w t) */
static inline int decay_f(double t, const double *x, double *xdot, void *user) {
  problem *p = user;
  p->f_calls++;
  if (t > p->fail_after) {
    return TEAL_ECALLBACK;
  }
  xdot[0] = -p->w * x[0];
  return TEAL_OK;
}
static inline void decay_exact(double t, const problem *p, double *x) {
  x[0] = exp(-p->w * t);
}

/* Harmonic oscillator q' = v, v' = -w^2 q (nq = nv = 1), q(0) = 1, v(0) = 0:
 * q = cos(w t), v = -w sin(w t). */
static inline int osc_f(double t, const double *x, double *xdot, void *user) {
  (void)t;
  problem *p = user;
  p->f_calls++;
  xdot[0] = x[1];
  xdot[1] = -p->w * p->w * x[0];
  return TEAL_OK;
}
static inline void osc_exact(double t, const problem *p, double *x) {
  x[0] = cos(p->w * t);
  x[1] = -p->w * sin(p->w * t);
}

/* Time-dependent scalar x' = w cos(w t) x (nz = 1): x = exp(sin(w t)),
 * nonlinear in t. */
static inline int tdep_f(double t, const double *x, double *xdot, void *user) {
  problem *p = user;
  p->f_calls++;
  xdot[0] = p->w * cos(p->w * t) * x[0];
  return TEAL_OK;
}
static inline void tdep_exact(double t, const problem *p, double *x) {
  x[0] = exp(sin(p->w * t));
}

#endif
