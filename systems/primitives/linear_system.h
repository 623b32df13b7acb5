/** @file
 * LinearSystem and AffineSystem (Drake's names), continuous or discrete.
 *
 * Continuous (time_period == 0), state x = z (nz = nx):
 * @code{.unparsed}
 *   xdot = A x + B u + f0,        y = C x + D u + y0.
 * @endcode
 * Discrete (time_period > 0), state x = discrete group 0 (nx doubles),
 * updated by a periodic discrete update with that period and offset 0:
 * @code{.unparsed}
 *   x[n+1] = A x[n] + B u[n] + f0, y[n] = C x[n] + D u[n] + y0.
 * @endcode
 *
 * Matrices are row-major: A nx x nx, B nx x nu, C ny x nx, D ny x nu; f0 has
 * nx entries and y0 ny. All are copied at construction; the default state is
 * zero (set another one in the context). Ports: input "u" (index 0, only
 * when nu > 0) and output "y" (index 0, only when ny > 0). The output
 * depends on the state only when D is all zeros (no direct feedthrough),
 * otherwise on the state and u. The analytic Jacobian hook gives A, B, C, D
 * (nx is the continuous state size of a continuous system or the discrete
 * state size of a discrete one). */
#ifndef TEAL_SYSTEMS_PRIMITIVES_LINEAR_SYSTEM_H
#define TEAL_SYSTEMS_PRIMITIVES_LINEAR_SYSTEM_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The model of an affine system, as given to teal_affine_system_from or
 *  read back by teal_linear_system_get. */
typedef struct teal_linear_system_matrices {
  /** State, input and output sizes (each >= 0). @{ */
  int nx, nu, ny;
  /** @} */
  double time_period;   /**< 0: continuous; > 0: discrete with this period */
  const double *A;      /**< nx x nx */
  const double *B;      /**< nx x nu */
  const double *f0;     /**< nx */
  const double *C;      /**< ny x nx */
  const double *D;      /**< ny x nu */
  const double *y0;     /**< ny */
} teal_linear_system_matrices;

/** Creates the linear system xdot (or x[n+1]) = A x + B u, y = C x + D u.
 *  A, B and C must be non-NULL when they have entries; D may be NULL (all
 *  zeros). Entries must be finite. Returns NULL on bad parameters with the
 *  reason in err (may be NULL): negative sizes (TEAL_ESIZE), a missing
 *  matrix or a negative time_period (TEAL_EINVAL), NaN/Inf entries or
 *  time_period (TEAL_ENONFINITE). */
TEAL_API teal_system *teal_linear_system_new(const char *name, const double *A, const double *B,
                                             const double *C, const double *D, int nx, int nu,
                                             int ny, double time_period, teal_error *err);

/** Creates the affine system xdot (or x[n+1]) = A x + B u + f0,
 *  y = C x + D u + y0. As teal_linear_system_new; f0 and y0 may also be
 *  NULL (zeros). */
TEAL_API teal_system *teal_affine_system_new(const char *name, const double *A, const double *B,
                                             const double *f0, const double *C, const double *D,
                                             const double *y0, int nx, int nu, int ny,
                                             double time_period, teal_error *err);

/** Creates an affine system from a filled-in model (same rules as
 *  teal_affine_system_new). */
TEAL_API teal_system *teal_affine_system_from(const char *name,
                                              const teal_linear_system_matrices *m,
                                              teal_error *err);

/** Reads back the model of a system made by teal_linear_system_new,
 *  teal_affine_system_new, teal_affine_system_from or teal_matrix_gain_new.
 *  The pointers in *out point into the system (valid while it lives; f0 and
 *  y0 are zeros for linear systems). Returns TEAL_EINVAL when sys is NULL or
 *  is not such a system (recognized by its type tag, so any system may be
 *  passed). */
TEAL_API int teal_linear_system_get(const teal_system *sys, teal_linear_system_matrices *out);

/** Nonzero when sys was made by one of the constructors above. */
TEAL_API int teal_is_linear_system(const teal_system *sys);

#ifdef __cplusplus
}
#endif
#endif
