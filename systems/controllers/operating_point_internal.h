/* The operating point a controller about a linearization starts from,
 * shared by the LQR and LQG constructors. */
#ifndef TEAL_SYSTEMS_CONTROLLERS_OPERATING_POINT_INTERNAL_H
#define TEAL_SYSTEMS_CONTROLLERS_OPERATING_POINT_INTERNAL_H

#include "framework/context.h"
#include "framework/error.h"
#include "framework/system.h"
#include "systems/primitives/linear_system.h"

/* x0 (ctx's discrete state when m is discrete, else its continuous state)
 * and u0 (the value on input_port) into point (m->nx + m->nu doubles).
 * A failed input evaluation is reported in err as "<who>: <ctx's message>". */
int teal_controller_operating_point(const teal_system *sys, const teal_context *ctx,
                                    int input_port, const teal_linear_system_matrices *m,
                                    double *point, const char *who, teal_error *err);

#endif
