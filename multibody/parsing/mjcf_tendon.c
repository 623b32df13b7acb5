/* <tendon>: fixed tendons over hinge and slide joints and spatial tendons
 * through sites, added as the plant's tendons (multibody/forces/tendons.h).
 * MuJoCo's range of a limited tendon is a constraint of its solver, not
 * modelled here: it is ignored with a warning, as are frictionloss and the
 * wrapping geoms and pulleys of a spatial tendon (such a tendon is left
 * out). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/forces/tendons.h"
#include "multibody/parsing/mjcf_internal.h"

/* ---- parsing -------------------------------------------------------------------- */

/* A spatial tendon's path may hold only sites here. */
static int wraps(const urdf_node *node) {
  for (const urdf_node *c = node->children; c; c = c->next) {
    if (!urdf_is(c, "site")) {
      return 1;
    }
  }
  return 0;
}

/* The (joint, coef) or site entries of t, appended to m->tendon_entries. */
static int parse_entries(mjcf_model *m, urdf_node *node, mjcf_tendon *t) {
  const char *kind = t->spatial ? "site" : "joint";
  t->first = m->tendon_entries.n;
  for (urdf_node *c = node->children; c; c = c->next) {
    if (!urdf_is(c, kind)) {
      continue; /* comments and the like */
    }
    mjcf_tendon_entry *e = urdf_push(&m->u, &m->tendon_entries, sizeof(mjcf_tendon_entry));
    int rc = e ? urdf_attr_required(&m->u, c, kind, &e->ref) : m->u.err->code;
    if (rc == TEAL_OK && !t->spatial) {
      rc = urdf_attr_double(&m->u, c, "coef", 0, 1.0, &e->coef);
    }
    if (rc) {
      return rc;
    }
    e->node = c;
    e->index = -1;
    t->n++;
  }
  if (t->n < (t->spatial ? 2 : 1)) {
    return urdf_fail(&m->u, node, TEAL_EPARSE, "a %s tendon needs at least %d <%s> children",
                     t->spatial ? "spatial" : "fixed", t->spatial ? 2 : 1, kind);
  }
  return TEAL_OK;
}

/* The attributes MuJoCo's solver handles that the plant does not. */
static int warn_unsupported(mjcf_model *m, urdf_node *node, int cls) {
  static const char *const limited_words[] = {"false", "true", "auto", NULL};
  double r[2], friction;
  int n, limited;
  int rc = mjcf_numbers(m, node, "tendon", cls, "range", 2, r, &n);
  rc = rc ? rc : mjcf_keyword(m, node, "tendon", cls, "limited", limited_words, 2, &limited);
  rc = rc ? rc : mjcf_double(m, node, "tendon", cls, "frictionloss", 0.0, &friction);
  if (rc == TEAL_OK && (limited == 1 || (limited == 2 && m->autolimits && n == 2))) {
    urdf_warn(&m->u, node, &m->report->ignored_attributes,
              "tendon range ignored (MuJoCo's tendon limit is a solver constraint)");
  }
  if (rc == TEAL_OK && friction > 0.0) {
    urdf_warn(&m->u, node, &m->report->ignored_attributes, "tendon frictionloss ignored");
  }
  return rc;
}

static int parse_tendon(mjcf_model *m, urdf_node *node, int spatial) {
  if (spatial && wraps(node)) {
    urdf_warn(&m->u, node, &m->report->ignored_elements,
              "spatial tendon with wrapping geoms or pulleys ignored (sites only)");
    /* kept by name, so a motor on it is left out too rather than unknown */
    const char **name = urdf_push(&m->u, &m->wrapping_tendon_names, sizeof(const char *));
    if (name) {
      *name = urdf_attr(&m->u, node, "name");
    }
    return name ? TEAL_OK : m->u.err->code;
  }
  int cls;
  int rc = mjcf_element_class(m, node, 0, &cls);
  mjcf_tendon *t = rc ? NULL : urdf_push(&m->u, &m->tendons, sizeof(mjcf_tendon));
  if (!t) {
    return m->u.err->code;
  }
  t->node = node;
  t->spatial = spatial;
  t->name = urdf_attr(&m->u, node, "name");
  rc = mjcf_double(m, node, "tendon", cls, "stiffness", 0.0, &t->stiffness);
  rc = rc ? rc : mjcf_double(m, node, "tendon", cls, "damping", 0.0, &t->damping);
  /* MuJoCo 2.2: a negative (the default -1) spring length is the length at qpos0 */
  rc = rc ? rc : mjcf_double(m, node, "tendon", cls, "springlength", -1.0, &t->springlength);
  if (rc == TEAL_OK && (t->stiffness < 0.0 || t->damping < 0.0)) {
    rc = urdf_fail(&m->u, node, TEAL_EINVAL, "tendon stiffness and damping must be >= 0");
  }
  rc = rc ? rc : warn_unsupported(m, node, cls);
  return rc ? rc : parse_entries(m, node, t);
}

