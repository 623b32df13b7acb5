/** @file
 * Changing a leaf's default state after it is built (leaf_defaults.c).
 *
 * A leaf's default state is declared with its state
 * (teal_leaf_declare_continuous_state, teal_leaf_declare_discrete_state).
 * Some defaults are model settings that Drake lets the user change later,
 * such as a free body's default pose set after the plant is finalized. These
 * calls replace the stored default: contexts created afterwards and
 * teal_context_set_to_defaults use the new values, contexts that already
 * exist keep their state. They are not declarations: they work on a
 * finalized leaf, record no sticky error in the system, and report into err
 * (may be NULL). Not for use during a simulation step (no allocation, but a
 * concurrent context creation would read a half-written default). */
#ifndef TEAL_FRAMEWORK_LEAF_DEFAULTS_H
#define TEAL_FRAMEWORK_LEAF_DEFAULTS_H

#include "teal_export.h"

#include "framework/error.h"
#include "framework/system_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Replaces the default continuous state x0 = [q; v; z] of a leaf (n must
 *  be nq + nv + nz, TEAL_ESIZE). TEAL_EINVAL for a NULL argument or a
 *  diagram, TEAL_ENONFINITE when a value is not finite (nothing changed). */
TEAL_API int teal_leaf_set_default_continuous_state(teal_system *sys, const double *x0, int n,
                                                    teal_error *err);

/** Replaces the default value of a leaf's discrete state group (n must be
 *  its size, TEAL_ESIZE). TEAL_ENOTFOUND for an unknown group, the other
 *  codes as teal_leaf_set_default_continuous_state. */
TEAL_API int teal_leaf_set_default_discrete_state(teal_system *sys, int group, const double *x0,
                                                  int n, teal_error *err);

#ifdef __cplusplus
}
#endif
#endif
