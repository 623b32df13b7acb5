/* Tendons: construction and queries (see tendons.h); their kinematics and
 * forces are in tendon_forces.c. */
#include "multibody/forces/tendons.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/tree/plant_internal.h"

teal_tendon_spring teal_tendon_spring_default(void) {
  teal_tendon_spring s = {0.0, 0.0, 0.0, -INFINITY, INFINITY, 0.0, 0.0};
  return s;
}

/* ---- checks ---------------------------------------------------------------- */

static int nonneg_finite(double x) {
  return isfinite(x) && x >= 0.0;
}

static int check_spring(teal_plant *p, const char *name, const teal_tendon_spring *s) {
  if (!nonneg_finite(s->stiffness) || !nonneg_finite(s->damping) ||
      !nonneg_finite(s->limit_stiffness) || !nonneg_finite(s->limit_damping)) {
    return teal_plant_fail(p, TEAL_EINVAL,
                           "plant: tendon '%s' needs finite stiffness, damping, limit stiffness "
                           "and limit damping >= 0%s",
                           name, "");
  }
  if (!isfinite(s->spring_length)) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: tendon '%s' needs a finite spring length%s",
                           name, "");
  }
  if (isnan(s->lower) || isnan(s->upper) || !(s->lower <= s->upper) || s->lower == INFINITY ||
      s->upper == -INFINITY) {
    return teal_plant_fail(p, TEAL_EINVAL,
                           "plant: tendon '%s' needs a range with lower <= upper (no NaN)%s", name,
                           "");
  }
  return TEAL_OK;
}

/* The checks every tendon shares: the plant is open, the name is new, the
 * instance exists, the path has at least min_n entries. */
static int check_common(teal_plant *p, const char *name, int instance, int n, int min_n,
                        const void *path) {
  int rc = teal_plant_check_new_name(p, "tendon", name);
  if (rc) {
    return rc;
  }
  if (instance <= TEAL_WORLD_MODEL_INSTANCE || instance >= p->instances.n) {
    return teal_error_set_sticky(&p->err, TEAL_ENOTFOUND,
                                 "plant: tendon '%s': invalid model instance %d", name, instance);
  }
  if (teal_plant_find_name(&p->forces, sizeof(force_rec), name, instance) >= 0) {
    return teal_error_set_sticky(&p->err, TEAL_EDUPLICATE,
                                 "plant: tendon '%s' already exists in model instance %d", name,
                                 instance);
  }
  if (!path || n < min_n) {
    return teal_error_set_sticky(&p->err, TEAL_EINVAL,
                                 "plant: tendon '%s' needs a path of at least %d entries (got %d)",
                                 name, min_n, path ? n : 0);
  }
  return TEAL_OK;
}

static int check_fixed_path(teal_plant *p, const char *name, int n, const int *joints,
                            const double *coefs) {
  if (!coefs) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: fixed tendon '%s' needs coefficients%s", name,
                           "");
  }
  for (int i = 0; i < n; i++) {
    int j = joints[i];
    if (j < 0 || j >= p->joints.n ||
        (JOINT(p)[j].kind != TEAL_JOINT_REVOLUTE && JOINT(p)[j].kind != TEAL_JOINT_PRISMATIC)) {
      return teal_error_set_sticky(&p->err, TEAL_EINVAL,
                                   "plant: fixed tendon '%s': entry %d (joint %d) is not a "
                                   "revolute or prismatic joint",
                                   name, i, j);
    }
    if (!isfinite(coefs[i])) {
      return teal_error_set_sticky(&p->err, TEAL_EINVAL,
                                   "plant: fixed tendon '%s': coefficient %d is not finite (%g)",
                                   name, i, coefs[i]);
    }
  }
  return TEAL_OK;
}

static int check_spatial_path(teal_plant *p, const char *name, int n, const int *frames) {
  for (int i = 0; i < n; i++) {
    if (frames[i] < 0 || frames[i] >= p->frames.n) {
      return teal_error_set_sticky(&p->err, TEAL_EINVAL,
                                   "plant: spatial tendon '%s': entry %d (frame %d) is not a frame",
                                   name, i, frames[i]);
    }
    if (i > 0 && frames[i] == frames[i - 1]) {
      return teal_error_set_sticky(&p->err, TEAL_EINVAL,
                                   "plant: spatial tendon '%s': entries %d and %d are the same "
                                   "frame, a segment of zero length",
                                   name, i - 1, i);
    }
  }
  return TEAL_OK;
}

/* ---- construction ------------------------------------------------------------- */

