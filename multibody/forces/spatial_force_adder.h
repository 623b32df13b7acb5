/** @file
 * A leaf that concatenates lists of applied spatial forces into one, for the
 * plant's applied spatial force input. */
#ifndef TEAL_MULTIBODY_FORCES_SPATIAL_FORCE_ADDER_H
#define TEAL_MULTIBODY_FORCES_SPATIAL_FORCE_ADDER_H

#include "teal_export.h"

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"
#include "multibody/tree/plant_model.h"
#include "multibody/math/spatial.h"
#include "multibody/forces/exponential_spring.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Creates a leaf with num_inputs (>= 1) abstract inputs "u0".."u{k-1}" and
 *  an output "sum", all teal_applied_spatial_force_list: the concatenation
 *  of the input lists in port order (inputs without a value count as empty
 *  lists). Its output list is sized by an initialization event, so a
 *  simulation allocates nothing once initialized. Returns NULL on error
 *  with the reason in err (may be NULL). */
TEAL_API teal_system *teal_spatial_force_adder_new(const char *name, int num_inputs,
                                                   teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
