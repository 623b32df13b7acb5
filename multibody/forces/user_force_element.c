/* User-defined force elements: construction, queries, and the guarded
 * callback calls that turn a callback's failure into a message naming the
 * element (see user_force_element.h). */
#include "multibody/forces/user_force_element.h"

#include <math.h>

#include "framework/alloc.h"
#include "multibody/forces/force_elements_internal.h"
#include "multibody/tree/plant_internal.h"

int teal_plant_add_force_element(teal_plant *p, const char *name, int instance,
                                 const teal_force_element_ops *ops, void *user) {
  int rc = teal_plant_check_new_name(p, "force element", name);
  if (rc) {
    return rc;
  }
  if (instance <= TEAL_WORLD_MODEL_INSTANCE || instance >= p->instances.n) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND,
                                 "plant: force element '%s': invalid model instance %d", name,
                                 instance);
  }
  if (!ops || !ops->calc) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: force element '%s' needs ops with a calc%s",
                           name, " callback");
  }
  char *nm = teal_strdup(name);
  force_rec *f = nm ? teal_plant_list_push(&p->forces, sizeof(force_rec)) : NULL;
  if (!f) {
    teal_free(nm);
    return teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory adding force element '%s'%s", name,
                           "");
  }
  f->name = nm;
  f->kind = TEAL_FORCE_USER;
  f->instance = instance;
  f->joint = -1;
  f->ops = *ops;
  f->user = user;
  return p->forces.n - 1;
}

static const force_rec *user_rec(const teal_plant *p, int i) {
  if (!p || i < 0 || i >= p->forces.n || FORCE(p)[i].kind != TEAL_FORCE_USER) {
    return NULL;
  }
  return &FORCE(p)[i];
}

const char *teal_plant_force_element_name(const teal_plant *p, int i) {
  const force_rec *f = user_rec(p, i);
  return f ? f->name : NULL;
}

void *teal_plant_force_element_user(const teal_plant *p, int i) {
  const force_rec *f = user_rec(p, i);
  return f ? f->user : NULL;
}

/* ---- guarded calls ---------------------------------------------------------- */

/* Reports a failed callback: a TEAL_E* code is kept, anything else is
 * TEAL_ECALLBACK; the callback's own message follows the element's name. */
static int callback_failed(const force_rec *f, int i, const char *what, int rc,
                           const teal_error *cb, teal_error *err) {
  int code = rc < 0 && rc >= TEAL_EIO ? rc : TEAL_ECALLBACK;
  return teal_error_set(err, code, "force element '%s' (%d): %s callback failed (%s): %s", f->name,
                        i, what, teal_strerror(code), cb->message[0] ? cb->message : "no message");
}

int teal_force_user_calc(const teal_plant *p, int i, const teal_force_element_state *s,
                         teal_spatial_vector *F_Bo_W, double *tau, teal_error *err) {
  const force_rec *f = &FORCE(p)[i];
  teal_error cb = {0, ""};
  int rc = f->ops.calc(p, s, F_Bo_W, tau, &cb, f->user);
  return rc ? callback_failed(f, i, "calc", rc, &cb, err) : TEAL_OK;
}

int teal_force_user_scalar(const teal_plant *p, int i, teal_force_user_quantity which,
                           const teal_force_element_state *s, double *out, teal_error *err) {
  static const char *const names[] = {"potential_energy", "conservative_power",
                                      "nonconservative_power"};
  const force_rec *f = &FORCE(p)[i];
  int (*cb_fn)(const teal_plant *, const teal_force_element_state *, double *, teal_error *,
               void *) = which == TEAL_FORCE_USER_POTENTIAL_ENERGY ? f->ops.potential_energy
                         : which == TEAL_FORCE_USER_CONSERVATIVE_POWER
                             ? f->ops.conservative_power
                             : f->ops.nonconservative_power;
  *out = 0.0;
  if (!cb_fn) {
    return TEAL_OK;
  }
  teal_error cb = {0, ""};
  int rc = cb_fn(p, s, out, &cb, f->user);
  if (rc) {
    return callback_failed(f, i, names[which], rc, &cb, err);
  }
  if (!isfinite(*out)) {
    return teal_error_set(err, TEAL_ENONFINITE, "force element '%s' (%d): %s is not finite (%g)",
                          f->name, i, names[which], *out);
  }
  return TEAL_OK;
}
