/* MJCF <geom>: the shape from type and size (or fromto), the pose, the
 * contact attributes Teal maps, and the solid's mass and inertia exactly
 * as MuJoCo's compiler computes them (density 1000 unless mass is given). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/mjcf_internal.h"

#define MJCF_PI 3.14159265358979323846

enum { G_PLANE = 0, G_HFIELD, G_SPHERE, G_CAPSULE, G_ELLIPSOID, G_CYLINDER, G_BOX, G_MESH };

/* MuJoCo's volume and central inertia per unit mass of a solid geom with
 * sizes s (radius, half-length; or semi-axes, half-sides), in the geom
 * frame; 0 for planes, height fields and meshes. */
static double solid_volume(int type, const double s[3]) {
  switch (type) {
    case G_SPHERE:
      return 4.0 * MJCF_PI * s[0] * s[0] * s[0] / 3.0;
    case G_CAPSULE:
      return MJCF_PI * s[0] * s[0] * (2.0 * s[1] + 4.0 * s[0] / 3.0);
    case G_CYLINDER:
      return MJCF_PI * s[0] * s[0] * 2.0 * s[1];
    case G_ELLIPSOID:
      return 4.0 * MJCF_PI * s[0] * s[1] * s[2] / 3.0;
    case G_BOX:
      return 8.0 * s[0] * s[1] * s[2];
    default:
      return 0.0;
  }
}

/* The principal moments of the solid of mass mass. The capsule is a
 * cylinder of height 2 s[1] and two half-spheres moved to its ends, the
 * mass split between them by volume. */
static teal_vec3 solid_moments(int type, const double s[3], double mass) {
  double r = s[0], h = 2.0 * s[1];
  switch (type) {
    case G_SPHERE: {
      double i = 0.4 * mass * r * r;
      return teal_vec3_make(i, i, i);
    }
    case G_CAPSULE: {
      double ms = mass * 4.0 * r / (4.0 * r + 3.0 * h), mc = mass - ms;
      double ia =
          mc * (3.0 * r * r + h * h) / 12.0 + 0.4 * ms * r * r + ms * h * (3.0 * r + 2.0 * h) / 8.0;
      return teal_vec3_make(ia, ia, mc * r * r / 2.0 + 0.4 * ms * r * r);
    }
    case G_CYLINDER: {
      double ia = mass * (3.0 * r * r + h * h) / 12.0;
      return teal_vec3_make(ia, ia, mass * r * r / 2.0);
    }
    case G_ELLIPSOID:
      return teal_vec3_make(mass * (s[1] * s[1] + s[2] * s[2]) / 5.0,
                            mass * (s[0] * s[0] + s[2] * s[2]) / 5.0,
                            mass * (s[0] * s[0] + s[1] * s[1]) / 5.0);
    case G_BOX:
      return teal_vec3_make(mass * (s[1] * s[1] + s[2] * s[2]) / 3.0,
                            mass * (s[0] * s[0] + s[2] * s[2]) / 3.0,
                            mass * (s[0] * s[0] + s[1] * s[1]) / 3.0);
    default:
      return teal_vec3_zero();
  }
}

/* The number of sizes a type needs (the fromto form gives the last one). */
static int sizes_needed(int type) {
  static const int n[] = {0, 0, 1, 2, 3, 2, 3, 0};
  return n[type];
}

/* fromto: the pose on the segment's midpoint with z along it, and its half
 * length as the size along z. */
static int fromto_pose(mjcf_model *m, urdf_node *node, int type, const double f[6],
                       teal_transform *X, double s[3]) {
  teal_vec3 a = teal_vec3_make(f[0], f[1], f[2]), b = teal_vec3_make(f[3], f[4], f[5]);
  teal_vec3 d = teal_vec3_sub(b, a);
  double len = teal_vec3_norm(d);
  if (type != G_CAPSULE && type != G_CYLINDER && type != G_BOX && type != G_ELLIPSOID) {
    return urdf_fail(&m->u, node, TEAL_EPARSE,
                     "fromto needs a capsule, cylinder, box or ellipsoid");
  }
  if (!(len > 1e-12)) {
    return urdf_fail(&m->u, node, TEAL_EINVAL, "fromto: zero length");
  }
  X->p = teal_vec3_scale(teal_vec3_add(a, b), 0.5);
  X->R = mjcf_z_to(d);
  s[type == G_BOX || type == G_ELLIPSOID ? 2 : 1] = len / 2.0;
  return TEAL_OK;
}