int mjcf_parse_tendons(mjcf_model *m, urdf_node *node) {
  int rc = TEAL_OK;
  for (urdf_node *c = node->children; c && rc == TEAL_OK; c = c->next) {
    if (urdf_is(c, "fixed") || urdf_is(c, "spatial")) {
      rc = parse_tendon(m, c, urdf_is(c, "spatial"));
    } else {
      urdf_warn(&m->u, c, &m->report->ignored_elements, "unsupported tendon element ignored");
    }
  }
  return rc;
}

/* The world position of site s with every hinge and slide at 0: the
 * bodies' poses in the model (at qpos0, the joints at their refs) composed
 * from the world, each moved by its joints' motions from ref to 0. */
static teal_vec3 site_at_zero(const mjcf_model *m, const mjcf_site *s) {
  teal_transform X = s->X_BS;
  for (int b = s->body; b != MJCF_WORLD; b = MBODY(m)[b].parent) {
    const mjcf_body *B = &MBODY(m)[b];
    for (int k = B->num_joints - 1; k >= 0; k--) { /* MuJoCo applies them in order */
      const mjcf_joint *j = &MJOINT(m)[B->first_joint + k];
      X = teal_transform_compose(mjcf_joint_motion(j, -j->ref), X);
    }
    X = teal_transform_compose(B->X_PB, X);
  }
  return X.p;
}

/* MuJoCo's spring length when none is given. MuJoCo 2.2 computes it with
 * the hinges and slides at 0, not at qpos0 (their refs; checked against
 * libmujoco 2.2.2), the free joints at the model's poses: a fixed tendon's is
 * 0, a spatial tendon's its length at the model's poses unless refs move
 * them. */
static double spring_length_default(const mjcf_model *m, const mjcf_tendon *t) {
  double L = 0.0;
  for (int k = 1; t->spatial && k < t->n; k++) {
    const mjcf_tendon_entry *e = &MTENDON_ENTRY(m)[t->first + k];
    teal_vec3 a = site_at_zero(m, &MSITE(m)[e[-1].index]), b = site_at_zero(m, &MSITE(m)[e->index]);
    L += teal_vec3_norm(teal_vec3_sub(b, a));
  }
  return L;
}

/* 1 when name is a spatial tendon left out for its wrapping. */
int mjcf_is_wrapping_tendon(const mjcf_model *m, const char *name) {
  const char *const *names = m->wrapping_tendon_names.data;
  for (int i = 0; i < m->wrapping_tendon_names.n; i++) {
    if (names[i] && strcmp(names[i], name) == 0) {
      return 1;
    }
  }
  return 0;
}

int mjcf_find_tendon(const mjcf_model *m, const char *name) {
  for (int i = 0; name && i < m->tendons.n; i++) {
    const char *n = MTENDON(m)[i].name;
    if (n && strcmp(n, name) == 0) {
      return i;
    }
  }
  return -1;
}

/* ---- checking ------------------------------------------------------------------- */

static int resolve_entry(mjcf_model *m, const mjcf_tendon *t, mjcf_tendon_entry *e) {
  if (t->spatial) {
    e->index = urdf_index_find(&m->site_index, &m->sites, sizeof(mjcf_site), e->ref);
    return e->index >= 0
               ? TEAL_OK
               : urdf_fail(&m->u, e->node, TEAL_ENOTFOUND, "unknown site '%.80s'", e->ref);
  }
  e->index = urdf_index_find(&m->joint_index, &m->joints, sizeof(mjcf_joint), e->ref);
  if (e->index < 0) {
    return urdf_fail(&m->u, e->node, TEAL_ENOTFOUND, "unknown joint '%.80s'", e->ref);
  }
  mjcf_joint_type type = MJOINT(m)[e->index].type;
  if (type != MJCF_HINGE && type != MJCF_SLIDE) {
    return urdf_fail(&m->u, e->node, TEAL_EINVAL,
                     "a fixed tendon's joint '%.80s' must be a hinge or a slide", e->ref);
  }
  return TEAL_OK;
}

