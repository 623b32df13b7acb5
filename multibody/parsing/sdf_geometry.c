/* SDFormat <visual> and <collision>: poses (relative_to), shapes, the
 * visual's <material> color and Drake's proximity properties. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "geometry/shapes/mesh_hull.h"
#include "multibody/parsing/package_map.h"
#include "multibody/parsing/sdf_internal.h"

#define SDF_PATH_MAX 4096

static const double default_rgba[4] = {0.7, 0.7, 0.7, 1.0};

/* Turns a shape constructor's error into the document's error at node. */
static int shape_failed(urdf_model *doc, urdf_node *node, int rc, const teal_error *e) {
  return rc ? urdf_fail(doc, node, rc, "%s", e->message) : TEAL_OK;
}

/* A required child number (or numbers). */
static int need(urdf_model *doc, urdf_node *node, const char *child, int n, double *v) {
  int present = 0;
  int rc = sdf_child_numbers(doc, node, child, n, v, &present);
  return rc || present ? rc : urdf_fail(doc, node, TEAL_EPARSE, "missing <%s>", child);
}

/* A mesh file: model:// and package:// through the package map (an
 * unresolved URI is an error), other relative names from the document's
 * directory. */
static int mesh_shape(urdf_model *doc, urdf_node *mesh, teal_shape *shape) {
  urdf_node *u;
  double scale[3] = {1, 1, 1};
  int present = 0;
  int rc = urdf_unique_child(doc, mesh, "uri", &u);
  const char *uri = rc || !u ? NULL : urdf_text(doc, u);
  if (rc == TEAL_OK && (!uri || !*uri)) {
    return doc->err->code ? doc->err->code : urdf_fail(doc, mesh, TEAL_EPARSE, "missing <uri>");
  }
  rc = rc ? rc : sdf_child_numbers(doc, mesh, "scale", 3, scale, &present);
  if (rc == TEAL_OK && (scale[0] != scale[1] || scale[1] != scale[2])) {
    return urdf_fail(doc, mesh, TEAL_EINVAL, "only uniform mesh scales are supported");
  }
  char path[SDF_PATH_MAX];
  teal_error e = {TEAL_OK, ""};
  if (rc == TEAL_OK && (strncmp(uri, "model://", 8) == 0 || strncmp(uri, "package://", 10) == 0)) {
    rc = teal_package_map_resolve(doc->packages, uri, doc->dir, path, sizeof path, &e);
    if (rc) {
      return urdf_fail(doc, mesh, rc, "%s", e.message);
    }
  } else if (rc == TEAL_OK) {
    snprintf(path, sizeof path, "%s%s", uri[0] == '/' || !doc->dir ? "" : doc->dir, uri);
  }
  e.code = TEAL_OK;
  return rc ? rc : shape_failed(doc, mesh, teal_shape_mesh(path, scale[0], shape, &e), &e);
}

/* One shape element into *shape (a plane also turns *X_GS). */
typedef int (*shape_parser)(urdf_model *doc, urdf_node *c, teal_shape *shape, teal_transform *X_GS);

static int box_shape(urdf_model *doc, urdf_node *c, teal_shape *shape, teal_transform *X_GS) {
  double v[3];
  teal_error e = {TEAL_OK, ""};
  int rc = need(doc, c, "size", 3, v);
  (void)X_GS;
  return rc ? rc : shape_failed(doc, c, teal_shape_box(v[0], v[1], v[2], shape, &e), &e);
}

static int sphere_shape(urdf_model *doc, urdf_node *c, teal_shape *shape, teal_transform *X_GS) {
  double r;
  teal_error e = {TEAL_OK, ""};
  int rc = need(doc, c, "radius", 1, &r);
  (void)X_GS;
  return rc ? rc : shape_failed(doc, c, teal_shape_sphere(r, shape, &e), &e);
}

/* <cylinder> and <capsule>: radius and length. */
static int round_shape(urdf_model *doc, urdf_node *c, teal_shape *shape, teal_transform *X_GS) {
  double r, len;
  teal_error e = {TEAL_OK, ""};
  int rc = need(doc, c, "radius", 1, &r);
  rc = rc ? rc : need(doc, c, "length", 1, &len);
  (void)X_GS;
  if (rc) {
    return rc;
  }
  rc = urdf_is(c, "cylinder") ? teal_shape_cylinder(r, len, shape, &e)
                              : teal_shape_capsule(r, len, shape, &e);
  return shape_failed(doc, c, rc, &e);
}

