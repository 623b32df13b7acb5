/** @file
 * Multiplexer: y = [u0; u1; ...; u{k-1}], the concatenation of its inputs. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_MULTIPLEXER_H
#define TEAL_SYSTEMS_PRIMITIVES_MULTIPLEXER_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates a multiplexer with num_inputs input ports "u0".."u{k-1}" of
 *  input_sizes[i] doubles and output "y" of their total size, which depends
 *  on every input. Declares the analytic Jacobian (D for input i: an
 *  identity block at the rows of u_i). Returns NULL on bad parameters
 *  (num_inputs < 1 or a size < 1: TEAL_ESIZE; input_sizes NULL:
 *  TEAL_EINVAL) with the reason in err (may be NULL). */
TEAL_API teal_system *teal_multiplexer_new(const char *name, const int *input_sizes, int num_inputs,
                                           teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
