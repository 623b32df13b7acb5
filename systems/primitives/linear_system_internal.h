/* Shared constructor of linear/affine systems and matrix gains. Not installed. */
#ifndef TEAL_SYSTEMS_PRIMITIVES_LINEAR_SYSTEM_INTERNAL_H
#define TEAL_SYSTEMS_PRIMITIVES_LINEAR_SYSTEM_INTERNAL_H

#include "systems/primitives/linear_system.h"

/** Validates m and builds the system; messages start with "<kind> '<name>'". */
teal_system *teal_affine_system_make(const char *kind, const char *name,
                                     const teal_linear_system_matrices *m, teal_error *err);

#endif