static int ellipsoid_shape(urdf_model *doc, urdf_node *c, teal_shape *shape, teal_transform *X_GS) {
  double v[3];
  teal_error e = {TEAL_OK, ""};
  int rc = need(doc, c, "radii", 3, v);
  (void)X_GS;
  return rc ? rc : shape_failed(doc, c, teal_shape_ellipsoid(v[0], v[1], v[2], shape, &e), &e);
}

/* <plane><normal>: the half-space below the plane, z of G along the normal. */
static int plane_shape(urdf_model *doc, urdf_node *c, teal_shape *shape, teal_transform *X_GS) {
  double v[3] = {0, 0, 1};
  int present;
  int rc = sdf_child_numbers(doc, c, "normal", 3, v, &present);
  teal_vec3 n = teal_vec3_make(v[0], v[1], v[2]);
  double len = teal_vec3_norm(n);
  if (rc == TEAL_OK && !(len > 1e-12 && isfinite(len))) {
    rc = urdf_fail(doc, c, TEAL_EINVAL, "zero plane normal");
  }
  if (rc) {
    return rc;
  }
  X_GS->R = urdf_rotation_z_to(teal_vec3_scale(n, 1.0 / len), 1e-15);
  return teal_shape_half_space(shape);
}

static int mesh_element(urdf_model *doc, urdf_node *c, teal_shape *shape, teal_transform *X_GS) {
  (void)X_GS;
  return mesh_shape(doc, c, shape);
}

/* The shape of <geometry>; *X_GS turns a plane's half-space to its normal. */
static int parse_shape(urdf_model *doc, urdf_node *geometry, teal_shape *shape,
                       teal_transform *X_GS, int *is_mesh) {
  static const struct {
    const char *name;
    shape_parser parse;
  } shapes[] = {{"box", box_shape},       {"sphere", sphere_shape},       {"cylinder", round_shape},
                {"capsule", round_shape}, {"ellipsoid", ellipsoid_shape}, {"plane", plane_shape},
                {"mesh", mesh_element}};
  urdf_node *c = geometry->children;
  *X_GS = teal_transform_identity();
  *is_mesh = c && urdf_is(c, "mesh");
  if (!c || c->next) {
    return urdf_fail(doc, geometry, TEAL_EPARSE, "<geometry> needs exactly one shape");
  }
  for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
    if (urdf_is(c, shapes[i].name)) {
      return shapes[i].parse(doc, c, shape, X_GS);
    }
  }
  return urdf_fail(doc, c, TEAL_EPARSE, "unsupported shape <%s>", c->name);
}

/* <material><diffuse> (3 or 4 numbers). */
static int parse_color(urdf_model *doc, urdf_node *visual, double rgba[4]) {
  urdf_node *mat, *d = NULL;
  memcpy(rgba, default_rgba, 4 * sizeof(double));
  int rc = urdf_unique_child(doc, visual, "material", &mat);
  rc = rc || !mat ? rc : urdf_unique_child(doc, mat, "diffuse", &d);
  const char *t = rc || !d ? NULL : urdf_text(doc, d);
  if (rc || !t) {
    return rc ? rc : doc->err->code;
  }
  rc = urdf_parse_numbers(t, 4, rgba);
  rc = rc == TEAL_EPARSE ? urdf_parse_numbers(t, 3, rgba) : rc;
  for (int i = 0; i < 4 && rc == TEAL_OK; i++) {
    rc = rgba[i] < 0.0 || rgba[i] > 1.0 ? TEAL_EINVAL : TEAL_OK;
  }
  return rc ? urdf_fail(doc, d, rc, "'%.40s' is not an rgba color in [0, 1]", t) : TEAL_OK;
}

