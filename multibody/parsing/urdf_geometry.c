/* URDF <material>, <visual> and <collision>: shapes, colors and Drake's
 * proximity properties. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "geometry/shapes/mesh_hull.h"
#include "multibody/parsing/package_map.h"
#include "multibody/parsing/urdf_internal.h"

/* ---- materials ------------------------------------------------------------ */

static const double default_rgba[4] = {0.7, 0.7, 0.7, 1.0};

/* The <color rgba> child of a material: *has = 0 when absent. */
static int parse_color(urdf_model *m, urdf_node *material, double rgba[4], int *has) {
  urdf_node *c;
  *has = 0;
  int rc = urdf_unique_child(m, material, "color", &c);
  if (rc || !c) {
    return rc;
  }
  rc = urdf_attr_numbers(m, c, "rgba", 4, rgba, NULL);
  for (int i = 0; i < 4 && rc == TEAL_OK; i++) {
    if (rgba[i] < 0.0 || rgba[i] > 1.0) {
      rc = urdf_fail(m, c, TEAL_EINVAL, "rgba values must lie in [0, 1]");
    }
  }
  *has = rc == TEAL_OK;
  return rc;
}

static int find_material(const urdf_model *m, const char *name) {
  for (int i = 0; i < m->materials.n; i++) {
    if (strcmp(UMAT(m)[i].name, name) == 0) {
      return i;
    }
  }
  return -1;
}

/* Records a named material (first definition wins; a different color under
 * the same name is an error). */
static int define_material(urdf_model *m, urdf_node *node, const char *name, int has,
                           const double rgba[4]) {
  int i = find_material(m, name);
  if (i >= 0) {
    urdf_material *old = &UMAT(m)[i];
    if (has && old->has_color && memcmp(old->rgba, rgba, sizeof(old->rgba)) != 0) {
      return urdf_fail(m, node, TEAL_EDUPLICATE,
                       "material '%s' is already defined with another color", name);
    }
    if (has && !old->has_color) {
      old->has_color = 1;
      memcpy(old->rgba, rgba, sizeof(old->rgba));
    }
    return TEAL_OK;
  }
  urdf_material *mat = urdf_push(m, &m->materials, sizeof(urdf_material));
  if (!mat) {
    return m->err->code;
  }
  *mat = (urdf_material){name, node, has, {0, 0, 0, 0}};
  memcpy(mat->rgba, has ? rgba : default_rgba, sizeof(mat->rgba));
  return TEAL_OK;
}

/* A <material> (top level: name required) and the color it gives a visual:
 * its own <color>, else the color of the named material defined earlier. */
int urdf_parse_material(urdf_model *m, urdf_node *node, int top_level, double rgba[4]) {
  const char *name = urdf_attr(m, node, "name");
  int has = 0;
  int rc = m->err->code ? m->err->code : parse_color(m, node, rgba, &has);
  if (rc == TEAL_OK && top_level && (!name || !*name)) {
    rc = urdf_fail(m, node, TEAL_EPARSE, "missing attribute 'name'");
  }
  if (rc || !name || !*name) {
    if (rc == TEAL_OK && !has) {
      memcpy(rgba, default_rgba, 4 * sizeof(double));
    }
    return rc;
  }
  if (has || top_level) {
    return define_material(m, node, name, has, rgba);
  }
  int i = find_material(m, name);
  if (i < 0) {
    return urdf_fail(m, node, TEAL_ENOTFOUND, "material '%s' is not defined", name);
  }
  memcpy(rgba, UMAT(m)[i].rgba, 4 * sizeof(double));
  return TEAL_OK;
}

/* ---- shapes ---------------------------------------------------------------- */

/* A package URI (package:// or model://) resolved through the options'
 * package map, the model search path and the folders holding the file
 * (package_map.h); NULL (error recorded) when no package matches. */
static const char *package_path(urdf_model *m, const urdf_node *s, const char *uri) {
  char resolved[4096];
  teal_error why = {TEAL_OK, ""};
  int rc = teal_package_map_resolve(m->packages, uri, m->dir, resolved, sizeof resolved, &why);
  if (rc != TEAL_OK) {
    urdf_fail(m, s, rc, "%s", why.message);
    return NULL;
  }
  char *path = teal_strdup(resolved);
  return urdf_keep(m, path);
}

