/** @file
 * Demultiplexer: splits u into consecutive pieces y0, y1, ..., y{k-1}. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_DEMULTIPLEXER_H
#define TEAL_SYSTEMS_PRIMITIVES_DEMULTIPLEXER_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates a demultiplexer with input "u" of the total size and
 *  num_outputs output ports "y0".."y{k-1}" of output_sizes[j] doubles, each
 *  the matching slice of u (each depends on u). Declares the analytic
 *  Jacobian (D for output j: an identity block at the columns of y_j).
 *  Returns NULL on bad parameters (num_outputs < 1 or a size < 1:
 *  TEAL_ESIZE; output_sizes NULL: TEAL_EINVAL) with the reason in err (may
 *  be NULL). */
TEAL_API teal_system *teal_demultiplexer_new(const char *name, const int *output_sizes,
                                             int num_outputs, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
