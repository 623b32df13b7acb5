/* The model's rotor inertias and gear ratios of actuators and the reflected
 * inertia they add to M's diagonal (see actuator_rotor.h). */
#include "multibody/tree/actuator_rotor.h"

#include <math.h>

#include "multibody/tree/plant_internal.h"

/* The actuator record of a model setter, or NULL with the sticky error set. */
static actuator_rec *open_actuator(teal_plant *p, int actuator, const char *what, double value,
                                   int *rc) {
  *rc = teal_plant_check_open(p, "actuator", "");
  if (*rc) {
    return NULL;
  }
  if (actuator < 0 || actuator >= p->actuators.n) {
    *rc = teal_error_set_sticky(&p->err, TEAL_ENOTFOUND, "plant: %s: unknown actuator %d", what,
                                actuator);
    return NULL;
  }
  actuator_rec *a = &ACT(p)[actuator];
  if (!isfinite(value)) {
    *rc = teal_error_set_sticky(&p->err, TEAL_ENONFINITE, "plant: %s of actuator '%s' is %g", what,
                                a->name, value);
    return NULL;
  }
  return a;
}

int teal_plant_set_actuator_default_rotor_inertia(teal_plant *p, int actuator,
                                                  double rotor_inertia) {
  int rc;
  actuator_rec *a = open_actuator(p, actuator, "rotor inertia", rotor_inertia, &rc);
  if (a && rotor_inertia < 0.0) {
    return teal_error_set_sticky(&p->err, TEAL_EINVAL,
                                 "plant: rotor inertia of actuator '%s' is %g, must be >= 0",
                                 a->name, rotor_inertia);
  }
  if (a && a->tendon >= 0 && rotor_inertia != 0.0) {
    /* its reflected inertia rho^2 I_r J_L^T J_L would not be diagonal */
    return teal_error_set_sticky(&p->err, TEAL_EUNSUPPORTED,
                                 "plant: rotor inertia of actuator '%s': a tendon actuator has no "
                                 "rotor inertia (its reflected inertia is not diagonal)",
                                 a->name);
  }
  if (a) {
    a->rotor_inertia = rotor_inertia;
  }
  return rc;
}

int teal_plant_set_actuator_default_gear_ratio(teal_plant *p, int actuator, double gear_ratio) {
  int rc;
  actuator_rec *a = open_actuator(p, actuator, "gear ratio", gear_ratio, &rc);
  if (a && gear_ratio == 0.0) {
    return teal_error_set_sticky(
        &p->err, TEAL_EINVAL, "plant: gear ratio of actuator '%s' is 0, must be nonzero", a->name);
  }
  if (a) {
    a->gear_ratio = gear_ratio;
  }
  return rc;
}

static const actuator_rec *find_actuator(const teal_plant *p, int actuator) {
  return p && actuator >= 0 && actuator < p->actuators.n ? &ACT(p)[actuator] : NULL;
}

double teal_plant_actuator_default_rotor_inertia(const teal_plant *p, int actuator) {
  const actuator_rec *a = find_actuator(p, actuator);
  return a ? a->rotor_inertia : NAN;
}

double teal_plant_actuator_default_gear_ratio(const teal_plant *p, int actuator) {
  const actuator_rec *a = find_actuator(p, actuator);
  return a ? a->gear_ratio : NAN;
}

double teal_plant_actuator_default_reflected_inertia(const teal_plant *p, int actuator) {
  const actuator_rec *a = find_actuator(p, actuator);
  return a ? a->gear_ratio * a->gear_ratio * a->rotor_inertia : NAN;
}

void teal_plant_reflected_inertia(const teal_plant *p, const double *rotor_inertia,
                                  const double *gear_ratio, double *reflected) {
  for (int j = 0; j < p->joints.n; j++) { /* the joints' armature first */
    const joint_rec *r = &JOINT(p)[j];
    for (int i = 0; i < teal_joint_type_get(r->kind)->nv; i++) {
      reflected[r->v_start + i] = r->armature;
    }
  }
  for (int a = 0; a < p->actuators.n; a++) {
    const actuator_rec *r = &ACT(p)[a];
    if (r->joint < 0) {
      continue; /* a tendon actuator has no rotor inertia */
    }
    double rho = gear_ratio ? gear_ratio[a] : r->gear_ratio;
    /* actuated joints have one velocity */
    reflected[JOINT(p)[r->joint].v_start] +=
        rho * rho * (rotor_inertia ? rotor_inertia[a] : r->rotor_inertia);
  }
}
