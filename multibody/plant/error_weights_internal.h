/* Private to multibody/plant/: the error weights parameter (see
 * error_weights.h): u weights [nv], then the qerr weights [m] and the uerr
 * weights [m] of the constraint rows, all 1 by default. */
#ifndef TEAL_MULTIBODY_PLANT_ERROR_WEIGHTS_INTERNAL_H
#define TEAL_MULTIBODY_PLANT_ERROR_WEIGHTS_INTERNAL_H

#include "multibody/plant/plant_calc_internal.h"

/* Declares the weights parameter of the plant's system; returns its index. */
int teal_plant_declare_error_weight_parameter(teal_system *sys, const teal_plant *p);

/* The weights of own (the plant's own context), laid out as above. */
const double *teal_plant_error_weights(const teal_plant *p, const teal_context *own);

#endif
