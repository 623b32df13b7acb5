/* The problem shared by the finite-horizon LQR's files: sizes, costs, the
 * nominal, the linearization point and the workspace. Not installed. */
#ifndef TEAL_SYSTEMS_CONTROLLERS_FINITE_HORIZON_LQR_INTERNAL_H
#define TEAL_SYSTEMS_CONTROLLERS_FINITE_HORIZON_LQR_INTERNAL_H

#include "systems/analysis/linearize.h"
#include "systems/analysis/state_space_evaluator.h"
#include "systems/controllers/finite_horizon_lqr.h"

/** Everything one solve needs; the arrays live in one block (work). */
typedef struct fhlqr_problem {
  const teal_system *sys;
  teal_state_space_evaluator *ev; /* its private context is the linearization point */
  teal_linearize_options lin;
  int n, m;
  double period; /* 0: continuous */
  double t0, tf;
  const double *Q, *R, *N, *Qf;
  const teal_piecewise_polynomial *x0, *u0; /* the result's copies */
  double rtol, atol;
  int max_steps;
  double *work;
  double *A, *B;                 /* the linearization at the last time asked */
  double *point;                 /* x0(t), u0(t) */
  double *f;                     /* the map's value there: xdot or x[k+1] */
  double *c;                     /* the nominal's defect f(x0, u0) - x0' (or - x0(t + h)) */
  double *v, *w, *k0;            /* scratch: n, m, and the affine gain (m) */
  double *SA, *SB, *P, *Kt, *Fm; /* n n, n m, n m, n m, m m */
  teal_error *err;
} fhlqr_problem;

/** A(t), B(t) of the plant linearized at (x0(t), u0(t)) into p->A, p->B,
 *  and the nominal's defect there into p->c. */
int fhlqr_linearize(fhlqr_problem *p, double t);

/** Integrates the Riccati differential equations backward from tf and
 *  fills r->S, r->sx, r->s0, r->K and r->k0 (piecewise cubics). */
int fhlqr_solve_continuous(fhlqr_problem *p, teal_finite_horizon_lqr_result *r);

/** Runs the Riccati difference equations from tf down to t0 and fills
 *  r->S, r->sx, r->s0 (first-order holds), r->K and r->k0 (zero-order
 *  holds). */
int fhlqr_solve_discrete(fhlqr_problem *p, teal_finite_horizon_lqr_result *r);

#endif
