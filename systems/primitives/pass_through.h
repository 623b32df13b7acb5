/** @file
 * PassThrough: y = u, for a vector of size n or an abstract value. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_PASS_THROUGH_H
#define TEAL_SYSTEMS_PRIMITIVES_PASS_THROUGH_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"
#include "framework/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates a vector pass-through with input "u" and output "y" (n doubles
 *  each), y = u (direct feedthrough). Declares the analytic Jacobian
 *  (D = I). Returns NULL on bad parameters (n < 1: TEAL_ESIZE) with the
 *  reason in err (may be NULL). */
TEAL_API teal_system *teal_pass_through_new(const char *name, int n, teal_error *err);

/** Creates an abstract pass-through: input "u" and output "y" of the given
 *  type (which must outlive the system), y a copy of u made with the type's
 *  copy hook. Returns NULL on bad parameters (type NULL, or without a name
 *  or size: TEAL_EINVAL) with the reason in err (may be NULL). */
TEAL_API teal_system *teal_pass_through_abstract_new(const char *name, const teal_value_type *type,
                                                     teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