/* Appends the tendon record with copies of its path and coefficients. */
static int push_tendon(teal_plant *p, const char *name, int instance, int kind, int n,
                       const int *path, const double *coefs, const teal_tendon_spring *s) {
  char *nm = teal_strdup(name);
  int *pa = teal_alloc(sizeof(int) * (size_t)n);
  double *co = coefs ? teal_alloc(sizeof(double) * (size_t)n) : NULL;
  force_rec *f =
      nm && pa && (co || !coefs) ? teal_plant_list_push(&p->forces, sizeof(force_rec)) : NULL;
  if (!f) {
    teal_free(nm);
    teal_free(pa);
    teal_free(co);
    return teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory adding tendon '%s'%s", name, "");
  }
  memcpy(pa, path, sizeof(int) * (size_t)n);
  if (co) {
    memcpy(co, coefs, sizeof(double) * (size_t)n);
  }
  *f = (force_rec){.name = nm, .instance = instance, .kind = TEAL_FORCE_TENDON, .joint = -1};
  f->tendon_kind = kind;
  f->n_path = n;
  f->path = pa;
  f->coef = co;
  f->k = s->stiffness;
  f->d = s->damping;
  f->rest = s->spring_length;
  f->lower = s->lower;
  f->upper = s->upper;
  f->k_limit = s->limit_stiffness;
  f->d_limit = s->limit_damping;
  return p->forces.n - 1;
}

int teal_plant_add_fixed_tendon(teal_plant *p, const char *name, int instance, int n,
                                const int *joints, const double *coefs,
                                const teal_tendon_spring *spring) {
  teal_tendon_spring s = spring ? *spring : teal_tendon_spring_default();
  int rc = check_common(p, name, instance, n, 1, joints);
  rc = rc ? rc : check_fixed_path(p, name, n, joints, coefs);
  rc = rc ? rc : check_spring(p, name, &s);
  return rc ? rc : push_tendon(p, name, instance, TEAL_TENDON_FIXED, n, joints, coefs, &s);
}

int teal_plant_add_spatial_tendon(teal_plant *p, const char *name, int instance, int n,
                                  const int *frames, const teal_tendon_spring *spring) {
  teal_tendon_spring s = spring ? *spring : teal_tendon_spring_default();
  int rc = check_common(p, name, instance, n, 2, frames);
  rc = rc ? rc : check_spatial_path(p, name, n, frames);
  rc = rc ? rc : check_spring(p, name, &s);
  return rc ? rc : push_tendon(p, name, instance, TEAL_TENDON_SPATIAL, n, frames, NULL, &s);
}

/* ---- queries ------------------------------------------------------------------ */

static const force_rec *tendon_rec(const teal_plant *p, int i) {
  if (!p || i < 0 || i >= p->forces.n || FORCE(p)[i].kind != TEAL_FORCE_TENDON) {
    return NULL;
  }
  return &FORCE(p)[i];
}

int teal_plant_num_tendons(const teal_plant *p) {
  int n = 0;
  for (int i = 0; p && i < p->forces.n; i++) {
    n += FORCE(p)[i].kind == TEAL_FORCE_TENDON;
  }
  return n;
}

int teal_plant_tendon_element(const teal_plant *p, int k) {
  for (int i = 0; p && k >= 0 && i < p->forces.n; i++) {
    if (FORCE(p)[i].kind == TEAL_FORCE_TENDON && k-- == 0) {
      return i;
    }
  }
  return -1;
}

int teal_plant_find_tendon(const teal_plant *p, const char *name, int instance) {
  for (int i = 0; p && name && i < p->forces.n; i++) {
    const force_rec *f = &FORCE(p)[i];
    if (f->kind == TEAL_FORCE_TENDON && (instance < 0 || f->instance == instance) &&
        strcmp(f->name, name) == 0) {
      return i;
    }
  }
  return TEAL_ENOTFOUND;
}

const char *teal_plant_tendon_name(const teal_plant *p, int i) {
  const force_rec *f = tendon_rec(p, i);
  return f ? f->name : NULL;
}

int teal_plant_tendon_kind(const teal_plant *p, int i) {
  const force_rec *f = tendon_rec(p, i);
  return f ? f->tendon_kind : -1;
}

int teal_plant_get_tendon_spring(const teal_plant *p, int i, teal_tendon_spring *spring,
                                 teal_error *err) {
  if (!p || !spring) {
    return teal_error_set(err, TEAL_EINVAL, "teal_plant_get_tendon_spring: NULL argument");
  }
  const force_rec *f = tendon_rec(p, i);
  if (!f) {
    return teal_error_set(err, TEAL_ENOTFOUND,
                          "teal_plant_get_tendon_spring: force element %d is not a tendon", i);
  }
  *spring = (teal_tendon_spring){f->k, f->d, f->rest, f->lower, f->upper, f->k_limit, f->d_limit};
  return TEAL_OK;
}
