/** @file
 * MatrixGain: y = D u, a stateless linear system (teal_linear_system_get
 * reads it back with nx = 0). */
#ifndef TEAL_SYSTEMS_PRIMITIVES_MATRIX_GAIN_H
#define TEAL_SYSTEMS_PRIMITIVES_MATRIX_GAIN_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates y = D u with D an ny x nu row-major matrix (copied): input "u"
 *  (nu doubles), output "y" (ny doubles). The output depends on u only
 *  when D has a nonzero entry. Declares the analytic Jacobian (D). Returns
 *  NULL on bad parameters (ny or nu < 1: TEAL_ESIZE; D NULL: TEAL_EINVAL;
 *  NaN/Inf: TEAL_ENONFINITE) with the reason in err (may be NULL). */
TEAL_API teal_system *teal_matrix_gain_new(const char *name, const double *D, int ny, int nu,
                                           teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