/* A mesh file name as stored: relative names read from a file are made
 * relative to the file's directory; "file://" is dropped; package URIs are
 * resolved (package_path); other URIs are kept as they are. */
static const char *mesh_path(urdf_model *m, const urdf_node *s, const char *filename) {
  if (strncmp(filename, "file://", 7) == 0) {
    return filename + 7;
  }
  if (strncmp(filename, "package://", 10) == 0 || strncmp(filename, "model://", 8) == 0) {
    return package_path(m, s, filename);
  }
  if (!m->dir || filename[0] == '/' || strstr(filename, "://")) {
    return filename;
  }
  size_t n = strlen(m->dir) + strlen(filename) + 1;
  char *path = teal_alloc(n);
  if (path) {
    snprintf(path, n, "%s%s", m->dir, filename);
  }
  return urdf_keep(m, path);
}

/* A collision mesh: the file read now, its convex hull the shape. */
static int collision_mesh(urdf_model *m, urdf_node *s, const char *path, double scale,
                          teal_shape *out, teal_error *serr) {
  teal_mesh_shapes shapes;
  int rc = teal_mesh_shapes_from_file(path, scale, &shapes, serr);
  if (rc) {
    return urdf_fail(m, s, rc, "%s", serr->message);
  }
  *out = shapes.collision;
  teal_shape_release(&shapes.visual);
  if (shapes.warning[0]) {
    urdf_warn(m, s, &m->report->nonconvex_meshes, "%s", shapes.warning);
  }
  m->report->mesh_collisions++;
  return TEAL_OK;
}

static int parse_mesh(urdf_model *m, urdf_node *s, teal_geometry_role role, teal_shape *out,
                      teal_error *serr) {
  const char *filename;
  double scale[3] = {1, 1, 1};
  int present;
  int rc = urdf_attr_required(m, s, "filename", &filename);
  rc = rc ? rc : urdf_attr_numbers(m, s, "scale", 3, scale, &present);
  if (rc) {
    return rc;
  }
  double tol = 1e-12 * fabs(scale[0]);
  if (fabs(scale[1] - scale[0]) > tol || fabs(scale[2] - scale[0]) > tol) {
    return urdf_fail(m, s, TEAL_EINVAL, "only uniform mesh scales are supported");
  }
  const char *path = mesh_path(m, s, filename);
  if (!path) {
    return m->err->code;
  }
  if (role == TEAL_ROLE_PROXIMITY) {
    return collision_mesh(m, s, path, scale[0], out, serr);
  }
  rc = teal_shape_mesh(path, scale[0], out, serr);
  return rc ? urdf_fail(m, s, rc, "%s", serr->message) : TEAL_OK;
}

/* The shape element s of a geometry of the role; numbers are read from its
 * attributes. */
static int parse_shape_element(urdf_model *m, urdf_node *s, teal_geometry_role role,
                               teal_shape *out) {
  teal_error serr = {TEAL_OK, ""};
  double v[3] = {0, 0, 0};
  int rc;
  if (urdf_is(s, "box")) {
    rc = urdf_attr_numbers(m, s, "size", 3, v, NULL);
    rc = rc ? rc : teal_shape_box(v[0], v[1], v[2], out, &serr);
  } else if (urdf_is(s, "sphere")) {
    rc = urdf_attr_double(m, s, "radius", 1, 0.0, &v[0]);
    rc = rc ? rc : teal_shape_sphere(v[0], out, &serr);
  } else if (urdf_is(s, "cylinder") || urdf_is(s, "capsule") || urdf_is(s, "drake:capsule")) {
    rc = urdf_attr_double(m, s, "radius", 1, 0.0, &v[0]);
    rc = rc ? rc : urdf_attr_double(m, s, "length", 1, 0.0, &v[1]);
    if (rc == TEAL_OK) {
      rc = urdf_is(s, "cylinder") ? teal_shape_cylinder(v[0], v[1], out, &serr)
                                  : teal_shape_capsule(v[0], v[1], out, &serr);
    }
  } else if (urdf_is(s, "drake:ellipsoid")) {
    rc = urdf_attr_double(m, s, "a", 1, 0.0, &v[0]);
    rc = rc ? rc : urdf_attr_double(m, s, "b", 1, 0.0, &v[1]);
    rc = rc ? rc : urdf_attr_double(m, s, "c", 1, 0.0, &v[2]);
    rc = rc ? rc : teal_shape_ellipsoid(v[0], v[1], v[2], out, &serr);
  } else if (urdf_is(s, "mesh")) {
    return parse_mesh(m, s, role, out, &serr);
  } else {
    return urdf_fail(m, s, TEAL_EPARSE, "unknown geometry");
  }
  return rc && m->err->code == TEAL_OK ? urdf_fail(m, s, rc, "%s", serr.message) : rc;
}

