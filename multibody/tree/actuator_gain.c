/* The input gains of actuators (see actuator_gain.h). */
#include "multibody/tree/actuator_gain.h"

#include <math.h>

#include "multibody/tree/plant_internal.h"

int teal_plant_set_actuator_input_gain(teal_plant *p, int actuator, double gain) {
  int known = p && actuator >= 0 && actuator < p->actuators.n;
  int rc =
      teal_plant_check_open(p, "the input gain of actuator", known ? ACT(p)[actuator].name : "");
  if (rc) {
    return rc;
  }
  if (!known) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND,
                                 "plant: set_actuator_input_gain: unknown actuator %d", actuator);
  }
  actuator_rec *a = &ACT(p)[actuator];
  if (!isfinite(gain)) {
    return teal_error_set_sticky(&p->err, TEAL_ENONFINITE,
                                 "plant: input gain of actuator '%s' is %g", a->name, gain);
  }
  if (gain == 0.0) {
    return teal_error_set_sticky(
        &p->err, TEAL_EINVAL, "plant: input gain of actuator '%s' is 0, must be nonzero", a->name);
  }
  a->input_gain = gain;
  return TEAL_OK;
}

double teal_plant_actuator_input_gain(const teal_plant *p, int actuator) {
  return p && actuator >= 0 && actuator < p->actuators.n ? ACT(p)[actuator].input_gain : NAN;
}
