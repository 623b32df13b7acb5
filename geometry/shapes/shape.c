/* Shape constructors, copy and release (see shape.h). */
#include "geometry/shapes/shape.h"

#include <math.h>
#include <string.h>

#include "framework/alloc.h"

static int positive(double x) {
  return isfinite(x) && x > 0.0;
}

/* The error of a constructor: a NULL out, or what (the dimensions) invalid. */
static int bad(teal_error *err, const teal_shape *out, const char *kind, const char *what) {
  if (!out) {
    return teal_error_set(err, TEAL_EINVAL, "shape: %s: out is NULL", kind);
  }
  return teal_error_set(err, TEAL_EINVAL, "shape: %s %s must be finite and > 0", kind, what);
}

static void blank(teal_shape *out, teal_shape_kind kind) {
  memset(out, 0, sizeof(*out));
  out->kind = kind;
}

int teal_shape_sphere(double radius, teal_shape *out, teal_error *err) {
  if (!out || !positive(radius)) {
    return bad(err, out, "sphere", "radius");
  }
  blank(out, TEAL_SHAPE_SPHERE);
  out->radius = radius;
  return TEAL_OK;
}

int teal_shape_box(double x, double y, double z, teal_shape *out, teal_error *err) {
  if (!out || !positive(x) || !positive(y) || !positive(z)) {
    return bad(err, out, "box", "sides");
  }
  blank(out, TEAL_SHAPE_BOX);
  out->size = teal_vec3_make(x, y, z);
  return TEAL_OK;
}

int teal_shape_cylinder(double radius, double length, teal_shape *out, teal_error *err) {
  if (!out || !positive(radius) || !positive(length)) {
    return bad(err, out, "cylinder", "radius and length");
  }
  blank(out, TEAL_SHAPE_CYLINDER);
  out->radius = radius;
  out->length = length;
  return TEAL_OK;
}

int teal_shape_capsule(double radius, double length, teal_shape *out, teal_error *err) {
  if (!out || !positive(radius) || !positive(length)) {
    return bad(err, out, "capsule", "radius and length");
  }
  blank(out, TEAL_SHAPE_CAPSULE);
  out->radius = radius;
  out->length = length;
  return TEAL_OK;
}

int teal_shape_ellipsoid(double a, double b, double c, teal_shape *out, teal_error *err) {
  if (!out || !positive(a) || !positive(b) || !positive(c)) {
    return bad(err, out, "ellipsoid", "semi-axes");
  }
  blank(out, TEAL_SHAPE_ELLIPSOID);
  out->size = teal_vec3_make(a, b, c);
  return TEAL_OK;
}

int teal_shape_half_space(teal_shape *out) {
  if (!out) {
    return TEAL_EINVAL;
  }
  blank(out, TEAL_SHAPE_HALF_SPACE);
  return TEAL_OK;
}

/* Nonzero when some four of the points span a volume. */
static int spans_volume(const teal_vec3 *v, int n) {
  double scale = 0.0;
  for (int i = 1; i < n; i++) {
    scale = fmax(scale, teal_vec3_norm(teal_vec3_sub(v[i], v[0])));
  }
  double tol = 1e-12 * scale * scale * scale;
  for (int i = 1; i < n; i++) {
    for (int j = i + 1; j < n; j++) {
      teal_vec3 c = teal_vec3_cross(teal_vec3_sub(v[i], v[0]), teal_vec3_sub(v[j], v[0]));
      for (int k = j + 1; k < n; k++) {
        if (fabs(teal_vec3_dot(c, teal_vec3_sub(v[k], v[0]))) > tol) {
          return 1;
        }
      }
    }
  }
  return 0;
}

int teal_shape_convex(const teal_vec3 *vertices, int n, teal_shape *out, teal_error *err) {
  if (!out || !vertices) {
    return teal_error_set(err, TEAL_EINVAL, "shape: convex: %s is NULL", !out ? "out" : "vertices");
  }
  if (n < 4) {
    return teal_error_set(err, TEAL_EINVAL, "shape: a convex polytope needs >= 4 vertices (got %d)",
                          n);
  }
  for (int i = 0; i < n; i++) {
    if (!teal_vec3_is_finite(vertices[i])) {
      return teal_error_set(err, TEAL_EINVAL, "shape: convex vertex %d is not finite", i);
    }
  }
  if (!spans_volume(vertices, n)) {
    return teal_error_set(err, TEAL_EINVAL, "shape: convex vertices are coplanar");
  }
  teal_vec3 *v = teal_calloc((size_t)n, sizeof(*v));
  if (!v) {
    return teal_error_set(err, TEAL_ENOMEM, "shape: out of memory");
  }
  memcpy(v, vertices, (size_t)n * sizeof(*v));
  blank(out, TEAL_SHAPE_CONVEX);
  out->vertices = v;
  out->num_vertices = n;
  return TEAL_OK;
}