/* The type, the sizes (s[0..2]) and the pose of the geom. */
static int geom_shape(mjcf_model *m, urdf_node *node, int cls, int *type, double s[3],
                      teal_transform *X) {
  static const char *const types[] = {"plane",    "hfield", "sphere", "capsule", "ellipsoid",
                                      "cylinder", "box",    "mesh",   NULL};
  double f[6];
  int ns = 0, nf = 0;
  int rc = mjcf_keyword(m, node, "geom", cls, "type", types, G_SPHERE, type);
  rc = rc ? rc : mjcf_numbers(m, node, "geom", cls, "size", 3, s, &ns);
  rc = rc ? rc : mjcf_numbers(m, node, "geom", cls, "fromto", 6, f, &nf);
  rc = rc ? rc : mjcf_pose(m, node, "geom", cls, X);
  if (rc) {
    return rc;
  }
  if (nf && nf != 6) {
    return urdf_fail(&m->u, node, TEAL_EPARSE, "attribute fromto needs 6 numbers");
  }
  int need = sizes_needed(*type) - (nf == 6 ? 1 : 0);
  if (ns < need) {
    return urdf_fail(&m->u, node, TEAL_EPARSE, "size needs %d number%s for this type", need,
                     need == 1 ? "" : "s");
  }
  rc = nf == 6 ? fromto_pose(m, node, *type, f, X, s) : TEAL_OK;
  for (int i = 0; i < sizes_needed(*type) && rc == TEAL_OK; i++) {
    if (!(s[i] > 0.0)) {
      rc = urdf_fail(&m->u, node, TEAL_EINVAL, "size %d must be > 0", i);
    }
  }
  return rc;
}

static int make_shape(mjcf_model *m, urdf_node *node, int type, const double s[3], mjcf_geom *g) {
  teal_error e = {TEAL_OK, ""};
  int rc = TEAL_OK;
  g->has_shape = 1;
  switch (type) {
    case G_PLANE:
      return teal_shape_half_space(&g->shape);
    case G_SPHERE:
      rc = teal_shape_sphere(s[0], &g->shape, &e);
      break;
    case G_CAPSULE:
      rc = teal_shape_capsule(s[0], 2.0 * s[1], &g->shape, &e);
      break;
    case G_CYLINDER:
      rc = teal_shape_cylinder(s[0], 2.0 * s[1], &g->shape, &e);
      break;
    case G_ELLIPSOID:
      rc = teal_shape_ellipsoid(s[0], s[1], s[2], &g->shape, &e);
      break;
    case G_BOX:
      rc = teal_shape_box(2.0 * s[0], 2.0 * s[1], 2.0 * s[2], &g->shape, &e);
      break;
    default:
      g->has_shape = 0;
      urdf_warn(&m->u, node, &m->report->skipped_geoms, "%s geom skipped (no mass, no collision)",
                type == G_MESH ? "mesh" : "hfield");
      return TEAL_OK;
  }
  g->has_shape = rc == TEAL_OK;
  return rc ? urdf_fail(&m->u, node, rc, "%s", e.message) : TEAL_OK;
}

/* Adds the geom's solid (a primitive, or the mesh's when mesh is given) to
 * M_BBo_B, the body's inertia about its origin. */
static int add_solid(mjcf_model *m, urdf_node *node, int cls, int type, const double s[3],
                     const mjcf_mesh *mesh, const teal_transform *X_BG,
                     teal_spatial_inertia *M_BBo_B) {
  double density, mass;
  int n = 0;
  int rc = mjcf_double(m, node, "geom", cls, "density", 1000.0, &density);
  rc = rc ? rc : mjcf_numbers(m, node, "geom", cls, "mass", 1, &mass, &n);
  if (rc) {
    return rc;
  }
  if (density < 0.0 || (n && mass < 0.0)) {
    return urdf_fail(&m->u, node, TEAL_EINVAL, "negative mass or density");
  }
  double volume = mesh ? mesh->solid.volume : solid_volume(type, s);
  mass = n ? mass : density * volume;
  if (!(volume > 0.0) || !(mass > 0.0)) {
    return TEAL_OK;
  }
  teal_vec3 d = solid_moments(type, s, mass);
  teal_mat3 I_G = mesh ? teal_mat3_scale(mesh->solid.unit_inertia, mass)
                       : teal_mat3_diag(d.v[0], d.v[1], d.v[2]);
  teal_vec3 c_G = mesh ? mesh->solid.center_of_mass : teal_vec3_zero();
  teal_mat3 I = teal_mat3_mul(teal_mat3_mul(X_BG->R, I_G), teal_mat3_transpose(X_BG->R));
  teal_spatial_inertia Mg =
      teal_spatial_inertia_from_central(mass, teal_transform_apply(*X_BG, c_G), I);
  *M_BBo_B = teal_spatial_inertia_add(M_BBo_B, &Mg);
  return TEAL_OK;
}

