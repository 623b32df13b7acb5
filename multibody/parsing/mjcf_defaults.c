/* MJCF settings and defaults: <compiler>, <option>, the <default> class
 * tree, attribute lookup through an element's class chain, numbers and
 * orientations (quat, axisangle, euler, xyaxes, zaxis) as MuJoCo reads
 * them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "multibody/parsing/mjcf_internal.h"

#define MJCF_PI 3.14159265358979323846

/* ---- attributes through the classes ---------------------------------------- */

static const char *const class_kinds[MJCF_CLASS_KINDS] = {"joint", "geom",   "site",
                                                          "motor", "tendon", "equality"};

/* The class's element of that kind, or NULL (found when the class was
 * parsed: a class element may hold thousands of nested classes). */
static urdf_node *class_element(const mjcf_class *c, const char *kind) {
  for (int k = 0; k < MJCF_CLASS_KINDS; k++) {
    if (strcmp(kind, class_kinds[k]) == 0) {
      return c->element[k];
    }
  }
  return NULL;
}

const char *mjcf_attr(mjcf_model *m, urdf_node *node, const char *kind, int cls, const char *name) {
  const char *v = urdf_attr(&m->u, node, name);
  /* a class's defaults hold for the class and the classes nested in it */
  for (int c = cls; !v && c >= 0 && !m->u.err->code; c = MCLASS(m)[c].parent) {
    urdf_node *e = class_element(&MCLASS(m)[c], kind);
    v = e ? urdf_attr(&m->u, e, name) : NULL;
  }
  return m->u.err->code ? NULL : v;
}

/* The element carrying the attribute (node or a class element), or NULL. */
static urdf_node *attr_owner(mjcf_model *m, urdf_node *node, const char *kind, int cls,
                             const char *name) {
  if (urdf_attr(&m->u, node, name)) {
    return node;
  }
  for (int c = cls; c >= 0; c = MCLASS(m)[c].parent) {
    urdf_node *e = class_element(&MCLASS(m)[c], kind);
    if (e && urdf_attr(&m->u, e, name)) {
      return e;
    }
  }
  return NULL;
}

/* The number of whitespace-separated tokens in s. */
static int count_tokens(const char *s) {
  int n = 0;
  for (int in = 0; *s; s++) {
    int space = *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r';
    n += !space && !in;
    in = !space;
  }
  return n;
}

int mjcf_numbers(mjcf_model *m, urdf_node *node, const char *kind, int cls, const char *name,
                 int max, double *out, int *count) {
  *count = 0;
  urdf_node *owner = attr_owner(m, node, kind, cls, name);
  if (!owner || m->u.err->code) {
    return m->u.err->code;
  }
  const char *s = urdf_attr(&m->u, owner, name);
  int n = count_tokens(s);
  if (n < 1 || n > max) {
    return urdf_fail(&m->u, owner, TEAL_EPARSE, "attribute %s=\"%.40s\" needs 1 to %d numbers",
                     name, s, max);
  }
  int rc = urdf_attr_numbers(&m->u, owner, name, n, out, NULL);
  *count = rc ? 0 : n;
  return rc;
}

int mjcf_double(mjcf_model *m, urdf_node *node, const char *kind, int cls, const char *name,
                double def, double *out) {
  int n;
  int rc = mjcf_numbers(m, node, kind, cls, name, 1, out, &n);
  if (rc == TEAL_OK && n == 0) {
    *out = def;
  }
  return rc;
}

int mjcf_keyword(mjcf_model *m, urdf_node *node, const char *kind, int cls, const char *name,
                 const char *const *words, int def, int *out) {
  const char *v = mjcf_attr(m, node, kind, cls, name);
  *out = def;
  if (!v) {
    return m->u.err->code;
  }
  for (int i = 0; words[i]; i++) {
    if (strcmp(v, words[i]) == 0) {
      *out = i;
      return TEAL_OK;
    }
  }
  return urdf_fail(&m->u, node, TEAL_EPARSE, "unknown %s '%.40s'", name, v);
}

/* ---- orientations ------------------------------------------------------------ */

teal_rotation mjcf_z_to(teal_vec3 v) {
  return urdf_rotation_z_to(teal_vec3_scale(v, 1.0 / teal_vec3_norm(v)), 1e-14);
}

/* Euler angles in the compiler's sequence: lower-case axes rotate with the
 * frame (post-multiplied), upper-case ones are fixed (pre-multiplied). */
