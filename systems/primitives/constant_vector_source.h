/** @file
 * ConstantVectorSource: output y = a value held as numeric parameter 0, so
 * each context may change it (teal_context_set_numeric_parameter). */
#ifndef TEAL_SYSTEMS_PRIMITIVES_CONSTANT_VECTOR_SOURCE_H
#define TEAL_SYSTEMS_PRIMITIVES_CONSTANT_VECTOR_SOURCE_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Index of the numeric parameter holding the source's value. */
enum { TEAL_CONSTANT_VECTOR_SOURCE_VALUE = 0 /**< the value parameter */ };

/** Creates a source with output "y" (n doubles) equal to numeric parameter
 *  TEAL_CONSTANT_VECTOR_SOURCE_VALUE, whose default is a copy of value (n
 *  finite doubles). The output depends on that parameter only. Declares the
 *  (empty) analytic Jacobian. Returns NULL on bad parameters (n < 1:
 *  TEAL_ESIZE; value NULL: TEAL_EINVAL; NaN/Inf: TEAL_ENONFINITE) with the
 *  reason in err (may be NULL). */
TEAL_API teal_system *teal_constant_vector_source_new(const char *name, const double *value, int n,
                                                      teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
