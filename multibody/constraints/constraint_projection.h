/** @file
 * Coordinate projection (Simbody's projectQ and projectU, Theory Manual
 * section 10.1): moves a state that an integration step left slightly off
 * the constraint manifold back onto it by the smallest change in a weighted
 * norm. Positions first, by Gauss-Newton on the position errors
 * p(q) = 0 with steps dq = N(q) dv, dv = -W P' (P W P')^-1 p; then
 * velocities, one linear least-squares step on P v = c at the projected q.
 * W = W_u^-2 is the diagonal velocity weighting: 1 by default (Simbody's
 * unit weights), 0 for a velocity the projection may not change (prescribed
 * or locked dofs, whose columns the theory manual removes). The m x m
 * systems are solved by the pivoted teal_dense_psd_factor_solve, so
 * redundant rows are allowed. The constraints are given as callbacks, so the same code serves
 * any set of holonomic rows; nothing is allocated. */
#ifndef TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINT_PROJECTION_H
#define TEAL_MULTIBODY_CONSTRAINTS_CONSTRAINT_PROJECTION_H

#include <stddef.h>

#include "teal_export.h"

#include "framework/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A set of m holonomic constraint rows p(q) = 0 over nq positions and nv
 *  velocities, as the projection evaluates them. Each callback returns
 *  TEAL_OK or a negative status. */
typedef struct teal_projection_rows {
  int m;  /**< number of constraint rows */
  int nq; /**< generalized positions */
  int nv; /**< generalized velocities */
  /** Position errors p(q) (m values). */
  int (*errors)(const double *q, double *perr, void *user);
  /** P(q) (m x nv, row-major): the first-order change of p per velocity-space
   *  step dv, i.e. dp/dq N(q). */
  int (*jacobian)(const double *q, double *P, void *user);
  /** Moves q along the velocity-space step dv: q <- q + N(q) dv, keeping
   *  quaternions unit length. */
  int (*advance)(double *q, const double *dv, void *user);
  void *user; /**< passed to the callbacks */
} teal_projection_rows;

/** How far and how hard to project. */
typedef struct teal_projection_options {
  /** Largest accepted |p_i| (and |(P v - c)_i|); positive and finite. */
  double tolerance;
  /** Gauss-Newton iterations of the position projection (<= 0: 10). */
  int max_iterations;
  /** W_u^-2 by velocity (nv values >= 0; 0: the dof is not moved), or NULL
   *  for unit weights. */
  const double *inv_weight2;
} teal_projection_options;

/** Doubles of the work array the projection functions need for m rows
 *  and nv velocities: m nv + m m + 4 m + 2 nv. */
TEAL_API size_t teal_projection_work_doubles(int m, int nv);

/** projectQ: moves q (nq values, in place) until every |p_i(q)| <= the
 *  tolerance; *iterations (may be NULL) receives the Gauss-Newton steps
 *  taken. TEAL_ENOCONV with the remaining error in err when max_iterations
 *  steps do not reach the tolerance (q then holds the last iterate),
 *  TEAL_EINVAL for NULL arguments or options out of range, TEAL_ENONFINITE
 *  when an error or Jacobian entry is not finite; a callback's own status
 *  is passed on. */
TEAL_API int teal_project_positions(const teal_projection_rows *rows,
                                    const teal_projection_options *opt, double *q, double *work,
                                    int *iterations, teal_error *err);

/** projectU: the smallest weighted change of v (nv values, in place) with
 *  P(q) v = c (c: m values, the rows' velocity targets, e.g. minus the
 *  explicit time derivative of a time-dependent row; NULL: zero). Errors as
 *  teal_project_positions; TEAL_ENOCONV when the rows are inconsistent and
 *  the residual stays above the tolerance. */
TEAL_API int teal_project_velocities(const teal_projection_rows *rows,
                                     const teal_projection_options *opt, const double *q,
                                     const double *c, double *v, double *work, teal_error *err);

/** Error estimate projection (Theory Manual eqs. 10.12 and 10.14): removes
 *  from e (nv values, in place: a velocity-space vector such as an
 *  integrator's local error estimate of v, or of q mapped by N+) its
 *  component normal to the rows' manifold at q in the weighted norm,
 *  e <- e - W P' (P W P')^-1 P e, so that P e = 0 afterwards up to round-off
 *  and the dofs of weight 0 keep their entries. Coordinate projection would
 *  remove that component from the state anyway, so an error-controlled
 *  integrator need not pay for it. One linear solve, no iteration (the
 *  tolerance is checked but unused). Errors as teal_project_velocities. */
TEAL_API int teal_project_error_tangent(const teal_projection_rows *rows,
                                        const teal_projection_options *opt, const double *q,
                                        double *e, double *work, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
