/** @file
 * Adder: sum = u0 + u1 + ... + u{k-1}, all vectors of size n. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_ADDER_H
#define TEAL_SYSTEMS_PRIMITIVES_ADDER_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates an adder with num_inputs input ports "u0".."u{k-1}" and output
 *  "sum" (n doubles each), which depends on every input. Declares the
 *  analytic Jacobian (D = I for each input). Returns NULL on bad parameters
 *  (num_inputs or n < 1: TEAL_ESIZE) with the reason in err (may be NULL). */
TEAL_API teal_system *teal_adder_new(const char *name, int num_inputs, int n, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
