/** @file
 * Saturation: y = min(max(u, lo), hi) entrywise, with fixed limits or limits
 * read from input ports. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_SATURATION_H
#define TEAL_SYSTEMS_PRIMITIVES_SATURATION_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Input port indices of a variable saturation. */
enum {
  TEAL_SATURATION_U = 0,   /**< "u" */
  TEAL_SATURATION_MIN = 1, /**< "min" (variable limits only) */
  TEAL_SATURATION_MAX = 2  /**< "max" (variable limits only) */
};

/** Creates a saturation with input "u" and output "y" (n doubles each) and
 *  fixed limits min[i] <= max[i] (copied; +-INFINITY allowed). Declares the
 *  analytic Jacobian about the context's input: D = diag(d) with d_i = 1
 *  when min_i < u_i < max_i, else 0. Returns NULL on bad parameters (n < 1:
 *  TEAL_ESIZE; min or max NULL, or min[i] > max[i]: TEAL_EINVAL; NaN:
 *  TEAL_ENONFINITE) with the reason in err (may be NULL). */
TEAL_API teal_system *teal_saturation_new(const char *name, const double *min, const double *max,
                                          int n, teal_error *err);

/** Creates a saturation whose limits are the input ports "min" and "max"
 *  (n doubles each, after "u"); y depends on all three inputs. Evaluating
 *  y with min[i] > max[i] (or a NaN limit) fails with TEAL_EINVAL and a
 *  message naming the system. Declares the analytic Jacobian: for input u,
 *  d_i = 1 when min_i < u_i < max_i; for min, d_i = 1 when u_i < min_i; for
 *  max, d_i = 1 when u_i > max_i (else 0). Returns NULL when n < 1
 *  (TEAL_ESIZE) with the reason in err (may be NULL). */
TEAL_API teal_system *teal_saturation_variable_new(const char *name, int n, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
