/* The Ipopt back end (its C interface, IpStdCInterface.h): the NLP's
 * callbacks over the transcription, exact constraint Jacobians, and a
 * limited-memory quasi-Newton Hessian. Built only with TEAL_WITH_IPOPT. */
#include <IpStdCInterface.h>

#include "framework/alloc.h"
#include "systems/trajectory_optimization/direct_collocation_internal.h"

/* Ipopt's callbacks report success as a Bool; a failed evaluation leaves
 * its message in dc->err and lets Ipopt back off or stop. */
static Bool eval_f(Index n, Number *x, Bool new_x, Number *obj, UserDataPtr user) {
  (void)n, (void)new_x;
  return dc_cost(user, x, obj, NULL) == TEAL_OK;
}

static Bool eval_grad_f(Index n, Number *x, Bool new_x, Number *grad, UserDataPtr user) {
  (void)n, (void)new_x;
  double obj;
  return dc_cost(user, x, &obj, grad) == TEAL_OK;
}

static Bool eval_g(Index n, Number *x, Bool new_x, Index m, Number *g, UserDataPtr user) {
  (void)n, (void)new_x, (void)m;
  return dc_defects(user, x, g) == TEAL_OK;
}

static Bool eval_jac_g(Index n, Number *x, Bool new_x, Index m, Index nele, Index *rows,
                       Index *cols, Number *values, UserDataPtr user) {
  (void)n, (void)new_x, (void)m, (void)nele;
  if (!values) {
    dc_jacobian_structure(user, rows, cols);
    return TRUE;
  }
  return dc_jacobian_values(user, x, values) == TEAL_OK;
}

/* Never called: the Hessian is approximated by limited-memory BFGS. */
static Bool eval_h(Index n, Number *x, Bool new_x, Number obj_factor, Index m, Number *lambda,
                   Bool new_lambda, Index nele, Index *rows, Index *cols, Number *values,
                   UserDataPtr user) {
  (void)n, (void)x, (void)new_x, (void)obj_factor, (void)m, (void)lambda, (void)new_lambda;
  (void)nele, (void)rows, (void)cols, (void)values, (void)user;
  return FALSE;
}

/* Counts the iterations (the last iter_count seen). */
static Bool intermediate(Index alg_mod, Index iter, Number obj, Number inf_pr, Number inf_du,
                         Number mu, Number d_norm, Number reg, Number alpha_du, Number alpha_pr,
                         Index ls, UserDataPtr user) {
  (void)alg_mod, (void)obj, (void)inf_pr, (void)inf_du, (void)mu, (void)d_norm, (void)reg;
  (void)alpha_du, (void)alpha_pr, (void)ls;
  teal_direct_collocation *dc = user;
  dc->result.iterations = iter;
  return TRUE;
}

/* The options of a solve. */
static void set_options(IpoptProblem p, const teal_direct_collocation_options *o) {
  AddIpoptStrOption(p, "hessian_approximation", "limited-memory");
  AddIpoptStrOption(p, "sb", "yes");
  /* Ipopt relaxes the bounds by 1e-8 relative and projects the solution
   * back onto them at the end, which moves time steps and inputs sitting
   * on a bound and leaves defects of 1e-7: keep the bounds exact */
  AddIpoptNumOption(p, "bound_relax_factor", 0.0);
  AddIpoptNumOption(p, "tol", o->tol);
  AddIpoptNumOption(p, "constr_viol_tol", o->constr_viol_tol);
  /* an "acceptable" stop must still satisfy the dynamics */
  AddIpoptNumOption(p, "acceptable_constr_viol_tol", o->constr_viol_tol);
  AddIpoptIntOption(p, "max_iter", o->max_iter);
  AddIpoptIntOption(p, "print_level", o->print_level);
}

/* Builds the Ipopt problem (bounds copied in) and runs it from dc->z. */
static int run(teal_direct_collocation *dc, const teal_direct_collocation_options *o, double *lo,
               double *hi) {
  int n = dc->nvar, m = dc_num_constraints(dc);
  double *gl = lo + n, *gu = hi + n; /* the defects are equalities: 0 <= d <= 0 */
  for (int i = 0; i < m; i++) {
    gl[i] = gu[i] = 0.0;
  }
  dc_variable_bounds(dc, lo, hi);
  IpoptProblem p = CreateIpoptProblem(n, lo, hi, m, gl, gu, dc_jacobian_nonzeros(dc), 0, 0, eval_f,
                                      eval_g, eval_grad_f, eval_jac_g, eval_h);
  if (!p) {
    return teal_error_set(&dc->err, TEAL_ENOMEM,
                          "direct collocation '%s': Ipopt could not create the problem",
                          teal_system_name(dc->sys));
  }
  set_options(p, o);
  SetIntermediateCallback(p, intermediate);
  double obj = 0.0;
  enum ApplicationReturnStatus status = IpoptSolve(p, dc->z, NULL, &obj, NULL, NULL, NULL, dc);
  FreeIpoptProblem(p);
  dc->result.ipopt_status = (int)status;
  dc->result.success = status == Solve_Succeeded || status == Solved_To_Acceptable_Level;
  return TEAL_OK;
}

int dc_backend_solve(teal_direct_collocation *dc, const teal_direct_collocation_options *o) {
  size_t n = (size_t)dc->nvar + (size_t)dc_num_constraints(dc);
  double *lo = teal_alloc(2 * n * sizeof(double));
  if (!lo) {
    return teal_error_set(&dc->err, TEAL_ENOMEM, "direct collocation: out of memory");
  }
  int rc = run(dc, o, lo, lo + n);
  teal_free(lo);
  return rc;
}

const char *dc_backend_status_name(int status) {
  switch (status) {
    case Solve_Succeeded:
      return "Solve_Succeeded";
    case Solved_To_Acceptable_Level:
      return "Solved_To_Acceptable_Level";
    case Infeasible_Problem_Detected:
      return "Infeasible_Problem_Detected";
    case Search_Direction_Becomes_Too_Small:
      return "Search_Direction_Becomes_Too_Small";
    case Diverging_Iterates:
      return "Diverging_Iterates";
    case User_Requested_Stop:
      return "User_Requested_Stop";
    case Feasible_Point_Found:
      return "Feasible_Point_Found";
    case Maximum_Iterations_Exceeded:
      return "Maximum_Iterations_Exceeded";
    case Restoration_Failed:
      return "Restoration_Failed";
    case Error_In_Step_Computation:
      return "Error_In_Step_Computation";
    case Maximum_CpuTime_Exceeded:
      return "Maximum_CpuTime_Exceeded";
    case Not_Enough_Degrees_Of_Freedom:
      return "Not_Enough_Degrees_Of_Freedom";
    case Invalid_Problem_Definition:
      return "Invalid_Problem_Definition";
    case Invalid_Option:
      return "Invalid_Option";
    case Invalid_Number_Detected:
      return "Invalid_Number_Detected";
    default:
      return "an internal Ipopt error";
  }
}
