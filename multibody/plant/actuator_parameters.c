/* Rotor inertias and gear ratios as context parameters (see
 * actuator_parameters.h). The parameter holds [I_r by actuator; rho by
 * actuator; the added diagonal by v index: the joints' armatures plus the
 * reflected inertias], the last kept in step with the first two by every
 * setter, so the algorithms read M's added diagonal
 * without recomputing it. */
#include "multibody/plant/actuator_parameters.h"

#include <math.h>

#include "framework/alloc.h"
#include "framework/leaf_system.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/tree/actuator_rotor.h"

/* ---- layout ----------------------------------------------------------------- */

int teal_plant_declare_rotor_parameter(teal_system *sys, const teal_plant *p) {
  int n = 2 * p->nu + p->nv;
  double *x0 = teal_calloc((size_t)(n > 0 ? n : 1), sizeof(double));
  if (!x0) {
    return TEAL_ENOMEM; /* the leaf's finalize then fails on the bad index */
  }
  for (int a = 0; a < p->nu; a++) {
    x0[a] = ACT(p)[a].rotor_inertia;
    x0[p->nu + a] = ACT(p)[a].gear_ratio;
  }
  teal_plant_reflected_inertia(p, x0, x0 + p->nu, x0 + 2 * p->nu);
  int index = teal_leaf_declare_numeric_parameter(sys, n > 0 ? n : 1, x0);
  teal_free(x0);
  return index;
}

const double *teal_plant_reflected_inertias(const teal_plant *p, const teal_context *ctx) {
  return teal_context_numeric_parameter(ctx, p->sys.param_rotor) + 2 * p->nu;
}

/* ---- access ------------------------------------------------------------------- */

/* The parameter of the plant's own context of ctx for a call on actuator
 * (out: its result or argument, named what), or NULL with *rc reported. */
static const double *rotor_param(const teal_plant *p, const teal_context *ctx, int actuator,
                                 const void *out, const char *what, const char *fn, int *rc) {
  *rc = TEAL_OK;
  const teal_context *own = teal_plant_own_context(p, ctx);
  if (!own) {
    *rc = teal_plant_bad_call(p, ctx, fn);
  } else if (!out) {
    *rc = teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s is NULL", fn, what);
  } else if (actuator < 0 || actuator >= p->nu) {
    *rc = teal_context_report_error(ctx, TEAL_EINVAL,
                                    "%s: actuator %d is not an actuator of the plant (0..%d)", fn,
                                    actuator, p->nu - 1);
  }
  return *rc ? NULL : teal_context_numeric_parameter(own, p->sys.param_rotor);
}

/* Checks value (what of actuator a: finite, and >= 0 or nonzero), stores
 * it at slot of the parameter and updates the reflected inertia. */
static int set_value(const teal_plant *p, teal_context *ctx, int a, int slot, double value,
                     const char *what, const char *fn) {
  int rc;
  if (!rotor_param(p, ctx, a, &value, what, fn, &rc)) {
    return rc;
  }
  int is_gear = slot >= p->nu;
  if (!isfinite(value) || (is_gear ? value == 0.0 : value < 0.0)) {
    return teal_context_report_error(ctx, isfinite(value) ? TEAL_EINVAL : TEAL_ENONFINITE,
                                     "%s: actuator \"%s\": %s = %g must be finite and %s", fn,
                                     ACT(p)[a].name, what, value, is_gear ? "nonzero" : ">= 0");
  }
  if (!is_gear && value != 0.0 && ACT(p)[a].tendon >= 0) {
    return teal_context_report_error(ctx, TEAL_EUNSUPPORTED,
                                     "%s: actuator \"%s\" is a tendon actuator, which has no "
                                     "rotor inertia (its reflected inertia is not diagonal)",
                                     fn, ACT(p)[a].name);
  }
  teal_context *own = (teal_context *)teal_plant_own_context(p, ctx);
  double *x = teal_context_numeric_parameter_mut(own, p->sys.param_rotor);
  x[slot] = value;
  teal_plant_reflected_inertia(p, x, x + p->nu, x + 2 * p->nu);
  return TEAL_OK;
}

int teal_plant_get_actuator_rotor_inertia_in_context(const teal_plant *p, const teal_context *ctx,
                                                     int actuator, double *rotor_inertia) {
  int rc;
  const double *x = rotor_param(p, ctx, actuator, rotor_inertia, "rotor_inertia",
                                "plant get_actuator_rotor_inertia_in_context", &rc);
  if (x) {
    *rotor_inertia = x[actuator];
  }
  return rc;
}

int teal_plant_set_actuator_rotor_inertia_in_context(const teal_plant *p, teal_context *ctx,
                                                     int actuator, double rotor_inertia) {
  return set_value(p, ctx, actuator, actuator, rotor_inertia, "rotor_inertia",
                   "plant set_actuator_rotor_inertia_in_context");
}

int teal_plant_get_actuator_gear_ratio_in_context(const teal_plant *p, const teal_context *ctx,
                                                  int actuator, double *gear_ratio) {
  int rc;
  const double *x = rotor_param(p, ctx, actuator, gear_ratio, "gear_ratio",
                                "plant get_actuator_gear_ratio_in_context", &rc);
  if (x) {
    *gear_ratio = x[p->nu + actuator];
  }
  return rc;
}

int teal_plant_set_actuator_gear_ratio_in_context(const teal_plant *p, teal_context *ctx,
                                                  int actuator, double gear_ratio) {
  return set_value(p, ctx, actuator, p && actuator >= 0 ? p->nu + actuator : -1, gear_ratio,
                   "gear_ratio", "plant set_actuator_gear_ratio_in_context");
}

int teal_plant_calc_actuator_reflected_inertia(const teal_plant *p, const teal_context *ctx,
                                               int actuator, double *reflected_inertia) {
  int rc;
  const double *x = rotor_param(p, ctx, actuator, reflected_inertia, "reflected_inertia",
                                "plant calc_actuator_reflected_inertia", &rc);
  if (x) {
    double rho = x[p->nu + actuator];
    *reflected_inertia = rho * rho * x[actuator];
  }
  return rc;
}