/* contype and conaffinity: 32-bit masks, so integers in [0, 2^32). */
static int collision_bits(mjcf_model *m, urdf_node *node, double ct, double ca, mjcf_geom *g) {
  const double v[2] = {ct, ca};
  static const char *const names[2] = {"contype", "conaffinity"};
  for (int i = 0; i < 2; i++) {
    if (!(v[i] >= 0.0 && v[i] <= 4294967295.0 && v[i] == floor(v[i]))) {
      return urdf_fail(&m->u, node, TEAL_EINVAL, "%s %g must be an integer bit mask in [0, 2^32)",
                       names[i], v[i]);
    }
  }
  g->contype = (uint32_t)ct;
  g->conaffinity = (uint32_t)ca;
  g->collide = g->contype != 0 || g->conaffinity != 0;
  return TEAL_OK;
}

/* Colour, friction and the collision bits. */
static int contact_values(mjcf_model *m, urdf_node *node, int cls, mjcf_geom *g) {
  double f[3] = {1.0, 0.005, 0.0001}, rgba[4] = {0.5, 0.5, 0.5, 1.0}, ct, ca;
  int n;
  int rc = mjcf_numbers(m, node, "geom", cls, "friction", 3, f, &n);
  rc = rc ? rc : mjcf_numbers(m, node, "geom", cls, "rgba", 4, rgba, &n);
  if (rc == TEAL_OK && n && n != 4) {
    rc = urdf_fail(&m->u, node, TEAL_EPARSE, "attribute rgba needs 4 numbers");
  }
  rc = rc ? rc : mjcf_double(m, node, "geom", cls, "contype", 1.0, &ct);
  rc = rc ? rc : mjcf_double(m, node, "geom", cls, "conaffinity", 1.0, &ca);
  if (rc == TEAL_OK && f[0] < 0.0) {
    rc = urdf_fail(&m->u, node, TEAL_EINVAL, "negative friction %g", f[0]);
  }
  for (int i = 0; i < 4 && rc == TEAL_OK; i++) {
    if (rgba[i] < 0.0 || rgba[i] > 1.0) {
      rc = urdf_fail(&m->u, node, TEAL_EINVAL, "rgba values must be in [0, 1]");
    }
  }
  g->friction = f[0];
  memcpy(g->rgba, rgba, sizeof(rgba));
  rc = rc ? rc : collision_bits(m, node, ct, ca, g);
  static const char *const ignored[] = {"condim", "solref",   "solimp", "margin",
                                        "gap",    "priority", "solmix", NULL};
  for (int i = 0; ignored[i] && rc == TEAL_OK; i++) {
    if (urdf_attr(&m->u, node, ignored[i])) {
      urdf_warn(&m->u, node, &m->report->ignored_attributes, "attribute '%s' ignored", ignored[i]);
    }
  }
  return rc ? rc : m->u.err->code;
}

/* The geom's name: its own or "<body>_geom<k>". */
static const char *geom_name(mjcf_model *m, urdf_node *node, int body, int k) {
  const char *name = urdf_attr(&m->u, node, "name");
  if (name && *name) {
    return name;
  }
  const char *b = MBODY(m)[body].name;
  size_t n = strlen(b) + 24;
  char *s = teal_alloc(n);
  if (s) {
    snprintf(s, n, "%s_geom%d", b, k);
  }
  return urdf_keep(&m->u, s);
}

int mjcf_parse_geom(mjcf_model *m, urdf_node *node, int body, int cls, int k, int add_inertia,
                    teal_spatial_inertia *M_BBo_B) {
  double s[3] = {0, 0, 0};
  int type;
  teal_transform X = teal_transform_identity();
  int rc = mjcf_element_class(m, node, cls, &cls);
  rc = rc ? rc : geom_shape(m, node, cls, &type, s, &X);
  mjcf_geom *g = rc ? NULL : urdf_push(&m->u, &m->geoms, sizeof(mjcf_geom));
  if (!g) {
    return m->u.err->code;
  }
  g->node = node;
  g->body = body;
  g->X_BG = X;
  g->name = geom_name(m, node, body, k);
  rc = m->u.err->code ? m->u.err->code : contact_values(m, node, cls, g);
  const mjcf_mesh *mesh = NULL;
  if (rc == TEAL_OK && type == G_MESH) {
    rc = mjcf_mesh_geom(m, node, cls, add_inertia, g, &mesh);
  } else {
    rc = rc ? rc : make_shape(m, node, type, s, g);
  }
  if (rc == TEAL_OK && type == G_PLANE && body != MJCF_WORLD) {
    rc = urdf_fail(&m->u, node, TEAL_EINVAL, "a plane geom is allowed only in <worldbody>");
  }
  return rc || !add_inertia ? rc : add_solid(m, node, cls, type, s, mesh, &X, M_BBo_B);
}

void mjcf_free_geoms(mjcf_model *m) {
  for (int i = 0; i < m->geoms.n; i++) {
    if (MGEOM(m)[i].has_shape) {
      teal_shape_release(&MGEOM(m)[i].shape);
    }
    if (MGEOM(m)[i].has_visual) {
      teal_shape_release(&MGEOM(m)[i].visual);
    }
  }
}