const char *mjcf_tendon_name(const mjcf_model *m, int i, char *buf, size_t size) {
  const mjcf_tendon *t = &MTENDON(m)[i];
  snprintf(buf, size, "tendon%d", i);
  return t->name && *t->name ? t->name : buf;
}

/* What the plant would refuse: a '/' in a name, a name used twice, the
 * same site twice in a row (a segment of zero length). */
static int check_tendon(mjcf_model *m, int i) {
  const mjcf_tendon *t = &MTENDON(m)[i];
  char a[32], b[32];
  const char *name = mjcf_tendon_name(m, i, a, sizeof(a));
  if (strchr(name, '/')) {
    return urdf_fail(&m->u, t->node, TEAL_EINVAL, "tendon name '%.80s' has a '/'", name);
  }
  for (int k = 0; k < i; k++) {
    if (strcmp(name, mjcf_tendon_name(m, k, b, sizeof(b))) == 0) {
      return urdf_fail(&m->u, t->node, TEAL_EDUPLICATE, "duplicate tendon name '%.80s'", name);
    }
  }
  const mjcf_tendon_entry *e = &MTENDON_ENTRY(m)[t->first];
  for (int k = 1; t->spatial && k < t->n; k++) {
    if (e[k].index == e[k - 1].index) {
      return urdf_fail(&m->u, e[k].node, TEAL_EINVAL,
                       "site '%.80s' follows itself in a spatial tendon (a segment of zero "
                       "length)",
                       e[k].ref);
    }
  }
  return TEAL_OK;
}

int mjcf_check_tendons(mjcf_model *m) {
  for (int i = 0; i < m->tendons.n; i++) {
    const mjcf_tendon *t = &MTENDON(m)[i];
    for (int k = 0; k < t->n; k++) {
      int rc = resolve_entry(m, t, &MTENDON_ENTRY(m)[t->first + k]);
      if (rc) {
        return rc;
      }
    }
    int rc = check_tendon(m, i);
    if (rc) {
      return rc;
    }
    mjcf_tendon *tm = &MTENDON(m)[i];
    tm->springlength = tm->springlength >= 0.0 ? tm->springlength : spring_length_default(m, tm);
    if (!isfinite(tm->springlength)) {
      return urdf_fail(&m->u, tm->node, TEAL_EINVAL,
                       "the tendon's default spring length is not "
                       "finite");
    }
  }
  return TEAL_OK;
}

/* ---- building -------------------------------------------------------------------- */

static int build_tendon(mjcf_model *m, teal_plant *plant, int inst, int i, int *path,
                        double *coef) {
  const mjcf_tendon *t = &MTENDON(m)[i];
  for (int k = 0; k < t->n; k++) {
    const mjcf_tendon_entry *e = &MTENDON_ENTRY(m)[t->first + k];
    path[k] = t->spatial ? MSITE(m)[e->index].frame : MJOINT(m)[e->index].plant_joint;
    coef[k] = e->coef;
  }
  teal_tendon_spring s = teal_tendon_spring_default();
  s.stiffness = t->stiffness;
  s.damping = t->damping;
  s.spring_length = t->springlength; /* resolved by the check */
  char buf[32];
  const char *nm = mjcf_tendon_name(m, i, buf, sizeof(buf));
  int rc = t->spatial ? teal_plant_add_spatial_tendon(plant, nm, inst, t->n, path, &s)
                      : teal_plant_add_fixed_tendon(plant, nm, inst, t->n, path, coef, &s);
  if (rc < 0) {
    const teal_error *e = teal_plant_error(plant);
    return urdf_fail(&m->u, t->node, rc, "%s", e->code ? e->message : teal_strerror(rc));
  }
  return TEAL_OK;
}

int mjcf_build_tendons(mjcf_model *m, teal_plant *plant, int inst) {
  int n = m->tendon_entries.n, rc = TEAL_OK;
  if (m->tendons.n == 0) {
    return TEAL_OK;
  }
  int *path = teal_alloc(sizeof(int) * (size_t)n);
  double *coef = teal_alloc(sizeof(double) * (size_t)n);
  if (!path || !coef) {
    rc = urdf_fail(&m->u, NULL, TEAL_ENOMEM, "out of memory");
  }
  for (int i = 0; rc == TEAL_OK && i < m->tendons.n; i++) {
    rc = build_tendon(m, plant, inst, i, path, coef);
  }
  teal_free(path);
  teal_free(coef);
  return rc;
}
