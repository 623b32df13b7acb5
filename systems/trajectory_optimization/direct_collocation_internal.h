/* The direct collocation problem's record and the pieces its files share:
 * the decision-variable layout, the transcription (defects, costs and
 * their derivatives) and the solver back end. */
#ifndef TEAL_SYSTEMS_TRAJECTORY_OPTIMIZATION_DIRECT_COLLOCATION_INTERNAL_H
#define TEAL_SYSTEMS_TRAJECTORY_OPTIMIZATION_DIRECT_COLLOCATION_INTERNAL_H

#include "systems/analysis/state_space_evaluator.h"
#include "systems/trajectory_optimization/direct_collocation.h"

/* Dynamics and their Jacobians at every knot and segment midpoint, for
 * the decision vector they were computed at (level 0 nothing, 1 values,
 * 2 values and Jacobians). */
typedef struct dc_dynamics {
  double *f, *A, *B;              /* knots: N x nx, N x nx x nx, N x nx x nu */
  double *xc, *uc, *fc, *Ac, *Bc; /* midpoints: the same per segment */
  double *at;                     /* the decision vector evaluated */
  int level;
  double *fp, *fm; /* central-difference scratch, nx each */
  double *xs, *us; /* the point being differenced */
} dc_dynamics;

struct teal_direct_collocation {
  const teal_system *sys;
  teal_state_space_evaluator *ev; /* f(x, u) on a private clone */
  int input_port, N, nx, nu, nvar;
  int has_hook;     /* the system is a leaf with a Jacobian hook */
  int use_analytic; /* for the current solve */
  double fd_step;
  double hmin, hmax, duration; /* duration > 0 fixes h */
  double *x_lo, *x_hi, *u_lo, *u_hi;
  double *x0, *xf;
  int has_x0, has_xf;
  double *R; /* nu x nu */
  teal_dircol_running_cost_fn run_fn;
  void *run_user;
  teal_dircol_final_cost_fn fin_fn;
  void *fin_user;
  double *guess, *z;    /* initial guess and last solution (nvar) */
  double *f_sol;        /* f(x_k, u_k) at the last solution (N x nx) */
  double *grad_scratch; /* 5 (nx + nu): user gradient, g0, gc, g1, u_c */
  int solved;
  teal_direct_collocation_result result;
  dc_dynamics dyn;
  teal_error err;
};

/* The system's name, for messages. */
static inline const char *dc_name(const teal_direct_collocation *dc) {
  return teal_system_name(dc->sys);
}

/* Layout of the decision vector z = [h, x_0 .. x_{N-1}, u_0 .. u_{N-1}]. */
static inline int dc_x_index(const teal_direct_collocation *dc, int k) {
  return 1 + k * dc->nx;
}
static inline int dc_u_index(const teal_direct_collocation *dc, int k) {
  return 1 + dc->N * dc->nx + k * dc->nu;
}

/* Number of constraints (defects) and of structural Jacobian nonzeros. */
int dc_num_constraints(const teal_direct_collocation *dc);
int dc_jacobian_nonzeros(const teal_direct_collocation *dc);

/* Fills dc->dyn for z (values, and Jacobians when jacobians is set);
 * reuses the last evaluation at the same z. */
int dc_evaluate(teal_direct_collocation *dc, const double *z, int jacobians);

/* The defects at z into g (dc_num_constraints entries). */
int dc_defects(teal_direct_collocation *dc, const double *z, double *g);

/* Row and column of every Jacobian nonzero, in the order of dc_jacobian_values. */
void dc_jacobian_structure(const teal_direct_collocation *dc, int *rows, int *cols);

/* The Jacobian nonzeros at z. */
int dc_jacobian_values(teal_direct_collocation *dc, const double *z, double *values);

/* The total cost at z, and its gradient (nvar entries) when grad is set. */
int dc_cost(teal_direct_collocation *dc, const double *z, double *cost, double *grad);

/* Checks bounds and constraints for consistency before a solve. */
int dc_check_problem(teal_direct_collocation *dc);

/* Variable bounds (nvar each) from the time-step, state and input bounds
 * and the initial and final states. */
void dc_variable_bounds(const teal_direct_collocation *dc, double *lo, double *hi);

/* Runs the NLP solver from the start point in dc->z, leaving its last
 * iterate there; fills the status, success flag and iterations of
 * dc->result. Only a failure to run at all is an error. */
int dc_backend_solve(teal_direct_collocation *dc, const teal_direct_collocation_options *opts);

/* The name of a solver status (for messages). */
const char *dc_backend_status_name(int status);

#endif
