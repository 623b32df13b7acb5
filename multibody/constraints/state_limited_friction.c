/* State-limited friction: adoption, checks, count, get and set (see
 * state_limited_friction.h). */
#include "multibody/constraints/state_limited_friction.h"

#include <math.h>

#include "multibody/constraints/unilateral_internal.h"
#include "multibody/tree/joints.h"

/* The checks of adopt and set. */
static int check_spec(teal_plant *p, const teal_state_limited_friction_spec *s) {
  if (!s) {
    return teal_unilateral_fail(p, TEAL_EINVAL, "plant: state-limited friction: NULL spec");
  }
  if (s->joint < 0 || s->joint >= p->joints.n) {
    return teal_unilateral_fail(p, TEAL_ENOTFOUND,
                                "plant: state-limited friction: unknown joint %d (the plant "
                                "has %d)",
                                s->joint, p->joints.n);
  }
  const teal_joint_type *t = teal_joint_type_get(JOINT(p)[s->joint].kind);
  if (!t || t->nv != 1 || t->nq != 1) {
    return teal_unilateral_fail(p, TEAL_EINVAL,
                                "plant: state-limited friction: joint '%s' is not a single-dof "
                                "joint",
                                JOINT(p)[s->joint].name);
  }
  if (s->contact < -1 || s->contact >= p->unilaterals.n) {
    return teal_unilateral_fail(p, TEAL_ENOTFOUND,
                                "plant: state-limited friction: unknown unilateral contact %d "
                                "(the plant has %d)",
                                s->contact, p->unilaterals.n);
  }
  if (!isfinite(s->mu) || !isfinite(s->max_force)) {
    return teal_unilateral_fail(p, TEAL_ENONFINITE,
                                "plant: state-limited friction: mu or max_force is not finite");
  }
  if (s->mu < 0.0 || s->max_force < 0.0) {
    return teal_unilateral_fail(p, TEAL_EINVAL,
                                "plant: state-limited friction: mu %g or max_force %g is < 0",
                                s->mu, s->max_force);
  }
  if (s->mu > 0.0 && s->contact < 0) {
    return teal_unilateral_fail(p, TEAL_EINVAL,
                                "plant: state-limited friction: mu %g > 0 needs a contact", s->mu);
  }
  return TEAL_OK;
}

int teal_plant_adopt_state_limited_friction(teal_plant *p,
                                            const teal_state_limited_friction_spec *spec) {
  int rc = teal_unilateral_check_adopt(p, "state-limited friction");
  rc = rc ? rc : check_spec(p, spec);
  if (rc) {
    return rc;
  }
  slfriction_rec *r = teal_plant_list_push(&p->slfrictions, sizeof(slfriction_rec));
  if (!r) {
    return teal_unilateral_fail(p, TEAL_ENOMEM,
                                "plant: out of memory adopting a state-limited friction");
  }
  r->spec = *spec;
  r->spec.enabled = spec->enabled != 0;
  return p->slfrictions.n - 1;
}

int teal_plant_num_state_limited_frictions(const teal_plant *p) {
  return p ? p->slfrictions.n : 0;
}

int teal_plant_get_state_limited_friction(const teal_plant *p, int index,
                                          teal_state_limited_friction_spec *out) {
  if (!p || !out) {
    return p ? teal_error_set((teal_error *)&p->err, TEAL_EINVAL,
                              "plant: get state-limited friction: NULL output")
             : TEAL_EINVAL;
  }
  int rc = teal_unilateral_check_index(p, index, p->slfrictions.n, "state-limited friction");
  if (rc == TEAL_OK) {
    *out = SLFRICTION(p)[index].spec;
  }
  return rc;
}

int teal_plant_set_state_limited_friction(teal_plant *p, int index,
                                          const teal_state_limited_friction_spec *spec) {
  if (!p) {
    return TEAL_EINVAL;
  }
  int rc = p->finalized ? TEAL_OK : teal_plant_check_open(p, "state-limited friction", "(unnamed)");
  rc = rc ? rc : teal_unilateral_check_index(p, index, p->slfrictions.n, "state-limited friction");
  rc = rc ? rc : check_spec(p, spec);
  if (rc) {
    return rc;
  }
  SLFRICTION(p)[index].spec = *spec;
  SLFRICTION(p)[index].spec.enabled = spec->enabled != 0;
  if (p->finalized) { /* contexts drop the steps computed with the old spec */
    p->contact.version += 1.0;
  }
  return TEAL_OK;
}
