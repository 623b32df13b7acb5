/* Unilateral contacts: adoption, checks, count, get and set (see
 * unilateral_contacts.h). */
#include "multibody/constraints/unilateral_contacts.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "multibody/constraints/unilateral_internal.h"
#include "multibody/tree/joints.h"

int teal_unilateral_fail(teal_plant *p, int code, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (p->finalized) {
    return teal_error_set(&p->err, code, "%s", msg);
  }
  return teal_plant_fail(p, code, "%s%s", msg, "");
}

teal_unilateral_contact_spec teal_unilateral_contact_spec_default(teal_unilateral_kind kind) {
  teal_unilateral_contact_spec s = {0};
  s.kind = kind;
  s.body_a = s.body_b = s.joint = -1;
  s.n_a = teal_vec3_make(0, 0, 1);
  s.enabled = 1;
  return s;
}

static const char *kind_name(int kind) {
  static const char *names[] = {"point in plane", "hard stop (lower)", "hard stop (upper)", "rope"};
  return kind >= 0 && kind <= TEAL_UNILATERAL_ROPE ? names[kind] : "unknown";
}

/* The bodies of a point in plane or a rope: known and distinct. */
static int check_bodies(teal_plant *p, const teal_unilateral_contact_spec *s, const char *what) {
  int a_ok = s->body_a >= 0 && s->body_a < p->bodies.n;
  if (!a_ok || s->body_b < 0 || s->body_b >= p->bodies.n) {
    return teal_unilateral_fail(p, TEAL_ENOTFOUND,
                                "plant: unilateral %s: unknown body %d (the plant has %d)", what,
                                a_ok ? s->body_b : s->body_a, p->bodies.n);
  }
  if (s->body_a == s->body_b) {
    return teal_unilateral_fail(p, TEAL_EINVAL, "plant: unilateral %s between body %d and itself",
                                what, s->body_a);
  }
  if (!teal_vec3_is_finite(s->p_a) || !teal_vec3_is_finite(s->p_b)) {
    return teal_unilateral_fail(p, TEAL_ENONFINITE, "plant: unilateral %s: a point is not finite",
                                what);
  }
  return TEAL_OK;
}

/* The joint of a hard stop: known and single-dof. */
static int check_joint(teal_plant *p, int j, const char *what) {
  if (j < 0 || j >= p->joints.n) {
    return teal_unilateral_fail(p, TEAL_ENOTFOUND,
                                "plant: unilateral %s: unknown joint %d (the plant has %d)", what,
                                j, p->joints.n);
  }
  const teal_joint_type *t = teal_joint_type_get(JOINT(p)[j].kind);
  if (!t || t->nv != 1 || t->nq != 1) {
    return teal_unilateral_fail(p, TEAL_EINVAL,
                                "plant: unilateral %s: joint '%s' is not a single-dof joint", what,
                                JOINT(p)[j].name);
  }
  return TEAL_OK;
}

/* The coefficients every kind has. */
static int check_coefficients(teal_plant *p, const teal_unilateral_contact_spec *s,
                              const char *what) {
  if (!isfinite(s->restitution) || !isfinite(s->friction) || !isfinite(s->capture_speed) ||
      !isfinite(s->limit)) {
    return teal_unilateral_fail(
        p, TEAL_ENONFINITE,
        "plant: unilateral %s: restitution, friction, capture speed or limit is not "
        "finite",
        what);
  }
  if (s->restitution < 0.0 || s->restitution > 1.0) {
    return teal_unilateral_fail(p, TEAL_EINVAL,
                                "plant: unilateral %s: restitution %g is outside [0, 1]", what,
                                s->restitution);
  }
  if (s->friction < 0.0 || s->capture_speed < 0.0) {
    return teal_unilateral_fail(p, TEAL_EINVAL,
                                "plant: unilateral %s: friction %g or capture speed %g is < 0",
                                what, s->friction, s->capture_speed);
  }
  if (s->friction > 0.0 && s->kind != TEAL_UNILATERAL_POINT_IN_PLANE) {
    return teal_unilateral_fail(p, TEAL_EINVAL,
                                "plant: unilateral %s: only a point in plane has friction", what);
  }
  return TEAL_OK;
}

