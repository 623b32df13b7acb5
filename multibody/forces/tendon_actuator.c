/* Tendon actuators (see tendon_actuator.h): construction and queries. The
 * plant reads their columns of B through teal_plant_actuator_dof
 * (multibody/tree/actuator_dofs.c). */
#include "multibody/forces/tendon_actuator.h"

#include <math.h>

#include "framework/alloc.h"
#include "multibody/forces/tendons.h"
#include "multibody/tree/plant_internal.h"

/* The checks of the tendon and the limit, with a sticky error on failure. */
static int check_tendon_actuator(teal_plant *p, const char *name, int tendon, double limit) {
  if (tendon < 0 || tendon >= p->forces.n || FORCE(p)[tendon].kind != TEAL_FORCE_TENDON) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND,
                                 "plant: tendon actuator '%s': force element %d is not a tendon",
                                 name, tendon);
  }
  const force_rec *t = &FORCE(p)[tendon];
  if (t->tendon_kind != TEAL_TENDON_FIXED) {
    return teal_plant_fail(p, TEAL_EUNSUPPORTED,
                           "plant: tendon actuator '%s': tendon '%s' is spatial; only fixed "
                           "tendons (a constant J_L) can be actuated",
                           name, t->name);
  }
  if (isnan(limit) || limit <= 0.0) {
    return teal_plant_fail(p, TEAL_EINVAL,
                           "plant: tendon actuator '%s': effort limit must be > 0%s", name, "");
  }
  if (teal_plant_find_name(&p->actuators, sizeof(actuator_rec), name, t->instance) >= 0) {
    return teal_error_set_sticky(&p->err, TEAL_EDUPLICATE,
                                 "plant: actuator '%s' already exists in model instance '%s'", name,
                                 INST(p)[t->instance].name);
  }
  return TEAL_OK;
}

int teal_plant_add_tendon_actuator(teal_plant *p, const char *name, int tendon,
                                   double effort_limit) {
  int rc = teal_plant_check_new_name(p, "actuator", name);
  rc = rc ? rc : check_tendon_actuator(p, name, tendon, effort_limit);
  if (rc) {
    return rc;
  }
  char *nm = teal_strdup(name);
  actuator_rec *a = nm ? teal_plant_list_push(&p->actuators, sizeof(actuator_rec)) : NULL;
  if (!a) {
    teal_free(nm);
    return teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory adding actuator '%s'%s", name, "");
  }
  *a = (actuator_rec){.name = nm,
                      .instance = FORCE(p)[tendon].instance,
                      .joint = -1,
                      .tendon = tendon,
                      .effort_limit = effort_limit,
                      .rotor_inertia = 0.0,
                      .gear_ratio = 1.0,
                      .input_gain = 1.0};
  teal_plant_list_index(&p->actuators, sizeof(actuator_rec));
  return p->actuators.n - 1;
}

int teal_plant_actuator_tendon(const teal_plant *p, int actuator) {
  return p && actuator >= 0 && actuator < p->actuators.n ? ACT(p)[actuator].tendon : -1;
}