static teal_rotation from_euler(const mjcf_model *m, const double e[3]) {
  teal_rotation R = teal_rotation_identity();
  for (int i = 0; i < 3; i++) {
    char c = m->eulerseq[i];
    int k = c == 'x' || c == 'X' ? 0 : c == 'y' || c == 'Y' ? 1 : 2;
    teal_vec3 a = teal_vec3_zero();
    a.v[k] = 1.0;
    teal_rotation Ri = teal_rotation_from_axis_angle(a, e[i] * m->angle_scale);
    R = c >= 'a' ? teal_rotation_mul(R, Ri) : teal_rotation_mul(Ri, R);
  }
  return R;
}

/* x and y axes: y is made orthogonal to x, z = x cross y. */
static int from_xyaxes(mjcf_model *m, urdf_node *node, const double a[6], teal_rotation *R) {
  teal_vec3 x = teal_vec3_make(a[0], a[1], a[2]), y = teal_vec3_make(a[3], a[4], a[5]);
  double nx = teal_vec3_norm(x);
  if (!(nx > 1e-12)) {
    return urdf_fail(&m->u, node, TEAL_EINVAL, "xyaxes: zero x axis");
  }
  x = teal_vec3_scale(x, 1.0 / nx);
  y = teal_vec3_sub(y, teal_vec3_scale(x, teal_vec3_dot(x, y)));
  double ny = teal_vec3_norm(y);
  if (!(ny > 1e-12)) {
    return urdf_fail(&m->u, node, TEAL_EINVAL, "xyaxes: y axis parallel to x");
  }
  y = teal_vec3_scale(y, 1.0 / ny);
  teal_vec3 z = teal_vec3_cross(x, y);
  for (int i = 0; i < 3; i++) {
    R->m[3 * i] = x.v[i];
    R->m[3 * i + 1] = y.v[i];
    R->m[3 * i + 2] = z.v[i];
  }
  return TEAL_OK;
}

/* One of the orientation attributes (at most one may be given). */
static int orientation(mjcf_model *m, urdf_node *node, const char *kind, int cls,
                       teal_rotation *R) {
  static const char *const names[5] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
  static const int sizes[5] = {4, 4, 3, 6, 3};
  double a[6];
  int which = -1, rc = TEAL_OK;
  for (int i = 0; i < 5 && rc == TEAL_OK; i++) {
    int n = 0;
    rc = mjcf_numbers(m, node, kind, cls, names[i], sizes[i], a, &n);
    if (rc == TEAL_OK && n > 0 && n != sizes[i]) {
      rc = urdf_fail(&m->u, node, TEAL_EPARSE, "attribute %s needs %d numbers", names[i], sizes[i]);
    }
    if (rc == TEAL_OK && n > 0 && which >= 0) {
      rc = urdf_fail(&m->u, node, TEAL_EPARSE, "both %s and %s given", names[which], names[i]);
    }
    which = n > 0 ? i : which;
  }
  *R = teal_rotation_identity();
  if (rc || which < 0) {
    return rc;
  }
  rc = mjcf_numbers(m, node, kind, cls, names[which], sizes[which], a, &(int){0});
  teal_vec3 v = teal_vec3_make(a[0], a[1], a[2]);
  double norm =
      which == 0 ? sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]) : teal_vec3_norm(v);
  if (which != 2 && which != 3 && !(norm > 1e-12)) {
    return urdf_fail(&m->u, node, TEAL_EINVAL, "attribute %s: zero vector", names[which]);
  }
  switch (which) {
    case 0:
      *R = teal_rotation_from_quaternion(teal_quaternion_make(a[0], a[1], a[2], a[3]));
      return TEAL_OK;
    case 1:
      *R = teal_rotation_from_axis_angle(v, a[3] * m->angle_scale);
      return TEAL_OK;
    case 2:
      *R = from_euler(m, a);
      return TEAL_OK;
    case 3:
      return from_xyaxes(m, node, a, R);
    default:
      *R = mjcf_z_to(v);
      return TEAL_OK;
  }
}

int mjcf_pose(mjcf_model *m, urdf_node *node, const char *kind, int cls, teal_transform *X) {
  double p[3] = {0, 0, 0};
  int n;
  int rc = mjcf_numbers(m, node, kind, cls, "pos", 3, p, &n);
  if (rc == TEAL_OK && n != 0 && n != 3) {
    rc = urdf_fail(&m->u, node, TEAL_EPARSE, "attribute pos needs 3 numbers");
  }
  X->p = teal_vec3_make(p[0], p[1], p[2]);
  return rc ? rc : orientation(m, node, kind, cls, &X->R);
}

/* ---- <compiler> and <option> ---------------------------------------------------- */

