/** @file
 * Finite-difference Jacobians (finite_difference.c), shared by the implicit
 * integrators (forward differences when the ODE has no analytic Jacobian)
 * and by linearization (central differences). */
#ifndef TEAL_SYSTEMS_ANALYSIS_FINITE_DIFFERENCE_H
#define TEAL_SYSTEMS_ANALYSIS_FINITE_DIFFERENCE_H

#include "teal_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Difference schemes of teal_fd_jacobian. */
typedef enum teal_fd_scheme {
  TEAL_FD_FORWARD = 0, /**< (f(x + h e_j) - f(x)) / h: one evaluation per column */
  TEAL_FD_CENTRAL = 1  /**< (f(x + h e_j) - f(x - h e_j)) / (2 h): two per column */
} teal_fd_scheme;

/** The differentiated function: writes the m values of f(x) into out and
 *  returns TEAL_OK or an error status. It must not modify x. */
typedef int (*teal_fd_fn)(const double *x, double *out, void *user);

/** Jacobian J = df/dx (m x n, row-major) of f at the point held in x (n
 *  entries), column by column. Column j uses the step
 *  h_j = rel_step * max(|x_j|, 1): forward differences take fx = f(x) from
 *  the caller, central differences evaluate f(x + h_j e_j) then
 *  f(x - h_j e_j) (fx is unused and may be NULL). x is perturbed in place
 *  and every entry is restored to its exact value; fp and fm are scratch of
 *  m entries (fm is unused for forward differences and may be NULL). Stops
 *  at the first failing evaluation and returns its status (the columns
 *  before it are written, x is restored). TEAL_EINVAL, with nothing
 *  evaluated, for an unknown scheme, a NULL f, negative sizes, a step that
 *  is not a positive finite number, or a NULL array the scheme needs. */
TEAL_API int teal_fd_jacobian(teal_fd_scheme scheme, teal_fd_fn f, void *user, double *x, int n,
                              int m, double rel_step, const double *fx, double *fp, double *fm,
                              double *J);

#ifdef __cplusplus
}
#endif
#endif