/* The single shape inside the <geometry> of node. */
static int parse_shape(urdf_model *m, urdf_node *node, teal_geometry_role role, teal_shape *out) {
  urdf_node *g;
  int rc = urdf_unique_child(m, node, "geometry", &g);
  if (rc) {
    return rc;
  }
  if (!g) {
    return urdf_fail(m, node, TEAL_EPARSE, "missing <geometry>");
  }
  urdf_node *s = g->children;
  if (!s || s->next) {
    return urdf_fail(m, g, TEAL_EPARSE, "<geometry> needs exactly one shape");
  }
  return parse_shape_element(m, s, role, out);
}

/* ---- proximity properties ----------------------------------------------------- */

/* The value of the drake:<tag> child of p into *x (unchanged if absent). */
static int drake_value(urdf_model *m, urdf_node *p, const char *tag, double *x, int *present) {
  urdf_node *c;
  int rc = urdf_unique_child(m, p, tag, &c);
  *present = c != NULL;
  return rc || !c ? rc : urdf_attr_double(m, c, "value", 1, 0.0, x);
}

static int is_known_property(const urdf_node *c) {
  return urdf_is(c, "drake:mu_static") || urdf_is(c, "drake:mu_dynamic") ||
         urdf_is(c, "drake:point_contact_stiffness") ||
         urdf_is(c, "drake:hunt_crossley_dissipation") || urdf_is(c, "drake:relaxation_time") ||
         urdf_is(c, "drake:hydroelastic_modulus") || urdf_is(c, "drake:mesh_resolution_hint") ||
         urdf_is(c, "drake:compliant_hydroelastic") || urdf_is(c, "drake:rigid_hydroelastic");
}

/* The hydroelastic compliance: <drake:compliant_hydroelastic/> or
 * <drake:rigid_hydroelastic/> (not both), with the modulus and mesh
 * resolution hint values (docs/hydroelastic.md). */
static int parse_hydroelastic(urdf_model *m, urdf_node *p, teal_proximity_properties *props) {
  urdf_node *soft, *rigid;
  int has;
  int rc = drake_value(m, p, "drake:hydroelastic_modulus", &props->hydroelastic_modulus, &has);
  rc = rc ? rc : drake_value(m, p, "drake:mesh_resolution_hint", &props->resolution_hint, &has);
  rc = rc ? rc : urdf_unique_child(m, p, "drake:compliant_hydroelastic", &soft);
  rc = rc ? rc : urdf_unique_child(m, p, "drake:rigid_hydroelastic", &rigid);
  if (rc == TEAL_OK && soft && rigid) {
    return urdf_fail(m, p, TEAL_EINVAL, "is both compliant and rigid hydroelastic");
  }
  if (rc == TEAL_OK && (soft || rigid)) {
    props->compliance = soft ? TEAL_HYDROELASTIC_SOFT : TEAL_HYDROELASTIC_RIGID;
  }
  return rc;
}

/* Friction, stiffness, dissipation and relaxation time of a <collision>
 * (defaults: mu = 1). */