static int parse_eulerseq(mjcf_model *m, urdf_node *node) {
  const char *s = urdf_attr(&m->u, node, "eulerseq");
  if (!s) {
    return m->u.err->code;
  }
  int ok = strlen(s) == 3;
  for (int i = 0; ok && i < 3; i++) {
    ok = strchr("xyzXYZ", s[i]) != NULL;
  }
  if (!ok) {
    return urdf_fail(&m->u, node, TEAL_EPARSE, "eulerseq '%.20s' must be 3 of xyzXYZ", s);
  }
  memcpy(m->eulerseq, s, 4);
  return TEAL_OK;
}

/* Attributes of <compiler> that change nothing here (no warning). */
static int harmless_compiler_attr(const char *name) {
  static const char *const names[] = {"meshdir",   "texturedir",    "assetdir",
                                      "strippath", "discardvisual", "convexhull",
                                      "usethread", "fitaabb",       NULL};
  for (int i = 0; names[i]; i++) {
    if (strcmp(name, names[i]) == 0) {
      return 1;
    }
  }
  return 0;
}

static int compiler_flags(mjcf_model *m, urdf_node *node) {
  static const char *const angles[] = {"radian", "degree", NULL};
  static const char *const bools[] = {"false", "true", NULL};
  static const char *const ifg[] = {"false", "true", "auto", NULL};
  int angle, autolimits, fromgeom;
  int rc = mjcf_keyword(m, node, "compiler", -1, "angle", angles, 1, &angle);
  rc = rc ? rc : mjcf_keyword(m, node, "compiler", -1, "autolimits", bools, 1, &autolimits);
  rc = rc ? rc : mjcf_keyword(m, node, "compiler", -1, "inertiafromgeom", ifg, 2, &fromgeom);
  m->angle_scale = angle ? MJCF_PI / 180.0 : 1.0;
  m->autolimits = autolimits;
  m->inertiafromgeom = fromgeom == 2 ? -1 : fromgeom;
  const char *coord = urdf_attr(&m->u, node, "coordinate");
  if (rc == TEAL_OK && coord && strcmp(coord, "local") != 0) {
    rc = urdf_fail(&m->u, node, TEAL_EPARSE, "coordinate '%.20s' is not supported (only local)",
                   coord);
  }
  return rc;
}

/* meshdir, else assetdir (MuJoCo's fallback for every asset kind). */
static void mesh_dir(mjcf_model *m, urdf_node *node) {
  const char *md = urdf_attr(&m->u, node, "meshdir");
  m->meshdir = md ? md : urdf_attr(&m->u, node, "assetdir");
}

int mjcf_parse_compiler(mjcf_model *m, urdf_node *node) {
  mesh_dir(m, node);
  int rc = m->u.err->code ? m->u.err->code : compiler_flags(m, node);
  static const char *const bools[] = {"false", "true", NULL};
  int exact = 1;
  rc = rc ? rc : mjcf_keyword(m, node, "compiler", -1, "exactmeshinertia", bools, 1, &exact);
  if (rc == TEAL_OK && !exact) {
    urdf_warn(&m->u, node, &m->report->ignored_attributes,
              "exactmeshinertia='false' ignored: mesh inertias are exact (MuJoCo 2.2's legacy "
              "approximation is not modelled)");
  }
  rc = rc ? rc : parse_eulerseq(m, node);
  rc = rc ? rc : mjcf_double(m, node, "compiler", -1, "boundmass", 0.0, &m->boundmass);
  if (rc == TEAL_OK && m->boundmass < 0.0) {
    rc = urdf_fail(&m->u, node, TEAL_EINVAL, "boundmass must be >= 0");
  }
  static const char *const known[] = {
      "angle",     "eulerseq",   "autolimits",       "inertiafromgeom",
      "boundmass", "coordinate", "exactmeshinertia", NULL};
  for (int i = 0; i < node->nattrs && rc == TEAL_OK; i++) {
    const char *a = node->attrs[i].name;
    int k = 0;
    while (known[k] && strcmp(known[k], a) != 0) {
      k++;
    }
    if (!known[k] && !harmless_compiler_attr(a)) {
      urdf_warn(&m->u, node, &m->report->ignored_attributes, "attribute '%s' ignored", a);
    }
  }
  return rc;
}