/* The checks of adopt and set; the normal made unit length in *out. */
static int check_spec(teal_plant *p, const teal_unilateral_contact_spec *s,
                      teal_unilateral_contact_spec *out) {
  if (!s) {
    return teal_unilateral_fail(p, TEAL_EINVAL, "plant: unilateral contact: NULL spec");
  }
  if ((int)s->kind < 0 || s->kind > TEAL_UNILATERAL_ROPE) {
    return teal_unilateral_fail(p, TEAL_EINVAL, "plant: unilateral contact: unknown kind %d",
                                (int)s->kind);
  }
  const char *what = kind_name(s->kind);
  int hard_stop =
      s->kind == TEAL_UNILATERAL_HARD_STOP_LOWER || s->kind == TEAL_UNILATERAL_HARD_STOP_UPPER;
  int rc = hard_stop ? check_joint(p, s->joint, what) : check_bodies(p, s, what);
  rc = rc ? rc : check_coefficients(p, s, what);
  if (rc) {
    return rc;
  }
  *out = *s;
  out->enabled = s->enabled != 0;
  if (s->kind == TEAL_UNILATERAL_ROPE && !(s->limit > 0.0)) {
    return teal_unilateral_fail(p, TEAL_EINVAL, "plant: unilateral rope: length %g must be > 0",
                                s->limit);
  }
  if (s->kind == TEAL_UNILATERAL_POINT_IN_PLANE) {
    double n = teal_vec3_norm(s->n_a);
    if (!teal_vec3_is_finite(s->n_a) || !isfinite(n)) {
      return teal_unilateral_fail(p, TEAL_ENONFINITE,
                                  "plant: unilateral point in plane: normal is not finite");
    }
    if (!(n > 1e-12)) {
      return teal_unilateral_fail(p, TEAL_EINVAL,
                                  "plant: unilateral point in plane: normal has zero length");
    }
    out->n_a = teal_vec3_scale(s->n_a, 1.0 / n);
  }
  return TEAL_OK;
}

int teal_unilateral_check_adopt(teal_plant *p, const char *what) {
  if (p && p->finalized) { /* the step's memory is sized at finalize */
    return teal_error_set(&p->err, TEAL_ESTATE, "plant: cannot adopt a %s after finalize", what);
  }
  int rc = teal_plant_check_open(p, what, "(unnamed)");
  if (rc == TEAL_OK && !(p->time_step > 0.0)) {
    rc = teal_unilateral_fail(p, TEAL_ESTATE, "plant: %s needs a discrete plant (time step > 0)",
                              what);
  }
  return rc;
}

int teal_plant_adopt_unilateral_contact(teal_plant *p, const teal_unilateral_contact_spec *spec) {
  teal_unilateral_contact_spec s;
  int rc = teal_unilateral_check_adopt(p, "unilateral contact");
  rc = rc ? rc : check_spec(p, spec, &s);
  if (rc) {
    return rc;
  }
  unilateral_rec *r = teal_plant_list_push(&p->unilaterals, sizeof(unilateral_rec));
  if (!r) {
    return teal_unilateral_fail(p, TEAL_ENOMEM,
                                "plant: out of memory adopting a unilateral contact");
  }
  r->spec = s;
  return p->unilaterals.n - 1;
}

int teal_plant_num_unilateral_contacts(const teal_plant *p) {
  return p ? p->unilaterals.n : 0;
}

int teal_unilateral_check_index(const teal_plant *p, int index, int n, const char *what) {
  if (index < 0 || index >= n) {
    return teal_error_set((teal_error *)&p->err, TEAL_ENOTFOUND,
                          "plant: unknown %s %d (the plant has %d)", what, index, n);
  }
  return TEAL_OK;
}

int teal_plant_get_unilateral_contact(const teal_plant *p, int index,
                                      teal_unilateral_contact_spec *out) {
  if (!p || !out) {
    return p ? teal_error_set((teal_error *)&p->err, TEAL_EINVAL,
                              "plant: get unilateral contact: NULL output")
             : TEAL_EINVAL;
  }
  int rc = teal_unilateral_check_index(p, index, p->unilaterals.n, "unilateral contact");
  if (rc == TEAL_OK) {
    *out = UNILATERAL(p)[index].spec;
  }
  return rc;
}

int teal_plant_set_unilateral_contact(teal_plant *p, int index,
                                      const teal_unilateral_contact_spec *spec) {
  if (!p) {
    return TEAL_EINVAL;
  }
  teal_unilateral_contact_spec s;
  int rc = p->finalized ? TEAL_OK : teal_plant_check_open(p, "unilateral contact", "(unnamed)");
  rc = rc ? rc : teal_unilateral_check_index(p, index, p->unilaterals.n, "unilateral contact");
  rc = rc ? rc : check_spec(p, spec, &s);
  if (rc) {
    return rc;
  }
  if (s.kind != UNILATERAL(p)[index].spec.kind) {
    return teal_unilateral_fail(
        p, TEAL_EINVAL, "plant: unilateral contact %d: the kind may not change (%s to %s)", index,
        kind_name(UNILATERAL(p)[index].spec.kind), kind_name(s.kind));
  }
  UNILATERAL(p)[index].spec = s;
  if (p->finalized) { /* contexts drop the steps computed with the old spec */
    p->contact.version += 1.0;
  }
  return TEAL_OK;
}