static int parse_proximity(urdf_model *m, urdf_node *node, teal_proximity_properties *props) {
  urdf_node *p;
  *props = teal_proximity_properties_make(1.0, 1.0);
  int rc = urdf_unique_child(m, node, "drake:proximity_properties", &p);
  if (rc || !p) {
    return rc;
  }
  double mus = NAN, mud = NAN;
  int has_s, has_d, has;
  rc = drake_value(m, p, "drake:mu_static", &mus, &has_s);
  rc = rc ? rc : drake_value(m, p, "drake:mu_dynamic", &mud, &has_d);
  rc = rc ? rc : drake_value(m, p, "drake:point_contact_stiffness",
                             &props->point_contact_stiffness, &has);
  rc = rc ? rc : drake_value(m, p, "drake:hunt_crossley_dissipation",
                             &props->hunt_crossley_dissipation, &has);
  rc = rc ? rc : drake_value(m, p, "drake:relaxation_time", &props->relaxation_time, &has);
  rc = rc ? rc : parse_hydroelastic(m, p, props);
  if (rc) {
    return rc;
  }
  props->static_friction = has_s ? mus : has_d ? mud : 1.0;
  props->dynamic_friction = has_d ? mud : props->static_friction;
  for (urdf_node *c = p->children; c; c = c->next) {
    if (!is_known_property(c)) {
      urdf_warn(m, c, &m->report->ignored_elements, "unsupported proximity property ignored");
    }
  }
  if (!teal_proximity_properties_valid(props)) {
    return urdf_fail(m, p, TEAL_EINVAL,
                     "needs friction static >= dynamic >= 0, stiffness > 0, dissipation >= 0 "
                     "and relaxation time >= 0, and, when compliant hydroelastic, a hydroelastic "
                     "modulus > 0");
  }
  return TEAL_OK;
}

/* ---- visual and collision ------------------------------------------------------- */

/* The geometry name: the name attribute or "<link>_<role>_<k>". */
static char *geometry_name(urdf_model *m, int link, urdf_node *node, const char *role, int k) {
  const char *name = urdf_attr(m, node, "name");
  if (m->err->code) {
    return NULL;
  }
  if (name && *name) {
    return teal_strdup(name);
  }
  const char *ln = ULINK(m)[link].name;
  size_t n = strlen(ln) + strlen(role) + 16;
  char *s = teal_alloc(n);
  if (s) {
    snprintf(s, n, "%s_%s_%d", ln, role, k);
  }
  return s;
}

/* Appends a parsed geometry, taking the shape (released on failure). */
static int push_geom(urdf_model *m, const urdf_geom *g) {
  char *name = g->name;
  teal_shape shape = g->shape;
  urdf_geom *dst = name ? urdf_push(m, &m->geoms, sizeof(urdf_geom)) : NULL;
  if (!dst) {
    teal_free(name);
    teal_shape_release(&shape);
    return m->err->code ? m->err->code : urdf_fail(m, NULL, TEAL_ENOMEM, "out of memory");
  }
  *dst = *g;
  return TEAL_OK;
}

int urdf_parse_visual(urdf_model *m, int link, urdf_node *node, int k) {
  urdf_geom g = {link,
                 node,
                 TEAL_ROLE_ILLUSTRATION,
                 NULL,
                 teal_transform_identity(),
                 {TEAL_SHAPE_SPHERE, 0, 0, {{0, 0, 0}}, 0, NULL, NULL},
                 {0.7, 0.7, 0.7, 1.0},
                 {0, 0, 0, 0, 0, TEAL_HYDROELASTIC_NONE, 0, 0}};
  urdf_node *mat;
  int rc = urdf_origin(m, node, &g.X_LG);
  rc = rc ? rc : urdf_unique_child(m, node, "material", &mat);
  rc = rc || !mat ? rc : urdf_parse_material(m, mat, 0, g.rgba);
  rc = rc ? rc : parse_shape(m, node, g.role, &g.shape);
  if (rc) {
    return rc;
  }
  g.name = geometry_name(m, link, node, "visual", k);
  return push_geom(m, &g);
}

int urdf_parse_collision(urdf_model *m, int link, urdf_node *node, int k) {
  urdf_geom g = {link,
                 node,
                 TEAL_ROLE_PROXIMITY,
                 NULL,
                 teal_transform_identity(),
                 {TEAL_SHAPE_SPHERE, 0, 0, {{0, 0, 0}}, 0, NULL, NULL},
                 {0.7, 0.7, 0.7, 1.0},
                 {0, 0, 0, 0, 0, TEAL_HYDROELASTIC_NONE, 0, 0}};
  int rc = urdf_origin(m, node, &g.X_LG);
  rc = rc ? rc : parse_proximity(m, node, &g.props);
  rc = rc ? rc : parse_shape(m, node, g.role, &g.shape);
  if (rc) {
    return rc;
  }
  g.name = geometry_name(m, link, node, "collision", k);
  return push_geom(m, &g);
}

void urdf_free_geoms(urdf_model *m) {
  for (int i = 0; i < m->geoms.n; i++) {
    teal_free(UGEOM(m)[i].name);
    teal_shape_release(&UGEOM(m)[i].shape);
  }
}