int mjcf_parse_option(mjcf_model *m, urdf_node *node) {
  double g[3];
  int n;
  int rc =
      mjcf_double(m, node, "option", -1, "timestep", m->report->timestep, &m->report->timestep);
  if (rc == TEAL_OK && !(m->report->timestep > 0.0)) {
    rc = urdf_fail(&m->u, node, TEAL_EINVAL, "timestep must be > 0");
  }
  rc = rc ? rc : mjcf_numbers(m, node, "option", -1, "gravity", 3, g, &n);
  if (rc == TEAL_OK && n != 0 && n != 3) {
    rc = urdf_fail(&m->u, node, TEAL_EPARSE, "attribute gravity needs 3 numbers");
  }
  if (rc == TEAL_OK && n == 3) {
    m->has_gravity = 1;
    m->gravity = teal_vec3_make(g[0], g[1], g[2]);
  }
  for (int i = 0; i < node->nattrs && rc == TEAL_OK; i++) {
    const char *a = node->attrs[i].name;
    if (strcmp(a, "timestep") != 0 && strcmp(a, "gravity") != 0) {
      urdf_warn(&m->u, node, &m->report->ignored_attributes, "attribute '%s' ignored", a);
    }
  }
  return rc;
}

/* ---- <default> ------------------------------------------------------------------- */

/* A default <equality> carries only what MuJoCo's schema lets it (active,
 * solref, solimp): anything else, e.g. polycoef, is per element there and
 * a schema error, so it is one here rather than silently unused. */
static int check_default_equality(mjcf_model *m, urdf_node *e) {
  for (int i = 0; e && i < e->nattrs; i++) {
    const char *a = e->attrs[i].name;
    if (strcmp(a, "active") != 0 && strcmp(a, "solref") != 0 && strcmp(a, "solimp") != 0) {
      return urdf_fail(&m->u, e, TEAL_EPARSE,
                       "attribute '%s' cannot be a default (an equality default holds active, "
                       "solref and solimp)",
                       a);
    }
  }
  return TEAL_OK;
}

static int add_class(mjcf_model *m, urdf_node *node, const char *name, int parent) {
  mjcf_class *c = urdf_push(&m->u, &m->classes, sizeof(mjcf_class));
  if (!c) {
    return m->u.err->code;
  }
  c->name = name;
  c->node = node;
  c->parent = parent;
  /* the first element of each kind, as MuJoCo reads it */
  for (urdf_node *e = node ? node->children : NULL; e; e = e->next) {
    for (int k = 0; k < MJCF_CLASS_KINDS; k++) {
      if (!c->element[k] && urdf_is(e, class_kinds[k])) {
        c->element[k] = e;
      }
    }
  }
  return check_default_equality(m, c->element[MJCF_CLASS_KINDS - 1]);
}

static int parse_class(mjcf_model *m, urdf_node *node, int parent) {
  const char *name = parent < 0 ? "main" : urdf_attr(&m->u, node, "class");
  if (parent >= 0 && (!name || !*name)) {
    return m->u.err->code ? m->u.err->code
                          : urdf_fail(&m->u, node, TEAL_EPARSE, "missing attribute 'class'");
  }
  if (parent < 0 && urdf_attr(&m->u, node, "class")) {
    name = urdf_attr(&m->u, node, "class");
  }
  int rc = add_class(m, node, name, parent);
  int self = m->classes.n - 1;
  for (urdf_node *c = node->children; c && rc == TEAL_OK; c = c->next) {
    rc = urdf_is(c, "default") ? parse_class(m, c, self) : TEAL_OK;
  }
  return rc;
}

int mjcf_parse_defaults(mjcf_model *m, urdf_node *node) {
  if (m->classes.n > 0) {
    return urdf_fail(&m->u, node, TEAL_EPARSE, "more than one top-level <default>");
  }
  return parse_class(m, node, -1);
}

int mjcf_ensure_main_class(mjcf_model *m) {
  return m->classes.n > 0 ? TEAL_OK : add_class(m, NULL, "main", -1);
}

int mjcf_index_classes(mjcf_model *m) {
  return urdf_index_names(&m->u, &m->classes, sizeof(mjcf_class), &m->class_index, "default class");
}

int mjcf_class_named(mjcf_model *m, urdf_node *node, const char *name, int *cls) {
  int c = urdf_index_find(&m->class_index, &m->classes, sizeof(mjcf_class), name);
  if (c < 0) {
    return urdf_fail(&m->u, node, TEAL_ENOTFOUND, "unknown class '%.80s'", name);
  }
  *cls = c;
  return TEAL_OK;
}

int mjcf_element_class(mjcf_model *m, urdf_node *node, int fallback, int *cls) {
  const char *name = urdf_attr(&m->u, node, "class");
  *cls = fallback;
  return name ? mjcf_class_named(m, node, name, cls) : m->u.err->code;
}