/* One <drake:...> proximity property, or a warning for an unsupported one. */
static int proximity_child(urdf_model *doc, urdf_node *c, teal_proximity_properties *p, double *mus,
                           double *mud) {
  static const char *const names[7] = {"drake:mu_static",
                                       "drake:mu_dynamic",
                                       "drake:point_contact_stiffness",
                                       "drake:hunt_crossley_dissipation",
                                       "drake:relaxation_time",
                                       "drake:hydroelastic_modulus",
                                       "drake:mesh_resolution_hint"};
  double *dst[7] = {mus,
                    mud,
                    &p->point_contact_stiffness,
                    &p->hunt_crossley_dissipation,
                    &p->relaxation_time,
                    &p->hydroelastic_modulus,
                    &p->resolution_hint};
  int soft = urdf_is(c, "drake:compliant_hydroelastic"),
      rigid = urdf_is(c, "drake:rigid_hydroelastic");
  if (soft || rigid) {
    teal_hydroelastic_compliance k = soft ? TEAL_HYDROELASTIC_SOFT : TEAL_HYDROELASTIC_RIGID;
    if (p->compliance != TEAL_HYDROELASTIC_NONE && p->compliance != k) {
      return urdf_fail(doc, c, TEAL_EINVAL, "is both compliant and rigid hydroelastic");
    }
    p->compliance = k;
    return TEAL_OK;
  }
  for (int i = 0; i < 7; i++) {
    if (urdf_is(c, names[i])) {
      const char *t = urdf_text(doc, c);
      int rc = t ? urdf_parse_numbers(t, 1, dst[i]) : doc->err->code;
      return rc && t ? urdf_fail(doc, c, rc, "'%.40s' is not a finite number", t) : rc;
    }
  }
  urdf_warn(doc, c, &doc->report->ignored_elements, "unsupported proximity property ignored");
  return TEAL_OK;
}

static int parse_proximity(urdf_model *doc, urdf_node *col, teal_proximity_properties *p) {
  urdf_node *pp;
  *p = teal_proximity_properties_make(1.0, 1.0);
  double mus = NAN, mud = NAN;
  int rc = urdf_unique_child(doc, col, "drake:proximity_properties", &pp);
  for (urdf_node *c = col->children; c && rc == TEAL_OK; c = c->next) {
    if (urdf_is(c, "surface")) {
      urdf_warn(doc, c, &doc->report->ignored_elements,
                "<surface> ignored (friction and contact come from "
                "<drake:proximity_properties>)");
    }
  }
  for (urdf_node *c = pp ? pp->children : NULL; c && rc == TEAL_OK; c = c->next) {
    rc = proximity_child(doc, c, p, &mus, &mud);
  }
  if (rc || !pp) {
    return rc;
  }
  p->static_friction = !isnan(mus) ? mus : !isnan(mud) ? mud : 1.0;
  p->dynamic_friction = !isnan(mud) ? mud : p->static_friction;
  return teal_proximity_properties_valid(p)
             ? TEAL_OK
             : urdf_fail(doc, pp, TEAL_EINVAL,
                         "invalid proximity properties (friction >= 0 with dynamic <= static, "
                         "stiffness > 0, dissipation >= 0, relaxation time >= 0, a "
                         "hydroelastic modulus > 0 when compliant hydroelastic)");
}

/* The geometry name "<link>::<name>" (teal_alloc'd). */
static char *geometry_name(const char *link, const char *name) {
  size_t a = strlen(link), b = strlen(name);
  char *s = teal_alloc(a + b + 3);
  if (s) {
    memcpy(s, link, a);
    memcpy(s + a, "::", 2);
    memcpy(s + a + 2, name, b + 1);
  }
  return s;
}

/* The pose of a visual or collision in the link frame. */
static int geometry_pose(sdf_state *s, int f, urdf_model *doc, urdf_node *node,
                         teal_transform *X_LG) {
  urdf_node *pose;
  teal_transform X_RG;
  int rc = urdf_unique_child(doc, node, "pose", &pose);
  const char *rel = rc || !pose ? NULL : urdf_attr(doc, pose, "relative_to");
  rc = rc ? rc : sdf_parse_pose(doc, pose, &X_RG);
  int r =
      rc || !rel || !*rel ? f : sdf_lookup(s, SFRAME(s)[f].scope, rel, doc, pose, "relative_to");
  if (rc || r < 0) {
    return s->err->code;
  }
  teal_transform X_LR =
      teal_transform_compose(teal_transform_inverse(SFRAME(s)[f].X_WF), SFRAME(s)[r].X_WF);
  *X_LG = teal_transform_compose(X_LR, X_RG);
  return TEAL_OK;
}

