/* Axis-aligned bounding boxes (see aabb.h). Each half extent along a world
 * axis e is the support of the shape along e, measured from its origin:
 * a closed form per kind, a scan of the vertices for a convex shape. */
#include "geometry/proximity/aabb.h"

#include <math.h>

#include "geometry/shapes/support.h"

/* Half extents of a centred shape along the world axes, R = R_WG: row i of
 * R is world axis i seen in G. */
static teal_vec3 half_extents(const teal_shape *s, teal_rotation R) {
  teal_vec3 e;
  double h = 0.5 * s->length;
  for (int i = 0; i < 3; i++) {
    teal_vec3 r = teal_vec3_make(R.m[3 * i], R.m[3 * i + 1], R.m[3 * i + 2]);
    teal_vec3 ar = teal_vec3_make(fabs(r.v[0]), fabs(r.v[1]), fabs(r.v[2]));
    double radial = sqrt(fmax(0.0, 1.0 - r.v[2] * r.v[2]));
    switch (s->kind) {
      case TEAL_SHAPE_SPHERE:
        e.v[i] = s->radius;
        break;
      case TEAL_SHAPE_BOX:
        e.v[i] = 0.5 * teal_vec3_dot(ar, s->size);
        break;
      case TEAL_SHAPE_CYLINDER:
        e.v[i] = h * ar.v[2] + s->radius * radial;
        break;
      case TEAL_SHAPE_CAPSULE:
        e.v[i] = h * ar.v[2] + s->radius;
        break;
      default: /* ellipsoid: |D r| */
        e.v[i] = hypot(hypot(s->size.v[0] * r.v[0], s->size.v[1] * r.v[1]), s->size.v[2] * r.v[2]);
        break;
    }
  }
  return e;
}

/* A convex polytope: the extreme vertices along each world axis. */
static teal_aabb convex_aabb(const teal_shape *s, teal_transform X) {
  teal_aabb box = {{{INFINITY, INFINITY, INFINITY}}, {{-INFINITY, -INFINITY, -INFINITY}}};
  for (int k = 0; k < s->num_vertices; k++) {
    teal_vec3 p = teal_transform_apply(X, s->vertices[k]);
    for (int i = 0; i < 3; i++) {
      box.lo.v[i] = fmin(box.lo.v[i], p.v[i]);
      box.hi.v[i] = fmax(box.hi.v[i], p.v[i]);
    }
  }
  return box;
}

static int pose_is_finite(const teal_transform *X) {
  for (int i = 0; i < 9; i++) {
    if (!isfinite(X->R.m[i])) {
      return 0;
    }
  }
  return teal_vec3_is_finite(X->p);
}

int teal_shape_aabb(const teal_shape *s, teal_transform X_WG, teal_aabb *out) {
  if (!s || !out || s->kind < 0 || s->kind >= TEAL_SHAPE_KIND_COUNT) {
    return TEAL_EINVAL;
  }
  if (s->kind == TEAL_SHAPE_MESH) {
    return TEAL_EUNSUPPORTED;
  }
  if (s->kind == TEAL_SHAPE_CONVEX && !teal_shape_has_support(s)) {
    return TEAL_EINVAL;
  }
  if (!pose_is_finite(&X_WG)) {
    return TEAL_ENONFINITE;
  }
  if (s->kind == TEAL_SHAPE_HALF_SPACE) {
    teal_aabb inf = {{{-INFINITY, -INFINITY, -INFINITY}}, {{INFINITY, INFINITY, INFINITY}}};
    *out = inf;
  } else if (s->kind == TEAL_SHAPE_CONVEX) {
    *out = convex_aabb(s, X_WG);
  } else {
    teal_vec3 e = half_extents(s, X_WG.R);
    out->lo = teal_vec3_sub(X_WG.p, e);
    out->hi = teal_vec3_add(X_WG.p, e);
  }
  return TEAL_OK;
}

teal_aabb teal_aabb_inflate(teal_aabb box, double margin) {
  teal_vec3 m = teal_vec3_make(margin, margin, margin);
  box.lo = teal_vec3_sub(box.lo, m);
  box.hi = teal_vec3_add(box.hi, m);
  return box;
}

int teal_aabb_overlap(const teal_aabb *a, const teal_aabb *b) {
  for (int i = 0; i < 3; i++) {
    if (a->lo.v[i] > b->hi.v[i] || b->lo.v[i] > a->hi.v[i]) {
      return 0;
    }
  }
  return 1;
}

int teal_aabb_is_unbounded(const teal_aabb *box) {
  return !teal_vec3_is_finite(box->lo) || !teal_vec3_is_finite(box->hi);
}