int teal_shape_mesh(const char *filename, double scale, teal_shape *out, teal_error *err) {
  if (!out) {
    return teal_error_set(err, TEAL_EINVAL, "shape: mesh: out is NULL");
  }
  if (!filename || !positive(scale)) {
    return teal_error_set(err, TEAL_EINVAL, "shape: a mesh needs a filename and scale > 0");
  }
  char *name = teal_strdup(filename);
  if (!name) {
    return teal_error_set(err, TEAL_ENOMEM, "shape: out of memory");
  }
  blank(out, TEAL_SHAPE_MESH);
  out->filename = name;
  out->size = teal_vec3_make(scale, scale, scale);
  return TEAL_OK;
}

int teal_shape_copy(teal_shape *dst, const teal_shape *src) {
  if (!dst || !src) {
    return TEAL_EINVAL;
  }
  *dst = *src;
  dst->vertices = NULL;
  dst->filename = NULL;
  if (src->vertices) {
    dst->vertices = teal_calloc((size_t)src->num_vertices, sizeof(teal_vec3));
    if (!dst->vertices) {
      return TEAL_ENOMEM;
    }
    memcpy(dst->vertices, src->vertices, (size_t)src->num_vertices * sizeof(teal_vec3));
  }
  if (src->filename && !(dst->filename = teal_strdup(src->filename))) {
    teal_shape_release(dst);
    return TEAL_ENOMEM;
  }
  return TEAL_OK;
}

void teal_shape_release(teal_shape *shape) {
  if (!shape) {
    return;
  }
  teal_free(shape->vertices);
  teal_free(shape->filename);
  shape->vertices = NULL;
  shape->filename = NULL;
  shape->num_vertices = 0;
}

double teal_shape_bounding_radius(const teal_shape *s) {
  if (!s) {
    return -1.0;
  }
  double h = 0.5 * s->length, r = -1.0;
  switch (s->kind) {
    case TEAL_SHAPE_SPHERE:
      return s->radius;
    case TEAL_SHAPE_BOX:
      return 0.5 * teal_vec3_norm(s->size);
    case TEAL_SHAPE_CYLINDER:
      return hypot(s->radius, h);
    case TEAL_SHAPE_CAPSULE:
      return s->radius + h;
    case TEAL_SHAPE_ELLIPSOID:
      return fmax(s->size.v[0], fmax(s->size.v[1], s->size.v[2]));
    case TEAL_SHAPE_CONVEX:
      for (int i = 0; i < s->num_vertices && s->vertices; i++) {
        r = fmax(r, teal_vec3_norm(s->vertices[i]));
      }
      return r;
    default:
      return INFINITY;
  }
}

const char *teal_shape_kind_name(teal_shape_kind kind) {
  static const char *names[] = {"sphere",     "box",    "cylinder", "capsule",
                                "ellipsoid",  "half_space", "convex", "mesh"};
  return kind >= 0 && kind < TEAL_SHAPE_KIND_COUNT ? names[kind] : "unknown";
}

static int positive_vec(teal_vec3 v) {
  return positive(v.v[0]) && positive(v.v[1]) && positive(v.v[2]);
}

int teal_shape_is_valid(const teal_shape *s) {
  if (!s) {
    return 0;
  }
  switch (s->kind) {
    case TEAL_SHAPE_SPHERE:
      return positive(s->radius);
    case TEAL_SHAPE_BOX:
    case TEAL_SHAPE_ELLIPSOID:
      return positive_vec(s->size);
    case TEAL_SHAPE_CYLINDER:
    case TEAL_SHAPE_CAPSULE:
      return positive(s->radius) && positive(s->length);
    case TEAL_SHAPE_HALF_SPACE:
      return 1;
    case TEAL_SHAPE_CONVEX:
      return s->vertices && s->num_vertices >= 4 && spans_volume(s->vertices, s->num_vertices);
    case TEAL_SHAPE_MESH:
      return s->filename != NULL && positive(s->size.v[0]);
    default:
      return 0;
  }
}