/* A collision mesh becomes its convex hull (geometry/shapes/mesh_hull.h),
 * with a warning when the mesh is far from convex or not closed. */
static int mesh_hull(sdf_state *s, urdf_model *doc, urdf_node *node, teal_shape *shape) {
  teal_mesh_shapes ms;
  teal_error e = {TEAL_OK, ""};
  int rc = teal_mesh_shapes_from_file(shape->filename, shape->size.v[0], &ms, &e);
  if (rc) {
    return urdf_fail(doc, node, rc, "collision mesh: %s", e.message);
  }
  teal_shape_release(shape);
  rc = teal_shape_copy(shape, &ms.collision);
  s->mesh_collisions++;
  if (rc == TEAL_OK && ms.warning[0]) {
    urdf_warn(doc, node, &s->nonconvex_meshes, "%s", ms.warning);
  }
  teal_mesh_shapes_release(&ms);
  return rc ? urdf_fail(doc, node, rc, "out of memory") : TEAL_OK;
}

static int add_geometry(sdf_state *s, int f, int l, urdf_model *out, urdf_node *node,
                        teal_geometry_role role) {
  urdf_model *doc = SFRAME(s)[f].doc;
  urdf_geom g;
  memset(&g, 0, sizeof(g));
  g.link = l;
  g.node = node;
  g.role = role;
  const char *name;
  urdf_node *geometry;
  teal_transform X_GS;
  int is_mesh = 0;
  int rc = urdf_attr_required(doc, node, "name", &name);
  rc = rc ? rc : geometry_pose(s, f, doc, node, &g.X_LG);
  rc = rc ? rc : urdf_unique_child(doc, node, "geometry", &geometry);
  rc = rc || geometry ? rc : urdf_fail(doc, node, TEAL_EPARSE, "missing <geometry>");
  rc = rc ? rc : parse_shape(doc, geometry, &g.shape, &X_GS, &is_mesh);
  if (rc) {
    return rc;
  }
  g.X_LG = teal_transform_compose(g.X_LG, X_GS);
  if (g.shape.kind == TEAL_SHAPE_HALF_SPACE && role != TEAL_ROLE_PROXIMITY) {
    urdf_warn(doc, node, &doc->report->ignored_elements, "visual plane skipped");
    teal_shape_release(&g.shape);
    return TEAL_OK;
  }
  rc = is_mesh && role == TEAL_ROLE_PROXIMITY ? mesh_hull(s, doc, node, &g.shape) : TEAL_OK;
  rc = rc                            ? rc
       : role == TEAL_ROLE_PROXIMITY ? parse_proximity(doc, node, &g.props)
                                     : parse_color(doc, node, g.rgba);
  const urdf_link *L = &ULINK(out)[l];
  g.name = rc ? NULL : geometry_name(urdf_plant_name(out, L->inst, L->name), name);
  urdf_geom *dst = g.name ? urdf_push(out, &out->geoms, sizeof(urdf_geom)) : NULL;
  if (!dst) {
    teal_shape_release(&g.shape);
    teal_free(g.name);
    return rc ? rc : urdf_fail(doc, node, TEAL_ENOMEM, "out of memory");
  }
  *dst = g;
  return TEAL_OK;
}

int sdf_convert_geometry(sdf_state *s, int f, int l, urdf_model *out) {
  int rc = TEAL_OK;
  for (urdf_node *c = SFRAME(s)[f].node->children; c && rc == TEAL_OK; c = c->next) {
    if (urdf_is(c, "visual")) {
      rc = add_geometry(s, f, l, out, c, TEAL_ROLE_ILLUSTRATION);
    } else if (urdf_is(c, "collision")) {
      rc = add_geometry(s, f, l, out, c, TEAL_ROLE_PROXIMITY);
    }
  }
  return rc;
}
